// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Image's tiles and types (src/image/image_field.c): with tile on, the
  step across the seam (the last column to the first, the last row to the
  first) is statistically the steps beside it, for every number of
  octaves, fractal off and on, warped or not; a frame moved by whole tiles
  (negative offsets too) is the same frame; tile and loop together give
  frame N == frame 0, bit for bit; and each type's z is unit-ish.
*/

#undef NDEBUG

#include "image.h"
#include "params.h"

#include "support/frames.h"
#include "support/stats.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>

static const P4dImageTime frame0 = { 0, 30U, 1U, 1.5 };

/// Mean |value(x + 1) - value(x)| down column pair (x, x + 1 mod w).
static double
column_step(const P4dFrame* p, uint32_t x)
{
  const uint32_t next = (x + 1U) % p->w;
  double         sum  = 0.0;
  for (uint32_t y = 0U; y < p->h; ++y) {
    const float* const row = p->value + (size_t)y * p->w;
    sum += fabs((double)row[next] - row[x]);
  }
  return sum / p->h;
}

/// Mean |value(y + 1) - value(y)| along row pair (y, y + 1 mod h).
static double
row_step(const P4dFrame* p, uint32_t y)
{
  const uint32_t     next = (y + 1U) % p->h;
  const float* const a    = p->value + (size_t)y * p->w;
  const float* const b    = p->value + (size_t)next * p->w;
  double             sum  = 0.0;
  for (uint32_t x = 0U; x < p->w; ++x) {
    sum += fabs((double)b[x] - a[x]);
  }
  return sum / p->w;
}

/**
   A seam at column (or row) s against its neighbours: the step from s - 1
   to s over the mean of the 4 steps either side (s = 0: the picture's
   wrap, the last column to the first).
*/
static double
seam_ratio(const P4dFrame* p, bool across, uint32_t s)
{
  const uint32_t n    = across ? p->w : p->h;
  double         side = 0.0;
  for (uint32_t d = 1U; d <= 4U; ++d) {
    const uint32_t before = (s + n - 1U - d) % n;
    const uint32_t after  = (s + d - 1U) % n;
    side += across ? column_step(p, before) + column_step(p, after)
                   : row_step(p, before) + row_step(p, after);
  }
  side /= 8.0;
  const uint32_t at   = (s + n - 1U) % n;
  const double   seam = across ? column_step(p, at) : row_step(p, at);
  return seam / side;
}

/**
   The wrap's seam against the same measure at 8 places inside the
   picture: the largest |ratio - 1| inside, and the wrap's, in *wrap.
*/
static double
seam_spread(const P4dFrame* p, bool across, double* wrap)
{
  const uint32_t n     = across ? p->w : p->h;
  double         worst = 0.0;
  for (uint32_t k = 1U; k <= 8U; ++k) {
    worst = fmax(worst, fabs(seam_ratio(p, across, k * n / 9U) - 1.0));
  }
  *wrap = seam_ratio(p, across, 0U);
  return worst;
}

static void
test_seams(float fractal, float warp)
{
  // Warped fields cost three fields and a point each: every other count.
  const unsigned by = warp > 0.0f ? 2U : 1U;
  for (unsigned octaves = 1U; octaves <= (fractal ? 5U : 2U); octaves += by) {
    float p[P4D_IMAGE_N_PARAMS];
    p4d_frames_params(p,
                      "tile=1 persistence=0.7 offset_x=-1000.3 offset_y=77.7");
    p[P4D_IMAGE_FRACTAL] = fractal;
    p[P4D_IMAGE_WARP]    = warp;
    p[P4D_IMAGE_OCTAVES] = (float)octaves;
    // 2 cells across 128 pixels (octave 4 still below a quarter of a cell
    // per pixel), 64 down 4096: columns of many cells; and the same turned.
    p[P4D_IMAGE_SCALE] = 2.0f;
    P4dFrame tall      = p4d_frames_render(p, 128U, 4096U, &frame0, 4096U);
    p[P4D_IMAGE_SCALE] = 64.0f;
    P4dFrame     wide  = p4d_frames_render(p, 4096U, 128U, &frame0, 128U);
    double       rx    = 0.0;
    double       ry    = 0.0;
    const double ix    = seam_spread(&tall, true, &rx);
    const double iy    = seam_spread(&wide, false, &ry);
    printf("# tile, fractal %g, warp %g, %u octaves: seam / beside %.3f "
           "across, %.3f down (inside: within %.3f, %.3f of 1)\n",
           (double)fractal,
           (double)warp,
           octaves,
           rx,
           ry,
           ix,
           iy);
    assert(fabs(rx - 1.0) <= ix + 0.02 && fabs(ry - 1.0) <= iy + 0.02);
    p4d_frames_free(&tall);
    p4d_frames_free(&wide);
  }
}

