// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#ifndef P4D_BENCH_ROUNDS_H
#define P4D_BENCH_ROUNDS_H

/*
  The arithmetic of an interleaved benchmark (noise-bench): every contender
  of a comparison runs once per round, in an order rotated each round, and
  each ratio is taken within its round, so that a change of load between
  rounds moves both sides of the ratio alike.  No clock here: the tests
  check this without timing anything.
*/

#include <stdbool.h>

/**
  The contender that runs in position k of round r among n contenders:
  (k + r) mod n, so that over n rounds each contender runs once in every
  position.  Pure; n > 0.
*/
unsigned
p4d_rounds_order(unsigned r, unsigned n, unsigned k);

/**
  The median of v[0..n) (the mean of the middle two when n is even); sorts
  v in place.  0 when n is 0.  Not realtime (qsort).
*/
double
p4d_rounds_median(double* v, unsigned n);

/**
  The smallest of v[0..n), or 0 when n is 0.  Pure.
*/
double
p4d_rounds_min(const double* v, unsigned n);

/**
  Within one round: ns[row] over the sum of ns[i] for every i with peer[i]
  set (the peers' cost together), or -1 when a peer or the row has no
  figure (a negative ns) or there is no peer.  Pure.
*/
double
p4d_rounds_ratio(const double* ns, const bool* peer, unsigned n, unsigned row);

#endif
