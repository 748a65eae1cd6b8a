// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Files that appear whole or not at all.  Each output is written to an
  unnamed temporary file in its folder (O_TMPFILE): until it is linked into
  place at the end it has no name, so a render killed at any moment, even
  by SIGKILL or a power cut, leaves nothing behind.  Without --force the
  link fails if the path exists by then, whoever made it, so nothing is
  ever replaced by surprise; with --force the file is linked under a short
  hidden name and renamed over the old one, which readers see replaced in
  one step.  A filesystem without O_TMPFILE gets a named temporary file
  instead (.p4d-XXXXXX, removed on every failure and on the signals of
  render.h).  "-" is standard output: written as it comes.

  The checks made before anything is written live here too: the names fit,
  the folder exists, the path is a regular file or nothing, not an input of
  the render, and does not exist unless --force.
*/

#ifndef P4D_ATOMIC_FILE_H
#define P4D_ATOMIC_FILE_H

#include "report.h"

#include <stdbool.h>

/// A file written in its folder and linked into place.
typedef struct {
  const char* path;    ///< The path given, for messages; "-": standard output
  char*       final;   ///< Where it goes: path, or the file a link points to
  char*       temp;    ///< A name it has before it is in place, or NULL
  int         fd;      ///< Open descriptor, or -1
  bool        force;   ///< Replace what is at the path
  bool        stream;  ///< Standard output: no temporary file, no link
  bool        created; ///< In place under a name that was free (see undo)
} P4dAtomicFile;

/// Whether path means standard output ("-").
bool
p4d_atomic_is_stream(const char* path);

/**
   Open a file to write for path ("-": standard output) with the mode a new
   file gets.  A symbolic link at path is never written through: with
   force the link itself is replaced by the file (what it points to stays
   as it was), so that a link planted by another user cannot turn a render
   into a write elsewhere.

   @param file Set up, to discard with p4d_atomic_discard() even if opening
   failed.
   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the path.
*/
P4dRenderCode
p4d_atomic_open(P4dAtomicFile*   file,
                const char*      path,
                bool             force,
                P4dRenderStatus* status);

/**
   Link the complete (and flushed) file into place: without force, under
   its path only if nothing is there by now; with force, in place of what
   is there, unless that became something other than a regular file.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the path.
*/
P4dRenderCode
p4d_atomic_commit(P4dAtomicFile* file, P4dRenderStatus* status);

/// Remove the file a commit without force put in place (because a second
/// file of the same render failed), if it is still there.
void
p4d_atomic_undo(P4dAtomicFile* file);

/**
   Close the file and remove its temporary name (if any); safe to call
   twice.  A temporary name that cannot be removed is named at the end of
   the failure that status holds (p4d_report_left_behind(); status may be
   NULL).

   @return Whether nothing was left behind.
*/
bool
p4d_atomic_discard(P4dAtomicFile* file, P4dRenderStatus* status);

/// Discard the file and free what it holds.
void
p4d_atomic_free(P4dAtomicFile* file);

/**
   Check that path may be written: its names fit (else a bad command line),
   its folder exists, it is a regular file or nothing (a device, FIFO or
   socket, or a link to one, is never written over), it is not a folder,
   not one of the inputs (compared by device and inode, so that no
   spelling, link or hard link of an input passes), and does not exist
   unless force (nor is a dangling link).  "-" passes unless standard
   output is open on one of the inputs (-o - 1<>in.wav, >> in.flac).

   @param inputs The files the render reads, NULL-terminated.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_USAGE with the reason.
*/
P4dRenderCode
p4d_atomic_check_target(const char*        path,
                        const char* const* inputs,
                        bool               force,
                        P4dRenderStatus*   status);

/// Whether two paths name the same file, existing or not: the same folder
/// (resolved) and the same name, or the same existing file.
bool
p4d_atomic_same_file(const char* a, const char* b);

#endif // P4D_ATOMIC_FILE_H
