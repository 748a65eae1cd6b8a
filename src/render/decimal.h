// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file decimal.h
   Decimal text of the CSV's numbers, byte for byte what glibc's printf
   writes for "%.9g" of a float and "%.6f" of a double (correctly rounded,
   ties to even), in a tenth of its instructions: exact integer arithmetic
   on the binary value, no locale.  The few values outside the exact range
   (a float below 2^-44 in magnitude, a double at or above 2^53, NaN, Inf)
   are handed to snprintf.
*/

#ifndef P4D_DECIMAL_H
#define P4D_DECIMAL_H

#include <stddef.h>

/// Room for any text these functions write, with its terminating NUL
/// ("%.6f" of the largest double has 316 characters).
#define P4D_DECIMAL_MAX 320U

/// x as "%.9g" writes it, into text (P4D_DECIMAL_MAX bytes); the length.
size_t
p4d_decimal_g9(float x, char* text);

/// x as "%.6f" writes it, into text (P4D_DECIMAL_MAX bytes); the length.
size_t
p4d_decimal_f6(double x, char* text);

#endif // P4D_DECIMAL_H
