// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The inline display (issue 13, item 1), hosted through lilv as Ardour
  hosts it: every plugin returns the interface from extension_data and
  renders an opaque image of the host's width, at most the height offered
  and half the width.  The curves of Mod (song seconds, song beats and a
  free-running clock, which must show the engine's real phase after
  seconds of play) and Motion (gain and wobble, song seconds and free
  running) are where an engine that plays straight through the drawn
  frames puts them, within a pixel, in every future column where their
  colour shows (pixels nearest it: the curves are anti-aliased); the
  Noise draws its gusts, the texture's envelope in dB, on the song's time
  line and free running, over its spectrum, and the spectrum alone
  without gusts.  The window's layout is re-derived here from display.h,
  not taken from display.c.  PNGs go to display-png/ beside this program;
  the sizes drawn: test_lv2_display_gallery.c.

  Usage: test_lv2_display BUNDLE_PATH
*/

#undef NDEBUG

#include "display.h"
#include "engine.h"
#include "motion.h"
#include "params.h"
#include "support/display_look.h"
#include "support/host.h"
#include "support/png.h"
#include "texture.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/// Frames per run; the playhead is 90 s into the song after the blocks
/// played (one, or FREE_BLOCKS for a free-running clock: 3 s).
#define BLOCK 256U
#define FREE_BLOCKS 563U

/// Most columns of an image here.
#define MAX_W 512U

static char png_dir[512];

/// The window of the image drawn last, in seconds (display.h: cycles of
/// the slowest octave), set by window_for().
static double span_s = 8.0;

/// The window for a rate in Hz (or a period in beats at 120 bpm, when
/// beats > 0), as display.h describes it.
static void
window_for(double rate_hz, double beats)
{
  const double period = beats > 0.0 ? beats * 60.0 / 120.0 : 1.0 / rate_hz;
  span_s              = P4D_DISPLAY_CYCLES * period;
  span_s              = span_s < P4D_DISPLAY_MIN_S ? P4D_DISPLAY_MIN_S : span_s;
  span_s              = span_s > P4D_DISPLAY_MAX_S ? P4D_DISPLAY_MAX_S : span_s;
}

/// Column of the playhead in an image w wide (display.h).
static uint32_t
head_of(uint32_t w)
{
  return (uint32_t)((double)w * P4D_DISPLAY_PAST);
}

/// Frames from the playhead to the middle of column x.
static int64_t
offset_of(uint32_t w, uint32_t x)
{
  return (int64_t)llround(((double)x - head_of(w)) * span_s * P4D_HOST_RATE /
                          (double)w);
}

/// Row of v on the scale low (bottom) to high (top), one row of margin.
static double
row_of(uint32_t h, double v, double low, double high)
{
  const double bottom = (double)h - 2.0;
  const double r      = 1.0 + (high - v) / (high - low) * (bottom - 1.0);
  return r < 1.0 ? 1.0 : r > bottom ? bottom : r;
}

static uint32_t
pixel(const P4dIdpySurface* s, uint32_t x, uint32_t y)
{
  uint32_t px = 0U;
  memcpy(&px, s->data + (size_t)y * (size_t)s->stride + (size_t)4U * x, 4U);
  return px;
}

typedef struct {
  P4dHost*              host;
  const P4dIdpySurface* s;
  int64_t               played; ///< Frames run before the render
} Shown;

/// Play blocks from the song at 90 s, rolling at 120 bpm, and render.
static Shown
show_after(const char* uri,
           void (*set)(P4dHost*),
           uint32_t w,
           uint32_t h,
           uint32_t blocks)
{
  P4dHost* const host = p4d_host_new(uri, P4D_HOST_RATE, true);
  set(host);
  if (!strcmp(uri, P4D_HOST_URI_NOISE)) {
    window_for(p4d_host_clamped(host, "gust_hz"), 0.0);
  } else {
    const bool beats =
      p4d_host_clamped(host, "clock") == (float)P4D_CLOCK_SONG_BEATS;
    window_for(p4d_host_clamped(host, "rate_hz"),
               beats ? p4d_host_clamped(host, "period_beats") : 0.0);
  }
  p4d_host_activate(host);
  const P4dHostTransport tr = {
    true, true, false, P4D_HOST_SONG_F, 1.0f, 120.0
  };
  p4d_host_send_position(host, 0U, &tr, P4D_HOST_SONG_F);
  for (uint32_t b = 0U; b < blocks; ++b) {
    p4d_host_run(host, NULL, 0U, BLOCK);
  }

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
  for (uint32_t y = 0U; y < (uint32_t)s->height; ++y) {
    for (uint32_t x = 0U; x < (uint32_t)s->width; ++x) {
      assert((pixel(s, x, y) >> 24U) == 0xFFU); // opaque
    }
  }
  return (Shown){ host, s, (int64_t)blocks * BLOCK };
}

