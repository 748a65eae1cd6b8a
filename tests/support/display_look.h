// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Looking at an inline display's pixels as a reviewer does (the display
  tests): which colour of the dark theme a pixel shows (the curves are
  anti-aliased, so a pixel more than about half covered by a curve is
  nearest its colour), and figures of how a picture reads: how much of the
  future shows a curve, and whether the curves hatch (strokes that jump
  up and down from one column to the next, as a curve with cycles denser
  than pixels drawn one value per column does) or read as lines and bands
  (whose runs move little from column to column): the hatch figure is how
  far the top and the bottom of each curve's run move between
  neighbouring columns, on average, over the image's height.
*/

#ifndef P4D_TEST_DISPLAY_LOOK_H
#define P4D_TEST_DISPLAY_LOOK_H

#include <stdbool.h>
#include <stdint.h>

/// An image as the display returns it: ARGB32 words, rows stride bytes apart.
typedef struct {
  const unsigned char* data;
  uint32_t             width;
  uint32_t             height;
  uint32_t             stride;
} P4dLook;

/// How an image reads, over its columns right of the playhead.
typedef struct {
  double ink;    ///< Part of the pixels nearest a curve's colour
  double hatch;  ///< Mean jump of the runs per column / height
  int    top;    ///< Highest row with a curve pixel (-1 if none)
  int    bottom; ///< Lowest row with a curve pixel (-1 if none)
} P4dLookFigures;

/// The pixel (x, y).
uint32_t
p4d_look_pixel(const P4dLook* s, uint32_t x, uint32_t y);

/// The colour of the dark theme (theme.h: backgrounds, grid, playhead,
/// curves and their dimmed past) nearest px.
uint32_t
p4d_look_nearest(uint32_t px);

/// Whether px is nearest one of the four curve colours (future, not past).
bool
p4d_look_is_curve(uint32_t px);

/// The figures of s from column from on.
P4dLookFigures
p4d_look_figures(const P4dLook* s, uint32_t from);

#endif // P4D_TEST_DISPLAY_LOOK_H
