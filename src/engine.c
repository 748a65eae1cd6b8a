// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The engines.

  Voices.  A voice is one pure function of time: its parameters, fixed for
  its life, and a time line that maps the engine's frame counter to a phase
  on each noise axis.  Whenever the parameters change, or the song position
  jumps, a new voice starts and the output cross-fades linearly from the old
  voice to the new one over the glide time.  A change that arrives during a
  glide waits for it to end, so the output is always a blend of at most two
  pure functions, and what it is at any frame depends only on the timeline
  of parameter values and transport, never on how the work was cut into
  blocks.

  Time lines.  Locked to the song (or to the frames since activation when no
  host transport is known), the phase of axis a at frame n is

      (song_frame(n)) * rate[a] / sample_rate          (seconds)
      song_beat(n) * rate[a]                           (beats)

  so the same song position always gives the same phase, bit for bit, in
  seconds at speed 1, whatever happened before.  Free running (the clock
  parameter, or a stopped transport) continues the phase of the voice before
  it, so a rate change there bends the signal without a glide.

  Channels sit at their own static positions in space, off the lattice so
  that no channel's path passes through lattice points (where gradient
  noise is 0 once per cell).  Octaves are the core's fBm octaves, summed by
  the core without its normalisation (p4d_fbm4_sum_span()) so that the
  engine can shape the sum.

  Noise DC.  Gradient noise along a line has a low-frequency tail, which
  over ten seconds at a low grain leaves a DC offset near -50 dBFS.  A high
  pass (a one-pole low-pass estimate of the mean, subtracted) removes it.  To
  keep the output a function of a bounded stretch of the past, two
  estimators run staggered: each restarts from 0 every 2P frames of song
  time (frames counted from the song position, or from activation), and the
  output always uses the one that has run
  for at least P frames, which is six time constants (e^-6 of any start
  error).  A render cut anywhere therefore joins bit-exactly after a warm-up
  of 2P frames.
*/

#include "engine.h"

#include "noise.h"
#include "texture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/// Frames rendered per pass into the scratch buffers.
#define P4D_CHUNK 256U

/// Time constant of the noise DC estimator (cut-off about 3.2 Hz).
#define P4D_DC_TAU_S 0.05

/// Distance between channels at spread 1 (Mod) or width 1 (Noise): every
/// pair then differs by more than 2 cells on some axis, so no two channels
/// share a lattice corner and they are independent.
#define P4D_CHANNEL_DISTANCE 3.5

/// Peak of the Mod's saturating map is reached at about 4 standard deviations.
#define P4D_MOD_DRIVE 2.5f

/// Fastest transport speed the engine follows (hosts shuttle at up to 8 or so).
#define P4D_MAX_SPEED 64.0

/// Most a noise sample may exceed the set level: 1 dB.
#define P4D_NOISE_HEADROOM 1.1220185f

/// Static offset of every channel, off the lattice.
static const double base_position[3] = { 0.371, 0.613, 0.237 };

/// Directions in which spread moves the Mod's 4 channels: the corners of a
/// tetrahedron, so that at spread 1 every pair is equally far apart.
static const double mod_direction[P4D_MAX_CHANNELS][3] = {
  { 0.57735026918962573, 0.57735026918962573, 0.57735026918962573 },
  { 0.57735026918962573, -0.57735026918962573, -0.57735026918962573 },
  { -0.57735026918962573, 0.57735026918962573, -0.57735026918962573 },
  { -0.57735026918962573, -0.57735026918962573, 0.57735026918962573 },
};

/// Unit direction of the Noise's drift through space (evolve).
static const double evolve_direction[3] = { 0.6, 0.48, 0.64 };

typedef struct {
  float        params[P4D_MAX_PARAMS]; ///< Clamped values that shape the signal
  P4dClockMode mode;
  uint32_t     seed;
  P4dFbm       fbm;
  float        gain;     ///< Applied to the weighted sum of octaves
  float        out_low;  ///< Mod: value at the bottom; Noise: unused
  float        out_high; ///< Mod: value at the top; Noise: linear level
  double       rate[4];  ///< Cycles per second or beat on each axis
  double       position[P4D_MAX_CHANNELS][4]; ///< Static position per channel
  double       phase0[4];                     ///< Phase of each axis at index 0
  double       phase_step[4];                 ///< Phase per frame on each axis
  int64_t      offset;  ///< Voice time index = engine frame + offset
  P4dTexture   texture; ///< Noise: gusts and grit (issue 11 item 6 hook)
} Voice;

