// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Motion's processor (issue 12): latency and bypass line up, the
  gain curve is the Mod engine's channel mapped by the depth (item 2),
  spread 0 gives both sides the same bits, any block size and any buffer
  aliasing give the same bits, NaN and infinite input is silence, and a
  render started at p4d_motion_exact_from(F) joins a straight run at F.
*/

#undef NDEBUG

#include "engine.h"
#include "motion.h"
#include "params.h"

#include "support/compare.h"
#include "support/rng.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 48000.0
#define N_FRAMES 48000U

#include "support/motion_rig.h"

/// Assert that left and right hold the bits of want_l and want_r over n
/// frames.
static void
assert_same_pair(const float* want_l,
                 const float* want_r,
                 const float* left,
                 const float* right,
                 size_t       n)
{
  assert(p4d_first_difference(want_l, left, n) == n);
  assert(p4d_first_difference(want_r, right, n) == n);
}

static void
test_new(void)
{
  P4dMotion* m = NULL;
  assert(p4d_motion_new(999.0, &m) == P4D_ERR_BAD_ARG && !m);
  assert(p4d_motion_new(NAN, &m) == P4D_ERR_BAD_ARG && !m);
  p4d_motion_free(NULL);

  const double   rates[]   = { 44100.0, 48000.0, 96000.0, 768000.0 };
  const uint32_t latency[] = { 546U, 592U, 1168U, 9232U };
  for (unsigned i = 0U; i < 4U; ++i) {
    assert(!p4d_motion_new(rates[i], &m));
    printf(
      "# latency at %.0f Hz: %u frames\n", rates[i], p4d_motion_latency(m));
    assert(p4d_motion_latency(m) == latency[i]);
    p4d_motion_free(m);
  }
}

/// Every target off, and bypass: the input, delayed by the latency, bit
/// for bit; bypass fades there in 20 ms and stays.
static void
test_delay_and_bypass(void)
{
  P4dMotion* m = NULL;
  assert(!p4d_motion_new(RATE, &m));
  const uint32_t d = p4d_motion_latency(m);

  float* in_l  = frames(N_FRAMES);
  float* in_r  = frames(N_FRAMES);
  float* out_l = frames(N_FRAMES);
  float* out_r = frames(N_FRAMES);
  noise(in_l, in_r, N_FRAMES, 1U, 1.0);

  float p[P4D_MOTION_N_PARAMS];
  neutral(p);
  run(m, p, 0, in_l, in_r, out_l, out_r, N_FRAMES, 512U);
  for (size_t i = 0U; i < N_FRAMES; ++i) {
    const float want_l = i < d ? 0.0f : in_l[i - d];
    const float want_r = i < d ? 0.0f : in_r[i - d];
    assert(p4d_same_bits(out_l[i], want_l));
    assert(p4d_same_bits(out_r[i], want_r));
  }

  // Busy, then bypass at frame 24000: the dry signal from 24960 on.
  busy(p);
  p4d_motion_activate(m);
  const float* in[2]  = { in_l, in_r };
  float*       out[2] = { out_l, out_r };
  p4d_motion_process(m, p, in, out, NULL, 24000U);
  p[P4D_MOTION_ENABLED] = 0.0f;
  const float* in2[2]   = { in_l + 24000, in_r + 24000 };
  float*       out2[2]  = { out_l + 24000, out_r + 24000 };
  p4d_motion_process(m, p, in2, out2, NULL, 24000U);
  for (size_t i = 24960U; i < N_FRAMES; ++i) {
    assert(p4d_same_bits(out_l[i], in_l[i - d]));
    assert(p4d_same_bits(out_r[i], in_r[i - d]));
  }
  printf("# every target off, and bypass from 20 ms after: the input "
         "delayed by %u frames, bit for bit\n",
         d);

  free(in_l);
  free(in_r);
  free(out_l);
  free(out_r);
  p4d_motion_free(m);
}

