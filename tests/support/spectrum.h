// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file spectrum.h
   A radix-2 FFT and the Welch power spectrum built on it, shared by the
   texture figures (tests/support/texture_figures.c) and signal-bench, so
   that both measure with the same transform.  Not realtime safe: these
   allocate, and exit the program when memory runs out.
*/

#ifndef P4D_TEST_SPECTRUM_H
#define P4D_TEST_SPECTRUM_H

#include <stddef.h>

/// An n-point FFT: its data re, im (transformed in place) and twiddles.
typedef struct {
  size_t  n;     ///< Points, a power of 2
  double* re;    ///< Real parts, n
  double* im;    ///< Imaginary parts, n
  double* tw_re; ///< cos(2 pi k / n), n / 2
  double* tw_im; ///< -sin(2 pi k / n), n / 2
} P4dFft;

/// A one-sided power spectrum: n_bins bins bin_hz apart.
typedef struct {
  size_t  n_bins; ///< Bins from 0 Hz to Nyquist, both included
  double  bin_hz; ///< Width of a bin
  double* p;      ///< Power per bin, the mean over segments
} P4dSpectrum;

/**
   An n-point FFT (n a power of 2) with its data zeroed.  Free it with
   p4d_fft_free().
*/
P4dFft
p4d_fft_new(size_t n);

/// Transform f->re, f->im in place (forward, unscaled).
void
p4d_fft_run(P4dFft* f);

/// Free what p4d_fft_new() allocated.
void
p4d_fft_free(P4dFft* f);

/**
   The Welch power spectrum of x[0..n) sampled at rate_hz: Hann segments
   of seg samples (a power of 2), 50 % overlap, one-sided (the bins
   between 0 Hz and Nyquist doubled), averaged over the segments.  Free it
   with p4d_spectrum_free().
*/
P4dSpectrum
p4d_welch(const double* x, size_t n, size_t seg, double rate_hz);

/// The power of s in [lo_hz, hi_hz).
double
p4d_band_power(const P4dSpectrum* s, double lo_hz, double hi_hz);

/// Free what p4d_welch() allocated.
void
p4d_spectrum_free(P4dSpectrum* s);

#endif // P4D_TEST_SPECTRUM_H
