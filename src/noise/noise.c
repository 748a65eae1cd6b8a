// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Improved Perlin noise in 4D.

  A point p splits into its lattice cell c = floor(p) and its fraction
  f = p - c.  Each of the 16 corners of the cell's hypercube gets a pseudo
  random gradient; the noise is the quintic-faded multilinear blend of the 16
  dot products gradient . (p - corner).  At a lattice point every fraction
  is 0, so the blend picks one dot product with a zero offset: exactly 0.

  Gradients.  The 32 vectors from the centre of the 4D hypercube to the
  centres of its edges: one coordinate 0, the other three +-1.  Dot products
  with them are three additions of +-offsets, no multiplication.  Gradient
  index g (0..31): the axis g >> 3 is the zero one; bits 2, 1, 0 negate the
  remaining axes in ascending order.

  Fade.  6t^5 - 15t^4 + 10t^3 has zero first and second derivatives at 0
  and 1, so the noise is C2 across cell faces (no creases in the spectrum).

  Hash.  The 256-entry permutation table of the reference noise repeats every
  256 cells.  Here every corner's gradient is drawn from a hash of the seed
  and the full 64-bit cell coordinate of every axis, chained axis by axis
  (x, y, z, w) so that 2 + 4 + 8 + 16 links serve all 16 corners.  Each link
  folds the high half of the running hash onto the low half, mixes in the
  low 32 bits of the coordinate, multiplies by an odd constant and adds the
  high 32 bits; two xorshift-multiply rounds (lowbias32's) then carry every
  bit into the top 5, which pick the gradient.  Flipping any one input bit
  (of the seed or of any cell) flips each of those 5 bits with probability
  0.5 +- 0.006, so the lattice does not repeat within the coordinate range,
  and n(p) and n(p + 2^k) are uncorrelated on every axis (tests/test_hash.c).

  Periodic time.  For loops (p4d_noise4_loop()) the hash may see w's cell
  modulo a period P, floored so that negative cells wrap into [0, P) too:
  cells c and c + P then get the same gradients, and since the kernel uses
  a cell only through its hash, noise(w) and noise(w + P) are the same
  function, as smooth across a multiple of P as across any cell face (the
  upper corner of cell P - 1 is cell 0).  Tiles (p4d_noise4_tile()) wrap
  x, y and z the same way, each link of the chain by its own axis's
  period; an axis without one stays aperiodic.

  Precision.  Coordinates arrive as doubles; floor() and the subtraction are
  exact, so the fraction is exact before it is rounded once to float.  The
  rest is float arithmetic in a fixed order (the build disables contraction
  into fused multiply-adds; square root and division are correctly rounded),
  so every code path gives the same bits.

  Variance.  The gradients are independent and uniform over the 32, so
  E[g g^T] = 0.75 I, and the raw blend v = sum_c W_c g_c . (f - c) (W_c the
  product of the corner's fade weights, 1 - s or s with s = fade(f) on each
  axis) has variance 0.75 V(f), V = sum_c W_c^2 |f - c|^2.  V factorises
  over the axes:

    V = sum_b T(f_b) prod_{a != b} S(f_a),
    S(f) = (1-s)^2 + s^2,   T(f) = (1-s)^2 f^2 + s^2 (1-f)^2.

  Its cell average is 4 E[T] E[S]^3 = 4 * 0.059385 * 0.783550^3 = 0.1143.
  V vanishes at lattice points and swings by 13-20 dB along a line that
  passes near them, so the square of the raw noise pulses at the cell rate.

  Normalisation.  The output is n = G v / sqrt(V + e) with G = 1/4 and
  e = 2^-10 (P4D_NOISE_GAIN, P4D_NOISE_FLOOR), so E[n^2] = 0.75 G^2
  V / (V + e) is flat wherever V >> e.  The floor e is what keeps n smooth:
  v / sqrt(V) alone is bounded but not continuous at a lattice point (near
  one, v = g . f and V = |f|^2, a ratio that depends on the direction only),
  while with e, n = G g . f / sqrt(|f|^2 + e) there: a ramp through 0 within
  r0 = sqrt(e) = 1/32 cell, exactly 0 at the point, and C2 everywhere (S
  and T are symmetric about 1/2 with zero slope at 0 and 1, so V is C2
  across cell faces like the blend).  e is 0.85 % of V's cell average.  On a
  line parallel to w whose x, y and z fractions are each at least d from an
  integer, V >= about 3 d^2, so the level swings by at most 10 log10(1 +
  e / 3d^2) dB: 0.5 dB for d = 0.05 (a line 0.05 cells from the lattice on
  one axis only: 1.3 dB; without the normalisation 12 to 20 dB).  A
  larger e would leave a deeper dip; a smaller one a steeper ramp.  Near
  the lattice the normalisation necessarily trades smoothness for level:
  within 0.1 cell of a lattice line, -13 to -20 dB of an octave's energy
  lies above 2 cycles per cell (-40 dB far from it, or without it).

  Gain.  By Cauchy-Schwarz |v| <= sqrt(sum_c |g_c|^2) sqrt(V) = sqrt(48 V),
  and a hill climb over points and all 32^16 gradient configurations finds
  at most |v| = 6.97 sqrt(0.75 V) (near the cell centre, every gradient
  pointing inwards).  G = 1/4 gives the standard deviation
  G sqrt(0.75 E[V / (V + e)]) = 0.25 sqrt(0.75 * 0.99103) = 0.2155
  (P4D_NOISE_STD; 10^9 random points measure 0.21554), about the old
  output's, and n passes 1 only where |v| > 4 sqrt(V + e), beyond 4.6
  standard deviations of the blend: 5 of 10^9 random points are clamped
  (G = 1/sqrt(48) would never clamp, at half the level).

  Lipschitz bound.  The gradient of n is G (grad v / q - v grad V / 2q^3),
  q = sqrt(V + e), linear in each corner's gradient; so for a point and a
  direction the steepest configuration picks each corner's gradient on its
  own.  A hill climb over points and directions (20000 starts) finds the
  steepest slope at a lattice point, where grad v = g and grad V = 0:
  G |g| / sqrt(e) = sqrt(3) 32 / 4 = 13.856 per cell, P4D_NOISE_LIPSCHITZ
  (at the cell centre: 5.6).  Clamping never increases a slope.
*/

#include "noise.h"
#include "kernel.h"

#include <stddef.h>
#include <stdint.h>

/// The noise in the cell c at fraction f, for a key from seed_key(), each
/// axis periodic over its checked period (0: aperiodic).
static inline float
kernel(uint32_t       key,
       const uint64_t c[4],
       const float    f[4],
       const uint64_t period[4])
{
  float u[4];
  float d[2][4];
  for (unsigned k = 0U; k < 4U; ++k) {
    u[k]    = fade(f[k]);
    d[0][k] = f[k];
    d[1][k] = f[k] - 1.0f;
  }

  // Chain the hash through the axes, x to w.
  uint32_t h[16];
  hash_corners(key, c, 4U, period, h);

  float v[16];
  P4D_UNROLL
  for (unsigned i = 0U; i < 16U; ++i) {
    v[i] = gradient_dot(hash_gradient(h[i]),
                        d[i & 1U][0],
                        d[(i >> 1U) & 1U][1],
                        d[(i >> 2U) & 1U][2],
                        d[(i >> 3U) & 1U][3]);
  }

  // Blend along x, then y, z and w: 8 + 4 + 2 + 1 lerps; fold the
  // variance in the same order.
  float var_p = variance_s(u[0]);
  float var_t = variance_t(d[0][0], d[1][0], u[0]);
  P4D_UNROLL
  for (unsigned k = 0U, n = 8U; k < 4U; ++k, n >>= 1U) {
    P4D_UNROLL
    for (size_t i = 0U; i < n; ++i) {
      v[i] = lerp(u[k], v[2U * i], v[2U * i + 1U]);
    }
    if (k > 0U) {
      variance_fold(
        &var_p, &var_t, variance_s(u[k]), variance_t(d[0][k], d[1][k], u[k]));
    }
  }

  return normalise(v[0], var_t);
}

/// The noise at point p with checked periods.
static inline float
noise_at(uint32_t key, const double p[4], const uint64_t period[4])
{
  uint64_t c[4];
  float    f[4];
  for (unsigned k = 0U; k < 4U; ++k) {
    split(p[k], &c[k], &f[k]);
  }

  return kernel(key, c, f, period);
}

float
p4d_noise4(uint32_t seed, double x, double y, double z, double w)
{
  const double   p[4]      = { x, y, z, w };
  const uint64_t period[4] = { 0U, 0U, 0U, 0U };
  return noise_at(seed_key(seed), p, period);
}

float
p4d_noise4_loop(uint32_t seed,
                double   x,
                double   y,
                double   z,
                double   w,
                uint64_t w_period)
{
  const double   p[4]      = { x, y, z, w };
  const uint64_t period[4] = { 0U, 0U, 0U, p4d_noise_period(w_period) };
  return noise_at(seed_key(seed), p, period);
}

float
p4d_noise4_tile(uint32_t       seed,
                double         x,
                double         y,
                double         z,
                double         w,
                const uint64_t period[4])
{
  const double p[4] = { x, y, z, w };
  uint64_t     checked[4];
  p4d_noise_periods(period, checked);
  return noise_at(seed_key(seed), p, checked);
}

void
p4d_noise_span_scalar(uint32_t       key,
                      const double   origin[4],
                      const double   step[4],
                      int64_t        first,
                      float*         out,
                      size_t         n,
                      const uint64_t period[4])
{
  for (size_t i = 0U; i < n; ++i) {
    const double t = (double)(first + (int64_t)i);
    double       p[4];
    for (unsigned k = 0U; k < 4U; ++k) {
      p[k] = origin[k] + t * step[k];
    }

    out[i] = noise_at(key, p, period);
  }
}

void
p4d_noise_points_scalar(uint32_t key,
                        const double (*p)[4],
                        float*         out,
                        size_t         n,
                        const uint64_t period[4])
{
  for (size_t i = 0U; i < n; ++i) {
    out[i] = noise_at(key, p[i], period);
  }
}
