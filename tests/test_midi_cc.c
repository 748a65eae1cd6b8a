// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The MIDI generator without an LV2 host: quantising to 7 bits over
  [out_min, out_max], repeat suppression, the 5 ms limit, time order across
  channels, CC numbers and channel, and a sink that runs out of room; then
  the 14-bit CC and pitch bend modes, byte by byte: MSB then LSB, the
  LSB alone, the fallback above CC 31, pitch bend's centre and ends, and
  a sink that fills up between an MSB and its LSB.
*/

#undef NDEBUG

#include "midi_cc.h"
#include "params.h"

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define RATE_HZ 48000.0
#define MAX_EVENTS 4096U

typedef struct {
  uint32_t offset;
  uint8_t  msg[3];
} Event;

/// A sink that records events and takes at most room of them.
typedef struct {
  Event    events[MAX_EVENTS];
  unsigned n;
  unsigned room;
} Sink;

static bool
record(void* handle, uint32_t offset, const uint8_t* msg, uint32_t size)
{
  Sink* const s = (Sink*)handle;
  assert(size == 3U);
  if (s->n == s->room) {
    return false;
  }

  s->events[s->n].offset = offset;
  memcpy(s->events[s->n].msg, msg, 3U);
  ++s->n;
  return true;
}

static void
defaults(float* params)
{
  p4d_param_defaults(p4d_params(P4D_KIND_MOD), params);
}

/// Send n frames where every channel holds values[c] (constant).
static void
send_constant(P4dMidiCc*   cc,
              const float* params,
              const float  values[4],
              int64_t      frame,
              uint32_t     n,
              Sink*        sink)
{
  static float buf[4][1024];
  assert(n <= 1024U);
  for (unsigned c = 0U; c < 4U; ++c) {
    for (uint32_t i = 0U; i < n; ++i) {
      buf[c][i] = values[c];
    }
  }
  const float* const ch[4] = { buf[0], buf[1], buf[2], buf[3] };
  p4d_midi_cc_send(cc, params, ch, frame, 0U, n, record, sink);
}

static void
test_quantise(void)
{
  float params[P4D_MAX_PARAMS];
  defaults(params);
  params[P4D_MOD_CC_1]         = 74.0f;
  params[P4D_MOD_MIDI_CHANNEL] = 3.0f;

  // out_min 0, out_max 1: u * 127 rounded, clamped at both ends.
  static const float inputs[]   = { 0.0f, 1.0f, 0.5f, -0.2f, 1.3f, 0.1f };
  static const int   expected[] = { 0, 127, 64, 0, 127, 13 };
  for (unsigned i = 0U; i < sizeof(inputs) / sizeof(inputs[0]); ++i) {
    P4dMidiCc cc;
    Sink      sink = { { { 0U, { 0U } } }, 0U, MAX_EVENTS };
    p4d_midi_cc_reset(&cc, RATE_HZ);
    const float values[4] = { inputs[i], 0.0f, 0.0f, 0.0f };
    send_constant(&cc, params, values, 0, 1U, &sink);
    assert(sink.n == 1U);
    assert(sink.events[0].msg[0] == 0xB2U); // Controller, channel 3
    assert(sink.events[0].msg[1] == 74U);
    assert(sink.events[0].msg[2] == expected[i]);
  }

  // An inverted range maps out_min to 0 and out_max to 127.
  params[P4D_MOD_OUT_MIN] = 1.0f;
  params[P4D_MOD_OUT_MAX] = -1.0f;
  P4dMidiCc cc;
  Sink      sink = { { { 0U, { 0U } } }, 0U, MAX_EVENTS };
  p4d_midi_cc_reset(&cc, RATE_HZ);
  const float values[4] = { -1.0f, 0.0f, 0.0f, 0.0f };
  send_constant(&cc, params, values, 0, 1U, &sink);
  assert(sink.n == 1U && sink.events[0].msg[2] == 127U);

  // An empty range sends 0 rather than dividing by zero.
  params[P4D_MOD_OUT_MIN] = 0.25f;
  params[P4D_MOD_OUT_MAX] = 0.25f;
  sink.n                  = 0U;
  p4d_midi_cc_reset(&cc, RATE_HZ);
  send_constant(&cc, params, values, 0, 1U, &sink);
  assert(sink.n == 1U && sink.events[0].msg[2] == 0U);
  printf("# quantise: 7 bits over [out_min, out_max], ends clamped, "
         "inverted and empty ranges\n");
}

