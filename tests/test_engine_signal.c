// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The engines' signals (issue 11): the lattice does not pulse in the
  variance (item 1), the Mod uses its whole range evenly and smoothly (item
  2), octaves are band-limited the same at every sample rate and fade out
  without a click (item 4), and the Noise's high-pass loses little in the
  audio band and restarts its staggered filters without a trace (item 5).
  Spectral figures over long renders are signal-bench's.
*/

#undef NDEBUG

#include "engine.h"
#include "highpass.h"
#include "noise.h"
#include "params.h"

#include "support/basics.h"
#include "support/rig.h"
#include "support/stats.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/*
  The variance of the output over the phase of the slowest octave's cell:
  the output squared (minus the middle, for the Mod) and averaged per
  twentieth of a cell over many cells, max / min in dB.  A channel whose
  path runs near the lattice swings by 10 to 20 dB; the placement's bound
  is 0.53 dB (engine.c), plus the kernel's own and the estimate's noise.
*/
static double
phase_swing_db(const float* x, size_t n, size_t period, double centre)
{
  double sum[20]   = { 0.0 };
  size_t count[20] = { 0U };
  for (size_t i = 0U; i < n; ++i) {
    const size_t bin = (i % period) * 20U / period;
    const double d   = (double)x[i] - centre;
    sum[bin] += d * d;
    ++count[bin];
  }
  double lo = INFINITY;
  double hi = 0.0;
  for (unsigned b = 0U; b < 20U; ++b) {
    const double v = sum[b] / (double)count[b];
    lo             = v < lo ? v : lo;
    hi             = v > hi ? v : hi;
  }
  return 10.0 * log10(hi / lo);
}

static void
test_no_lattice_pulse(void)
{
  // Mod at rate 1 Hz, 1 octave, at 1 kHz: a cell is 1000 frames.
  static const float spreads[] = { 0.0f, 0.37f, 1.0f };
  const size_t       n         = (size_t)600U * 1000U;
  const size_t       m         = (size_t)20U * 48000U;
  P4dBuffers         b         = p4d_buffers_new(m);
  double             worst     = 0.0;
  for (size_t s = 0U; s < sizeof(spreads) / sizeof(spreads[0]); ++s) {
    P4dRig rig                  = p4d_rig_new(P4D_KIND_MOD, 1000.0);
    rig.params[P4D_MOD_RATE_HZ] = 1.0f;
    rig.params[P4D_MOD_OCTAVES] = 1.0f;
    rig.params[P4D_MOD_SPREAD]  = spreads[s];
    p4d_rig_render(&rig, b.ch, n, 1000U);
    for (unsigned c = 0U; c < 4U; ++c) {
      const double db = phase_swing_db(b.ch[c], n, 1000U, 0.5);
      printf("# Mod rate 1 Hz, 1 octave, spread %.2f, out_%u: variance "
             "swings %.2f dB over a cell (600 cells)\n",
             (double)spreads[s],
             c + 1U,
             db);
      worst = db > worst ? db : worst;
    }
    p4d_engine_free(rig.engine);
  }
  assert(worst < 1.5);

  // Noise at grain 1000 Hz, 1 octave, at 48 kHz: a cell is 48 frames.
  static const float evolve[] = { 0.0f, 0.5f };
  for (size_t e = 0U; e < 2U; ++e) {
    P4dRig rig                      = p4d_rig_new(P4D_KIND_NOISE, 48000.0);
    rig.params[P4D_NOISE_OCTAVES]   = 1.0f;
    rig.params[P4D_NOISE_EVOLVE_HZ] = evolve[e];
    p4d_rig_render(&rig, b.ch, m, 4096U);
    for (unsigned c = 0U; c < 2U; ++c) {
      const double db = phase_swing_db(b.ch[c], m, 48U, 0.0);
      printf("# Noise grain 1000 Hz, 1 octave, evolve %.1f, channel %u: "
             "variance swings %.2f dB over a cell (20000 cells)\n",
             (double)evolve[e],
             c,
             db);
      assert(db < 1.5);
    }
    p4d_engine_free(rig.engine);
  }
  p4d_buffers_free(&b);
}

