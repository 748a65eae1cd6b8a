// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Classic Perlin noise (src/noise/classic.h, issue 20 item 1): lattice
  zeros, bound, standard deviation, gradients uniform on the circle and the
  sphere, continuity, no repetition at 256, 2^32 and 2^40 cells,
  uncorrelated seeds, spans equal points for any cut, periodic axes repeat
  bit for bit, and known answers.  Each test prints what it measures.  The
  core's classic noise is one plain C path (no vector path, no dispatch):
  P4D_ISA does not reach it.
*/

#undef NDEBUG

#include "classic.h"

#include "support/rng.h"
#include "support/stats.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

/// Known answers at the point of test_known_answers(), printed by it.
#define KNOWN_0 (-0x1.d1p-2f)
#define KNOWN_1 (0x1.c35648p-3f)
#define KNOWN_2 (0x1.1c2704p-2f)
#define KNOWN_3 (-0x1.c674p-2f)
#define KNOWN_4 (0x1.f4a002p-3f)
#define KNOWN_5 (0x1.226ebap-2f)

static P4dRng rng = { 0xBB67AE8584CAA73BULL };

/// The six bases: dims 1..3, cubic then quintic.
static P4dClassic
basis_of(unsigned i)
{
  const P4dClassic b = { 1U + i % 3U,
                         i < 3U ? P4D_CLASSIC_CUBIC : P4D_CLASSIC_QUINTIC };
  return b;
}

static const char* const fade_names[] = { "cubic", "quintic" };

static float
noise_at(const P4dClassic* b, uint32_t seed, const double p[3])
{
  return p4d_classic_tile(b, seed, p, NULL);
}

static void
test_lattice_zeros(void)
{
  for (unsigned i = 0U; i < 6U; ++i) {
    const P4dClassic b = basis_of(i);
    for (unsigned n = 0U; n < 20000U; ++n) {
      double p[3];
      for (unsigned a = 0U; a < 3U; ++a) {
        const int64_t c = (int64_t)(p4d_rng_next(&rng) >> 14) - (1LL << 49);
        p[a]            = (double)(n & 1U ? c : c % 1000);
      }
      assert(noise_at(&b, (uint32_t)n, p) == 0.0f);
    }
  }
  printf("# lattice: 0 at 20000 integer points of each basis\n");
}

static void
test_std_and_bound(void)
{
  enum { N = 1000000 };
  for (unsigned i = 0U; i < 6U; ++i) {
    const P4dClassic b     = basis_of(i);
    const double     bound = p4d_classic_bound(&b);
    const double     std   = p4d_classic_std(&b);
    double           sum   = 0.0;
    double           sum2  = 0.0;
    double           peak  = 0.0;
    for (unsigned n = 0U; n < N; ++n) {
      double p[3];
      for (unsigned a = 0U; a < 3U; ++a) {
        p[a] = p4d_rng_uniform(&rng, -1.0e6, 1.0e6);
      }
      const double v = noise_at(&b, 7U, p);
      sum += v;
      sum2 += v * v;
      peak = fabs(v) > peak ? fabs(v) : peak;
    }
    const double mean = sum / N;
    const double sd   = sqrt(sum2 / N - mean * mean);
    printf("# %uD %s over %u points: sd %.5f (derived %.5f, %+.2f %%; "
           "tolerance 1 %%), mean %+.5f (tolerance 0.003), max |n| %.4f "
           "(bound %.4f)\n",
           b.dims,
           fade_names[b.fade],
           (unsigned)N,
           sd,
           std,
           100.0 * (sd / std - 1.0),
           mean,
           peak,
           bound);
    assert(fabs(sd / std - 1.0) < 0.01);
    assert(fabs(mean) < 0.003);
    assert(peak <= bound * (1.0 + 1e-6));
  }
}

