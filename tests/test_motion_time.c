// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Motion on the song's time line (issue 12, item 1): a render that
  replays the parameters without audio up to p4d_motion_exact_from(F) and
  processes audio from there, and a plugin whose host jumps the song
  position, both give the bits of a straight run (from F, and after the
  bounded past).
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
  const size_t n = (size_t)(8.0 * RATE);
  P4dMotion*   m = NULL;
  assert(!p4d_motion_new(RATE, &m));
  float* in_l  = frames(n);
  float* in_r  = frames(n);
  float* ref_l = frames(n);
  float* ref_r = frames(n);
  float* out_l = frames(n);
  float* out_r = frames(n);
  noise(in_l, in_r, n, 6U, 0.5);
  run(m, NULL, 0, in_l, in_r, ref_l, ref_r, n, 1000U);

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
      const float* const in[2]  = { in_l + at, in_r + at };
      float* const       out[2] = { out_l + at, out_r + at };
      p4d_motion_process(m, p, in, out, NULL, (uint32_t)(end - at));
      at = end;
    }
    const size_t left = n - (size_t)f;
    assert(p4d_first_difference(ref_l + f, out_l + f, left) == left);
    assert(p4d_first_difference(ref_r + f, out_r + f, left) == left);
    printf("# timeline replayed without audio to %lld, audio from there: "
           "the bits of a straight run from %lld on\n",
           (long long)from,
           (long long)f);
  }

  free(in_l);
  free(in_r);
  free(ref_l);
  free(ref_r);
  free(out_l);
  free(out_r);
  p4d_motion_free(m);
}

/// A jump of the song position (as a host's transport says it): after the
/// bounded past, the bits of a straight run through the new position.
static void
test_relocate(void)
{
  const size_t n = (size_t)(10.0 * RATE);
  P4dMotion*   m = NULL;
  assert(!p4d_motion_new(RATE, &m));
  float* in_l  = frames(n);
  float* in_r  = frames(n);
  float* ref_l = frames(n);
  float* ref_r = frames(n);
  float* out_l = frames(n);
  float* out_r = frames(n);
  noise(in_l, in_r, n, 7U, 0.5);
  float p[P4D_MOTION_N_PARAMS];
  busy(p);
  run(m, p, 0, in_l, in_r, ref_l, ref_r, n, 512U);

  // Play 1 s of other audio from song frame 0, then jump to 100000.
  const int64_t jump = 100000;
  p4d_motion_activate(m);
  const float* const other[2] = { in_r, in_l };
  float* const       junk[2]  = { out_l, out_r };
  p4d_motion_process(m, p, other, junk, NULL, 48000U);
  const P4dTransport tr = { true, true, false, false, jump, 1.0, 0.0, 0.0 };
  p4d_motion_transport(m, &tr);
  for (int64_t at = jump; at < (int64_t)n; at += 512) {
    const uint32_t todo =
      (uint32_t)((int64_t)n - at < 512 ? (int64_t)n - at : 512);
    const float* const in[2]  = { in_l + at, in_r + at };
    float* const       out[2] = { out_l + at, out_r + at };
    p4d_motion_process(m, p, in, out, NULL, todo);
  }

  int64_t g = jump;
  while (p4d_motion_exact_from(m, g) < jump) {
    ++g;
  }
  const size_t left = n - (size_t)g;
  assert(p4d_first_difference(ref_l + g, out_l + g, left) == left);
  assert(p4d_first_difference(ref_r + g, out_r + g, left) == left);
  printf("# jump to %lld: the bits of a straight run from %lld on "
         "(%.2f s after)\n",
         (long long)jump,
         (long long)g,
         (double)(g - jump) / RATE);

  free(in_l);
  free(in_r);
  free(ref_l);
  free(ref_r);
  free(out_l);
  free(out_r);
  p4d_motion_free(m);
}

int
main(void)
{
  test_replay();
  test_relocate();
  return 0;
}
