// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The avalanche of the lattice hash (issue 11, item 7), measured once for
  test_hash and for the benchmark's lattice figures (bench/lattice.c): the
  probability that one flipped input bit (of the 32-bit seed, or of any of
  the 64 bits of a cell on x, y, z or w) flips each of the 5 bits of a
  corner's gradient index, over inputs the caller draws; for each input
  word, the worst |p - 0.5| and where it lies.  A hash with full avalanche
  has p = 0.5 everywhere.

  kernel.h is the noise core's internal header: the measurement runs
  exactly the core's hash.  Header only, as stats.h, so that the benchmark
  shares it without the support library.
*/

#ifndef P4D_TEST_AVALANCHE_H
#define P4D_TEST_AVALANCHE_H

#include "kernel.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/// The input words: the seed (its low 32 bits), then the cell's x, y, z, w.
#define P4D_AVALANCHE_WORDS 5U

/// The bits of a corner's gradient index (32 gradients).
#define P4D_AVALANCHE_OUT_BITS 5U

/// The bits of each input word, and its name.
static const unsigned    p4d_avalanche_bits[P4D_AVALANCHE_WORDS]  = { 32U,
                                                                      64U,
                                                                      64U,
                                                                      64U,
                                                                      64U };
static const char* const p4d_avalanche_names[P4D_AVALANCHE_WORDS] = {
  "seed",
  "x cell",
  "y cell",
  "z cell",
  "w cell"
};

/// The worst departure from full avalanche, per input word.
typedef struct {
  double   worst[P4D_AVALANCHE_WORDS];   ///< Largest |p - 0.5|
  unsigned bit[P4D_AVALANCHE_WORDS];     ///< The input bit where it lies
  unsigned out_bit[P4D_AVALANCHE_WORDS]; ///< The gradient index bit
  double   overall;                      ///< The largest of them all
} P4dAvalanche;

/// Draws input number n (seed in in[0], cells in in[1..4]) into in.
typedef void (*P4dAvalancheDraw)(void*    state,
                                 unsigned n,
                                 uint64_t in[P4D_AVALANCHE_WORDS]);

/// The gradient index of the corner at cell in[1..4] for seed in[0] (its
/// low 32 bits), chained exactly as hash_corners() chains it.
static inline uint32_t
p4d_avalanche_index(const uint64_t in[P4D_AVALANCHE_WORDS])
{
  return hash_cell(seed_key((uint32_t)in[0]), in + 1);
}

/**
   Measure the avalanche over n_inputs inputs from draw(state, n, in).
   Deterministic for a deterministic draw; not realtime safe (its counts
   are static: one measurement at a time).
*/
static inline P4dAvalanche
p4d_avalanche_measure(unsigned n_inputs, P4dAvalancheDraw draw, void* state)
{
  static uint32_t flips[P4D_AVALANCHE_WORDS][64][P4D_AVALANCHE_OUT_BITS];
  memset(flips, 0, sizeof(flips));

  for (unsigned n = 0U; n < n_inputs; ++n) {
    uint64_t in[P4D_AVALANCHE_WORDS];
    draw(state, n, in);
    const uint32_t g = p4d_avalanche_index(in);
    for (unsigned i = 0U; i < P4D_AVALANCHE_WORDS; ++i) {
      for (unsigned b = 0U; b < p4d_avalanche_bits[i]; ++b) {
        in[i] ^= (uint64_t)1U << b;
        const uint32_t d = g ^ p4d_avalanche_index(in);
        in[i] ^= (uint64_t)1U << b;
        for (unsigned o = 0U; o < P4D_AVALANCHE_OUT_BITS; ++o) {
          flips[i][b][o] += (d >> o) & 1U;
        }
      }
    }
  }

  P4dAvalanche a;
  memset(&a, 0, sizeof(a));
  for (unsigned i = 0U; i < P4D_AVALANCHE_WORDS; ++i) {
    for (unsigned b = 0U; b < p4d_avalanche_bits[i]; ++b) {
      for (unsigned o = 0U; o < P4D_AVALANCHE_OUT_BITS; ++o) {
        const double p = (double)flips[i][b][o] / (double)n_inputs;
        if (fabs(p - 0.5) > a.worst[i]) {
          a.worst[i]   = fabs(p - 0.5);
          a.bit[i]     = b;
          a.out_bit[i] = o;
        }
      }
    }
    a.overall = a.worst[i] > a.overall ? a.worst[i] : a.overall;
  }
  return a;
}

#endif // P4D_TEST_AVALANCHE_H
