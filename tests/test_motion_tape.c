// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Motion's transport (issue 23, item 2), measured as a wow and
  flutter meter measures a machine: from the output, not the code.

  A test tone goes through each Motion preset and is demodulated into the
  delay curve D(t) of each side (the phase of the tone against the
  input's, averaged over one period of the tone, which cancels its image
  at twice the frequency).  From D:

  - the speed deviation s = -dD/dt (%), band-limited to 0.5-200 Hz as
    the standards' meters are: its peak and rms unweighted, and its rms
    through the 4 Hz weighting (WRMS, the figure JIS and NAB
    specifications quote).  The weighting is a band pass at 4 Hz of Q 0.65:
    an approximation of the curve of IEC 386 / DIN 45507 / AES6 (peak at
    4 Hz, about -8 dB at 1 Hz and -23 dB at 100 Hz), not a certified meter;
  - with a low tone (40 Hz: one period spans every delay the line can
    take, so D is absolute) the left-right difference of D, rms and peak,
    in ms, and the lowest notch the mono fold-down of a source then
    combs at, 1 / (2 peak);
  - for the turntable, D's correlation with itself one turn later and the
    frequency of its spectral peak.

  Usage: test_motion_tape BUNDLE
*/

#undef NDEBUG

#include "kind.h"
#include "motion.h"
#include "params.h"
#include "preset.h"

#include "support/basics.h"
#include "support/compare.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 48000.0

/// Frames per period of the test tones: 3 kHz (near the standards' 3150
/// Hz) and 40 Hz.
#define TONE_HIGH 16U
#define TONE_LOW 1200U

/// Frames left out at the start: the line fills, the tone's average
/// settles.
#define SKIP ((size_t)(RATE / 2.0))

static char exe_path[4096];

/// Motion's defaults overridden by the bundle's preset label, with the
/// transport alone.
static void
preset(const char* label, float* p)
{
  const P4dKindClass* const kind = p4d_kind_by_name("motion");
  P4dPresetValues           values;
  P4dRenderStatus           status = { 0 };
  p4d_param_defaults(p4d_params(P4D_KIND_MOTION), p);
  if (p4d_preset_load(label, exe_path, kind, &values, &status)) {
    fprintf(stderr, "preset %s: %s\n", label, status.reason);
    abort();
  }
  for (unsigned i = 0U; i < values.n_values; ++i) {
    p[values.params[i]] = (float)values.values[i];
  }
  // The transport alone: the filter's phase and the gain's swell are no
  // speed.
  p[P4D_MOTION_GAIN_DB]     = 0.0f;
  p[P4D_MOTION_PAN_DEPTH]   = 0.0f;
  p[P4D_MOTION_WIDTH]       = 1.0f;
  p[P4D_MOTION_FILTER_MODE] = (float)P4D_MOTION_FILTER_OFF;
}

static void
demodulate(float* const  y[2],
           size_t        n,
           unsigned      period,
           double        d0,
           double* const d[2]);

/**
   The delay curves d[0], d[1] (frames, from frame SKIP on; absolute for
   the low tone, else up to a whole period) of n frames of a tone of
   period frames through Motion with p.
*/
static void
delays(const float* p, size_t n, unsigned period, double* const d[2])
{
  P4dMotion* m = NULL;
  assert(!p4d_motion_new(RATE, &m));
  float* x    = p4d_floats_new(n, 0.0f);
  float* y[2] = { p4d_floats_new(n, 0.0f), p4d_floats_new(n, 0.0f) };
  for (size_t i = 0U; i < n; ++i) {
    x[i] = (float)(0.5 * sin(2.0 * P4D_PI * (double)(i % period) / period));
  }
  for (size_t done = 0U; done < n; done += 4096U) {
    const uint32_t     todo   = (uint32_t)(n - done < 4096U ? n - done : 4096U);
    const float* const in[2]  = { x + done, x + done };
    float* const       out[2] = { y[0] + done, y[1] + done };
    p4d_motion_process(m, p, in, out, NULL, todo);
  }
  demodulate(y, n, period, (double)p4d_motion_latency(m), d);
  free(x);
  free(y[0]);
  free(y[1]);
  p4d_motion_free(m);
}

