// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Classic Perlin noise (Perlin 1985) in 1, 2 and 3 dimensions.

  A point p splits into its cell c = floor(p) and fraction f = p - c, as in
  the 4D kernel (kernel.h: split(), the same 64-bit cells).  Each of the
  2^D corners gets a unit gradient g from the core's hash chain
  (classic_corners(), from seed_key()); the noise is the faded
  multilinear blend of g . (f - corner), lerped along x, then y, then z.
  At a lattice point every fraction is 0 and the blend returns the dot
  product of the lower corner with a zero offset: exactly 0.

  Hash.  The chain is the 4D core's links (hash_link(), its multipliers,
  its 64-bit cells), with a link of cell 0 after each axis (see
  classic_corners()); it ends in the same two xorshift-multiply rounds
  (lowbias32's) whose top 5 bits pick a 4D gradient (hash_gradient() is
  hash_mix() >> 27), and the gradient is read from the top bits of the
  same word: bit 31 in 1D, bits 31..24 in 2D, bits 31..12 in 3D
  (tests/test_classic_hash.c measures their avalanche for 1, 2 and 3
  axes).

  Gradients, with + - * / and sqrt only (no libm transcendental).
  - 1D: +1 or -1 (bit 31).
  - 2D: one of 256 equally spaced angles 2 pi a / 256 (a = bits 31..24):
    (cos, sin) from a table of the 65 cosines of the first quadrant
    (correctly rounded to float, printed by a 50-digit series), the other
    quadrants by exact rotations (swap and negate).  The angle is exactly
    uniform over the 256 directions (1.4 degrees apart).
  - 3D: uniform on the sphere by Archimedes' hat-box theorem: z uniform in
    [-1, 1] and the azimuth uniform, independently.  z is the midpoint of
    one of 4096 equal slices, (2 k + 1) / 4096 - 1 (k = bits 23..12, exact
    in float), the azimuth one of the 256 angles of 2D (bits 31..24), and
    (x, y) = sqrt(1 - z^2) (cos, sin).  Each of the 2^20 directions then
    stands for an equal area of the sphere.
  |g| is 1 to within a few float roundings (2^-22).

  Fades.  The 1985 s-curve 3t^2 - 2t^3 (slope 0 at 0 and 1: the noise is
  C1 across cell faces), or the quintic of the improved noise (also C2).
  One kernel per (dims, fade), chosen from a table once per call.
*/

#include "classic.h"
#include "kernel.h"

#include <stddef.h>
#include <stdint.h>

/// cos(pi i / 128) for i = 0..64: the first quadrant of the 256 angles,
/// correctly rounded to float.
static const float quarter_cos[65] = {
  0x1p+0f,        0x1.ffd886p-1f, 0x1.ff621ep-1f, 0x1.fe9cdap-1f,
  0x1.fd88dap-1f, 0x1.fc2648p-1f, 0x1.fa7558p-1f, 0x1.f8765p-1f,
  0x1.f6297cp-1f, 0x1.f38f3ap-1f, 0x1.f0a7fp-1f,  0x1.ed740ep-1f,
  0x1.e9f416p-1f, 0x1.e6288ep-1f, 0x1.e2121p-1f,  0x1.ddb13cp-1f,
  0x1.d906bcp-1f, 0x1.d4134ep-1f, 0x1.ced7bp-1f,  0x1.c954b2p-1f,
  0x1.c38b3p-1f,  0x1.bd7c0ap-1f, 0x1.b72834p-1f, 0x1.b090a6p-1f,
  0x1.a9b662p-1f, 0x1.a29a7ap-1f, 0x1.9b3e04p-1f, 0x1.93a224p-1f,
  0x1.8bc806p-1f, 0x1.83b0ep-1f,  0x1.7b5df2p-1f, 0x1.72d084p-1f,
  0x1.6a09e6p-1f, 0x1.610b76p-1f, 0x1.57d694p-1f, 0x1.4e6cacp-1f,
  0x1.44cf32p-1f, 0x1.3affa2p-1f, 0x1.30ff8p-1f,  0x1.26d054p-1f,
  0x1.1c73b4p-1f, 0x1.11eb36p-1f, 0x1.07387ap-1f, 0x1.f8ba4ep-2f,
  0x1.e2b5d4p-2f, 0x1.cc66eap-2f, 0x1.b5d1p-2f,   0x1.9ef794p-2f,
  0x1.87de2ap-2f, 0x1.708854p-2f, 0x1.58f9a8p-2f, 0x1.4135cap-2f,
  0x1.294062p-2f, 0x1.111d26p-2f, 0x1.f19f98p-3f, 0x1.c0b826p-3f,
  0x1.8f8b84p-3f, 0x1.5e2144p-3f, 0x1.2c8106p-3f, 0x1.f564e6p-4f,
  0x1.917a6cp-4f, 0x1.2d520ap-4f, 0x1.91f66p-5f,  0x1.92156p-6f,
  0x0p+0f,
};

