// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Mods' MIDI output: control changes only on a change, at least 5 ms
  apart, scaled from out_min..out_max (inverted too), none for cc_n = 128,
  well formed in atom buffers too small for them all, and an empty
  sequence without urid:map.  Then the other MIDI modes: a 14-bit CC
  decoded as a receiver does (MSB clears the LSB) and a pitch bend equal
  to the CV output quantised to 14 bits, beside a 7-bit CC and a 14-bit
  request on CC 40 that falls back to 7 bits.

  Every run checks its outputs and MIDI as tests/support/host.h says.

  Usage: test_lv2_midi BUNDLE_PATH
*/

#undef NDEBUG

#include "engine.h"
#include "params.h"

#include "support/compare.h"
#include "support/dest.h"
#include "support/host.h"

#include <lv2/atom/atom.h>

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/// Shortest time between two CCs of one controller: 5 ms in frames.
#define CC_GAP 240

/// Statistics of the CCs of one channel.
typedef struct {
  size_t  count;   ///< CCs sent
  int64_t min_gap; ///< Shortest time between two, in frames
} CcStats;

/**
   Check the logged CCs of every channel with a distinct CC number against
   the rules (only on a change, at least 5 ms apart) and against the CV
   output at the same frame.
*/
static void
check_cc_log(const P4dHost* h,
             const P4dDest* d,
             CcStats        stats[P4D_HOST_MAX_OUTS])
{
  const double low   = p4d_host_clamped(h, "out_min");
  const double range = p4d_host_clamped(h, "out_max") - low;
  int          cc[P4D_HOST_MAX_OUTS];
  int64_t      last_frame[P4D_HOST_MAX_OUTS];
  int          last_value[P4D_HOST_MAX_OUTS];
  for (unsigned c = 0U; c < P4D_HOST_MAX_OUTS; ++c) {
    const char symbol[] = { 'c', 'c', '_', (char)('1' + c), '\0' };
    cc[c]               = (int)p4d_host_clamped(h, symbol);
    last_frame[c]       = INT64_MIN / 2;
    last_value[c]       = -1;
    stats[c].count      = 0U;
    stats[c].min_gap    = INT64_MAX;
    for (unsigned b = 0U; b < c; ++b) {
      assert(cc[b] == P4D_CC_OFF || cc[b] != cc[c]);
    }
  }

  for (size_t k = 0U; k < h->n_ccs; ++k) {
    const P4dHostCc* const ev = &h->ccs[k];
    unsigned               c  = 0U;
    while (c < P4D_HOST_MAX_OUTS && cc[c] != ev->controller) {
      ++c;
    }
    assert(c < P4D_HOST_MAX_OUTS);

    const int64_t gap = ev->frame - last_frame[c];
    if (ev->value == last_value[c] || gap < CC_GAP) {
      fprintf(stderr,
              "%s: CC %u = %u at frame %ld, the last (%d) at frame %ld\n",
              p4d_host_case,
              ev->controller,
              ev->value,
              (long)ev->frame,
              last_value[c],
              (long)last_frame[c]);
    }
    assert(ev->value != last_value[c]);
    assert(gap >= CC_GAP);
    if (stats[c].count && gap < stats[c].min_gap) {
      stats[c].min_gap = gap;
    }

    // The value is the channel's output at that frame, scaled from
    // out_min..out_max to 0..127 (rounding may differ by one step).
    const double u        = ((double)d->sig[c][ev->frame] - low) / range;
    const double expected = fmin(127.0, fmax(0.0, floor(u * 127.0 + 0.5)));
    assert(fabs((double)ev->value - expected) <= 1.0);

    last_frame[c] = ev->frame;
    last_value[c] = ev->value;
    ++stats[c].count;
  }
}

