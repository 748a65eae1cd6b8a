// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Motion: the wow curve of each side, and the turntable's warp.

  One capstan.  A tape deck pulls both tracks past the head with one
  capstan, so they wow and flutter together: the right side's wow is the
  left's (bits included) unless transport_spread moves it, through the
  transport engine T, as spread moves the gain and the filter through R
  (motion.c).  T's curve is used from the frame on which T has sat at
  transport_spread 0 for m->settle frames, exactly as R's.

  The turntable.  A warped record sways once per turn: its speed, and so
  the delay, is a periodic function of the turn, the same on every turn.
  With a turntable speed set the wow is

    W(phi) = sum_h a_h sin(2 pi (h phi + theta_h)) / sum_h a_h,  h = 1..4

  of the turn's phase phi in [0, 1), which counts turns of the song frame
  (the filter grid's time: the song frame, set on every relocation, so
  locate equals export): phi = frac(t rpm / (60 fs)), computed with an
  exact fmod of whole numbers, so that the same song frame gives the same
  bits on any path and at any song position up to decades.  The harmonics
  (a_h = 1, 0.25, 0.08, 0.03; theta_h = 0, 0.3, 0.55, 0.85 of a turn) are
  a warp's: the once-per-turn swell and its overtones, no other period (in
  speed, h a_h: the turn's own sway leads, 0.5, 0.24 and 0.12 of it); the
  sum of the a_h keeps |W| <= 1, so the delay stays within wow_ms either
  side.  The record is one: the seed, morph and rate do not change the
  warp (rate still drives the flutter).  Both sides hear the same warp (one
  stylus).  A change of speed cross-fades the curves on the turntable
  weights' own quintic glide of 250 ms, longer than the other controls'
  20 ms so that the read never runs backwards: two wow curves differ by at
  most 2 wow_ms = 20 ms, and the ramp's steepest slope, 1.875 x 20 ms /
  250 ms, makes the speed deviate by 15 % at most (test_motion_tape
  switches the speed every 1.5 s at the deepest wow).  The weights move
  on whether or not the wow is heard, so they are a function of the
  parameter timeline alone.  The sines are exact_math.h's quarter sine,
  folded into each quadrant: +, -, * and / only.
*/

#include "motion_private.h"

#include <math.h>
#include <string.h>

/// Harmonics of the warp.
#define P4D_MOTION_WARP_HARMONICS 4U

/// The warp's harmonic amplitudes and phases (fractions of a turn).
// clang-format off
static const double warp_amp[P4D_MOTION_WARP_HARMONICS] = {
  1.0, 0.25, 0.08, 0.03 };
static const double warp_phase[P4D_MOTION_WARP_HARMONICS] = {
  0.0, 0.3, 0.55, 0.85 };
// clang-format on

/// 1 / the sum of warp_amp.
#define P4D_MOTION_WARP_NORM (1.0 / 1.36)

/// Turns per minute of each turntable speed as num / den.
static const struct {
  double num;
  double den;
} turn_rpm[P4D_MOTION_N_TURNTABLES] = {
  [P4D_MOTION_TURNTABLE_OFF] = { 0.0, 1.0 },
  [P4D_MOTION_TURNTABLE_33]  = { 100.0, 3.0 },
  [P4D_MOTION_TURNTABLE_45]  = { 45.0, 1.0 },
  [P4D_MOTION_TURNTABLE_78]  = { 78.0, 1.0 },
};

/// sin(2 pi x) for x in [0, 1).
static inline double
turn_sin(double x)
{
  const double q = 4.0 * x;
  if (q < 1.0) {
    return p4d_exact_quarter_sin_short(q);
  }
  if (q < 2.0) {
    return p4d_exact_quarter_sin_short(2.0 - q);
  }
  if (q < 3.0) {
    return -p4d_exact_quarter_sin_short(q - 2.0);
  }
  return -p4d_exact_quarter_sin_short(4.0 - q);
}

