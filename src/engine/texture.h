// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file texture.h
   The Noise's slow motion: gusts that swing its level and grit that breaks
   it into sparse, impulsive grains, both drawn from 4D noise fields of the
   song time (never from state or a random generator), as a gain envelope
   that the Noise multiplies into each channel.

   The envelope of channel c at song time t is

       env(t) = exp(a_g * g(t) - k_g + a_r * r(t) - k_r)

   where g and r are fBm fields of their own seeds, moving along time only
   and scaled to unit standard deviation: g at the gust rate, r at a fixed
   faster rate.  a_g turns the gust depth into natural-log gain (the level
   in dB is depth / 2 * g: a gust one standard deviation up and a lull one
   down are depth dB apart), a_r grows with grit.  k(a) is half the log of
   E[exp(2 a z)] for the field's distribution, so E[env^2] = 1: the mean
   power stays where the level control puts it, however deep the gusts and
   however sparse the grains.  For a Gaussian z, k(a) = a^2; the fields are
   bounded sums of noise, lighter-tailed than Gaussian, so k comes from a
   table measured on the fields (texture.c, checked by test_textures).

   Every function here is a pure function of its arguments: the same
   controls, seed, channel and time line give the same bits whatever the
   block size, on every code path.  Realtime safe: no allocation, no libm
   call per frame (exp is a polynomial of its own).
*/

#ifndef P4D_TEXTURE_H
#define P4D_TEXTURE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Frames between the knots at which the fields are evaluated; the
/// exponent is interpolated linearly between knots.
#define P4D_TEXTURE_KNOT 16U

/// The texture of a voice, derived from its controls; fixed for its life.
typedef struct {
  double   gust_rate_hz; ///< Cells per second of the gust field's first octave
  float    gust_a;       ///< Natural-log gain per unit of the gust field's sum
  float    gust_k;       ///< k(a_g): keeps E[env^2] = 1
  float    grit_a;       ///< Natural-log gain per unit of the grit field's sum
  float    grit_k;       ///< k(a_r)
  float    width;        ///< 0: both channels share one envelope; 1: apart
  float    peak;         ///< Upper bound of the envelope
  bool     active;       ///< Any gust, grit or events: else the envelope is 1
  unsigned events;       ///< P4dTextureEvents: the kind of events, 0 none
  double   event_cell;   ///< Seconds per cell of the events' grid
  float    event_norm;   ///< Scale of the events' envelope: mean square 1
  double   gust_base_hz; ///< gust_rate_hz without a loop
  double   cell_base;    ///< event_cell without a loop
  double   grit_rate_hz; ///< Cells per second of the grit field
  double   hiss_rate_hz; ///< Cells per second of the gusts' hiss
  double   gust_cells;   ///< Loop: cells of the gust field per loop, 0: none
  double   grit_cells;   ///< Loop: cells of the grit field per loop
  double   hiss_cells;   ///< Loop: cells of the hiss per loop
  int64_t  event_n;      ///< Loop: event cells per loop, 0: none
} P4dTexture;

/**
   The kinds of events the Noise's texture may add (the Noise's `events`
   control), each a row of the table in texture.c: events come at random
   times on a grid of cells of song seconds (a pure function of the song
   time and the seed), each rising, peaking and decaying on its own times.
*/
typedef enum {
  P4D_TEXTURE_EVENTS_OFF,   ///< No events
  P4D_TEXTURE_EVENTS_DROPS, ///< Droplets: onsets < 1 ms, decays 5 - 50 ms
  P4D_TEXTURE_EVENTS_WAVES, ///< Waves: a build-up of seconds, a crash
  P4D_TEXTURE_EVENTS_GUSTS, ///< Gusts: irregular swells that brighten
  P4D_TEXTURE_N_EVENTS
} P4dTextureEvents;

/**
   Set texture from the Noise's controls (clamped to their ranges here).

   @param gust_db Gust depth in dB, 0 (off) to 24.
   @param gust_hz Gust rate in Hz, the rate of the gust field's cells.
   @param grit Grit, 0 (off) to 1 (sparse, sharp grains).
   @param width The Noise's width, 0 to 1: how far apart the channels'
   fields sit (the gusts stay mostly common, the grains part).
   Realtime safe.
*/
void
p4d_texture_init(P4dTexture* texture,
                 float       gust_db,
                 float       gust_hz,
                 float       grit,
                 float       width);

/**
   Add events of kind (P4dTextureEvents; out of range is off) at rate_hz
   events per second on average (clamped to 0.02 - 200) to texture, after
   p4d_texture_init().  Off keeps the texture as it was, bit for bit.
   Realtime safe.
*/
void
p4d_texture_events(P4dTexture* texture, float kind, float rate_hz);

/**
   Make texture periodic over loops of loop_s seconds of its time line
   (the Noise's loop_beats): the gust, grit and hiss fields take whole
   cells per loop (their rates snapped to the nearest, at least 1) and are
   periodic in them, the events' cells are a whole number per loop and
   their draws repeat every loop.  loop_s 0 (or not positive) undoes it:
   the texture is as p4d_texture_init() and p4d_texture_events() made it,
   bit for bit.  Realtime safe.
*/
void
p4d_texture_loop(P4dTexture* texture, double loop_s);

/**
   The gain envelope of channel at frames first..first+n-1 of a time line.

   Frame i of the line is at song time t0_s + (first + i) * step_s seconds.
   env[i] is finite, > 0 and never denormal; its mean square over time is 1
   (see above).  A line cut into spans at any points gives the same values.
   Realtime safe.
*/
void
p4d_texture_envelope(const P4dTexture* texture,
                     uint32_t          seed,
                     unsigned          channel,
                     double            t0_s,
                     double            step_s,
                     int64_t           first,
                     float*            env,
                     uint32_t          n);

/**
   Multiply buf[0..n-1] by the envelope of p4d_texture_envelope(); nothing
   when the texture is inactive, so a session without gust or grit keeps
   its bits.  Gusts events (P4D_TEXTURE_EVENTS_GUSTS) also brighten buf as
   they swell: buf (of about unit variance) is mixed at constant power with
   a hiss of its own (one octave of noise at 8000 cells per second) at a
   share that grows with the event's envelope.  Realtime safe.
*/
void
p4d_texture_apply(const P4dTexture* texture,
                  uint32_t          seed,
                  unsigned          channel,
                  double            t0_s,
                  double            step_s,
                  int64_t           first,
                  float*            buf,
                  uint32_t          n);

/**
   An upper bound of the envelope of texture (1 when inactive), for an
   output stage that must not clip its peaks.  Realtime safe.
*/
float
p4d_texture_peak(const P4dTexture* texture);

/// Most the Noise's ceiling rises with gusts and grit: 12 dB.
#define P4D_TEXTURE_HEADROOM 3.9810717f

/**
   How far the Noise's output ceiling rises above its level for texture:
   the envelope's bound, at most P4D_TEXTURE_HEADROOM (1 when inactive).
   Deep gusts and grit reach beyond it only in their rare loudest moments,
   which the soft limiter rounds off.  Realtime safe.
*/
float
p4d_texture_headroom(const P4dTexture* texture);

#ifdef __cplusplus
}
#endif

#endif // P4D_TEXTURE_H
