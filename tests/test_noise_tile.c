// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Tiles: the core's periodic x, y, z and w axes (p4d_noise4_tile() and its
  lines and points).  Periodicity bit for bit on every axis (negative
  coordinates too), the aperiodic noise inside a period, the w-only loop
  as a special case, every code path giving the scalar kernel's bits on
  tiled lines (image rows included) and on any points, and the octave
  placement of fBm as p4d_fbm4_sum_span() uses it.
*/

#undef NDEBUG

#include "isa.h"
#include "noise.h"

#include "support/compare.h"
#include "support/rng.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static P4dRng rng = { 0x7E11E5U };

/// Periods tried: the smallest, odd ones, a power of two, a long one.
static const uint64_t periods[] = { 1U, 2U, 3U, 7U, 64U, 1000U, 123457U };
#define N_PERIODS (sizeof(periods) / sizeof(periods[0]))

static uint32_t
bits(float x)
{
  uint32_t u = 0U;
  memcpy(&u, &x, sizeof(u));
  return u;
}

/// A coordinate in [-span, span] on a grid of 2^-10, so that adding whole
/// periods keeps its fraction exactly.
static double
dyadic(double span)
{
  return floor(p4d_rng_uniform(&rng, -span, span) * 1024.0) / 1024.0;
}

/**
   Each axis alone and all four at once: shifting a coordinate by whole
   periods gives the same bits (k negative too), and a point whose cells
   and upper corners all lie in [0, P) after the floored modulo is the
   aperiodic noise at the remainders.
*/
static void
test_periodic_axes(void)
{
  unsigned checked = 0U;
  unsigned inside  = 0U;
  for (unsigned axes = 0U; axes < 5U; ++axes) {
    for (unsigned p = 0U; p < N_PERIODS; ++p) {
      uint64_t period[4] = { 0U, 0U, 0U, 0U };
      for (unsigned a = 0U; a < 4U; ++a) {
        if (axes == 4U || a == axes) {
          // All at once: a different period per axis.
          period[a] = periods[(p + a * (axes == 4U)) % N_PERIODS];
        }
      }
      for (unsigned i = 0U; i < 1500U; ++i) {
        double x[4];
        for (unsigned a = 0U; a < 4U; ++a) {
          const double pd = (double)(period[a] ? period[a] : 8U);
          x[a]            = dyadic(3.0 * pd);
        }
        const uint32_t seed = (uint32_t)p4d_rng_next(&rng);
        const float n = p4d_noise4_tile(seed, x[0], x[1], x[2], x[3], period);

        static const double k[] = { -5.0, -1.0, 1.0, 2.0, 1000.0 };
        for (unsigned a = 0U; a < 4U; ++a) {
          if (period[a] == 0U) {
            continue;
          }
          for (unsigned j = 0U; j < 5U; ++j) {
            double y[4];
            memcpy(y, x, sizeof(y));
            y[a] += k[j] * (double)period[a];
            assert(bits(p4d_noise4_tile(
                     seed, y[0], y[1], y[2], y[3], period)) == bits(n));
            ++checked;
          }
        }

        // Inside the tile: no corner wraps.
        double r[4];
        bool   no_wrap = true;
        for (unsigned a = 0U; a < 4U; ++a) {
          const double pd = (double)period[a];
          r[a]            = period[a] ? x[a] - pd * floor(x[a] / pd) : x[a];
          no_wrap         = no_wrap && (period[a] == 0U || r[a] < pd - 1.0);
        }
        if (no_wrap) {
          assert(bits(p4d_noise4(seed, r[0], r[1], r[2], r[3])) == bits(n));
          ++inside;
        }
      }
    }
  }

  // Floored, not truncated: cell -4 of x = -3.25 with P = 5 hashes as 1.
  const uint64_t five_x[4] = { 5U, 0U, 0U, 0U };
  assert(bits(p4d_noise4_tile(9U, -3.25, 0.6, 0.2, 0.3, five_x)) ==
         bits(p4d_noise4(9U, 1.75, 0.6, 0.2, 0.3)));
  printf("# tiles: %u shifted points (every axis alone and all at once, "
         "k = -5 .. 1000 periods) give the same bits; %u equal the "
         "aperiodic noise inside the tile\n",
         checked,
         inside);
}

