// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's outputs appear whole or not at all and never clobber:
  a render stopped at any moment (SIGKILL, any other signal, a file-size
  limit, its folder made unwritable) leaves no name behind; of two renders
  to one new path one succeeds and the other is told the path exists; a
  file that appears at the path during a render is kept; devices, FIFOs,
  sockets and links to them are never replaced; names up to NAME_MAX work;
  -o - streams FLAC and CSV.  Where a case can, it runs twice: with the
  unnamed temporary file (O_TMPFILE) and with the named one used where a
  filesystem has no O_TMPFILE (P4D_NO_TMPFILE=1).

  Usage: test_render_outputs PATH_TO_PERLIN4D_RENDER [CASE]
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "support/cli.h"
#include "support/files.h"
#include "support/process.h"

#include <sndfile.h>

#include <assert.h>
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

/// How a render is started.
typedef struct {
  const char* program; ///< A copy of the renderer, or NULL: the original
  bool        named;   ///< P4D_NO_TMPFILE=1: a named temporary file
  bool        nobody;  ///< As user nobody (if root), so that modes apply
  long        fsize;   ///< RLIMIT_FSIZE in bytes (SIGXFSZ as is), or 0
} Setup;

static P4dProc
start(const Setup* s, const char* const* args)
{
  P4dProcSetup how = p4d_cli_setup();
  how.program      = s->program ? s->program : p4d_cli_render();
  how.env          = s->named ? "P4D_NO_TMPFILE=1" : NULL;
  how.nobody       = s->nobody;
  how.fsize        = s->fsize;
  how.keep_out     = true;
  return p4d_proc_start(&how, args);
}

/// Wait until the render holds open a file of folder dir of the work folder
/// ("" for itself): its output, under whatever name or none.
static void
wait_open(const P4dProc* c, const char* dir)
{
  p4d_proc_wait_open(c, dir[0] ? p4d_work_path(dir) : p4d_work_dir());
}

static P4dProcResult
run(const Setup* s, const char* const* args)
{
  P4dProc c = start(s, args);
  return p4d_proc_finish(&c);
}

/// The names in folder dir of the work folder ("" for itself), for a
/// message; and how many.
static unsigned
names_in(const char* dir, char* list, size_t size)
{
  DIR* const d = opendir(dir[0] ? p4d_work_path(dir) : p4d_work_dir());
  assert(d);
  unsigned n = 0U;
  list[0]    = '\0';
  for (struct dirent* e = readdir(d); e; e = readdir(d)) {
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      const size_t len = strlen(list);
      snprintf(list + len, size - len, " %s", e->d_name);
      ++n;
    }
  }
  closedir(d);
  return n;
}

/// Assert that the folder holds n names, listing them if not.
static void
expect_names(const char* dir, unsigned n, const char* what)
{
  char           list[2048];
  const unsigned found = names_in(dir, list, sizeof(list));
  if (found != n) {
    printf("# %s: %u names left (expected %u):%s\n", what, found, n, list);
  }
  assert(found == n);
}

/// The one-line refusal or failure of r: status, prefix, nothing on stdout.
static void
expect_line(const P4dProcResult* r,
            int                  status,
            const char*          prefix,
            const char*          what)
{
  const bool ok = r->status == status && p4d_count_lines(r->err) == 1U &&
                  !strncmp(r->err, prefix, strlen(prefix)) && !r->out_len;
  if (!ok) {
    printf("# %s: status %d (expected %d), stderr: %s\n",
           what,
           r->status,
           status,
           r->err);
  }
  assert(ok);
}

static const char* const long_render[] = { "-o",   "out.wav",      "--duration",
                                           "3000", "--samplerate", "8000",
                                           NULL };

