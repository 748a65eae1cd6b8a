// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Properties of the engines: block-size invariance, channel spread, level,
  DC, clamping and glides without clicks.  The time model is in
  test_engine_time.c.
*/

#undef NDEBUG

#include "engine.h"
#include "params.h"

#include "support/compare.h"
#include "support/rig.h"
#include "support/stats.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
test_block_invariance(void)
{
  static const size_t blocks[] = { 1U, 7U, 64U, 4096U };
  const size_t        n        = 20000U;

  for (unsigned kind = 0U; kind < 2U; ++kind) {
    P4dRig     ref = p4d_rig_new((P4dKind)kind, 48000.0);
    P4dBuffers a   = p4d_buffers_new(n);
    ref.params[kind ? P4D_NOISE_EVOLVE_HZ : P4D_MOD_RATE_HZ] = 3.0f;
    p4d_rig_render(&ref, a.ch, n, n);

    for (size_t b = 0U; b < sizeof(blocks) / sizeof(blocks[0]); ++b) {
      P4dRig     rig = p4d_rig_new((P4dKind)kind, 48000.0);
      P4dBuffers x   = p4d_buffers_new(n);
      memcpy(rig.params, ref.params, sizeof(rig.params));
      p4d_rig_render(&rig, x.ch, n, blocks[b]);
      for (unsigned c = 0U; c < rig.n_channels; ++c) {
        p4d_assert_same("block invariance", a.ch[c], x.ch[c], 0U, n);
      }
      p4d_buffers_free(&x);
      p4d_engine_free(rig.engine);
    }
    p4d_buffers_free(&a);
    p4d_engine_free(ref.engine);
  }
  printf("# blocks of 1, 7, 64 and 4096 frames give the same bytes\n");
}

static void
test_mod_spread_and_range(void)
{
  // A long run at a low sample rate: many cells, few frames.
  const size_t n              = 400000U;
  P4dRig       rig            = p4d_rig_new(P4D_KIND_MOD, 1000.0);
  P4dBuffers   b              = p4d_buffers_new(n);
  rig.params[P4D_MOD_RATE_HZ] = 5.0f;
  p4d_rig_render(&rig, b.ch, n, 1000U);

  float lo = 2.0f;
  float hi = -2.0f;
  for (unsigned c = 0U; c < 4U; ++c) {
    for (size_t i = 0U; i < n; ++i) {
      assert(b.ch[c][i] >= 0.0f && b.ch[c][i] <= 1.0f);
      lo = b.ch[c][i] < lo ? b.ch[c][i] : lo;
      hi = b.ch[c][i] > hi ? b.ch[c][i] : hi;
    }
  }
  double worst = 0.0;
  for (unsigned c = 0U; c < 4U; ++c) {
    for (unsigned d = c + 1U; d < 4U; ++d) {
      const double r = fabs(p4d_correlation(b.ch[c], b.ch[d], n));
      worst          = r > worst ? r : worst;
    }
  }
  printf("# Mod spread 1: range %.3f..%.3f, largest |correlation| %.3f\n",
         lo,
         hi,
         worst);
  assert(lo < 0.1f && hi > 0.9f); // uses the range
  assert(worst < 0.1);            // independent channels

  // Spread 0: four identical channels.
  P4dRig same                  = p4d_rig_new(P4D_KIND_MOD, 1000.0);
  same.params[P4D_MOD_RATE_HZ] = 5.0f;
  same.params[P4D_MOD_SPREAD]  = 0.0f;
  p4d_rig_render(&same, b.ch, 20000U, 1000U);
  for (unsigned c = 1U; c < 4U; ++c) {
    p4d_assert_same("spread 0", b.ch[0], b.ch[c], 0U, 20000U);
  }

  // In between, the channels move apart continuously.
  P4dRig half                  = p4d_rig_new(P4D_KIND_MOD, 1000.0);
  half.params[P4D_MOD_RATE_HZ] = 5.0f;
  half.params[P4D_MOD_SPREAD]  = 0.02f;
  p4d_rig_render(&half, b.ch, n, 1000U);
  const double near = p4d_correlation(b.ch[0], b.ch[1], n);
  printf("# Mod spread 0.02: correlation of channels 1 and 2 %.3f\n", near);
  assert(near > 0.5 && near < 0.9999);

  // out_min > out_max inverts.
  P4dRig up                    = p4d_rig_new(P4D_KIND_MOD, 1000.0);
  P4dRig down                  = p4d_rig_new(P4D_KIND_MOD, 1000.0);
  down.params[P4D_MOD_OUT_MIN] = 1.0f;
  down.params[P4D_MOD_OUT_MAX] = 0.0f;
  P4dBuffers inv               = p4d_buffers_new(5000U);
  p4d_rig_render(&up, b.ch, 5000U, 64U);
  p4d_rig_render(&down, inv.ch, 5000U, 64U);
  for (size_t i = 0U; i < 5000U; ++i) {
    assert(fabsf(b.ch[2][i] + inv.ch[2][i] - 1.0f) < 1.0e-6f);
  }

  p4d_buffers_free(&inv);
  p4d_buffers_free(&b);
  p4d_engine_free(rig.engine);
  p4d_engine_free(same.engine);
  p4d_engine_free(half.engine);
  p4d_engine_free(up.engine);
  p4d_engine_free(down.engine);
}

