// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  A look at the Image: a contact sheet of every preset of the Image and of
  every Mod preset as a picture (`--preset NAME --plugin image`) at song
  time 8 s, through the palettes, written as a PNG for a reviewer to open
  (image-png/image-sheet.png beside this program, with image-sheet.txt
  naming the tiles in order; each tiling preset gets a second tile, its
  frame repeated 2 x 2, where any seam would show).  An independent
  reader (Python's PIL) writes each tile's name under it, then must find
  the sheet's size and the colour at the centre of every tile.

  Usage: test_image_sheet RENDERER (the bundle is found beside it).
*/

#undef NDEBUG
#define _XOPEN_SOURCE 700

#include "image.h"
#include "kind.h"
#include "params.h"
#include "preset.h"

#include "support/png.h"
#include "support/process.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TILE 192U
#define COLUMNS 5U
#define GAP 4U
#define LABEL 14U ///< The band under each tile for its name
#define PITCH (TILE + LABEL + GAP)
#define MAX_TILES 40U

/// The sheet: ARGB32 pixels, and the tiles placed so far.
typedef struct {
  uint8_t* argb;
  uint32_t w;
  uint32_t h;
  unsigned n;
  char     names[MAX_TILES][96];
  uint8_t  centre[MAX_TILES][3]; ///< RGB at each tile's centre
} Sheet;

/// One frame of params at TILE / repeat pixels a side, drawn repeat x
/// repeat times into tile n of the sheet.
static void
draw_tile(Sheet* s, const float* params, unsigned repeat, const char* name)
{
  assert(s->n < MAX_TILES);
  const uint32_t      side  = TILE / repeat;
  const P4dImageSetup setup = { side, side, 48000.0, 120.0 };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame));
  // 8 s into the song: the Mod presets' rates tell them apart.
  const P4dImageTime time = { 240, 30U, 1U, 0.0 };
  p4d_image_frame_set(frame, params, &time);
  float* const tone = (float*)malloc((size_t)side * side * sizeof(float));
  float* const rgb  = (float*)malloc((size_t)side * side * 3U * sizeof(float));
  assert(tone && rgb);
  p4d_image_frame_rows(frame, 0U, side, NULL, tone);
  p4d_image_frame_colour(frame, tone, rgb, (size_t)side * side);
  p4d_image_frame_free(frame);

  const uint32_t x0 = GAP + (s->n % COLUMNS) * (TILE + GAP);
  const uint32_t y0 = GAP + (s->n / COLUMNS) * PITCH;
  for (uint32_t y = 0U; y < TILE; ++y) {
    for (uint32_t x = 0U; x < TILE; ++x) {
      const float* const c = rgb + 3U * ((size_t)(y % side) * side + x % side);
      uint8_t* const out   = s->argb + 4U * ((size_t)(y0 + y) * s->w + x0 + x);
      // ARGB32 in native order: blue, green, red, alpha on little-endian.
      const uint32_t px = 0xFF000000U |
                          (uint32_t)(c[0] * 255.0f + 0.5f) << 16U |
                          (uint32_t)(c[1] * 255.0f + 0.5f) << 8U |
                          (uint32_t)(c[2] * 255.0f + 0.5f);
      memcpy(out, &px, 4U);
      if (x == TILE / 2U && y == TILE / 2U) {
        for (unsigned k = 0U; k < 3U; ++k) {
          s->centre[s->n][k] = (uint8_t)(c[k] * 255.0f + 0.5f);
        }
      }
    }
  }
  snprintf(s->names[s->n], sizeof(s->names[0]), "%s", name);
  ++s->n;
  free(tone);
  free(rgb);
}

