// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Image in sync with the Mod (issue 19, item 4), for every Mod preset
  of the bundle taken by the Image (`--preset NAME --plugin image`, the
  renderer's own preset loader): with fractal off, the pixel at Mod
  channel k's position (the facts' pixel, reached by moving the offsets
  there) is channel k's value at the frame's song time, within 1/65535 of
  the range (the Mod rendered with out_min 0 and out_max 1, the Image's
  even tone).  With fractal on, the same holds at the channels' centre
  (spread 0), and the difference at the channels themselves is measured
  and printed: octaves k >= 1 are elsewhere in their noise there.

  The same through the renderer's 16-bit PNG (item 4 of issue 19):
  `--preset NAME --plugin image --format png16 --size 1x1` at song time
  3 s with the offsets on channel k, read back by PIL, is channel k's
  value within 1/65535 (the sync's error plus half a step of 16 bits).

  Usage: test_image_sync RENDERER (the bundle is found beside it).
*/

#undef NDEBUG
#define _XOPEN_SOURCE 700

#include "engine.h"
#include "image.h"
#include "kind.h"
#include "params.h"
#include "preset.h"

#include "support/files.h"
#include "support/process.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE_HZ 48000.0
#define TEMPO_BPM 120.0

/// Song times compared, in seconds (whole samples at 48 kHz).
static const double times_s[] = { 0.0, 0.5, 3.0, 17.25, 600.0 };
#define N_TIMES (sizeof(times_s) / sizeof(times_s[0]))

/// The Mod's channels at song time t_s for raw params (out 0 to 1).
static void
mod_at(const float* params, double t_s, float out[4])
{
  float p[P4D_MAX_PARAMS];
  memcpy(p, params, sizeof(p));
  p[P4D_MOD_OUT_MIN] = 0.0f;
  p[P4D_MOD_OUT_MAX] = 1.0f;
  P4dEngine* e       = NULL;
  assert(!p4d_engine_new(P4D_KIND_MOD, RATE_HZ, &e));
  p4d_engine_activate_at(e, (int64_t)llround(t_s * RATE_HZ), TEMPO_BPM);
  float        buf[4][1];
  float* const ch[4] = { buf[0], buf[1], buf[2], buf[3] };
  p4d_engine_process(e, p, ch, 1U);
  for (unsigned c = 0U; c < 4U; ++c) {
    out[c] = buf[c][0];
  }
  p4d_engine_free(e);
}

/// The Image's tone at pixel 0 of a width x 1 frame at song time t_s,
/// with the offsets moved so that Mod channel k is that pixel (k < 0:
/// offsets 0, the channels' centre).
static float
image_at(const float* params, uint32_t width, int k, double t_s)
{
  float p[P4D_IMAGE_N_PARAMS];
  memcpy(p, params, sizeof(p));
  const P4dImageSetup setup = { width, 1U, RATE_HZ, TEMPO_BPM };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame));
  const P4dImageTime time = { 0, 1U, 1U, t_s };
  if (k < 0) {
    p[P4D_IMAGE_OFFSET_X] = p[P4D_IMAGE_OFFSET_Y] = 0.0f;
  } else {
    p4d_image_frame_set(frame, p, &time);
    P4dImageFacts f;
    p4d_image_frame_facts(frame, &f);
    const double step     = p[P4D_IMAGE_SCALE] / (double)width;
    p[P4D_IMAGE_OFFSET_X] = (float)(p[P4D_IMAGE_OFFSET_X] + f.mod_x[k] * step);
    p[P4D_IMAGE_OFFSET_Y] = (float)(p[P4D_IMAGE_OFFSET_Y] + f.mod_y[k] * step);
  }
  p4d_image_frame_set(frame, p, &time);
  P4dImageFacts f;
  p4d_image_frame_facts(frame, &f);
  if (k >= 0) {
    // Within the rounding of a float offset: 2^-22 cells.
    const double step = p[P4D_IMAGE_SCALE] / (double)width;
    assert(fabs(f.mod_x[k] * step) < 0x1p-22 &&
           fabs(f.mod_y[k] * step) < 0x1p-22);
  }
  float* const row = (float*)malloc(width * sizeof(float));
  assert(row);
  p4d_image_frame_rows(frame, 0U, 1U, NULL, row);
  const float tone = row[0];
  free(row);
  p4d_image_frame_free(frame);
  return tone;
}

/// The offsets that put Mod channel k at pixel 0 of a 1 x 1 frame of
/// params at song time t_s.
static void
offsets_at(const float* params, int k, double t_s, float* x, float* y)
{
  const P4dImageSetup setup = { 1U, 1U, RATE_HZ, TEMPO_BPM };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame));
  const P4dImageTime time = { 0, 1U, 1U, t_s };
  p4d_image_frame_set(frame, params, &time);
  P4dImageFacts f;
  p4d_image_frame_facts(frame, &f);
  const double step = params[P4D_IMAGE_SCALE];
  *x                = (float)(params[P4D_IMAGE_OFFSET_X] + f.mod_x[k] * step);
  *y                = (float)(params[P4D_IMAGE_OFFSET_Y] + f.mod_y[k] * step);
  p4d_image_frame_free(frame);
}

