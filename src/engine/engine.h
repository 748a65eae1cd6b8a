// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file engine.h
   The DSP engines: the modulator (4 channels of smooth control signal) and
   the noise texture (stereo audio), both driven by the noise core.

   An engine's output is a pure function of its parameters and the time
   position:

       value(channel, t) = shape(fbm(seed, position(channel), t * rate))

   where t is the song position in seconds or beats, or the time since
   activation when no transport is known.  Parameter changes, and jumps of
   the song position, glide from the old pure function to the new one over
   the smoothing time: with a plain law between neighbouring values, with
   equal power to unrelated ones.  After a jump of the song position (and
   its glide) the output is the same as a straight run through it gives.
   Processing in blocks of any size gives the same samples.  The engine
   knows nothing of LV2 or sound files.
*/

#ifndef P4D_ENGINE_H
#define P4D_ENGINE_H

#include "params.h"
#include "status.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Fixed cross-fade time of the noise engine.
#define P4D_NOISE_GLIDE_MS 20.0

/// The scale of the Noise's preview in an inline display: its texture
/// envelope in dB, from the bottom to the top of the image.
#define P4D_NOISE_PREVIEW_TOP_DB 12.0
#define P4D_NOISE_PREVIEW_BOTTOM_DB (-36.0)

/// Fastest transport speed the engines follow (hosts shuttle at up to 8 or
/// so); a faster one, or NaN, is not transport and is ignored.
#define P4D_MAX_SPEED 64.0

/// Tempos the engines follow: above 0 and below this.
#define P4D_MAX_BPM 1.0e6

/// Time lines of a voice: the four noise axes, then the song's seconds
/// (which the Noise's texture runs on).
#define P4D_ENGINE_LINES 5U

/// Host transport at one frame, as an LV2 time:Position carries it.
typedef struct {
  bool    has_frame; ///< frame is set
  bool    has_speed; ///< speed is set
  bool    has_beat;  ///< beat is set
  bool    has_bpm;   ///< bpm is set
  int64_t frame;     ///< Song position in frames
  double  speed;     ///< Transport speed: 0 stopped, 1 rolling
  double  beat;      ///< Song position in beats since the start
  double  bpm;       ///< Tempo in beats per minute
} P4dTransport;

/**
   Where an engine stands, at the next frame it will process: what a
   preview (p4d_engine_preview()) needs to draw what plays from there.
*/
typedef struct {
  int64_t frame; ///< Song frame (the engine's clock: it runs on stopped)
  double  beat;  ///< Song beat
  double  bpm;   ///< Tempo
  double  speed; ///< Transport speed: 0 stopped
  /// The playing voice's time line, which a free-running clock continues:
  /// its phase on line a is free_phase0[a] + free_index times its step.
  int64_t free_index;
  double  free_phase0[P4D_ENGINE_LINES];
} P4dPosition;

/// An engine instance; opaque.
typedef struct P4dEngineImpl P4dEngine;

/**
   Create an engine.

   @param kind The engine: P4D_KIND_MOD or P4D_KIND_NOISE.
   @param sample_rate_hz Frames per second, 1000 to 1536000.
   @param engine Set to the new engine on success.
   Not realtime safe: call from instantiate().
*/
P4dStatus
p4d_engine_new(P4dKind kind, double sample_rate_hz, P4dEngine** engine);

/// Free an engine; NULL is fine.  Not realtime safe.
void
p4d_engine_free(P4dEngine* engine);

/// Number of output channels of an engine of kind.
unsigned
p4d_engine_channels(P4dKind kind);

/**
   Compute only the channels in mask (bit c for channel c) from the next
   p4d_engine_process() on; the other channels' buffers are neither read
   nor written (they may be NULL).  Every channel computed has the bits it
   has with all channels on: a Mod channel is a pure function of the time
   line, so a channel switched back on is exact at once.  The Noise
   computes both channels whatever the mask (its high-pass filters keep
   state).  New engines compute every channel.  Realtime safe.
*/
void
p4d_engine_set_channels(P4dEngine* engine, unsigned mask);

/**
   Restart time at frame 0 with no transport known.

   The parameters of the next p4d_engine_process() take effect at once,
   without a glide.  Realtime safe.
*/
void
p4d_engine_activate(P4dEngine* engine);

