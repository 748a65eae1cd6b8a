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

int
p4d_draw_row(uint32_t h, double v, double low, double high)
{
  // One row of margin at the top and the bottom.
  const double top    = 1.0;
  const double bottom = (double)h - 2.0;
  if (!(high > low)) {
    return (int)h / 2;
  }
  const P4dDrawAxis axis = p4d_draw_value_axis(low, high, top, bottom);
  double            r    = p4d_draw_at(&axis, v);
  // NaN fails the first test: the top row.
  r = r >= top ? r : top;
  r = r <= bottom ? r : bottom;
  return (int)lround(r);
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
               double                low,
               double                high,
               uint32_t              argb,
               uint32_t              now)
{
  const uint32_t w = s->width;
  const uint32_t h = s->height;
  if (w == 0U || h < 3U) {
    return; // no room for a scale
  }

  // Rows stay within 1 to h - 2 (or h / 2), so every run is in the image.
  const uint32_t faint = p4d_theme_dim(argb);
  int            prev  = p4d_draw_row(h, values[0], low, high);
  int            r     = prev;
  for (uint32_t x = 0U; x < w; ++x) {
    const int next =
      x + 1U < w ? p4d_draw_row(h, values[x + 1U], low, high) : r;
    const int a           = (r + prev) / 2;
    const int b           = (r + next) / 2;
    int       top         = r < a ? r : a;
    int       bot         = r > a ? r : a;
    top                   = b < top ? b : top;
    bot                   = b > bot ? b : bot;
    const uint32_t colour = x < now ? faint : argb;
    for (int y = top; y <= bot; ++y) {
      s->pixels[(size_t)y * s->stride + x] = colour;
    }
    prev = r;
    r    = next;
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
