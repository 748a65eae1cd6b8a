// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The lattice: the hash of 64-bit cells and the coordinate range (issue 11,
  items 7 and 8).  Each test prints what it measures and fails if the
  property breaks.  kernel.h is the core's internal header: the avalanche
  (support/avalanche.h, shared with the benchmark) is measured on exactly
  the core's hash.
*/

#undef NDEBUG

#include "kernel.h"
#include "noise.h"

#include "support/avalanche.h"
#include "support/rng.h"
#include "support/stats.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

/// The test's own reproducible random points.
static P4dRng rng = { 0x6A09E667F3BCC909ULL };

#define N_INPUTS 100000U

static float series_a[N_INPUTS];
static float series_b[N_INPUTS];

/// A cell as the core meets it (|c| <= 2^50, so the high half is mostly
/// sign) or, every other time, any 64 bits.
static uint64_t
random_cell(unsigned i)
{
  const uint64_t bits = p4d_rng_next(&rng);
  if (i & 1U) {
    return bits;
  }
  return (uint64_t)((int64_t)(bits << 13U) >> 13); // 51-bit signed
}

/// Input n of the avalanche: a random seed and cells as random_cell().
static void
draw_input(void* state, unsigned n, uint64_t in[P4D_AVALANCHE_WORDS])
{
  (void)state;
  in[0] = p4d_rng_next(&rng) >> 32U;
  for (unsigned i = 1U; i < P4D_AVALANCHE_WORDS; ++i) {
    in[i] = random_cell(n);
  }
}

static void
test_avalanche(void)
{
  const P4dAvalanche a = p4d_avalanche_measure(N_INPUTS, draw_input, NULL);
  for (unsigned i = 0U; i < P4D_AVALANCHE_WORDS; ++i) {
    printf("# avalanche, %s (%u bits): worst |p - 0.5| %.4f (bit %u -> "
           "gradient bit %u)\n",
           p4d_avalanche_names[i],
           p4d_avalanche_bits[i],
           a.worst[i],
           a.bit[i],
           a.out_bit[i]);
  }
  printf("# avalanche over %u inputs: worst |p - 0.5| %.4f (target 0.05)\n",
         N_INPUTS,
         a.overall);
  assert(a.overall < 0.05);
}

static void
test_corners_carry(void)
{
  // hash_corners() gives each corner what hash_cell() gives its cell, also
  // where cell + 1 carries into the high half.
  static const uint64_t edges[] = { 0xFFFFFFFFU,
                                    0U,
                                    0x1FFFFFFFFU,
                                    (uint64_t)-1,
                                    (uint64_t)-0x100000000LL - 1U,
                                    0x3FFFFFFFFFFFFU };
  for (unsigned n = 0U; n < 10000U; ++n) {
    const uint32_t key = seed_key((uint32_t)p4d_rng_next(&rng));
    uint64_t       c[4];
    for (unsigned a = 0U; a < 4U; ++a) {
      c[a] = n & 1U ? edges[p4d_rng_below(&rng, 6U)] : random_cell(n);
    }
    static const uint64_t none[4] = { 0U, 0U, 0U, 0U };
    uint32_t              h[16];
    hash_corners(key, c, 4U, none, h);
    for (unsigned i = 0U; i < 16U; ++i) {
      uint64_t corner[4];
      for (unsigned a = 0U; a < 4U; ++a) {
        corner[a] = c[a] + ((i >> a) & 1U);
      }
      assert(hash_gradient(h[i]) == hash_cell(key, corner));
    }
  }
}

/// A coordinate with a cell anywhere in 32 bits (signed) and a fraction in
/// steps of 2^-10, so that adding 2^40 is exact.
static double
random_coordinate(void)
{
  const double cell = (double)(int32_t)(uint32_t)(p4d_rng_next(&rng) >> 32U);
  return cell + (double)p4d_rng_below(&rng, 1024U) / 1024.0;
}

