// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "display_look.h"

#include "theme.h"

#include <stddef.h>
#include <stdlib.h>
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

/**
   The jumps of the curve of colour argb from column from on: the sum over
   pairs of neighbouring columns where it shows of how far the top and the
   bottom of its run move (rows, halved), into *jumps, the pairs into
   *pairs.
*/
static void
jumps_of(const P4dLook* s,
         uint32_t       from,
         uint32_t       argb,
         double*        jumps,
         size_t*        pairs)
{
  int last_top = -1;
  int last_bot = -1;
  for (uint32_t x = from; x < s->width; ++x) {
    int top = -1;
    int bot = -1;
    for (uint32_t y = 0U; y < s->height; ++y) {
      if (p4d_look_nearest(p4d_look_pixel(s, x, y)) == argb) {
        top = top < 0 ? (int)y : top;
        bot = (int)y;
      }
    }
    if (top >= 0 && last_top >= 0) {
      *jumps += 0.5 * (abs(top - last_top) + abs(bot - last_bot));
      ++*pairs;
    }
    last_top = top;
    last_bot = bot;
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
  double jumps = 0.0;
  size_t pairs = 0U;
  for (unsigned k = 0U; k < P4D_THEME_CHANNELS; ++k) {
    jumps_of(s, from, p4d_theme_dark.channel[k].argb, &jumps, &pairs);
  }
  f.ink   = all ? (double)ink / (double)all : 0.0;
  f.hatch = pairs ? jumps / (double)pairs / (double)s->height : 0.0;
  return f;
}