typedef struct {
  bool    locked;       ///< Following the song (or frames since activation)
  double  speed;        ///< Transport speed
  double  bpm;          ///< Tempo
  int64_t frame_anchor; ///< Song frame at idx_anchor
  double  beat_anchor;  ///< Song beat at idx_anchor
  int64_t idx_anchor;   ///< Engine frame of the anchor
} Clock;

struct P4dEngineImpl {
  P4dKind  kind;
  unsigned n_channels;
  double   sample_rate_hz;
  int64_t  dc_period;  ///< P, in frames
  double   dc_coef;    ///< One-pole coefficient of the DC estimators
  int64_t  idx;        ///< Frames processed since activation
  bool     primed;     ///< A voice is playing
  bool     relock;     ///< The song position jumped: start a new voice
  bool     fading;     ///< prev is fading out, cur in
  int64_t  fade_start; ///< Engine frame where the glide began
  int64_t  fade_len;   ///< Glide length in frames
  Clock    clock;
  Voice    cur;
  Voice    prev;
  double   dc_a[P4D_MAX_CHANNELS];
  double   dc_b[P4D_MAX_CHANNELS];
  float    buf_cur[P4D_MAX_CHANNELS][P4D_CHUNK];
  float    buf_prev[P4D_MAX_CHANNELS][P4D_CHUNK];
};

unsigned
p4d_engine_channels(P4dKind kind)
{
  return kind == P4D_KIND_MOD ? 4U : 2U;
}

P4dStatus
p4d_engine_new(P4dKind kind, double sample_rate_hz, P4dEngine** engine)
{
  *engine = NULL;
  if ((kind != P4D_KIND_MOD && kind != P4D_KIND_NOISE) ||
      !(sample_rate_hz >= 1000.0 && sample_rate_hz <= 1536000.0)) {
    return P4D_ERR_BAD_ARG;
  }

  P4dEngine* e = (P4dEngine*)calloc(1U, sizeof(P4dEngine));
  if (!e) {
    return P4D_ERR_NO_MEM;
  }

  e->kind           = kind;
  e->n_channels     = p4d_engine_channels(kind);
  e->sample_rate_hz = sample_rate_hz;
  e->dc_period      = (int64_t)(6.0 * P4D_DC_TAU_S * sample_rate_hz + 0.5);
  e->dc_coef        = 1.0 / (P4D_DC_TAU_S * sample_rate_hz);
  p4d_engine_activate(e);
  *engine = e;
  return P4D_SUCCESS;
}

void
p4d_engine_free(P4dEngine* engine)
{
  free(engine);
}

void
p4d_engine_activate(P4dEngine* engine)
{
  p4d_engine_activate_at(engine, 0, 120.0);
}

void
p4d_engine_activate_at(P4dEngine* engine, int64_t frame, double bpm)
{
  P4dEngine* const e = engine;

  e->idx    = frame;
  e->primed = false;
  e->relock = false;
  e->fading = false;
  e->clock =
    (Clock){ true, 1.0, bpm > 0.0 && bpm < 1.0e6 ? bpm : 120.0, 0, 0.0, 0 };
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    e->dc_a[c] = 0.0;
    e->dc_b[c] = 0.0;
  }
}

/// Position of song frame t in the DC estimators' cycle of 2P frames.
static int64_t
dc_phase(const P4dEngine* e, int64_t t)
{
  const int64_t cycle = 2 * e->dc_period;
  return ((t % cycle) + cycle) % cycle;
}

