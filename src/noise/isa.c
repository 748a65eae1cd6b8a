// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The code paths of the noise core, and the choice of one.  The vector paths
  are compiled only for x86-64 (unless -Dsimd=disabled), each in its own
  file with its own target flags, and are called only when the CPU (and the
  OS, which must save the wider registers) supports them.  The path is
  chosen once, before main() or when the plugin is loaded; P4D_ISA can ask
  for a slower one.
*/

#include "kernel.h"
#include "noise.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(P4D_HAVE_AVX2) && defined(P4D_HAVE_AVX512)
#  define P4D_X86 1
#endif

static const char* const isa_names[P4D_ISA_COUNT] = { "scalar",
                                                      "avx2",
                                                      "avx512" };

static P4dSpan* const isa_spans[P4D_ISA_COUNT] = {
  p4d_noise_span_scalar,
#ifdef P4D_X86
  p4d_noise_span_avx2,
  p4d_noise_span_avx512,
#else
  NULL,
  NULL,
#endif
};

static P4dSpan* span_fn = p4d_noise_span_scalar;
static P4dIsa   isa_now = P4D_ISA_SCALAR;
static char     isa_note[160];

const char*
p4d_isa_name(P4dIsa isa)
{
  return (unsigned)isa < P4D_ISA_COUNT ? isa_names[isa] : "unknown";
}

bool
p4d_isa_supported(P4dIsa isa)
{
#ifdef P4D_X86
  __builtin_cpu_init();
  switch (isa) {
  case P4D_ISA_SCALAR:
    return true;
  case P4D_ISA_AVX2:
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  case P4D_ISA_AVX512:
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512dq");
  }
  return false;
#else
  return isa == P4D_ISA_SCALAR;
#endif
}

P4dIsa
p4d_isa_use(P4dIsa isa)
{
  P4dIsa use = (unsigned)isa < P4D_ISA_COUNT ? isa : P4D_ISA_AVX512;
  while (use > P4D_ISA_SCALAR && !p4d_isa_supported(use)) {
    use = (P4dIsa)(use - 1);
  }

  span_fn = isa_spans[use];
  isa_now = use;
  return use;
}

P4dIsa
p4d_isa_current(void)
{
  return isa_now;
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
  const char* const want = getenv("P4D_ISA");
  if (!want || !*want) {
    p4d_isa_use(P4D_ISA_AVX512);
    return;
  }

  unsigned i = 0U;
  while (i < P4D_ISA_COUNT && strcmp(want, isa_names[i])) {
    ++i;
  }

  const P4dIsa isa = i < P4D_ISA_COUNT ? (P4dIsa)i : P4D_ISA_AVX512;
  const P4dIsa use = p4d_isa_use(isa);
  if (i == P4D_ISA_COUNT) {
    snprintf(isa_note,
             sizeof(isa_note),
             "P4D_ISA=%.40s is not scalar, avx2 or avx512; using %s",
             want,
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

void
p4d_noise4_span(uint32_t     seed,
                const double origin[4],
                const double step[4],
                int64_t      first,
                float*       out,
                size_t       n)
{
  span_fn(seed_key(seed), origin, step, first, out, n, 0U);
}

void
p4d_noise4_span_loop(uint32_t     seed,
                     const double origin[4],
                     const double step[4],
                     int64_t      first,
                     float*       out,
                     size_t       n,
                     uint64_t     w_period)
{
  span_fn(
    seed_key(seed), origin, step, first, out, n, p4d_noise_period(w_period));
}
