// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The template of Motion's block passes (motion_block.h): written once for
  P4D_W / 2 frames per vector of doubles, instantiated once per instruction
  set.  A path defines the contract below, then includes this file, which
  defines motion_read(), motion_exp() and motion_sin() for its table.
  The read's vectors run along a frame's points; the others' along the
  frames, and frames past the last whole vector take the scalar functions
  of exact_math.h, whose operations every lane repeats.

  The contract.  Before including this file, a path defines P4D_W (float
  lanes; the doubles are half as many), the types

    VD   P4D_W / 2 doubles          VL   P4D_W / 2 int64_t
    VDM  a mask of P4D_W / 2 lanes

  and these static inline functions, lane by lane, with the scalar
  rounding (nothing fused):

    VD   vd_set1(double a)                      every lane a
    VD   vd_add(VD a, VD b), vd_sub, vd_mul     a + b, a - b, a * b
    VD   vd_load(const double* p)               P4D_W / 2 values, unaligned
    void vd_store(double* p, VD x)              P4D_W / 2 values, unaligned
    VDM  vd_lt(VD a, VD b)                      the lanes where a < b
    VD   vd_blend(VDM m, VD a, VD b)            b in the lanes of m, a
                                                elsewhere
    VL   vd_trunc(VD x)                         (int64_t)x
    VD   vl_to_vd(VL k)                         (double)k
    VD   vl_pow2(VL k)                          2^k through the exponent
                                                field, -1022 <= k <= 1023
*/

#include "exact_math.h"
#include "motion_kernel.h"

#include <stdint.h>

#ifndef P4D_WD
/// Lanes of a vector of doubles.
#  define P4D_WD (P4D_W / 2U)
#endif

/**
   The read of Motion's delay line (motion_block.h): per frame, the
   windowed-sinc weights of its fraction (motion_kernel.h: the phase below
   plus a times the step to the next) times the line's P4D_MOTION_TAPS
   points, summed into P4D_MOTION_SUMS partial sums (sum j takes points j,
   j + SUMS, ... in that order) and these as ((s0 + s1) + (s2 + s3)) +
   ((s4 + s5) + (s6 + s7)): the order of p4d_motion_read_one()
   (motion_private.h), whatever the width of the vectors.
*/
static void
motion_read(const double* line,
            const double* kernel,
            uint32_t      mask,
            int64_t       w0,
            const double* d,
            double*       y,
            uint32_t      n)
{
  enum { VECS = P4D_MOTION_SUMS / P4D_WD };
  for (uint32_t i = 0U; i < n; ++i) {
    const int64_t       di  = (int64_t)d[i];
    const double        t   = (d[i] - (double)di) * (double)P4D_MOTION_PHASES;
    const int64_t       p   = (int64_t)t;
    const VD            a   = vd_set1(t - (double)p);
    const double* const row = kernel + (size_t)p * P4D_MOTION_ROW;
    const double* const x =
      line +
      ((uint64_t)(w0 + (int64_t)i - di - (int64_t)P4D_MOTION_MARGIN) & mask);
    VD acc[VECS];
    for (unsigned v = 0U; v < VECS; ++v) {
      acc[v] = vd_set1(0.0);
    }
    for (unsigned k = 0U; k < P4D_MOTION_TAPS; k += P4D_MOTION_SUMS) {
      for (unsigned v = 0U; v < VECS; ++v) {
        const unsigned j = k + v * P4D_WD;
        const VD       c = vd_add(vd_load(row + j),
                            vd_mul(a, vd_load(row + P4D_MOTION_TAPS + j)));
        acc[v]           = vd_add(acc[v], vd_mul(c, vd_load(x + j)));
      }
    }
    double s[P4D_MOTION_SUMS];
    for (unsigned v = 0U; v < VECS; ++v) {
      vd_store(s + (size_t)v * P4D_WD, acc[v]);
    }
    y[i] = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  }
}

static void
motion_exp(const double* x, double* y, uint32_t n)
{
  uint32_t i = 0U;
  for (; i + P4D_WD <= n; i += P4D_WD) {
    // p4d_exact_exp_short() lane by lane.
    const VD xv      = vd_load(x + i);
    const VD yv      = vd_mul(xv, vd_set1(1.44269504088896338700));
    const VD rounded = vd_blend(vd_lt(yv, vd_set1(0.0)),
                                vd_add(yv, vd_set1(0.5)),
                                vd_sub(yv, vd_set1(0.5)));
    const VL k       = vd_trunc(rounded);
    const VD kd      = vl_to_vd(k);
    const VD r =
      vd_sub(vd_sub(xv, vd_mul(kd, vd_set1(6.93147180369123816490e-01))),
             vd_mul(kd, vd_set1(1.90821492927058770002e-10)));
    const VD r2 = vd_mul(r, r);
    const VD r4 = vd_mul(r2, r2);
    const VD a  = vd_add(vd_set1(1.0), r);
    const VD b  = vd_add(vd_set1(0.5), vd_mul(r, vd_set1(1.0 / 6.0)));
    const VD c  = vd_add(vd_set1(1.0 / 24.0), vd_mul(r, vd_set1(1.0 / 120.0)));
    const VD dd =
      vd_add(vd_set1(1.0 / 720.0), vd_mul(r, vd_set1(1.0 / 5040.0)));
    const VD e =
      vd_add(vd_set1(1.0 / 40320.0), vd_mul(r, vd_set1(1.0 / 362880.0)));
    const VD high =
      vd_add(vd_add(c, vd_mul(r2, dd)),
             vd_mul(r4, vd_add(e, vd_mul(r2, vd_set1(1.0 / 3628800.0)))));
    const VD p = vd_add(vd_add(a, vd_mul(r2, b)), vd_mul(r4, high));
    vd_store(y + i, vd_mul(p, vl_pow2(k)));
  }
  for (; i < n; ++i) {
    y[i] = p4d_exact_exp_short(x[i]);
  }
}

static void
motion_sin(const double* a, double* y, uint32_t n)
{
  uint32_t i = 0U;
  for (; i + P4D_WD <= n; i += P4D_WD) {
    // p4d_exact_quarter_sin_short() lane by lane.
    const VD x  = vd_mul(vd_load(a + i), vd_set1(1.57079632679489661923));
    const VD x2 = vd_mul(x, x);
    const VD x4 = vd_mul(x2, x2);
    const VD s0 = vd_sub(vd_set1(1.0), vd_mul(x2, vd_set1(1.0 / 6.0)));
    const VD s1 =
      vd_sub(vd_set1(1.0 / 120.0), vd_mul(x2, vd_set1(1.0 / 5040.0)));
    const VD s2 =
      vd_sub(vd_set1(1.0 / 362880.0), vd_mul(x2, vd_set1(1.0 / 39916800.0)));
    const VD p = vd_add(
      s0,
      vd_mul(
        x4,
        vd_add(
          s1,
          vd_mul(x4, vd_add(s2, vd_mul(x4, vd_set1(1.0 / 6227020800.0)))))));
    vd_store(y + i, vd_mul(x, p));
  }
  for (; i < n; ++i) {
    y[i] = p4d_exact_quarter_sin_short(a[i]);
  }
}
