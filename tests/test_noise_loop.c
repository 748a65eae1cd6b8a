// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The core's periodic time axis: the floored modulo of w's cell (also for
  negative positions), periodicity bit for bit, smoothness across the
  period, every code path giving the scalar kernel's bits on periodic
  lines, and fBm whose octaves snap to whole cells per loop.
*/

#undef NDEBUG

#include "isa.h"
#include "noise.h"

#include "support/rng.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

/// Period 0 (and one beyond 2^50) is the aperiodic noise, bit for bit.
static void
test_period_zero(void)
{
  P4dRng rng = { 11U };
  for (unsigned i = 0U; i < 100000U; ++i) {
    const double x = p4d_rng_uniform(&rng, -100.0, 100.0);
    const double y = p4d_rng_uniform(&rng, -100.0, 100.0);
    const double z = p4d_rng_uniform(&rng, -100.0, 100.0);
    const double w = p4d_rng_uniform(&rng, -1.0e6, 1.0e6);
    const float  n = p4d_noise4(i, x, y, z, w);
    assert(bits(p4d_noise4_loop(i, x, y, z, w, 0U)) == bits(n));
    assert(bits(p4d_noise4_loop(i, x, y, z, w, P4D_NOISE_PERIOD_MAX + 1U)) ==
           bits(n));
  }
  printf("# period 0: 100000 points equal to p4d_noise4()\n");
}

/**
   w and w + k P give the same bits (w a multiple of 2^-10, so that both
   are exact), and the hash takes the floored remainder: a point whose
   cell and upper corner both lie in [0, P) after the floored modulo is
   the aperiodic noise there.  A truncating modulo would hash the cell -4
   of w = -3.25 with P = 5 as -4, not as 1, and fail.
*/
static void
test_floored_modulo(void)
{
  P4dRng   rng     = { 12U };
  unsigned checked = 0U;
  unsigned inside  = 0U;
  for (unsigned p = 0U; p < N_PERIODS; ++p) {
    const uint64_t period = periods[p];
    const double   pd     = (double)period;
    for (unsigned i = 0U; i < 4000U; ++i) {
      const double x = p4d_rng_uniform(&rng, -20.0, 20.0);
      const double y = p4d_rng_uniform(&rng, -20.0, 20.0);
      const double z = p4d_rng_uniform(&rng, -20.0, 20.0);
      const double w =
        floor(p4d_rng_uniform(&rng, -3.0 * pd, 3.0 * pd) * 1024.0) / 1024.0;
      const float  n   = p4d_noise4_loop(p, x, y, z, w, period);
      const double k[] = { -5.0, -1.0, 1.0, 2.0, 1000.0 };
      for (unsigned j = 0U; j < 5U; ++j) {
        assert(bits(p4d_noise4_loop(p, x, y, z, w + k[j] * pd, period)) ==
               bits(n));
        ++checked;
      }

      const double r = w - pd * floor(w / pd);
      if (r < pd - 1.0) {
        // Neither corner wraps: the aperiodic noise at the remainder.
        assert(bits(p4d_noise4(p, x, y, z, r)) == bits(n));
        ++inside;
      }
    }
  }

  // The example of the comment above.
  assert(bits(p4d_noise4_loop(9U, 0.3, 0.6, 0.2, -3.25, 5U)) ==
         bits(p4d_noise4(9U, 0.3, 0.6, 0.2, 1.75)));
  printf("# floored modulo: %u shifted points (k = -5 .. 1000 periods, "
         "negative w included) give the same bits; %u equal the aperiodic "
         "noise at w mod P\n",
         checked,
         inside);
}

