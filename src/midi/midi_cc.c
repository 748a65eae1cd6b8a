// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "midi_cc.h"

#include "params.h"

/// MIDI status byte of a control change on channel 1.
#define P4D_MIDI_CONTROLLER 0xB0U

/// MIDI status byte of a pitch bend on channel 1.
#define P4D_MIDI_BENDER 0xE0U

/// The controllers that have an LSB controller 32 above them: 0 to 31.
#define P4D_MIDI_N_MSB 32

/// A 14-bit value's largest value.
#define P4D_MIDI_MAX_14 16383

/// What a channel sends in a chunk: its effective mode and controller.
typedef struct {
  P4dMidiMode mode;   ///< P4D_MIDI_CC_14 with cc_n >= 32 becomes P4D_MIDI_CC_7
  int         number; ///< Controller (0 for pitch bend), or -1: sends nothing
  int         key;    ///< Mode, controller and MIDI channel in one number
  uint8_t     status; ///< Status byte: control change or pitch bend, channel
} Target;

void
p4d_midi_cc_reset(P4dMidiCc* cc, double sample_rate_hz)
{
  cc->gap_frames = (int64_t)(P4D_MIDI_CC_INTERVAL_S * sample_rate_hz + 0.5);
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    // Far enough in the past that the first value goes out at once.
    cc->last_frame[c] = INT64_MIN / 2;
    cc->last_value[c] = -1;
    cc->last_mode[c]  = -1;
  }
}

/// Work out what each channel sends under params.
static void
targets(const float* params, Target target[4])
{
  const int channel    = (int)params[P4D_MOD_MIDI_CHANNEL] - 1;
  bool      bend_taken = false;
  for (unsigned c = 0U; c < 4U; ++c) {
    Target* const t      = &target[c];
    const int     number = (int)params[P4D_MOD_CC_1 + c];
    t->mode              = (P4dMidiMode)(int)params[P4D_MOD_MIDI_MODE_1 + c];
    t->number            = number == P4D_CC_OFF ? -1 : number;
    if (t->mode == P4D_MIDI_PITCH_BEND) {
      // One pitch bend per MIDI channel: the first channel that asks.
      t->number  = bend_taken ? -1 : 0;
      bend_taken = true;
    } else if (t->mode == P4D_MIDI_CC_14 && number >= P4D_MIDI_N_MSB) {
      t->mode = P4D_MIDI_CC_7; // No LSB controller above 31
    }
    t->key = (channel << 16) | ((int)t->mode << 8) | t->number;
    t->status =
      (uint8_t)((t->mode == P4D_MIDI_PITCH_BEND ? P4D_MIDI_BENDER
                                                : P4D_MIDI_CONTROLLER) |
                (unsigned)channel);
  }
}

/// Quantise value over [low, low + range] to 0..16383, rounded.
static int
quantise_14(float value, float low, float range)
{
  const double u = range != 0.0f ? ((double)value - low) / range : 0.0;
  const double s = u * P4D_MIDI_MAX_14 + 0.5;
  return s < 0.0 ? 0 : s >= P4D_MIDI_MAX_14 ? P4D_MIDI_MAX_14 : (int)s;
}

/**
   Send channel c's value val (quantised for its mode) at frame now, block
   offset offset, and remember what the receiver now holds and when it got
   it; false if the sink is full.
*/
static bool
send_value(P4dMidiCc*    cc,
           unsigned      c,
           const Target* t,
           int           val,
           int64_t       now,
           uint32_t      offset,
           P4dMidiSink   sink,
           void*         handle)
{
  uint8_t msg[3] = { t->status, (uint8_t)t->number, (uint8_t)val };
  if (t->mode == P4D_MIDI_PITCH_BEND) {
    msg[1] = (uint8_t)(val & 127);
    msg[2] = (uint8_t)(val >> 7);
  } else if (t->mode == P4D_MIDI_CC_14) {
    // The receiver sets its LSB to 0 on an MSB: after a new MSB the LSB
    // always follows; a change within one MSB needs the LSB only.
    const int last = cc->last_mode[c] == t->key ? cc->last_value[c] : -1;
    const int msb  = val >> 7;
    if (last < 0 || msb != last >> 7) {
      msg[2] = (uint8_t)msb;
      if (!sink(handle, offset, msg, 3U)) {
        return false;
      }
      // What the receiver holds if the LSB does not fit.
      cc->last_mode[c]  = t->key;
      cc->last_value[c] = msb << 7;
      cc->last_frame[c] = now;
    }
    msg[1] = (uint8_t)(t->number + P4D_MIDI_N_MSB);
    msg[2] = (uint8_t)(val & 127);
  }

  if (!sink(handle, offset, msg, 3U)) {
    return false;
  }
  cc->last_mode[c]  = t->key;
  cc->last_value[c] = val;
  cc->last_frame[c] = now;
  return true;
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
  const float low   = params[P4D_MOD_OUT_MIN];
  const float range = params[P4D_MOD_OUT_MAX] - low;

  Target target[4];
  targets(params, target);
  for (unsigned c = 0U; c < 4U; ++c) {
    if (target[c].number < 0) {
      // Silent now: when it speaks again, the receiver's state is unknown.
      cc->last_mode[c] = -1;
    }
  }

  // Frame by frame, so that the events of all channels are in time order.
  for (uint32_t i = 0U; i < n_frames; ++i) {
    const int64_t now = frame + (int64_t)i;
    for (unsigned c = 0U; c < 4U; ++c) {
      const Target* const t = &target[c];
      if (t->number < 0 || now - cc->last_frame[c] < cc->gap_frames) {
        continue;
      }

      int val = 0;
      if (t->mode == P4D_MIDI_CC_7) {
        const float u = range != 0.0f ? (values[c][i] - low) / range : 0.0f;
        const float s = u * 127.0f + 0.5f;
        val           = s < 0.0f ? 0 : s >= 127.0f ? 127 : (int)s;
      } else {
        val = quantise_14(values[c][i], low, range);
      }
      if (cc->last_mode[c] == t->key && val == cc->last_value[c]) {
        continue;
      }
      if (!send_value(cc, c, t, val, now, offset + i, sink, handle)) {
        return;
      }
    }
  }
}
