// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render never clobbers: of two renders to one new path one
  succeeds and the other is told the path exists; a file that appears at
  the path during a render is kept; --force replaces in one step; devices,
  FIFOs, sockets and links to them are never replaced, forced or not;
  names up to NAME_MAX work, longer ones are a bad command line.  Where a
  case can, it runs twice: with the unnamed temporary file (O_TMPFILE) and
  with the named one (P4D_NO_TMPFILE=1).  Renders stopped midway are
  test_render_outputs.c's.

  Usage: test_render_clobber PATH_TO_PERLIN4D_RENDER [CASE]
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "support/cli.h"
#include "support/files.h"
#include "support/process.h"

#include <sndfile.h>

#include <assert.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

/// Two renders to one new path, without --force: one file, one "exists".
static void
test_concurrent_renders(void)
{
  static const char* const args[] = { "-o",     "c.wav", "--duration", "0.5",
                                      "--jobs", "1",     NULL };
  unsigned                 raced  = 0U;
  for (int t = 0; t < 24; ++t) {
    const P4dCliStart s    = { NULL, t >= 20, false, 0L };
    P4dProc           a    = p4d_cli_start(&s, args);
    P4dProc           b    = p4d_cli_start(&s, args);
    P4dProcResult     r[2] = { p4d_proc_finish(&a), p4d_proc_finish(&b) };
    const int         won  = r[0].status == 0 ? 0 : 1;
    const int         lost = 1 - won;
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
    p4d_cli_expect_line(&r[lost],
                        r[lost].status == 1 ? 1 : 2,
                        "perlin4d-render: c.wav: exists",
                        "the second render");
    raced += r[lost].status == 1;
    p4d_cli_expect_names("", 1U, "two renders");
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
    const P4dCliStart s = { NULL, named, false, 0L };
    P4dProc           c = p4d_cli_start(&s, args);
    p4d_cli_stop_when_open(&c, "");
    p4d_work_write("late.wav", "theirs");
    kill(c.pid, SIGCONT);
    P4dProcResult r = p4d_proc_finish(&c);
    p4d_cli_expect_line(&r, 1, "perlin4d-render: late.wav: exists", "late.wav");
    size_t size = 0U;
    char*  text = p4d_work_read("late.wav", &size);
    assert(size == 6U && !strcmp(text, "theirs"));
    free(text);
    free(r.out_all);
    p4d_cli_expect_names("", 1U, "a file appeared");
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

    const P4dCliStart s = { NULL, named, false, 0L };
    P4dProc           c = p4d_cli_start(&s, again);
    p4d_cli_stop_when_open(&c, "");
    assert(p4d_work_same("r.wav", "old.wav"));
    if (!named) {
      p4d_cli_expect_names("", 2U, "during --force");
    }
    kill(c.pid, SIGCONT);
    P4dProcResult r = p4d_proc_finish(&c);
    assert(r.status == 0 && !r.err[0]);
    free(r.out_all);
    assert(!stat(p4d_work_path("r.wav"), &after));
    assert(after.st_ino != before.st_ino && (after.st_mode & 0777) == 0644);
    assert(!p4d_work_same("r.wav", "old.wav"));
    p4d_cli_expect_names("", 2U, "after --force");
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
      const P4dCliStart s      = { NULL, run_as >= 2, false, 0L };
      const char* const more[] = {
        "-o", name, "--duration", "0.05", run_as % 2 ? "--force" : NULL, NULL
      };
      if (run_as % 2) {
        p4d_work_write(name, "older");
      }
      P4dProcResult r = p4d_cli_run_as(&s, more);
      if (r.status) {
        printf("# %zu bytes: status %d, stderr: %s\n", len, r.status, r.err);
      }
      struct stat st;
      assert(r.status == 0 && !stat(p4d_work_path(name), &st));
      assert(st.st_size > 1000);
      free(r.out_all);
      p4d_cli_expect_names("", 1U, "a long name");
      p4d_work_clear();
    }
  }

  static char huge[4200];
  memset(huge, 'n', 3996U);
  memcpy(huge + 3996U, ".wav", 5U);
  const char* const args[] = { "-o", huge, "--duration", "0.05", NULL };
  P4dProcResult     r =
    p4d_cli_run_as(&(P4dCliStart){ NULL, false, false, 0L }, args);
  p4d_cli_expect_line(&r, 2, "perlin4d-render: nnnn", "a 4000-byte name");
  free(r.out_all);
  for (size_t i = 0U; i < PATH_MAX - 2U; i += 2U) {
    huge[i]      = '.';
    huge[i + 1U] = '/';
  }
  memcpy(huge + PATH_MAX - 2U, "x.wav", 6U);
  r = p4d_cli_run_as(&(P4dCliStart){ NULL, false, false, 0L }, args);
  p4d_cli_expect_line(
    &r, 2, "perlin4d-render: ././", "a path of PATH_MAX bytes");
  free(r.out_all);
  p4d_cli_expect_names("", 0U, "long names");
  printf("# names of %d to %d bytes: written (forced or not, O_TMPFILE or "
         "named); %d bytes or a path past PATH_MAX: exit 2\n",
         NAME_MAX - 10,
         NAME_MAX,
         NAME_MAX + 1);
}

int
main(int argc, char** argv)
{
  assert(argc == 2 || argc == 3);
  p4d_cli_open(argv[1], "clobber");

  static const struct {
    const char* name;
    void (*run)(void);
  } cases[] = {
    { "concurrent", test_concurrent_renders },
    { "appears", test_file_appears_during_render },
    { "force", test_force_replaces_atomically },
    { "regular", test_not_regular_files },
    { "names", test_name_lengths },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    if (argc == 2 || !strcmp(argv[2], cases[i].name)) {
      cases[i].run();
    }
  }
  p4d_cli_close();
  return 0;
}
