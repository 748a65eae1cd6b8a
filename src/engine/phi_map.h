// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file phi_map.h
   The Mod's output map over a block of frames: y = low + span Phi(z) per
   frame, through Phi's table (exact_math.h), flushed below 1e-30.  The
   paths (src/arch/phi_map_template.h) take the frames as lanes and do, in
   every lane, exactly the scalar operations in the scalar order (no
   contraction: -ffp-contract=off; the table's pieces are read, not
   recomputed), so every path gives the bits of p4d_phi_map_one(), the
   scalar reference defined here.  The path is the one in use (isa.h).
   Internal to the engines.
*/

#ifndef P4D_PHI_MAP_H
#define P4D_PHI_MAP_H

#include "exact_math.h"

#include <math.h>
#include <stdint.h>

/// One frame of the map: the scalar definition every path reproduces.
static inline float
p4d_phi_map_one(const P4dPhiTable* table, float z, double low, double span)
{
  const float r = (float)(low + span * p4d_exact_phi(table, z));
  return fabsf(r) < 1.0e-30f ? 0.0f : r;
}

/**
   y[i] = p4d_phi_map_one(table, z[i], low, span) for i < n (z and y must
   not overlap), on the path in use.  Realtime safe.
*/
void
p4d_phi_map(const P4dPhiTable* table,
            const float*       z,
            double             low,
            double             span,
            float*             y,
            uint32_t           n);

#endif // P4D_PHI_MAP_H