/// Item 2: on a constant input of 1, Motion's left gain is the Mod
/// engine's channel 1 (same time settings, spread 1, out 0 to 1) mapped by
/// dB = gain_db (u - 1) / 2, u = 2 c - 1; the right side at spread 0 is the
/// same bits, at spread 1 the channel of a Mod engine with morph_z + 4.
static void
test_gain_is_mod_channel(void)
{
  const float spreads[] = { 0.0f, 1.0f };
  for (unsigned s = 0U; s < 2U; ++s) {
    P4dMotion* m = NULL;
    assert(!p4d_motion_new(RATE, &m));
    P4dEngine* e[2] = { NULL, NULL };
    assert(!p4d_engine_new(P4D_KIND_MOD, RATE, &e[0]));
    assert(!p4d_engine_new(P4D_KIND_MOD, RATE, &e[1]));
    const uint32_t d = p4d_motion_latency(m);

    float p[P4D_MOTION_N_PARAMS];
    neutral(p);
    p[P4D_MOTION_GAIN_DB]   = 18.0f;
    p[P4D_MOTION_RATE_HZ]   = 2.5f;
    p[P4D_MOTION_OCTAVES]   = 4.0f;
    p[P4D_MOTION_MORPH_X]   = 1.25f;
    p[P4D_MOTION_MORPH_Z]   = -3.0f;
    p[P4D_MOTION_SEED]      = 77.0f;
    p[P4D_MOTION_SPREAD]    = spreads[s];
    p[P4D_MOTION_SMOOTH_MS] = 50.0f;

    float mp[P4D_MOD_N_PARAMS];
    p4d_param_defaults(p4d_params(P4D_KIND_MOD), mp);
    mp[P4D_MOD_RATE_HZ]   = 2.5f;
    mp[P4D_MOD_OCTAVES]   = 4.0f;
    mp[P4D_MOD_MORPH_X]   = 1.25f;
    mp[P4D_MOD_MORPH_Z]   = -3.0f;
    mp[P4D_MOD_SEED]      = 77.0f;
    mp[P4D_MOD_SPREAD]    = 1.0f;
    mp[P4D_MOD_OUT_MIN]   = 0.0f;
    mp[P4D_MOD_OUT_MAX]   = 1.0f;
    mp[P4D_MOD_SMOOTH_MS] = 50.0f;
    float mp_r[P4D_MOD_N_PARAMS];
    memcpy(mp_r, mp, sizeof(mp));
    mp_r[P4D_MOD_MORPH_Z] = -3.0f + 4.0f * spreads[s];

    float* ones  = frames(N_FRAMES);
    float* out_l = frames(N_FRAMES);
    float* out_r = frames(N_FRAMES);
    float* ch[2][4];
    for (unsigned k = 0U; k < 2U; ++k) {
      for (unsigned c = 0U; c < 4U; ++c) {
        ch[k][c] = frames(N_FRAMES);
      }
    }
    for (size_t i = 0U; i < N_FRAMES; ++i) {
      ones[i] = 1.0f;
    }
    run(m, p, 0, ones, ones, out_l, out_r, N_FRAMES, 333U);
    p4d_engine_process(e[0], mp, ch[0], N_FRAMES);
    p4d_engine_process(e[1], mp_r, ch[1], N_FRAMES);

    double worst[2] = { 0.0, 0.0 };
    for (size_t i = d; i < N_FRAMES; ++i) {
      const float* const side[2] = { out_l, out_r };
      for (unsigned k = 0U; k < 2U; ++k) {
        const double u    = 2.0 * ch[k][0][i] - 1.0;
        const double db   = 18.0 * (u - 1.0) * 0.5;
        const double want = pow(10.0, db / 20.0);
        const double err  = fabs(side[k][i] / want - 1.0);
        worst[k]          = err > worst[k] ? err : worst[k];
      }
    }
    printf("# spread %.0f: gain vs Mod channel 1 mapped by the depth, "
           "relative error left %.2g, right %.2g\n",
           spreads[s],
           worst[0],
           worst[1]);
    assert(worst[0] < 3.0e-7 && worst[1] < 3.0e-7);
    if (spreads[s] == 0.0f) {
      assert(p4d_first_difference(out_l, out_r, N_FRAMES) == N_FRAMES);
    }

    free(ones);
    free(out_l);
    free(out_r);
    for (unsigned k = 0U; k < 2U; ++k) {
      for (unsigned c = 0U; c < 4U; ++c) {
        free(ch[k][c]);
      }
      p4d_engine_free(e[k]);
    }
    p4d_motion_free(m);
  }
}

