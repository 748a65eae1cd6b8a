// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

// Motion's block passes on the path in use (see motion_block.h): its
// table's.

#include "motion_block.h"

#include "isa_table.h"

void
p4d_motion_block_read(const double* line,
                      const double* kernel,
                      uint32_t      mask,
                      int64_t       w0,
                      const double* d,
                      double*       y,
                      uint32_t      n)
{
  p4d_isa_table()->motion_read(line, kernel, mask, w0, d, y, n);
}

void
p4d_motion_block_exp(const double* x, double* y, uint32_t n)
{
  p4d_isa_table()->motion_exp(x, y, n);
}

void
p4d_motion_block_sin(const double* a, double* y, uint32_t n)
{
  p4d_isa_table()->motion_sin(a, y, n);
}
