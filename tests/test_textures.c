// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Noise's textures (src/engine/texture.h): the envelope module on its own (a
  pure function of the song time, the same bits in any cut and on every
  code path, mean square 1 at any depth and grit, gusts at their rate, the
  channels' gusts common and their grains apart), then every Noise preset
  of the bundle, read from presets.ttl by the renderer's preset code and
  rendered through the engine for 30 s at 48 kHz, against issue 11's
  texture targets (figures defined in tests/support/texture_figures.h, the
  same code signal-bench uses).

  Usage: test_textures BUNDLE (the built lv2/perlin4d.lv2).
*/

#undef NDEBUG

#include "engine.h"
#include "isa.h"
#include "noise.h"
#include "params.h"
#include "support/basics.h"
#include "support/compare.h"
#include "support/rig.h"
#include "support/rng.h"
#include "support/stats.h"
#include "support/texture_figures.h"
#include "texture.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define RATE_HZ 48000.0

/// Seconds of each preset's render (the issue measures over 30 s).
#define PRESET_S 30U

// -- The envelope ------------------------------------------------------------

/// Texture settings the module tests cover: off, gusts, grit, both.
static const float settings[][4] = {
  { 0.0f, 0.5f, 0.0f, 1.0f },  { 12.0f, 0.7f, 0.0f, 1.0f },
  { 0.0f, 0.5f, 0.4f, 1.0f },  { 24.0f, 5.0f, 1.0f, 0.3f },
  { 6.0f, 0.02f, 0.2f, 0.0f },
};
#define N_SETTINGS (sizeof(settings) / sizeof(settings[0]))

static P4dTexture
texture_of(const float s[4])
{
  P4dTexture t;
  p4d_texture_init(&t, s[0], s[1], s[2], s[3]);
  return t;
}

static void
test_inactive(void)
{
  P4dTexture t;
  p4d_texture_init(&t, 0.0f, 0.5f, 0.0f, 1.0f);
  assert(!t.active && p4d_texture_peak(&t) == 1.0f);

  float env[300];
  float buf[300];
  p4d_texture_envelope(&t, 1U, 0U, 0.0, 1.0 / RATE_HZ, 12345, env, 300U);
  for (unsigned i = 0U; i < 300U; ++i) {
    assert(env[i] == 1.0f);
    buf[i] = (float)i * 0.37f - 50.0f;
  }
  p4d_texture_apply(&t, 1U, 1U, 0.0, 1.0 / RATE_HZ, 12345, buf, 300U);
  for (unsigned i = 0U; i < 300U; ++i) {
    assert(buf[i] == (float)i * 0.37f - 50.0f);
  }

  // Controls out of range and NaN are clamped: never a NaN envelope.
  p4d_texture_init(&t, NAN, -1.0f, 7.0f, NAN);
  p4d_texture_envelope(&t, 1U, 0U, 3.0, 1.0 / RATE_HZ, 0, env, 300U);
  for (unsigned i = 0U; i < 300U; ++i) {
    assert(isfinite(env[i]) && env[i] > 0.0f);
  }
}

/// One call over the whole line against calls cut at random points, with
/// negative frame numbers and a time origin that is not 0.
static void
test_blocks(void)
{
  const size_t n    = 20000U;
  float* const one  = p4d_floats_new(n, 0.0f);
  float* const cut  = p4d_floats_new(n, 0.0f);
  P4dRng       rng  = { 0x7E47U };
  const double t0_s = 1234.5678;
  for (size_t k = 0U; k < N_SETTINGS; ++k) {
    const P4dTexture t = texture_of(settings[k]);
    for (unsigned c = 0U; c < 2U; ++c) {
      p4d_texture_envelope(
        &t, 7U, c, t0_s, 1.0 / RATE_HZ, -7777, one, (uint32_t)n);
      for (size_t at = 0U; at < n;) {
        const size_t m   = 1U + p4d_rng_below(&rng, 700U);
        const size_t len = at + m > n ? n - at : m;
        p4d_texture_envelope(&t,
                             7U,
                             c,
                             t0_s,
                             1.0 / RATE_HZ,
                             -7777 + (int64_t)at,
                             cut + at,
                             (uint32_t)len);
        at += len;
      }
      p4d_assert_same("envelope cut", one, cut, 0U, n);
      for (size_t i = 0U; i < n; ++i) {
        assert(isfinite(one[i]) && one[i] > 0.0f);
        assert(one[i] <= p4d_texture_peak(&t));
        assert(fpclassify(one[i]) == FP_NORMAL);
      }
    }
  }
  printf("# envelope: %u settings x 2 channels, one call and random cuts "
         "give the same bits\n",
         (unsigned)N_SETTINGS);
  free(one);
  free(cut);
}

