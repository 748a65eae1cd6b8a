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
  and the full 32-bit cell coordinate of every axis, chained axis by axis
  (x, y, z, w) so that 2 + 4 + 8 + 16 multiplications serve all 16 corners.
  Each link folds the high half of the running hash onto the low half, mixes
  in the coordinate and multiplies by an odd constant; a final xorshift-
  multiply lets every bit reach the top 5 bits that pick the gradient.  The
  lattice therefore repeats only after 2^32 cells on an axis.

  Precision.  Coordinates arrive as doubles; floor() and the subtraction are
  exact, so the fraction is exact before it is rounded once to float.  The
  rest is float arithmetic in a fixed order (the build disables contraction
  into fused multiply-adds), so every code path gives the same bits.

  Output scale.  Each dot product is at most 3 in magnitude.  The largest
  raw blend, found by hill climbing over points and all 32^16 gradient
  configurations, is about 1.537 (near the cell centre with every gradient
  pointing inwards); 10^7 random points reach about 1.159 and have a
  standard deviation of about 0.293.  P4D_NOISE_SCALE = 0.86 maps that
  practical peak just below 1, so typical output uses the whole range with
  a standard deviation of about 0.25; the rare excess is clamped.

  Lipschitz bound.  The gradient of the blend is sum_c W_c g_c +
  sum_c L_c grad W_c (weights W_c, dot products L_c).  The same hill climb
  over points, directions and gradient configurations finds the largest
  directional slope of the raw blend at the cell centre: the fade's
  steepest slope (15/8) times a dot-product difference of 3, 45/8 = 5.625
  per cell.  Scaled, that is 4.8375: P4D_NOISE_LIPSCHITZ.  Clamping never
  increases a slope.
*/

#include "noise.h"

#include <math.h>

/// Unroll the kernel's small fixed loops: all indices become constants and
/// the 16 corners live in registers.  GCC and clang both read this pragma.
#define P4D_UNROLL _Pragma("GCC unroll 16")
#include <stdint.h>

/// Maps the raw blend's practical peak (about 1.159) just below 1.
#define P4D_NOISE_SCALE 0.86f

/// Odd multipliers of the hash chain, one for each axis link and the final.
static const uint32_t hash_mul[5] = {
  0x9E3779B1u, // 2^32 / golden ratio
  0x85EBCA77u, // xxHash prime 2
  0xC2B2AE3Du, // xxHash prime 3
  0x27D4EB2Fu, // xxHash prime 4
  0x165667B1u, // xxHash prime 5
};

/// Full avalanche of the seed into the chain's starting key.
static uint32_t
seed_key(uint32_t seed)
{
  uint32_t h = seed + 0x9E3779B9u;
  h ^= h >> 16;
  h *= 0x7FEB352Du;
  h ^= h >> 15;
  h *= 0x846CA68Bu;
  h ^= h >> 16;
  return h;
}

/// One link of the hash chain: mix a cell coordinate into hash h.
static inline uint32_t
hash_link(uint32_t h, uint32_t cell, uint32_t mul)
{
  return (h ^ (h >> 16) ^ cell) * mul;
}

/// The gradient index (0..31) that ends a chain.
static inline uint32_t
hash_gradient(uint32_t h)
{
  h ^= h >> 15;
  h *= hash_mul[4];
  return h >> 27;
}

/*
  The 32 gradients as multipliers of the offset's components.  Multiplying
  by +-1 is exact and by 0 gives a signed zero, so the dot product below is
  the same bits however a code path forms it, as long as it adds the four
  products in the order x, y, z, w.
*/
#define P4D_G(zero, s2, s1, s0)                  \
  {                                              \
    (zero) == 0 ? 0.0f                           \
    : (s2)      ? -1.0f                          \
                : 1.0f,                               \
      (zero) == 1   ? 0.0f                       \
      : (zero) == 0 ? ((s2) ? -1.0f : 1.0f)      \
                    : ((s1) ? -1.0f : 1.0f),     \
      (zero) == 2   ? 0.0f                       \
      : (zero) <= 1 ? ((s1) ? -1.0f : 1.0f)      \
                    : ((s0) ? -1.0f : 1.0f),     \
      (zero) == 3 ? 0.0f : ((s0) ? -1.0f : 1.0f) \
  }
#define P4D_G8(zero)                                                  \
  P4D_G(zero, 0, 0, 0), P4D_G(zero, 0, 0, 1), P4D_G(zero, 0, 1, 0),   \
    P4D_G(zero, 0, 1, 1), P4D_G(zero, 1, 0, 0), P4D_G(zero, 1, 0, 1), \
    P4D_G(zero, 1, 1, 0), P4D_G(zero, 1, 1, 1)

