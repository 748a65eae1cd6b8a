// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  What the Motion tests share: parameter sets, a timeline that moves every
  control, stereo noise, and a runner in blocks.
*/

#ifndef P4D_TEST_MOTION_RIG_H
#define P4D_TEST_MOTION_RIG_H

#include "motion.h"
#include "params.h"

#include "support/rng.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// Motion's defaults with every target off: the output is the input,
/// delayed by the latency.
static inline void
neutral(float* p)
{
  p4d_param_defaults(p4d_params(P4D_KIND_MOTION), p);
  p[P4D_MOTION_GAIN_DB]     = 0.0f;
  p[P4D_MOTION_PAN_DEPTH]   = 0.0f;
  p[P4D_MOTION_FILTER_MODE] = (float)P4D_MOTION_FILTER_OFF;
  p[P4D_MOTION_WOW_MS]      = 0.0f;
  p[P4D_MOTION_FLUTTER_MS]  = 0.0f;
}

/// Every target busy, fast and deep.
static inline void
busy(float* p)
{
  p4d_param_defaults(p4d_params(P4D_KIND_MOTION), p);
  p[P4D_MOTION_RATE_HZ]     = 3.0f;
  p[P4D_MOTION_SPREAD]      = 0.6f;
  p[P4D_MOTION_GAIN_DB]     = 12.0f;
  p[P4D_MOTION_PAN_DEPTH]   = 0.8f;
  p[P4D_MOTION_WIDTH]       = 0.5f;
  p[P4D_MOTION_FILTER_MODE] = (float)P4D_MOTION_FILTER_LOW_PASS;
  p[P4D_MOTION_CUTOFF_HZ]   = 800.0f;
  p[P4D_MOTION_FILTER_OCT]  = 4.0f;
  p[P4D_MOTION_RESONANCE]   = 0.9f;
  p[P4D_MOTION_WOW_MS]      = 6.0f;
  p[P4D_MOTION_FLUTTER_MS]  = 1.0f;
  p[P4D_MOTION_MIX]         = 0.8f;
  p[P4D_MOTION_OUTPUT_DB]   = 3.0f;
}

/// Stereo noise, uniform in [-amp, amp).
static inline void
noise(float* l, float* r, size_t n, uint64_t seed, double amp)
{
  P4dRng rng = { seed };
  for (size_t i = 0U; i < n; ++i) {
    l[i] = (float)p4d_rng_uniform(&rng, -amp, amp);
    r[i] = (float)p4d_rng_uniform(&rng, -amp, amp);
  }
}

/// The parameters at frame f of a timeline that changes every 6000 frames.
static inline void
timeline(float* p, int64_t f)
{
  busy(p);
  const int64_t k           = f / 6000;
  p[P4D_MOTION_FILTER_MODE] = (float)(k % 4);
  p[P4D_MOTION_CUTOFF_HZ]   = k % 2 ? 300.0f : 2000.0f;
  p[P4D_MOTION_SPREAD]      = k % 3 ? 0.0f : 1.0f;
  p[P4D_MOTION_ENABLED]     = k == 5 ? 0.0f : 1.0f;
  p[P4D_MOTION_WOW_MS]      = k == 2 ? 0.0f : 10.0f;
}

/**
   Process in[0 .. n) from song frame start into out, in blocks of block
   frames (cut at the timeline's changes), with the timeline's parameters
   (or fixed ones if params is set).
*/
static inline void
run(P4dMotion*   m,
    const float* params,
    int64_t      start,
    const float* in_l,
    const float* in_r,
    float*       out_l,
    float*       out_r,
    size_t       n,
    size_t       block)
{
  p4d_motion_activate_at(m, start, 120.0);
  float p[P4D_MOTION_N_PARAMS];
  for (size_t done = 0U; done < n;) {
    const int64_t f    = start + (int64_t)done;
    size_t        todo = n - done < block ? n - done : block;
    if (!params) {
      const int64_t next = (f / 6000 + 1) * 6000;
      todo = (size_t)(next - f) < todo ? (size_t)(next - f) : todo;
      timeline(p, f);
    } else {
      memcpy(p, params, sizeof(p));
    }
    const float* const in[2]  = { in_l + done, in_r + done };
    float* const       out[2] = { out_l + done, out_r + done };
    p4d_motion_process(m, p, in, out, NULL, (uint32_t)todo);
    done += todo;
  }
}

static inline float*
frames(size_t n)
{
  float* x = (float*)calloc(n, sizeof(float));
  assert(x);
  return x;
}

/// A processor with stereo input, reference and output buffers of n frames
/// each, zeroed: what most Motion tests start from.
typedef struct {
  P4dMotion* m;
  float*     in_l;
  float*     in_r;
  float*     ref_l;
  float*     ref_r;
  float*     out_l;
  float*     out_r;
} P4dMotionBench;

static inline P4dMotionBench
p4d_motion_bench_new(double rate_hz, size_t n)
{
  P4dMotionBench b = { NULL,      frames(n), frames(n), frames(n),
                       frames(n), frames(n), frames(n) };
  assert(!p4d_motion_new(rate_hz, &b.m));
  return b;
}

static inline void
p4d_motion_bench_free(P4dMotionBench* b)
{
  free(b->in_l);
  free(b->in_r);
  free(b->ref_l);
  free(b->ref_r);
  free(b->out_l);
  free(b->out_r);
  p4d_motion_free(b->m);
}

#endif // P4D_TEST_MOTION_RIG_H