/// MIDI CC output: well formed, on a change only, 5 ms apart, scaled.
static void
test_midi(void)
{
  static const uint32_t pattern[] = { 4096U, 1U, 7U, 64U, 0U, 1000U, 333U };

  snprintf(
    p4d_host_case, sizeof(p4d_host_case), "midi %s", P4D_HOST_URI_MOD_CV);
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_MOD_CV, P4D_HOST_RATE, true);
  p4d_host_set(h, "cc_1", 20.0f);
  p4d_host_set(h, "cc_2", 21.0f);
  p4d_host_set(h, "midi_channel", 3.0f);
  p4d_host_set(h, "rate_hz", 20.0f);

  const size_t n = 2U * (size_t)P4D_HOST_SECOND;
  P4dDest      d = p4d_dest_new(h, n);
  CcStats      stats[P4D_HOST_MAX_OUTS];
  p4d_host_activate(h);
  const size_t runs = p4d_host_render(h, &d, n, pattern, 7U, NULL);
  check_cc_log(h, &d, stats);
  assert(stats[0].count >= 100U && stats[1].count >= 100U);
  printf("# midi mod-cv: %lu CCs in %lu runs over 2 s at 20 Hz (cc 20: %lu, "
         "cc 21: %lu), min interval %.2f ms\n",
         (unsigned long)h->n_ccs,
         (unsigned long)runs,
         (unsigned long)stats[0].count,
         (unsigned long)stats[1].count,
         1000.0 *
           (double)(stats[0].min_gap < stats[1].min_gap ? stats[0].min_gap
                                                        : stats[1].min_gap) /
           P4D_HOST_RATE);

  // out_min > out_max inverts the scale.
  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "midi %s inverted",
           P4D_HOST_URI_MOD_CV);
  p4d_host_set(h, "out_min", 0.8f);
  p4d_host_set(h, "out_max", -0.6f);
  p4d_host_activate(h);
  p4d_host_render(h, &d, n / 2U, pattern, 7U, NULL);
  check_cc_log(h, &d, stats);
  assert(stats[0].count >= 50U && stats[1].count >= 50U);
  printf("# midi mod-cv inverted: %lu CCs, values 0..127 on the inverted "
         "scale\n",
         (unsigned long)h->n_ccs);

  // cc_n = 128 sends nothing.
  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "midi %s cc off",
           P4D_HOST_URI_MOD_CV);
  p4d_host_set(h, "cc_1", 128.0f);
  p4d_host_set(h, "cc_2", 128.0f);
  p4d_host_activate(h);
  p4d_host_render(h, &d, n / 4U, pattern, 7U, NULL);
  assert(h->n_ccs == 0U);

  // Small buffers that fill up: the sequence stays well formed and the
  // rest is sent later.
  p4d_host_set(h, "cc_1", 1.0f);
  p4d_host_set(h, "cc_2", 2.0f);
  p4d_host_set(h, "cc_3", 3.0f);
  p4d_host_set(h, "cc_4", 4.0f);
  p4d_host_set(h, "rate_hz", 50.0f);
  size_t small = 0U;
  for (uint32_t capacity = 40U; capacity <= 160U; capacity += 4U) {
    h->midi_capacity = capacity;
    snprintf(p4d_host_case,
             sizeof(p4d_host_case),
             "midi %s: 4 CCs into %u bytes",
             P4D_HOST_URI_MOD_CV,
             capacity);
    p4d_host_activate(h);
    p4d_host_render(h, &d, P4D_HOST_SECOND / 10U, pattern, 7U, NULL);
    check_cc_log(h, &d, stats);
    small += h->n_ccs;
  }
  h->midi_capacity = P4D_HOST_SEQ_BYTES - (uint32_t)sizeof(LV2_Atom);
  printf("# midi mod-cv small buffers: %lu CCs into atom buffers of 40..160 "
         "bytes, all well formed\n",
         (unsigned long)small);
  p4d_dest_free(&d);
  p4d_host_free(h);

  // Perlin4D Mod, channel 16, one CC, rolling transport.
  snprintf(p4d_host_case, sizeof(p4d_host_case), "midi %s", P4D_HOST_URI_MOD);
  P4dHost* const m = p4d_host_new(P4D_HOST_URI_MOD, P4D_HOST_RATE, true);
  p4d_host_set(m, "cc_3", 74.0f);
  p4d_host_set(m, "midi_channel", 16.0f);
  p4d_host_set(m, "rate_hz", 5.0f);
  P4dDest          e  = p4d_dest_new(m, P4D_HOST_SECOND);
  P4dHostTransport tr = { true, false, true, P4D_HOST_SONG_F, 1.0f, 120.0 };
  p4d_host_activate(m);
  p4d_host_render(m, &e, P4D_HOST_SECOND, pattern, 7U, &tr);
  assert(m->n_ccs >= 20U);
  for (size_t k = 1U; k < m->n_ccs; ++k) {
    assert(m->ccs[k].frame - m->ccs[k - 1U].frame >= CC_GAP);
    assert(m->ccs[k].value != m->ccs[k - 1U].value);
  }
  printf("# midi mod: %lu CCs on channel 16 over 1 s at 5 Hz\n",
         (unsigned long)m->n_ccs);
  p4d_dest_free(&e);
  p4d_host_free(m);

  // Without urid:map: no MIDI, and midi_out is an empty sequence body.
  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "midi %s without features",
           P4D_HOST_URI_MOD);
  P4dHost* const x = p4d_host_new(P4D_HOST_URI_MOD, P4D_HOST_RATE, false);
  p4d_host_set(x, "cc_1", 20.0f);
  p4d_host_set(x, "rate_hz", 20.0f);
  P4dDest f = p4d_dest_new(x, P4D_HOST_SECOND / 2U);
  p4d_host_activate(x);
  const size_t empty_runs =
    p4d_host_render(x, &f, P4D_HOST_SECOND / 2U, pattern, 7U, NULL);
  assert(x->n_ccs == 0U);
  printf("# midi mod without urid:map: %lu runs, midi_out an empty sequence "
         "each time\n",
         (unsigned long)empty_runs);
  p4d_dest_free(&f);
  p4d_host_free(x);
}

