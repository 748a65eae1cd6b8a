// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The arithmetic of noise-bench's interleaved rounds (bench/rounds.h),
  without a clock: the rotation puts every contender in every position
  once over n rounds, the median and minimum are those of the per-round
  ratios, and a ratio is taken within its round (a round twice as slow
  for everyone gives the same ratio).
*/

#undef NDEBUG

#include "../bench/rounds.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

static void
test_order(void)
{
  enum { N = 4 };
  for (unsigned r = 0U; r < 7U; ++r) {
    bool seen[N] = { false };
    for (unsigned k = 0U; k < N; ++k) {
      const unsigned c = p4d_rounds_order(r, N, k);
      assert(c < N && !seen[c]);
      seen[c] = true;
    }
  }
  // Over N rounds, contender c runs once in each position.
  for (unsigned c = 0U; c < N; ++c) {
    unsigned positions = 0U;
    for (unsigned r = 0U; r < N; ++r) {
      for (unsigned k = 0U; k < N; ++k) {
        if (p4d_rounds_order(r, N, k) == c) {
          positions |= 1U << k;
        }
      }
    }
    assert(positions == (1U << N) - 1U);
  }
  // Round 0 runs them in table order, round 1 starts with the second.
  assert(p4d_rounds_order(0U, 3U, 0U) == 0U);
  assert(p4d_rounds_order(1U, 3U, 0U) == 1U);
  assert(p4d_rounds_order(1U, 3U, 2U) == 0U);
  printf("rotation: every contender in every position over n rounds\n");
}

static void
test_median(void)
{
  double odd[5] = { 5.0, 1.0, 4.0, 2.0, 3.0 };
  assert(p4d_rounds_median(odd, 5U) == 3.0);
  double even[4] = { 9.0, 1.0, 3.0, 2.0 };
  assert(p4d_rounds_median(even, 4U) == 2.5);
  const double some[3] = { 0.7, 0.2, 0.9 };
  assert(p4d_rounds_min(some, 3U) == 0.2);
  assert(p4d_rounds_median(NULL, 0U) == 0.0);
  printf("median 3 of 1..5, 2.5 of {1,2,3,9}, min 0.2\n");
}

static void
test_ratio(void)
{
  // Noise, LSP; and Motion, Pulsator, Chorus.
  const bool   lsp_peer[2]  = { false, true };
  const bool   calf_peer[3] = { false, true, true };
  const double quiet[2]     = { 130.0, 100.0 };
  const double loaded[2]    = { 260.0, 200.0 };
  assert(p4d_rounds_ratio(quiet, lsp_peer, 2U, 0U) == 1.3);
  assert(p4d_rounds_ratio(loaded, lsp_peer, 2U, 0U) == 1.3);
  const double calf[3] = { 180.0, 40.0, 60.0 };
  assert(fabs(p4d_rounds_ratio(calf, calf_peer, 3U, 0U) - 1.8) < 1e-15);
  const double missing[3] = { 180.0, -1.0, 60.0 };
  assert(p4d_rounds_ratio(missing, calf_peer, 3U, 0U) == -1.0);
  const bool none[2] = { false, false };
  assert(p4d_rounds_ratio(quiet, none, 2U, 0U) == -1.0);

  // A load that doubles between rounds moves the ratio of successive runs
  // (the old, sequential way) but not the per-round one.
  double       ratios[3];
  const double rounds[3][2] = { { 130.0, 100.0 },
                                { 260.0, 200.0 },
                                { 143.0, 110.0 } };
  for (unsigned r = 0U; r < 3U; ++r) {
    ratios[r] = p4d_rounds_ratio(rounds[r], lsp_peer, 2U, 0U);
  }
  assert(fabs(p4d_rounds_median(ratios, 3U) - 1.3) < 1e-12);
  assert(fabs(p4d_rounds_min(ratios, 3U) - 1.3) < 1e-12);
  printf("ratios within a round: 1.3 whatever the load, 1.8 over two "
         "peers, -1 without a peer\n");
}

int
main(void)
{
  test_order();
  test_median();
  test_ratio();
  return 0;
}