/// Moved by whole tiles, any way, the frame is the same (up to the
/// rounding of the moved coordinates).
static void
test_whole_tiles(void)
{
  float p[P4D_IMAGE_N_PARAMS];
  // Scale 4.4 on 128 x 64: 4 cells across, 2 down.
  p4d_frames_params(p,
                    "tile=1 fractal=1 octaves=5 scale=4.4 offset_x=0.25 "
                    "offset_y=0.5");
  P4dFrame    ref        = p4d_frames_render(p, 128U, 64U, &frame0, 64U);
  const float moves[][2] = {
    { 4.0f, 0.0f }, { -8.0f, 2.0f }, { -4000.0f, -2000.0f }, { 400.0f, -6.0f }
  };
  double worst = 0.0;
  for (size_t m = 0U; m < sizeof(moves) / sizeof(moves[0]); ++m) {
    float q[P4D_IMAGE_N_PARAMS];
    for (unsigned i = 0U; i < P4D_IMAGE_N_PARAMS; ++i) {
      q[i] = p[i];
    }
    q[P4D_IMAGE_OFFSET_X] += moves[m][0];
    q[P4D_IMAGE_OFFSET_Y] += moves[m][1];
    P4dFrame pic = p4d_frames_render(q, 128U, 64U, &frame0, 64U);
    for (size_t i = 0U; i < (size_t)128U * 64U; ++i) {
      worst = fmax(worst, fabs((double)pic.value[i] - ref.value[i]));
    }
    p4d_frames_free(&pic);
  }
  printf("# moved by whole tiles: largest difference %.3g\n", worst);
  assert(worst < 1e-4);
  p4d_frames_free(&ref);
}

/// Tile and loop at once: frame N is frame 0, bit for bit, and tiles.
static void
test_tile_loop(void)
{
  float p[P4D_IMAGE_N_PARAMS];
  p4d_frames_params(
    p, "tile=1 fractal=1 warp=0.3 clock=1 period_beats=2 loop_beats=8");
  const P4dImageTime a  = { 3, 24U, 1U, 0.0 };
  const P4dImageTime b  = { 3 + 96, 24U, 1U, 0.0 }; // 8 beats: 4 s
  P4dFrame           pa = p4d_frames_render(p, 64U, 64U, &a, 64U);
  P4dFrame           pb = p4d_frames_render(p, 64U, 64U, &b, 7U);
  assert(p4d_frames_same(&pa, &pb));
  p4d_frames_free(&pa);
  p4d_frames_free(&pb);
  printf("# tile and loop: frame 99 is frame 3 (8 beats at 24 fps)\n");
}

/// Every type's z: mean and deviation near 0 and 1 (unit-ish), measured
/// over a large frame of fine cells.
static void
test_types(void)
{
  static const char* const names[] = { "fbm",        "ridged", "billow",
                                       "turbulence", "veins",  "hybrid",
                                       "hetero" };
  for (unsigned t = 0U; t < sizeof(names) / sizeof(names[0]); ++t) {
    for (unsigned octaves = 1U; octaves <= 5U; octaves += 2U) {
      float p[P4D_IMAGE_N_PARAMS];
      p4d_frames_defaults(p);
      p[P4D_IMAGE_TYPE]    = (float)t;
      p[P4D_IMAGE_FRACTAL] = 1.0f;
      p[P4D_IMAGE_OCTAVES] = (float)octaves;
      // 32 x 16 cells, 64 pixels a cell: octave 4 is still whole.
      p[P4D_IMAGE_SCALE] = 32.0f;
      P4dFrame pic       = p4d_frames_render(p, 2048U, 1024U, &frame0, 64U);
      double   mean      = 0.0;
      double   sd        = 0.0;
      p4d_mean_sd(pic.value, (size_t)2048U * 1024U, &mean, &sd);
      printf("# %-10s %u octaves: z mean %+.3f, sd %.3f\n",
             names[t],
             octaves,
             mean,
             sd);
      assert(fabs(mean) < 0.1 && sd > 0.85 && sd < 1.15);
      p4d_frames_free(&pic);
    }
  }
}

int
main(void)
{
  test_types();
  test_seams(0.0f, 0.0f);
  test_seams(1.0f, 0.0f);
  test_seams(1.0f, 0.6f);
  test_whole_tiles();
  test_tile_loop();
  return 0;
}
