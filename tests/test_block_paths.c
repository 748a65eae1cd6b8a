// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The engines' block passes give, on every code path, the bits of the
  scalar definitions they repeat lane by lane: the Mod's output map
  (phi_map.h: p4d_phi_map_one() per frame) and Motion's delay line read,
  gain exponential and pan sine (motion_block.h: the lanes of
  p4d_motion_read_one(), p4d_exact_exp_short(),
  p4d_exact_quarter_sin_short()).
  Random values and edges (beyond Phi's table, on its knots, results flushed to
  0, whole delays), every length from 0 to a chunk and a half (the tails).
*/

#undef NDEBUG

#include "exact_math.h"
#include "isa.h"
#include "motion_block.h"
#include "motion_private.h"
#include "phi_map.h"

#include "support/compare.h"
#include "support/rng.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_MAX 389U
#define LINE_SIZE 1024U

static P4dRng rng = { 0x51ED270B9A3F4C21ULL };

/// Whether a and b are the same bits.
static bool
same_double(double a, double b)
{
  uint64_t x = 0U;
  uint64_t y = 0U;
  memcpy(&x, &a, sizeof(x));
  memcpy(&y, &b, sizeof(y));
  return x == y;
}

/// A z for the map: mostly unit variance, some beyond the table, on its
/// knots, at its ends, zeros, not a number.
static float
random_z(void)
{
  switch (p4d_rng_below(&rng, 8U)) {
  case 0U:
    return (float)p4d_rng_uniform(&rng, -12.0, 12.0);
  case 1U: // A knot: a whole number of 64ths
    return (float)((double)((int)p4d_rng_below(&rng, 1025U) - 512) / 64.0);
  case 2U: {
    static const float edges[] = { 8.0f,      -8.0f,    7.9999995f, -7.9999995f,
                                   0.0f,      -0.0f,    NAN,        INFINITY,
                                   -INFINITY, 1.0e-40f, -1.0e-40f,  100.0f };
    return edges[p4d_rng_below(&rng, sizeof(edges) / sizeof(edges[0]))];
  }
  default:
    return (float)p4d_rng_uniform(&rng, -3.0, 3.0);
  }
}

/// The map on the path in use against p4d_phi_map_one(); the values
/// compared.
static unsigned long
check_phi(const P4dPhiTable* table)
{
  static const double ranges[][2] = {
    { 0.0, 1.0 },  { -1.0, 2.0 },     { 1.0e-31, 1.0e-31 },
    { -0.5, 1.0 }, { 20.0, 20000.0 },
  };
  unsigned long compared = 0UL;
  float         z[N_MAX];
  float         y[N_MAX];
  for (unsigned n = 0U; n <= N_MAX; ++n) {
    const unsigned r   = n % (sizeof(ranges) / sizeof(ranges[0]));
    const double   low = ranges[r][0];
    // A span that makes low + span Phi(z) tiny near z = 0: flushed to 0.
    const double span = r == 2U ? -2.0e-31 : ranges[r][1] - low;
    for (unsigned i = 0U; i < n; ++i) {
      z[i] = random_z();
    }
    p4d_phi_map(table, z, low, span, y, n);
    for (unsigned i = 0U; i < n; ++i) {
      const float want = p4d_phi_map_one(table, z[i], low, span);
      if (!p4d_same_bits(want, y[i])) {
        fprintf(stderr,
                "phi: z %a low %g span %g: %a, want %a\n",
                (double)z[i],
                low,
                span,
                (double)y[i],
                (double)want);
        abort();
      }
    }
    compared += n;
  }
  return compared;
}

