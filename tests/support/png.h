// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  A PNG writer for the tests' pictures (the inline displays), by hand: 8-bit
  RGB, no filter, zlib stored blocks (no compression), CRC-32 and Adler-32.
  Enough for a reviewer's image viewer; no libpng.  The pixels are read as
  the drawing module writes them (p4d_draw_rgb(), src/draw/draw.h).
*/

#ifndef P4D_TEST_PNG_H
#define P4D_TEST_PNG_H

#include <stdbool.h>
#include <stdint.h>

/**
   Write an image of w by h opaque ARGB32 pixels (rows stride bytes apart)
   to path as a PNG.  Returns false if the file cannot be written.
*/
bool
p4d_png_write(const char*    path,
              const uint8_t* argb,
              uint32_t       w,
              uint32_t       h,
              uint32_t       stride);

#endif // P4D_TEST_PNG_H
