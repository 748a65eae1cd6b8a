// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  classic-bench: the measured standard deviation and peak of classic
  Perlin noise (src/noise/classic.h) over 10^9 random points for each
  dimension and fade, beside the derived values (doc/noise-core.md), and
  the nanoseconds per point.  A benchmark, not a test: tests/test_classic.c
  checks the same figures over 10^6 points.  `classic-bench [points]`.
*/

#define _POSIX_C_SOURCE 200809L

#include "../tests/support/basics.h" // p4d_now_s()
#include "../tests/support/rng.h"

#include "classic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHUNK 4096U

static double points[CHUNK][P4D_CLASSIC_MAX_DIMS];
static float  values[CHUNK];

int
main(int argc, char** argv)
{
  const double n_asked  = argc >= 2 ? strtod(argv[1], NULL) : 1e9;
  const size_t n_chunks = (size_t)(n_asked > CHUNK ? n_asked / CHUNK : 1.0);
  static const char* const fades[] = { "cubic", "quintic" };

  printf("classic noise over %.3g random points each (|coordinates| < "
         "2^20 cells)\n",
         (double)n_chunks * CHUNK);
  printf("basis        sd measured  derived   diff    max |n|  bound    "
         "ns/point\n");
  for (unsigned f = 0U; f < 2U; ++f) {
    for (unsigned dims = 1U; dims <= 3U; ++dims) {
      const P4dClassic b      = { dims, (P4dClassicFade)f };
      P4dRng           rng    = { 0x9B05688C2B3E6C1FULL };
      double           sum    = 0.0;
      double           sum2   = 0.0;
      double           peak   = 0.0;
      double           time_s = 0.0;
      for (size_t c = 0U; c < n_chunks; ++c) {
        for (unsigned i = 0U; i < CHUNK; ++i) {
          for (unsigned a = 0U; a < dims; ++a) {
            points[i][a] = p4d_rng_uniform(&rng, -1048576.0, 1048576.0);
          }
        }
        const double t0 = p4d_now_s();
        p4d_classic_points_tile(
          &b, (uint32_t)c, (const double(*)[3])points, values, CHUNK, NULL);
        time_s += p4d_now_s() - t0;
        double s  = 0.0;
        double s2 = 0.0;
        for (unsigned i = 0U; i < CHUNK; ++i) {
          const double v = values[i];
          s += v;
          s2 += v * v;
          peak = fabs(v) > peak ? fabs(v) : peak;
        }
        sum += s;
        sum2 += s2;
      }
      const double n    = (double)n_chunks * CHUNK;
      const double mean = sum / n;
      const double sd   = sqrt(sum2 / n - mean * mean);
      const double std  = p4d_classic_std(&b);
      printf("%uD %-8s  %.5f      %.5f  %+.3f%%  %.4f   %.4f   %.1f\n",
             dims,
             fades[f],
             sd,
             std,
             100.0 * (sd / std - 1.0),
             peak,
             p4d_classic_bound(&b),
             1e9 * time_s / n);
      (void)fflush(stdout);
    }
  }
  return 0;
}
