// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Noise's events (texture.c, Events; issue 23 item 3): droplets, waves
  and gusts.

  test_noise_events module: the envelope on its own.  Events off keep the
  texture's bits; the envelope is the same in any cut of the time line and
  at width 0 the same in both channels; its mean square is 1 (within
  0.5 dB) for every kind at several rates; and the figures of each kind,
  measured on the envelope: drops' onsets (10 - 90 %) and decay times
  (peak to 1/e above the bed) and the measured density against the
  control; waves' build-up (10 - 50 % of the crest), crash (50 - 90 %)
  and fall (90 - 10 %); gusts' intervals between crests and their
  coefficient of variation.

  test_noise_events presets BUNDLE: the Rain, Surf and Wind presets (and
  Tape hiss and Rumble) rendered through the engine for 30 s at 48 kHz:
  Wind's correlation of the spectral centroid with the level over 100 ms
  windows, against the same preset without its gusts events; and a
  spectrogram PNG of each preset in noise-events-png/ beside this program.
*/

#undef NDEBUG

#include "engine.h"
#include "params.h"
#include "support/basics.h"
#include "support/rig.h"
#include "support/spectrogram.h"
#include "support/spectrum.h"
#include "support/stats.h"
#include "support/texture_figures.h"
#include "texture.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define RATE_HZ 48000.0

#define PI 3.14159265358979323846

static uint32_t
bits(float x)
{
  uint32_t u = 0U;
  memcpy(&u, &x, sizeof(u));
  return u;
}

static P4dTexture
events_texture(unsigned kind, float rate_hz, float width)
{
  P4dTexture t;
  p4d_texture_init(&t, 0.0f, 0.5f, 0.0f, width);
  p4d_texture_events(&t, (float)kind, rate_hz);
  return t;
}

/// n frames of channel c's envelope from song second t0.
static float*
envelope(const P4dTexture* t, unsigned c, double t0, size_t n)
{
  float* const env = p4d_floats_new(n, 0.0f);
  p4d_texture_envelope(t, 5U, c, t0, 1.0 / RATE_HZ, 0, env, (uint32_t)n);
  return env;
}

/// Channel 0's envelope in knots (every 16th frame) over the first n knots:
/// long figures at a sixteenth of the work.
static float*
knot_envelope(const P4dTexture* t, size_t n)
{
  float* const env = p4d_floats_new(n, 0.0f);
  float        buf[1];
  for (size_t i = 0U; i < n; ++i) {
    p4d_texture_envelope(
      t, 5U, 0U, 0.0, 1.0 / RATE_HZ, (int64_t)(16U * i), buf, 1U);
    env[i] = buf[0];
  }
  return env;
}

// -- The module
// ----------------------------------------------------------------

static void
test_off_and_cuts(void)
{
  // Off: the same texture, bit for bit, as without the call.
  P4dTexture a;
  P4dTexture b;
  p4d_texture_init(&a, 9.0f, 0.7f, 0.3f, 1.0f);
  p4d_texture_init(&b, 9.0f, 0.7f, 0.3f, 1.0f);
  p4d_texture_events(&b, 0.0f, 40.0f);
  const size_t n  = 20000U;
  float* const ea = envelope(&a, 1U, 3.0, n);
  float* const eb = envelope(&b, 1U, 3.0, n);
  for (size_t i = 0U; i < n; ++i) {
    assert(bits(ea[i]) == bits(eb[i]));
  }

  // Any cut, every kind; width 0 is one envelope for both channels.
  for (unsigned kind = 1U; kind < P4D_TEXTURE_N_EVENTS; ++kind) {
    const P4dTexture t = events_texture(kind, kind == 1U ? 80.0f : 2.0f, 1.0f);
    float* const     whole = envelope(&t, 0U, 1.5, n);
    float            part[20000];
    for (size_t at = 0U; at < n;) {
      const size_t m = at % 7U == 3U ? 1U : 1U + (at * 2654435761U) % 977U;
      const size_t k = at + m < n ? m : n - at;
      p4d_texture_envelope(
        &t, 5U, 0U, 1.5, 1.0 / RATE_HZ, (int64_t)at, part + at, (uint32_t)k);
      at += k;
    }
    for (size_t i = 0U; i < n; ++i) {
      assert(bits(part[i]) == bits(whole[i]));
      assert(whole[i] > 0.0f && isfinite(whole[i]));
      assert(whole[i] <= p4d_texture_peak(&t));
    }
    const P4dTexture mono = events_texture(kind, 2.0f, 0.0f);
    float* const     l    = envelope(&mono, 0U, 1.5, n);
    float* const     r    = envelope(&mono, 1U, 1.5, n);
    for (size_t i = 0U; i < n; ++i) {
      assert(bits(l[i]) == bits(r[i]));
    }
    free(whole);
    free(l);
    free(r);
  }
  free(ea);
  free(eb);
  printf("# events off keep the bits; any cut and width 0 give the same "
         "bits\n");
}

