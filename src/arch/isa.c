// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The choice of a code path: the one place that knows which tables this
  build holds, what each needs of the CPU, and which one runs.  Every
  vector path is compiled in its own file with its own target flags
  (src/arch/meson.build) and is called only when the CPU (and the OS,
  which must save the wider registers) supports it.  The path is chosen
  once, before main() or when the plugin is loaded; P4D_ISA can ask for a
  slower one.  The noise core gets the chosen table's span and points
  (p4d_noise_paths_use()); the engines read the table (p4d_isa_table()).
*/

#include "isa.h"
#include "isa_table.h"
#include "kernel.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
  The tables this build holds: the build defines P4D_ISA_BUILT(X) as
  X(name) for each vector path it compiled (src/arch/meson.build), empty
  without any.
*/
#ifndef P4D_ISA_BUILT
#  define P4D_ISA_BUILT(X)
#endif
#define P4D_ISA_ROW(name) &p4d_isa_##name,

// In C the address of a table is a constant: no order of initialisation
// (the check's C++ concern) exists.
// NOLINTNEXTLINE(cppcoreguidelines-interfaces-global-init)
static const P4dIsaTable* const built[] = { &p4d_isa_generic,
                                            P4D_ISA_BUILT(P4D_ISA_ROW) };

#undef P4D_ISA_ROW

/*
  What each path needs of the CPU.  __builtin_cpu_supports() also asks
  the OS (XGETBV) whether it saves the path's registers.
*/
#if defined(__GNUC__) && defined(__x86_64__)
static bool
x86_avx2(void)
{
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

static bool
x86_avx512(void)
{
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512dq");
}
#  define P4D_X86(f) f
#else
#  define P4D_X86(f) NULL
#endif

/// Advanced SIMD is architectural on aarch64: every CPU and OS has it.
#if defined(__aarch64__)
static bool
arm_neon(void)
{
  return true;
}
#  define P4D_ARM64(f) f
#else
#  define P4D_ARM64(f) NULL
#endif

/// A path's name, the CPU features it needs (as /proc/cpuinfo names them)
/// and the test of them (NULL: this machine never has them).
typedef struct {
  const char* name;
  const char* needs;
  bool (*cpu_has)(void);
} IsaNeeds;

static const IsaNeeds isa_needs[P4D_ISA_COUNT] = {
  { "scalar", "", NULL },
  { "avx2", "avx2 fma", P4D_X86(x86_avx2) },
  { "avx512", "avx512f avx512dq", P4D_X86(x86_avx512) },
  { "neon", "asimd", P4D_ARM64(arm_neon) },
};

// The path in use: generic until isa_init() runs (an address constant).
// NOLINTNEXTLINE(cppcoreguidelines-interfaces-global-init)
static const P4dIsaTable* table_now = &p4d_isa_generic;
static char               isa_note[160];

/// The table of path isa in this build, or NULL.
static const P4dIsaTable*
built_table(P4dIsa isa)
{
  for (size_t i = 0U; i < sizeof(built) / sizeof(built[0]); ++i) {
    if (built[i]->isa == isa) {
      return built[i];
    }
  }
  return NULL;
}

const char*
p4d_isa_name(P4dIsa isa)
{
  return (unsigned)isa < P4D_ISA_COUNT ? isa_needs[isa].name : "unknown";
}

const char*
p4d_isa_needs(P4dIsa isa)
{
  return (unsigned)isa < P4D_ISA_COUNT && built_table(isa)
           ? isa_needs[isa].needs
           : NULL;
}

bool
p4d_isa_supported(P4dIsa isa)
{
  if ((unsigned)isa >= P4D_ISA_COUNT || !built_table(isa)) {
    return false;
  }
  return isa == P4D_ISA_SCALAR ||
         (isa_needs[isa].cpu_has && isa_needs[isa].cpu_has());
}

P4dIsa
p4d_isa_use(P4dIsa isa)
{
  unsigned use =
    (unsigned)isa < P4D_ISA_COUNT ? (unsigned)isa : P4D_ISA_COUNT - 1U;
  while (use > P4D_ISA_SCALAR && !p4d_isa_supported((P4dIsa)use)) {
    --use;
  }

  table_now = built_table((P4dIsa)use);
  p4d_noise_paths_use(
    table_now->noise_span, table_now->noise_points, table_now->weighted_add);
  return table_now->isa;
}

P4dIsa
p4d_isa_current(void)
{
  return table_now->isa;
}

const P4dIsaTable*
p4d_isa_table(void)
{
  return table_now;
}

const char*
p4d_isa_note(void)
{
  return isa_note[0] ? isa_note : NULL;
}

/// Pick the fastest path, or the one P4D_ISA names.
static void
isa_init(void)
{
  const P4dIsa      fastest = (P4dIsa)(P4D_ISA_COUNT - 1);
  const char* const want    = getenv("P4D_ISA");
  if (!want || !*want) {
    p4d_isa_use(fastest);
    return;
  }

  unsigned i = 0U;
  while (i < P4D_ISA_COUNT && strcmp(want, isa_needs[i].name)) {
    ++i;
  }

  const P4dIsa isa = i < P4D_ISA_COUNT ? (P4dIsa)i : fastest;
  const P4dIsa use = p4d_isa_use(isa);
  if (i == P4D_ISA_COUNT) {
    // "scalar, avx2, avx512 or neon": every name, whatever this build holds.
    char names[80] = "";
    for (unsigned k = 0U; k < P4D_ISA_COUNT; ++k) {
      const char* const sep = k == 0U                   ? ""
                              : k + 1U == P4D_ISA_COUNT ? " or "
                                                        : ", ";
      strncat(names, sep, sizeof(names) - strlen(names) - 1U);
      strncat(names, isa_needs[k].name, sizeof(names) - strlen(names) - 1U);
    }
    snprintf(isa_note,
             sizeof(isa_note),
             "P4D_ISA=%.40s is not %s; using %s",
             want,
             names,
             p4d_isa_name(use));
  } else if (use != isa) {
    snprintf(isa_note,
             sizeof(isa_note),
             "P4D_ISA=%s is not supported by this CPU; using %s",
             want,
             p4d_isa_name(use));
  }
}

#if defined(__GNUC__)
__attribute__((constructor)) static void
isa_init_on_load(void)
{
  isa_init();
}
#endif
