// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The palettes (palette.h).  They are this project's own: magma (black
  through purple and coral to pale yellow), ocean (deep navy through teal
  to foam), terrain (sea, shore, grass, forest, rock, snow: the tone as
  height), fire (black, ember red, orange, yellow, white) and marble (slate
  veins through grey to cream: its light half is nearly flat, so a field
  that is bright almost everywhere reads as polished stone).
*/

#include "palette.h"

#include "params.h"

#include <stddef.h>

/// Control points of a palette: evenly spaced over [0, 1].
#define P4D_PALETTE_POINTS 6U

typedef struct {
  float rgb[P4D_PALETTE_POINTS][3];
} P4dPalette;

/// The colour palettes' ramps (grey has none: it is the tone).
static const P4dPalette palettes[P4D_IMAGE_N_PALETTES] = {
  [P4D_IMAGE_MAGMA]   = { { { 0.00f, 0.00f, 0.02f },
                            { 0.16f, 0.06f, 0.36f },
                            { 0.45f, 0.12f, 0.50f },
                            { 0.80f, 0.25f, 0.45f },
                            { 0.98f, 0.55f, 0.38f },
                            { 0.99f, 0.95f, 0.72f } } },
  [P4D_IMAGE_OCEAN]   = { { { 0.01f, 0.03f, 0.12f },
                            { 0.02f, 0.12f, 0.30f },
                            { 0.03f, 0.30f, 0.48f },
                            { 0.10f, 0.52f, 0.60f },
                            { 0.45f, 0.78f, 0.80f },
                            { 0.92f, 0.98f, 0.98f } } },
  [P4D_IMAGE_TERRAIN] = { { { 0.05f, 0.15f, 0.45f },
                            { 0.20f, 0.45f, 0.70f },
                            { 0.85f, 0.80f, 0.55f },
                            { 0.25f, 0.55f, 0.20f },
                            { 0.45f, 0.38f, 0.30f },
                            { 0.97f, 0.97f, 0.97f } } },
  [P4D_IMAGE_FIRE]    = { { { 0.00f, 0.00f, 0.00f },
                            { 0.35f, 0.02f, 0.00f },
                            { 0.75f, 0.12f, 0.00f },
                            { 0.98f, 0.45f, 0.02f },
                            { 1.00f, 0.82f, 0.20f },
                            { 1.00f, 1.00f, 0.90f } } },
  [P4D_IMAGE_MARBLE]  = { { { 0.16f, 0.17f, 0.19f },
                            { 0.42f, 0.42f, 0.43f },
                            { 0.72f, 0.71f, 0.68f },
                            { 0.92f, 0.90f, 0.85f },
                            { 0.97f, 0.95f, 0.90f },
                            { 1.00f, 0.99f, 0.96f } } },
};

/// The colour of tone t on the ramp of palette p, into rgb[0..2].
static inline void
ramp_colour(const P4dPalette* p, float t, float* rgb)
{
  const float u = (t > 1.0f   ? 1.0f
                   : t > 0.0f ? t
                              : 0.0f) *
                  (float)(P4D_PALETTE_POINTS - 1U);
  const unsigned k = u >= (float)(P4D_PALETTE_POINTS - 1U)
                       ? P4D_PALETTE_POINTS - 2U
                       : (unsigned)u;
  const float    f = u - (float)k;
  for (unsigned c = 0U; c < 3U; ++c) {
    const float a = p->rgb[k][c];
    const float b = p->rgb[k + 1U][c];
    rgb[c]        = a + f * (b - a);
  }
}

void
p4d_palette_colours(unsigned palette, const float* tone, float* rgb, size_t n)
{
  if (palette == P4D_IMAGE_GREY || palette >= P4D_IMAGE_N_PALETTES) {
    // Grey is the tone itself on every channel: no ramp to read.
    for (size_t i = 0U; i < n; ++i) {
      rgb[3U * i] = rgb[3U * i + 1U] = rgb[3U * i + 2U] = tone[i];
    }
    return;
  }
  const P4dPalette* const p = &palettes[palette];
  for (size_t i = 0U; i < n; ++i) {
    ramp_colour(p, tone[i], rgb + 3U * i);
  }
}
