// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The inline display (see display.h).

  The snapshot is a seqlock: run() makes the sequence odd, stores every
  word of the snapshot, and makes it even again; render() reads the
  sequence, the words and the sequence once more, and keeps the copy only
  if the sequence was even and unchanged (else it tries again, and after a
  few tries draws the last good copy).  The words are 64-bit C11 atomics
  (lock-free, asserted below, so run() never takes libatomic's lock), so no
  read is ever torn and the race checker sees no race; they are stored with
  release and loaded with acquire order, which keeps them between the two
  sequence accesses without fences (Boehm, "Can seqlocks get along with
  programming language memory models?", 2012).  The words start as a
  snapshot of the defaults, so every even sequence, 0 included (it wraps),
  holds a whole snapshot.

  What is published is only what the picture depends on: the controls, and
  per previewed engine the song position (Seconds, Beats) or the playing
  voice's free-running time line (Free), as the engine reports it
  (p4d_engine_position()).  So a picture that cannot have changed (a song
  clock with the transport stopped) is neither published nor redrawn,
  while a free-running one moves on whatever the transport does.

  The pictures are drawn into ARGB32 words by the drawing module
  (src/draw/: its conventions and the dark theme's opaque colours): time
  runs left to right, the playhead is a light vertical line, and the past
  is drawn dimmer than the future.
*/

#include "display.h"

#include "draw.h"
#include "motion.h"
#include "theme.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/// Tries of a reader before it draws its last good copy.
#define P4D_DISPLAY_TRIES 64

/// Most curves of any display (Motion's four targets), each in a colour
/// of its own.
#define N_CURVES 4U
_Static_assert(N_CURVES <= P4D_THEME_CHANNELS, "a curve has no colour");

/// Rows of values: two engines' channels (Motion: left and flutter).
#define N_ROWS 8U

/// Engines previewed: Motion's left side (engine 0) and flutter (engine 2);
/// Mod and Noise use the first.
#define N_ENGINES 2U

/// What run() publishes.
typedef struct {
  float       params[P4D_MAX_PARAMS];
  P4dPosition at[N_ENGINES];
} Snapshot;

#define N_WORDS (sizeof(Snapshot) / sizeof(unsigned long long))

/// A snapshot as the words the seqlock stores.
typedef union {
  Snapshot           s;
  unsigned long long w[N_WORDS];
} Words;

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "64-bit atomics take a lock");
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "32-bit atomics take a lock");
_Static_assert(sizeof(unsigned long long) == 8U, "a word is not 64 bits");
_Static_assert(sizeof(Snapshot) % 8U == 0U, "the snapshot is not whole words");

struct P4dDisplayImpl {
  P4dKind    kind;
  double     sample_rate_hz;
  P4dEngine* scratch; ///< Evaluates the previews (render() only)
  uint32_t   n_params;

  // The seqlock (written by run(), read by render()).
  atomic_uint   seq;
  atomic_ullong shared[N_WORDS];

  // run()'s own.
  Snapshot last;       ///< What was published last
  bool     dirty;      ///< Something to show that was not drawn yet
  double   since_draw; ///< Frames since the last queued draw

  // render()'s own.
  Snapshot       seen; ///< The last good copy
  uint32_t*      pixels;
  int64_t*       offsets;
  float*         values; ///< N_ROWS rows of capacity_w floats
  uint32_t       capacity_px;
  uint32_t       capacity_w;
  P4dIdpySurface surface;
};

P4dDisplay*
p4d_display_new(P4dKind kind, double sample_rate_hz)
{
  P4dDisplay* const d = (P4dDisplay*)calloc(1U, sizeof(P4dDisplay));
  if (!d) {
    return NULL;
  }

  d->kind           = kind;
  d->sample_rate_hz = sample_rate_hz;
  d->n_params       = p4d_params(kind)->n_params;
  const P4dKind preview =
    kind == P4D_KIND_NOISE ? P4D_KIND_NOISE : P4D_KIND_MOD;
  if (p4d_engine_new(preview, sample_rate_hz, &d->scratch)) {
    free(d);
    return NULL;
  }

  // The defaults at song frame 0, as the engines start.
  p4d_param_defaults(p4d_params(kind), d->last.params);
  for (unsigned k = 0U; k < N_ENGINES; ++k) {
    d->last.at[k].bpm = 120.0;
  }
  d->seen = d->last;
  Words u;
  u.s = d->last;
  atomic_init(&d->seq, 0U);
  for (size_t i = 0U; i < N_WORDS; ++i) {
    atomic_init(&d->shared[i], u.w[i]);
  }

  p4d_display_activate(d);
  return d;
}

void
p4d_display_free(P4dDisplay* display)
{
  if (display) {
    p4d_engine_free(display->scratch);
    free(display->pixels);
    free(display);
  }
}

void
p4d_display_activate(P4dDisplay* display)
{
  display->dirty      = true;
  display->since_draw = display->sample_rate_hz;
}

/// Whether the clock of params runs free (the picture then follows the
/// engine's own time line, not the song).
static bool
free_running(P4dKind kind, const float* params)
{
  if (kind == P4D_KIND_NOISE) {
    return params[P4D_NOISE_CLOCK] != 0.0f;
  }
  const unsigned clock =
    kind == P4D_KIND_MOTION ? P4D_MOTION_CLOCK : P4D_MOD_CLOCK;
  return params[clock] == (float)P4D_CLOCK_FREE;
}

/// Whether a and b give the same picture.
static bool
same_snapshot(const Snapshot* a, const Snapshot* b, uint32_t n_params)
{
  for (uint32_t i = 0U; i < n_params; ++i) {
    if (a->params[i] != b->params[i]) {
      return false;
    }
  }
  for (unsigned k = 0U; k < N_ENGINES; ++k) {
    const P4dPosition* const p = &a->at[k];
    const P4dPosition* const q = &b->at[k];
    if (p->frame != q->frame || p->beat != q->beat || p->bpm != q->bpm ||
        p->speed != q->speed || p->free_index != q->free_index) {
      return false;
    }
    for (unsigned l = 0U; l < P4D_ENGINE_LINES; ++l) {
      if (p->free_phase0[l] != q->free_phase0[l]) {
        return false;
      }
    }
  }
  return true;
}

/**
   The seqlock's write side (see the top of this file): publish params and
   the positions at (one per previewed engine) if the picture they give
   differs from the last one published.  Returns whether to queue a draw.
*/
static bool
publish(P4dDisplay*        d,
        const float*       params,
        const P4dPosition* at,
        uint32_t           n_frames)
{
  // What the picture does not depend on stays 0.
  static const Snapshot blank;
  Snapshot              s = blank;
  for (uint32_t i = 0U; i < d->n_params; ++i) {
    s.params[i] = params[i];
  }
  const bool free_clock = free_running(d->kind, params);
  for (unsigned k = 0U; k < (d->kind == P4D_KIND_MOTION ? 2U : 1U); ++k) {
    P4dPosition* const p = &s.at[k];
    if (free_clock) {
      p->free_index = at[k].free_index;
      for (unsigned l = 0U; l < P4D_ENGINE_LINES; ++l) {
        p->free_phase0[l] = at[k].free_phase0[l];
      }
    } else {
      p->frame = at[k].frame;
      p->beat  = at[k].beat;
      p->bpm   = at[k].bpm;
    }
  }

  if (!same_snapshot(&s, &d->last, d->n_params)) {
    d->last  = s;
    d->dirty = true;

    Words u;
    u.s = s;

    const unsigned q = atomic_load_explicit(&d->seq, memory_order_relaxed);
    atomic_store_explicit(&d->seq, q + 1U, memory_order_relaxed);
    for (size_t i = 0U; i < N_WORDS; ++i) {
      atomic_store_explicit(&d->shared[i], u.w[i], memory_order_release);
    }
    atomic_store_explicit(&d->seq, q + 2U, memory_order_release);
  }

  d->since_draw += n_frames;
  if (d->dirty && d->since_draw >= d->sample_rate_hz / P4D_DISPLAY_FPS) {
    d->dirty      = false;
    d->since_draw = 0.0;
    return true;
  }
  return false;
}

bool
p4d_display_run(P4dDisplay*      display,
                const float*     params,
                const P4dEngine* engine,
                const P4dMotion* motion,
                uint32_t         n_frames)
{
  P4dPosition at[N_ENGINES];
  if (motion) {
    p4d_motion_position(motion, 0U, &at[0]);
    p4d_motion_position(motion, 2U, &at[1]);
  } else {
    p4d_engine_position(engine, &at[0]);
    at[1] = at[0]; // unused
  }
  return publish(display, params, at, n_frames);
}

/// Copy the snapshot into d->seen; keep the last good copy if run() keeps
/// writing.
static void
read_snapshot(P4dDisplay* d)
{
  for (int t = 0; t < P4D_DISPLAY_TRIES; ++t) {
    const unsigned s = atomic_load_explicit(&d->seq, memory_order_acquire);
    if (s & 1U) {
      continue;
    }

    Words u;
    for (size_t i = 0U; i < N_WORDS; ++i) {
      u.w[i] = atomic_load_explicit(&d->shared[i], memory_order_acquire);
    }
    if (atomic_load_explicit(&d->seq, memory_order_relaxed) == s) {
      d->seen = u.s;
      return;
    }
  }
}

/// The column of the playhead (where p4d_display_offset() is 0).
static uint32_t
head_column(uint32_t w)
{
  const double span = P4D_DISPLAY_PAST_S + P4D_DISPLAY_FUTURE_S;
  return (uint32_t)((double)w * (P4D_DISPLAY_PAST_S / span));
}

int64_t
p4d_display_offset(uint32_t w, uint32_t x, double sample_rate_hz)
{
  const double span = P4D_DISPLAY_PAST_S + P4D_DISPLAY_FUTURE_S;
  const double dx   = (double)x - (double)head_column(w);
  return (int64_t)llround(dx * span * sample_rate_hz / (double)w);
}

/// The image w by h in d->pixels, as the drawing module takes it.
static P4dDrawSurface
canvas(const P4dDisplay* d, uint32_t w, uint32_t h)
{
  const P4dDrawSurface s = { d->pixels, w, h, w };
  return s;
}

/// The background of the time line, with a dashed line at row grid.
static void
draw_background(P4dDisplay* d, uint32_t w, uint32_t h, int grid)
{
  const P4dDrawSurface s = canvas(d, w, h);
  p4d_draw_background(&s, &p4d_theme_dark, head_column(w));
  p4d_draw_dashes(&s, grid, p4d_theme_dark.grid.argb);
}

/// Curve k (in channel k's colour) of values v on the scale low..high.
static void
draw_curve(P4dDisplay*  d,
           uint32_t     w,
           uint32_t     h,
           const float* v,
           double       low,
           double       high,
           unsigned     k)
{
  const P4dDrawSurface s = canvas(d, w, h);
  p4d_draw_curve(
    &s, v, low, high, p4d_theme_dark.channel[k].argb, head_column(w));
}

static void
draw_playhead(P4dDisplay* d, uint32_t w, uint32_t h)
{
  const P4dDrawSurface s = canvas(d, w, h);
  p4d_draw_column(&s, head_column(w), p4d_theme_dark.playhead.argb);
}

/// The row of values of curve k.
static float*
values_row(P4dDisplay* d, unsigned k)
{
  return d->values + (size_t)k * d->capacity_w;
}

/// Preview the scratch engine with params from the position of engine k
/// over the columns into the rows first to first + 3 of the values.
static void
preview(P4dDisplay*  d,
        const float* params,
        unsigned     k,
        unsigned     first,
        uint32_t     w)
{
  float* out[P4D_MAX_CHANNELS];
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    out[c] = values_row(d, first + c);
  }
  p4d_engine_preview(d->scratch, params, &d->seen.at[k], d->offsets, w, out);
}