/// Gradient of the corner at cell c on axis a, read through the noise: near
/// a corner n(c + h e_a) = h g_a (1 - s(h)) + O(h^3) per neighbour.
static double
gradient_component(const P4dClassic* b,
                   uint32_t          seed,
                   const double      c[3],
                   unsigned          a)
{
  const double h    = 0x1p-12;
  double       p[3] = { c[0], c[1], c[2] };
  p[a] += h;
  return noise_at(b, seed, p) / h;
}

/// Chi-square of counts against an even spread over n_bins.
static double
chi_square(const unsigned* count, unsigned n_bins, unsigned total)
{
  const double expect = (double)total / n_bins;
  double       chi    = 0.0;
  for (unsigned k = 0U; k < n_bins; ++k) {
    chi += (count[k] - expect) * (count[k] - expect) / expect;
  }
  return chi;
}

static void
test_gradients_uniform(void)
{
  enum { N = 64000, BINS = 32 };
  const double two_pi = 6.283185307179586;
  for (unsigned dims = 1U; dims <= 3U; ++dims) {
    const P4dClassic b         = { dims, P4D_CLASSIC_CUBIC };
    unsigned         az[BINS]  = { 0 };
    unsigned         zs[BINS]  = { 0 };
    double           worst_len = 0.0;
    for (unsigned n = 0U; n < N; ++n) {
      double c[3];
      for (unsigned a = 0U; a < 3U; ++a) {
        c[a] = (double)((int64_t)(p4d_rng_next(&rng) >> 40) - (1LL << 23));
      }
      double g[3] = { 0.0, 0.0, 0.0 };
      for (unsigned a = 0U; a < dims; ++a) {
        g[a] = gradient_component(&b, 3U, c, a);
      }
      const double len = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
      worst_len = fabs(len - 1.0) > worst_len ? fabs(len - 1.0) : worst_len;
      // The angle (the test may use libm), binned from half a bin off, as
      // the 256 angles of the table fall on bin edges.
      const double phi = atan2(g[1], g[0]) + two_pi * (0.5 + 0.5 / BINS);
      az[(unsigned)(phi / two_pi * BINS) % BINS]++;
      zs[(unsigned)((g[2] / (len > 0.0 ? len : 1.0) + 1.0) / 2.0 * BINS) %
         BINS]++;
    }
    assert(worst_len < 0.002);
    if (dims == 1U) {
      // +1 or -1: the angle is 0 or pi.
      printf("# 1D gradients: +1 %u, -1 %u of %u (|g| 1 within %.1e)\n",
             az[BINS / 2],
             az[0],
             N,
             worst_len);
      assert(az[0] + az[BINS / 2] == N);
      assert(fabs((double)az[0] / N - 0.5) < 0.01);
      continue;
    }
    // 31 degrees of freedom: the 0.1 % point is 61.1.
    const double chi_az = chi_square(az, BINS, N);
    printf("# %uD gradients: azimuth chi-square %.1f over %u bins "
           "(31 dof, 0.1 %% point 61.1); |g| 1 within %.1e\n",
           dims,
           chi_az,
           BINS,
           worst_len);
    assert(chi_az < 61.1);
    if (dims == 3U) {
      const double chi_z = chi_square(zs, BINS, N);
      printf("# 3D gradients: z chi-square %.1f over %u bins (uniform z in "
             "[-1, 1]: uniform on the sphere)\n",
             chi_z,
             BINS);
      assert(chi_z < 61.1);
    }
  }
}

