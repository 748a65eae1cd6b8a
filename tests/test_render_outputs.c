// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's outputs appear whole or not at all: a render stopped at
  any moment (SIGKILL, any other signal, a file-size limit, its folder made
  unwritable) leaves no name behind; -o - streams FLAC and CSV, and a
  reader that goes away ends it quietly.  Where a case can, it runs twice:
  with the unnamed temporary file (O_TMPFILE) and with the named one used
  where a filesystem has no O_TMPFILE (P4D_NO_TMPFILE=1).  Never clobbering
  what is there is test_render_clobber.c's.

  Usage: test_render_outputs PATH_TO_PERLIN4D_RENDER [CASE]
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "support/cli.h"
#include "support/files.h"
#include "support/process.h"

#include <sndfile.h>

#include <assert.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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
  const P4dCliStart        s        = { NULL, false, false, 0L };
  P4dProc                  c        = p4d_cli_start(&s, long_render);
  p4d_cli_wait_open(&c, "");
  p4d_proc_sleep_ms(100L);
  kill(c.pid, SIGKILL);
  P4dProcResult r = p4d_proc_finish(&c);
  assert(r.status == 128 + SIGKILL);
  p4d_cli_expect_names("", 0U, "SIGKILL");
  free(r.out_all);

  p4d_work_write("out.wav", "older");
  c = p4d_cli_start(&s, forced);
  p4d_cli_wait_open(&c, "");
  p4d_proc_sleep_ms(100L);
  kill(c.pid, SIGKILL);
  r = p4d_proc_finish(&c);
  free(r.out_all);
  p4d_cli_expect_names("", 1U, "SIGKILL, --force");
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
    const P4dCliStart s = { NULL, named, false, 0L };
    // The named temporary file: the signals of the issue.
    for (size_t i = 0U; i < (named ? 4U : sizeof(sigs) / sizeof(sigs[0]));
         ++i) {
      char what[64];

      snprintf(what, sizeof(what), "signal %d, named %d", sigs[i], named);
      P4dProc c = p4d_cli_start(&s, long_render);
      p4d_cli_wait_open(&c, "");
      p4d_proc_sleep_ms(20L);
      kill(c.pid, sigs[i]);
      P4dProcResult r = p4d_proc_finish(&c);
      if (sigs[i] == SIGPIPE) {
        if (r.status != 128 + SIGPIPE || r.err[0]) {
          printf("# %s: status %d, stderr: %s\n", what, r.status, r.err);
        }
        assert(r.status == 128 + SIGPIPE && !r.err[0]);
      } else {
        p4d_cli_expect_line(
          &r, 1, "perlin4d-render: out.wav: interrupted", what);
      }
      p4d_cli_expect_names("", 0U, what);
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
    const P4dCliStart s = { NULL, named, false, 65536L };
    P4dProcResult     r = p4d_cli_run_as(&s, long_render);
    p4d_cli_expect_line(&r, 1, "perlin4d-render: out.wav: ", "ulimit -f 64");
    assert(strstr(r.err, "too large"));
    p4d_cli_expect_names("", 0U, "ulimit -f 64");
    free(r.out_all);
  }
  printf("# ulimit -f 64: exit 1, one line, nothing left\n");
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
    const P4dCliStart s = { program, named, true, 0L };
    P4dProc           c = p4d_cli_start(&s, args);
    p4d_cli_stop_when_open(&c, "w");
    assert(!chmod(p4d_work_path("w"), 0555));
    kill(c.pid, SIGCONT);
    P4dProcResult r = p4d_proc_finish(&c);
    p4d_cli_expect_line(&r, 1, "perlin4d-render: w/out.wav: ", "unwritable");
    free(r.out_all);
    if (!named) {
      p4d_cli_expect_names("w", 0U, "unwritable");
    } else {
      // What could not be removed is named, and is all there is.
      char list[2048];
      assert(p4d_cli_names("w", list, sizeof(list)) == 1U);
      assert(strstr(r.err, list + 1) && strstr(r.err, "left"));
    }
    p4d_file_remove_tree(p4d_work_path("w"));
  }
  p4d_work_clear();
  assert(!chmod(p4d_work_dir(), 0700));
  printf("# folder unwritable mid-render: exit 1, nothing left (a named "
         "temporary file is named)\n");
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
  const P4dCliStart        s      = { NULL, false, false, 0L };
  static const char* const csv[]  = { "-o",         "-",   "--format", "csv",
                                      "--plugin",   "mod", "--fps",    "100",
                                      "--duration", "2",   "--plot",   "p.svg",
                                      NULL };
  static const char* const csvf[] = { "-o",         "f.csv", "--plugin",
                                      "mod",        "--fps", "100",
                                      "--duration", "2",     NULL };
  p4d_cli_ok(csvf, NULL);
  P4dProcResult r = p4d_cli_run_as(&s, csv);
  assert(r.status == 0 && !r.err[0]);
  size_t size = 0U;
  char*  file = p4d_work_read("f.csv", &size);
  assert(r.out_len == size && !memcmp(r.out_all, file, size));
  assert(p4d_work_exists("p.svg"));
  free(file);
  free(r.out_all);
  p4d_cli_expect_names("", 2U, "-o - --format csv --plot p.svg");

  static const char* const flac[]  = { "-o",         "-", "--format", "flac",
                                       "--duration", "2", NULL };
  static const char* const flacf[] = {
    "-o", "f.flac", "--duration", "2", NULL
  };
  p4d_cli_ok(flacf, NULL);
  r = p4d_cli_run_as(&s, flac);
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
  P4dProc                  c        = p4d_cli_start(&s, longer);
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
  p4d_cli_expect_names("", 0U, "reader gone");
  printf("# -o - --format flac|csv: the samples of a file render; wav, aiff, "
         "no format, --plot -: exit 2; reader gone: 141, nothing left\n");
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
