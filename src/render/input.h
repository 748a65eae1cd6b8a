// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The sound file that Perlin4D Motion processes (-i): checked once when the
  plan is made, then read by each render job through a reader of its own,
  which seeks to where the job starts and reads blocks as it goes, so that
  memory stays flat whatever the file's length.
*/

#ifndef P4D_INPUT_H
#define P4D_INPUT_H

#include "report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Most frames a reader hands over at once.
#define P4D_INPUT_BLOCK 4096U

/// Which file the input is, and as it was when first read: compared before
/// and after the render, so that a change of any kind fails it.
typedef struct {
  uint64_t dev;
  uint64_t ino;
  int64_t  size;
  int64_t  mtime_ns;
  int64_t  ctime_ns; ///< Changed by any write, and settable by nobody
  uint64_t sum;      ///< FNV-1a of the bytes of its head and tail
} P4dInputId;

/// What the input holds, as libsndfile reads it.
typedef struct {
  int64_t  n_frames;
  unsigned n_channels; ///< 1 or 2
  double   sample_rate_hz;
  /// Decoding from a seek gives the same samples as decoding through:
  /// false for the lossy codecs (Vorbis, Opus, MPEG) and for the inputs
  /// libsndfile cannot seek (GSM 6.10, G.721), which are then read by one
  /// job from start to end.
  bool       exact_seek;
  P4dInputId id; ///< The file, as it was described
} P4dInputInfo;

/**
   Check that path is a regular file that libsndfile reads, with 1 or 2
   channels, at least one frame and a sample rate from 1000 to 768000 Hz,
   and describe it.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_USAGE naming -i and the
   file (the status keeps pointers into path).
*/
P4dRenderCode
p4d_input_probe(const char* path, P4dInputInfo* info, P4dRenderStatus* status);

/// A reader of the input; opaque.
typedef struct P4dInput P4dInput;

/**
   Open a reader of the input at path, which p4d_input_probe() described.

   @param input Set to the reader, or NULL on failure.
   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED with no culprit if
   the file cannot be read again or is not the one described (its identity,
   p4d_input_check()).
*/
P4dRenderCode
p4d_input_open(const char*         path,
               const P4dInputInfo* info,
               P4dInput**          input,
               P4dRenderStatus*    status);

/**
   Check that the input at path is still the file p4d_input_probe()
   described, unchanged (device, inode, size, modification and change
   times, the bytes of its head and tail): called once the render has read
   it all, before the output is put in place.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the input.
*/
P4dRenderCode
p4d_input_check(const char*         path,
                const P4dInputInfo* info,
                P4dRenderStatus*    status);

/// Close a reader; NULL is fine.
void
p4d_input_close(P4dInput* input);

/**
   Read frames [first, first + n) of the input into left and right (the
   same samples in both for a mono input), n at most P4D_INPUT_BLOCK;
   frames before 0 or past the end are silence.  Reading on from where the
   last read ended needs no seek.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED with no culprit.
*/
P4dRenderCode
p4d_input_read(P4dInput*        input,
               int64_t          first,
               size_t           n,
               float*           left,
               float*           right,
               P4dRenderStatus* status);

#endif // P4D_INPUT_H
