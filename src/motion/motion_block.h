// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file motion_block.h
   Motion's per-frame maths over a chunk of frames (src/motion/motion_audio.c):
   the delay line's windowed-sinc read (the points of a frame as vector
   lanes) and the gain law's exponential and the pan's sine (the frames as
   vector lanes).  Every lane does exactly the operations of
   p4d_motion_read_one() (motion_private.h), p4d_exact_exp_short() and
   p4d_exact_quarter_sin_short() (exact_math.h) in their order (no
   contraction: -ffp-contract=off), so every path gives their bits.  The
   paths are src/arch/motion_template.h's, on the path in use (isa.h): 2
   lanes (generic), 4 (AVX2) or 8 (AVX-512).  Pure and realtime safe.
   Internal to Motion.
*/

#ifndef P4D_MOTION_BLOCK_H
#define P4D_MOTION_BLOCK_H

#include <stdint.h>

/**
   y[i] = the read of one side's line through kernel (motion_kernel.h's
   table) at absolute frame w0 + i minus d[i] frames (d[i] >=
   P4D_MOTION_TAPS / 2), for i < n: p4d_motion_read_one()'s bits (the tap
   at a whole delay).  Realtime safe.
*/
void
p4d_motion_block_read(const double* line,
                      const double* kernel,
                      uint32_t      mask,
                      int64_t       w0,
                      const double* d,
                      double*       y,
                      uint32_t      n);

/// y[i] = p4d_exact_exp_short(x[i]) for i < n.  Realtime safe.
void
p4d_motion_block_exp(const double* x, double* y, uint32_t n);

/// y[i] = p4d_exact_quarter_sin_short()'s lane for a[i] in [0, 1], for i < n.
/// Realtime safe.
void
p4d_motion_block_sin(const double* a, double* y, uint32_t n);

#endif // P4D_MOTION_BLOCK_H
