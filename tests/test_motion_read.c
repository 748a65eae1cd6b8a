// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Motion's delay line read (issue 23, item 1) against an ideal float64
  resampling of the same delay curve: a sine on each side (two
  frequencies a run) through Motion, whose read (m->read) is compared, frame
  by frame, with a long windowed sinc in double (256 points, Kaiser beta
  24, 4096 phases: below -140 dB up to 0.94 of Nyquist) of the same float
  input at the engine's own delay (m->delay), for every Motion preset that
  moves the delay and for the largest wow and flutter at the default and
  the fastest rates, at 44.1, 48 and 96 kHz.  The long sinc is itself
  checked against the analytic sine cos(w (n - d)).  Prints the residual
  (RMS and peak, dB relative to the sine) per frequency, and the range of
  the read's speed 1 - d' (frames of input per frame, held within 0.5 to
  1.5 by the slew limiter), and asserts, at
  every rate, <= -90 dB RMS up to 2/3 of Nyquist (16 kHz at 48 kHz) and
  <= -70 dB up to 0.79 of Nyquist (19 kHz).
*/

#undef NDEBUG

#include "kind.h"
#include "motion.h"
#include "motion_private.h"
#include "params.h"
#include "preset.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/// The reference: points either side, phases, window.
#define REF_HALF 128
#define REF_PHASES 4096
#define REF_BETA 24.0

/// Seconds a run, and from when it counts.
#define RUN_S 0.5
#define SKIP_S 0.1

/// Frequencies as 24ths of Nyquist (kHz at 48 kHz).
static const double freqs[] = { 1.0,  5.0,  10.0, 12.0, 14.0,
                                15.0, 16.0, 17.0, 18.0, 19.0 };
#define N_FREQS (sizeof(freqs) / sizeof(freqs[0]))

static double* ref_table; // (REF_PHASES + 1) rows of 2 REF_HALF weights

static double
bessel_i0(double x)
{
  const double q    = 0.25 * x * x;
  double       term = 1.0;
  double       sum  = 1.0;
  for (unsigned m = 1U; term > sum * 1.0e-18; ++m) {
    term *= q / ((double)m * (double)m);
    sum += term;
  }
  return sum;
}

static void
ref_fill(void)
{
  const size_t row = (size_t)2 * REF_HALF;
  ref_table        = (double*)malloc((REF_PHASES + 1U) * row * sizeof(double));
  assert(ref_table);
  const double i0_b = bessel_i0(REF_BETA);
  for (unsigned p = 0U; p <= REF_PHASES; ++p) {
    const double f = (double)p / REF_PHASES;
    for (unsigned k = 0U; k < row; ++k) {
      const double x = (double)k - REF_HALF + f;
      const double r = x / REF_HALF;
      const double w =
        r * r < 1.0 ? bessel_i0(REF_BETA * sqrt(1.0 - r * r)) / i0_b : 0.0;
      ref_table[p * row + k] = x == 0.0 ? 1.0 : sin(PI * x) / (PI * x) * w;
    }
  }
}

/// The ideal read of x (x[n] for every n the points reach) at n - d.
static double
ref_read(const float* x, int64_t n, double d)
{
  const int64_t       di  = (int64_t)floor(d);
  const double        t   = (d - (double)di) * REF_PHASES;
  const int64_t       p   = (int64_t)t;
  const double        a   = t - (double)p;
  const double* const h0  = ref_table + (size_t)p * 2U * REF_HALF;
  const double* const h1  = h0 + (size_t)2 * REF_HALF;
  const float* const  pts = x + (n - di - REF_HALF);
  double              y   = 0.0;
  for (unsigned k = 0U; k < 2U * REF_HALF; ++k) {
    y += (h0[k] + a * (h1[k] - h0[k])) * (double)pts[k];
  }
  return y;
}

/// A setting: its name and Motion's controls.
typedef struct {
  char  name[48];
  float params[P4D_MOTION_N_PARAMS];
} Setting;

