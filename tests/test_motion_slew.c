// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Motion's read never runs backwards (issue 23, item 1): at the largest
  wow and flutter and the fastest rates (50 Hz, flutter ratio 64), the
  delay's curves alone would move the read at -3.6 to 6.2 times speed; the
  slew limiter (motion_audio.c) holds it within 0.5 to 1.5.  Automation
  across the limit never clicks: the depths switched on at once, the rate
  jumped from 0.5 to 50 Hz and back, and the depths switched off, on a 1
  kHz sine: no output step is larger than the steepest slope of the sine
  at 1.5 times its pitch (0.196 of its amplitude a frame), and once the
  depths are off the limiter rests at D0 (the read is the tap again).
*/

#undef NDEBUG

#include "motion.h"
#include "motion_private.h"
#include "params.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>

#define RATE 48000.0
#define BLOCK 256U
#define AMP 0.5

/// One phase of the automation: what is set, for how many blocks.
typedef struct {
  const char* what;
  float       wow_ms;
  float       flutter_ms;
  float       rate_hz;
  unsigned    blocks;
} Phase;

int
main(void)
{
  static const Phase phases[] = {
    { "depths off, 50 Hz", 0.0f, 0.0f, 50.0f, 100U },
    { "wow 10 + flutter 2 ms at once", 10.0f, 2.0f, 50.0f, 200U },
    { "rate to 0.5 Hz at once", 10.0f, 2.0f, 0.5f, 200U },
    { "rate to 50 Hz at once", 10.0f, 2.0f, 50.0f, 200U },
    { "depths off at once", 0.0f, 0.0f, 50.0f, 200U },
  };
  P4dMotion* m = NULL;
  assert(!p4d_motion_new(RATE, &m));
  float p[P4D_MOTION_N_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_MOTION), p);
  p[P4D_MOTION_GAIN_DB]       = 0.0f;
  p[P4D_MOTION_FLUTTER_RATIO] = 64.0f;

  float        in[2][BLOCK];
  float        out[2][BLOCK];
  const float* ins[2]  = { in[0], in[1] };
  float* const outs[2] = { out[0], out[1] };
  int64_t      frame   = 0;
  double       last_y  = 0.0;
  double       worst   = 0.0;
  const double w       = 2.0 * 3.14159265358979323846 * 1000.0 / RATE;
  const double allowed = AMP * w * (1.0 + P4D_MOTION_SLEW);
  bool         ok      = true;
  for (unsigned ph = 0U; ph < sizeof(phases) / sizeof(phases[0]); ++ph) {
    p[P4D_MOTION_WOW_MS]     = phases[ph].wow_ms;
    p[P4D_MOTION_FLUTTER_MS] = phases[ph].flutter_ms;
    p[P4D_MOTION_RATE_HZ]    = phases[ph].rate_hz;
    double speed[2]          = { 1.0, 1.0 };
    double step              = 0.0;
    double last_d[2]         = { 0.0, 0.0 };
    for (unsigned b = 0U; b < phases[ph].blocks; ++b) {
      for (unsigned i = 0U; i < BLOCK; ++i) {
        in[0][i] = in[1][i] = (float)(AMP * sin(w * (double)(frame + i)));
      }
      p4d_motion_process(m, p, ins, outs, NULL, BLOCK);
      for (unsigned i = 0U; i < BLOCK; ++i) {
        const double y = out[0][i];
        if (frame + i > 0) {
          step = fmax(step, fabs(y - last_y));
        }
        last_y = y;
        // While the depths are on, every frame reads between frames.
        for (unsigned c = 0U; phases[ph].wow_ms > 0.0f && c < 2U; ++c) {
          const double d = m->delay[c][i];
          if (b > 0U || i > 0U) {
            const double v = 1.0 - (d - last_d[c]);
            speed[0]       = fmin(speed[0], v);
            speed[1]       = fmax(speed[1], v);
          }
          last_d[c] = d;
        }
      }
      frame += BLOCK;
    }
    printf("# %-30s read speed %.3f to %.3f, largest output step %.4f "
           "(the slope at 1.5x pitch: %.4f)\n",
           phases[ph].what,
           speed[0],
           speed[1],
           step,
           allowed);
    ok &= speed[0] >= 1.0 - P4D_MOTION_SLEW - 1e-9 &&
          speed[1] <= 1.0 + P4D_MOTION_SLEW + 1e-9;
    ok &= step <= allowed * 1.0001;
    worst = fmax(worst, step);
  }
  // Back at rest: the limiter sits at D0 and the read is the tap again.
  assert(m->slew[0][0] == (double)m->d0 && m->slew[1][1] == (double)m->d0);
  p4d_motion_free(m);
  if (!ok) {
    fprintf(stderr, "the read reversed, or the output clicked\n");
    return 1;
  }
  return 0;
}