/// Every code path of the core gives the same envelope.
static void
test_paths(void)
{
  const uint32_t n      = 8192U;
  float* const   want   = p4d_floats_new(n, 0.0f);
  float* const   got    = p4d_floats_new(n, 0.0f);
  const P4dIsa   before = p4d_isa_use(P4D_ISA_SCALAR);
  unsigned       paths  = 0U;
  for (size_t k = 0U; k < N_SETTINGS; ++k) {
    const P4dTexture t = texture_of(settings[k]);
    p4d_isa_use(P4D_ISA_SCALAR);
    p4d_texture_envelope(&t, 3U, 1U, 99.0, 1.0 / RATE_HZ, 5, want, n);
    paths = 0U;
    for (unsigned isa = 0U; isa < P4D_ISA_COUNT; ++isa) {
      if (p4d_isa_supported((P4dIsa)isa)) {
        p4d_isa_use((P4dIsa)isa);
        p4d_texture_envelope(&t, 3U, 1U, 99.0, 1.0 / RATE_HZ, 5, got, n);
        p4d_assert_same("envelope path", want, got, 0U, n);
        ++paths;
      }
    }
  }
  p4d_isa_use(before);
  printf("# envelope: the same bits on %u code paths\n", paths);
  free(want);
  free(got);
}

/*
  Mean square of the envelope at knots (where it is exactly the exponent of
  the fields), over 4 seeds x 2^17 knots 0.37 cells apart: 1 within 0.3 dB
  at any depth or grit.  The measured k(a) is printed beside the table's,
  so that the tables of texture.c can be refreshed (with more points) if
  the core's noise changes.
*/
static double
mean_square(const P4dTexture* t, double cells_per_s, uint32_t seed)
{
  const double step_s = 0.37 / ((double)P4D_TEXTURE_KNOT * cells_per_s);
  float        env[4096];
  double       sum = 0.0;
  size_t       n   = 0U;
  for (int64_t j = 0; j < (1 << 17); j += 256) {
    p4d_texture_envelope(
      t, seed, 0U, 0.0, step_s, j * P4D_TEXTURE_KNOT, env, 4096U);
    for (size_t i = 0U; i < 4096U; i += P4D_TEXTURE_KNOT) {
      sum += (double)env[i] * env[i];
      ++n;
    }
  }
  return sum / (double)n;
}

static void
test_power(void)
{
  static const uint32_t seeds[4] = { 1U, 77U, 1234U, 40000U };
  // Gust depths in dB, then grits.
  static const float cases[2][4] = { { 6.0f, 12.0f, 18.0f, 24.0f },
                                     { 0.25f, 0.5f, 0.75f, 1.0f } };
  double             worst       = 0.0;
  for (unsigned field = 0U; field < 2U; ++field) {
    for (unsigned i = 0U; i < 4U; ++i) {
      const float x = cases[field][i];
      P4dTexture  t;
      p4d_texture_init(&t, field ? 0.0f : x, 1.0f, field ? x : 0.0f, 0.0f);
      double log_sum = 0.0;
      for (unsigned s = 0U; s < 4U; ++s) {
        log_sum +=
          log(mean_square(&t, field ? 40.0 : t.gust_rate_hz, seeds[s]));
      }
      const double db = 10.0 * (log_sum / 4.0) / log(10.0);
      const float  k  = field ? t.grit_k : t.gust_k;
      printf("# %s %5.2f: mean square %+.2f dB, k %.4f (table %.4f)\n",
             field ? "grit" : "gust dB",
             (double)x,
             db,
             (double)k + (log_sum / 8.0),
             (double)k);
      worst = fabs(db) > worst ? fabs(db) : worst;
    }
  }
  printf("# envelope mean square: within %.2f dB of 1 (target 0.3 dB)\n",
         worst);
  assert(worst <= 0.3);
}

