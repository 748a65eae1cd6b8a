// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The inline display (issue 13, item 1), hosted through lilv as Ardour
  hosts it: every plugin returns the interface from extension_data and
  renders an opaque image of the host's width, at most the height offered
  and half the width.  The curves of Mod (both clocks) and Motion (its gain
  target) are where an engine that plays straight through the drawn song
  frames puts them, within a pixel, in every future column where their
  colour shows; the Noise draws its gust envelope, flat at the level
  without gusts.  The window's layout is re-derived here from display.h's
  description, not taken from display.c.  Each image is written as a PNG
  to display-png/ beside this program, for a reviewer to look at.

  Usage: test_lv2_display BUNDLE_PATH
*/

#undef NDEBUG

#include "display.h"
#include "engine.h"
#include "motion.h"
#include "params.h"
#include "support/host.h"
#include "support/png.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/// The playhead: 90 s into the song, after one block.
#define BLOCK 256U
#define PLAYHEAD (P4D_HOST_SONG_F + (int64_t)BLOCK)

static char png_dir[512];

/// Column of the playhead in an image w wide (display.h: the window runs
/// from P4D_DISPLAY_PAST_S before it to P4D_DISPLAY_FUTURE_S after).
static uint32_t
head_of(uint32_t w)
{
  const double span = P4D_DISPLAY_PAST_S + P4D_DISPLAY_FUTURE_S;
  return (uint32_t)((double)w * P4D_DISPLAY_PAST_S / span);
}

/// Song frame of column x.
static int64_t
frame_of(uint32_t w, uint32_t x)
{
  const double span = P4D_DISPLAY_PAST_S + P4D_DISPLAY_FUTURE_S;
  return PLAYHEAD + (int64_t)llround(((double)x - head_of(w)) * span *
                                     P4D_HOST_RATE / (double)w);
}

/// Row of v on the scale low (bottom) to high (top), one row of margin.
static double
row_of(uint32_t h, double v, double low, double high)
{
  const double bottom = (double)h - 2.0;
  const double r      = 1.0 + (high - v) / (high - low) * (bottom - 1.0);
  return r < 1.0 ? 1.0 : r > bottom ? bottom : r;
}

typedef struct {
  P4dHost*              host;
  const P4dIdpySurface* s;
} Shown;

/// Play one block into the song at 90 s, rolling at 120 bpm, and render.
static Shown
show(const char* uri, void (*set)(P4dHost*), uint32_t w, uint32_t h)
{
  P4dHost* const host = p4d_host_new(uri, P4D_HOST_RATE, true);
  set(host);
  p4d_host_activate(host);
  const P4dHostTransport tr = {
    true, true, false, P4D_HOST_SONG_F, 1.0f, 120.0
  };
  p4d_host_send_position(host, 0U, &tr, P4D_HOST_SONG_F);
  p4d_host_run(host, NULL, 0U, BLOCK);

  const P4dIdpyInterface* const idpy =
    (const P4dIdpyInterface*)lilv_instance_get_extension_data(
      host->instance, P4D_IDPY__interface);
  assert(idpy && idpy->render);
  const P4dIdpySurface* const s =
    idpy->render(lilv_instance_get_handle(host->instance), w, h);
  assert(s && s->data);
  assert(s->width == (int)w);
  assert(s->height == (int)(h < w / 2U ? h : w / 2U));
  assert(s->stride >= 4 * s->width);
  for (int y = 0; y < s->height; ++y) {
    for (int x = 0; x < s->width; ++x) {
      uint32_t px = 0U;
      memcpy(&px, s->data + (size_t)y * s->stride + 4U * (size_t)x, 4U);
      assert((px >> 24U) == 0xFFU); // opaque
    }
  }
  return (Shown){ host, s };
}

static void
save(const Shown* shown, const char* name)
{
  char path[600];
  snprintf(path, sizeof(path), "%s/%s.png", png_dir, name);
  const P4dIdpySurface* s = shown->s;
  assert(p4d_png_write(path,
                       s->data,
                       (uint32_t)s->width,
                       (uint32_t)s->height,
                       (uint32_t)s->stride));
  printf("# wrote %s (%d x %d)\n", path, s->width, s->height);
}

static uint32_t
pixel(const P4dIdpySurface* s, uint32_t x, uint32_t y)
{
  uint32_t px = 0U;
  memcpy(&px, s->data + (size_t)y * (size_t)s->stride + (size_t)4U * x, 4U);
  return px;
}

static bool
is_curve(uint32_t px)
{
  return px == P4D_DISPLAY_CURVE_1 || px == P4D_DISPLAY_CURVE_2 ||
         px == P4D_DISPLAY_CURVE_3 || px == P4D_DISPLAY_CURVE_4;
}

