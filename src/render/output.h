// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's outputs: the formats it writes (the containers and
  sample formats of libsndfile it offers, and CSV curves) and their
  writers, with the plot alongside.  Every file is written as an atomic
  file (atomic_file.h): written unnamed, checked, then linked into place.
  Standard output ("-") takes the formats that need no seeking back: FLAC
  and CSV (libsndfile refuses to write WAV to a pipe, and its AIFF writer
  loses the samples there).
*/

#ifndef P4D_OUTPUT_H
#define P4D_OUTPUT_H

#include "params.h"
#include "report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  P4D_CONTAINER_WAV,
  P4D_CONTAINER_FLAC,
  P4D_CONTAINER_AIFF,
  P4D_CONTAINER_CSV,
} P4dContainer;

/// What to write: a container and, for sound, a libsndfile subtype.
typedef struct {
  P4dContainer container;
  int          subtype; ///< SF_FORMAT_PCM_16 ... SF_FORMAT_FLOAT; 0 for CSV
} P4dFormat;

/**
   Choose the format from the output's extension and the --format argument
   (a container, a subtype, or container-subtype: "wav", "pcm24",
   "flac-pcm16").

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_USAGE with no culprit (the
   caller names the option or file).
*/
P4dRenderCode
p4d_output_choose_format(const char*      path,
                         const char*      format_arg,
                         P4dFormat*       format,
                         P4dRenderStatus* status);

/// Whether the format can be written to standard output (a pipe): FLAC
/// and CSV.
bool
p4d_output_can_stream(const P4dFormat* format);

/// An output being written: a sound file or CSV curves, and maybe a plot.
typedef struct P4dOutput P4dOutput;

/// What the writers need to know of the render.
typedef struct {
  P4dFormat   format;
  unsigned    n_channels;     ///< Channels written
  unsigned    frame_channels; ///< Channels of each frame handed over
  size_t      max_frames;     ///< Frames handed over at once, at most
  double      sample_rate_hz;
  int64_t     start_frame;
  int64_t     n_frames;
  double      fps;                     ///< CSV rows per second
  bool        force;                   ///< Replace the files at the paths
  const char* names[P4D_MAX_CHANNELS]; ///< Channel names: the port symbols
} P4dOutputInfo;

/**
   Open the output (path, or "-" for standard output) and the plot (if
   plot_path is not NULL) as temporary files.

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
   Write rendered frames (a P4dRenderSink): the first n_channels of each
   frame of frame_channels.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
*/
P4dRenderCode
p4d_output_write(void*            output,
                 int64_t          frame,
                 const float*     interleaved,
                 size_t           n,
                 P4dRenderStatus* status);

/**
   Finish the files, flush them to the disk and check them (a sound file is
   read back); nothing is in place yet.

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
