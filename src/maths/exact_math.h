// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file exact_math.h
   Deterministic maths for the engines, Motion and the picture writers:
   exp, the sine, cosine and tangent of up to a quarter turn, x^(12/5) (the
   sRGB curve) and the standard normal CDF (and a fast table of it) (and
   the sine behind Motion's windowed-sinc read, motion_kernel.h), written
   with +, -, * and /
   (and sqrt, which IEEE 754 rounds correctly) in a fixed order (the build
   disables contraction), so that every machine and every libm gives the
   same bits.  libm's exp, sin, pow or erf may differ in the last bit
   between versions and machines; the outputs must not.  "Exact" means the bits
   are reproducible, not that the values are: each function states its error.

   Two sets: the full ones for the engines' signals (exp and the
   quarter-turn sine and cosine within 5e-16, the normal CDF within 6e-8);
   and the short ones (the _short suffix, and p4d_exact_quarter_tan),
   fewer terms where an audio law needs no more (Motion's gain, pan and
   filter).  The vector paths repeat some of them lane by lane
   (src/motion/motion_block.h, src/engine/phi_map.h) and must keep their
   bits.  The smoothing laws are apart, in ramp.h.

   All functions are pure and thread safe, and all but
   p4d_exact_phi_fill() realtime safe.  Internal to the engines and the
   renderer.
*/

#ifndef P4D_EXACT_MATH_H
#define P4D_EXACT_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/**
   e^x, relative error below 2e-16 over [-700, 700]; smaller x gives 0,
   larger x e^700, NaN gives 0.

   x = k ln 2 + r with |r| <= ln 2 / 2 (Cody and Waite's split of ln 2 into
   a part with trailing zeros, so k ln2_hi is exact, and the rest); e^r by
   its Taylor series to r^13 (the next term is below 4e-18); 2^k by building
   the double's exponent field.
*/
static inline double
p4d_exact_exp(double x)
{
  if (!(x > -700.0)) {
    return 0.0;
  }
  if (x > 700.0) {
    x = 700.0;
  }

  const double  ln2_hi = 6.93147180369123816490e-01;
  const double  ln2_lo = 1.90821492927058770002e-10;
  const double  y      = x * 1.44269504088896338700e+00;
  const int64_t k      = (int64_t)(y < 0.0 ? y - 0.5 : y + 0.5);
  const double  kd     = (double)k;
  const double  r      = (x - kd * ln2_hi) - kd * ln2_lo;

  double p = 1.0 / 6227020800.0;
  p        = p * r + 1.0 / 479001600.0;
  p        = p * r + 1.0 / 39916800.0;
  p        = p * r + 1.0 / 3628800.0;
  p        = p * r + 1.0 / 362880.0;
  p        = p * r + 1.0 / 40320.0;
  p        = p * r + 1.0 / 5040.0;
  p        = p * r + 1.0 / 720.0;
  p        = p * r + 1.0 / 120.0;
  p        = p * r + 1.0 / 24.0;
  p        = p * r + 1.0 / 6.0;
  p        = p * r + 0.5;
  p        = p * r + 1.0;
  p        = p * r + 1.0;

  const uint64_t bits  = (uint64_t)(k + 1023) << 52U;
  double         scale = 0.0;
  memcpy(&scale, &bits, sizeof(scale));
  return p * scale;
}

/**
   sin(pi a / 2) for a in [0, 1]: the Taylor series of sin x to x^19 in
   nested form (the next term is below 3e-16 at x = pi / 2).  Exactly 0 at
   a = 0.
*/
static inline double
p4d_exact_quarter_sin(double a)
{
  const double x  = a * 1.57079632679489661923;
  const double x2 = x * x;
  double       p  = 1.0 - x2 / 342.0;
  p               = 1.0 - x2 / 272.0 * p;
  p               = 1.0 - x2 / 210.0 * p;
  p               = 1.0 - x2 / 156.0 * p;
  p               = 1.0 - x2 / 110.0 * p;
  p               = 1.0 - x2 / 72.0 * p;
  p               = 1.0 - x2 / 42.0 * p;
  p               = 1.0 - x2 / 20.0 * p;
  p               = 1.0 - x2 / 6.0 * p;
  return x * p;
}

