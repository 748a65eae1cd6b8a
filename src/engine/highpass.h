// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file highpass.h
   The Noise engine's high-pass: a 2nd-order Butterworth section that keeps
   sub-audio energy out, and the staggering that keeps the output a function
   of a bounded past (see src/engine/engine.c, Noise high-pass).  Internal to
   the engines; the tests and the benchmark read the design from here.
*/

#ifndef P4D_HIGHPASS_H
#define P4D_HIGHPASS_H

#include <stdint.h>

/// Cut-off: |H|^2 = r^4 / (1 + r^4), r = f / fc, takes 24 dB off the power
/// at 3 Hz (12 dB more per halving below) and 0.11 dB at 30 Hz.
#define P4D_HIGHPASS_HZ 12.0

/// Filters staggered per channel: each restarts every 4Q frames, Q apart.
#define P4D_HIGHPASS_FILTERS 4

/**
   P = 3Q, how long a filter runs before it is used: 16 time constants of
   its slowest decay (1 / (0.707 * 2 pi 12 Hz) = 18.8 ms), so a start
   transient is more than 130 dB down when it takes over.
*/
#define P4D_HIGHPASS_AGE_S 0.3

/// Coefficients: b = (b0, -2 b0, b0), a = (1, a1, a2).
typedef struct {
  double b0;
  double a1;
  double a2;
} P4dHighpass;

/// State of one section (direct form I).
typedef struct {
  double x1, x2, y1, y2;
} P4dBiquad;

/**
   The section at sample_rate_hz, by the bilinear transform with K = pi fc
   / fs: tan() would only move the cut-off by (pi fc / fs)^2 / 3, 0.05 % at
   1 kHz, and needs libm.  Deterministic.
*/
static inline P4dHighpass
p4d_highpass_design(double sample_rate_hz)
{
  const double k    = 3.14159265358979323846 * P4D_HIGHPASS_HZ / sample_rate_hz;
  const double root = 1.41421356237309504880 * k;
  const double b0   = 1.0 / (1.0 + root + k * k);
  const P4dHighpass h = { b0,
                          2.0 * (k * k - 1.0) * b0,
                          (1.0 - root + k * k) * b0 };
  return h;
}

/// One step of section f on input x; returns the output.  Realtime safe.
static inline double
p4d_highpass_step(const P4dHighpass* h, P4dBiquad* f, double x)
{
  const double y =
    h->b0 * ((x - 2.0 * f->x1) + f->x2) - h->a1 * f->y1 - h->a2 * f->y2;
  f->x2 = f->x1;
  f->x1 = x;
  f->y2 = f->y1;
  // A state that has decayed this far is rest: no denormals in silence.
  f->y1 = (y < 0.0 ? -y : y) < 1.0e-100 ? 0.0 : y;
  return y;
}

/**
   Filter m frames of two channels, buf[0] and buf[1], in place through
   their banks of P4D_HIGHPASS_FILTERS staggered sections, whose restarts
   are q frames apart: phase is the first frame's place in the cycle of
   P4D_HIGHPASS_FILTERS * q frames.  Filter j of a channel restarts from
   rest when the cycle reaches j q; the output is the filter that restarts
   next (it has run 3q to 4q frames).  Realtime safe.
*/
void
p4d_highpass_bank_run(const P4dHighpass* h,
                      P4dBiquad          bank[][P4D_HIGHPASS_FILTERS],
                      int64_t            q,
                      int64_t            phase,
                      float* const       buf[2],
                      uint32_t           m);

#endif // P4D_HIGHPASS_H
