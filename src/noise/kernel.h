// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The pieces of the noise kernel that every code path shares: the hash, the
  gradient table, the fade, the split of a coordinate.  Internal to the core:
  included by noise.c, span.c and the vector paths (src/arch/), which must
  reproduce exactly this arithmetic (see noise.c for the maths).
*/

#ifndef P4D_NOISE_KERNEL_H
#define P4D_NOISE_KERNEL_H

#include "noise.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/// Unroll the kernel's small fixed loops: all indices become constants and
/// the 16 corners live in registers.  GCC and clang both read this pragma.
#define P4D_UNROLL _Pragma("GCC unroll 16")

/// Gain and floor of the variance normalisation (see noise.c): the output
/// is P4D_NOISE_GAIN * v / sqrt(V + P4D_NOISE_FLOOR), for the raw blend v
/// whose variance is 0.75 V.
#define P4D_NOISE_GAIN 0.25f
#define P4D_NOISE_FLOOR 0x1p-10f

/// Odd multipliers of the hash chain, one for each axis link.
static const uint32_t hash_mul[4] = {
  0x9E3779B1U, // 2^32 / golden ratio
  0x85EBCA77U, // xxHash prime 2
  0xC2B2AE3DU, // xxHash prime 3
  0x27D4EB2FU, // xxHash prime 4
};

/// Full avalanche of the seed into the chain's starting key (Wellons'
/// lowbias32).
static inline uint32_t
seed_key(uint32_t seed)
{
  uint32_t h = seed + 0x9E3779B9U;
  h ^= h >> 16;
  h *= 0x7FEB352DU;
  h ^= h >> 15;
  h *= 0x846CA68BU;
  h ^= h >> 16;
  return h;
}

/// The low 32 bits of a 64-bit cell.
static inline uint32_t
cell_lo(uint64_t cell)
{
  return (uint32_t)cell;
}

/// The high 32 bits of a 64-bit cell.
static inline uint32_t
cell_hi(uint64_t cell)
{
  return (uint32_t)(cell >> 32);
}

/**
   One link of the hash chain: mix a 64-bit cell coordinate (lo, hi) into
   hash h.  The low half goes through the multiplication; the high half is
   added after it, which costs one addition: the next link (or the
   finaliser) spreads it like any other bit.
*/
static inline uint32_t
hash_link(uint32_t h, uint32_t lo, uint32_t hi, uint32_t mul)
{
  return ((h ^ (h >> 16) ^ lo) * mul) + hi;
}

/// The end of a chain: two xorshift-multiply rounds (lowbias32's) that
/// carry every bit of h into the top bits of the word.
static inline uint32_t
hash_mix(uint32_t h)
{
  h ^= h >> 16;
  h *= 0x7FEB352DU;
  h ^= h >> 15;
  h *= 0x846CA68BU;
  return h;
}

/// The gradient index (0..31) that ends a chain: the top 5 bits of
/// hash_mix().
static inline uint32_t
hash_gradient(uint32_t h)
{
  return hash_mix(h) >> 27;
}

/*
  The 32 gradients as multipliers of the offset's components.  Multiplying
  by +-1 is exact and by 0 gives a signed zero, so the dot product below is
  the same bits however a code path forms it (a fused multiply-add with one
  of these is exact too), as long as it adds the four products in the order
  x, y, z, w.

  Component k of gradient g is 0 on axis g >> 3; the other axes, in
  ascending order, are negated by bits 2, 1 and 0 of g.
*/
#define P4D_GRAD(g, k)                                             \
  ((k) == ((g) >> 3)                                       ? 0.0f  \
   : (((g) >> ((k) < ((g) >> 3) ? 2 - (k) : 3 - (k))) & 1) ? -1.0f \
                                                           : 1.0f)
#define P4D_GRAD_ROW(g)                                            \
  {                                                                \
    P4D_GRAD(g, 0), P4D_GRAD(g, 1), P4D_GRAD(g, 2), P4D_GRAD(g, 3) \
  }
