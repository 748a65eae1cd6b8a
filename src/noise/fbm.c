// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Fractal Brownian motion: octaves of the noise, summed.

  Octave k has its own seed (the seed plus k times an odd constant, so every
  octave of every seed is a different lattice hash), which is what makes
  octaves uncorrelated.  Its offset is whole cells in x, y and z, so that
  every octave of a point has the point's own fractions of a cell there:
  the engines place their channels off the lattice by those fractions (see
  src/engine/engine.c, Placement), and one placement then holds in every octave.
  In w (time) the offset is the fractional part of (k + 1) (sqrt 5 - 2), so
  that octaves do not cross their lattices' w planes together and fBm is
  not 0 at the origin.

  Loops.  With a w period P (cells per loop of octave 0) octave k's period
  is P_k = round(P lacunarity^k), at least 1, and the octave is scaled by
  P_k / P instead of lacunarity^k, so a line that crosses P cells of w per
  loop crosses exactly P_k cells of octave k, which the core's periodic
  hash repeats.  Rounding each octave (rather than the lacunarity to a
  whole ratio) keeps every octave within half a cell per loop of where the
  lacunarity puts it: the timbre of the fBm stays, and only short loops
  (few cells) move the octaves audibly.  The whole-cell offsets in x, y, z
  do not matter to the period, nor does the fractional w offset: the hash
  wraps whole cells, whatever the fraction.
*/

#include "kernel.h"
#include "noise.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/// Octave k is offset by (k + 1) times this: whole cells in x, y, z.
static const double octave_offset[4] = { 1.0, 2.0, 3.0, 0.2360679774997897 };

/// Odd constant that separates the octave seeds.
#define P4D_OCTAVE_SEED_STEP 0x6C8E9CF5u

/// Octaves are evaluated in chunks of this many points on the stack.
#define P4D_FBM_CHUNK 256U

static float
clampf(float v, float lo, float hi, float fallback)
{
  return v != v ? fallback : v < lo ? lo : v > hi ? hi : v;
}

/// Settings with every field clamped into its range; NaN and infinities map
/// to the default (3 octaves, lacunarity 2, persistence 0.5, no band limit).
static P4dFbm
fbm_clamp(P4dFbm settings)
{
  const double lac  = settings.lacunarity;
  const double band = settings.band_limit;

  settings.octaves =
    clampf(settings.octaves, 1.0f, (float)P4D_FBM_MAX_OCTAVES, 3.0f);
  settings.persistence = clampf(settings.persistence, 0.0f, 1.0f, 0.5f);
  settings.lacunarity  = lac != lac   ? 2.0
                         : lac < 1.0  ? 1.0
                         : lac > 16.0 ? 16.0
                                      : lac;
  settings.band_limit  = band > 0.0 && band <= 1.0e300 ? band : 0.0;
  return settings;
}

/// A w period clamped: whole, or 0 (no loop) below 0.5, above
/// P4D_NOISE_COORD_MAX (2^50) and for NaN.
static double
period_clamp(double w_period)
{
  return w_period >= 0.5 && w_period <= P4D_NOISE_COORD_MAX
           ? floor(w_period + 0.5)
           : 0.0;
}

/// The w period of the octave whose lacunarity power is lac_pow in a loop
/// of clamped period (0: no loop).
static double
octave_period(double period, double lac_pow)
{
  if (period == 0.0) {
    return 0.0;
  }

  const double p = floor(period * lac_pow + 0.5);
  return p < 1.0 ? 1.0 : p > P4D_NOISE_COORD_MAX ? P4D_NOISE_COORD_MAX : p;
}

/// The scale of the octave whose lacunarity power is lac_pow: the power
/// itself, or in a loop its period over octave 0's.
static double
octave_scale(double period, double lac_pow)
{
  return period == 0.0 ? lac_pow : octave_period(period, lac_pow) / period;
}

double
p4d_fbm_octave_scale(double w_period, double lac_pow)
{
  return octave_scale(period_clamp(w_period), lac_pow);
}

double
p4d_fbm_octave_period(double period, double lac_pow)
{
  return octave_period(period_clamp(period), lac_pow);
}

/// How much of an octave moving speed cells per point the band limit
/// leaves: 1 up to half the limit, then a quintic fade to 0 at the limit.
static double
band_fade(double speed, double limit)
{
  if (limit == 0.0 || speed <= 0.5 * limit) {
    return 1.0;
  }
  if (speed >= limit) {
    return 0.0;
  }

  const double t = 2.0 * speed / limit - 1.0;
  return 1.0 - t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}

unsigned
p4d_fbm_weights(const P4dFbm* settings,
                const double  step[4],
                float         weight[P4D_FBM_MAX_OCTAVES])
{
  return p4d_fbm_weights_loop(settings, 0.0, step, weight);
}

