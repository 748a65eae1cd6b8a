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

  Palettes are a few control points each, display (gamma-encoded sRGB)
  values at evenly spaced tones, interpolated linearly between them in
  display values.  They are this project's own: magma (black through
  purple and coral to pale yellow), ocean (deep navy through teal to foam),
  terrain (sea, shore, grass, forest, rock, snow: the tone as height) and
  fire (black, ember red, orange, yellow, white).  Grey is the tone on
  every channel.
*/

#include "image_private.h"

#include "phi_map.h"

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
};

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
p4d_image_palette_colours(unsigned     palette,
                          const float* tone,
                          float*       rgb,
                          size_t       n)
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
