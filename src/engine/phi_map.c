// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

// The Mod's output map on the path in use (see phi_map.h): its table's.

#include "phi_map.h"

#include "isa_table.h"

void
p4d_phi_map(const P4dPhiTable* table,
            const float*       z,
            double             low,
            double             span,
            float*             y,
            uint32_t           n)
{
  p4d_isa_table()->phi_map(table, z, low, span, y, n);
}
