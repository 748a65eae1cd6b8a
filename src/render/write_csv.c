// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  CSV curves for animation tools: a header "time_s,<channel>,...", then
  one row per 1/fps seconds of song time, each the sample nearest to it.
  Text that streams and may go to a terminal.
*/

#include "render.h"
#include "text_stream.h"
#include "writers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  FILE*         csv;
  P4dWriterInfo info;
  const char*   path;
  bool          stream;
  int64_t       next_row; ///< Next row
} Csv;

static P4dRenderCode
open_csv(void**               writer,
         const P4dWriterInfo* info,
         const P4dAtomicFile* file,
         P4dRenderStatus*     status)
{
  Csv* const csv = (Csv*)calloc(1U, sizeof(Csv));
  *writer        = csv;
  if (!csv) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  csv->info   = *info;
  csv->path   = file->path;
  csv->stream = file->stream;
  csv->csv    = p4d_text_stream_open(file->fd);
  if (!csv->csv) {
    return p4d_report_failure(status, file->path, strerror(errno));
  }
  fprintf(csv->csv, "time_s");
  for (unsigned c = 0U; c < info->n_channels; ++c) {
    fprintf(csv->csv, ",%s", info->names[c]);
  }
  fputc('\n', csv->csv);
  return P4D_RENDER_SUCCESS;
}

static P4dRenderCode
write_csv(void*            writer,
          int64_t          frame,
          const float*     interleaved,
          size_t           n,
          P4dRenderStatus* status)
{
  Csv* const                 csv  = (Csv*)writer;
  const P4dWriterInfo* const info = &csv->info;
  const unsigned             nch  = info->n_channels;

  // Row k is the sample nearest to k / fps seconds after the start.
  for (;;) {
    const int64_t at =
      p4d_render_row_frame(info->sample_rate_hz, info->fps, csv->next_row);
    if (at >= info->n_frames || at >= frame - info->start_frame + (int64_t)n) {
      break;
    }
    const size_t i = (size_t)(at - (frame - info->start_frame));
    fprintf(csv->csv,
            "%.6f",
            (double)info->start_frame / info->sample_rate_hz +
              (double)csv->next_row / info->fps);
    for (unsigned c = 0U; c < nch; ++c) {
      fprintf(csv->csv, ",%.9g", (double)interleaved[i * nch + c]);
    }
    fputc('\n', csv->csv);
    ++csv->next_row;
  }
  return ferror(csv->csv) ? p4d_report_failure(
                              status, csv->path, strerror(errno ? errno : EIO))
                          : P4D_RENDER_SUCCESS;
}

static P4dRenderCode
finish_csv(void* writer, P4dRenderStatus* status)
{
  Csv* const  csv    = (Csv*)writer;
  FILE* const stream = csv->csv;
  csv->csv           = NULL;
  return p4d_text_stream_close(stream, !csv->stream, csv->path, status);
}

static void
close_csv(void* writer)
{
  Csv* const csv = (Csv*)writer;
  if (csv && csv->csv) {
    (void)fclose(csv->csv); // dropped: how it closes does not matter
  }
  free(csv);
}

static const char* const csv_extensions[] = { "csv", NULL };

const P4dWriterClass p4d_write_csv = {
  .name       = "csv",
  .extensions = csv_extensions,
  .roles      = P4D_WRITER_OUTPUT,
  .can_stream = true,
  .text       = true,
  .rows       = true,
  .open       = open_csv,
  .write      = write_csv,
  .finish     = finish_csv,
  .close      = close_csv,
};