int
main(int argc, char** argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: test_image_sheet RENDERER\n");
    return 1;
  }
  char        dir[4096];
  const char* slash = strrchr(argv[0], '/');
  snprintf(dir,
           sizeof(dir),
           "%.*s/image-png",
           slash ? (int)(slash - argv[0]) : 1,
           slash ? argv[0] : ".");
  mkdir(dir, 0755);

  char*           list = NULL;
  size_t          size = 0U;
  FILE* const     out  = open_memstream(&list, &size);
  P4dRenderStatus st;
  assert(out && !p4d_preset_list(argv[1], out, &st));
  assert(!fclose(out));

  Sheet s;
  memset(&s, 0, sizeof(s));
  s.w    = GAP + COLUMNS * (TILE + GAP);
  s.h    = GAP + (MAX_TILES / COLUMNS) * PITCH;
  s.argb = (uint8_t*)calloc((size_t)s.w * s.h, 4U);
  assert(s.argb);

  const P4dKindClass* const image   = p4d_kind_by_name("image");
  unsigned                  n_image = 0U;
  for (char* line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
    char name[48];
    char kind[16];
    if (sscanf(line, "%47s %15s", name, kind) != 2 ||
        (strcmp(kind, "image") && strcmp(kind, "mod"))) {
      continue;
    }
    P4dPresetValues v;
    assert(!p4d_preset_load(name, argv[1], image, &v, &st));
    float p[P4D_MAX_PARAMS];
    p4d_param_defaults(p4d_params(P4D_KIND_IMAGE), p);
    for (unsigned i = 0U; i < v.n_values; ++i) {
      p[v.params[i]] = (float)v.values[i];
    }
    char label[96];
    snprintf(label, sizeof(label), "%s (%s)", name, kind);
    draw_tile(&s, p, 1U, label);
    if (p[P4D_IMAGE_TILE] != 0.0f) {
      snprintf(label, sizeof(label), "%s, 2 x 2", name);
      draw_tile(&s, p, 2U, label);
    }
    n_image += strcmp(kind, "image") ? 0U : 1U;
  }
  free(list);
  assert(n_image >= 6U);

  // Only the rows the tiles use.
  s.h = GAP + ((s.n + COLUMNS - 1U) / COLUMNS) * PITCH;
  char png[4200];
  char txt[4200];
  snprintf(png, sizeof(png), "%s/image-sheet.png", dir);
  snprintf(txt, sizeof(txt), "%s/image-sheet.txt", dir);
  assert(p4d_png_write(png, s.argb, s.w, s.h, s.w * 4U));
  FILE* const legend = fopen(txt, "w");
  assert(legend);
  for (unsigned i = 0U; i < s.n; ++i) {
    fprintf(legend, "%u %s\n", i + 1U, s.names[i]);
  }
  assert(!fclose(legend));
  printf("# %u tiles (%u Image presets) in %s\n", s.n, n_image, png);

  // An independent reader, PIL, labels each tile with its name in the
  // band under it (ImageDraw's default font), saves the sheet so, and
  // reads it back: its size and the colour at the centre of every tile.
  static const char script[] =
    "import sys\n"
    "from PIL import Image, ImageDraw\n"
    "path = sys.argv[1]\n"
    "im = Image.open(path).convert('RGB')\n"
    "d = ImageDraw.Draw(im)\n"
    "a = sys.argv[2:]\n"
    "for x, y, left, top, name in zip(a[0::5], a[1::5], a[2::5], a[3::5],\n"
    "                                 a[4::5]):\n"
    "    l, t = int(left), int(top)\n"
    "    d.text((l + 2, t + 1), name, fill=(230, 230, 230))\n"
    "im.save(path)\n"
    "im = Image.open(path).convert('RGB')\n"
    "print(*im.size)\n"
    "for x, y in zip(a[0::5], a[1::5]):\n"
    "    print(*im.getpixel((int(x), int(y))))\n";
  char        coords[MAX_TILES][4][16];
  const char* args[3U + 5U * MAX_TILES + 1U] = { "-c", script, png };
  for (unsigned i = 0U; i < s.n; ++i) {
    const unsigned left = GAP + (i % COLUMNS) * (TILE + GAP);
    const unsigned top  = GAP + (i / COLUMNS) * PITCH;
    snprintf(coords[i][0], sizeof(coords[i][0]), "%u", left + TILE / 2U);
    snprintf(coords[i][1], sizeof(coords[i][1]), "%u", top + TILE / 2U);
    snprintf(coords[i][2], sizeof(coords[i][2]), "%u", left);
    snprintf(coords[i][3], sizeof(coords[i][3]), "%u", top + TILE);
    for (unsigned k = 0U; k < 4U; ++k) {
      args[3U + 5U * i + k] = coords[i][k];
    }
    args[3U + 5U * i + 4U] = s.names[i];
  }
  P4dProcSetup how;
  memset(&how, 0, sizeof(how));
  how.program             = "/usr/bin/python3";
  const P4dProcResult pil = p4d_proc_run(&how, args);
  if (pil.status) {
    fprintf(stderr, "PIL: %s\n", pil.err);
  }
  assert(pil.status == 0);
  char*               at = NULL;
  const unsigned long w  = strtoul(pil.out, &at, 10);
  const unsigned long h  = strtoul(at, &at, 10);
  assert(w == s.w && h == s.h);
  for (unsigned i = 0U; i < s.n; ++i) {
    for (unsigned k = 0U; k < 3U; ++k) {
      assert(strtoul(at, &at, 10) == s.centre[i][k]);
    }
  }
  printf("# PIL labels the tiles and reads %lux%lu and the centre of every "
         "tile\n",
         w,
         h);
  free(s.argb);
  return 0;
}
