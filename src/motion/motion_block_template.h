// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The template of motion_block.h's paths: written once for P4D_MB_LANES
  frames per vector (GNU C vectors, which each path's target flags lower to
  its registers), instantiated once per instruction set.  A path defines
  P4D_MB_LANES and P4D_MB_READ, P4D_MB_EXP, P4D_MB_SIN (the names of its
  functions),
  then includes this file.  Frames past the last whole vector take the
  scalar functions of exact_math.h, whose operations every lane
  repeats.
*/

#include "exact_math.h"
#include "motion_block.h"

#include <stdint.h>
#include <string.h>

typedef double   Vd __attribute__((vector_size(P4D_MB_LANES * sizeof(double))));
typedef int64_t  Vl __attribute__((vector_size(P4D_MB_LANES * sizeof(double))));
typedef uint64_t Vu __attribute__((vector_size(P4D_MB_LANES * sizeof(double))));

/// Every lane a.
static inline Vd
vd_set1(double a)
{
  Vd v;
  for (unsigned l = 0U; l < P4D_MB_LANES; ++l) {
    v[l] = a;
  }
  return v;
}

/// b in the lanes of m, a elsewhere.
static inline Vd
vd_blend(Vl m, Vd a, Vd b)
{
  return (Vd)(((Vl)a & ~m) | ((Vl)b & m));
}

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

void
P4D_MB_READ(const float*  line,
            uint32_t      mask,
            int64_t       w0,
            const double* d,
            double*       y,
            uint32_t      n)
{
  uint32_t i = 0U;
  for (; i + P4D_MB_LANES <= n; i += P4D_MB_LANES) {
    Vd dv;
    memcpy(&dv, d + i, sizeof(dv));
    const Vl di = __builtin_convertvector(dv, Vl);
    const Vd fr = dv - __builtin_convertvector(di, Vd);
    Vd       tap;
    Vd       s[P4D_EXACT_LAGRANGE_POINTS];
    for (unsigned l = 0U; l < P4D_MB_LANES; ++l) {
      const int64_t      w      = w0 + (int64_t)(i + l);
      const float* const points = line + ((uint64_t)(w - di[l] - 4) & mask);
      tap[l]                    = line[(uint64_t)(w - di[l]) & mask];
      for (unsigned j = 0U; j < P4D_EXACT_LAGRANGE_POINTS; ++j) {
        s[j][l] = points[j];
      }
    }

    const Vd t   = vd_set1(4.0) - fr;
    Vd       acc = vd_set1(1.0);
    Vd       pre[P4D_EXACT_LAGRANGE_POINTS];
    for (unsigned j = 0U; j < P4D_EXACT_LAGRANGE_POINTS; ++j) {
      pre[j] = acc;
      acc *= t - vd_set1((double)j);
    }
    Vd yv  = vd_set1(0.0);
    Vd suf = vd_set1(1.0);
    for (unsigned j = P4D_EXACT_LAGRANGE_POINTS; j-- > 0U;) {
      yv += (pre[j] * suf * vd_set1(p4d_exact_lagrange[j])) * s[j];
      suf *= t - vd_set1((double)j);
    }
    yv = vd_blend(fr == vd_set1(0.0), yv, tap);
    memcpy(y + i, &yv, sizeof(yv));
  }
  for (; i < n; ++i) {
    y[i] = read_one(line, mask, w0 + (int64_t)i, d[i]);
  }
}

void
P4D_MB_EXP(const double* x, double* y, uint32_t n)
{
  uint32_t i = 0U;
  for (; i + P4D_MB_LANES <= n; i += P4D_MB_LANES) {
    Vd xv;
    memcpy(&xv, x + i, sizeof(xv));
    // p4d_exact_exp_short() lane by lane.
    const Vd yv = xv * vd_set1(1.44269504088896338700);
    const Vd rounded =
      vd_blend(yv < vd_set1(0.0), yv + vd_set1(0.5), yv - vd_set1(0.5));
    const Vl k  = __builtin_convertvector(rounded, Vl);
    const Vd kd = __builtin_convertvector(k, Vd);
    const Vd r  = (xv - kd * vd_set1(6.93147180369123816490e-01)) -
                 kd * vd_set1(1.90821492927058770002e-10);
    const Vd r2   = r * r;
    const Vd r4   = r2 * r2;
    const Vd a    = vd_set1(1.0) + r;
    const Vd b    = vd_set1(0.5) + r * vd_set1(1.0 / 6.0);
    const Vd c    = vd_set1(1.0 / 24.0) + r * vd_set1(1.0 / 120.0);
    const Vd dd   = vd_set1(1.0 / 720.0) + r * vd_set1(1.0 / 5040.0);
    const Vd e    = vd_set1(1.0 / 40320.0) + r * vd_set1(1.0 / 362880.0);
    const Vd p    = (a + r2 * b) + r4 * ((c + r2 * dd) +
                                      r4 * (e + r2 * vd_set1(1.0 / 3628800.0)));
    const Vu bits = (Vu)(k + 1023) << 52U;
    const Vd out  = p * (Vd)bits;
    memcpy(y + i, &out, sizeof(out));
  }
  for (; i < n; ++i) {
    y[i] = p4d_exact_exp_short(x[i]);
  }
}

void
P4D_MB_SIN(const double* a, double* y, uint32_t n)
{
  uint32_t i = 0U;
  for (; i + P4D_MB_LANES <= n; i += P4D_MB_LANES) {
    Vd av;
    memcpy(&av, a + i, sizeof(av));
    // p4d_exact_quarter_sin_short() lane by lane.
    const Vd x  = av * vd_set1(1.57079632679489661923);
    const Vd x2 = x * x;
    const Vd x4 = x2 * x2;
    const Vd s0 = vd_set1(1.0) - x2 * vd_set1(1.0 / 6.0);
    const Vd s1 = vd_set1(1.0 / 120.0) - x2 * vd_set1(1.0 / 5040.0);
    const Vd s2 = vd_set1(1.0 / 362880.0) - x2 * vd_set1(1.0 / 39916800.0);
    const Vd p  = s0 + x4 * (s1 + x4 * (s2 + x4 * vd_set1(1.0 / 6227020800.0)));
    const Vd out = x * p;
    memcpy(y + i, &out, sizeof(out));
  }
  for (; i < n; ++i) {
    y[i] = p4d_exact_quarter_sin_short(a[i]);
  }
}
