// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file midi_cc.h
   MIDI from the Mod engine's channels: each channel goes out in its
   midi_mode_n (P4dMidiMode), on the one MIDI channel midi_channel, when its
   quantised value changes, at most every 5 ms, with the events of all
   channels in time order (at one frame: channel 1 first).  The value is
   quantised over [out_min, out_max] (out_min to 0, out_max to the top):

   - 7-bit CC: round(u * 127) on cc_n, one message [Bn, cc, v].  Nothing
     for cc_n = Off.
   - 14-bit CC (MIDI 1.0, controllers 0 to 31 with their LSB on 32 to 63):
     v = round(u * 16383), MSB v >> 7 on cc_n, LSB v & 127 on cc_n + 32.
     A receiver resets its LSB to 0 when an MSB arrives, so when the MSB
     changes the MSB goes out and then the LSB, at the same frame; when
     only the LSB changes, only the LSB goes out.  A cc_n of 32 or more has
     no LSB controller: such a channel falls back to 7-bit CC on cc_n.
     Nothing for cc_n = Off.
   - Pitch bend: v = round(u * 16383) as [En, v & 127, v >> 7], so the
     middle of the range is the centre 8192.  Pitch bend is one per MIDI
     channel: the lowest channel in this mode sends it, any other channel
     in this mode sends nothing; cc_n plays no part.

   The 5 ms count from a channel's last update (an MSB-LSB pair is one).
   Knows nothing of LV2: the caller passes a sink that writes one message.
*/

#ifndef P4D_MIDI_CC_H
#define P4D_MIDI_CC_H

#include "params.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Shortest time between two updates of one channel.
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

/**
   What a MIDI generator remembers between chunks: per channel, what the
   receiver holds (in the mode the channel was in when it sent it).
*/
typedef struct {
  int64_t gap_frames;                   ///< Frames between two updates
  int64_t last_frame[P4D_MAX_CHANNELS]; ///< Frame of each channel's last one
  int     last_value[P4D_MAX_CHANNELS]; ///< Last value sent, -1 for none
  int     last_mode[P4D_MAX_CHANNELS];  ///< Its P4dMidiMode and CC number,
                                        ///< -1 for none
} P4dMidiCc;

/**
   Start a generator at sample_rate_hz with nothing sent yet.

   Realtime safe.
*/
void
p4d_midi_cc_reset(P4dMidiCc* cc, double sample_rate_hz);

/**
   Send the MIDI messages of one chunk of the Mod engine's output.

   @param params The Mod parameters (clamped), for out_min, out_max, the
   MIDI channel, the CC numbers and the MIDI modes.
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