static const float gradients[32][4] = { P4D_G8(0),
                                        P4D_G8(1),
                                        P4D_G8(2),
                                        P4D_G8(3) };

/// Dot product of gradient g with the offset (dx, dy, dz, dw).
static inline float
gradient_dot(uint32_t g, float dx, float dy, float dz, float dw)
{
  const float* m = gradients[g];
  return ((m[0] * dx + m[1] * dy) + m[2] * dz) + m[3] * dw;
}

/// Quintic fade 6t^5 - 15t^4 + 10t^3.
static inline float
fade(float t)
{
  return ((t * t) * t) * ((t * 6.0f - 15.0f) * t + 10.0f);
}

static inline float
lerp(float t, float a, float b)
{
  return a + t * (b - a);
}

/// Split a coordinate into its 32-bit cell and its fraction in [0, 1].
static inline void
split(double v, uint32_t* cell, float* frac)
{
  if (!(fabs(v) <= P4D_NOISE_COORD_MAX)) {
    v = 0.0;
  }

  // floor() for |v| <= 2^50, without a libm call: truncate, then step down
  // for negative non-integers.
  const double t  = (double)(int64_t)v;
  const double fl = t > v ? t - 1.0 : t;

  *cell = (uint32_t)(int64_t)fl;
  *frac = (float)(v - fl);
}

/// The noise in the cell c at fraction f, for a key from seed_key().
static inline float
kernel(uint32_t key, const uint32_t c[4], const float f[4])
{
  float u[4];
  float d[2][4];
  for (unsigned k = 0U; k < 4U; ++k) {
    u[k]    = fade(f[k]);
    d[0][k] = f[k];
    d[1][k] = f[k] - 1.0f;
  }

  // Chain the hash through the axes, x to w: corner i is on the upper side
  // of axis k when bit k of i is set.
  uint32_t h[16];
  h[0] = key;
  P4D_UNROLL
  for (unsigned k = 0U, n = 1U; k < 4U; ++k, n <<= 1U) {
    P4D_UNROLL
    for (unsigned i = n; i-- > 0U;) {
      h[i + n] = hash_link(h[i], c[k] + 1U, hash_mul[k]);
      h[i]     = hash_link(h[i], c[k], hash_mul[k]);
    }
  }

  float v[16];
  P4D_UNROLL
  for (unsigned i = 0U; i < 16U; ++i) {
    v[i] = gradient_dot(hash_gradient(h[i]),
                        d[i & 1U][0],
                        d[(i >> 1U) & 1U][1],
                        d[(i >> 2U) & 1U][2],
                        d[(i >> 3U) & 1U][3]);
  }

  // Blend along x, then y, z and w: 8 + 4 + 2 + 1 lerps.
  P4D_UNROLL
  for (unsigned k = 0U, n = 8U; k < 4U; ++k, n >>= 1U) {
    P4D_UNROLL
    for (unsigned i = 0U; i < n; ++i) {
      v[i] = lerp(u[k], v[2U * i], v[2U * i + 1U]);
    }
  }

  const float r = v[0] * P4D_NOISE_SCALE;
  return r > 1.0f ? 1.0f : r < -1.0f ? -1.0f : r;
}

float
p4d_noise4(uint32_t seed, double x, double y, double z, double w)
{
  const double p[4] = { x, y, z, w };
  uint32_t     c[4];
  float        f[4];
  for (unsigned k = 0U; k < 4U; ++k) {
    split(p[k], &c[k], &f[k]);
  }

  return kernel(seed_key(seed), c, f);
}

void
p4d_noise4_span(uint32_t     seed,
                const double origin[4],
                const double step[4],
                int64_t      first,
                float*       out,
                size_t       n)
{
  const uint32_t key = seed_key(seed);

  for (size_t i = 0U; i < n; ++i) {
    const double t = (double)(first + (int64_t)i);
    uint32_t     c[4];
    float        f[4];
    for (unsigned k = 0U; k < 4U; ++k) {
      split(origin[k] + t * step[k], &c[k], &f[k]);
    }

    out[i] = kernel(key, c, f);
  }
}

void
p4d_noise4_line(uint32_t     seed,
                const double origin[4],
                const double step[4],
                float*       out,
                size_t       n)
{
  p4d_noise4_span(seed, origin, step, 0U, out, n);
}

/*
  fBm.  Octave k has its own seed (the seed plus k times an odd constant, so
  every octave of every seed is a different lattice hash) and its own offset
  off the lattice, so that no two octaves pass through lattice points
  together and fBm is not 0 at the origin.  The offsets are the fractional
  parts of multiples of irrational numbers (golden ratio, sqrt 2, sqrt 3,
  sqrt 5).
*/