double
p4d_motion_warp(const P4dMotion* m, unsigned turn, int64_t t)
{
  // phi = (t num mod 60 den fs) / (60 den fs): t num is a whole number
  // held exactly below 2^53 (over 80 years at 768 kHz), and fmod is exact.
  const double per = 60.0 * turn_rpm[turn].den * m->sample_rate_hz;
  double       r   = fmod((double)t * turn_rpm[turn].num, per);
  r                = r < 0.0 ? r + per : r;
  const double phi = r / per;
  double       w   = 0.0;
  for (unsigned h = 0U; h < P4D_MOTION_WARP_HARMONICS; ++h) {
    const double x = (double)(h + 1U) * phi + warp_phase[h];
    w += warp_amp[h] * turn_sin(x - floor(x));
  }
  return w * P4D_MOTION_WARP_NORM;
}

/// Whether the turntable weights are other than off alone.
static inline bool
turning(const P4dMotion* m)
{
  for (unsigned k = 0U; k < P4D_MOTION_N_TURNTABLES; ++k) {
    if (p4d_motion_glide_moving(&m->turn[k], m->turn_len)) {
      return true;
    }
  }
  return m->turn[P4D_MOTION_TURNTABLE_OFF].value != 1.0;
}

void
p4d_motion_turn_step(P4dMotion* m, uint32_t n)
{
  for (unsigned k = 0U; k < P4D_MOTION_N_TURNTABLES; ++k) {
    for (uint32_t i = 0U;
         i < n && p4d_motion_glide_moving(&m->turn[k], m->turn_len);
         ++i) {
      p4d_motion_glide_step(&m->turn[k], m->turn_len, m->inv_turn_len);
    }
  }
}

/**
   Cross-fade the n frames of the wow curves u (per side) with the warps:
   u = w_off u + sum of w_k W_k, the weights on their glides (copies,
   stepped as the frames step them).  A weight of exactly 1 takes its curve
   as it is.
*/
static void
mix_warps(P4dMotion* m, double* const u[2], uint32_t n)
{
  P4dMotionGlide g[P4D_MOTION_N_TURNTABLES];
  memcpy(g, m->turn, sizeof(g));
  const int64_t t0 = m->idx + m->grid;
  for (uint32_t i = 0U; i < n; ++i) {
    for (unsigned k = 0U; k < P4D_MOTION_N_TURNTABLES; ++k) {
      p4d_motion_glide_step(&g[k], m->turn_len, m->inv_turn_len);
    }
    double warp  = 0.0;
    bool   whole = false;
    for (unsigned k = 1U; k < P4D_MOTION_N_TURNTABLES; ++k) {
      if (g[k].value != 0.0) {
        const double wk = p4d_motion_warp(m, k, t0 + (int64_t)i);
        whole           = g[k].value == 1.0;
        warp += whole ? wk : g[k].value * wk;
      }
    }
    for (unsigned c = 0U; c < 2U; ++c) {
      u[c][i] = whole ? warp : g[0].value * u[c][i] + warp;
    }
  }
}

void
p4d_motion_wow_curves(P4dMotion* m, uint32_t n)
{
  double* const      u[2]  = { m->u[U_WOW][0], m->u[U_WOW][1] };
  const int64_t      wait  = m->settle - m->transport_zero;
  const uint32_t     from  = wait <= 0            ? 0U
                             : wait >= (int64_t)n ? n
                                                  : (uint32_t)wait;
  const float* const right = m->curve[ENGINE_T][CH_WOW];
  for (uint32_t i = 0U; i < from; ++i) {
    u[1][i] = 2.0 * right[i] - 1.0;
  }
  memcpy(u[1] + from, u[0] + from, (n - from) * sizeof(double));
  if (turning(m)) {
    mix_warps(m, u, n);
  }
}

double
p4d_motion_wow_now(const P4dMotion* m, double u, int64_t t)
{
  const P4dMotionGlide* const g = m->turn;
  if (g[0].value == 1.0) {
    return u;
  }
  double warp = 0.0;
  for (unsigned k = 1U; k < P4D_MOTION_N_TURNTABLES; ++k) {
    if (g[k].value != 0.0) {
      warp += g[k].value * p4d_motion_warp(m, k, t);
    }
  }
  return g[0].value * u + warp;
}
