// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Noise's flavour of the engine (flavour.h): stereo audio.  Its voices
  read the Noise's parameters (grain, evolve, width, level, texture), glide
  over a fixed P4D_NOISE_GLIDE_MS, run through the staggered high-pass
  (engine.c, Noise high-pass), are coloured by the texture's envelope and
  limited softly below the level times the texture's headroom (engine.c,
  Output maps).  The high-pass keeps state: both channels always run.
*/

#include "flavour.h"

#include <math.h>

/// Standard deviation of the Noise before the limiter, relative to level.
#define P4D_NOISE_RMS 0.25f

/// Direction of the Noise's width and drift (evolve) through space
/// (voice.c, Placement).
static const double noise_direction[3] = { P4D_SQRT_HALF, P4D_SQRT_HALF, 0.0 };

/*
  Width.  The channels sit d cells apart along noise_direction, the same d
  in every octave's own cells (the core adds the position to every octave
  unscaled: noise.h), so their correlation is the noise's own correlation
  at distance d, rho(d), whatever the octaves, lacunarity and persistence.
  rho falls from 1 at 0 as 1 - c d^2, to 0.50 at 0.47 cells and 0 at 0.98
  (then a lobe of -0.03 and 0 from 1.5 on).  A distance proportional to
  the width (3.5 cells x width until issue 23) made the control nearly a
  switch: r = 0.69 at width 0.1 and about 0 from 0.3 up.  The law places
  the channels where rho(d) = 1 - width: width_distance[k] is the inverse
  of rho at sqrt(width) = k / 32 (d is nearly linear in sqrt(width), as
  rho is quadratic at 0), measured over 300000 random points of the noise
  (mean of the products over the mean square, rho made monotone by its
  running minimum); linear between entries.  Width 1 keeps the 3.5 cells
  (P4D_CHANNEL_DISTANCE) of before, where the channels are independent:
  the default's bits do not change.  test_noise_width measures r at 11
  widths for several settings.
*/
static const double width_distance[33] = {
  0.0000, 0.0172, 0.0350, 0.0528, 0.0707, 0.0887, 0.1069, 0.1252, 0.1437,
  0.1625, 0.1815, 0.2009, 0.2205, 0.2406, 0.2611, 0.2821, 0.3036, 0.3258,
  0.3487, 0.3724, 0.3970, 0.4228, 0.4497, 0.4782, 0.5084, 0.5408, 0.5758,
  0.6144, 0.6576, 0.7075, 0.7679, 0.8477, 0.9817,
};

/// The distance of the channels in cells at width (see Width above).
static double
width_law(float width)
{
  if (!(width > 0.0f)) {
    return 0.0;
  }
  if (width >= 1.0f) {
    return P4D_CHANNEL_DISTANCE;
  }
  const double x = sqrt((double)width) * 32.0;
  const int    k = x < 31.0 ? (int)x : 31;
  const double f = x - (double)k;
  return width_distance[k] + f * (width_distance[k + 1] - width_distance[k]);
}

static const float*
noise_read(const P4dVoiceSetup* setup, float* p, P4dVoice* v)
{
  v->mode =
    p[P4D_NOISE_CLOCK] == 0.0f ? P4D_CLOCK_SONG_SECONDS : P4D_CLOCK_FREE;
  // A loop in song beats (voice.c, line_seconds_loop()); free running has
  // none.
  if (v->mode != P4D_CLOCK_SONG_SECONDS) {
    p[P4D_NOISE_LOOP_BEATS] = 0.0f;
  }
  v->loop_beats = p[P4D_NOISE_LOOP_BEATS];
  for (unsigned a = 0U; a < 3U; ++a) {
    v->rate[a] = p[P4D_NOISE_EVOLVE_HZ] * noise_direction[a];
  }
  v->rate[3]           = p[P4D_NOISE_GRAIN_HZ];
  v->rate[P4D_SECONDS] = 1.0;

  v->fbm      = (P4dFbm){ p[P4D_NOISE_OCTAVES],
                          p[P4D_NOISE_LACUNARITY],
                          p[P4D_NOISE_PERSISTENCE],
                          setup->band_limit };
  v->seed     = (uint32_t)p[P4D_NOISE_SEED];
  v->out_high = (float)p4d_exact_exp(p[P4D_NOISE_LEVEL_DB] *
                                     0.11512925464970228420); // ln 10 / 20

  const double half = 0.5 * width_law(p[P4D_NOISE_WIDTH]);
  for (unsigned a = 0U; a < 3U; ++a) {
    v->position[0][a] = -half * noise_direction[a];
    v->position[1][a] = half * noise_direction[a];
  }

  p4d_texture_init(&v->texture,
                   p[P4D_NOISE_GUST_DB],
                   p[P4D_NOISE_GUST_HZ],
                   p[P4D_NOISE_GRIT],
                   p[P4D_NOISE_WIDTH]);
  p4d_texture_events(&v->texture, p[P4D_NOISE_EVENTS], p[P4D_NOISE_EVENT_HZ]);
  return &p[P4D_NOISE_MORPH_X];
}

