// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Image engine (src/image/image.h): loops (frame N is frame 0, bit for
  bit, and the step across the loop point is like any other), rows that do
  not depend on how a frame is cut, every code path the same bits, hostile
  parameters and times, the tone maps and palettes, the facts.
*/

#undef NDEBUG

#include "image.h"
#include "isa.h"
#include "params.h"

#include "support/compare.h"
#include "support/frames.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Mean |a - b| over the pixels' tones.
static double
mean_step(const P4dFrame* a, const P4dFrame* b)
{
  double       sum = 0.0;
  const size_t n   = (size_t)a->w * a->h;
  for (size_t i = 0U; i < n; ++i) {
    sum += fabs((double)a->tone[i] - b->tone[i]);
  }
  return sum / (double)n;
}

/// Settings of the loop tests: song beats, a loop of 4 beats.
static void
loop_params(float* p, float fractal)
{
  p4d_frames_params(p, "clock=1 period_beats=0.5 loop_beats=4 octaves=5");
  p[P4D_IMAGE_FRACTAL] = fractal;
}

/*
  Frame N is frame 0 when N frames are whole loops: 4 beats at 120 bpm are
  2 s, 60 frames at 30 fps and 60000 at 30000/1001 (2 s is 59.94 frames,
  and 1001 loops are 60000).  The step from frame N - 1 to frame N (the
  loop point) is within 25 % of the mean step of the frames beside it.
*/
static void
test_loop(float fractal)
{
  float p[P4D_IMAGE_N_PARAMS];
  loop_params(p, fractal);

  P4dFrame frames[62];
  for (int64_t n = 0; n < 62; ++n) {
    frames[n] =
      p4d_frames_render(p, 48U, 32U, &(P4dImageTime){ n, 30U, 1U, 0.0 }, 32U);
  }
  assert(p4d_frames_same(&frames[0], &frames[60]) &&
         p4d_frames_same(&frames[1], &frames[61]));
  assert(!p4d_frames_same(&frames[0], &frames[30]));

  double beside = 0.0;
  for (unsigned n = 50U; n < 60U; ++n) {
    beside += mean_step(&frames[n - 1U], &frames[n]) / 10.0;
  }
  const double across = mean_step(&frames[59], &frames[60]);
  printf("# loop (fractal %g): step across the loop point %.5f, beside %.5f\n",
         (double)fractal,
         across,
         beside);
  assert(across > 0.75 * beside && across < 1.25 * beside);
  for (unsigned n = 0U; n < 62U; ++n) {
    p4d_frames_free(&frames[n]);
  }

  // Rational rates, late in a song, and a start that is not whole.
  P4dFrame a =
    p4d_frames_render(p, 16U, 8U, &(P4dImageTime){ 7, 30000U, 1001U, 3.5 }, 8U);
  P4dFrame b = p4d_frames_render(
    p, 16U, 8U, &(P4dImageTime){ 7 + 60000, 30000U, 1001U, 3.5 }, 8U);
  P4dFrame c = p4d_frames_render(
    p, 16U, 8U, &(P4dImageTime){ 7 + 60000 * 1000, 30000U, 1001U, 3.5 }, 8U);
  assert(p4d_frames_same(&a, &b) && p4d_frames_same(&a, &c));
  p4d_frames_free(&a);
  p4d_frames_free(&b);
  p4d_frames_free(&c);
}

/*
  Stretch s draws each cell s times taller: with stretch 2, row 2k is row k
  at stretch 1 bit for bit (the step down halves exactly), for every type,
  warped or not.
*/
static void
test_stretch(void)
{
  for (unsigned type = 0U; type <= P4D_IMAGE_VEINS; ++type) {
    float p[P4D_IMAGE_N_PARAMS];
    p4d_frames_params(p, "fractal=1");
    p[P4D_IMAGE_TYPE] = (float)type;
    p[P4D_IMAGE_WARP] = type % 2U ? 0.3f : 0.0f;
    P4dFrame one =
      p4d_frames_render(p, 32U, 16U, &(P4dImageTime){ 5, 30U, 1U, 0.0 }, 16U);
    p[P4D_IMAGE_STRETCH] = 2.0f;
    P4dFrame two =
      p4d_frames_render(p, 32U, 32U, &(P4dImageTime){ 5, 30U, 1U, 0.0 }, 7U);
    unsigned moved = 0U; // odd rows that differ from the row above
    for (uint32_t y = 0U; y < 16U; ++y) {
      for (uint32_t x = 0U; x < 32U; ++x) {
        const size_t a = (size_t)y * 32U + x;
        const size_t b = (size_t)(2U * y) * 32U + x;
        assert(one.value[a] == two.value[b] && one.tone[a] == two.tone[b]);
        moved += two.value[b + 32U] != two.value[b] ? 1U : 0U;
      }
    }
    // Odd rows are new points between: not a copy of their neighbours.
    assert(moved > 400U);
    p4d_frames_free(&one);
    p4d_frames_free(&two);
  }
  printf("# stretch 2: row 2k is row k of stretch 1, bit for bit, 5 types\n");
}