unsigned
p4d_fbm_weights_loop(const P4dFbm* settings,
                     double        w_period,
                     const double  step[4],
                     float         weight[P4D_FBM_MAX_OCTAVES])
{
  const double   period   = period_clamp(w_period);
  const P4dFbm   s        = fbm_clamp(*settings);
  const unsigned n_full   = (unsigned)s.octaves;
  const float    fraction = s.octaves - (float)n_full;
  const unsigned n_oct    = n_full + (fraction > 0.0f ? 1U : 0U);
  const double   limit    = step ? s.band_limit : 0.0;
  const double   speed    = step ? sqrt(step[0] * step[0] + step[1] * step[1] +
                                   step[2] * step[2] + step[3] * step[3])
                                 : 0.0;

  float  amplitude = 1.0f;
  double scale     = 1.0;
  for (unsigned k = 0U; k < n_oct; ++k) {
    const double band = band_fade(speed * octave_scale(period, scale), limit);
    if (band == 0.0) {
      // Every later octave is at least as fast.
      return k;
    }

    weight[k] = (k < n_full ? amplitude : amplitude * fraction) * (float)band;
    amplitude *= s.persistence;
    scale *= s.lacunarity;
  }

  return n_oct;
}

uint32_t
p4d_fbm_octave(uint32_t     seed,
               unsigned     k,
               double       scale,
               const double origin[4],
               const double step[4],
               double       octave_origin[4],
               double       octave_step[4])
{
  for (unsigned a = 0U; a < 4U; ++a) {
    const double off = (double)(k + 1U) * octave_offset[a];
    octave_origin[a] = origin[a] * scale + (a < 3U ? off : off - floor(off));
    octave_step[a]   = step[a] * scale;
  }

  return seed + k * P4D_OCTAVE_SEED_STEP;
}

/*
  The one octave loop: p4d_fbm4_span() and the engines both come here.
  Chunks of points are the outer loop, so that an octave's noise is added
  while it is still in the cache.
*/
void
p4d_fbm4_sum_span(const P4dFbm* settings,
                  uint32_t      seed,
                  const double  origin[4],
                  const double  step[4],
                  const double  position[4],
                  int64_t       first,
                  float*        out,
                  size_t        n)
{
  p4d_fbm4_sum_span_loop(
    settings, 0.0, seed, origin, step, position, first, out, n);
}

void
p4d_fbm4_sum_span_loop(const P4dFbm* settings,
                       double        w_period,
                       uint32_t      seed,
                       const double  origin[4],
                       const double  step[4],
                       const double  position[4],
                       int64_t       first,
                       float*        out,
                       size_t        n)
{
  const double   period = period_clamp(w_period);
  const P4dFbm   s      = fbm_clamp(*settings);
  float          weight[P4D_FBM_MAX_OCTAVES];
  const unsigned n_oct = p4d_fbm_weights_loop(&s, period, step, weight);

  for (size_t done = 0U; done < n; done += P4D_FBM_CHUNK) {
    const size_t m   = n - done < P4D_FBM_CHUNK ? n - done : P4D_FBM_CHUNK;
    float* const acc = out + done;
    float        octave[P4D_FBM_CHUNK];
    double       scale = 1.0;

    for (size_t i = 0U; i < m; ++i) {
      acc[i] = 0.0f;
    }

    for (unsigned k = 0U; k < n_oct; ++k) {
      double         o[4];
      double         st[4];
      const uint32_t octave_seed = p4d_fbm_octave(
        seed, k, octave_scale(period, scale), origin, step, o, st);
      if (position) {
        for (unsigned a = 0U; a < 4U; ++a) {
          o[a] += position[a];
        }
      }

      p4d_noise4_span_loop(octave_seed,
                           o,
                           st,
                           first + (int64_t)done,
                           octave,
                           m,
                           (uint64_t)octave_period(period, scale));
      p4d_noise_weighted_add(weight[k], octave, acc, (uint32_t)m);
      scale *= s.lacunarity;
    }
  }
}

void
p4d_fbm4_span(const P4dFbm* settings,
              uint32_t      seed,
              const double  origin[4],
              const double  step[4],
              int64_t       first,
              float*        out,
              size_t        n)
{
  float          weight[P4D_FBM_MAX_OCTAVES];
  const unsigned n_oct = p4d_fbm_weights(settings, step, weight);

  // The normalising sum does not depend on the point.
  float sum = 0.0f;
  for (unsigned k = 0U; k < n_oct; ++k) {
    sum += weight[k];
  }
  const float norm = sum > 0.0f ? 1.0f / sum : 0.0f;

  p4d_fbm4_sum_span(settings, seed, origin, step, NULL, first, out, n);
  for (size_t i = 0U; i < n; ++i) {
    const float v = out[i] * norm;
    out[i]        = v > 1.0f ? 1.0f : v < -1.0f ? -1.0f : v;
  }
}
