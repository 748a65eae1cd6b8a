// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Motion on the song's time line (issue 12, item 1): a render that
  replays the parameters without audio up to p4d_motion_exact_from(F) and
  processes audio from there, and a plugin whose host jumps the song
  position, both give the bits of a straight run (from F, and after the
  bounded past), whatever the starts' and jumps' phase on the filter
  coefficient's 16-frame knots (which sit on the song frame, as the filter
  grid).
*/

#undef NDEBUG

#include "motion.h"
#include "params.h"

#include "support/compare.h"
#include "support/motion_rig.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RATE 48000.0

/// With a timeline that moves every control: replaying the parameters
/// (out NULL) from 0 to p4d_motion_exact_from(F), then processing audio
/// from there, gives from F on the bits of a straight run.
static void
test_replay(void)
{
  const size_t     n     = (size_t)(8.0 * RATE);
  P4dMotionBench   bench = p4d_motion_bench_new(RATE, n);
  P4dMotion* const m     = bench.m;
  noise(bench.in_l, bench.in_r, n, 6U, 0.5);
  run(m, NULL, 0, bench.in_l, bench.in_r, bench.ref_l, bench.ref_r, n, 1000U);

  const int64_t targets[] = { 200000, 333333 };
  for (unsigned t = 0U; t < 2U; ++t) {
    const int64_t f    = targets[t];
    const int64_t from = p4d_motion_exact_from(m, f);
    p4d_motion_activate(m);
    float p[P4D_MOTION_N_PARAMS];
    for (int64_t at = 0; at < from;) {
      const int64_t next = (at / 6000 + 1) * 6000;
      const int64_t end  = next < from ? next : from;
      timeline(p, at);
      p4d_motion_process(m, p, NULL, NULL, NULL, (uint32_t)(end - at));
      at = end;
    }
    for (int64_t at = from; at < (int64_t)n;) {
      const int64_t next = (at / 6000 + 1) * 6000;
      const int64_t end  = next < (int64_t)n ? next : (int64_t)n;
      timeline(p, at);
      const float* const in[2]  = { bench.in_l + at, bench.in_r + at };
      float* const       out[2] = { bench.out_l + at, bench.out_r + at };
      p4d_motion_process(m, p, in, out, NULL, (uint32_t)(end - at));
      at = end;
    }
    const size_t left = n - (size_t)f;
    assert(p4d_first_difference(bench.ref_l + f, bench.out_l + f, left) ==
           left);
    assert(p4d_first_difference(bench.ref_r + f, bench.out_r + f, left) ==
           left);
    printf("# timeline replayed without audio to %lld, audio from there: "
           "the bits of a straight run from %lld on\n",
           (long long)from,
           (long long)f);
  }

  p4d_motion_bench_free(&bench);
}

/// Frames from which a and b agree to their end (n when the last differs).
static size_t
equal_tail(const float* a, const float* b, size_t n)
{
  size_t e = n;
  while (e > 0U && p4d_first_difference(a + e - 1U, b + e - 1U, 1U) == 1U) {
    --e;
  }
  return e;
}

/// A stretch of host transport: `frames` of audio from song frame `frame`
/// at `speed`, announced by a transport (frame always set).
typedef struct {
  int64_t  frame;
  double   speed;
  uint32_t frames;
} Leg;

/**
   Play the legs in order after activate() (the first legs on other audio),
   the last one on in from its song frame; return the frame from which the
   output equals ref (a straight run from song frame 0) to its end.  The
   legs' lengths and positions are off the knots' 16-frame grid.
*/
static int64_t
play_legs(P4dMotion*         m,
          const float*       p,
          const Leg*         legs,
          unsigned           n_legs,
          const float* const in[2],
          float* const       ref[2],
          float* const       out[2],
          size_t             n)
{
  p4d_motion_activate(m);
  for (unsigned k = 0U; k < n_legs; ++k) {
    const Leg          l  = legs[k];
    const P4dTransport tr = { true,    true,    false, false,
                              l.frame, l.speed, 0.0,   0.0 };
    p4d_motion_transport(m, &tr);
    const bool    last = k + 1U == n_legs;
    const int64_t end  = last ? (int64_t)n : l.frame + (int64_t)l.frames;
    for (int64_t at = l.frame; at < end; at += 333) {
      const uint32_t todo = (uint32_t)(end - at < 333 ? end - at : 333);
      // Before the last leg: other audio (the channels swapped) into out,
      // which the last leg overwrites where it is compared.
      const size_t       o     = last ? (size_t)at : 0U;
      const float* const i2[2] = { in[last ? 0 : 1] + at,
                                   in[last ? 1 : 0] + at };
      float* const       o2[2] = { out[0] + o, out[1] + o };
      p4d_motion_process(m, p, i2, o2, NULL, todo);
    }
  }
  const int64_t f    = legs[n_legs - 1U].frame;
  const size_t  left = n - (size_t)f;
  const size_t  el   = equal_tail(ref[0] + f, out[0] + f, left);
  const size_t  er   = equal_tail(ref[1] + f, out[1] + f, left);
  return f + (int64_t)(el > er ? el : er);
}

/// The first frame whose bounded past (p4d_motion_exact_from()) begins at
/// or after jump: from there on a run through jump is exact.
static int64_t
first_exact(const P4dMotion* m, int64_t jump)
{
  int64_t g = jump;
  while (p4d_motion_exact_from(m, g) < jump) {
    ++g;
  }
  return g;
}

