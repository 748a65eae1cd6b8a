// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file motion_kernel.h
   The kernel of Motion's delay line read (issue 23, item 1): a
   Kaiser-windowed sinc of P4D_MOTION_TAPS points (beta
   P4D_MOTION_KAISER_BETA), tabulated at P4D_MOTION_PHASES fractions of a
   frame, a read interpolating linearly between the two phases either side
   of its fraction.  Against an ideal resampling it is within -98 dB up to
   2/3 of Nyquist and -92 dB up to 0.79 of Nyquist, whatever the fraction
   (tests/test_motion_read.c prints the table).  The table is computed
   with +, -, *, / and sqrt alone (exact_math.h's sine), so it has the same
   bits on every machine.  Internal to Motion.
*/

#ifndef P4D_MOTION_KERNEL_H
#define P4D_MOTION_KERNEL_H

#include <stddef.h>

/// Points of the read: line frames w - floor(d) - TAPS / 2 to
/// w - floor(d) + TAPS / 2 - 1.
#define P4D_MOTION_TAPS 32U

/// The points after the wanted time: the margin of the delay line (and
/// the least delay a read takes).
#define P4D_MOTION_MARGIN (P4D_MOTION_TAPS >> 1U)

/// Fractions of a frame tabulated (a power of 2).
#define P4D_MOTION_PHASES 512U

/// The Kaiser window's beta.
#define P4D_MOTION_KAISER_BETA 10.0

/// Partial sums of a read (see motion_template.h); divides P4D_MOTION_TAPS.
#define P4D_MOTION_SUMS 8U

/// Doubles per phase: the TAPS weights, then their steps to the next phase.
#define P4D_MOTION_ROW (P4D_MOTION_TAPS + P4D_MOTION_TAPS)

/// Doubles of the table.
#define P4D_MOTION_KERNEL_SIZE ((size_t)P4D_MOTION_PHASES * P4D_MOTION_ROW)

/**
   Fill kernel (P4D_MOTION_KERNEL_SIZE doubles): row p holds, for the
   fraction f = p / PHASES, the weights h_k = sinc(k - TAPS / 2 + f) w(k -
   TAPS / 2 + f) of points k = 0 .. TAPS - 1 (w the Kaiser window over
   (-TAPS / 2, TAPS / 2)), then the steps h_k(f + 1 / PHASES) - h_k(f).
   Row 0 is the unit impulse at k = TAPS / 2, so a whole delay reads the
   tap.  Not realtime safe (about 16k window evaluations).
*/
void
p4d_motion_kernel_fill(double* kernel);

#endif // P4D_MOTION_KERNEL_H
