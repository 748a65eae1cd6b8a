// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file engine_voice.h
   Inside the engines, shared by engine.c (the engine: voices in time,
   glides, warm-ups, the output) and voice.c (a voice: its parameters, its
   time lines, its noise).  Not part of the engine's API.
*/

#ifndef P4D_ENGINE_VOICE_H
#define P4D_ENGINE_VOICE_H

#include "engine.h"
#include "highpass.h"
#include "noise.h"
#include "phi_map.h"
#include "texture.h"

#include <stdbool.h>
#include <stdint.h>

/// Time lines of a voice: the four noise axes, then the song's seconds
/// (rate 1), which the Noise's texture runs on (texture.h).
#define P4D_LINES P4D_ENGINE_LINES
#define P4D_SECONDS 4U

/// Frames rendered per pass into the scratch buffers.
#define P4D_CHUNK 256U

/// Highest frequency any octave may reach: the top of hearing.
#define P4D_BAND_HZ 20000.0

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
} Voice;

/// Where the engine's frames stand on the song.
typedef struct {
  bool    locked;       ///< Following the song (or frames since activation)
  double  speed;        ///< Transport speed
  double  bpm;          ///< Tempo
  int64_t frame_anchor; ///< Song frame at idx_anchor
  double  beat_anchor;  ///< Song beat at idx_anchor
  int64_t idx_anchor;   ///< Engine frame of the anchor
} Clock;

/// An engine (engine.h).
struct P4dEngineImpl {
  P4dKind     kind;
  unsigned    n_channels;
  unsigned    channel_mask; ///< Channels computed (p4d_engine_set_channels)
  double      sample_rate_hz;
  double      band_limit; ///< Cells per frame where octaves fall silent
  int64_t     hpf_step;   ///< Q, in frames: the filters restart Q apart
  P4dHighpass hpf;        ///< The high-pass section
  int64_t     idx;        ///< Frames processed since activation
  bool        primed;     ///< A voice is playing
  bool        relock;     ///< The song position jumped: start a new voice
  bool        fading;     ///< prev is fading out, cur in
  bool        warming;    ///< next is warming up to take over (relocation)
  int64_t     warm_from;  ///< Engine frame where the warm-up began
  int64_t     warm_pos;   ///< Engine frame next has been rendered up to
  int64_t     warm_past;  ///< Engine frame next's past starts at
  int64_t     warm_end;   ///< Engine frame where next takes over
  int64_t     fade_start; ///< Engine frame where the glide began
  int64_t     fade_len;   ///< Glide length in frames
  double      rho[P4D_MAX_CHANNELS]; ///< Estimated correlation of the voices
  P4dPhiTable phi;                   ///< Mod: Phi's table
  Clock       clock;
  Voice       cur;
  Voice       prev;
  Voice       next;
  float       buf_cur[P4D_MAX_CHANNELS][P4D_CHUNK];
  float       buf_prev[P4D_MAX_CHANNELS][P4D_CHUNK];
  float       buf_warm[P4D_MAX_CHANNELS][P4D_CHUNK];
};

/// Fill v's parameters (not its time line) from raw control values.
/// Fill v's parameters (not its time line) from raw control values.
void
p4d_voice_from_params(const P4dEngine* e, const float* raw, Voice* v);

/// Give v its time line: the song's while the clock is locked to it and v
/// follows the song, else a free-running one that continues from's.
void
p4d_voice_line(const P4dEngine* e, Voice* v, const Voice* from);

/// Give v a free-running time line that continues from's phase (or starts
/// at 0 with the engine's frames).
void
p4d_voice_line_free(const P4dEngine* e, Voice* v, const Voice* from);

/// Give v the time line of the song position.
void
p4d_voice_line_locked(const P4dEngine* e, Voice* v);

/// Phase of axis a of voice v at engine frame idx.
double
p4d_voice_phase(const Voice* v, unsigned a, int64_t idx);

/// Render z of voice v for m frames from engine frame at into buf.
void
p4d_voice_z(const P4dEngine* e,
            const Voice*     v,
            int64_t          at,
            float            buf[][P4D_CHUNK],
            uint32_t         m);

/// Multiply m frames of v's high-passed z in buf, from engine frame at, by
/// its texture's envelope (gusts and grit, a function of song seconds).
void
p4d_voice_texture(const P4dEngine* e,
                  const Voice*     v,
                  int64_t          at,
                  float            buf[][P4D_CHUNK],
                  uint32_t         m);

#endif // P4D_ENGINE_VOICE_H
