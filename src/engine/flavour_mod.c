// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Mod's flavour of the engine (flavour.h): 4 channels of smooth control
  signal.  Its voices read the Mod's parameters (clock, rate or period and
  loop in beats, spread), glide over the smoothing time, and map z onto
  out_min..out_max through Phi, the standard normal CDF (engine.c, Output
  maps).  No state outlives a frame, so any channel may be left out.
*/

#include "flavour.h"

#include "phi_map.h"

#include <math.h>

/// Directions in which spread moves the Mod's 4 channels (voice.c,
/// Placement).
static const double mod_direction[P4D_MAX_CHANNELS][3] = {
  { P4D_SQRT_HALF, P4D_SQRT_HALF, 0.0 },
  { P4D_SQRT_HALF, -P4D_SQRT_HALF, 0.0 },
  { -P4D_SQRT_HALF, P4D_SQRT_HALF, 0.0 },
  { -P4D_SQRT_HALF, -P4D_SQRT_HALF, 0.0 },
};

/**
   Loops (Mod in song beats).  A loop of N beats makes the time line
   periodic: the rate snaps to the nearest whole number P of cells per loop
   (at least 1), rate = P / N, and the core scales each octave to whole
   cells per loop too (P4dFbm), so every octave repeats after N beats.
*/
static void
loop_snap(P4dVoice* v, double loop_beats)
{
  if (loop_beats > 0.0) {
    const double cells = floor(loop_beats * v->rate[3] + 0.5);
    v->loop_beats      = loop_beats;
    v->loop_cells      = cells < 1.0 ? 1.0 : cells;
    v->rate[3]         = v->loop_cells / loop_beats;
  }
}

static const float*
mod_read(const P4dVoiceSetup* setup, float* p, P4dVoice* v)
{
  // What does not shape the signal is not part of the voice.
  p[P4D_MOD_SMOOTH_MS] = p[P4D_MOD_MIDI_CHANNEL] = 0.0f;
  p[P4D_MOD_CC_1] = p[P4D_MOD_CC_2] = p[P4D_MOD_CC_3] = p[P4D_MOD_CC_4] = 0.0f;
  p[P4D_MOD_MIDI_MODE_1] = p[P4D_MOD_MIDI_MODE_2] = p[P4D_MOD_MIDI_MODE_3] =
    p[P4D_MOD_MIDI_MODE_4]                        = 0.0f;

  v->mode = (P4dClockMode)(int)p[P4D_MOD_CLOCK];
  if (v->mode == P4D_CLOCK_SONG_BEATS) {
    p[P4D_MOD_RATE_HZ] = 0.0f;
    v->rate[3]         = 1.0 / p[P4D_MOD_PERIOD_BEATS];
    loop_snap(v, p[P4D_MOD_LOOP_BEATS]);
  } else {
    p[P4D_MOD_PERIOD_BEATS] = p[P4D_MOD_LOOP_BEATS] = 0.0f;
    v->rate[3]                                      = p[P4D_MOD_RATE_HZ];
  }

  v->fbm      = (P4dFbm){ p[P4D_MOD_OCTAVES],
                          p[P4D_MOD_LACUNARITY],
                          p[P4D_MOD_PERSISTENCE],
                          setup->band_limit };
  v->seed     = (uint32_t)p[P4D_MOD_SEED];
  v->out_low  = p[P4D_MOD_OUT_MIN];
  v->out_high = p[P4D_MOD_OUT_MAX];
  for (unsigned c = 0U; c < 4U; ++c) {
    for (unsigned a = 0U; a < 3U; ++a) {
      v->position[c][a] =
        P4D_CHANNEL_DISTANCE * p[P4D_MOD_SPREAD] * mod_direction[c][a];
    }
  }
  return &p[P4D_MOD_MORPH_X];
}

/// The smoothing time, clamped.
static double
mod_glide_ms(const float* params)
{
  return p4d_param_clamp(&p4d_params(P4D_KIND_MOD)->params[P4D_MOD_SMOOTH_MS],
                         params[P4D_MOD_SMOOTH_MS]);
}

static void
mod_shape(const P4dShaping* s,
          const P4dVoice*   v,
          float             z[][P4D_CHUNK],
          float* const      out[],
          uint32_t          done,
          uint32_t          m)
{
  const double low  = v->out_low;
  const double high = v->out_high;
  const double span = high - low;
  for (unsigned c = 0U; c < s->setup->n_channels; ++c) {
    if (s->channel_mask & (1U << c)) {
      p4d_phi_map(s->phi, z[c], low, span, out[c] + done, m);
    }
  }
}

/// One frame of the Mod's output map between low (p0) and high (p1).
static float
mod_frame(const P4dShaping* s, double low, double high, double z)
{
  return (float)(low + (high - low) * p4d_exact_phi(s->phi, z));
}

static void
mod_shape_glide(const P4dShaping* s,
                const P4dVoice*   o,
                const P4dVoice*   n,
                const double*     a,
                double            z[][P4D_CHUNK],
                float* const      out[],
                uint32_t          done,
                uint32_t          m)
{
  const double from[2] = { o->out_low, o->out_high };
  const double to[2]   = { n->out_low, n->out_high };
  p4d_flavour_glide(s, from, to, a, z, out, done, m, mod_frame);
}

/// Each channel's output value, as mod_shape() between glides.
static void
mod_preview(const P4dShaping* s,
            const P4dVoice*   v,
            const int64_t*    offsets,
            uint32_t          n,
            float             buf[][P4D_CHUNK],
            float* const      out[])
{
  for (uint32_t i = 0U; i < n; ++i) {
    p4d_voice_z(s->setup, s->channel_mask, v, offsets[i], buf, 1U);
    for (unsigned c = 0U; c < s->setup->n_channels; ++c) {
      const float y = mod_frame(s, v->out_low, v->out_high, buf[c][0]);
      out[c][i]     = fabsf(y) < 1.0e-30f ? 0.0f : y;
    }
  }
}

const P4dEngineFlavour p4d_engine_flavour_mod = {
  .params         = P4D_KIND_MOD,
  .n_channels     = 4U,
  .masks_channels = true,
  .highpassed     = false,
  .read           = mod_read,
  .glide_ms       = mod_glide_ms,
  .colour         = NULL,
  .shape          = mod_shape,
  .shape_glide    = mod_shape_glide,
  .preview        = mod_preview,
};
