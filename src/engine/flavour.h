// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file flavour.h
   The flavours of the Mod/Noise engine: what makes an engine the Mod's (4
   channels of control signal on a scale) or the Noise's (stereo audio
   through a high-pass, with a texture), as one const table of properties
   and operations per flavour (rows in flavour_mod.c and flavour_noise.c).
   p4d_engine_new() chooses the row once; engine.c and voice.c then never
   ask which kind they are.  Not part of the engine's API.
*/

#ifndef P4D_FLAVOUR_H
#define P4D_FLAVOUR_H

#include "exact_math.h"
#include "voice.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/// What an output pass needs of its engine.
typedef struct {
  const P4dVoiceSetup* setup;        ///< The engine's setup
  unsigned             channel_mask; ///< Channels computed
  const P4dPhiTable*   phi;          ///< Phi's table (the Mod's output map)
} P4dShaping;

/**
   One frame of a glide's output: z shaped at the two shaping parameters
   p0 and p1 that the frame has reached (each flavour's own pair: the Mod's
   low and high ends, the Noise's level and texture headroom).  Realtime
   safe.
*/
typedef float (*P4dFlavourFrame)(const P4dShaping* s,
                                 double            p0,
                                 double            p1,
                                 double            z);

/**
   Shape m frames of a glide into out[c][done..] for the channels of s's
   mask: at frame i each shaping parameter k is from[k] + a[i] (to[k] -
   from[k]) (a the glide's ramp), frame() shapes z[c][i] at them, and
   results below 1e-30 in size are 0 (no denormal leaves the engine).  The
   one glide loop of every flavour's shape_glide; inline, so that a
   flavour's frame() is inlined into it.  Realtime safe.
*/
static inline void
p4d_flavour_glide(const P4dShaping* s,
                  const double      from[2],
                  const double      to[2],
                  const double*     a,
                  double            z[][P4D_CHUNK],
                  float* const      out[],
                  uint32_t          done,
                  uint32_t          m,
                  P4dFlavourFrame   frame)
{
  for (uint32_t i = 0U; i < m; ++i) {
    const double p0 = from[0] + a[i] * (to[0] - from[0]);
    const double p1 = from[1] + a[i] * (to[1] - from[1]);
    for (unsigned c = 0U; c < s->setup->n_channels; ++c) {
      if (s->channel_mask & (1U << c)) {
        const float y    = frame(s, p0, p1, z[c][i]);
        out[c][done + i] = fabsf(y) < 1.0e-30f ? 0.0f : y;
      }
    }
  }
}

/// One flavour of the engine: its properties, then its operations.
struct P4dEngineFlavourImpl {
  /// Whose parameter table the engine reads (p4d_params()).
  P4dKind params;

  /// Output channels.
  unsigned n_channels;

  /// Whether p4d_engine_set_channels() may leave channels out (a channel
  /// that keeps no state is exact again at once).
  bool masks_channels;

  /**
     Whether each voice's z runs through the staggered high-pass filters
     (engine.c): the output then depends on up to 0.4 s of the past
     (p4d_engine_exact_from() reaches back), and a relocation, or a change
     to an unrelated signal, warms the new voice's filters up first.
  */
  bool highpassed;

  /**
     Read v's own parameters from p, the clamped values in table order: set
     what shapes the signal (clock mode, rates, octaves, seed, output scale,
     positions before the base and morph; texture), zero in p what does
     not, and return the morph offsets (3 values in p).  Realtime safe.
  */
  const float* (*read)(const P4dVoiceSetup* setup, float* p, P4dVoice* v);

  /// The glide time in ms for raw parameter values params.  Realtime safe.
  double (*glide_ms)(const float* params);

  /**
     Colour m frames of v's (high-passed) z in buf from engine frame at,
     once per block, or NULL: nothing to do.  Realtime safe.
  */
  void (*colour)(const P4dVoiceSetup* setup,
                 const P4dVoice*      v,
                 int64_t              at,
                 float                buf[][P4D_CHUNK],
                 uint32_t             m);

  /**
     Shape m frames of one voice's z into out[c][done..] between glides.
     Realtime safe.
  */
  void (*shape)(const P4dShaping* s,
                const P4dVoice*   v,
                float             z[][P4D_CHUNK],
                float* const      out[],
                uint32_t          done,
                uint32_t          m);

  /**
     Shape m frames of a glide from voice o to voice n into out[c][done..]:
     z the mixed signal, a[i] the glide's ramp at frame i (the shaping
     parameters move with it).  Realtime safe.
  */
  void (*shape_glide)(const P4dShaping* s,
                      const P4dVoice*   o,
                      const P4dVoice*   n,
                      const double*     a,
                      double            z[][P4D_CHUNK],
                      float* const      out[],
                      uint32_t          done,
                      uint32_t          m);

  /**
     What p4d_engine_preview() shows of voice v (on its time line) at voice
     frames offsets[i], into out[c][i]; buf is one frame of scratch per
     channel.  Realtime safe.
  */
  void (*preview)(const P4dShaping* s,
                  const P4dVoice*   v,
                  const int64_t*    offsets,
                  uint32_t          n,
                  float             buf[][P4D_CHUNK],
                  float* const      out[]);
};

/// The Mod's flavour: 4 channels of control signal (flavour_mod.c).
extern const P4dEngineFlavour p4d_engine_flavour_mod;

/// The Noise's flavour: stereo audio (flavour_noise.c).
extern const P4dEngineFlavour p4d_engine_flavour_noise;

/// The flavour of the engine of kind, or NULL: kind has no engine.
const P4dEngineFlavour*
p4d_engine_flavour(P4dKind kind);

#endif // P4D_FLAVOUR_H
