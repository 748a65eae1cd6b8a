// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The hash of classic noise (src/noise/classic.c): the 4D core's links
  (kernel.h) over 1, 2 and 3 axes, each followed by a link of cell 0, ended
  by the two rounds of
  hash_gradient(), whose top bits pick the gradient (bit 31 in 1D, 31..24
  in 2D, 31..12 in 3D).  The avalanche of those 20 bits over the seed and
  every bit of every 64-bit cell, for each axis count; that the noise's
  gradients are those bits; that the 2D chain is the 4D core's corner
  (x, 0, y, 0); that a carry into a cell's high half aliases no neighbour.
*/

#undef NDEBUG

#include "classic.h"
#include "kernel.h"

#include "support/rng.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static P4dRng rng = { 0x510E527FADE682D1ULL };

/// Output bits measured: the top 20, all the 3D gradient uses.
#define OUT_BITS 20U

/// The rounds that end the chain: hash_gradient() without its shift.
static uint32_t
mix(uint32_t h)
{
  h ^= h >> 16;
  h *= 0x7FEB352DU;
  h ^= h >> 15;
  h *= 0x846CA68BU;
  return h;
}

/// The word of the corner at cells c (dims axes) for seed.
static uint32_t
corner_word(uint32_t seed, const uint64_t* c, unsigned dims)
{
  uint32_t h = seed_key(seed);
  for (unsigned k = 0U; k < dims; ++k) {
    h = hash_link(h, cell_lo(c[k]), cell_hi(c[k]), hash_mul[(2U * k) % 4U]);
    h = hash_link(h, 0U, 0U, hash_mul[(2U * k + 1U) % 4U]);
  }
  return mix(h);
}

/// A cell as the core meets it (51-bit signed) or, every other time, any
/// 64 bits.
static uint64_t
random_cell(unsigned i)
{
  const uint64_t bits = p4d_rng_next(&rng);
  return i & 1U ? bits : (uint64_t)((int64_t)(bits << 13U) >> 13);
}

static void
test_avalanche(void)
{
  enum { N = 100000 };
  static uint32_t flips[1U + 3U * 64U][OUT_BITS];
  for (unsigned dims = 1U; dims <= 3U; ++dims) {
    memset(flips, 0, sizeof(flips));
    for (unsigned n = 0U; n < N; ++n) {
      uint32_t seed = (uint32_t)(p4d_rng_next(&rng) >> 32U);
      uint64_t c[3];
      for (unsigned k = 0U; k < dims; ++k) {
        c[k] = random_cell(n);
      }
      const uint32_t w = corner_word(seed, c, dims) >> (32U - OUT_BITS);
      for (unsigned b = 0U; b < 32U + 64U * dims; ++b) {
        uint32_t s = seed;
        uint64_t d[3];
        memcpy(d, c, sizeof(d));
        if (b < 32U) {
          s ^= 1U << b;
        } else {
          d[(b - 32U) / 64U] ^= (uint64_t)1U << ((b - 32U) % 64U);
        }
        const uint32_t x = w ^ (corner_word(s, d, dims) >> (32U - OUT_BITS));
        for (unsigned o = 0U; o < OUT_BITS; ++o) {
          flips[b < 32U ? 0U : 1U + (b - 32U)][o] += (x >> o) & 1U;
        }
      }
    }
    // Row 0 sums the 32 seed bits (test_seed_bits() takes them one by
    // one): its rate is their mean.
    double worst_seed = 0.0;
    for (unsigned o = 0U; o < OUT_BITS; ++o) {
      const double p = (double)flips[0][o] / (32.0 * N);
      worst_seed     = fmax(worst_seed, fabs(p - 0.5));
    }
    double   worst = 0.0;
    unsigned where = 0U;
    for (unsigned r = 1U; r < 1U + 64U * dims; ++r) {
      for (unsigned o = 0U; o < OUT_BITS; ++o) {
        const double p = (double)flips[r][o] / N;
        if (fabs(p - 0.5) > worst) {
          worst = fabs(p - 0.5);
          where = r - 1U;
        }
      }
    }
    printf("# %u axes: avalanche of the top %u bits over %u inputs: worst "
           "|p - 0.5| %.4f (cell bit %u of axis %u), seed (mean of its "
           "bits) %.4f; target 0.05\n",
           dims,
           OUT_BITS,
           N,
           worst,
           where % 64U,
           where / 64U,
           worst_seed);
    assert(worst < 0.05);
    assert(worst_seed < 0.05);
  }
}

