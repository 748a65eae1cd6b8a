// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  A stdio stream on an atomic file (atomic_file.h), for the writers that
  print (CSV, SVG): it writes through a descriptor of its own, so that the
  file keeps its own descriptor, to be linked into place.
*/

#ifndef P4D_TEXT_STREAM_H
#define P4D_TEXT_STREAM_H

#include "report.h"

#include <stdbool.h>
#include <stdio.h>

/// A stream that writes to a new descriptor of the file fd, or NULL (see
/// errno).
FILE*
p4d_text_stream_open(int fd);

/**
   Flush, sync (unless sync is false: a pipe) and close stream, the stream
   of the file named culprit; the first failure is recorded.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming culprit.
*/
P4dRenderCode
p4d_text_stream_close(FILE*            stream,
                      bool             sync,
                      const char*      culprit,
                      P4dRenderStatus* status);

#endif // P4D_TEXT_STREAM_H
