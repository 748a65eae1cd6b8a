// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Bit comparison of float buffers and of files.  perlin4d promises the same
  bits, not nearly the same values: -0.0 differs from 0.0 here, and a NaN
  equals a NaN of the same payload.
*/

#ifndef P4D_TEST_COMPARE_H
#define P4D_TEST_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Whether a and b are the same bits.
bool
p4d_same_bits(float a, float b);

/// The first i < n where a[i] and b[i] differ in any bit, or n if none does.
size_t
p4d_first_difference(const float* a, const float* b, size_t n);

/**
   Assert that a[i] and b[i] are the same bits for every i in [from, to),
   naming `what` and the first difference on stderr if not.  Returns the
   number of values compared.
*/
size_t
p4d_assert_same(const char*  what,
                const float* a,
                const float* b,
                size_t       from,
                size_t       to);

/**
   Like p4d_assert_same(), but only where both a[i] and b[i] hold a value
   (NaN marks "nothing recorded here").  Returns the number compared.
*/
size_t
p4d_assert_same_where_set(const char*  what,
                          const float* a,
                          const float* b,
                          size_t       from,
                          size_t       to);

/// A line of the noise core's span API, as the path tests draw them.
typedef struct {
  const char*     path;   ///< The code path under test (p4d_isa_name())
  unsigned        kind;   ///< The test's class of line
  uint32_t        seed;   ///< The field's seed
  const double*   origin; ///< The line's origin, 4 coordinates
  const double*   step;   ///< Its step, 4 coordinates
  int64_t         first;  ///< The index of its first point
  const uint64_t* period; ///< The 4 periods of a tiled span, or NULL
} P4dSpanLine;

/**
   Assert that the n values a path gave on line (got) are the same bits as
   the scalar path's (want); if not, name the path, the line and the first
   difference on stderr and abort.
*/
void
p4d_assert_same_span(const P4dSpanLine* line,
                     const float*       want,
                     const float*       got,
                     size_t             n);

/// Whether the files at two paths hold the same bytes (both must exist).
bool
p4d_same_file(const char* path_a, const char* path_b);

#endif // P4D_TEST_COMPARE_H
