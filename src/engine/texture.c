// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Noise's texture envelope (see texture.h for what it is).

  Gusts.  Noise along the time axis alone (x, y, z still) is low-pass: its
  spectrum is flat from 0 to about 0.3 cycles per cell and falls past 0.7,
  so over half a minute its slowest swings would set the "period" of the
  gusts at random.  The gust field is therefore band-passed by a
  Hann-tapered alternating comb of 5 taps one cell apart,

      g(t) = sum_m h_m * G(w(t) + m),   h = (1, -3, 4, -3, 1) / 4

  whose response is 0 at 0 and 1 cycle per cell and largest at 0.5: g(t)
  swings up and down once in about GUST_CELLS_PER_PERIOD cells (measured:
  the dominant period over 30 s falls within 0.65x - 1.6x of that in 98 %
  of 400 trials), so the gust rate sets the period of the gusts.  G is the
  first two octaves of fBm (persistence 0.5).  Noise one cell apart on the
  time axis is nearly uncorrelated (measured r = 0.003), so the comb scales
  the standard deviation by sqrt(sum h_m^2) = 1.5.  g is a fixed linear
  combination of the field at shifted song times: still a pure function of
  the song position, with no state.

  Grit.  r(t) is fBm of 2 octaves at GRIT_RATE_HZ cells per second:
  exp(a r) with a large a is near 0 most of the time and rises into short
  bumps at the field's peaks, so the noise comes in sparse grains; a grows
  with grit up to GRIT_A_MAX nepers per standard deviation (at grit 1 the
  crest factor of the Noise is 27 - 30 dB, against 11 dB without).

  Normalisation.  z = g or r scaled to unit standard deviation (the core's
  P4D_NOISE_STD times the root of the summed squared weights, times 1.5 for
  the comb).  E[exp(2 a z)] is exp(2 a^2) for a Gaussian z; our fields are
  bounded (lighter tails), so k(a) = ln E[exp(2 a z)] / 2 is read from
  tables measured over 2^22 points of each field (test_textures measures
  E[env^2] again and checks it against 1).

  Evaluation.  The fields are evaluated at knots every P4D_TEXTURE_KNOT
  frames of the voice's time line (knot j at frame j * KNOT, so the knots
  do not depend on how a render is cut) and the exponent is interpolated
  linearly between them: 16 frames are 0.33 ms at 48 kHz, against bumps of
  a few ms.  The exponential is a polynomial (p4d_exact_exp,
  src/maths/exact_math.h): libm's exp() may round differently on another
  machine.
*/

#include "texture.h"

#include "exact_math.h"
#include "noise.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/// Largest gust depth in dB.
#define GUST_DB_MAX 24.0f

/// Slowest and fastest gust rates in Hz.
#define GUST_HZ_MIN 0.02f
#define GUST_HZ_MAX 5.0f

/// Cells of the gust field's first octave per gust period.
#define GUST_CELLS_PER_PERIOD 2.15

/// Taps of the gust comb, one cell apart (see above).
#define GUST_TAPS 5U

/// Cells per second of the grit field's first octave.
#define GRIT_RATE_HZ 40.0

/// Natural-log gain per standard deviation of r at grit 1.
#define GRIT_A_MAX 1.0f

/// How far the channels' fields sit apart along x at width 1, in cells:
/// the gusts stay mostly common (r about 0.9), the grains are apart.
#define GUST_SPREAD 0.1
#define GRIT_SPREAD 1.75

static const float gust_taps[GUST_TAPS] = { 0.25f,
                                            -0.75f,
                                            1.0f,
                                            -0.75f,
                                            0.25f };

/// The comb's gain on the standard deviation: sqrt(sum h_m^2).
#define GUST_COMB_GAIN 1.5f

static const P4dFbm gust_fbm = { 2.0f, 2.0, 0.5f, 0.0 };
static const P4dFbm grit_fbm = { 2.0f, 2.0, 0.5f, 0.0 };

/*
  Seed offsets of the fields: never k * the core's octave seed step
  (0x6C8E9CF5) away from each other or from 0 within +-65535 for |k| < 16,
  so no octave of a field shares a lattice hash with an octave of the
  texture or of the other field for any two seeds (test_textures checks).
*/
static const uint32_t gust_seed = 0x2545F491U;
static const uint32_t grit_seed = 0x9E3779B9U;

/// Static positions of the fields, off the lattice.
static const double gust_position[4] = { 0.3487, 0.1986, 0.5091, 0.0 };
static const double grit_position[4] = { 0.7213, 0.4421, 0.1377, 0.0 };

