// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "rounds.h"

#include <stdlib.h>

unsigned
p4d_rounds_order(unsigned r, unsigned n, unsigned k)
{
  return (k + r) % n;
}

static int
compare(const void* a, const void* b)
{
  const double x = *(const double*)a;
  const double y = *(const double*)b;
  return (x > y) - (x < y);
}

double
p4d_rounds_median(double* v, unsigned n)
{
  if (n == 0U) {
    return 0.0;
  }
  qsort(v, n, sizeof(double), compare);
  return n % 2U ? v[n / 2U] : 0.5 * (v[n / 2U - 1U] + v[n / 2U]);
}

double
p4d_rounds_min(const double* v, unsigned n)
{
  double m = n ? v[0] : 0.0;
  for (unsigned i = 1U; i < n; ++i) {
    m = v[i] < m ? v[i] : m;
  }
  return m;
}

double
p4d_rounds_ratio(const double* ns, const bool* peer, unsigned n, unsigned row)
{
  double   sum     = 0.0;
  unsigned n_peers = 0U;
  for (unsigned i = 0U; i < n; ++i) {
    if (peer[i]) {
      if (ns[i] < 0.0) {
        return -1.0;
      }
      sum += ns[i];
      ++n_peers;
    }
  }
  if (n_peers == 0U || ns[row] < 0.0 || sum <= 0.0) {
    return -1.0;
  }
  return ns[row] / sum;
}
