// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Nuke .chan: one line per frame, "frame tx ty tz rx ry rz", read by Nuke's
  camera and transform nodes (Import chan file), by Houdini's File CHOP (as
  raw columns, the frame the first) and by Blender's bundled importer
  (io_anim_nuke_chan, which needs the seven columns and reads the frame
  with int()).  Frames are whole numbers counting from 1 at the
  render's start (the first frame of Nuke and Blender), one per row at
  --fps; the channels written fill tx, ty, tz, rx, ... in order, the other
  columns are 0.  Values as the CSV prints them ("%.9g").  A .chan holds
  every frame, so --tolerance does not apply (an importer would join
  thinned keys with its own curves): it is ignored with a warning.
*/

#include "decimal.h"
#include "keys.h"
#include "writers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_stream.h"

/// The columns after the frame: tx ty tz rx ry rz.
#define N_COLUMNS 6U

typedef struct {
  FILE*         chan;
  P4dWriterInfo info;
  const char*   path;
  bool          stream;
  int64_t       next_row;
} Chan;

static P4dRenderCode
open_chan(void**               writer,
          const P4dWriterInfo* info,
          const P4dAtomicFile* file,
          P4dRenderStatus*     status)
{
  Chan* const chan = (Chan*)calloc(1U, sizeof(Chan));
  *writer          = chan;
  if (!chan) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  chan->info   = *info;
  chan->path   = file->path;
  chan->stream = file->stream;
  chan->chan   = p4d_text_stream_open(file->fd);
  if (!chan->chan) {
    return p4d_report_failure(status, file->path, strerror(errno));
  }
  if (info->tolerance > 0.0) {
    p4d_report_warn("--tolerance: ignored: a .chan holds every frame");
  }
  return P4D_RENDER_SUCCESS;
}

static P4dRenderCode
write_chan(void*            writer,
           int64_t          frame,
           const float*     interleaved,
           size_t           n,
           P4dRenderStatus* status)
{
  Chan* const  chan   = (Chan*)writer;
  const float* values = NULL;
  while (!ferror(chan->chan) &&
         (values = p4d_keys_row_in(
            &chan->info, chan->next_row, frame, interleaved, n))) {
    char   line[(P4D_DECIMAL_MAX + 1U) * (N_COLUMNS + 1U)];
    size_t len = (size_t)snprintf(
      line, P4D_DECIMAL_MAX, "%lld", (long long)chan->next_row + 1);
    for (unsigned c = 0U; c < N_COLUMNS; ++c) {
      line[len++] = ' ';
      len += c < chan->info.n_channels ? p4d_decimal_g9(values[c], line + len)
                                       : p4d_decimal_g9(0.0f, line + len);
    }
    line[len++] = '\n';
    (void)fwrite(line, 1U, len, chan->chan); // ferror() tells
    ++chan->next_row;
  }
  return ferror(chan->chan) ? p4d_report_failure(status,
                                                 chan->path,
                                                 strerror(errno ? errno : EIO))
                            : P4D_RENDER_SUCCESS;
}

static P4dRenderCode
finish_chan(void* writer, P4dRenderStatus* status)
{
  Chan* const chan   = (Chan*)writer;
  FILE* const stream = chan->chan;
  chan->chan         = NULL;
  return p4d_text_stream_close(stream, !chan->stream, chan->path, status);
}

static void
close_chan(void* writer)
{
  Chan* const chan = (Chan*)writer;
  if (chan && chan->chan) {
    (void)fclose(chan->chan); // dropped: how it closes does not matter
  }
  free(chan);
}

static const char* const chan_extensions[] = { "chan", NULL };

const P4dWriterClass p4d_write_chan = {
  .name       = "chan",
  .extensions = chan_extensions,
  .roles      = P4D_WRITER_OUTPUT,
  .can_stream = true,
  .text       = true,
  .rows       = true,
  .open       = open_chan,
  .write      = write_chan,
  .finish     = finish_chan,
  .close      = close_chan,
};
