// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Files that appear whole or not at all: each output is written to a
  temporary file beside its final path and renamed into place only once
  complete, so an interrupted or failed render leaves nothing behind.  The
  checks made before anything is written live here too: the folder exists,
  the path is not a folder, not an input of the render, and not an existing
  file unless --force.
*/

#ifndef P4D_ATOMIC_FILE_H
#define P4D_ATOMIC_FILE_H

#include "report.h"

#include <stdbool.h>

/// A file written beside its final path and renamed into place.
typedef struct {
  const char* path; ///< Final path
  char*       temp; ///< Temporary path, NULL once gone
  int         fd;   ///< Open descriptor of the temporary file, or -1
} P4dAtomicFile;

/**
   Create the temporary file for path, with the mode a new file gets.

   @return NULL on success, else the reason.
*/
const char*
p4d_atomic_open(P4dAtomicFile* file, const char* path);

/**
   Rename the temporary file into place.

   @return NULL on success, else the reason.
*/
const char*
p4d_atomic_commit(P4dAtomicFile* file);

/// Close and remove the temporary file (if any); safe to call twice.
void
p4d_atomic_discard(P4dAtomicFile* file);

/**
   Check that path may be written: its folder exists, it is not a folder,
   not the file input (if not NULL), and does not exist unless force.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_USAGE with the reason.
*/
P4dRenderCode
p4d_atomic_check_target(const char*      path,
                        const char*      input,
                        bool             force,
                        P4dRenderStatus* status);

/// Whether two paths name the same file, existing or not: the same folder
/// (resolved) and the same name.
bool
p4d_atomic_same_file(const char* a, const char* b);

#endif // P4D_ATOMIC_FILE_H