int64_t
p4d_engine_exact_from(const P4dEngine* engine, int64_t frame)
{
  if (engine->kind != P4D_KIND_NOISE) {
    return frame;
  }

  // The DC estimator in use at frame restarted at the latest grid point
  // that is at least P frames back; nothing happened before frame 0.
  const int64_t period = engine->dc_period;
  const int64_t phase  = dc_phase(engine, frame);
  const int64_t reset = phase < period ? frame - phase - period : frame - phase;
  return reset > 0 ? reset : 0;
}

/// Fill v's parameters (not its time line) from raw control values.
static void
voice_from_params(const P4dEngine* e, const float* raw, Voice* v)
{
  const P4dParamTable* table = p4d_params(e->kind);

  memset(v, 0, sizeof(*v));
  float* const p = v->params;
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    p[i] = p4d_param_clamp(&table->params[i], raw[i]);
  }

  P4dFbm       fbm   = { 0.0f, 0.0, 0.0f, 0.0 };
  const float* morph = NULL;
  if (e->kind == P4D_KIND_MOD) {
    // What does not shape the signal is not part of the voice.
    p[P4D_MOD_SMOOTH_MS] = p[P4D_MOD_MIDI_CHANNEL] = 0.0f;
    p[P4D_MOD_CC_1] = p[P4D_MOD_CC_2] = p[P4D_MOD_CC_3] = p[P4D_MOD_CC_4] =
      0.0f;

    v->mode = (P4dClockMode)(int)p[P4D_MOD_CLOCK];
    if (v->mode == P4D_CLOCK_SONG_BEATS) {
      p[P4D_MOD_RATE_HZ] = 0.0f;
      v->rate[3]         = 1.0 / p[P4D_MOD_PERIOD_BEATS];
    } else {
      p[P4D_MOD_PERIOD_BEATS] = 0.0f;
      v->rate[3]              = p[P4D_MOD_RATE_HZ];
    }

    fbm = (P4dFbm){
      p[P4D_MOD_OCTAVES], p[P4D_MOD_LACUNARITY], p[P4D_MOD_PERSISTENCE], 0.0
    };
    morph       = &p[P4D_MOD_MORPH_X];
    v->seed     = (uint32_t)p[P4D_MOD_SEED];
    v->out_low  = p[P4D_MOD_OUT_MIN];
    v->out_high = p[P4D_MOD_OUT_MAX];
    for (unsigned c = 0U; c < 4U; ++c) {
      for (unsigned a = 0U; a < 3U; ++a) {
        v->position[c][a] =
          P4D_CHANNEL_DISTANCE * p[P4D_MOD_SPREAD] * mod_direction[c][a];
      }
    }
  } else {
    v->mode =
      p[P4D_NOISE_CLOCK] == 0.0f ? P4D_CLOCK_SONG_SECONDS : P4D_CLOCK_FREE;
    for (unsigned a = 0U; a < 3U; ++a) {
      v->rate[a] = p[P4D_NOISE_EVOLVE_HZ] * evolve_direction[a];
    }
    v->rate[3] = p[P4D_NOISE_GRAIN_HZ];

    fbm         = (P4dFbm){ p[P4D_NOISE_OCTAVES],
                            p[P4D_NOISE_LACUNARITY],
                            p[P4D_NOISE_PERSISTENCE],
                            0.0 };
    morph       = &p[P4D_NOISE_MORPH_X];
    v->seed     = (uint32_t)p[P4D_NOISE_SEED];
    v->out_high = (float)pow(10.0, p[P4D_NOISE_LEVEL_DB] / 20.0);

    // Width moves the two channels apart along y.
    const double half = 0.5 * P4D_CHANNEL_DISTANCE * p[P4D_NOISE_WIDTH];
    v->position[0][1] = -half;
    v->position[1][1] = half;

    // Issue 11 item 6 hook: the texture's envelope (see texture.h).
    p4d_texture_init(&v->texture,
                     p[P4D_NOISE_GUST_DB],
                     p[P4D_NOISE_GUST_HZ],
                     p[P4D_NOISE_GRIT],
                     p[P4D_NOISE_WIDTH]);
  }

  for (unsigned c = 0U; c < e->n_channels; ++c) {
    for (unsigned a = 0U; a < 3U; ++a) {
      v->position[c][a] += base_position[a] + morph[a];
    }
  }

  v->fbm = fbm;

  // Octaves are uncorrelated, so the sum's standard deviation scales with
  // the root of the summed squared weights: dividing by it keeps the level
  // of the texture independent of octaves and persistence.
  float          weight[P4D_FBM_MAX_OCTAVES];
  const unsigned n_octaves = p4d_fbm_weights(&fbm, NULL, weight);
  float          power     = 0.0f;
  for (unsigned k = 0U; k < n_octaves; ++k) {
    power += weight[k] * weight[k];
  }
  const float rms_gain = 1.0f / sqrtf(power);
  v->gain = e->kind == P4D_KIND_MOD ? P4D_MOD_DRIVE * rms_gain : rms_gain;
}

