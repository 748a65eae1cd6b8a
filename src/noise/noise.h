// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file noise.h
   The perlin4d noise core: seeded, aperiodic 4D improved Perlin noise and
   fractal Brownian motion (fBm) over it.

   The fourth coordinate (w) is time.  Coordinates are doubles so that the
   noise stays smooth at any song position; everything after the split of a
   coordinate into its integer cell and its fraction is single precision.

   Every noise function here is a pure function of its arguments: no
   allocation, no locks, no I/O.  All of them are realtime safe and thread
   safe.  The same inputs give the same bits on every build and every code
   path (src/arch/isa.h); the span the lines run on is the only global
   state.
*/

#ifndef P4D_NOISE_H
#define P4D_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
   Largest magnitude of a coordinate, in lattice cells (2^50).

   A coordinate that is larger, or not finite, is taken as 0.  Cells are
   hashed as 64-bit integers, so the lattice does not repeat below this.

   Why 2^50 is enough.  With the band limit (see P4dFbm) no computed octave
   moves faster than the lower of 20 kHz and the Nyquist frequency, that is
   20000 cells per second at any sample rate.  In 10,000 hours (3.6e7 s) an
   octave therefore travels at most 7.2e11 cells (2^39.4), 1/1560 of the
   limit, plus a few cells of static position.  There a double resolves
   2^-13 cells, and a sample at 20000 cells/s is 0.104 cells at 192 kHz
   (850 such steps) or 0.026 cells at 768 kHz (213).  For any octave the
   coordinate over the step per sample is the song time in samples, so at
   768 kHz after 10,000 hours (2^44.6 samples) a step still spans 2^7.4
   double spacings: sub-sample positions stay exact to better than 1 %.
   The vector paths split coordinates exactly up to 2^51.
*/
#define P4D_NOISE_COORD_MAX 1125899906842624.0

/**
   Lipschitz bound of p4d_noise4() per lattice cell of Euclidean distance.

   |p4d_noise4(p + h) - p4d_noise4(p)| <= P4D_NOISE_LIPSCHITZ * |h| for every
   p and h, up to float rounding (about 10^-5 next to a lattice point, where
   the normalisation amplifies the blend's rounding most).  The steepest
   slope is at lattice points, where the variance normalisation's floor
   sets it: gain / sqrt(floor) times the longest gradient,
   (1/4) * 32 * sqrt(3) = 13.856, rounded up; see noise.c.
*/
#define P4D_NOISE_LIPSCHITZ 13.86

/**
   Standard deviation of p4d_noise4() at a random point, for the engines
   that normalise a sum of octaves: 0.25 sqrt(0.75 * 0.99103) (see noise.c),
   measured 0.21554 over 10^9 points.  Thanks to the variance
   normalisation it is also the level along almost any line (within 0.5 dB
   on lines at least 0.05 cells off the lattice on every axis).
*/
#define P4D_NOISE_STD 0.2155f

/// Most octaves fBm sums.
#define P4D_FBM_MAX_OCTAVES 16

/**
   Improved Perlin noise in 4D at one point.

   @param seed Selects the lattice hash.  Every seed works; different seeds
   give uncorrelated fields.
   @param x,y,z,w Coordinates in lattice cells.  w is time by convention.
   @return The noise value, always within [-1, 1] (standard deviation
   P4D_NOISE_STD at almost every point, see noise.c) and exactly 0 at
   integer lattice points.  Realtime safe.
*/
float
p4d_noise4(uint32_t seed, double x, double y, double z, double w);

/// Longest period of a periodic time axis, in cells (2^50): a longer one
/// is taken as 0 (aperiodic; the lattice does not repeat below 2^50 anyway).
#define P4D_NOISE_PERIOD_MAX 1125899906842624U

/**
   p4d_noise4() with a periodic time axis: w repeats every w_period cells.

   The hash sees w's cell as its floored remainder modulo w_period (in
   [0, w_period) also for negative w), so p4d_noise4_loop(..., w, P) and
   p4d_noise4_loop(..., w + k P, P) are the same bits for every whole k
   whenever w and w + k P have the same fraction of a cell (they do when
   both are exact doubles), and the noise is as smooth across w = k P as
   anywhere.  w_period 0 (or above P4D_NOISE_PERIOD_MAX) is p4d_noise4()
   exactly.  Realtime safe.
*/
float
p4d_noise4_loop(uint32_t seed,
                double   x,
                double   y,
                double   z,
                double   w,
                uint64_t w_period);

