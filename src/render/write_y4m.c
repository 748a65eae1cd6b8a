// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  YUV4MPEG2, written by hand: every frame of the render in one stream (a
  file, or standard output for ffmpeg -i -).  The header says
  "YUV4MPEG2 W<w> H<h> F<num>:<den> Ip A1:1 C444", then each frame is
  "FRAME\n" and three full planes Y, Cb, Cr of 8 bits.

  The conversion is BT.709 in limited ("TV", MPEG) range, what ffmpeg
  assumes of a Y4M stream and what H.264 players expect: from the display
  (gamma-encoded) colour R'G'B' of the palette (grey: R' = G' = B' = the
  tone),
      Y' = 0.2126 R' + 0.7152 G' + 0.0722 B'
      Cb = (B' - Y') / 1.8556,  Cr = (R' - Y') / 1.5748
      Y  = 16 + 219 Y',  U = 128 + 224 Cb,  V = 128 + 224 Cr  (rounded)
  so that a grey picture has U = V = 128.  4:4:4 keeps every pixel's
  colour (no chroma subsampling to smear a fine texture).
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
  uint8_t*    planes; ///< Y, U and V of a frame
  float*      rgb;    ///< A row's colour
} Y4m;

static P4dRenderCode
open_y4m(void**               writer,
         const P4dWriterInfo* info,
         const P4dAtomicFile* file,
         P4dRenderStatus*     status)
{
  Y4m* const y4m = (Y4m*)calloc(1U, sizeof(Y4m));
  *writer        = y4m;
  if (!y4m) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  y4m->path       = file->path;
  y4m->stream_out = file->stream;
  const size_t n  = (size_t)info->width * info->height;
  y4m->planes     = (uint8_t*)malloc(3U * n);
  y4m->rgb        = (float*)malloc(3U * (size_t)info->width * sizeof(float));
  if (!y4m->planes || !y4m->rgb) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  P4dRenderCode code = p4d_pixels_open(file, &y4m->stream, status);
  if (!code) {
    char      head[128];
    const int len = snprintf(head,
                             sizeof(head),
                             "YUV4MPEG2 W%u H%u F%u:%u Ip A1:1 C444\n",
                             (unsigned)info->width,
                             (unsigned)info->height,
                             (unsigned)info->fps_num,
                             (unsigned)info->fps_den);
    code = p4d_pixels_write(y4m->stream, head, (size_t)len, y4m->path, status);
  }
  return code;
}

/// The 8-bit level of x (limited range: lo + span x, rounded).
static uint8_t
limited(float x, float lo, float span)
{
  return (uint8_t)(lo + span * x + 0.5f);
}

static P4dRenderCode
write_y4m(void* writer, const P4dPicture* picture, P4dRenderStatus* status)
{
  Y4m* const     y4m     = (Y4m*)writer;
  const size_t   width   = picture->width;
  const size_t   n       = width * picture->height;
  uint8_t* const plane_y = y4m->planes;
  uint8_t* const plane_u = y4m->planes + n;
  uint8_t* const plane_v = y4m->planes + 2U * n;

  if (picture->grey) {
    // R' = G' = B' = the tone: Y' is the tone (the weights sum to 1) and
    // both colour differences are 0.
    for (size_t i = 0U; i < n; ++i) {
      const float t = picture->tone[i];
      plane_y[i] =
        limited(t > 0.0f ? (t < 1.0f ? t : 1.0f) : 0.0f, 16.0f, 219.0f);
    }
    memset(plane_u, 128, 2U * n);
  }
  for (uint32_t y = 0U; !picture->grey && y < picture->height; ++y) {
    const size_t       row  = (size_t)y * width;
    const float* const tone = picture->tone + row;
    picture->colour(picture->colour_ctx, tone, y4m->rgb, width);
    for (size_t i = 0U; i < width; ++i) {
      float c[3];
      for (unsigned k = 0U; k < 3U; ++k) {
        const float x = y4m->rgb[3U * i + k];
        c[k]          = x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
      }
      const float luma = 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2];
      plane_y[row + i] = limited(luma, 16.0f, 219.0f);
      plane_u[row + i] = limited((c[2] - luma) / 1.8556f, 128.0f, 224.0f);
      plane_v[row + i] = limited((c[0] - luma) / 1.5748f, 128.0f, 224.0f);
    }
  }

  static const char frame[] = "FRAME\n";
  P4dRenderCode     code =
    p4d_pixels_write(y4m->stream, frame, sizeof(frame) - 1U, y4m->path, status);
  return code ? code
              : p4d_pixels_write(
                  y4m->stream, y4m->planes, 3U * n, y4m->path, status);
}

static P4dRenderCode
finish_y4m(void* writer, P4dRenderStatus* status)
{
  Y4m* const  y4m    = (Y4m*)writer;
  FILE* const stream = y4m->stream;
  y4m->stream        = NULL;
  return p4d_text_stream_close(stream, !y4m->stream_out, y4m->path, status);
}

static void
close_y4m(void* writer)
{
  Y4m* const y4m = (Y4m*)writer;
  if (y4m) {
    if (y4m->stream) {
      (void)fclose(y4m->stream); // dropped: how it closes does not matter
    }
    free(y4m->planes);
    free(y4m->rgb);
  }
  free(y4m);
}

static const char* const y4m_extensions[] = { "y4m", NULL };

const P4dWriterClass p4d_write_y4m = {
  .name          = "y4m",
  .extensions    = y4m_extensions,
  .roles         = P4D_WRITER_OUTPUT,
  .can_stream    = true,
  .picture       = true,
  .one_stream    = true,
  .open          = open_y4m,
  .write_picture = write_y4m,
  .finish        = finish_y4m,
  .close         = close_y4m,
};
