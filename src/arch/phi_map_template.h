// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The template of the Mod's output map (phi_map.h's p4d_phi_map()):
  written once for P4D_W / 2 frames per vector of doubles, instantiated
  once per instruction set.  A path defines the contract below, then
  includes this file, which defines phi_map() for its table.

  The contract.  Before including this file, a path defines P4D_W (float
  lanes; the doubles are half as many), the type

    VD   P4D_W / 2 doubles

  and these static inline functions, lane by lane, with the scalar
  rounding (nothing fused):

    VD   vd_set1(double a)                      every lane a
    VD   vd_add(VD a, VD b), vd_sub, vd_mul     a + b, a - b, a * b
    VD   vd_load_floats(const float* p)         P4D_W / 2 floats, widened
    void vd_store_floats_flushed(float* p, VD x, float tiny)
                                                each lane rounded to float,
                                                +0 where its magnitude is
                                                below tiny
    bool vd_all_within(VD x, VD lo, VD hi)      lo <= x < hi in every lane
                                                (false for not a number)
    VD   vd_trunc_index(VD x, int32_t* k)       k[lane] = (int32_t)x for
                                                0 <= x < 2^31, and returns
                                                (double)k[lane]
    void vd_columns4(const double (*rows)[4], const int32_t* k, VD c[4])
                                                c[j] = rows[k[lane]][j]

  Every lane does exactly p4d_phi_map_one()'s operations in its order: the
  table's pieces are read, not recomputed, and the frames whose z lies
  beyond the table (|z| >= 8, or not a number) take p4d_phi_map_one().
*/

#include "exact_math.h"
#include "phi_map.h"

#include <math.h>
#include <stdint.h>

#ifndef P4D_WD
/// Lanes of a vector of doubles.
#  define P4D_WD (P4D_W / 2U)
#endif

static void
phi_map(const P4dPhiTable* table,
        const float*       z,
        double             low,
        double             span,
        float*             y,
        uint32_t           n)
{
  const VD range = vd_set1(P4D_EXACT_PHI_RANGE);
  const VD steps = vd_set1(P4D_EXACT_PHI_STEPS);
  const VD zero  = vd_set1(0.0);
  const VD top   = vd_set1(P4D_EXACT_PHI_PIECES);
  const VD lo    = vd_set1(low);
  const VD sp    = vd_set1(span);

  uint32_t i = 0U;
  for (; i + P4D_WD <= n; i += P4D_WD) {
    const VD u = vd_mul(vd_add(vd_load_floats(z + i), range), steps);
    if (!vd_all_within(u, zero, top)) {
      for (uint32_t j = i; j < i + P4D_WD; ++j) {
        y[j] = p4d_phi_map_one(table, z[j], low, span);
      }
      continue;
    }

    // Each frame's piece, transposed into the coefficients as lanes.
    int32_t  k[P4D_WD];
    const VD t = vd_sub(u, vd_trunc_index(u, k));
    VD       c[4];
    vd_columns4(table->c, k, c);
    VD p = vd_add(c[2], vd_mul(t, c[3]));
    p    = vd_add(c[1], vd_mul(t, p));
    p    = vd_add(c[0], vd_mul(t, p));

    // Flushed below 1e-30 as p4d_phi_map_one() flushes.
    vd_store_floats_flushed(y + i, vd_add(lo, vd_mul(sp, p)), 1.0e-30f);
  }
  for (; i < n; ++i) {
    y[i] = p4d_phi_map_one(table, z[i], low, span);
  }
}
