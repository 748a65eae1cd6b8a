// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The terrain engines (terrain.h), from their documentation:

  - Unity: a 16-bit RAW heightmap (little-endian, "Windows" byte order),
    square, of 2^n + 1 samples from 33 to 4097 (TerrainData.
    heightmapResolution is clamped to 33, 65, 129, 257, 513, 1025, 2049 or
    4097).
  - Unreal: a 16-bit greyscale PNG or r16; a landscape is whole components
    of 1 or 2 x 2 sections of 7, 15, 31, 63, 127 or 255 quads, so each
    side is (components x quads per component) + 1 samples (the
    recommended 127, 253, 505, 1009, 2017, 4033 and 8129 among them), at
    most 1024 components; its Z scale 100 spans 512 m (-256 to 256 m about
    the actor's Z).
  - Godot (Terrain3D): EXR (heights stored as they are) or r16 with its
    range given at import; any size, sliced and padded into regions, in a
    world of at most 16384 samples a side.
*/

#include "terrain.h"

#include "exact_math.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/// The known units of --height-unit, in metres.
static const struct {
  const char* name;
  double      metres;
} units[] = {
  { "m", 1.0 },     { "cm", 0.01 },   { "mm", 0.001 },
  { "km", 1000.0 }, { "ft", 0.3048 },
};

double
p4d_terrain_unit_metres(const char* unit)
{
  for (size_t i = 0U; i < sizeof(units) / sizeof(units[0]); ++i) {
    if (!strcmp(unit, units[i].name)) {
      return units[i].metres;
    }
  }
  return 0.0;
}

/// Add a named number to an import.
static void
put(P4dTerrainImport* out, const char* key, double value)
{
  if (out->n < P4D_TERRAIN_MAX_IMPORT) {
    out->key[out->n]   = key;
    out->value[out->n] = value;
    ++out->n;
  }
}

static bool
unity_accepts(uint32_t width, uint32_t height)
{
  const uint32_t n = width - 1U;
  return width == height && width >= 33U && width <= 4097U && !(n & (n - 1U));
}

static void
unity_import(const P4dTerrainSize* s, P4dTerrainImport* out)
{
  put(out, "depth_bits", 16.0);
  put(out, "resolution", (double)s->width);
  put(out, "terrain_width_m", (double)(s->width - 1U) * s->pixel * s->metres);
  put(out, "terrain_length_m", (double)(s->height - 1U) * s->pixel * s->metres);
  put(out, "terrain_height_m", (s->top - s->bottom) * s->metres);
  put(out, "position_y_m", s->bottom * s->metres);
  out->note = "Terrain > Import Raw: Depth 16 bit, Byte Order Windows, "
              "Resolution, Terrain Size (width, height, length) as here; "
              "the terrain at position_y_m";
}

/// Quads per Unreal landscape component: 1 or 2 x 2 sections of 7 .. 255.
static const uint32_t unreal_quads[] = { 7U,  14U,  15U,  30U,  31U,  62U,
                                         63U, 126U, 127U, 254U, 255U, 510U };

static bool
unreal_accepts(uint32_t width, uint32_t height)
{
  if (width < 2U || height < 2U) {
    return false;
  }
  for (size_t i = 0U; i < sizeof(unreal_quads) / sizeof(unreal_quads[0]); ++i) {
    const uint32_t q = unreal_quads[i];
    if ((width - 1U) % q == 0U && (height - 1U) % q == 0U &&
        (uint64_t)((width - 1U) / q) * ((height - 1U) / q) <= 1024U) {
      return true;
    }
  }
  return false;
}

static void
unreal_import(const P4dTerrainSize* s, P4dTerrainImport* out)
{
  const double cm = 100.0 * s->metres;
  put(out, "scale_x_cm", s->pixel * cm);
  put(out, "scale_y_cm", s->pixel * cm);
  put(out, "scale_z", (s->top - s->bottom) * cm / 512.0);
  put(out, "location_z_cm", 0.5 * (s->top + s->bottom) * cm);
  out->note = "Landscape > Import from File: the heightmap, Scale X, Y, Z "
              "and Location Z as here (Z scale 100 spans 512 m)";
}

static bool
godot_accepts(uint32_t width, uint32_t height)
{
  return width >= 2U && height >= 2U && width <= 16384U && height <= 16384U;
}

static void
godot_import(const P4dTerrainSize* s, P4dTerrainImport* out)
{
  put(out, "vertex_spacing_m", s->pixel * s->metres);
  if (!strcmp(s->format, "r16")) {
    put(out, "r16_min_m", s->bottom * s->metres);
    put(out, "r16_max_m", s->top * s->metres);
    put(out, "r16_width", (double)s->width);
    put(out, "r16_height", (double)s->height);
    out->note = "Terrain3D importer: the r16 file, its height range "
                "(r16_min_m, r16_max_m) and size as here";
  } else {
    put(out, "import_scale", s->metres);
    put(out, "import_offset_m", 0.0);
    out->note = "Terrain3D importer: the EXR file (heights as they are, in "
                "the unit), scale import_scale, offset 0";
  }
}

static const char* const unity_formats[]  = { "r16", NULL };
static const char* const unreal_formats[] = { "png16", "r16", NULL };
static const char* const godot_formats[]  = { "exr", "r16", NULL };

/// The engines, for --terrain.
static const P4dTerrainEngine engines[] = {
  { "unity",
    "Unity",
    unity_formats,
    NULL,
    "a square of 2^n + 1 samples, 33 to 4097",
    unity_accepts,
    unity_import },
  { "unreal",
    "Unreal",
    unreal_formats,
    "png16",
    "sides of whole landscape components, each side + 1 (127, 253, 505, "
    "1009, 2017, 4033 or 8129)",
    unreal_accepts,
    unreal_import },
  { "godot",
    "Godot (Terrain3D)",
    godot_formats,
    NULL,
    "2 to 16384 samples a side",
    godot_accepts,
    godot_import },
};

const P4dTerrainEngine*
p4d_terrain_find(const char* name)
{
  for (size_t i = 0U; i < sizeof(engines) / sizeof(engines[0]); ++i) {
    if (!strcmp(name, engines[i].name)) {
      return &engines[i];
    }
  }
  return NULL;
}

/// Whether the engine imports the writer named name.
static bool
imports(const P4dTerrainEngine* e, const char* name)
{
  for (const char* const* f = e->formats; *f; ++f) {
    if (!strcmp(*f, name)) {
      return true;
    }
  }
  return false;
}

P4dRenderCode
p4d_terrain_check(const P4dTerrainEngine* engine,
                  const P4dOptions*       o,
                  P4dFormat*              format,
                  P4dRenderStatus*        st)
{
  const char* const name = format->writer->name;
  if (engine->png && !strcmp(name, "png") && !o->format) {
    const P4dWriterClass* const w[] = { &p4d_write_png16 };
    format->writer                  = w[0];
    format->variant                 = 0;
  } else if (!imports(engine, name)) {
    char list[128] = "";
    for (const char* const* f = engine->formats; *f; ++f) {
      const size_t len = strlen(list);
      snprintf(list + len,
               sizeof(list) - len,
               "%s%s",
               len ? (f[1] ? ", " : " or ") : "",
               !strcmp(*f, "png16") ? "16-bit PNG"
               : !strcmp(*f, "r16") ? "r16 (.r16, .raw)"
                                    : *f);
    }
    snprintf(st->text,
             sizeof(st->text),
             "%s imports %s heightmaps, not %s",
             engine->title,
             list,
             name);
    return p4d_report_bad_value(st, "-o", o->output, st->text);
  }
  if (!engine->accepts(o->width, o->height)) {
    // The culprit outlives this call (the status points at it).
    static char size[32];
    snprintf(size, sizeof(size), "%ux%u", o->width, o->height);
    snprintf(st->text,
             sizeof(st->text),
             "%s does not accept this size: %s",
             engine->title,
             engine->sizes);
    return p4d_report_bad_value(st, "--size", size, st->text);
  }
  return P4D_RENDER_SUCCESS;
}

/// The height at (x, y), clamped into the map.
static double
at(const float* h, uint32_t width, uint32_t height, int64_t x, int64_t y)
{
  const int64_t cx = x < 0 ? 0 : x >= (int64_t)width ? (int64_t)width - 1 : x;
  const int64_t cy = y < 0 ? 0 : y >= (int64_t)height ? (int64_t)height - 1 : y;
  return (double)h[(size_t)cy * width + (size_t)cx];
}

/// sin of deg degrees from the core's deterministic quarter sine (libm's
/// sin may round differently on another machine, and the hillshade's
/// pixels must be the same bits everywhere): the angle reduced exactly
/// into a quadrant q and its fraction r.
static double
sin_deg(double deg)
{
  double d       = fmod(deg, 360.0);
  d              = d < 0.0 ? d + 360.0 : d;
  const double q = floor(d / 90.0);
  const double r = (d - 90.0 * q) / 90.0;
  const double s =
    ((int)q & 1) ? p4d_exact_quarter_cos(r) : p4d_exact_quarter_sin(r);
  return q >= 2.0 ? -s : s;
}

void
p4d_terrain_hillshade(const float* heights,
                      uint32_t     width,
                      uint32_t     height,
                      double       pixel,
                      double       azimuth_deg,
                      double       altitude_deg,
                      float*       shade)
{
  // The light as (east, north, up): east is +x, north the picture's top.
  const double lx = sin_deg(azimuth_deg) * sin_deg(altitude_deg + 90.0);
  const double ly = sin_deg(azimuth_deg + 90.0) * sin_deg(altitude_deg + 90.0);
  const double lz = sin_deg(altitude_deg);
  for (uint32_t y = 0U; y < height; ++y) {
    for (uint32_t x = 0U; x < width; ++x) {
      // Central differences; one-sided where a neighbour is outside.
      const int64_t xi = (int64_t)x;
      const int64_t yi = (int64_t)y;
      const double  dx = (double)((x + 1U < width) + (x > 0U)) * pixel;
      const double  dy = (double)((y + 1U < height) + (y > 0U)) * pixel;
      const double  ex = dx > 0.0 ? (at(heights, width, height, xi + 1, yi) -
                                    at(heights, width, height, xi - 1, yi)) /
                                     dx
                                  : 0.0;
      // Rows go down the picture, south: the slope northward is minus it.
      const double ny = dy > 0.0 ? -(at(heights, width, height, xi, yi + 1) -
                                     at(heights, width, height, xi, yi - 1)) /
                                     dy
                                 : 0.0;
      const double c =
        (-ex * lx - ny * ly + lz) / sqrt(ex * ex + ny * ny + 1.0);
      shade[(size_t)y * width + x] = c > 0.0 ? (float)c : 0.0f;
    }
  }
}