/// A quarter turn q of (c, s): component k is quarter_sign[q][k] times
/// (c, s)[quarter_swap[q] ^ k].  Multiplying by +-1 is exact, and a table
/// has no branch to mispredict on a random angle.
static const float    quarter_sign[4][2] = { { 1.0f, 1.0f },
                                             { -1.0f, 1.0f },
                                             { -1.0f, -1.0f },
                                             { 1.0f, -1.0f } };
static const unsigned quarter_swap[4]    = { 0U, 1U, 0U, 1U };

/// The unit vector at angle 2 pi a / 256, a in 0..255.
static inline void
classic_angle(uint32_t a, float* gx, float* gy)
{
  const uint32_t r     = a & 63U;
  const uint32_t q     = a >> 6U;
  const float    cs[2] = { quarter_cos[r], quarter_cos[64U - r] };
  *gx                  = quarter_sign[q][0] * cs[quarter_swap[q]];
  *gy                  = quarter_sign[q][1] * cs[quarter_swap[q] ^ 1U];
}

/// Gradient h (a hash_mix() word) of dims axes dotted with offset d.
static inline float
classic_dot(unsigned dims, uint32_t h, float dx, float dy, float dz)
{
  if (dims == 1U) {
    return (1.0f - 2.0f * (float)(h >> 31U)) * dx; // +-1, exact
  }

  float gx = 0.0f;
  float gy = 0.0f;
  classic_angle(h >> 24U, &gx, &gy);
  if (dims == 2U) {
    return gx * dx + gy * dy;
  }

  const float gz = (float)(2U * ((h >> 12U) & 0xFFFU) + 1U) * 0x1p-12f - 1.0f;
  const float r  = sqrtf(1.0f - gz * gz);
  return ((r * gx) * dx + (r * gy) * dy) + gz * dz;
}

/// The 1985 s-curve 3t^2 - 2t^3.
static inline float
classic_scurve(float t)
{
  return (t * t) * (3.0f - 2.0f * t);
}

/**
   The hash of the 2^dims corners of cell c, for a key from seed_key():
   the core's chain (hash_link() with its multipliers, cells wrapped by
   cell_wrap()), with a link of cell 0 after every axis.  Corner i is on
   the upper side of axis k when bit k of i is set, as in hash_corners().

   Why the links of cell 0.  A link adds the cell's high half after its
   multiplication, so a carry into the high half (x + 2^32) adds 1 to the
   hash, which the next link's xor-shift turns into a flip of bit 0: the
   same as flipping bit 0 of the next axis's low word.  Chained axis after
   axis, corner (x + 2^32, y) would be corner (x, y xor 1) half the time,
   and noise 2^32 cells away would correlate (r = -0.1) with the noise
   here.  After a link of cell 0, whose bit 0 never flips, that difference
   is multiplied into every bit instead.  In 2D the chain is exactly the 4D
   core's corner (x, 0, y, 0).
*/
static inline void
classic_corners(uint32_t       key,
                const uint64_t c[],
                unsigned       dims,
                const uint64_t period[4],
                uint32_t       h[8])
{
  h[0] = key;
  P4D_UNROLL
  for (unsigned k = 0U, n = 1U; k < dims; ++k, n <<= 1U) {
    const uint64_t at      = cell_wrap(c[k], period[k]);
    const uint64_t up      = cell_wrap(c[k] + 1U, period[k]);
    const uint32_t mul     = hash_mul[(2U * k) % 4U];
    const uint32_t mul_pad = hash_mul[(2U * k + 1U) % 4U];
    P4D_UNROLL
    for (unsigned i = n; i-- > 0U;) {
      h[i + n] = hash_link(h[i], cell_lo(up), cell_hi(up), mul);
      h[i]     = hash_link(h[i], cell_lo(at), cell_hi(at), mul);
      h[i + n] = hash_link(h[i + n], 0U, 0U, mul_pad);
      h[i]     = hash_link(h[i], 0U, 0U, mul_pad);
    }
  }
}

