// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The drawing module (src/draw/) on its own: every colour of both themes
  is opaque and spelled for SVG as the same colour; the past is dimmed to
  9/16; value and time axes put high at the top and t0 on the left; a flat
  range opens by half a unit either side; tick steps are 1, 2 or 5 times a
  power of ten; rows of NaN and infinite values stay in the image; a small
  time line (background, grid, playhead) drawn pixel for pixel, with
  nothing written outside its width; blending; anti-aliased curves, flat,
  between rows and as a band (cycles denser than pixels); a row read back
  as RGB bytes.
*/

#undef NDEBUG

#include "draw.h"
#include "theme.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/// The ARGB of a CSS colour as the themes spell them: "white", "#rgb" or
/// "#rrggbb".
static uint32_t
css_argb(const char* css)
{
  if (!strcmp(css, "white")) {
    return 0xFFFFFFFFU;
  }
  assert(css[0] == '#');
  const size_t n = strlen(css + 1);
  assert(n == 3U || n == 6U);
  uint32_t rgb = 0U;
  for (size_t i = 1U; i <= n; ++i) {
    const char     c = css[i];
    const uint32_t digit =
      c >= 'a' ? (uint32_t)(c - 'a' + 10) : (uint32_t)(c - '0');
    assert(digit < 16U);
    rgb = rgb << 4U | digit;
    if (n == 3U) {
      rgb = rgb << 4U | digit; // #444 is #444444
    }
  }
  return 0xFF000000U | rgb;
}

static void
check_colour(const P4dColour* c)
{
  assert((c->argb >> 24U) == 0xFFU);
  if (css_argb(c->css) != c->argb) {
    fprintf(stderr, "%s is not 0x%08X\n", c->css, (unsigned)c->argb);
    assert(false);
  }
}

static void
test_themes(void)
{
  const P4dTheme* const themes[] = { &p4d_theme_dark, &p4d_theme_paper };
  for (unsigned t = 0U; t < 2U; ++t) {
    check_colour(&themes[t]->background);
    check_colour(&themes[t]->past);
    check_colour(&themes[t]->grid);
    check_colour(&themes[t]->playhead);
    for (unsigned c = 0U; c < P4D_THEME_CHANNELS; ++c) {
      check_colour(&themes[t]->channel[c]);
    }
  }
  assert(p4d_theme_dark.channel[0].argb == P4D_THEME_DARK_1);
  assert(p4d_theme_dark.channel[3].argb == P4D_THEME_DARK_4);
  assert(p4d_theme_dim(0xFFFFFFFFU) == 0xFF8F8F8FU);
  assert(p4d_theme_dim(0xFF102030U) == 0xFF09121BU);
}

static void
test_axes(void)
{
  const P4dDrawAxis y = p4d_draw_value_axis(-1.0, 3.0, 20.0, 430.0);
  assert(p4d_draw_at(&y, 3.0) == 20.0);
  assert(p4d_draw_at(&y, -1.0) == 430.0);
  assert(p4d_draw_at(&y, 1.0) == 225.0);
  const P4dDrawAxis x = p4d_draw_time_axis(2.0, 12.0, 70.0, 940.0);
  assert(p4d_draw_at(&x, 2.0) == 70.0);
  assert(p4d_draw_at(&x, 12.0) == 940.0);
  assert(p4d_draw_at(&x, 7.0) == 505.0);

  double low  = 0.25;
  double high = 0.25;
  p4d_draw_widen(&low, &high, 0.0);
  assert(low == -0.25 && high == 0.75);
  p4d_draw_widen(&low, &high, 0.0); // open already: unchanged
  assert(low == -0.25 && high == 0.75);
  low  = 1.0;
  high = 1.0 + 1.0e-9;
  p4d_draw_widen(&low, &high, 1.0e-6);
  assert(low == 0.5 && high == 1.5 + 1.0e-9);

  assert(p4d_draw_tick_step(7.0) == 1.0);
  assert(p4d_draw_tick_step(10.0) == 2.0);
  assert(p4d_draw_tick_step(30.0) == 5.0);
  assert(p4d_draw_tick_step(1000.0) == 200.0);
}