/// Residuals of one setting at one rate: [freq] RMS and peak dB.
typedef struct {
  double rms[N_FREQS];
  double peak[N_FREQS];
  double ana;      ///< Worst difference of the long sinc from the analytic sine
  double speed[2]; ///< Lowest and highest read speed, 1 - d'
} Row;

/// Run s at rate with sines at freqs[f0] (left) and freqs[f1] (right).
static void
run(const Setting* s, double rate, unsigned f0, unsigned f1, Row* row)
{
  const size_t  pad    = 4U * REF_HALF + 4096U;
  const size_t  n      = (size_t)(RUN_S * rate);
  const int64_t skip   = (int64_t)(SKIP_S * rate);
  float*        in[2]  = { (float*)calloc(n + 2U * pad, sizeof(float)),
                           (float*)calloc(n + 2U * pad, sizeof(float)) };
  float*        out[2] = { (float*)malloc(256U * sizeof(float)),
                           (float*)malloc(256U * sizeof(float)) };
  assert(in[0] && in[1] && out[0] && out[1]);
  const unsigned f[2] = { f0, f1 };
  double         w[2];
  for (unsigned c = 0U; c < 2U; ++c) {
    w[c] = PI * freqs[f[c]] / 24.0;
    // x[n] at in[c][pad + n]: 0 before frame 0, as Motion's line.
    for (size_t i = 0U; i < n + pad; ++i) {
      in[c][pad + i] = (float)(0.5 * cos(w[c] * (double)i + 0.3 * c));
    }
  }
  P4dMotion* m = NULL;
  assert(!p4d_motion_new(rate, &m));
  double last[2] = { 0.0, 0.0 };
  double err2[2] = { 0.0, 0.0 };
  double sig2[2] = { 0.0, 0.0 };
  double peak[2] = { 0.0, 0.0 };
  for (size_t done = 0U; done < n; done += 256U) {
    const uint32_t     k      = n - done < 256U ? (uint32_t)(n - done) : 256U;
    const float* const blk[2] = { in[0] + pad + done, in[1] + pad + done };
    p4d_motion_process(m, s->params, blk, out, NULL, k);
    for (unsigned c = 0U; c < 2U; ++c) {
      for (uint32_t i = 0U; i < k; ++i) {
        const int64_t fr = (int64_t)(done + i);
        if (fr < skip) {
          continue;
        }
        const double d = m->delay[c][i];
        const double v = 1.0 - (d - last[c]);
        last[c]        = d;
        if (fr > skip) {
          row->speed[0] = v < row->speed[0] ? v : row->speed[0];
          row->speed[1] = v > row->speed[1] ? v : row->speed[1];
        }
        const double ref  = ref_read(in[c] + pad, fr, d);
        const double ana  = 0.5 * cos(w[c] * ((double)fr - d) + 0.3 * c);
        const double e    = m->read[c][i] - ref;
        const double diff = fabs(ref - ana);
        row->ana          = diff > row->ana ? diff : row->ana;
        err2[c] += e * e;
        sig2[c] += 0.125;
        peak[c] = fabs(e) > peak[c] ? fabs(e) : peak[c];
      }
    }
  }
  for (unsigned c = 0U; c < 2U; ++c) {
    row->rms[f[c]]  = 10.0 * log10(err2[c] / sig2[c] + 1e-30);
    row->peak[f[c]] = 20.0 * log10(peak[c] / 0.5 + 1e-30);
  }
  p4d_motion_free(m);
  for (unsigned c = 0U; c < 2U; ++c) {
    free(in[c]);
    free(out[c]);
  }
}

/// Motion's defaults with mix 1, then the preset label's values if given.
static void
setting(Setting* s, const char* name, const char* label, const char* exe)
{
  snprintf(s->name, sizeof(s->name), "%s", name);
  p4d_param_defaults(p4d_params(P4D_KIND_MOTION), s->params);
  if (label) {
    P4dPresetValues values;
    P4dRenderStatus status = { 0 };
    if (p4d_preset_load(
          label, exe, p4d_kind_by_name("motion"), &values, &status)) {
      fprintf(stderr, "preset %s: %s\n", label, status.reason);
      abort();
    }
    for (unsigned i = 0U; i < values.n_values; ++i) {
      s->params[values.params[i]] = (float)values.values[i];
    }
  }
}