#define P4D_GRAD_ROW8(g)                                                 \
  P4D_GRAD_ROW(g), P4D_GRAD_ROW((g) + 1), P4D_GRAD_ROW((g) + 2),         \
    P4D_GRAD_ROW((g) + 3), P4D_GRAD_ROW((g) + 4), P4D_GRAD_ROW((g) + 5), \
    P4D_GRAD_ROW((g) + 6), P4D_GRAD_ROW((g) + 7)

static const float gradients[32][4] = { P4D_GRAD_ROW8(0),
                                        P4D_GRAD_ROW8(8),
                                        P4D_GRAD_ROW8(16),
                                        P4D_GRAD_ROW8(24) };

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

/// The lattice cell below v as a double, for |v| <= P4D_NOISE_COORD_MAX:
/// floor() without a libm call (truncate, then step down for negative
/// non-integers).  Every vector path reproduces exactly this, signed zeros
/// included.
static inline double
cell_floor(double v)
{
  const double t = (double)(int64_t)v;
  return t > v ? t - 1.0 : t;
}

/// Whether a coordinate is within range: others are taken as 0.
static inline int
coord_ok(double v)
{
  return fabs(v) <= P4D_NOISE_COORD_MAX;
}

/// Split a coordinate into its 64-bit cell and its fraction in [0, 1].
static inline void
split(double v, uint64_t* cell, float* frac)
{
  if (!coord_ok(v)) {
    v = 0.0;
  }

  const double fl = cell_floor(v);
  *cell           = (uint64_t)(int64_t)fl;
  *frac           = (float)(v - fl);
}

/**
   The cell the hash sees: cell itself on an aperiodic axis (period 0), else
   its floored remainder modulo period, in [0, period) also for negative
   cells (the cell's 64 bits read as a signed integer).  A periodic time
   axis hashes cells c and c + period alike, so the noise repeats every
   period cells: cell period - 1's upper corner is cell 0's lower one.
   period is at most 2^50 (noise.h).
*/
static inline uint64_t
cell_wrap(uint64_t cell, uint64_t period)
{
  if (period == 0U) {
    return cell;
  }

  const int64_t r = (int64_t)cell % (int64_t)period;
  return (uint64_t)(r < 0 ? r + (int64_t)period : r);
}

/// A period as the paths take it: periods above P4D_NOISE_PERIOD_MAX (where
/// the lattice does not repeat anyway) are aperiodic, 0.
static inline uint64_t
p4d_noise_period(uint64_t period)
{
  return period <= P4D_NOISE_PERIOD_MAX ? period : 0U;
}

/// The periods of the four axes as the paths take them (p4d_noise_period()
/// of each; NULL: none).  Returns whether any axis is periodic.
static inline bool
p4d_noise_periods(const uint64_t period[4], uint64_t checked[4])
{
  bool any = false;
  for (unsigned a = 0U; a < 4U; ++a) {
    checked[a] = period ? p4d_noise_period(period[a]) : 0U;
    any        = any || checked[a] != 0U;
  }
  return any;
}

/**
   Chain the hash through the first n_axes axes (x, y, ...), from key, each
   axis k periodic over period[k] cells (0: aperiodic; checked).

   Afterwards h[i] for i < 2^n_axes is the hash of the corner whose bit k is
   set when it is on the upper side of axis k (cell c[k] + 1, whose carry
   reaches the high half; wrapped by cell_wrap() on a periodic axis).
*/
static inline void
hash_corners(uint32_t       key,
             const uint64_t c[],
             unsigned       n_axes,
             const uint64_t period[4],
             uint32_t       h[])
{
  h[0] = key;
  P4D_UNROLL
  for (unsigned k = 0U, n = 1U; k < n_axes; ++k, n <<= 1U) {
    const uint64_t at = cell_wrap(c[k], period[k]);
    const uint64_t up = cell_wrap(c[k] + 1U, period[k]);
    P4D_UNROLL
    for (unsigned i = n; i-- > 0U;) {
      h[i + n] = hash_link(h[i], cell_lo(up), cell_hi(up), hash_mul[k]);
      h[i]     = hash_link(h[i], cell_lo(at), cell_hi(at), hash_mul[k]);
    }
  }
}

