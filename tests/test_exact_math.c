// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The engines' deterministic maths (src/maths/exact_math.h) against libm: exp,
  the quarter-turn sine and cosine, the normal CDF and its table (accuracy,
  increasing, continuous at the knots), the quintic ramp, x^(12/5) and the
  picture writers' sRGB decode (every float against libm's pow).
*/

#undef NDEBUG

#include "exact_math.h"
#include "pixels.h"
#include "ramp.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
test_exp(void)
{
  double worst = 0.0;
  for (long i = 0; i <= 191000L; ++i) {
    const double x = -699.0 + 0.00731 * (double)i;
    worst          = fmax(worst, fabs(p4d_exact_exp(x) / exp(x) - 1.0));
  }
  printf("# exp: largest relative error %.2g over [-699, 700]\n", worst);
  assert(worst < 1.0e-15);
  assert(p4d_exact_exp(0.0) == 1.0);
  assert(p4d_exact_exp(-1000.0) == 0.0 && p4d_exact_exp(NAN) == 0.0);
  assert(isfinite(p4d_exact_exp(1.0e300)));
}

static void
test_quarter_turn(void)
{
  double worst = 0.0;
  double power = 0.0;
  for (long i = 0; i <= 100000L; ++i) {
    const double a = 1.0e-5 * (double)i;
    const double s = p4d_exact_quarter_sin(a);
    const double c = p4d_exact_quarter_cos(a);
    worst          = fmax(worst, fabs(s - sin(1.57079632679489661923 * a)));
    worst          = fmax(worst, fabs(c - cos(1.57079632679489661923 * a)));
    power          = fmax(power, fabs(s * s + c * c - 1.0));
  }
  printf("# quarter-turn sin, cos: largest error %.2g, |sin^2 + cos^2 - 1| "
         "<= %.2g\n",
         worst,
         power);
  assert(worst < 1.0e-14 && power < 1.0e-14);
  assert(p4d_exact_quarter_sin(0.0) == 0.0);
  assert(p4d_exact_quarter_cos(1.0) == 0.0);
  assert(p4d_ramp_quintic(0.0) == 0.0 && p4d_ramp_quintic(1.0) == 1.0);
  assert(p4d_ramp_quintic(0.5) == 0.5);
}

static void
test_normal_cdf(void)
{
  P4dPhiTable* table = (P4dPhiTable*)malloc(sizeof(P4dPhiTable));
  assert(table);
  p4d_exact_phi_fill(table);

  double worst  = 0.0;
  double tail   = 0.0;
  double interp = 0.0;
  double last   = -1.0;
  for (long i = 0; i <= 2000000L; ++i) {
    const double z    = -10.0 + 1.0e-5 * (double)i;
    const double want = 0.5 * erfc(-z * 0.70710678118654752440);
    const double f    = p4d_exact_normal_cdf(z);
    const double t    = p4d_exact_phi(table, z);
    worst             = fmax(worst, fabs(f - want));
    if (z < 0.0) {
      tail = fmax(tail, fabs(f / want - 1.0));
    }
    interp = fmax(interp, fabs(t - want));
    assert(t >= last); // increasing
    last = t;
  }

  // Continuous at the knots: the pieces meet.
  double step = 0.0;
  for (int k = 1; k < P4D_EXACT_PHI_PIECES; ++k) {
    const double z = -P4D_EXACT_PHI_RANGE + (double)k / P4D_EXACT_PHI_STEPS;
    step           = fmax(step,
                fabs(p4d_exact_phi(table, z) -
                     p4d_exact_phi(table, nextafter(z, -INFINITY))));
  }
  printf("# normal CDF: largest error %.2g (relative %.2g in the lower "
         "tail); table %.2g; largest step at a knot %.2g\n",
         worst,
         tail,
         interp,
         step);
  assert(worst < 1.0e-7 && tail < 3.0e-7 && interp < 1.0e-7);
  assert(step < 1.0e-15);
  assert(p4d_exact_normal_cdf(0.0) == 0.5);
  free(table);
}