static void
test_mod_range(void)
{
  // The defaults over one hour at 1 kHz.
  const size_t n   = (size_t)3600U * 1000U;
  P4dRig       rig = p4d_rig_new(P4D_KIND_MOD, 1000.0);
  P4dBuffers   b   = p4d_buffers_new(n);
  p4d_rig_render(&rig, b.ch, n, 1000U);

  size_t tenth[10] = { 0U };
  size_t ends      = 0U;
  size_t run       = 0U;
  size_t longest   = 0U;
  double step      = 0.0;
  double window[6] = { 0.0 }; // the largest step in each 10 minutes
  double bend      = 0.0;     // the largest |second difference|
  for (size_t i = 0U; i < n; ++i) {
    const double u = b.ch[0][i];
    assert(u >= 0.0 && u <= 1.0);
    const long t = (long)(u * 10.0);
    ++tenth[t > 9 ? 9 : t];
    ends += (u < 0.05 || u > 0.95) ? 1U : 0U;
    if (i) {
      const double d  = fabs(u - b.ch[0][i - 1U]);
      step            = d > step ? d : step;
      double* const w = &window[i / 600000U];
      *w              = d > *w ? d : *w;
      if (i > 1U) {
        const double dd = fabs((u - b.ch[0][i - 1U]) -
                               ((double)b.ch[0][i - 1U] - b.ch[0][i - 2U]));
        bend            = dd > bend ? dd : bend;
      }
      run     = d == 0.0 ? run + 1U : 0U;
      longest = run > longest ? run : longest;
    }
  }

  printf("# Mod defaults, 1 h at 1 kHz, out_1: %% of the time per tenth:");
  for (unsigned t = 0U; t < 10U; ++t) {
    printf(" %.1f", 100.0 * (double)tenth[t] / (double)n);
  }
  printf("\n");
  for (unsigned t = 0U; t < 10U; ++t) {
    const double share = 100.0 * (double)tenth[t] / (double)n;
    assert(share >= 7.0 && share <= 13.0);
  }

  // Never a jump.  A step is at most Phi's steepest slope times the
  // Lipschitz bound of z over a frame (3 octaves, lacunarity 2,
  // persistence 0.5 at 0.5 Hz: 3 * 0.0005 cells of octave 0's worth), but
  // that lattice-point worst case is ten times the real steps.  So the
  // hour's largest step must also lie within 1.5 times the median of each
  // 10 minutes' largest (a rare jump stands out of them), and the largest
  // change of step below 5 % of that median (a smooth signal's steps change
  // little from one frame to the next; a jump, even at every cell, doubles
  // one).
  const double z_step =
    P4D_NOISE_LIPSCHITZ * 3.0 * 0.0005 / (P4D_NOISE_STD * sqrt(1.3125));
  const double bound = z_step / sqrt(2.0 * P4D_PI);
  qsort(window, 6U, sizeof(double), p4d_compare_doubles);
  const double typical = 0.5 * (window[2] + window[3]);
  printf("# Mod defaults: %.2f %% of the time within 5 %% of an end; longest "
         "run of equal values %lu frames\n",
         100.0 * (double)ends / (double)n,
         (unsigned long)longest);
  printf("# Mod defaults: largest step %.5f, %.2f times the median of each 10 "
         "minutes' largest (%.5f; least %.5f; Lipschitz bound %.5f); largest "
         "change of step %.3g, %.4f of that median\n",
         step,
         step / typical,
         typical,
         window[0],
         bound,
         bend,
         bend / typical);
  assert(ends > n / 50U); // uses the ends of the range
  assert(step <= bound);
  assert(step <= 1.5 * typical);
  assert(bend <= 0.05 * typical);
  assert(longest < 50U); // never sits flat (50 ms)

  p4d_buffers_free(&b);
  p4d_engine_free(rig.engine);
}

