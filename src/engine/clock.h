// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file clock.h
   The song clock: where a processor's frames stand on the song, and how a
   host transport moves it.  The one reading of the transport, shared by
   the engines (engine.c: the voices' time lines) and Motion (motion.c: the
   filter grid), so that both see the same jumps, stops and speeds.  Pure
   and realtime safe.  Internal to the engines and Motion.
*/

#ifndef P4D_CLOCK_H
#define P4D_CLOCK_H

#include "engine.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/**
   Where a processor's frames stand on the song: at its frame idx_anchor
   the song was at frame_anchor and beat_anchor, and from there it moves
   speed song frames per frame at bpm.
*/
typedef struct {
  bool    locked;       ///< Following the song (or frames since activation)
  double  speed;        ///< Transport speed: 0 stopped
  double  bpm;          ///< Tempo
  int64_t frame_anchor; ///< Song frame at idx_anchor
  double  beat_anchor;  ///< Song beat at idx_anchor
  int64_t idx_anchor;   ///< The processor's frame of the anchor
} P4dClock;

/**
   The clock of an activation with no transport: locked, speed 1, song
   frame and beat 0 at the processor's frame 0 (so the song frame is the
   processor's frame), at bpm (120 when out of range).
*/
static inline P4dClock
p4d_clock_start(double bpm)
{
  const double tempo = bpm > 0.0 && bpm < P4D_MAX_BPM ? bpm : 120.0;
  return (P4dClock){ true, 1.0, tempo, 0, 0.0, 0 };
}

/// Where clock c expects the song to be at the processor's frame idx: its
/// song frame and beat.
static inline void
p4d_clock_expect(const P4dClock* c,
                 int64_t         idx,
                 double          sample_rate_hz,
                 int64_t*        frame,
                 double*         beat)
{
  const int64_t since = idx - c->idx_anchor;
  *frame              = c->frame_anchor + (int64_t)((double)since * c->speed);
  *beat               = c->beat_anchor +
          (double)since * c->speed * c->bpm / (60.0 * sample_rate_hz);
}

/**
   The clock that transport tr sets at the processor's frame idx, after c:
   anchored there at tr's song frame and beat, speed and tempo.  What tr
   leaves out continues c (the frame and beat where c expects them, its
   speed and tempo), and so do speeds beyond shuttling
   (|speed| > P4D_MAX_SPEED, NaN), tempos out of range and beats that are
   not finite: they are not transport.  Locked unless the speed is 0.
*/
static inline P4dClock
p4d_clock_follow(const P4dClock*     c,
                 const P4dTransport* tr,
                 int64_t             idx,
                 double              sample_rate_hz)
{
  int64_t want_frame = 0;
  double  want_beat  = 0.0;
  p4d_clock_expect(c, idx, sample_rate_hz, &want_frame, &want_beat);

  const double speed =
    tr->has_speed && fabs(tr->speed) <= P4D_MAX_SPEED ? tr->speed : c->speed;
  const double bpm =
    tr->has_bpm && tr->bpm > 0.0 && tr->bpm < P4D_MAX_BPM ? tr->bpm : c->bpm;
  const int64_t frame = tr->has_frame ? tr->frame : want_frame;
  const double beat = tr->has_beat && isfinite(tr->beat) ? tr->beat : want_beat;
  return (P4dClock){ speed != 0.0, speed, bpm, frame, beat, idx };
}

#endif // P4D_CLOCK_H
