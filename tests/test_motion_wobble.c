// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Motion's delay line (issue 12, item 1): a sine through the
  largest wow and flutter against the ideal sin(2 pi f (t - d(t))), d
  known from the Mod engines' curves through the slew limiter's law
  (issue 23: the delay moves at most half a frame a frame; wow: Mod
  channel 4 at spread 1;
  flutter: Mod channel 1 at rate * flutter_ratio, seed + 32768, see
  motion.c).  Whatever the interpolation adds, aliasing, zipper or
  amplitude ripple, is in the difference; at 1 kHz it must stay below -80
  dB relative to the sine.
*/

#undef NDEBUG

#include "engine.h"
#include "motion.h"
#include "params.h"

#include "support/basics.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECONDS 4.0
#define SQRT_HALF 0.70710678118654752440

/// One Mod engine's channel ch, with Motion's time settings in p.
static void
mod_channel(const float* p,
            double       rate_hz,
            float        mod_rate,
            float        spread,
            float        seed,
            unsigned     ch,
            float*       out,
            size_t       n)
{
  P4dEngine* e = NULL;
  assert(!p4d_engine_new(P4D_KIND_MOD, rate_hz, &e));
  float mp[P4D_MOD_N_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_MOD), mp);
  mp[P4D_MOD_RATE_HZ]   = mod_rate;
  mp[P4D_MOD_OCTAVES]   = p[P4D_MOTION_OCTAVES];
  mp[P4D_MOD_SPREAD]    = spread;
  mp[P4D_MOD_SEED]      = seed;
  mp[P4D_MOD_OUT_MIN]   = 0.0f;
  mp[P4D_MOD_OUT_MAX]   = 1.0f;
  mp[P4D_MOD_SMOOTH_MS] = p[P4D_MOTION_SMOOTH_MS];
  float* chans[4]       = { p4d_floats_new(n, 0.0f),
                            p4d_floats_new(n, 0.0f),
                            p4d_floats_new(n, 0.0f),
                            p4d_floats_new(n, 0.0f) };
  p4d_engine_process(e, mp, chans, (uint32_t)n);
  memcpy(out, chans[ch], n * sizeof(float));
  for (unsigned c = 0U; c < 4U; ++c) {
    free(chans[c]);
  }
  p4d_engine_free(e);
}

