// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Noise's texture runs on the song's seconds, never on the grain's
  phase: after a grain change while free running, the gusts go on where
  they were.
*/

#undef NDEBUG

#include "engine.h"
#include "params.h"
#include "support/rig.h"
#include "support/stats.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>

#define RATE 8000.0
#define SECONDS 60U
#define WINDOW 400U // 50 ms

/// The level in dB of ch over windows of WINDOW frames.
static void
envelope(const float* ch, size_t n, float* db)
{
  for (size_t w = 0U; w < n / WINDOW; ++w) {
    double sum = 0.0;
    for (size_t i = 0U; i < WINDOW; ++i) {
      sum += (double)ch[w * WINDOW + i] * ch[w * WINDOW + i];
    }
    db[w] = (float)(10.0 * log10(sum / WINDOW + 1.0e-30));
  }
}

/// Render SECONDS of free-running Noise with deep gusts, at grain_a for
/// the first half and grain_b after it; its level envelope into db.
static void
render(float grain_a, float grain_b, float* db)
{
  const size_t half              = (size_t)(SECONDS / 2U) * (size_t)RATE;
  P4dRig       rig               = p4d_rig_new(P4D_KIND_NOISE, RATE);
  P4dBuffers   b                 = p4d_buffers_new(2U * half);
  rig.params[P4D_NOISE_CLOCK]    = 1.0f; // free running
  rig.params[P4D_NOISE_GUST_DB]  = 24.0f;
  rig.params[P4D_NOISE_GUST_HZ]  = 0.5f;
  rig.params[P4D_NOISE_GRAIN_HZ] = grain_a;
  p4d_rig_render(&rig, b.ch, half, 256U);
  rig.params[P4D_NOISE_GRAIN_HZ]  = grain_b;
  float* second[P4D_MAX_CHANNELS] = { b.ch[0] + half, b.ch[1] + half };
  p4d_rig_render(&rig, second, half, 256U);
  envelope(b.ch[0], 2U * half, db);
  p4d_buffers_free(&b);
  p4d_engine_free(rig.engine);
}

int
main(void)
{
  enum { N_WINDOWS = SECONDS * (unsigned)RATE / WINDOW };
  static float changed[N_WINDOWS];
  static float steady[N_WINDOWS];
  render(1000.0f, 2000.0f, changed);
  render(2000.0f, 2000.0f, steady);

  // After the change (and its glide) the gusts are those of a run at the
  // new grain throughout: the same seconds, the same gusts.
  const size_t from = N_WINDOWS / 2U + 2U;
  const double r =
    p4d_correlation(changed + from, steady + from, N_WINDOWS - from);
  printf("# free running, grain 1000 -> 2000 Hz at 30 s: gust envelope "
         "after the change against a steady 2000 Hz run: r %.3f\n",
         r);
  assert(r > 0.9);
  return 0;
}