static float
clampf(float v, float lo, float hi)
{
  return v != v ? lo : v < lo ? lo : v > hi ? hi : v;
}

/// e^x for the envelope: x clamped to [-80, 80] (NaN, never made here, to
/// the bottom), so the result is a normal float > 0.
static float
envelope_exp(float x)
{
  const float c = x > -80.0f ? (x < 80.0f ? x : 80.0f) : -80.0f;
  return (float)p4d_exact_exp((double)c);
}

/// Steps of a between the entries of the k tables.
#define K_STEP 0.125f

/*
  k(a) = ln E[exp(2 a z)] / 2 for a = 0, 1/8, 2/8, ... (a^2 for a Gaussian
  z), measured at 4 seeds x 2^22 points 0.37 cells apart of each field (the
  seeds agree within 0.005).  test_textures measures them again.
*/
static const float gust_k_table[] = { 0.0000f, 0.0143f, 0.0573f, 0.1288f,
                                      0.2286f, 0.3562f, 0.5114f, 0.6937f,
                                      0.9025f, 1.1371f, 1.3971f, 1.6818f };
static const float grit_k_table[] = { 0.0000f, 0.0157f, 0.0623f,
                                      0.1392f, 0.2453f, 0.3790f,
                                      0.5389f, 0.7232f, 0.9302f };

#define N_GUST_K (sizeof(gust_k_table) / sizeof(gust_k_table[0]))
#define N_GRIT_K (sizeof(grit_k_table) / sizeof(grit_k_table[0]))

/// k(a) from table (n entries), linear between entries and past the last.
static float
norm_k(const float* table, size_t n, float a)
{
  const float  x = a / K_STEP;
  const size_t i = x < (float)(n - 2U) ? (size_t)x : n - 2U;
  return table[i] + (x - (float)i) * (table[i + 1U] - table[i]);
}

/// The scale of a field's sum of octaves.
typedef struct {
  float std;   ///< Its standard deviation
  float bound; ///< Its largest magnitude (|noise| <= 1): the sum of weights
} FieldScale;

static FieldScale
field_scale(const P4dFbm* fbm)
{
  float          w[P4D_FBM_MAX_OCTAVES];
  const unsigned n     = p4d_fbm_weights(fbm, NULL, w);
  float          power = 0.0f;
  float          sum   = 0.0f;
  for (unsigned k = 0U; k < n; ++k) {
    power += w[k] * w[k];
    sum += w[k];
  }
  const FieldScale scale = { P4D_NOISE_STD * sqrtf(power), sum };
  return scale;
}

void
p4d_texture_init(P4dTexture* texture,
                 float       gust_db,
                 float       gust_hz,
                 float       grit,
                 float       width)
{
  const float depth = clampf(gust_db, 0.0f, GUST_DB_MAX);
  const float rate  = clampf(gust_hz, GUST_HZ_MIN, GUST_HZ_MAX);
  const float g     = clampf(grit, 0.0f, 1.0f);

  const FieldScale gust_scale = field_scale(&gust_fbm);
  const FieldScale grit_scale = field_scale(&grit_fbm);

  texture->gust_rate_hz = (double)rate * GUST_CELLS_PER_PERIOD;
  // depth / 2 dB per standard deviation, in natural-log units.
  const float gust_a = depth * (0.5f * 0.11512925464970229f);
  const float grit_a = g * GRIT_A_MAX;
  texture->gust_a    = gust_a / (GUST_COMB_GAIN * gust_scale.std);
  texture->grit_a    = grit_a / grit_scale.std;
  texture->gust_k    = norm_k(gust_k_table, N_GUST_K, gust_a);
  texture->grit_k    = norm_k(grit_k_table, N_GRIT_K, grit_a);
  texture->width     = clampf(width, 0.0f, 1.0f);
  texture->active    = depth > 0.0f || g > 0.0f;

  // The comb's taps sum to 3 in magnitude.
  const float most = texture->gust_a * 3.0f * gust_scale.bound +
                     texture->grit_a * grit_scale.bound - texture->gust_k -
                     texture->grit_k;
  texture->peak = texture->active ? envelope_exp(most) : 1.0f;
}

