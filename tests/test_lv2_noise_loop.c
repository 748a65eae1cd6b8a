// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Noise hosted through lilv with loop_beats (issue 23 item 3),
  under host transport (a time:Position at every block, blocks of mixed
  sizes): after the first loop (which holds the high-pass's warm-up from
  song frame 0 or from where playing starts) every loop is the one before
  it bit for bit, with evolve, gusts, grit and events on, at loops of 1
  beat at 200 bpm (shorter than the high-pass's 0.4 s cycle), 2 and 3
  beats at 120 bpm.  Without the loop the output does not repeat.

  Usage: test_lv2_noise_loop BUNDLE_PATH
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

/// One case: the loop, the tempo, the texture, where playing starts.
typedef struct {
  float   loop_beats;
  double  bpm;
  float   evolve_hz;
  float   gust_db;
  float   grit;
  float   events;
  int64_t song_frame;
} LoopCase;

static const LoopCase cases[] = {
  { 2.0f, 120.0, 0.5f, 12.0f, 0.5f, 1.0f, 0 },
  { 3.0f, 120.0, 3.0f, 9.0f, 0.0f, 2.0f, P4D_HOST_SONG_F },
  { 1.0f, 200.0, 0.5f, 6.0f, 0.7f, 3.0f, P4D_HOST_SONG_G },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/// Frames of the Noise's output one loop apart that are equal, after the
/// first loop, and the frames compared.
static size_t
loop_equal(const LoopCase* lc, float loop_beats, size_t* compared)
{
  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "noise loop %g beats at %g bpm",
           (double)loop_beats,
           lc->bpm);
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_NOISE, P4D_HOST_RATE, true);
  p4d_host_set(h, "loop_beats", loop_beats);
  p4d_host_set(h, "evolve_hz", lc->evolve_hz);
  p4d_host_set(h, "gust_db", lc->gust_db);
  p4d_host_set(h, "grit", lc->grit);
  p4d_host_set(h, "events", lc->events);
  p4d_host_set(h, "width", 0.5f);

  const size_t len =
    (size_t)((double)lc->loop_beats * 60.0 / lc->bpm * P4D_HOST_RATE + 0.5);
  const size_t     n  = 3U * len;
  P4dDest          d  = p4d_dest_new(h, n);
  P4dHostTransport tr = { true, true, false, lc->song_frame, 1.0f, lc->bpm };
  p4d_host_activate(h);
  p4d_host_render(h, &d, n, p4d_host_mixed, P4D_HOST_N_MIXED, &tr);

  size_t equal = 0U;
  *compared    = 0U;
  for (unsigned c = 0U; c < h->n_signals; ++c) {
    for (size_t i = len; i + len < n; ++i) {
      equal += p4d_same_bits(d.sig[c][i], d.sig[c][i + len]) ? 1U : 0U;
      ++*compared;
    }
  }
  p4d_dest_free(&d);
  p4d_host_free(h);
  return equal;
}

/**
   A host that loops: it plays 2 loops from a loop's start, then relocates
   to the start of the second loop at every turn.  Every turn after the
   first relocation equals the second loop of the straight run bit for bit:
   the relocation's warm-up and glide mix two equal signals (the glide sees
   the voices as neighbours because it places evolve's ping-pong as
   voice_octaves() does; without that 957 frames of each turn differed).
   Returns the samples that differ.
*/
static size_t
host_loop_differ(double bpm, float loop_beats, size_t* compared)
{
  snprintf(p4d_host_case, sizeof(p4d_host_case), "host loop at %g bpm", bpm);
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_NOISE, P4D_HOST_RATE, true);
  p4d_host_set(h, "loop_beats", loop_beats);
  p4d_host_set(h, "gust_db", 9.0f);
  p4d_host_set(h, "events", 1.0f);
  const size_t len =
    (size_t)((double)loop_beats * 60.0 / bpm * P4D_HOST_RATE + 0.5);
  const int64_t    start = (int64_t)(8U * len);
  P4dDest          d     = p4d_dest_new(h, 2U * len);
  P4dHostTransport tr    = { true, true, false, start, 1.0f, bpm };
  p4d_host_activate(h);
  p4d_host_render(h, &d, 2U * len, p4d_host_mixed, P4D_HOST_N_MIXED, &tr);

  size_t differ = 0U;
  *compared     = 0U;
  for (unsigned turn = 0U; turn < 3U; ++turn) {
    P4dDest t = p4d_dest_new(h, len);
    tr.frame  = start + (int64_t)len;
    p4d_host_render(h, &t, len, p4d_host_mixed, P4D_HOST_N_MIXED, &tr);
    for (unsigned c = 0U; c < h->n_signals; ++c) {
      for (size_t i = 0U; i < len; ++i) {
        differ += p4d_same_bits(t.sig[c][i], d.sig[c][len + i]) ? 0U : 1U;
        ++*compared;
      }
    }
    p4d_dest_free(&t);
  }
  p4d_dest_free(&d);
  p4d_host_free(h);
  return differ;
}

int
main(int argc, char** argv)
{
  p4d_host_main(argc, argv);
  printf("# loop  bpm  evolve  gust_db  grit  events  from     equal/compared  "
         "(off: equal)\n");
  for (size_t i = 0U; i < N_CASES; ++i) {
    const LoopCase* const lc       = &cases[i];
    size_t                compared = 0U;
    size_t                off_n    = 0U;
    const size_t          equal    = loop_equal(lc, lc->loop_beats, &compared);
    const size_t          off      = loop_equal(lc, 0.0f, &off_n);
    printf("  %4g  %3g  %6g  %7g  %4g  %6g  %7" PRId64 "  %zu/%zu  (%zu)\n",
           (double)lc->loop_beats,
           lc->bpm,
           (double)lc->evolve_hz,
           (double)lc->gust_db,
           (double)lc->grit,
           (double)lc->events,
           lc->song_frame,
           equal,
           compared,
           off);
    assert(compared > 0U && equal == compared);
    // Without the loop the same frames differ (the test can fail).
    assert(off < off_n / 100U);
  }
  static const double host_bpm[] = { 120.0, 200.0 };
  for (unsigned i = 0U; i < 2U; ++i) {
    size_t       compared = 0U;
    const size_t differ   = host_loop_differ(host_bpm[i], 2.0f, &compared);
    printf("# a host looping 2 beats at %g bpm (relocating every turn): %zu "
           "of %zu samples differ from the straight run's\n",
           host_bpm[i],
           differ,
           compared);
    assert(compared > 0U && differ == 0U);
  }
  p4d_host_world_close();
  return 0;
}
