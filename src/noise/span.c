// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The core's lines and points run on one span and one points function:
  the scalar kernel's (noise.c) until the layer above that knows the
  instruction sets (src/arch/isa.c) hands the core vector ones.  The core itself
  knows no instruction set.
*/

#include "kernel.h"
#include "noise.h"

#include <stddef.h>
#include <stdint.h>

/// The scalar octave sum: the reference.
static void
weighted_add_scalar(float weight, const float* x, float* acc, uint32_t n)
{
  for (uint32_t i = 0U; i < n; ++i) {
    acc[i] += weight * x[i];
  }
}

static P4dSpan*        span_fn         = p4d_noise_span_scalar;
static P4dPoints*      points_fn       = p4d_noise_points_scalar;
static P4dWeightedAdd* weighted_add_fn = weighted_add_scalar;

void
p4d_noise_paths_use(P4dSpan*        span,
                    P4dPoints*      points,
                    P4dWeightedAdd* weighted_add)
{
  span_fn         = span ? span : p4d_noise_span_scalar;
  points_fn       = points ? points : p4d_noise_points_scalar;
  weighted_add_fn = weighted_add ? weighted_add : weighted_add_scalar;
}

void
p4d_noise_weighted_add(float weight, const float* x, float* acc, uint32_t n)
{
  weighted_add_fn(weight, x, acc, n);
}

void
p4d_noise4_span(uint32_t     seed,
                const double origin[4],
                const double step[4],
                int64_t      first,
                float*       out,
                size_t       n)
{
  static const uint64_t none[4] = { 0U, 0U, 0U, 0U };
  span_fn(seed_key(seed), origin, step, first, out, n, none);
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
  const uint64_t period[4] = { 0U, 0U, 0U, p4d_noise_period(w_period) };
  span_fn(seed_key(seed), origin, step, first, out, n, period);
}

void
p4d_noise4_span_tile(uint32_t       seed,
                     const double   origin[4],
                     const double   step[4],
                     int64_t        first,
                     float*         out,
                     size_t         n,
                     const uint64_t period[4])
{
  uint64_t checked[4];
  p4d_noise_periods(period, checked);
  span_fn(seed_key(seed), origin, step, first, out, n, checked);
}

void
p4d_noise4_points_tile(uint32_t seed,
                       const double (*p)[4],
                       float*         out,
                       size_t         n,
                       const uint64_t period[4])
{
  uint64_t checked[4];
  p4d_noise_periods(period, checked);
  points_fn(seed_key(seed), p, out, n, checked);
}
