// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Properties of the noise core, each checked so that it fails if the
  property breaks.
*/

#undef NDEBUG

#include "noise.h"

#include "support/compare.h"
#include "support/rng.h"
#include "support/stats.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/// The test's own reproducible random points.
static P4dRng rng = { 0x2545F4914F6CDD1DULL };

static void
random_point(double p[4], double range)
{
  for (unsigned k = 0U; k < 4U; ++k) {
    p[k] = p4d_rng_uniform(&rng, -range, range);
  }
}

/// fBm at one point: a span of one point.
static float
fbm_at(const P4dFbm* s, uint32_t seed, double x, double y, double z, double w)
{
  const double origin[4] = { x, y, z, w };
  const double step[4]   = { 0.0, 0.0, 0.0, 0.0 };
  float        out       = 0.0f;

  p4d_fbm4_span(s, seed, origin, step, 0U, &out, 1U);
  return out;
}

#define N_CORR 100000U

static float series_a[N_CORR];
static float series_b[N_CORR];

static void
test_lattice_zero(void)
{
  for (unsigned i = 0U; i < 100000U; ++i) {
    const uint32_t seed = (uint32_t)p4d_rng_uniform(&rng, 0.0, 4294967295.0);
    double         p[4];
    random_point(p, 1.0e9);
    const float v =
      p4d_noise4(seed, floor(p[0]), floor(p[1]), floor(p[2]), floor(p[3]));
    assert(v == 0.0f);
  }

  // Near a lattice point the noise is not 0: the test above is not vacuous.
  assert(p4d_noise4(1U, 3.5, -2.25, 7.75, 0.5) != 0.0f);
}

static void
test_bounded(void)
{
  double         peak = 0.0;
  double         sum  = 0.0;
  double         sum2 = 0.0;
  const unsigned n    = 10000000U;
  for (unsigned i = 0U; i < n; ++i) {
    double p[4];
    random_point(p, 1000.0);
    const float v = p4d_noise4(i & 0xFFU, p[0], p[1], p[2], p[3]);
    assert(v >= -1.0f && v <= 1.0f);
    peak = fabsf(v) > peak ? fabsf(v) : peak;
    sum += v;
    sum2 += (double)v * v;
  }

  const double mean = sum / n;
  const double sd   = sqrt(sum2 / n - mean * mean);
  printf("# 10^7 points: largest |n| %.6f, mean %.6f, sd %.6f (documented "
         "%.4f)\n",
         peak,
         mean,
         sd,
         (double)P4D_NOISE_STD);

  // The documented scale: the tails reach far into the range.
  assert(peak > 0.8 && peak <= 1.0);
  assert(fabs(mean) < 0.01);
  assert(fabs(sd / P4D_NOISE_STD - 1.0) < 0.01);
}

/*
  Float rounding of the blend, about 10^-7, is amplified by the variance
  normalisation where the variance is small: by up to gain / sqrt(floor) = 8
  next to a lattice point.  Differences of two values may exceed L h by
  that much.
*/
#define ROUNDING 2.0e-5

/// Largest excess of a difference over L h seen.
static double worst_excess = -1.0;

/// Check |n(p + h dir) - n(p)| <= L h (with a margin for float rounding)
/// and return the slope.
static double
check_lipschitz(const double p[4], const double dir[4], double h)
{
  const float  a      = p4d_noise4(7U, p[0], p[1], p[2], p[3]);
  const float  b      = p4d_noise4(7U,
                             p[0] + h * dir[0],
                             p[1] + h * dir[1],
                             p[2] + h * dir[2],
                             p[3] + h * dir[3]);
  const double excess = fabs((double)b - a) - P4D_NOISE_LIPSCHITZ * h;
  worst_excess        = excess > worst_excess ? excess : worst_excess;
  assert(excess <= ROUNDING);
  return fabs((double)b - a) / h;
}