static void
test_repeats_and_interval(void)
{
  float params[P4D_MAX_PARAMS];
  defaults(params);
  params[P4D_MOD_CC_1] = 1.0f;

  // A ramp from 0 to 1 over 4800 frames (100 ms): one CC at frame 0, then
  // one at most every 240 frames (5 ms at 48 kHz), each a new value.
  static float ramp[4800];
  for (unsigned i = 0U; i < 4800U; ++i) {
    ramp[i] = (float)i / 4799.0f;
  }
  const float* const ch[4] = { ramp, ramp, ramp, ramp };

  P4dMidiCc cc;
  Sink      sink = { { { 0U, { 0U } } }, 0U, MAX_EVENTS };
  p4d_midi_cc_reset(&cc, RATE_HZ);
  // In chunks of 256, as the plugin sends them.
  for (uint32_t at = 0U; at < 4800U; at += 256U) {
    const uint32_t     n      = 4800U - at < 256U ? 4800U - at : 256U;
    const float* const at4[4] = {
      ch[0] + at, ch[1] + at, ch[2] + at, ch[3] + at
    };
    p4d_midi_cc_send(&cc, params, at4, 1000 + at, at, n, record, &sink);
  }

  assert(sink.n == 20U);
  for (unsigned i = 0U; i < sink.n; ++i) {
    assert(sink.events[i].offset == 240U * i);
    assert(sink.events[i].msg[1] == 1U);
    if (i) {
      assert(sink.events[i].msg[2] > sink.events[i - 1U].msg[2]);
    }
  }

  // A value that holds sends nothing more.
  const unsigned before    = sink.n;
  const float    values[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
  send_constant(&cc, params, values, 10000, 1024U, &sink);
  send_constant(&cc, params, values, 11024, 1024U, &sink);
  assert(sink.n == before + 1U);
  printf("# repeats: a ramp over 100 ms sends 20 CCs 5 ms apart, a held "
         "value one\n");
}

static void
test_time_order(void)
{
  float params[P4D_MAX_PARAMS];
  defaults(params);
  params[P4D_MOD_CC_1] = 20.0f;
  params[P4D_MOD_CC_2] = 21.0f;
  params[P4D_MOD_CC_3] = P4D_CC_OFF;
  params[P4D_MOD_CC_4] = 23.0f;

  // Channel c changes at frame 10 * (4 - c): events must come in time order.
  static float buf[4][64];
  for (unsigned c = 0U; c < 4U; ++c) {
    for (unsigned i = 0U; i < 64U; ++i) {
      buf[c][i] = i < 10U * (4U - c) ? 0.0f : 1.0f;
    }
  }
  const float* const ch[4] = { buf[0], buf[1], buf[2], buf[3] };

  P4dMidiCc cc;
  Sink      sink = { { { 0U, { 0U } } }, 0U, MAX_EVENTS };
  p4d_midi_cc_reset(&cc, 1000.0); // 5 frames between two CCs of a channel
  p4d_midi_cc_send(&cc, params, ch, 0, 0U, 64U, record, &sink);

  // Frame 0: CCs 20, 21, 23 at 0; then 23 at 10, 21 at 30, 20 at 40.
  static const uint32_t offsets[] = { 0U, 0U, 0U, 10U, 30U, 40U };
  static const uint8_t  numbers[] = { 20U, 21U, 23U, 23U, 21U, 20U };
  assert(sink.n == 6U);
  for (unsigned i = 0U; i < sink.n; ++i) {
    assert(sink.events[i].offset == offsets[i]);
    assert(sink.events[i].msg[1] == numbers[i]);
    assert(sink.events[i].msg[0] == 0xB0U);
  }
  printf("# time order: events of all channels sorted by frame; CC off "
         "sends nothing\n");
}

static void
test_full_sink(void)
{
  float params[P4D_MAX_PARAMS];
  defaults(params);
  for (unsigned c = 0U; c < 4U; ++c) {
    params[P4D_MOD_CC_1 + c] = (float)(10U + c);
  }

  // Room for 2 of 4 events: the first two go out, the rest wait and go
  // out when there is room again (nothing is remembered as sent).
  P4dMidiCc cc;
  Sink      sink = { { { 0U, { 0U } } }, 0U, 2U };
  p4d_midi_cc_reset(&cc, RATE_HZ);
  const float values[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
  send_constant(&cc, params, values, 0, 1U, &sink);
  assert(sink.n == 2U);
  assert(sink.events[0].msg[1] == 10U && sink.events[1].msg[1] == 11U);

  sink.room = MAX_EVENTS;
  send_constant(&cc, params, values, 1, 1U, &sink);
  assert(sink.n == 4U);
  assert(sink.events[2].msg[1] == 12U && sink.events[3].msg[1] == 13U);
  printf("# full sink: events that do not fit are sent later\n");
}

/// A message expected at a block offset.
typedef struct {
  uint32_t offset;
  uint8_t  msg[3];
} Expect;

/// Check that sink holds exactly the n events of expect, and print them.
static void
expect_events(const char*   what,
              const Sink*   sink,
              const Expect* expect,
              unsigned      n)
{
  printf("# %s:", what);
  for (unsigned i = 0U; i < sink->n; ++i) {
    const Event* const e = &sink->events[i];
    printf(" @%u %02X %02X %02X", e->offset, e->msg[0], e->msg[1], e->msg[2]);
  }
  printf("\n");
  if (sink->n != n) {
    fprintf(stderr, "%s: %u events, expected %u\n", what, sink->n, n);
  }
  assert(sink->n == n);
  for (unsigned i = 0U; i < n; ++i) {
    assert(sink->events[i].offset == expect[i].offset);
    assert(!memcmp(sink->events[i].msg, expect[i].msg, 3U));
  }
}

/// Send one frame of values at frame, into an emptied sink.
static void
send_frame(P4dMidiCc*   cc,
           const float* params,
           const float  values[4],
           int64_t      frame,
           Sink*        sink)
{
  sink->n = 0U;
  send_constant(cc, params, values, frame, 1U, sink);
}

/// The value of out_min..out_max = 0..1 that quantises to v of 14 bits.
static float
at_14(int v)
{
  return (float)v / 16383.0f;
}

static void
test_cc14_bytes(void)
{
  float params[P4D_MAX_PARAMS];
  defaults(params);
  params[P4D_MOD_MIDI_CHANNEL] = 2.0f;
  params[P4D_MOD_CC_1]         = 1.0f; // Modulation wheel: LSB on 33
  params[P4D_MOD_MIDI_MODE_1]  = (float)P4D_MIDI_CC_14;

  P4dMidiCc cc;
  Sink      sink = { { { 0U, { 0U } } }, 0U, MAX_EVENTS };
  p4d_midi_cc_reset(&cc, 1000.0); // 5 frames between two updates

  // The first value: MSB then LSB, at the same frame.
  float v[4] = { at_14(8192), 0.0f, 0.0f, 0.0f };
  send_frame(&cc, params, v, 0, &sink);
  static const Expect first[] = { { 0U, { 0xB1, 1, 0x40 } },
                                  { 0U, { 0xB1, 33, 0x00 } } };
  expect_events("14-bit 8192", &sink, first, 2U);

  // Within the MSB: the LSB alone.
  v[0] = at_14(8193);
  send_frame(&cc, params, v, 5, &sink);
  static const Expect fine[] = { { 0U, { 0xB1, 33, 0x01 } } };
  expect_events("14-bit 8193 (LSB only)", &sink, fine, 1U);

  v[0] = at_14(8319);
  send_frame(&cc, params, v, 10, &sink);
  static const Expect top[] = { { 0U, { 0xB1, 33, 0x7F } } };
  expect_events("14-bit 8319 (LSB only)", &sink, top, 1U);

  // A new MSB: both again, the LSB 0 too (the receiver has reset it, but
  // a receiver that does not gets it right as well).
  v[0] = at_14(8320);
  send_frame(&cc, params, v, 15, &sink);
  static const Expect next[] = { { 0U, { 0xB1, 1, 0x41 } },
                                 { 0U, { 0xB1, 33, 0x00 } } };
  expect_events("14-bit 8320 (new MSB)", &sink, next, 2U);

  // Within 5 ms of the last update: nothing; at 5 ms: the pair.
  v[0] = at_14(100);
  send_frame(&cc, params, v, 19, &sink);
  assert(sink.n == 0U);
  send_frame(&cc, params, v, 20, &sink);
  static const Expect low[] = { { 0U, { 0xB1, 1, 0x00 } },
                                { 0U, { 0xB1, 33, 0x64 } } };
  expect_events("14-bit 100 (after 5 ms)", &sink, low, 2U);

  // The same value: nothing.
  send_frame(&cc, params, v, 30, &sink);
  assert(sink.n == 0U);

  // Ends, clamped: out_min to 0, out_max to 16383.
  v[0] = 1.5f;
  send_frame(&cc, params, v, 40, &sink);
  static const Expect max[] = { { 0U, { 0xB1, 1, 0x7F } },
                                { 0U, { 0xB1, 33, 0x7F } } };
  expect_events("14-bit above out_max", &sink, max, 2U);
  v[0] = -0.5f;
  send_frame(&cc, params, v, 50, &sink);
  static const Expect min[] = { { 0U, { 0xB1, 1, 0x00 } },
                                { 0U, { 0xB1, 33, 0x00 } } };
  expect_events("14-bit below out_min", &sink, min, 2U);
}

static void
test_cc14_quantise(void)
{
  // Every 14-bit value over out_min..out_max = -1..1 (and inverted), sent
  // and decoded as a receiver does: the MSB sets the high 7 bits and
  // clears the LSB, the LSB sets the low 7.
  for (unsigned inverted = 0U; inverted < 2U; ++inverted) {
    float params[P4D_MAX_PARAMS];
    defaults(params);
    params[P4D_MOD_OUT_MIN]     = inverted ? 1.0f : -1.0f;
    params[P4D_MOD_OUT_MAX]     = inverted ? -1.0f : 1.0f;
    params[P4D_MOD_CC_1]        = 31.0f; // The last with an LSB (63)
    params[P4D_MOD_MIDI_MODE_1] = (float)P4D_MIDI_CC_14;

    P4dMidiCc cc;
    Sink      sink = { { { 0U, { 0U } } }, 0U, MAX_EVENTS };
    p4d_midi_cc_reset(&cc, 1000.0);
    int      received = -1;
    unsigned pairs    = 0U;
    unsigned singles  = 0U;
    for (int k = 0; k <= 16383; ++k) {
      const float u    = (float)k / 16383.0f;
      float       v[4] = {
              inverted ? 1.0f - 2.0f * u : -1.0f + 2.0f * u, 0.0f, 0.0f, 0.0f
      };
      send_frame(&cc, params, v, 5 * (int64_t)k, &sink);
      assert(sink.n == 1U || sink.n == 2U);
      for (unsigned i = 0U; i < sink.n; ++i) {
        const uint8_t* const m = sink.events[i].msg;
        assert(m[0] == 0xB0U);
        if (m[1] == 31U) {
          assert(i == 0U && sink.n == 2U); // An MSB, and its LSB after it
          received = m[2] << 7;
        } else {
          assert(m[1] == 63U && received >= 0);
          received = (received & ~127) | m[2];
        }
      }
      pairs += sink.n == 2U;
      singles += sink.n == 1U;
      assert(received == k);
    }
    assert(pairs == 128U && singles == 16384U - 128U);
    printf("# 14-bit quantise%s: all 16384 values decode exactly; %u "
           "MSB+LSB pairs, %u LSB alone\n",
           inverted ? " (inverted range)" : "",
           pairs,
           singles);
  }
}

static void
test_cc14_fallback_and_switch(void)
{
  float params[P4D_MAX_PARAMS];
  defaults(params);
  params[P4D_MOD_CC_1]        = 74.0f; // No LSB controller: 7-bit
  params[P4D_MOD_MIDI_MODE_1] = (float)P4D_MIDI_CC_14;

  P4dMidiCc cc;
  Sink      sink = { { { 0U, { 0U } } }, 0U, MAX_EVENTS };
  p4d_midi_cc_reset(&cc, 1000.0);
  float v[4] = { 0.5f, 0.0f, 0.0f, 0.0f };
  send_frame(&cc, params, v, 0, &sink);
  static const Expect seven[] = { { 0U, { 0xB0, 74, 64 } } };
  expect_events("14-bit on CC 74 falls back to 7-bit", &sink, seven, 1U);

  // CC 32 has no LSB either (it is one).
  params[P4D_MOD_CC_1] = 32.0f;
  send_frame(&cc, params, v, 5, &sink);
  static const Expect on32[] = { { 0U, { 0xB0, 32, 64 } } };
  expect_events("14-bit on CC 32 falls back to 7-bit", &sink, on32, 1U);

  // A new controller, mode or MIDI channel gets the held value at once.
  params[P4D_MOD_CC_1] = 7.0f;
  send_frame(&cc, params, v, 10, &sink);
  static const Expect on7[] = { { 0U, { 0xB0, 7, 0x40 } },
                                { 0U, { 0xB0, 39, 0x00 } } };
  expect_events("switched to CC 7 (14-bit)", &sink, on7, 2U);
  params[P4D_MOD_MIDI_MODE_1] = (float)P4D_MIDI_CC_7;
  send_frame(&cc, params, v, 15, &sink);
  static const Expect back[] = { { 0U, { 0xB0, 7, 64 } } };
  expect_events("switched to 7-bit", &sink, back, 1U);
  params[P4D_MOD_MIDI_CHANNEL] = 10.0f;
  send_frame(&cc, params, v, 20, &sink);
  static const Expect ch10[] = { { 0U, { 0xB9, 7, 64 } } };
  expect_events("switched to MIDI channel 10", &sink, ch10, 1U);
  params[P4D_MOD_CC_1] = P4D_CC_OFF;
  send_frame(&cc, params, v, 25, &sink);
  assert(sink.n == 0U);
  params[P4D_MOD_CC_1] = 7.0f;
  send_frame(&cc, params, v, 30, &sink);
  expect_events("off and on again", &sink, ch10, 1U);
}

static void
test_pitch_bend(void)
{
  float params[P4D_MAX_PARAMS];
  defaults(params);
  params[P4D_MOD_OUT_MIN]      = -1.0f;
  params[P4D_MOD_MIDI_CHANNEL] = 16.0f;
  params[P4D_MOD_CC_2]         = 20.0f; // A 7-bit CC beside it
  params[P4D_MOD_MIDI_MODE_3]  = (float)P4D_MIDI_PITCH_BEND;
  params[P4D_MOD_MIDI_MODE_4]  = (float)P4D_MIDI_PITCH_BEND; // Ignored

  P4dMidiCc cc;
  Sink      sink = { { { 0U, { 0U } } }, 0U, MAX_EVENTS };
  p4d_midi_cc_reset(&cc, 1000.0);

  // Channel 3 (its cc_3 Off plays no part) owns the pitch bend; channel 4
  // also asks for it and sends nothing.
  float v[4] = { 0.0f, 1.0f, 0.0f, -1.0f };
  send_frame(&cc, params, v, 0, &sink);
  static const Expect centre[] = { { 0U, { 0xBF, 20, 127 } },
                                   { 0U, { 0xEF, 0x00, 0x40 } } };
  expect_events("pitch bend centre (0 of -1..1)", &sink, centre, 2U);

  v[2] = 1.0f;
  send_frame(&cc, params, v, 5, &sink);
  static const Expect top[] = { { 0U, { 0xEF, 0x7F, 0x7F } } };
  expect_events("pitch bend top", &sink, top, 1U);
  v[2] = -1.0f;
  send_frame(&cc, params, v, 10, &sink);
  static const Expect bottom[] = { { 0U, { 0xEF, 0x00, 0x00 } } };
  expect_events("pitch bend bottom", &sink, bottom, 1U);
  v[2] = 2.0e-4f; // u = 0.5001: 8193.14 rounds to 8193
  send_frame(&cc, params, v, 15, &sink);
  static const Expect up1[] = { { 0U, { 0xEF, 0x01, 0x40 } } };
  expect_events("pitch bend 8193", &sink, up1, 1U);

  // The owner leaves: channel 4 takes over and sends at once.
  params[P4D_MOD_MIDI_MODE_3] = (float)P4D_MIDI_CC_7;
  send_frame(&cc, params, v, 20, &sink);
  static const Expect moved[] = { { 0U, { 0xEF, 0x00, 0x00 } } };
  expect_events("pitch bend from channel 4", &sink, moved, 1U);

  // 5 ms per channel: a ramp at 48 kHz over 100 ms, 20 bends.
  p4d_midi_cc_reset(&cc, RATE_HZ);
  static float ramp[4][1024];
  sink.n = 0U;
  for (uint32_t at = 0U; at < 4800U; at += 1024U) {
    const uint32_t n = 4800U - at < 1024U ? 4800U - at : 1024U;
    for (uint32_t i = 0U; i < n; ++i) {
      ramp[3][i] = -1.0f + 2.0f * (float)(at + i) / 4799.0f;
    }
    const float* const ch[4] = { ramp[0], ramp[1], ramp[2], ramp[3] };
    p4d_midi_cc_send(&cc, params, ch, at, at, n, record, &sink);
  }
  unsigned bends = 0U;
  int      last  = -1;
  for (unsigned i = 0U; i < sink.n; ++i) {
    const uint8_t* const m = sink.events[i].msg;
    if (m[0] == 0xEFU) {
      const int value = m[1] | m[2] << 7;
      assert(sink.events[i].offset == 240U * bends && value > last);
      last = value;
      ++bends;
    }
  }
  assert(bends == 20U);
  printf("# pitch bend: a ramp over 100 ms sends %u bends 5 ms apart, the "
         "last %d\n",
         bends,
         last);
}

static void
test_cc14_full_sink(void)
{
  float params[P4D_MAX_PARAMS];
  defaults(params);
  params[P4D_MOD_CC_1]        = 11.0f;
  params[P4D_MOD_MIDI_MODE_1] = (float)P4D_MIDI_CC_14;

  // Room for the MSB only: the receiver holds MSB and LSB 0 now, so the
  // next update (5 ms later) is the LSB alone.
  P4dMidiCc cc;
  Sink      sink = { { { 0U, { 0U } } }, 0U, 1U };
  p4d_midi_cc_reset(&cc, 1000.0);
  const float v[4] = { at_14(8193), 0.0f, 0.0f, 0.0f };
  send_frame(&cc, params, v, 0, &sink);
  static const Expect msb[] = { { 0U, { 0xB0, 11, 0x40 } } };
  expect_events("14-bit into room for one", &sink, msb, 1U);
  sink.room = MAX_EVENTS;
  send_frame(&cc, params, v, 4, &sink);
  assert(sink.n == 0U);
  send_frame(&cc, params, v, 5, &sink);
  static const Expect lsb[] = { { 0U, { 0xB0, 43, 0x01 } } };
  expect_events("then the LSB alone", &sink, lsb, 1U);
}

int
main(void)
{
  test_quantise();
  test_repeats_and_interval();
  test_time_order();
  test_full_sink();
  test_cc14_bytes();
  test_cc14_quantise();
  test_cc14_fallback_and_switch();
  test_pitch_bend();
  test_cc14_full_sink();
  return 0;
}