static void
test_noise_level_and_dc(void)
{
  static const float grains[] = { 20.0f, 1000.0f, 12000.0f };
  const size_t       n        = 480000U; // 10 s

  P4dBuffers b = p4d_buffers_new(n);
  for (size_t g = 0U; g < sizeof(grains) / sizeof(grains[0]); ++g) {
    P4dRig rig                     = p4d_rig_new(P4D_KIND_NOISE, 48000.0);
    rig.params[P4D_NOISE_GRAIN_HZ] = grains[g];
    p4d_rig_render(&rig, b.ch, n, 4096U);

    const double level = pow(10.0, -12.0 / 20.0);
    for (unsigned c = 0U; c < 2U; ++c) {
      double sum   = 0.0;
      double power = 0.0;
      double peak  = 0.0;
      for (size_t i = 0U; i < n; ++i) {
        sum += b.ch[c][i];
        power += (double)b.ch[c][i] * b.ch[c][i];
        peak = fabsf(b.ch[c][i]) > peak ? fabsf(b.ch[c][i]) : peak;
      }
      const double dc_db   = 20.0 * log10(fabs(sum / (double)n) + 1.0e-30);
      const double rms_db  = 10.0 * log10(power / (double)n);
      const double peak_db = 20.0 * log10(peak);
      printf("# Noise grain %5.0f Hz ch %u: DC %.1f dBFS, RMS %.1f dBFS, "
             "peak %.1f dBFS\n",
             grains[g],
             c,
             dc_db,
             rms_db,
             peak_db);
      assert(dc_db < -60.0);
      assert(peak <= level * 1.1220185);
      assert(rms_db > -12.0 - 20.0); // audible, not a trickle
    }

    // Width 1: the channels are independent.
    assert(fabs(p4d_correlation(b.ch[0], b.ch[1], n)) < 0.1);
    p4d_engine_free(rig.engine);
  }

  // A jump of the level glides down; it never cuts the louder voice off.
  P4dRig loud                     = p4d_rig_new(P4D_KIND_NOISE, 48000.0);
  loud.params[P4D_NOISE_LEVEL_DB] = 0.0f;
  p4d_rig_render(&loud, b.ch, 4800U, 480U);
  loud.params[P4D_NOISE_LEVEL_DB] = -90.0f;
  float* glide[P4D_MAX_CHANNELS]  = { b.ch[0] + 4800, b.ch[1] + 4800 };
  p4d_rig_render(&loud, glide, 960U, 480U);
  const double before = p4d_largest_step(b.ch[0], 0U, 4800U);
  const double during = p4d_largest_step(b.ch[0], 4799U, 4800U + 960U);
  printf(
    "# Noise level 0 -> -90 dB: largest step %.3f before, %.3f in the glide\n",
    before,
    during);
  assert(during <= 2.0 * before);
  p4d_engine_free(loud.engine);

  // Width 0: mono.
  P4dRig mono                  = p4d_rig_new(P4D_KIND_NOISE, 48000.0);
  mono.params[P4D_NOISE_WIDTH] = 0.0f;
  p4d_rig_render(&mono, b.ch, 10000U, 512U);
  p4d_assert_same("width 0", b.ch[0], b.ch[1], 0U, 10000U);
  p4d_engine_free(mono.engine);
  p4d_buffers_free(&b);
}