/**
   The error of a sine of freq_hz through wow_ms and flutter_ms at
   motion_rate_hz, relative to the sine, in dB (RMS, and the peak in
   *peak_db); the lowest and highest pitch ratio reached, 1 - d'(t), in
   pitch[0] and pitch[1].
*/
static double
wobble_error(double  rate_hz,
             double  freq_hz,
             float   motion_rate_hz,
             float   wow_ms,
             float   flutter_ms,
             double* peak_db,
             double  pitch[2])
{
  const size_t n = (size_t)(SECONDS * rate_hz);
  P4dMotion*   m = NULL;
  assert(!p4d_motion_new(rate_hz, &m));

  float p[P4D_MOTION_N_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_MOTION), p);
  p[P4D_MOTION_RATE_HZ]     = motion_rate_hz;
  p[P4D_MOTION_GAIN_DB]     = 0.0f;
  p[P4D_MOTION_FILTER_MODE] = (float)P4D_MOTION_FILTER_OFF;
  p[P4D_MOTION_WOW_MS]      = wow_ms;
  p[P4D_MOTION_FLUTTER_MS]  = flutter_ms;

  float* x = p4d_floats_new(n, 0.0f);
  float* y = p4d_floats_new(n, 0.0f);
  float* r = p4d_floats_new(n, 0.0f);
  for (size_t i = 0U; i < n; ++i) {
    x[i] = (float)sin(2.0 * P4D_PI * freq_hz * (double)i / rate_hz);
  }
  const float* const in[2]  = { x, x };
  float* const       out[2] = { y, r };
  for (size_t done = 0U; done < n; done += 4096U) {
    const size_t       todo  = n - done < 4096U ? n - done : 4096U;
    const float* const i2[2] = { in[0] + done, in[1] + done };
    float* const       o2[2] = { out[0] + done, out[1] + done };
    p4d_motion_process(m, p, i2, o2, NULL, (uint32_t)todo);
  }

  float*      wow     = p4d_floats_new(n, 0.0f);
  float*      flutter = p4d_floats_new(n, 0.0f);
  const float ratio   = p[P4D_MOTION_FLUTTER_RATIO];
  mod_channel(p, rate_hz, motion_rate_hz, 1.0f, 1.0f, 3U, wow, n);
  mod_channel(p,
              rate_hz,
              motion_rate_hz * ratio,
              p[P4D_MOTION_TRANSPORT_SPREAD],
              1.0f + 32768.0f,
              0U,
              flutter,
              n);

  const double d0    = (double)p4d_motion_latency(m);
  const double fpm   = rate_hz / 1000.0;
  const size_t skip  = (size_t)(d0 * 2.0 + 8.0);
  double       err2  = 0.0;
  double       sig2  = 0.0;
  double       peak  = 0.0;
  double       d_old = 0.0;
  pitch[0]           = 1.0;
  pitch[1]           = 1.0;
  double up          = d0; // The slew limiter's stages (motion_audio.c)
  double down        = d0;
  for (size_t i = 0U; i < n; ++i) {
    const double wb = (double)wow_ms * (2.0 * wow[i] - 1.0) +
                      (double)flutter_ms * (2.0 * flutter[i] - 1.0);
    up             = fmin(d0 + wb * fpm, up + 0.5);
    down           = fmax(up, down - 0.5);
    const double d = down;
    if (i < skip) {
      continue;
    }
    const double ideal =
      sin(2.0 * P4D_PI * freq_hz * ((double)i - d) / rate_hz);
    const double e = (double)y[i] - ideal;
    err2 += e * e;
    sig2 += ideal * ideal;
    peak = fabs(e) > peak ? fabs(e) : peak;
    if (i > skip) {
      const double ratio_now = 1.0 - (d - d_old);
      pitch[0]               = ratio_now < pitch[0] ? ratio_now : pitch[0];
      pitch[1]               = ratio_now > pitch[1] ? ratio_now : pitch[1];
    }
    d_old = d;
  }
  *peak_db = 20.0 * log10(peak / SQRT_HALF);

  free(x);
  free(y);
  free(r);
  free(wow);
  free(flutter);
  p4d_motion_free(m);
  return 10.0 * log10(err2 / sig2);
}

static void
test_wobble(void)
{
  typedef struct {
    double rate_hz;
    double freq_hz;
    float  motion_rate_hz;
    double limit_db; ///< RMS error limit, dB, or 0 for a figure only
  } Case;

  const Case cases[] = {
    { 48000.0, 1000.0, 0.5f, -80.0 }, { 48000.0, 1000.0, 4.0f, -80.0 },
    { 44100.0, 1000.0, 4.0f, -80.0 }, { 96000.0, 1000.0, 4.0f, -80.0 },
    { 48000.0, 5000.0, 4.0f, 0.0 },   { 48000.0, 10000.0, 4.0f, 0.0 },
    { 48000.0, 15000.0, 4.0f, 0.0 },
  };
  for (size_t c = 0U; c < sizeof(cases) / sizeof(cases[0]); ++c) {
    const Case*  k        = &cases[c];
    double       peak     = 0.0;
    double       pitch[2] = { 1.0, 1.0 };
    const double db       = wobble_error(
      k->rate_hz, k->freq_hz, k->motion_rate_hz, 10.0f, 2.0f, &peak, pitch);
    printf("# %5.0f Hz sine at %.0f Hz, wow 10 ms + flutter 2 ms at rate "
           "%.1f Hz (pitch x%.2f to x%.2f): error %.1f dB RMS, %.1f dB peak\n",
           k->freq_hz,
           k->rate_hz,
           (double)k->motion_rate_hz,
           pitch[0],
           pitch[1],
           db,
           peak);
    if (k->limit_db < 0.0) {
      assert(db <= k->limit_db && peak <= k->limit_db + 10.0);
    }
  }
}

int
main(void)
{
  test_wobble();
  return 0;
}
