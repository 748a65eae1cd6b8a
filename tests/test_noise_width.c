// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Noise's width law (flavour_noise.c, Width): the correlation of the
  left and right channels is 1 - width, evenly across the control, at 11
  points from 0 to 1, for the defaults and for settings that change the
  octaves, the grain, the lacunarity and the evolve (the channels' distance
  is the same in every octave's cells, so the law holds whatever the fBm).
  Issue 23 measured the old law (distance 3.5 cells x width): r = 0.986 at
  0.02, 0.69 at 0.1, 0.20 at 0.2 and about 0 from 0.3 up.
*/

#undef NDEBUG

#include "engine.h"
#include "params.h"
#include "support/rig.h"
#include "support/stats.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>

#define RATE_HZ 48000.0

/// Frames of each measurement: 8 s at 48 kHz.
#define N_FRAMES 384000U

/// Largest distance of the measured correlation from 1 - width.
#define TOLERANCE 0.03

/// A setting measured: a name and up to three parameters changed.
typedef struct {
  const char* name;
  unsigned    n;
  unsigned    index[3];
  float       value[3];
} Setting;

static const Setting settings[] = {
  { "defaults", 0U, { 0U }, { 0.0f } },
  { "1 octave, grain 200 Hz",
    2U,
    { P4D_NOISE_OCTAVES, P4D_NOISE_GRAIN_HZ },
    { 1.0f, 200.0f } },
  { "10 octaves, lacunarity 3.3, persistence 0.9",
    3U,
    { P4D_NOISE_OCTAVES, P4D_NOISE_LACUNARITY, P4D_NOISE_PERSISTENCE },
    { 10.0f, 3.3f, 0.9f } },
  { "evolve 5 Hz, grain 5 kHz",
    2U,
    { P4D_NOISE_EVOLVE_HZ, P4D_NOISE_GRAIN_HZ },
    { 5.0f, 5000.0f } },
};
#define N_SETTINGS (sizeof(settings) / sizeof(settings[0]))

/// L/R correlation of the Noise at setting s and width.
static double
correlation(const Setting* s, float width, P4dBuffers* b)
{
  P4dRig rig = p4d_rig_new(P4D_KIND_NOISE, RATE_HZ);
  for (unsigned k = 0U; k < s->n; ++k) {
    rig.params[s->index[k]] = s->value[k];
  }
  rig.params[P4D_NOISE_WIDTH] = width;
  p4d_rig_render(&rig, b->ch, N_FRAMES, 1024U);
  p4d_engine_free(rig.engine);
  return p4d_correlation(b->ch[0], b->ch[1], N_FRAMES);
}

int
main(void)
{
  P4dBuffers b     = p4d_buffers_new(N_FRAMES);
  double     worst = 0.0;
  for (size_t s = 0U; s < N_SETTINGS; ++s) {
    printf("# width law, %s: width -> L/R correlation (target 1 - width)\n#",
           settings[s].name);
    for (unsigned k = 0U; k <= 10U; ++k) {
      const float  width = (float)k / 10.0f;
      const double r     = correlation(&settings[s], width, &b);
      const double miss  = fabs(r - (1.0 - (double)width));
      printf(" %.1f:%.3f", (double)width, r);
      worst = miss > worst ? miss : worst;
      assert(miss <= TOLERANCE);
    }
    printf("\n");
  }
  // Small widths no longer jump: width 0.02 is nearly mono, not 0.986.
  const double r02 = correlation(&settings[0], 0.02f, &b);
  printf("# width 0.02: r %.3f; largest |r - (1 - width)| %.3f\n", r02, worst);
  assert(fabs(r02 - 0.98) <= 0.01);
  p4d_buffers_free(&b);
  return 0;
}