/// Render the 1 x 1 16-bit PNG of preset name with the offsets on channel
/// k at song time t_s, into the work folder as file.
static void
render_png16(const char*  exe,
             const char*  name,
             const float* params,
             int          k,
             double       t_s,
             const char*  file)
{
  float x = 0.0f;
  float y = 0.0f;
  offsets_at(params, k, t_s, &x, &y);
  char sx[64];
  char sy[64];
  char start[32];
  snprintf(sx, sizeof(sx), "offset_x=%.9g", (double)x);
  snprintf(sy, sizeof(sy), "offset_y=%.9g", (double)y);
  snprintf(start, sizeof(start), "%.17g", t_s);
  const char* const args[] = { "--quiet",
                               "--preset",
                               name,
                               "--plugin",
                               "image",
                               "--format",
                               "png16",
                               "--size",
                               "1x1",
                               "--start",
                               start,
                               "--set",
                               sx,
                               "--set",
                               sy,
                               "-o",
                               p4d_work_path(file),
                               NULL };
  P4dProcSetup      how;
  memset(&how, 0, sizeof(how));
  how.program           = exe;
  const P4dProcResult r = p4d_proc_run(&how, args);
  if (r.status) {
    fprintf(stderr, "%s: %s\n", name, r.err);
  }
  assert(r.status == 0);
}

/// Worst and mean differences of a comparison.
typedef struct {
  double   worst;
  double   sum;
  unsigned n;
  char     where[64];
} Diff;

static void
diff_add(Diff* d, double a, double b, const char* where)
{
  const double e = fabs(a - b);
  if (e > d->worst) {
    d->worst = e;
    snprintf(d->where, sizeof(d->where), "%s", where);
  }
  d->sum += e;
  ++d->n;
}

/// One Mod preset: its values for the Mod and for the Image.
static void
check_preset(const char* exe,
             const char* name,
             Diff*       sync,
             Diff*       centre,
             Diff*       fractal)
{
  P4dRenderStatus           st;
  P4dPresetValues           mv;
  P4dPresetValues           iv;
  const P4dKindClass* const mod   = p4d_kind_by_name("mod");
  const P4dKindClass* const image = p4d_kind_by_name("image");
  assert(!p4d_preset_load(name, exe, mod, &mv, &st));
  assert(!p4d_preset_load(name, exe, image, &iv, &st));
  assert(iv.kind == image && iv.borrowed && iv.n_values > 0U);

  float m[P4D_MAX_PARAMS];
  float p[P4D_MAX_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_MOD), m);
  p4d_param_defaults(p4d_params(P4D_KIND_IMAGE), p);
  for (unsigned i = 0U; i < mv.n_values; ++i) {
    m[mv.params[i]] = (float)mv.values[i];
  }
  for (unsigned i = 0U; i < iv.n_values; ++i) {
    p[iv.params[i]] = (float)iv.values[i];
  }

  for (size_t t = 0U; t < N_TIMES; ++t) {
    float out[4];
    mod_at(m, times_s[t], out);
    for (int k = 0; k < 4; ++k) {
      diff_add(sync, image_at(p, 1U, k, times_s[t]), out[k], name);
    }

    // Fractal on: at the channels (measured), and at their centre.
    float f[P4D_MAX_PARAMS];
    memcpy(f, p, sizeof(f));
    f[P4D_IMAGE_FRACTAL] = 1.0f;
    f[P4D_IMAGE_SCALE]   = 0.0625f;
    for (int k = 0; k < 4; ++k) {
      diff_add(fractal, image_at(f, 16384U, k, times_s[t]), out[k], name);
    }
    float m0[P4D_MAX_PARAMS];
    memcpy(m0, m, sizeof(m0));
    m0[P4D_MOD_SPREAD]  = 0.0f;
    f[P4D_IMAGE_SPREAD] = 0.0f;
    mod_at(m0, times_s[t], out);
    diff_add(centre, image_at(f, 16384U, -1, times_s[t]), out[0], name);
    assert(out[0] == out[3]);
  }
}

