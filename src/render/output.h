// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's outputs: the formats it writes (the containers and
  sample formats of libsndfile it offers, and CSV curves) and their
  writers, with the plot alongside.  Every file is written as an atomic
  file (atomic_file.h): checked, then renamed into place.
*/

#ifndef P4D_OUTPUT_H
#define P4D_OUTPUT_H

#include "engine.h"
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

   @return NULL on success, else the reason.
*/
const char*
p4d_output_choose_format(const char* path,
                         const char* format_arg,
                         P4dFormat*  format);

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
  const char* names[P4D_MAX_CHANNELS]; ///< Channel names: the port symbols
} P4dOutputInfo;

/**
   Open the output (and the plot, if plot_path is not NULL) as temporary
   files.

   @param out Set to the output, to free with p4d_output_free() even if
   opening failed.
   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
*/
P4dRenderCode
p4d_output_open(P4dOutput**          out,
                const P4dOutputInfo* info,
                const char*          path,
                const char*          plot_path,
                P4dRenderStatus*     status);

/**
   Write rendered frames (a P4dRenderSink): the first n_channels of each
   frame of frame_channels.

   @return NULL on success, else the reason.
*/
const char*
p4d_output_write(void*        output,
                 int64_t      frame,
                 const float* interleaved,
                 size_t       n);

/**
   Finish, check and rename everything into place.  On failure nothing is
   left at the final paths that was not there before.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
*/
P4dRenderCode
p4d_output_finish(P4dOutput* out, P4dRenderStatus* status);

/// Discard everything written and free the output (NULL is fine).
void
p4d_output_free(P4dOutput* out);

#endif // P4D_OUTPUT_H
