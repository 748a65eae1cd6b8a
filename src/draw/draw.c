// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "draw.h"

#include <math.h>
#include <stddef.h>

P4dDrawAxis
p4d_draw_value_axis(double low, double high, double top, double bottom)
{
  const P4dDrawAxis axis = { high, low, top, bottom };
  return axis;
}

P4dDrawAxis
p4d_draw_time_axis(double t0, double t1, double left, double right)
{
  const P4dDrawAxis axis = { t0, t1, left, right };
  return axis;
}

double
p4d_draw_at(const P4dDrawAxis* axis, double v)
{
  // A value axis runs from high to low: v - v0 and v1 - v0 are then both
  // the negations of high - v and high - low, exactly, so the quotient is
  // the same bits either way round.
  return axis->p0 +
         (v - axis->v0) / (axis->v1 - axis->v0) * (axis->p1 - axis->p0);
}

void
p4d_draw_widen(double* low, double* high, double min_span)
{
  if (!(*high - *low > min_span)) {
    *low -= 0.5;
    *high += 0.5;
  }
}

double
p4d_draw_tick_step(double span)
{
  const double raw  = span / 5.0;
  const double base = pow(10.0, floor(log10(raw)));
  return raw / base < 2.0 ? base : raw / base < 5.0 ? 2.0 * base : 5.0 * base;
}

double
p4d_draw_y(uint32_t h, double v, double low, double high)
{
  // One row of margin at the top and the bottom.
  const double top    = 1.0;
  const double bottom = (double)h - 2.0;
  if (!(high > low)) {
    const uint32_t middle = h / 2U; // the middle row, rounded down
    return (double)middle;
  }
  const P4dDrawAxis axis = p4d_draw_value_axis(low, high, top, bottom);
  double            r    = p4d_draw_at(&axis, v);
  // NaN fails the first test: the top row.
  r = r >= top ? r : top;
  return r <= bottom ? r : bottom;
}

int
p4d_draw_row(uint32_t h, double v, double low, double high)
{
  return (int)lround(p4d_draw_y(h, v, low, high));
}

/**
   x rounded to nearest, halves up: lround() for 0 <= x < 2^32, without its
   call.  x - floor(x) is exact (Sterbenz), so the comparison is too.
*/
static uint32_t
round_channel(double x)
{
  const uint32_t i = (uint32_t)x;
  return i + (x - (double)i >= 0.5 ? 1U : 0U);
}

void
p4d_draw_blend(uint32_t* px, uint32_t argb, double coverage)
{
  // NaN fails the first test: no coverage.
  const double a   = coverage > 0.0 ? coverage < 1.0 ? coverage : 1.0 : 0.0;
  uint32_t     out = 0xFF000000U;
  for (unsigned shift = 0U; shift < 24U; shift += 8U) {
    const double under = (double)((*px >> shift) & 0xFFU);
    const double over  = (double)((argb >> shift) & 0xFFU);
    // Between under and over, both in 0-255: a * (over - under) rounds
    // no further than over - under itself.
    out |= round_channel(under + a * (over - under)) << shift;
  }
  *px = out;
}

void
p4d_draw_run(const P4dDrawSurface* s,
             uint32_t              x,
             double                top,
             double                bottom,
             uint32_t              argb)
{
  if (x >= s->width || s->height == 0U || isnan(top) || isnan(bottom)) {
    return;
  }
  const double a  = (top < bottom ? top : bottom) - 0.5 * P4D_DRAW_LINE_PX;
  const double b  = (top < bottom ? bottom : top) + 0.5 * P4D_DRAW_LINE_PX;
  const double hi = (double)s->height - 1.0;
  // Pixel row y covers y - 0.5 to y + 0.5; rows beyond the image are cut
  // off before they are converted.
  const double first = floor(a + 0.5);
  const double last  = floor(b + 0.5);
  const int    y0    = first < 0.0 ? 0 : first > hi ? (int)hi + 1 : (int)first;
  const int    y1    = last > hi ? (int)hi : last < 0.0 ? -1 : (int)last;
  for (int y = y0; y <= y1; ++y) {
    const double from = a > y - 0.5 ? a : y - 0.5;
    const double to   = b < y + 0.5 ? b : y + 0.5;
    if (to > from) {
      p4d_draw_blend(s->pixels + (size_t)y * s->stride + x, argb, to - from);
    }
  }
}

void
p4d_draw_background(const P4dDrawSurface* s,
                    const P4dTheme*       theme,
                    uint32_t              now)
{
  for (uint32_t y = 0U; y < s->height; ++y) {
    uint32_t* const row = s->pixels + (size_t)y * s->stride;
    for (uint32_t x = 0U; x < s->width; ++x) {
      row[x] = x < now ? theme->past.argb : theme->background.argb;
    }
  }
}

void
p4d_draw_dashes(const P4dDrawSurface* s, int y, uint32_t argb)
{
  if (y < 0 || y >= (int)s->height) {
    return;
  }
  uint32_t* const row = s->pixels + (size_t)y * s->stride;
  for (uint32_t x = 0U; x < s->width; x += 4U) {
    row[x] = argb;
    if (x + 1U < s->width) {
      row[x + 1U] = argb;
    }
  }
}

void
p4d_draw_column(const P4dDrawSurface* s, uint32_t x, uint32_t argb)
{
  if (x >= s->width) {
    return;
  }
  for (uint32_t y = 0U; y < s->height; ++y) {
    s->pixels[(size_t)y * s->stride + x] = argb;
  }
}

void
p4d_draw_curve(const P4dDrawSurface* s,
               const float*          values,
               uint32_t              steps,
               double                low,
               double                high,
               uint32_t              argb,
               uint32_t              now)
{
  const uint32_t w = s->width;
  const uint32_t h = s->height;
  if (w == 0U || h < 3U || steps == 0U) {
    return; // no room for a scale
  }

  // Rows stay within 1 to h - 2 (or h / 2), so every run is in the image.
  const uint32_t faint = p4d_theme_dim(argb);
  double         edge  = p4d_draw_y(h, values[0], low, high);
  for (uint32_t x = 0U; x < w; ++x) {
    double top = edge;
    double bot = edge;
    for (uint32_t j = 1U; j <= steps; ++j) {
      const double y = p4d_draw_y(h, values[(size_t)x * steps + j], low, high);
      top            = y < top ? y : top;
      bot            = y > bot ? y : bot;
      edge           = y;
    }
    p4d_draw_run(s, x, top, bot, x < now ? faint : argb);
  }
}

void
p4d_draw_rgb(const P4dDrawSurface* s, uint32_t y, uint8_t* rgb)
{
  const uint32_t* const row = s->pixels + (size_t)y * s->stride;
  for (uint32_t x = 0U; x < s->width; ++x) {
    uint8_t* const out = rgb + (size_t)3U * x;
    out[0]             = (uint8_t)(row[x] >> 16U);
    out[1]             = (uint8_t)(row[x] >> 8U);
    out[2]             = (uint8_t)row[x];
  }
}
