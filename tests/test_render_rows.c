// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The renderer's rows (p4d_render_plan() with rows_per_s): only the frames
  a CSV keeps are computed, each with the bits it has when every frame is
  rendered: every clock (song seconds, beats, a loop, free running),
  automation (a rate, a seed, the clock and the smoothing moving), a start
  in the song, other sample rates and row rates, one and two jobs, and the
  Noise (whose high-pass has a past: its rows carry on or warm up).  The
  test fails if a row lands one frame off: it checks that each row's frame
  differs from its neighbours.

  And the runs of chunks that jobs take: the Noise over five chunks, the
  same bits with 1, 2 and 3 jobs (2 jobs take runs of 2 chunks).
*/

#undef NDEBUG

#include "options.h"
#include "plan.h"
#include "render.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The frames a sink was handed, all of them, interleaved.
typedef struct {
  float*   frames;
  unsigned n_channels;
  int64_t  start_frame;
  int64_t  n_frames;
  int64_t  handed; ///< Frames handed so far
} Capture;

static P4dRenderCode
capture(void*            ctx,
        int64_t          frame,
        const float*     interleaved,
        size_t           n,
        P4dRenderStatus* status)
{
  (void)status;
  Capture* const c = (Capture*)ctx;
  assert(frame == c->start_frame + c->handed); // in order, none left out
  assert(c->handed + (int64_t)n <= c->n_frames);
  memcpy(c->frames + (size_t)c->handed * c->n_channels,
         interleaved,
         n * c->n_channels * sizeof(float));
  c->handed += (int64_t)n;
  return P4D_RENDER_SUCCESS;
}

/// Render plan with rows_per_s (0: every frame) into a new capture.
static Capture
render(const P4dPlan* plan, unsigned n_jobs, double rows_per_s)
{
  Capture c = {
    NULL, plan->kind->n_channels, plan->start_frame, plan->n_frames, 0
  };
  c.frames =
    (float*)calloc((size_t)plan->n_frames * c.n_channels, sizeof(float));
  assert(c.frames);
  P4dRenderStatus st;
  memset(&st, 0, sizeof(st));
  assert(p4d_render_plan(plan, n_jobs, rows_per_s, false, capture, &c, &st) ==
         P4D_RENDER_SUCCESS);
  assert(c.handed == plan->n_frames);
  return c;
}

/// The bits of x.
static uint32_t
bits(float x)
{
  uint32_t u = 0U;
  memcpy(&u, &x, sizeof(u));
  return u;
}

/// Whether frames a and b of c differ in some channel.
static bool
frames_differ(const Capture* c, int64_t a, int64_t b)
{
  for (unsigned ch = 0U; ch < c->n_channels; ++ch) {
    if (bits(c->frames[(size_t)a * c->n_channels + ch]) !=
        bits(c->frames[(size_t)b * c->n_channels + ch])) {
      return true;
    }
  }
  return false;
}

/// Render the command line (options after the program's name) with every
/// frame and with rows, and compare the rows bit for bit.
static void
check(const char* const* args)
{
  char* argv[32] = { "perlin4d-render", "-o", "rows.csv" };
  int   argc     = 3;
  for (const char* const* a = args; *a; ++a) {
    assert(argc < 31);
    argv[argc++] = (char*)*a;
  }
  argv[argc] = NULL;

  P4dOptions      o;
  P4dRenderStatus st;
  P4dPlan         plan;
  memset(&st, 0, sizeof(st));
  p4d_options_init(&o);
  assert(p4d_options_parse(&o, argc, argv, &st) == P4D_RENDER_SUCCESS);
  assert(p4d_plan_make(&plan, &o, argv[0], &st) == P4D_RENDER_SUCCESS);

  const Capture every   = render(&plan, o.n_jobs, 0.0);
  const Capture rows    = render(&plan, o.n_jobs, o.fps);
  unsigned      n_rows  = 0U;
  unsigned      n_apart = 0U; // rows unlike both their neighbours
  for (int64_t k = 0;; ++k) {
    const int64_t at = p4d_render_row_frame(plan.sample_rate_hz, o.fps, k);
    if (at >= plan.n_frames) {
      break;
    }
    if (frames_differ(&every, at, at + 1) &&
        (at == 0 || frames_differ(&every, at, at - 1))) {
      ++n_apart;
    }
    for (unsigned ch = 0U; ch < every.n_channels; ++ch) {
      const size_t i = (size_t)at * every.n_channels + ch;
      if (bits(every.frames[i]) != bits(rows.frames[i])) {
        fprintf(stderr,
                "row %lld (frame %lld) channel %u: %a, every frame %a\n",
                (long long)k,
                (long long)at,
                ch,
                (double)rows.frames[i],
                (double)every.frames[i]);
        abort();
      }
    }
    ++n_rows;
  }
  // Enough rows, and rows that tell their frame from the next: one frame
  // off would fail.
  assert(n_rows >= 100U);
  assert(n_apart * 10U >= n_rows * 9U);

  free(every.frames);
  free(rows.frames);
  p4d_plan_free(&plan);
}