/// cos(pi a / 2) for a in [0, 1], as sin(pi (1 - a) / 2): exactly 0 at 1.
static inline double
p4d_exact_quarter_cos(double a)
{
  return p4d_exact_quarter_sin(1.0 - a);
}

/**
   e^x for x in [-40, 20] (the dB and octave laws' range), the short
   series: as p4d_exact_exp(), with e^r by its Taylor series to r^10
   (relative error below 4e-13, where p4d_exact_exp()'s 13 terms reach
   2e-16 for no audible gain), summed by Estrin's scheme (the pairs in
   parallel, not one chain of 10 steps).
*/
static inline double
p4d_exact_exp_short(double x)
{
  const double  y  = x * 1.44269504088896338700;
  const int64_t k  = (int64_t)(y < 0.0 ? y - 0.5 : y + 0.5);
  const double  kd = (double)k;
  const double  r =
    (x - kd * 6.93147180369123816490e-01) - kd * 1.90821492927058770002e-10;
  const double r2 = r * r;
  const double r4 = r2 * r2;
  const double a  = 1.0 + r;
  const double b  = 0.5 + r * (1.0 / 6.0);
  const double c  = 1.0 / 24.0 + r * (1.0 / 120.0);
  const double d  = 1.0 / 720.0 + r * (1.0 / 5040.0);
  const double e  = 1.0 / 40320.0 + r * (1.0 / 362880.0);
  const double p =
    (a + r2 * b) + r4 * ((c + r2 * d) + r4 * (e + r2 * (1.0 / 3628800.0)));
  const uint64_t bits  = (uint64_t)(k + 1023) << 52U;
  double         scale = 0.0;
  memcpy(&scale, &bits, sizeof(scale));
  return p * scale;
}

/**
   sin(pi a / 2) for a in [0, 1], the short series: Taylor to x^13 with
   the reciprocals folded into constants (error below 7e-10, -180 dB: a
   pan gain; p4d_exact_quarter_sin() divides 9 times), by Estrin's scheme
   (short dependency chains, the terms in parallel).  Exactly 0 at a = 0.
*/
static inline double
p4d_exact_quarter_sin_short(double a)
{
  const double x  = a * 1.57079632679489661923;
  const double x2 = x * x;
  const double x4 = x2 * x2;
  const double s0 = 1.0 - x2 * (1.0 / 6.0);
  const double s1 = 1.0 / 120.0 - x2 * (1.0 / 5040.0);
  const double s2 = 1.0 / 362880.0 - x2 * (1.0 / 39916800.0);
  const double p  = s0 + x4 * (s1 + x4 * (s2 + x4 * (1.0 / 6227020800.0)));
  return x * p;
}

/**
   tan(pi a / 2) for a in (0, 0.9]: the Taylor series of sin and cos to
   x^13 and x^16 (relative error below 2e-10: a filter cutoff 2e-10 off),
   multiplications and one division.
*/
static inline double
p4d_exact_quarter_tan(double a)
{
  const double x  = a * 1.57079632679489661923;
  const double x2 = x * x;
  double       s  = 1.0 / 6227020800.0;
  s               = s * -x2 + 1.0 / 39916800.0;
  s               = s * -x2 + 1.0 / 362880.0;
  s               = s * -x2 + 1.0 / 5040.0;
  s               = s * -x2 + 1.0 / 120.0;
  s               = s * -x2 + 1.0 / 6.0;
  s               = s * -x2 + 1.0;
  double c        = 1.0 / 20922789888000.0;
  c               = c * -x2 + 1.0 / 87178291200.0;
  c               = c * -x2 + 1.0 / 479001600.0;
  c               = c * -x2 + 1.0 / 3628800.0;
  c               = c * -x2 + 1.0 / 40320.0;
  c               = c * -x2 + 1.0 / 720.0;
  c               = c * -x2 + 1.0 / 24.0;
  c               = c * -x2 + 0.5;
  c               = c * -x2 + 1.0;
  return x * s / c;
}