/// The dB envelope of gusts: its standard deviation is depth / 2 and its
/// dominant period over 30 periods is 1 / rate.
static void
test_gusts(void)
{
  static const float rates[3] = { 0.14f, 0.7f, 3.0f };
  for (unsigned r = 0U; r < 3U; ++r) {
    P4dTexture t;
    p4d_texture_init(&t, 10.0f, rates[r], 0.0f, 1.0f);
    // 20 points a second over 30 periods, at knots.
    const double env_hz = 20.0 * (double)rates[r];
    const size_t n      = 600U;
    const double step_s = 1.0 / (env_hz * (double)P4D_TEXTURE_KNOT);
    double*      db     = (double*)calloc(n, sizeof(double));
    float*       l      = p4d_floats_new(n * P4D_TEXTURE_KNOT, 0.0f);
    float*       rr     = p4d_floats_new(n * P4D_TEXTURE_KNOT, 0.0f);
    double       periods[16];
    double       var   = 0.0;
    double       r_sum = 0.0;
    for (unsigned trial = 0U; trial < 16U; ++trial) {
      const double t0_s = 1000.0 * trial;
      p4d_texture_envelope(
        &t, 5U, 0U, t0_s, step_s, 0, l, (uint32_t)(n * P4D_TEXTURE_KNOT));
      p4d_texture_envelope(
        &t, 5U, 1U, t0_s, step_s, 0, rr, (uint32_t)(n * P4D_TEXTURE_KNOT));
      float* const ldb = p4d_floats_new(n, 0.0f);
      float* const rdb = p4d_floats_new(n, 0.0f);
      for (size_t i = 0U; i < n; ++i) {
        db[i]  = 20.0 * log10((double)l[i * P4D_TEXTURE_KNOT]);
        ldb[i] = (float)db[i];
        rdb[i] = (float)(20.0 * log10((double)rr[i * P4D_TEXTURE_KNOT]));
      }
      double mean = 0.0;
      for (size_t i = 0U; i < n; ++i) {
        mean += db[i] / (double)n;
      }
      for (size_t i = 0U; i < n; ++i) {
        var += (db[i] - mean) * (db[i] - mean) / (double)n / 16.0;
      }
      periods[trial] = p4d_dominant_period(db, n, env_hz) * rates[r];
      r_sum += p4d_correlation(ldb, rdb, n) / 16.0;
      free(ldb);
      free(rdb);
    }
    // Median of the 16 periods, in gust periods.
    for (unsigned i = 1U; i < 16U; ++i) {
      for (unsigned j = i; j > 0U && periods[j - 1U] > periods[j]; --j) {
        const double tmp = periods[j];
        periods[j]       = periods[j - 1U];
        periods[j - 1U]  = tmp;
      }
    }
    const double median = 0.5 * (periods[7] + periods[8]);
    printf("# gusts 10 dB at %.2f Hz: level std %.2f dB, period median "
           "%.2f / rate (%.2f - %.2f), left-right r %.2f\n",
           (double)rates[r],
           sqrt(var),
           median,
           periods[0],
           periods[15],
           r_sum);
    assert(fabs(sqrt(var) - 5.0) <= 0.5);
    assert(median >= 0.8 && median <= 1.25);
    assert(periods[1] >= 0.5 && periods[14] <= 2.0);
    assert(r_sum >= 0.8 && r_sum < 0.999);
    free(db);
    free(l);
    free(rr);
  }
}

/// Width 0 gives both channels one envelope; at width 1 the grains part.
static void
test_width(void)
{
  const size_t n = 48000U;
  float* const l = p4d_floats_new(n, 0.0f);
  float* const r = p4d_floats_new(n, 0.0f);
  P4dTexture   t;
  p4d_texture_init(&t, 9.0f, 2.0f, 0.5f, 0.0f);
  p4d_texture_envelope(&t, 9U, 0U, 7.0, 1.0 / RATE_HZ, 0, l, (uint32_t)n);
  p4d_texture_envelope(&t, 9U, 1U, 7.0, 1.0 / RATE_HZ, 0, r, (uint32_t)n);
  p4d_assert_same("envelope at width 0", l, r, 0U, n);

  p4d_texture_init(&t, 0.0f, 2.0f, 0.5f, 1.0f);
  for (unsigned c = 0U; c < 2U; ++c) {
    float* const x = c ? r : l;
    p4d_texture_envelope(&t, 9U, c, 7.0, 1.0 / RATE_HZ, 0, x, (uint32_t)n);
    for (size_t i = 0U; i < n; ++i) {
      x[i] = logf(x[i]);
    }
  }
  const double rg = p4d_correlation(l, r, n);
  printf("# grit at width 1: left-right r of the log envelope %.3f\n", rg);
  assert(fabs(rg) < 0.2);
  free(l);
  free(r);
}

