// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The CSV's decimal text (decimal.h) against glibc's printf, byte for byte:
  "%.9g" of floats (every exponent, each with mantissas at its ends and
  spread through it, ties, the numbers a Mod writes, random bit patterns,
  signs, zeros, subnormals, Inf and NaN) and "%.6f" of doubles (row times
  as the CSV computes them, ties at 2^-7, random values, huge and tiny).
*/

#undef NDEBUG

#include "decimal.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static unsigned long n_checked;

/// x through format by printf and by decimal's function of that format
/// (its text into got, its length returned): the same text and length.
static void
check(const char* format, double x, size_t (*decimal)(double, char*))
{
  char         want[P4D_DECIMAL_MAX];
  char         got[P4D_DECIMAL_MAX];
  const int    n   = snprintf(want, sizeof want, format, x);
  const size_t len = decimal(x, got);
  if (strcmp(want, got) != 0 || len != (size_t)n) {
    fprintf(
      stderr, "%s of %a: printf \"%s\", got \"%s\"\n", format, x, want, got);
    assert(0);
  }
  ++n_checked;
}

/// p4d_decimal_g9() of a float that x holds exactly.
static size_t
decimal_g9(double x, char* text)
{
  return p4d_decimal_g9((float)x, text);
}

static void
check_g9(float x)
{
  check("%.9g", (double)x, decimal_g9);
}

static void
check_f6(double x)
{
  check("%.6f", x, p4d_decimal_f6);
}

static float
float_of(uint32_t bits)
{
  float x = 0.0f;
  memcpy(&x, &bits, sizeof x);
  return x;
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t
next(void)
{
  rng ^= rng << 13U;
  rng ^= rng >> 7U;
  rng ^= rng << 17U;
  return rng;
}

int
main(void)
{
  // Every exponent of both signs: mantissas at the ends and spread over it.
  for (uint32_t sign = 0U; sign < 2U; ++sign) {
    for (uint32_t e = 0U; e < 256U; ++e) {
      for (uint32_t f = 0U; f < 0x800000U; f += 16411U) {
        check_g9(float_of(sign << 31U | e << 23U | f));
      }
      for (uint32_t f = 0U; f < 64U; ++f) {
        check_g9(float_of(sign << 31U | e << 23U | f));
        check_g9(float_of(sign << 31U | e << 23U | (0x7FFFFFU - f)));
      }
    }
  }
  // What a Mod writes: [0, 1] and [-1, 1] in every float near 0.5 and 1.
  for (uint32_t b = 0x3F000000U - 200000U; b < 0x3F800000U + 1000U; b += 7U) {
    check_g9(float_of(b));
  }
  // Ties of the ninth digit: whole floats ending in 5 then zeros.
  for (uint64_t k = 1U; k < 200000U; ++k) {
    check_g9((float)(k * 100000000000ULL + 50000000000ULL));
    check_g9((float)k / 1024.0f);
  }
  for (unsigned i = 0U; i < 300000U; ++i) {
    check_g9(float_of((uint32_t)next()));
  }

  // Row times as the CSV writes them: start / rate + row / fps.
  const double rates[]  = { 8000.0, 44100.0, 48000.0, 96000.0 };
  const double fps[]    = { 24.0, 30000.0 / 1001.0, 60.0, 997.0, 1000.0 };
  const double starts[] = { 0.0, 1.0, 3600.0 * 48000.0 + 17.0 };
  for (unsigned r = 0U; r < 4U; ++r) {
    for (unsigned f = 0U; f < 5U; ++f) {
      for (unsigned s = 0U; s < 3U; ++s) {
        for (int64_t row = 0; row < 20000; row += 3) {
          check_f6(starts[s] / rates[r] + (double)row / fps[f]);
        }
      }
    }
  }
  // Ties at the sixth decimal (k / 2^7 and k / 2^6), both signs.
  for (int64_t k = -100000; k < 100000; ++k) {
    check_f6((double)k / 128.0);
    check_f6((double)k / 64.0 + 0.5e-6);
  }
  for (unsigned i = 0U; i < 300000U; ++i) {
    const uint64_t b = next();
    double         x = 0.0;
    memcpy(&x, &b, sizeof x);
    check_f6(x);
    check_f6(ldexp((double)(b >> 11U), -(int)(b % 90U)));
  }
  check_f6(0.0);
  check_f6(-0.0);
  check_f6(1e300);
  check_f6(-1.7976931348623157e308);
  check_f6(4.9e-324);

  printf("decimal: %lu values, the same text as printf\n", n_checked);
  return 0;
}
