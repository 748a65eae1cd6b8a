// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Statistics shared by the tests.
*/

#ifndef P4D_TEST_STATS_H
#define P4D_TEST_STATS_H

#include <assert.h>
#include <math.h>
#include <stddef.h>

/// Pearson correlation of two series, which must both vary.
static inline double
p4d_correlation(const float* a, const float* b, size_t n)
{
  double sa  = 0.0;
  double sb  = 0.0;
  double saa = 0.0;
  double sbb = 0.0;
  double sab = 0.0;
  for (size_t i = 0U; i < n; ++i) {
    sa += a[i];
    sb += b[i];
    saa += (double)a[i] * a[i];
    sbb += (double)b[i] * b[i];
    sab += (double)a[i] * b[i];
  }
  const double dn  = (double)n;
  const double cov = sab / dn - (sa / dn) * (sb / dn);
  const double va  = saa / dn - (sa / dn) * (sa / dn);
  const double vb  = sbb / dn - (sb / dn) * (sb / dn);
  assert(va > 0.0 && vb > 0.0);
  return cov / sqrt(va * vb);
}

/// Mean and standard deviation of n floats (n > 0), into *mean and *sd.
static inline void
p4d_mean_sd(const float* x, size_t n, double* mean, double* sd)
{
  double sum  = 0.0;
  double sum2 = 0.0;
  for (size_t i = 0U; i < n; ++i) {
    sum += x[i];
    sum2 += (double)x[i] * x[i];
  }
  *mean = sum / (double)n;
  *sd   = sqrt(sum2 / (double)n - *mean * *mean);
}

/// Number of changes between consecutive values of x[from..to) that are not
/// NaN (NaN marks "nothing recorded here").
static inline size_t
p4d_count_changes(const float* x, size_t from, size_t to)
{
  size_t n    = 0U;
  float  last = NAN;
  for (size_t i = from; i < to; ++i) {
    if (!isnan(x[i])) {
      if (!isnan(last) && x[i] != last) {
        ++n;
      }
      last = x[i];
    }
  }
  return n;
}

/// Order of two doubles, for qsort().
static inline int
p4d_compare_doubles(const void* a, const void* b)
{
  const double x = *(const double*)a;
  const double y = *(const double*)b;
  return (x > y) - (x < y);
}

/// The largest |x[i] - x[i - 1]| over x[0..n), as rig.h's
/// p4d_largest_step(), with zero_steps the number of steps that are
/// exactly 0 (the value froze: the coordinate's spacing reached the step).
/// test_hash and bench/lattice.c measure the hour 10,000 with it.
static inline double
p4d_largest_step_zeros(const float* x, size_t n, unsigned* zero_steps)
{
  double largest = 0.0;
  *zero_steps    = 0U;
  for (size_t i = 1U; i < n; ++i) {
    const double d = fabs((double)x[i] - (double)x[i - 1U]);
    largest        = d > largest ? d : largest;
    *zero_steps += d == 0.0 ? 1U : 0U;
  }
  return largest;
}

#endif // P4D_TEST_STATS_H