static const double octave_offset[4] = { 0.6180339887498949,
                                         0.4142135623730950,
                                         0.7320508075688772,
                                         0.2360679774997897 };

/// Odd constant that separates the octave seeds.
#define P4D_OCTAVE_SEED_STEP 0x6C8E9CF5u

/// Octaves are evaluated in chunks of this many points on the stack.
#define P4D_FBM_CHUNK 256U

static float
clampf(float v, float lo, float hi, float fallback)
{
  return v != v ? fallback : v < lo ? lo : v > hi ? hi : v;
}

P4dFbm
p4d_fbm_clamp(P4dFbm settings)
{
  const double lac = settings.lacunarity;

  settings.octaves =
    clampf(settings.octaves, 1.0f, (float)P4D_FBM_MAX_OCTAVES, 3.0f);
  settings.persistence = clampf(settings.persistence, 0.0f, 1.0f, 0.5f);
  settings.lacunarity  = lac != lac   ? 2.0
                         : lac < 1.0  ? 1.0
                         : lac > 16.0 ? 16.0
                                      : lac;
  return settings;
}

unsigned
p4d_fbm_weights(const P4dFbm* settings, float weight[P4D_FBM_MAX_OCTAVES])
{
  const P4dFbm   s        = p4d_fbm_clamp(*settings);
  const unsigned n_full   = (unsigned)s.octaves;
  const float    fraction = s.octaves - (float)n_full;
  const unsigned n_oct    = n_full + (fraction > 0.0f ? 1U : 0U);

  float amplitude = 1.0f;
  for (unsigned k = 0U; k < n_oct; ++k) {
    weight[k] = k < n_full ? amplitude : amplitude * fraction;
    amplitude *= s.persistence;
  }

  return n_oct;
}

uint32_t
p4d_fbm_octave(uint32_t     seed,
               unsigned     k,
               double       scale,
               const double origin[4],
               const double step[4],
               double       octave_origin[4],
               double       octave_step[4])
{
  for (unsigned a = 0U; a < 4U; ++a) {
    const double off = (double)(k + 1U) * octave_offset[a];
    octave_origin[a] = origin[a] * scale + (off - floor(off));
    octave_step[a]   = step[a] * scale;
  }

  return seed + k * P4D_OCTAVE_SEED_STEP;
}

void
p4d_fbm4_span(const P4dFbm* settings,
              uint32_t      seed,
              const double  origin[4],
              const double  step[4],
              int64_t       first,
              float*        out,
              size_t        n)
{
  const P4dFbm   s = p4d_fbm_clamp(*settings);
  float          weight[P4D_FBM_MAX_OCTAVES];
  const unsigned n_oct = p4d_fbm_weights(&s, weight);

  // The normalising sum does not depend on the point.
  float sum = 0.0f;
  for (unsigned k = 0U; k < n_oct; ++k) {
    sum += weight[k];
  }
  const float norm = 1.0f / sum;

  for (size_t done = 0U; done < n; done += P4D_FBM_CHUNK) {
    const size_t m = n - done < P4D_FBM_CHUNK ? n - done : P4D_FBM_CHUNK;
    float        acc[P4D_FBM_CHUNK];
    float        octave[P4D_FBM_CHUNK];
    double       scale = 1.0;

    for (size_t i = 0U; i < m; ++i) {
      acc[i] = 0.0f;
    }

    for (unsigned k = 0U; k < n_oct; ++k) {
      double         o[4];
      double         st[4];
      const uint32_t octave_seed =
        p4d_fbm_octave(seed, k, scale, origin, step, o, st);

      p4d_noise4_span(octave_seed, o, st, first + (int64_t)done, octave, m);
      for (size_t i = 0U; i < m; ++i) {
        acc[i] += weight[k] * octave[i];
      }
      scale *= s.lacunarity;
    }

    for (size_t i = 0U; i < m; ++i) {
      const float v = acc[i] * norm;
      out[done + i] = v > 1.0f ? 1.0f : v < -1.0f ? -1.0f : v;
    }
  }
}

float
p4d_fbm4(const P4dFbm* settings,
         uint32_t      seed,
         double        x,
         double        y,
         double        z,
         double        w)
{
  const double origin[4] = { x, y, z, w };
  const double step[4]   = { 0.0, 0.0, 0.0, 0.0 };
  float        out       = 0.0f;

  p4d_fbm4_span(settings, seed, origin, step, 0U, &out, 1U);
  return out;
}
