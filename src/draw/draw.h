// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file draw.h
   Curves into ARGB32 pixels, and the conventions every picture of
   perlin4d shares (the inline display, the SVG plot, the tests' PNGs):

   - Values grow upwards: a value axis puts the high end of its range at
     the top and the low end at the bottom (p4d_draw_value_axis()); time
     runs left to right (p4d_draw_time_axis()).
   - A flat range is opened by half a unit either side
     (p4d_draw_widen()), so a constant shows as a line in the middle.
   - In pixels, a value scale keeps one row of margin at the top and the
     bottom, and values beyond it are drawn at its edge: infinities at the
     edge they point to, NaN at the top row; a scale with no height (or a
     NaN end) puts every value in the middle row (p4d_draw_row()).
   - Rows are also fractional (p4d_draw_y()): pixel row r covers r - 0.5
     to r + 0.5, so a value lands between rows where it falls.
   - A curve is sampled a few times per column, the column's edges
     included (so the columns join); each column draws the run of rows
     its samples span, P4D_DRAW_LINE_PX / 2 thicker at either end, every
     pixel weighted by the part of it the run covers (anti-aliased; the
     colour blended over what is there).  A slow curve is then a smooth
     line P4D_DRAW_LINE_PX thick, and one that moves faster than the
     columns (cycles denser than pixels) a band from its minimum to its
     maximum, not a hatch of one-pixel steps.  On a time line the past
     (the columns left of the playhead) is drawn on the theme's past
     background with the curves dimmed (theme.h).
   - The colours are a theme's (theme.h).

   Nothing here allocates, locks or does I/O: every function is realtime
   safe and may run in any thread on surfaces of its own.
*/

#ifndef P4D_DRAW_H
#define P4D_DRAW_H

#include "theme.h"

#include <stdint.h>

/// Pixels to draw into: opaque ARGB32 words (theme.h), row by row.
typedef struct {
  uint32_t* pixels; ///< Row y starts at pixels + y * stride
  uint32_t  width;
  uint32_t  height;
  uint32_t  stride; ///< Pixels from the start of one row to the next
} P4dDrawSurface;

/// A curve's thickness in pixels where it runs flat.
#define P4D_DRAW_LINE_PX 1.5

/// A linear map from values to coordinates: v0 lands at p0, v1 at p1.
typedef struct {
  double v0;
  double v1;
  double p0; ///< Pixels (or SVG user units) from the left or the top
  double p1;
} P4dDrawAxis;

/// The axis of values low (at y bottom) to high (at y top).  Realtime safe.
P4dDrawAxis
p4d_draw_value_axis(double low, double high, double top, double bottom);

/// The axis of times t0 (at x left) to t1 (at x right).  Realtime safe.
P4dDrawAxis
p4d_draw_time_axis(double t0, double t1, double left, double right);

/**
   The coordinate of v on axis (beyond p0..p1 for values beyond v0..v1);
   v0 and v1 must differ (p4d_draw_widen() a range first).  Realtime safe.
*/
double
p4d_draw_at(const P4dDrawAxis* axis, double v);

/**
   Open the range low..high by 0.5 either side unless it is more than
   min_span high (so also when it is empty, NaN, or low > high).  Realtime
   safe.
*/
void
p4d_draw_widen(double* low, double* high, double min_span);

/**
   The step of the ticks along a range span long: about a fifth of it,
   rounded to 1, 2 or 5 times a power of ten.  Realtime safe.
*/
double
p4d_draw_tick_step(double span);

/**
   The row of value v on a scale from low (row h - 2) to high (row 1) in
   an image h rows high; see the top of this file for values beyond the
   scale, NaN and a flat scale.  Realtime safe.
*/
int
p4d_draw_row(uint32_t h, double v, double low, double high);

/**
   The fractional row of v on the same scale as p4d_draw_row(), which is
   this rounded: 1 to h - 2, h / 2 for a flat scale.  Realtime safe.
*/
double
p4d_draw_y(uint32_t h, double v, double low, double high);

/**
   Blend argb over the pixel at px by coverage (0: keep the pixel, 1:
   argb, clamped to that range; NaN keeps the pixel), channel by channel,
   rounded to nearest (halves up);
   the result is opaque.  Realtime safe.
*/
void
p4d_draw_blend(uint32_t* px, uint32_t argb, double coverage);

/**
   The run of a curve in column x (if it is in s) from fractional row top
   to row bottom (either order), P4D_DRAW_LINE_PX / 2 beyond each end,
   anti-aliased: each pixel blended by the part of it the run covers;
   rows beyond the image are cut off, and a NaN end draws nothing.
   Realtime safe.
*/
void
p4d_draw_run(const P4dDrawSurface* s,
             uint32_t              x,
             double                top,
             double                bottom,
             uint32_t              argb);

/**
   Paint the background of a time line with the playhead in column now:
   the columns left of it in the theme's past colour, the rest in its
   background.  Realtime safe.
*/
void
p4d_draw_background(const P4dDrawSurface* s,
                    const P4dTheme*       theme,
                    uint32_t              now);

/**
   A dashed line (two pixels on, two off, from column 0) along row y, if
   it is in s.  Realtime safe.
*/
void
p4d_draw_dashes(const P4dDrawSurface* s, int y, uint32_t argb);

/// A vertical line down the whole of column x, if it is in s.  Realtime
/// safe.
void
p4d_draw_column(const P4dDrawSurface* s, uint32_t x, uint32_t argb);

/**
   A curve of s->width * steps + 1 samples on the scale low..high
   (p4d_draw_y()): column x draws the run (p4d_draw_run()) its samples
   x * steps to (x + 1) * steps span, in argb from column now on and
   dimmed (p4d_theme_dim()) left of it; nothing on a surface less than 3
   rows high or with no steps.  Realtime safe.
*/
void
p4d_draw_curve(const P4dDrawSurface* s,
               const float*          values,
               uint32_t              steps,
               double                low,
               double                high,
               uint32_t              argb,
               uint32_t              now);

/**
   Row y of s as 8-bit red, green, blue triplets (3 * s->width bytes), as
   image files store them; alpha is dropped (the pixels are opaque).
   Realtime safe.
*/
void
p4d_draw_rgb(const P4dDrawSurface* s, uint32_t y, uint8_t* rgb);

#endif // P4D_DRAW_H