/// Mean square of the envelope over seconds, sampled every 64th frame.
static double
mean_square(const P4dTexture* t, double seconds)
{
  const size_t n     = (size_t)(seconds * RATE_HZ / 64.0);
  double       power = 0.0;
  for (size_t i = 0U; i < n; ++i) {
    float env = 0.0f;
    p4d_texture_envelope(
      t, 5U, 0U, 0.0, 1.0 / RATE_HZ, (int64_t)(64U * i), &env, 1U);
    power += (double)env * (double)env;
  }
  return power / (double)n;
}

static void
test_power(void)
{
  static const char* const names[]    = { "", "drops", "waves", "gusts" };
  static const float       rates[][3] = { { 0.0f },
                                          { 5.0f, 40.0f, 200.0f },
                                          { 0.05f, 0.12f, 0.3f },
                                          { 0.2f, 0.6f, 2.0f } };
  double                   worst      = 0.0;
  for (unsigned kind = 1U; kind < P4D_TEXTURE_N_EVENTS; ++kind) {
    printf("# mean square of the %s envelope, dB:", names[kind]);
    for (unsigned r = 0U; r < 3U; ++r) {
      const P4dTexture t = events_texture(kind, rates[kind][r], 1.0f);
      const double     db =
        10.0 * log10(mean_square(&t, kind == 1U ? 150.0 : 1000.0));
      printf(" %.2f at %g/s", db, (double)rates[kind][r]);
      worst = fabs(db) > worst ? fabs(db) : worst;
    }
    printf("\n");
  }
  assert(worst <= 0.75);
}

/// Crests of env[0..n): local maxima over +-half frames, above floor.
static size_t
crests(const float* env,
       size_t       n,
       size_t       half,
       double       floor_v,
       size_t*      at,
       size_t       most)
{
  size_t count = 0U;
  for (size_t i = half; i + half < n && count < most; ++i) {
    if ((double)env[i] <= floor_v || env[i] <= env[i - 1U]) {
      continue;
    }
    bool top = true;
    for (size_t k = i - half; k <= i + half && top; ++k) {
      top = k == i || env[k] < env[i] || (k > i && env[k] <= env[i]);
    }
    if (top) {
      at[count++] = i;
    }
  }
  return count;
}

static int
by_value(const void* a, const void* b)
{
  const double x = *(const double*)a;
  const double y = *(const double*)b;
  return (x > y) - (x < y);
}

/// Quantile q of x[0..n) (sorted in place).
static double
quantile(double* x, size_t n, double q)
{
  qsort(x, n, sizeof(*x), by_value);
  return x[(size_t)(q * (double)(n - 1U))];
}

#define MOST 4096U

