// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The template of Motion's block passes (motion_block.h): written once for
  P4D_W / 2 frames per vector of doubles, instantiated once per instruction
  set.  A path defines the contract below, then includes this file, which
  defines motion_read(), motion_exp() and motion_sin() for its table.
  Frames past the last whole vector take the scalar functions of
  exact_math.h, whose operations every lane repeats.

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
    VDM  vd_lt(VD a, VD b), vd_eq               the lanes where a < b, a == b
    VD   vd_blend(VDM m, VD a, VD b)            b in the lanes of m, a
                                                elsewhere
    VL   vd_trunc(VD x)                         (int64_t)x
    VD   vl_to_vd(VL k)                         (double)k
    void vl_store(int64_t* p, VL k)             P4D_W / 2 values, unaligned
    VD   vl_pow2(VL k)                          2^k through the exponent
                                                field, -1022 <= k <= 1023
*/

#include "exact_math.h"

#include <stdint.h>

#ifndef P4D_WD
/// Lanes of a vector of doubles.
#  define P4D_WD (P4D_W / 2U)
#endif

/// The read of one frame (the scalar lane of p4d_motion_pair_read()).
static inline double
read_one(const float* line, uint32_t mask, int64_t w, double d)
{
  const int64_t di  = (int64_t)d;
  const double  fr  = d - (double)di;
  const double  tap = line[(uint64_t)(w - di) & mask];
  if (fr == 0.0) {
    return tap;
  }
  const float* const points = line + ((uint64_t)(w - di - 4) & mask);
  const double       t      = 4.0 - fr;
  double             pre[P4D_EXACT_LAGRANGE_POINTS];
  double             acc = 1.0;
  for (unsigned j = 0U; j < P4D_EXACT_LAGRANGE_POINTS; ++j) {
    pre[j] = acc;
    acc *= t - (double)j;
  }
  double y   = 0.0;
  double suf = 1.0;
  for (unsigned j = P4D_EXACT_LAGRANGE_POINTS; j-- > 0U;) {
    y += (pre[j] * suf * p4d_exact_lagrange[j]) * (double)points[j];
    suf *= t - (double)j;
  }
  return y;
}

static void
motion_read(const float*  line,
            uint32_t      mask,
            int64_t       w0,
            const double* d,
            double*       y,
            uint32_t      n)
{
  uint32_t i = 0U;
  for (; i + P4D_WD <= n; i += P4D_WD) {
    const VD dv = vd_load(d + i);
    const VL di = vd_trunc(dv);
    const VD fr = vd_sub(dv, vl_to_vd(di));
    int64_t  dl[P4D_WD];
    double   tap[P4D_WD];
    double   s[P4D_EXACT_LAGRANGE_POINTS][P4D_WD];
    vl_store(dl, di);
    for (unsigned l = 0U; l < P4D_WD; ++l) {
      const int64_t      w      = w0 + (int64_t)(i + l);
      const float* const points = line + ((uint64_t)(w - dl[l] - 4) & mask);
      tap[l]                    = line[(uint64_t)(w - dl[l]) & mask];
      for (unsigned j = 0U; j < P4D_EXACT_LAGRANGE_POINTS; ++j) {
        s[j][l] = points[j];
      }
    }

    const VD t   = vd_sub(vd_set1(4.0), fr);
    VD       acc = vd_set1(1.0);
    VD       pre[P4D_EXACT_LAGRANGE_POINTS];
    for (unsigned j = 0U; j < P4D_EXACT_LAGRANGE_POINTS; ++j) {
      pre[j] = acc;
      acc    = vd_mul(acc, vd_sub(t, vd_set1((double)j)));
    }
    VD yv  = vd_set1(0.0);
    VD suf = vd_set1(1.0);
    for (unsigned j = P4D_EXACT_LAGRANGE_POINTS; j-- > 0U;) {
      const VD weight =
        vd_mul(vd_mul(pre[j], suf), vd_set1(p4d_exact_lagrange[j]));
      yv  = vd_add(yv, vd_mul(weight, vd_load(s[j])));
      suf = vd_mul(suf, vd_sub(t, vd_set1((double)j)));
    }
    vd_store(y + i, vd_blend(vd_eq(fr, vd_set1(0.0)), yv, vd_load(tap)));
  }
  for (; i < n; ++i) {
    y[i] = read_one(line, mask, w0 + (int64_t)i, d[i]);
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
