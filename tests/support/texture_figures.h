// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file texture_figures.h
   Issue 11's texture figures of a rendered Noise channel, shared by
   tests/test_textures.c and bench/signal_bench.c so that both measure the
   same thing, and the Noise presets read from the bundle's presets.ttl
   through the renderer's own preset code.
*/

#ifndef P4D_TEST_TEXTURE_FIGURES_H
#define P4D_TEST_TEXTURE_FIGURES_H

#include <stddef.h>

/// Envelope window of the swing and the period: 50 ms.
#define P4D_FIGURES_WINDOW_S 0.05

/// Window of the drift: 1 s.
#define P4D_FIGURES_DRIFT_S 1.0

/// The texture figures of one channel.
typedef struct {
  double swing_db;  ///< Max - min of the RMS over 50 ms windows, in dB
  double period_s;  ///< Dominant period of that dB envelope, 0.1 - 15 s
  double crest_db;  ///< Peak over RMS of the whole signal, in dB
  double drift_db;  ///< Max - min of the RMS over 1 s windows, in dB
  double low_share; ///< Share of the power in 20 - 120 Hz (Welch, 2^15)
} P4dTextureFigures;

/**
   Measure the texture figures of x[0..n) at rate_hz.

   Swing: the RMS over consecutive 50 ms windows, in dB, max minus min.
   Period: the largest peak between 1/15 and 10 Hz of the spectrum of that
   dB envelope (its mean removed, one Hann window, zero-padded to 4x the
   next power of 2), as a period.  Crest: 20 log10(peak / RMS).  Drift: as
   the swing over 1 s windows.  Low share: the Welch power spectrum (Hann,
   2^15-sample segments, 50 % overlap) in [20, 120) Hz over the whole.
*/
P4dTextureFigures
p4d_texture_figures(const float* x, size_t n, double rate_hz);

/**
   The dominant period in seconds of env[0..n) sampled at env_hz: the
   largest peak between 1/15 and 10 Hz of its spectrum (mean removed, one
   Hann window, zero-padded to 4x the next power of 2).
*/
double
p4d_dominant_period(const double* env, size_t n, double env_hz);

/**
   The share of the power of x[0..n) (at rate_hz) in [lo_hz, hi_hz): Welch
   power spectrum, Hann segments of 2^15 samples, 50 % overlap.
*/
double
p4d_band_share(const float* x,
               size_t       n,
               double       rate_hz,
               double       lo_hz,
               double       hi_hz);

/**
   Set params (P4D_MAX_PARAMS values) to the Noise defaults overridden by
   the values of the bundle's preset with label, found as the renderer
   finds it (a bundle at lv2/perlin4d.lv2 beside exe_path, else the
   installed one).

   @return 0 on success, else a message is printed on stderr and -1.
*/
int
p4d_noise_preset(const char* label, const char* exe_path, float* params);

#endif // P4D_TEST_TEXTURE_FIGURES_H
