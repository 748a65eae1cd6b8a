// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's outputs: sound files (libsndfile), CSV curves and SVG
  plots, each written to a temporary file beside its final path and renamed
  into place only once complete and checked.
*/

#ifndef P4D_OUTPUT_H
#define P4D_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  CONTAINER_WAV,
  CONTAINER_FLAC,
  CONTAINER_AIFF,
  CONTAINER_CSV,
} Container;

/// What to write: a container and, for sound, a libsndfile subtype.
typedef struct {
  Container container;
  int       subtype; ///< SF_FORMAT_PCM_16 ... SF_FORMAT_FLOAT; 0 for CSV
} Format;

/**
   Choose the format from the output's extension and the --format argument
   (a container, a subtype, or container-subtype: "wav", "pcm24",
   "flac-pcm16").  NULL on success, else the reason.
*/
const char*
format_choose(const char* path, const char* format_arg, Format* format);

/// An output being written: a sound file or CSV curves, and maybe a plot.
typedef struct Output Output;

/// What the writers need to know of the render.
typedef struct {
  Format             format;
  unsigned           n_channels;
  double             sample_rate_hz;
  int64_t            start_frame;
  int64_t            n_frames;
  double             fps;   ///< CSV rows per second
  const char* const* names; ///< Channel names for the CSV header and plot
} OutputInfo;

/**
   Open the output (and the plot, if plot_path is not NULL) as temporary
   files.  NULL on success, else the reason; what failed is named in *what.
*/
const char*
output_open(Output**          out,
            const OutputInfo* info,
            const char*       path,
            const char*       plot_path,
            const char**      what);

/// Write rendered frames (a SinkFunc).
const char*
output_write(void* out, int64_t frame, const float* interleaved, size_t n);

/**
   Finish, check and rename everything into place.  NULL on success, else
   the reason, and what failed in *what; nothing is left at the final paths
   that was not there before.
*/
const char*
output_finish(Output* out, const char** what);

/// Discard everything written and free the output.
void
output_free(Output* out);

#endif // P4D_OUTPUT_H
