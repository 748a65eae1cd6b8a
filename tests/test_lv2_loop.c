// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Mod CV hosted through lilv, with the song beats clock and
  loop_beats, under host transport (time:Position at every block, in
  blocks of every size): its CV outputs repeat every loop bit for bit, from
  any song position.

  Usage: test_lv2_loop BUNDLE_PATH
*/

#undef NDEBUG

#include "support/compare.h"
#include "support/dest.h"
#include "support/host.h"

#include <assert.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static void
test_cv_periodic(int64_t song_frame)
{
  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "loop from frame %" PRId64,
           song_frame);
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_MOD_CV, P4D_HOST_RATE, true);
  p4d_host_set(h, "clock", 1.0f);
  p4d_host_set(h, "loop_beats", 3.0f);
  p4d_host_set(h, "period_beats", 0.7f);
  p4d_host_set(h, "lacunarity", 1.7f);
  p4d_host_set(h, "octaves", 5.5f);

  // 3 beats at 120 bpm: 72000 frames a loop.
  const size_t     len = 3U * P4D_HOST_SECOND / 2U;
  const size_t     n   = 3U * len;
  P4dDest          d   = p4d_dest_new(h, n);
  P4dHostTransport tr  = { true, true, false, song_frame, 1.0f, 120.0 };
  p4d_host_activate(h);
  p4d_host_render(h, &d, n, p4d_host_mixed, P4D_HOST_N_MIXED, &tr);

  size_t compared = 0U;
  for (unsigned c = 0U; c < h->n_signals; ++c) {
    for (size_t i = 0U; i + len < n; ++i) {
      assert(p4d_same_bits(d.sig[c][i], d.sig[c][i + len]));
      ++compared;
    }
  }
  printf("# Mod CV, loop 3 beats from song frame %" PRId64 ": %zu CV "
         "samples equal the ones a loop later (blocks of mixed sizes, a "
         "time:Position at each)\n",
         song_frame,
         compared);
  assert(compared > 0U);
  p4d_dest_free(&d);
  p4d_host_free(h);
}

int
main(int argc, char** argv)
{
  p4d_host_main(argc, argv);
  test_cv_periodic(0);
  test_cv_periodic(P4D_HOST_SONG_F);
  p4d_host_world_close();
  return 0;
}
