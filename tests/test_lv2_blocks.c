// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Mod, Mod CV and Noise hosted through lilv, block by block: the
  output is the engine's bit for bit, with urid:map and with no features;
  blocks of 0 to 4096 frames, with and without host transport, give the
  bytes of one run; aliased and unconnected buffers, and a control that
  changes every run.

  Every run checks its outputs and MIDI as tests/support/host.h says.

  Usage: test_lv2_blocks BUNDLE_PATH
*/

#undef NDEBUG

#include "engine.h"
#include "params.h"

#include "support/compare.h"
#include "support/dest.h"
#include "support/host.h"
#include "support/stats.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The plugin's output is the engine's, bit for bit, with no transport;
/// without urid:map, positions in the control input are ignored.
static void
test_engine_equal(const char* uri, bool with_map)
{
  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "engine %s%s",
           uri,
           with_map ? " with urid:map" : " without features");
  const size_t   n = P4D_HOST_SECOND / 2U;
  P4dHost* const h = p4d_host_new(uri, P4D_HOST_RATE, with_map);
  p4d_host_set_lively(h);

  P4dDest          d  = p4d_dest_new(h, n);
  P4dHostTransport tr = {
    !with_map, false, true, P4D_HOST_SONG_F, 1.0f, 120.0
  };
  p4d_host_activate(h);
  p4d_host_render(h, &d, n, p4d_host_mixed, P4D_HOST_N_MIXED, &tr);

  const P4dKind        kind  = h->noise ? P4D_KIND_NOISE : P4D_KIND_MOD;
  const P4dParamTable* table = p4d_params(kind);
  float                params[P4D_MAX_PARAMS];
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    params[i] = h->value[p4d_host_port(h, table->params[i].symbol)];
  }

  P4dEngine* engine = NULL;
  assert(!p4d_engine_new(kind, P4D_HOST_RATE, &engine));
  float*   out[P4D_MAX_CHANNELS];
  unsigned n_channels = p4d_engine_channels(kind);
  for (unsigned c = 0U; c < n_channels; ++c) {
    out[c] = p4d_floats_new(n, 0.0f);
  }
  p4d_engine_process(engine, params, out, (uint32_t)n);

  size_t compared = 0U;
  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    compared += p4d_assert_same(p4d_host_case, out[c], d.sig[c], 0U, n);
  }
  for (uint32_t c = 0U; c < h->n_outs; ++c) {
    compared +=
      p4d_assert_same_where_set(p4d_host_case, out[c], d.ctl[c], 0U, n);
  }
  assert(p4d_count_changes(p4d_dest_first(h, &d), 0U, n) > 10U);

  printf("# engine %s %s: %lu values bit-identical to p4d_engine_process\n",
         p4d_host_name(h),
         with_map ? "with urid:map" : "without features",
         (unsigned long)compared);
  for (unsigned c = 0U; c < n_channels; ++c) {
    free(out[c]);
  }
  p4d_engine_free(engine);
  p4d_dest_free(&d);
  p4d_host_free(h);
}