static void
test_seed_bits(void)
{
  // Each seed bit on its own, over 1 to 3 axes.
  enum { N = 20000 };
  double worst = 0.0;
  for (unsigned dims = 1U; dims <= 3U; ++dims) {
    for (unsigned b = 0U; b < 32U; ++b) {
      unsigned count[OUT_BITS] = { 0U };
      for (unsigned n = 0U; n < N; ++n) {
        const uint32_t seed = (uint32_t)(p4d_rng_next(&rng) >> 32U);
        uint64_t       c[3];
        for (unsigned k = 0U; k < 3U; ++k) {
          c[k] = random_cell(n);
        }
        const uint32_t x = (corner_word(seed, c, dims) ^
                            corner_word(seed ^ (1U << b), c, dims)) >>
                           (32U - OUT_BITS);
        for (unsigned o = 0U; o < OUT_BITS; ++o) {
          count[o] += (x >> o) & 1U;
        }
      }
      for (unsigned o = 0U; o < OUT_BITS; ++o) {
        worst = fmax(worst, fabs((double)count[o] / N - 0.5));
      }
    }
  }
  printf("# each seed bit, 1 to 3 axes: worst |p - 0.5| %.4f over %u "
         "inputs\n",
         worst,
         N);
  assert(worst < 0.05);
}

static void
test_same_hash(void)
{
  // The rounds are hash_gradient()'s: its index is the top 5 bits.
  for (unsigned n = 0U; n < 100000U; ++n) {
    const uint32_t h = (uint32_t)p4d_rng_next(&rng);
    assert(mix(h) >> 27U == hash_gradient(h));
  }

  // The noise's gradients are these words: in 1D the sign of the noise
  // just above a cell is bit 31's; in 2D the direction is angle bits
  // 31..24 (2 pi a / 256).
  for (unsigned n = 0U; n < 20000U; ++n) {
    const uint32_t seed = (uint32_t)n * 2654435761U;
    uint64_t       c[2];
    for (unsigned k = 0U; k < 2U; ++k) {
      c[k] = (uint64_t)((int64_t)(p4d_rng_next(&rng) >> 30) - (1LL << 33));
    }
    const double   x  = (double)(int64_t)c[0];
    const double   y  = (double)(int64_t)c[1];
    const uint32_t w1 = corner_word(seed, c, 1U);
    const float    n1 = p4d_classic1(seed, P4D_CLASSIC_CUBIC, x + 0x1p-10);
    assert((n1 < 0.0f) == ((w1 >> 31U) != 0U));

    const double h  = 0x1p-14;
    const double gx = p4d_classic2(seed, P4D_CLASSIC_CUBIC, x + h, y) / h;
    const double gy = p4d_classic2(seed, P4D_CLASSIC_CUBIC, x, y + h) / h;
    const double a  = (double)(corner_word(seed, c, 2U) >> 24U);
    const double ex = cos(6.283185307179586 * a / 256.0);
    const double ey = sin(6.283185307179586 * a / 256.0);
    assert(fabs(gx - ex) < 1e-3 && fabs(gy - ey) < 1e-3);
  }
  printf("# the gradients are the top bits of the 4D core's chain\n");
}

static void
test_corners(void)
{
  // In 2D the chain is the 4D core's corner (x, 0, y, 0), carries into the
  // high half included.
  const uint64_t none[4] = { 0U, 0U, 0U, 0U };
  for (unsigned n = 0U; n < 10000U; ++n) {
    const uint32_t seed = n * 0x9E3779B9U;
    uint64_t       c[4] = { random_cell(n), 0U, random_cell(n), 0U };
    if (n % 7U == 0U) {
      c[(size_t)2U * (n % 2U)] = 0xFFFFFFFFU;
    }
    uint32_t h[16];
    hash_corners(seed_key(seed), c, 4U, none, h);
    for (unsigned i = 0U; i < 4U; ++i) {
      const uint64_t cell[2] = { c[0] + (i & 1U), c[2] + (i >> 1U) };
      // Corner bits of the 4D chain: x is bit 0, y (axis 2) bit 2.
      assert(mix(h[(i & 1U) | ((i >> 1U) << 2U)]) ==
             corner_word(seed, cell, 2U));
    }
  }

  // A carry into an axis's high half is not a flip of the next axis's bit
  // 0 (the core's chain alone makes (x + 2^32, y) the corner (x, y xor 1)
  // half the time): over 2^16 cells, no such pair shares its word.
  unsigned same = 0U;
  for (uint64_t x = 0U; x < 256U; ++x) {
    for (uint64_t y = 0U; y < 256U; ++y) {
      for (unsigned dims = 2U; dims <= 3U; ++dims) {
        const uint64_t a[3] = { x, y, x ^ y };
        uint64_t       b[3] = { x, y, x ^ y };
        uint64_t       e[3] = { x, y, x ^ y };
        b[dims - 2U] += (uint64_t)1U << 32U;
        e[dims - 1U] ^= 1U;
        same += corner_word(7U, b, dims) == corner_word(7U, e, dims);
        same += corner_word(7U, a, dims) == corner_word(7U, b, dims);
      }
    }
  }
  printf("# 2D chain == the 4D core's corner (x, 0, y, 0); a carry into the "
         "high half: %u equal words of 262144 pairs\n",
         same);
  assert(same < 8U);
}

int
main(void)
{
  test_avalanche();
  test_seed_bits();
  test_same_hash();
  test_corners();
  return 0;
}
