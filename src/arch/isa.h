// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file isa.h
   The code paths (instruction sets) of the vector code, and the choice of
   one.  Every path gives the same bits; they differ only in speed.  The
   fastest one the CPU supports is chosen when the library is loaded,
   unless the environment variable P4D_ISA names another (scalar, avx2,
   avx512 or neon), for tests and bug reports.  Vector paths exist only in
   builds that have them (x86-64: avx2, avx512; aarch64: neon; not with
   -Dsimd=disabled).  A machine supports only its own architecture's
   paths, so the order below (the fallback's) ranks the paths of each
   architecture among themselves.  The path in use is the only global
   state of the noise core and the engines.  See doc/vector-code.md.
*/

#ifndef P4D_ISA_H
#define P4D_ISA_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Code paths, slowest first (the order p4d_isa_use() falls back in).
typedef enum {
  P4D_ISA_SCALAR, ///< Portable C (src/arch/generic/)
  P4D_ISA_AVX2,   ///< 8 lanes: AVX2 and FMA (src/arch/x86/avx2.c)
  P4D_ISA_AVX512, ///< 16 lanes: AVX-512 F and DQ (src/arch/x86/avx512.c)
  P4D_ISA_NEON,   ///< 8 lanes in pairs of registers: aarch64's Advanced SIMD
                  ///< (src/arch/arm/neon.c)
} P4dIsa;

/// Number of code paths.
#define P4D_ISA_COUNT 4

/// The path's name as P4D_ISA spells it.  Realtime safe.
const char*
p4d_isa_name(P4dIsa isa);

/**
   The CPU features path isa needs, as Linux's /proc/cpuinfo names them,
   separated by spaces ("avx2 fma"; "" for the scalar path), or NULL when
   this build lacks the path.  Realtime safe.
*/
const char*
p4d_isa_needs(P4dIsa isa);

/// Whether this build has the path and this CPU can run it.  Realtime safe.
bool
p4d_isa_supported(P4dIsa isa);

/**
   Use path isa, or the fastest supported one below it.

   Not thread safe: call it before any thread evaluates noise (tests and
   benchmarks use it to compare paths).

   @return The path now in use.
*/
P4dIsa
p4d_isa_use(P4dIsa isa);

/// The path in use.  Realtime safe.
P4dIsa
p4d_isa_current(void);

/**
   Why P4D_ISA was not honoured when the library was loaded, as one line
   without a newline (the value was unknown, or the CPU lacks the path), or
   NULL.  The library never prints: a program that has a terminal prints
   this.
*/
const char*
p4d_isa_note(void);

#ifdef __cplusplus
}
#endif

#endif // P4D_ISA_H
