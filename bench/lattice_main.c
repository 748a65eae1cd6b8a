// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  lattice-bench: prints the lattice figures of issue 11 (see lattice.h).
  A stand-alone main until signal-bench calls p4d_bench_lattice() itself.
*/

#include "lattice.h"

int
main(void)
{
  p4d_bench_lattice();
  return 0;
}
