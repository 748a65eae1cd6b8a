// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "keys.h"

#include "render.h"
#include "text_stream.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct P4dKeys {
  unsigned n_channels;
  size_t   n_rows;
  size_t   capacity; ///< Rows values and kept have room for
  float*   values;   ///< n_rows * n_channels, interleaved
  uint8_t* kept;     ///< Per row: bit c set if it is a key of channel c
  bool     thinned;  ///< kept is set (else every row is a key)
};

const float*
p4d_keys_row_in(const P4dWriterInfo* info,
                int64_t              row,
                int64_t              frame,
                const float*         interleaved,
                size_t               n)
{
  const int64_t at = p4d_render_row_frame(info->sample_rate_hz, info->fps, row);
  const int64_t first = frame - info->start_frame; // of the block
  if (at >= info->n_frames || at >= first + (int64_t)n) {
    return NULL;
  }
  return interleaved + (size_t)(at - first) * info->n_channels;
}

double
p4d_keys_row_time(const P4dWriterInfo* info, int64_t row)
{
  return (double)info->start_frame / info->sample_rate_hz +
         (double)row / info->fps;
}

P4dKeys*
p4d_keys_new(unsigned n_channels)
{
  if (!n_channels || n_channels > P4D_MAX_CHANNELS) {
    return NULL;
  }
  P4dKeys* const keys = (P4dKeys*)calloc(1U, sizeof(P4dKeys));
  if (keys) {
    keys->n_channels = n_channels;
  }
  return keys;
}

void
p4d_keys_free(P4dKeys* keys)
{
  if (keys) {
    free(keys->values);
    free(keys->kept);
    free(keys);
  }
}

bool
p4d_keys_add(P4dKeys* keys, const float* values)
{
  const unsigned nch = keys->n_channels;
  if (keys->n_rows == keys->capacity) {
    const size_t want = keys->capacity ? keys->capacity * 2U : 1024U;
    if (want > SIZE_MAX / (sizeof(float) * P4D_MAX_CHANNELS)) {
      return false;
    }
    float* const v = (float*)realloc(keys->values, want * nch * sizeof(float));
    if (!v) {
      return false;
    }
    keys->values   = v;
    keys->capacity = want;
  }
  memcpy(keys->values + keys->n_rows * nch, values, nch * sizeof(float));
  ++keys->n_rows;
  return true;
}

bool
p4d_keys_collect(P4dKeys*             keys,
                 const P4dWriterInfo* info,
                 int64_t*             next_row,
                 int64_t              frame,
                 const float*         interleaved,
                 size_t               n)
{
  const float* values = NULL;
  while ((values = p4d_keys_row_in(info, *next_row, frame, interleaved, n))) {
    if (!p4d_keys_add(keys, values)) {
      return false;
    }
    ++*next_row;
  }
  return true;
}

size_t
p4d_keys_n_rows(const P4dKeys* keys)
{
  return keys->n_rows;
}

float
p4d_keys_value(const P4dKeys* keys, size_t row, unsigned channel)
{
  return keys->values[row * keys->n_channels + channel];
}

/// A span of rows [a, b] whose ends are keys, the rows between undecided.
typedef struct {
  size_t a;
  size_t b;
} Span;

/**
   Ramer-Douglas-Peucker on channel c: mark in keys->kept the rows of the
   spans on the stack that lie further than tolerance above or below the
   line between their span's ends, splitting at the furthest.  The stack
   (room for n_rows spans: each split replaces one span by two shorter
   ones, so it never holds more spans than rows) starts with the whole.
*/
static void
thin_channel(P4dKeys* keys, unsigned c, double tolerance, Span* stack)
{
  const unsigned     nch = keys->n_channels;
  const float* const v   = keys->values + c;
  const uint8_t      bit = (uint8_t)(1U << c);
  size_t             top = 0U;

  keys->kept[0] |= bit;
  keys->kept[keys->n_rows - 1U] |= bit;
  stack[top++] = (Span){ 0U, keys->n_rows - 1U };
  while (top) {
    const Span s = stack[--top];
    if (s.b - s.a < 2U) {
      continue;
    }
    const double va    = (double)v[s.a * nch];
    const double slope = ((double)v[s.b * nch] - va) / (double)(s.b - s.a);
    double       worst = -1.0;
    size_t       at    = s.a;
    for (size_t i = s.a + 1U; i < s.b; ++i) {
      const double d =
        fabs((double)v[i * nch] - (va + slope * (double)(i - s.a)));
      if (d > worst) {
        worst = d;
        at    = i;
      }
    }
    if (worst > tolerance) {
      keys->kept[at] |= bit;
      stack[top++] = (Span){ s.a, at };
      stack[top++] = (Span){ at, s.b };
    }
  }
}

