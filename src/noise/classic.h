// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file classic.h
   Classic Perlin noise (Perlin 1985) in 1, 2 and 3 dimensions, seeded and
   aperiodic as the 4D core is: the second basis of the core.

   Each corner of a cell gets a random unit gradient vector (+-1 in 1D,
   uniform on the circle in 2D and on the sphere in 3D), drawn from the
   core's 64-bit cell hash (kernel.h) rather than a 256-entry permutation,
   so the lattice does not repeat below 2^50 cells on any axis and a seed
   selects the field.  The noise is the faded multilinear blend of the dot
   products gradient . (p - corner): exactly 0 at lattice points, not
   normalised (the 1985 output), with the bound and standard deviation of
   p4d_classic_bound() and p4d_classic_std() (derived in
   doc/noise-core.md, measured by classic-bench).

   One code path: plain C compiled once (no vector path, no dispatch), the
   same arithmetic in the same order on every ISA, so the same bits
   everywhere.  Every function is a pure function of its arguments: no
   allocation, no locks, no I/O; realtime safe and thread safe.
*/

#ifndef P4D_CLASSIC_H
#define P4D_CLASSIC_H

#include "noise.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The fade of the blend's weights.
typedef enum {
  P4D_CLASSIC_CUBIC   = 0, ///< 3t^2 - 2t^3, the 1985 s-curve (default)
  P4D_CLASSIC_QUINTIC = 1, ///< 6t^5 - 15t^4 + 10t^3 (2002): C2 at faces
} P4dClassicFade;

/// Number of fades.
#define P4D_CLASSIC_N_FADES 2U

/// Most dimensions of classic noise.
#define P4D_CLASSIC_MAX_DIMS 3U

/**
   Which classic noise: a small value type passed by const pointer.  dims
   outside 1..3 is taken as 3 and an unknown fade as cubic.
*/
typedef struct {
  unsigned       dims; ///< 1, 2 or 3 axes (x, y, z)
  P4dClassicFade fade; ///< The blend's fade
} P4dClassic;

/**
   Classic noise at one point, axis a periodic over period[a] cells.

   p holds basis->dims coordinates in lattice cells (beyond 2^50 cells, or
   not finite: 0, as p4d_noise4()).  The hash sees axis a's cell as its
   floored remainder modulo period[a], exactly as p4d_noise4_tile(), so
   the noise repeats bit for bit every period[a] cells and is as smooth
   across the seam as anywhere; a period of 0 (or above
   P4D_NOISE_PERIOD_MAX) leaves its axis aperiodic, and period may be NULL.

   @return The noise, within +-p4d_classic_bound() (up to float rounding),
   exactly 0 at integer lattice points.  Realtime safe.
*/
float
p4d_classic_tile(const P4dClassic* basis,
                 uint32_t          seed,
                 const double      p[],
                 const uint64_t    period[]);

/// Classic 1D noise at x, aperiodic: p4d_classic_tile() of 1 axis.
/// Realtime safe.
float
p4d_classic1(uint32_t seed, P4dClassicFade fade, double x);

/// Classic 2D noise at (x, y), aperiodic.  Realtime safe.
float
p4d_classic2(uint32_t seed, P4dClassicFade fade, double x, double y);

/// Classic 3D noise at (x, y, z), aperiodic.  Realtime safe.
float
p4d_classic3(uint32_t seed, P4dClassicFade fade, double x, double y, double z);

/**
   Classic noise at points first..first+n-1 of a line.

   out[i] is bit-identical to p4d_classic_tile() at origin[a] + (double)
   (first + i) * step[a] for a < basis->dims, so a line cut into spans
   anywhere gives the same values.  |first + n| must stay below 2^53;
   period as p4d_classic_tile() (NULL: aperiodic).  Realtime safe.
*/
void
p4d_classic_span_tile(const P4dClassic* basis,
                      uint32_t          seed,
                      const double      origin[],
                      const double      step[],
                      int64_t           first,
                      float*            out,
                      size_t            n,
                      const uint64_t    period[]);

/**
   Classic noise at any n points: out[i] is bit-identical to
   p4d_classic_tile(basis, seed, p[i], period) (the first basis->dims of
   each row).  For a domain warp.  Realtime safe.
*/
void
p4d_classic_points_tile(const P4dClassic* basis,
                        uint32_t          seed,
                        const double (*p)[P4D_CLASSIC_MAX_DIMS],
                        float*         out,
                        size_t         n,
                        const uint64_t period[]);

/**
   The standard deviation of basis's noise at a random point, derived:
   sqrt(E[T] E[S]^(dims - 1)) (doc/noise-core.md).  Cubic 0.24560,
   0.21168, 0.18244; quintic 0.24369, 0.21571, 0.19094 for 1, 2, 3 axes.
   Realtime safe.
*/
float
p4d_classic_std(const P4dClassic* basis);

/// The bound of |noise|: sqrt(dims) / 2 (0.5, 0.7071, 0.8660), at the
/// cell centre with every gradient pointing at it.  Realtime safe.
float
p4d_classic_bound(const P4dClassic* basis);

/**
   A Lipschitz bound per cell of Euclidean distance: |n(p + h) - n(p)| <=
   p4d_classic_lipschitz() |h| (up to float rounding).  Cubic 1.4143,
   1.80, 2.18; quintic 1.35, 2.07, 2.80 for 1, 2, 3 axes (the steepest
   slope over points, directions and gradients, doc/noise-core.md).
   Realtime safe.
*/
float
p4d_classic_lipschitz(const P4dClassic* basis);

/**
   The weighted sum of the octaves of fBm over classic noise at points
   first..first+n-1 of a line, not normalised.

   The octaves are the 4D fBm's (p4d_fbm4_sum_span()): octave k is basis's
   noise of seed p4d_fbm_octave()'s seed along that function's line for
   origin and step (the first basis->dims axes; whole-cell offsets), scaled
   by lacunarity^k and weighted by p4d_fbm_weights() for step (band limit
   included; octaves past it are not computed).  Spans join exactly.
   Realtime safe.
*/
void
p4d_classic_fbm_sum_span(const P4dFbm*     settings,
                         const P4dClassic* basis,
                         uint32_t          seed,
                         const double      origin[],
                         const double      step[],
                         int64_t           first,
                         float*            out,
                         size_t            n);

/**
   p4d_classic_fbm_sum_span() divided by the sum of the weights (0 where
   every octave is past the band limit): within +-p4d_classic_bound().
   Realtime safe.
*/
void
p4d_classic_fbm_span(const P4dFbm*     settings,
                     const P4dClassic* basis,
                     uint32_t          seed,
                     const double      origin[],
                     const double      step[],
                     int64_t           first,
                     float*            out,
                     size_t            n);

#ifdef __cplusplus
}
#endif

#endif // P4D_CLASSIC_H
