// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Image engine's frames (image.h): settings, time, facts, rows.

  A frame is the Mod's field.  Its settings are read by the Mod's own code:
  the image's parameters go by symbol into a Mod parameter array, and
  p4d_voice_from_params() and p4d_voice_line() make the Mod's voice of
  them (seed, octaves and their weights under the Mod's band limit at the
  setup's sample rate, z's divisor, rate snapped to whole cells per loop,
  the channels' positions with the base, morph and spread).  So pixel (px,
  py) lies at field point

      x = base_x + morph_x + offset_x + px s_x
      y = base_y + morph_y + offset_y + py s_y
      z = base_z + morph_z
      w = the Mod's phase at the frame's song time

  with s_x = scale / width and s_y = s_x / stretch (square pixels at
  stretch 1, pixel 0 at the offset exactly), or with tile on s_x = C_x /
  width and s_y = C_y / height for the whole numbers of cells C_x =
  round(scale), C_y = round(scale height / (width stretch)) (at least 1).  Mod
  channel k sits at base + morph + its spread term, so its pixel is ((its x -
  x(0)) / s_x, (its y - y(0)) / s_y): the facts give it, and with fractal off
  that pixel is the channel's value (see image_field.c for how fractal on
  differs).

  Samples on the edges (p4d_image_frame_edges(), heightmaps): a side of n
  pixels spans its cells in n - 1 steps (width - 1 and height - 1 above
  instead of width and height), and an offset o is split into whole tiles
  T = round(o / C) of C cells (scale across, its height in cells down; the
  whole cells with tile on) and a remainder r = o - T C (0 below a
  millionth of a tile): pixel px lies at base + morph + r + (T (width - 1)
  + px) s_x, computed as exactly that sum, and the core's span computes
  origin + (first + i) step with first = T (width - 1) + px.  Tiles whose
  offsets differ by C therefore compute the same expression for their
  shared column.  With tile on T is dropped (the field repeats every C
  cells) and the last column and row are evaluated as the first.

  Time.  Frame n is at song time t = start + n den / num seconds (one
  division).  Song seconds: w = t rate_hz; free running: the same (a render
  has no other clock); song beats: w = the Mod's phase at beat b = t bpm /
  60, which the Mod's loop_snap() and loop_line() reduce into its loop of
  P whole cells.  With a loop of L beats, b is reduced modulo L before any
  rounding can creep in: n den bpm is an exact double (while it stays below
  2^53: any tempo with few significant bits, such as 120, 128 or 93.75, and
  frames for days), fmod() of it by 60 num L is exact, and only the
  remainder is divided, b = (start bpm / 60 mod L) + r / (60 num).  Frames
  N apart with N den bpm a whole multiple of 60 num L (N frames = whole
  loops) therefore have the same remainder and the same bits: frame N is
  frame 0.  The step across the loop point is like any other, since the
  core's periodic hash wraps every octave's time axis at its whole cells
  (the Mod's loops).
*/

#include "image_private.h"

#include "engine.h"
#include "flavour.h"
#include "palette.h"
#include "voice.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/// Seeds of the warp fields: the picture's seed plus these (odd, far from
/// the octaves' seed step, so no octave of one field is another's).
static const uint32_t warp_seed[P4D_IMAGE_WARPS] = { 0x3C6EF373U, 0xA54FF53BU };

P4dStatus
p4d_image_frame_new(const P4dImageSetup* setup, P4dImageFrame** frame)
{
  *frame = NULL;
  if (!setup || setup->width < 1U || setup->height < 1U ||
      setup->width > P4D_IMAGE_MAX_SIDE || setup->height > P4D_IMAGE_MAX_SIDE ||
      setup->height > P4D_IMAGE_MAX_PIXELS / setup->width) {
    return P4D_ERR_BAD_ARG;
  }

  P4dImageFrame* const f = (P4dImageFrame*)calloc(1U, sizeof(P4dImageFrame));
  if (!f) {
    return P4D_ERR_NO_MEM;
  }
  f->setup = *setup;
  if (!(setup->sample_rate_hz >= 1000.0 &&
        setup->sample_rate_hz <= 1536000.0)) {
    f->setup.sample_rate_hz = 48000.0;
  }
  if (!(setup->tempo_bpm > 0.0 && setup->tempo_bpm < P4D_MAX_BPM)) {
    f->setup.tempo_bpm = 120.0;
  }
  p4d_exact_phi_fill(&f->phi);

  float defaults[P4D_IMAGE_N_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_IMAGE), defaults);
  const P4dImageTime start = { 0, 1U, 1U, 0.0 };
  p4d_image_frame_set(f, defaults, &start);
  *frame = f;
  return P4D_SUCCESS;
}

