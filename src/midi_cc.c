// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "midi_cc.h"

#include "params.h"

/// MIDI status byte of a control change on channel 1.
#define P4D_MIDI_CONTROLLER 0xB0U

void
p4d_midi_cc_reset(P4dMidiCc* cc, double sample_rate_hz)
{
  cc->gap_frames = (int64_t)(P4D_MIDI_CC_INTERVAL_S * sample_rate_hz + 0.5);
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    // Far enough in the past that the first value goes out at once.
    cc->last_frame[c] = INT64_MIN / 2;
    cc->last_value[c] = -1;
  }
}

void
p4d_midi_cc_send(P4dMidiCc*         cc,
                 const float*       params,
                 const float* const values[],
                 int64_t            frame,
                 uint32_t           offset,
                 uint32_t           n_frames,
                 P4dMidiSink        sink,
                 void*              handle)
{
  const float low     = params[P4D_MOD_OUT_MIN];
  const float range   = params[P4D_MOD_OUT_MAX] - low;
  const int   channel = (int)params[P4D_MOD_MIDI_CHANNEL] - 1;

  // Frame by frame, so that the events of all channels are in time order.
  for (uint32_t i = 0U; i < n_frames; ++i) {
    const int64_t now = frame + (int64_t)i;
    for (unsigned c = 0U; c < 4U; ++c) {
      const int number = (int)params[P4D_MOD_CC_1 + c];
      if (number == P4D_CC_OFF || now - cc->last_frame[c] < cc->gap_frames) {
        continue;
      }

      const float u   = range != 0.0f ? (values[c][i] - low) / range : 0.0f;
      const float s   = u * 127.0f + 0.5f;
      const int   val = s < 0.0f ? 0 : s >= 127.0f ? 127 : (int)s;
      if (val == cc->last_value[c]) {
        continue;
      }

      const uint8_t msg[3] = { (uint8_t)(P4D_MIDI_CONTROLLER |
                                         (unsigned)channel),
                               (uint8_t)number,
                               (uint8_t)val };
      if (!sink(handle, offset + i, msg, 3U)) {
        return;
      }
      cc->last_value[c] = val;
      cc->last_frame[c] = now;
    }
  }
}
