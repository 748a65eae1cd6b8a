// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file motion_dsp.h
   Motion's per-sample maths (src/motion/motion_audio.c; the glides also
   src/motion/motion.c): the filter's tan, the pan's sine, the exponential of the dB
   and octave laws, the delay line's 8-point Lagrange read and the controls'
   glides, written with +, -, * and / in a fixed order so that every machine
   gives the same bits (as smooth.h), and shorter than smooth.h's where audio
   needs no more.  Pure, thread safe and realtime safe.  Internal to Motion.
*/

#ifndef P4D_MOTION_DSP_H
#define P4D_MOTION_DSP_H

#include "smooth.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/// Interpolation points of the delay line's read.
#define P4D_MOTION_DSP_TAPS 8

/**
   The two sides of a stereo frame, left in lane 0 and right in lane 1 (GNU
   C vectors, which GCC and clang lower to what the target has: SSE2 on
   x86-64).  Each lane takes exactly the scalar operations in the scalar
   order (no contraction: -ffp-contract=off), so a pair gives the bits of
   two scalar evaluations at once.
*/
typedef double  P4dMotionPair __attribute__((vector_size(2 * sizeof(double))));
typedef int64_t P4dMotionMask __attribute__((vector_size(2 * sizeof(double))));

/// Both lanes a.
static inline P4dMotionPair
p4d_motion_pair(double a)
{
  const P4dMotionPair p = { a, a };
  return p;
}

/// x in the lanes where keep is set, 0 elsewhere.
static inline P4dMotionPair
p4d_motion_pair_keep(P4dMotionMask keep, P4dMotionPair x)
{
  return (P4dMotionPair)(keep & (P4dMotionMask)x);
}

/// |x| lane by lane.
static inline P4dMotionPair
p4d_motion_pair_abs(P4dMotionPair x)
{
  const P4dMotionMask magnitude = { INT64_MAX, INT64_MAX };
  return (P4dMotionPair)(magnitude & (P4dMotionMask)x);
}

/// tan(pi a / 2) for a in (0, 0.9]: Taylor series of sin and cos to x^13
/// and x^16 (relative error below 2e-10: a cutoff 2e-10 off), multiplications
/// and one division.
static inline double
p4d_motion_dsp_tan(double a)
{
  const double x  = a * 1.57079632679489661923;
  const double x2 = x * x;
  double       s  = 1.0 / 6227020800.0;
  s               = s * -x2 + 1.0 / 39916800.0;
  s               = s * -x2 + 1.0 / 362880.0;
  s               = s * -x2 + 1.0 / 5040.0;
  s               = s * -x2 + 1.0 / 120.0;
  s               = s * -x2 + 1.0 / 6.0;
  s               = s * -x2 + 1.0;
  double c        = 1.0 / 20922789888000.0;
  c               = c * -x2 + 1.0 / 87178291200.0;
  c               = c * -x2 + 1.0 / 479001600.0;
  c               = c * -x2 + 1.0 / 3628800.0;
  c               = c * -x2 + 1.0 / 40320.0;
  c               = c * -x2 + 1.0 / 720.0;
  c               = c * -x2 + 1.0 / 24.0;
  c               = c * -x2 + 0.5;
  c               = c * -x2 + 1.0;
  return x * s / c;
}

/// sin(pi a / 2) for a in [0, 1], lane by lane: Taylor series to x^13
/// with the reciprocals folded into constants (error below 7e-10, -180 dB:
/// a pan gain; p4d_smooth_quarter_sin divides 9 times).  Exactly 0 at a =
/// 0.
static inline P4dMotionPair
p4d_motion_dsp_sin(P4dMotionPair a)
{
  const P4dMotionPair x  = a * p4d_motion_pair(1.57079632679489661923);
  const P4dMotionPair x2 = x * x;
  const P4dMotionPair x4 = x2 * x2;
  // Estrin's scheme: short dependency chains, the terms in parallel.
  const P4dMotionPair s0 =
    p4d_motion_pair(1.0) - x2 * p4d_motion_pair(1.0 / 6.0);
  const P4dMotionPair s1 =
    p4d_motion_pair(1.0 / 120.0) - x2 * p4d_motion_pair(1.0 / 5040.0);
  const P4dMotionPair s2 =
    p4d_motion_pair(1.0 / 362880.0) - x2 * p4d_motion_pair(1.0 / 39916800.0);
  const P4dMotionPair p =
    s0 + x4 * (s1 + x4 * (s2 + x4 * p4d_motion_pair(1.0 / 6227020800.0)));
  return x * p;
}

