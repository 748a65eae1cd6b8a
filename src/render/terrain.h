// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Heightmaps for terrain tools: --terrain unity|unreal|godot picks the
  engine's file format, checks the size against what the engine accepts,
  and names the numbers its importer wants (the sidecar's "terrain"
  object).  One const P4dTerrainEngine per engine, in one table
  (terrain.c); code outside it never asks which engine it has.

  In terrain mode the picture's samples sit on the edges
  (p4d_image_frame_edges()), so tiles rendered one `scale` apart share
  their edge rows bit for bit; level 0 of the 16-bit file is the bottom of
  --height-range and level 65535 its top, in --height-unit; EXR stores
  the height itself (bottom + tone (top - bottom)).

  The hillshade (--hillshade FILE.png, --light AZIMUTH,ALTITUDE) is the
  shaded relief of the heights: normals from central differences (one-sided
  at the borders) over --pixel-size, Lambert's cosine with the light, as
  GIS tools draw it (azimuth clockwise from north, the picture's top; 315,
  45 by default).
*/

#ifndef P4D_TERRAIN_H
#define P4D_TERRAIN_H

#include "options.h"
#include "report.h"
#include "writers.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Most numbers an engine's importer is told in the sidecar.
#define P4D_TERRAIN_MAX_IMPORT 8U

/// What a terrain's sidecar tells the engine's importer: named numbers,
/// in the engine's own units.
typedef struct {
  unsigned    n;
  const char* key[P4D_TERRAIN_MAX_IMPORT];
  double      value[P4D_TERRAIN_MAX_IMPORT];
  const char* note; ///< How to import it, in a sentence
} P4dTerrainImport;

/// The heights and spacing of a heightmap, in metres and as given.
typedef struct {
  uint32_t    width;
  uint32_t    height;
  double      bottom; ///< Level 0's height, in unit
  double      top;    ///< Level 65535's height, in unit
  double      pixel;  ///< Distance between samples, in unit
  const char* unit;   ///< "m", "cm", "km", "ft" or "mm"
  double      metres; ///< Metres per unit
  const char* format; ///< The writer's name (r16, png16, exr)
} P4dTerrainSize;

/// A terrain engine: its formats, its sizes, its import numbers.
typedef struct {
  const char*        name;    ///< For --terrain
  const char*        title;   ///< "Unity"
  const char* const* formats; ///< Writers it imports, NULL-terminated
  const char*        png;     ///< What a .png becomes (png16), or NULL
  const char*        sizes;   ///< The sizes it accepts, for the refusal

  /// Whether the engine accepts a heightmap of width x height samples.
  bool (*accepts)(uint32_t width, uint32_t height);

  /// The numbers its importer wants for a heightmap of size s.
  void (*import)(const P4dTerrainSize* s, P4dTerrainImport* out);
} P4dTerrainEngine;

/// The engine named name, or NULL.
const P4dTerrainEngine*
p4d_terrain_find(const char* name);

/// Metres per unit of a --height-unit, or 0 for a unit not known.
double
p4d_terrain_unit_metres(const char* unit);

/**
   Check a terrain render: the format the engine imports (a .png becomes
   16-bit PNG where the engine reads one), the size it accepts.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_USAGE with the culprit.
*/
P4dRenderCode
p4d_terrain_check(const P4dTerrainEngine* engine,
                  const P4dOptions*       options,
                  P4dFormat*              format,
                  P4dRenderStatus*        status);

/**
   The shaded relief of heights (width x height, rows from the top, in the
   unit of pixel, the distance between samples) lit from azimuth_deg
   (clockwise from the top) and altitude_deg above the horizon: shade[i]
   in [0, 1], the cosine between the surface's normal and the light (0 in
   shadow).  A flat map is sin(altitude) everywhere.
*/
void
p4d_terrain_hillshade(const float* heights,
                      uint32_t     width,
                      uint32_t     height,
                      double       pixel,
                      double       azimuth_deg,
                      double       altitude_deg,
                      float*       shade);

#endif // P4D_TERRAIN_H
