// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

// The Mod's output map: the portable path and the choice of a path (see
// phi_map.h).

#include "phi_map.h"

#include "noise.h"

#if defined(P4D_HAVE_AVX2) && defined(P4D_HAVE_AVX512)
#  define P4D_PHI_X86 1
#endif

static void
phi_map_scalar(const P4dPhiTable* table,
               const float*       z,
               double             low,
               double             span,
               float*             y,
               uint32_t           n)
{
  for (uint32_t i = 0U; i < n; ++i) {
    y[i] = p4d_phi_map_one(table, z[i], low, span);
  }
}

void
p4d_phi_map(const P4dPhiTable* table,
            const float*       z,
            double             low,
            double             span,
            float*             y,
            uint32_t           n)
{
#ifdef P4D_PHI_X86
  switch (p4d_isa_current()) {
  case P4D_ISA_AVX512:
    p4d_phi_map_avx512(table, z, low, span, y, n);
    return;
  case P4D_ISA_AVX2:
    p4d_phi_map_avx2(table, z, low, span, y, n);
    return;
  case P4D_ISA_SCALAR:
    break;
  }
#endif
  phi_map_scalar(table, z, low, span, y, n);
}
