// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  noise-bench: nanoseconds per sample of the noise core.

  Each case renders 2 channels x 48000 samples in blocks of 256, the shape
  a plugin asks for, and reports the median of several repetitions.  This
  is a benchmark, not a test: run it on a quiet machine and compare ratios
  measured in the same run.
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

typedef enum { CASE_POINT, CASE_LINE, CASE_FBM1, CASE_FBM8 } Case;

static const char* const case_names[] = {
  "p4d_noise4, one call per sample",
  "p4d_noise4_line, 1 octave",
  "p4d_fbm4_span, 1 octave",
  "p4d_fbm4_span, 8 octaves",
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
  const double step[4] = { 0.0, 0.0, 0.0, 1000.0 / 48000.0 };
  const P4dFbm one     = { 1.0f, 2.0, 0.5f };
  const P4dFbm eight   = { 8.0f, 2.0, 0.5f };

  for (unsigned c = 0U; c < N_CHANNELS; ++c) {
    const double origin[4] = { 0.5 + 17.25 * c, 0.5, 0.5, 0.0 };
    for (unsigned first = 0U; first < N_SAMPLES; first += BLOCK) {
      switch (which) {
      case CASE_POINT:
        for (unsigned i = 0U; i < BLOCK; ++i) {
          block[i] = p4d_noise4(
            1U, origin[0], origin[1], origin[2], (double)(first + i) * step[3]);
        }
        break;
      case CASE_LINE: {
        const double o[4] = {
          origin[0], origin[1], origin[2], (double)first * step[3]
        };
        p4d_noise4_line(1U, o, step, block, BLOCK);
        break;
      }
      case CASE_FBM1:
        p4d_fbm4_span(&one, 1U, origin, step, first, block, BLOCK);
        break;
      case CASE_FBM8:
        p4d_fbm4_span(&eight, 1U, origin, step, first, block, BLOCK);
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
  printf("noise-bench: %u channels x %u samples in blocks of %u, median of "
         "%u\n",
         N_CHANNELS,
         N_SAMPLES,
         BLOCK,
         N_REPEATS);

  for (Case which = CASE_POINT; which <= CASE_FBM8; ++which) {
    double ns[N_REPEATS];
    render(which); // warm up
    for (unsigned r = 0U; r < N_REPEATS; ++r) {
      const double t0 = now_s();
      render(which);
      ns[r] = (now_s() - t0) * 1.0e9 / (N_CHANNELS * N_SAMPLES);
    }
    qsort(ns, N_REPEATS, sizeof(double), compare);
    printf("  %-34s %8.2f ns/sample\n", case_names[which], ns[N_REPEATS / 2U]);
  }

  return 0;
}
