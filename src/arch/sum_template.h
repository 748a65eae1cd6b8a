// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The template of the weighted sum (isa_table.h's weighted_add): acc[i] +=
  weight * x[i], the Image's octave sum, written once for P4D_W float
  lanes and instantiated once per instruction set.  A path defines the
  contract below, then includes this file, which defines weighted_add() for
  its table.

  The contract.  Before including this file, a path defines P4D_W, the
  type VF of P4D_W floats and, lane by lane with the scalar rounding
  (nothing fused): vf_set1(), vf_add(), vf_mul(), vf_store() as the noise
  template lists them, and

    VF   vf_load(const float* p)            P4D_W floats from p, unaligned

  Every lane does the scalar loop's multiply, then its add.
*/

#include <stdint.h>

static void
weighted_add(float weight, const float* x, float* acc, uint32_t n)
{
  const VF w = vf_set1(weight);
  uint32_t i = 0U;
  for (; i + P4D_W <= n; i += P4D_W) {
    vf_store(acc + i, vf_add(vf_load(acc + i), vf_mul(w, vf_load(x + i))));
  }
  for (; i < n; ++i) {
    acc[i] += weight * x[i];
  }
}
