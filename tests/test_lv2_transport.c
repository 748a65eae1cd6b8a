// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The plugins under host transport (time:Position objects built with the
  atom forge): identical output after relocating to the same song
  position, in seconds and in beats, and a Mod output that keeps moving,
  without a click, while the transport is stopped.

  Every run checks its outputs and MIDI as tests/support/host.h says.

  Usage: test_lv2_transport BUNDLE_PATH
*/

#undef NDEBUG

#include "support/dest.h"
#include "support/host.h"
#include "support/stats.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/**
   Song position F, a jump elsewhere, then F again: once the glide is over
   the output is the same bits at the same song positions (the Noise first
   warms its high-pass up from the new position's past, at most 57 ms).
*/
static void
test_relocate(const char* uri, bool beats)
{
  static const uint32_t pattern_a[] = { 512U };
  static const uint32_t pattern_c[] = { 333U, 1024U, 7U };

  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "relocate %s%s",
           uri,
           beats ? " beats" : "");
  P4dHost* const h = p4d_host_new(uri, P4D_HOST_RATE, true);
  p4d_host_set_lively(h);
  if (beats) {
    p4d_host_set(h, "clock", 1.0f);
  }

  // The glide (20 ms, the Mod's default smoothing and the Noise's fixed
  // glide), after the Noise's warm-up (57.2 ms at most), and a margin.
  const size_t settle =
    h->noise ? P4D_HOST_SECOND * 80U / 1000U : P4D_HOST_SECOND / 40U;
  const size_t n    = settle + P4D_HOST_SECOND / 2U;
  const bool   same = h->n_outs && !h->n_signals; // Mod: same block ends
  P4dDest      a    = p4d_dest_new(h, n);
  P4dDest      b    = p4d_dest_new(h, P4D_HOST_SECOND / 4U);
  P4dDest      c    = p4d_dest_new(h, n);

  P4dHostTransport tr = { true, beats, false, P4D_HOST_SONG_F, 1.0f, 120.0 };
  p4d_host_activate(h);
  p4d_host_render(h, &a, n, pattern_a, 1U, &tr);
  tr.frame = P4D_HOST_SONG_G;
  p4d_host_render(h, &b, P4D_HOST_SECOND / 4U, pattern_a, 1U, &tr);
  tr.frame = P4D_HOST_SONG_F;
  if (same) {
    p4d_host_render(h, &c, n, pattern_a, 1U, &tr);
  } else {
    p4d_host_render(h, &c, n, pattern_c, 3U, &tr);
  }

  const size_t compared = p4d_dest_compare(h, &a, &c, settle, n);
  assert(compared > 0U);
  printf("# relocate %s%s: %lu values identical from %.0f ms after the return "
         "to song frame %" PRId64 "\n",
         p4d_host_name(h),
         beats ? " (beats)" : "",
         (unsigned long)compared,
         1000.0 * (double)settle / P4D_HOST_RATE,
         P4D_HOST_SONG_F);
  p4d_dest_free(&a);
  p4d_dest_free(&b);
  p4d_dest_free(&c);
  p4d_host_free(h);
}

/// A stopped transport: the Mod output keeps moving, without a click.
static void
test_stop(const char* uri)
{
  static const uint32_t pattern[] = { 64U };

  snprintf(p4d_host_case, sizeof(p4d_host_case), "stop %s", uri);
  P4dHost* const h = p4d_host_new(uri, P4D_HOST_RATE, true);
  p4d_host_set(h, "rate_hz", 2.0f);

  const size_t     roll = P4D_HOST_SECOND / 2U; // Rolling before the stop
  const size_t     n    = roll + P4D_HOST_SECOND / 2U;
  P4dDest          d    = p4d_dest_new(h, n);
  P4dHostTransport tr   = { true, false, false, P4D_HOST_SONG_F, 1.0f, 120.0 };
  p4d_host_activate(h);
  p4d_host_render(h, &d, roll, pattern, 1U, &tr);

  // Stopped: the host sends speed 0 at a constant frame.
  const P4dDest stopped = p4d_dest_view(&d, roll);
  tr.speed              = 0.0f;
  p4d_host_render(h, &stopped, P4D_HOST_SECOND / 2U, pattern, 1U, &tr);

  // Rolling again from where it stopped: after the glide, the output is the
  // song's again, as a run that never stopped gives it.
  const size_t  settle = P4D_HOST_SECOND / 40U;
  P4dDest       again  = p4d_dest_new(h, P4D_HOST_SECOND / 2U);
  const int64_t resume = tr.frame;
  assert(resume == P4D_HOST_SONG_F + (int64_t)roll);
  tr.speed = 1.0f;
  p4d_host_render(h, &again, P4D_HOST_SECOND / 2U, pattern, 1U, &tr);

  const float* const x     = p4d_dest_first(h, &d);
  float              low   = INFINITY;
  float              high  = -INFINITY;
  const size_t       moves = p4d_count_changes(x, roll, n);
  for (size_t i = roll; i < n; ++i) {
    if (!isnan(x[i])) {
      low  = fminf(low, x[i]);
      high = fmaxf(high, x[i]);
    }
  }
  assert(moves >= (h->n_signals ? 1000U : 100U));
  assert(high - low > 0.01f);

  // No click where it stopped: the step there is no larger than the
  // steps around it.
  if (h->n_signals) {
    double around = 0.0;
    for (size_t i = roll - P4D_HOST_SECOND / 4U;
         i < roll + P4D_HOST_SECOND / 4U;
         ++i) {
      if (i != roll) {
        around = fmax(around, fabs((double)x[i] - x[i - 1U]));
      }
    }
    assert(fabs((double)x[roll] - x[roll - 1U]) <= 1.5 * around);
  }

  P4dDest ref = p4d_dest_new(h, n);
  tr.frame    = P4D_HOST_SONG_F;
  p4d_host_activate(h);
  p4d_host_render(h, &ref, n, pattern, 1U, &tr);
  const P4dDest tail = p4d_dest_view(&ref, roll);
  const size_t  compared =
    p4d_dest_compare(h, &tail, &again, settle, P4D_HOST_SECOND / 2U);
  assert(compared > 0U);

  printf("# stop %s: out_1 moves over %.3f in 0.5 s stopped at 2 Hz "
         "(%lu changes); rolling again: %lu values equal the song's from "
         "25 ms on\n",
         p4d_host_name(h),
         (double)(high - low),
         (unsigned long)moves,
         (unsigned long)compared);
  p4d_dest_free(&ref);
  p4d_dest_free(&again);
  p4d_dest_free(&d);
  p4d_host_free(h);
}

int
main(int argc, char** argv)
{
  p4d_host_main(argc, argv);

  for (unsigned p = 0U; p < 3U; ++p) {
    test_relocate(p4d_host_uris[p], false);
  }
  test_relocate(P4D_HOST_URI_MOD_CV, true);
  test_stop(P4D_HOST_URI_MOD);
  test_stop(P4D_HOST_URI_MOD_CV);

  p4d_host_world_close();
  return 0;
}
