// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Motion's filter (issue 12, item 1): the modes' responses at a
  fixed cutoff, the level law across resonance (issue 23), stability under the
  fastest and deepest modulation at the highest resonance, and the bounded past:
  after the time a filter runs before it is used (2.6 s, motion.c), a start from
  rest is within -120 dB of a filter with an endless past, at the slowest decay
  allowed (20 Hz, resonance 1).
*/

#undef NDEBUG

#include "motion.h"
#include "params.h"

#include "support/basics.h"
#include "support/rng.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RATE 48000.0

/// Motion with only the filter, at a fixed cutoff unless oct is set.
static void
filter_only(float* p, P4dMotionFilter mode, float cutoff_hz, float res)
{
  p4d_param_defaults(p4d_params(P4D_KIND_MOTION), p);
  p[P4D_MOTION_GAIN_DB]     = 0.0f;
  p[P4D_MOTION_FILTER_MODE] = (float)mode;
  p[P4D_MOTION_CUTOFF_HZ]   = cutoff_hz;
  p[P4D_MOTION_FILTER_OCT]  = 0.0f;
  p[P4D_MOTION_RESONANCE]   = res;
}

static void
process(P4dMotion* m, const float* p, float* l, float* r, size_t n)
{
  p4d_motion_activate(m);
  for (size_t done = 0U; done < n; done += 1024U) {
    const uint32_t     todo   = (uint32_t)(n - done < 1024U ? n - done : 1024U);
    const float* const in[2]  = { l + done, r + done };
    float* const       out[2] = { l + done, r + done };
    p4d_motion_process(m, p, in, out, NULL, todo);
  }
}

/// The gain in dB of a sine of freq_hz through Motion with p.
static double
sine_gain_db(P4dMotion* m, const float* p, double freq_hz)
{
  const size_t n = 48000U;
  float*       l = p4d_floats_new(n, 0.0f);
  float*       r = p4d_floats_new(n, 0.0f);
  for (size_t i = 0U; i < n; ++i) {
    l[i] = r[i] = (float)sin(2.0 * P4D_PI * freq_hz * (double)i / RATE);
  }
  process(m, p, l, r, n);
  double sum = 0.0;
  for (size_t i = n / 2U; i < n; ++i) {
    sum += (double)l[i] * l[i];
  }
  free(l);
  free(r);
  const size_t half = n - n / 2U;
  return 10.0 * log10(sum / (double)half / 0.5);
}

static void
test_responses(void)
{
  P4dMotion* m = NULL;
  assert(!p4d_motion_new(RATE, &m));
  float p[P4D_MOTION_N_PARAMS];

  filter_only(p, P4D_MOTION_FILTER_LOW_PASS, 1000.0f, 0.0f);
  const double lp_pass = sine_gain_db(m, p, 100.0);
  const double lp_stop = sine_gain_db(m, p, 10000.0);
  filter_only(p, P4D_MOTION_FILTER_HIGH_PASS, 1000.0f, 0.0f);
  const double hp_pass = sine_gain_db(m, p, 10000.0);
  const double hp_stop = sine_gain_db(m, p, 100.0);
  filter_only(p, P4D_MOTION_FILTER_BAND_PASS, 1000.0f, 1.0f);
  const double bp_peak = sine_gain_db(m, p, 1000.0);
  const double bp_side = sine_gain_db(m, p, 2000.0);
  filter_only(p, P4D_MOTION_FILTER_LOW_PASS, 1000.0f, 1.0f);
  const double lp_peak = sine_gain_db(m, p, 1000.0);
  printf("# cutoff 1 kHz: low pass %.2f dB at 100 Hz, %.1f dB at 10 kHz; "
         "high pass %.2f dB at 10 kHz, %.1f dB at 100 Hz\n",
         lp_pass,
         lp_stop,
         hp_pass,
         hp_stop);
  printf("# resonance 1: band pass %.2f dB at 1 kHz, %.1f dB at 2 kHz; "
         "low pass peak %.1f dB\n",
         bp_peak,
         bp_side,
         lp_peak);
  assert(fabs(lp_pass) < 0.1 && lp_stop < -38.0);
  assert(fabs(hp_pass) < 0.1 && hp_stop < -38.0);
  assert(fabs(bp_peak) < 0.1 && bp_side < -20.0);
  // Issue 23: held to unity at resonance 1 (it was +20 dB, Q 10).
  assert(fabs(lp_peak) < 0.2);
  p4d_motion_free(m);
}

