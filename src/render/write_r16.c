// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Raw 16-bit heightmaps for terrain tools (Unity, Unreal, World Machine):
  the tone of each pixel as round(tone * 65535), little-endian, rows from
  the top, no header (the sidecar gives the size).  One frame a file.
*/

#include "pixels.h"
#include "text_stream.h"
#include "writers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  FILE*       stream;
  const char* path;
  bool        stream_out;
} Raw16;

static P4dRenderCode
open_r16(void**               writer,
         const P4dWriterInfo* info,
         const P4dAtomicFile* file,
         P4dRenderStatus*     status)
{
  (void)info;
  Raw16* const raw = (Raw16*)calloc(1U, sizeof(Raw16));
  *writer          = raw;
  if (!raw) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  raw->path       = file->path;
  raw->stream_out = file->stream;
  return p4d_pixels_open(file, &raw->stream, status);
}

static P4dRenderCode
write_r16(void* writer, const P4dPicture* picture, P4dRenderStatus* status)
{
  Raw16* const   raw   = (Raw16*)writer;
  const size_t   width = picture->width;
  uint8_t* const bytes = (uint8_t*)malloc(2U * width);
  if (!bytes) {
    return p4d_report_failure(status, raw->path, strerror(ENOMEM));
  }
  P4dRenderCode code = P4D_RENDER_SUCCESS;
  for (uint32_t y = 0U; !code && y < picture->height; ++y) {
    const float* const tone = picture->tone + (size_t)y * width;
    for (size_t i = 0U; i < width; ++i) {
      p4d_pixel_put16(bytes + 2U * i, p4d_pixel_level(tone[i], 65535U), 0);
    }
    code = p4d_pixels_write(raw->stream, bytes, 2U * width, raw->path, status);
  }
  free(bytes);
  return code;
}

static P4dRenderCode
finish_r16(void* writer, P4dRenderStatus* status)
{
  Raw16* const raw    = (Raw16*)writer;
  FILE* const  stream = raw->stream;
  raw->stream         = NULL;
  return p4d_text_stream_close(stream, !raw->stream_out, raw->path, status);
}

static void
close_r16(void* writer)
{
  Raw16* const raw = (Raw16*)writer;
  if (raw && raw->stream) {
    (void)fclose(raw->stream); // dropped: how it closes does not matter
  }
  free(raw);
}

static const char* const r16_extensions[] = { "r16", "raw", NULL };

const P4dWriterClass p4d_write_r16 = {
  .name          = "r16",
  .extensions    = r16_extensions,
  .roles         = P4D_WRITER_OUTPUT,
  .picture       = true,
  .sidecar       = true,
  .open          = open_r16,
  .write_picture = write_r16,
  .finish        = finish_r16,
  .close         = close_r16,
};