/// Classic noise of dims axes and fade quintic (else cubic) at point p
/// with checked periods, for a key from seed_key().  dims and quintic are
/// constants in every caller, so each instance is its own straight code.
static inline float
classic_kernel(unsigned       dims,
               bool           quintic,
               uint32_t       key,
               const double   p[],
               const uint64_t period[4])
{
  uint64_t c[P4D_CLASSIC_MAX_DIMS]    = { 0U, 0U, 0U };
  float    u[P4D_CLASSIC_MAX_DIMS]    = { 0.0f, 0.0f, 0.0f };
  float    d[2][P4D_CLASSIC_MAX_DIMS] = { { 0.0f, 0.0f, 0.0f },
                                          { 0.0f, 0.0f, 0.0f } };
  for (unsigned k = 0U; k < dims; ++k) {
    float f = 0.0f;
    split(p[k], &c[k], &f);
    u[k]    = quintic ? fade(f) : classic_scurve(f);
    d[0][k] = f;
    d[1][k] = f - 1.0f;
  }

  uint32_t h[8];
  classic_corners(key, c, dims, period, h);

  float          v[8]      = { 0.0f }; // zeroed: GCC -O2 cannot see dims <= 3
  const unsigned n_corners = 1U << dims;
  P4D_UNROLL
  for (unsigned i = 0U; i < n_corners; ++i) {
    v[i] = classic_dot(dims,
                       hash_mix(h[i]),
                       d[i & 1U][0],
                       d[(i >> 1U) & 1U][1],
                       d[(i >> 2U) & 1U][2]);
  }

  P4D_UNROLL
  for (unsigned k = 0U, n = n_corners >> 1U; k < dims; ++k, n >>= 1U) {
    P4D_UNROLL
    for (size_t i = 0U; i < n; ++i) {
      v[i] = lerp(u[k], v[2U * i], v[2U * i + 1U]);
    }
  }
  return v[0];
}

/// One instance of the kernel: a point, a key and checked periods.
typedef float (*ClassicAt)(uint32_t       key,
                           const double   p[],
                           const uint64_t period[4]);

#define P4D_CLASSIC_AT(name, dims, quintic)                               \
  static float name(uint32_t key, const double p[], const uint64_t pe[4]) \
  {                                                                       \
    return classic_kernel(dims, quintic, key, p, pe);                     \
  }

P4D_CLASSIC_AT(classic_at1c, 1U, false)
P4D_CLASSIC_AT(classic_at2c, 2U, false)
P4D_CLASSIC_AT(classic_at3c, 3U, false)
P4D_CLASSIC_AT(classic_at1q, 1U, true)
P4D_CLASSIC_AT(classic_at2q, 2U, true)
P4D_CLASSIC_AT(classic_at3q, 3U, true)

/// The kernels, by fade and dims - 1.
static const ClassicAt classic_at[P4D_CLASSIC_N_FADES][P4D_CLASSIC_MAX_DIMS] = {
  [P4D_CLASSIC_CUBIC]   = { classic_at1c, classic_at2c, classic_at3c },
  [P4D_CLASSIC_QUINTIC] = { classic_at1q, classic_at2q, classic_at3q },
};

/// The figures of each basis, by fade and dims - 1 (doc/noise-core.md).
typedef struct {
  float std;       ///< sqrt(E[T] E[S]^(dims - 1))
  float lipschitz; ///< Steepest slope, rounded up
} ClassicFigures;

/*
  Variances E[T] E[S]^(D-1) as exact fractions: cubic E[S] = 26/35,
  E[T] = 19/315; quintic E[S] = 181/231, E[T] = 535/9009.
*/
static const ClassicFigures
  classic_figures[P4D_CLASSIC_N_FADES][P4D_CLASSIC_MAX_DIMS] = {
    [P4D_CLASSIC_CUBIC]   = { { 0.245596f, 1.4143f },
                              { 0.211677f, 1.80f },
                              { 0.182443f, 2.18f } },
    [P4D_CLASSIC_QUINTIC] = { { 0.243690f, 1.35f },
                              { 0.215711f, 2.07f },
                              { 0.190944f, 2.80f } },
  };

