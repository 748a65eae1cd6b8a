// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  CSV curves for animation tools: a header "time_s,<channel>,...", then
  one row per 1/fps seconds of song time, each the sample nearest to it.
  Text that streams and may go to a terminal.  With --tolerance, the rows
  are collected and thinned (keys.h) and only the rows that are a key of
  any channel are written, each whole, as they would be unthinned.
*/

#include "decimal.h"
#include "keys.h"
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
  P4dKeys*      keys;     ///< The rows to thin (--tolerance), or NULL
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
  if (info->tolerance > 0.0) {
    csv->keys = p4d_keys_new(info->n_channels);
    if (!csv->keys) {
      return p4d_report_failure(status, file->path, strerror(ENOMEM));
    }
  }
  return P4D_RENDER_SUCCESS;
}

/// Write row k of values: printf's "%.6f" of its time and ",%.9g" of
/// each value, the text made by decimal.h.
static void
put_row(Csv* csv, int64_t row, const float* values)
{
  char   text[(P4D_DECIMAL_MAX + 1U) * (P4D_MAX_CHANNELS + 1U)];
  size_t len = p4d_decimal_f6(p4d_keys_row_time(&csv->info, row), text);
  for (unsigned c = 0U; c < csv->info.n_channels; ++c) {
    text[len++] = ',';
    len += p4d_decimal_g9(values[c], text + len);
  }
  text[len++] = '\n';
  (void)fwrite(text, 1U, len, csv->csv); // ferror() tells
}

static P4dRenderCode
write_csv(void*            writer,
          int64_t          frame,
          const float*     interleaved,
          size_t           n,
          P4dRenderStatus* status)
{
  Csv* const csv = (Csv*)writer;

  // Row k is the sample nearest to k / fps seconds after the start.
  const float* values = NULL;
  while (!ferror(csv->csv) &&
         (values = p4d_keys_row_in(
            &csv->info, csv->next_row, frame, interleaved, n))) {
    if (csv->keys && !p4d_keys_add(csv->keys, values)) {
      return p4d_report_failure(status, csv->path, strerror(ENOMEM));
    }
    if (!csv->keys) {
      put_row(csv, csv->next_row, values);
    }
    ++csv->next_row;
  }
  return ferror(csv->csv) ? p4d_report_failure(
                              status, csv->path, strerror(errno ? errno : EIO))
                          : P4D_RENDER_SUCCESS;
}

static P4dRenderCode
finish_csv(void* writer, P4dRenderStatus* status)
{
  Csv* const csv = (Csv*)writer;
  if (csv->keys && !p4d_keys_thin(csv->keys, csv->info.tolerance)) {
    return p4d_report_failure(status, csv->path, strerror(ENOMEM));
  }
  const size_t n_rows = csv->keys ? p4d_keys_n_rows(csv->keys) : 0U;
  for (size_t k = 0U; k < n_rows && !ferror(csv->csv); ++k) {
    if (p4d_keys_kept_any(csv->keys, k)) {
      float values[P4D_MAX_CHANNELS];
      for (unsigned c = 0U; c < csv->info.n_channels; ++c) {
        values[c] = p4d_keys_value(csv->keys, k, c);
      }
      put_row(csv, (int64_t)k, values);
    }
  }
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
  if (csv) {
    p4d_keys_free(csv->keys);
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
