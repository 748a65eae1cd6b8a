// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "decimal.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SIZEOF_INT128__

__extension__ typedef unsigned __int128 U128;

/// The decimal digits of n (at least one), most significant first, into
/// digits (40 bytes); their count.
static unsigned
u128_digits(U128 n, char* digits)
{
  char     rev[40];
  unsigned k = 0U;
  while (n >> 64U) {
    // Nineteen digits at a time through a 64-bit remainder.
    uint64_t c = (uint64_t)(n % 10000000000000000000ULL);
    n /= 10000000000000000000ULL;
    for (unsigned i = 0U; i < 19U; ++i) {
      rev[k++] = (char)('0' + c % 10U);
      c /= 10U;
    }
  }
  uint64_t c = (uint64_t)n;
  do {
    rev[k++] = (char)('0' + c % 10U);
    c /= 10U;
  } while (c != 0U);
  for (unsigned i = 0U; i < k; ++i) {
    digits[i] = rev[k - 1U - i];
  }
  return k;
}

/// 10^k and 5^k for k <= 19 and 27, the largest that fit 64 bits.
static const uint64_t pow10_u64[20] = {
  1ULL,
  10ULL,
  100ULL,
  1000ULL,
  10000ULL,
  100000ULL,
  1000000ULL,
  10000000ULL,
  100000000ULL,
  1000000000ULL,
  10000000000ULL,
  100000000000ULL,
  1000000000000ULL,
  10000000000000ULL,
  100000000000000ULL,
  1000000000000000ULL,
  10000000000000000ULL,
  100000000000000000ULL,
  1000000000000000000ULL,
  10000000000000000000ULL,
};
static const uint64_t pow5_u64[28] = {
  1ULL,
  5ULL,
  25ULL,
  125ULL,
  625ULL,
  3125ULL,
  15625ULL,
  78125ULL,
  390625ULL,
  1953125ULL,
  9765625ULL,
  48828125ULL,
  244140625ULL,
  1220703125ULL,
  6103515625ULL,
  30517578125ULL,
  152587890625ULL,
  762939453125ULL,
  3814697265625ULL,
  19073486328125ULL,
  95367431640625ULL,
  476837158203125ULL,
  2384185791015625ULL,
  11920928955078125ULL,
  59604644775390625ULL,
  298023223876953125ULL,
  1490116119384765625ULL,
  7450580596923828125ULL,
};

/// 10^k, k <= 38.
static U128
pow10(unsigned k)
{
  return k <= 19U ? (U128)pow10_u64[k]
                  : (U128)pow10_u64[19] * pow10_u64[k - 19U];
}

/// 5^k, k <= 54.
static U128
pow5(unsigned k)
{
  return k <= 27U ? (U128)pow5_u64[k] : (U128)pow5_u64[27] * pow5_u64[k - 27U];
}

/// The number of decimal digits of n > 0.
static unsigned
n_digits(U128 n)
{
  const uint64_t hi   = (uint64_t)(n >> 64U);
  const unsigned bits = hi ? 128U - (unsigned)__builtin_clzll(hi)
                           : 64U - (unsigned)__builtin_clzll((uint64_t)n);
  // bits * log10(2), which is the count or one less.
  const unsigned guess = (bits * 1233U) >> 12U;
  return guess + (n >= pow10(guess) ? 1U : 0U);
}

