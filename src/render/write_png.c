// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  PNG through libpng: 8 bits (png) or 16 bits (png16) a sample, grey for a
  grey palette (the tone), else RGB (the palette's colour).  16-bit
  samples are stored big-endian, as PNG requires.  One frame a file.

  Compression: zlib level 1 by default, chosen by measurement (1920x1080
  grey frames of 6-octave fBm, one job, AMD EPYC Zen 3 under load): level
  0 writes 2078 KB a frame, level 1 441 KB for 23 ms of CPU more, level 3
  375 KB for 52 ms, level 6 (zlib's default) 285 KB for 142 ms and level
  9 245 KB for 1.7 s.  Level 1 keeps compression well below the render of
  a frame (the target is 40 ms of CPU), so it never dominates a sequence;
  --compression 0..9 chooses.
*/

#include "pixels.h"
#include "text_stream.h"
#include "writers.h"

#include <png.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/// The zlib level without --compression (see the top).
#define DEFAULT_LEVEL 1

typedef struct {
  FILE*       stream;
  const char* path;
  bool        stream_out; ///< Standard output: no sync
  unsigned    depth;      ///< Bits a sample: 8 or 16
  int         level;      ///< zlib level
  int         err;        ///< errno of a failed write, or 0
  char        reason[200];
} Png;

static P4dRenderCode
open_png(unsigned             depth,
         void**               writer,
         const P4dWriterInfo* info,
         const P4dAtomicFile* file,
         P4dRenderStatus*     status)
{
  Png* const png = (Png*)calloc(1U, sizeof(Png));
  *writer        = png;
  if (!png) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  png->path       = file->path;
  png->stream_out = file->stream;
  png->depth      = depth;
  png->level      = info->compression >= 0 ? info->compression : DEFAULT_LEVEL;
  return p4d_pixels_open(file, &png->stream, status);
}

static P4dRenderCode
open_png8(void**               writer,
          const P4dWriterInfo* info,
          const P4dAtomicFile* file,
          P4dRenderStatus*     status)
{
  return open_png(8U, writer, info, file, status);
}

static P4dRenderCode
open_png16(void**               writer,
           const P4dWriterInfo* info,
           const P4dAtomicFile* file,
           P4dRenderStatus*     status)
{
  return open_png(16U, writer, info, file, status);
}

static void
on_png_error(png_structp png_ptr, png_const_charp message)
{
  Png* const png = (Png*)png_get_error_ptr(png_ptr);
  if (!png->reason[0]) {
    snprintf(png->reason, sizeof(png->reason), "%s", message);
  }
  png_longjmp(png_ptr, 1);
}

static void
on_png_warning(png_structp png_ptr, png_const_charp message)
{
  (void)png_ptr;
  (void)message; // libpng warns of nothing a render can cause
}

static void
on_png_write(png_structp png_ptr, png_bytep data, size_t size)
{
  Png* const png = (Png*)png_get_io_ptr(png_ptr);
  errno          = 0;
  if (fwrite(data, 1U, size, png->stream) != size) {
    png->err = errno ? errno : EIO;
    snprintf(png->reason, sizeof(png->reason), "%s", strerror(png->err));
    png_error(png_ptr, png->reason);
  }
}

static void
on_png_flush(png_structp png_ptr)
{
  (void)png_ptr; // finish() flushes the stream
}

/// Put row y of picture into bytes, as png's samples.
static void
put_row(const Png*        png,
        const P4dPicture* picture,
        uint32_t          y,
        float*            rgb,
        uint8_t*          bytes)
{
  const size_t       width = picture->width;
  const float* const tone  = picture->tone + (size_t)y * width;
  const float*       src   = tone;
  size_t             n     = width;
  if (!picture->grey) {
    picture->colour(picture->colour_ctx, tone, rgb, width);
    src = rgb;
    n   = 3U * width;
  }
  if (png->depth == 8U) {
    for (size_t i = 0U; i < n; ++i) {
      bytes[i] = (uint8_t)p4d_pixel_level(src[i], 255U);
    }
  } else {
    for (size_t i = 0U; i < n; ++i) {
      p4d_pixel_put16(bytes + 2U * i, p4d_pixel_level(src[i], 65535U), 1);
    }
  }
}

static P4dRenderCode
write_png(void* writer, const P4dPicture* picture, P4dRenderStatus* status)
{
  Png* const     png      = (Png*)writer;
  const size_t   channels = picture->grey ? 1U : 3U;
  uint8_t* const bytes =
    (uint8_t*)malloc((size_t)picture->width * channels * (png->depth / 8U));
  float* const rgb =
    (float*)malloc((size_t)picture->width * 3U * sizeof(float));
  png_structp png_ptr = png_create_write_struct(
    PNG_LIBPNG_VER_STRING, png, on_png_error, on_png_warning);
  png_infop info = png_ptr ? png_create_info_struct(png_ptr) : NULL;
  if (!bytes || !rgb || !info) {
    png_destroy_write_struct(&png_ptr, &info);
    free(bytes);
    free(rgb);
    return p4d_report_failure(status, png->path, strerror(ENOMEM));
  }

  // Nothing that changes between here and a longjmp is read after it.
  if (setjmp(png_jmpbuf(png_ptr))) {
    png_destroy_write_struct(&png_ptr, &info);
    free(bytes);
    free(rgb);
    return p4d_report_failure(status, png->path, png->reason);
  }
  png_set_write_fn(png_ptr, png, on_png_write, on_png_flush);
  png_set_IHDR(png_ptr,
               info,
               picture->width,
               picture->height,
               (int)png->depth,
               picture->grey ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png_ptr, png->level);
  png_write_info(png_ptr, info);
  for (uint32_t y = 0U; y < picture->height; ++y) {
    put_row(png, picture, y, rgb, bytes);
    png_write_row(png_ptr, bytes);
  }
  png_write_end(png_ptr, info);
  png_destroy_write_struct(&png_ptr, &info);
  free(bytes);
  free(rgb);
  return P4D_RENDER_SUCCESS;
}

static P4dRenderCode
finish_png(void* writer, P4dRenderStatus* status)
{
  Png* const  png    = (Png*)writer;
  FILE* const stream = png->stream;
  png->stream        = NULL;
  return p4d_text_stream_close(stream, !png->stream_out, png->path, status);
}

static void
close_png(void* writer)
{
  Png* const png = (Png*)writer;
  if (png && png->stream) {
    (void)fclose(png->stream); // dropped: how it closes does not matter
  }
  free(png);
}

static const char* const png_extensions[] = { "png", NULL };

const P4dWriterClass p4d_write_png = {
  .name          = "png",
  .extensions    = png_extensions,
  .roles         = P4D_WRITER_OUTPUT,
  .picture       = true,
  .sidecar       = true,
  .open          = open_png8,
  .write_picture = write_png,
  .finish        = finish_png,
  .close         = close_png,
};

const P4dWriterClass p4d_write_png16 = {
  .name          = "png16",
  .extensions    = png_extensions,
  .roles         = P4D_WRITER_OUTPUT,
  .picture       = true,
  .sidecar       = true,
  .open          = open_png16,
  .write_picture = write_png,
  .finish        = finish_png,
  .close         = close_png,
};