/**
   Across w = k P the noise is as smooth as anywhere: along w the step over
   h = 2^-12 cell never exceeds P4D_NOISE_LIPSCHITZ h, at the seam as
   elsewhere, and the steps at the seam are like the steps around it.
*/
static void
test_seam_smooth(void)
{
  P4dRng       rng  = { 13U };
  const double h    = 0x1p-12;
  double       seam = 0.0;
  double       away = 0.0;
  for (unsigned p = 0U; p < N_PERIODS; ++p) {
    const uint64_t period = periods[p];
    for (unsigned i = 0U; i < 500U; ++i) {
      const double x = p4d_rng_uniform(&rng, -20.0, 20.0);
      const double y = p4d_rng_uniform(&rng, -20.0, 20.0);
      const double z = p4d_rng_uniform(&rng, -20.0, 20.0);
      const double k = floor(p4d_rng_uniform(&rng, -4.0, 4.0));
      const double w = k * (double)period;
      for (int j = -64; j < 64; ++j) {
        const double a = w + j * h;
        const double d =
          fabs((double)p4d_noise4_loop(i, x, y, z, a + h, period) -
               (double)p4d_noise4_loop(i, x, y, z, a, period));
        assert(d <= P4D_NOISE_LIPSCHITZ * h * 1.001 + 1.0e-5);
        if (j == -1 || j == 0) {
          seam = d > seam ? d : seam;
        } else {
          away = d > away ? d : away;
        }
      }
    }
  }
  printf("# across the period: largest step over 2^-12 cell %.3g at the "
         "seam, %.3g beside it (bound %.3g)\n",
         seam,
         away,
         P4D_NOISE_LIPSCHITZ * h);
  assert(seam <= 1.5 * away);
}

/// Lines of every kind the paths treat apart, periodic.
typedef struct {
  double origin[4];
  double step[4];
} Line;

static const Line lines[] = {
  // The Mod's: fixed x, y, z, slow w, across the period.
  { { 0.7071, 0.5, 0.2347, -3.3 }, { 0.0, 0.0, 0.0, 1.0 / 2400.0 } },
  // Negative time and a backwards line.
  { { 1.25, -0.5, 3.2347, -41.0 }, { 0.0, 0.0, 0.0, -0.013 } },
  // Fast octaves: many layers per block, periods crossed within a block.
  { { 0.1, 0.6, 0.2347, -5.5 }, { 0.0, 0.0, 0.0, 0.37 } },
  { { 0.1, 0.6, 0.2347, 2.5 }, { 0.0, 0.0, 0.0, 2.9 } },
  // Moving in x, y, z too (the per-lane paths).
  { { 0.3, 0.1, 0.9, -7.0 }, { 0.011, -0.007, 0.003, 0.05 } },
  { { -2.0, 1.0, 0.5, 9.0 }, { 0.3, 0.2, 0.1, 1.3 } },
};
#define N_LINES (sizeof(lines) / sizeof(lines[0]))

/// Every path gives p4d_noise4_loop()'s bits along periodic lines, for
/// spans starting anywhere (negative indices too).
static void
test_paths_periodic(void)
{
  enum { N = 3000 };
  static float   out[N];
  unsigned       n_paths = 0U;
  const uint64_t tried[] = { 1U, 3U, 16U, 17U, 1000U };
  const P4dIsa   chosen  = p4d_isa_current();
  for (unsigned isa = 0U; isa < P4D_ISA_COUNT; ++isa) {
    if (!p4d_isa_supported((P4dIsa)isa)) {
      continue;
    }
    assert(p4d_isa_use((P4dIsa)isa) == (P4dIsa)isa);
    ++n_paths;
    for (unsigned l = 0U; l < N_LINES; ++l) {
      for (unsigned p = 0U; p < 5U; ++p) {
        const Line*   ln    = &lines[l];
        const int64_t first = (int64_t)l * 977 - 2000;
        p4d_noise4_span_loop(
          l + p, ln->origin, ln->step, first, out, N, tried[p]);
        for (unsigned i = 0U; i < N; ++i) {
          const double t = (double)(first + (int64_t)i);
          const float  r = p4d_noise4_loop(l + p,
                                          ln->origin[0] + t * ln->step[0],
                                          ln->origin[1] + t * ln->step[1],
                                          ln->origin[2] + t * ln->step[2],
                                          ln->origin[3] + t * ln->step[3],
                                          tried[p]);
          assert(bits(out[i]) == bits(r));
        }
      }
    }
  }
  p4d_isa_use(chosen);
  printf("# periodic lines: %u paths give the scalar kernel's bits on %u "
         "lines x 5 periods\n",
         n_paths,
         (unsigned)N_LINES);
}

