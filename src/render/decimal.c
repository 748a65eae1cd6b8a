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
  do {
    // Nineteen digits at a time through a 64-bit remainder.
    const uint64_t chunk = (uint64_t)(n % 10000000000000000000ULL);
    n /= 10000000000000000000ULL;
    uint64_t c = chunk;
    for (unsigned i = 0U; i < 19U && (c != 0U || n != 0U); ++i) {
      rev[k++] = (char)('0' + c % 10U);
      c /= 10U;
    }
  } while (n != 0U);
  if (k == 0U) {
    rev[k++] = '0';
  }
  for (unsigned i = 0U; i < k; ++i) {
    digits[i] = rev[k - 1U - i];
  }
  return k;
}

/**
   Round the n digits d (n > keep) to their first keep, to nearest with
   ties to even; the keep digits stay in d.  True if the rounding carried
   out of the first digit (d is then "1" and keep - 1 zeros, one decimal
   place higher).
*/
static bool
round_digits(char* d, unsigned n, unsigned keep)
{
  bool up = false;
  if (d[keep] != '5') {
    up = d[keep] > '5';
  } else {
    bool rest = false;
    for (unsigned i = keep + 1U; i < n; ++i) {
      rest = rest || d[i] != '0';
    }
    up = rest || (d[keep - 1U] - '0') % 2 == 1;
  }
  if (!up) {
    return false;
  }
  for (unsigned i = keep; i-- > 0U;) {
    if (d[i] != '9') {
      ++d[i];
      return false;
    }
    d[i] = '0';
  }
  d[0] = '1';
  return true;
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
    for (int i = 0; i < -e2; ++i) {
      n *= 5U;
    }
    e10 = e2;
  }
  char     d[40];
  unsigned nd  = u128_digits(n, d);
  int      x10 = (int)nd - 1 + e10; // exponent of the first digit
  if (nd > 9U) {
    x10 += round_digits(d, nd, 9U) ? 1 : 0;
  }
  for (unsigned i = nd; i < 9U; ++i) {
    d[i] = '0';
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
