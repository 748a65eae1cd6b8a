// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  noise-bench: nanoseconds per sample of the noise core on every code path
  this machine has, and each path's ratio to the scalar path in the same
  run.

  Each case renders 2 channels x 48000 samples in blocks of 256, the shape
  a plugin asks for, and reports the median of several repetitions, with the
  paths interleaved so that a noisy neighbour slows them alike.  Two lines:
  along time only at the Noise's default grain (1000 cells per second, the
  Mod's kind of line), and the Noise's real default line, which also drifts
  through space (evolve 0.5 Hz).  This is a benchmark, not a test: run it on
  a quiet machine and compare ratios measured in the same run.
*/

#define _POSIX_C_SOURCE 200809L

#include "noise.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N_CHANNELS 2U
#define N_SAMPLES 48000U
#define BLOCK 256U
#define N_REPEATS 9U

typedef enum {
  CASE_POINT,
  CASE_LINE,
  CASE_FBM8,
  CASE_DRIFT_LINE,
  CASE_DRIFT_FBM6,
  N_CASES
} Case;

static const char* const case_names[N_CASES] = {
  "p4d_noise4, one call per sample",   "line along w, 1 octave",
  "line along w, fBm 8 octaves",       "Noise default line, 1 octave",
  "Noise default line, fBm 6 octaves",
};

/// Keeps the compiler from dropping the work.
static volatile float sink;

static double
now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}

static void
render(Case which)
{
  static float block[BLOCK];
  // Grain 1000 Hz at 48 kHz; evolve 0.5 Hz along the Noise's drift.
  const double w_step      = 1000.0 / 48000.0;
  const double drift       = 0.5 / 48000.0;
  const double along_w[4]  = { 0.0, 0.0, 0.0, w_step };
  const double drifting[4] = {
    drift * 0.6, drift * 0.48, drift * 0.64, w_step
  };
  const double* const step  = which >= CASE_DRIFT_LINE ? drifting : along_w;
  const P4dFbm        one   = { 1.0f, 2.0, 0.5f };
  const P4dFbm        six   = { 6.0f, 2.0, 0.5f };
  const P4dFbm        eight = { 8.0f, 2.0, 0.5f };

  for (unsigned c = 0U; c < N_CHANNELS; ++c) {
    const double origin[4] = { 0.371, 0.613 + 3.5 * c, 0.237, 0.0 };
    for (unsigned first = 0U; first < N_SAMPLES; first += BLOCK) {
      switch (which) {
      case CASE_POINT:
        for (unsigned i = 0U; i < BLOCK; ++i) {
          const double t = (double)(first + i);
          block[i]       = p4d_noise4(
            1U, origin[0], origin[1], origin[2], origin[3] + t * step[3]);
        }
        break;
      case CASE_LINE:
      case CASE_DRIFT_LINE:
        p4d_fbm4_span(&one, 1U, origin, step, first, block, BLOCK);
        break;
      case CASE_FBM8:
        p4d_fbm4_span(&eight, 1U, origin, step, first, block, BLOCK);
        break;
      case CASE_DRIFT_FBM6:
      case N_CASES:
        p4d_fbm4_span(&six, 1U, origin, step, first, block, BLOCK);
        break;
      }
      sink = block[BLOCK - 1U];
    }
  }
}

static int
compare(const void* a, const void* b)
{
  const double x = *(const double*)a;
  const double y = *(const double*)b;
  return (x > y) - (x < y);
}

int
main(void)
{
  P4dIsa   paths[P4D_ISA_COUNT];
  unsigned n_paths = 0U;
  for (unsigned i = 0U; i < P4D_ISA_COUNT; ++i) {
    if (p4d_isa_supported((P4dIsa)i)) {
      paths[n_paths++] = (P4dIsa)i;
    }
  }

  printf("noise-bench: %u channels x %u samples in blocks of %u, median of "
         "%u, ns per sample (ratio to scalar)\n",
         N_CHANNELS,
         N_SAMPLES,
         BLOCK,
         N_REPEATS);
  printf("  %-36s", "case");
  for (unsigned p = 0U; p < n_paths; ++p) {
    printf(" %17s", p4d_isa_name(paths[p]));
  }
  printf("\n");

  for (Case which = CASE_POINT; which < N_CASES; ++which) {
    double ns[P4D_ISA_COUNT][N_REPEATS];
    for (unsigned r = 0U; r < N_REPEATS; ++r) {
      for (unsigned p = 0U; p < n_paths; ++p) {
        p4d_isa_use(paths[p]);
        if (r == 0U) {
          render(which); // warm up
        }
        const double t0 = now_s();
        render(which);
        ns[p][r] = (now_s() - t0) * 1.0e9 / (N_CHANNELS * N_SAMPLES);
      }
    }

    printf("  %-36s", case_names[which]);
    double scalar = 0.0;
    for (unsigned p = 0U; p < n_paths; ++p) {
      qsort(ns[p], N_REPEATS, sizeof(double), compare);
      const double median = ns[p][N_REPEATS / 2U];
      if (p == 0U) {
        scalar = median;
        printf(" %8.2f         ", median);
      } else {
        printf(" %8.2f (%5.3fx)", median, median / scalar);
      }
    }
    printf("\n");
  }

  return 0;
}
