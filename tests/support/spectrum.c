// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "spectrum.h"

#include "basics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double*
zeros(size_t n)
{
  return (double*)p4d_alloc(n, sizeof(double));
}

P4dFft
p4d_fft_new(size_t n)
{
  P4dFft f = { n, zeros(n), zeros(n), zeros(n / 2U), zeros(n / 2U) };
  for (size_t k = 0U; k < n / 2U; ++k) {
    f.tw_re[k] = cos(2.0 * P4D_PI * (double)k / (double)n);
    f.tw_im[k] = -sin(2.0 * P4D_PI * (double)k / (double)n);
  }
  return f;
}

void
p4d_fft_free(P4dFft* f)
{
  free(f->re);
  free(f->im);
  free(f->tw_re);
  free(f->tw_im);
}

void
p4d_fft_run(P4dFft* f)
{
  const size_t n  = f->n;
  double*      re = f->re;
  double*      im = f->im;
  // Bit-reversed order, then log2(n) passes of butterflies.
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

P4dSpectrum
p4d_welch(const double* x, size_t n, size_t seg, double rate_hz)
{
  P4dSpectrum s = { (seg / 2U) + 1U, rate_hz / (double)seg, NULL };
  P4dFft      f = p4d_fft_new(seg);
  double*     w = zeros(seg);
  s.p           = zeros(s.n_bins);
  for (size_t i = 0U; i < seg; ++i) {
    w[i] = 0.5 - (0.5 * cos(2.0 * P4D_PI * (double)i / (double)seg));
  }
  size_t n_seg = 0U;
  for (size_t at = 0U; at + seg <= n; at += seg / 2U, ++n_seg) {
    for (size_t i = 0U; i < seg; ++i) {
      f.re[i] = x[at + i] * w[i];
      f.im[i] = 0.0;
    }
    p4d_fft_run(&f);
    for (size_t k = 0U; k < s.n_bins; ++k) {
      const double m = (f.re[k] * f.re[k]) + (f.im[k] * f.im[k]);
      s.p[k] += (k == 0U || k == seg / 2U) ? m : 2.0 * m;
    }
  }
  for (size_t k = 0U; k < s.n_bins; ++k) {
    s.p[k] /= (double)(n_seg ? n_seg : 1U);
  }
  free(w);
  p4d_fft_free(&f);
  return s;
}

double
p4d_band_power(const P4dSpectrum* s, double lo_hz, double hi_hz)
{
  double sum = 0.0;
  for (size_t k = 0U; k < s->n_bins; ++k) {
    const double f = (double)k * s->bin_hz;
    sum += (f >= lo_hz && f < hi_hz) ? s->p[k] : 0.0;
  }
  return sum;
}

void
p4d_spectrum_free(P4dSpectrum* s)
{
  free(s->p);
  s->p = NULL;
}
