// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file isa_table.h
   One table of vector functions per instruction set: every vectorised
   operation of the noise core and the engines, filled in one place per
   path (src/arch/generic/generic.c, src/arch/x86/avx2.c, ...) and chosen
   once (src/arch/isa.c).  Every function gives, lane by lane, the bits of
   its scalar reference.  Internal to the core and the engines.
*/

#ifndef P4D_ISA_TABLE_H
#define P4D_ISA_TABLE_H

#include "exact_math.h"
#include "isa.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
  /// The path this table is.
  P4dIsa isa;

  /**
     The noise core's line: kernel.h's P4dSpan (p4d_noise4_span_tile() for
     a hash key from seed_key() and checked periods).  Handed to the core
     by p4d_isa_use().
  */
  void (*noise_span)(uint32_t       key,
                     const double   origin[4],
                     const double   step[4],
                     int64_t        first,
                     float*         out,
                     size_t         n,
                     const uint64_t period[4]);

  /**
     The noise core's points: kernel.h's P4dPoints
     (p4d_noise4_points_tile() for a hash key from seed_key() and checked
     periods).  Handed to the core by p4d_isa_use().
  */
  void (*noise_points)(uint32_t key,
                       const double (*p)[4],
                       float*         out,
                       size_t         n,
                       const uint64_t period[4]);

  /// The Mod's output map: phi_map.h's p4d_phi_map().
  void (*phi_map)(const P4dPhiTable* table,
                  const float*       z,
                  double             low,
                  double             span,
                  float*             y,
                  uint32_t           n);

  /// Motion's delay line read: motion_block.h's p4d_motion_block_read().
  void (*motion_read)(const double* line,
                      const double* kernel,
                      uint32_t      mask,
                      int64_t       w0,
                      const double* d,
                      double*       y,
                      uint32_t      n);

  /// Motion's gain exponential: p4d_motion_block_exp().
  void (*motion_exp)(const double* x, double* y, uint32_t n);

  /// Motion's pan sine: p4d_motion_block_sin().
  void (*motion_sin)(const double* a, double* y, uint32_t n);

  /// The weighted sum acc[i] += weight * x[i] (a multiply, then an add),
  /// i < n: the octave sums of fBm (the core's spans) and of the Image.
  void (*weighted_add)(float weight, const float* x, float* acc, uint32_t n);
} P4dIsaTable;

/// The table of the path in use (p4d_isa_current()).  Realtime safe.
const P4dIsaTable*
p4d_isa_table(void);

/// The tables, one per path, each defined in its own file.
extern const P4dIsaTable p4d_isa_generic;
extern const P4dIsaTable p4d_isa_avx2;
extern const P4dIsaTable p4d_isa_avx512;
extern const P4dIsaTable p4d_isa_neon;

#endif // P4D_ISA_TABLE_H