void
p4d_image_frame_edges(P4dImageFrame* frame, bool edges)
{
  frame->edges = edges;
}

void
p4d_image_frame_free(P4dImageFrame* frame)
{
  free(frame);
}

/// The Mod's raw parameters of the image's clamped ones p: every symbol
/// the two share, the Mod's defaults for the rest, spread as given.
static void
mod_params(const float* p, float spread, float* mod)
{
  const P4dParamTable* const image = p4d_params(P4D_KIND_IMAGE);
  const P4dParamTable* const table = p4d_params(P4D_KIND_MOD);
  p4d_param_defaults(table, mod);
  for (uint32_t i = 0U; i < image->n_params; ++i) {
    const int id = p4d_param_find(table, image->params[i].symbol);
    if (id >= 0) {
      mod[id] = p[i];
    }
  }
  mod[P4D_MOD_SPREAD] = spread;
}

/// The song beat of frame time at tempo bpm, reduced into a loop of
/// loop_beats (0: none) exactly (see the top of this file).
static double
frame_beat(const P4dImageTime* time, double start_s, double bpm, double loop)
{
  const double num = (double)(time->fps_num ? time->fps_num : 1U);
  const double den = (double)(time->fps_den ? time->fps_den : 1U);
  const double n   = (double)time->frame;
  if (loop <= 0.0) {
    return (start_s + n * den / num) * bpm / 60.0;
  }

  const double period = 60.0 * num * loop;
  const double q      = fmod(n * den * bpm, period);
  const double r      = q < 0.0 ? q + period : q;
  const double s      = fmod(start_s * bpm / 60.0, loop);
  return (s < 0.0 ? s + loop : s) + r / (60.0 * num);
}

/// The voice of the Mod for settings p at frame time, and its time
/// coordinate (octave 0) in *w.
static void
frame_voice(const P4dImageFrame* f,
            const float*         p,
            const P4dImageTime*  time,
            P4dVoice*            v,
            double*              w)
{
  const P4dVoiceSetup setup =
    p4d_voice_setup(&p4d_engine_flavour_mod, f->setup.sample_rate_hz);
  float mod[P4D_MAX_PARAMS];
  mod_params(p, p[P4D_IMAGE_SPREAD], mod);
  p4d_voice_from_params(&setup, mod, v);

  const double bpm   = f->setup.tempo_bpm;
  const double start = isfinite(time->start_s) ? time->start_s : 0.0;
  const double beat  = frame_beat(time, start, bpm, v->loop_beats);
  const double song  = f->facts.song_s;

  // Locked at speed 1, anchored at this frame: the Mod's line there.
  const P4dClock clock = { true, 1.0, bpm, 0, beat, 0 };
  p4d_voice_line(&setup, &clock, 0, v, NULL);
  *w = v->mode == P4D_CLOCK_SONG_BEATS ? p4d_voice_phase(v, 3U, 0)
                                       : song * v->rate[3];
}

/// The field point of the channels' centre (base + morph, exactly as the
/// Mod places a channel at spread 0), with v as scratch.
static void
frame_centre(const P4dImageFrame* f,
             const float*         p,
             P4dVoice*            v,
             double               centre[3])
{
  const P4dVoiceSetup setup =
    p4d_voice_setup(&p4d_engine_flavour_mod, f->setup.sample_rate_hz);
  float mod[P4D_MAX_PARAMS];
  mod_params(p, 0.0f, mod);
  p4d_voice_from_params(&setup, mod, v);
  memcpy(centre, v->position[0], 3U * sizeof(double));
}