/**
   Restart time at song frame frame, with no host transport: the engine
   then plays the song from there at bpm beats per minute, as if it had
   been activated at frame 0 (without the history).  The parameters of the
   next p4d_engine_process() take effect at once.  Realtime safe.
*/
void
p4d_engine_activate_at(P4dEngine* engine, int64_t frame, double bpm);

/**
   The first frame to render from so that the output from frame on is exact.

   The output at a frame depends on the parameter timeline and, for the
   noise engine, on up to 0.4 s of signal before it (the high-pass filters'
   window, see engine.c).  Rendering from the returned frame (with the same
   parameter timeline before it, see p4d_engine_process() with out NULL)
   gives, from frame on, the same samples as rendering from frame 0.
   params: the parameters the engine will run with from there on, if they
   are held, or NULL if they may change; before the engine's first voice
   they tell whether it loops, which reaches further back (up to 2.4 s
   instead of 0.4 s).  Realtime safe.
*/
int64_t
p4d_engine_exact_from(const P4dEngine* engine,
                      int64_t          frame,
                      const float*     params);

/**
   Tell the engine the host transport at the next frame to process.

   A jump of the song position, or the transport starting to roll, glides
   to the new position's output; a stop keeps the output moving on the
   engine's own clock from where it was.  The noise engine first warms its
   high-pass up from the new position's past, 8 frames of it per frame of
   output (at most 57 ms, while the old position plays on), so that after
   the warm-up and the glide locate equals export.  Realtime safe.
*/
void
p4d_engine_transport(P4dEngine* engine, const P4dTransport* transport);

/**
   Render n_frames frames.

   @param params One raw value per parameter of the engine's table, in table
   order; each is clamped with p4d_param_clamp() before use.
   @param out One buffer of n_frames floats per channel, or NULL to advance
   the parameter state (glides) by n_frames without computing any noise.
   The outputs are always finite and free of denormals.
   Realtime safe.
*/
void
p4d_engine_process(P4dEngine*   engine,
                   const float* params,
                   float* const out[],
                   uint32_t     n_frames);

/**
   Report where engine stands after its last p4d_engine_process() (or its
   activation), for a preview.  Realtime safe, cheap.
*/
void
p4d_engine_position(const P4dEngine* engine, P4dPosition* position);

/**
   Evaluate what an engine of the scratch engine's kind plays with params at
   song frames at->frame + offsets[i] (a free-running clock: offsets[i]
   frames after at), without touching any running engine.

   The preview builds the voice that params give, on the time line that a
   rolling transport (speed 1, tempo at->bpm, song beat at->beat at song
   frame at->frame) gives it, or a free-running clock the playing voice's
   line (at->free_index, at->free_phase0), with the very code that plays it
   (p4d_voice_from_params(), p4d_voice_line(), p4d_voice_z()): so a Mod
   channel's preview is, bit for bit, the output of an engine that has been
   playing those parameters straight through those frames, from at =
   p4d_engine_position() of an engine that plays them.  Glides are left out
   (the preview shows where a glide goes).  Mod: out[c][i] is channel c's
   output value.  Noise: out[c][i] is channel c's texture envelope (gusts
   and grit, texture.h; 1 without texture), the gain that shapes its level,
   since a few samples of the noise itself say nothing.

   @param engine A scratch engine of the kind, overwritten: never one that
   some other thread processes.
   @param out One array of n floats per channel.
   Realtime safe, and cheap: one fBm sum per point and channel.
*/
void
p4d_engine_preview(P4dEngine*         engine,
                   const float*       params,
                   const P4dPosition* at,
                   const int64_t*     offsets,
                   uint32_t           n,
                   float* const       out[]);

/**
   The classes of the engine's kinds (kind.h, src/engine/engine_kind.c):
   Perlin4D Mod, Perlin4D Mod CV (the Mod's engine; its plugin adds CV
   outputs) and Perlin4D Noise.  Drivers reach them through the list
   (p4d_kind_by_name(), p4d_kind_by_plugin()).
*/
extern const struct P4dKindClassImpl p4d_engine_kind_mod;
extern const struct P4dKindClassImpl p4d_engine_kind_mod_cv;
extern const struct P4dKindClassImpl p4d_engine_kind_noise;

#ifdef __cplusplus
}
#endif

#endif // P4D_ENGINE_H