/// SIGKILL mid-render: no name at all, not even a temporary one; an older
/// file replaced with --force is intact.
static void
test_kill9_leaves_nothing(void)
{
  static const char* const forced[] = { "-o",           "out.wav",
                                        "--duration",   "3000",
                                        "--samplerate", "8000",
                                        "--force",      NULL };
  const Setup              s        = { NULL, false, false, 0L };
  P4dProc                  c        = start(&s, long_render);
  wait_open(&c, "");
  p4d_proc_sleep_ms(100L);
  kill(c.pid, SIGKILL);
  P4dProcResult r = p4d_proc_finish(&c);
  assert(r.status == 128 + SIGKILL);
  expect_names("", 0U, "SIGKILL");
  free(r.out_all);

  p4d_work_write("out.wav", "older");
  c = start(&s, forced);
  wait_open(&c, "");
  p4d_proc_sleep_ms(100L);
  kill(c.pid, SIGKILL);
  r = p4d_proc_finish(&c);
  free(r.out_all);
  expect_names("", 1U, "SIGKILL, --force");
  size_t size = 0U;
  char*  text = p4d_work_read("out.wav", &size);
  assert(size == 5U && !strcmp(text, "older"));
  free(text);
  p4d_work_clear();
  printf("# SIGKILL mid-render: no name left; an older file intact\n");
}

/// Any signal that ends a render by default leaves nothing: one line and
/// exit 1, or (SIGPIPE, the reader gone) quietly 141.
static void
test_signals_leave_nothing(void)
{
  static const int sigs[] = { SIGHUP, SIGPIPE, SIGUSR1, SIGTERM,
                              SIGINT, SIGQUIT, SIGUSR2, SIGALRM };
  for (int named = 0; named < 2; ++named) {
    const Setup s = { NULL, named, false, 0L };
    // The named temporary file: the signals of the issue.
    for (size_t i = 0U; i < (named ? 4U : sizeof(sigs) / sizeof(sigs[0]));
         ++i) {
      char what[64];

      snprintf(what, sizeof(what), "signal %d, named %d", sigs[i], named);
      P4dProc c = start(&s, long_render);
      wait_open(&c, "");
      p4d_proc_sleep_ms(20L);
      kill(c.pid, sigs[i]);
      P4dProcResult r = p4d_proc_finish(&c);
      if (sigs[i] == SIGPIPE) {
        if (r.status != 128 + SIGPIPE || r.err[0]) {
          printf("# %s: status %d, stderr: %s\n", what, r.status, r.err);
        }
        assert(r.status == 128 + SIGPIPE && !r.err[0]);
      } else {
        expect_line(&r, 1, "perlin4d-render: out.wav: interrupted", what);
      }
      expect_names("", 0U, what);
      free(r.out_all);
    }
  }
  printf("# SIGHUP SIGINT SIGQUIT SIGTERM SIGUSR1 SIGUSR2 SIGALRM: exit 1, "
         "SIGPIPE: 141 quietly; nothing left\n");
}

/// A file-size limit (SIGXFSZ not ignored): one line, exit 1, nothing left.
static void
test_file_size_limit(void)
{
  for (int named = 0; named < 2; ++named) {
    const Setup   s = { NULL, named, false, 65536L };
    P4dProcResult r = run(&s, long_render);
    expect_line(&r, 1, "perlin4d-render: out.wav: ", "ulimit -f 64");
    assert(strstr(r.err, "too large"));
    expect_names("", 0U, "ulimit -f 64");
    free(r.out_all);
  }
  printf("# ulimit -f 64: exit 1, one line, nothing left\n");
}

/// Two renders to one new path, without --force: one file, one "exists".
static void
test_concurrent_renders(void)
{
  static const char* const args[] = { "-o",     "c.wav", "--duration", "0.5",
                                      "--jobs", "1",     NULL };
  unsigned                 raced  = 0U;
  for (int t = 0; t < 24; ++t) {
    const Setup   s    = { NULL, t >= 20, false, 0L };
    P4dProc       a    = start(&s, args);
    P4dProc       b    = start(&s, args);
    P4dProcResult r[2] = { p4d_proc_finish(&a), p4d_proc_finish(&b) };
    const int     won  = r[0].status == 0 ? 0 : 1;
    const int     lost = 1 - won;
    if (r[won].status || r[won].err[0] || !r[lost].status ||
        !strstr(r[lost].err, "c.wav: exists")) {
      printf("# try %d: status %d and %d, stderr: %s%s\n",
             t,
             r[0].status,
             r[1].status,
             r[0].err,
             r[1].err);
    }
    assert(r[won].status == 0 && !r[won].err[0]);
    expect_line(&r[lost],
                r[lost].status == 1 ? 1 : 2,
                "perlin4d-render: c.wav: exists",
                "the second render");
    raced += r[lost].status == 1;
    expect_names("", 1U, "two renders");
    SF_INFO info   = { 0 };
    float*  frames = p4d_cli_read_frames("c.wav", &info);
    assert(info.frames == 24000);
    free(frames);
    free(r[0].out_all);
    free(r[1].out_all);
    p4d_work_clear();
  }
  printf("# 24 pairs of renders to one path: one file, one 'exists' each "
         "(%u refused at the end, the rest at the start)\n",
         raced);
}