static double
rms_db(const float* x, size_t n)
{
  double sum = 0.0;
  for (size_t i = 0U; i < n; ++i) {
    sum += (double)x[i] * x[i];
  }
  return 10.0 * log10(sum / (double)n + 1.0e-300);
}

static void
test_band_limit(void)
{
  // The same session at every sample rate: octaves stop at 20 kHz.
  static const double rates[] = { 44100.0, 48000.0, 96000.0, 192000.0 };
  double              first   = 0.0;
  for (size_t r = 0U; r < sizeof(rates) / sizeof(rates[0]); ++r) {
    const size_t n                 = (size_t)(4.0 * rates[r]);
    P4dRig       rig               = p4d_rig_new(P4D_KIND_NOISE, rates[r]);
    P4dBuffers   b                 = p4d_buffers_new(n);
    rig.params[P4D_NOISE_GRAIN_HZ] = 4000.0f;
    rig.params[P4D_NOISE_OCTAVES]  = 8.0f;
    p4d_rig_render(&rig, b.ch, n, 4096U);
    const double db = rms_db(b.ch[0], n);
    printf("# Noise grain 4000, 8 octaves at %6.0f Hz: RMS %.2f dBFS\n",
           rates[r],
           db);
    first = r ? first : db;
    assert(fabs(db - first) < 0.3);
    p4d_buffers_free(&b);
    p4d_engine_free(rig.engine);
  }

  // An octave that reaches the limit fades out: the first one at grain
  // 10 to 20 kHz, and nothing is left at 20 kHz.
  static const float grains[] = {
    10000.0f, 14000.0f, 17000.0f, 19000.0f, 20000.0f
  };
  double       last = 0.0;
  const size_t n    = 48000U;
  P4dBuffers   b    = p4d_buffers_new(n);
  for (size_t g = 0U; g < sizeof(grains) / sizeof(grains[0]); ++g) {
    P4dRig rig                     = p4d_rig_new(P4D_KIND_NOISE, 48000.0);
    rig.params[P4D_NOISE_GRAIN_HZ] = grains[g];
    p4d_rig_render(&rig, b.ch, n, 4096U);
    const double db = rms_db(b.ch[0], n);
    printf("# Noise grain %5.0f Hz at 48 kHz: RMS %.1f dBFS\n",
           (double)grains[g],
           db);
    assert(g == 0U || db < last + 0.2);
    last = db;
    p4d_engine_free(rig.engine);
  }
  assert(last < -200.0);

  // A ramp of grain across the fade never clicks: no step larger than at
  // grain 10 kHz.
  P4dRig steady                     = p4d_rig_new(P4D_KIND_NOISE, 48000.0);
  steady.params[P4D_NOISE_GRAIN_HZ] = 10000.0f;
  p4d_rig_render(&steady, b.ch, n, 64U);
  const double steady_step = p4d_largest_step(b.ch[0], 0U, n);
  P4dRig       ramp        = p4d_rig_new(P4D_KIND_NOISE, 48000.0);
  for (size_t done = 0U; done < n; done += 64U) {
    ramp.params[P4D_NOISE_GRAIN_HZ] =
      (float)(10000.0 + 10000.0 * (double)done / (double)n);
    float* at[P4D_MAX_CHANNELS] = { b.ch[0] + done, b.ch[1] + done };
    p4d_engine_process(ramp.engine, ramp.params, at, 64U);
  }
  const double ramp_step = p4d_largest_step(b.ch[0], 0U, n);
  printf("# Noise grain 10 -> 20 kHz in 1 s: largest step %.4f, at 10 kHz "
         "%.4f\n",
         ramp_step,
         steady_step);
  assert(ramp_step <= 1.5 * steady_step);
  p4d_engine_free(steady.engine);
  p4d_engine_free(ramp.engine);
  p4d_buffers_free(&b);
}

