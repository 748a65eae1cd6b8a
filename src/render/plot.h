// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The SVG plot of a render (--plot): the channels over time, drawn from the
  lowest and highest value of each channel in each of a fixed number of
  columns, so memory stays flat whatever the duration.
*/

#ifndef P4D_PLOT_H
#define P4D_PLOT_H

#include "params.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// Columns of the plot: each keeps the lowest and highest value in it.
#define P4D_PLOT_COLUMNS 1000U

/// A plot being collected (a plain value: it needs no freeing).
typedef struct {
  unsigned           n_channels;
  double             sample_rate_hz;
  int64_t            start_frame; ///< Song frame of the first frame
  int64_t            n_frames;    ///< Frames of the whole render
  const char* const* names;       ///< Channel names for the legend
  float              low[P4D_PLOT_COLUMNS][P4D_MAX_CHANNELS];
  float              high[P4D_PLOT_COLUMNS][P4D_MAX_CHANNELS];
} P4dPlot;

/// Start an empty plot of n_frames frames from song frame start_frame.
void
p4d_plot_init(P4dPlot*           plot,
              unsigned           n_channels,
              double             sample_rate_hz,
              int64_t            start_frame,
              int64_t            n_frames,
              const char* const* names);

/// Add n interleaved frames that start at song frame frame.
void
p4d_plot_add(P4dPlot* plot, int64_t frame, const float* interleaved, size_t n);

/// Write the plot as an SVG document to svg.
void
p4d_plot_write(const P4dPlot* plot, FILE* svg);

#endif // P4D_PLOT_H
