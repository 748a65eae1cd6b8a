// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's long renders: repeatable bytes, every code path
  (P4D_ISA) and any number of jobs writing the same file, split renders
  that join, a progress bar only on a terminal, and memory that stays flat
  however long the render.

  Usage: test_render_jobs PATH_TO_PERLIN4D_RENDER
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "isa.h"

#include "support/cli.h"
#include "support/compare.h"
#include "support/files.h"

#include <sndfile.h>

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// -- Repeatable bytes ------------------------------------------------------

static void
test_repeatable(void)
{
  static const char* const flac_a[] = {
    "-o", "a.flac", "--plot", "a.svg", NULL
  };
  static const char* const flac_b[] = {
    "-o", "b.flac", "--plot", "b.svg", NULL
  };
  static const char* const csv_a[]  = { "-o", "a.csv", NULL };
  static const char* const csv_b[]  = { "-o", "b.csv", NULL };
  static const char* const common[] = { "--plugin",   "mod",
                                        "--duration", "1.5",
                                        "--automate", "rate_hz=0:1,1:8",
                                        NULL };
  p4d_cli_ok(flac_a, common);
  p4d_cli_ok(flac_b, common);
  p4d_cli_ok(csv_a, common);
  p4d_cli_ok(csv_b, common);
  assert(p4d_work_same("a.flac", "b.flac"));
  assert(p4d_work_same("a.svg", "b.svg"));
  assert(p4d_work_same("a.csv", "b.csv"));
  p4d_work_clear();
}

/// P4D_ISA picks the code path; every path writes the same bytes, and a
/// request the program cannot honour is one warning, not a failure.
static void
test_isa_override(void)
{
  static const char* const names[] = { "scalar", "avx2", "avx512", "neon" };
  static const char* const outs[]  = {
     "scalar.wav", "avx2.wav", "avx512.wav", "neon.wav"
  };
  static const char* const common[] = {
    "--duration", "1", "--set", "grain_hz=9000", "--set", "octaves=10", NULL
  };

  for (unsigned i = 0U; i < 4U; ++i) {
    const char* const args[] = { "-o", outs[i], NULL };
    setenv("P4D_ISA", names[i], 1);
    const P4dProcResult r = p4d_cli_run2(args, common, P4D_PROC_PLAIN);
    assert(r.status == 0 && r.out[0] == '\0');
    if (p4d_isa_supported((P4dIsa)i)) {
      assert(r.err[0] == '\0');
    } else {
      // "P4D_ISA=avx512 is not supported by this CPU; using avx2"
      assert(p4d_count_lines(r.err) == 1U);
      assert(!strncmp(r.err, "perlin4d-render: warning: P4D_ISA=", 34U));
    }
    assert(p4d_work_same(outs[0], outs[i]));
  }

  static const char* const bogus[] = { "-o", "bogus.wav", NULL };
  setenv("P4D_ISA", "sse9", 1);
  const P4dProcResult r = p4d_cli_run2(bogus, common, P4D_PROC_PLAIN);
  unsetenv("P4D_ISA");
  assert(r.status == 0 && p4d_count_lines(r.err) == 1U);
  assert(!strncmp(r.err,
                  "perlin4d-render: warning: P4D_ISA=sse9 is not scalar, avx2, "
                  "avx512 or neon; using ",
                  82U));
  assert(p4d_work_same(outs[0], "bogus.wav"));
  printf(
    "# P4D_ISA: scalar, avx2, avx512 and neon renders are the same bytes\n");
  p4d_work_clear();
}

/// The file is the same bytes whatever the number of jobs.
static void
test_jobs(void)
{
  static const char* const noise[] = { "--duration", "8", "--seed", "3", NULL };
  static const char* const mod[]   = { "--duration", "8",
                                       "--plugin",   "mod",
                                       "--automate", "rate_hz=0:0.5,3:20,7:2",
                                       "--automate", "spread=1:0,6:1",
                                       NULL };
  static const char* const n1[]    = { "-o", "n1.wav", "--jobs", "1", NULL };
  static const char* const n2[]    = { "-o", "n2.wav", "--jobs", "2", NULL };
  static const char* const n3[]    = { "-o", "n3.wav", "--jobs", "3", NULL };
  static const char* const m1[]    = { "-o", "m1.wav", "--jobs", "1", NULL };
  static const char* const m2[]    = { "-o", "m2.wav", "--jobs", "2", NULL };
  p4d_cli_ok(n1, noise);
  p4d_cli_ok(n2, noise);
  p4d_cli_ok(n3, noise);
  p4d_cli_ok(m1, mod);
  p4d_cli_ok(m2, mod);
  assert(p4d_work_same("n1.wav", "n2.wav"));
  assert(p4d_work_same("n1.wav", "n3.wav"));
  assert(p4d_work_same("m1.wav", "m2.wav"));

  // Several chunks; and not the trivial agreement of silence.
  SF_INFO      info = { 0 };
  float* const x    = p4d_cli_read_frames("m1.wav", &info);
  assert(info.frames == 384000);
  assert(info.frames > 262144); // longer than a chunk of the renderer
  assert(x[0] != x[4U * (size_t)300000U]);
  free(x);
  printf("# 8 s at 48 kHz: --jobs 1, 2 and 3 write the same bytes\n");
  p4d_work_clear();
}

