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
  so that a grey picture has U = V = 128.  4:4:4 (the default) keeps every
  pixel's colour (no chroma subsampling to smear a fine texture); with
  --format y4m-420 the stream is "C420jpeg": Cb and Cr of each 2x2 block
  averaged before they are rounded (chroma sited at the block's centre, as
  420jpeg says; a last odd row or column averages the pixels it has), half
  the bytes of 4:4:4 and what H.264 players take.
*/

#include "pixels.h"
#include "text_stream.h"
#include "writers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/// Variant codes: the chroma subsampling.
#define Y4M_444 444
#define Y4M_420 420

typedef struct {
  FILE*       stream;
  const char* path;
  bool        stream_out;
  bool        sub;    ///< 4:2:0
  uint8_t*    planes; ///< Y, U and V of a frame
  float*      rgb;    ///< A row's colour
  float*      chroma; ///< 4:2:0: Cb and Cr of every pixel, before averaging
  bool        grey_chroma; ///< The chroma planes hold 128 (a grey frame's)
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
  y4m->sub        = info->variant == Y4M_420;
  const size_t n  = (size_t)info->width * info->height;
  y4m->planes     = (uint8_t*)malloc(3U * n);
  y4m->rgb        = (float*)malloc(3U * (size_t)info->width * sizeof(float));
  y4m->chroma     = y4m->sub ? (float*)malloc(2U * n * sizeof(float)) : NULL;
  if (!y4m->planes || !y4m->rgb || (y4m->sub && !y4m->chroma)) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  P4dRenderCode code = p4d_pixels_open(file, &y4m->stream, status);
  if (!code) {
    char      head[128];
    const int len = snprintf(head,
                             sizeof(head),
                             "YUV4MPEG2 W%u H%u F%u:%u Ip A1:1 %s\n",
                             (unsigned)info->width,
                             (unsigned)info->height,
                             (unsigned)info->fps_num,
                             (unsigned)info->fps_den,
                             y4m->sub ? "C420jpeg" : "C444");
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

/**
   The Y plane of grey tones: limited(clamped tone, 16, 219) of each, for
   every float (NaN and the infinities too; checked for all 2^32), in a
   loop the compiler vectorises.  The clamp (tone > 0 ? min(tone, 1) : 0)
   is done on the bits as integers: a float's order is its bits' for
   positive values, negative ones (sign bit set) are negative integers, and
   a positive NaN (above the bits of +infinity) gives 0 as the comparison
   does.  Float selects and comparisons are left scalar by the compiler
   (they may trap), integer ones are not.
*/
static void
grey_levels(const float* tone, uint8_t* plane_y, size_t n)
{
  const int32_t one = 0x3F800000; // 1.0f
  const int32_t inf = 0x7F800000; // +infinity
  for (size_t i = 0U; i < n; ++i) {
    int32_t b = 0;
    memcpy(&b, tone + i, sizeof(b));
    int32_t c = b < one ? b : one;
    c         = c > 0 ? c : 0;
    c &= (int32_t)(b > inf) - 1;
    float t = 0.0f;
    memcpy(&t, &c, sizeof(t));
    plane_y[i] = (uint8_t)(int32_t)(16.0f + 219.0f * t + 0.5f);
  }
}

/// Average the Cb and Cr of every pixel (y4m->chroma) over 2x2 blocks into
/// the chroma planes u and v of cw x ch samples.
static void
subsample(const Y4m* y4m, size_t width, size_t height, uint8_t* u, uint8_t* v)
{
  const size_t       n  = width * height;
  const size_t       cw = (width + 1U) / 2U;
  const float* const cb = y4m->chroma;
  const float* const cr = y4m->chroma + n;
  for (size_t j = 0U; 2U * j < height; ++j) {
    for (size_t i = 0U; 2U * i < width; ++i) {
      float    sum_b = 0.0f;
      float    sum_r = 0.0f;
      unsigned count = 0U;
      for (size_t y = 2U * j; y < 2U * j + 2U && y < height; ++y) {
        for (size_t x = 2U * i; x < 2U * i + 2U && x < width; ++x) {
          sum_b += cb[y * width + x];
          sum_r += cr[y * width + x];
          ++count;
        }
      }
      u[j * cw + i] = limited(sum_b / (float)count, 128.0f, 224.0f);
      v[j * cw + i] = limited(sum_r / (float)count, 128.0f, 224.0f);
    }
  }
}

static P4dRenderCode
write_y4m(void* writer, const P4dPicture* picture, P4dRenderStatus* status)
{
  Y4m* const   y4m   = (Y4m*)writer;
  const size_t width = picture->width;
  const size_t n     = width * picture->height;
  const size_t n_c =
    y4m->sub ? ((width + 1U) / 2U) * (((size_t)picture->height + 1U) / 2U) : n;
  uint8_t* const plane_y = y4m->planes;
  uint8_t* const plane_u = y4m->planes + n;
  uint8_t* const plane_v = y4m->planes + n + n_c;

  if (picture->grey) {
    // R' = G' = B' = the tone: Y' is the tone (the weights sum to 1) and
    // both colour differences are 0, as the last frame's were if grey.
    grey_levels(picture->tone, plane_y, n);
    if (!y4m->grey_chroma) {
      memset(plane_u, 128, 2U * n_c);
      y4m->grey_chroma = true;
    }
  } else {
    y4m->grey_chroma = false;
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
      const float pb   = (c[2] - luma) / 1.8556f;
      const float pr   = (c[0] - luma) / 1.5748f;
      plane_y[row + i] = limited(luma, 16.0f, 219.0f);
      if (y4m->sub) {
        y4m->chroma[row + i]     = pb;
        y4m->chroma[n + row + i] = pr;
      } else {
        plane_u[row + i] = limited(pb, 128.0f, 224.0f);
        plane_v[row + i] = limited(pr, 128.0f, 224.0f);
      }
    }
  }
  if (y4m->sub && !picture->grey) {
    subsample(y4m, width, picture->height, plane_u, plane_v);
  }

  static const char frame[] = "FRAME\n";
  P4dRenderCode     code =
    p4d_pixels_write(y4m->stream, frame, sizeof(frame) - 1U, y4m->path, status);
  return code ? code
              : p4d_pixels_write(
                  y4m->stream, y4m->planes, n + 2U * n_c, y4m->path, status);
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
    free(y4m->chroma);
  }
  free(y4m);
}

static const char* const      y4m_extensions[] = { "y4m", NULL };
static const P4dWriterVariant y4m_variants[]   = {
    { "444", Y4M_444 },
    { "420", Y4M_420 },
    { NULL, 0 },
};

const P4dWriterClass p4d_write_y4m = {
  .name            = "y4m",
  .extensions      = y4m_extensions,
  .roles           = P4D_WRITER_OUTPUT,
  .can_stream      = true,
  .picture         = true,
  .one_stream      = true,
  .variants        = y4m_variants,
  .default_variant = Y4M_444,
  .open            = open_y4m,
  .write_picture   = write_y4m,
  .finish          = finish_y4m,
  .close           = close_y4m,
};