/// Rows are pure functions of the frame and the row: any cut, the same.
static void
test_cuts(void)
{
  float p[P4D_IMAGE_N_PARAMS];
  p4d_frames_params(p, "fractal=1 octaves=6 warp=0.5");
  const uint32_t cuts[] = { 1U, 3U, 7U, 64U, 1000U };
  P4dFrame       whole =
    p4d_frames_render(p, 300U, 64U, &(P4dImageTime){ 5, 24U, 1U, 1.0 }, 64U);
  for (size_t i = 0U; i < sizeof(cuts) / sizeof(cuts[0]); ++i) {
    P4dFrame cut = p4d_frames_render(
      p, 300U, 64U, &(P4dImageTime){ 5, 24U, 1U, 1.0 }, cuts[i]);
    assert(p4d_frames_same(&whole, &cut));
    p4d_frames_free(&cut);
  }

  // Rows past the bottom are not written; only value or only tone.
  const P4dImageSetup setup = { 300U, 64U, 48000.0, 120.0 };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame));
  const P4dImageTime time = { 5, 24U, 1U, 1.0 };
  p4d_image_frame_set(frame, p, &time);
  const size_t w   = 300U;
  float*       row = (float*)malloc(3U * w * sizeof(float));
  assert(row);
  for (size_t i = 0U; i < 3U * w; ++i) {
    row[i] = -7.0f;
  }
  p4d_image_frame_rows(frame, 63U, 3U, row, NULL);
  assert(p4d_first_difference(row, whole.value + 63U * w, w) == w);
  assert(row[300] == -7.0f && row[899] == -7.0f);
  p4d_image_frame_rows(frame, 10U, 1U, NULL, row);
  assert(p4d_first_difference(row, whole.tone + 10U * w, w) == w);
  p4d_image_frame_rows(frame, 64U, 1U, row, row);
  p4d_image_frame_rows(frame, 0U, 0U, row, row);
  p4d_image_frame_free(frame);
  free(row);
  p4d_frames_free(&whole);
}

/// Every code path gives the same bits (fractal off and on, warped, types).
static void
test_paths(void)
{
  const P4dIsa was = p4d_isa_current();
  for (unsigned t = 0U; t < 4U; ++t) {
    float p[P4D_IMAGE_N_PARAMS];
    p4d_frames_params(p, "octaves=7.5 scale=37");
    p[P4D_IMAGE_TYPE]    = (float)t;
    p[P4D_IMAGE_FRACTAL] = (float)(t % 2U);
    p[P4D_IMAGE_WARP]    = t == 2U ? 0.8f : 0.0f;
    p4d_isa_use(P4D_ISA_SCALAR);
    P4dFrame ref = p4d_frames_render(
      p, 200U, 16U, &(P4dImageTime){ 3, 25U, 1U, 100.0 }, 16U);
    for (unsigned isa = 1U; isa < P4D_ISA_COUNT; ++isa) {
      if (!p4d_isa_supported((P4dIsa)isa)) {
        continue;
      }
      p4d_isa_use((P4dIsa)isa);
      P4dFrame pic = p4d_frames_render(
        p, 200U, 16U, &(P4dImageTime){ 3, 25U, 1U, 100.0 }, 5U);
      assert(p4d_frames_same(&ref, &pic));
      p4d_frames_free(&pic);
      if (t == 0U) {
        printf("# %s: the bits of the scalar path\n",
               p4d_isa_name((P4dIsa)isa));
      }
    }
    p4d_frames_free(&ref);
  }
  p4d_isa_use(was);
}