int
main(int argc, char** argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: test_motion_read BUNDLE\n");
    return 2;
  }
  (void)setvbuf(stdout, NULL, _IOLBF, 0);
  char exe[4096];
  snprintf(exe, sizeof(exe), "%s/../../test_motion_read", argv[1]);
  ref_fill();

  static const char* const presets[] = {
    "Tape wow and flutter", "Warped vinyl",      "Drifting auto-pan",
    "Breathing tremolo",    "Slow filter drift", "Underwater",
    "Pulse per beat",
  };
  enum { N_PRESETS = sizeof(presets) / sizeof(presets[0]) };
  Setting  set[N_PRESETS + 2];
  unsigned n_set = 0U;
  for (unsigned i = 0U; i < N_PRESETS; ++i) {
    setting(&set[n_set], presets[i], presets[i], exe);
    if (set[n_set].params[P4D_MOTION_WOW_MS] != 0.0f ||
        set[n_set].params[P4D_MOTION_FLUTTER_MS] != 0.0f) {
      ++n_set; // The others never read between frames.
    } else {
      printf("# %s: no wow or flutter, the read is the tap\n", presets[i]);
    }
  }
  setting(&set[n_set], "wow 10 + flutter 2 ms", NULL, exe);
  set[n_set].params[P4D_MOTION_WOW_MS]       = 10.0f;
  set[n_set++].params[P4D_MOTION_FLUTTER_MS] = 2.0f;
  setting(&set[n_set], "the same, 50 Hz x 64", NULL, exe);
  set[n_set].params[P4D_MOTION_WOW_MS]          = 10.0f;
  set[n_set].params[P4D_MOTION_FLUTTER_MS]      = 2.0f;
  set[n_set].params[P4D_MOTION_RATE_HZ]         = 50.0f;
  set[n_set++].params[P4D_MOTION_FLUTTER_RATIO] = 64.0f;

  static const double rates[] = { 44100.0, 48000.0, 96000.0 };
  int                 failed  = 0;
  for (unsigned r = 0U; r < 3U; ++r) {
    printf("# %.0f Hz: residual of the read, dB RMS/peak re the sine, at "
           "(kHz)\n# %-22s",
           rates[r],
           "");
    for (unsigned f = 0U; f < N_FREQS; ++f) {
      printf(" %8.2f", freqs[f] / 48.0 * rates[r] / 1000.0);
    }
    printf("\n");
    for (unsigned s = 0U; s < n_set; ++s) {
      Row row = { { 0.0 }, { 0.0 }, 0.0, { 1.0, 1.0 } };
      for (unsigned f = 0U; f < N_FREQS; f += 2U) {
        run(&set[s], rates[r], f, f + 1U, &row);
      }
      printf("# %-22s", set[s].name);
      for (unsigned f = 0U; f < N_FREQS; ++f) {
        printf(" %4.0f/%-4.0f", row.rms[f], row.peak[f]);
        const double target = freqs[f] <= 16.0 ? -90.0 : -70.0;
        if (!(row.rms[f] <= target)) {
          failed = 1;
        }
      }
      printf("   speed %.2f to %.2f, reference vs analytic %.0f dB\n",
             row.speed[0],
             row.speed[1],
             20.0 * log10(row.ana / 0.5 + 1e-30));
      assert(row.ana / 0.5 < 1.0e-6);
      // Never backwards: the slew limiter's 0.5 to 1.5.
      assert(row.speed[0] >= 0.5 - 1e-9 && row.speed[1] <= 1.5 + 1e-9);
    }
  }
  free(ref_table);
  if (failed) {
    fprintf(stderr,
            "a residual above its target (-90 dB to 16/24, -70 dB "
            "to 19/24 of Nyquist)\n");
    return 1;
  }
  return 0;
}