/// Drops at 5 per second (mostly apart): onsets and decays; and the
/// density measured against the control.
static void
test_drops(void)
{
  const size_t     n   = 120U * (size_t)RATE_HZ;
  const P4dTexture t   = events_texture(1U, 5.0f, 1.0f);
  float* const     env = envelope(&t, 0U, 0.0, n);
  const double     bed = (double)t.event_norm * 0.12;
  static size_t    at[MOST];
  static double    onset[MOST];
  static double    decay[MOST];
  const size_t     half = (size_t)(0.002 * RATE_HZ);
  const size_t     n_at = crests(env, n, half, bed * 1.5, at, MOST);
  size_t           n_on = 0U;
  size_t           n_de = 0U;
  for (size_t k = 0U; k < n_at; ++k) {
    const size_t i = at[k];
    size_t       j = i;
    // The trough before: where the envelope stops falling backwards.
    while (j > 0U && env[j - 1U] < env[j]) {
      --j;
    }
    const double lo = env[j];
    const double hi = env[i];
    if (hi < 2.0 * lo) {
      continue; // a small drop on a larger one's tail
    }
    size_t t90 = i;
    while (t90 > j && env[t90] > lo + 0.9 * (hi - lo)) {
      --t90;
    }
    size_t t10 = t90;
    while (t10 > j && env[t10] > lo + 0.1 * (hi - lo)) {
      --t10;
    }
    onset[n_on++] = (double)(t90 - t10) / RATE_HZ * 1000.0;
    // The decay: to 1/e of the height above the bed, if no drop comes first.
    const double goal = bed + (hi - bed) * 0.36787944;
    size_t       e    = i;
    while (e + 1U < n && env[e + 1U] <= env[e] && env[e] > goal) {
      ++e;
    }
    if (env[e] <= goal) {
      decay[n_de++] = (double)(e - i) / RATE_HZ * 1000.0;
    }
  }
  const double on_max = quantile(onset, n_on, 1.0);
  const double on_med = quantile(onset, n_on, 0.5);
  const double d05    = quantile(decay, n_de, 0.05);
  const double d50    = quantile(decay, n_de, 0.5);
  const double d95    = quantile(decay, n_de, 0.95);
  printf("# drops at 5/s, 120 s: %zu onsets (10-90 %%) median %.2f ms, "
         "longest %.2f ms; %zu decays (to 1/e) 5 %% %.1f ms, median %.1f ms, "
         "95 %% %.1f ms\n",
         n_on,
         on_med,
         on_max,
         n_de,
         d05,
         d50,
         d95);
  assert(on_max < 1.0);
  assert(d05 >= 4.0 && d95 <= 55.0 && d50 >= 8.0 && d50 <= 30.0);
  free(env);

  // Density: isolated drops counted at low rates follow the control.
  static const float rates[] = { 2.0f, 5.0f, 10.0f };
  // Counted at width 0 (at width 1 a drop may sit in the other channel),
  // as rises by half in one knot: a drop below half the bed is missed.
  printf("# drops per second, control -> counted (width 0, rises of 1.5x "
         "in a knot):");
  for (unsigned r = 0U; r < 3U; ++r) {
    const P4dTexture tr  = events_texture(1U, rates[r], 0.0f);
    float* const     e   = envelope(&tr, 0U, 0.0, n);
    size_t           hit = 0U;
    for (size_t i = 16U; i < n; i += 16U) {
      hit += e[i] > 1.5f * e[i - 16U] ? 1U : 0U;
    }
    const double per_s = (double)hit / 120.0;
    printf(" %g -> %.2f", (double)rates[r], per_s);
    assert(per_s >= 0.75 * (double)rates[r] &&
           per_s <= 1.05 * (double)rates[r]);
    free(e);
  }
  printf("\n");
}

