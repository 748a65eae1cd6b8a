// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file motion_filter.h
   Inside Motion's audio path: the staggered state-variable filters on
   their grid of song frames, their cutoff knots and their mode weights
   with the level law (the laws and the bounded past are explained at the
   top of motion_audio.c, the only file that includes this one: static
   inline, so that the per-frame steps stay inlined in its loops).  Not
   part of Motion's API.
*/

#ifndef P4D_MOTION_FILTER_H
#define P4D_MOTION_FILTER_H

#include "motion_private.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define P4D_LN2 0.69314718055994530942

/// Lowest and highest filter cutoff (the latter times the sample rate).
#define P4D_MOTION_MIN_CUTOFF_HZ 20.0
#define P4D_MOTION_MAX_CUTOFF 0.45

/// Damping k = 2 - P4D_MOTION_RES_RANGE resonance: 2 (Q 0.5) to 0.1 (Q 10).
#define P4D_MOTION_RES_RANGE 1.9

/// Frames between the filter coefficient's knots (a power of 2).
#define P4D_MOTION_KNOT 16U

/// A state variable that has decayed this far is rest, lane by lane.
static inline P4dMotionPair
flush_pair(P4dMotionPair x)
{
  const P4dMotionMask rest = p4d_motion_pair_abs(x) < p4d_motion_pair(1.0e-30);
  return p4d_motion_pair_keep(~rest, x);
}

/// Filter one frame x of both sides through the filters svf with g =
/// tan(pi fc / fs) per side, damping k, the mode weights w (dry, low, band,
/// high) and filter `use`.
static inline P4dMotionPair
filter_step(Svf           svf[P4D_MOTION_FILTERS],
            P4dMotionPair x,
            P4dMotionPair g,
            double        k,
            const double  w[4],
            unsigned      use)
{
  const P4dMotionPair one = p4d_motion_pair(1.0);
  const P4dMotionPair two = p4d_motion_pair(2.0);
  const P4dMotionPair kk  = p4d_motion_pair(k);
  const P4dMotionPair a1  = one / (one + g * (g + kk));
  const P4dMotionPair a2  = g * a1;
  const P4dMotionPair a3  = g * a2;
  P4dMotionPair       lp  = p4d_motion_pair(0.0);
  P4dMotionPair       bp  = p4d_motion_pair(0.0);
  for (unsigned j = 0U; j < P4D_MOTION_FILTERS; ++j) {
    Svf* const          f  = &svf[j];
    const P4dMotionPair v3 = x - f->ic2;
    const P4dMotionPair v1 = a1 * f->ic1 + a2 * v3;
    const P4dMotionPair v2 = f->ic2 + a2 * f->ic1 + a3 * v3;
    f->ic1                 = flush_pair(two * v1 - f->ic1);
    f->ic2                 = flush_pair(two * v2 - f->ic2);
    if (j == use) {
      lp = v2;
      bp = v1;
    }
  }
  const P4dMotionPair hp = x - kk * bp - lp;
  return p4d_motion_pair(w[0]) * x + p4d_motion_pair(w[1]) * lp +
         p4d_motion_pair(w[2]) * (kk * bp) + p4d_motion_pair(w[3]) * hp;
}

/**
   The mode weights (dry, low, band, high) of damping k, the low and high
   pass held to unity at their peak: times min(1, k) (see Laws).
*/
static inline void
mode_weights(const P4dMotionGlide g[G_COUNT], double k, double w[4])
{
  const double hold = k < 1.0 ? k : 1.0;
  w[0]              = g[G_DRY].value;
  w[1]              = g[G_LOW].value * hold;
  w[2]              = g[G_BAND].value;
  w[3]              = g[G_HIGH].value * hold;
}