static void
test_shifts(void)
{
  enum { K_MIN = 8, K_MAX = 40, N_K = K_MAX - K_MIN + 1 };
  static const char axes[4] = { 'x', 'y', 'z', 'w' };
  static double     sums[4][N_K][5];

  for (unsigned n = 0U; n < N_INPUTS; ++n) {
    const uint32_t seed = (uint32_t)p4d_rng_next(&rng);
    double         p[4];
    for (unsigned a = 0U; a < 4U; ++a) {
      p[a] = random_coordinate();
    }
    const double x = p4d_noise4(seed, p[0], p[1], p[2], p[3]);
    for (unsigned a = 0U; a < 4U; ++a) {
      for (unsigned k = 0U; k < (unsigned)N_K; ++k) {
        double q[4] = { p[0], p[1], p[2], p[3] };
        q[a] += ldexp(1.0, (int)k + K_MIN);
        const double y = p4d_noise4(seed, q[0], q[1], q[2], q[3]);
        double*      s = sums[a][k];
        s[0] += x;
        s[1] += y;
        s[2] += x * x;
        s[3] += y * y;
        s[4] += x * y;
      }
    }
  }

  double worst = 0.0;
  for (unsigned a = 0U; a < 4U; ++a) {
    double axis_worst = 0.0;
    int    at_k       = 0;
    for (unsigned k = 0U; k < (unsigned)N_K; ++k) {
      const double* s   = sums[a][k];
      const double  n   = N_INPUTS;
      const double  cov = s[4] / n - (s[0] / n) * (s[1] / n);
      const double  vx  = s[2] / n - (s[0] / n) * (s[0] / n);
      const double  vy  = s[3] / n - (s[1] / n) * (s[1] / n);
      const double  r   = cov / sqrt(vx * vy);
      if (fabs(r) > fabs(axis_worst)) {
        axis_worst = r;
        at_k       = (int)k + K_MIN;
      }
    }
    printf("# r(n(p), n(p + 2^k %c)), k = %d..%d: worst %+.4f at k = %d\n",
           axes[a],
           K_MIN,
           K_MAX,
           axis_worst,
           at_k);
    worst = fabs(axis_worst) > worst ? fabs(axis_worst) : worst;
  }
  printf("# shifts by 2^8..2^40 cells, every axis: worst |r| %.4f (target "
         "0.05)\n",
         worst);
  assert(worst < 0.05);
}

/// The noise at N_INPUTS fixed random points, shifted.
static void
fill_series(const double shift[4], float* out)
{
  P4dRng points = { 0x9E3779B97F4A7C15ULL };
  for (unsigned i = 0U; i < N_INPUTS; ++i) {
    double p[4];
    for (unsigned k = 0U; k < 4U; ++k) {
      p[k] = p4d_rng_uniform(&points, -100.0, 100.0) + shift[k];
    }
    out[i] = p4d_noise4(3U, p[0], p[1], p[2], p[3]);
  }
}

static void
test_aperiodic(void)
{
  // Shifts that are not powers of two, out to the coordinate limit: the
  // permutation table of the reference noise repeats after 256 and 289 is
  // 17^2; 2^32 + 1 and 3 * 2^47 are beyond 32-bit cells.
  static const double periods[] = { 256.0,      289.0,  512.0,
                                    1024.0,     4096.0, 65536.0,
                                    16777216.0, 0x1p32, 0x1p32 + 1.0,
                                    0x1p40,     0x1p45, 3.0 * 0x1p47 };
  static const double none[4]   = { 0.0, 0.0, 0.0, 0.0 };

  fill_series(none, series_a);
  double worst = 0.0;
  for (unsigned axis = 0U; axis < 4U; ++axis) {
    for (size_t i = 0U; i < sizeof(periods) / sizeof(periods[0]); ++i) {
      double shift[4] = { 0.0, 0.0, 0.0, 0.0 };
      shift[axis]     = periods[i];
      fill_series(shift, series_b);
      const double r = fabs(p4d_correlation(series_a, series_b, N_INPUTS));
      worst          = r > worst ? r : worst;
    }
  }
  printf("# shifts of 256 .. 3 * 2^47 cells, every axis: worst |r| %.4f\n",
         worst);
  assert(worst < 0.05);

  // A shift of a hundredth of a cell correlates: the measure can fail.
  const double near[4] = { 0.0, 0.0, 0.0, 0.01 };
  fill_series(near, series_b);
  assert(p4d_correlation(series_a, series_b, N_INPUTS) > 0.9);
}