/// Block sizes 0, every size 1..64 and 4096, with and without transport.
static void
test_block_sizes(const char* uri)
{
  snprintf(p4d_host_case, sizeof(p4d_host_case), "blocks %s", uri);
  uint32_t pattern[80];
  size_t   n_pattern = 0U;
  size_t   n         = 0U;
  for (uint32_t m = 1U; m <= 64U; ++m) {
    if (m % 8U == 1U) {
      pattern[n_pattern++] = 0U;
    }
    pattern[n_pattern++] = m;
    n += m;
  }
  pattern[n_pattern++] = 4096U;
  pattern[n_pattern++] = 0U;
  n += 4096U;

  P4dHost* const h    = p4d_host_new(uri, P4D_HOST_RATE, true);
  P4dDest        d    = p4d_dest_new(h, n);
  size_t         runs = 0U;

  // Clock 0 with no transport, then rolling in seconds and in beats (both
  // forms of position), then free running.
  for (unsigned pass = 0U; pass < 4U; ++pass) {
    p4d_host_set_defaults(h);
    if (pass == 2U && !h->noise) {
      p4d_host_set(h, "clock", 1.0f);
    } else if (pass == 3U) {
      p4d_host_set(h, "clock", h->noise ? 1.0f : 2.0f);
    }

    P4dHostTransport tr = { pass > 0U,       pass == 2U, true,
                            P4D_HOST_SONG_F, 1.0f,       120.0 };
    p4d_host_activate(h);
    runs += p4d_host_render(h, &d, n, pattern, n_pattern, &tr);
    assert(p4d_count_changes(p4d_dest_first(h, &d), 0U, n) > 10U);
  }

  // Loud, peaky noise (one octave just below the band limit's fade): still
  // never above the level.
  if (h->noise) {
    p4d_host_set_defaults(h);
    p4d_host_set(h, "level_db", 0.0f);
    p4d_host_set(h, "octaves", 1.0f);
    p4d_host_set(h, "width", 0.0f);
    p4d_host_set(h, "grain_hz", 9000.0f);
    p4d_host_activate(h);
    for (unsigned k = 0U; k < 4U; ++k) {
      runs += p4d_host_render(h, &d, n, pattern, n_pattern, NULL);
    }
    printf("# blocks noise: peak %.2f dB re level_db 0 over %zu frames\n",
           h->peak_db,
           4U * n);
    assert(h->peak_db > -12.0 && h->peak_db <= 1.0e-4);

    // The deepest, fastest gusts and the sparsest grit: the ceiling rises
    // by at most 12 dB.
    p4d_host_set(h, "gust_db", 24.0f);
    p4d_host_set(h, "gust_hz", 5.0f);
    p4d_host_set(h, "grit", 1.0f);
    h->peak_db = -INFINITY;
    p4d_host_activate(h);
    for (unsigned k = 0U; k < 40U; ++k) {
      runs += p4d_host_render(h, &d, n, pattern, n_pattern, NULL);
    }
    printf("# blocks noise, gust 24 dB at 5 Hz, grit 1: peak %.2f dB re "
           "level_db 0 over %zu frames\n",
           h->peak_db,
           40U * n);
    assert(h->peak_db > 0.0 && h->peak_db <= 12.0 + 1.0e-4);
  }

  printf("# blocks %s: %lu runs of 0, 1..64 and 4096 frames, 4 clock/"
         "transport passes, outputs finite and bounded\n",
         p4d_host_name(h),
         (unsigned long)runs);
  p4d_dest_free(&d);
  p4d_host_free(h);
}