static void
test_continuity(void)
{
  for (unsigned i = 0U; i < 6U; ++i) {
    const P4dClassic b     = basis_of(i);
    const double     limit = p4d_classic_lipschitz(&b);
    double           worst = 0.0;
    for (unsigned n = 0U; n < 200000U; ++n) {
      double p[3];
      double q[3];
      double u[3];
      double norm = 0.0;
      for (unsigned a = 0U; a < 3U; ++a) {
        p[a] = p4d_rng_uniform(&rng, -1000.0, 1000.0);
        u[a] = a < b.dims ? p4d_rng_uniform(&rng, -1.0, 1.0) : 0.0;
        norm += u[a] * u[a];
      }
      const double h = p4d_rng_uniform(&rng, 1e-3, 0.05) / sqrt(norm);
      for (unsigned a = 0U; a < 3U; ++a) {
        q[a] = p[a] + h * u[a];
      }
      const double dist = h * sqrt(norm);
      const double slope =
        fabs((double)noise_at(&b, 11U, q) - noise_at(&b, 11U, p)) / dist;
      worst = slope > worst ? slope : worst;
    }
    printf("# %uD %s: steepest slope %.3f per cell (bound %.3f)\n",
           b.dims,
           fade_names[b.fade],
           worst,
           limit);
    assert(worst <= limit * 1.001);
  }
}

/// Correlation of the noise over a region at 0 and the same region moved
/// by shift cells on axis a.
static double
shifted_correlation(const P4dClassic* b, unsigned a, double shift)
{
  enum { N = 20000 };
  static float x[N];
  static float y[N];
  P4dRng       r = { 0x3C6EF372FE94F82BULL };
  for (unsigned n = 0U; n < N; ++n) {
    double p[3];
    for (unsigned k = 0U; k < 3U; ++k) {
      p[k] = p4d_rng_uniform(&r, 0.0, 65536.0);
    }
    x[n] = noise_at(b, 5U, p);
    p[a] += shift;
    y[n] = noise_at(b, 5U, p);
  }
  return p4d_correlation(x, y, N);
}

static void
test_no_repetition(void)
{
  static const double shifts[] = { 256.0, 4294967296.0, 1099511627776.0 };
  for (unsigned dims = 1U; dims <= 3U; ++dims) {
    const P4dClassic b = { dims, P4D_CLASSIC_CUBIC };
    for (unsigned a = 0U; a < dims; ++a) {
      for (unsigned s = 0U; s < 3U; ++s) {
        const double r = shifted_correlation(&b, a, shifts[s]);
        printf("# %uD, axis %u moved 2^%.0f cells: r = %+.4f\n",
               dims,
               a,
               log2(shifts[s]),
               r);
        assert(fabs(r) < 0.05);
      }
    }
  }
}

static void
test_seeds_uncorrelated(void)
{
  enum { N = 20000 };
  static float x[N];
  static float y[N];
  double       worst = 0.0;
  for (unsigned i = 0U; i < 6U; ++i) {
    const P4dClassic b = basis_of(i);
    for (uint32_t seed = 0U; seed < 8U; ++seed) {
      P4dRng r = { 0xA54FF53A5F1D36F1ULL };
      for (unsigned n = 0U; n < N; ++n) {
        double p[3];
        for (unsigned k = 0U; k < 3U; ++k) {
          p[k] = p4d_rng_uniform(&r, 0.0, 65536.0);
        }
        x[n] = noise_at(&b, seed, p);
        y[n] = noise_at(&b, seed + 1U, p);
      }
      const double c = fabs(p4d_correlation(x, y, N));
      worst          = c > worst ? c : worst;
    }
  }
  printf("# neighbouring seeds: worst |r| %.4f\n", worst);
  assert(worst < 0.05);
}