/// The gradient index of the corner at cell c (4 axes) for a key from
/// seed_key(): what hash_corners() and hash_gradient() give that corner.
static inline uint32_t
hash_cell(uint32_t key, const uint64_t c[4])
{
  uint32_t h = key;
  for (unsigned k = 0U; k < 4U; ++k) {
    h = hash_link(h, cell_lo(c[k]), cell_hi(c[k]), hash_mul[k]);
  }
  return hash_gradient(h);
}

/*
  The variance of the raw blend at fraction f is 0.75 V (see noise.c), with

    V = sum over axes b of T_b times the product of S_a over the others,
    s = fade(f), S = (1-s)^2 + s^2, T = (1-s)^2 f^2 + s^2 (f-1)^2.

  V is folded in axis by axis, x to w, as the blend runs: (p, t) start as
  (S, T) of x, and after axes 0..k they are the product of those axes' S
  and their V.  Every path computes exactly these operations in this
  order.
*/

/// S of one axis, for u = fade(f).
static inline float
variance_s(float u)
{
  const float a = 1.0f - u;
  return a * a + u * u;
}

/// T of one axis at fraction f, for g = f - 1 and u = fade(f).
static inline float
variance_t(float f, float g, float u)
{
  const float a = 1.0f - u;
  return (a * a) * (f * f) + (u * u) * (g * g);
}

/// Fold the next axis (s_axis, t_axis) into (p, t) of the axes before it.
static inline void
variance_fold(float* p, float* t, float s_axis, float t_axis)
{
  *t = *t * s_axis + *p * t_axis;
  *p = *p * s_axis;
}

/// The output for raw blend v and variance term var (V above), clamped
/// into [-1, 1] (rarely needed: see noise.c).
static inline float
normalise(float v, float var)
{
  const float r = (P4D_NOISE_GAIN * v) / sqrtf(var + P4D_NOISE_FLOOR);
  return r > 1.0f ? 1.0f : r < -1.0f ? -1.0f : r;
}

/**
   A code path's noise along a line: p4d_noise4_span_tile() for a hash key
   from seed_key() and periods already checked (p4d_noise_periods(): each
   0 or 1 .. 2^50).  Every path gives the same bits.
*/
typedef void
P4dSpan(uint32_t       key,
        const double   origin[4],
        const double   step[4],
        int64_t        first,
        float*         out,
        size_t         n,
        const uint64_t period[4]);

/**
   A code path's noise at any points: p4d_noise4_points_tile() for a hash
   key from seed_key() and checked periods.  Every path gives the same
   bits.
*/
typedef void
P4dPoints(uint32_t key,
          const double (*p)[4],
          float*         out,
          size_t         n,
          const uint64_t period[4]);

/// The scalar paths: the references every other path equals.
P4dSpan   p4d_noise_span_scalar;
P4dPoints p4d_noise_points_scalar;

/**
   A code path's weighted sum acc[i] += weight * x[i] (a multiply, then an
   add, as the scalar loop rounds), i < n: fBm's octave sum.
*/
typedef void
P4dWeightedAdd(float weight, const float* x, float* acc, uint32_t n);

/**
   Run the core's lines (p4d_noise4_span() and its kin, and so fBm) on
   span, its points on points and fBm's octave sums on weighted_add, or on
   the scalar paths for NULL.  Called by the choice of a code path
   (src/arch/isa.c), which knows the instruction sets; the core does not.
   Not thread safe: call it before any thread evaluates noise.
*/
void
p4d_noise_paths_use(P4dSpan*        span,
                    P4dPoints*      points,
                    P4dWeightedAdd* weighted_add);

/// acc[i] += weight * x[i] for i < n on the path in use.  Realtime safe.
void
p4d_noise_weighted_add(float weight, const float* x, float* acc, uint32_t n);

#endif // P4D_NOISE_KERNEL_H