/// Blocks of 1, 7, 64, 4096 and a mix give the bytes of one run.
static void
test_block_invariance(const char* uri, bool transport, bool beats)
{
  static const uint32_t one[]   = { 1U };
  static const uint32_t seven[] = { 7U };
  static const uint32_t sixty[] = { 64U };
  static const uint32_t large[] = { 4096U };

  static const struct {
    const uint32_t* sizes;
    size_t          n;
  } patterns[] = { { one, 1U },
                   { seven, 1U },
                   { sixty, 1U },
                   { large, 1U },
                   { p4d_host_mixed, P4D_HOST_N_MIXED } };

  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "invariance %s%s%s",
           uri,
           transport ? " rolling" : "",
           beats ? " beats" : "");

  const size_t   n       = 3U * 4096U + 1000U;
  const uint32_t whole[] = { (uint32_t)n };
  P4dHost* const h       = p4d_host_new(uri, P4D_HOST_RATE, true);
  p4d_host_set_lively(h);
  if (beats) {
    p4d_host_set(h, "clock", 1.0f);
  }

  P4dDest          ref = p4d_dest_new(h, n);
  P4dHostTransport tr  = {
     transport, beats, false, P4D_HOST_SONG_F, 1.0f, 140.0
  };
  p4d_host_activate(h);
  p4d_host_render(h, &ref, n, whole, 1U, &tr);

  // The first pattern (blocks of 1) records the control outputs at every
  // frame: the reference for every other pattern's block ends.
  P4dDest per_frame = p4d_dest_new(h, n);
  size_t  compared  = 0U;
  for (size_t p = 0U; p < sizeof(patterns) / sizeof(patterns[0]); ++p) {
    P4dDest d = p4d_dest_new(h, n);
    tr.frame  = P4D_HOST_SONG_F;
    p4d_host_activate(h);
    p4d_host_render(h, &d, n, patterns[p].sizes, patterns[p].n, &tr);
    for (uint32_t c = 0U; c < h->n_signals; ++c) {
      compared += p4d_assert_same(p4d_host_case, ref.sig[c], d.sig[c], 0U, n);
    }
    for (uint32_t c = 0U; c < h->n_outs; ++c) {
      if (p == 0U) {
        memcpy(per_frame.ctl[c], d.ctl[c], n * sizeof(float));
        compared +=
          p4d_assert_same_where_set(p4d_host_case, ref.ctl[c], d.ctl[c], 0U, n);
      } else {
        compared += p4d_assert_same_where_set(
          p4d_host_case, per_frame.ctl[c], d.ctl[c], 0U, n);
      }
    }
    p4d_dest_free(&d);
  }

  printf("# invariance %s%s: blocks of 1, 7, 64, 4096 and mixed vs one run "
         "of %lu frames: %lu values identical\n",
         p4d_host_name(h),
         transport ? (beats ? " (rolling, beats)" : " (rolling)") : "",
         (unsigned long)n,
         (unsigned long)compared);
  p4d_dest_free(&per_frame);
  p4d_dest_free(&ref);
  p4d_host_free(h);
}