/// Blocks of 1, 7, 64 and 4096 frames give the bits of one run, with a
/// timeline that moves every control (mode, cutoff, spread, bypass).
static void
test_blocks(void)
{
  const size_t     n     = 48000U;
  P4dMotionBench   bench = p4d_motion_bench_new(RATE, n);
  P4dMotion* const m     = bench.m;
  noise(bench.in_l, bench.in_r, n, 2U, 0.5);

  run(m, NULL, 0, bench.in_l, bench.in_r, bench.ref_l, bench.ref_r, n, n);
  const size_t blocks[] = { 1U, 7U, 64U, 4096U };
  for (unsigned b = 0U; b < 4U; ++b) {
    run(m,
        NULL,
        0,
        bench.in_l,
        bench.in_r,
        bench.out_l,
        bench.out_r,
        n,
        blocks[b]);
    assert_same_pair(bench.ref_l, bench.ref_r, bench.out_l, bench.out_r, n);
  }
  printf("# blocks of 1, 7, 64, 4096: the bits of one run\n");

  p4d_motion_bench_free(&bench);
}

/// In place, one buffer for both inputs, and outputs crossed over the
/// inputs all give the bits of separate buffers.
static void
test_aliasing(void)
{
  const size_t     n     = 20000U;
  P4dMotionBench   bench = p4d_motion_bench_new(RATE, n);
  P4dMotion* const m     = bench.m;
  float*           a     = frames(n);
  float*           b     = frames(n);
  noise(bench.in_l, bench.in_r, n, 3U, 0.5);
  float p[P4D_MOTION_N_PARAMS];
  busy(p);

  // In place, in blocks of 300.
  run(m, p, 0, bench.in_l, bench.in_r, bench.ref_l, bench.ref_r, n, 300U);
  memcpy(a, bench.in_l, n * sizeof(float));
  memcpy(b, bench.in_r, n * sizeof(float));
  run(m, p, 0, a, b, a, b, n, 300U);
  assert_same_pair(bench.ref_l, bench.ref_r, a, b, n);

  // Crossed: out L is in R's buffer, out R in L's.
  memcpy(a, bench.in_l, n * sizeof(float));
  memcpy(b, bench.in_r, n * sizeof(float));
  run(m, p, 0, a, b, b, a, n, 300U);
  assert_same_pair(bench.ref_l, bench.ref_r, b, a, n);

  // Mono: one buffer for both inputs, and for the left output.
  run(m, p, 0, bench.in_l, bench.in_l, bench.ref_l, bench.ref_r, n, 300U);
  memcpy(a, bench.in_l, n * sizeof(float));
  run(m, p, 0, a, a, a, b, n, 300U);
  assert_same_pair(bench.ref_l, bench.ref_r, a, b, n);
  printf("# in place, crossed and mono buffers: the same bits\n");

  free(a);
  free(b);
  p4d_motion_bench_free(&bench);
}