/// Period 0 everywhere (or NULL, or beyond 2^50) is p4d_noise4(); a w-only
/// period is p4d_noise4_loop().
static void
test_special_cases(void)
{
  const uint64_t none[4] = { 0U, 0U, 0U, 0U };
  const uint64_t huge[4] = {
    P4D_NOISE_PERIOD_MAX + 1U, UINT64_MAX, P4D_NOISE_PERIOD_MAX + 7U, 0U
  };
  for (unsigned i = 0U; i < 20000U; ++i) {
    const double   x       = p4d_rng_uniform(&rng, -100.0, 100.0);
    const double   y       = p4d_rng_uniform(&rng, -100.0, 100.0);
    const double   z       = p4d_rng_uniform(&rng, -100.0, 100.0);
    const double   w       = p4d_rng_uniform(&rng, -1.0e6, 1.0e6);
    const uint64_t p       = periods[i % N_PERIODS];
    const uint64_t loop[4] = { 0U, 0U, 0U, p };
    const float    n       = p4d_noise4(i, x, y, z, w);
    assert(bits(p4d_noise4_tile(i, x, y, z, w, none)) == bits(n));
    assert(bits(p4d_noise4_tile(i, x, y, z, w, NULL)) == bits(n));
    assert(bits(p4d_noise4_tile(i, x, y, z, w, huge)) == bits(n));
    assert(bits(p4d_noise4_tile(i, x, y, z, w, loop)) ==
           bits(p4d_noise4_loop(i, x, y, z, w, p)));
  }
  printf("# period 0, NULL, beyond 2^50: p4d_noise4(); w only: "
         "p4d_noise4_loop()\n");
}

/// A line of one of the kinds the paths treat differently.
static void
random_line(unsigned kind, double origin[4], double step[4])
{
  for (unsigned a = 0U; a < 4U; ++a) {
    origin[a] = p4d_rng_uniform(&rng, -300.0, 300.0);
    step[a]   = 0.0;
  }

  switch (kind) {
  case 0U: // An image row: along x only, octave 0 to 9 of 4 cells per 512
    step[0] = 4.0 / 512.0 * (double)(1U << p4d_rng_below(&rng, 10U));
    break;
  case 1U: // A row backwards, at a whole cell, at +-0, across 2^32
    step[0]   = -p4d_rng_uniform(&rng, 0.0, 3.0);
    origin[1] = floor(origin[1]);
    if (p4d_rng_below(&rng, 2U)) {
      origin[2] = p4d_rng_below(&rng, 2U) ? 0.0 : -0.0;
      origin[3] = p4d_rng_below(&rng, 2U) ? 0.0 : -0.0;
    } else {
      origin[0] = 0x1p32 + p4d_rng_uniform(&rng, -300.0, 300.0);
    }
    break;
  case 2U: // The Mod's and the Noise's lines: slow in space, fast in time
    for (unsigned a = 0U; a < 3U; ++a) {
      step[a] = p4d_rng_uniform(&rng, -1.0e-3, 1.0e-3);
    }
    step[3] = p4d_rng_uniform(&rng, -0.7, 0.7);
    break;
  case 3U: // Fast on every axis
    for (unsigned a = 0U; a < 4U; ++a) {
      step[a] = p4d_rng_uniform(&rng, -2.0, 2.0);
    }
    break;
  case 4U: // Huge coordinates, some beyond the range; a huge row
    for (unsigned a = 0U; a < 4U; ++a) {
      origin[a] = 0x1p50 - p4d_rng_uniform(&rng, 0.0, 64.0);
      step[a]   = p4d_rng_uniform(&rng, -0.5, 0.5);
    }
    if (p4d_rng_below(&rng, 2U)) {
      step[1] = step[2] = step[3] = 0.0;
      step[0]                     = p4d_rng_uniform(&rng, -8.0, 8.0);
    }
    break;
  case 5U: // NaN or infinity somewhere
    origin[p4d_rng_below(&rng, 4U)] = p4d_rng_below(&rng, 2U) ? NAN : INFINITY;
    step[0]                         = p4d_rng_uniform(&rng, -1.0, 1.0);
    break;
  default: // A column: along y only; or zero coordinates with zero steps
    step[1] = p4d_rng_uniform(&rng, -0.6, 0.6);
    if (p4d_rng_below(&rng, 2U)) {
      origin[2] = p4d_rng_below(&rng, 2U) ? 0.0 : -0.0;
      origin[3] = p4d_rng_below(&rng, 2U) ? 0.0 : -0.0;
    }
    break;
  }
}

#define N_KINDS 7U
#define MAX_N 1500U

/// Long periods: across 2^32, and the longest.
static const uint64_t long_periods[] = { 0xFFFFFFFFU,
                                         0x200000005U,
                                         0x3FFFFFFFFFFFU - 2U,
                                         P4D_NOISE_PERIOD_MAX };