static void
test_bad_controls(void)
{
  static const float bad[] = { NAN, INFINITY, -INFINITY, 1.0e30f, -1.0e30f };

  for (unsigned kind = 0U; kind < 2U; ++kind) {
    const P4dParamTable* table = p4d_params((P4dKind)kind);
    P4dBuffers           b     = p4d_buffers_new(2048U);
    for (size_t v = 0U; v < sizeof(bad) / sizeof(bad[0]); ++v) {
      P4dRig rig = p4d_rig_new((P4dKind)kind, 44100.0);
      for (uint32_t i = 0U; i < table->n_params; ++i) {
        rig.params[i] = bad[v];
      }
      p4d_rig_render(&rig, b.ch, 2048U, 256U);
      for (unsigned c = 0U; c < rig.n_channels; ++c) {
        for (size_t i = 0U; i < 2048U; ++i) {
          assert(isfinite(b.ch[c][i]) && fabsf(b.ch[c][i]) <= 1.0f);
          assert(b.ch[c][i] == 0.0f || fabsf(b.ch[c][i]) >= 1.0e-30f);
        }
      }
      p4d_engine_free(rig.engine);
    }

    // NaN means the default: the same bytes as the defaults.
    P4dRig     nan_rig = p4d_rig_new((P4dKind)kind, 44100.0);
    P4dRig     def_rig = p4d_rig_new((P4dKind)kind, 44100.0);
    P4dBuffers d       = p4d_buffers_new(2048U);
    for (uint32_t i = 0U; i < table->n_params; ++i) {
      nan_rig.params[i] = NAN;
    }
    p4d_rig_render(&nan_rig, b.ch, 2048U, 256U);
    p4d_rig_render(&def_rig, d.ch, 2048U, 256U);
    for (unsigned c = 0U; c < nan_rig.n_channels; ++c) {
      p4d_assert_same("NaN controls", b.ch[c], d.ch[c], 0U, 2048U);
    }
    p4d_engine_free(nan_rig.engine);
    p4d_engine_free(def_rig.engine);
    p4d_buffers_free(&d);
    p4d_buffers_free(&b);
  }
}

/*
  A ramp of a control from a to b over ramp_s seconds, updated every 64
  frames as a host automates it, must not make a sample-to-sample step
  larger than twice the largest step of the steady signal at either end.
  The ramps start at song position 0 and are as fast as automation
  typically is; a faster ramp moves the signal faster, as it should.
*/
static void
check_ramp(P4dKind kind, unsigned param, float a, float b, double ramp_s)
{
  const double rate   = 48000.0;
  const size_t ramp   = (size_t)(ramp_s * rate);
  const size_t n      = ramp + 4800U;
  const size_t block  = 64U;
  P4dBuffers   steady = p4d_buffers_new(n);
  P4dBuffers   moved  = p4d_buffers_new(n);
  double       steady_step[2];

  for (unsigned end = 0U; end < 2U; ++end) {
    P4dRig rig        = p4d_rig_new(kind, rate);
    rig.params[param] = end ? b : a;
    p4d_rig_render(&rig, steady.ch, n, block);
    steady_step[end] = 0.0;
    for (unsigned c = 0U; c < rig.n_channels; ++c) {
      const double s   = p4d_largest_step(steady.ch[c], 0U, n);
      steady_step[end] = s > steady_step[end] ? s : steady_step[end];
    }
    p4d_engine_free(rig.engine);
  }

  P4dRig rig = p4d_rig_new(kind, rate);
  for (size_t done = 0U; done < n; done += block) {
    const double t    = done < ramp ? (double)done / (double)ramp : 1.0;
    rig.params[param] = (float)(a + (b - a) * t);
    float* at[P4D_MAX_CHANNELS];
    for (unsigned c = 0U; c < rig.n_channels; ++c) {
      at[c] = moved.ch[c] + done;
    }
    p4d_engine_process(rig.engine, rig.params, at, (uint32_t)block);
  }

  double ramp_step = 0.0;
  for (unsigned c = 0U; c < rig.n_channels; ++c) {
    const double s = p4d_largest_step(moved.ch[c], 0U, n);
    ramp_step      = s > ramp_step ? s : ramp_step;
  }

  const double limit =
    2.0 * (steady_step[0] > steady_step[1] ? steady_step[0] : steady_step[1]);
  printf("# %s %-12s %8.3f -> %8.3f in %.0f s: step %.3g, limit %.3g\n",
         kind == P4D_KIND_MOD ? "Mod  " : "Noise",
         p4d_params(kind)->params[param].symbol,
         a,
         b,
         ramp_s,
         ramp_step,
         limit);
  assert(ramp_step <= limit);

  p4d_engine_free(rig.engine);
  p4d_buffers_free(&steady);
  p4d_buffers_free(&moved);
}