/**
   The delay curves d[0], d[1] (frames, from frame SKIP on; absolute for
   the low tone, else up to a whole period near d0) of outputs y[0], y[1]
   of n frames of a tone of period frames.
*/
static void
demodulate(float* const  y[2],
           size_t        n,
           unsigned      period,
           double        d0,
           double* const d[2])
{
  // y = A sin(w (i - D)) times e^(-j w i), averaged over a period: A / 2
  // e^(-j (w D + pi / 2)).
  const double w = 2.0 * P4D_PI / period;
  for (unsigned c = 0U; c < 2U; ++c) {
    double re   = 0.0;
    double im   = 0.0;
    double last = 0.0;
    for (size_t i = 0U; i < n; ++i) {
      const double a = w * (double)(i % period);
      re += y[c][i] * cos(a);
      im -= y[c][i] * sin(a);
      if (i >= period) {
        const double b = w * (double)((i - period) % period);
        re -= y[c][i - period] * cos(b);
        im += y[c][i - period] * sin(b);
      }
      if (i < SKIP) {
        continue;
      }
      // The average's centre is (period - 1) / 2 frames back: a constant.
      double dd = -(atan2(im, re) + P4D_PI / 2.0) / w;
      if (i == SKIP) {
        dd += period * floor((d0 - dd) / period + 0.5);
      } else {
        dd += period * floor((last - dd) / period + 0.5);
      }
      d[c][i] = dd;
      last    = dd;
    }
  }
}

/// A biquad, direct form I, in double.
typedef struct {
  double b[3], a[3], x[2], y[2];
} Biquad;

static double
biquad(Biquad* f, double x)
{
  const double y = f->b[0] * x + f->b[1] * f->x[0] + f->b[2] * f->x[1] -
                   f->a[1] * f->y[0] - f->a[2] * f->y[1];
  f->x[1] = f->x[0];
  f->x[0] = x;
  f->y[1] = f->y[0];
  f->y[0] = y;
  return y;
}

/// RBJ cookbook sections at RATE: low pass, high pass, band pass (0 dB
/// peak), by type 0, 1, 2.
static Biquad
section(int type, double f0, double q)
{
  const double w  = 2.0 * P4D_PI * f0 / RATE;
  const double al = sin(w) / (2.0 * q);
  const double cw = cos(w);
  Biquad       f = { { 0.0 }, { 1.0 + al, -2.0 * cw, 1.0 - al }, { 0 }, { 0 } };
  if (type == 0) {
    f.b[0] = f.b[2] = (1.0 - cw) / 2.0;
    f.b[1]          = 1.0 - cw;
  } else if (type == 1) {
    f.b[0] = f.b[2] = (1.0 + cw) / 2.0;
    f.b[1]          = -(1.0 + cw);
  } else {
    f.b[0] = al;
    f.b[1] = 0.0;
    f.b[2] = -al;
  }
  for (unsigned k = 0U; k < 3U; ++k) {
    f.b[k] /= f.a[0];
  }
  f.a[1] /= f.a[0];
  f.a[2] /= f.a[0];
  f.a[0] = 1.0;
  return f;
}

/// Wow and flutter of a delay curve, %.
typedef struct {
  double peak; ///< Unweighted peak
  double rms;  ///< Unweighted rms
  double wrms; ///< Weighted rms
} Flutter;

