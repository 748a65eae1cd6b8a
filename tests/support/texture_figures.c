// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "texture_figures.h"

#include "params.h"
#include "preset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

/// Welch segment of the low share: 0.68 s at 48 kHz.
#define LOW_SEGMENT (1U << 15U)

static void*
checked_calloc(size_t n, size_t size)
{
  void* const p = calloc(n ? n : 1U, size);
  if (!p) {
    fprintf(stderr, "texture_figures: out of memory\n");
    exit(1);
  }
  return p;
}

static size_t
pow2_at_least(double x)
{
  size_t n = 1U;
  while ((double)n < x) {
    n <<= 1U;
  }
  return n;
}

/// A Hann window and the twiddles of an n-point FFT.
typedef struct {
  size_t  n;
  double* re;
  double* im;
  double* tw_re;
  double* tw_im;
} Fft;

static Fft
fft_new(size_t n)
{
  Fft f = { n,
            (double*)checked_calloc(n, sizeof(double)),
            (double*)checked_calloc(n, sizeof(double)),
            (double*)checked_calloc(n / 2U, sizeof(double)),
            (double*)checked_calloc(n / 2U, sizeof(double)) };
  for (size_t k = 0U; k < n / 2U; ++k) {
    f.tw_re[k] = cos(2.0 * PI * (double)k / (double)n);
    f.tw_im[k] = -sin(2.0 * PI * (double)k / (double)n);
  }
  return f;
}

static void
fft_free(Fft* f)
{
  free(f->re);
  free(f->im);
  free(f->tw_re);
  free(f->tw_im);
}

/// In-place radix-2 FFT of f->re, f->im.
static void
fft_run(Fft* f)
{
  const size_t n  = f->n;
  double*      re = f->re;
  double*      im = f->im;
  for (size_t i = 1U, j = 0U; i < n; ++i) {
    size_t bit = n >> 1U;
    for (; j & bit; bit >>= 1U) {
      j ^= bit;
    }
    j ^= bit;
    if (i < j) {
      const double tr = re[i];
      const double ti = im[i];
      re[i]           = re[j];
      im[i]           = im[j];
      re[j]           = tr;
      im[j]           = ti;
    }
  }
  for (size_t len = 2U; len <= n; len <<= 1U) {
    const size_t step = n / len;
    const size_t half = len / 2U;
    for (size_t s = 0U; s < n; s += len) {
      for (size_t k = 0U; k < half; ++k) {
        const double wr = f->tw_re[k * step];
        const double wi = f->tw_im[k * step];
        const size_t a  = s + k;
        const size_t b  = a + half;
        const double xr = (re[b] * wr) - (im[b] * wi);
        const double xi = (re[b] * wi) + (im[b] * wr);
        re[b]           = re[a] - xr;
        im[b]           = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }
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
  Fft    f    = fft_new(pow2_at_least((double)n) * 4U);
  double mean = 0.0;
  for (size_t i = 0U; i < n; ++i) {
    mean += env[i] / (double)n;
  }
  // One Hann-windowed segment, zero-padded for a finer peak.
  for (size_t i = 0U; i < n; ++i) {
    f.re[i] =
      (env[i] - mean) * (0.5 - (0.5 * cos(2.0 * PI * (double)i / (double)n)));
  }
  fft_run(&f);
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
  fft_free(&f);
  return period;
}

double
p4d_band_share(const float* x,
               size_t       n,
               double       rate_hz,
               double       lo_hz,
               double       hi_hz)
{
  const size_t seg  = LOW_SEGMENT;
  Fft          f    = fft_new(seg);
  double       band = 0.0;
  double       all  = 0.0;
  for (size_t at = 0U; at + seg <= n; at += seg / 2U) {
    for (size_t i = 0U; i < seg; ++i) {
      const double w = 0.5 - (0.5 * cos(2.0 * PI * (double)i / (double)seg));
      f.re[i]        = x[at + i] * w;
      f.im[i]        = 0.0;
    }
    fft_run(&f);
    for (size_t k = 0U; k <= seg / 2U; ++k) {
      const double hz = (double)k * rate_hz / (double)seg;
      const double m  = (f.re[k] * f.re[k]) + (f.im[k] * f.im[k]);
      const double p  = (k == 0U || k == seg / 2U) ? m : 2.0 * m;
      all += p;
      band += (hz >= lo_hz && hz < hi_hz) ? p : 0.0;
    }
  }
  fft_free(&f);
  return all > 0.0 ? band / all : 0.0;
}

P4dTextureFigures
p4d_texture_figures(const float* x, size_t n, double rate_hz)
{
  P4dTextureFigures fig = { 0.0, 0.0, 0.0, 0.0, 0.0 };
  const size_t      win = (size_t)(P4D_FIGURES_WINDOW_S * rate_hz + 0.5);
  double*           env = (double*)checked_calloc(n / win, sizeof(double));

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
  const P4dKind              kind  = P4D_KIND_NOISE;
  P4dPresetValues            values;

  p4d_param_defaults(table, params);
  const char* const why = p4d_preset_load(label, exe_path, &kind, &values);
  if (why) {
    fprintf(stderr, "preset %s: %s\n", label, why);
    return -1;
  }
  for (unsigned i = 0U; i < values.n_values; ++i) {
    params[values.params[i]] = (float)values.values[i];
  }
  return 0;
}
