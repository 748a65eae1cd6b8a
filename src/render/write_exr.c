// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  OpenEXR through the library's C API (openexr.h, OpenEXR 3.1: Debian's
  libopenexr-dev), scanlines with ZIP compression, float (exr, the
  default) or half (exr-half) samples.  One frame a file.

  What it stores: for a grey palette one channel Y, the field's value
  itself (unit variance, linear and unclamped: the data a compositor or a
  displacement wants); for a colour palette channels R, G, B, the
  palette's colour in linear light (the sRGB curve undone), so that a
  viewer shows what the PNG shows.

  Half samples are rounded to nearest (ties to even) here, so that the
  file does not depend on the library's conversion.
*/

#define _POSIX_C_SOURCE 200809L

#include "pixels.h"
#include "writers.h"

#include <openexr.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// Variant codes: bytes a sample.
#define EXR_FLOAT 4
#define EXR_HALF 2

typedef struct {
  int         fd;
  const char* path;
  bool        stream_out;
  int         bytes; ///< EXR_FLOAT or EXR_HALF
  int         err;   ///< errno of a failed write, or 0
  char        reason[200];
} Exr;

static P4dRenderCode
open_exr(void**               writer,
         const P4dWriterInfo* info,
         const P4dAtomicFile* file,
         P4dRenderStatus*     status)
{
  Exr* const exr = (Exr*)calloc(1U, sizeof(Exr));
  *writer        = exr;
  if (!exr) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  exr->fd         = file->fd;
  exr->path       = file->path;
  exr->stream_out = file->stream;
  exr->bytes      = info->variant == EXR_HALF ? EXR_HALF : EXR_FLOAT;
  return P4D_RENDER_SUCCESS;
}

/// The nearest half to f (ties to even), its bits.
static uint16_t
half_of(float f)
{
  uint32_t x = 0U;
  memcpy(&x, &f, sizeof(x));
  const uint32_t sign = (x >> 16U) & 0x8000U;
  uint32_t       mant = x & 0x7FFFFFU;
  const int      exp  = (int)((x >> 23U) & 0xFFU);
  if (exp == 0xFF) { // Inf, NaN (quiet)
    return (uint16_t)(sign | 0x7C00U | (mant ? 0x200U : 0U));
  }
  const int e = exp - 127 + 15;
  if (e >= 31) {
    return (uint16_t)(sign | 0x7C00U);
  }
  uint32_t h       = 0U;
  uint32_t rem     = 0U;
  uint32_t halfway = 0U;
  if (e <= 0) { // a subnormal half, or 0
    if (e < -10) {
      return (uint16_t)sign;
    }
    mant |= 0x800000U;
    const unsigned shift = (unsigned)(14 - e);
    h                    = mant >> shift;
    rem                  = mant & ((1U << shift) - 1U);
    halfway              = 1U << (shift - 1U);
  } else {
    h       = ((uint32_t)e << 10U) | (mant >> 13U);
    rem     = mant & 0x1FFFU;
    halfway = 0x1000U;
  }
  if (rem > halfway || (rem == halfway && (h & 1U))) {
    ++h; // may carry into the exponent, or to Inf: both right
  }
  return (uint16_t)(sign | h);
}

static int64_t
on_exr_write(exr_const_context_t         ctxt,
             void*                       userdata,
             const void*                 buffer,
             uint64_t                    sz,
             uint64_t                    offset,
             exr_stream_error_func_ptr_t error_cb)
{
  (void)ctxt;
  (void)error_cb;
  Exr* const  exr   = (Exr*)userdata;
  const char* bytes = (const char*)buffer;
  uint64_t    done  = 0U;
  while (done < sz) {
    const ssize_t n = pwrite(
      exr->fd, bytes + done, (size_t)(sz - done), (off_t)(offset + done));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      exr->err = n < 0 ? errno : EIO;
      return -1;
    }
    done += (uint64_t)n;
  }
  return (int64_t)done;
}

static void
on_exr_error(exr_const_context_t ctxt, exr_result_t code, const char* msg)
{
  void* userdata = NULL;
  (void)code;
  if (exr_get_user_data(ctxt, &userdata) == EXR_ERR_SUCCESS && userdata) {
    Exr* const exr = (Exr*)userdata;
    if (!exr->reason[0]) {
      snprintf(exr->reason, sizeof(exr->reason), "%s", msg);
    }
  }
}

static void
on_exr_destroy(exr_const_context_t ctxt, void* userdata, int failed)
{
  (void)ctxt; // the file is the caller's
  (void)userdata;
  (void)failed;
}

/// The samples of channel c (of n) for rows y0 .. y0 + lines - 1, as the
/// file stores them, into dest.
static void
put_channel(const Exr*        exr,
            const P4dPicture* picture,
            unsigned          c,
            int32_t           y0,
            int32_t           lines,
            float*            rgb,
            uint8_t*          dest)
{
  const size_t width = picture->width;
  for (int32_t l = 0; l < lines; ++l) {
    const size_t row  = (size_t)(y0 + l) * width;
    const float* src  = picture->value + row;
    size_t       step = 1U;
    if (!picture->grey) {
      picture->colour(picture->colour_ctx, picture->tone + row, rgb, width);
      src  = rgb + c;
      step = 3U;
    }
    uint8_t* const out = dest + (size_t)l * width * (size_t)exr->bytes;
    for (size_t i = 0U; i < width; ++i) {
      const float v = picture->grey ? src[i] : p4d_pixel_linear(src[i * step]);
      if (exr->bytes == EXR_HALF) {
        const uint16_t h = half_of(v);
        memcpy(out + 2U * i, &h, 2U);
      } else {
        memcpy(out + 4U * i, &v, 4U);
      }
    }
  }
}

