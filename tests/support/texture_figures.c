// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "texture_figures.h"

#include "basics.h"
#include "spectrum.h"

#include "params.h"
#include "preset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/// Welch segment of the low share: 0.68 s at 48 kHz.
#define LOW_SEGMENT (1U << 15U)

static size_t
pow2_at_least(double x)
{
  size_t n = 1U;
  while ((double)n < x) {
    n <<= 1U;
  }
  return n;
}

/// Max - min in dB of the RMS over windows of win samples; env gets the
/// dB of each window if not NULL.
static double
swing_db(const float* x, size_t n, size_t win, double* env)
{
  double lo = INFINITY;
  double hi = -INFINITY;
  for (size_t w = 0U; w + win <= n; w += win) {
    double sum = 0.0;
    for (size_t i = w; i < w + win; ++i) {
      sum += (double)x[i] * x[i];
    }
    const double db = 10.0 * log10((sum / (double)win) + 1e-30);
    if (env) {
      env[w / win] = db;
    }
    lo = db < lo ? db : lo;
    hi = db > hi ? db : hi;
  }
  return hi - lo;
}

double
p4d_dominant_period(const double* env, size_t n, double env_hz)
{
  P4dFft f    = p4d_fft_new(pow2_at_least((double)n) * 4U);
  double mean = 0.0;
  for (size_t i = 0U; i < n; ++i) {
    mean += env[i] / (double)n;
  }
  // One Hann-windowed segment, zero-padded for a finer peak.
  for (size_t i = 0U; i < n; ++i) {
    f.re[i] = (env[i] - mean) *
              (0.5 - (0.5 * cos(2.0 * P4D_PI * (double)i / (double)n)));
  }
  p4d_fft_run(&f);
  double best   = 0.0;
  double period = 0.0;
  for (size_t k = 1U; k < f.n / 2U; ++k) {
    const double hz = (double)k * env_hz / (double)f.n;
    const double m  = (f.re[k] * f.re[k]) + (f.im[k] * f.im[k]);
    if (hz >= 1.0 / 15.0 && hz <= 10.0 && m > best) {
      best   = m;
      period = 1.0 / hz;
    }
  }
  p4d_fft_free(&f);
  return period;
}

double
p4d_band_share(const float* x,
               size_t       n,
               double       rate_hz,
               double       lo_hz,
               double       hi_hz)
{
  double* const xd = (double*)p4d_alloc(n, sizeof(double));
  for (size_t i = 0U; i < n; ++i) {
    xd[i] = x[i];
  }
  P4dSpectrum  s    = p4d_welch(xd, n, LOW_SEGMENT, rate_hz);
  const double all  = p4d_band_power(&s, 0.0, INFINITY);
  const double band = p4d_band_power(&s, lo_hz, hi_hz);
  p4d_spectrum_free(&s);
  free(xd);
  return all > 0.0 ? band / all : 0.0;
}

P4dTextureFigures
p4d_texture_figures(const float* x, size_t n, double rate_hz)
{
  P4dTextureFigures fig = { 0.0, 0.0, 0.0, 0.0, 0.0 };
  const size_t      win = (size_t)(P4D_FIGURES_WINDOW_S * rate_hz + 0.5);
  double*           env = (double*)p4d_alloc(n / win, sizeof(double));

  fig.swing_db = swing_db(x, n, win, env);
  fig.period_s = p4d_dominant_period(env, n / win, 1.0 / P4D_FIGURES_WINDOW_S);
  fig.drift_db =
    swing_db(x, n, (size_t)(P4D_FIGURES_DRIFT_S * rate_hz + 0.5), NULL);

  double sum  = 0.0;
  double peak = 0.0;
  for (size_t i = 0U; i < n; ++i) {
    sum += (double)x[i] * x[i];
    peak = fabs((double)x[i]) > peak ? fabs((double)x[i]) : peak;
  }
  fig.crest_db  = 20.0 * log10(peak / sqrt(sum / (double)n));
  fig.low_share = p4d_band_share(x, n, rate_hz, 20.0, 120.0);
  free(env);
  return fig;
}

int
p4d_noise_preset(const char* label, const char* exe_path, float* params)
{
  const P4dParamTable* const table = p4d_params(P4D_KIND_NOISE);
  const P4dKindClass* const  kind  = p4d_kind_by_name("noise");
  P4dPresetValues            values;
  P4dRenderStatus            status = { 0 };

  p4d_param_defaults(table, params);
  if (p4d_preset_load(label, exe_path, kind, &values, &status)) {
    fprintf(stderr, "preset %s: %s\n", label, status.reason);
    return -1;
  }
  for (unsigned i = 0U; i < values.n_values; ++i) {
    params[values.params[i]] = (float)values.values[i];
  }
  return 0;
}