/**
   Check the curve of colour against expected values, one per column:
   in every future column where the colour shows, the expected row lies
   within a pixel of its run of rows (with the parts of other curves that
   cover it).  Returns the columns where it shows.
*/
static uint32_t
check_curve(const P4dIdpySurface* s,
            uint32_t              colour,
            const double*         expected,
            double                low,
            double                high,
            const char*           what)
{
  const uint32_t w     = (uint32_t)s->width;
  const uint32_t h     = (uint32_t)s->height;
  uint32_t       shown = 0U;
  double         worst = 0.0;
  for (uint32_t x = head_of(w) + 1U; x < w; ++x) {
    int top = -1;
    int bot = -1;
    for (uint32_t y = 0U; y < h; ++y) {
      uint32_t px = 0U;
      memcpy(&px, s->data + (size_t)y * (size_t)s->stride + (size_t)4U * x, 4U);
      if (px == colour) {
        top = top < 0 ? (int)y : top;
        bot = (int)y;
      }
    }
    if (top < 0) {
      continue;
    }
    // Curves drawn later cover parts of the run: count them in.
    while (top > 0 && is_curve(pixel(s, x, (uint32_t)top - 1U))) {
      --top;
    }
    while (bot + 1 < (int)h && is_curve(pixel(s, x, (uint32_t)bot + 1U))) {
      ++bot;
    }
    ++shown;
    const double r    = row_of(h, expected[x], low, high);
    const double miss = r < top ? top - r : r > bot ? r - bot : 0.0;
    worst             = miss > worst ? miss : worst;
    if (miss > 1.0) {
      fprintf(stderr,
              "%s: column %u (song frame %" PRId64 "): value %g at row %.2f, "
              "curve at rows %d to %d\n",
              what,
              x,
              frame_of(w, x),
              expected[x],
              r,
              top,
              bot);
      abort();
    }
  }
  const uint32_t future = w - head_of(w) - 1U;
  printf("# %s: shows in %u of %u future columns, worst %.2f rows off\n",
         what,
         shown,
         future,
         worst);
  assert(shown * 2U >= future);
  return shown;
}

static void
set_mod(P4dHost* h)
{
  p4d_host_set(h, "rate_hz", 0.7f);
  p4d_host_set(h, "octaves", 3.0f);
  p4d_host_set(h, "spread", 1.0f);
  p4d_host_set(h, "seed", 21.0f);
  p4d_host_set(h, "out_min", -0.5f);
  p4d_host_set(h, "out_max", 0.9f);
}

static void
set_mod_beats(P4dHost* h)
{
  set_mod(h);
  p4d_host_set(h, "clock", (float)P4D_CLOCK_SONG_BEATS);
  p4d_host_set(h, "period_beats", 2.0f);
}

/// The Mod's controls as its engine takes them.
static void
mod_params(const P4dHost* h, float* params)
{
  const P4dParamTable* t = p4d_params(P4D_KIND_MOD);
  for (uint32_t i = 0U; i < t->n_params; ++i) {
    params[i] = p4d_host_clamped(h, t->params[i].symbol);
  }
}

static void
test_mod(const char* uri, void (*set)(P4dHost*), const char* name)
{
  const uint32_t w     = 240U;
  Shown          shown = show(uri, set, w, 112U);
  save(&shown, name);

  float params[P4D_MAX_PARAMS];
  mod_params(shown.host, params);
  P4dEngine* e = NULL;
  assert(p4d_engine_new(P4D_KIND_MOD, P4D_HOST_RATE, &e) == P4D_SUCCESS);
  double expected[P4D_MAX_CHANNELS][512];
  for (uint32_t x = 0U; x < w; ++x) {
    // An engine that plays the song straight through that frame.
    float        v[P4D_MAX_CHANNELS];
    float* const out[P4D_MAX_CHANNELS] = { &v[0], &v[1], &v[2], &v[3] };
    p4d_engine_activate_at(e, frame_of(w, x), 120.0);
    p4d_engine_process(e, params, out, 1U);
    for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
      expected[c][x] = v[c];
    }
  }
  p4d_engine_free(e);

  static const uint32_t colour[P4D_MAX_CHANNELS] = { P4D_DISPLAY_CURVE_1,
                                                     P4D_DISPLAY_CURVE_2,
                                                     P4D_DISPLAY_CURVE_3,
                                                     P4D_DISPLAY_CURVE_4 };
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    char what[96];
    snprintf(what, sizeof(what), "%s channel %u", name, c + 1U);
    check_curve(shown.s,
                colour[c],
                expected[c],
                params[P4D_MOD_OUT_MIN],
                params[P4D_MOD_OUT_MAX],
                what);
  }
  p4d_host_free(shown.host);
}

static void
set_motion(P4dHost* h)
{
  p4d_host_set_lively(h);
  p4d_host_set(h, "rate_hz", 0.8f);
}

