// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file theme.h
   The colours of every picture perlin4d draws, defined once: the inline
   display's dark theme (a mixer strip) and the plots' paper theme (a
   document on white).  A picture of channels gives channel c the colour
   channel[c] in either theme, so a curve keeps its place in the order
   whatever draws it.

   Colours are opaque ARGB32 words (alpha in the top byte, then red, green,
   blue), each also spelled as SVG writes it; the two spellings are the
   same colour (a test checks them).  Opaque only: a host that takes the
   pixels as premultiplied (Ardour's cairo surface) and one that does not
   (Carla's Qt image) show the same.
*/

#ifndef P4D_THEME_H
#define P4D_THEME_H

#include <stdint.h>

/// Channels with a colour of their own (the most any plugin has).
#define P4D_THEME_CHANNELS 4U

/// The dark theme's channels as constants (for static tables of pixels).
#define P4D_THEME_DARK_1 0xFFF0A030U ///< Amber
#define P4D_THEME_DARK_2 0xFF40C0F0U ///< Sky blue
#define P4D_THEME_DARK_3 0xFF80D060U ///< Green
#define P4D_THEME_DARK_4 0xFFE070D0U ///< Pink

/// A colour, as pixels and as SVG spell it.
typedef struct {
  uint32_t    argb; ///< Opaque ARGB32
  const char* css;  ///< The same colour in CSS/SVG syntax
} P4dColour;

/// The colours of a picture.
typedef struct {
  P4dColour background; ///< Behind the curves (on a time line: the future)
  P4dColour past;       ///< Behind the past, left of the playhead
  P4dColour grid;       ///< Axes, ticks, the middle line
  P4dColour playhead;   ///< The vertical line at the playhead
  P4dColour channel[P4D_THEME_CHANNELS]; ///< Channel (or target) 1 to 4
} P4dTheme;

/// Light curves on dark grey, the past darker: the inline display.
extern const P4dTheme p4d_theme_dark;

/// Saturated curves on white with grey axes: the SVG plot.
extern const P4dTheme p4d_theme_paper;

/**
   Darken an opaque colour to 9/16 of each component (about 55 %): how a
   curve's past is drawn.  Realtime safe.
*/
uint32_t
p4d_theme_dim(uint32_t argb);

#endif // P4D_THEME_H