// -- The presets through the engine -----------------------------------------

/// Render a preset's 30 s; below_3_db gets the share of its left
/// channel's power below 3 Hz, in dB, and peak the largest magnitude of
/// either channel.
static P4dTextureFigures
render_preset(const char* label,
              const char* exe_path,
              double*     below_3_db,
              double*     peak)
{
  P4dRig rig = p4d_rig_new(P4D_KIND_NOISE, RATE_HZ);
  assert(!p4d_noise_preset(label, exe_path, rig.params));
  const size_t n = (size_t)PRESET_S * (size_t)RATE_HZ;
  P4dBuffers   b = p4d_buffers_new(n);
  p4d_rig_render(&rig, b.ch, n, 256U);
  const P4dTextureFigures fig = p4d_texture_figures(b.ch[0], n, RATE_HZ);
  *below_3_db = 10.0 * log10(p4d_band_share(b.ch[0], n, RATE_HZ, 0.0, 3.0));
  *peak       = 0.0;
  for (unsigned c = 0U; c < rig.n_channels; ++c) {
    for (size_t i = 0U; i < n; ++i) {
      *peak = fmax(*peak, fabs((double)b.ch[c][i]));
    }
  }
  p4d_buffers_free(&b);
  p4d_engine_free(rig.engine);
  return fig;
}

static void
test_presets(const char* exe_path)
{
  static const char* const labels[5] = {
    "Wind", "Surf", "Rain", "Tape hiss", "Rumble"
  };
  for (unsigned k = 0U; k < 5U; ++k) {
    double                  below_3_db = 0.0;
    double                  peak       = 0.0;
    const P4dTextureFigures f =
      render_preset(labels[k], exe_path, &below_3_db, &peak);
    printf("# %-9s swing %5.1f dB, period %5.2f s, crest %4.1f dB, "
           "drift %5.2f dB, 20-120 Hz %5.1f %%, peak %6.2f dBFS\n",
           labels[k],
           f.swing_db,
           f.period_s,
           f.crest_db,
           f.drift_db,
           100.0 * f.low_share,
           20.0 * log10(peak));
    // A textured preset sets its level so that its peaks stay below 0 dBFS.
    assert(peak < 1.0);
    switch (k) {
    case 0U:
      // Issue 23: gusts events at irregular intervals (their statistics
      // in test_noise_events), so no dominant period any more.
      printf("#   target: swing >= 6 dB (gusts: test_noise_events)\n");
      assert(f.swing_db >= 6.0);
      break;
    case 1U:
      // Issue 23: waves that build up and crash, about one in 8 s but at
      // irregular times (test_noise_events), so no dominant period.
      printf("#   target: washes >= 10 dB (waves: test_noise_events)\n");
      assert(f.swing_db >= 10.0);
      break;
    case 2U:
      printf("#   target: crest factor >= 16 dB\n");
      assert(f.crest_db >= 16.0);
      break;
    case 3U:
      printf("#   target: level drift (1 s RMS, max - min) <= 1 dB\n");
      assert(f.drift_db <= 1.0);
      break;
    default:
      printf("#   target: >= 80 %% of the power in 20 - 120 Hz "
             "(below 3 Hz: %.1f dB)\n",
             below_3_db);
      // The preset puts 1 - 2 % above 120 Hz; what it would lose below
      // 20 Hz the Noise's 12 Hz high-pass removes (issue 11 item 5).
      assert(below_3_db <= -35.0);
      assert(f.low_share >= 0.80);
      break;
    }
  }
}

int
main(int argc, char** argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: test_textures BUNDLE\n");
    return 2;
  }

  (void)setvbuf(stdout, NULL, _IOLBF, 0);
  test_inactive();
  test_blocks();
  test_paths();
  test_power();
  test_gusts();
  test_width();

  // The renderer finds the bundle at lv2/perlin4d.lv2 beside its program:
  // give it a program path two folders above the bundle.
  char exe_path[4096];
  snprintf(exe_path, sizeof(exe_path), "%s/../../test_textures", argv[1]);
  test_presets(exe_path);
  return 0;
}