/// Mod and Mod CV: the four channels on the scale out_min..out_max.
static void
draw_mod(P4dDisplay* d, uint32_t w, uint32_t h)
{
  preview(d, d->seen.params, 0U, 0U, w);
  const double a    = d->seen.params[P4D_MOD_OUT_MIN];
  const double b    = d->seen.params[P4D_MOD_OUT_MAX];
  double       low  = a < b ? a : b;
  double       high = a < b ? b : a;
  p4d_draw_widen(&low, &high, 1.0e-6);
  draw_background(d, w, h, p4d_draw_row(h, 0.5 * (low + high), low, high));
  for (unsigned c = P4D_MAX_CHANNELS; c-- > 0U;) {
    draw_curve(d, w, h, values_row(d, c), low, high, c);
  }
}

/// Noise: each channel's texture envelope in dB (0 dB: the level).
static void
draw_noise(P4dDisplay* d, uint32_t w, uint32_t h)
{
  preview(d, d->seen.params, 0U, 0U, w);
  const double low  = P4D_DISPLAY_NOISE_BOTTOM_DB;
  const double high = P4D_DISPLAY_NOISE_TOP_DB;
  for (unsigned c = 0U; c < 2U; ++c) {
    float* const v = values_row(d, c);
    for (uint32_t x = 0U; x < w; ++x) {
      v[x] = (float)(20.0 * log10(v[x] > 1.0e-6f ? (double)v[x] : 1.0e-6));
    }
  }
  draw_background(d, w, h, p4d_draw_row(h, 0.0, low, high));
  draw_curve(d, w, h, values_row(d, 1U), low, high, 1U);
  draw_curve(d, w, h, values_row(d, 0U), low, high, 0U);
}

