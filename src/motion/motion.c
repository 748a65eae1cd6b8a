// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Motion.

  Modulation.  Three Mod engines (src/engine/engine.c) make the curves, each
  with Motion's time settings copied into its Mod parameters (clock, rate_hz,
  period_beats, octaves, lacunarity, persistence, morph, seed, smooth_ms;
  out_min 0, out_max 1, CCs off), so every curve is exactly a Mod channel,
  bits included:

    L   spread 1 (its four channels independent): channel 1 the left gain,
        2 the pan, 3 the left filter, 4 the left wow.  This is a Mod engine
        with the user's settings and spread 1, nothing else.
    R   the same, with morph_z moved by spread * 4 cells (down instead of
        up when morph_z > 12, to stay in the table's range): channel 1 the
        right gain, 3 the right filter, 4 the right wow.  A move along z
        keeps every channel on its placement line in x and y (engine.c,
        Placement), so the variance swing stays below 1.5 dB for every
        spread; 4 whole cells put every channel of R more than 2 cells from
        every channel of L: at spread 1 the sides share no lattice corner
        and are independent.  At spread 0 the right side copies the left
        (identical bits), once R has been at spread 0 for two of the
        longest glides (R's own free-running phase could otherwise differ
        from L's in the last bit).
    F   flutter: rate_hz * flutter_ratio (beats: period_beats /
        flutter_ratio; the Mod engine's range caps it at 50 Hz, or 1/16
        beat), seed + 32768 (another field, so flutter never follows the
        gain), Mod spread = transport_spread: channel 1 the left flutter,
        channel 2 the right (equal at 0, independent at 1).
    T   the transport's right side: L's settings with morph_z moved by
        transport_spread * 4 cells, as R is by spread: channel 4 the right
        wow.  At transport_spread 0 (the default) the right wow copies the
        left, as R's curves do at spread 0: wow and flutter are one
        capstan's, common to both sides, so a mono source stays mono and
        its fold-down never combs; spread still moves the gain and the
        filter.  With a turntable speed set, the wow is the record's warp
        instead (motion_warp.c), one stylus's: common to both sides.

  An engine whose curves no target needs is advanced with out NULL (its
  glides move on, no noise is computed): its curves then read 0.5, and
  every law (motion_audio.c) gives exactly its neutral value at depth 0
  whatever the curve, so skipping never changes a bit.

  Audio.  The curves go to the audio path, motion_audio.c (the delay line,
  the staggered filters on their grid, gain, pan, the mix), a chunk of
  P4D_MOTION_CHUNK frames at a time: the engines fill the curve buffers,
  then the chunk's audio reads them.  This file keeps the controls'
  glides' targets and the song clock that the filter grid follows (see
  motion_audio.c, Bounded past).
*/

#include "motion.h"

#include "motion_private.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/// The glide of Motion's own controls and of bypass.
#define P4D_MOTION_GLIDE_MS 20.0

/// The glide of the turntable's weights (motion_warp.c).
#define P4D_MOTION_TURN_GLIDE_MS 250.0

/// How long each staggered filter runs before use (motion_audio.c).
#define P4D_MOTION_FILTER_AGE_S 2.6

/// Cells between the sides at spread 1, along z.
#define P4D_MOTION_SPREAD_CELLS 4.0f

/// Highest morph_z from which the right side moves up.
#define P4D_MOTION_SPREAD_TURN 12.0f

/// The flutter engine's seed offset.
#define P4D_MOTION_FLUTTER_SEED 32768U

/// Longest Mod glide (smooth_ms's maximum) in seconds.
#define P4D_MOTION_MAX_GLIDE_S 1.0

/// The extreme of a Motion parameter.
static float
motion_max(P4dMotionParam id)
{
  return p4d_params(P4D_KIND_MOTION)->params[id].maximum;
}

P4dStatus
p4d_motion_new(double sample_rate_hz, P4dMotion** motion)
{
  *motion = NULL;
  if (!(sample_rate_hz >= 1000.0 && sample_rate_hz <= 768000.0)) {
    return P4D_ERR_BAD_ARG;
  }

  P4dMotion* m = (P4dMotion*)calloc(1U, sizeof(P4dMotion));
  if (!m) {
    return P4D_ERR_NO_MEM;
  }

  m->sample_rate_hz = sample_rate_hz;
  m->frames_per_ms  = sample_rate_hz / 1000.0;
  const double swing_ms =
    (double)motion_max(P4D_MOTION_WOW_MS) + motion_max(P4D_MOTION_FLUTTER_MS);
  const uint32_t swing =
    (uint32_t)ceil(swing_ms * sample_rate_hz / 1000.0 - 1.0e-9);
  m->d0    = swing + P4D_MOTION_MARGIN;
  m->reach = (int64_t)m->d0 + swing + P4D_MOTION_MARGIN + 1;
  // Each stage of the slew limiter forgets what came before within the
  // range of the delay (2 swing) over the slope (motion_audio.c).
  m->slew_settle = 2 * ((int64_t)(2.0 * swing / P4D_MOTION_SLEW) + 2);
  m->glide_len = (int64_t)(P4D_MOTION_GLIDE_MS * 0.001 * sample_rate_hz + 0.5);
  if (m->glide_len < 1) {
    m->glide_len = 1;
  }
  m->inv_glide_len = 1.0 / (double)m->glide_len;
  m->turn_len =
    (int64_t)(P4D_MOTION_TURN_GLIDE_MS * 0.001 * sample_rate_hz + 0.5);
  m->inv_turn_len = 1.0 / (double)m->turn_len;
  m->out_db       = 0.0;
  m->out_gain     = 1.0;
  m->filter_q = (int64_t)(P4D_MOTION_FILTER_AGE_S / (P4D_MOTION_FILTERS - 1) *
                            sample_rate_hz +
                          0.5);
  m->settle   = (int64_t)(2.0 * P4D_MOTION_MAX_GLIDE_S * sample_rate_hz) + 2;

  uint32_t size = 1U;
  while (size < (uint32_t)m->reach + P4D_MOTION_CHUNK + 1U) {
    size <<= 1U;
  }
  m->mask = size - 1U;

  P4dStatus st = P4D_SUCCESS;
  for (unsigned c = 0U; c < 2U && !st; ++c) {
    m->line[c] = (double*)calloc(size + P4D_MOTION_TAPS, sizeof(double));
    st         = m->line[c] ? P4D_SUCCESS : P4D_ERR_NO_MEM;
  }
  m->kernel =
    st ? NULL : (double*)malloc(P4D_MOTION_KERNEL_SIZE * sizeof(double));
  if (!st && !m->kernel) {
    st = P4D_ERR_NO_MEM;
  } else if (!st) {
    p4d_motion_kernel_fill(m->kernel);
  }
  for (unsigned e = 0U; e < N_ENGINES && !st; ++e) {
    st = p4d_engine_new(P4D_KIND_MOD, sample_rate_hz, &m->engine[e]);
  }
  if (st) {
    p4d_motion_free(m);
    return st;
  }

  p4d_motion_activate(m);
  *motion = m;
  return P4D_SUCCESS;
}

void
p4d_motion_free(P4dMotion* motion)
{
  if (motion) {
    for (unsigned e = 0U; e < N_ENGINES; ++e) {
      p4d_engine_free(motion->engine[e]);
    }
    free(motion->line[0]);
    free(motion->line[1]);
    free(motion->kernel);
    free(motion);
  }
}

uint32_t
p4d_motion_latency(const P4dMotion* motion)
{
  return motion->d0;
}

void
p4d_motion_activate(P4dMotion* motion)
{
  p4d_motion_activate_at(motion, 0, 120.0);
}

void
p4d_motion_activate_at(P4dMotion* motion, int64_t frame, double bpm)
{
  P4dMotion* const m = motion;
  for (unsigned e = 0U; e < N_ENGINES; ++e) {
    p4d_engine_activate_at(m->engine[e], frame, bpm);
  }
  m->idx            = frame;
  m->grid           = 0;
  m->spread_zero    = m->settle;
  m->transport_zero = m->settle;
  m->fresh          = true;
  m->audio_dirty    = true;
  m->clock          = p4d_clock_start(bpm);
}

void
p4d_motion_position(const P4dMotion* motion,
                    unsigned         engine,
                    P4dPosition*     position)
{
  p4d_engine_position(motion->engine[engine < N_ENGINES ? engine : 0U],
                      position);
}

void
p4d_motion_transport(P4dMotion* motion, const P4dTransport* transport)
{
  P4dMotion* const    m  = motion;
  const P4dTransport* tr = transport;
  P4dClock* const     c  = &m->clock;
  for (unsigned e = 0U; e < N_ENGINES; ++e) {
    p4d_engine_transport(m->engine[e], tr);
  }

  // The same reading of the transport as the engines' (clock.h).
  int64_t want      = 0;
  double  want_beat = 0.0;
  p4d_clock_expect(c, m->idx, m->sample_rate_hz, &want, &want_beat);
  const P4dClock now    = p4d_clock_follow(c, tr, m->idx, m->sample_rate_hz);
  const int64_t  frame  = now.frame_anchor;
  const bool     locked = now.locked;
  // A jump, a start, or back at speed 1 with the grid elsewhere (after
  // another speed, where the grid counted frames): the grid is the song
  // frame again, and the knots restart on it.
  const bool moved = frame != m->idx + m->grid;
  if (locked && (!c->locked || frame != want || (now.speed == 1.0 && moved))) {
    m->knots_fresh |= moved;
    m->grid = frame - m->idx;
  }
  *c = now;
}

/// The Mod parameters of engine e from Motion's clamped parameters p.
static void
engine_params(const float* p, unsigned e, float* mp)
{
  p4d_param_defaults(p4d_params(P4D_KIND_MOD), mp);
  mp[P4D_MOD_CLOCK]        = p[P4D_MOTION_CLOCK];
  mp[P4D_MOD_RATE_HZ]      = p[P4D_MOTION_RATE_HZ];
  mp[P4D_MOD_PERIOD_BEATS] = p[P4D_MOTION_PERIOD_BEATS];
  mp[P4D_MOD_OCTAVES]      = p[P4D_MOTION_OCTAVES];
  mp[P4D_MOD_LACUNARITY]   = p[P4D_MOTION_LACUNARITY];
  mp[P4D_MOD_PERSISTENCE]  = p[P4D_MOTION_PERSISTENCE];
  mp[P4D_MOD_SPREAD]       = 1.0f;
  mp[P4D_MOD_MORPH_X]      = p[P4D_MOTION_MORPH_X];
  mp[P4D_MOD_MORPH_Y]      = p[P4D_MOTION_MORPH_Y];
  mp[P4D_MOD_MORPH_Z]      = p[P4D_MOTION_MORPH_Z];
  mp[P4D_MOD_SEED]         = p[P4D_MOTION_SEED];
  mp[P4D_MOD_OUT_MIN]      = 0.0f;
  mp[P4D_MOD_OUT_MAX]      = 1.0f;
  mp[P4D_MOD_SMOOTH_MS]    = p[P4D_MOTION_SMOOTH_MS];
  mp[P4D_MOD_LOOP_BEATS]   = p[P4D_MOTION_LOOP_BEATS];
  mp[P4D_MOD_CC_1] = mp[P4D_MOD_CC_2] = mp[P4D_MOD_CC_3] = mp[P4D_MOD_CC_4] =
    (float)P4D_CC_OFF;

  const float transport = p[P4D_MOTION_TRANSPORT_SPREAD];
  if (e == ENGINE_R || e == ENGINE_T) {
    const float spread = e == ENGINE_R ? p[P4D_MOTION_SPREAD] : transport;
    const float mz     = p[P4D_MOTION_MORPH_Z];
    const float shift  = spread * P4D_MOTION_SPREAD_CELLS;
    mp[P4D_MOD_MORPH_Z] =
      mz <= P4D_MOTION_SPREAD_TURN ? mz + shift : mz - shift;
  } else if (e == ENGINE_F) {
    const float ratio        = p[P4D_MOTION_FLUTTER_RATIO];
    mp[P4D_MOD_RATE_HZ]      = p[P4D_MOTION_RATE_HZ] * ratio;
    mp[P4D_MOD_PERIOD_BEATS] = p[P4D_MOTION_PERIOD_BEATS] / ratio;
    mp[P4D_MOD_SPREAD]       = transport;
    mp[P4D_MOD_SEED] =
      (float)(((uint32_t)p[P4D_MOTION_SEED] + P4D_MOTION_FLUTTER_SEED) &
              0xFFFFU);
  }
}

/// Set the glides' targets from the clamped parameters p.
static void
set_targets(P4dMotion* m, const float* p)
{
  const int64_t         len  = m->glide_len;
  const bool            once = m->fresh;
  P4dMotionGlide* const g    = m->glide;
  p4d_motion_glide_to(&g[G_GAIN_DB], p[P4D_MOTION_GAIN_DB], len, once);
  p4d_motion_glide_to(&g[G_PAN], p[P4D_MOTION_PAN_DEPTH], len, once);
  p4d_motion_glide_to(&g[G_WIDTH], p[P4D_MOTION_WIDTH], len, once);
  p4d_motion_glide_to(&g[G_CUTOFF], p[P4D_MOTION_CUTOFF_HZ], len, once);
  p4d_motion_glide_to(&g[G_OCT], p[P4D_MOTION_FILTER_OCT], len, once);
  p4d_motion_glide_to(&g[G_RES], p[P4D_MOTION_RESONANCE], len, once);
  p4d_motion_glide_to(&g[G_WOW], p[P4D_MOTION_WOW_MS], len, once);
  p4d_motion_glide_to(&g[G_FLUTTER], p[P4D_MOTION_FLUTTER_MS], len, once);
  p4d_motion_glide_to(&g[G_MIX], p[P4D_MOTION_MIX], len, once);
  p4d_motion_glide_to(&g[G_OUT_DB], p[P4D_MOTION_OUTPUT_DB], len, once);
  p4d_motion_glide_to(&g[G_ENABLED], p[P4D_MOTION_ENABLED], len, once);
  const int mode = (int)p[P4D_MOTION_FILTER_MODE];
  for (int i = 0; i < 4; ++i) {
    p4d_motion_glide_to(&g[G_DRY + i], mode == i ? 1.0 : 0.0, len, once);
  }
  const int turn = (int)p[P4D_MOTION_TURNTABLE];
  for (int i = 0; i < P4D_MOTION_N_TURNTABLES; ++i) {
    p4d_motion_glide_to(&m->turn[i], turn == i ? 1.0 : 0.0, m->turn_len, once);
  }
  m->fresh = false;
}

/// Whether glide g is, or becomes within this call, other than 0.
static bool
live(const P4dMotionGlide* g)
{
  return g->value != 0.0 || g->target != 0.0;
}

/// The channels of each engine that the frames read (the rest never are).
static const unsigned engine_reads[N_ENGINES] = { 0xFU, 0x5U, 0x3U, 0x8U };

/**
   The channels of each engine whose curves a call needs: 0 for an engine
   that is only advanced.  A channel left out reads 0.5, and its target's
   law gives exactly its neutral value at depth 0 whatever the curve (see
   the top of this file); L keeps the gain, filter and wow channels that
   the control outputs show whenever it runs, so that they keep their bits
   too (the sign of a zero included).
*/
static void
needs(const P4dMotion* m,
      bool             spread,
      bool             transport,
      unsigned         channels[N_ENGINES])
{
  const P4dMotionGlide* const g   = m->glide;
  const int64_t               len = m->glide_len;
  const bool filter = live(&g[G_LOW]) || live(&g[G_BAND]) || live(&g[G_HIGH]) ||
                      p4d_motion_glide_moving(&g[G_DRY], len);
  const bool     gain     = live(&g[G_GAIN_DB]);
  const bool     cut      = filter && live(&g[G_OCT]);
  const bool     wow      = live(&g[G_WOW]);
  const bool     sides    = gain || cut || wow;
  const unsigned gain_bit = 1U << CH_GAIN;
  const unsigned cut_bit  = 1U << CH_FILTER;
  const unsigned wow_bit  = 1U << CH_WOW;

  channels[ENGINE_L] = 0U;
  if (sides || live(&g[G_PAN])) {
    channels[ENGINE_L] = gain_bit | wow_bit | (live(&g[G_OCT]) ? cut_bit : 0U) |
                         (live(&g[G_PAN]) ? 1U << CH_PAN : 0U);
  }
  channels[ENGINE_R] = 0U;
  if (sides && (spread || m->spread_zero < m->settle)) {
    channels[ENGINE_R] = (gain ? gain_bit : 0U) | (cut ? cut_bit : 0U);
  }
  channels[ENGINE_F] = live(&g[G_FLUTTER]) ? 0x3U : 0U;
  // The right wow is T's while the turntable leaves the Mod's wow heard.
  channels[ENGINE_T] = 0U;
  if (wow && live(&m->turn[P4D_MOTION_TURNTABLE_OFF]) &&
      (transport || m->transport_zero < m->settle)) {
    channels[ENGINE_T] = wow_bit;
  }
}

/// Run engine e for n frames into the curves of channels (none: advance
/// it); the other curves it reads hold 0.5.
static void
run_engine(P4dMotion*   m,
           unsigned     e,
           const float* mp,
           unsigned     channels,
           uint32_t     n)
{
  float* out[P4D_MAX_CHANNELS] = {
    m->curve[e][0], m->curve[e][1], m->curve[e][2], m->curve[e][3]
  };
  p4d_engine_set_channels(m->engine[e], channels);
  p4d_engine_process(m->engine[e], mp, channels ? out : NULL, n);
  // The buffers of the left-out channels keep their 0.5 from call to call.
  const unsigned fill = engine_reads[e] & ~channels & ~m->neutral[e];
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    if (fill & (1U << c)) {
      for (uint32_t i = 0U; i < P4D_MOTION_CHUNK; ++i) {
        m->curve[e][c][i] = 0.5f;
      }
    }
  }
  m->neutral[e] = (m->neutral[e] | fill) & ~channels;
}
void
p4d_motion_process(P4dMotion*         motion,
                   const float*       params,
                   const float* const in[2],
                   float* const       out[2],
                   float              now[P4D_MOTION_N_NOW],
                   uint32_t           n_frames)
{
  P4dMotion* const     m     = motion;
  const P4dParamTable* table = p4d_params(P4D_KIND_MOTION);

  float p[P4D_MOTION_N_PARAMS];
  for (uint32_t i = 0U; i < P4D_MOTION_N_PARAMS; ++i) {
    p[i] = p4d_param_clamp(&table->params[i], params[i]);
  }
  float mp[N_ENGINES][P4D_MAX_PARAMS];
  for (unsigned e = 0U; e < N_ENGINES; ++e) {
    engine_params(p, e, mp[e]);
  }
  set_targets(m, p);
  const bool spread    = p[P4D_MOTION_SPREAD] != 0.0f;
  const bool transport = p[P4D_MOTION_TRANSPORT_SPREAD] != 0.0f;

  if (!out) {
    // Parameters only: the engines' glides and the controls move on; the
    // audio state is cleared before the next audio.
    for (unsigned e = 0U; e < N_ENGINES; ++e) {
      p4d_engine_process(m->engine[e], mp[e], NULL, n_frames);
    }
    bool moving = true;
    for (uint32_t i = 0U; i < n_frames && moving; ++i) {
      moving = p4d_motion_glides_step(m);
    }
    p4d_motion_turn_step(m, n_frames);
    m->spread_zero    = spread ? 0 : m->spread_zero + n_frames;
    m->transport_zero = transport ? 0 : m->transport_zero + n_frames;
    m->idx += n_frames;
    m->audio_dirty = true;
    return;
  }

  if (m->audio_dirty) {
    p4d_motion_audio_clear(m);
  }

  for (uint32_t done = 0U; done < n_frames;) {
    const uint32_t n =
      n_frames - done < P4D_MOTION_CHUNK ? n_frames - done : P4D_MOTION_CHUNK;

    if (spread) {
      m->spread_zero = 0;
    }
    if (transport) {
      m->transport_zero = 0;
    }
    unsigned channels[N_ENGINES];
    needs(m, spread, transport, channels);
    for (unsigned e = 0U; e < N_ENGINES; ++e) {
      run_engine(m, e, mp[e], channels[e], n);
    }

    p4d_motion_audio_chunk(m, in, out, done, n, now);
    if (!spread) {
      m->spread_zero += n;
    }
    if (!transport) {
      m->transport_zero += n;
    }
    m->idx += n;
    done += n;
  }
}

void
p4d_motion_mod_params(const float* params, unsigned engine, float* mod_params)
{
  const P4dParamTable* table = p4d_params(P4D_KIND_MOTION);

  float p[P4D_MOTION_N_PARAMS];
  for (uint32_t i = 0U; i < P4D_MOTION_N_PARAMS; ++i) {
    p[i] = p4d_param_clamp(&table->params[i], params[i]);
  }
  engine_params(p, engine < N_ENGINES ? engine : ENGINE_L, mod_params);
}