/// Steps across a side of n pixels with samples on its edges (at least 1).
static double
edge_steps(uint32_t n)
{
  return n > 1U ? (double)(n - 1U) : 1.0;
}

/**
   Split offset into whole tiles of span cells and a remainder (into *rest,
   0 when it is below a millionth of a tile or the offset's own float
   resolution), returning the tiles: tiles rendered at offsets one span
   apart then differ only in the tile count, a whole number.
*/
static int64_t
edge_split(float offset, double span, double* rest)
{
  const double o = (double)offset;
  const double t = floor(o / span + 0.5);
  if (!(fabs(t) < 0x1p40)) {
    *rest = o; // tiles too small to count: no split
    return 0;
  }
  double r = o - t * span;
  if (fabs(r) <= 1.0e-6 * span || fabs(r) <= fabs(o) * 0x1p-22) {
    r = 0.0;
  }
  *rest = r;
  return (int64_t)t;
}

void
p4d_image_frame_set(P4dImageFrame*      frame,
                    const float*        params,
                    const P4dImageTime* time)
{
  P4dImageFrame* const       f     = frame;
  const P4dParamTable* const table = p4d_params(P4D_KIND_IMAGE);
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    f->params[i] = p4d_param_clamp(&table->params[i], params[i]);
  }
  const float* const p = f->params;
  f->type              = (unsigned)p[P4D_IMAGE_TYPE];
  f->basis             = (unsigned)p[P4D_IMAGE_BASIS];
  f->tone              = (unsigned)p[P4D_IMAGE_TONE];
  f->palette           = (unsigned)p[P4D_IMAGE_PALETTE];
  f->warp              = p[P4D_IMAGE_WARP];

  const double num   = (double)(time->fps_num ? time->fps_num : 1U);
  const double den   = (double)(time->fps_den ? time->fps_den : 1U);
  const double start = isfinite(time->start_s) ? time->start_s : 0.0;
  memset(&f->facts, 0, sizeof(f->facts));
  f->facts.song_s     = start + (double)time->frame * den / num;
  f->facts.song_beats = f->facts.song_s * f->setup.tempo_bpm / 60.0;

  P4dVoice* const v = &f->voice;
  double          centre[3];
  frame_centre(f, p, v, centre);
  double w = 0.0;
  frame_voice(f, p, time, v, &w);
  f->facts.w = w;

  // Where the pixels lie (see the top of this file).  With samples on
  // the edges a side of n pixels spans its cells in n - 1 steps.
  const bool   edges   = f->edges;
  const double width   = (double)f->setup.width;
  const double height  = (double)f->setup.height;
  const double span_w  = edges ? edge_steps(f->setup.width) : width;
  const double span_h  = edges ? edge_steps(f->setup.height) : height;
  const double scale   = p[P4D_IMAGE_SCALE];
  const bool   tile    = p[P4D_IMAGE_TILE] != 0.0f;
  double       cells_x = scale;
  const double stretch = p[P4D_IMAGE_STRETCH];
  double       cells_y = scale * span_h / span_w / stretch;
  if (tile) {
    cells_x = floor(cells_x + 0.5) < 1.0 ? 1.0 : floor(cells_x + 0.5);
    cells_y = floor(cells_y + 0.5) < 1.0 ? 1.0 : floor(cells_y + 0.5);
  }
  f->step_x  = tile ? cells_x / span_w : scale / span_w;
  f->step_y  = tile ? cells_y / span_h : f->step_x / stretch;
  f->x0      = centre[0] + p[P4D_IMAGE_OFFSET_X];
  f->y0      = centre[1] + p[P4D_IMAGE_OFFSET_Y];
  f->first_x = 0;
  f->first_y = 0;
  if (edges) {
    // Whole tiles of the offsets: a tiling field repeats itself every tile
    // (its tiles are the same bits, first 0), others count them in steps.
    double        r_x = 0.0;
    double        r_y = 0.0;
    const int64_t t_x = edge_split(p[P4D_IMAGE_OFFSET_X], cells_x, &r_x);
    const int64_t t_y = edge_split(p[P4D_IMAGE_OFFSET_Y], cells_y, &r_y);
    f->x0             = centre[0] + r_x;
    f->y0             = centre[1] + r_y;
    f->first_x        = tile ? 0 : t_x * (int64_t)span_w;
    f->first_y        = tile ? 0 : t_y * (int64_t)span_h;
  }
  f->z              = centre[2];
  f->facts.cells_x  = cells_x;
  f->facts.cells_y  = cells_y;
  const double left = f->x0 + (double)f->first_x * f->step_x;
  const double top  = f->y0 + (double)f->first_y * f->step_y;
  for (unsigned k = 0U; k < 4U; ++k) {
    f->facts.mod_x[k] = (v->position[k][0] - left) / f->step_x;
    f->facts.mod_y[k] = (v->position[k][1] - top) / f->step_y;
  }

  const P4dImageFieldSpec spec = {
    v,
    w,
    p[P4D_IMAGE_FRACTAL] != 0.0f,
    tile,
    { cells_x, cells_y },
    { f->step_x, f->step_y },
    { centre[0], centre[1], centre[2] },
    f->type,
    f->basis,
  };
  P4dImageFieldSpec warp = spec;
  warp.type              = P4D_IMAGE_FBM;
  p4d_image_field_prepare(&f->field, &spec, v->seed);
  f->facts.type_mean = f->field.mean;
  f->facts.type_std  = f->field.std;
  for (unsigned i = 0U; i < P4D_IMAGE_WARPS; ++i) {
    p4d_image_field_prepare(&f->warps[i], &warp, v->seed + warp_seed[i]);
  }
}

