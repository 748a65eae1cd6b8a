// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  A preset's Turtle file, read strictly with serd (lilv would print its
  own messages, read a FIFO forever and load a damaged value as 0): only a
  regular file of at most P4D_PRESET_MAX_BYTES, only Turtle, every value a
  finite number of a type lilv reads as one, every port with one symbol
  and one value, each symbol once.  A failure is one reason, with the line
  and column where serd stopped.
*/

#ifndef P4D_PRESET_FILE_H
#define P4D_PRESET_FILE_H

#include "preset.h"

/**
   Read a preset from the Turtle file at path into values.

   @param subject The preset's URI, or NULL for the file's own preset: <>
   if the file says anything of it, else its only pset:Preset.  With a
   URI, values->kind must be set; without, it comes from lv2:appliesTo,
   or plugin if that names no perlin4d plugin.
   @param spec The preset as given, to name it in warnings.
   @param plugin The class --plugin asked for, or NULL.
   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_USAGE with the reason in
   status->text and no culprit (the caller names the preset).
*/
P4dRenderCode
p4d_preset_file_read(const char*         path,
                     const char*         subject,
                     const char*         spec,
                     const P4dKindClass* plugin,
                     P4dPresetValues*    values,
                     P4dRenderStatus*    status);

/**
   Call visit(uri, label, data) for each preset (pset:Preset) of the Turtle
   file at path, in the file's order, until it returns true: the presets
   of a kind that has a file of its own (the Image's, kind.h).  A file that
   cannot be read has none.

   @return Whether a visit returned true.
*/
bool
p4d_preset_file_each(const char* path,
                     bool (*visit)(const char* uri,
                                   const char* label,
                                   void*       data),
                     void* data);

#endif // P4D_PRESET_FILE_H
