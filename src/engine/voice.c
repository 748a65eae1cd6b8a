// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  A voice of the engines (engine.c runs them in time): what it needs of
  its engine is passed in (voice.h).

  The signal z.  A voice renders, per channel, the core's weighted sum of
  octaves (p4d_fbm4_sum_span()) divided by P4D_NOISE_STD times the root of
  the summed squared weights: octaves are uncorrelated, so z has unit
  variance whatever the octaves and persistence.  The weights include the
  band limit (an octave fades out as its speed, every axis included, goes
  from half to all of min(20 kHz, Nyquist), and is not computed past it);
  the first octave's own fade is left out of the divisor, so that a grain
  or rate that reaches the limit fades out instead of being renormalised
  back to full level by its last octave (and z is 0, never NaN, once every
  octave is past it).

  Time lines.  Locked to the song (or to the frames since activation when no
  host transport is known), the phase of axis a at frame n is

      (song_frame(n)) * rate[a] / sample_rate          (seconds)
      song_beat(n) * rate[a]                           (beats)

  so the same song position always gives the same phase, bit for bit, in
  seconds at speed 1, whatever happened before.  A Mod loop (song beats)
  snaps the rate to whole cells per loop, reduces the anchor beat modulo
  the loop and cuts the line per loop (loop_snap() in flavour_mod.c,
  loop_line()), so the output repeats every loop bit for bit.  Free running
  (the clock parameter, or a stopped transport) continues the phase of the
  voice before it, so a rate change there bends the signal.

  Placement.  Gradient noise is 0 at lattice points and its variance along
  a path pulses once per cell.  For the kernel (32 edge gradients, E g_a^2
  = 3/4, quintic fade s(f)) the variance at fractions f = (f_x, f_y, f_z,
  f_w) of a cell is

      V(f) = 0.75 sum_b T(f_b) prod_{a != b} S(f_a)
      S = (1 - s)^2 + s^2,   T = (1 - s)^2 f^2 + s^2 (1 - f)^2.

  A Mod channel stands still in x, y, z and moves along w, so along its
  path V is proportional to T(f_w) + C S(f_w) with C = sum_{x,y,z} R(f_a),
  R = T / S, which runs from 0 (on a lattice plane) to 1/4 (mid cell).  The
  swing of V over a cell (max / min over f_w) depends on C alone: 11 dB at
  C = 0.01, 4.8 dB at 0.05, 2.4 dB at 0.1, 1.25 dB at 0.15, 0.18 dB at
  0.25 (the best), 1.3 dB at 0.5, 1.8 dB at 0.75.  The old position had C
  near 0.01 in its slowest octave: the 19 dB line at the rate.

  So every channel must keep C near 1/4 for every spread, in every octave.
  The fBm octaves have whole-cell offsets in x, y, z (src/noise/fbm.c):
  every octave shares a channel's fractions.  Spread moves channel c along
  (+-1, +-1, 0) / sqrt 2 from the base b = (0, 1/2, z0): on every such line
  f_x and f_y stay half a cell apart (x - y, or x + y, is constant mod 1),
  so R(f_x) + R(f_y) = R(u) + R(u + 1/2) lies in [0.138, 0.25] for every
  u, that is for every spread, not only 0 and 1.  z0 = 0.2347 has R(z0) =
  0.06, which centres C in [0.198, 0.31]: the swing is at most 0.53 dB for
  every channel, spread and octave.  The Noise moves its channels (width)
  and drifts (evolve) along (1, 1, 0) / sqrt 2 through the same base: the
  one line on which every octave of both channels stays at every moment,
  with the same bound on the swing at the grain rate.  Morph moves off the
  line, as the user asks.  The channels at spread (width) 1 are 3.5 cells
  apart along their directions: every pair differs by more than 2 cells on
  some axis, so they share no lattice corner and are independent.  What
  remains of the pulse the core's variance normalisation flattens.
*/

#include "voice.h"

#include "flavour.h"

#include <math.h>
#include <string.h>

/// Static offset of every channel (see Placement above).
static const double base_position[3] = { 0.0, 0.5, 0.2347 };