static void
test_rows(void)
{
  const uint32_t h     = 60U;
  const double   bad[] = { NAN, -NAN, INFINITY, -INFINITY, 1.0e308, -1.0e308 };
  for (unsigned i = 0U; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    const int r = p4d_draw_row(h, bad[i], -1.0, 1.0);
    printf("# row of %g: %d (rows 1 to %u)\n", bad[i], r, h - 2U);
    assert(r >= 1 && r <= (int)h - 2);
  }
  assert(p4d_draw_row(h, NAN, -1.0, 1.0) == 1);
  assert(p4d_draw_row(h, INFINITY, -1.0, 1.0) == 1);
  assert(p4d_draw_row(h, -INFINITY, -1.0, 1.0) == (int)h - 2);
  assert(p4d_draw_row(h, 1.0, -1.0, 1.0) == 1);
  assert(p4d_draw_row(h, -1.0, -1.0, 1.0) == (int)h - 2);
  assert(p4d_draw_row(h, 0.5, NAN, 1.0) == (int)h / 2);
  assert(p4d_draw_row(h, 0.5, 1.0, 1.0) == (int)h / 2);
}

#define W 6U
#define H 8U
#define STRIDE 8U
#define GUARD 0x12345678U

/// The time line of test_picture(), one letter per pixel: p past, f
/// future, g grid, | the playhead.
static const char* const picture[H] = {
  "pp|fff", "pp|fff", "pp|fff", "pp|fff",
  "pp|fff", "pp|fff", "pp|fff", "gg|fgg",
};

static void
test_picture(void)
{
  const P4dTheme* const t = &p4d_theme_dark;
  uint32_t              px[H * STRIDE];
  for (unsigned i = 0U; i < H * STRIDE; ++i) {
    px[i] = GUARD;
  }
  const P4dDrawSurface s = { px, W, H, STRIDE };
  p4d_draw_background(&s, t, 2U);
  p4d_draw_dashes(&s, 7, t->grid.argb);
  p4d_draw_dashes(&s, -1, t->grid.argb); // outside: nothing
  p4d_draw_dashes(&s, (int)H, t->grid.argb);
  p4d_draw_column(&s, 2U, t->playhead.argb);
  p4d_draw_column(&s, W, t->playhead.argb); // outside: nothing

  for (uint32_t y = 0U; y < H; ++y) {
    for (uint32_t x = 0U; x < STRIDE; ++x) {
      uint32_t want = GUARD;
      if (x < W) {
        const char c = picture[y][x];
        want         = c == 'p'   ? t->past.argb
                       : c == 'f' ? t->background.argb
                       : c == 'g' ? t->grid.argb
                                  : t->playhead.argb;
      }
      if (px[y * STRIDE + x] != want) {
        fprintf(stderr,
                "pixel (%u, %u) is 0x%08X, not 0x%08X\n",
                (unsigned)x,
                (unsigned)y,
                (unsigned)px[y * STRIDE + x],
                (unsigned)want);
        assert(false);
      }
    }
  }
}

/// Blending: 0 keeps, 1 replaces, a half rounds each channel to nearest
/// (as lround(), at every pair of channels), coverage beyond 0..1 is
/// clamped and NaN keeps the pixel, the result is opaque.
static void
test_blend(void)
{
  uint32_t p = 0xFF000000U;
  p4d_draw_blend(&p, 0xFF0A0B0CU, 0.0);
  assert(p == 0xFF000000U);
  p4d_draw_blend(&p, 0xFF0A0B0CU, 0.5);
  assert(p == 0xFF050606U); // 5, 5.5 -> 6, 6
  p4d_draw_blend(&p, 0xFFFFFFFFU, 7.0);
  assert(p == 0xFFFFFFFFU);
  p = 0x00102030U;
  p4d_draw_blend(&p, 0xFF102030U, -3.0);
  assert(p == 0xFF102030U);
  // NaN keeps the pixel (it made a channel 0 when lround() rounded).
  p = 0xFF102030U;
  p4d_draw_blend(&p, 0xFFFFFFFFU, (double)NAN);
  assert(p == 0xFF102030U);

  // Every channel pair at coverages on a fine grid and at the halves:
  // rounded as lround() rounds (the drawing's pixels before it stopped
  // calling it).
  static const double halves[] = { 0.5 / 255.0, 0.25, 0.3, 0.5, 0.75 };
  for (uint32_t under = 0U; under < 256U; ++under) {
    for (uint32_t over = 0U; over < 256U; over += 3U) {
      for (int k = 0; k < 69; ++k) {
        const double a = k < 64 ? k / 63.0 : halves[k - 64];
        uint32_t     q = 0xFF000000U | under;
        p4d_draw_blend(&q, 0xFF000000U | over, a);
        const double x = (double)under + a * ((double)over - (double)under);
        assert((q & 0xFFU) == (uint32_t)lround(x));
      }
    }
  }
}

/// The pixel (x, y) of a curve of colour c over background b at coverage
/// a, as p4d_draw_blend() makes it.
static uint32_t
mix(uint32_t b, uint32_t c, double a)
{
  p4d_draw_blend(&b, c, a);
  return b;
}