/// The read, the exponential and the sine on the path in use against
/// their scalar definitions; the values compared.
static unsigned long
check_motion(const double* line, const double* kernel, uint32_t mask)
{
  unsigned long compared = 0UL;
  double        d[N_MAX];
  double        x[N_MAX];
  double        y[N_MAX];
  for (unsigned n = 0U; n <= N_MAX; ++n) {
    const int64_t w0 = (int64_t)p4d_rng_below(&rng, 1U << 20U) - (1 << 19);
    for (unsigned i = 0U; i < n; ++i) {
      // Whole delays (the tap) and fractions, up to Motion's swing.
      d[i] = p4d_rng_below(&rng, 4U) == 0U
               ? (double)(P4D_MOTION_MARGIN + p4d_rng_below(&rng, 600U))
               : p4d_rng_uniform(&rng, (double)P4D_MOTION_MARGIN, 600.0);
      x[i] = p4d_rng_below(&rng, 8U) == 0U ? 0.0
                                           : p4d_rng_uniform(&rng, -40.0, 20.0);
    }
    p4d_motion_block_read(line, kernel, mask, w0, d, y, n);
    for (unsigned i = 0U; i < n; ++i) {
      const double want =
        p4d_motion_read_one(line, kernel, mask, w0 + (int64_t)i, d[i]);
      if (!same_double(want, y[i])) {
        fprintf(stderr,
                "read: w %lld d %a: %a, want %a\n",
                (long long)w0 + (long long)i,
                d[i],
                y[i],
                want);
        abort();
      }
    }
    p4d_motion_block_exp(x, y, n);
    for (unsigned i = 0U; i < n; ++i) {
      const double want = p4d_exact_exp_short(x[i]);
      if (!same_double(want, y[i])) {
        fprintf(stderr, "exp: x %a: %a, want %a\n", x[i], y[i], want);
        abort();
      }
    }
    for (unsigned i = 0U; i < n; ++i) {
      // The pan's angles: [0, 1], the ends included.
      x[i] = p4d_rng_below(&rng, 8U) == 0U ? (double)p4d_rng_below(&rng, 2U)
                                           : p4d_rng_uniform(&rng, 0.0, 1.0);
    }
    p4d_motion_block_sin(x, y, n);
    for (unsigned i = 0U; i < n; ++i) {
      const double want = p4d_exact_quarter_sin_short(x[i]);
      if (!same_double(want, y[i])) {
        fprintf(stderr, "sin: a %a: %a, want %a\n", x[i], y[i], want);
        abort();
      }
    }
    compared += 3UL * n;
  }
  return compared;
}

int
main(void)
{
  P4dPhiTable* const table = (P4dPhiTable*)malloc(sizeof(P4dPhiTable));
  double* const      line =
    (double*)malloc((LINE_SIZE + P4D_MOTION_TAPS) * sizeof(double));
  double* const kernel =
    (double*)malloc(P4D_MOTION_KERNEL_SIZE * sizeof(double));
  assert(table && line && kernel);
  p4d_exact_phi_fill(table);
  p4d_motion_kernel_fill(kernel);
  for (unsigned i = 0U; i < LINE_SIZE; ++i) {
    line[i] = (float)p4d_rng_uniform(&rng, -1.0, 1.0);
  }
  memcpy(line + LINE_SIZE, line, P4D_MOTION_TAPS * sizeof(double));

  unsigned paths = 0U;
  for (unsigned p = 0U; p < P4D_ISA_COUNT; ++p) {
    const P4dIsa isa = (P4dIsa)p;
    if (!p4d_isa_supported(isa)) {
      printf("# %s: not in this build or not on this CPU\n", p4d_isa_name(isa));
      continue;
    }
    assert(p4d_isa_use(isa) == isa && p4d_isa_current() == isa);
    const unsigned long phi    = check_phi(table);
    const unsigned long motion = check_motion(line, kernel, LINE_SIZE - 1U);
    printf("# %s: %lu map values and %lu reads, exponentials and sines, "
           "all the scalar bits\n",
           p4d_isa_name(isa),
           phi,
           motion);
    ++paths;
  }
  assert(paths >= 1U);
  free(line);
  free(kernel);
  free(table);
  return 0;
}
