// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The portable path: the one every build has, and the only one with
  -Dsimd=disabled.  The noise core's own scalar kernel (noise.c), the Mod's
  map frame by frame (as fast as 2 lanes would be: the pieces' gather
  dominates), and Motion's template at 2 double lanes written with GNU C
  vectors, which every target lowers to what it has (SSE2 on x86-64, or
  scalar code).  Compiled without target flags.
*/

#include "isa_table.h"
#include "kernel.h"
#include "phi_map.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define P4D_W 4U

typedef double   VD __attribute__((vector_size(P4D_W / 2U * sizeof(double))));
typedef int64_t  VL __attribute__((vector_size(P4D_W / 2U * sizeof(double))));
typedef uint64_t VU __attribute__((vector_size(P4D_W / 2U * sizeof(double))));
typedef VL       VDM;

static inline VD
vd_set1(double a)
{
  VD v;
  for (unsigned l = 0U; l < P4D_W / 2U; ++l) {
    v[l] = a;
  }
  return v;
}

static inline VD
vd_add(VD a, VD b)
{
  return a + b;
}

static inline VD
vd_sub(VD a, VD b)
{
  return a - b;
}

static inline VD
vd_mul(VD a, VD b)
{
  return a * b;
}

static inline VD
vd_load(const double* p)
{
  VD v;
  memcpy(&v, p, sizeof(v));
  return v;
}

static inline void
vd_store(double* p, VD x)
{
  memcpy(p, &x, sizeof(x));
}

static inline VDM
vd_lt(VD a, VD b)
{
  return a < b;
}

/// b in the lanes of m, a elsewhere.
static inline VD
vd_blend(VDM m, VD a, VD b)
{
  return (VD)(((VL)a & ~m) | ((VL)b & m));
}

static inline VL
vd_trunc(VD x)
{
  return __builtin_convertvector(x, VL);
}

static inline VD
vl_to_vd(VL k)
{
  return __builtin_convertvector(k, VD);
}

static inline VD
vl_pow2(VL k)
{
  return (VD)((VU)(k + 1023) << 52U);
}

#include "motion_template.h"

static void
phi_map(const P4dPhiTable* table,
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

/// The scalar reference of the weighted sum.
static void
weighted_add(float weight, const float* x, float* acc, uint32_t n)
{
  for (uint32_t i = 0U; i < n; ++i) {
    acc[i] += weight * x[i];
  }
}

const P4dIsaTable p4d_isa_generic = {
  P4D_ISA_SCALAR, p4d_noise_span_scalar, p4d_noise_points_scalar,
  phi_map,        motion_read,           motion_exp,
  motion_sin,     weighted_add,
};
