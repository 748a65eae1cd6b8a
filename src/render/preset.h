// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The shipped LV2 presets, read with lilv: found by label, URI, the URI's
  last part, or a Turtle file.
*/

#ifndef P4D_PRESET_H
#define P4D_PRESET_H

#include "params.h"

#include <stdbool.h>
#include <stdio.h>

/// Values of a preset: which plugin kind it is for and the ports it sets.
typedef struct {
  P4dKind  kind;
  unsigned n_values;
  char     file[4096]; ///< The Turtle file it was read from
  char     symbols[P4D_MAX_PARAMS][32];
  float    values[P4D_MAX_PARAMS];
} P4dPresetValues;

/**
   Load the preset named by spec (a label, a URI, the last part of a URI,
   or a path to a Turtle file) into values.

   @return NULL on success, else the reason.
*/
const char*
p4d_preset_load(const char*      spec,
                const char*      exe_path,
                P4dPresetValues* values);

/// Print every preset of the bundle, one a line.  NULL on success.
const char*
p4d_preset_list(const char* exe_path, FILE* stream);

#endif // P4D_PRESET_H