/**
   Curves, anti-aliased: a flat one on a row's centre is that row in full
   and a quarter of each neighbour (P4D_DRAW_LINE_PX 1.5); one half-way
   between two rows is three quarters of each; one that swings from the
   top to the bottom within every column is a solid band (not a hatch);
   the past is dimmed; nothing is written outside the width or on a
   surface too low for a scale.
*/
static void
test_curve(void)
{
  const P4dTheme* const t = &p4d_theme_dark;
  uint32_t              px[H * STRIDE];
  const P4dDrawSurface  s     = { px, W, H, STRIDE };
  const uint32_t        curve = t->channel[1].argb;
  const uint32_t        bg    = t->background.argb;
  assert(P4D_DRAW_LINE_PX == 1.5);

  // Rows 1 (top) to 6 (bottom) for 2.5 to -2.5: 0.5 is row 3, 0 row 3.5.
  for (unsigned k = 0U; k < 3U; ++k) {
    for (unsigned i = 0U; i < H * STRIDE; ++i) {
      px[i] = (i % STRIDE) < W ? bg : GUARD;
    }
    float v[2U * W + 1U];
    for (unsigned i = 0U; i <= 2U * W; ++i) {
      v[i] = k == 0U ? 0.5f : k == 1U ? 0.0f : (i & 1U) ? -2.5f : 2.5f;
    }
    p4d_draw_curve(&s, v, 2U, -2.5, 2.5, curve, 1U);
    for (uint32_t y = 0U; y < H; ++y) {
      for (uint32_t x = 0U; x < STRIDE; ++x) {
        const uint32_t c = x < 1U ? p4d_theme_dim(curve) : curve;
        double         a = 0.0;
        if (k == 0U) {
          a = y == 3U ? 1.0 : y == 2U || y == 4U ? 0.25 : 0.0;
        } else if (k == 1U) {
          a = y == 3U || y == 4U ? 0.75 : 0.0;
        } else {
          a = y >= 1U && y <= 6U ? 1.0 : y == 0U || y == 7U ? 0.25 : 0.0;
        }
        const uint32_t want = x >= W ? GUARD : mix(bg, c, a);
        if (px[y * STRIDE + x] != want) {
          fprintf(stderr,
                  "curve %u: pixel (%u, %u) is 0x%08X, not 0x%08X\n",
                  k,
                  (unsigned)x,
                  (unsigned)y,
                  (unsigned)px[y * STRIDE + x],
                  (unsigned)want);
          assert(false);
        }
      }
    }
  }

  // A run with a NaN end draws nothing; one far beyond the image fills
  // its column and nothing outside.
  for (unsigned i = 0U; i < H * STRIDE; ++i) {
    px[i] = GUARD;
  }
  p4d_draw_run(&s, 0U, NAN, 3.0, curve);
  p4d_draw_run(&s, 1U, -1.0e300, 1.0e300, curve);
  p4d_draw_run(&s, 2U, 1.0e300, 2.0e300, curve);
  p4d_draw_run(&s, W, 0.0, 3.0, curve);
  for (size_t y = 0U; y < H; ++y) {
    const uint32_t* const row = px + y * STRIDE;
    assert(row[0] == GUARD && row[2] == GUARD && row[1] == curve);
  }

  // Too low for a scale, or no samples per column: nothing drawn.
  const P4dDrawSurface flat      = { px, W, 2U, STRIDE };
  const float          v[W + 1U] = { 0.0f };
  px[0]                          = GUARD;
  px[STRIDE + 1U]                = GUARD;
  p4d_draw_curve(&flat, v, 1U, -1.0, 1.0, curve, 0U);
  p4d_draw_curve(&s, v, 0U, -1.0, 1.0, curve, 0U);
  assert(px[0] == GUARD && px[STRIDE + 1U] == GUARD);
}

static void
test_rgb(void)
{
  uint32_t             px[4] = { 0xFF123456U, 0xFFABCDEFU, 0U, 0U };
  const P4dDrawSurface s     = { px, 2U, 2U, 2U };
  uint8_t              rgb[7];
  rgb[6] = 0x5AU;
  p4d_draw_rgb(&s, 0U, rgb);
  static const uint8_t want[6] = { 0x12U, 0x34U, 0x56U, 0xABU, 0xCDU, 0xEFU };
  assert(!memcmp(rgb, want, 6U) && rgb[6] == 0x5AU);
}

int
main(void)
{
  test_themes();
  test_axes();
  test_rows();
  test_picture();
  test_blend();
  test_curve();
  test_rgb();
  return 0;
}
