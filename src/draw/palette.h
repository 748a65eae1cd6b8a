// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file palette.h
   The colour maps of the Image's pictures (the values of its palette
   parameter, P4dImagePalette in params.h): from a tone in [0, 1] to a
   display (gamma-encoded sRGB) colour.  Grey is the tone on every channel;
   the others are a few control points each, evenly spaced over the tones
   and interpolated linearly between them in display values.
*/

#ifndef P4D_PALETTE_H
#define P4D_PALETTE_H

#include <stddef.h>

/**
   The display colours of n tones in palette (a P4dImagePalette value), into
   rgb[3 i + c] for channel c (red, green, blue) of tone i, each in [0, 1]
   (tones outside [0, 1] take the nearer end).  Grey, or an unknown
   palette, is the tone itself on every channel.  Realtime safe: no
   allocation, no lock.
*/
void
p4d_palette_colours(unsigned palette, const float* tone, float* rgb, size_t n);

#endif // P4D_PALETTE_H