/// The fixed cross-fade.
static double
noise_glide_ms(const float* params)
{
  (void)params;
  return P4D_NOISE_GLIDE_MS;
}

/**
   Limit x to (-1, 1) smoothly: unchanged below the knee, then bending
   towards 1 with a continuous slope (r / (1 + r) has slope 1 at 0), so the
   rare peaks of the texture are rounded instead of clipped.
*/
static inline float
soft_limit(float x)
{
  // Both branches' values, then a choice between them: no branch, so that
  // a loop of them vectorises (the bent value is only kept above the knee).
  const float knee = 0.75f;
  const float mag  = fabsf(x);
  const float r    = (mag - knee) / (1.0f - knee);
  const float y    = knee + (1.0f - knee) * (r / (1.0f + r));
  const float bent = x < 0.0f ? -y : y;
  return mag <= knee ? x : bent;
}

static void
noise_shape(const P4dShaping* s,
            const P4dVoice*   v,
            float             z[][P4D_CHUNK],
            float* const      out[],
            uint32_t          done,
            uint32_t          m)
{
  const double peak  = p4d_texture_headroom(&v->texture);
  const double scale = P4D_NOISE_RMS / peak;
  const float  gain  = (float)(v->out_high * peak);
  for (unsigned c = 0U; c < s->setup->n_channels; ++c) {
    const float* const zc = z[c];
    float* const       y  = out[c] + done;
    for (uint32_t i = 0U; i < m; ++i) {
      const float r = soft_limit((float)((double)zc[i] * scale)) * gain;
      y[i]          = fabsf(r) < 1.0e-30f ? 0.0f : r;
    }
  }
}

/// One frame of the Noise's output at level (p0) and headroom (p1).
static float
noise_frame(const P4dShaping* s, double high, double peak, double z)
{
  (void)s;
  return soft_limit((float)(z * (P4D_NOISE_RMS / peak))) * (float)(high * peak);
}

static void
noise_shape_glide(const P4dShaping* s,
                  const P4dVoice*   o,
                  const P4dVoice*   n,
                  const double*     a,
                  double            z[][P4D_CHUNK],
                  float* const      out[],
                  uint32_t          done,
                  uint32_t          m)
{
  const double from[2] = { o->out_high, p4d_texture_headroom(&o->texture) };
  const double to[2]   = { n->out_high, p4d_texture_headroom(&n->texture) };
  p4d_flavour_glide(s, from, to, a, z, out, done, m, noise_frame);
}

/// Each channel's texture envelope (1 without texture).
static void
noise_preview(const P4dShaping* s,
              const P4dVoice*   v,
              const int64_t*    offsets,
              uint32_t          n,
              float             buf[][P4D_CHUNK],
              float* const      out[])
{
  (void)buf;
  for (unsigned c = 0U; c < s->setup->n_channels; ++c) {
    for (uint32_t i = 0U; i < n; ++i) {
      float y = 1.0f;
      p4d_texture_envelope(&v->texture,
                           v->seed,
                           c,
                           v->phase0[P4D_SECONDS],
                           v->phase_step[P4D_SECONDS],
                           offsets[i] + v->offset,
                           &y,
                           1U);
      out[c][i] = y;
    }
  }
}

const P4dEngineFlavour p4d_engine_flavour_noise = {
  .params         = P4D_KIND_NOISE,
  .n_channels     = 2U,
  .masks_channels = false,
  .highpassed     = true,
  .read           = noise_read,
  .glide_ms       = noise_glide_ms,
  .colour         = p4d_voice_texture,
  .shape          = noise_shape,
  .shape_glide    = noise_shape_glide,
  .preview        = noise_preview,
};