/// The Noise over five chunks: 1, 2 and 3 jobs give the same bits.
static void
check_runs(void)
{
  char*      argv[] = { "perlin4d-render", "-o", "runs.wav", "--duration", "25",
                        "--seed",          "5",  NULL };
  P4dOptions o;
  P4dRenderStatus st;
  P4dPlan         plan;
  memset(&st, 0, sizeof(st));
  p4d_options_init(&o);
  assert(p4d_options_parse(&o, 7, argv, &st) == P4D_RENDER_SUCCESS);
  assert(p4d_plan_make(&plan, &o, argv[0], &st) == P4D_RENDER_SUCCESS);
  assert(plan.n_frames > (int64_t)4 * P4D_RENDER_CHUNK);

  const Capture one = render(&plan, 1U, 0.0);
  for (unsigned n_jobs = 2U; n_jobs <= 3U; ++n_jobs) {
    const Capture many = render(&plan, n_jobs, 0.0);
    const size_t  n    = (size_t)plan.n_frames * one.n_channels;
    for (size_t i = 0U; i < n; ++i) {
      if (bits(one.frames[i]) != bits(many.frames[i])) {
        fprintf(stderr, "%u jobs: sample %zu differs\n", n_jobs, i);
        abort();
      }
    }
    free(many.frames);
  }
  free(one.frames);
  p4d_plan_free(&plan);
}

int
main(void)
{
  // Each case renders 6 s (more than a chunk) or so; rate_hz=20 so that
  // neighbouring frames differ.
  static const char* const song[]  = { "--plugin",   "mod",   "--fps",
                                       "1000",       "--set", "rate_hz=20",
                                       "--duration", "6",     "--jobs",
                                       "2",          NULL };
  static const char* const start[] = { "--plugin", "mod",        "--fps",
                                       "997",      "--set",      "rate_hz=20",
                                       "--start",  "3.21",       "--jobs",
                                       "1",        "--duration", "6",
                                       NULL };
  static const char* const beats[] = {
    "--plugin", "mod",     "--fps",      "60",
    "--set",    "clock=1", "--set",      "period_beats=0.25",
    "--tempo",  "133",     "--duration", "7",
    "--jobs",   "2",       NULL
  };
  static const char* const loop[]         = { "--plugin",   "mod",
                                              "--fps",      "1000",
                                              "--set",      "clock=1",
                                              "--set",      "period_beats=0.25",
                                              "--set",      "loop_beats=3",
                                              "--duration", "6",
                                              "--jobs",     "2",
                                              NULL };
  static const char* const free_running[] = {
    "--plugin",   "mod",     "--fps",        "30000/1001",
    "--set",      "clock=2", "--set",        "rate_hz=20",
    "--start",    "2",       "--samplerate", "44100",
    "--duration", "8",       "--jobs",       "2",
    NULL
  };
  static const char* const automated[]       = { "--plugin",   "mod",
                                                 "--fps",      "1000",
                                                 "--automate", "rate_hz=0:5,3:30,5:2",
                                                 "--automate", "seed=0:1,2:40",
                                                 "--automate", "clock=0:0,2.5:2,4:1",
                                                 "--automate", "smooth_ms=0:0,6:300",
                                                 "--duration", "6",
                                                 "--jobs",     "2",
                                                 NULL };
  static const char* const automated_start[] = {
    "--plugin",         "mod",     "--fps",  "250",        "--automate",
    "rate_hz=0:5,8:30", "--start", "1.5",    "--duration", "6",
    "--samplerate",     "96000",   "--jobs", "1",          NULL
  };
  static const char* const noise[] = { "--fps",  "1000", "--duration", "6",
                                       "--jobs", "2",    NULL };
  static const char* const noise_sparse[] = {
    "--fps", "2",      "--duration", "60", "--samplerate", "8000", "--start",
    "1",     "--jobs", "2",          NULL
  };

  check(song);
  check(start);
  check(beats);
  check(loop);
  check(free_running);
  check(automated);
  check(automated_start);
  check(noise);
  check(noise_sparse);
  check_runs();
  return 0;
}
