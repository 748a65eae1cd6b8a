// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The band limit of fBm: octaves fade out between half the limit and the
  limit, octaves past it are not computed, and every weight moves smoothly
  as the speed or the limit sweeps across the fade.
*/

#undef NDEBUG

#include "noise.h"
#include "support/compare.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>

/// A line moving 0.01 cells per point, mostly in time.
static const double step[4] = { 0.0, 0.0036, 0.0048, 0.008 };

static void
test_weights(void)
{
  float free_w[P4D_FBM_MAX_OCTAVES];
  float band_w[P4D_FBM_MAX_OCTAVES];

  // No step, or no limit: the plain weights.
  const P4dFbm   plain = { 6.0f, 2.0, 0.5f, 0.0 };
  const P4dFbm   limit = { 6.0f, 2.0, 0.5f, 0.16 };
  const unsigned n     = p4d_fbm_weights(&plain, step, free_w);
  assert(n == 6U);
  assert(p4d_fbm_weights(&limit, NULL, band_w) == 6U);
  p4d_assert_same("no step", free_w, band_w, 0U, 6U);

  // Octave 3 moves 0.08 cells per point, half the limit: untouched; octave
  // 4 moves 0.16, the limit: gone, and 5 with it.
  assert(p4d_fbm_weights(&limit, step, band_w) == 4U);
  p4d_assert_same("below half the limit", free_w, band_w, 0U, 4U);

  // Inside the fade: strictly between, and falling with the speed.
  const P4dFbm fade = { 6.0f, 2.0, 0.5f, 0.12 };
  assert(p4d_fbm_weights(&fade, step, band_w) == 4U);
  assert(band_w[3] > 0.0f && band_w[3] < free_w[3]);
  p4d_assert_same("before the fade", free_w, band_w, 0U, 3U);

  // Sweeping the limit moves every weight by small steps: no jump.
  float prev[P4D_FBM_MAX_OCTAVES] = { 0.0f };
  float worst                     = 0.0f;
  for (unsigned i = 0U; i <= 4000U; ++i) {
    const P4dFbm   sweep = { 6.0f, 2.0, 0.5f, 0.01 * pow(64.0, i / 4000.0) };
    float          w[P4D_FBM_MAX_OCTAVES] = { 0.0f };
    const unsigned m                      = p4d_fbm_weights(&sweep, step, w);
    for (unsigned k = m; k < 6U; ++k) {
      w[k] = 0.0f;
    }
    for (unsigned k = 0U; i > 0U && k < 6U; ++k) {
      worst = fmaxf(worst, fabsf(w[k] - prev[k]));
      assert(w[k] <= free_w[k]);
    }
    for (unsigned k = 0U; k < 6U; ++k) {
      prev[k] = w[k];
    }
  }
  printf("# band limit sweep: largest weight step %.5f\n", (double)worst);
  assert(worst < 0.01f);
}

static void
test_span(void)
{
  // Octaves past the limit are skipped: the same bits as fewer octaves.
  const double origin[4] = { 0.3, -1.7, 2.9, 1000.5 };
  const P4dFbm limited   = { 6.0f, 2.0, 0.5f, 0.16 };
  const P4dFbm four      = { 4.0f, 2.0, 0.5f, 0.0 };
  float        a[700];
  float        b[700];
  p4d_fbm4_sum_span(&limited, 9U, origin, step, NULL, 123, a, 700U);
  p4d_fbm4_sum_span(&four, 9U, origin, step, NULL, 123, b, 700U);
  p4d_assert_same("octaves past the limit", a, b, 0U, 700U);

  // Even the first octave past the limit: silence, not NaN.
  const P4dFbm none = { 3.0f, 2.0, 0.5f, 0.005 };
  p4d_fbm4_span(&none, 9U, origin, step, 0, a, 700U);
  for (size_t i = 0U; i < 700U; ++i) {
    assert(a[i] == 0.0f);
  }
}

int
main(void)
{
  test_weights();
  test_span();
  return 0;
}