static void
test_continuity(void)
{
  double steepest = 0.0;
  for (unsigned i = 0U; i < 1000000U; ++i) {
    double p[4];
    double dir[4];
    double norm = 0.0;
    random_point(p, 1000.0);
    random_point(dir, 1.0);
    for (unsigned k = 0U; k < 4U; ++k) {
      norm += dir[k] * dir[k];
    }
    for (unsigned k = 0U; k < 4U; ++k) {
      dir[k] /= sqrt(norm);
    }

    // Half the points sit just before a cell face, so steps cross it; a
    // quarter next to a lattice point, where the slope is steepest.
    if (i & 1U) {
      const unsigned k = i % 4U;
      p[k]             = floor(p[k]) + 1.0 - 1.0e-4;
      dir[k]           = fabs(dir[k]);
    } else if (i & 2U) {
      for (unsigned k = 0U; k < 4U; ++k) {
        p[k] = floor(p[k]) + p4d_rng_uniform(&rng, -2.0e-3, 2.0e-3);
      }
    }

    const double h     = i & 2U ? p4d_rng_uniform(&rng, 2.0e-4, 2.0e-3)
                                : p4d_rng_uniform(&rng, 1.0e-4, 1.0e-2);
    const double slope = check_lipschitz(p, dir, h);
    steepest           = slope > steepest ? slope : steepest;
  }

  printf("# steepest slope seen %.4f per cell, bound %.4f; largest excess "
         "over the bound %.2g (rounding)\n",
         steepest,
         P4D_NOISE_LIPSCHITZ,
         worst_excess);

  // The bound is near the truth, not so loose that a jump would pass.
  assert(steepest > 0.5 * P4D_NOISE_LIPSCHITZ);
}

static void
test_deterministic(void)
{
  for (unsigned i = 0U; i < 10000U; ++i) {
    double p[4];
    random_point(p, 1.0e6);
    const float a = p4d_noise4(i, p[0], p[1], p[2], p[3]);
    const float b = p4d_noise4(i, p[0], p[1], p[2], p[3]);
    assert(p4d_same_bits(a, b));
  }
}

static void
fill_series(uint32_t seed, float* out)
{
  rng.state = 0x9E3779B97F4A7C15ULL;
  for (unsigned i = 0U; i < N_CORR; ++i) {
    double p[4];
    random_point(p, 100.0);
    out[i] = p4d_noise4(seed, p[0], p[1], p[2], p[3]);
  }
}

static void
test_seeds_differ(void)
{
  static const uint32_t pairs[][2] = { { 0U, 1U }, { 1U, 2U }, { 0U, 65535U } };

  for (size_t i = 0U; i < sizeof(pairs) / sizeof(pairs[0]); ++i) {
    fill_series(pairs[i][0], series_a);
    fill_series(pairs[i][1], series_b);
    const double r = p4d_correlation(series_a, series_b, N_CORR);
    printf("# seeds %u/%u: correlation %+.4f\n", pairs[i][0], pairs[i][1], r);
    assert(fabs(r) < 0.05);
  }

  // The same seed correlates fully: the measure can fail.
  fill_series(5U, series_a);
  fill_series(5U, series_b);
  assert(p4d_correlation(series_a, series_b, N_CORR) > 0.999);
}

static void
test_precise_far_out(void)
{
  static const double h = 1.0e-3;

  double   lo        = 2.0;
  double   hi        = -2.0;
  unsigned n_changed = 0U;
  float    prev      = p4d_noise4(9U, 1.0e9 + 0.3, 0.4, 0.7, 1.0e9 + 0.1);
  for (unsigned i = 1U; i <= 1000U; ++i) {
    const double t = (double)i * h;
    const float  v =
      p4d_noise4(9U, 1.0e9 + 0.3 + t * 0.6, 0.4, 0.7, 1.0e9 + 0.1 + t * 0.8);
    assert(fabs((double)v - prev) <= P4D_NOISE_LIPSCHITZ * h + ROUNDING);
    n_changed += v != prev;
    lo   = v < lo ? v : lo;
    hi   = v > hi ? v : hi;
    prev = v;
  }

  printf("# at 10^9 cells: %u of 1000 steps change, range %.4f\n",
         n_changed,
         hi - lo);
  assert(n_changed >= 990U);
  assert(hi - lo > 0.01);
}

