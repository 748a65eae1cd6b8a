// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "pixels.h"

#include "text_stream.h"

#include <errno.h>
#include <string.h>

P4dRenderCode
p4d_pixels_open(const P4dAtomicFile* file,
                FILE**               stream,
                P4dRenderStatus*     status)
{
  *stream = p4d_text_stream_open(file->fd);
  return *stream ? P4D_RENDER_SUCCESS
                 : p4d_report_failure(status, file->path, strerror(errno));
}

P4dRenderCode
p4d_pixels_write(FILE*            stream,
                 const void*      bytes,
                 size_t           size,
                 const char*      path,
                 P4dRenderStatus* status)
{
  errno = 0;
  if (size && fwrite(bytes, 1U, size, stream) != size) {
    return p4d_report_failure(status, path, strerror(errno ? errno : EIO));
  }
  return P4D_RENDER_SUCCESS;
}