/// Motion: where each target is within its swing, -1 to 1 (gain, pan,
/// filter, wobble), left side; a target at depth 0 is left out.
static void
draw_motion(P4dDisplay* d, uint32_t w, uint32_t h)
{
  const float* const p = d->seen.params;
  float              mp[P4D_MAX_PARAMS];

  // Left: rows 0 to 3 (gain, pan, filter, wow); flutter: rows 4 to 7.
  p4d_motion_mod_params(p, 0U, mp);
  preview(d, mp, 0U, 0U, w);
  p4d_motion_mod_params(p, 2U, mp);
  preview(d, mp, 1U, 4U, w);

  const float wow             = p[P4D_MOTION_WOW_MS];
  const float flutter         = p[P4D_MOTION_FLUTTER_MS];
  const bool  shown[N_CURVES] = {
     p[P4D_MOTION_GAIN_DB] > 0.0f,
     p[P4D_MOTION_PAN_DEPTH] > 0.0f,
     p[P4D_MOTION_FILTER_MODE] != (float)P4D_MOTION_FILTER_OFF &&
       p[P4D_MOTION_FILTER_OCT] > 0.0f,
     wow + flutter > 0.0f,
  };
  for (unsigned k = 0U; k < N_CURVES; ++k) {
    float* const v = values_row(d, k);
    for (uint32_t x = 0U; x < w; ++x) {
      v[x] = 2.0f * v[x] - 1.0f;
    }
  }
  if (shown[3]) {
    float* const       v = values_row(d, 3U);
    const float* const f = values_row(d, 4U);
    for (uint32_t x = 0U; x < w; ++x) {
      v[x] = (wow * v[x] + flutter * (2.0f * f[x] - 1.0f)) / (wow + flutter);
    }
  }

  draw_background(d, w, h, p4d_draw_row(h, 0.0, -1.0, 1.0));
  for (unsigned k = N_CURVES; k-- > 0U;) {
    if (shown[k]) {
      draw_curve(d, w, h, values_row(d, k), -1.0, 1.0, k);
    }
  }
}