/**
   The level law (issue 23, item 2): the low and high pass at resonance 0
   to 1, a sine at the cutoff (1 kHz) and the highest gain of a sweep
   around it (3 octaves either side, 1/12 octave), in dB, and the peak
   a -6 dBFS sine at the cutoff reaches, in dBFS.  Before the law the low
   pass read +20 dB at the cutoff at resonance 1 (-6 dBFS peaked at +14
   dBFS); now no sine comes out more than 1.25 dB above its level.
*/
static void
test_level(void)
{
  P4dMotion* m = NULL;
  assert(!p4d_motion_new(RATE, &m));
  float                 p[P4D_MOTION_N_PARAMS];
  const double          res[]    = { 0.0, 0.25, 0.5, 0.75, 1.0 };
  const size_t          n        = 24000U;
  float*                l        = p4d_floats_new(n, 0.0f);
  float*                r        = p4d_floats_new(n, 0.0f);
  const P4dMotionFilter modes[2] = { P4D_MOTION_FILTER_LOW_PASS,
                                     P4D_MOTION_FILTER_HIGH_PASS };
  printf("# filter level at the 1 kHz cutoff, 48 kHz, dB (resonance: "
         "cutoff, highest of a sweep, peak of a -6 dBFS sine at the cutoff "
         "in dBFS)\n");
  for (unsigned md = 0U; md < 2U; ++md) {
    for (unsigned k = 0U; k < sizeof res / sizeof res[0]; ++k) {
      filter_only(p, modes[md], 1000.0f, (float)res[k]);
      const double at  = sine_gain_db(m, p, 1000.0);
      double       top = -1000.0;
      for (int s = -36; s <= 36; ++s) {
        const double g = sine_gain_db(m, p, 1000.0 * pow(2.0, s / 12.0));
        top            = g > top ? g : top;
      }
      for (size_t i = 0U; i < n; ++i) {
        l[i] = r[i] =
          (float)(0.5 * sin(2.0 * P4D_PI * 1000.0 * (double)i / RATE));
      }
      process(m, p, l, r, n);
      double peak = 0.0;
      for (size_t i = n / 2U; i < n; ++i) {
        peak = fabsf(l[i]) > peak ? fabsf(l[i]) : peak;
      }
      const double peak_dbfs = 20.0 * log10(peak);
      printf("# %s resonance %.2f: cutoff %+6.2f dB, sweep highest %+6.2f dB, "
             "-6 dBFS sine peaks at %+6.2f dBFS\n",
             md ? "high pass" : "low pass ",
             res[k],
             at,
             top,
             peak_dbfs);
      // -6 dB at Q 0.5 (resonance 0), 0 dB from k = 1 up, never above
      // 1.25 dB anywhere.
      assert(at > -6.2 && at < 0.1);
      assert(top > -0.2 && top < 1.35);
      assert(peak_dbfs < -6.0 + 1.35);
    }
  }
  free(l);
  free(r);
  p4d_motion_free(m);
}

