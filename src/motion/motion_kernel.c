// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

// The windowed-sinc table of Motion's delay line read (motion_kernel.h).

#include "motion_kernel.h"

#include "exact_math.h"

#include <math.h>
#include <stdint.h>

#define P4D_PI 3.14159265358979323846

/// I0(x), the modified Bessel function of order 0, by its series (its
/// terms (x / 2)^2m / m!^2 until they stop counting).
static double
bessel_i0(double x)
{
  const double q    = 0.25 * x * x;
  double       term = 1.0;
  double       sum  = 1.0;
  for (unsigned m = 1U; m < 200U && term > sum * 1.0e-18; ++m) {
    term *= q / ((double)m * (double)m);
    sum += term;
  }
  return sum;
}

/// sin(pi f) for f in [0, 1].
static double
sin_pi(double f)
{
  return f <= 0.5 ? p4d_exact_quarter_sin(2.0 * f)
                  : p4d_exact_quarter_sin(2.0 - 2.0 * f);
}

/// The weights of fraction f (0 <= f <= 1) into h.
static void
weights(double f, double* h)
{
  const double half = 0.5 * (double)P4D_MOTION_TAPS;
  if (f == 0.0 || f == 1.0) {
    // Whole: the unit impulse at the point f frames past the centre.
    for (unsigned k = 0U; k < P4D_MOTION_TAPS; ++k) {
      h[k] = 0.0;
    }
    h[P4D_MOTION_TAPS / 2U - (f == 1.0 ? 1U : 0U)] = 1.0;
    return;
  }
  const double s    = sin_pi(f);
  const double i0_b = bessel_i0(P4D_MOTION_KAISER_BETA);
  for (unsigned k = 0U; k < P4D_MOTION_TAPS; ++k) {
    // x = k - TAPS / 2 + f: sin(pi x) = (-1)^k sin(pi f) (TAPS / 2 even).
    const double x    = (double)k - half + f;
    const double r    = x / half;
    const double rest = 1.0 - r * r;
    const double win =
      rest > 0.0 ? bessel_i0(P4D_MOTION_KAISER_BETA * sqrt(rest)) / i0_b : 0.0;
    const double sinc = ((k & 1U) ? -s : s) / (P4D_PI * x);
    h[k]              = sinc * win;
  }
}

void
p4d_motion_kernel_fill(double* kernel)
{
  double next[P4D_MOTION_TAPS];
  weights(0.0, next);
  for (unsigned p = 0U; p < P4D_MOTION_PHASES; ++p) {
    double* const row = kernel + (size_t)p * P4D_MOTION_ROW;
    for (unsigned k = 0U; k < P4D_MOTION_TAPS; ++k) {
      row[k] = next[k];
    }
    weights((double)(p + 1U) / (double)P4D_MOTION_PHASES, next);
    for (unsigned k = 0U; k < P4D_MOTION_TAPS; ++k) {
      row[P4D_MOTION_TAPS + k] = next[k] - row[k];
    }
  }
}