/// Hostile parameters and times: every value finite, every tone in [0, 1].
static void
test_hostile(void)
{
  const float bad[] = { NAN, INFINITY, -INFINITY, 1.0e30f, -1.0e30f, 0.0f };
  const P4dImageTime times[] = {
    { 0, 30U, 1U, NAN },
    { -5, 0U, 0U, -1.0e300 },
    { INT64_MAX / 2, 1U, 0xFFFFFFFFU, 1.0e15 },
    { -INT64_MAX / 2, 0xFFFFFFFFU, 1U, INFINITY },
  };
  const P4dImageSetup setup = { 64U, 4U, NAN, -3.0 };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame));
  float value[256];
  float tone[256];
  for (size_t b = 0U; b < sizeof(bad) / sizeof(bad[0]); ++b) {
    for (uint32_t i = 0U; i < P4D_IMAGE_N_PARAMS; ++i) {
      float p[P4D_IMAGE_N_PARAMS];
      p4d_frames_params(p, "warp=0.5");
      p[P4D_IMAGE_FRACTAL] = (float)(i % 2U);
      p[i]                 = bad[b];
      for (size_t t = 0U; t < sizeof(times) / sizeof(times[0]); ++t) {
        p4d_image_frame_set(frame, p, &times[t]);
        p4d_image_frame_rows(frame, 0U, 4U, value, tone);
        for (unsigned k = 0U; k < 256U; ++k) {
          assert(isfinite(value[k]) && tone[k] >= 0.0f && tone[k] <= 1.0f);
        }
        float rgb[3];
        p4d_image_frame_colour(frame, tone, rgb, 1U);
        assert(rgb[0] >= 0.0f && rgb[0] <= 1.0f);
        P4dImageFacts facts;
        p4d_image_frame_facts(frame, &facts);
        assert(facts.cells_x > 0.0 && facts.cells_y > 0.0);
      }
    }
  }
  p4d_image_frame_free(frame);

  // Sizes out of the contract are refused.
  const P4dImageSetup sizes[] = {
    { 0U, 1U, 48000.0, 120.0 },
    { 1U, 0U, 48000.0, 120.0 },
    { P4D_IMAGE_MAX_SIDE + 1U, 1U, 48000.0, 120.0 },
    { P4D_IMAGE_MAX_SIDE, P4D_IMAGE_MAX_SIDE, 48000.0, 120.0 },
    { 65536U, 65536U, 48000.0, 120.0 },
  };
  for (size_t i = 0U; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
    P4dImageFrame* f = NULL;
    assert(p4d_image_frame_new(&sizes[i], &f) == P4D_ERR_BAD_ARG && !f);
  }
  p4d_image_frame_free(NULL);
}

/// Tones: the even map spends as long in every tenth; linear is 0.5 + z/6;
/// palettes: grey is the tone, colours go from their first to last point.
static void
test_tones(void)
{
  float p[P4D_IMAGE_N_PARAMS];
  p4d_frames_params(p, "fractal=1 octaves=6 scale=64");
  P4dFrame even =
    p4d_frames_render(p, 512U, 256U, &(P4dImageTime){ 0, 1U, 1U, 0.0 }, 256U);
  p[P4D_IMAGE_TONE] = 1.0f;
  P4dFrame linear =
    p4d_frames_render(p, 512U, 256U, &(P4dImageTime){ 0, 1U, 1U, 0.0 }, 256U);
  assert(p4d_first_difference(even.value, linear.value, (size_t)512U * 256U) ==
         (size_t)512U * 256U);

  unsigned     tenths[10] = { 0U };
  double       sum        = 0.0;
  double       sum2       = 0.0;
  const size_t n          = (size_t)512U * 256U;
  for (size_t i = 0U; i < n; ++i) {
    const float z = even.value[i];
    const float t = 0.5f + z / 6.0f;
    assert(linear.tone[i] == (t > 1.0f ? 1.0f : t < 0.0f ? 0.0f : t));
    ++tenths[even.tone[i] >= 1.0f ? 9 : (int)(even.tone[i] * 10.0f)];
    sum += z;
    sum2 += (double)z * z;
  }
  const double sd =
    sqrt(sum2 / (double)n - (sum / (double)n) * (sum / (double)n));
  printf("# fBm z: mean %.3f, sd %.3f; even tone, pixels per tenth:",
         sum / (double)n,
         sd);
  for (unsigned k = 0U; k < 10U; ++k) {
    printf(" %.3f", (double)tenths[k] / (double)n);
    assert(tenths[k] > n / 20U && tenths[k] < n / 5U);
  }
  printf("\n");
  assert(sd > 0.7 && sd < 1.3);
  p4d_frames_free(&even);
  p4d_frames_free(&linear);

  const P4dImageSetup setup = { 4U, 1U, 48000.0, 120.0 };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame));
  const float        tones[4] = { 0.0f, 0.3f, 0.77f, 1.0f };
  float              rgb[12];
  const P4dImageTime time = { 0, 1U, 1U, 0.0 };
  for (int palette = 0; palette < P4D_IMAGE_N_PALETTES; ++palette) {
    p4d_frames_defaults(p);
    p[P4D_IMAGE_PALETTE] = (float)palette;
    p4d_image_frame_set(frame, p, &time);
    assert(p4d_image_frame_grey(frame) == (palette == P4D_IMAGE_GREY));
    p4d_image_frame_colour(frame, tones, rgb, 4U);
    for (unsigned i = 0U; i < 12U; ++i) {
      assert(rgb[i] >= 0.0f && rgb[i] <= 1.0f);
      assert(palette != P4D_IMAGE_GREY || rgb[i] == tones[i / 3U]);
    }
    // Dark to bright, for every palette.
    assert(rgb[0] + rgb[1] + rgb[2] < rgb[9] + rgb[10] + rgb[11]);
  }
  p4d_image_frame_free(frame);
}