static bool
same_signal(const P4dEngine* e, const Voice* a, const Voice* b)
{
  const uint32_t n = p4d_params(e->kind)->n_params;
  for (uint32_t i = 0U; i < n; ++i) {
    if (a->params[i] != b->params[i]) {
      return false;
    }
  }
  return true;
}

/// Phase of axis a of voice v at engine frame idx.
static double
voice_phase(const Voice* v, unsigned a, int64_t idx)
{
  return v->phase0[a] + (double)(idx + v->offset) * v->phase_step[a];
}

/// Song time units (seconds or beats) per frame on the engine's own clock.
static double
free_units_per_frame(const P4dEngine* e, P4dClockMode mode)
{
  return mode == P4D_CLOCK_SONG_BEATS
           ? e->clock.bpm / (60.0 * e->sample_rate_hz)
           : 1.0 / e->sample_rate_hz;
}

/// Give v a free-running time line that continues from's phase (or starts
/// at 0 with the engine's frames).
static void
line_free(const P4dEngine* e, Voice* v, const Voice* from)
{
  const double units = free_units_per_frame(e, v->mode);
  for (unsigned a = 0U; a < 4U; ++a) {
    v->phase0[a]     = from ? voice_phase(from, a, e->idx) : 0.0;
    v->phase_step[a] = v->rate[a] * units;
  }
  v->offset = from ? -e->idx : 0;
}

/// Give v the time line of the song position.
static void
line_locked(const P4dEngine* e, Voice* v)
{
  const Clock* c = &e->clock;
  for (unsigned a = 0U; a < 4U; ++a) {
    if (v->mode == P4D_CLOCK_SONG_BEATS) {
      const double units = c->speed * c->bpm / (60.0 * e->sample_rate_hz);
      v->phase0[a]       = c->beat_anchor * v->rate[a];
      v->phase_step[a]   = v->rate[a] * units;
      v->offset          = -c->idx_anchor;
    } else if (c->speed == 1.0) {
      // Anchored at song frame 0: the phase is a function of the song frame.
      v->phase0[a]     = 0.0;
      v->phase_step[a] = v->rate[a] * (1.0 / e->sample_rate_hz);
      v->offset        = c->frame_anchor - c->idx_anchor;
    } else {
      v->phase0[a] =
        (double)c->frame_anchor * (v->rate[a] * (1.0 / e->sample_rate_hz));
      v->phase_step[a] = v->rate[a] * (c->speed / e->sample_rate_hz);
      v->offset        = -c->idx_anchor;
    }
  }
}

static void
voice_line(const P4dEngine* e, Voice* v, const Voice* from)
{
  if (v->mode != P4D_CLOCK_FREE && e->clock.locked) {
    line_locked(e, v);
  } else {
    line_free(e, v, from);
  }
}

