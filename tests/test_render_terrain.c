// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Heightmaps for terrain tools (perlin4d-render --terrain, src/render/
  terrain.c; samples on the edges, src/image/image.c): each file read back
  by an independent reader (support/image_read.py: PIL, numpy, exrheader,
  ffmpeg) equals the Image engine's rows of this test's own linking; tiles
  one `scale` apart share their edge column and row bit for bit (negative
  offsets too, warped, veins, every type); each engine's sizes and formats
  accepted or refused (one line, exit 2, no file left); the hillshade read
  back (a flat map at sin(altitude), planes lit and turned away); the
  sidecar parsed by Python's json.
*/

#undef NDEBUG

#include "support/cli.h"
#include "support/files.h"
#include "support/picture_job.h"
#include "support/process.h"

#include "image.h"
#include "params.h"
#include "terrain.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The settings every render of this test is given (and the engine's).
static const char* const settings[] = {
  "--set", "fractal=1", "--set", "octaves=5", "--set", "type=5", "--seed", "5",
};
#define N_SETTINGS (sizeof(settings) / sizeof(settings[0]))

/// The Image's parameters of settings, offsets ox, oy, and the terrain's
/// default tone (linear).
static void
terrain_params(float* p, float ox, float oy)
{
  p4d_param_defaults(p4d_params(P4D_KIND_IMAGE), p);
  p[P4D_IMAGE_FRACTAL]  = 1.0f;
  p[P4D_IMAGE_OCTAVES]  = 5.0f;
  p[P4D_IMAGE_TYPE]     = 5.0f;
  p[P4D_IMAGE_SEED]     = 5.0f;
  p[P4D_IMAGE_TONE]     = (float)P4D_IMAGE_TONE_LINEAR;
  p[P4D_IMAGE_OFFSET_X] = ox;
  p[P4D_IMAGE_OFFSET_Y] = oy;
}

/// The engine's frame 0 of p, w x h, samples on the edges or not.
static void
engine_rows(const float* p,
            uint32_t     w,
            uint32_t     h,
            bool         edges,
            float*       value,
            float*       tone)
{
  const P4dImageSetup setup = { w, h, 48000.0, 120.0 };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame));
  p4d_image_frame_edges(frame, edges);
  const P4dImageTime time = { 0, 60U, 1U, 0.0 };
  p4d_image_frame_set(frame, p, &time);
  p4d_image_frame_rows(frame, 0U, h, value, tone);
  p4d_image_frame_free(frame);
}

/// Run the renderer with args and the settings; assert success.
static void
render_ok(const char* const* args)
{
  const char* all[40];
  size_t      n = 0U;
  for (; args[n]; ++n) {
    all[n] = args[n];
  }
  for (size_t i = 0U; i < N_SETTINGS; ++i) {
    all[n++] = settings[i];
  }
  all[n++] = "--quiet";
  all[n]   = NULL;
  p4d_cli_ok(all, NULL);
}

/// Read name (w x h) back with the independent reader.
static P4dPictureRead
read_back(const char* name, uint32_t w, uint32_t h)
{
  const P4dPictureJob job = { name, NULL, w, h, 60U, 1U, 0.0, 1.0, 1U, 0.0f };
  return p4d_picture_read(name, &job);
}