/// One side's cutoff from its curve.
static inline double
cutoff_of(const P4dMotion* m, double u)
{
  const P4dMotionGlide* const g  = m->glide;
  double                      fc = g[G_CUTOFF].value;
  if (g[G_OCT].value != 0.0) {
    fc *= p4d_exact_exp_short(g[G_OCT].value * u * P4D_LN2);
  }
  const double top = P4D_MOTION_MAX_CUTOFF * m->sample_rate_hz;
  fc = fc < P4D_MOTION_MIN_CUTOFF_HZ ? P4D_MOTION_MIN_CUTOFF_HZ : fc;
  return fc > top ? top : fc;
}

/// Whether the mode asks for the filters (not dry alone).
static inline bool
filter_on(const P4dMotionGlide g[G_COUNT])
{
  return !(g[G_DRY].value == 1.0 && g[G_LOW].value == 0.0 &&
           g[G_BAND].value == 0.0 && g[G_HIGH].value == 0.0);
}

/// Where a frame is on the filter grid: the filter that restarts next,
/// frames since the last restart, and the filter in use (the oldest).
typedef struct {
  unsigned next;
  int64_t  since;
  unsigned use;
} GridPlace;

/// The grid's place at absolute frame w (the grid moves only between
/// calls, so a chunk counts on from there).
static inline GridPlace
grid_place(const P4dMotion* m, int64_t w)
{
  const int64_t q     = m->filter_q;
  const int64_t cycle = P4D_MOTION_FILTERS * q;
  const int64_t ph0   = (((w + m->grid) % cycle) + cycle) % cycle;
  return (GridPlace){ (unsigned)(ph0 / q), ph0 % q, 0U };
}

/// Step p to the next frame on the grid.
static inline void
grid_step(const P4dMotion* m, GridPlace* p)
{
  if (++p->since == m->filter_q) {
    p->since = 0;
    p->next  = p->next + 1U == P4D_MOTION_FILTERS ? 0U : p->next + 1U;
  }
}

/// The oldest of the filters of ages age (the first of equals).
static inline unsigned
oldest(const int64_t age[P4D_MOTION_FILTERS])
{
  unsigned use = 0U;
  for (unsigned j = 1U; j < P4D_MOTION_FILTERS; ++j) {
    use = age[j] > age[use] ? j : use;
  }
  return use;
}

/// The filters' rest: what they hold while off, so that their state is a
/// function of the bounded past when they start again.
static inline void
filters_rest(P4dMotion* m)
{
  if (!m->filters_rest) {
    memset(m->svf, 0, sizeof(m->svf));
    memset(m->age, 0, sizeof(m->age));
  }
  m->filters_rest = true;
  m->knots_fresh  = true;
}

/// g = tan(pi fc / fs) of frame i's cutoff curves, per side.
static inline P4dMotionPair
knot_at(const P4dMotion* m, uint32_t i)
{
  P4dMotionPair at = p4d_motion_pair(0.0);
  for (unsigned c = 0U; c < 2U; ++c) {
    at[c] = p4d_exact_quarter_tan(2.0 * cutoff_of(m, m->u[U_CUT][c][i]) /
                                  m->sample_rate_hz);
  }
  return at;
}