/// A file another program creates at the path during a render is kept.
static void
test_file_appears_during_render(void)
{
  static const char* const args[] = { "-o",     "late.wav", "--duration", "30",
                                      "--jobs", "1",        NULL };
  for (int named = 0; named < 2; ++named) {
    const Setup s = { NULL, named, false, 0L };
    P4dProc     c = start(&s, args);
    wait_open(&c, "");
    kill(c.pid, SIGSTOP);
    p4d_work_write("late.wav", "theirs");
    kill(c.pid, SIGCONT);
    P4dProcResult r = p4d_proc_finish(&c);
    expect_line(&r, 1, "perlin4d-render: late.wav: exists", "late.wav");
    size_t size = 0U;
    char*  text = p4d_work_read("late.wav", &size);
    assert(size == 6U && !strcmp(text, "theirs"));
    free(text);
    free(r.out_all);
    expect_names("", 1U, "a file appeared");
    p4d_work_clear();
  }
  printf("# a file created at the path during the render: kept, exit 1\n");
}

/// --force replaces in one step: until the end the old file is all there
/// is; then a new file with the mode a new file gets.
static void
test_force_replaces_atomically(void)
{
  static const char* const first[] = { "-o",         "r.wav", "--seed", "1",
                                       "--duration", "0.2",   NULL };
  static const char* const again[] = { "-o",         "r.wav", "--seed", "2",
                                       "--duration", "30",    "--jobs", "1",
                                       "--force",    NULL };
  for (int named = 0; named < 2; ++named) {
    p4d_cli_ok(first, NULL);
    assert(!link(p4d_work_path("r.wav"), p4d_work_path("old.wav")));
    struct stat before;
    struct stat after;
    assert(!stat(p4d_work_path("r.wav"), &before));

    const Setup s = { NULL, named, false, 0L };
    P4dProc     c = start(&s, again);
    wait_open(&c, "");
    kill(c.pid, SIGSTOP);
    assert(p4d_work_same("r.wav", "old.wav"));
    if (!named) {
      expect_names("", 2U, "during --force");
    }
    kill(c.pid, SIGCONT);
    P4dProcResult r = p4d_proc_finish(&c);
    assert(r.status == 0 && !r.err[0]);
    free(r.out_all);
    assert(!stat(p4d_work_path("r.wav"), &after));
    assert(after.st_ino != before.st_ino && (after.st_mode & 0777) == 0644);
    assert(!p4d_work_same("r.wav", "old.wav"));
    expect_names("", 2U, "after --force");
    p4d_work_clear();
  }
  printf("# --force: the old file alone until a new one replaces it\n");
}

static void
make_socket(const char* name)
{
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof(addr));
  addr.sun_family = AF_UNIX;
  snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", p4d_work_path(name));
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  assert(fd >= 0 && !bind(fd, (const struct sockaddr*)&addr, sizeof(addr)));
  close(fd);
}

static void
expect_refused(const char* out, bool force, const char* message, unsigned n)
{
  const char* args[] = { "-o", out, "--duration", "0.1", NULL, NULL };
  args[4]            = force ? "--force" : NULL;
  char expected[512];
  snprintf(expected, sizeof(expected), "%s: %s", out, message);
  p4d_cli_refused(args, 2, expected, n);
}