bool
p4d_keys_thin(P4dKeys* keys, double tolerance)
{
  free(keys->kept);
  keys->kept    = NULL;
  keys->thinned = false;
  if (!(tolerance > 0.0) || keys->n_rows < 3U) {
    return true; // every row is a key
  }
  keys->kept = (uint8_t*)calloc(keys->n_rows, 1U);
  Span* const stack =
    keys->kept ? (Span*)malloc(keys->n_rows * sizeof(Span)) : NULL;
  if (!stack) {
    free(keys->kept);
    keys->kept = NULL;
    return false;
  }
  for (unsigned c = 0U; c < keys->n_channels; ++c) {
    thin_channel(keys, c, tolerance, stack);
  }
  free(stack);
  keys->thinned = true;
  return true;
}

bool
p4d_keys_kept(const P4dKeys* keys, size_t row, unsigned channel)
{
  return !keys->thinned || (keys->kept[row] >> channel) & 1U;
}

bool
p4d_keys_kept_any(const P4dKeys* keys, size_t row)
{
  return !keys->thinned || keys->kept[row];
}

P4dRenderCode
p4d_keys_doc_open(void**               writer,
                  const P4dWriterInfo* info,
                  const P4dAtomicFile* file,
                  P4dRenderStatus*     status)
{
  P4dKeyDoc* const doc = (P4dKeyDoc*)calloc(1U, sizeof(P4dKeyDoc));
  *writer              = doc;
  if (!doc) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  doc->info   = *info;
  doc->path   = file->path;
  doc->stream = file->stream;
  doc->keys   = p4d_keys_new(info->n_channels);
  if (!doc->keys) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  doc->file = p4d_text_stream_open(file->fd);
  return doc->file ? P4D_RENDER_SUCCESS
                   : p4d_report_failure(status, file->path, strerror(errno));
}

P4dRenderCode
p4d_keys_doc_write(void*            writer,
                   int64_t          frame,
                   const float*     interleaved,
                   size_t           n,
                   P4dRenderStatus* status)
{
  P4dKeyDoc* const doc = (P4dKeyDoc*)writer;
  return p4d_keys_collect(
           doc->keys, &doc->info, &doc->next_row, frame, interleaved, n)
           ? P4D_RENDER_SUCCESS
           : p4d_report_failure(status, doc->path, strerror(ENOMEM));
}

P4dRenderCode
p4d_keys_doc_finish(void* writer, P4dKeyDocPut put, P4dRenderStatus* status)
{
  P4dKeyDoc* const doc = (P4dKeyDoc*)writer;
  if (!p4d_keys_thin(doc->keys, doc->info.tolerance)) {
    return p4d_report_failure(status, doc->path, strerror(ENOMEM));
  }
  put(doc);
  FILE* const stream = doc->file;
  doc->file          = NULL;
  return p4d_text_stream_close(stream, !doc->stream, doc->path, status);
}

void
p4d_keys_doc_close(void* writer)
{
  P4dKeyDoc* const doc = (P4dKeyDoc*)writer;
  if (doc) {
    if (doc->file) {
      (void)fclose(doc->file); // dropped: how it closes does not matter
    }
    p4d_keys_free(doc->keys);
    free(doc);
  }
}