static void
test_ramps(void)
{
  check_ramp(P4D_KIND_MOD, P4D_MOD_RATE_HZ, 0.5f, 1.0f, 2.0);
  check_ramp(P4D_KIND_MOD, P4D_MOD_OCTAVES, 1.0f, 4.0f, 2.0);
  check_ramp(P4D_KIND_MOD, P4D_MOD_LACUNARITY, 2.0f, 3.0f, 2.0);
  check_ramp(P4D_KIND_MOD, P4D_MOD_PERSISTENCE, 0.2f, 0.8f, 2.0);
  check_ramp(P4D_KIND_MOD, P4D_MOD_SPREAD, 0.0f, 1.0f, 8.0);
  check_ramp(P4D_KIND_MOD, P4D_MOD_MORPH_X, 0.0f, 0.5f, 2.0);
  check_ramp(P4D_KIND_MOD, P4D_MOD_MORPH_Y, 0.0f, 0.5f, 2.0);
  check_ramp(P4D_KIND_MOD, P4D_MOD_MORPH_Z, 0.0f, 0.5f, 2.0);
  check_ramp(P4D_KIND_MOD, P4D_MOD_OUT_MIN, 0.0f, -0.5f, 2.0);
  check_ramp(P4D_KIND_MOD, P4D_MOD_OUT_MAX, 1.0f, 0.6f, 2.0);
  check_ramp(P4D_KIND_MOD, P4D_MOD_SMOOTH_MS, 20.0f, 500.0f, 2.0);
  check_ramp(P4D_KIND_NOISE, P4D_NOISE_LEVEL_DB, -12.0f, -30.0f, 2.0);
  check_ramp(P4D_KIND_NOISE, P4D_NOISE_GRAIN_HZ, 1000.0f, 2000.0f, 2.0);
  check_ramp(P4D_KIND_NOISE, P4D_NOISE_OCTAVES, 6.0f, 3.0f, 2.0);
  check_ramp(P4D_KIND_NOISE, P4D_NOISE_LACUNARITY, 2.0f, 3.0f, 2.0);
  check_ramp(P4D_KIND_NOISE, P4D_NOISE_PERSISTENCE, 0.5f, 0.8f, 2.0);
  check_ramp(P4D_KIND_NOISE, P4D_NOISE_EVOLVE_HZ, 0.5f, 5.0f, 2.0);
  check_ramp(P4D_KIND_NOISE, P4D_NOISE_WIDTH, 1.0f, 0.0f, 2.0);
  check_ramp(P4D_KIND_NOISE, P4D_NOISE_MORPH_X, 0.0f, 2.0f, 2.0);
}

/// Set rig's parameters for block b of test_channel_mask: a seed change
/// (an equal-power glide) and a spread change (a plain one) on the way.
static void
mask_params(P4dRig* rig, size_t b)
{
  if (rig->kind == P4D_KIND_MOD) {
    rig->params[P4D_MOD_RATE_HZ] = 7.0f;
    rig->params[P4D_MOD_SEED]    = b < 10U ? 1.0f : 2.0f;
    rig->params[P4D_MOD_SPREAD]  = b < 25U ? 1.0f : 0.7f;
  } else {
    rig->params[P4D_NOISE_SEED] = b < 10U ? 1.0f : 2.0f;
  }
}

/// A Mod engine computes only the channels of its mask (the others' buffers
/// may be NULL), each with the bits of an engine that computes them all,
/// whatever the mask was before, through glides; the Noise computes both.
static void
test_channel_mask(void)
{
  const size_t n     = 40000U;
  const size_t block = 1000U;
  for (unsigned kind = 0U; kind < 2U; ++kind) {
    P4dRig     ref      = p4d_rig_new((P4dKind)kind, 48000.0);
    P4dRig     rig      = p4d_rig_new((P4dKind)kind, 48000.0);
    P4dBuffers want     = p4d_buffers_new(block);
    P4dBuffers got      = p4d_buffers_new(block);
    size_t     compared = 0U;
    for (size_t b = 0U; b < n / block; ++b) {
      mask_params(&ref, b);
      mask_params(&rig, b);
      const unsigned mask = (unsigned)(b * 7U) % 16U;
      p4d_engine_set_channels(rig.engine, mask);
      float* at[P4D_MAX_CHANNELS];
      for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
        const bool on = kind == P4D_KIND_NOISE || (mask & (1U << c));
        at[c]         = on ? got.ch[c] : NULL;
      }
      p4d_engine_process(ref.engine, ref.params, want.ch, (uint32_t)block);
      p4d_engine_process(rig.engine, rig.params, at, (uint32_t)block);
      for (unsigned c = 0U; c < ref.n_channels; ++c) {
        if (at[c]) {
          assert(p4d_first_difference(at[c], want.ch[c], block) == block);
          ++compared;
        }
      }
    }
    printf("# channel mask, %s: %zu blocks of %zu frames equal to all "
           "channels on\n",
           kind ? "noise" : "mod",
           compared,
           block);
    assert(compared >= (kind ? 80U : 70U));
    p4d_buffers_free(&want);
    p4d_buffers_free(&got);
    p4d_engine_free(ref.engine);
    p4d_engine_free(rig.engine);
  }
}

int
main(void)
{
  assert(!setvbuf(stdout, NULL, _IOLBF, 0));
  test_block_invariance();
  test_mod_spread_and_range();
  test_noise_level_and_dc();
  test_bad_controls();
  test_ramps();
  test_channel_mask();
  return 0;
}