int
main(int argc, char** argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: test_image_sync RENDERER\n");
    return 1;
  }

  // The bundle's presets, as --list-presets prints them.
  char*           list = NULL;
  size_t          size = 0U;
  FILE* const     out  = open_memstream(&list, &size);
  P4dRenderStatus st;
  assert(out && !p4d_preset_list(argv[1], out, &st));
  assert(!fclose(out));
  char* const list_copy = strdup(list);
  assert(list_copy);

  Diff     sync    = { 0.0, 0.0, 0U, "-" };
  Diff     centre  = { 0.0, 0.0, 0U, "-" };
  Diff     fractal = { 0.0, 0.0, 0U, "-" };
  unsigned n       = 0U;
  for (char* line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
    char name[64];
    char kind[16];
    if (sscanf(line, "%63s %15s", name, kind) == 2 && !strcmp(kind, "mod")) {
      check_preset(argv[1], name, &sync, &centre, &fractal);
      ++n;
    }
  }
  free(list);

  // Through the renderer's 16-bit PNG, read back by PIL.
  p4d_work_open("image-sync");
  char     names[16][64];
  float    want[16][4];
  unsigned n_png = 0U;
  char     paths[16 * 4][64];
  for (char* line = strtok(list_copy, "\n"); line && n_png < 16U;
       line       = strtok(NULL, "\n")) {
    char kind[16];
    if (sscanf(line, "%63s %15s", names[n_png], kind) != 2 ||
        strcmp(kind, "mod")) {
      continue;
    }
    P4dPresetValues mv;
    P4dPresetValues iv;
    assert(!p4d_preset_load(
      names[n_png], argv[1], p4d_kind_by_name("mod"), &mv, &st));
    assert(!p4d_preset_load(
      names[n_png], argv[1], p4d_kind_by_name("image"), &iv, &st));
    float m[P4D_MAX_PARAMS];
    float p[P4D_MAX_PARAMS];
    p4d_param_defaults(p4d_params(P4D_KIND_MOD), m);
    p4d_param_defaults(p4d_params(P4D_KIND_IMAGE), p);
    for (unsigned i = 0U; i < mv.n_values; ++i) {
      m[mv.params[i]] = (float)mv.values[i];
    }
    for (unsigned i = 0U; i < iv.n_values; ++i) {
      p[iv.params[i]] = (float)iv.values[i];
    }
    mod_at(m, 3.0, want[n_png]);
    for (int k = 0; k < 4; ++k) {
      const unsigned f = n_png * 4U + (unsigned)k;
      snprintf(paths[f], sizeof(paths[f]), "s%u.png", f);
      render_png16(argv[1], names[n_png], p, k, 3.0, paths[f]);
    }
    ++n_png;
  }
  free(list_copy);

  static const char script[] =
    "import sys\n"
    "from PIL import Image\n"
    "for f in sys.argv[1:]:\n"
    "    im = Image.open(f)\n"
    "    assert im.size == (1, 1) and im.mode.startswith('I'), im.mode\n"
    "    print(im.getpixel((0, 0)))\n";
  const char* args[2U + 16U * 4U + 1U] = { "-c", script };
  for (unsigned f = 0U; f < n_png * 4U; ++f) {
    static char held[16 * 4][4096];
    snprintf(held[f], sizeof(held[f]), "%s", p4d_work_path(paths[f]));
    args[2U + f] = held[f];
  }
  P4dProcSetup how;
  memset(&how, 0, sizeof(how));
  how.program           = "/usr/bin/python3";
  const P4dProcResult r = p4d_proc_run(&how, args);
  if (r.status) {
    fprintf(stderr, "PIL: %s\n", r.err);
  }
  assert(r.status == 0);
  double worst_png = 0.0;
  char*  at        = (char*)r.out;
  for (unsigned f = 0U; f < n_png * 4U; ++f) {
    const unsigned long v = strtoul(at, &at, 10);
    const double        e = fabs((double)v / 65535.0 - want[f / 4U][f % 4U]);
    worst_png             = e > worst_png ? e : worst_png;
  }
  p4d_work_clear();
  p4d_work_close();

  const double bar = 1.0 / 65535.0;
  printf("# 16-bit PNG of the renderer at 3 s, %u presets x 4 channels: "
         "worst %.3f of 1/65535\n",
         n_png,
         worst_png / bar);
  assert(n_png >= 5U && worst_png <= bar);
  printf("# %u Mod presets, %zu song times, 4 channels\n", n, N_TIMES);
  printf("# fractal off, at each channel: worst %.3g (%.3f of 1/65535, %s), "
         "mean %.3g\n",
         sync.worst,
         sync.worst / bar,
         sync.where,
         sync.sum / sync.n);
  printf("# fractal on, at the channels' centre: worst %.3g (%.3f of "
         "1/65535, %s)\n",
         centre.worst,
         centre.worst / bar,
         centre.where);
  printf("# fractal on, at each channel: worst %.3g, mean %.3g (octaves "
         "k >= 1 elsewhere)\n",
         fractal.worst,
         fractal.sum / fractal.n);
  assert(n >= 5U);
  assert(sync.worst <= bar && centre.worst <= bar);
  assert(fractal.sum / fractal.n > 100.0 * bar);
  return 0;
}
