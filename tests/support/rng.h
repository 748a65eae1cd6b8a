// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The tests' one random generator: xorshift64* (Vigna, "An experimental
  exploration of Marsaglia's xorshift generators, scrambled", 2016).  Each
  test seeds its own state, so that its random cases are the same on every
  run and every machine, and never depend on the order of other tests.
*/

#ifndef P4D_TEST_RNG_H
#define P4D_TEST_RNG_H

#include <stdint.h>

/// A generator's state; any value but zero is a valid seed.
typedef struct {
  uint64_t state;
} P4dRng;

/// The next 64 random bits.
static inline uint64_t
p4d_rng_next(P4dRng* rng)
{
  rng->state ^= rng->state >> 12;
  rng->state ^= rng->state << 25;
  rng->state ^= rng->state >> 27;
  return rng->state * 0x2545F4914F6CDD1DULL;
}

/// A double uniform in [lo, hi), from the top 53 bits.
static inline double
p4d_rng_uniform(P4dRng* rng, double lo, double hi)
{
  return lo + (hi - lo) * (double)(p4d_rng_next(rng) >> 11) * 0x1p-53;
}

/// An integer uniform in [0, n), n > 0 (with the slight bias of a modulo).
static inline unsigned
p4d_rng_below(P4dRng* rng, unsigned n)
{
  return (unsigned)(p4d_rng_next(rng) % n);
}

#endif // P4D_TEST_RNG_H
