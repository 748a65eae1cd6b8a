// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  No block of a vector path's line falls back to the scalar kernel, except
  where a coordinate is out of range.  The test is linked with
  -Wl,--wrap=p4d_noise_span_scalar (tests/meson.build), so every call a
  vector path makes to the scalar span comes through the counter below
  (the core's own reference to it, the scalar path, too, but the test runs
  the vector paths only).  Lines fast along x, y, z, w and all four (every
  block across cells of each axis, up to many cells of w a block), slow
  lines, lines in tiles and loops: the same bits as the scalar path and no
  fallback.  A line that leaves the coordinate range must fall back, which
  shows that the counter sees the fallback.
*/

#undef NDEBUG

#include "isa.h"
#include "kernel.h"
#include "noise.h"

#include "support/compare.h"

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define N_POINTS 1000U

/// Calls of the scalar span since the counter was last cleared.
static unsigned long fallbacks;

// The names below are the ones the linker's --wrap requires, reserved as
// they are.
// NOLINTBEGIN(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)

/// The scalar span itself, and the scalar span as the vector paths call
/// it: counted (kernel.h's P4dSpan, the span's type).
P4dSpan __real_p4d_noise_span_scalar;
P4dSpan __wrap_p4d_noise_span_scalar;

void
__wrap_p4d_noise_span_scalar(uint32_t       key,
                             const double   origin[4],
                             const double   step[4],
                             int64_t        first,
                             float*         out,
                             size_t         n,
                             const uint64_t period[4])
{
  ++fallbacks;
  __real_p4d_noise_span_scalar(key, origin, step, first, out, n, period);
}
// NOLINTEND(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)

/// A line of the test: where it starts, how it moves, its periods.
typedef struct {
  const char* name;
  double      origin[4];
  double      step[4];
  uint64_t    period[4];
} Line;

static const Line lines[] = {
  { "fast x", { 0.3, 1.7, 2.2, 5.1 }, { 0.37, 0.0, 0.0, 0.0 }, { 0U } },
  { "fast y", { 0.3, 1.7, 2.2, 5.1 }, { 0.0, -0.61, 0.0, 0.0 }, { 0U } },
  { "fast z", { 0.3, 1.7, 2.2, 5.1 }, { 0.0, 0.0, 1.3, 0.0 }, { 0U } },
  { "fast w", { 0.3, 1.7, 2.2, 5.1 }, { 0.0, 0.0, 0.0, 0.29 }, { 0U } },
  { "w, 3 cells a point",
    { 0.3, 1.7, 2.2, 5.1 },
    { 0.0, 0.0, 0.0, 3.1 },
    { 0U } },
  { "all four", { 0.3, 1.7, 2.2, 5.1 }, { 0.21, -0.33, 0.45, 2.7 }, { 0U } },
  { "all four, slow",
    { -7.3, 1.7, 2.2, -5.1 },
    { 1e-3, 2e-3, -3e-3, 0.02 },
    { 0U } },
  { "fixed x, y, z", { 0.3, 1.7, 2.2, 5.1 }, { 0.0, 0.0, 0.0, 0.013 }, { 0U } },
  { "row", { -3.3, 1.7, 2.2, 5.1 }, { 0.11, 0.0, 0.0, 0.0 }, { 0U } },
  { "far w", { 0.3, 1.7, 2.2, 0x1p40 }, { 0.01, 0.02, 0.03, 0.17 }, { 0U } },
  { "loop", { 0.3, 1.7, 2.2, 5.1 }, { 0.0, 0.0, 0.0, 0.4 }, { 0, 0, 0, 7 } },
  { "tile", { 0.3, 1.7, 2.2, 5.1 }, { 0.3, 0.5, 0.7, 0.9 }, { 5, 3, 2, 11 } },
};

/// The line's points 0 .. N_POINTS - 1 on the path in use, then on the
/// scalar path: the same bits.  Returns the fallbacks of the vector path.
static unsigned long
run(P4dIsa isa, const Line* line)
{
  float vector[N_POINTS];
  float scalar[N_POINTS];
  p4d_isa_use(isa);
  fallbacks = 0U;
  p4d_noise4_span_tile(
    7U, line->origin, line->step, -3, vector, N_POINTS, line->period);
  const unsigned long got = fallbacks;
  p4d_isa_use(P4D_ISA_SCALAR);
  p4d_noise4_span_tile(
    7U, line->origin, line->step, -3, scalar, N_POINTS, line->period);
  p4d_assert_same(line->name, vector, scalar, 0U, N_POINTS);
  return got;
}

static void
test_no_fallback(P4dIsa isa)
{
  for (size_t i = 0U; i < sizeof(lines) / sizeof(lines[0]); ++i) {
    const unsigned long n = run(isa, &lines[i]);
    printf("  %s, %s: %lu fallbacks\n", p4d_isa_name(isa), lines[i].name, n);
    assert(n == 0U);
  }
}

/// A line that leaves the range falls back: the counter sees it.
static void
test_out_of_range_falls_back(P4dIsa isa)
{
  const Line out = {
    "out of range",
    { 0.3, 1.7, 2.2, P4D_NOISE_COORD_MAX - 100.0 },
    { 0.0, 0.0, 0.0, 1.0 },
    { 0U },
  };
  const unsigned long n = run(isa, &out);
  printf("  %s, %s: %lu fallbacks\n", p4d_isa_name(isa), out.name, n);
  assert(n > 0U);
}

int
main(void)
{
  unsigned tested = 0U;
  for (unsigned i = 0U; i < P4D_ISA_COUNT; ++i) {
    const P4dIsa isa = (P4dIsa)i;
    if (isa == P4D_ISA_SCALAR || !p4d_isa_supported(isa)) {
      continue;
    }
    test_no_fallback(isa);
    test_out_of_range_falls_back(isa);
    ++tested;
  }
  p4d_isa_use(P4D_ISA_SCALAR);
  printf("%u vector paths tested\n", tested);
  return 0;
}
