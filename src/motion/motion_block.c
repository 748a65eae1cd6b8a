// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

// The choice of motion_block.h's path: the noise core's.

#include "motion_block.h"

#include "noise.h"

#if defined(P4D_HAVE_AVX2) && defined(P4D_HAVE_AVX512)
#  define P4D_MB_X86 1
#endif

void
p4d_motion_block_read(const float*  line,
                      uint32_t      mask,
                      int64_t       w0,
                      const double* d,
                      double*       y,
                      uint32_t      n)
{
#ifdef P4D_MB_X86
  switch (p4d_isa_current()) {
  case P4D_ISA_AVX512:
    p4d_motion_block_read_avx512(line, mask, w0, d, y, n);
    return;
  case P4D_ISA_AVX2:
    p4d_motion_block_read_avx2(line, mask, w0, d, y, n);
    return;
  case P4D_ISA_SCALAR:
    break;
  }
#endif
  p4d_motion_block_read_portable(line, mask, w0, d, y, n);
}

void
p4d_motion_block_exp(const double* x, double* y, uint32_t n)
{
#ifdef P4D_MB_X86
  switch (p4d_isa_current()) {
  case P4D_ISA_AVX512:
    p4d_motion_block_exp_avx512(x, y, n);
    return;
  case P4D_ISA_AVX2:
    p4d_motion_block_exp_avx2(x, y, n);
    return;
  case P4D_ISA_SCALAR:
    break;
  }
#endif
  p4d_motion_block_exp_portable(x, y, n);
}

void
p4d_motion_block_sin(const double* a, double* y, uint32_t n)
{
#ifdef P4D_MB_X86
  switch (p4d_isa_current()) {
  case P4D_ISA_AVX512:
    p4d_motion_block_sin_avx512(a, y, n);
    return;
  case P4D_ISA_AVX2:
    p4d_motion_block_sin_avx2(a, y, n);
    return;
  case P4D_ISA_SCALAR:
    break;
  }
#endif
  p4d_motion_block_sin_portable(a, y, n);
}