/// V of noise.c at fraction f (the raw blend's variance over 0.75).
static double
variance_v(const float f[4])
{
  double s[4];
  double t[4];
  for (unsigned a = 0U; a < 4U; ++a) {
    const double x = f[a];
    const double u = x * x * x * (x * (x * 6.0 - 15.0) + 10.0);
    s[a]           = (1.0 - u) * (1.0 - u) + u * u;
    t[a] = (1.0 - u) * (1.0 - u) * x * x + u * u * (1.0 - x) * (1.0 - x);
  }
  double v = 0.0;
  for (unsigned b = 0U; b < 4U; ++b) {
    double term = t[b];
    for (unsigned a = 0U; a < 4U; ++a) {
      term *= a == b ? 1.0 : s[a];
    }
    v += term;
  }
  return v;
}

#define FLAT_BINS 32U
#define FLAT_CELLS 32768U
#define FLAT_CHUNK 32768U // points per span: 1024 cells

static void
test_variance_flat(void)
{
  // Lines parallel to w at fixed x, y, z fractions: the level of n per
  // phase of w within a cell, averaged over cells.  The first lines are at
  // least 0.05 from an integer on every axis; then the Mod line
  // (0.989, 1.027, 0.969), lines 0.02 from the lattice, and 0.05 on x
  // alone.
  static const double lines[][3] = {
    { 5.05, -2.95, 7.05 }, { 5.5, 0.5, 0.5 },   { 5.3487, 0.25, -4.3091 },
    { 0.95, 3.05, 9.5 },   { 0.1, 0.9, 0.2 },   { -0.011, 1.027, 0.969 },
    { 2.02, 3.02, -1.98 }, { 2.05, 3.0, -1.0 },
  };
  static const size_t n_far = 5U;
  static float        out[FLAT_CHUNK];
  const double        g2 = 0.25 * 0.25 * 0.75; // E[n^2] = g2 V / (V + e)

  double worst_far = 0.0;
  for (size_t l = 0U; l < sizeof(lines) / sizeof(lines[0]); ++l) {
    double sum[FLAT_BINS]  = { 0.0 };
    double sum2[FLAT_BINS] = { 0.0 };
    for (unsigned done = 0U; done < FLAT_CELLS;
         done += FLAT_CHUNK / FLAT_BINS) {
      const double origin[4] = {
        lines[l][0], lines[l][1], lines[l][2], 0.5 / FLAT_BINS + done
      };
      const double step[4] = { 0.0, 0.0, 0.0, 1.0 / FLAT_BINS };
      p4d_noise4_span((uint32_t)l, origin, step, 0, out, FLAT_CHUNK);
      for (unsigned i = 0U; i < FLAT_CHUNK; ++i) {
        const double q = (double)out[i] * out[i];
        sum[i % FLAT_BINS] += q;
        sum2[i % FLAT_BINS] += q * q;
      }
    }

    double lo      = INFINITY;
    double hi      = 0.0;
    double v_lo    = INFINITY;
    double v_hi    = 0.0;
    double worst_z = 0.0;
    for (unsigned b = 0U; b < FLAT_BINS; ++b) {
      float f[4];
      for (unsigned a = 0U; a < 3U; ++a) {
        f[a] = (float)(lines[l][a] - floor(lines[l][a]));
      }
      f[3]            = (0.5f + (float)b) / FLAT_BINS;
      const double v  = variance_v(f);
      const double e  = 0x1p-10;
      const double m  = sum[b] / FLAT_CELLS;
      const double se = sqrt((sum2[b] / FLAT_CELLS - m * m) / FLAT_CELLS);
      const double z  = fabs(m - g2 * v / (v + e)) / se;
      worst_z         = z > worst_z ? z : worst_z;
      lo              = m < lo ? m : lo;
      hi              = m > hi ? m : hi;
      v_lo            = v < v_lo ? v : v_lo;
      v_hi            = v > v_hi ? v : v_hi;
    }

    const double swing = 10.0 * log10(hi / lo);
    printf("# level along w at (%.4f, %.4f, %.4f): swing %.2f dB (analytic "
           "%.2f dB, raw blend %.1f dB), worst bin %.1f SE off analytic\n",
           lines[l][0] - floor(lines[l][0]),
           lines[l][1] - floor(lines[l][1]),
           lines[l][2] - floor(lines[l][2]),
           swing,
           10.0 * log10((v_hi / (v_hi + 0x1p-10)) / (v_lo / (v_lo + 0x1p-10))),
           10.0 * log10(v_hi / v_lo),
           worst_z);

    // Neighbouring cells share a layer of corners, so allow for that in the
    // standard error.
    assert(worst_z < 6.0);
    if (l < n_far) {
      worst_far = swing > worst_far ? swing : worst_far;
    }
  }

  printf("# worst level swing along w, lines >= 0.05 off the lattice on "
         "every axis: %.2f dB\n",
         worst_far);
  assert(worst_far < 1.0);
}