void
p4d_image_frame_rows(const P4dImageFrame* frame,
                     uint32_t             row0,
                     uint32_t             n_rows,
                     float*               value,
                     float*               tone)
{
  const uint32_t width = frame->setup.width;
  const uint32_t end =
    row0 < frame->setup.height && n_rows < frame->setup.height - row0
      ? row0 + n_rows
      : frame->setup.height;
  // Samples on the edges of a tiling field: the last row and column are
  // the first (the same point one period on), made so by their index.
  const bool wrap = frame->edges && frame->params[P4D_IMAGE_TILE] != 0.0f;
  for (uint32_t py = row0; py < end; ++py) {
    const size_t   row = (size_t)(py - row0) * width;
    const uint32_t at  = wrap && py + 1U == frame->setup.height ? 0U : py;
    for (uint32_t first = 0U; first < width; first += P4D_IMAGE_CHUNK) {
      const uint32_t n =
        width - first < P4D_IMAGE_CHUNK ? width - first : P4D_IMAGE_CHUNK;
      float z[P4D_IMAGE_CHUNK];
      p4d_image_field_chunk(frame, at, first, n, z);
      if (wrap && width > 1U && first + n == width) {
        p4d_image_field_chunk(frame, at, 0U, 1U, z + n - 1U);
      }
      if (value) {
        memcpy(value + row + first, z, n * sizeof(float));
      }
      if (tone) {
        p4d_image_tone_map(frame, z, tone + row + first, n);
      }
    }
  }
}

bool
p4d_image_frame_grey(const P4dImageFrame* frame)
{
  return frame->palette == P4D_IMAGE_GREY;
}

void
p4d_image_frame_colour(const P4dImageFrame* frame,
                       const float*         tone,
                       float*               rgb,
                       size_t               n)
{
  p4d_palette_colours(frame->palette, tone, rgb, n);
}

void
p4d_image_frame_facts(const P4dImageFrame* frame, P4dImageFacts* facts)
{
  *facts = frame->facts;
}