/// Motion's gain target, -1 (down by gain_db) to 1 (unity), against the
/// gain a Motion processor applies when it plays straight through.
static void
test_motion(void)
{
  const uint32_t w     = 240U;
  Shown          shown = show(P4D_HOST_URI_MOTION, set_motion, w, 112U);
  save(&shown, "motion");

  const P4dParamTable* t                      = p4d_params(P4D_KIND_MOTION);
  float                params[P4D_MAX_PARAMS] = { 0.0f };
  for (uint32_t i = 0U; i < t->n_params; ++i) {
    params[i] = p4d_host_clamped(shown.host, t->params[i].symbol);
  }
  const double gain_db = params[P4D_MOTION_GAIN_DB];

  P4dMotion* m = NULL;
  assert(p4d_motion_new(P4D_HOST_RATE, &m) == P4D_SUCCESS);
  double expected[512];
  for (uint32_t x = 0U; x < w; ++x) {
    float              silence[1] = { 0.0f };
    float              l[1];
    float              r[1];
    const float* const in[2]  = { silence, silence };
    float* const       out[2] = { l, r };
    float              now[P4D_MOTION_N_NOW];
    p4d_motion_activate_at(m, frame_of(w, x), 120.0);
    p4d_motion_process(m, params, in, out, now, 1U);
    // gain dB = gain_db (u - 1) / 2 (motion.c, Laws).
    expected[x] = 1.0 + 2.0 * now[P4D_MOTION_NOW_GAIN_DB] / gain_db;
  }
  p4d_motion_free(m);

  check_curve(shown.s, P4D_DISPLAY_CURVE_1, expected, -1.0, 1.0, "motion gain");
  p4d_host_free(shown.host);
}

static void
set_noise_flat(P4dHost* h)
{
  p4d_host_set(h, "gust_db", 0.0f);
  p4d_host_set(h, "grit", 0.0f);
}

static void
set_noise_gusts(P4dHost* h)
{
  p4d_host_set(h, "level_db", -12.0f);
  p4d_host_set(h, "gust_db", 12.0f);
  p4d_host_set(h, "gust_hz", 0.6f);
  p4d_host_set(h, "grit", 0.3f);
  p4d_host_set(h, "width", 0.8f);
}

/// The Noise without texture: both channels flat on the 0 dB line; with
/// gusts the envelope moves over several rows.
static void
test_noise(void)
{
  const uint32_t w    = 200U;
  Shown          flat = show(P4D_HOST_URI_NOISE, set_noise_flat, w, 60U);
  save(&flat, "noise-flat");
  double zero[512];
  for (uint32_t x = 0U; x < w; ++x) {
    zero[x] = 0.0;
  }
  check_curve(flat.s,
              P4D_DISPLAY_CURVE_1,
              zero,
              P4D_DISPLAY_NOISE_BOTTOM_DB,
              P4D_DISPLAY_NOISE_TOP_DB,
              "noise without texture");
  p4d_host_free(flat.host);

  Shown          gusts = show(P4D_HOST_URI_NOISE, set_noise_gusts, w, 112U);
  const uint32_t h     = (uint32_t)gusts.s->height;
  save(&gusts, "noise");
  int top = (int)h;
  int bot = -1;
  for (uint32_t y = 0U; y < h; ++y) {
    for (uint32_t x = head_of(w) + 1U; x < w; ++x) {
      uint32_t px = 0U;
      memcpy(&px,
             gusts.s->data + (size_t)y * (size_t)gusts.s->stride +
               (size_t)4U * x,
             4U);
      if (px == P4D_DISPLAY_CURVE_1) {
        top = (int)y < top ? (int)y : top;
        bot = (int)y;
      }
    }
  }
  printf("# noise with gusts: the envelope spans rows %d to %d of %u\n",
         top,
         bot,
         h);
  assert(bot - top >= 8);
  p4d_host_free(gusts.host);
}

/// Sizes a host may offer: Ardour's strip at scale 1 and 2, Carla's box,
/// and none at all.
static void
test_sizes(void)
{
  Shown a = show(P4D_HOST_URI_MOD_CV, set_mod, 120U, 60U);
  assert(a.s->height == 60);
  p4d_host_free(a.host);
  Shown b = show(P4D_HOST_URI_MOD_CV, set_mod, 300U, 224U);
  assert(b.s->height == 150);

  const P4dIdpyInterface* const idpy =
    (const P4dIdpyInterface*)lilv_instance_get_extension_data(
      b.host->instance, P4D_IDPY__interface);
  LV2_Handle handle = lilv_instance_get_handle(b.host->instance);
  assert(idpy->render(handle, 0U, 0U) == NULL);
  assert(idpy->render(handle, 100U, 2U) == NULL);
  const P4dIdpySurface* s = idpy->render(handle, 64U, 1000U);
  assert(s && s->width == 64 && s->height == 32);
  p4d_host_free(b.host);
  printf("# sizes: 120x60 -> 120x60, 300x224 -> 300x150, 64x1000 -> 64x32\n");
}

int
main(int argc, char** argv)
{
  p4d_host_main(argc, argv);

  const char* slash = strrchr(argv[0], '/');
  const int   len   = slash ? (int)(slash - argv[0]) : 1;
  snprintf(
    png_dir, sizeof(png_dir), "%.*s/display-png", len, slash ? argv[0] : ".");
  mkdir(png_dir, 0755);

  test_mod(P4D_HOST_URI_MOD, set_mod, "mod");
  test_mod(P4D_HOST_URI_MOD_CV, set_mod_beats, "mod-cv-beats");
  test_motion();
  test_noise();
  test_sizes();

  p4d_host_world_close();
  return 0;
}
