// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The image rows of noise-bench (bench/image_bench.c): frames of 6-octave
  4D fBm in perlin4d beside FastNoise2, interleaved round by round.
*/

#ifndef P4D_IMAGE_BENCH_H
#define P4D_IMAGE_BENCH_H

#include <stdbool.h>

/// Whether the command line asks for the image rows (--image, or
/// --fastnoise2 PATH).
bool
p4d_image_bench_wanted(int argc, char** argv);

/**
   Run the image rows as the command line says (see image_bench.c) and
   print them.

   @return The program's exit status: 0, or 2 for a bad command line.
*/
int
p4d_image_bench_run(int argc, char** argv);

#endif // P4D_IMAGE_BENCH_H