/// Jumps of the song position (as a host's transport says them), to frames
/// and after stretches off the knots' 16-frame grid, and a stretch at
/// another speed: after the bounded past (the first G with
/// p4d_motion_exact_from(G) at or after the jump), the bits of a straight
/// run through the new position.
static void
test_relocate(void)
{
  const size_t     n     = (size_t)(10.0 * RATE);
  P4dMotionBench   bench = p4d_motion_bench_new(RATE, n);
  P4dMotion* const m     = bench.m;
  noise(bench.in_l, bench.in_r, n, 7U, 0.5);
  float p[P4D_MOTION_N_PARAMS];
  busy(p);
  run(m, p, 0, bench.in_l, bench.in_r, bench.ref_l, bench.ref_r, n, 512U);
  const float* const in[2]  = { bench.in_l, bench.in_r };
  float* const       ref[2] = { bench.ref_l, bench.ref_r };
  float* const       out[2] = { bench.out_l, bench.out_r };

  // From 1 s (+ pre) of other audio at song frame 0 to the jump.
  static const int64_t jumps[][2] = {
    { 0, 100000 }, { 3, 100000 },  { 0, 100123 },
    { 5, 100001 }, { 11, 100007 }, { 8, 288123 },
  };
  for (unsigned j = 0U; j < sizeof(jumps) / sizeof(jumps[0]); ++j) {
    const int64_t jump    = jumps[j][1];
    const Leg     legs[2] = { { 0, 1.0, (uint32_t)(48000 + jumps[j][0]) },
                              { jump, 1.0, 0U } };
    const int64_t equal   = play_legs(m, p, legs, 2U, in, ref, out, n);
    const int64_t g       = first_exact(m, jump);
    printf("# jump to %lld (%lld mod 16) after %lld frames: the bits of a "
           "straight run from %lld (%.3f s after), bound %lld (%.3f s)\n",
           (long long)jump,
           (long long)(jump % 16),
           (long long)legs[0].frames,
           (long long)equal,
           (double)(equal - jump) / RATE,
           (long long)g,
           (double)(g - jump) / RATE);
    assert(equal <= g);
  }

  // Speed 2 for a while, then back at speed 1 where the song went on (no
  // jump at the return: the host's position is the one counted on).
  const Leg     legs[3] = { { 0, 1.0, 48005U },
                            { 50005, 2.0, 10003U },
                            { 50005 + 2 * 10003, 1.0, 0U } };
  const int64_t back    = legs[2].frame;
  const int64_t equal   = play_legs(m, p, legs, 3U, in, ref, out, n);
  const int64_t g       = first_exact(m, back);
  printf("# speed 2 from %lld, speed 1 again at %lld: the bits of a "
         "straight run from %lld (%.3f s after), bound %lld\n",
         (long long)legs[1].frame,
         (long long)back,
         (long long)equal,
         (double)(equal - back) / RATE,
         (long long)g);
  assert(equal <= g);

  p4d_motion_bench_free(&bench);
}

/// A render's start (the renderer: activate_at(p4d_motion_exact_from(F)),
/// then audio) at frames F on and off the knots' 16-frame grid gives from
/// F on the bits of a straight run.
static void
test_starts(void)
{
  const size_t     n     = (size_t)(8.0 * RATE);
  P4dMotionBench   bench = p4d_motion_bench_new(RATE, n);
  P4dMotion* const m     = bench.m;
  noise(bench.in_l, bench.in_r, n, 8U, 0.5);
  float p[P4D_MOTION_N_PARAMS];
  busy(p);
  run(m, p, 0, bench.in_l, bench.in_r, bench.ref_l, bench.ref_r, n, 4096U);

  // Earlier starts than p4d_motion_exact_from() do too: the starts' phases
  // on the 16-frame grid then vary (exact_from's is the same at every F).
  static const int64_t starts[]  = { 200009, 240011, 277777, 300000 };
  static const int64_t earlier[] = { 0, 3, 9, 13 };
  for (unsigned s = 0U; s < sizeof(starts) / sizeof(starts[0]); ++s) {
    for (unsigned e = 0U; e < sizeof(earlier) / sizeof(earlier[0]); ++e) {
      const int64_t f    = starts[s];
      int64_t       from = p4d_motion_exact_from(m, f) - earlier[e];
      from               = from > 0 ? from : 0;
      const size_t len   = n - (size_t)from;
      run(m,
          p,
          from,
          bench.in_l + from,
          bench.in_r + from,
          bench.out_l,
          bench.out_r,
          len,
          1000U);
      const size_t left = n - (size_t)f;
      const size_t skip = (size_t)(f - from);
      p4d_assert_same(
        "start left", bench.ref_l + f, bench.out_l + skip, 0U, left);
      p4d_assert_same(
        "start right", bench.ref_r + f, bench.out_r + skip, 0U, left);
      printf("# render of %lld (%lld mod 16) from %lld (%lld mod 16): the "
             "bits of a straight run\n",
             (long long)f,
             (long long)(f % 16),
             (long long)from,
             (long long)(from % 16));
    }
  }

  p4d_motion_bench_free(&bench);
}

int
main(void)
{
  test_replay();
  test_relocate();
  test_starts();
  return 0;
}
