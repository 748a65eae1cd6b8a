// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file motion_private.h
   Inside Motion, shared by motion.c (the engines that make the curves, the
   controls, the song clock) and motion_audio.c (the audio path: the delay
   line, the staggered filters on their grid, gain, pan, the mix): the
   processor's state, a stereo frame as a pair of lanes, the delay line's
   read (its scalar definition) and the controls' glides.  The per-sample maths
   are exact_math.h's short set.  Not part of Motion's API.
*/

#ifndef P4D_MOTION_PRIVATE_H
#define P4D_MOTION_PRIVATE_H

#include "clock.h"
#include "engine.h"
#include "exact_math.h"
#include "motion.h"
#include "motion_kernel.h"
#include "ramp.h"

#include <stdbool.h>
#include <stdint.h>

/// Frames per pass of the modulation engines into the curve buffers.
#define P4D_MOTION_CHUNK 256U

/// Most frames the delay moves a frame (motion_audio.c, slew_limit()):
/// the read's speed stays within 0.5 to 1.5.
#define P4D_MOTION_SLEW 0.5

/// Staggered filters per channel (see motion_audio.c, Bounded past).
#define P4D_MOTION_FILTERS 3

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

/**
   Read line at absolute frame w minus d frames (d >= P4D_MOTION_MARGIN,
   so floor(d) is the truncation) through kernel (motion_kernel.h's
   table): the weights of the phase below d's fraction plus a times their
   steps, a the rest of the fraction in phases, times the points w -
   floor(d) - TAPS / 2 .. w - floor(d) + TAPS / 2 - 1, summed into
   P4D_MOTION_SUMS partial sums (sum j: points j, j + SUMS, ... in order)
   added in a fixed tree.  The definition that motion_template.h's
   vectors repeat; at a whole d, the tap.  A line holds mask + 1 frames,
   then a copy of its first P4D_MOTION_TAPS, so that the points of a read
   lie in a row.  Realtime safe.
*/
static inline double
p4d_motion_read_one(const double* line,
                    const double* kernel,
                    uint32_t      mask,
                    int64_t       w,
                    double        d)
{
  const int64_t       di  = (int64_t)d;
  const double        t   = (d - (double)di) * (double)P4D_MOTION_PHASES;
  const int64_t       p   = (int64_t)t;
  const double        a   = t - (double)p;
  const double* const row = kernel + (size_t)p * P4D_MOTION_ROW;
  const double* const x =
    line + ((uint64_t)(w - di - (int64_t)P4D_MOTION_MARGIN) & mask);
  double s[P4D_MOTION_SUMS] = { 0.0 };
  for (unsigned k = 0U; k < P4D_MOTION_TAPS; ++k) {
    const double c = row[k] + a * row[P4D_MOTION_TAPS + k];
    s[k % P4D_MOTION_SUMS] += c * x[k];
  }
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
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
                               p4d_ramp_quintic((double)g->pos * inv_len);
  }
  return g->pos < len;
}

/// Whether g is still on its ramp.
static inline bool
p4d_motion_glide_moving(const P4dMotionGlide* g, int64_t len)
{
  return g->pos < len;
}

/// The glided controls.
enum {
  G_GAIN_DB,
  G_PAN,
  G_WIDTH,
  G_CUTOFF,
  G_OCT,
  G_RES,
  G_WOW,
  G_FLUTTER,
  G_MIX,
  G_OUT_DB,
  G_ENABLED,
  G_DRY, ///< Filter mode weights: dry, low, band, high
  G_LOW,
  G_BAND,
  G_HIGH,
  G_COUNT
};

/// Trapezoidal state-variable filter state, both sides as lanes.
typedef struct {
  P4dMotionPair ic1;
  P4dMotionPair ic2;
} Svf;

/// The engines: left, right, flutter, and the transport's right side
/// (motion.c).
enum { ENGINE_L, ENGINE_R, ENGINE_F, ENGINE_T, N_ENGINES };

/// The Mod channel of each target (L, R and T; F's are the sides).
enum { CH_GAIN, CH_PAN, CH_FILTER, CH_WOW };

/// The curves of a chunk as u = 2 c - 1, per target (the pan's left side
/// only; the flutter's sides are F's channels 1 and 2).
enum { U_GAIN, U_PAN, U_CUT, U_WOW, U_FLUTTER, U_COUNT };