/// basis with dims and fade in range (see P4dClassic).
static P4dClassic
classic_check(const P4dClassic* basis)
{
  P4dClassic b = *basis;
  if (b.dims < 1U || b.dims > P4D_CLASSIC_MAX_DIMS) {
    b.dims = P4D_CLASSIC_MAX_DIMS;
  }
  if ((unsigned)b.fade >= P4D_CLASSIC_N_FADES) {
    b.fade = P4D_CLASSIC_CUBIC;
  }
  return b;
}

/// The checked periods of the first dims axes (the others 0).
static void
classic_periods(unsigned dims, const uint64_t period[], uint64_t checked[4])
{
  for (unsigned a = 0U; a < 4U; ++a) {
    checked[a] = period && a < dims ? p4d_noise_period(period[a]) : 0U;
  }
}

/// What every call needs: the kernel of the basis (checked), the seed's
/// key and the checked periods.
typedef struct {
  ClassicAt at;
  uint32_t  key;
  unsigned  dims;
  uint64_t  period[4];
} ClassicCall;

static ClassicCall
classic_call(const P4dClassic* basis, uint32_t seed, const uint64_t period[])
{
  const P4dClassic b = classic_check(basis);
  ClassicCall      c = {
         classic_at[b.fade][b.dims - 1U], seed_key(seed), b.dims, { 0U }
  };
  classic_periods(b.dims, period, c.period);
  return c;
}

float
p4d_classic_tile(const P4dClassic* basis,
                 uint32_t          seed,
                 const double      p[],
                 const uint64_t    period[])
{
  const ClassicCall c = classic_call(basis, seed, period);
  return c.at(c.key, p, c.period);
}

float
p4d_classic1(uint32_t seed, P4dClassicFade fade, double x)
{
  const P4dClassic b    = { 1U, fade };
  const double     p[1] = { x };
  return p4d_classic_tile(&b, seed, p, NULL);
}

float
p4d_classic2(uint32_t seed, P4dClassicFade fade, double x, double y)
{
  const P4dClassic b    = { 2U, fade };
  const double     p[2] = { x, y };
  return p4d_classic_tile(&b, seed, p, NULL);
}

float
p4d_classic3(uint32_t seed, P4dClassicFade fade, double x, double y, double z)
{
  const P4dClassic b    = { 3U, fade };
  const double     p[3] = { x, y, z };
  return p4d_classic_tile(&b, seed, p, NULL);
}

void
p4d_classic_span_tile(const P4dClassic* basis,
                      uint32_t          seed,
                      const double      origin[],
                      const double      step[],
                      int64_t           first,
                      float*            out,
                      size_t            n,
                      const uint64_t    period[])
{
  const ClassicCall c = classic_call(basis, seed, period);
  for (size_t i = 0U; i < n; ++i) {
    const double t                       = (double)(first + (int64_t)i);
    double       p[P4D_CLASSIC_MAX_DIMS] = { 0.0, 0.0, 0.0 };
    for (unsigned a = 0U; a < c.dims; ++a) {
      p[a] = origin[a] + t * step[a];
    }
    out[i] = c.at(c.key, p, c.period);
  }
}

void
p4d_classic_points_tile(const P4dClassic* basis,
                        uint32_t          seed,
                        const double (*p)[P4D_CLASSIC_MAX_DIMS],
                        float*         out,
                        size_t         n,
                        const uint64_t period[])
{
  const ClassicCall c = classic_call(basis, seed, period);
  for (size_t i = 0U; i < n; ++i) {
    out[i] = c.at(c.key, p[i], c.period);
  }
}

float
p4d_classic_std(const P4dClassic* basis)
{
  const P4dClassic b = classic_check(basis);
  return classic_figures[b.fade][b.dims - 1U].std;
}

float
p4d_classic_bound(const P4dClassic* basis)
{
  static const float half_root[P4D_CLASSIC_MAX_DIMS] = { 0.5f,
                                                         0.70710678f,
                                                         0.86602540f };
  return half_root[classic_check(basis).dims - 1U];
}

float
p4d_classic_lipschitz(const P4dClassic* basis)
{
  const P4dClassic b = classic_check(basis);
  return classic_figures[b.fade][b.dims - 1U].lipschitz;
}
