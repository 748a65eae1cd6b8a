// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "spectrogram.h"

#include "png.h"
#include "spectrum.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

/// Window, frames.
#define SPEC_N 2048U

/// Rows of the PNG (log frequency 20 Hz - 20 kHz).
#define ROWS 200U

/// A level v in [0, 1] as a pixel: black, blue, red, yellow.
static uint32_t
heat(double v)
{
  v                    = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
  const uint32_t red   = (uint32_t)(255.0 * fmin(1.0, 2.0 * v));
  const uint32_t green = (uint32_t)(255.0 * fmax(0.0, 2.0 * v - 1.0));
  const uint32_t blue = (uint32_t)(255.0 * (v < 0.5 ? 2.0 * v : 2.0 - 2.0 * v));
  return 0xFF000000U | red << 16U | green << 8U | blue;
}

void
p4d_spectrogram_png(const char* path, const float* x, size_t n, double rate_hz)
{
  const size_t hop = (size_t)(rate_hz / 20.0 + 0.5);
  assert(n > SPEC_N);
  const size_t    cols = (n - SPEC_N) / hop;
  P4dFft          f    = p4d_fft_new(SPEC_N);
  uint32_t* const px   = calloc(cols * ROWS, sizeof(uint32_t));
  assert(px);
  for (size_t c = 0U; c < cols; ++c) {
    for (size_t i = 0U; i < SPEC_N; ++i) {
      const double w = 0.5 - 0.5 * cos(2.0 * PI * (double)i / SPEC_N);
      f.re[i]        = w * (double)x[c * hop + i];
      f.im[i]        = 0.0;
    }
    p4d_fft_run(&f);
    for (size_t r = 0U; r < ROWS; ++r) {
      const double hz  = 20.0 * pow(1000.0, (double)(ROWS - 1U - r) / ROWS);
      const size_t bin = (size_t)(hz / rate_hz * SPEC_N + 0.5);
      const size_t b   = bin < SPEC_N / 2U ? bin : SPEC_N / 2U - 1U;
      const double p   = f.re[b] * f.re[b] + f.im[b] * f.im[b];
      // dB of a full-scale sine's bin (Hann: sum w = N / 2).
      const double db =
        10.0 * log10(p / (0.25 * SPEC_N * SPEC_N / 4.0) + 1.0e-30);
      px[r * cols + c] = heat((db + 80.0) / 80.0);
    }
  }
  assert(p4d_png_write(
    path, (const uint8_t*)px, (uint32_t)cols, ROWS, (uint32_t)(cols * 4U)));
  printf("# wrote %s (%zu x %u: 50 ms a column, 20 Hz - 20 kHz log)\n",
         path,
         cols,
         ROWS);
  free(px);
  p4d_fft_free(&f);
}