/**
   fBm in a loop: period 0 is p4d_fbm4_sum_span() bit for bit; with
   lacunarity 2 every octave's scale (P_k / P = 2^k) is exact, so a line
   with a dyadic step repeats bit for bit; with lacunarity 1.7 the octaves
   snap to whole cells (P_k = round(P 1.7^k)) and repeat up to the rounding
   of their coordinates (the engines cut their lines per loop to make that
   exact).
*/
static void
test_fbm_loop(void)
{
  enum { T = 4096, N = 3 * T };
  static float a[N];
  static float b[N];
  const double origin[4]   = { 0.0, 0.5, 0.2347, 0.0 };
  const double position[4] = { 1.7, -0.3, 0.0, 0.0 };

  const P4dFbm plain   = { 5.5f, 2.0, 0.6f, 0.0 };
  double       step[4] = { 0.0, 0.0, 0.0, 3.0 / T };
  p4d_fbm4_sum_span(&plain, 7U, origin, step, position, -T, a, N);
  p4d_fbm4_sum_span_loop(&plain, 0.0, 7U, origin, step, position, -T, b, N);
  for (unsigned i = 0U; i < N; ++i) {
    assert(bits(a[i]) == bits(b[i]));
  }

  // Lacunarity 2, 4 cells per loop of T points: exact.
  step[3] = 4.0 / T;
  p4d_fbm4_sum_span_loop(&plain, 4.0, 7U, origin, step, position, -T, a, N);
  for (unsigned i = 0U; i + T < N; ++i) {
    assert(bits(a[i]) == bits(a[i + T]));
  }

  // Lacunarity 1.7, 3 cells per loop: octave periods 3, 5, 9, 15, 25, 42.
  const P4dFbm odd = { 5.5f, 1.7, 0.6f, 0.0 };
  step[3]          = 3.0 / T;
  p4d_fbm4_sum_span_loop(&odd, 3.0, 7U, origin, step, position, -T, a, N);
  double worst = 0.0;
  for (unsigned i = 0U; i + T < N; ++i) {
    const double d = fabs((double)a[i] - (double)a[i + T]);
    worst          = d > worst ? d : worst;
  }
  printf("# fBm loop, lacunarity 1.7 snapped: |f(t) - f(t + T)| <= %.3g "
         "(the coordinates are not cut per loop: at most rounding)\n",
         worst);
  assert(worst < 1.0e-4);

  // The weights see the snapped scales: octave 1 of a 1-cell loop plays 2
  // cells per loop at lacunarity 1.5 (round(1.5) = 2), so it reaches the
  // band limit where the unsnapped octave would not.
  float          w_loop[P4D_FBM_MAX_OCTAVES];
  float          w_free[P4D_FBM_MAX_OCTAVES];
  const P4dFbm   band    = { 2.0f, 1.5, 1.0f, 0.3 };
  const double   fast[4] = { 0.0, 0.0, 0.0, 0.14 };
  const unsigned n_loop  = p4d_fbm_weights_loop(&band, 1.0, fast, w_loop);
  const unsigned n_free  = p4d_fbm_weights(&band, fast, w_free);
  printf("# band limit 0.3 at speed 0.14: octave 1 weighs %.3f free "
         "(speed 0.21), %.3f in a 1-cell loop (speed 0.28)\n",
         n_free > 1U ? w_free[1] : 0.0,
         n_loop > 1U ? w_loop[1] : 0.0);
  assert(n_free == 2U && n_loop == 2U && w_loop[1] < w_free[1]);
}

int
main(void)
{
  test_period_zero();
  test_floored_modulo();
  test_seam_smooth();
  test_paths_periodic();
  test_fbm_loop();
  return 0;
}
