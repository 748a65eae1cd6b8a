// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  display-bench: what one render() of the inline display costs on the GUI
  thread, per plugin kind, at Ardour's strip size (240 x 112 asks for 240
  x 112) and at a large one (600 x 300), with every curve or texture on.
  Prints microseconds per render (the best of 5 rounds of 100 renders),
  and a checksum of the image (FNV-1a of its pixels): a change that must
  keep the pixels (the drawing module's, src/draw/) keeps the checksums.

  Usage: display-bench
*/

#define _POSIX_C_SOURCE 199309L

#include "display.h"
#include "motion.h"
#include "params.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define ROUNDS 5
#define RENDERS 100

static double
now_us(void)
{
  struct timespec t = { 0, 0 };
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1.0e6 + (double)t.tv_nsec * 1.0e-3;
}

/// FNV-1a (64 bits) of the bytes of an image.
static uint64_t
checksum(const P4dIdpySurface* s)
{
  const size_t n = (size_t)s->stride * (size_t)s->height;
  uint64_t     h = 0xCBF29CE484222325U;
  for (size_t i = 0U; i < n; ++i) {
    h = (h ^ s->data[i]) * 0x100000001B3U;
  }
  return h;
}

static void
bench(const char* name, const float* params)
{
  static const uint32_t sizes[2][2] = { { 240U, 112U }, { 600U, 300U } };

  const P4dKindClass* const kind = p4d_kind_by_name(name);
  P4dDisplay* const         d    = p4d_display_new(kind, 48000.0);
  void*                     proc = NULL;
  if (!d || kind->create(48000.0, &proc)) {
    p4d_display_free(d);
    return;
  }
  (void)p4d_display_run(d, params, proc, 256U);
  for (unsigned s = 0U; s < 2U; ++s) {
    double                best  = 1.0e30;
    const P4dIdpySurface* image = NULL;
    for (int r = 0; r < ROUNDS; ++r) {
      const double t0 = now_us();
      for (int i = 0; i < RENDERS; ++i) {
        image = p4d_display_render(d, sizes[s][0], sizes[s][1]);
      }
      const double us = (now_us() - t0) / RENDERS;
      best            = us < best ? us : best;
    }
    printf("%-7s %3u x %3u  %8.1f us per render  (pixels %016" PRIx64 ")\n",
           name,
           sizes[s][0],
           sizes[s][1],
           best,
           image ? checksum(image) : 0U);
  }
  p4d_display_free(d);
  kind->destroy(proc);
}

int
main(void)
{
  float mod[P4D_MAX_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_MOD), mod);
  mod[P4D_MOD_OCTAVES] = 4.0f;
  bench("mod", mod);

  float noise[P4D_MAX_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_NOISE), noise);
  noise[P4D_NOISE_GUST_DB] = 12.0f;
  noise[P4D_NOISE_GRIT]    = 0.5f;
  bench("noise", noise);

  float motion[P4D_MAX_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_MOTION), motion);
  motion[P4D_MOTION_PAN_DEPTH]   = 0.5f;
  motion[P4D_MOTION_FILTER_MODE] = (float)P4D_MOTION_FILTER_LOW_PASS;
  motion[P4D_MOTION_WOW_MS]      = 3.0f;
  motion[P4D_MOTION_FLUTTER_MS]  = 1.0f;
  bench("motion", motion);
  return 0;
}