/**
   The product a b as an unevaluated sum *hi + *lo, exactly (Dekker's
   product: each factor split by Veltkamp's 2^27 + 1 into two halves of 26
   bits, whose products are exact), for |a b| well inside the double's
   range.  With contraction off, as the build has it, + - * give this on
   every machine; no fused multiply-add is needed.
*/
static inline void
p4d_exact_two_product(double a, double b, double* hi, double* lo)
{
  const double split = 134217729.0;
  const double ca    = split * a;
  const double a1    = ca - (ca - a);
  const double a2    = a - a1;
  const double cb    = split * b;
  const double b1    = cb - (cb - b);
  const double b2    = b - b1;
  *hi                = a * b;
  *lo                = ((a1 * b1 - *hi) + a1 * b2 + a2 * b1) + a2 * b2;
}

/**
   x^(12/5) for x in [1/16, 2] (the exponent of the sRGB curve), within
   0.5 ulp and 1e-30 relative of the exact value: correctly rounded but
   where the exact value lies that close to the middle of two doubles.

   x^(12/5) = x^2 y with y = x^(2/5), the root of y^5 = x^2.  y starts at
   a quadratic in sqrt(x) (fitted to x^(2/5) over the range: within 1.6%);
   Newton's step y <- (4 y + x^2 / y^4) / 5 squares the relative error
   (times 2), so four steps leave only rounding (below 1e-15); a fifth
   step in double-double arithmetic (the residual y^5 - x^2 formed with
   exact products) corrects y to about 1e-30, and x^2 y is summed from
   exact products, so the one rounding left is the last.

   libm's pow(x, 2.4) computes x to the double nearest 2.4, which is
   8.9e-17 below 12/5: its result may differ from this one in the last
   bit of the double, and rounded to a float it does not (test
   exact_math: every float sRGB value).
*/
static inline double
p4d_exact_pow_12_5(double x)
{
  const double s = sqrt(x);
  double       y = 0.08380958 + s * (1.03438021 - s * 0.11598911);
  const double a = x * x;
  for (unsigned i = 0U; i < 4U; ++i) {
    const double y2 = y * y;
    y               = (4.0 * y + a / (y2 * y2)) / 5.0;
  }

  double a_hi  = 0.0;
  double a_lo  = 0.0;
  double y2    = 0.0;
  double y2_lo = 0.0;
  double y4    = 0.0;
  double y4_lo = 0.0;
  double y5    = 0.0;
  double y5_lo = 0.0;
  p4d_exact_two_product(x, x, &a_hi, &a_lo);
  p4d_exact_two_product(y, y, &y2, &y2_lo);
  p4d_exact_two_product(y2, y2, &y4, &y4_lo);
  y4_lo += 2.0 * y2 * y2_lo;
  p4d_exact_two_product(y4, y, &y5, &y5_lo);
  y5_lo += y4_lo * y;
  // y5 and a are within a factor of 2: their difference is exact.
  const double d = ((y5 - a_hi) + (y5_lo - a_lo)) / (5.0 * y4);

  double p    = 0.0;
  double p_lo = 0.0;
  p4d_exact_two_product(a_hi, y, &p, &p_lo);
  return p + ((p_lo + a_lo * y) - a_hi * d);
}

/// The Chebyshev fit in p4d_exact_normal_cdf(): log(erfc(x) / t) + x^2.
static inline double
p4d_exact_erfc_fit(double t)
{
  double p = 0.17087277;
  p        = p * t - 0.82215223;
  p        = p * t + 1.48851587;
  p        = p * t - 1.13520398;
  p        = p * t + 0.27886807;
  p        = p * t - 0.18628806;
  p        = p * t + 0.09678418;
  p        = p * t + 0.37409196;
  p        = p * t + 1.00002368;
  return p * t - 1.26551223;
}