static Flutter
flutter_of(const double* d, size_t n)
{
  Biquad lp[2] = { section(0, 200.0, 0.5412), section(0, 200.0, 1.3066) };
  Biquad hp    = section(1, 0.5, 0.7071);
  Biquad wt    = section(2, 4.0, 0.65);
  // The filters settle over the first 2 s; then the figures.
  const size_t from = SKIP + (size_t)(2.0 * RATE);
  Flutter      f    = { 0.0, 0.0, 0.0 };
  for (size_t i = SKIP + 1U; i < n; ++i) {
    const double s  = (d[i - 1U] - d[i]) * 100.0;
    const double u  = biquad(&hp, biquad(&lp[1], biquad(&lp[0], s)));
    const double ww = biquad(&wt, u);
    if (i >= from) {
      f.peak = fabs(u) > f.peak ? fabs(u) : f.peak;
      f.rms += u * u;
      f.wrms += ww * ww;
    }
  }
  f.rms  = sqrt(f.rms / (double)(n - from));
  f.wrms = sqrt(f.wrms / (double)(n - from));
  return f;
}

/// The left-right difference of absolute delay curves, ms: rms, peak.
static void
difference(double* const d[2], size_t n, double* rms, double* peak)
{
  *rms  = 0.0;
  *peak = 0.0;
  for (size_t i = SKIP; i < n; ++i) {
    const double e = (d[0][i] - d[1][i]) * 1000.0 / RATE;
    *rms += e * e;
    *peak = fabs(e) > *peak ? fabs(e) : *peak;
  }
  *rms = sqrt(*rms / (double)(n - SKIP));
}

static double*
doubles(size_t n)
{
  double* d = (double*)calloc(n, sizeof(double));
  assert(d);
  return d;
}

/// Transport figures of every Motion preset with a wobble.
static const char* const labels[] = {
  "Tape wow and flutter", "Warped vinyl",      "Drifting auto-pan",
  "Breathing tremolo",    "Slow filter drift", "Underwater",
  "Pulse per beat",
};

/**
   Every preset: wow and flutter, and the left-right difference at its
   transport_spread (0: one capstan) and, for the tape, at 1 (the control
   works).  The tape preset lies within the consumer machines' range.
*/
static void
test_presets(void)
{
  const size_t n    = (size_t)(20.0 * RATE);
  double*      d[2] = { doubles(n), doubles(n) };
  printf("# preset: speed deviation 0.5-200 Hz peak, rms, 4 Hz weighted "
         "rms (%%); L-R delay rms, peak (ms); mono notch (Hz)\n");
  for (size_t k = 0U; k < sizeof labels / sizeof labels[0]; ++k) {
    for (int spread = 0; spread < (k == 0U ? 2 : 1); ++spread) {
      float p[P4D_MAX_PARAMS];
      preset(labels[k], p);
      if (spread) {
        p[P4D_MOTION_TRANSPORT_SPREAD] = 1.0f;
      }
      if (p[P4D_MOTION_WOW_MS] == 0.0f && p[P4D_MOTION_FLUTTER_MS] == 0.0f) {
        continue;
      }
      delays(p, n, TONE_HIGH, d);
      const Flutter f = flutter_of(d[0], n);
      delays(p, n / 2U, TONE_LOW, d);
      double rms  = 0.0;
      double peak = 0.0;
      difference(d, n / 2U, &rms, &peak);
      printf("# %-22s%s: %.3f %.3f %.3f %%; L-R %.3f %.3f ms; notch ",
             labels[k],
             spread ? " (transport spread 1)" : "",
             f.peak,
             f.rms,
             f.wrms,
             rms,
             peak);
      if (peak > 1.0e-3) {
        printf("%.0f Hz\n", 500.0 / peak);
      } else {
        printf("none\n");
      }
      assert(spread ? peak > 0.1 : peak < 1.0e-3);
      if (k == 0U && !spread) {
        // A consumer cassette deck's 0.05 to 0.3 % weighted.
        assert(f.wrms >= 0.05 && f.wrms <= 0.3);
      }
    }
  }
  free(d[0]);
  free(d[1]);
}

