// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  LV2 presets: the shipped ones found with lilv by label, URI or the URI's
  last part, or a Turtle file.  The preset's own Turtle is read here with
  serd, strictly: a file that is not a small regular file, not Turtle, not
  a preset of a perlin4d plugin, or holds a value that is not a finite
  number is refused with one reason, and lilv and serd never print.
*/

#ifndef P4D_PRESET_H
#define P4D_PRESET_H

#include "kind.h"
#include "params.h"
#include "report.h"

#include <stdbool.h>
#include <stdio.h>

/// The largest preset file read, in bytes (the man page says 1 MiB).
#define P4D_PRESET_MAX_BYTES (1024L * 1024L)

/// Values of a preset: which plugin kind it is for and the ports it sets.
typedef struct {
  const P4dKindClass* kind;     ///< A class the renderer renders
  bool                borrowed; ///< A preset of the class kind takes the
                                ///< presets of: other symbols are ignored
                                ///< silently
  unsigned n_values;
  char     file[4096];             ///< The Turtle file it was read from
  int      params[P4D_MAX_PARAMS]; ///< The parameters set, in table order
  double   values[P4D_MAX_PARAMS];
} P4dPresetValues;

/**
   Load the preset named by spec (a label, a URI, the last part of a URI,
   or a path to a Turtle file) into values.

   A port symbol the plugin does not have is ignored with a warning on
   stderr (a preset of a later version may set a newer port).

   @param plugin The class --plugin asked for, or NULL: then a preset that
   names no perlin4d plugin (no lv2:appliesTo) is refused.
   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_USAGE with no culprit (the
   caller names the preset).
*/
P4dRenderCode
p4d_preset_load(const char*         spec,
                const char*         exe_path,
                const P4dKindClass* plugin,
                P4dPresetValues*    values,
                P4dRenderStatus*    status);

/**
   Print every preset of the bundle, one a line.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming
   --list-presets.
*/
P4dRenderCode
p4d_preset_list(const char* exe_path, FILE* stream, P4dRenderStatus* status);

#endif // P4D_PRESET_H