void
p4d_voice_from_params(const P4dVoiceSetup* setup, const float* raw, P4dVoice* v)
{
  const P4dParamTable* table = p4d_params(setup->flavour->params);

  memset(v, 0, sizeof(*v));
  float* const p = v->params;
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    p[i] = p4d_param_clamp(&table->params[i], raw[i]);
  }

  const float* const morph = setup->flavour->read(setup, p, v);
  for (unsigned c = 0U; c < setup->n_channels; ++c) {
    for (unsigned a = 0U; a < 3U; ++a) {
      v->position[c][a] += base_position[a] + morph[a];
    }
  }
}

/**
   A loop's cut of v's time line.  w's phase is brought into [0, P) (P the
   cells per loop), and the line is cut into loops of L = P / |phase step|
   frames (L within 10^-6 of a whole number is made whole, the step moved
   to match): loop k runs from frame ceil(k L) and starts at the phase
   (ceil(k L) - k L) * step past phase0, which for a whole L is phase0
   itself, so frames L apart get the very same coordinates, bit for bit.
   Across a cut the phase steps back by P - step, which the core's
   periodic hash makes a plain step of the line: nothing jumps.  Loops of
   fewer than 2 frames (or more than 2^52) are not cut; the hash alone
   keeps them periodic, up to rounding.
*/
static void
loop_line(P4dVoice* v)
{
  v->loop_len = 0.0;
  if (v->loop_cells == 0.0) {
    return;
  }

  const double period = v->loop_cells;
  const double q      = fmod(v->phase0[3], period);
  const double wrap   = q < 0.0 ? q + period : q;
  v->phase0[3]        = wrap < period ? wrap : 0.0;

  const double len = period / fabs(v->phase_step[3]);
  if (!(len >= 2.0 && len <= 0x1p52)) {
    return;
  }

  const double whole = floor(len + 0.5);
  if (fabs(len - whole) <= 1.0e-6) {
    v->loop_len      = whole;
    v->phase_step[3] = copysign(period / whole, v->phase_step[3]);
  } else {
    v->loop_len = len;
  }
}

/// Whether v is a Noise looped in song beats (its clock is song seconds).
static bool
seconds_loop(const P4dVoice* v)
{
  return v->mode == P4D_CLOCK_SONG_SECONDS && v->loop_beats > 0.0;
}

/// A song beat brought into v's loop, [0, loop_beats), exactly (fmod is
/// exact), so that beats b and b + N give the same bits; b without a loop.
static double
loop_beat(const P4dVoice* v, double beat)
{
  if (v->loop_beats == 0.0) {
    return beat;
  }

  const double r = fmod(beat, v->loop_beats);
  const double b = r < 0.0 ? r + v->loop_beats : r;
  return b < v->loop_beats ? b : 0.0;
}

/// What follows from v's time line: the loop's cut, the octave weights and
/// z's divisor.
static void
voice_derive(P4dVoice* v)
{
  loop_line(v);

  float          weight[P4D_FBM_MAX_OCTAVES];
  const unsigned n_octaves =
    p4d_fbm_weights_loop(&v->fbm, v->loop_cells, v->phase_step, weight);
  v->norm = p4d_voice_norm(weight, n_octaves);
}

float
p4d_voice_norm(const float* weight, unsigned n_octaves)
{
  // Octave 0 counts at its full weight (1): see "The signal z" above.
  float power = 1.0f;
  for (unsigned k = 1U; k < n_octaves; ++k) {
    power += weight[k] * weight[k];
  }
  return n_octaves ? 1.0f / (P4D_NOISE_STD * sqrtf(power)) : 0.0f;
}

P4dVoiceSetup
p4d_voice_setup(const P4dEngineFlavour* flavour, double sample_rate_hz)
{
  const double top = 0.5 * sample_rate_hz;
  return (P4dVoiceSetup){
    flavour,
    flavour->n_channels,
    sample_rate_hz,
    (top < P4D_BAND_HZ ? top : P4D_BAND_HZ) / sample_rate_hz,
  };
}

double
p4d_voice_phase(const P4dVoice* v, unsigned a, int64_t idx)
{
  return v->phase0[a] + (double)(idx + v->offset) * v->phase_step[a];
}

/// Song time units (seconds or beats) per frame on the engine's own clock
/// (at clock's tempo).
static double
free_units_per_frame(const P4dVoiceSetup* setup,
                     const P4dClock*      clock,
                     P4dClockMode         mode)
{
  return mode == P4D_CLOCK_SONG_BEATS
           ? clock->bpm / (60.0 * setup->sample_rate_hz)
           : 1.0 / setup->sample_rate_hz;
}

