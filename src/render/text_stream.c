// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _POSIX_C_SOURCE 200809L

#include "text_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

FILE*
p4d_text_stream_open(int fd)
{
  const int own    = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  FILE*     stream = own < 0 ? NULL : fdopen(own, "w");
  if (!stream && own >= 0) {
    const int err = errno;
    close(own);
    errno = err;
  }
  return stream;
}

P4dRenderCode
p4d_text_stream_close(FILE*            stream,
                      bool             sync,
                      const char*      culprit,
                      P4dRenderStatus* status)
{
  const bool failed =
    fflush(stream) || ferror(stream) || (sync && fsync(fileno(stream)));
  const char* reason = failed ? strerror(errno ? errno : EIO) : NULL;
  if (fclose(stream) && !reason) {
    reason = strerror(errno);
  }
  return reason ? p4d_report_failure(status, culprit, reason)
                : P4D_RENDER_SUCCESS;
}