/// One block played.
static Shown
show(const char* uri, void (*set)(P4dHost*), uint32_t w, uint32_t h)
{
  return show_after(uri, set, w, h, 1U);
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

/**
   Check the curve of colour against expected values, one per column:
   in every future column where the colour shows (a pixel nearest it), the
   expected row lies
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
      if (p4d_look_nearest(pixel(s, x, y)) == colour) {
        top = top < 0 ? (int)y : top;
        bot = (int)y;
      }
    }
    if (top < 0) {
      continue;
    }
    // Curves drawn later cover parts of the run: count them in.
    while (top > 0 && p4d_look_is_curve(pixel(s, x, (uint32_t)top - 1U))) {
      --top;
    }
    while (bot + 1 < (int)h &&
           p4d_look_is_curve(pixel(s, x, (uint32_t)bot + 1U))) {
      ++bot;
    }
    ++shown;
    const double r    = row_of(h, expected[x], low, high);
    const double miss = r < top ? top - r : r > bot ? r - bot : 0.0;
    worst             = miss > worst ? miss : worst;
    if (miss > 1.0) {
      fprintf(stderr,
              "%s: column %u (%" PRId64 " frames from the playhead): value "
              "%g at row %.2f, curve at rows %d to %d\n",
              what,
              x,
              offset_of(w, x),
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

static void
set_mod_free(P4dHost* h)
{
  set_mod(h);
  p4d_host_set(h, "clock", (float)P4D_CLOCK_FREE);
}

/// The controls of kind as its engine takes them.
static void
clamped_params(const P4dHost* h, P4dKind kind, float* params)
{
  const P4dParamTable* t = p4d_params(kind);
  for (uint32_t i = 0U; i < t->n_params; ++i) {
    params[i] = p4d_host_clamped(h, t->params[i].symbol);
  }
}

/**
   What an engine of kind with params plays straight through, as the
   plugin did: activated, told the same transport, then run from frame 0,
   at the frames shown[x].played + offset_of(w, x) of the future columns
   (Mod: the four channels; Noise: nothing here, see test_noise()).
*/
static void
play_through(const Shown* shown,
             const float* params,
             uint32_t     w,
             double       expected[P4D_MAX_CHANNELS][MAX_W])
{
  P4dEngine* e = NULL;
  assert(p4d_engine_new(P4D_KIND_MOD, P4D_HOST_RATE, &e) == P4D_SUCCESS);
  const P4dTransport tr = { true, true, false, true, P4D_HOST_SONG_F,
                            1.0,  0.0,  120.0 };
  p4d_engine_transport(e, &tr);
  static float buf[P4D_MAX_CHANNELS][BLOCK];
  float* const out[P4D_MAX_CHANNELS] = { buf[0], buf[1], buf[2], buf[3] };
  int64_t      at                    = 0;
  for (uint32_t x = head_of(w) + 1U; x < w; ++x) {
    const int64_t f = shown->played + offset_of(w, x);
    while (at + (int64_t)BLOCK <= f) {
      p4d_engine_process(e, params, out, BLOCK);
      at += BLOCK;
    }
    p4d_engine_process(e, params, out, (uint32_t)(f - at + 1));
    at = f + 1;
    for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
      expected[c][x] = buf[c][f - (at - 1)];
    }
  }
  p4d_engine_free(e);
}

static void
test_mod(const char* uri, void (*set)(P4dHost*), const char* name)
{
  const uint32_t w     = 240U;
  const bool     free  = set == set_mod_free;
  Shown          shown = show_after(uri, set, w, 112U, free ? FREE_BLOCKS : 1U);
  save(&shown, name);

  float params[P4D_MAX_PARAMS];
  clamped_params(shown.host, P4D_KIND_MOD, params);
  static double expected[P4D_MAX_CHANNELS][MAX_W];
  if (free) {
    play_through(&shown, params, w, expected);
  } else {
    // An engine that plays the song straight through each column's frame.
    P4dEngine* e = NULL;
    assert(p4d_engine_new(P4D_KIND_MOD, P4D_HOST_RATE, &e) == P4D_SUCCESS);
    for (uint32_t x = 0U; x < w; ++x) {
      float        v[P4D_MAX_CHANNELS];
      float* const out[P4D_MAX_CHANNELS] = { &v[0], &v[1], &v[2], &v[3] };
      p4d_engine_activate_at(
        e, P4D_HOST_SONG_F + shown.played + offset_of(w, x), 120.0);
      p4d_engine_process(e, params, out, 1U);
      for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
        expected[c][x] = v[c];
      }
    }
    p4d_engine_free(e);
  }

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