/// Gain in dB of the high-pass at hz, from its coefficients.
static double
highpass_db(double rate_hz, double hz)
{
  const P4dHighpass h  = p4d_highpass_design(rate_hz);
  const double      w  = 2.0 * P4D_PI * hz / rate_hz;
  const double      nr = h.b0 * (1.0 - 2.0 * cos(w) + cos(2.0 * w));
  const double      ni = h.b0 * (2.0 * sin(w) - sin(2.0 * w));
  const double      dr = 1.0 + h.a1 * cos(w) + h.a2 * cos(2.0 * w);
  const double      di = -(h.a1 * sin(w)) - h.a2 * sin(2.0 * w);
  return 10.0 * log10((nr * nr + ni * ni) / (dr * dr + di * di));
}

static void
test_highpass(void)
{
  static const double rates[] = { 44100.0, 48000.0, 192000.0 };
  for (size_t r = 0U; r < sizeof(rates) / sizeof(rates[0]); ++r) {
    const double at3  = highpass_db(rates[r], 3.0);
    const double at30 = highpass_db(rates[r], 30.0);
    printf("# high-pass at %6.0f Hz: %.1f dB at 3 Hz, %.2f dB at %.0f Hz, "
           "%.3f dB at 30 Hz\n",
           rates[r],
           at3,
           highpass_db(rates[r], P4D_HIGHPASS_HZ),
           P4D_HIGHPASS_HZ,
           at30);
    assert(at30 >= -0.2 && at3 <= -20.0);
  }

  // A filter restarted from rest, against one that ran all along, on a
  // low, rumbling z (grain 20 Hz, where the state is largest): what is
  // left of the restart once the filter takes over, P later.
  const double  rate      = 48000.0;
  const int64_t age       = (int64_t)(P4D_HIGHPASS_AGE_S * rate + 0.5);
  const size_t  n         = (size_t)40U * 48000U;
  float*        z         = (float*)calloc(n, sizeof(float));
  const P4dFbm  fbm       = { 4.0f, 2.0, 0.5f, 0.0 };
  const double  origin[4] = { 0.0, 0.5, 0.2347, 0.0 };
  const double  step[4]   = { 0.0, 0.0, 0.0, 20.0 / rate };
  p4d_fbm4_sum_span(&fbm, 7U, origin, step, NULL, 0, z, n);

  const P4dHighpass h     = p4d_highpass_design(rate);
  P4dBiquad         whole = { 0.0, 0.0, 0.0, 0.0 };
  double            power = 0.0;
  for (size_t i = 0U; i < n; ++i) {
    const double y = p4d_highpass_step(&h, &whole, z[i]);
    power += y * y;
  }
  const double rms = sqrt(power / (double)n);

  double worst = 0.0;
  for (int64_t start = 48000; start + age < (int64_t)n; start += 96001) {
    P4dBiquad always = { 0.0, 0.0, 0.0, 0.0 };
    P4dBiquad fresh  = { 0.0, 0.0, 0.0, 0.0 };
    for (int64_t i = 0; i <= start + age; ++i) {
      const double y = p4d_highpass_step(&h, &always, z[i]);
      if (i >= start) {
        const double x = p4d_highpass_step(&h, &fresh, z[i]);
        worst          = i == start + age ? fmax(worst, fabs(x - y)) : worst;
      }
    }
  }
  const double db = 20.0 * log10(worst / rms + 1.0e-300);
  printf("# high-pass restart, %.1f s later: %.0f dB re the output's RMS "
         "(grain 20 Hz)\n",
         P4D_HIGHPASS_AGE_S,
         db);
  assert(db <= -100.0);
  free(z);
}

int
main(void)
{
  assert(!setvbuf(stdout, NULL, _IOLBF, 0));
  test_highpass();
  test_no_lattice_pulse();
  test_mod_range();
  test_band_limit();
  return 0;
}