/// Every sample of a 16-bit heightmap is the engine's tone, as its level.
static void
test_values(void)
{
  static const struct {
    const char* name;
    const char* engine;
    uint32_t    w;
    uint32_t    h;
  } files[] = {
    { "u.raw", "unity", 33U, 33U },
    { "v.r16", "unreal", 127U, 253U },
    { "w.png", "unreal", 127U, 127U },
    { "g.r16", "godot", 40U, 30U },
  };
  for (size_t f = 0U; f < sizeof(files) / sizeof(files[0]); ++f) {
    const uint32_t w = files[f].w;
    const uint32_t h = files[f].h;
    char           size[32];
    snprintf(size, sizeof(size), "%ux%u", w, h);
    const char* const args[] = {
      "-o", files[f].name, "--terrain", files[f].engine, "--size", size, NULL
    };
    render_ok(args);

    float p[P4D_IMAGE_N_PARAMS];
    terrain_params(p, -4.0f, -4.0f);
    const size_t n    = (size_t)w * h;
    float*       tone = (float*)malloc(n * sizeof(float));
    engine_rows(p, w, h, true, NULL, tone);
    const P4dPictureRead b = read_back(files[f].name, w, h);
    assert(b.width == w && b.height == h && b.channels == 1U && b.bits == 16U);
    const uint16_t* s = (const uint16_t*)b.samples;
    for (size_t i = 0U; i < n; ++i) {
      // The level as the writers round it (test_render_image_files).
      const unsigned want = (unsigned)floorf(tone[i] * 65535.0f + 0.5f);
      if (s[i] != want) {
        printf(
          "# %s: sample %zu is %u, not %u\n", files[f].name, i, s[i], want);
        assert(!"sample differs");
      }
    }
    printf("# %s (%s, %s): every level is the engine's (edges, linear)\n",
           files[f].name,
           files[f].engine,
           size);
    free(b.samples);
    free(tone);
  }

  // Godot's EXR: the heights themselves, bottom + tone (top - bottom).
  const char* const args[] = { "-o",     "e.exr", "--terrain",      "godot",
                               "--size", "40x30", "--height-range", "-20:380",
                               NULL };
  render_ok(args);
  float p[P4D_IMAGE_N_PARAMS];
  terrain_params(p, -4.0f, -4.0f);
  float tone[40U * 30U];
  engine_rows(p, 40U, 30U, true, NULL, tone);
  const P4dPictureRead b = read_back("e.exr", 40U, 30U);
  assert(b.channels == 1U && b.bits == 32U);
  const float* v   = (const float*)b.samples;
  double       err = 0.0;
  for (size_t i = 0U; i < sizeof(tone) / sizeof(tone[0]); ++i) {
    const double d = fabs((double)v[i] - (-20.0 + 400.0 * (double)tone[i]));
    err            = d > err ? d : err;
  }
  printf("# e.exr: heights within %.3g m of -20 + 400 tone\n", err);
  assert(err < 1.0e-4);
  free(b.samples);
  p4d_work_clear();
}

/// Whether column (across) or row i of a equals column or row j of b, bit
/// for bit (w x h each).
static bool
same_line(const float* a,
          const float* b,
          uint32_t     w,
          uint32_t     h,
          bool         across,
          uint32_t     i,
          uint32_t     j)
{
  const uint32_t n = across ? h : w;
  for (uint32_t k = 0U; k < n; ++k) {
    const size_t ia     = across ? (size_t)k * w + i : (size_t)i * w + k;
    const size_t ib     = across ? (size_t)k * w + j : (size_t)j * w + k;
    uint32_t     bits_a = 0U;
    uint32_t     bits_b = 0U;
    memcpy(&bits_a, &a[ia], sizeof(bits_a));
    memcpy(&bits_b, &b[ib], sizeof(bits_b));
    if (bits_a != bits_b) {
      return false;
    }
  }
  return true;
}

/// Tiles one scale apart share their edges, bit for bit, in the engine.
static void
test_edges_engine(void)
{
  static const struct {
    float type;
    float warp;
    float tile;
  } kinds[] = {
    { 0.0f, 0.0f, 0.0f }, { 5.0f, 0.0f, 0.0f }, { 6.0f, 0.7f, 0.0f },
    { 4.0f, 0.5f, 0.0f }, { 1.0f, 0.0f, 1.0f }, { 4.0f, 0.3f, 1.0f },
  };
  static const float offsets[][2] = {
    { -13.5f, 2.25f }, { 0.0f, 0.0f }, { 4090.5f, -7.0f }, { -60000.0f, 3.0f }
  };
  const uint32_t w = 65U;
  const uint32_t h = 49U;
  float          a[65U * 49U];
  float          r[65U * 49U];
  float          d[65U * 49U];
  for (size_t k = 0U; k < sizeof(kinds) / sizeof(kinds[0]); ++k) {
    for (size_t o = 0U; o < sizeof(offsets) / sizeof(offsets[0]); ++o) {
      float p[P4D_IMAGE_N_PARAMS];
      terrain_params(p, offsets[o][0], offsets[o][1]);
      p[P4D_IMAGE_SCALE] = 6.0f;
      p[P4D_IMAGE_TYPE]  = kinds[k].type;
      p[P4D_IMAGE_WARP]  = kinds[k].warp;
      p[P4D_IMAGE_TILE]  = kinds[k].tile;
      engine_rows(p, w, h, true, a, NULL);
      // The neighbour to the right, scale cells on; the one below, the
      // tile's height (scale (h - 1) / (w - 1)) on.
      // (With tile on, the whole cells of its height: 4.5 rounds to 5.)
      const float tile_y =
        kinds[k].tile != 0.0f ? 5.0f : 6.0f * (float)(h - 1U) / (float)(w - 1U);
      p[P4D_IMAGE_OFFSET_X] = offsets[o][0] + 6.0f;
      engine_rows(p, w, h, true, r, NULL);
      p[P4D_IMAGE_OFFSET_X] = offsets[o][0];
      p[P4D_IMAGE_OFFSET_Y] = offsets[o][1] + tile_y;
      engine_rows(p, w, h, true, d, NULL);
      assert(same_line(a, r, w, h, true, w - 1U, 0U));
      assert(same_line(a, d, w, h, false, h - 1U, 0U));
      // Not so by accident: the next column, row differ.
      assert(!same_line(a, r, w, h, true, w - 2U, 0U));
      assert(!same_line(a, d, w, h, false, h - 2U, 0U));
      if (kinds[k].tile != 0.0f) {
        assert(same_line(a, a, w, h, true, w - 1U, 0U));
        assert(same_line(a, a, w, h, false, h - 1U, 0U));
      }
    }
  }
  printf("# engine: tiles one scale apart share their edge column and row "
         "bit for bit (%zu kinds x %zu offsets, negative too; tile: the last "
         "column and row are the first)\n",
         sizeof(kinds) / sizeof(kinds[0]),
         sizeof(offsets) / sizeof(offsets[0]));
}

