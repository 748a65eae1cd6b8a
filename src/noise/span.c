// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The core's lines run on one span: the scalar kernel (noise.c) until the
  layer above that knows the instruction sets (src/arch/isa.c) hands the
  core a vector one.  The core itself knows no instruction set.
*/

#include "kernel.h"
#include "noise.h"

#include <stddef.h>
#include <stdint.h>

static P4dSpan* span_fn = p4d_noise_span_scalar;

void
p4d_noise_span_use(P4dSpan* span)
{
  span_fn = span ? span : p4d_noise_span_scalar;
}

void
p4d_noise4_span(uint32_t     seed,
                const double origin[4],
                const double step[4],
                int64_t      first,
                float*       out,
                size_t       n)
{
  span_fn(seed_key(seed), origin, step, first, out, n, 0U);
}

void
p4d_noise4_span_loop(uint32_t     seed,
                     const double origin[4],
                     const double step[4],
                     int64_t      first,
                     float*       out,
                     size_t       n,
                     uint64_t     w_period)
{
  span_fn(
    seed_key(seed), origin, step, first, out, n, p4d_noise_period(w_period));
}
