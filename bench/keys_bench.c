// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The thinning of the row writers (src/render/keys.c) at its largest use:
  a 10-minute render at 1000 rows per second, 600,001 rows of 4 channels,
  thinned at several tolerances.  The curves are smooth wandering sums of
  sines at unrelated rates (as the Mod's octaves are), with a random walk.

  Usage: keys-bench [ROWS]
  Prints, per tolerance, the keys kept and the seconds taken (wall clock:
  for instruction counts run it under valgrind --tool=callgrind).
*/

#define _POSIX_C_SOURCE 200809L

#include "keys.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int
main(int argc, char** argv)
{
  const size_t n_rows = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 600001U;
  P4dKeys* const keys = p4d_keys_new(4U);
  if (!keys || n_rows < 2U) {
    return 1;
  }
  uint32_t s       = 1U;
  double   walk[4] = { 0.0, 0.0, 0.0, 0.0 };
  for (size_t k = 0U; k < n_rows; ++k) {
    const double t = (double)k / 1000.0;
    float        v[4];
    for (unsigned c = 0U; c < 4U; ++c) {
      s = s * 1664525U + 1013904223U;
      walk[c] += ((double)(s >> 8U) / 16777216.0 - 0.5) * 1e-4;
      v[c] = (float)(0.5 + 0.25 * sin(t * (0.31 + 0.1 * c)) +
                     0.125 * sin(t * (1.37 + 0.2 * c)) +
                     0.0625 * sin(t * (5.1 + 0.3 * c)) + walk[c]);
    }
    if (!p4d_keys_add(keys, v)) {
      return 1;
    }
  }
  static const double tolerances[] = { 1e-5, 1e-4, 0.004, 0.05 };
  for (size_t i = 0U; i < sizeof(tolerances) / sizeof(tolerances[0]); ++i) {
    const double start = now_s();
    if (!p4d_keys_thin(keys, tolerances[i])) {
      return 1;
    }
    const double took = now_s() - start;
    size_t       kept = 0U;
    for (size_t k = 0U; k < n_rows; ++k) {
      for (unsigned c = 0U; c < 4U; ++c) {
        kept += p4d_keys_kept(keys, k, c) ? 1U : 0U;
      }
    }
    printf("tolerance %-7g %zu rows x 4 channels: %8zu keys, %.3f s\n",
           tolerances[i],
           n_rows,
           kept,
           took);
  }
  p4d_keys_free(keys);
  return 0;
}