/// The fastest, deepest modulation at resonance 1 on full-scale noise and
/// a full-scale square: always finite, never more than the resonance's
/// 20 dB above the input (plus a little for the sweep).
static void
test_stability(void)
{
  const size_t n = (size_t)(10.0 * RATE);
  P4dMotion*   m = NULL;
  assert(!p4d_motion_new(RATE, &m));
  float* l = p4d_floats_new(n, 0.0f);
  float* r = p4d_floats_new(n, 0.0f);

  for (int mode = 1; mode <= 3; ++mode) {
    for (unsigned signal = 0U; signal < 2U; ++signal) {
      float p[P4D_MOTION_N_PARAMS];
      filter_only(p, (P4dMotionFilter)mode, 1000.0f, 1.0f);
      p[P4D_MOTION_RATE_HZ]    = 50.0f;
      p[P4D_MOTION_OCTAVES]    = 8.0f;
      p[P4D_MOTION_FILTER_OCT] = 6.0f;
      p[P4D_MOTION_SPREAD]     = 1.0f;
      P4dRng rng               = { 11U + signal };
      for (size_t i = 0U; i < n; ++i) {
        l[i] = signal ? (i / 240U) % 2U ? 1.0f : -1.0f
                      : (float)p4d_rng_uniform(&rng, -1.0, 1.0);
        r[i] = -l[i];
      }
      process(m, p, l, r, n);
      double peak = 0.0;
      for (size_t i = 0U; i < n; ++i) {
        assert(isfinite(l[i]) && isfinite(r[i]));
        const double a = fabs((double)l[i]);
        const double b = fabs((double)r[i]);
        peak           = a > peak ? a : peak;
        peak           = b > peak ? b : peak;
      }
      printf("# mode %d, %s, cutoff swept 20 Hz to 21.6 kHz at rate 50 Hz, "
             "8 octaves, resonance 1: peak %.1f dB\n",
             mode,
             signal ? "square" : "noise",
             20.0 * log10(peak));
      assert(peak < 20.0);
    }
  }
  free(l);
  free(r);
  p4d_motion_free(m);
}

/// The filter of motion_audio.c, written again from its documentation.
typedef struct {
  double ic1, ic2;
} Svf;

static double
svf_low(Svf* f, double x, double fc, double k)
{
  const double g  = tan(P4D_PI * fc / RATE);
  const double a1 = 1.0 / (1.0 + g * (g + k));
  const double a2 = g * a1;
  const double a3 = g * a2;
  const double v3 = x - f->ic2;
  const double v1 = a1 * f->ic1 + a2 * v3;
  const double v2 = f->ic2 + a2 * f->ic1 + a3 * v3;
  f->ic1          = 2.0 * v1 - f->ic1;
  f->ic2          = 2.0 * v2 - f->ic2;
  return v2;
}

/// At the slowest decay (20 Hz, k = 0.1), and at the same corner with the
/// cutoff swept up from it: a filter started from rest against one with 10
/// s of full-scale past, after the 2.6 s a filter runs before use.
static void
test_bounded_past(void)
{
  const size_t warm = (size_t)(10.0 * RATE);
  const size_t age  = (size_t)(2.6 * RATE);
  const size_t span = (size_t)(1.3 * RATE);

  for (unsigned sweep = 0U; sweep < 2U; ++sweep) {
    P4dRng rng   = { 21U };
    Svf    old   = { 0.0, 0.0 };
    Svf    fresh = { 0.0, 0.0 };
    double worst = 0.0;
    double sum   = 0.0;
    for (size_t i = 0U; i < warm + age + span; ++i) {
      const double x = p4d_rng_uniform(&rng, -1.0, 1.0);
      const double fc =
        sweep ? 20.0 * pow(2.0, 3.0 + 3.0 * sin(0.01 * (double)i)) : 20.0;
      const double y = svf_low(&old, x, fc, 0.1);
      if (i >= warm) {
        const double z = svf_low(&fresh, x, fc, 0.1);
        if (i >= warm + age) {
          worst = fabs(y - z) > worst ? fabs(y - z) : worst;
          sum += y * y;
        }
      }
    }
    printf("# bounded past, %s: after 2.6 s from rest, %.1f dB re full "
           "scale (output %.1f dB RMS)\n",
           sweep ? "cutoff swept 20 Hz to 1.3 kHz" : "20 Hz, resonance 1",
           20.0 * log10(worst),
           10.0 * log10(sum / (double)span));
    assert(20.0 * log10(worst) < -120.0);
  }
}

int
main(void)
{
  test_responses();
  test_level();
  test_stability();
  test_bounded_past();
  return 0;
}
