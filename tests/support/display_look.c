// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "display_look.h"

#include "theme.h"

#include <stddef.h>
#include <string.h>

uint32_t
p4d_look_pixel(const P4dLook* s, uint32_t x, uint32_t y)
{
  uint32_t px = 0U;
  memcpy(&px, s->data + (size_t)y * s->stride + (size_t)4U * x, 4U);
  return px;
}

/// The squared distance of two colours, channel by channel.
static int
distance(uint32_t a, uint32_t b)
{
  int d = 0;
  for (unsigned sh = 0U; sh < 24U; sh += 8U) {
    const int e = (int)((a >> sh) & 0xFFU) - (int)((b >> sh) & 0xFFU);
    d += e * e;
  }
  return d;
}

uint32_t
p4d_look_nearest(uint32_t px)
{
  const P4dTheme* const t                                     = &p4d_theme_dark;
  uint32_t              palette[4U + 2U * P4D_THEME_CHANNELS] = {
                 t->background.argb, t->past.argb, t->grid.argb, t->playhead.argb
  };
  for (unsigned c = 0U; c < P4D_THEME_CHANNELS; ++c) {
    palette[4U + c]                      = t->channel[c].argb;
    palette[4U + P4D_THEME_CHANNELS + c] = p4d_theme_dim(t->channel[c].argb);
  }
  uint32_t best = palette[0];
  for (size_t i = 1U; i < sizeof(palette) / sizeof(palette[0]); ++i) {
    if (distance(px, palette[i]) < distance(px, best)) {
      best = palette[i];
    }
  }
  return best;
}

bool
p4d_look_is_curve(uint32_t px)
{
  const uint32_t c = p4d_look_nearest(px);
  for (unsigned k = 0U; k < P4D_THEME_CHANNELS; ++k) {
    if (c == p4d_theme_dark.channel[k].argb) {
      return true;
    }
  }
  return false;
}

/// Reversals of direction of the curve of colour argb from column from
/// on (its middle row per column, moves of a row or more), into *turns,
/// over *columns columns where it shows.
static void
reversals(const P4dLook* s,
          uint32_t       from,
          uint32_t       argb,
          size_t*        turns,
          size_t*        columns)
{
  double last = -1.0;
  int    sign = 0;
  for (uint32_t x = from; x < s->width; ++x) {
    int top = -1;
    int bot = -1;
    for (uint32_t y = 0U; y < s->height; ++y) {
      if (p4d_look_nearest(p4d_look_pixel(s, x, y)) == argb) {
        top = top < 0 ? (int)y : top;
        bot = (int)y;
      }
    }
    if (top < 0) {
      last = -1.0;
      continue;
    }
    const double mid = 0.5 * (top + bot);
    ++*columns;
    if (last >= 0.0 && (mid - last >= 1.0 || last - mid >= 1.0)) {
      const int now = mid > last ? 1 : -1;
      *turns += sign != 0 && now != sign ? 1U : 0U;
      sign = now;
    }
    last = mid;
  }
}

P4dLookFigures
p4d_look_figures(const P4dLook* s, uint32_t from)
{
  P4dLookFigures f   = { 0.0, 0.0, -1, -1 };
  size_t         ink = 0U;
  size_t         all = 0U;
  for (uint32_t y = 0U; y < s->height; ++y) {
    for (uint32_t x = from; x < s->width; ++x) {
      const bool is = p4d_look_is_curve(p4d_look_pixel(s, x, y));
      ink += is ? 1U : 0U;
      ++all;
      if (is) {
        f.top    = f.top < 0 ? (int)y : f.top;
        f.bottom = (int)y;
      }
    }
  }
  size_t turns   = 0U;
  size_t columns = 0U;
  for (unsigned k = 0U; k < P4D_THEME_CHANNELS; ++k) {
    reversals(s, from, p4d_theme_dark.channel[k].argb, &turns, &columns);
  }
  f.ink   = all ? (double)ink / (double)all : 0.0;
  f.hatch = columns ? (double)turns / (double)columns : 0.0;
  return f;
}