/// Floor of a / b for b > 0.
static int64_t
floor_div(int64_t a, int64_t b)
{
  const int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

/// Most knots evaluated at once, on the stack.
#define MAX_KNOTS 64U

void
p4d_texture_envelope(const P4dTexture* texture,
                     uint32_t          seed,
                     unsigned          channel,
                     double            t0_s,
                     double            step_s,
                     int64_t           first,
                     float*            env,
                     uint32_t          n)
{
  const P4dTexture* const tx = texture;
  if (!tx->active) {
    for (uint32_t i = 0U; i < n; ++i) {
      env[i] = 1.0f;
    }
    return;
  }

  const int64_t knot = (int64_t)P4D_TEXTURE_KNOT;
  const double  side = channel ? 1.0 : -1.0;

  double gust_pos[4];
  double grit_pos[4];
  memcpy(gust_pos, gust_position, sizeof(gust_pos));
  memcpy(grit_pos, grit_position, sizeof(grit_pos));
  gust_pos[0] += side * tx->width * GUST_SPREAD;
  grit_pos[0] += side * tx->width * GRIT_SPREAD;

  const double gust_step[4] = {
    0.0, 0.0, 0.0, (double)knot * step_s * tx->gust_rate_hz
  };
  const double grit_origin[4] = { 0.0, 0.0, 0.0, t0_s * GRIT_RATE_HZ };
  const double grit_step[4]   = {
      0.0, 0.0, 0.0, (double)knot * step_s * GRIT_RATE_HZ
  };
  const float bias = -tx->gust_k - tx->grit_k;

  for (uint32_t done = 0U; done < n;) {
    const int64_t at = first + (int64_t)done;
    const int64_t j0 = floor_div(at, knot);
    // Frames of this piece: up to the knot MAX_KNOTS - 1 knots on.
    const int64_t  end = (j0 + (int64_t)MAX_KNOTS - 1) * knot;
    const uint32_t m =
      end - at < (int64_t)(n - done) ? (uint32_t)(end - at) : n - done;
    const int64_t j1      = floor_div(at + (int64_t)m - 1, knot) + 1;
    const size_t  n_knots = (size_t)(j1 - j0 + 1);

    float e[MAX_KNOTS] = { 0.0f };
    float f[MAX_KNOTS] = { 0.0f };
    for (size_t k = 0U; k < n_knots; ++k) {
      e[k] = bias;
    }
    if (tx->gust_a > 0.0f) {
      for (unsigned m_tap = 0U; m_tap < GUST_TAPS; ++m_tap) {
        const double origin[4] = {
          0.0, 0.0, 0.0, t0_s * tx->gust_rate_hz + ((double)m_tap - 2.0)
        };
        p4d_fbm4_sum_span(&gust_fbm,
                          seed + gust_seed,
                          origin,
                          gust_step,
                          gust_pos,
                          j0,
                          f,
                          n_knots);
        const float h = gust_taps[m_tap] * tx->gust_a;
        for (size_t k = 0U; k < n_knots; ++k) {
          e[k] += h * f[k];
        }
      }
    }
    if (tx->grit_a > 0.0f) {
      p4d_fbm4_sum_span(&grit_fbm,
                        seed + grit_seed,
                        grit_origin,
                        grit_step,
                        grit_pos,
                        j0,
                        f,
                        n_knots);
      for (size_t k = 0U; k < n_knots; ++k) {
        e[k] += tx->grit_a * f[k];
      }
    }

    for (uint32_t i = 0U; i < m; ++i) {
      const int64_t pos  = at + (int64_t)i - j0 * knot;
      const size_t  k    = (size_t)(pos / knot);
      const float   frac = (float)(pos % knot) * (1.0f / (float)knot);
      const float   x    = e[k] + frac * (e[k + 1U] - e[k]);
      env[done + i]      = envelope_exp(x);
    }
    done += m;
  }
}

void
p4d_texture_apply(const P4dTexture* texture,
                  uint32_t          seed,
                  unsigned          channel,
                  double            t0_s,
                  double            step_s,
                  int64_t           first,
                  float*            buf,
                  uint32_t          n)
{
  if (!texture->active) {
    return;
  }

  for (uint32_t done = 0U; done < n;) {
    float          env[256] = { 0.0f };
    const uint32_t m        = n - done < 256U ? n - done : 256U;
    p4d_texture_envelope(
      texture, seed, channel, t0_s, step_s, first + (int64_t)done, env, m);
    for (uint32_t i = 0U; i < m; ++i) {
      buf[done + i] *= env[i];
    }
    done += m;
  }
}

float
p4d_texture_peak(const P4dTexture* texture)
{
  return texture->peak;
}

float
p4d_texture_headroom(const P4dTexture* texture)
{
  return texture->peak < P4D_TEXTURE_HEADROOM ? texture->peak
                                              : P4D_TEXTURE_HEADROOM;
}