static double
awkward_coordinate(void)
{
  // Mix ordinary, negative, just-below-an-integer and far coordinates
  // (beyond 32-bit cells: about 2^32, 2^40 and 2^49).
  static const double far[3] = { 0x1p32, 0x1p40, 0x1p49 };
  const double        v      = p4d_rng_uniform(&rng, -1.0e6, 1.0e6);
  switch ((unsigned)p4d_rng_uniform(&rng, 0.0, 4.0)) {
  case 0:
    return v;
  case 1:
    return nextafter(floor(v), -INFINITY);
  case 2:
    return far[(unsigned)p4d_rng_uniform(&rng, 0.0, 3.0)] + v;
  default:
    return -fabs(v);
  }
}

static void
test_line_equals_scalar(void)
{
  static float line[1000];
  for (unsigned trial = 0U; trial < 2000U; ++trial) {
    double origin[4];
    double step[4];
    for (unsigned k = 0U; k < 4U; ++k) {
      origin[k] = awkward_coordinate();
      step[k]   = trial % 3U ? p4d_rng_uniform(&rng, -0.5, 0.5)
                             : p4d_rng_uniform(&rng, -1.0e-7, 1.0e-7);
    }

    const uint32_t seed = trial * 2654435761U;
    const size_t   n    = 1U + trial % 1000U;
    p4d_noise4_span(seed, origin, step, 0U, line, n);
    for (size_t i = 0U; i < n; ++i) {
      const double t = (double)i;
      const float  v = p4d_noise4(seed,
                                 origin[0] + t * step[0],
                                 origin[1] + t * step[1],
                                 origin[2] + t * step[2],
                                 origin[3] + t * step[3]);
      assert(p4d_same_bits(line[i], v));
    }

    // A span that starts part-way along gives the same values.
    if (n > 10U) {
      float span[1000];
      p4d_noise4_span(seed, origin, step, 7U, span, n - 7U);
      p4d_assert_same("span from 7", span, line + 7, 0U, n - 7U);
    }
  }
}

