// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Properties of the engines: block-size invariance, channel spread, level,
  DC, clamping, glides without clicks, and the song-locked time model.
*/

#undef NDEBUG

#include "engine.h"
#include "params.h"

#include "support/compare.h"
#include "support/stats.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  P4dKind    kind;
  unsigned   n_channels;
  P4dEngine* engine;
  float      params[P4D_MAX_PARAMS];
} Rig;

static Rig
rig_new(P4dKind kind, double sample_rate_hz)
{
  Rig rig = { kind, p4d_engine_channels(kind), NULL, { 0.0f } };
  assert(!p4d_engine_new(kind, sample_rate_hz, &rig.engine));
  p4d_param_defaults(p4d_params(kind), rig.params);
  return rig;
}

/// Render n frames in blocks of size block into out[c] (n floats each).
static void
rig_render(Rig* rig, float* out[], size_t n, size_t block)
{
  for (size_t done = 0U; done < n; done += block) {
    const size_t m = n - done < block ? n - done : block;
    float*       at[P4D_MAX_CHANNELS];
    for (unsigned c = 0U; c < rig->n_channels; ++c) {
      at[c] = out[c] + done;
    }
    p4d_engine_process(rig->engine, rig->params, at, (uint32_t)m);
  }
}

/// A buffer of n frames for each channel of kind.
typedef struct {
  float* ch[P4D_MAX_CHANNELS];
} Buffers;

static Buffers
buffers_new(size_t n)
{
  Buffers b;
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    b.ch[c] = (float*)calloc(n, sizeof(float));
    assert(b.ch[c]);
  }
  return b;
}

static void
buffers_free(Buffers* b)
{
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    free(b->ch[c]);
  }
}

/// Largest sample-to-sample step of x[from..to).
static double
largest_step(const float* x, size_t from, size_t to)
{
  double step = 0.0;
  for (size_t i = from + 1U; i < to; ++i) {
    const double d = fabs((double)x[i] - x[i - 1U]);
    step           = d > step ? d : step;
  }
  return step;
}

static void
test_block_invariance(void)
{
  static const size_t blocks[] = { 1U, 7U, 64U, 4096U };
  const size_t        n        = 20000U;

  for (unsigned kind = 0U; kind < 2U; ++kind) {
    Rig     ref = rig_new((P4dKind)kind, 48000.0);
    Buffers a   = buffers_new(n);
    ref.params[kind ? P4D_NOISE_EVOLVE_HZ : P4D_MOD_RATE_HZ] = 3.0f;
    rig_render(&ref, a.ch, n, n);

    for (size_t b = 0U; b < sizeof(blocks) / sizeof(blocks[0]); ++b) {
      Rig     rig = rig_new((P4dKind)kind, 48000.0);
      Buffers x   = buffers_new(n);
      memcpy(rig.params, ref.params, sizeof(rig.params));
      rig_render(&rig, x.ch, n, blocks[b]);
      for (unsigned c = 0U; c < rig.n_channels; ++c) {
        p4d_assert_same("block invariance", a.ch[c], x.ch[c], 0U, n);
      }
      buffers_free(&x);
      p4d_engine_free(rig.engine);
    }
    buffers_free(&a);
    p4d_engine_free(ref.engine);
  }
  printf("# blocks of 1, 7, 64 and 4096 frames give the same bytes\n");
}