/// Waves at 0.12 per second: build-up, crash and fall of each crest.
static void
test_waves(void)
{
  const size_t     n      = 600U * (size_t)(RATE_HZ / 16.0);
  const P4dTexture t      = events_texture(2U, 0.12f, 1.0f);
  float* const     env    = knot_envelope(&t, n); // 600 s
  const double     knot_s = 16.0 / RATE_HZ;
  static size_t    at[MOST];
  static double    build[MOST];
  static double    crash[MOST];
  static double    fall[MOST];
  const size_t     n_at = crests(env, n, (size_t)(2.0 / knot_s), 0.0, at, MOST);
  size_t           m    = 0U;
  for (size_t k = 1U; k + 1U < n_at; ++k) {
    const size_t i = at[k];
    size_t       b = i;
    size_t       a = i;
    for (size_t j = at[k - 1U]; j < i; ++j) {
      b = env[j] < env[b] ? j : b;
    }
    for (size_t j = i; j < at[k + 1U]; ++j) {
      a = env[j] < env[a] ? j : a;
    }
    const double lo  = env[b];
    const double hi  = env[i];
    size_t       c90 = i;
    while (c90 > b && env[c90] > lo + 0.9 * (hi - lo)) {
      --c90;
    }
    size_t c50 = c90;
    while (c50 > b && env[c50] > lo + 0.5 * (hi - lo)) {
      --c50;
    }
    size_t c10 = c50;
    while (c10 > b && env[c10] > lo + 0.1 * (hi - lo)) {
      --c10;
    }
    const double lo_a = env[a];
    size_t       f90  = i;
    while (f90 < a && env[f90] > lo_a + 0.9 * (hi - lo_a)) {
      ++f90;
    }
    size_t f10 = f90;
    while (f10 < a && env[f10] > lo_a + 0.1 * (hi - lo_a)) {
      ++f10;
    }
    build[m] = (double)(c50 - c10) * knot_s;
    crash[m] = (double)(c90 - c50) * knot_s;
    fall[m]  = (double)(f10 - f90) * knot_s;
    ++m;
  }
  const double b50 = quantile(build, m, 0.5);
  const double c50 = quantile(crash, m, 0.5);
  const double c90 = quantile(crash, m, 0.9);
  const double f50 = quantile(fall, m, 0.5);
  printf("# waves at 0.12/s, 600 s: %zu crests; build-up (10-50 %%) median "
         "%.2f s, crash (50-90 %%) median %.3f s (90 %% within %.3f s), "
         "fall (90-10 %%) median %.2f s: rise/fall of the crash %.3f\n",
         m,
         b50,
         c50,
         c90,
         f50,
         c50 / f50);
  assert(m >= 40U);
  assert(b50 >= 0.5 && c50 <= 0.1 && c90 <= 0.2 && f50 >= 1.0);
  free(env);
}

/// Gusts at 0.6 per second: the intervals between crests.
static void
test_gusts(void)
{
  const size_t     n      = 600U * (size_t)(RATE_HZ / 16.0);
  const P4dTexture t      = events_texture(3U, 0.6f, 1.0f);
  float* const     env    = knot_envelope(&t, n); // 600 s
  const double     knot_s = 16.0 / RATE_HZ;
  static size_t    at[MOST];
  // Crests that stand 3 dB above the trough on either side.
  const size_t  n_at = crests(env, n, (size_t)(0.25 / knot_s), 0.0, at, MOST);
  static double gap[MOST];
  size_t        m    = 0U;
  size_t        last = 0U;
  bool          have = false;
  for (size_t k = 0U; k < n_at; ++k) {
    if (have) {
      gap[m++] = (double)(at[k] - last) * knot_s;
    }
    last = at[k];
    have = true;
  }
  double mean = 0.0;
  for (size_t k = 0U; k < m; ++k) {
    mean += gap[k];
  }
  mean /= (double)m;
  double var = 0.0;
  for (size_t k = 0U; k < m; ++k) {
    var += (gap[k] - mean) * (gap[k] - mean);
  }
  const double cv = sqrt(var / (double)m) / mean;
  printf("# gusts at 0.6/s, 600 s: %zu intervals between crests, mean %.2f s, "
         "5 %% %.2f s, 95 %% %.2f s, coefficient of variation %.2f\n",
         m,
         mean,
         quantile(gap, m, 0.05),
         quantile(gap, m, 0.95),
         cv);
  assert(cv >= 0.4);
  free(env);
}

// -- The presets
// -----------------------------------------------------------------

