// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  fBm over classic noise (src/noise/classic_fbm.c): its octaves are the 4D
  fBm's (seeds and lines from p4d_fbm_octave(), weights and band limit from
  p4d_fbm_weights()), spans join exactly, and the normalised sum stays
  within the noise's bound.
*/

#undef NDEBUG

#include "classic.h"
#include "noise.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

enum { N = 700 };

static float got[N];
static float expect[N];
static float part[N];
static float octave[N];

/// The sum of octaves as the 4D fBm places them, octave by octave.
static unsigned
reference(const P4dFbm*     s,
          const P4dClassic* b,
          uint32_t          seed,
          const double      origin[3],
          const double      step[3],
          int64_t           first)
{
  double o4[4]  = { 0.0, 0.0, 0.0, 0.0 };
  double st4[4] = { 0.0, 0.0, 0.0, 0.0 };
  for (unsigned a = 0U; a < b->dims; ++a) {
    o4[a]  = origin[a];
    st4[a] = step[a];
  }
  float          weight[P4D_FBM_MAX_OCTAVES];
  const unsigned n_oct = p4d_fbm_weights(s, st4, weight);
  for (size_t i = 0U; i < N; ++i) {
    expect[i] = 0.0f;
  }
  double scale = 1.0;
  for (unsigned k = 0U; k < n_oct; ++k) {
    double         o[4];
    double         st[4];
    const uint32_t ks = p4d_fbm_octave(seed, k, scale, o4, st4, o, st);
    p4d_classic_span_tile(b, ks, o, st, first, octave, N, NULL);
    for (size_t i = 0U; i < N; ++i) {
      expect[i] += weight[k] * octave[i];
    }
    scale *= s->lacunarity;
  }
  return n_oct;
}

static void
test_octaves_as_4d(void)
{
  static const P4dFbm s1 = { 1.0f, 2.0, 0.5f, 0.0 };
  static const P4dFbm s2 = { 4.5f, 2.0, 0.5f, 0.0 };
  static const P4dFbm s3 = { 6.0f, 3.0, 0.7f, 0.0 };
  static const P4dFbm s4 = { 8.0f, 2.0, 0.5f, 0.3 }; // the band limit ends it
  const P4dFbm* const settings[] = { &s1, &s2, &s3, &s4 };
  const double        origin[3]  = { 0.3, -7.1, 2.0 / 3.0 };
  const double        step[3]    = { 0.011, 0.004, -0.002 };
  for (unsigned dims = 1U; dims <= 3U; ++dims) {
    for (unsigned f = 0U; f < 2U; ++f) {
      const P4dClassic b = { dims, (P4dClassicFade)f };
      for (unsigned i = 0U; i < sizeof(settings) / sizeof(settings[0]); ++i) {
        const unsigned n_oct = reference(settings[i], &b, 3U, origin, step, 5);
        p4d_classic_fbm_sum_span(settings[i], &b, 3U, origin, step, 5, got, N);
        for (size_t k = 0U; k < N; ++k) {
          assert(got[k] == expect[k]);
        }
        if (i == 3U) {
          printf("# %uD %s, band limit 0.3 cells a point, 8 octaves asked: "
                 "%u computed\n",
                 dims,
                 f ? "quintic" : "cubic",
                 n_oct);
          assert(n_oct < 8U);
        }
      }
    }
  }

  // One octave is the noise itself.
  const P4dClassic b   = { 2U, P4D_CLASSIC_CUBIC };
  const P4dFbm     one = { 1.0f, 2.0, 0.5f, 0.0 };
  p4d_classic_fbm_sum_span(&one, &b, 9U, origin, step, 0, got, N);
  // Octave 0 is offset by whole cells (1, 2).
  const double shifted[3] = { origin[0] + 1.0, origin[1] + 2.0, 0.0 };
  p4d_classic_span_tile(&b, 9U, shifted, step, 0, expect, N, NULL);
  for (size_t k = 0U; k < N; ++k) {
    assert(got[k] == expect[k]);
  }
  printf("# classic fBm: octaves, seeds, offsets and weights of the 4D "
         "fBm\n");
}

static void
test_spans_join(void)
{
  const P4dFbm     s         = { 5.0f, 2.0, 0.6f, 0.45 };
  const P4dClassic b         = { 3U, P4D_CLASSIC_QUINTIC };
  const double     origin[3] = { 5.5, 1e7, -3.25 };
  const double     step[3]   = { 0.003, 0.02, 0.001 };
  p4d_classic_fbm_span(&s, &b, 1U, origin, step, -100, got, N);
  for (size_t done = 0U; done < N;) {
    const size_t k = done % 3U == 0U ? 1U : 97U;
    const size_t m = k < N - done ? k : N - done;
    p4d_classic_fbm_span(
      &s, &b, 1U, origin, step, -100 + (int64_t)done, part + done, m);
    done += m;
  }
  double peak = 0.0;
  for (size_t k = 0U; k < N; ++k) {
    assert(got[k] == part[k]);
    peak = fmax(peak, fabs((double)got[k]));
  }
  printf("# normalised classic fBm: spans join; max |z| %.3f (bound "
         "%.3f)\n",
         peak,
         p4d_classic_bound(&b));
  assert(peak <= p4d_classic_bound(&b) * (1.0 + 1e-6));

  // Every octave past the band limit: 0.
  const double fast[3] = { 10.0, 0.0, 0.0 };
  p4d_classic_fbm_span(&s, &b, 1U, origin, fast, 0, got, 8);
  for (size_t k = 0U; k < 8U; ++k) {
    assert(got[k] == 0.0f);
  }
}

int
main(void)
{
  test_octaves_as_4d();
  test_spans_join();
  return 0;
}