/**
   Improved Perlin noise at points first..first+n-1 of a line.

   out[i] is bit-identical to p4d_noise4(seed, origin[k] + (double)(first +
   i) * step[k] for k = 0..3).  A line cut into spans at any points gives the
   same values as one call over the whole line, which is what makes the
   engines independent of block size.  |first + n| must stay below 2^53.
   Realtime safe.
*/
void
p4d_noise4_span(uint32_t     seed,
                const double origin[4],
                const double step[4],
                int64_t      first,
                float*       out,
                size_t       n);

/**
   p4d_noise4_span() with w periodic over w_period cells, as
   p4d_noise4_loop() (out[i] is bit-identical to it at the line's point i);
   w_period 0 is p4d_noise4_span() exactly.  Realtime safe.
*/
void
p4d_noise4_span_loop(uint32_t     seed,
                     const double origin[4],
                     const double step[4],
                     int64_t      first,
                     float*       out,
                     size_t       n,
                     uint64_t     w_period);

/**
   p4d_noise4_loop() with any axis periodic: a tile of the lattice.

   Axis a repeats every period[a] cells: the hash sees the axis's cell as
   its floored remainder modulo period[a] (in [0, period[a]) also for
   negative coordinates), exactly as p4d_noise4_loop() wraps w, so the
   noise at p and at p + k period[a] on axis a are the same bits for every
   whole k whenever both coordinates have the same fraction of a cell, and
   it is as smooth across a multiple of the period as anywhere.  A period
   of 0 (or above P4D_NOISE_PERIOD_MAX) leaves its axis aperiodic; period
   may be NULL (p4d_noise4() exactly).  Realtime safe.
*/
float
p4d_noise4_tile(uint32_t       seed,
                double         x,
                double         y,
                double         z,
                double         w,
                const uint64_t period[4]);

/**
   p4d_noise4_span() on the tiled lattice of period (as p4d_noise4_tile():
   out[i] is bit-identical to it at the line's point i).  Periods {0, 0, 0,
   P} are p4d_noise4_span_loop() with P exactly.  Realtime safe.
*/
void
p4d_noise4_span_tile(uint32_t       seed,
                     const double   origin[4],
                     const double   step[4],
                     int64_t        first,
                     float*         out,
                     size_t         n,
                     const uint64_t period[4]);

/**
   Noise at any n points: out[i] is bit-identical to p4d_noise4_tile(seed,
   p[i][0], p[i][1], p[i][2], p[i][3], period).  For fields whose every
   point moves on its own (a domain warp).  Realtime safe.
*/
void
p4d_noise4_points_tile(uint32_t seed,
                       const double (*p)[4],
                       float*         out,
                       size_t         n,
                       const uint64_t period[4]);

/**
   fBm settings: a small value type passed by const pointer.

   Octave k is scaled in space and time by lacunarity^k, weighted by
   persistence^k, and has its own seed and offset so that octaves are
   uncorrelated.  A fractional octave count weights the last octave by the
   fraction, so octaves can be automated without a jump.

   Band limit.  Along a line, octave k moves lacunarity^k times as fast as
   the line's step; noise that crosses v cells per point has its energy
   below about v cycles per point.  An octave whose speed reaches
   band_limit (in cells per point) is silent and not computed; from half of
   it the octave fades out on a quintic ramp, so that a sweep of speed,
   lacunarity or band_limit moves every weight smoothly.  An engine sets
   band_limit to the lower of 20 kHz and the Nyquist frequency, in cells
   per frame, so that no octave folds back and a session sounds the same at
   every sample rate.

   Loops.  The _loop functions take a w period P (whole cells): the time
   axis of octave 0 repeats every P cells, and octave k's every P_k cells,
   P_k the nearest whole number (at least 1) to P lacunarity^k: octave k is
   then scaled by P_k / P instead of lacunarity^k (on every axis, so the
   band limit sees the speed it plays at), and its noise is
   p4d_noise4_span_loop() with period P_k.  A line that crosses P cells of
   w per loop therefore repeats in every octave.  A period is rounded to a
   whole number; one below 0.5 or above P4D_NOISE_PERIOD_MAX (or NaN) is 0,
   no loop: exactly the functions without _loop.

   Every function that takes settings clamps each field into its range
   first; NaN and infinities map to the default (3 octaves, lacunarity 2,
   persistence 0.5, no band limit).
*/
typedef struct {
  float  octaves;     ///< Octaves summed, 1 .. P4D_FBM_MAX_OCTAVES, fractional
  double lacunarity;  ///< Frequency ratio between octaves, 1 .. 16
  float  persistence; ///< Amplitude ratio between octaves (gain), 0 .. 1
  double band_limit;  ///< Cells per point where an octave falls silent; 0: none
} P4dFbm;

