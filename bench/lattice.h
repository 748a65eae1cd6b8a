// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file lattice.h
   The lattice figures of issue 11 (items 7 and 8), measured on the noise
   core as it is: wrap and freeze along time, smoothness at song hour
   10,000, the avalanche of the lattice hash, and the correlation of the
   noise with itself 2^k cells along each axis.
*/

#ifndef P4D_BENCH_LATTICE_H
#define P4D_BENCH_LATTICE_H

/**
   Measure the lattice figures and print one line per figure on stdout:
   its name, the measured value, the target, and "met" or "not met".

   Single threaded and deterministic (a fixed pseudo-random sequence); a few
   seconds.  Not realtime safe (prints).

   @return The number of figures printed "not met".
*/
unsigned
p4d_bench_lattice(void);

#endif // P4D_BENCH_LATTICE_H