void
p4d_engine_transport(P4dEngine* engine, const P4dTransport* transport)
{
  P4dEngine* const    e  = engine;
  const P4dTransport* tr = transport;
  Clock* const        c  = &e->clock;

  // Where the clock expects the song to be now.
  const int64_t since = e->idx - c->idx_anchor;
  const int64_t want_frame =
    c->frame_anchor + (int64_t)((double)since * c->speed);
  const double want_beat = c->beat_anchor + (double)since * c->speed * c->bpm /
                                              (60.0 * e->sample_rate_hz);

  // Speeds beyond shuttling (and NaN) are not transport: keep the last one.
  const double speed =
    tr->has_speed && fabs(tr->speed) <= P4D_MAX_SPEED ? tr->speed : c->speed;
  const double bpm =
    tr->has_bpm && tr->bpm > 0.0 && tr->bpm < 1.0e6 ? tr->bpm : c->bpm;
  const int64_t frame = tr->has_frame ? tr->frame : want_frame;
  const double beat = tr->has_beat && isfinite(tr->beat) ? tr->beat : want_beat;

  const bool was_locked = c->locked;
  const bool jumped = frame != want_frame || fabs(beat - want_beat) > 1.0e-3;
  const bool bent   = speed != c->speed || bpm != c->bpm;

  *c = (Clock){ speed != 0.0, speed, bpm, frame, beat, e->idx };

  if (!c->locked) {
    // Stopped: the locked voices run on from where they are.
    if (was_locked && e->primed) {
      Voice* const voices[2] = { &e->cur, &e->prev };
      for (unsigned i = 0U; i < (e->fading ? 2U : 1U); ++i) {
        if (voices[i]->mode != P4D_CLOCK_FREE) {
          const Voice from = *voices[i];
          line_free(e, voices[i], &from);
        }
      }
    }
  } else if (!was_locked || jumped) {
    e->relock = true;
  } else if (bent && e->primed) {
    // A tempo or speed change: the song position is continuous, so the
    // locked voices follow it without a glide.
    Voice* const voices[2] = { &e->cur, &e->prev };
    for (unsigned i = 0U; i < (e->fading ? 2U : 1U); ++i) {
      if (voices[i]->mode != P4D_CLOCK_FREE) {
        line_locked(e, voices[i]);
      }
    }
  }
}

/**
   Limit x to (-1, 1) smoothly: unchanged below the knee, then bending
   towards 1 with a continuous slope (r / (1 + r) has slope 1 at 0), so the
   rare peaks of the texture are rounded instead of clipped.
*/
static inline float
soft_limit(float x)
{
  const float knee = 0.75f;
  const float mag  = fabsf(x);
  if (mag <= knee) {
    return x;
  }

  const float r = (mag - knee) / (1.0f - knee);
  const float y = knee + (1.0f - knee) * (r / (1.0f + r));
  return x < 0.0f ? -y : y;
}

/// Render voice v for m frames from the engine's current frame into buf.
static void
voice_render(P4dEngine* e, const Voice* v, float buf[][P4D_CHUNK], uint32_t m)
{
  const int64_t first = e->idx + v->offset;

  for (unsigned c = 0U; c < e->n_channels; ++c) {
    // Octaves scale the time-driven phase, not the static position: a
    // ramp of lacunarity then moves each octave only as far as time has
    // taken it, and the channels stay as far apart in every octave.
    float* const acc = buf[c];
    p4d_fbm4_sum_span(&v->fbm,
                      v->seed,
                      v->phase0,
                      v->phase_step,
                      v->position[c],
                      first,
                      acc,
                      m);

    if (e->kind == P4D_KIND_MOD) {
      // A smooth saturating map from the sum into out_min..out_max.
      const float span = v->out_high - v->out_low;
      for (uint32_t i = 0U; i < m; ++i) {
        const float s = acc[i] * v->gain;
        const float f = s / sqrtf(1.0f + s * s);
        acc[i]        = v->out_low + span * (0.5f + 0.5f * f);
      }
    } else {
      for (uint32_t i = 0U; i < m; ++i) {
        acc[i] = soft_limit(acc[i] * v->gain) * v->out_high;
      }
      // Issue 11 item 6 hook: gusts and grit, on the voice's time line in
      // song seconds (phase / rate: time at index 0, seconds per frame).
      p4d_texture_apply(&v->texture,
                        v->seed,
                        c,
                        v->phase0[3] / v->rate[3],
                        v->phase_step[3] / v->rate[3],
                        first,
                        acc,
                        m);
    }
  }
}