static void
test_span_equals_points(void)
{
  enum { N = 1500 };
  static float   whole[N];
  static float   part[N];
  static double  pts[N][P4D_CLASSIC_MAX_DIMS];
  static float   at[N];
  const uint64_t period[3] = { 0U, 7U, 0U };
  for (unsigned i = 0U; i < 6U; ++i) {
    const P4dClassic b         = basis_of(i);
    const double     origin[3] = { -3.3, 1e9 + 0.25, 17.0 / 3.0 };
    const double     step[3]   = { 0.013, -0.0071, 0.29 };
    const int64_t    first     = -400;
    p4d_classic_span_tile(&b, 9U, origin, step, first, whole, N, period);
    for (size_t done = 0U; done < N;) {
      const size_t m = 1U + p4d_rng_below(&rng, 300U);
      const size_t k = m < N - done ? m : N - done;
      p4d_classic_span_tile(
        &b, 9U, origin, step, first + (int64_t)done, part + done, k, period);
      done += k;
    }
    for (size_t n = 0U; n < N; ++n) {
      const double t = (double)(first + (int64_t)n);
      for (unsigned a = 0U; a < 3U; ++a) {
        pts[n][a] = origin[a] + t * step[a];
      }
    }
    p4d_classic_points_tile(&b, 9U, (const double(*)[3])pts, at, N, period);
    for (size_t n = 0U; n < N; ++n) {
      assert(whole[n] == part[n]);
      assert(at[n] == whole[n]);
      assert(p4d_classic_tile(&b, 9U, pts[n], period) == whole[n]);
    }
  }
  // The shorthands are the tile of their axes.
  const double p[3] = { 1.25, -2.5, 3.75 };
  for (unsigned f = 0U; f < 2U; ++f) {
    const P4dClassic b1 = { 1U, (P4dClassicFade)f };
    const P4dClassic b2 = { 2U, (P4dClassicFade)f };
    const P4dClassic b3 = { 3U, (P4dClassicFade)f };
    assert(p4d_classic1(4U, (P4dClassicFade)f, p[0]) == noise_at(&b1, 4U, p));
    assert(p4d_classic2(4U, (P4dClassicFade)f, p[0], p[1]) ==
           noise_at(&b2, 4U, p));
    assert(p4d_classic3(4U, (P4dClassicFade)f, p[0], p[1], p[2]) ==
           noise_at(&b3, 4U, p));
  }
  printf("# spans cut anywhere == one span == points == tile\n");
}

static void
test_periodic(void)
{
  const uint64_t period[3] = { 5U, 12U, 1000003U };
  for (unsigned i = 0U; i < 6U; ++i) {
    const P4dClassic b = basis_of(i);
    for (unsigned n = 0U; n < 20000U; ++n) {
      double p[3];
      double q[3];
      for (unsigned a = 0U; a < 3U; ++a) {
        p[a]            = p4d_rng_uniform(&rng, -50.0, 50.0);
        p[a]            = floor(p[a] * 1024.0) / 1024.0; // exact shifts
        const int64_t k = (int64_t)p4d_rng_below(&rng, 2001U) - 1000;
        q[a]            = p[a] + (double)k * (double)period[a];
      }
      assert(p4d_classic_tile(&b, 2U, p, period) ==
             p4d_classic_tile(&b, 2U, q, period));
    }
  }
  // A period of 0 or above 2^50 is aperiodic.
  const uint64_t   none[3] = { 0U, P4D_NOISE_PERIOD_MAX + 1U, 0U };
  const double     p[3]    = { 0.3, 0.6, 0.9 };
  const P4dClassic b       = { 3U, P4D_CLASSIC_CUBIC };
  assert(p4d_classic_tile(&b, 2U, p, none) == noise_at(&b, 2U, p));
  printf("# periods 5, 12, 1000003: the same bits k periods away\n");
}

static void
test_known_answers(void)
{
  // The bits of every basis at one point: any change of the arithmetic or
  // the hash shows here.
  static const float expect[6] = { KNOWN_0, KNOWN_1, KNOWN_2,
                                   KNOWN_3, KNOWN_4, KNOWN_5 };
  const double       p[3]      = { 12.375, -7.8125, 1e12 + 0.5625 };
  for (unsigned i = 0U; i < 6U; ++i) {
    const P4dClassic b = basis_of(i);
    const float      v = noise_at(&b, 20U, p);
    printf("# known answer %uD %s: %a\n", b.dims, fade_names[b.fade], v);
    assert(v == expect[i]);
  }
}

int
main(void)
{
  test_lattice_zeros();
  test_std_and_bound();
  test_gradients_uniform();
  test_continuity();
  test_no_repetition();
  test_seeds_uncorrelated();
  test_span_equals_points();
  test_periodic();
  test_known_answers();
  return 0;
}