/// Aliased and unconnected buffers, and a control that changes every run.
static void
test_buffers(const char* uri)
{
  snprintf(p4d_host_case, sizeof(p4d_host_case), "buffers %s", uri);
  const size_t   n = P4D_HOST_SECOND / 4U;
  P4dHost* const h = p4d_host_new(uri, P4D_HOST_RATE, true);
  p4d_host_set_lively(h);

  P4dDest ref = p4d_dest_new(h, n);
  p4d_host_activate(h);
  p4d_host_render(h, &ref, n, p4d_host_mixed, P4D_HOST_N_MIXED, NULL);

  // Every signal output into one buffer, every control output into one
  // float: each value is one of the channels' values.
  float* const shared     = p4d_floats_new(n, NAN);
  float        shared_out = 0.0f;
  P4dDest      one;
  memset(&one, 0, sizeof(one));
  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    one.sig[c] = shared;
  }
  one.ctl[0]   = p4d_floats_new(n, NAN);
  h->out_alias = &shared_out;
  p4d_host_activate(h);
  p4d_host_render(h, &one, n, p4d_host_mixed, P4D_HOST_N_MIXED, NULL);
  h->out_alias = NULL;

  size_t aliased = 0U;
  for (size_t i = 0U; i < n; ++i) {
    if (h->n_signals) {
      bool found = false;
      for (uint32_t c = 0U; c < h->n_signals; ++c) {
        found = found || p4d_same_bits(shared[i], ref.sig[c][i]);
      }
      assert(found);
      ++aliased;
    }
    if (h->n_outs && !isnan(one.ctl[0][i])) {
      bool found = false;
      for (uint32_t c = 0U; c < h->n_outs; ++c) {
        found = found || p4d_same_bits(one.ctl[0][i], ref.ctl[c][i]);
      }
      assert(found);
      ++aliased;
    }
  }
  free(one.ctl[0]);

  // Optional outputs left unconnected (CV outputs and midi_out NULL): the
  // rest works as before.
  size_t unconnected = 0U;
  if (!h->noise) {
    P4dDest none;
    memset(&none, 0, sizeof(none));
    for (uint32_t c = 0U; c < h->n_outs; ++c) {
      none.ctl[c] = p4d_floats_new(n, NAN);
    }
    p4d_host_connect_midi(h, false);
    p4d_host_activate(h);
    p4d_host_render(h, &none, n, p4d_host_mixed, P4D_HOST_N_MIXED, NULL);
    for (uint32_t c = 0U; c < h->n_outs; ++c) {
      unconnected += p4d_assert_same_where_set(
        p4d_host_case, ref.ctl[c], none.ctl[c], 0U, n);
    }

    if (h->n_signals) {
      // Only cv_2 connected.
      none.sig[1] = p4d_floats_new(n, NAN);
      p4d_host_activate(h);
      p4d_host_render(h, &none, n, p4d_host_mixed, P4D_HOST_N_MIXED, NULL);
      unconnected +=
        p4d_assert_same(p4d_host_case, ref.sig[1], none.sig[1], 0U, n);
    }
    p4d_dest_free(&none);
    p4d_host_connect_midi(h, true);
  }

  // A control input that changes between runs: the output follows it and
  // stays within the union of the ranges it had.
  static const float rates[]  = { 0.5f, 30.0f, 0.001f, 50.0f, 3.0f };
  static const float levels[] = { -12.0f, -3.0f, -60.0f, 0.0f, -40.0f };
  static const float lows[]   = { 0.0f, -1.0f, 0.5f, 0.9f, -0.2f };
  P4dDest            d        = p4d_dest_new(h, n);
  const uint32_t     block    = 256U;
  p4d_host_activate(h);
  size_t runs = 0U;
  for (size_t done = 0U; done < n; done += block, ++runs) {
    const size_t k = runs % 5U;
    if (h->noise) {
      p4d_host_set(h, "level_db", levels[k]);
      p4d_host_set(h, "grain_hz", 100.0f + 400.0f * (float)k);
    } else {
      p4d_host_set(h, "rate_hz", rates[k]);
      p4d_host_set(h, "out_min", lows[k]);
    }
    p4d_host_run(h, &d, done, (uint32_t)(n - done < block ? n - done : block));
  }
  assert(p4d_count_changes(p4d_dest_first(h, &d), 0U, n) > 10U);

  // After the glides, only the last setting's range is left (the Noise's
  // grain changes warm their high-pass up first: at most 57 ms, then a 20 ms
  // glide to the last grain and one to the last level).
  if (h->noise) {
    p4d_host_set(h, "level_db", -40.0f);
  } else {
    p4d_host_set(h, "out_min", 0.25f);
    p4d_host_set(h, "out_max", 0.75f);
  }
  P4dDest after = p4d_dest_new(h, n);
  p4d_host_render(h, &after, n, p4d_host_mixed, P4D_HOST_N_MIXED, NULL);
  for (uint32_t c = 0U; c < P4D_HOST_MAX_OUTS; ++c) {
    for (size_t i = P4D_HOST_SECOND / 8U; i < n; ++i) {
      if (after.sig[c]) {
        const float x = after.sig[c][i];
        assert(h->noise ? fabsf(x) <= 0.01122019f : x >= 0.25f && x <= 0.75f);
      }
      if (after.ctl[c] && !isnan(after.ctl[c][i])) {
        assert(after.ctl[c][i] >= 0.25f && after.ctl[c][i] <= 0.75f);
      }
    }
  }
  p4d_dest_free(&after);

  printf("# buffers %s: %lu aliased values, %lu values with optional ports "
         "unconnected, %lu runs with a changing control\n",
         p4d_host_name(h),
         (unsigned long)aliased,
         (unsigned long)unconnected,
         (unsigned long)runs);
  free(shared);
  p4d_dest_free(&d);
  p4d_dest_free(&ref);
  p4d_host_free(h);
}

int
main(int argc, char** argv)
{
  p4d_host_main(argc, argv);

  for (unsigned p = 0U; p < 3U; ++p) {
    test_engine_equal(p4d_host_uris[p], false);
    test_engine_equal(p4d_host_uris[p], true);
    test_block_sizes(p4d_host_uris[p]);
    test_block_invariance(p4d_host_uris[p], false, false);
    test_block_invariance(p4d_host_uris[p], true, false);
    test_buffers(p4d_host_uris[p]);
  }
  test_block_invariance(P4D_HOST_URI_MOD_CV, true, true);

  p4d_host_world_close();
  return 0;
}