size_t
p4d_decimal_g9(const float x, char* const text)
{
  uint32_t bits = 0U;
  memcpy(&bits, &x, sizeof bits);
  const uint32_t biased = (bits >> 23U) & 0xFFU;
  const uint32_t frac   = bits & 0x7FFFFFU;
  // The value is m * 2^e2.
  const uint32_t m  = biased ? frac | 0x800000U : frac;
  const int      e2 = biased ? (int)biased - 150 : -149;
  if (biased == 0xFFU || (m != 0U && e2 < -44)) {
    return (size_t)snprintf(text, P4D_DECIMAL_MAX, "%.9g", (double)x);
  }

  char* t = text;
  if (bits >> 31U) {
    *t++ = '-';
  }
  if (m == 0U) {
    *t++ = '0';
    *t   = '\0';
    return (size_t)(t - text);
  }

  // The value is n * 10^e10, n a whole number below 2^127.
  U128 n   = m;
  int  e10 = 0;
  if (e2 >= 0) {
    n <<= e2;
  } else {
    n *= pow5((unsigned)-e2);
    e10 = e2;
  }
  // Its first 9 digits q, rounded to nearest with ties to even.
  const unsigned nd  = n_digits(n);
  int            x10 = (int)nd - 1 + e10; // exponent of the first digit
  uint64_t       q   = 0U;
  if (nd <= 9U) {
    q = (uint64_t)n * (uint64_t)pow10(9U - nd);
  } else {
    const U128     unit = pow10(nd - 10U);
    const U128     ten  = n / unit; // the first 10 digits
    const bool     rest = ten * unit != n;
    const unsigned last = (unsigned)(ten % 10U);
    q                   = (uint64_t)(ten / 10U);
    if (last > 5U || (last == 5U && (rest || (q & 1U)))) {
      ++q;
    }
    if (q == 1000000000U) {
      q = 100000000U;
      ++x10;
    }
  }
  char d[9];
  for (unsigned i = 9U; i-- > 0U;) {
    d[i] = (char)('0' + q % 10U);
    q /= 10U;
  }
  // %g drops trailing zeros, then the point if nothing follows it.
  unsigned last = 9U;
  while (last > 1U && d[last - 1U] == '0') {
    --last;
  }

  if (x10 < -4 || x10 >= 9) {
    *t++ = d[0];
    if (last > 1U) {
      *t++ = '.';
      memcpy(t, d + 1, last - 1U);
      t += last - 1U;
    }
    t += snprintf(t, 8U, "e%c%02d", x10 < 0 ? '-' : '+', abs(x10));
    return (size_t)(t - text);
  }
  if (x10 < 0) {
    *t++ = '0';
    *t++ = '.';
    for (int i = -1; i > x10; --i) {
      *t++ = '0';
    }
    memcpy(t, d, last);
    t += last;
  } else {
    const unsigned whole = (unsigned)x10 + 1U;
    memcpy(t, d, whole);
    t += whole;
    if (last > whole) {
      *t++ = '.';
      memcpy(t, d + whole, last - whole);
      t += last - whole;
    }
  }
  *t = '\0';
  return (size_t)(t - text);
}

size_t
p4d_decimal_f6(const double x, char* const text)
{
  uint64_t bits = 0U;
  memcpy(&bits, &x, sizeof bits);
  const uint32_t biased = (uint32_t)(bits >> 52U) & 0x7FFU;
  const uint64_t frac   = bits & 0xFFFFFFFFFFFFFULL;
  const uint64_t m      = biased ? frac | 0x10000000000000ULL : frac;
  const int      e2     = biased ? (int)biased - 1075 : -1074;
  if (biased == 0x7FFU || e2 > 0) {
    return (size_t)snprintf(text, P4D_DECIMAL_MAX, "%.6f", x);
  }

  // q: the value times 10^6, rounded to nearest with ties to even.
  const U128 scaled = (U128)m * 1000000U;
  U128       q      = 0U;
  if (e2 == 0) {
    q = scaled;
  } else if (e2 > -128) {
    const unsigned s    = (unsigned)-e2;
    const U128     rem  = scaled & (((U128)1 << s) - 1U);
    const U128     half = (U128)1 << (s - 1U);
    q                   = scaled >> s;
    if (rem > half || (rem == half && (q & 1U))) {
      ++q;
    }
  }

  char* t = text;
  if (bits >> 63U) {
    *t++ = '-';
  }
  char     d[40];
  unsigned nd = u128_digits(q, d);
  if (nd < 7U) {
    // At least one whole digit, then six decimals.
    memmove(d + 7U - nd, d, nd);
    memset(d, '0', 7U - nd);
    nd = 7U;
  }
  memcpy(t, d, nd - 6U);
  t += nd - 6U;
  *t++ = '.';
  memcpy(t, d + nd - 6U, 6U);
  t += 6U;
  *t = '\0';
  return (size_t)(t - text);
}

#else // A compiler without 128-bit integers (32-bit targets): printf.

size_t
p4d_decimal_g9(const float x, char* const text)
{
  return (size_t)snprintf(text, P4D_DECIMAL_MAX, "%.9g", (double)x);
}

size_t
p4d_decimal_f6(const double x, char* const text)
{
  return (size_t)snprintf(text, P4D_DECIMAL_MAX, "%.6f", x);
}

#endif