/**
   e^x for x in [-40, 20] (the dB and octave laws' range): x = k ln 2 + r,
   |r| <= ln 2 / 2, e^r by its Taylor series to r^10 (relative error below
   2e-13, where p4d_smooth_exp's 13 terms reach 2e-16 for no audible gain),
   2^k through the exponent field.
*/
static inline double
p4d_motion_dsp_exp(double x)
{
  const double  y  = x * 1.44269504088896338700;
  const int64_t k  = (int64_t)(y < 0.0 ? y - 0.5 : y + 0.5);
  const double  kd = (double)k;
  const double  r =
    (x - kd * 6.93147180369123816490e-01) - kd * 1.90821492927058770002e-10;
  // Estrin's scheme: the pairs in parallel, not one chain of 10 steps.
  const double r2 = r * r;
  const double r4 = r2 * r2;
  const double a  = 1.0 + r;
  const double b  = 0.5 + r * (1.0 / 6.0);
  const double c  = 1.0 / 24.0 + r * (1.0 / 120.0);
  const double d  = 1.0 / 720.0 + r * (1.0 / 5040.0);
  const double e  = 1.0 / 40320.0 + r * (1.0 / 362880.0);
  const double p =
    (a + r2 * b) + r4 * ((c + r2 * d) + r4 * (e + r2 * (1.0 / 3628800.0)));
  const uint64_t bits  = (uint64_t)(k + 1023) << 52U;
  double         scale = 0.0;
  memcpy(&scale, &bits, sizeof(scale));
  return p * scale;
}

/// p4d_motion_dsp_exp() lane by lane: the same operations on both lanes.
static inline P4dMotionPair
p4d_motion_dsp_exp_pair(P4dMotionPair x)
{
  const P4dMotionPair y     = x * p4d_motion_pair(1.44269504088896338700);
  P4dMotionPair       kd    = p4d_motion_pair(0.0);
  P4dMotionPair       scale = p4d_motion_pair(0.0);
  for (unsigned c = 0U; c < 2U; ++c) {
    const int64_t  k    = (int64_t)(y[c] < 0.0 ? y[c] - 0.5 : y[c] + 0.5);
    const uint64_t bits = (uint64_t)(k + 1023) << 52U;
    double         s    = 0.0;
    memcpy(&s, &bits, sizeof(s));
    kd[c]    = (double)k;
    scale[c] = s;
  }
  const P4dMotionPair r =
    (x - kd * p4d_motion_pair(6.93147180369123816490e-01)) -
    kd * p4d_motion_pair(1.90821492927058770002e-10);
  const P4dMotionPair r2 = r * r;
  const P4dMotionPair r4 = r2 * r2;
  const P4dMotionPair a  = p4d_motion_pair(1.0) + r;
  const P4dMotionPair b = p4d_motion_pair(0.5) + r * p4d_motion_pair(1.0 / 6.0);
  const P4dMotionPair c =
    p4d_motion_pair(1.0 / 24.0) + r * p4d_motion_pair(1.0 / 120.0);
  const P4dMotionPair d =
    p4d_motion_pair(1.0 / 720.0) + r * p4d_motion_pair(1.0 / 5040.0);
  const P4dMotionPair e =
    p4d_motion_pair(1.0 / 40320.0) + r * p4d_motion_pair(1.0 / 362880.0);
  const P4dMotionPair p =
    (a + r2 * b) +
    r4 * ((c + r2 * d) + r4 * (e + r2 * p4d_motion_pair(1.0 / 3628800.0)));
  return p * scale;
}