static void
test_known_answers(void)
{
  static const struct {
    uint32_t seed;
    float    expected;
    double   p[4];
  } cases[] = {
    { 0U, 0x1.7d08e2p-3f, { 0x1p-1, 0x1p-1, 0x1p-1, 0x1p-1 } },
    { 1U, -0x1.411f18p-2f, { 0x1p-2, 0x1.8p-1, 0x1p-3, 0x1.cp-1 } },
    { 1U, -0x1.efd5p-4f, { -0x1p-2, -0x1.cp+1, 0x1.c8p+2, -0x1p-4 } },
    { 2U,
      -0x1.9c8756p-3f,
      { 0x1.edd2f1a9fbe77p+6,
        -0x1.3b9999999999ap+6,
        0x1.0624dd2f1a9fcp-10,
        0x1.5p+5 } },
    { 65535U,
      -0x1.392b14p-3f,
      { 0x1.e84809999999ap+19,
        -0x1.e847e9999999ap+19,
        0x1.6p+2,
        0x1.dcd65002p+29 } },
    { 42U,
      0x1.4p-18f,
      { -0x1p-30, 0x1p-30, 0x1.fffffca501acbp-1, -0x1.fffffca501acbp-1 } },
    { 4294967295U,
      -0x1.700dc2p-5f,
      { 0x1.a666666666666p+1,
        0x1.199999999999ap+2,
        0x1.6p+2,
        0x1.a666666666666p+2 } },
    { 7U,
      -0x1.6da7d6p-2f,
      { 0x1.00000001p+31,
        -0x1.00000001p+31,
        0x1.000000004p+32,
        0x1.d1a94a2001p+39 } },
    { 1U, -0x1.5ecf2ep-2f, { 0x0p+0, 0x0p+0, 0x0p+0, 0x1.7ae147ae147aep-2 } },
    { 99U,
      -0x1.0958b4p-3f,
      { 0x1.999999999999ap-4,
        0x1.999999999999ap-3,
        0x1.3333333333333p-2,
        0x1.c6bf526340004p+49 } },
    { 3U,
      0x1.b19562p-3f,
      { 0x1.fe9999999999ap+7,
        0x1.00b3333333333p+8,
        0x1.011999999999ap+8,
        0x1.20e6666666666p+8 } },
    { 1U, -0x1.9fe2c2p-3f, { -0x1.12e0be826d695p-30, 0x1p-1, 0x1p-1, 0x1p-1 } },
    { 5U,
      -0x1.ae5942p-3f,
      { 0x1.8000000000060p+44,
        -0x1.4000000000b00p+40,
        0x1.2000000012000p+35,
        -0x1.0000000020000p+33 } },
    { 6U,
      0x1.1960cp-2f,
      { 0x1.ffffffffc0000p+31,
        0x1.00000000d0000p+32,
        -0x1.0000000050000p+32,
        0x1.e66666666665fp+48 } },
  };

  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const double* p = cases[i].p;
    const float   v = p4d_noise4(cases[i].seed, p[0], p[1], p[2], p[3]);
    if (!p4d_same_bits(v, cases[i].expected)) {
      printf("# known answer %zu: got %a, expected %a\n",
             i,
             (double)v,
             (double)cases[i].expected);
    }
    assert(p4d_same_bits(v, cases[i].expected));
  }
}

