// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Noise's spectrum envelope for its inline display (display_spectrum.h).
*/

#include "display_spectrum.h"

#include "display.h"
#include "draw.h"
#include "noise.h"
#include "params.h"
#include "theme.h"
#include "voice.h"

#include <math.h>
#include <stdint.h>

/**
   The spectrum envelope of the Noise's signal at the controls p: the
   power density at f_hz, relative: the sum over the n octaves k that
   p4d_fbm_weights() weighs w_k (the band limit's fade included) of
   w_k^2 / f_k g(f / f_k), where f_k is grain_hz times lacunarity^k (the
   octave's cells per second: its power spreads over a band that wide) and
   g(r) = 1 / (1 + (r / P4D_DISPLAY_GRAIN_KNEE)^8).  Fitted to the Noise's
   measured spectrum (renderer, 10 s, 8192-point FFTs) within 3 dB from 25
   Hz to 19 kHz at its defaults and at grain 300 Hz, 8 octaves,
   lacunarity 2.5, persistence 0.7.
*/
static double
noise_power(const float* p, const float* weight, unsigned n, double f_hz)
{
  double sum = 0.0;
  double f_k = (double)p[P4D_NOISE_GRAIN_HZ];
  for (unsigned k = 0U; k < n; ++k) {
    const double r  = f_hz / (f_k * P4D_DISPLAY_GRAIN_KNEE);
    const double r2 = r * r;
    sum += (double)weight[k] * weight[k] / f_k / (1.0 + r2 * r2 * r2 * r2);
    f_k *= (double)p[P4D_NOISE_LACUNARITY];
  }
  return sum;
}

/// The frequency at column position x of an image w wide (log scale).
static double
spectrum_hz(double x, uint32_t w)
{
  return P4D_DISPLAY_SPECTRUM_LOW_HZ *
         pow(P4D_DISPLAY_SPECTRUM_HIGH_HZ / P4D_DISPLAY_SPECTRUM_LOW_HZ,
             x / (double)w);
}

void
p4d_display_spectrum(const float*          params,
                     double                sample_rate_hz,
                     const P4dDrawSurface* s,
                     float*                row)
{
  const float* const p       = params;
  const double       sr      = sample_rate_hz;
  const double       top     = 0.5 * sr < P4D_BAND_HZ ? 0.5 * sr : P4D_BAND_HZ;
  const P4dFbm       fbm     = { p[P4D_NOISE_OCTAVES],
                                 p[P4D_NOISE_LACUNARITY],
                                 p[P4D_NOISE_PERSISTENCE],
                                 top / sr };
  const double       step[4] = { 0.0, 0.0, 0.0, p[P4D_NOISE_GRAIN_HZ] / sr };
  float              weight[P4D_FBM_MAX_OCTAVES];
  const unsigned     n = p4d_fbm_weights(&fbm, step, weight);

  // The envelope at the columns' edges, in dB under its highest point.
  double peak = 0.0;
  for (uint32_t x = 0U; x <= s->width; ++x) {
    const double e = noise_power(p, weight, n, spectrum_hz(x, s->width));
    row[x]         = (float)e;
    peak           = e > peak ? e : peak;
  }
  for (uint32_t x = 0U; x <= s->width; ++x) {
    row[x] = peak > 0.0 && row[x] > 0.0f
               ? (float)(10.0 * log10((double)row[x] / peak))
               : (float)-P4D_DISPLAY_SPECTRUM_DB;
  }

  // Filled under the envelope, then the envelope, in the third colour.
  const uint32_t colour = p4d_theme_dark.channel[2].argb;
  const double   low    = -P4D_DISPLAY_SPECTRUM_DB;
  for (uint32_t x = 0U; x < s->width; ++x) {
    const double y0 = p4d_draw_y(s->height, row[x], low, 0.0);
    const double y1 = p4d_draw_y(s->height, row[x + 1U], low, 0.0);
    const double y  = 0.5 * (y0 + y1);
    for (uint32_t r = 0U; r < s->height; ++r) {
      const double cover = (double)r + 0.5 - y;
      if (cover > 0.0) {
        p4d_draw_blend(s->pixels + (size_t)r * s->stride + x,
                       colour,
                       P4D_DISPLAY_SPECTRUM_FILL * (cover < 1.0 ? cover : 1.0));
      }
    }
  }
  p4d_draw_curve(s, row, 1U, low, 0.0, colour, 0U);

  // The band limit, dotted, if it is in the picture.
  const double at =
    (double)s->width * log(top / P4D_DISPLAY_SPECTRUM_LOW_HZ) /
    log(P4D_DISPLAY_SPECTRUM_HIGH_HZ / P4D_DISPLAY_SPECTRUM_LOW_HZ);
  if (at >= 0.0 && at < (double)s->width) {
    for (uint32_t r = 0U; r < s->height; r += 3U) {
      s->pixels[(size_t)r * s->stride + (uint32_t)at] =
        p4d_theme_dark.grid.argb;
    }
  }
}