static void
test_mod_spread_and_range(void)
{
  // A long run at a low sample rate: many cells, few frames.
  const size_t n              = 400000U;
  Rig          rig            = rig_new(P4D_KIND_MOD, 1000.0);
  Buffers      b              = buffers_new(n);
  rig.params[P4D_MOD_RATE_HZ] = 5.0f;
  rig_render(&rig, b.ch, n, 1000U);

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
  Rig same                     = rig_new(P4D_KIND_MOD, 1000.0);
  same.params[P4D_MOD_RATE_HZ] = 5.0f;
  same.params[P4D_MOD_SPREAD]  = 0.0f;
  rig_render(&same, b.ch, 20000U, 1000U);
  for (unsigned c = 1U; c < 4U; ++c) {
    p4d_assert_same("spread 0", b.ch[0], b.ch[c], 0U, 20000U);
  }

  // In between, the channels move apart continuously.
  Rig half                     = rig_new(P4D_KIND_MOD, 1000.0);
  half.params[P4D_MOD_RATE_HZ] = 5.0f;
  half.params[P4D_MOD_SPREAD]  = 0.02f;
  rig_render(&half, b.ch, n, 1000U);
  const double near = p4d_correlation(b.ch[0], b.ch[1], n);
  printf("# Mod spread 0.02: correlation of channels 1 and 2 %.3f\n", near);
  assert(near > 0.5 && near < 0.9999);

  // out_min > out_max inverts.
  Rig up                       = rig_new(P4D_KIND_MOD, 1000.0);
  Rig down                     = rig_new(P4D_KIND_MOD, 1000.0);
  down.params[P4D_MOD_OUT_MIN] = 1.0f;
  down.params[P4D_MOD_OUT_MAX] = 0.0f;
  Buffers inv                  = buffers_new(5000U);
  rig_render(&up, b.ch, 5000U, 64U);
  rig_render(&down, inv.ch, 5000U, 64U);
  for (size_t i = 0U; i < 5000U; ++i) {
    assert(fabsf(b.ch[2][i] + inv.ch[2][i] - 1.0f) < 1.0e-6f);
  }

  buffers_free(&inv);
  buffers_free(&b);
  p4d_engine_free(rig.engine);
  p4d_engine_free(same.engine);
  p4d_engine_free(half.engine);
  p4d_engine_free(up.engine);
  p4d_engine_free(down.engine);
}