/// The same through the command line: EXR heights of neighbouring tiles.
static void
test_edges_files(void)
{
  static const char* const names[] = { "t0.exr", "t1.exr", "t2.exr" };
  static const char* const ox[]    = { "-21", "-13", "-21" };
  static const char* const oy[]    = { "-9", "-9", "-1" };
  float*                   v[3];
  for (unsigned t = 0U; t < 3U; ++t) {
    char x[32];
    char y[32];
    snprintf(x, sizeof(x), "offset_x=%s", ox[t]);
    snprintf(y, sizeof(y), "offset_y=%s", oy[t]);
    const char* const args[] = { "-o",     names[t], "--terrain", "godot",
                                 "--size", "33x33",  "--set",     x,
                                 "--set",  y,        NULL };
    render_ok(args);
    const P4dPictureRead b = read_back(names[t], 33U, 33U);
    assert(b.bits == 32U && b.channels == 1U);
    v[t] = (float*)b.samples;
  }
  assert(same_line(v[0], v[1], 33U, 33U, true, 32U, 0U));
  assert(same_line(v[0], v[2], 33U, 33U, false, 32U, 0U));
  assert(!same_line(v[0], v[1], 33U, 33U, true, 31U, 0U));
  for (unsigned t = 0U; t < 3U; ++t) {
    free(v[t]);
  }
  p4d_work_clear();
  printf("# files: EXR tiles at offset -21 and -13 (scale 8) share a column, "
         "-9 and -1 a row, bit for bit\n");
}