/// Level (dB) and spectral centroid (Hz) of x over 100 ms windows, and
/// their correlation.
static double
level_centroid(const float* x, size_t n)
{
  const size_t win = 4096U;
  const size_t m   = n / win;
  P4dFft       f   = p4d_fft_new(win);
  float*       lv  = calloc(m, sizeof(float));
  float*       ce  = calloc(m, sizeof(float));
  assert(lv && ce);
  for (size_t k = 0U; k < m; ++k) {
    double power = 0.0;
    for (size_t i = 0U; i < win; ++i) {
      const double w = 0.5 - 0.5 * cos(2.0 * PI * (double)i / (double)win);
      f.re[i]        = w * (double)x[k * win + i];
      f.im[i]        = 0.0;
      power += (double)x[k * win + i] * (double)x[k * win + i];
    }
    p4d_fft_run(&f);
    double num = 0.0;
    double den = 0.0;
    for (size_t b = 1U; b < win / 2U; ++b) {
      const double p = f.re[b] * f.re[b] + f.im[b] * f.im[b];
      num += p * (double)b * RATE_HZ / (double)win;
      den += p;
    }
    lv[k] = (float)(10.0 * log10(power / (double)win + 1.0e-30));
    ce[k] = (float)(num / (den + 1.0e-30));
  }
  const double r = p4d_correlation(lv, ce, m);
  free(lv);
  free(ce);
  p4d_fft_free(&f);
  return r;
}

static void
test_presets(const char* exe_path, const char* png_dir)
{
  static const char* const labels[] = {
    "Rain", "Surf", "Wind", "Tape hiss", "Rumble"
  };
  static const char* const files[] = {
    "rain", "surf", "wind", "tape-hiss", "rumble"
  };
  const size_t n = 30U * (size_t)RATE_HZ;
  for (unsigned k = 0U; k < 5U; ++k) {
    for (unsigned events = 0U; events < 2U; ++events) {
      P4dRig rig = p4d_rig_new(P4D_KIND_NOISE, RATE_HZ);
      assert(!p4d_noise_preset(labels[k], exe_path, rig.params));
      if (!events) {
        if (rig.params[P4D_NOISE_EVENTS] == 0.0f) {
          p4d_engine_free(rig.engine);
          continue;
        }
        rig.params[P4D_NOISE_EVENTS] = 0.0f;
      }
      P4dBuffers b = p4d_buffers_new(n);
      p4d_rig_render(&rig, b.ch, n, 256U);
      const P4dTextureFigures fig = p4d_texture_figures(b.ch[0], n, RATE_HZ);
      const double            r   = level_centroid(b.ch[0], n);
      printf("# %-9s%s: swing %5.1f dB, period %5.2f s, crest %4.1f dB, "
             "level-centroid r %+.2f, L/R r %+.2f\n",
             labels[k],
             events ? "" : " without its events",
             fig.swing_db,
             fig.period_s,
             fig.crest_db,
             r,
             p4d_correlation(b.ch[0], b.ch[1], n));
      if (events) {
        char path[4200];
        snprintf(path, sizeof(path), "%s/%s.png", png_dir, files[k]);
        p4d_spectrogram_png(path, b.ch[0], n, RATE_HZ);
        if (k == 2U) {
          printf(
            "#   target: Wind's gusts brighten as they swell (r >= 0.5)\n");
          assert(r >= 0.5);
        }
        if (k == 0U) {
          printf("#   target: Rain's crest factor >= 16 dB\n");
          assert(fig.crest_db >= 16.0);
        }
      }
      p4d_buffers_free(&b);
      p4d_engine_free(rig.engine);
    }
  }
}

int
main(int argc, char** argv)
{
  (void)setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 2 && !strcmp(argv[1], "module")) {
    test_off_and_cuts();
    test_power();
    test_drops();
    test_waves();
    test_gusts();
    return 0;
  }
  if (argc == 3 && !strcmp(argv[1], "presets")) {
    char exe_path[4096];
    snprintf(exe_path, sizeof(exe_path), "%s/../../test_noise_events", argv[2]);
    const char* slash = strrchr(argv[0], '/');
    const int   len   = slash ? (int)(slash - argv[0]) : 1;
    char        png_dir[4096];
    snprintf(png_dir,
             sizeof(png_dir),
             "%.*s/noise-events-png",
             len,
             slash ? argv[0] : ".");
    mkdir(png_dir, 0755);
    test_presets(exe_path, png_dir);
    return 0;
  }
  fprintf(stderr, "usage: test_noise_events module | presets BUNDLE\n");
  return 2;
}