/// Devices, FIFOs, sockets and links to them are refused, forced or not,
/// and stay what they were; a dangling link is replaced only when forced.
static void
test_not_regular_files(void)
{
  // First a FIFO and a socket, forced: a renderer that replaces them stops
  // the test here, before it could replace /dev/null.
  assert(!mkfifo(p4d_work_path("fifo.wav"), 0644));
  make_socket("sock.wav");
  for (int force = 1; force >= 0; --force) {
    expect_refused("fifo.wav", force, "not a regular file", 2U);
    expect_refused("sock.wav", force, "not a regular file", 2U);
  }
  struct stat st;
  assert(!lstat(p4d_work_path("fifo.wav"), &st) && S_ISFIFO(st.st_mode));
  assert(!lstat(p4d_work_path("sock.wav"), &st) && S_ISSOCK(st.st_mode));
  p4d_work_clear();

  assert(!symlink("/dev/null", p4d_work_path("null.wav")));
  for (int force = 1; force >= 0; --force) {
    expect_refused("null.wav", force, "not a regular file", 1U);
    expect_refused("/dev/null", force, "not a regular file", 1U);
    // stdout is a pipe here: /dev/stdout is a link to it.
    expect_refused("/dev/stdout", force, "not a regular file", 1U);
  }
  char target[64];
  assert(!lstat(p4d_work_path("null.wav"), &st) && S_ISLNK(st.st_mode));
  assert(readlink(p4d_work_path("null.wav"), target, sizeof(target)) == 9);
  assert(!lstat("/dev/null", &st) && S_ISCHR(st.st_mode) &&
         st.st_rdev == makedev(1, 3));
  p4d_work_clear();

  // A dangling link: refused, or replaced by the file when forced.
  assert(!symlink("nowhere.wav", p4d_work_path("dangling.wav")));
  expect_refused("dangling.wav", false, "is a dangling symbolic link", 1U);
  assert(!lstat(p4d_work_path("dangling.wav"), &st) && S_ISLNK(st.st_mode));
  static const char* const forced[] = { "-o",  "dangling.wav", "--duration",
                                        "0.1", "--force",      NULL };
  p4d_cli_ok(forced, NULL);
  assert(!lstat(p4d_work_path("dangling.wav"), &st) && S_ISREG(st.st_mode));
  assert(!p4d_work_exists("nowhere.wav"));
  p4d_work_clear();
  printf("# /dev/null, /dev/stdout, a FIFO, a socket, links to them: "
         "refused (2), forced or not, untouched; a dangling link refused "
         "unless forced\n");
}

/// Names up to NAME_MAX bytes work, forced or not, with either temporary
/// file; a longer name or path is a bad command line.
static void
test_name_lengths(void)
{
  char name[NAME_MAX + 2];
  for (size_t len = NAME_MAX - 10U; len <= NAME_MAX + 1U; ++len) {
    memset(name, 'n', len - 4U);
    memcpy(name + len - 4U, ".wav", 5U);
    const char* const args[] = { "-o", name, "--duration", "0.05", NULL };
    if (len > NAME_MAX) {
      char expected[NAME_MAX + 64];
      snprintf(expected, sizeof(expected), "%s: file name too long", name);
      p4d_cli_refused(args, 2, expected, 0U);
      continue;
    }
    // Forced too, and with the named temporary file, at the limit.
    for (int run_as = 0; run_as < (len == NAME_MAX ? 4 : 1); ++run_as) {
      const Setup       s      = { NULL, run_as >= 2, false, 0L };
      const char* const more[] = {
        "-o", name, "--duration", "0.05", run_as % 2 ? "--force" : NULL, NULL
      };
      if (run_as % 2) {
        p4d_work_write(name, "older");
      }
      P4dProcResult r = run(&s, more);
      if (r.status) {
        printf("# %zu bytes: status %d, stderr: %s\n", len, r.status, r.err);
      }
      struct stat st;
      assert(r.status == 0 && !stat(p4d_work_path(name), &st));
      assert(st.st_size > 1000);
      free(r.out_all);
      expect_names("", 1U, "a long name");
      p4d_work_clear();
    }
  }

  static char huge[4200];
  memset(huge, 'n', 3996U);
  memcpy(huge + 3996U, ".wav", 5U);
  const char* const args[] = { "-o", huge, "--duration", "0.05", NULL };
  P4dProcResult     r      = run(&(Setup){ NULL, false, false, 0L }, args);
  expect_line(&r, 2, "perlin4d-render: nnnn", "a 4000-byte name");
  free(r.out_all);
  for (size_t i = 0U; i < PATH_MAX - 2U; i += 2U) {
    huge[i]      = '.';
    huge[i + 1U] = '/';
  }
  memcpy(huge + PATH_MAX - 2U, "x.wav", 6U);
  r = run(&(Setup){ NULL, false, false, 0L }, args);
  expect_line(&r, 2, "perlin4d-render: ././", "a path of PATH_MAX bytes");
  free(r.out_all);
  expect_names("", 0U, "long names");
  printf("# names of %d to %d bytes: written (forced or not, O_TMPFILE or "
         "named); %d bytes or a path past PATH_MAX: exit 2\n",
         NAME_MAX - 10,
         NAME_MAX,
         NAME_MAX + 1);
}