/// What a receiver holds of the 4 sources test_midi_modes sets up.
typedef struct {
  int      held[P4D_HOST_MAX_OUTS];    ///< Value now, -1 before the first
  int64_t  updated[P4D_HOST_MAX_OUTS]; ///< Frame of the last update
  int64_t  min_gap;                    ///< Shortest time between updates
  unsigned updates[P4D_HOST_MAX_OUTS];
  unsigned pairs;    ///< 14-bit updates with an MSB
  unsigned lsb_only; ///< 14-bit updates of the LSB alone
} Receiver;

/// The value x of out_min..out_max quantised to top (127 or 16383).
static int
quantised(double x, double low, double range, int top)
{
  const double s = (x - low) / range * top + 0.5;
  return s < 0.0 ? 0 : s >= top ? top : (int)s;
}

/**
   Decode the log of test_midi_modes: channel 1 14-bit on CC 1 (LSB 33),
   2 7-bit on CC 74, 3 pitch bend, 4 a 14-bit request on CC 40 (7-bit);
   each update equals the CV output at its frame.
*/
static void
decode_modes(const P4dHost* h, const P4dDest* d, Receiver* r)
{
  const double low   = p4d_host_clamped(h, "out_min");
  const double range = p4d_host_clamped(h, "out_max") - low;
  for (unsigned c = 0U; c < P4D_HOST_MAX_OUTS; ++c) {
    r->held[c]    = -1;
    r->updated[c] = INT64_MIN / 2;
    r->updates[c] = 0U;
  }
  r->min_gap  = INT64_MAX;
  r->pairs    = 0U;
  r->lsb_only = 0U;

  for (size_t k = 0U; k < h->n_ccs; ++k) {
    const P4dHostCc* const ev  = &h->ccs[k];
    unsigned               c   = 0U;
    int                    top = 127;
    if (ev->status == 0xE4U) {
      c          = 2U;
      top        = 16383;
      r->held[c] = ev->controller | ev->value << 7;
    } else {
      assert(ev->status == 0xB4U);
      c = ev->controller == 74U ? 1U : ev->controller == 40U ? 3U : 0U;
      if (c) {
        r->held[c] = ev->value;
      } else if (ev->controller == 1U) {
        // An MSB is followed by its LSB at the same frame.
        assert(k + 1U < h->n_ccs && h->ccs[k + 1U].controller == 33U &&
               h->ccs[k + 1U].frame == ev->frame);
        r->held[0] = ev->value << 7;
        ++r->pairs;
        continue;
      } else {
        assert(ev->controller == 33U && r->held[0] >= 0);
        top = 16383;
        r->lsb_only += k == 0U || h->ccs[k - 1U].controller != 1U ||
                       h->ccs[k - 1U].frame != ev->frame;
        r->held[0] = (r->held[0] & ~127) | ev->value;
      }
    }

    const int64_t gap = ev->frame - r->updated[c];
    assert(gap >= CC_GAP);
    if (r->updates[c] && gap < r->min_gap) {
      r->min_gap = gap;
    }
    r->updated[c] = ev->frame;
    ++r->updates[c];

    // The CV output at that frame, quantised as the plugin does (7 bits:
    // in float, so within a step).
    const int expected = quantised(
      d->sig[c][ev->frame], low, range, c == 1U || c == 3U ? 127 : 16383);
    if (top == 16383 ? r->held[c] != expected
                     : abs(r->held[c] - expected) > 1) {
      fprintf(stderr,
              "%s: source %u holds %d at frame %ld, the CV %d\n",
              p4d_host_case,
              c,
              r->held[c],
              (long)ev->frame,
              expected);
    }
    assert(top == 16383 ? r->held[c] == expected
                        : abs(r->held[c] - expected) <= 1);
  }
}