/**
   Render [0, a) and [a, b) apart and [0, b) at once (extra arguments
   common to all three) and check that the two parts join into the whole.
*/
static void
check_split(const char*        a_s,
            const char*        rest_s,
            const char*        b_s,
            const char* const* extra)
{
  const char* const first[]  = { "-o", "first.wav", "--duration", a_s, NULL };
  const char* const second[] = { "-o",         "second.wav", "--start", a_s,
                                 "--duration", rest_s,       NULL };
  const char* const whole[]  = { "-o", "whole.wav", "--duration", b_s, NULL };
  p4d_cli_ok(first, extra);
  p4d_cli_ok(second, extra);
  p4d_cli_ok(whole, extra);

  SF_INFO      ia  = { 0 };
  SF_INFO      ib  = { 0 };
  SF_INFO      iw  = { 0 };
  float* const a   = p4d_cli_read_frames("first.wav", &ia);
  float* const b   = p4d_cli_read_frames("second.wav", &ib);
  float* const w   = p4d_cli_read_frames("whole.wav", &iw);
  const size_t nch = (size_t)iw.channels;
  assert(ia.frames + ib.frames == iw.frames);
  assert(ia.frames % 2 == 1); // a is not on any block grid
  const size_t n_a  = (size_t)ia.frames * nch;
  const size_t n_b  = (size_t)ib.frames * nch;
  const bool   head = p4d_first_difference(a, w, n_a) == n_a;
  const bool   tail = p4d_first_difference(b, w + n_a, n_b) == n_b;
  printf("# [0, %s) + [%s, %s) = [0, %s): %ld + %ld frames, %s\n",
         a_s,
         a_s,
         b_s,
         b_s,
         (long)ia.frames,
         (long)ib.frames,
         head && tail ? "the same" : "DIFFERENT");
  assert(head && tail);
  free(a);
  free(b);
  free(w);
  p4d_work_clear();
}

static void
test_split(void)
{
  // 3.3 s at 22050 Hz is 72765 frames; the whole, 15 s, is two chunks.
  static const char* const noise[] = {
    "--samplerate", "22050", "--seed", "12", NULL
  };
  static const char* const automated[] = { "--samplerate",
                                           "22050",
                                           "--automate",
                                           "evolve_hz=0:0.5,3.2:6,3.4:1,9:12",
                                           "--automate",
                                           "level_db=2:-30,14:-6",
                                           NULL };
  static const char* const mod[]       = { "--samplerate",
                                           "22050",
                                           "--plugin",
                                           "mod",
                                           "--tempo",
                                           "97",
                                           "--set",
                                           "clock=1",
                                           "--set",
                                           "period_beats=0.5",
                                           "--automate",
                                           "smooth_ms=0:5,10:300",
                                           "--automate",
                                           "octaves=3:1,3.3:8",
                                           NULL };
  check_split("3.3", "11.7", "15", noise);
  check_split("3.3", "11.7", "15", automated);
  check_split("3.3", "11.7", "15", mod);
}

// -- Progress and memory ---------------------------------------------------

static void
test_progress(void)
{
  // Not a terminal: not a byte on stderr, even over several chunks.
  static const char* const args[]  = { "-o", "a.wav", "--duration", "8", NULL };
  static const char* const quiet[] = { "-o", "b.wav",   "--duration",
                                       "8",  "--quiet", NULL };
  p4d_cli_ok(args, NULL);

  // A terminal: a progress bar to 100%, unless --quiet.
  const P4dProcResult tty = p4d_cli_run(quiet, P4D_PROC_STDERR_TTY);
  assert(tty.status == 0 && tty.err[0] == '\0');
  static const char* const shown[] = { "-o", "c.wav", "--duration", "8", NULL };
  const P4dProcResult      bar     = p4d_cli_run(shown, P4D_PROC_STDERR_TTY);
  assert(bar.status == 0 && strstr(bar.err, "100%"));
  assert(!strstr(bar.err, "perlin4d-render"));
  assert(p4d_work_same("a.wav", "c.wav"));
  p4d_work_clear();
}

/**
   Streamed in chunks: a long render needs no more memory than a short one
   that already cycles through every buffer (2 jobs x 2 chunks).
*/
static void
test_memory_flat(void)
{
  static const char* const short_render[] = {
    "-o",           "s.wav", "--plugin", "mod", "--duration", "150",
    "--samplerate", "8000",  "--jobs",   "2",   "--force",    NULL
  };
  static const char* const long_render[] = {
    "-o",           "s.wav", "--plugin", "mod", "--duration", "600",
    "--samplerate", "8000",  "--jobs",   "2",   "--force",    NULL
  };
  const long a = p4d_cli_peak_kib(short_render);
  const long b = p4d_cli_peak_kib(long_render);
  assert(a > 0 && b > 0); // Linux reports VmHWM: no skipping
  printf("# peak memory: %ld KiB for 150 s, %ld KiB for 600 s\n", a, b);
  assert(b < P4D_CLI_PEAK_LIMIT_KIB);
  assert(b < a + 4096L);
  p4d_work_clear();
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_cli_open(argv[1], "jobs");

  test_repeatable();
  test_isa_override();
  test_jobs();
  test_split();
  test_progress();
  test_memory_flat();
  p4d_cli_close();
  return 0;
}