struct P4dMotionImpl {
  double        sample_rate_hz;
  double        frames_per_ms;
  uint32_t      d0;            ///< Base delay: the latency
  int64_t       reach;         ///< Frames of input the delay line reads back
  int64_t       glide_len;     ///< Frames of a control glide
  double        inv_glide_len; ///< 1 / glide_len
  int64_t       filter_q;      ///< Q: the filters restart Q apart
  int64_t       settle;       ///< Frames R must sit at spread 0 before the copy
  uint32_t      mask;         ///< Delay line length - 1
  double*       line[2];      ///< Delay lines, then a copy of their first taps
  double*       kernel;       ///< The read's table (motion_kernel.h)
  double        slew[2][2];   ///< Per stage and side: the limited delay
  int64_t       slew_settle;  ///< Frames the limiter needs to forget
  int64_t       idx;          ///< Frames processed since activation (+ start)
  int64_t       grid;         ///< Grid time = idx + grid
  int64_t       spread_zero;  ///< Frames spread has been 0
  bool          fresh;        ///< Next process sets the controls at once
  bool          audio_dirty;  ///< The audio state needs clearing
  bool          filters_rest; ///< The filters are off and at rest
  bool          knots_fresh;  ///< The next frame restarts knot_g
  P4dMotionPair knot_g[2];    ///< g at the knot before last, and last
  double        out_db;       ///< The output gain's dB, as last computed
  double        out_gain;     ///< Its gain
  unsigned neutral[N_ENGINES]; ///< Per engine: channels whose curves read 0.5
  P4dClock clock;              ///< The song clock the filter grid follows
  P4dMotionGlide glide[G_COUNT];
  Svf            svf[P4D_MOTION_FILTERS];
  int64_t    age[P4D_MOTION_FILTERS]; ///< Frames since each filter restarted
  P4dEngine* engine[N_ENGINES];
  float      curve[N_ENGINES][P4D_MAX_CHANNELS][P4D_MOTION_CHUNK];
  float      x[2][P4D_MOTION_CHUNK];          ///< Sanitised input of a chunk
  double     u[U_COUNT][2][P4D_MOTION_CHUNK]; ///< Per target and side: 2 c - 1
  double     dry[2][P4D_MOTION_CHUNK];        ///< Per side: the tap at D0
  double     wet[2][P4D_MOTION_CHUNK];        ///< Per side: the wet path
  double     delay[2][P4D_MOTION_CHUNK];      ///< Per side: the read's delay
  double     read[2][P4D_MOTION_CHUNK];       ///< Per side: the delay line read
  double     gain_x[2][P4D_MOTION_CHUNK];     ///< Per side: the gain's exponent
  double     gain[2][P4D_MOTION_CHUNK];       ///< Per side: the gain
  double     pan_a[2][P4D_MOTION_CHUNK];      ///< Per side: the pan's angle
  double     pan[2][P4D_MOTION_CHUNK];        ///< Per side: its sine
  /// Frames transport_spread has been 0 (as spread_zero)
  int64_t transport_zero;
  /// The turntable's weights (off, 33 1/3, 45, 78 rpm) on their own,
  /// longer glide (motion_warp.c), its length and 1 / it
  P4dMotionGlide turn[P4D_MOTION_N_TURNTABLES];
  int64_t        turn_len;
  double         inv_turn_len;
};

/// Advance every glide by one frame; return whether any still moves.
static inline bool
p4d_motion_glides_step(P4dMotion* m)
{
  bool moving = false;
  for (unsigned k = 0U; k < G_COUNT; ++k) {
    moving |=
      p4d_motion_glide_step(&m->glide[k], m->glide_len, m->inv_glide_len);
  }
  return moving;
}

/**
   The wow curve of the chunk's n frames, per side, into m->u[U_WOW]: the
   Mod's (the left side's, and the transport engine T's or a copy of the
   left on the right) cross-faded with the turntable's warp by the
   turntable weights (motion_warp.c).  Realtime safe.
*/
void
p4d_motion_wow_curves(P4dMotion* m, uint32_t n);

/// The turntable's warp at grid frame t (song frame), in [-1, 1], of
/// turntable speed turn (P4dMotionTurntable, not off).  Realtime safe.
double
p4d_motion_warp(const P4dMotion* m, unsigned turn, int64_t t);

/// Advance the turntable's weights by n frames.  Realtime safe.
void
p4d_motion_turn_step(P4dMotion* m, uint32_t n);

/// The left wow u at grid frame t as heard: cross-faded with the warps by
/// the turntable weights where they stand.  Realtime safe.
double
p4d_motion_wow_now(const P4dMotion* m, double u, int64_t t);

/// Clear the delay lines and the filters.  Realtime safe.
void
p4d_motion_audio_clear(P4dMotion* m);

/**
   Process frames done to done + n (n <= P4D_MOTION_CHUNK) of in into out,
   from the curves the engines left in m->curve, and set now (if not NULL)
   to the displayed values of the last frame.  in may alias out.  Realtime
   safe.
*/
void
p4d_motion_audio_chunk(P4dMotion*         m,
                       const float* const in[2],
                       float* const       out[2],
                       uint32_t           done,
                       uint32_t           n,
                       float              now[P4D_MOTION_N_NOW]);

#endif // P4D_MOTION_PRIVATE_H