/// The 8-point Lagrange weights of c_k = prod_{j != k} 1 / (k - j).
static const double p4d_motion_dsp_lagrange[P4D_MOTION_DSP_TAPS] = {
  -1.0 / 5040.0, 1.0 / 720.0, -1.0 / 240.0, 1.0 / 144.0,
  -1.0 / 144.0,  1.0 / 240.0, -1.0 / 720.0, 1.0 / 5040.0,
};

/**
   Read each side's line at absolute frame w minus its d frames (d >=
   P4D_MOTION_DSP_TAPS / 2, so floor(d) is the truncation): at a whole d
   the tap, else the 8-point Lagrange interpolation, lane by lane.  A line
   holds mask + 1 frames, then a copy of its first P4D_MOTION_DSP_TAPS, so
   that the points of a read lie in a row.
*/
static inline P4dMotionPair
p4d_motion_dsp_read(const float* const line[2],
                    uint32_t           mask,
                    int64_t            w,
                    P4dMotionPair      d)
{
  P4dMotionPair fr  = p4d_motion_pair(0.0);
  P4dMotionPair tap = p4d_motion_pair(0.0);
  const float*  points[2];
  for (unsigned c = 0U; c < 2U; ++c) {
    const int64_t di = (int64_t)d[c];
    fr[c]            = d[c] - (double)di;
    tap[c]           = line[c][(uint64_t)(w - di) & mask];
    points[c]        = line[c] + ((uint64_t)(w - di - 4) & mask);
  }
  if (fr[0] == 0.0 && fr[1] == 0.0) {
    return tap;
  }

  // Points at w - di - 4 .. w - di + 3; the wanted time is t = 4 - fr.
  const P4dMotionPair t = p4d_motion_pair(4.0) - fr;
  P4dMotionPair       pre[P4D_MOTION_DSP_TAPS];
  P4dMotionPair       acc = p4d_motion_pair(1.0);
  for (unsigned j = 0U; j < P4D_MOTION_DSP_TAPS; ++j) {
    pre[j] = acc;
    acc *= t - p4d_motion_pair((double)j);
  }
  P4dMotionPair y   = p4d_motion_pair(0.0);
  P4dMotionPair suf = p4d_motion_pair(1.0);
  for (unsigned j = P4D_MOTION_DSP_TAPS; j-- > 0U;) {
    const P4dMotionPair s = { points[0][j], points[1][j] };
    y += (pre[j] * suf * p4d_motion_pair(p4d_motion_dsp_lagrange[j])) * s;
    suf *= t - p4d_motion_pair((double)j);
  }
  for (unsigned c = 0U; c < 2U; ++c) {
    y[c] = fr[c] == 0.0 ? tap[c] : y[c];
  }
  return y;
}

/// A control gliding on a quintic ramp from where it was to its target.
typedef struct {
  double  value;
  double  from;
  double  target;
  int64_t pos; ///< Frames into the ramp; len when settled
} P4dMotionGlide;

/// Set g's target; restart its ramp from where it is.
static inline void
p4d_motion_glide_to(P4dMotionGlide* g, double target, int64_t len, bool at_once)
{
  if (at_once) {
    *g = (P4dMotionGlide){ target, target, target, len };
  } else if (target != g->target) {
    g->from   = g->value;
    g->target = target;
    g->pos    = 0;
  }
}

/// Advance g by one frame (inv_len = 1 / len); return whether it still
/// moves.
static inline bool
p4d_motion_glide_step(P4dMotionGlide* g, int64_t len, double inv_len)
{
  if (g->pos < len) {
    ++g->pos;
    g->value = g->pos == len
                 ? g->target
                 : g->from + (g->target - g->from) *
                               p4d_smooth_quintic((double)g->pos * inv_len);
  }
  return g->pos < len;
}

/// Whether g is still on its ramp.
static inline bool
p4d_motion_glide_moving(const P4dMotionGlide* g, int64_t len)
{
  return g->pos < len;
}

#endif // P4D_MOTION_DSP_H
