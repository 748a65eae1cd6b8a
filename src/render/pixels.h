// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Samples of the picture writers: a tone or colour in [0, 1] (clamped
  first) as a whole number of 8 or 16 bits, rounded to nearest; a display
  colour in linear light; and the one buffered file of each picture file.
*/

#ifndef P4D_PIXELS_H
#define P4D_PIXELS_H

#include "atomic_file.h"
#include "exact_math.h"
#include "report.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// The level of x clamped to [0, 1] out of top (255, 65535), rounded.
static inline uint32_t
p4d_pixel_level(float x, uint32_t top)
{
  const float c = x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; // NaN: 0
  return (uint32_t)(c * (float)top + 0.5f);
}

/**
   The linear light of an sRGB display value c in [0, 1] (the sRGB curve
   undone: c / 12.92 at the foot, ((c + 0.055) / 1.055)^2.4 above it),
   rounded to a float.  Deterministic (no libm pow); for every float c in
   [0, 1] the float that (float)pow(x, 2.4) gives (test exact_math).
   Realtime safe.
*/
static inline float
p4d_pixel_linear(float c)
{
  return c <= 0.04045f ? c / 12.92f
                       : (float)p4d_exact_pow_12_5((c + 0.055) / 1.055);
}

/// Store v as two bytes, big-endian (PNG) or little-endian (r16).
static inline void
p4d_pixel_put16(uint8_t* dest, uint32_t v, int big_endian)
{
  dest[big_endian ? 0 : 1] = (uint8_t)(v >> 8U);
  dest[big_endian ? 1 : 0] = (uint8_t)(v & 0xFFU);
}

/**
   The buffered stream of a picture file: a descriptor of its own on the
   atomic file (text_stream.h).  Not realtime safe.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
*/
P4dRenderCode
p4d_pixels_open(const P4dAtomicFile* file,
                FILE**               stream,
                P4dRenderStatus*     status);

/**
   Write size bytes to the stream.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming path.
*/
P4dRenderCode
p4d_pixels_write(FILE*            stream,
                 const void*      bytes,
                 size_t           size,
                 const char*      path,
                 P4dRenderStatus* status);

#endif // P4D_PIXELS_H