/// Each engine's sizes and formats: accepted, or refused with one line.
static void
test_sizes(void)
{
  static const struct {
    const char* engine;
    const char* name;
    const char* size;
    const char* refusal; ///< NULL: accepted
  } cases[] = {
    { "unity", "a.r16", "33x33", NULL },
    { "unity", "a.raw", "65x65", NULL },
    { "unity", "a.r16", "32x32", "--size '32x32': Unity does not accept" },
    { "unity", "a.r16", "34x34", "--size '34x34': Unity does not accept" },
    { "unity", "a.r16", "33x65", "--size '33x65': Unity does not accept" },
    { "unity", "a.r16", "17x17", "--size '17x17': Unity does not accept" },
    { "unity", "a.png", "33x33", "-o 'a.png': Unity imports r16" },
    { "unity", "a.exr", "33x33", "-o 'a.exr': Unity imports r16" },
    { "unreal", "a.png", "127x127", NULL },
    { "unreal", "a.r16", "15x29", NULL },
    { "unreal", "a.png", "128x128", NULL }, // 1 component of 127 quads
    { "unreal", "a.png", "130x130", "--size '130x130': Unreal does not" },
    { "unreal", "a.png", "500x505", "--size '500x505': Unreal does not" },
    { "unreal", "a.png", "8x8", NULL }, // one component of 7 quads
    { "unreal", "a.png", "9x9", "--size '9x9': Unreal does not" },
    { "unreal", "a.exr", "127x127", "-o 'a.exr': Unreal imports 16-bit PNG" },
    { "godot", "a.exr", "2x2", NULL },
    { "godot", "a.r16", "37x5", NULL },
    { "godot", "a.exr", "1x9", "--size '1x9': Godot (Terrain3D) does not" },
    { "godot", "a.png", "64x64", "-o 'a.png': Godot (Terrain3D) imports exr" },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const char* const args[] = { "-o",        cases[i].name,
                                 "--terrain", cases[i].engine,
                                 "--size",    cases[i].size,
                                 "--quiet",   NULL };
    if (cases[i].refusal) {
      p4d_cli_refused(args, 2, cases[i].refusal, 0U);
    } else {
      p4d_cli_ok(args, NULL);
      assert(p4d_work_count() == 2U); // the heightmap and its sidecar
      p4d_work_clear();
    }
  }
  // An 8-bit PNG asked for by name, a sound file, an unknown engine.
  const char* const png8[] = { "-o",       "a.png",  "--terrain",
                               "unreal",   "--size", "127x127",
                               "--format", "png",    NULL };
  p4d_cli_refused(png8, 2, "-o 'a.png': Unreal imports 16-bit PNG", 0U);
  const char* const wav[] = { "-o", "a.wav", "--terrain", "unity", NULL };
  p4d_cli_refused(wav, 2, "--terrain 'unity': heightmaps are pictures", 0U);
  const char* const odd[] = { "-o", "a.r16", "--terrain", "cry", NULL };
  p4d_cli_refused(odd, 2, "--terrain 'cry': unknown engine", 0U);
  const char* const unit[] = {
    "-o", "a.r16", "--height-unit", "furlong", NULL
  };
  p4d_cli_refused(unit, 2, "--height-unit 'furlong': unknown unit", 0U);
  const char* const range[] = { "-o", "a.r16", "--height-range", "5:1", NULL };
  p4d_cli_refused(range, 2, "--height-range '5:1': MIN is above MAX", 0U);
  // Heights and light for a picture that is no heightmap: said, ignored.
  const char* const plain[] = {
    "-o",  "p.png",   "--size", "8x8",     "--height-range",
    "0:9", "--light", "1,2",    "--quiet", NULL
  };
  const P4dProcResult w = p4d_cli_run(plain, P4D_PROC_PLAIN);
  assert(w.status == 0 && p4d_count_lines(w.err) == 2U);
  assert(strstr(w.err, "warning: --height-range") &&
         strstr(w.err, "warning: --light"));
  p4d_work_clear();
  printf("# sizes and formats: %zu cases per engine's documentation, and "
         "refusals of one line, exit 2, nothing written\n",
         sizeof(cases) / sizeof(cases[0]) + 5U);
}

/// Check a script of Python on the work folder's files (argv[1] ...).
static void
python_ok(const char* script, const char* a, const char* b)
{
  const char* const   py[] = { "-c", script, a, b, NULL };
  const P4dProcSetup  how  = { .program = "/usr/bin/python3" };
  const P4dProcResult r    = p4d_proc_run(&how, py);
  if (r.status) {
    fprintf(stderr, "# %s\n", r.err);
  }
  assert(!r.status);
}