/// 14-bit CC, pitch bend, and 14-bit on CC 40, beside a 7-bit CC.
static void
test_midi_modes(void)
{
  static const uint32_t pattern[] = { 4096U, 1U, 7U, 64U, 0U, 1000U, 333U };

  snprintf(
    p4d_host_case, sizeof(p4d_host_case), "midi %s modes", P4D_HOST_URI_MOD_CV);
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_MOD_CV, P4D_HOST_RATE, true);
  p4d_host_set(h, "midi_channel", 5.0f);
  p4d_host_set(h, "out_min", -1.0f);
  p4d_host_set(h, "rate_hz", 0.5f);
  p4d_host_set(h, "cc_1", 1.0f);
  p4d_host_set(h, "midi_mode_1", (float)P4D_MIDI_CC_14);
  p4d_host_set(h, "cc_2", 74.0f);
  p4d_host_set(h, "midi_mode_3", (float)P4D_MIDI_PITCH_BEND);
  p4d_host_set(h, "cc_4", 40.0f);
  p4d_host_set(h, "midi_mode_4", (float)P4D_MIDI_CC_14);

  const size_t n = 2U * (size_t)P4D_HOST_SECOND;
  P4dDest      d = p4d_dest_new(h, n);
  Receiver     r;
  p4d_host_activate(h);
  const size_t runs = p4d_host_render(h, &d, n, pattern, 7U, NULL);
  decode_modes(h, &d, &r);
  assert(r.pairs >= 10U && r.lsb_only >= 10U && r.updates[2] >= 100U);
  assert(r.updates[1] >= 10U && r.updates[3] >= 10U);
  printf("# midi mod-cv modes: %lu messages in %lu runs over 2 s at 0.5 Hz: "
         "14-bit CC 1/33 %u updates (%u with an MSB, %u LSB alone), pitch "
         "bend %u, 7-bit CC 74 %u, CC 40 (14-bit asked, 7-bit sent) %u; "
         "each equals the CV quantised; min interval %.2f ms\n",
         (unsigned long)h->n_ccs,
         (unsigned long)runs,
         r.updates[0],
         r.pairs,
         r.lsb_only,
         r.updates[2],
         r.updates[1],
         r.updates[3],
         1000.0 * (double)r.min_gap / P4D_HOST_RATE);
  p4d_dest_free(&d);
  p4d_host_free(h);

  // Perlin4D Mod, pitch bend on channel 1, rolling transport.
  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "midi %s pitch bend",
           P4D_HOST_URI_MOD);
  P4dHost* const m = p4d_host_new(P4D_HOST_URI_MOD, P4D_HOST_RATE, true);
  p4d_host_set(m, "midi_mode_2", (float)P4D_MIDI_PITCH_BEND);
  p4d_host_set(m, "rate_hz", 5.0f);
  P4dDest          e  = p4d_dest_new(m, P4D_HOST_SECOND);
  P4dHostTransport tr = { true, false, true, P4D_HOST_SONG_F, 1.0f, 120.0 };
  p4d_host_activate(m);
  p4d_host_render(m, &e, P4D_HOST_SECOND, pattern, 7U, &tr);
  int lo = 16384;
  int hi = -1;
  for (size_t k = 0U; k < m->n_ccs; ++k) {
    const int v = m->ccs[k].controller | m->ccs[k].value << 7;
    assert(m->ccs[k].status == 0xE0U);
    assert(!k || m->ccs[k].frame - m->ccs[k - 1U].frame >= CC_GAP);
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  assert(m->n_ccs >= 100U && hi - lo > 1000);
  printf("# midi mod: %lu pitch bends on channel 1 over 1 s at 5 Hz, "
         "%d..%d\n",
         (unsigned long)m->n_ccs,
         lo,
         hi);
  p4d_dest_free(&e);
  p4d_host_free(m);
}

