// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The MIDI CC generator without an LV2 host: quantising to 7 bits over
  [out_min, out_max], repeat suppression, the 5 ms limit, time order across
  channels, CC numbers and channel, and a sink that runs out of room.
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

int
main(void)
{
  test_quantise();
  test_repeats_and_interval();
  test_time_order();
  test_full_sink();
  return 0;
}