static void
test_short_set(void)
{
  double worst_exp = 0.0;
  for (long i = 0; i <= 60000L; ++i) {
    const double x = -40.0 + 0.001 * (double)i;
    worst_exp = fmax(worst_exp, fabs(p4d_exact_exp_short(x) / exp(x) - 1.0));
  }
  double worst_sin = 0.0;
  for (long i = 0; i <= 100000L; ++i) {
    const double a = 1.0e-5 * (double)i;
    worst_sin      = fmax(
      worst_sin,
      fabs(p4d_exact_quarter_sin_short(a) - sin(1.57079632679489661923 * a)));
  }
  double worst_tan = 0.0;
  for (long i = 1; i <= 90000L; ++i) {
    const double a    = 1.0e-5 * (double)i;
    const double want = tan(1.57079632679489661923 * a);
    worst_tan = fmax(worst_tan, fabs(p4d_exact_quarter_tan(a) / want - 1.0));
  }
  printf("# short set: exp relative error %.2g over [-40, 20], quarter-turn "
         "sin error %.2g, tan relative error %.2g over (0, 0.9]\n",
         worst_exp,
         worst_sin,
         worst_tan);
  assert(worst_exp < 4.0e-13 && worst_sin < 7.0e-10 && worst_tan < 2.0e-10);
  assert(p4d_exact_exp_short(0.0) == 1.0);
  assert(p4d_exact_quarter_sin_short(0.0) == 0.0);
}

/// x's distance from y in units in the last place of y (a double).
static double
double_ulps(double x, double y)
{
  return fabs(x - y) / (nextafter(y, INFINITY) - y);
}

static void
test_pow_12_5(void)
{
  // Known answers: the exact powers (80 digits) rounded to nearest.
  static const double known[][2] = {
    { 0x1p-4, 0x1.51cb453b9536cp-10 },
    { 0x1.999999999999ap-4, 0x1.04e74cc73ee88p-8 },
    { 0x1p-2, 0x1.2611186bae675p-5 },
    { 0x1p-1, 0x1.8406003b2ae5cp-3 },
    { 0x1.8p-1, 0x1.00b1db650994ap-1 },
    { 0x1p+0, 0x1p+0 },
    { 0x1.8p+0, 0x1.52b5f444a9798p+1 },
    { 0x1p+1, 0x1.51cb453b9536cp+2 },
  };
  for (size_t i = 0U; i < sizeof(known) / sizeof(known[0]); ++i) {
    assert(p4d_exact_pow_12_5(known[i][0]) == known[i][1]);
  }

  // libm's pow(x, 2.4) raises to 12/5 - 0x1.999999999999ap-54 (the double
  // nearest 2.4), up to 2 ulp below x^(12/5) over the range: put that
  // back (x^(12/5) = x^2.4 (1 + 0x1.999999999999ap-54 ln x)).
  double worst = 0.0;
  double raw   = 0.0;
  for (long i = 0; i <= 1000000L; ++i) {
    const double x    = 0.0625 + 1.9375e-6 * (double)i;
    const double libm = pow(x, 2.4);
    const double got  = p4d_exact_pow_12_5(x);
    raw               = fmax(raw, double_ulps(got, libm));
    worst             = fmax(
      worst, double_ulps(got, libm + libm * (0x1.999999999999ap-54 * log(x))));
  }
  printf("# x^(12/5) over [1/16, 2]: within %.2g ulp of libm's pow(x, 2.4) "
         "corrected to 12/5, %.2g ulp of pow(x, 2.4)\n",
         worst,
         raw);
  assert(worst <= 1.0 && raw <= 3.0);
}

/// x's distance from y in units in the last place of y (a float).
static double
float_ulps(float x, float y)
{
  return fabs((double)x - (double)y) /
         ((double)nextafterf(y, INFINITY) - (double)y);
}

static void
test_srgb_decode(void)
{
  // Every float from 1/32 to 1 (the foot, c / 12.92 below 0.04045, is
  // the same expression as before), against the decode with libm's pow
  // that the EXR writer used: the same float for each.
  double   worst = 0.0;
  long     n     = 0;
  long     apart = 0;
  float    c     = 0.03125f;
  uint32_t bits  = 0U;
  memcpy(&bits, &c, sizeof(bits));
  for (; c <= 1.0f; ++bits, memcpy(&c, &bits, sizeof(c))) {
    const float want =
      c <= 0.04045f ? c / 12.92f : (float)pow((c + 0.055) / 1.055, 2.4);
    const float got = p4d_pixel_linear(c);
    worst           = fmax(worst, float_ulps(got, want));
    apart += got != want;
    ++n;
  }
  printf("# sRGB decode: %ld floats in [1/32, 1], %ld apart from libm's pow, "
         "worst %.0f float ulp\n",
         n,
         apart,
         worst);
  assert(apart == 0 && worst == 0.0);
  assert(p4d_pixel_linear(1.0f) == 1.0f && p4d_pixel_linear(0.0f) == 0.0f);
}

int
main(void)
{
  test_exp();
  test_quarter_turn();
  test_normal_cdf();
  test_short_set();
  test_pow_12_5();
  test_srgb_decode();
  return 0;
}