/**
   The warp: D one turn later correlates near +1, and its spectrum peaks
   at the turn rate, at 33 1/3 and 45 rpm, with the "Warped vinyl" preset.
*/
static void
test_warp(void)
{
  const size_t n     = (size_t)(40.0 * RATE);
  double*      d[2]  = { doubles(n), doubles(n) };
  const double rpm[] = { 100.0 / 3.0, 45.0 };
  for (unsigned k = 0U; k < 2U; ++k) {
    float p[P4D_MAX_PARAMS];
    preset("Warped vinyl", p);
    p[P4D_MOTION_TURNTABLE] = (float)(P4D_MOTION_TURNTABLE_33 + k);
    delays(p, n, TONE_HIGH, d);

    const double turn_hz = rpm[k] / 60.0;
    const size_t lag     = (size_t)(RATE / turn_hz + 0.5);
    double       mean    = 0.0;
    for (size_t i = SKIP; i < n; ++i) {
      mean += d[0][i];
    }
    mean /= (double)(n - SKIP);
    double sxy = 0.0;
    double sxx = 0.0;
    double syy = 0.0;
    for (size_t i = SKIP; i + lag < n; ++i) {
      const double a = d[0][i] - mean;
      const double b = d[0][i + lag] - mean;
      sxy += a * b;
      sxx += a * a;
      syy += b * b;
    }
    const double corr = sxy / sqrt(sxx * syy);

    // The spectrum of D, every 480 frames, from 0.1 to 3 Hz in 0.005 Hz.
    double best_hz = 0.0;
    double best    = 0.0;
    double second  = 0.0;
    for (unsigned j = 0U; j < 580U; ++j) {
      const double f  = 0.1 + 0.005 * (double)j;
      double       re = 0.0;
      double       im = 0.0;
      for (size_t i = SKIP; i < n; i += 480U) {
        const double a = 2.0 * P4D_PI * f * (double)i / RATE;
        re += (d[0][i] - mean) * cos(a);
        im += (d[0][i] - mean) * sin(a);
      }
      const double mag = sqrt(re * re + im * im);
      if (mag > best) {
        best    = mag;
        best_hz = f;
      }
      if (fabs(f - 2.0 * turn_hz) < 0.003) {
        second = mag;
      }
    }
    printf("# Warped vinyl at %.2f rpm: D one turn (%.3f s) later "
           "correlates %+.4f; spectral peak %.3f Hz (the turn %.3f Hz), "
           "2nd harmonic %.1f dB\n",
           rpm[k],
           1.0 / turn_hz,
           corr,
           best_hz,
           turn_hz,
           20.0 * log10(second / best));
    assert(corr > 0.95);
    assert(fabs(best_hz - turn_hz) < 0.01);
  }
  free(d[0]);
  free(d[1]);
}

/**
   Changing the turntable speed every 1.5 s (Off, 33 1/3, 45, 78 rpm and
   back) at the deepest wow: the wow cross-fades over 20 ms, the delay
   never jumps and the read never runs backwards (speed deviation below
   100 %, as a 3 kHz tone demodulates it, sample by sample).
*/
static void
test_turntable_switch(void)
{
  const size_t n     = (size_t)(9.0 * RATE);
  const size_t block = (size_t)(1.5 * RATE);
  double*      d[2]  = { doubles(n), doubles(n) };
  P4dMotion*   m     = NULL;
  assert(!p4d_motion_new(RATE, &m));
  float* x    = p4d_floats_new(n, 0.0f);
  float* y[2] = { p4d_floats_new(n, 0.0f), p4d_floats_new(n, 0.0f) };
  for (size_t i = 0U; i < n; ++i) {
    x[i] = (float)(0.5 * sin(2.0 * P4D_PI * (double)(i % TONE_HIGH) /
                             (double)TONE_HIGH));
  }
  float p[P4D_MAX_PARAMS];
  preset("Warped vinyl", p);
  p[P4D_MOTION_WOW_MS] = 10.0f;
  for (size_t done = 0U; done < n; done += block) {
    p[P4D_MOTION_TURNTABLE]   = (float)((done / block) % 4U);
    const float* const in[2]  = { x + done, x + done };
    float* const       out[2] = { y[0] + done, y[1] + done };
    p4d_motion_process(m, p, in, out, NULL, (uint32_t)block);
  }
  demodulate(y, n, TONE_HIGH, (double)p4d_motion_latency(m), d);
  double worst = 0.0;
  for (size_t i = SKIP + 1U; i < n; ++i) {
    const double s = fabs(d[0][i] - d[0][i - 1U]);
    worst          = s > worst ? s : worst;
  }
  printf("# turntable switched every 1.5 s at wow 10 ms: the largest speed "
         "deviation %.1f %% (a read running backwards: 100 %%)\n",
         100.0 * worst);
  assert(worst < 0.9);
  p4d_motion_free(m);
  free(x);
  free(y[0]);
  free(y[1]);
  free(d[0]);
  free(d[1]);
}