/// Read a sound file of the work folder to its end, whatever its header
/// says of its length (a stream's does not know it): frames and header.
static float*
frames_of(const char* name, SF_INFO* info)
{
  memset(info, 0, sizeof(*info));
  SNDFILE* const file = sf_open(p4d_work_path(name), SFM_READ, info);
  assert(file && info->channels > 0);
  size_t n      = 0U;
  size_t cap    = 65536U;
  float* frames = NULL;
  for (sf_count_t got = 1; got > 0; n += (size_t)got) {
    frames = (float*)realloc(frames, cap * (size_t)info->channels * 4U);
    assert(frames);
    got = sf_readf_float(
      file, frames + n * (size_t)info->channels, (sf_count_t)(cap - n));
    cap *= n + (size_t)got == cap ? 2U : 1U;
  }
  sf_close(file);
  info->frames = (sf_count_t)n;
  return frames;
}

/// -o - streams FLAC and CSV: the samples of the same render to a file.
static void
test_standard_output(void)
{
  const Setup              s      = { NULL, false, false, 0L };
  static const char* const csv[]  = { "-o",         "-",   "--format", "csv",
                                      "--plugin",   "mod", "--fps",    "100",
                                      "--duration", "2",   "--plot",   "p.svg",
                                      NULL };
  static const char* const csvf[] = { "-o",         "f.csv", "--plugin",
                                      "mod",        "--fps", "100",
                                      "--duration", "2",     NULL };
  p4d_cli_ok(csvf, NULL);
  P4dProcResult r = run(&s, csv);
  assert(r.status == 0 && !r.err[0]);
  size_t size = 0U;
  char*  file = p4d_work_read("f.csv", &size);
  assert(r.out_len == size && !memcmp(r.out_all, file, size));
  assert(p4d_work_exists("p.svg"));
  free(file);
  free(r.out_all);
  expect_names("", 2U, "-o - --format csv --plot p.svg");

  static const char* const flac[]  = { "-o",         "-", "--format", "flac",
                                       "--duration", "2", NULL };
  static const char* const flacf[] = {
    "-o", "f.flac", "--duration", "2", NULL
  };
  p4d_cli_ok(flacf, NULL);
  r = run(&s, flac);
  assert(r.status == 0 && !r.err[0] && r.out_len > 1000U);
  FILE* f = fopen(p4d_work_path("s.flac"), "wb");
  assert(f && fwrite(r.out_all, 1U, r.out_len, f) == r.out_len && !fclose(f));
  free(r.out_all);
  SF_INFO a = { 0 };
  SF_INFO b = { 0 };
  float*  x = frames_of("f.flac", &a);
  float*  y = frames_of("s.flac", &b);
  assert(a.channels == b.channels && a.samplerate == b.samplerate);
  assert(a.frames == 96000 && b.frames >= a.frames);
  assert(!memcmp(x, y, (size_t)a.frames * (size_t)a.channels * sizeof(float)));
  free(x);
  free(y);
  p4d_work_clear();

  static const struct {
    const char* args[8];
    const char* message;
  } refused[] = {
    { { "-o", "-", "--duration", "1", NULL }, "-o '-': " },
    { { "-o", "-", "--format", "wav", "--duration", "1", NULL },
      "--format 'wav': " },
    { { "-o", "-", "--format", "aiff", "--duration", "1", NULL },
      "--format 'aiff': " },
    { { "-o", "-", "--format", "pcm16", "--duration", "1", NULL },
      "--format 'pcm16': " },
    { { "-o", "a.wav", "--plot", "-", "--duration", "1", NULL },
      "--plot '-': " },
  };
  for (size_t i = 0U; i < sizeof(refused) / sizeof(refused[0]); ++i) {
    p4d_cli_refused(refused[i].args, 2, refused[i].message, 0U);
  }

  // The reader goes away: quietly 141, as other filters, nothing left.
  static const char* const longer[] = { "-o",         "-",      "--format",
                                        "csv",        "--fps",  "1000",
                                        "--duration", "100000", "--plot",
                                        "p.svg",      NULL };
  P4dProc                  c        = start(&s, longer);
  char                     some[4096];
  assert(read(c.out, some, sizeof(some)) > 0);
  close(c.out);
  c.out                = -1;
  int           status = 0;
  char          err[256];
  const ssize_t n = read(c.err, err, sizeof(err) - 1U);
  assert(waitpid(c.pid, &status, 0) == c.pid);
  close(c.err);
  if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGPIPE || n > 0) {
    err[n > 0 ? n : 0] = '\0';
    printf("# reader gone: status %d, stderr: %s\n", status, err);
  }
  assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE && n == 0);
  expect_names("", 0U, "reader gone");
  printf("# -o - --format flac|csv: the samples of a file render; wav, aiff, "
         "no format, --plot -: exit 2; reader gone: 141, nothing left\n");
}