/**
   The standard normal CDF Phi(z), relative error about 2e-7 in each tail,
   strictly increasing and with a continuous slope everywhere.

   Phi(z) = erfc(-z / sqrt 2) / 2, with erfc(x) for x >= 0 by the Chebyshev
   fit of Numerical Recipes (erfcc: t = 1 / (1 + x / 2), erfc(x) =
   t e^(-x^2 + fit(t)), fractional error below 1.2e-7 for every x >= 0),
   divided by its value at x = 0 so that it is exactly 1 there and the
   reflection Phi(-z) = 1 - Phi(z) joins without a step; slopes match at 0
   by symmetry.
*/
static inline double
p4d_exact_normal_cdf(double z)
{
  const double x = (z < 0.0 ? -z : z) * 0.70710678118654752440;
  const double t = 1.0 / (1.0 + 0.5 * x);
  const double e =
    t *
    p4d_exact_exp(-x * x + (p4d_exact_erfc_fit(t) - p4d_exact_erfc_fit(1.0)));
  return z < 0.0 ? 0.5 * e : 1.0 - 0.5 * e;
}

/// The table of Phi spans [-P4D_EXACT_PHI_RANGE, P4D_EXACT_PHI_RANGE] in
/// steps of 1 / P4D_EXACT_PHI_STEPS.
#define P4D_EXACT_PHI_RANGE 8
#define P4D_EXACT_PHI_STEPS 64
#define P4D_EXACT_PHI_PIECES (2 * P4D_EXACT_PHI_RANGE * P4D_EXACT_PHI_STEPS)

/// Phi as cubic pieces: c[k] are the coefficients of the piece k, in t.
typedef struct {
  double c[P4D_EXACT_PHI_PIECES][4];
} P4dPhiTable;

/**
   Fill a table of Phi: on each step the cubic Hermite polynomial through
   Phi and its slope at both ends, so that p4d_exact_phi() costs a lookup
   and three multiply-adds instead of an exp and two polynomials.  The
   interpolant is continuous with a continuous slope (neighbouring pieces
   share values and slopes), increasing, and within 6e-8 of Phi (the
   accuracy of p4d_exact_normal_cdf(); interpolation adds 2e-10).  Not
   realtime: 32 KiB of work, once per engine.
*/
static inline void
p4d_exact_phi_fill(P4dPhiTable* table)
{
  const double h  = 1.0 / P4D_EXACT_PHI_STEPS;
  double       y0 = 0.0;
  double       m0 = 0.0;
  for (unsigned i = 0U; i <= P4D_EXACT_PHI_PIECES; ++i) {
    const double z  = -P4D_EXACT_PHI_RANGE + (double)i * h;
    const double y1 = p4d_exact_normal_cdf(z);
    // The slope over one step: h times the normal density.
    const double m1 = h * 0.39894228040143267794 * p4d_exact_exp(-0.5 * z * z);
    if (i > 0U) {
      double* const c = table->c[i - 1U];
      c[0]            = y0;
      c[1]            = m0;
      c[2]            = 3.0 * (y1 - y0) - 2.0 * m0 - m1;
      c[3]            = 2.0 * (y0 - y1) + m0 + m1;
    }
    y0 = y1;
    m0 = m1;
  }
}

/// Phi(z) from the table; the exact formula beyond +-8, where Phi is within
/// 1e-15 of an end.  Realtime safe.
static inline double
p4d_exact_phi(const P4dPhiTable* table, double z)
{
  const double u = (z + P4D_EXACT_PHI_RANGE) * P4D_EXACT_PHI_STEPS;
  if (!(u >= 0.0 && u < (double)P4D_EXACT_PHI_PIECES)) {
    return p4d_exact_normal_cdf(z);
  }

  const int           k = (int)u;
  const double        t = u - (double)k;
  const double* const c = table->c[k];
  return c[0] + t * (c[1] + t * (c[2] + t * c[3]));
}

#endif // P4D_EXACT_MATH_H