/**
   Locate equals export with the turntable: the warp counts turns of the
   song frame, so a processor started at p4d_motion_exact_from(F) (as a
   host's locate or a render from --start) gives from F on the bits of a
   run from 0, at transport_spread 0.5 and with the filter at resonance
   0.8 (its level law) too.
*/
static void
test_warp_locate(void)
{
  const size_t n    = (size_t)(7.0 * RATE);
  float*       x    = p4d_floats_new(n, 0.0f);
  float*       a[2] = { p4d_floats_new(n, 0.0f), p4d_floats_new(n, 0.0f) };
  float*       b[2] = { p4d_floats_new(n, 0.0f), p4d_floats_new(n, 0.0f) };
  for (size_t i = 0U; i < n; ++i) {
    x[i] = (float)(0.5 * sin(0.37 * (double)i) * sin(0.0011 * (double)i));
  }
  float p[P4D_MAX_PARAMS];
  preset("Warped vinyl", p);
  p[P4D_MOTION_TURNTABLE]        = (float)P4D_MOTION_TURNTABLE_45;
  p[P4D_MOTION_FLUTTER_MS]       = 0.3f;
  p[P4D_MOTION_TRANSPORT_SPREAD] = 0.5f;
  p[P4D_MOTION_FILTER_MODE]      = (float)P4D_MOTION_FILTER_LOW_PASS;
  p[P4D_MOTION_RESONANCE]        = 0.8f;
  p[P4D_MOTION_GAIN_DB]          = 2.0f;

  P4dMotion* m = NULL;
  assert(!p4d_motion_new(RATE, &m));
  const int64_t from  = (int64_t)(6.0 * RATE);
  const int64_t start = p4d_motion_exact_from(m, from);
  assert(start > 0 && start < from);
  for (int run = 0; run < 2; ++run) {
    float* const* const y  = run ? b : a;
    const size_t        s0 = run ? (size_t)start : 0U;
    p4d_motion_activate_at(m, (int64_t)s0, 120.0);
    for (size_t done = s0; done < n; done += 1000U) {
      const uint32_t     todo = (uint32_t)(n - done < 1000U ? n - done : 1000U);
      const float* const in[2]  = { x + done, x + done };
      float* const       out[2] = { y[0] + done, y[1] + done };
      p4d_motion_process(m, p, in, out, NULL, todo);
    }
  }
  for (unsigned c = 0U; c < 2U; ++c) {
    (void)p4d_assert_same("turntable locate", a[c], b[c], (size_t)from, n);
  }
  printf("# turntable 45 rpm, transport spread 0.5: started at frame %lld, "
         "the bits of a run from 0 from frame %lld on\n",
         (long long)start,
         (long long)from);
  p4d_motion_free(m);
  free(x);
  for (unsigned c = 0U; c < 2U; ++c) {
    free(a[c]);
    free(b[c]);
  }
}

int
main(int argc, char** argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: test_motion_tape BUNDLE\n");
    return 2;
  }
  (void)setvbuf(stdout, NULL, _IOLBF, 0);
  // The renderer finds the bundle at lv2/perlin4d.lv2 beside its program.
  snprintf(exe_path, sizeof(exe_path), "%s/../../test_motion_tape", argv[1]);
  test_presets();
  test_warp();
  test_turntable_switch();
  test_warp_locate();
  return 0;
}