/// A random period, long one time in four.
static uint64_t
random_period(void)
{
  return p4d_rng_below(&rng, 4U) ? periods[p4d_rng_below(&rng, N_PERIODS)]
                                 : long_periods[p4d_rng_below(&rng, 4U)];
}

/// Random periods: none, w only, x and y (an image tile), or all four.
static void
random_periods(uint64_t period[4])
{
  const unsigned which = p4d_rng_below(&rng, 4U);
  for (unsigned a = 0U; a < 4U; ++a) {
    const bool on =
      which == 3U || (which == 2U && a < 2U) || (which == 1U && a == 3U);
    period[a] = on ? random_period() : 0U;
  }
}

/// A coordinate within a few cells of a multiple of period (0: of 2^20),
/// anywhere in range: where the vector paths' quotient by the period may
/// be one off before its correction.
static double
near_multiple(uint64_t period)
{
  const double p     = (double)(period ? period : 1U << 20U);
  const double k_max = floor(P4D_NOISE_COORD_MAX / p) - 1.0;
  const double k     = floor(p4d_rng_uniform(&rng, -k_max, k_max));
  return k * p + p4d_rng_uniform(&rng, -2.0, 2.0);
}

/// Every path's tiled lines equal the scalar ones, and the scalar ones
/// equal p4d_noise4_tile() at every point.
static void
test_paths_spans(void)
{
  static float want[MAX_N];
  static float got[MAX_N];
  const P4dIsa chosen   = p4d_isa_current();
  unsigned     n_paths  = 0U;
  unsigned     n_points = 0U;
  for (unsigned isa = 0U; isa < P4D_ISA_COUNT; ++isa) {
    if (!p4d_isa_supported((P4dIsa)isa)) {
      continue;
    }
    ++n_paths;
    for (unsigned trial = 0U; trial < 3000U; ++trial) {
      const unsigned kind = trial % N_KINDS;
      double         origin[4];
      double         step[4];
      uint64_t       period[4];
      random_line(kind, origin, step);
      random_periods(period);
      const uint32_t seed  = (uint32_t)p4d_rng_next(&rng);
      const int64_t  first = (int64_t)p4d_rng_uniform(&rng, -1.0e5, 1.0e5);
      const size_t   n     = 1U + p4d_rng_below(&rng, MAX_N);

      p4d_isa_use(P4D_ISA_SCALAR);
      p4d_noise4_span_tile(seed, origin, step, first, want, n, period);
      if (isa == P4D_ISA_SCALAR) {
        for (size_t i = 0U; i < n; i += 1U + i / 64U) {
          const double t = (double)(first + (int64_t)i);
          assert(bits(want[i]) == bits(p4d_noise4_tile(seed,
                                                       origin[0] + t * step[0],
                                                       origin[1] + t * step[1],
                                                       origin[2] + t * step[2],
                                                       origin[3] + t * step[3],
                                                       period)));
          ++n_points;
        }
      }
      p4d_isa_use((P4dIsa)isa);
      p4d_noise4_span_tile(seed, origin, step, first, got, n, period);
      const P4dSpanLine line = {
        p4d_isa_name((P4dIsa)isa), kind, seed, origin, step, first, period
      };
      p4d_assert_same_span(&line, want, got, n);

      // The w-only tile is the loop, and no period is the plain line.
      if (period[0] == 0U && period[1] == 0U && period[2] == 0U) {
        p4d_noise4_span_loop(seed, origin, step, first, got, n, period[3]);
        assert(p4d_first_difference(want, got, n) == n);
      }
    }
  }
  p4d_isa_use(chosen);
  printf("# tiled lines: %u paths give the scalar bits on 3000 lines each; "
         "%u scalar points equal p4d_noise4_tile()\n",
         n_paths,
         n_points);
}

