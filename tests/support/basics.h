// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  What every test program (and the benchmarks) needs, written once: pi, an
  allocation that cannot fail quietly (and floats through it), and the
  monotonic clock.  Header
  only, so that a program built without the support library (the
  benchmarks, the display's own tests) shares it as well.

  The clock is for reporting how long something took (a benchmark, a
  figure in a test's output) and for the limit that ends a hung program;
  never for deciding whether a test passes.
*/

#ifndef P4D_TEST_BASICS_H
#define P4D_TEST_BASICS_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/// Pi, to more digits than a double holds.
#define P4D_PI 3.14159265358979323846

/**
   n zeroed elements of size bytes (at least one byte, so that n = 0 gives
   a pointer to free like any other); on failure, a message and exit 1.
*/
static inline void*
p4d_alloc(size_t n, size_t size)
{
  void* const p = calloc(n ? n : 1U, size ? size : 1U);
  if (!p) {
    fprintf(stderr, "out of memory (%zu x %zu bytes)\n", n, size);
    exit(1);
  }
  return p;
}

/// n floats (at least one), each fill; on failure, a message and exit 1.
static inline float*
p4d_floats_new(size_t n, float fill)
{
  float* const x = (float*)p4d_alloc(n, sizeof(float));
  for (size_t i = 0U; i < n; ++i) {
    x[i] = fill;
  }
  return x;
}

/// Seconds on the monotonic clock, from an unspecified start (POSIX: in a
/// program that defines _POSIX_C_SOURCE 199309L or _XOPEN_SOURCE before
/// its first include).
#ifdef CLOCK_MONOTONIC
static inline double
p4d_now_s(void)
{
  struct timespec t = { 0, 0 };
  (void)clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}
#endif

#endif // P4D_TEST_BASICS_H