/// The folder made unwritable during a render: nothing left (a named
/// temporary file that cannot be removed is named in the message).
static void
test_unwritable_mid_render(void)
{
  assert(!chmod(p4d_work_dir(), 0755));
  const char* const        program = p4d_cli_sandbox("bin");
  static const char* const args[] = { "-o",     "w/out.wav", "--duration", "30",
                                      "--jobs", "1",         NULL };
  for (int named = 0; named < 2; ++named) {
    assert(!mkdir(p4d_work_path("w"), 0755) &&
           !chmod(p4d_work_path("w"), 0777));
    const Setup s = { program, named, true, 0L };
    P4dProc     c = start(&s, args);
    wait_open(&c, "w");
    kill(c.pid, SIGSTOP);
    assert(!chmod(p4d_work_path("w"), 0555));
    kill(c.pid, SIGCONT);
    P4dProcResult r = p4d_proc_finish(&c);
    expect_line(&r, 1, "perlin4d-render: w/out.wav: ", "unwritable");
    free(r.out_all);
    if (!named) {
      expect_names("w", 0U, "unwritable");
    } else {
      // What could not be removed is named, and is all there is.
      char list[2048];
      assert(names_in("w", list, sizeof(list)) == 1U);
      assert(strstr(r.err, list + 1) && strstr(r.err, "left"));
    }
    p4d_file_remove_tree(p4d_work_path("w"));
  }
  p4d_work_clear();
  assert(!chmod(p4d_work_dir(), 0700));
  printf("# folder unwritable mid-render: exit 1, nothing left (a named "
         "temporary file is named)\n");
}

int
main(int argc, char** argv)
{
  assert(argc == 2 || argc == 3);
  p4d_cli_open(argv[1], "outputs");

  static const struct {
    const char* name;
    void (*run)(void);
  } cases[] = {
    { "kill9", test_kill9_leaves_nothing },
    { "signals", test_signals_leave_nothing },
    { "fsize", test_file_size_limit },
    { "concurrent", test_concurrent_renders },
    { "appears", test_file_appears_during_render },
    { "force", test_force_replaces_atomically },
    { "regular", test_not_regular_files },
    { "names", test_name_lengths },
    { "stdout", test_standard_output },
    { "unwritable", test_unwritable_mid_render },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    if (argc == 2 || !strcmp(argv[2], cases[i].name)) {
      cases[i].run();
    }
  }
  p4d_cli_close();
  return 0;
}
