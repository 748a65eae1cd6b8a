// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file voice.h
   A voice of the engines: one pure function of time, made from its
   parameters and a time line (voice.c), which engine.c runs in time
   (glides, warm-ups, the output).  A voice sees of its engine only what is
   passed in: the setup fixed at the engine's creation, the song clock and
   the engine's frame.  Not part of the engine's API.
*/

#ifndef P4D_VOICE_H
#define P4D_VOICE_H

#include "clock.h"
#include "engine.h"
#include "highpass.h"
#include "noise.h"
#include "texture.h"

#include <stdbool.h>
#include <stdint.h>

/// Time lines of a voice: the four noise axes, then the song's seconds
/// (rate 1), which the Noise's texture runs on (texture.h).
#define P4D_LINES P4D_ENGINE_LINES
#define P4D_SECONDS 4U

/// Frames rendered per pass into the scratch buffers.
#define P4D_CHUNK 256U

/// Distance between channels at spread 1 (Mod) or width 1 (Noise): every
/// pair then differs by more than 2 cells on some axis, so no two channels
/// share a lattice corner and they are independent (voice.c, Placement).
#define P4D_CHANNEL_DISTANCE 3.5

/// 1 / sqrt 2: the components of a unit diagonal in a plane (Placement).
#define P4D_SQRT_HALF 0.70710678118654752440

/// The engine's flavour: the Mod's or the Noise's (flavour.h).
typedef struct P4dEngineFlavourImpl P4dEngineFlavour;

/// What a voice needs of the engine that plays it: fixed when the engine
/// is made.
typedef struct {
  const P4dEngineFlavour* flavour;        ///< The Mod's or the Noise's
  unsigned                n_channels;     ///< Output channels
  double                  sample_rate_hz; ///< Frames per second
  /// Cells per frame where octaves fall silent
  double band_limit;
} P4dVoiceSetup;

/// A voice: one pure function of time, its parameters and its time lines
/// (see engine.c, Voices).
typedef struct {
  float        params[P4D_MAX_PARAMS]; ///< Clamped values that shape the signal
  P4dClockMode mode;
  uint32_t     seed;
  P4dFbm       fbm;             ///< Octaves, with the engine's band limit
  float        norm;            ///< z = sum of octaves * norm
  float        out_low;         ///< Mod: value at the bottom; Noise: unused
  float        out_high;        ///< Mod: value at the top; Noise: linear level
  double       rate[P4D_LINES]; ///< Cycles per second or beat on each line
  double       position[P4D_MAX_CHANNELS][4]; ///< Static position per channel
  double       phase0[P4D_LINES];             ///< Phase of each line at index 0
  double       phase_step[P4D_LINES];         ///< Phase per frame on each line
  double       loop_beats; ///< Mod in song beats: loop length, 0: none
  double       loop_cells; ///< Cells of w per loop (octave 0), 0: none
  double       loop_len;   ///< Frames per loop of the time line, 0: not cut
  int64_t      offset;     ///< Voice time index = engine frame + offset
  int64_t      grid;       ///< High-pass grid time = engine frame + grid
  P4dBiquad    hpf[P4D_MAX_CHANNELS][P4D_HIGHPASS_FILTERS]; ///< Noise
  P4dTexture   texture; ///< Noise: gusts and grit (texture.h)
} P4dVoice;

/// A piece of a voice's time line within one loop of its cut (loop_line()
/// in voice.c): the whole line when it is not cut.
typedef struct {
  int64_t  first; ///< Frames since the loop's start (the voice time uncut)
  uint32_t n;     ///< Frames of the piece
  double   shift; ///< The loop's start less k times the loop's length
  int64_t  k;     ///< Which loop (0 uncut)
} P4dLoopPiece;

/// The piece of v's line from voice time now, at most n frames: up to the
/// end of its loop.  Realtime safe.
P4dLoopPiece
p4d_voice_loop_piece(const P4dVoice* v, int64_t now, uint32_t n);

/// Where v's line a stands at engine frame idx: p4d_voice_phase(), but for
/// a looped Noise's x, y and z the drift that goes forth and back in each
/// loop (voice.c, voice_octaves()).  Realtime safe.
double
p4d_voice_place(const P4dVoice* v, unsigned a, int64_t idx);

/// Highest frequency any octave may reach: the top of hearing.
#define P4D_BAND_HZ 20000.0

/**
   The setup of the voices of flavour at sample_rate_hz: its channels, and
   the band limit in cells per frame, min(20 kHz, Nyquist) over the rate
   (an octave that moves faster is silent: see P4dFbm).  Realtime safe.
*/
P4dVoiceSetup
p4d_voice_setup(const P4dEngineFlavour* flavour, double sample_rate_hz);

/**
   The divisor rule of z (voice.c, The signal z): 1 / (P4D_NOISE_STD
   times the root of the summed squared weights of n_octaves octaves,
   octave 0 counted at 1), 0 without octaves.  Realtime safe.
*/
float
p4d_voice_norm(const float* weight, unsigned n_octaves);

/// Fill v's parameters (not its time line) from raw control values, read
/// by the setup's flavour.
void
p4d_voice_from_params(const P4dVoiceSetup* setup,
                      const float*         raw,
                      P4dVoice*            v);

/**
   Give v its time line at engine frame idx: the song's while clock is
   locked to it and v follows the song, else a free-running one that
   continues from's.
*/
void
p4d_voice_line(const P4dVoiceSetup* setup,
               const P4dClock*      clock,
               int64_t              idx,
               P4dVoice*            v,
               const P4dVoice*      from);

/// Give v a free-running time line at clock's tempo that continues from's
/// phase at engine frame idx (or starts at 0 with the engine's frames).
void
p4d_voice_line_free(const P4dVoiceSetup* setup,
                    const P4dClock*      clock,
                    int64_t              idx,
                    P4dVoice*            v,
                    const P4dVoice*      from);

/// Give v the time line of the song position that clock follows.
void
p4d_voice_line_locked(const P4dVoiceSetup* setup,
                      const P4dClock*      clock,
                      P4dVoice*            v);

/// Phase of axis a of voice v at engine frame idx.
double
p4d_voice_phase(const P4dVoice* v, unsigned a, int64_t idx);

/// Render z of voice v for m frames from engine frame at into buf, for
/// the channels in channel_mask (bit c for channel c; the others' buffers
/// are left alone).
void
p4d_voice_z(const P4dVoiceSetup* setup,
            unsigned             channel_mask,
            const P4dVoice*      v,
            int64_t              at,
            float                buf[][P4D_CHUNK],
            uint32_t             m);

/// Multiply m frames of v's high-passed z in buf, from engine frame at, by
/// its texture's envelope (gusts and grit, a function of song seconds).
void
p4d_voice_texture(const P4dVoiceSetup* setup,
                  const P4dVoice*      v,
                  int64_t              at,
                  float                buf[][P4D_CHUNK],
                  uint32_t             m);

#endif // P4D_VOICE_H
