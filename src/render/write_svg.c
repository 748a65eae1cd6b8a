// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The SVG plot (--plot): the frames are collected into a plot of flat size
  (plot.h) as they come, and the document is written when the render is
  finished.
*/

#include "plot.h"
#include "text_stream.h"
#include "writers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  P4dPlot     plot;
  int         fd; ///< The file's descriptor (the file's, not ours)
  bool        stream;
  const char* path;
} Svg;

static P4dRenderCode
open_svg(void**               writer,
         const P4dWriterInfo* info,
         const P4dAtomicFile* file,
         P4dRenderStatus*     status)
{
  Svg* const svg = (Svg*)calloc(1U, sizeof(Svg));
  *writer        = svg;
  if (!svg) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  svg->fd     = file->fd;
  svg->stream = file->stream;
  svg->path   = file->path;
  p4d_plot_init(&svg->plot,
                info->n_channels,
                info->sample_rate_hz,
                info->start_frame,
                info->n_frames,
                info->names);
  return P4D_RENDER_SUCCESS;
}

static P4dRenderCode
write_svg(void*            writer,
          int64_t          frame,
          const float*     interleaved,
          size_t           n,
          P4dRenderStatus* status)
{
  (void)status; // collecting cannot fail
  p4d_plot_add(&((Svg*)writer)->plot, frame, interleaved, n);
  return P4D_RENDER_SUCCESS;
}

static P4dRenderCode
finish_svg(void* writer, P4dRenderStatus* status)
{
  const Svg* const svg    = (const Svg*)writer;
  FILE* const      stream = p4d_text_stream_open(svg->fd);
  if (!stream) {
    return p4d_report_failure(status, svg->path, strerror(errno));
  }
  p4d_plot_write(&svg->plot, stream);
  return p4d_text_stream_close(stream, !svg->stream, svg->path, status);
}

static void
close_svg(void* writer)
{
  free(writer);
}

static const char* const svg_extensions[] = { "svg", NULL };

const P4dWriterClass p4d_write_svg = {
  .name       = "svg",
  .extensions = svg_extensions,
  .roles      = P4D_WRITER_PLOT,
  .text       = true,
  .open       = open_svg,
  .write      = write_svg,
  .finish     = finish_svg,
  .close      = close_svg,
};