static void
test_noise_level_and_dc(void)
{
  static const float grains[] = { 20.0f, 1000.0f, 20000.0f };
  const size_t       n        = 480000U; // 10 s

  Buffers b = buffers_new(n);
  for (size_t g = 0U; g < sizeof(grains) / sizeof(grains[0]); ++g) {
    Rig rig                        = rig_new(P4D_KIND_NOISE, 48000.0);
    rig.params[P4D_NOISE_GRAIN_HZ] = grains[g];
    rig_render(&rig, b.ch, n, 4096U);

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
  Rig loud                        = rig_new(P4D_KIND_NOISE, 48000.0);
  loud.params[P4D_NOISE_LEVEL_DB] = 0.0f;
  rig_render(&loud, b.ch, 4800U, 480U);
  loud.params[P4D_NOISE_LEVEL_DB] = -90.0f;
  float* glide[P4D_MAX_CHANNELS]  = { b.ch[0] + 4800, b.ch[1] + 4800 };
  rig_render(&loud, glide, 960U, 480U);
  const double before = largest_step(b.ch[0], 0U, 4800U);
  const double during = largest_step(b.ch[0], 4799U, 4800U + 960U);
  printf(
    "# Noise level 0 -> -90 dB: largest step %.3f before, %.3f in the glide\n",
    before,
    during);
  assert(during <= 2.0 * before);
  p4d_engine_free(loud.engine);

  // Width 0: mono.
  Rig mono                     = rig_new(P4D_KIND_NOISE, 48000.0);
  mono.params[P4D_NOISE_WIDTH] = 0.0f;
  rig_render(&mono, b.ch, 10000U, 512U);
  p4d_assert_same("width 0", b.ch[0], b.ch[1], 0U, 10000U);
  p4d_engine_free(mono.engine);
  buffers_free(&b);
}

static void
test_bad_controls(void)
{
  static const float bad[] = { NAN, INFINITY, -INFINITY, 1.0e30f, -1.0e30f };

  for (unsigned kind = 0U; kind < 2U; ++kind) {
    const P4dParamTable* table = p4d_params((P4dKind)kind);
    Buffers              b     = buffers_new(2048U);
    for (size_t v = 0U; v < sizeof(bad) / sizeof(bad[0]); ++v) {
      Rig rig = rig_new((P4dKind)kind, 44100.0);
      for (uint32_t i = 0U; i < table->n_params; ++i) {
        rig.params[i] = bad[v];
      }
      rig_render(&rig, b.ch, 2048U, 256U);
      for (unsigned c = 0U; c < rig.n_channels; ++c) {
        for (size_t i = 0U; i < 2048U; ++i) {
          assert(isfinite(b.ch[c][i]) && fabsf(b.ch[c][i]) <= 1.0f);
          assert(b.ch[c][i] == 0.0f || fabsf(b.ch[c][i]) >= 1.0e-30f);
        }
      }
      p4d_engine_free(rig.engine);
    }

    // NaN means the default: the same bytes as the defaults.
    Rig     nan_rig = rig_new((P4dKind)kind, 44100.0);
    Rig     def_rig = rig_new((P4dKind)kind, 44100.0);
    Buffers d       = buffers_new(2048U);
    for (uint32_t i = 0U; i < table->n_params; ++i) {
      nan_rig.params[i] = NAN;
    }
    rig_render(&nan_rig, b.ch, 2048U, 256U);
    rig_render(&def_rig, d.ch, 2048U, 256U);
    for (unsigned c = 0U; c < nan_rig.n_channels; ++c) {
      p4d_assert_same("NaN controls", b.ch[c], d.ch[c], 0U, 2048U);
    }
    p4d_engine_free(nan_rig.engine);
    p4d_engine_free(def_rig.engine);
    buffers_free(&d);
    buffers_free(&b);
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
  Buffers      steady = buffers_new(n);
  Buffers      moved  = buffers_new(n);
  double       steady_step[2];

  for (unsigned end = 0U; end < 2U; ++end) {
    Rig rig           = rig_new(kind, rate);
    rig.params[param] = end ? b : a;
    rig_render(&rig, steady.ch, n, block);
    steady_step[end] = 0.0;
    for (unsigned c = 0U; c < rig.n_channels; ++c) {
      const double s   = largest_step(steady.ch[c], 0U, n);
      steady_step[end] = s > steady_step[end] ? s : steady_step[end];
    }
    p4d_engine_free(rig.engine);
  }

  Rig rig = rig_new(kind, rate);
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
    const double s = largest_step(moved.ch[c], 0U, n);
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
  buffers_free(&steady);
  buffers_free(&moved);
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

static P4dTransport
rolling_at(int64_t frame)
{
  P4dTransport t = { true, true, false, false, frame, 1.0, 0.0, 0.0 };
  return t;
}

static void
test_song_position(void)
{
  const double  rate = 48000.0;
  const size_t  n    = 48000U;
  const int64_t song = 10000000; // about 3.5 minutes in

  for (unsigned kind = 0U; kind < 2U; ++kind) {
    // The reference: playback starting at the song position.
    Rig          ref = rig_new((P4dKind)kind, rate);
    Buffers      a   = buffers_new(3U * n);
    P4dTransport at  = rolling_at(song);
    p4d_engine_transport(ref.engine, &at);
    rig_render(&ref, a.ch, 3U * n, 256U);

    // Another playback elsewhere, then a locate to the same position: after
    // the glide (and, for Noise, the DC estimator's window) the output is
    // the same, bit for bit.
    Rig          rig   = rig_new((P4dKind)kind, rate);
    Buffers      b     = buffers_new(3U * n);
    P4dTransport other = rolling_at(77777);
    p4d_engine_transport(rig.engine, &other);
    rig_render(&rig, b.ch, 5000U, 100U);
    p4d_engine_transport(rig.engine, &at);
    rig_render(&rig, b.ch, 3U * n, 100U);

    const size_t settled = kind == P4D_KIND_MOD ? 960U : 2U * n;
    for (unsigned c = 0U; c < ref.n_channels; ++c) {
      assert(p4d_first_difference(a.ch[c], b.ch[c], settled) < settled);
      p4d_assert_same("relocated", a.ch[c], b.ch[c], settled, 3U * n);
    }

    // Without transport, time counts frames from activation: the same as
    // a song played from frame 0.
    Rig          zero = rig_new((P4dKind)kind, rate);
    Rig          free = rig_new((P4dKind)kind, rate);
    P4dTransport at0  = rolling_at(0);
    p4d_engine_transport(zero.engine, &at0);
    rig_render(&zero, a.ch, n, 333U);
    rig_render(&free, b.ch, n, 4096U);
    for (unsigned c = 0U; c < ref.n_channels; ++c) {
      p4d_assert_same("from frame 0", a.ch[c], b.ch[c], 0U, n);
    }

    p4d_engine_free(ref.engine);
    p4d_engine_free(rig.engine);
    p4d_engine_free(zero.engine);
    p4d_engine_free(free.engine);
    buffers_free(&a);
    buffers_free(&b);
  }
  printf("# a locate to the same song position gives the same output\n");
}

static void
test_stop_and_roll(void)
{
  const double rate           = 48000.0;
  const size_t n              = 24000U;
  Rig          rig            = rig_new(P4D_KIND_MOD, rate);
  Buffers      b              = buffers_new(4U * n);
  rig.params[P4D_MOD_RATE_HZ] = 2.0f;

  P4dTransport roll = rolling_at(480000);
  p4d_engine_transport(rig.engine, &roll);
  rig_render(&rig, b.ch, n, 128U);

  // Stopped: the output keeps moving on from where it was, without a jump.
  P4dTransport stop = { true, true, false, false, 480000 + (int64_t)n,
                        0.0,  0.0,  0.0 };
  p4d_engine_transport(rig.engine, &stop);
  rig_render(&rig, b.ch, 2U * n, 128U);
  const double moving_step = largest_step(b.ch[0], 0U, n);
  assert(largest_step(b.ch[0], n - 1U, n + 1U) <= 2.0 * moving_step);
  float lo = 2.0f;
  float hi = -2.0f;
  for (size_t i = n; i < 2U * n; ++i) {
    lo = b.ch[0][i] < lo ? b.ch[0][i] : lo;
    hi = b.ch[0][i] > hi ? b.ch[0][i] : hi;
  }
  printf("# stopped for 0.5 s: out_1 moves over %.4f\n", hi - lo);
  assert(hi - lo > 0.01f);

  // Rolling again re-locks to the song with a glide, never a jump larger
  // than the glide allows: (largest difference 1) / 960 frames.
  p4d_engine_transport(rig.engine, &roll);
  float* tail[P4D_MAX_CHANNELS];
  for (unsigned c = 0U; c < 4U; ++c) {
    tail[c] = b.ch[c] + 2U * n;
  }
  rig_render(&rig, tail, 2U * n, 128U);
  assert(largest_step(b.ch[0], 2U * n - 1U, 2U * n + 960U) <=
         1.0 / 960.0 + 2.0 * moving_step);

  // After the glide it is the song's output at that position.
  Rig     fresh                 = rig_new(P4D_KIND_MOD, rate);
  Buffers f                     = buffers_new(2U * n);
  fresh.params[P4D_MOD_RATE_HZ] = 2.0f;
  p4d_engine_transport(fresh.engine, &roll);
  rig_render(&fresh, f.ch, 2U * n, 1000U);
  p4d_assert_same("after the glide", f.ch[0], b.ch[0] + 2U * n, 960U, 2U * n);

  p4d_engine_free(rig.engine);
  p4d_engine_free(fresh.engine);
  buffers_free(&b);
  buffers_free(&f);
}

static void
test_beats(void)
{
  // Clock 1: the phase follows the song's beats; a tempo change bends the
  // signal without a glide or a jump.
  const double rate                = 48000.0;
  const size_t n                   = 48000U;
  Rig          rig                 = rig_new(P4D_KIND_MOD, rate);
  Buffers      b                   = buffers_new(2U * n);
  rig.params[P4D_MOD_CLOCK]        = 1.0f;
  rig.params[P4D_MOD_PERIOD_BEATS] = 1.0f;

  P4dTransport t = { true, true, true, true, 0, 1.0, 64.0, 120.0 };
  p4d_engine_transport(rig.engine, &t);
  rig_render(&rig, b.ch, n, 256U);

  t = (P4dTransport){ true, true, true, true, (int64_t)n, 1.0, 66.0, 240.0 };
  p4d_engine_transport(rig.engine, &t);
  float* tail[P4D_MAX_CHANNELS];
  for (unsigned c = 0U; c < 4U; ++c) {
    tail[c] = b.ch[c] + n;
  }
  rig_render(&rig, tail, n, 256U);

  const double before = largest_step(b.ch[0], 0U, n);
  const double after  = largest_step(b.ch[0], n, 2U * n);
  const double join   = largest_step(b.ch[0], n - 1U, n + 1U);
  printf("# beats: step %.3g at 120 bpm, %.3g at 240 bpm, %.3g at the change\n",
         before,
         after,
         join);
  assert(after > 1.5 * before); // twice the tempo, about twice as fast
  assert(join <= 2.0 * after);

  // The same beat position gives the same phase whatever the tempo was.
  Rig     other                      = rig_new(P4D_KIND_MOD, rate);
  Buffers o                          = buffers_new(n);
  other.params[P4D_MOD_CLOCK]        = 1.0f;
  other.params[P4D_MOD_PERIOD_BEATS] = 1.0f;
  P4dTransport same = { true, true, true, true, 999, 1.0, 66.0, 240.0 };
  p4d_engine_transport(other.engine, &same);
  rig_render(&other, o.ch, 100U, 100U);
  assert(fabsf(o.ch[0][0] - b.ch[0][n]) < 1.0e-5f);

  p4d_engine_free(rig.engine);
  p4d_engine_free(other.engine);
  buffers_free(&b);
  buffers_free(&o);
}

/// Set the morph_x parameter of kind along a slow ramp at song frame f.
static void
automate(Rig* rig, int64_t f)
{
  const unsigned morph =
    rig->kind == P4D_KIND_MOD ? P4D_MOD_MORPH_X : P4D_NOISE_MORPH_X;
  rig->params[morph] = (float)(0.25 * sin((double)f / 20000.0));
}

/// Render [from, to) of a song whose morph_x is automated every 64 frames,
/// starting the engine at exact_from(from) after replaying the parameters.
static void
render_song(P4dKind kind, int64_t from, int64_t to, float* out[])
{
  Rig rig = rig_new(kind, 48000.0);
  p4d_engine_activate_at(rig.engine, 0, 120.0);
  const int64_t warm = p4d_engine_exact_from(rig.engine, from);

  float*       scratch[P4D_MAX_CHANNELS];
  static float discard[P4D_MAX_CHANNELS][64];
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    scratch[c] = discard[c];
  }

  for (int64_t f = 0; f < to; f += 64) {
    automate(&rig, f);
    if (f < warm) {
      p4d_engine_process(rig.engine, rig.params, NULL, 64U);
    } else if (f < from) {
      p4d_engine_process(rig.engine, rig.params, scratch, 64U);
    } else {
      float* at[P4D_MAX_CHANNELS];
      for (unsigned c = 0U; c < rig.n_channels; ++c) {
        at[c] = out[c] + (f - from);
      }
      p4d_engine_process(rig.engine, rig.params, at, 64U);
    }
  }
  p4d_engine_free(rig.engine);
}

static void
test_split_renders(void)
{
  // A render cut anywhere joins the uncut render exactly: the parameter
  // state is replayed without noise, the noise DC window is warmed up.
  const int64_t n = 120000;
  for (unsigned kind = 0U; kind < 2U; ++kind) {
    Buffers whole = buffers_new((size_t)n);
    Buffers part  = buffers_new((size_t)n);
    render_song((P4dKind)kind, 0, n, whole.ch);

    static const int64_t cuts[] = { 64, 14400, 28800, 100032 };
    for (size_t i = 0U; i < sizeof(cuts) / sizeof(cuts[0]); ++i) {
      render_song((P4dKind)kind, cuts[i], n, part.ch);
      for (unsigned c = 0U; c < p4d_engine_channels((P4dKind)kind); ++c) {
        p4d_assert_same("split render",
                        whole.ch[c] + cuts[i],
                        part.ch[c],
                        0U,
                        (size_t)(n - cuts[i]));
      }
    }
    buffers_free(&whole);
    buffers_free(&part);
  }
  printf("# split renders join the whole render bit for bit\n");

  // The warm-up is needed: without it the noise differs after the cut.
  Rig     cold  = rig_new(P4D_KIND_NOISE, 48000.0);
  Buffers whole = buffers_new((size_t)n);
  Buffers part  = buffers_new((size_t)n);
  render_song(P4D_KIND_NOISE, 0, n, whole.ch);
  p4d_engine_activate_at(cold.engine, 100032, 120.0);
  for (int64_t f = 100032; f < n; f += 64) {
    automate(&cold, f);
    float* at[P4D_MAX_CHANNELS] = { part.ch[0] + (f - 100032),
                                    part.ch[1] + (f - 100032) };
    p4d_engine_process(cold.engine, cold.params, at, 64U);
  }
  const size_t n_after = (size_t)(n - 100032);
  assert(p4d_first_difference(whole.ch[0] + 100032, part.ch[0], n_after) <
         n_after);
  p4d_engine_free(cold.engine);
  buffers_free(&whole);
  buffers_free(&part);
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
  test_song_position();
  test_stop_and_roll();
  test_beats();
  test_split_renders();
  return 0;
}