/// The channel (0: R or Y, 1: G, 2: B) that a file's channel name means.
static unsigned
channel_index(const char* name)
{
  return name[0] == 'G' ? 1U : name[0] == 'B' ? 2U : 0U;
}

/// Write every chunk of picture to ctxt's part 0.
static exr_result_t
write_chunks(exr_context_t ctxt, const Exr* exr, const P4dPicture* picture)
{
  int32_t        lines  = 1;
  exr_result_t   result = exr_get_scanlines_per_chunk(ctxt, 0, &lines);
  const size_t   width  = picture->width;
  const size_t   n_ch   = picture->grey ? 1U : 3U;
  uint8_t* const planes =
    (uint8_t*)malloc(n_ch * (size_t)lines * width * (size_t)exr->bytes);
  float* const rgb = (float*)malloc(3U * width * sizeof(float));
  if (!planes || !rgb) {
    result = EXR_ERR_OUT_OF_MEMORY;
  }

  exr_encode_pipeline_t encoder;
  memset(&encoder, 0, sizeof(encoder));
  bool ready = false;
  for (int32_t y = 0; !result && y < (int32_t)picture->height; y += lines) {
    exr_chunk_info_t chunk;
    result = exr_write_scanline_chunk_info(ctxt, 0, y, &chunk);
    if (!result) {
      result = ready ? exr_encoding_update(ctxt, 0, &chunk, &encoder)
                     : exr_encoding_initialize(ctxt, 0, &chunk, &encoder);
    }
    for (int16_t k = 0; !result && k < encoder.channel_count; ++k) {
      exr_coding_channel_info_t* const ch = &encoder.channels[k];
      const unsigned c = picture->grey ? 0U : channel_index(ch->channel_name);
      uint8_t* const plane =
        planes + (size_t)c * (size_t)lines * width * (size_t)exr->bytes;
      put_channel(exr, picture, c, chunk.start_y, chunk.height, rgb, plane);
      ch->user_bytes_per_element = (int16_t)exr->bytes;
      ch->user_data_type =
        (uint16_t)(exr->bytes == EXR_HALF ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT);
      ch->user_pixel_stride = exr->bytes;
      ch->user_line_stride  = (int32_t)width * exr->bytes;
      ch->encode_from_ptr   = plane;
    }
    if (!result && !ready) {
      result = exr_encoding_choose_default_routines(ctxt, 0, &encoder);
      ready  = !result;
    }
    result = result ? result : exr_encoding_run(ctxt, 0, &encoder);
  }
  if (ready || encoder.channels) {
    exr_encoding_destroy(ctxt, &encoder);
  }
  free(planes);
  free(rgb);
  return result;
}

static P4dRenderCode
write_exr(void* writer, const P4dPicture* picture, P4dRenderStatus* status)
{
  Exr* const                exr  = (Exr*)writer;
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  init.user_data                 = exr;
  init.write_fn                  = on_exr_write;
  init.destroy_fn                = on_exr_destroy;
  init.error_handler_fn          = on_exr_error;

  exr_context_t ctxt = NULL;
  exr_result_t  result =
    exr_start_write(&ctxt, exr->path, EXR_WRITE_FILE_DIRECTLY, &init);
  int part = 0;
  result   = result ? result
                    : exr_add_part(ctxt, "perlin4d", EXR_STORAGE_SCANLINE, &part);
  result   = result
               ? result
               : exr_initialize_required_attr_simple(ctxt,
                                                   part,
                                                   (int32_t)picture->width,
                                                   (int32_t)picture->height,
                                                   EXR_COMPRESSION_ZIP);
  const exr_pixel_type_t type =
    exr->bytes == EXR_HALF ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT;
  static const char* const rgb_names[] = { "R", "G", "B" };
  for (unsigned c = 0U; !result && c < (picture->grey ? 1U : 3U); ++c) {
    result = exr_add_channel(ctxt,
                             part,
                             picture->grey ? "Y" : rgb_names[c],
                             type,
                             EXR_PERCEPTUALLY_LINEAR,
                             1,
                             1);
  }
  result = result ? result : exr_write_header(ctxt);
  result = result ? result : write_chunks(ctxt, exr, picture);
  const exr_result_t finished = ctxt ? exr_finish(&ctxt) : EXR_ERR_SUCCESS;
  result                      = result ? result : finished;
  if (result) {
    return p4d_report_failure(status,
                              exr->path,
                              exr->err ? strerror(exr->err)
                              : exr->reason[0]
                                ? exr->reason
                                : exr_get_default_error_message(result));
  }
  return P4D_RENDER_SUCCESS;
}

static P4dRenderCode
finish_exr(void* writer, P4dRenderStatus* status)
{
  const Exr* const exr = (const Exr*)writer;
  if (!exr->stream_out && fsync(exr->fd)) {
    return p4d_report_failure(status, exr->path, strerror(errno));
  }
  return P4D_RENDER_SUCCESS;
}

static void
close_exr(void* writer)
{
  free(writer);
}

static const char* const      exr_extensions[] = { "exr", NULL };
static const P4dWriterVariant exr_variants[]   = {
    { "float", EXR_FLOAT },
    { "half", EXR_HALF },
    { NULL, 0 },
};

const P4dWriterClass p4d_write_exr = {
  .name            = "exr",
  .extensions      = exr_extensions,
  .roles           = P4D_WRITER_OUTPUT,
  .picture         = true,
  .sidecar         = true,
  .needs_value     = true,
  .variants        = exr_variants,
  .default_variant = EXR_FLOAT,
  .open            = open_exr,
  .write_picture   = write_exr,
  .finish          = finish_exr,
  .close           = close_exr,
};
