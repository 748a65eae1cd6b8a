// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The inline display (see display.h).

  The snapshot is a seqlock: run() makes the sequence odd, stores every
  field, and makes it even again; render() reads the sequence, the fields
  and the sequence once more, and keeps the copy only if the sequence was
  even and unchanged (else it tries again, and after a few tries draws the
  last good copy).  Every field is a C11 atomic, so no read is ever torn
  and the race checker sees no race; the data are stored with release and
  loaded with acquire order, which keeps them between the two sequence
  accesses without fences (Boehm, "Can seqlocks get along with programming
  language memory models?", 2012).

  The pictures are drawn by hand into ARGB32 words: opaque pixels only, so
  that a host that takes them as premultiplied (Ardour's cairo surface)
  and one that does not (Carla's Qt image) show the same.  Time runs left
  to right, the playhead is a light vertical line, and the past is drawn
  dimmer than the future.
*/

#include "display.h"

#include "motion.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/// Tries of a reader before it draws its last good copy.
#define P4D_DISPLAY_TRIES 64

#define BG_PAST 0xFF15171BU
#define BG_FUTURE 0xFF1F2227U
#define GRID 0xFF3A3F47U
#define PLAYHEAD 0xFFE8E8E8U

/// Most curves of any display (Motion's four targets).
#define N_CURVES 4U

/// Rows of values: two engines' channels (Motion: left and flutter).
#define N_ROWS 8U

/// What run() publishes.
typedef struct {
  float   params[P4D_MAX_PARAMS];
  int64_t frame; ///< Song frame of the playhead
  double  beat;  ///< Song beat there
  double  bpm;
  bool    rolling;
} Snapshot;

struct P4dDisplayImpl {
  P4dKind    kind;
  double     sample_rate_hz;
  P4dEngine* scratch; ///< Evaluates the previews (render() only)
  uint32_t   n_params;

  // The seqlock (written by run(), read by render()).
  atomic_uint            seq;
  _Atomic(float)         shared_params[P4D_MAX_PARAMS];
  _Atomic(int_least64_t) shared_frame;
  _Atomic(double)        shared_beat;
  _Atomic(double)        shared_bpm;
  atomic_bool            shared_rolling;

  // run()'s own: the song position at frame offset at of this run.
  double   frame;
  double   beat;
  double   bpm;
  double   speed;
  uint32_t at;
  float    last[P4D_MAX_PARAMS];
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

  atomic_init(&d->seq, 0U);
  for (unsigned i = 0U; i < P4D_MAX_PARAMS; ++i) {
    atomic_init(&d->shared_params[i], 0.0f);
  }
  atomic_init(&d->shared_frame, 0);
  atomic_init(&d->shared_beat, 0.0);
  atomic_init(&d->shared_bpm, 120.0);
  atomic_init(&d->shared_rolling, false);

  p4d_param_defaults(p4d_params(kind), d->seen.params);
  d->seen.bpm = 120.0;
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
  P4dDisplay* const d = display;

  d->frame      = 0.0;
  d->beat       = 0.0;
  d->bpm        = 120.0;
  d->speed      = 1.0;
  d->at         = 0U;
  d->dirty      = true;
  d->since_draw = d->sample_rate_hz;
}

/// Move run()'s song position on to frame offset to of this run.
static void
advance(P4dDisplay* d, uint32_t to)
{
  const double n = (double)(to > d->at ? to - d->at : 0U) * d->speed;
  d->frame += n;
  d->beat += n * d->bpm / (60.0 * d->sample_rate_hz);
  d->at = to > d->at ? to : d->at;
}

void
p4d_display_transport(P4dDisplay*         display,
                      const P4dTransport* transport,
                      uint32_t            at)
{
  P4dDisplay* const   d  = display;
  const P4dTransport* tr = transport;

  advance(d, at);
  // The engines' own limits (engine.c): shuttling speeds, sane tempos.
  if (tr->has_speed && fabs(tr->speed) <= 64.0 && tr->speed != d->speed) {
    d->speed = tr->speed;
    d->dirty = true;
  }
  if (tr->has_bpm && tr->bpm > 0.0 && tr->bpm < 1.0e6 && tr->bpm != d->bpm) {
    d->bpm   = tr->bpm;
    d->dirty = true;
  }
  if (tr->has_frame && (double)tr->frame != d->frame) {
    d->frame = (double)tr->frame;
    d->dirty = true;
  }
  if (tr->has_beat && isfinite(tr->beat)) {
    d->beat = tr->beat;
  }
}

bool
p4d_display_run(P4dDisplay* display, const float* params, uint32_t n_frames)
{
  P4dDisplay* const d = display;

  advance(d, n_frames);
  d->at = 0U;
  for (uint32_t i = 0U; i < d->n_params; ++i) {
    if (params[i] != d->last[i]) {
      d->last[i] = params[i];
      d->dirty   = true;
    }
  }

  // The seqlock's write side (see the top of this file).
  const unsigned s = atomic_load_explicit(&d->seq, memory_order_relaxed);
  atomic_store_explicit(&d->seq, s + 1U, memory_order_relaxed);
  for (uint32_t i = 0U; i < d->n_params; ++i) {
    atomic_store_explicit(
      &d->shared_params[i], params[i], memory_order_release);
  }
  const double frame = floor(d->frame);
  atomic_store_explicit(&d->shared_frame,
                        frame > -9.0e15 && frame < 9.0e15 ? (int64_t)frame : 0,
                        memory_order_release);
  atomic_store_explicit(&d->shared_beat, d->beat, memory_order_release);
  atomic_store_explicit(&d->shared_bpm, d->bpm, memory_order_release);
  atomic_store_explicit(
    &d->shared_rolling, d->speed != 0.0, memory_order_release);
  atomic_store_explicit(&d->seq, s + 2U, memory_order_release);

  d->since_draw += n_frames;
  if ((d->dirty || d->speed != 0.0) &&
      d->since_draw >= d->sample_rate_hz / P4D_DISPLAY_FPS) {
    d->dirty      = false;
    d->since_draw = 0.0;
    return true;
  }
  return false;
}

/// Copy the snapshot into d->seen; keep the last good copy if run() keeps
/// writing.
static void
read_snapshot(P4dDisplay* d)
{
  for (int t = 0; t < P4D_DISPLAY_TRIES; ++t) {
    const unsigned s = atomic_load_explicit(&d->seq, memory_order_acquire);
    if (s == 0U) {
      return; // Nothing published yet: the defaults at frame 0
    }
    if (s & 1U) {
      continue;
    }

    Snapshot copy;
    for (uint32_t i = 0U; i < d->n_params; ++i) {
      copy.params[i] =
        atomic_load_explicit(&d->shared_params[i], memory_order_acquire);
    }
    copy.frame = atomic_load_explicit(&d->shared_frame, memory_order_acquire);
    copy.beat  = atomic_load_explicit(&d->shared_beat, memory_order_acquire);
    copy.bpm   = atomic_load_explicit(&d->shared_bpm, memory_order_acquire);
    copy.rolling =
      atomic_load_explicit(&d->shared_rolling, memory_order_acquire);
    if (atomic_load_explicit(&d->seq, memory_order_relaxed) == s) {
      d->seen = copy;
      return;
    }
  }
}

int64_t
p4d_display_offset(uint32_t w, uint32_t x, double sample_rate_hz)
{
  const double   span = P4D_DISPLAY_PAST_S + P4D_DISPLAY_FUTURE_S;
  const uint32_t head = (uint32_t)((double)w * (P4D_DISPLAY_PAST_S / span));
  const double   dx   = (double)x - (double)head;
  return (int64_t)llround(dx * span * sample_rate_hz / (double)w);
}

int
p4d_display_row(uint32_t h, double v, double low, double high)
{
  // One row of margin at the top and the bottom.
  const double bottom = (double)h - 2.0;
  if (!(high > low)) {
    return (int)h / 2;
  }
  double r = 1.0 + (high - v) / (high - low) * (bottom - 1.0);
  r        = r < 1.0 ? 1.0 : r > bottom ? bottom : r;
  return (int)lround(r);
}

/// Darken an opaque colour to about 55 %.
static uint32_t
dim(uint32_t argb)
{
  const uint32_t r = (argb >> 16U) & 0xFFU;
  const uint32_t g = (argb >> 8U) & 0xFFU;
  const uint32_t b = argb & 0xFFU;
  return 0xFF000000U | ((r * 9U / 16U) << 16U) | ((g * 9U / 16U) << 8U) |
         (b * 9U / 16U);
}

/// The column of the playhead (where p4d_display_offset() is 0).
static uint32_t
head_column(uint32_t w)
{
  const double span = P4D_DISPLAY_PAST_S + P4D_DISPLAY_FUTURE_S;
  return (uint32_t)((double)w * (P4D_DISPLAY_PAST_S / span));
}

/// The background, a dashed horizontal line at row grid (if >= 0).
static void
draw_background(P4dDisplay* d, uint32_t w, uint32_t h, int grid)
{
  const uint32_t head = head_column(w);
  for (uint32_t y = 0U; y < h; ++y) {
    uint32_t* const row = d->pixels + (size_t)y * w;
    for (uint32_t x = 0U; x < w; ++x) {
      row[x] = x < head ? BG_PAST : BG_FUTURE;
    }
  }
  if (grid >= 0 && grid < (int)h) {
    uint32_t* const row = d->pixels + (size_t)grid * w;
    for (uint32_t x = 0U; x < w; x += 4U) {
      row[x] = GRID;
      if (x + 1U < w) {
        row[x + 1U] = GRID;
      }
    }
  }
}

/// A curve of one value per column on the scale low..high: in each column
/// a vertical run from the value's row half-way to its neighbours' rows,
/// so the columns join.
static void
draw_curve(P4dDisplay*  d,
           uint32_t     w,
           uint32_t     h,
           const float* v,
           double       low,
           double       high,
           uint32_t     colour)
{
  const uint32_t head  = head_column(w);
  const uint32_t faint = dim(colour);
  int            prev  = p4d_display_row(h, v[0], low, high);
  for (uint32_t x = 0U; x < w; ++x) {
    const int r    = p4d_display_row(h, v[x], low, high);
    const int next = x + 1U < w ? p4d_display_row(h, v[x + 1U], low, high) : r;
    const int a    = (r + prev) / 2;
    const int b    = (r + next) / 2;
    int       top  = r < a ? r : a;
    int       bot  = r > a ? r : a;
    top            = b < top ? b : top;
    bot            = b > bot ? b : bot;
    for (int y = top; y <= bot; ++y) {
      d->pixels[(size_t)y * w + x] = x < head ? faint : colour;
    }
    prev = r;
  }
}

static void
draw_playhead(P4dDisplay* d, uint32_t w, uint32_t h)
{
  const uint32_t head = head_column(w);
  for (uint32_t y = 0U; y < h; ++y) {
    d->pixels[(size_t)y * w + head] = PLAYHEAD;
  }
}

static const uint32_t curve_colour[N_CURVES] = {
  P4D_DISPLAY_CURVE_1,
  P4D_DISPLAY_CURVE_2,
  P4D_DISPLAY_CURVE_3,
  P4D_DISPLAY_CURVE_4,
};

/// The row of values of curve k.
static float*
values_row(P4dDisplay* d, unsigned k)
{
  return d->values + (size_t)k * d->capacity_w;
}

/// Preview the scratch engine with params over the columns into the rows
/// first to first + 3 of the values.
static void
preview(P4dDisplay* d, const float* params, unsigned first, uint32_t w)
{
  const Snapshot* const s  = &d->seen;
  const P4dTransport    at = { true,     true, true,    true,
                               s->frame, 1.0,  s->beat, s->bpm };
  float*                out[P4D_MAX_CHANNELS];
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    out[c] = values_row(d, first + c);
  }
  p4d_engine_preview(d->scratch, params, &at, d->offsets, w, out);
}

/// Mod and Mod CV: the four channels on the scale out_min..out_max.
static void
draw_mod(P4dDisplay* d, uint32_t w, uint32_t h)
{
  preview(d, d->seen.params, 0U, w);
  const double a    = d->seen.params[P4D_MOD_OUT_MIN];
  const double b    = d->seen.params[P4D_MOD_OUT_MAX];
  double       low  = a < b ? a : b;
  double       high = a < b ? b : a;
  if (!(high - low > 1.0e-6)) {
    low -= 0.5;
    high += 0.5;
  }
  draw_background(d, w, h, p4d_display_row(h, 0.5 * (low + high), low, high));
  for (unsigned c = P4D_MAX_CHANNELS; c-- > 0U;) {
    draw_curve(d, w, h, values_row(d, c), low, high, curve_colour[c]);
  }
}

/// Noise: each channel's texture envelope in dB (0 dB: the level).
static void
draw_noise(P4dDisplay* d, uint32_t w, uint32_t h)
{
  preview(d, d->seen.params, 0U, w);
  const double low  = P4D_DISPLAY_NOISE_BOTTOM_DB;
  const double high = P4D_DISPLAY_NOISE_TOP_DB;
  for (unsigned c = 0U; c < 2U; ++c) {
    float* const v = values_row(d, c);
    for (uint32_t x = 0U; x < w; ++x) {
      v[x] = (float)(20.0 * log10(v[x] > 1.0e-6f ? (double)v[x] : 1.0e-6));
    }
  }
  draw_background(d, w, h, p4d_display_row(h, 0.0, low, high));
  draw_curve(d, w, h, values_row(d, 1U), low, high, curve_colour[1]);
  draw_curve(d, w, h, values_row(d, 0U), low, high, curve_colour[0]);
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
  preview(d, mp, 0U, w);
  p4d_motion_mod_params(p, 2U, mp);
  preview(d, mp, 4U, w);

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

  draw_background(d, w, h, p4d_display_row(h, 0.0, -1.0, 1.0));
  for (unsigned k = N_CURVES; k-- > 0U;) {
    if (shown[k]) {
      draw_curve(d, w, h, values_row(d, k), -1.0, 1.0, curve_colour[k]);
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

  // A 2:1 image, never higher than the host allows; sizes past any
  // screen are refused.
  const uint32_t height = h < w / 2U ? h : w / 2U;
  if (w < 8U || height < 8U || w > 8192U) {
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