/// NaN and infinite samples are silence: a run with bursts of them gives
/// the bits of a run with zeros there; huge input stays finite; nothing
/// denormal comes out.
static void
test_hostile_input(void)
{
  const size_t     n     = 48000U;
  P4dMotionBench   bench = p4d_motion_bench_new(RATE, n);
  P4dMotion* const m     = bench.m;
  float*           zl    = frames(n);
  float*           zr    = frames(n);
  noise(bench.in_l, bench.in_r, n, 4U, 0.5);
  memcpy(zl, bench.in_l, n * sizeof(float));
  memcpy(zr, bench.in_r, n * sizeof(float));
  const float bad[] = { NAN, INFINITY, -INFINITY, 1.0e-40f };
  for (size_t i = 10000U; i < 12000U; ++i) {
    bench.in_l[i] = bad[i % 4U];
    bench.in_r[i] = bad[(i + 1U) % 4U];
    zl[i] = zr[i] = 0.0f;
  }
  for (size_t i = 30000U; i < 30010U; ++i) {
    bench.in_l[i] = zl[i] = 3.0e38f;
    bench.in_r[i] = zr[i] = -3.0e38f;
  }

  float p[P4D_MOTION_N_PARAMS];
  busy(p);
  p[P4D_MOTION_OUTPUT_DB] = 12.0f;
  p[P4D_MOTION_RESONANCE] = 1.0f;
  run(m, p, 0, zl, zr, bench.ref_l, bench.ref_r, n, 256U);
  run(m, p, 0, bench.in_l, bench.in_r, bench.out_l, bench.out_r, n, 256U);
  assert_same_pair(bench.ref_l, bench.ref_r, bench.out_l, bench.out_r, n);
  for (size_t i = 0U; i < n; ++i) {
    assert(isfinite(bench.out_l[i]) && isfinite(bench.out_r[i]));
    assert(bench.out_l[i] == 0.0f || fabsf(bench.out_l[i]) >= 1.0e-30f);
    assert(bench.out_r[i] == 0.0f || fabsf(bench.out_r[i]) >= 1.0e-30f);
  }
  printf("# NaN, inf and denormal bursts: the bits of zeros; 3e38 input "
         "stays finite\n");

  free(zl);
  free(zr);
  p4d_motion_bench_free(&bench);
}

/// A render started at p4d_motion_exact_from(F) gives, from F on, the bits
/// of a straight run from 4.5 s before the song's start, with every target
/// busy and the slowest filter; F may lie before song frame 0 (a host that
/// compensates the latency plays from -latency), and so may the start.
static void
test_exact_from(void)
{
  const int64_t    s0    = (int64_t)(-4.5 * RATE); // song frame of index 0
  const size_t     n     = (size_t)(14.5 * RATE);
  P4dMotionBench   bench = p4d_motion_bench_new(RATE, n);
  P4dMotion* const m     = bench.m;
  noise(bench.in_l, bench.in_r, n, 5U, 0.5);
  float p[P4D_MOTION_N_PARAMS];
  busy(p);
  p[P4D_MOTION_CUTOFF_HZ]  = 20.0f;
  p[P4D_MOTION_RESONANCE]  = 1.0f;
  p[P4D_MOTION_FILTER_OCT] = 2.0f;
  run(m, p, s0, bench.in_l, bench.in_r, bench.ref_l, bench.ref_r, n, 1024U);

  const int64_t targets[] = { -592, 10, 100000, 250000, 400000, 470000 };
  for (unsigned t = 0U; t < sizeof(targets) / sizeof(targets[0]); ++t) {
    const int64_t f    = targets[t];
    const int64_t from = p4d_motion_exact_from(m, f);
    assert(from <= f && from >= s0);
    // The filters' 3.9 s, the line's reach and the slew limiter's 2 (2
    // swing / 0.5 + 2) frames.
    assert(f - from <= (int64_t)(3.9 * RATE) + 1200 + 4612);
    const size_t i0  = (size_t)(from - s0);
    const size_t i   = (size_t)(f - s0);
    const size_t len = n - i0;
    run(m,
        p,
        from,
        bench.in_l + i0,
        bench.in_r + i0,
        bench.out_l + i0,
        bench.out_r + i0,
        len,
        1000U);
    assert_same_pair(bench.ref_l + i,
                     bench.ref_r + i,
                     bench.out_l + i,
                     bench.out_r + i,
                     n - i);
    printf("# exact from %lld: start at %lld (%.2f s before), same bits\n",
           (long long)f,
           (long long)from,
           (double)(f - from) / RATE);
  }

  p4d_motion_bench_free(&bench);
}

int
main(void)
{
  test_new();
  test_delay_and_bypass();
  test_gain_is_mod_channel();
  test_blocks();
  test_aliasing();
  test_hostile_input();
  test_exact_from();
  return 0;
}
