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

  What is drawn comes from the kind's class (src/kinds/kind.h): its
  preview() evaluates the curves and says their scale; this file draws
  them the same way for every kind.

  The pictures are drawn into ARGB32 words by the drawing module
  (src/draw/: its conventions and the dark theme's opaque colours): time
  runs left to right, the playhead is a light vertical line, and the past
  is drawn dimmer than the future.
*/

#include "display.h"

#include "display_spectrum.h"
#include "draw.h"
#include "kind.h"
#include "noise.h"
#include "texture.h"
#include "theme.h"
#include "voice.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/// Tries of a reader before it draws its last good copy.
#define P4D_DISPLAY_TRIES 64

/// Most curves of any display (Motion's four targets), each in a colour
/// of its own.
#define N_CURVES P4D_PREVIEW_CURVES
_Static_assert(N_CURVES <= P4D_THEME_CHANNELS, "a curve has no colour");

/// Rows of values a preview fills (Motion: left and flutter channels).
#define N_ROWS P4D_PREVIEW_ROWS

/// Engines previewed, each at its own position (Motion: its left side and
/// flutter; the others one).
#define N_ENGINES P4D_PREVIEW_POSITIONS

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
  const P4dKindClass* kind;
  double              sample_rate_hz;
  P4dEngine*          scratch; ///< Evaluates the previews (render() only)
  uint32_t            n_params;

  // The seqlock (written by run(), read by render()).
  atomic_uint   seq;
  atomic_ullong shared[N_WORDS];

  // run()'s own.
  Snapshot last;       ///< What was published last
  bool     dirty;      ///< Something to show that was not drawn yet
  double   since_draw; ///< Frames since the last queued draw

  // render()'s own.
  Snapshot       seen;     ///< The last good copy
  bool           timeline; ///< Whether the last picture has a time line
  void*          block;    ///< Where the arrays below are allocated
  int64_t*       offsets;  ///< capacity_n frames (first: 8-byte aligned)
  int64_t*       picks;    ///< capacity_n frames: those evaluated at once
  float*         values;   ///< N_ROWS rows of capacity_n floats
  float*         picked;   ///< N_ROWS rows of capacity_n: picks' values
  uint32_t*      pixels;
  uint32_t*      backdrop; ///< The Noise's backdrop as last drawn
  bool*          bends;    ///< Per column: its inner samples evaluated
  uint32_t       capacity_px;
  uint32_t       capacity_n;
  P4dIdpySurface surface;

  // The backdrop's cache: what it was drawn for (render()'s own).
  bool     backdrop_valid;
  bool     backdrop_timeline; ///< What the backdrop returned
  uint32_t backdrop_w;
  uint32_t backdrop_h;
  float    backdrop_params[P4D_MAX_PARAMS];
};

P4dDisplay*
p4d_display_new(const P4dKindClass* kind, double sample_rate_hz)
{
  P4dDisplay* const d = (P4dDisplay*)calloc(1U, sizeof(P4dDisplay));
  if (!d) {
    return NULL;
  }

  d->kind           = kind;
  d->sample_rate_hz = sample_rate_hz;
  d->n_params       = p4d_kind_params(kind)->n_params;
  if (kind->scratch_new(sample_rate_hz, &d->scratch)) {
    free(d);
    return NULL;
  }

  // The defaults at song frame 0, as the engines start.
  p4d_param_defaults(p4d_kind_params(kind), d->last.params);
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
    free(display->block);
    free(display);
  }
}

