// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The plugins fed garbage: NaN, infinities, huge, tiny and out-of-range
  values on every control input, at once and while running, and garbage
  positions from the host transport: outputs stay finite, free of
  denormals and bounded.

  Every run checks its outputs and MIDI as tests/support/host.h says.

  Usage: test_lv2_garbage BUNDLE_PATH
*/

#undef NDEBUG

#include "support/dest.h"
#include "support/host.h"

#include <lv2/atom/atom.h>
#include <lv2/time/time.h>

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// NaN, infinities, huge, tiny and out-of-range values on every control
/// input, and garbage in the host transport: outputs stay finite and bounded.
static void
test_garbage(const char* uri)
{
  static const uint32_t pattern[] = { 0U, 511U, 1U, 64U };
  static const float    bad[]     = { NAN,      INFINITY, -INFINITY, 3.0e38f,
                                      -3.0e38f, 1.0e-40f, -1.0e-40f };

  P4dHost* const h     = p4d_host_new(uri, P4D_HOST_RATE, true);
  const size_t   n     = 576U;
  P4dDest        d     = p4d_dest_new(h, n);
  size_t         cases = 0U;

  for (uint32_t i = 0U; i < h->n_ports; ++i) {
    if (!h->control_in[i]) {
      continue;
    }
    const size_t n_bad = sizeof(bad) / sizeof(bad[0]);
    for (size_t k = 0U; k < n_bad + 2U; ++k) {
      p4d_host_set_defaults(h);
      h->value[i] = k < n_bad    ? bad[k]
                    : k == n_bad ? h->minimum[i] - 1.0f
                                 : h->maximum[i] + 1.0f;
      snprintf(p4d_host_case,
               sizeof(p4d_host_case),
               "garbage %s: %s = %g",
               p4d_host_name(h),
               h->symbol[i],
               (double)h->value[i]);
      P4dHostTransport tr = { true, false, true, P4D_HOST_SONG_F, 1.0f, 120.0 };
      p4d_host_activate(h);
      p4d_host_render(h, &d, n, pattern, 4U, &tr);
      ++cases;
    }
  }

  // Every control at once.
  for (size_t k = 0U; k < sizeof(bad) / sizeof(bad[0]); ++k) {
    for (uint32_t i = 0U; i < h->n_ports; ++i) {
      if (h->control_in[i]) {
        h->value[i] = bad[k];
      }
    }
    snprintf(p4d_host_case,
             sizeof(p4d_host_case),
             "garbage %s: every control = %g",
             p4d_host_name(h),
             (double)bad[k]);
    p4d_host_activate(h);
    p4d_host_render(h, &d, n, pattern, 4U, NULL);
    ++cases;
  }

  // One after another while running, without activate() in between.
  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "garbage %s: changing while running",
           p4d_host_name(h));
  p4d_host_set_defaults(h);
  p4d_host_activate(h);
  for (size_t k = 0U; k < sizeof(bad) / sizeof(bad[0]); ++k) {
    for (uint32_t i = 0U; i < h->n_ports; ++i) {
      if (h->control_in[i]) {
        h->value[i] = bad[(k + i) % (sizeof(bad) / sizeof(bad[0]))];
      }
    }
    p4d_host_render(h, &d, n, pattern, 4U, NULL);
    ++cases;
  }

  // Garbage positions between good ones, in seconds and in beats.
  const P4dHostField bad_positions[][3] = {
    { { LV2_TIME__frame, 'l', P4D_HOST_SONG_F, 0.0 },
      { LV2_TIME__speed, 'f', 0, NAN } },
    { { LV2_TIME__frame, 'l', P4D_HOST_SONG_F, 0.0 },
      { LV2_TIME__speed, 'f', 0, INFINITY } },
    { { LV2_TIME__frame, 'l', P4D_HOST_SONG_F, 0.0 },
      { LV2_TIME__speed, 'f', 0, 1.0e30 } },
    { { LV2_TIME__frame, 'l', P4D_HOST_SONG_F, 0.0 },
      { LV2_TIME__speed, 'f', 0, -1.0 } },
    { { LV2_TIME__frame, 'd', 0, NAN }, { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__frame, 'd', 0, 1.0e300 }, { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__frame, 'f', 0, -1.0e20 }, { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__frame, 'l', INT64_MAX, 0.0 },
      { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__frame, 'l', INT64_MIN, 0.0 },
      { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__frame, 'i', -1000, 0.0 }, { LV2_TIME__speed, 'd', 0, 1.0 } },
    { { LV2_TIME__beatsPerMinute, 'f', 0, 0.0 },
      { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__beatsPerMinute, 'f', 0, -120.0 },
      { LV2_TIME__beat, 'd', 0, 3.0 } },
    { { LV2_TIME__beatsPerMinute, 'f', 0, NAN },
      { LV2_TIME__beat, 'd', 0, 3.0 } },
    { { LV2_TIME__beatsPerMinute, 'f', 0, INFINITY },
      { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__beatsPerMinute, 'f', 0, 1.0e-30 },
      { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__beat, 'd', 0, NAN }, { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__beat, 'd', 0, INFINITY }, { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__beat, 'd', 0, -1.0e300 },
      { LV2_TIME__beatsPerMinute, 'l', 200, 0.0 } },
    { { LV2_TIME__bar, 'l', INT64_MAX / 2, 0.0 },
      { LV2_TIME__barBeat, 'f', 0, INFINITY },
      { LV2_TIME__beatsPerBar, 'f', 0, 0.0 } },
    { { LV2_TIME__bar, 'd', 0, NAN },
      { LV2_TIME__barBeat, 'f', 0, 1.0 },
      { LV2_TIME__beatsPerBar, 'f', 0, 1.0e38 } },
  };
  const size_t n_bad_positions =
    sizeof(bad_positions) / sizeof(bad_positions[0]);
  for (unsigned clock = 0U; clock < (h->noise ? 1U : 2U); ++clock) {
    p4d_host_set_defaults(h);
    p4d_host_set(h, "clock", (float)clock);
    for (size_t k = 0U; k < n_bad_positions; ++k) {
      size_t n_fields = 0U;
      while (n_fields < 3U && bad_positions[k][n_fields].key) {
        ++n_fields;
      }
      snprintf(p4d_host_case,
               sizeof(p4d_host_case),
               "garbage %s: clock %u, position %lu",
               p4d_host_name(h),
               clock,
               (unsigned long)k);
      P4dHostTransport tr = { true, clock == 1U, false, P4D_HOST_SONG_F,
                              1.0f, 120.0 };
      p4d_host_activate(h);
      p4d_host_send_position(h, 0U, &tr, tr.frame);
      p4d_host_run(h, &d, 0U, 256U);
      p4d_host_send_object(
        h, 17U, LV2_TIME__Position, bad_positions[k], n_fields);
      p4d_host_run(h, &d, 0U, 256U);
      tr.frame += 512;
      p4d_host_send_position(h, 0U, &tr, tr.frame);
      p4d_host_run(h, &d, 0U, 256U);
      p4d_host_run(h, &d, 0U, 256U);
      // Something that is not a position, and a non-object event.
      p4d_host_send_object(h, 0U, LV2_ATOM__Object, bad_positions[k], n_fields);
      p4d_host_send_int(h, 3U, 42);
      p4d_host_run(h, &d, 0U, 256U);
      ++cases;
    }
  }

  printf("# garbage %s: %lu cases (NaN, +-Inf, +-3e38, +-1e-40, out of range "
         "on every control; garbage positions), outputs finite and bounded\n",
         p4d_host_name(h),
         (unsigned long)cases);
  p4d_dest_free(&d);
  p4d_host_free(h);
}

int
main(int argc, char** argv)
{
  p4d_host_main(argc, argv);

  for (unsigned p = 0U; p < 3U; ++p) {
    test_garbage(p4d_host_uris[p]);
  }

  p4d_host_world_close();
  return 0;
}