void
p4d_voice_line_free(const P4dVoiceSetup* setup,
                    const P4dClock*      clock,
                    int64_t              idx,
                    P4dVoice*            v,
                    const P4dVoice*      from)
{
  const double units = free_units_per_frame(setup, clock, v->mode);
  if (seconds_loop(v)) {
    // Free running: no loop (the song's tempo does not drive it).
    v->loop_cells = 0.0;
    p4d_texture_loop(&v->texture, 0.0);
  }
  for (unsigned a = 0U; a < P4D_LINES; ++a) {
    v->phase0[a]     = from ? p4d_voice_phase(from, a, idx) : 0.0;
    v->phase_step[a] = v->rate[a] * units;
  }
  v->offset = from ? -idx : 0;
  voice_derive(v);
}

/**
   The line of a Noise looped in song beats (see Time lines above): every
   line runs in beats from the anchor beat brought into the loop, w at
   whole cells per loop (grain snapped at the song's tempo), the seconds
   line in loop-relative seconds; the texture's fields and events snap to
   the loop (p4d_texture_loop()).  A tempo change comes back here.
*/
static void
line_seconds_loop(const P4dVoiceSetup* setup, const P4dClock* c, P4dVoice* v)
{
  const double spb    = 60.0 / c->bpm;
  const double loop_s = v->loop_beats * spb;
  const double cells  = floor(loop_s * v->rate[3] + 0.5);
  v->loop_cells       = cells < 1.0 ? 1.0 : cells;
  const double units  = c->speed * c->bpm / (60.0 * setup->sample_rate_hz);
  const double beat   = loop_beat(v, c->beat_anchor);
  for (unsigned a = 0U; a < P4D_LINES; ++a) {
    const double r = a == 3U ? v->loop_cells / v->loop_beats : v->rate[a] * spb;
    v->phase0[a]   = beat * r;
    v->phase_step[a] = r * units;
  }
  v->offset = -c->idx_anchor;
  p4d_texture_loop(&v->texture, loop_s);
}

void
p4d_voice_line_locked(const P4dVoiceSetup* setup,
                      const P4dClock*      clock,
                      P4dVoice*            v)
{
  const P4dClock* c  = clock;
  const double    sr = setup->sample_rate_hz;
  if (seconds_loop(v) && c->bpm > 0.0 && c->speed > 0.0) {
    line_seconds_loop(setup, c, v);
    voice_derive(v);
    return;
  }
  if (seconds_loop(v)) {
    v->loop_cells = 0.0;
    p4d_texture_loop(&v->texture, 0.0);
  }
  for (unsigned a = 0U; a < P4D_LINES; ++a) {
    if (v->mode == P4D_CLOCK_SONG_BEATS) {
      const double units = c->speed * c->bpm / (60.0 * sr);
      v->phase0[a]       = loop_beat(v, c->beat_anchor) * v->rate[a];
      v->phase_step[a]   = v->rate[a] * units;
      v->offset          = -c->idx_anchor;
    } else if (c->speed == 1.0) {
      // Anchored at song frame 0: the phase is a function of the song frame.
      v->phase0[a]     = 0.0;
      v->phase_step[a] = v->rate[a] * (1.0 / sr);
      v->offset        = c->frame_anchor - c->idx_anchor;
    } else {
      v->phase0[a]     = (double)c->frame_anchor * (v->rate[a] * (1.0 / sr));
      v->phase_step[a] = v->rate[a] * (c->speed / sr);
      v->offset        = -c->idx_anchor;
    }
  }
  voice_derive(v);
}

void
p4d_voice_line(const P4dVoiceSetup* setup,
               const P4dClock*      clock,
               int64_t              idx,
               P4dVoice*            v,
               const P4dVoice*      from)
{
  if (v->mode != P4D_CLOCK_FREE && clock->locked) {
    p4d_voice_line_locked(setup, clock, v);
  } else {
    p4d_voice_line_free(setup, clock, idx, v, from);
  }
}

