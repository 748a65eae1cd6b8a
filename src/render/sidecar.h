// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The JSON sidecar of a picture file (f_00012.png: f_00012.json): what a
  compositor, a game engine or a script needs to place the picture in time
  and in the field, and to line it up with the sound.  One object:

    {"perlin4d": "0.9.0", "file": "f_00012.png", "format": "png16",
     "width": 512, "height": 512, "frame": 12, "fps": "30000/1001",
     "song_s": ..., "song_beats": ..., "tempo_bpm": 120, "w_cells": ...,
     "cells_x": ..., "cells_y": ...,
     "settings": {"seed": 0, "scale": 4, ...},
     "value": {"min": ..., "max": ...}, "tone": {"min": ..., "max": ...},
     "mod_channels": [{"x": ..., "y": ...}, ...]}

  Numbers are printed with 17 significant digits (doubles read back
  exactly), settings with 9 (floats); "value" is the field's value
  (what EXR stores), "tone" the tone in [0, 1] (PNG, r16, Y4M), and
  mod_channels[k] the pixel where Mod channel k's value is (it may lie
  outside the picture).

  A heightmap (--terrain, or any picture with --hillshade) adds

    "terrain": {"engine": "unreal", "edges": true, "width": 1009,
      "height": 1009, "unit": "m", "level_0": 0, "level_65535": 400,
      "pixel_size": 2, "size_x": 2016, "size_y": 2016,
      "import": {"scale_x_cm": 200, ..., "note": "..."}}

  level_0 and level_65535 are the heights of the 16-bit file's lowest and
  highest levels (and of tone 0 and 1), in unit; size_x and size_y the
  span of the samples, (width - 1) and (height - 1) pixel sizes on the
  edges; "import" the numbers the engine's importer wants, in its units.
*/

#ifndef P4D_SIDECAR_H
#define P4D_SIDECAR_H

#include "atomic_file.h"
#include "image.h"
#include "report.h"
#include "terrain.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// What a sidecar tells.
typedef struct {
  const char*             file;   ///< The picture's file name (no folder)
  const char*             format; ///< Its writer's name
  uint32_t                width;
  uint32_t                height;
  int64_t                 frame;
  uint32_t                fps_num;
  uint32_t                fps_den;
  double                  tempo_bpm;
  const P4dImageFacts*    facts;
  unsigned                n_settings;
  const char* const*      symbols;   ///< The parameters' symbols, n_settings
  const float*            values;    ///< Their values at the frame
  float                   value_min; ///< The field's value over the picture
  float                   value_max;
  float                   tone_min; ///< The tone over the picture
  float                   tone_max;
  const char*             engine;  ///< Terrain: the --terrain engine, or NULL
  const P4dTerrainSize*   terrain; ///< Terrain: its heights, or NULL
  const P4dTerrainImport* import;  ///< Terrain: the importer's numbers
} P4dSidecar;

/**
   The sidecar's path for a picture's path: its extension replaced by
   ".json" (or ".json" added).

   @return Whether it fit in size bytes.
*/
bool
p4d_sidecar_path(const char* picture, char* sidecar, size_t size);

/**
   Write the sidecar to file (opened, empty) and flush and sync it.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
*/
P4dRenderCode
p4d_sidecar_write(const P4dSidecar*    sidecar,
                  const P4dAtomicFile* file,
                  P4dRenderStatus*     status);

#endif // P4D_SIDECAR_H