/// The facts: song time, cells, where the Mod's channels are.
static void
test_facts(void)
{
  float p[P4D_IMAGE_N_PARAMS];
  p4d_frames_defaults(p);
  const P4dImageSetup setup = { 512U, 256U, 48000.0, 90.0 };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame));
  const P4dImageTime time = { 10, 30000U, 1001U, 2.0 };
  p4d_image_frame_set(frame, p, &time);
  P4dImageFacts f;
  p4d_image_frame_facts(frame, &f);
  assert(f.song_s == 2.0 + 10.0 * 1001.0 / 30000.0);
  assert(fabs(f.song_beats - f.song_s * 1.5) < 1e-12);
  assert(fabs(f.w - f.song_s * 0.5) < 1e-12); // rate_hz 0.5
  assert(f.cells_x == 8.0 && f.cells_y == 4.0);
  // Spread 1: the channels 3.5 / sqrt 2 cells either side of the centre,
  // which is 4 cells from the left and top edges (offsets -4), 64 pixels
  // a cell.
  const double d = 3.5 * 0.70710678118654752440 * 64.0;
  assert(fabs(f.mod_x[0] - (256.0 + d)) < 1e-6);
  assert(fabs(f.mod_y[0] - (256.0 + d)) < 1e-6);
  assert(fabs(f.mod_x[3] - (256.0 - d)) < 1e-6);
  assert(fabs(f.mod_y[1] - (256.0 - d)) < 1e-6);

  p[P4D_IMAGE_TILE]  = 1.0f;
  p[P4D_IMAGE_SCALE] = 5.3f;
  p4d_image_frame_set(frame, p, &time);
  p4d_image_frame_facts(frame, &f);
  assert(f.cells_x == 5.0 && f.cells_y == 3.0);
  p4d_image_frame_free(frame);
}

/// The level of the multiplicative types (hybrid, hetero) is measured per
/// field: it must depend on the settings only, not on the frame's time or
/// place, or an animation's level drifts and a terrain's tiles differ.
static void
test_type_measure(void)
{
  const P4dImageSetup setup = { 64U, 64U, 48000.0, 120.0 };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame));
  static const char* const settings[] = {
    "type=5 octaves=6 persistence=0.84",
    "type=6 octaves=4 fractal=1",
    "type=5 basis=1 octaves=5",
  };
  for (size_t s = 0U; s < sizeof(settings) / sizeof(settings[0]); ++s) {
    P4dImageFacts first;
    for (int k = 0; k < 4; ++k) {
      float p[P4D_IMAGE_N_PARAMS];
      p4d_frames_params(p, settings[s]);
      p[P4D_IMAGE_MORPH_X]    = 1.25f * (float)k;
      p[P4D_IMAGE_OFFSET_Y]   = -64.0f * (float)k;
      const P4dImageTime time = { (int64_t)37 * k, 30U, 1U, 0.0 };
      p4d_image_frame_set(frame, p, &time);
      P4dImageFacts f;
      p4d_image_frame_facts(frame, &f);
      if (k == 0) {
        first = f;
        printf("# %s: measured mean %.4f, sd %.4f\n",
               settings[s],
               f.type_mean,
               f.type_std);
        assert(f.type_std > 0.0);
      } else {
        printf("#   frame %d, morph_x %.2f: mean %.4f, sd %.4f\n",
               37 * k,
               (double)p[P4D_IMAGE_MORPH_X],
               f.type_mean,
               f.type_std);
        assert(f.type_mean == first.type_mean && f.type_std == first.type_std);
      }
    }
  }
  float p[P4D_IMAGE_N_PARAMS];
  p4d_frames_defaults(p);
  p4d_image_frame_set(frame, p, &(P4dImageTime){ 0, 30U, 1U, 0.0 });
  P4dImageFacts f;
  p4d_image_frame_facts(frame, &f);
  assert(f.type_mean == 0.0 && f.type_std == 0.0); // fBm: its constants
  p4d_image_frame_free(frame);
}

int
main(void)
{
  test_loop(0.0f);
  test_loop(1.0f);
  test_cuts();
  test_stretch();
  test_paths();
  test_hostile();
  test_tones();
  test_facts();
  test_type_measure();
  return 0;
}
