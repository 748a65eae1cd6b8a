// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Image's tone maps and palettes.

  Tone maps (one row of the table each), from the field's z (unit
  variance) to a tone in [0, 1]:

  - even: Phi(z), the Mod's output map between 0 and 1 (the same table and
    the same bits as the Mod's channel with out_min 0 and out_max 1: see
    src/engine/phi_map.h): every tone is equally common, nothing clips;
  - linear: 0.5 + z / 6, clamped: tones proportional to the field, the
    rare |z| > 3 (0.3 % of pixels) clipped.

  The palettes that colour the tones live with the other colours, in
  src/draw/palette.c.
*/

#include "image_private.h"

#include "phi_map.h"

#include <stddef.h>

/// A tone map: tones of n values z.
typedef void (*ToneMap)(const P4dImageFrame* frame,
                        const float*         z,
                        float*               tone,
                        uint32_t             n);

static void
tone_even(const P4dImageFrame* frame, const float* z, float* tone, uint32_t n)
{
  p4d_phi_map(&frame->phi, z, 0.0, 1.0, tone, n);
}

static void
tone_linear(const P4dImageFrame* frame, const float* z, float* tone, uint32_t n)
{
  (void)frame;
  for (uint32_t i = 0U; i < n; ++i) {
    const float t = 0.5f + z[i] / 6.0f;
    tone[i]       = t > 1.0f ? 1.0f : t > 0.0f ? t : 0.0f;
  }
}

static const ToneMap tone_maps[] = {
  [P4D_IMAGE_TONE_EVEN]   = tone_even,
  [P4D_IMAGE_TONE_LINEAR] = tone_linear,
};

void
p4d_image_tone_map(const P4dImageFrame* frame,
                   const float*         z,
                   float*               tone,
                   uint32_t             n)
{
  tone_maps[frame->tone](frame, z, tone, n);
}
