// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file motion.h
   Perlin4D Motion: the Mod engine's modulation applied to stereo audio.

   Four targets, each driven by its own channel of a Mod engine that runs
   Motion's time settings (clock, rate or period, octaves, lacunarity,
   persistence, morph, seed, smoothing): gain, pan, a zero-delay-feedback
   state-variable filter and a modulated delay line (wow, and flutter from a
   third Mod engine at the rate times flutter_ratio), or a record's warp
   once per turn (turntable).  Stereo spread moves the right channel's
   gain and filter away from the left's in the noise space: the same bits
   at spread 0, independent at spread 1; transport_spread does the same
   for the wow and flutter (default 0: one capstan, common to both
   sides).  The laws that map
   the curves onto the sound are documented at the top of motion_audio.c.

   Like the engines, the output is a function of the song position, the
   parameter timeline and the input audio; block size never matters, and
   from p4d_motion_exact_from() on a render started anywhere gives the same
   bits as a straight run (the filter and delay state are functions of a
   bounded stretch of the input's past).  Nothing here knows LV2 or files.
*/

#ifndef P4D_MOTION_H
#define P4D_MOTION_H

#include "engine.h"
#include "params.h"
#include "status.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The current value of each target, for the plugin's control outputs.
typedef enum {
  P4D_MOTION_NOW_GAIN_DB,   ///< Gain applied, dB
  P4D_MOTION_NOW_PAN,       ///< Pan position, -1 (left) to 1 (right)
  P4D_MOTION_NOW_CUTOFF_HZ, ///< Filter cutoff, Hz
  P4D_MOTION_NOW_WOBBLE_MS, ///< Delay swing (wow plus flutter), ms
  P4D_MOTION_N_NOW
} P4dMotionNow;

/// A Motion processor; opaque.
typedef struct P4dMotionImpl P4dMotion;

/**
   Create a Motion processor, with its delay memory sized for the largest
   depths at sample_rate_hz (1000 to 768000).  Not realtime safe.
*/
P4dStatus
p4d_motion_new(double sample_rate_hz, P4dMotion** motion);

/// Free a Motion processor; NULL is fine.  Not realtime safe.
void
p4d_motion_free(P4dMotion* motion);

/**
   The latency in frames: the delay line's base delay, the same for every
   parameter value at this sample rate (so hosts compensate it once); the
   dry path and bypass are delayed by it too, so everything lines up.
   Realtime safe.
*/
uint32_t
p4d_motion_latency(const P4dMotion* motion);

/// Restart at frame 0 with no transport known, and clear the audio state.
/// Realtime safe.
void
p4d_motion_activate(P4dMotion* motion);

/// Restart at song frame frame (no transport), as p4d_engine_activate_at(),
/// and clear the audio state.  Realtime safe.
void
p4d_motion_activate_at(P4dMotion* motion, int64_t frame, double bpm);

/// Tell the processor the host transport at the next frame, as
/// p4d_engine_transport().  Realtime safe.
void
p4d_motion_transport(P4dMotion* motion, const P4dTransport* transport);

/**
   The first frame to process from so that the output from frame on is the
   same bits as processing from any earlier frame (given the same input and
   parameter timeline).  It may lie before song frame 0: a host that
   compensates Motion's latency runs it from -latency when it plays from
   the song's start.  Realtime safe.
*/
int64_t
p4d_motion_exact_from(const P4dMotion* motion, int64_t frame);

/**
   Process n_frames of stereo audio.

   @param params One raw value per Motion parameter (P4dMotionParam), each
   clamped with p4d_param_clamp() before use.
   @param in Left and right input; may be the same buffer (a mono source),
   and may alias out (in place).  NaN and infinite samples are taken as 0.
   @param out Left and right output: always finite, never denormal; or
   NULL to advance only the parameter state (the glides, as
   p4d_engine_process() with out NULL) by n_frames, with in unread: the
   audio state is then cleared before the next audio, as by activation.
   A render that replays the parameter timeline this way up to
   p4d_motion_exact_from(F), then processes audio from there, gives from F
   on the bits of a straight run.
   @param now Set to each target's value at the last frame (left side), or
   NULL; untouched when out is NULL.
   Realtime safe: no allocation, no locks, no I/O.
*/
void
p4d_motion_process(P4dMotion*         motion,
                   const float*       params,
                   const float* const in[2],
                   float* const       out[2],
                   float              now[P4D_MOTION_N_NOW],
                   uint32_t           n_frames);

/**
   Report where Motion's modulation engine engine (numbered as in
   p4d_motion_mod_params()) stands, as p4d_engine_position(), for a preview
   of its curves.  Realtime safe.
*/
void
p4d_motion_position(const P4dMotion* motion,
                    unsigned         engine,
                    P4dPosition*     position);

/**
   The Perlin4D Mod parameters of Motion's modulation engine engine (0: the
   left side, whose channels 1 to 4 drive gain, pan, filter and wow; 1: the
   right side's gain and filter; 2: flutter, channel 1 left, 2 right; 3:
   the transport's right side, channel 4 the right wow), from Motion's raw
   params (clamped here), for a preview of the curves (p4d_engine_preview()
   with a Mod engine).  mod_params holds P4D_MOD_N_PARAMS values.
   Realtime safe.
*/
void
p4d_motion_mod_params(const float* params, unsigned engine, float* mod_params);

/// The class of Perlin4D Motion (kind.h, src/motion/motion_kind.c).
extern const struct P4dKindClassImpl p4d_motion_kind;

#ifdef __cplusplus
}
#endif

#endif // P4D_MOTION_H