/// Switching the MIDI modes mid-run changes nothing in the signal (no
/// glide starts): the CV outputs stay bit-identical to a run without.
static void
test_modes_keep_signal(void)
{
  snprintf(p4d_host_case,
           sizeof(p4d_host_case),
           "midi %s modes switched",
           P4D_HOST_URI_MOD_CV);
  P4dHost* const a = p4d_host_new(P4D_HOST_URI_MOD_CV, P4D_HOST_RATE, true);
  P4dHost* const b = p4d_host_new(P4D_HOST_URI_MOD_CV, P4D_HOST_RATE, true);
  P4dHost* const both[2] = { a, b };
  for (unsigned k = 0U; k < 2U; ++k) {
    p4d_host_set(both[k], "rate_hz", 5.0f);
    p4d_host_set(both[k], "cc_1", 1.0f);
    p4d_host_set(both[k], "cc_2", 2.0f);
  }

  const size_t n  = P4D_HOST_SECOND / 2U;
  P4dDest      da = p4d_dest_new(a, n);
  P4dDest      db = p4d_dest_new(b, n);
  p4d_host_activate(a);
  p4d_host_activate(b);
  for (size_t at = 0U; at < n; at += 256U) {
    if (at == (size_t)256U * 20U) {
      p4d_host_set(b, "midi_mode_1", (float)P4D_MIDI_CC_14);
      p4d_host_set(b, "midi_mode_2", (float)P4D_MIDI_PITCH_BEND);
    }
    const uint32_t m = n - at < 256U ? (uint32_t)(n - at) : 256U;
    p4d_host_run(a, &da, at, m);
    p4d_host_run(b, &db, at, m);
  }
  for (unsigned c = 0U; c < P4D_HOST_MAX_OUTS; ++c) {
    p4d_assert_same("CV with the modes switched", da.sig[c], db.sig[c], 0U, n);
  }
  printf("# midi mod-cv: 7-bit CCs switched to 14-bit and pitch bend after "
         "%u frames: CV outputs bit-identical over %lu frames\n",
         256U * 20U,
         (unsigned long)n);
  p4d_dest_free(&da);
  p4d_dest_free(&db);
  p4d_host_free(a);
  p4d_host_free(b);
}

int
main(int argc, char** argv)
{
  p4d_host_main(argc, argv);

  test_midi();
  test_midi_modes();
  test_modes_keep_signal();

  p4d_host_world_close();
  return 0;
}
