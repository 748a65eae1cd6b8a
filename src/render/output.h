// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's outputs: the file of -o and the plot of --plot, each an
  atomic file (atomic_file.h: written unnamed, checked, then linked into
  place, or "-": standard output) written by the writer of its format
  (writers.h).  The frames of the render fan out to every writer; the files
  are finished, then linked into place together, or none is.
*/

#ifndef P4D_OUTPUT_H
#define P4D_OUTPUT_H

#include "report.h"
#include "writers.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// An output being written: the -o file and maybe the plot.
typedef struct P4dOutput P4dOutput;

/// What the outputs need to know of the render.
typedef struct {
  P4dFormat     format;         ///< The format of -o
  P4dWriterInfo writer;         ///< For every writer (its variant: unused)
  unsigned      frame_channels; ///< Channels of each frame handed over
  size_t        max_frames;     ///< Frames handed over at once, at most
  bool          force;          ///< Replace the files at the paths
} P4dOutputInfo;

/**
   Open the output (path, or "-" for standard output) and the plot (if
   plot_path is not NULL) as temporary files, with their writers.

   @param info What the outputs need to know; its channel names must live
   until p4d_output_free().
   @param result Set to the output, to free with p4d_output_free() even if
   opening failed.
   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
*/
P4dRenderCode
p4d_output_open(P4dOutput**          result,
                const P4dOutputInfo* info,
                const char*          path,
                const char*          plot_path,
                P4dRenderStatus*     status);

/**
   Write rendered frames to every writer (a P4dRenderSink): the first
   n_channels of each frame of frame_channels.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
*/
P4dRenderCode
p4d_output_write(void*            output,
                 int64_t          frame,
                 const float*     interleaved,
                 size_t           n,
                 P4dRenderStatus* status);

/**
   The rows per second that every writer of out reads (a CSV without a
   plot: p4d_render_plan()'s rows_per_s), or 0 if a writer reads every
   frame.
*/
double
p4d_output_rows_per_s(const P4dOutput* out);

/**
   Finish the files, flush them to the disk and check them (the writers
   say how); nothing is in place yet.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
*/
P4dRenderCode
p4d_output_close(P4dOutput* out, P4dRenderStatus* status);

/**
   Link the closed files into place: the plot, then the output.  If the
   output cannot be (without --force: its path exists by now), a plot put
   in place under a new name is removed again.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
*/
P4dRenderCode
p4d_output_commit(P4dOutput* out, P4dRenderStatus* status);

/**
   Discard what is not in place.  A temporary name that cannot be removed
   (its folder became read-only) is named at the end of the failure that
   status holds.

   @return Whether nothing was left behind.
*/
bool
p4d_output_discard(P4dOutput* out, P4dRenderStatus* status);

/// Discard everything not in place and free the output (NULL is fine).
void
p4d_output_free(P4dOutput* out);

#endif // P4D_OUTPUT_H
