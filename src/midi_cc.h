// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file midi_cc.h
   MIDI control changes from the Mod engine's channels: each channel whose
   CC number is set sends its value, quantised to 7 bits over
   [out_min, out_max], when the value changes, at most every 5 ms, with the
   events of all channels in time order.  Knows nothing of LV2: the caller
   passes a sink that writes one message.
*/

#ifndef P4D_MIDI_CC_H
#define P4D_MIDI_CC_H

#include "engine.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Shortest time between two CC messages of one channel.
#define P4D_MIDI_CC_INTERVAL_S 0.005

/**
   Write one MIDI message of size bytes at frame offset of the block.

   @return False if it does not fit: it and the rest of the chunk's
   messages are dropped, and sent later when the value next changes.
*/
typedef bool (*P4dMidiSink)(void*          handle,
                            uint32_t       offset,
                            const uint8_t* msg,
                            uint32_t       size);

/// What a CC generator remembers between chunks.
typedef struct {
  int64_t gap_frames;                   ///< Frames between two CCs of a channel
  int64_t last_frame[P4D_MAX_CHANNELS]; ///< Frame of each channel's last CC
  int     last_value[P4D_MAX_CHANNELS]; ///< Last value sent, -1 for none
} P4dMidiCc;

/**
   Start a generator at sample_rate_hz with nothing sent yet.

   Realtime safe.
*/
void
p4d_midi_cc_reset(P4dMidiCc* cc, double sample_rate_hz);

/**
   Send the CCs of one chunk of the Mod engine's output.

   @param params The Mod parameters (clamped), for out_min, out_max, the
   MIDI channel and the CC numbers.
   @param values The 4 channels' values, n_frames each.
   @param frame The running frame number of values[c][0], which only ever
   grows (it times the 5 ms limit).
   @param offset The block offset of values[c][0], passed on to sink.
   Realtime safe if sink is.
*/
void
p4d_midi_cc_send(P4dMidiCc*         cc,
                 const float*       params,
                 const float* const values[],
                 int64_t            frame,
                 uint32_t           offset,
                 uint32_t           n_frames,
                 P4dMidiSink        sink,
                 void*              handle);

#ifdef __cplusplus
}
#endif

#endif // P4D_MIDI_CC_H
