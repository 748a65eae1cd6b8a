// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "compare.h"

#include "files.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool
p4d_same_bits(float a, float b)
{
  // The bits as an integer: comparing floats as floats would call -0.0 and
  // 0.0 equal, and a NaN unequal to itself.
  uint32_t bits_a = 0U;
  uint32_t bits_b = 0U;
  assert(sizeof(float) == sizeof(uint32_t));
  memcpy(&bits_a, &a, sizeof(bits_a));
  memcpy(&bits_b, &b, sizeof(bits_b));
  return bits_a == bits_b;
}

size_t
p4d_first_difference(const float* a, const float* b, size_t n)
{
  size_t i = 0U;
  while (i < n && p4d_same_bits(a[i], b[i])) {
    ++i;
  }
  return i;
}

void
p4d_assert_same_span(const P4dSpanLine* line,
                     const float*       want,
                     const float*       got,
                     size_t             n)
{
  const size_t i = p4d_first_difference(want, got, n);
  if (i == n) {
    return;
  }
  const double* const o = line->origin;
  const double* const s = line->step;
  fprintf(stderr,
          "%s: kind %u, seed %u, first %lld, point %zu of %zu: %a instead of "
          "%a\n  origin %a %a %a %a\n  step %a %a %a %a\n",
          line->path,
          line->kind,
          (unsigned)line->seed,
          (long long)line->first,
          i,
          n,
          (double)got[i],
          (double)want[i],
          o[0],
          o[1],
          o[2],
          o[3],
          s[0],
          s[1],
          s[2],
          s[3]);
  if (line->period) {
    fprintf(stderr,
            "  period %llu %llu %llu %llu\n",
            (unsigned long long)line->period[0],
            (unsigned long long)line->period[1],
            (unsigned long long)line->period[2],
            (unsigned long long)line->period[3]);
  }
  abort();
}

size_t
p4d_assert_same(const char*  what,
                const float* a,
                const float* b,
                size_t       from,
                size_t       to)
{
  const size_t i = from + p4d_first_difference(a + from, b + from, to - from);
  if (i < to) {
    fprintf(stderr,
            "%s: first difference at frame %lu: %a != %a\n",
            what,
            (unsigned long)i,
            (double)a[i],
            (double)b[i]);
  }
  assert(i == to);
  return to - from;
}

size_t
p4d_assert_same_where_set(const char*  what,
                          const float* a,
                          const float* b,
                          size_t       from,
                          size_t       to)
{
  size_t n = 0U;
  for (size_t i = from; i < to; ++i) {
    if (!isnan(a[i]) && !isnan(b[i])) {
      if (!p4d_same_bits(a[i], b[i])) {
        fprintf(stderr,
                "%s: control outputs differ at frame %lu: %a != %a\n",
                what,
                (unsigned long)i,
                (double)a[i],
                (double)b[i]);
      }
      assert(p4d_same_bits(a[i], b[i]));
      ++n;
    }
  }
  return n;
}

bool
p4d_same_file(const char* path_a, const char* path_b)
{
  size_t     size_a = 0U;
  size_t     size_b = 0U;
  char*      a      = p4d_file_read(path_a, &size_a);
  char*      b      = p4d_file_read(path_b, &size_b);
  const bool same   = size_a == size_b && !memcmp(a, b, size_a);
  free(a);
  free(b);
  return same;
}