/**
   The weights of the octaves of settings (clamped first) along a line with
   step per point, in order.

   Octave k weighs persistence^k, the last one times the fraction of a
   fractional octave count, times its band-limit fade (see P4dFbm) for the
   line's speed |step| * lacunarity^k.  step may be NULL: no band limit.
   Realtime safe.

   @return The number of octaves with a weight, at most P4D_FBM_MAX_OCTAVES;
   octaves past the band limit are not counted (0 if even the first is).
*/
unsigned
p4d_fbm_weights(const P4dFbm* settings,
                const double  step[4],
                float         weight[P4D_FBM_MAX_OCTAVES]);

/**
   The scale of the fBm octave whose lacunarity power is lac_pow, in a loop
   of w_period cells of w in octave 0: lac_pow itself without a loop
   (w_period 0), else the octave's whole cells per loop over w_period (see
   P4dFbm).  Realtime safe.
*/
double
p4d_fbm_octave_scale(double w_period, double lac_pow);

/// p4d_fbm_weights() of a loop of w_period cells of w in octave 0 (see
/// P4dFbm: octaves scaled to whole cells per loop).  Realtime safe.
unsigned
p4d_fbm_weights_loop(const P4dFbm* settings,
                     double        w_period,
                     const double  step[4],
                     float         weight[P4D_FBM_MAX_OCTAVES]);

/**
   The line of fBm octave k and its seed, exactly as p4d_fbm4_sum_span()
   places it (before adding its position).

   octave_origin is origin * scale plus octave k's offset (whole cells in
   x, y, z; a fraction in w), octave_step is step * scale; scale is the
   octave's scale: lacunarity^k, or p4d_fbm_octave_scale() in a loop.  An
   engine that sums octaves in its own way (ridged, billow, ...) places
   them here to stay on the Mod's lattice.  Realtime safe.

   @return The octave's seed.
*/
uint32_t
p4d_fbm_octave(uint32_t     seed,
               unsigned     k,
               double       scale,
               const double origin[4],
               const double step[4],
               double       octave_origin[4],
               double       octave_step[4]);

/**
   Whole cells per period of the fBm octave whose lacunarity power is
   lac_pow, for a period of `period` cells in octave 0: round(period
   lac_pow), at least 1 and at most 2^50, as p4d_fbm4_sum_span_loop()
   snaps a loop's octaves (see P4dFbm).  period is rounded to a whole
   number first; 0 (below 0.5, above 2^50 or NaN) is no period: 0.
   Realtime safe.
*/
double
p4d_fbm_octave_period(double period, double lac_pow);

/**
   The weighted sum of the octaves of fBm at points first..first+n-1 of a
   line, not normalised.

   Octave k is p4d_noise4_span() of seed_k along the line (origin *
   lacunarity^k + offset_k + position, step * lacunarity^k), weighted as
   p4d_fbm_weights() says for step: octaves scale the motion along the line but
   not position, a static point added to every octave (the engines place their
   channels there).  position may be NULL (the origin).  Spans join exactly
   as in p4d_noise4_span().  Realtime safe.
*/
void
p4d_fbm4_sum_span(const P4dFbm* settings,
                  uint32_t      seed,
                  const double  origin[4],
                  const double  step[4],
                  const double  position[4],
                  int64_t       first,
                  float*        out,
                  size_t        n);

/**
   p4d_fbm4_sum_span() in a loop of w_period cells of w in octave 0 (see
   P4dFbm): every octave's time axis is periodic, with whole cells per
   loop, and weighted as p4d_fbm_weights_loop() says.  w_period 0 is
   p4d_fbm4_sum_span() exactly.  Realtime safe.
*/
void
p4d_fbm4_sum_span_loop(const P4dFbm* settings,
                       double        w_period,
                       uint32_t      seed,
                       const double  origin[4],
                       const double  step[4],
                       const double  position[4],
                       int64_t       first,
                       float*        out,
                       size_t        n);

/**
   fBm at points first..first+n-1 of a line, normalised into [-1, 1].

   p4d_fbm4_sum_span() with no position, divided by the sum of the weights
   and clamped (0 where every octave is past the band limit).  Realtime
   safe.
*/
void
p4d_fbm4_span(const P4dFbm* settings,
              uint32_t      seed,
              const double  origin[4],
              const double  step[4],
              int64_t       first,
              float*        out,
              size_t        n);

#ifdef __cplusplus
}
#endif

#endif // P4D_NOISE_H
