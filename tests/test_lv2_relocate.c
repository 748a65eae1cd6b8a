// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Locate equals export (issue 11, item 5): Perlin4D Noise, hosted through
  lilv, plays elsewhere in the song and is relocated to song frame F; once
  the 20 ms glide is over, its output is the same bits as a straight run of
  the plugin from frame 0 through F (what an export renders).  The
  high-pass's state is rebuilt from F's own past at the relocation (8
  frames of it per frame of output, while the old position plays on: at
  most 0.4 s / 7 = 57 ms, then the glide), so this holds from the end of
  that warm-up and the glide, not only once its staggered filters have all
  restarted.  Also a relocation into the song's first 0.4 s (the filters'
  window reaches back past frame 0), and a start of playback at F (the
  same warm-up, gliding from the filters at rest to the warmed ones).

  Usage: test_lv2_relocate BUNDLE_PATH
*/

#undef NDEBUG

#include "support/dest.h"
#include "support/host.h"
#include "support/stats.h"

#include <assert.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// The Noise's glide: 20 ms.
#define GLIDE (P4D_HOST_SECOND / 50U)

/// The longest warm-up (0.4 s of the past at 8 frames per frame: 57.2 ms)
/// and the glide: 77.2 ms, rounded up.
#define SETTLE (P4D_HOST_SECOND * 78U / 1000U)

static void
relocate_case(bool lively, int64_t song_f, int64_t song_g)
{
  static const uint32_t straight_blocks[] = { 512U };
  static const uint32_t other_blocks[]    = { 333U, 1024U, 7U, 64U };

  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "relocate Noise%s to %" PRId64 " from %" PRId64,
           lively ? " (lively)" : "",
           song_f,
           song_g);
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_NOISE, P4D_HOST_RATE, true);
  if (lively) {
    p4d_host_set_lively(h);
  }

  // The straight run: rolling from frame 0 through F and on.
  const size_t     n        = P4D_HOST_SECOND / 2U;
  const size_t     total    = (size_t)song_f + n;
  P4dDest          straight = p4d_dest_new(h, total);
  P4dHostTransport tr       = { true, false, false, 0, 1.0f, 120.0 };
  p4d_host_activate(h);
  p4d_host_render(h, &straight, total, straight_blocks, 1U, &tr);
  const P4dDest at_f = p4d_dest_view(&straight, (size_t)song_f);

  // Elsewhere for a quarter of a second, then a jump to F.
  P4dDest elsewhere = p4d_dest_new(h, P4D_HOST_SECOND / 4U);
  P4dDest located   = p4d_dest_new(h, n);
  tr.frame          = song_g;
  p4d_host_activate(h);
  p4d_host_render(h, &elsewhere, P4D_HOST_SECOND / 4U, other_blocks, 4U, &tr);
  tr.frame = song_f;
  p4d_host_render(h, &located, n, other_blocks, 4U, &tr);

  // Different during the warm-up and the glide, the same bits from then on.
  const float* a            = p4d_dest_first(h, &at_f);
  const float* b            = p4d_dest_first(h, &located);
  size_t       differ_until = GLIDE;
  while (differ_until > 0U && a[differ_until - 1U] == b[differ_until - 1U]) {
    --differ_until;
  }
  assert(differ_until > GLIDE / 2U);
  const size_t compared = p4d_dest_compare(h, &at_f, &located, SETTLE, n);
  assert(compared > 0U);

  // Starting playback at F: the same bits once warmed up.
  P4dDest started = p4d_dest_new(h, n);
  tr.frame        = song_f;
  p4d_host_activate(h);
  p4d_host_render(h, &started, n, other_blocks, 4U, &tr);
  const size_t from_start = p4d_dest_compare(h, &at_f, &started, SETTLE, n);

  printf("# relocate Noise%s from song frame %" PRId64 " to %" PRId64
         ": %lu values identical to the straight run from the end of the "
         "warm-up and the glide (%u frames) on; started at %" PRId64
         ": %lu identical from then on\n",
         lively ? " (lively)" : "",
         song_g,
         song_f,
         (unsigned long)compared,
         SETTLE,
         song_f,
         (unsigned long)from_start);

  p4d_dest_free(&straight);
  p4d_dest_free(&elsewhere);
  p4d_dest_free(&located);
  p4d_dest_free(&started);
  p4d_host_free(h);
}

int
main(int argc, char** argv)
{
  p4d_host_main(argc, argv);

  // 3.5 s in: every staggered filter restarted long before.
  const int64_t f = (int64_t)P4D_HOST_SECOND * 7 / 2 + 123;
  const int64_t g = (int64_t)P4D_HOST_SECOND * 10 + 7;
  relocate_case(false, f, g);
  relocate_case(true, f, g);
  // Back into the first 0.4 s, from later in the song.
  relocate_case(false, 5000, g);

  p4d_host_world_close();
  return 0;
}