/// r of an octave whose x, y, z stand still, along w, against itself shift
/// cells earlier, through p4d_noise4_span() as the engines call it.
static double
still_octave_r(double shift)
{
  static const double step[4]  = { 0.0, 0.0, 0.0, 0.37 };
  const double        late[4]  = { 0.3487, 0.0086, 0.3091, 0x1p41 + 0.123 };
  const double        early[4] = { late[0], late[1], late[2], late[3] - shift };
  p4d_noise4_span(1U, late, step, 0, series_a, N_INPUTS);
  p4d_noise4_span(1U, early, step, 0, series_b, N_INPUTS);
  return p4d_correlation(series_a, series_b, N_INPUTS);
}

static void
test_no_wrap(void)
{
  const double r32 = still_octave_r(0x1p32);
  const double r40 = still_octave_r(0x1p40);
  printf("# still octave against itself 2^32 cells earlier: r %+.4f, 2^40: "
         "r %+.4f (target |r| < 0.05)\n",
         r32,
         r40);
  assert(fabs(r32) < 0.05 && fabs(r40) < 0.05);

  // A shift of a hundredth of a cell correlates: the measure can fail.
  assert(still_octave_r(0.01) > 0.9);
}

/// The largest step and the number of zero steps of n samples of the line
/// at cells_per_s sampled at rate, from song hour hours.
static double
largest_step(double hours, double cells_per_s, double rate, unsigned* zeros)
{
  enum { N = 65536 };
  static float out[N];
  const double w0        = hours * 3600.0 * cells_per_s;
  const double origin[4] = { 0.3487, 0.6086, 0.3091, w0 };
  const double step[4]   = { 0.0, 0.0, 0.0, cells_per_s / rate };
  p4d_noise4_span(3U, origin, step, 0, out, N);

  // The span is the engines' path: it agrees with the point function.
  for (unsigned i = 0U; i < N; i += 4099U) {
    const double w = origin[3] + (double)i * step[3];
    assert(p4d_noise4(3U, origin[0], origin[1], origin[2], w) == out[i]);
  }

  return p4d_largest_step_zeros(out, N, zeros);
}

static void
test_hour_10000(void)
{
  // With the band limit no octave moves faster than 20000 cells/s, so in
  // 10,000 hours no coordinate passes 7.2e11 cells (2^39.4), far below
  // P4D_NOISE_COORD_MAX.
  const double cells_per_s = 20000.0;
  const double reach       = cells_per_s * 3600.0 * 10000.0;
  int          exponent    = 0;
  (void)frexp(reach, &exponent);
  printf("# 10,000 h at 20000 cells/s: w = %.3g = 2^%.1f cells (limit 2^%.0f), "
         "double spacing there 2^%d cells\n",
         reach,
         log2(reach),
         log2(P4D_NOISE_COORD_MAX),
         exponent - 53);
  assert(reach < P4D_NOISE_COORD_MAX / 1000.0);

  static const double rates[2] = { 192000.0, 768000.0 };
  for (unsigned r = 0U; r < 2U; ++r) {
    unsigned     zeros_0     = 0U;
    unsigned     zeros_10000 = 0U;
    const double step_0 = largest_step(0.0, cells_per_s, rates[r], &zeros_0);
    const double step_10000 =
      largest_step(10000.0, cells_per_s, rates[r], &zeros_10000);
    const double ratio = step_10000 / step_0;
    printf("# %.0f kHz, 20000 cells/s: hour 0 largest step %.5f, %u zero "
           "steps; hour 10,000 largest step %.5f, %u zero steps; ratio %.3f\n",
           rates[r] / 1000.0,
           step_0,
           zeros_0,
           step_10000,
           zeros_10000,
           ratio);
    assert(zeros_0 == 0U && zeros_10000 == 0U);
    assert(ratio > 1.0 / 1.5 && ratio < 1.5);
  }
}

int
main(void)
{
  test_avalanche();
  test_corners_carry();
  test_shifts();
  test_aperiodic();
  test_no_wrap();
  test_hour_10000();
  return 0;
}