static void
test_fbm(void)
{
  // Bounded, and the span API joins at any cut, across chunk boundaries.
  const P4dFbm s         = { 5.5f, 2.0, 0.7f, 0.0 };
  const double origin[4] = { 0.25, 1.5, -3.75, 1000.125 };
  const double step[4]   = { 0.001, 0.0, 0.002, 0.031 };
  static float whole[2000];
  static float parts[2000];
  p4d_fbm4_span(&s, 4U, origin, step, 0U, whole, 2000U);
  p4d_fbm4_span(&s, 4U, origin, step, 0U, parts, 300U);
  p4d_fbm4_span(&s, 4U, origin, step, 300U, parts + 300, 1700U);
  p4d_assert_same("fBm span in parts", whole, parts, 0U, 2000U);
  for (size_t i = 0U; i < 2000U; ++i) {
    assert(whole[i] >= -1.0f && whole[i] <= 1.0f);
  }
  assert(p4d_same_bits(fbm_at(&s, 4U, 0.25, 1.5, -3.75, 1000.125), whole[0]));

  // Known answers freeze fBm: octave seeds, offsets, weights and order.
  {
    static const float expected[4] = {
      -0x1.54471p-4f, -0x1.7ee2e8p-4f, -0x1.a73666p-4f, -0x1.c70844p-4f
    };
    const P4dFbm k     = { 4.5f, 2.0, 0.6f, 0.0 };
    const double ko[4] = { 0.3, -1.7, 2.9, 1000.5 };
    const double ks[4] = { 0.01, 0.0, 0.003, 0.021 };
    float        got[4];
    p4d_fbm4_span(&k, 11U, ko, ks, 1000U, got, 4U);
    for (unsigned i = 0U; i < 4U; ++i) {
      assert(p4d_same_bits(got[i], expected[i]));
    }
  }

  // Not 0 at the origin: octaves are offset off the lattice.
  assert(fbm_at(&s, 4U, 0.0, 0.0, 0.0, 0.0) != 0.0f);

  // A fractional octave count fades the last octave in: no jump.
  for (unsigned i = 0U; i < 1000U; ++i) {
    double p[4];
    random_point(p, 100.0);
    const P4dFbm a  = { 3.0f, 2.0, 0.5f, 0.0 };
    const P4dFbm b  = { 3.001f, 2.0, 0.5f, 0.0 };
    const P4dFbm c  = { 2.999f, 2.0, 0.5f, 0.0 };
    const float  va = fbm_at(&a, 1U, p[0], p[1], p[2], p[3]);
    assert(fabsf(fbm_at(&b, 1U, p[0], p[1], p[2], p[3]) - va) < 1.0e-3);
    assert(fabsf(fbm_at(&c, 1U, p[0], p[1], p[2], p[3]) - va) < 1.0e-3);
  }

  // Octaves are decorrelated: with lacunarity 1 and persistence 1 the second
  // octave samples the same scale as the first, yet is unrelated to it.
  const P4dFbm one = { 1.0f, 1.0, 1.0f, 0.0 };
  const P4dFbm two = { 2.0f, 1.0, 1.0f, 0.0 };
  rng.state        = 12345U;
  for (unsigned i = 0U; i < N_CORR; ++i) {
    double p[4];
    random_point(p, 100.0);
    series_a[i] = fbm_at(&one, 2U, p[0], p[1], p[2], p[3]);
    series_b[i] = 2.0f * fbm_at(&two, 2U, p[0], p[1], p[2], p[3]) - series_a[i];
  }
  const double r = p4d_correlation(series_a, series_b, N_CORR);
  printf("# fBm octaves 0/1: correlation %+.4f\n", r);
  assert(fabs(r) < 0.05);

  // Out-of-range and NaN settings are clamped, never propagated: each gives
  // the same bits as its clamped settings.
  static const struct {
    P4dFbm bad;
    P4dFbm clamped;
  } clamps[] = {
    { { NAN, INFINITY, -3.0f, NAN }, { 3.0f, 16.0, 0.0f, 0.0 } },
    { { 2.0f, INFINITY, 0.5f, -1.0 }, { 2.0f, 16.0, 0.5f, 0.0 } },
    { { 40.0f, -INFINITY, NAN, INFINITY }, { 16.0f, 1.0, 0.5f, 0.0 } },
    { { 2.0f, NAN, 2.0f, 0.0 }, { 2.0f, 2.0, 1.0f, 0.0 } },
    { { -1.0f, 0.5, 0.5f, 0.0 }, { 1.0f, 1.0, 0.5f, 0.0 } },
  };
  for (size_t i = 0U; i < sizeof(clamps) / sizeof(clamps[0]); ++i) {
    const float v = fbm_at(&clamps[i].bad, 1U, 0.5, 0.5, 0.5, 0.5);
    assert(isfinite(v));
    assert(
      p4d_same_bits(v, fbm_at(&clamps[i].clamped, 1U, 0.5, 0.5, 0.5, 0.5)));
  }
}

static void
test_bad_coordinates(void)
{
  // Non-finite and huge coordinates are taken as 0: the output stays finite.
  const float zero = p4d_noise4(1U, 0.3, 0.6, 0.2, 0.0);
  assert(p4d_same_bits(p4d_noise4(1U, 0.3, 0.6, 0.2, NAN), zero));
  assert(p4d_same_bits(p4d_noise4(1U, 0.3, 0.6, 0.2, INFINITY), zero));
  assert(p4d_same_bits(p4d_noise4(1U, 0.3, 0.6, 0.2, -1.0e300), zero));
}

int
main(void)
{
  test_lattice_zero();
  test_bounded();
  test_continuity();
  test_deterministic();
  test_seeds_differ();
  test_precise_far_out();
  test_variance_flat();
  test_line_equals_scalar();
  test_known_answers();
  test_fbm();
  test_bad_coordinates();
  return 0;
}
