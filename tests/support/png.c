// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "png.h"

#include "draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Most bytes in one stored deflate block.
#define STORED_MAX 65535U

static uint32_t
crc32_update(uint32_t crc, const uint8_t* p, size_t n)
{
  // The reflected polynomial of PNG (ISO 3309), bit by bit: small images.
  for (size_t i = 0U; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) {
      crc = (crc >> 1U) ^ (0xEDB88320U & (0U - (crc & 1U)));
    }
  }
  return crc;
}

static void
put32(uint8_t* p, uint32_t v)
{
  p[0] = (uint8_t)(v >> 24U);
  p[1] = (uint8_t)(v >> 16U);
  p[2] = (uint8_t)(v >> 8U);
  p[3] = (uint8_t)v;
}

/// Write one chunk: length, type, data, CRC of type and data.
static bool
chunk(FILE* f, const char* type, const uint8_t* data, uint32_t n)
{
  uint8_t head[8];
  put32(head, n);
  memcpy(head + 4, type, 4U);
  uint32_t crc = crc32_update(0xFFFFFFFFU, head + 4, 4U);
  crc          = crc32_update(crc, data, n) ^ 0xFFFFFFFFU;
  uint8_t tail[4];
  put32(tail, crc);
  return fwrite(head, 1U, 8U, f) == 8U &&
         (n == 0U || fwrite(data, 1U, n, f) == n) &&
         fwrite(tail, 1U, 4U, f) == 4U;
}

bool
p4d_png_write(const char*    path,
              const uint8_t* argb,
              uint32_t       w,
              uint32_t       h,
              uint32_t       stride)
{
  // The raw scan lines: filter byte 0, then R, G, B per pixel, as the
  // drawing module reads its pixels (one row at a time, copied into words
  // so that the bytes may sit anywhere).
  const size_t row  = 1U + 3U * (size_t)w;
  const size_t raw  = row * h;
  const size_t n_bl = raw / STORED_MAX + 1U;
  const size_t zlen = 2U + raw + 5U * n_bl + 4U;
  uint8_t*     img  = (uint8_t*)malloc(raw);
  uint8_t*     z    = (uint8_t*)malloc(zlen);
  uint32_t*    line = (uint32_t*)malloc(((size_t)w + 1U) * sizeof(uint32_t));
  if (!img || !z || !line) {
    free(img);
    free(z);
    free(line);
    return false;
  }

  const P4dDrawSurface one_row = { line, w, 1U, w };
  for (uint32_t y = 0U; y < h; ++y) {
    uint8_t* const out = img + y * row;
    out[0]             = 0U;
    memcpy(line, argb + (size_t)y * stride, (size_t)w * sizeof(uint32_t));
    p4d_draw_rgb(&one_row, 0U, out + 1);
  }
  free(line);

  // zlib: header (deflate, 32 KiB window, no dictionary), stored blocks
  // (BFINAL on the last; LEN and its complement, little-endian), Adler-32.
  size_t o   = 0U;
  z[o++]     = 0x78U;
  z[o++]     = 0x01U;
  uint32_t a = 1U;
  uint32_t b = 0U;
  size_t   i = 0U;
  do {
    const size_t n = raw - i < STORED_MAX ? raw - i : STORED_MAX;
    z[o++]         = i + n == raw ? 1U : 0U;
    z[o++]         = (uint8_t)n;
    z[o++]         = (uint8_t)(n >> 8U);
    z[o++]         = (uint8_t)~n;
    z[o++]         = (uint8_t)(~n >> 8U);
    memcpy(z + o, img + i, n);
    for (size_t k = 0U; k < n; ++k) {
      a = (a + img[i + k]) % 65521U;
      b = (b + a) % 65521U;
    }
    o += n;
    i += n;
  } while (i < raw);
  put32(z + o, (b << 16U) | a);
  o += 4U;

  uint8_t ihdr[13];
  put32(ihdr, w);
  put32(ihdr + 4, h);
  ihdr[8]  = 8U; // bits per sample
  ihdr[9]  = 2U; // RGB
  ihdr[10] = 0U; // deflate
  ihdr[11] = 0U; // adaptive filters (all 0 here)
  ihdr[12] = 0U; // no interlace

  static const uint8_t signature[8] = { 0x89U, 'P',  'N',   'G',
                                        '\r',  '\n', 0x1AU, '\n' };
  FILE* const          f            = fopen(path, "wb");
  bool                 ok           = f != NULL;
  ok                                = ok && fwrite(signature, 1U, 8U, f) == 8U;
  ok                                = ok && chunk(f, "IHDR", ihdr, 13U);
  ok                                = ok && chunk(f, "IDAT", z, (uint32_t)o);
  ok                                = ok && chunk(f, "IEND", NULL, 0U);
  ok                                = f && fclose(f) == 0 && ok;
  free(img);
  free(z);
  return ok;
}