/// Remove the noise engine's DC from buf (see the top of this file).
static void
remove_dc(P4dEngine* e, float buf[][P4D_CHUNK], uint32_t m)
{
  const int64_t period = e->dc_period;
  // During a glide the louder of the two levels bounds the output.
  const float level = e->fading && e->prev.out_high > e->cur.out_high
                        ? e->prev.out_high
                        : e->cur.out_high;
  // Issue 11 item 6 hook: the texture's envelope may exceed 1.
  const float peak_cur  = p4d_texture_peak(&e->cur.texture);
  const float peak_prev = p4d_texture_peak(&e->prev.texture);
  const float peak  = e->fading && peak_prev > peak_cur ? peak_prev : peak_cur;
  const float limit = level * P4D_NOISE_HEADROOM * peak;

  int64_t phase =
    dc_phase(e, e->clock.frame_anchor + (e->idx - e->clock.idx_anchor));

  for (uint32_t i = 0U; i < m; ++i) {
    for (unsigned c = 0U; c < e->n_channels; ++c) {
      if (phase == 0) {
        e->dc_a[c] = 0.0;
      } else if (phase == period) {
        e->dc_b[c] = 0.0;
      }

      const double x = buf[c][i];
      e->dc_a[c] += e->dc_coef * (x - e->dc_a[c]);
      e->dc_b[c] += e->dc_coef * (x - e->dc_b[c]);

      const float y = (float)(x - (phase < period ? e->dc_b[c] : e->dc_a[c]));
      buf[c][i]     = y > limit ? limit : y < -limit ? -limit : y;
    }

    if (++phase == 2 * period) {
      phase = 0;
    }
  }
}

void
p4d_engine_process(P4dEngine*   engine,
                   const float* params,
                   float* const out[],
                   uint32_t     n_frames)
{
  P4dEngine* const e = engine;

  Voice target;
  voice_from_params(e, params, &target);

  const double glide_ms =
    e->kind == P4D_KIND_MOD
      ? p4d_param_clamp(&p4d_params(e->kind)->params[P4D_MOD_SMOOTH_MS],
                        params[P4D_MOD_SMOOTH_MS])
      : P4D_NOISE_GLIDE_MS;
  const int64_t glide = (int64_t)(glide_ms * 0.001 * e->sample_rate_hz + 0.5);

  if (!e->primed) {
    e->cur = target;
    voice_line(e, &e->cur, NULL);
    e->primed = true;
    e->relock = false;
  }

  for (uint32_t done = 0U; done < n_frames;) {
    if (e->fading && e->idx >= e->fade_start + e->fade_len) {
      e->fading = false;
    }

    if (!e->fading && (e->relock || !same_signal(e, &target, &e->cur))) {
      e->prev = e->cur;
      e->cur  = target;
      voice_line(e, &e->cur, &e->prev);
      e->relock     = false;
      e->fading     = glide > 0;
      e->fade_start = e->idx;
      e->fade_len   = glide;
    }

    uint32_t m = n_frames - done < P4D_CHUNK ? n_frames - done : P4D_CHUNK;
    if (e->fading && e->fade_start + e->fade_len - e->idx < (int64_t)m) {
      m = (uint32_t)(e->fade_start + e->fade_len - e->idx);
    }

    if (!out) {
      e->idx += m;
      done += m;
      continue;
    }

    voice_render(e, &e->cur, e->buf_cur, m);
    if (e->fading) {
      voice_render(e, &e->prev, e->buf_prev, m);
      const float len = (float)e->fade_len;
      for (uint32_t i = 0U; i < m; ++i) {
        const float a = (float)(e->idx + (int64_t)i - e->fade_start) / len;
        for (unsigned c = 0U; c < e->n_channels; ++c) {
          const float from = e->buf_prev[c][i];
          e->buf_cur[c][i] = from + a * (e->buf_cur[c][i] - from);
        }
      }
    }

    if (e->kind == P4D_KIND_NOISE) {
      remove_dc(e, e->buf_cur, m);
    }

    for (unsigned c = 0U; c < e->n_channels; ++c) {
      for (uint32_t i = 0U; i < m; ++i) {
        const float v    = e->buf_cur[c][i];
        out[c][done + i] = fabsf(v) < 1.0e-30f ? 0.0f : v;
      }
    }

    e->idx += m;
    done += m;
  }
}