static void
set_motion_free(P4dHost* h)
{
  set_motion(h);
  p4d_host_set(h, "clock", (float)P4D_CLOCK_FREE);
}

/// The targets now of a Motion processor with params that has processed
/// *at frames so far, on through frame f.
static void
motion_through(P4dMotion*   m,
               const float* params,
               int64_t*     at,
               int64_t      f,
               float        now[P4D_MOTION_N_NOW])
{
  static float       silence[BLOCK];
  static float       l[BLOCK];
  static float       r[BLOCK];
  const float* const in[2]  = { silence, silence };
  float* const       out[2] = { l, r };
  while (*at <= f) {
    const int64_t  left = f + 1 - *at;
    const uint32_t n    = left < (int64_t)BLOCK ? (uint32_t)left : BLOCK;
    p4d_motion_process(m, params, in, out, now, n);
    *at += n;
  }
  assert(*at == f + 1); // now is frame f's
}

/// Motion's gain target, -1 (down by gain_db) to 1 (unity), and its wobble,
/// -1 to 1 of wow + flutter, against what a Motion processor applies when
/// it plays straight through (song seconds; or free running after 3 s, one
/// processor from activation, told the plugin's transport).
static void
test_motion(void (*set)(P4dHost*), const char* name)
{
  const uint32_t w    = 240U;
  const bool     free = set == set_motion_free;
  Shown          shown =
    show_after(P4D_HOST_URI_MOTION, set, w, 112U, free ? FREE_BLOCKS : 1U);
  save(&shown, name);

  float params[P4D_MAX_PARAMS] = { 0.0f };
  clamped_params(shown.host, P4D_KIND_MOTION, params);
  const double gain_db = params[P4D_MOTION_GAIN_DB];
  const double swing =
    (double)params[P4D_MOTION_WOW_MS] + params[P4D_MOTION_FLUTTER_MS];
  assert(gain_db > 0.0 && swing > 0.0);

  P4dMotion* m = NULL;
  assert(p4d_motion_new(P4D_HOST_RATE, &m) == P4D_SUCCESS);
  const P4dTransport tr = { true, true, false, true, P4D_HOST_SONG_F,
                            1.0,  0.0,  120.0 };
  p4d_motion_transport(m, &tr);
  int64_t       at = 0;
  static double gain[MAX_W];
  static double wobble[MAX_W];
  for (uint32_t x = head_of(w) + 1U; x < w; ++x) {
    float now[P4D_MOTION_N_NOW] = { 0.0f };
    if (free) {
      motion_through(m, params, &at, shown.played + offset_of(w, x), now);
    } else {
      // Straight through that song frame.
      int64_t from = 0;
      p4d_motion_activate_at(
        m, P4D_HOST_SONG_F + shown.played + offset_of(w, x), 120.0);
      motion_through(m, params, &from, 0, now);
    }
    // gain dB = gain_db (u - 1) / 2; delay swing = wow u_w + flutter u_f
    // (motion_audio.c, Laws).
    gain[x]   = 1.0 + 2.0 * now[P4D_MOTION_NOW_GAIN_DB] / gain_db;
    wobble[x] = now[P4D_MOTION_NOW_WOBBLE_MS] / swing;
  }
  p4d_motion_free(m);

  char what[96];
  snprintf(what, sizeof(what), "%s gain", name);
  check_curve(shown.s, P4D_DISPLAY_CURVE_1, gain, -1.0, 1.0, what);
  snprintf(what, sizeof(what), "%s wobble", name);
  check_curve(shown.s, P4D_DISPLAY_CURVE_4, wobble, -1.0, 1.0, what);
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

static void
set_noise_gusts_free(P4dHost* h)
{
  set_noise_gusts(h);
  p4d_host_set(h, "clock", 1.0f);
}

/**
   The Noise's drawn envelope against the texture's, in dB: at song
   seconds, or free running at the seconds since activation (the engine's
   own time line, texture.h).
*/
static void
test_noise_envelope(void (*set)(P4dHost*), const char* name)
{
  const uint32_t w    = 200U;
  const bool     free = set == set_noise_gusts_free;
  Shown          shown =
    show_after(P4D_HOST_URI_NOISE, set, w, 112U, free ? FREE_BLOCKS : 1U);
  save(&shown, name);

  float p[P4D_MAX_PARAMS];
  clamped_params(shown.host, P4D_KIND_NOISE, p);
  P4dTexture tex;
  p4d_texture_init(&tex,
                   p[P4D_NOISE_GUST_DB],
                   p[P4D_NOISE_GUST_HZ],
                   p[P4D_NOISE_GRIT],
                   p[P4D_NOISE_WIDTH]);
  static double expected[2][MAX_W];
  double        low  = 1.0e30;
  double        high = -1.0e30;
  for (uint32_t x = 0U; x < w; ++x) {
    const int64_t t =
      (free ? 0 : P4D_HOST_SONG_F) + shown.played + offset_of(w, x);
    for (unsigned c = 0U; c < 2U; ++c) {
      float env = 0.0f;
      p4d_texture_envelope(&tex,
                           (uint32_t)p[P4D_NOISE_SEED],
                           c,
                           0.0,
                           1.0 / P4D_HOST_RATE,
                           t,
                           &env,
                           1U);
      expected[c][x] = 20.0 * log10(env > 1.0e-6f ? (double)env : 1.0e-6);
      low            = expected[c][x] < low ? expected[c][x] : low;
      high           = expected[c][x] > high ? expected[c][x] : high;
    }
  }
  printf("# %s: the texture's envelope runs from %.1f to %.1f dB\n",
         name,
         low,
         high);
  assert(high - low > 6.0); // the gusts do move it
  char what[96];
  snprintf(what, sizeof(what), "%s left", name);
  check_curve(shown.s,
              P4D_DISPLAY_CURVE_1,
              expected[0],
              P4D_DISPLAY_NOISE_BOTTOM_DB,
              P4D_DISPLAY_NOISE_TOP_DB,
              what);
  snprintf(what, sizeof(what), "%s right", name);
  check_curve(shown.s,
              P4D_DISPLAY_CURVE_2,
              expected[1],
              P4D_DISPLAY_NOISE_BOTTOM_DB,
              P4D_DISPLAY_NOISE_TOP_DB,
              what);
  p4d_host_free(shown.host);
}

/**
   The Noise without texture (its defaults): no time line (nothing moves:
   no gust curves, no playhead), its spectrum envelope instead (display.h)
   in the third colour, its highest point on the top rows, and at the
   bottom by the band limit on the right.
*/
static void
test_noise_flat(void)
{
  const uint32_t w    = 200U;
  Shown          flat = show(P4D_HOST_URI_NOISE, set_noise_flat, w, 60U);
  save(&flat, "noise-flat");
  const uint32_t h     = (uint32_t)flat.s->height;
  uint32_t       shown = 0U;
  int            top   = (int)h;
  int            right = -1;
  for (uint32_t x = 0U; x < w; ++x) {
    bool here = false;
    for (uint32_t y = 0U; y < h; ++y) {
      const uint32_t c = p4d_look_nearest(pixel(flat.s, x, y));
      assert(c != P4D_DISPLAY_CURVE_1 && c != P4D_DISPLAY_CURVE_2);
      assert(c != p4d_theme_dark.playhead.argb);
      if (c == P4D_DISPLAY_CURVE_3) {
        here  = true;
        top   = (int)y < top ? (int)y : top;
        right = x == w - 1U ? (int)y : right;
      }
    }
    shown += here ? 1U : 0U;
  }
  printf("# noise without texture: the spectrum shows in %u of %u columns, "
         "from row %d; at 24 kHz on row %d of %u\n",
         shown,
         w,
         top,
         right,
         h);
  assert(shown == w && top <= 2 && right >= (int)h - 3);
  p4d_host_free(flat.host);
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
  test_mod(P4D_HOST_URI_MOD, set_mod_free, "mod-free");
  test_motion(set_motion, "motion");
  test_motion(set_motion_free, "motion-free");
  test_noise_flat();
  test_noise_envelope(set_noise_gusts, "noise");
  test_noise_envelope(set_noise_gusts_free, "noise-free");

  p4d_host_world_close();
  return 0;
}