/// Make room for an image w by h; false when out of memory.
static bool
reserve(P4dDisplay* d, uint32_t w, uint32_t h)
{
  if ((size_t)w * h <= d->capacity_px && w <= d->capacity_w) {
    return true;
  }

  const size_t px    = (size_t)w * h;
  const size_t bytes = px * sizeof(uint32_t) + (size_t)w * sizeof(int64_t) +
                       N_ROWS * (size_t)w * sizeof(float);
  void* const block = malloc(bytes);
  if (!block) {
    return false;
  }

  free(d->pixels);
  d->pixels      = (uint32_t*)block;
  d->offsets     = (int64_t*)(d->pixels + px);
  d->values      = (float*)(d->offsets + w);
  d->capacity_px = (uint32_t)px;
  d->capacity_w  = w;
  return true;
}

P4dIdpySurface*
p4d_display_render(P4dDisplay* display, uint32_t w, uint32_t h)
{
  P4dDisplay* const d = display;

  // A 2:1 image, never higher than the host allows nor wider than
  // P4D_DISPLAY_MAX_W (at most 8 MiB of pixels).
  w                     = w < P4D_DISPLAY_MAX_W ? w : P4D_DISPLAY_MAX_W;
  const uint32_t height = h < w / 2U ? h : w / 2U;
  if (w < 8U || height < 8U) {
    return NULL;
  }
  if (!reserve(d, w, height)) {
    return NULL;
  }

  read_snapshot(d);
  for (uint32_t x = 0U; x < w; ++x) {
    d->offsets[x] = p4d_display_offset(w, x, d->sample_rate_hz);
  }

  if (d->kind == P4D_KIND_MOTION) {
    draw_motion(d, w, height);
  } else if (d->kind == P4D_KIND_NOISE) {
    draw_noise(d, w, height);
  } else {
    draw_mod(d, w, height);
  }
  draw_playhead(d, w, height);

  d->surface.data   = (unsigned char*)d->pixels;
  d->surface.width  = (int)w;
  d->surface.height = (int)height;
  d->surface.stride = (int)(w * sizeof(uint32_t));
  return &d->surface;
}