/// Every path's points equal p4d_noise4_tile() at each point.
static void
test_paths_points(void)
{
  enum { N = 1000 };
  static double p[N][4];
  static float  got[N];
  const P4dIsa  chosen  = p4d_isa_current();
  unsigned      n_paths = 0U;
  for (unsigned isa = 0U; isa < P4D_ISA_COUNT; ++isa) {
    if (!p4d_isa_supported((P4dIsa)isa)) {
      continue;
    }
    ++n_paths;
    for (unsigned trial = 0U; trial < 300U; ++trial) {
      uint64_t period[4];
      random_periods(period);
      const size_t   n    = 1U + p4d_rng_below(&rng, N);
      const uint32_t seed = (uint32_t)p4d_rng_next(&rng);
      const double   span = trial % 3U ? 50.0 : 1.0e6;
      for (size_t i = 0U; i < n; ++i) {
        for (unsigned a = 0U; a < 4U; ++a) {
          p[i][a] = p4d_rng_uniform(&rng, -span, span);
        }
        if (trial % 3U == 2U) {
          p[i][p4d_rng_below(&rng, 4U)] = near_multiple(period[i % 4U]);
        }
        if (p4d_rng_below(&rng, 200U) == 0U) {
          // Bad and edge coordinates: taken as 0, or exactly on the lattice.
          static const double odd[]     = { NAN,     INFINITY, -0x1p51, 0x1p50,
                                            -0x1p50, -0.0,     3.0,     -7.0 };
          p[i][p4d_rng_below(&rng, 4U)] = odd[p4d_rng_below(&rng, 8U)];
        }
      }

      p4d_isa_use((P4dIsa)isa);
      p4d_noise4_points_tile(seed, (const double(*)[4])p, got, n, period);
      for (size_t i = 0U; i < n; ++i) {
        const float want =
          p4d_noise4_tile(seed, p[i][0], p[i][1], p[i][2], p[i][3], period);
        if (bits(want) != bits(got[i])) {
          fprintf(stderr,
                  "%s: point %zu (%a %a %a %a): %a instead of %a\n",
                  p4d_isa_name((P4dIsa)isa),
                  i,
                  p[i][0],
                  p[i][1],
                  p[i][2],
                  p[i][3],
                  (double)got[i],
                  (double)want);
          abort();
        }
      }
    }
  }
  p4d_isa_use(chosen);
  printf("# points: %u paths give p4d_noise4_tile()'s bits on 300 sets\n",
         n_paths);
}

/**
   p4d_fbm_octave() and p4d_fbm_octave_period() place the octaves as
   p4d_fbm4_sum_span_loop() does: summing the octaves by hand in its order
   gives its bits, with and without a loop.
*/
static void
test_fbm_octave(void)
{
  enum { N = 600 };
  static float want[N];
  static float octave[N];
  static float sum[N];

  const P4dFbm s           = { 5.5f, 1.7, 0.6f, 0.0 };
  const double origin[4]   = { 0.3, -2.5, 0.2347, 11.0 };
  const double step[4]     = { 0.01, 0.0, 0.0, 0.003 };
  const double position[4] = { 1.7, -0.3, 0.0, 0.25 };
  const double loops[]     = { 0.0, 3.0, 7.4 };
  for (unsigned l = 0U; l < 3U; ++l) {
    const double period = loops[l];
    p4d_fbm4_sum_span_loop(
      &s, period, 5U, origin, step, position, -100, want, N);

    float          weight[P4D_FBM_MAX_OCTAVES];
    const unsigned n_oct = p4d_fbm_weights_loop(&s, period, step, weight);
    assert(n_oct == 6U);
    memset(sum, 0, sizeof(sum));
    double lac_pow = 1.0;
    for (unsigned k = 0U; k < n_oct; ++k) {
      double         o[4];
      double         st[4];
      const uint32_t seed = p4d_fbm_octave(
        5U, k, p4d_fbm_octave_scale(period, lac_pow), origin, step, o, st);
      assert(seed == 5U + k * 0x6C8E9CF5U);
      for (unsigned a = 0U; a < 4U; ++a) {
        o[a] += position[a];
      }
      const uint64_t p = (uint64_t)p4d_fbm_octave_period(period, lac_pow);
      p4d_noise4_span_loop(seed, o, st, -100, octave, N, p);
      for (unsigned i = 0U; i < N; ++i) {
        sum[i] += weight[k] * octave[i];
      }
      lac_pow *= s.lacunarity;
    }
    assert(p4d_first_difference(want, sum, N) == N);
  }

  // The snapped periods of a 3-cell loop at lacunarity 1.7, and no loop.
  static const double snapped[] = { 3.0, 5.0, 9.0, 15.0, 25.0, 43.0 };
  double              lac_pow   = 1.0;
  for (unsigned k = 0U; k < 6U; ++k) {
    assert(p4d_fbm_octave_period(3.0, lac_pow) == snapped[k]);
    assert(p4d_fbm_octave_period(0.0, lac_pow) == 0.0);
    assert(p4d_fbm_octave_period(NAN, lac_pow) == 0.0);
    lac_pow *= 1.7;
  }
  assert(p4d_fbm_octave_period(2.6, 1.0) == 3.0);
  assert(p4d_fbm_octave_period(4.0, 0.01) == 1.0);
  printf("# fBm octaves placed by hand give p4d_fbm4_sum_span_loop()'s "
         "bits\n");
}

int
main(void)
{
  test_periodic_axes();
  test_special_cases();
  test_paths_spans();
  test_paths_points();
  test_fbm_octave();
  return 0;
}
