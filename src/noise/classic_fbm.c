// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  fBm over classic noise: the 4D fBm's octaves (fbm.c) on the classic
  basis.  The weights are p4d_fbm_weights() of the line's step (the band
  limit included), and octave k's seed and line are p4d_fbm_octave()'s for
  scale lacunarity^k, of which the first D axes are used: whole-cell
  offsets (k + 1) (1, 2, 3), so every octave of a point keeps its
  fractions of a cell, as in the 4D fBm.
*/

#include "classic.h"
#include "noise.h"

#include <stddef.h>
#include <stdint.h>

/// Octaves are evaluated in chunks of this many points on the stack.
#define P4D_CLASSIC_FBM_CHUNK 256U

/// The lacunarity of settings as fbm.c clamps it: 1 .. 16, NaN 2.
static double
lacunarity_clamp(double lac)
{
  return lac != lac ? 2.0 : lac < 1.0 ? 1.0 : lac > 16.0 ? 16.0 : lac;
}

/// The axes of basis, clamped as classic.c clamps them (see P4dClassic).
static unsigned
classic_dims(const P4dClassic* basis)
{
  return basis->dims >= 1U && basis->dims <= P4D_CLASSIC_MAX_DIMS
           ? basis->dims
           : P4D_CLASSIC_MAX_DIMS;
}

/// A classic line of dims axes as the 4D fBm's line (the others 0).
static void
line4(unsigned dims, const double v[], double v4[4])
{
  for (unsigned a = 0U; a < 4U; ++a) {
    v4[a] = a < dims ? v[a] : 0.0;
  }
}

/// The weights of settings for a classic line of step, into weight.
static unsigned
classic_weights(const P4dFbm* settings,
                unsigned      dims,
                const double  step[],
                float         weight[P4D_FBM_MAX_OCTAVES])
{
  double step4[4];
  line4(dims, step, step4);
  return p4d_fbm_weights(settings, step4, weight);
}

void
p4d_classic_fbm_sum_span(const P4dFbm*     settings,
                         const P4dClassic* basis,
                         uint32_t          seed,
                         const double      origin[],
                         const double      step[],
                         int64_t           first,
                         float*            out,
                         size_t            n)
{
  const unsigned dims = classic_dims(basis);
  const double   lac  = lacunarity_clamp(settings->lacunarity);
  float          weight[P4D_FBM_MAX_OCTAVES];
  const unsigned n_oct = classic_weights(settings, dims, step, weight);
  double         origin4[4];
  double         step4[4];
  line4(dims, origin, origin4);
  line4(dims, step, step4);

  for (size_t done = 0U; done < n; done += P4D_CLASSIC_FBM_CHUNK) {
    const size_t m =
      n - done < P4D_CLASSIC_FBM_CHUNK ? n - done : P4D_CLASSIC_FBM_CHUNK;
    float* const acc = out + done;
    float        octave[P4D_CLASSIC_FBM_CHUNK];
    double       scale = 1.0;

    for (size_t i = 0U; i < m; ++i) {
      acc[i] = 0.0f;
    }

    for (unsigned k = 0U; k < n_oct; ++k) {
      double         o[4];
      double         st[4];
      const uint32_t octave_seed =
        p4d_fbm_octave(seed, k, scale, origin4, step4, o, st);
      p4d_classic_span_tile(
        basis, octave_seed, o, st, first + (int64_t)done, octave, m, NULL);
      for (size_t i = 0U; i < m; ++i) {
        acc[i] += weight[k] * octave[i];
      }
      scale *= lac;
    }
  }
}

void
p4d_classic_fbm_span(const P4dFbm*     settings,
                     const P4dClassic* basis,
                     uint32_t          seed,
                     const double      origin[],
                     const double      step[],
                     int64_t           first,
                     float*            out,
                     size_t            n)
{
  const unsigned dims = classic_dims(basis);
  float          weight[P4D_FBM_MAX_OCTAVES];
  const unsigned n_oct = classic_weights(settings, dims, step, weight);

  // The normalising sum does not depend on the point.
  float sum = 0.0f;
  for (unsigned k = 0U; k < n_oct; ++k) {
    sum += weight[k];
  }
  const float norm = sum > 0.0f ? 1.0f / sum : 0.0f;

  p4d_classic_fbm_sum_span(settings, basis, seed, origin, step, first, out, n);
  for (size_t i = 0U; i < n; ++i) {
    out[i] *= norm;
  }
}