P4dLoopPiece
p4d_voice_loop_piece(const P4dVoice* v, int64_t now, uint32_t n)
{
  P4dLoopPiece p   = { now, n, 0.0, 0 };
  const double len = v->loop_len;
  if (len > 0.0) {
    double k = floor((double)now / len);
    k -= (double)now < ceil(k * len) ? 1.0 : 0.0;
    k += (double)now >= ceil((k + 1.0) * len) ? 1.0 : 0.0;
    const double start = ceil(k * len);
    const double left  = ceil((k + 1.0) * len) - (double)now;
    p.shift            = start - k * len;
    p.first            = now - (int64_t)start;
    p.n                = left < (double)n ? (uint32_t)left : n;
    p.k                = (int64_t)k;
  }
  return p;
}

double
p4d_voice_place(const P4dVoice* v, unsigned a, int64_t idx)
{
  if (a >= 3U || !seconds_loop(v) || !(v->loop_len > 0.0)) {
    return p4d_voice_phase(v, a, idx);
  }
  // The ping-pong of voice_octaves().
  const P4dLoopPiece p    = p4d_voice_loop_piece(v, idx + v->offset, 1U);
  const int64_t      turn = (int64_t)floor(0.5 * v->loop_len);
  const int64_t      f    = p.first < turn ? p.first : 2 * turn - p.first;
  return v->phase0[a] + (double)f * v->phase_step[a];
}

/// The weighted octaves of channel c of v at voice times t to t + m - 1,
/// loop by loop when the time line is cut (see loop_line()).  A looped
/// Noise drifts (evolve) forward for the first half of each loop and back
/// for the second, so x, y and z are the same at every loop's start.
static void
voice_octaves(const P4dVoice* v, unsigned c, int64_t t, float* acc, uint32_t m)
{
  const bool    pingpong = seconds_loop(v) && v->loop_len > 0.0;
  const int64_t turn     = (int64_t)floor(0.5 * v->loop_len);
  for (uint32_t done = 0U; done < m;) {
    P4dLoopPiece p = p4d_voice_loop_piece(v, t + (int64_t)done, m - done);
    double       origin[4];
    double       step[4];
    memcpy(origin, v->phase0, sizeof(origin));
    memcpy(step, v->phase_step, sizeof(step));
    origin[3] += p.shift * v->phase_step[3];
    if (pingpong && p.first < turn) {
      const int64_t left = turn - p.first;
      p.n                = left < (int64_t)p.n ? (uint32_t)left : p.n;
    } else if (pingpong) {
      for (unsigned a = 0U; a < 3U; ++a) {
        origin[a] += 2.0 * (double)turn * step[a];
        step[a] = -step[a];
      }
    }

    p4d_fbm4_sum_span_loop(&v->fbm,
                           v->loop_cells,
                           v->seed,
                           origin,
                           step,
                           v->position[c],
                           p.first,
                           acc + done,
                           p.n);
    done += p.n;
  }
}

void
p4d_voice_z(const P4dVoiceSetup* setup,
            unsigned             channel_mask,
            const P4dVoice*      v,
            int64_t              at,
            float                buf[][P4D_CHUNK],
            uint32_t             m)
{
  for (unsigned c = 0U; c < setup->n_channels; ++c) {
    if (!(channel_mask & (1U << c))) {
      continue;
    }
    // Octaves scale the time-driven phase, not the static position: a
    // ramp of lacunarity then moves each octave only as far as time has
    // taken it, and the channels stay as far apart in every octave.
    float* const acc = buf[c];
    voice_octaves(v, c, at + v->offset, acc, m);
    for (uint32_t i = 0U; i < m; ++i) {
      acc[i] *= v->norm;
    }
  }
}

void
p4d_voice_texture(const P4dVoiceSetup* setup,
                  const P4dVoice*      v,
                  int64_t              at,
                  float                buf[][P4D_CHUNK],
                  uint32_t             m)
{
  // A looped Noise's texture runs on loop-relative seconds, loop by loop.
  const bool looped = seconds_loop(v);
  for (unsigned c = 0U; c < setup->n_channels; ++c) {
    for (uint32_t done = 0U; done < m;) {
      const int64_t      now = at + v->offset + (int64_t)done;
      const P4dLoopPiece p   = looped ? p4d_voice_loop_piece(v, now, m - done)
                                      : (P4dLoopPiece){ now, m - done, 0.0, 0 };
      p4d_texture_apply(&v->texture,
                        v->seed,
                        c,
                        v->phase0[P4D_SECONDS] +
                          p.shift * v->phase_step[P4D_SECONDS],
                        v->phase_step[P4D_SECONDS],
                        p.first,
                        buf[c] + done,
                        p.n);
      done += p.n;
    }
  }
}