void
p4d_display_activate(P4dDisplay* display)
{
  display->dirty      = true;
  display->since_draw = display->sample_rate_hz;
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
  // A free-running clock: the picture follows the engine's own time line,
  // not the song.
  const bool free_clock = p4d_kind_clock(d->kind, params) == P4D_CLOCK_FREE;
  for (unsigned k = 0U; k < d->kind->n_positions; ++k) {
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
p4d_display_run(P4dDisplay*  display,
                const float* params,
                const void*  processor,
                uint32_t     n_frames)
{
  const P4dKindClass* const kind = display->kind;
  P4dPosition               at[N_ENGINES];
  for (unsigned k = 0U; k < N_ENGINES; ++k) {
    if (k < kind->n_positions) {
      kind->position(processor, k, &at[k]);
    } else {
      at[k] = at[0]; // unused
    }
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

/**
   What a kind draws under its curves (NULL: nothing) into s, with row as
   scratch (s->width + 1 floats); returns whether the time line (the past's
   background, the dashed line, the curves and the playhead) is drawn too.
*/
typedef bool (*Backdrop)(const P4dDisplay*     d,
                         const P4dDrawSurface* s,
                         float*                row);

static bool
noise_backdrop(const P4dDisplay* d, const P4dDrawSurface* s, float* row);

/// Whether a kind's curves at the controls p are smooth: no feature
/// narrower than its columns that its columns' edges do not announce, so
/// sample() may skip the inner samples of columns that do not bend.
typedef bool (*Smooth)(const float* p);

/// fBm (Mod, Motion): every octave a smooth curve.
static bool
smooth_always(const float* p)
{
  (void)p;
  return true;
}

/// The Noise's envelope is smooth with its gusts alone (and gusts
/// events): grit is a fast flicker, drops are narrower than a column, and
/// a wave crashes within one.
static bool
smooth_noise(const float* p)
{
  const float events = p[P4D_NOISE_EVENTS];
  return p[P4D_NOISE_GRIT] == 0.0f &&
         (events == (float)P4D_TEXTURE_EVENTS_OFF ||
          events == (float)P4D_TEXTURE_EVENTS_GUSTS);
}

/// What sets the pace of a kind's time line: its clock control, its rate
/// in Hz and its period in beats (on a song beats clock), or -1 for none;
/// its backdrop; and when its curves are smooth (NULL: never).
typedef struct {
  int      clock;
  int      rate_hz;
  int      period_beats;
  Backdrop backdrop;
  Smooth   smooth;
} Pace;

static const Pace pace[] = {
  [P4D_KIND_MOD]    = { P4D_MOD_CLOCK,
                        P4D_MOD_RATE_HZ,
                        P4D_MOD_PERIOD_BEATS,
                        NULL,
                        smooth_always },
  [P4D_KIND_NOISE]  = { P4D_NOISE_CLOCK,
                        P4D_NOISE_GUST_HZ,
                        -1,
                        noise_backdrop,
                        smooth_noise },
  [P4D_KIND_MOTION] = { P4D_MOTION_CLOCK,
                        P4D_MOTION_RATE_HZ,
                        P4D_MOTION_PERIOD_BEATS,
                        NULL,
                        smooth_always },
  [P4D_KIND_IMAGE]  = { -1, -1, -1, NULL, NULL },
};

double
p4d_display_span(const P4dKindClass* kind, const float* params, double bpm)
{
  const P4dKind k = kind->params;
  if ((size_t)k >= sizeof(pace) / sizeof(pace[0]) || pace[k].rate_hz < 0) {
    return P4D_DISPLAY_MAX_S;
  }
  const Pace* const p = &pace[k];
  const bool        beats =
    p->period_beats >= 0 && params[p->clock] == (float)P4D_CLOCK_SONG_BEATS;
  const double tempo  = bpm > 0.0 && bpm < P4D_MAX_BPM ? bpm : 120.0;
  const double period = beats ? params[p->period_beats] * 60.0 / tempo
                              : 1.0 / (double)params[p->rate_hz];
  const double span   = P4D_DISPLAY_CYCLES * period;
  // NaN (a NaN control) and infinity (a rate of 0) take the widest window.
  if (!(span >= P4D_DISPLAY_MIN_S)) {
    return isnan(span) ? P4D_DISPLAY_MAX_S : P4D_DISPLAY_MIN_S;
  }
  return span < P4D_DISPLAY_MAX_S ? span : P4D_DISPLAY_MAX_S;
}

uint32_t
p4d_display_head(uint32_t w)
{
  return (uint32_t)((double)w * P4D_DISPLAY_PAST);
}

int64_t
p4d_display_offset(double span_s, uint32_t w, double x, double sample_rate_hz)
{
  const double dx = x - (double)p4d_display_head(w);
  return (int64_t)llround(dx * span_s * sample_rate_hz / (double)w);
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
  p4d_draw_background(&s, &p4d_theme_dark, p4d_display_head(w));
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
  p4d_draw_curve(&s,
                 v,
                 P4D_DISPLAY_STEPS,
                 low,
                 high,
                 p4d_theme_dark.channel[k].argb,
                 p4d_display_head(w));
}

static void
draw_playhead(P4dDisplay* d, uint32_t w, uint32_t h)
{
  const P4dDrawSurface s = canvas(d, w, h);
  p4d_draw_column(&s, p4d_display_head(w), p4d_theme_dark.playhead.argb);
}

/// The row of values of curve k.
static float*
values_row(P4dDisplay* d, unsigned k)
{
  return d->values + (size_t)k * d->capacity_n;
}

/**
   The Noise's backdrop (display.h): its spectrum envelope
   (display_spectrum.h); its gusts' time line only when there are gusts or
   grit.
*/
static bool
noise_backdrop(const P4dDisplay* d, const P4dDrawSurface* s, float* row)
{
  const float* const p = d->seen.params;
  p4d_display_spectrum(p, d->sample_rate_hz, s, row);
  return p[P4D_NOISE_GUST_DB] > 0.0f || p[P4D_NOISE_GRIT] > 0.0f;
}

/**
   How far (in rows) a curve may reach beyond its column's edges, as
   estimated from them (overshoot()), before the column's inner samples
   are evaluated.
*/
#define P4D_DISPLAY_OVERSHOOT_ROWS (1.0 / 16.0)

/**
   How far (in rows) a curve may bend over a column's edge, however steep
   it is, before the column's inner samples are evaluated: it then leaves
   its chord by half a row, and an edge that bends that much may
   be a cycle the edges alias (a zigzag from edge to edge).
*/
#define P4D_DISPLAY_BEND_ROWS 4.0

/**
   How far beyond its edges y0 and y1 (rows) a curve reaches inside a
   column, estimated as a parabola through them that bends by bend rows
   (its second difference over columns): 0 when it is steep enough
   that its turn (its peak or trough) lies outside the column, else
   (bend / 2 - |y1 - y0|)^2 / (2 bend).  NaN when bend is.
*/
static double
overshoot(double y0, double y1, double bend)
{
  const double half  = 0.5 * fabs(bend);
  const double slope = fabs(y1 - y0);
  return half > slope  ? (half - slope) * (half - slope) / (4.0 * half)
         : isnan(bend) ? bend
                       : 0.0;
}

/// Row k of the values of the frames picked (d->picks).
static float*
picked_row(P4dDisplay* d, unsigned k)
{
  return d->picked + (size_t)k * d->capacity_n;
}

/**
   Mark in d->bends the columns whose inner samples are evaluated: all of
   them if the kind's curves are not smooth at the controls seen (Pace);
   else the first and the
   two at either end, and those where a curve shown may reach more than
   P4D_DISPLAY_OVERSHOOT_ROWS beyond the column's edges or bend more than
   P4D_DISPLAY_BEND_ROWS (overshoot(), with
   the largest bend at its two edges and the two beyond them: a curve that
   turns within a column or two bends there; rows[k] holds the edges); all
   of them where more than half do.
*/
static void
mark_bends(P4dDisplay*            d,
           uint32_t               w,
           uint32_t               h,
           float* const           rows[],
           const P4dPreviewScale* scale)
{
  const uint32_t steps = P4D_DISPLAY_STEPS;
  const Smooth   smoothly =
    (size_t)d->kind->params < sizeof(pace) / sizeof(pace[0])
        ? pace[d->kind->params].smooth
        : NULL;
  const bool smooth = smoothly && smoothly(d->seen.params);
  for (uint32_t x = 0U; x < w; ++x) {
    d->bends[x] = !smooth || x < 2U || x + 2U >= w;
  }
  for (unsigned k = 0U; smooth && k < N_CURVES; ++k) {
    if (!scale->shown[k]) {
      continue;
    }
    const float* const v = rows[k];
    // y[0..5]: the edges x - 2 to x + 3 around column x (from edge x to
    // x + 1), at x = 2 first; the bend at the four edges x - 1 to x + 2.
    double y[6];
    for (uint32_t i = 0U; i < 5U; ++i) {
      y[i] = p4d_draw_y(h, v[(size_t)i * steps], scale->low, scale->high);
    }
    for (uint32_t x = 2U; x + 2U < w; ++x) {
      y[5] =
        p4d_draw_y(h, v[(size_t)(x + 3U) * steps], scale->low, scale->high);
      double bend = 0.0;
      for (unsigned i = 1U; i <= 4U; ++i) {
        const double b = y[i - 1U] - 2.0 * y[i] + y[i + 1U];
        bend           = fabs(b) > fabs(bend) || isnan(b) ? b : bend;
      }
      if (!(overshoot(y[2], y[3], bend) <= P4D_DISPLAY_OVERSHOOT_ROWS &&
            fabs(bend) <= P4D_DISPLAY_BEND_ROWS)) {
        d->bends[x] = true;
      }
      for (unsigned i = 0U; i < 5U; ++i) {
        y[i] = y[i + 1U];
      }
    }
  }

  // Where most columns bend, cycles come about as dense as the columns
  // and their edges alias: every column gets its inner samples.
  uint32_t n_bends = 0U;
  for (uint32_t x = 0U; x < w; ++x) {
    n_bends += d->bends[x] ? 1U : 0U;
  }
  for (uint32_t x = 0U; n_bends > w / 2U && x < w; ++x) {
    d->bends[x] = true;
  }
}

/**
   Evaluate the kind's rows at d->offsets (w * P4D_DISPLAY_STEPS + 1
   frames) into rows, and its scale.  The columns' edges first; then, at
   once, the inner samples of the columns that bend (mark_bends()); a
   column that does not bend keeps its edges' values inside (the first
   half its left edge's, the rest its right edge's), so its run is the one
   between its edges, as it is when the curve is straight or monotonic
   across it.
*/
static void
sample(P4dDisplay*      d,
       uint32_t         w,
       uint32_t         h,
       float* const     rows[],
       P4dPreviewScale* scale)
{
  const uint32_t steps = P4D_DISPLAY_STEPS;
  float*         part[N_ROWS];
  for (unsigned k = 0U; k < N_ROWS; ++k) {
    part[k] = picked_row(d, k);
  }

  for (uint32_t x = 0U; x <= w; ++x) {
    d->picks[x] = d->offsets[(size_t)x * steps];
  }
  d->kind->preview(
    d->scratch, d->seen.params, d->seen.at, d->picks, w + 1U, part, scale);
  for (unsigned k = 0U; k < N_ROWS; ++k) {
    for (uint32_t x = 0U; x <= w; ++x) {
      rows[k][(size_t)x * steps] = part[k][x];
    }
  }

  mark_bends(d, w, h, rows, scale);
  uint32_t m = 0U;
  for (uint32_t x = 0U; x < w; ++x) {
    for (uint32_t j = 1U; d->bends[x] && j < steps; ++j) {
      d->picks[m++] = d->offsets[(size_t)x * steps + j];
    }
  }
  if (m > 0U) {
    P4dPreviewScale again = *scale;
    d->kind->preview(
      d->scratch, d->seen.params, d->seen.at, d->picks, m, part, &again);
  }

  m = 0U;
  for (uint32_t x = 0U; x < w; ++x) {
    const size_t at = (size_t)x * steps;
    for (unsigned k = 0U; k < N_ROWS; ++k) {
      if (d->bends[x]) {
        for (uint32_t j = 1U; j < steps; ++j) {
          rows[k][at + j] = part[k][m + j - 1U];
        }
      } else if (k < N_CURVES && scale->shown[k]) {
        for (uint32_t j = 1U; j < steps; ++j) {
          rows[k][at + j] = rows[k][j < steps - j ? at : at + steps];
        }
      }
    }
    m += d->bends[x] ? steps - 1U : 0U;
  }
}

/**
   Draw the kind's backdrop (non-NULL) into d->pixels: from d->backdrop if
   it was drawn for these controls at this size, else afresh (and kept).
   Returns whether the time line is drawn over it.
*/
static bool
draw_backdrop(P4dDisplay* d, Backdrop backdrop, uint32_t w, uint32_t h)
{
  bool same = d->backdrop_valid && d->backdrop_w == w && d->backdrop_h == h;
  for (uint32_t i = 0U; same && i < d->n_params; ++i) {
    same = d->backdrop_params[i] == d->seen.params[i];
  }
  if (!same) {
    const P4dDrawSurface s = { d->backdrop, w, h, w };
    p4d_draw_background(&s, &p4d_theme_dark, 0U);
    // The last row: no preview fills it (P4D_PREVIEW_ROWS).
    d->backdrop_timeline = backdrop(d, &s, values_row(d, N_ROWS - 1U));
    if (d->backdrop_timeline) {
      // The past darkened, as on the plain time line.
      for (uint32_t y = 0U; y < h; ++y) {
        for (uint32_t x = 0U; x < p4d_display_head(w); ++x) {
          p4d_draw_blend(
            &d->backdrop[(size_t)y * w + x], p4d_theme_dark.past.argb, 0.5);
        }
      }
    }
    for (uint32_t i = 0U; i < d->n_params; ++i) {
      d->backdrop_params[i] = d->seen.params[i];
    }
    d->backdrop_w     = w;
    d->backdrop_h     = h;
    d->backdrop_valid = true;
  }
  for (size_t i = 0U; i < (size_t)w * h; ++i) {
    d->pixels[i] = d->backdrop[i];
  }
  return d->backdrop_timeline;
}

/// The kind's curves over the columns, drawn on their scale, over its
/// backdrop.
static void
draw_curves(P4dDisplay* d, uint32_t w, uint32_t h)
{
  const Backdrop backdrop =
    (size_t)d->kind->params < sizeof(pace) / sizeof(pace[0])
      ? pace[d->kind->params].backdrop
      : NULL;
  if (backdrop && !draw_backdrop(d, backdrop, w, h)) {
    return;
  }

  float* rows[N_ROWS];
  for (unsigned k = 0U; k < N_ROWS; ++k) {
    rows[k] = values_row(d, k);
  }
  P4dPreviewScale scale = { 0.0, 0.0, 0.0, { false, false, false, false } };
  sample(d, w, h, rows, &scale);

  const int grid = p4d_draw_row(h, scale.grid, scale.low, scale.high);
  if (backdrop) {
    const P4dDrawSurface s = canvas(d, w, h);
    p4d_draw_dashes(&s, grid, p4d_theme_dark.grid.argb);
  } else {
    draw_background(d, w, h, grid);
  }
  d->timeline = true;
  for (unsigned k = N_CURVES; k-- > 0U;) {
    if (scale.shown[k]) {
      draw_curve(d, w, h, rows[k], scale.low, scale.high, k);
    }
  }
}

/**
   Make room for an image w by h and its samples; false when out of memory.
   One block: the 64-bit offsets first (malloc aligns them), then the
   floats, then the pixels, then the flags, so each is aligned whatever the
   size.
*/
static bool
reserve(P4dDisplay* d, uint32_t w, uint32_t h)
{
  const size_t n  = (size_t)w * P4D_DISPLAY_STEPS + 1U;
  const size_t px = (size_t)w * h;
  if (px <= d->capacity_px && n <= d->capacity_n) {
    return true;
  }

  _Static_assert(sizeof(int64_t) % sizeof(float) == 0U, "misaligned floats");
  _Static_assert(sizeof(float) % sizeof(uint32_t) == 0U, "misaligned pixels");
  const size_t bytes = 2U * n * sizeof(int64_t) +
                       (size_t)2U * N_ROWS * n * sizeof(float) +
                       2U * px * sizeof(uint32_t) + n * sizeof(bool);
  void* const block = malloc(bytes);
  if (!block) {
    return false;
  }

  free(d->block);
  d->block          = block;
  d->offsets        = (int64_t*)block;
  d->picks          = d->offsets + n;
  d->values         = (float*)(d->picks + n);
  d->picked         = d->values + N_ROWS * n;
  d->pixels         = (uint32_t*)(d->picked + N_ROWS * n);
  d->backdrop       = d->pixels + px;
  d->bends          = (bool*)(d->backdrop + px);
  d->capacity_px    = (uint32_t)px;
  d->capacity_n     = (uint32_t)n;
  d->backdrop_valid = false;
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
  const double span =
    p4d_display_span(d->kind, d->seen.params, d->seen.at[0].bpm);
  for (uint32_t k = 0U; k <= w * P4D_DISPLAY_STEPS; ++k) {
    const double x = (double)k / P4D_DISPLAY_STEPS - 0.5;
    d->offsets[k]  = p4d_display_offset(span, w, x, d->sample_rate_hz);
  }

  d->timeline = false;
  draw_curves(d, w, height);
  if (d->timeline) {
    draw_playhead(d, w, height);
  }

  d->surface.data   = (unsigned char*)d->pixels;
  d->surface.width  = (int)w;
  d->surface.height = (int)height;
  d->surface.stride = (int)(w * sizeof(uint32_t));
  return &d->surface;
}