/**
   Frame y (both sides, the chunk's frame i, absolute frame w) through the
   staggered filters at grid place p: restart a filter on the grid, pick
   the oldest, move the knots of g, step every filter.  The filters rest
   while the mode is dry.
*/
static inline P4dMotionPair
filter_frame(P4dMotion* m, GridPlace* p, uint32_t i, int64_t w, P4dMotionPair y)
{
  const P4dMotionGlide* const g  = m->glide;
  const bool                  on = filter_on(g);
  if (!on) {
    filters_rest(m);
    p->use = 0U;
    return y;
  }
  m->filters_rest     = false;
  const uint64_t kph  = (uint64_t)(w + m->grid) & (P4D_MOTION_KNOT - 1U);
  const double   frac = (double)kph * (1.0 / P4D_MOTION_KNOT);
  if (p->since == 0) {
    m->svf[p->next] = (Svf){ p4d_motion_pair(0.0), p4d_motion_pair(0.0) };
    m->age[p->next] = 0;
  }
  // The filters age together: only a restart changes the oldest.
  if (p->since == 0 || i == 0U) {
    p->use = oldest(m->age);
  }
  P4dMotionPair* const kg = m->knot_g;
  if (kph == 0U || m->knots_fresh) {
    const P4dMotionPair at = knot_at(m, i);
    kg[0]                  = m->knots_fresh ? at : kg[1];
    kg[1]                  = at;
  }
  const P4dMotionPair gk    = kg[0] + (kg[1] - kg[0]) * p4d_motion_pair(frac);
  const double        kdamp = 2.0 - P4D_MOTION_RES_RANGE * g[G_RES].value;
  double              wmode[4];
  mode_weights(g, kdamp, wmode);
  y = filter_step(m->svf, y, gk, kdamp, wmode, p->use);
  for (unsigned j = 0U; j < P4D_MOTION_FILTERS; ++j) {
    ++m->age[j];
  }
  m->knots_fresh = false;
  return y;
}

/**
   The chunk's n frames x through the staggered filters into m->wet, with
   every control steady (filter_frame()'s steps, the state held in locals).
*/
static void
filter_steady(P4dMotion* m, const double* const x[2], uint32_t n)
{
  const P4dMotionGlide* const g = m->glide;
  if (!filter_on(g)) {
    filters_rest(m);
    memcpy(m->wet[0], x[0], n * sizeof(double));
    memcpy(m->wet[1], x[1], n * sizeof(double));
    return;
  }
  m->filters_rest    = false;
  const double kdamp = 2.0 - P4D_MOTION_RES_RANGE * g[G_RES].value;
  double       wmode[4];
  mode_weights(g, kdamp, wmode);
  const int64_t t0 = m->idx + m->grid;
  Svf           svf[P4D_MOTION_FILTERS];
  int64_t       age[P4D_MOTION_FILTERS];
  memcpy(svf, m->svf, sizeof(svf));
  memcpy(age, m->age, sizeof(age));
  P4dMotionPair kg[2] = { m->knot_g[0], m->knot_g[1] };
  bool          fresh = m->knots_fresh;
  GridPlace     p     = grid_place(m, m->idx);
  unsigned      use   = oldest(age);
  for (uint32_t i = 0U; i < n; ++i, grid_step(m, &p)) {
    if (p.since == 0) {
      svf[p.next] = (Svf){ p4d_motion_pair(0.0), p4d_motion_pair(0.0) };
      age[p.next] = 0;
      use         = oldest(age);
    }
    const uint64_t kph = (uint64_t)(t0 + (int64_t)i) & (P4D_MOTION_KNOT - 1U);
    if (kph == 0U || fresh) {
      const P4dMotionPair at = knot_at(m, i);
      kg[0]                  = fresh ? at : kg[1];
      kg[1]                  = at;
      fresh                  = false;
    }
    const double        frac = (double)kph * (1.0 / P4D_MOTION_KNOT);
    const P4dMotionPair gk   = kg[0] + (kg[1] - kg[0]) * p4d_motion_pair(frac);
    const P4dMotionPair xi   = { x[0][i], x[1][i] };
    const P4dMotionPair y    = filter_step(svf, xi, gk, kdamp, wmode, use);
    m->wet[0][i]             = y[0];
    m->wet[1][i]             = y[1];
    for (unsigned j = 0U; j < P4D_MOTION_FILTERS; ++j) {
      ++age[j];
    }
  }
  memcpy(m->svf, svf, sizeof(svf));
  memcpy(m->age, age, sizeof(age));
  m->knot_g[0]   = kg[0];
  m->knot_g[1]   = kg[1];
  m->knots_fresh = fresh;
}

#endif // P4D_MOTION_FILTER_H