/// The hillshade: a flat map at sin(altitude); planes lit and turned away.
static void
test_hillshade(void)
{
  const char* const flat[] = { "-o",      "f.r16",  "--terrain",      "godot",
                               "--size",  "24x16",  "--height-range", "5:5",
                               "--light", "100,30", "--hillshade",    "f.png",
                               NULL };
  render_ok(flat);
  python_ok("import sys\n"
            "from PIL import Image\n"
            "import numpy as np\n"
            "im=Image.open(sys.argv[1]); assert im.mode=='L', im.mode\n"
            "a=np.array(im); assert a.shape==(16,24), a.shape\n"
            "assert (a==128).all(), a\n", // 255 sin(30 deg), rounded
            p4d_work_path("f.png"),
            "");

  // Planes rising east by slope s: lit from the west (270) they face the
  // light, from the east (90) they turn away.
  float        h[8U * 5U];
  float        west[8U * 5U];
  float        east[8U * 5U];
  const double s   = 0.5;
  const double alt = 40.0 * 3.14159265358979323846 / 180.0;
  for (unsigned y = 0U; y < 5U; ++y) {
    for (unsigned x = 0U; x < 8U; ++x) {
      h[y * 8U + x] = (float)(s * 2.0 * x); // pixel size 2
    }
  }
  p4d_terrain_hillshade(h, 8U, 5U, 2.0, 270.0, 40.0, west);
  p4d_terrain_hillshade(h, 8U, 5U, 2.0, 90.0, 40.0, east);
  const double lit  = (s * cos(alt) + sin(alt)) / sqrt(1.0 + s * s);
  const double away = (-s * cos(alt) + sin(alt)) / sqrt(1.0 + s * s);
  for (unsigned i = 0U; i < 40U; ++i) {
    assert(fabs(west[i] - lit) < 1.0e-6 && fabs(east[i] - away) < 1.0e-6);
    assert(west[i] > east[i]);
  }
  printf("# hillshade: flat 24x16 at 255 sin(30) = 128 (PIL); a plane of "
         "slope 0.5 lit %.4f, turned away %.4f (Lambert)\n",
         lit,
         away);

  // Written with the heightmap, or not at all.
  assert(!remove(p4d_work_path("f.r16")));
  assert(!remove(p4d_work_path("f.json")));
  const char* const again[] = { "-o",          "f.r16",  "--terrain",
                                "godot",       "--size", "24x16",
                                "--hillshade", "f.png",  NULL };
  p4d_cli_refused(again, 2, "f.png: exists", 1U);
  const char* const seq[] = { "-o",          "s_%03d.r16", "--terrain", "godot",
                              "--hillshade", "s.png",      NULL };
  p4d_cli_refused(seq, 2, "--hillshade 's.png': one picture only", 1U);
  p4d_work_clear();
}

/// The sidecar, parsed by Python's json: heights, the importer's numbers.
static void
test_sidecar(void)
{
  const char* const unreal[] = {
    "-o",      "m.png",          "--terrain", "unreal",       "--size",
    "127x127", "--height-range", "-100:412",  "--pixel-size", "2",
    NULL
  };
  render_ok(unreal);
  python_ok("import sys,json\n"
            "d=json.load(open(sys.argv[1]))\n"
            "t=d['terrain']; i=t['import']\n"
            "assert d['format']=='png16' and d['settings']['tone']==1\n"
            "assert t['engine']=='unreal' and t['edges'] is True\n"
            "assert t['level_0']==-100 and t['level_65535']==412\n"
            "assert t['unit']=='m' and t['size_x']==252 and t['size_y']==252\n"
            "assert i['scale_x_cm']==200 and i['scale_y_cm']==200\n"
            "assert i['scale_z']==100 and i['location_z_cm']==15600, i\n"
            "assert d['value']['min']>=-100 and d['value']['max']<=412\n",
            p4d_work_path("m.json"),
            "");
  const char* const unity[] = {
    "-o",    "u.raw",          "--terrain", "unity",         "--size",
    "65x65", "--height-range", "10:1010",   "--height-unit", "ft",
    "--set", "tone=0",         NULL
  };
  render_ok(unity);
  python_ok("import sys,json\n"
            "d=json.load(open(sys.argv[1]))\n"
            "t=d['terrain']; i=t['import']\n"
            "assert d['format']=='r16' and d['settings']['tone']==0\n"
            "assert t['unit']=='ft' and i['resolution']==65\n"
            "assert abs(i['terrain_height_m']-304.8)<1e-9, i\n"
            "assert abs(i['terrain_width_m']-64*0.3048)<1e-9, i\n"
            "assert abs(i['position_y_m']-3.048)<1e-9, i\n",
            p4d_work_path("u.json"),
            "");
  const char* const godot[] = { "-o",     "g.r16", "--terrain",      "godot",
                                "--size", "20x10", "--height-range", "0:50",
                                NULL };
  render_ok(godot);
  python_ok("import sys,json\n"
            "d=json.load(open(sys.argv[1]))\n"
            "i=d['terrain']['import']\n"
            "assert i['r16_min_m']==0 and i['r16_max_m']==50\n"
            "assert i['r16_width']==20 and i['r16_height']==10\n"
            "assert i['vertex_spacing_m']==1, i\n",
            p4d_work_path("g.json"),
            "");
  p4d_work_clear();
  printf("# sidecars: Unreal's scale and location, Unity's size in feet, "
         "Terrain3D's r16 range (json)\n");
}

int
main(int argc, char** argv)
{
  assert(argc == 3);
  p4d_cli_open(argv[1], "render-terrain");
  p4d_picture_reader(argv[2]);
  test_edges_engine();
  test_values();
  test_edges_files();
  test_sizes();
  test_hillshade();
  test_sidecar();
  p4d_cli_close();
  return 0;
}
