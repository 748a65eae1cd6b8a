// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The rows of the row writers (CSV, JSON, After Effects, Nuke .chan) and
  their thinning into keys.

  Row k of a render is the sample nearest to k / fps seconds after its
  start (p4d_render_row_frame()); its time is start_s + k / fps, printed
  as the CSV prints it.  p4d_keys_row_in() finds a row in the block of
  frames a writer is handed, so every row writer walks the rows alike.

  Thinning: the writers that take a --tolerance collect their rows in a
  P4dKeys and, at the end, keep for each channel only the rows that a
  straight line between the kept rows around them cannot stand for:
  Ramer-Douglas-Peucker on (row k, value), the distance measured
  vertically (in the curve's own units, what an animation tool's linear
  interpolation between the keys is off by).  The first and last rows are
  always kept; a tolerance of 0 keeps every row.  The line between rows a
  and b runs over the row number k, i.e. over time: keys are placed at
  their row's time, and a tool interpolates in time.
*/

#ifndef P4D_KEYS_H
#define P4D_KEYS_H

#include "writers.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// Rows collected for thinning, n_channels values each.
typedef struct P4dKeys P4dKeys;

/**
   The frame of row in the block of n interleaved frames that starts at
   song frame frame, or NULL if the row is past the block or the render.

   Not realtime safe (the renderer's writers only).
*/
const float*
p4d_keys_row_in(const P4dWriterInfo* info,
                int64_t              row,
                int64_t              frame,
                const float*         interleaved,
                size_t               n);

/// The song time of row (start_s + row / fps) in seconds, as the CSV
/// prints it.
double
p4d_keys_row_time(const P4dWriterInfo* info, int64_t row);

/// New empty rows of n_channels (1 to P4D_MAX_CHANNELS), or NULL.
P4dKeys*
p4d_keys_new(unsigned n_channels);

/// Free keys (NULL is fine).
void
p4d_keys_free(P4dKeys* keys);

/**
   Append a row: n_channels values.

   @return false if out of memory (nothing appended).
*/
bool
p4d_keys_add(P4dKeys* keys, const float* values);

/**
   Append the rows that fall in a block of frames handed to a writer (see
   p4d_keys_row_in()), from row *next_row on, advancing it.

   @return false if out of memory.
*/
bool
p4d_keys_collect(P4dKeys*             keys,
                 const P4dWriterInfo* info,
                 int64_t*             next_row,
                 int64_t              frame,
                 const float*         interleaved,
                 size_t               n);

/// The rows appended.
size_t
p4d_keys_n_rows(const P4dKeys* keys);

/// The value of channel in row.
float
p4d_keys_value(const P4dKeys* keys, size_t row, unsigned channel);

/**
   Thin every channel with Ramer-Douglas-Peucker: afterwards
   p4d_keys_kept() tells the rows to keep so that every row lies within
   tolerance (>= 0, in the values' units) of the straight line between the
   kept rows around it.  Iterative (a stack of spans, no recursion);
   O(n log n) for a curve that splits evenly, O(n^2) at worst.

   @return false if out of memory (then every row counts as kept).
*/
bool
p4d_keys_thin(P4dKeys* keys, double tolerance);

/// Whether row is a key of channel (every row before p4d_keys_thin()).
bool
p4d_keys_kept(const P4dKeys* keys, size_t row, unsigned channel);

/// Whether row is a key of any channel.
bool
p4d_keys_kept_any(const P4dKeys* keys, size_t row);

/**
   A keyframe document being written (JSON, After Effects): its rows are
   collected as the render hands them over, thinned at the end, and the
   whole document is then written by its format's put().
*/
typedef struct {
  FILE*         file;     ///< The text stream, NULL once closed
  P4dWriterInfo info;     ///< What the writer was opened with
  const char*   path;     ///< For messages
  bool          stream;   ///< Standard output: not synced
  int64_t       next_row; ///< The next row to collect
  P4dKeys*      keys;     ///< The rows
} P4dKeyDoc;

/// Write the whole document of doc's thinned rows to doc->file.
typedef void (*P4dKeyDocPut)(const P4dKeyDoc* doc);

/**
   Open a document writer (a P4dWriterClass open()): *writer is set to a
   new P4dKeyDoc.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
*/
P4dRenderCode
p4d_keys_doc_open(void**               writer,
                  const P4dWriterInfo* info,
                  const P4dAtomicFile* file,
                  P4dRenderStatus*     status);

/// Collect the rows of a block of frames (a P4dWriterClass write()).
P4dRenderCode
p4d_keys_doc_write(void*            writer,
                   int64_t          frame,
                   const float*     interleaved,
                   size_t           n,
                   P4dRenderStatus* status);

/**
   Thin the rows by info.tolerance, write the document with put, flush and
   close the stream (a P4dWriterClass finish(), put bound by the format).
*/
P4dRenderCode
p4d_keys_doc_finish(void* writer, P4dKeyDocPut put, P4dRenderStatus* status);

/// Free a document writer (a P4dWriterClass close(); NULL is fine).
void
p4d_keys_doc_close(void* writer);

#endif // P4D_KEYS_H
