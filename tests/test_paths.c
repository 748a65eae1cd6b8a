// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Every code path of the noise core gives the same bytes as the scalar
  path: on random lines of every kind (fixed, slow and fast axes, both
  directions, cell and range edges, bad coordinates), and on the engines'
  real workloads.
*/

#undef NDEBUG

#include "engine.h"
#include "isa.h"
#include "noise.h"
#include "params.h"

#include "support/compare.h"
#include "support/rng.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The test's own reproducible randomness.
static P4dRng rng = { 0x9E3779B97F4A7C15ULL };

/// A coordinate that sits on an edge the splits must agree on.
static double
edge_coordinate(void)
{
  static const double edges[] = {
    0.0,     -0.0,         1.0,     -1.0,         0.5,
    -0.5,    0x1p50,       -0x1p50, 0x1p50 + 4.0, 0x1p32,
    -0x1p32, 4294967295.5, -2.0,    1.0e-300,     -1.0e-300,
  };
  const double e = edges[p4d_rng_below(&rng, sizeof(edges) / sizeof(edges[0]))];
  switch (p4d_rng_below(&rng, 3U)) {
  case 0U:
    return e;
  case 1U:
    return nextafter(e, INFINITY);
  default:
    return nextafter(e, -INFINITY);
  }
}

/// A line of one of the kinds the paths treat differently.
static void
random_line(unsigned kind, double origin[4], double step[4])
{
  for (unsigned a = 0U; a < 4U; ++a) {
    origin[a] = p4d_rng_uniform(&rng, -1000.0, 1000.0);
    step[a]   = 0.0;
  }

  switch (kind) {
  case 0U: // Along w only, slowly: the Mod's lines
    step[3] = p4d_rng_uniform(&rng, 0.0, 0.1);
    break;
  case 1U: // Slow in space, fast in time: the Noise's lines
    for (unsigned a = 0U; a < 3U; ++a) {
      step[a] = p4d_rng_uniform(&rng, -1.0e-3, 1.0e-3);
    }
    step[3] = p4d_rng_uniform(&rng, -0.7, 0.7);
    break;
  case 2U: // Too fast in w for layers
    step[3] =
      p4d_rng_uniform(&rng, 0.5, 4.0) * (p4d_rng_below(&rng, 2U) ? 1.0 : -1.0);
    step[0] = p4d_rng_uniform(&rng, -1.0e-4, 1.0e-4);
    break;
  case 3U: // Fast on every axis
    for (unsigned a = 0U; a < 4U; ++a) {
      step[a] = p4d_rng_uniform(&rng, -1.0, 1.0);
    }
    break;
  case 4U: // Edges: zeros, integers, range limits, tiny and zero steps
    for (unsigned a = 0U; a < 4U; ++a) {
      origin[a] = edge_coordinate();
      step[a] =
        p4d_rng_below(&rng, 2U) ? 0.0 : p4d_rng_uniform(&rng, -1.0e-7, 1.0e-7);
    }
    if (p4d_rng_below(&rng, 2U)) {
      step[3] = p4d_rng_uniform(&rng, -0.3, 0.3);
    }
    break;
  case 5U: // Bad coordinates somewhere along the line
    origin[p4d_rng_below(&rng, 4U)] =
      p4d_rng_below(&rng, 2U) ? NAN : 0x1p50 - p4d_rng_uniform(&rng, 0.0, 8.0);
    step[p4d_rng_below(&rng, 4U)] =
      p4d_rng_below(&rng, 3U) ? p4d_rng_uniform(&rng, -1.0, 1.0) : INFINITY;
    break;
  default: // Integer steps: every point on a cell face
    for (unsigned a = 0U; a < 4U; ++a) {
      origin[a] = (double)(int)p4d_rng_uniform(&rng, -50.0, 50.0);
      step[a]   = (double)(int)p4d_rng_uniform(&rng, -3.0, 3.0) * 0.25;
    }
    break;
  }
}

#define N_KINDS 7U
#define MAX_N 700U

static void
test_random_lines(P4dIsa isa)
{
  static float want[MAX_N];
  static float got[MAX_N];
  unsigned     n_lines = 0U;

  for (unsigned trial = 0U; trial < 7000U; ++trial) {
    const unsigned kind = trial % N_KINDS;
    double         origin[4];
    double         step[4];
    random_line(kind, origin, step);

    const uint32_t seed  = (uint32_t)p4d_rng_next(&rng);
    const int64_t  first = (int64_t)p4d_rng_uniform(&rng, -1.0e6, 1.0e6);
    const size_t   n     = 1U + p4d_rng_below(&rng, MAX_N);

    p4d_isa_use(P4D_ISA_SCALAR);
    p4d_noise4_span(seed, origin, step, first, want, n);
    p4d_isa_use(isa);
    p4d_noise4_span(seed, origin, step, first, got, n);

    const P4dSpanLine line = {
      p4d_isa_name(isa), kind, seed, origin, step, first, NULL
    };
    p4d_assert_same_span(&line, want, got, n);
    ++n_lines;
  }

  printf("# %s: %u random lines, same bytes as scalar\n",
         p4d_isa_name(isa),
         n_lines);
}

/// Settings that move the engines' lines in every way the paths care about.
static void
engine_params(P4dKind kind, unsigned variant, float* params)
{
  const P4dParamTable* table = p4d_params(kind);
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    params[i] = table->params[i].def;
  }

  if (kind == P4D_KIND_NOISE) {
    // At render_engine's 24 kHz the band ends at 12 kHz: a grain there would
    // render silence. 5000 Hz still crosses a cell every few samples.
    static const float grain_hz[] = { 1000.0f, 5000.0f, 20.0f, 7000.0f };
    static const float evolve[]   = { 0.5f, 20.0f, 0.0f, 3.0f };
    params[P4D_NOISE_GRAIN_HZ]    = grain_hz[variant];
    params[P4D_NOISE_EVOLVE_HZ]   = evolve[variant];
    params[P4D_NOISE_OCTAVES]     = variant == 1U ? 10.0f : 6.0f;
    params[P4D_NOISE_LACUNARITY]  = variant == 3U ? 3.7f : 2.0f;
    params[P4D_NOISE_MORPH_X]     = variant == 2U ? -15.5f : 0.0f;
    params[P4D_NOISE_SEED]        = (float)(variant * 977U);
  } else {
    static const float rate_hz[] = { 0.5f, 50.0f, 0.001f, 13.0f };
    params[P4D_MOD_RATE_HZ]      = rate_hz[variant];
    params[P4D_MOD_OCTAVES]      = variant == 1U ? 8.0f : 3.0f;
    params[P4D_MOD_LACUNARITY]   = variant == 3U ? 4.0f : 2.0f;
    params[P4D_MOD_CLOCK]        = variant == 2U ? 1.0f : 0.0f;
    params[P4D_MOD_MORPH_Y]      = variant == 3U ? 9.25f : 0.0f;
    params[P4D_MOD_SEED]         = (float)(variant * 313U);
  }
}

#define N_FRAMES 24000U

/// One second (at 24 kHz) of an engine from a song frame, in blocks of 256.
static void
render_engine(P4dKind  kind,
              unsigned variant,
              int64_t  song_frame,
              float    out[][N_FRAMES])
{
  P4dEngine* e = NULL;
  assert(p4d_engine_new(kind, 24000.0, &e) == P4D_SUCCESS);
  p4d_engine_activate_at(e, song_frame, 120.0);

  float params[P4D_MAX_PARAMS];
  engine_params(kind, variant, params);
  for (uint32_t done = 0U; done < N_FRAMES; done += 256U) {
    float* ch[P4D_MAX_CHANNELS];
    for (unsigned c = 0U; c < p4d_engine_channels(kind); ++c) {
      ch[c] = out[c] + done;
    }
    p4d_engine_process(
      e, params, ch, N_FRAMES - done < 256U ? N_FRAMES - done : 256U);
  }
  p4d_engine_free(e);
}

/// Root mean square of n samples.
static double
rms(const float* x, size_t n)
{
  double sum = 0.0;
  for (size_t i = 0U; i < n; ++i) {
    sum += (double)x[i] * x[i];
  }
  return sqrt(sum / (double)n);
}

static void
test_engines(P4dIsa isa)
{
  // The references must sound: a silent one would compare zeros with zeros.
  static bool printed = false;

  static float         want[P4D_MAX_CHANNELS][N_FRAMES];
  static float         got[P4D_MAX_CHANNELS][N_FRAMES];
  static const int64_t song_frames[] = { 0, 86400LL * 48000LL, 123456789 };

  unsigned n_runs = 0U;
  for (unsigned k = 0U; k < 2U; ++k) {
    const P4dKind kind = k ? P4D_KIND_NOISE : P4D_KIND_MOD;
    for (unsigned variant = 0U; variant < 4U; ++variant) {
      for (unsigned s = 0U; s < 3U; ++s) {
        p4d_isa_use(P4D_ISA_SCALAR);
        render_engine(kind, variant, song_frames[s], want);
        double least_rms = INFINITY;
        for (unsigned c = 0U; c < p4d_engine_channels(kind); ++c) {
          least_rms = fmin(least_rms, rms(want[c], N_FRAMES));
        }
        if (!printed) {
          printf("# reference %s variant %u from frame %lld: least channel "
                 "RMS %.4g\n",
                 k ? "noise" : "mod",
                 variant,
                 (long long)song_frames[s],
                 least_rms);
        }
        assert(least_rms > 0.0);
        p4d_isa_use(isa);
        render_engine(kind, variant, song_frames[s], got);
        for (unsigned c = 0U; c < p4d_engine_channels(kind); ++c) {
          const size_t f = p4d_first_difference(want[c], got[c], N_FRAMES);
          if (f < N_FRAMES) {
            fprintf(stderr,
                    "%s: %s variant %u from frame %lld differs on channel %u "
                    "at frame %zu: %a instead of %a\n",
                    p4d_isa_name(isa),
                    k ? "noise" : "mod",
                    variant,
                    (long long)song_frames[s],
                    c,
                    f,
                    (double)got[c][f],
                    (double)want[c][f]);
            abort();
          }
        }
        ++n_runs;
      }
    }
  }

  printed = true;
  printf("# %s: %u engine renders, same bytes as scalar\n",
         p4d_isa_name(isa),
         n_runs);
}

static void
test_selection(void)
{
  // Asking for a path gives it when supported, else the best one below.
  for (unsigned i = 0U; i < P4D_ISA_COUNT; ++i) {
    const P4dIsa want = (P4dIsa)i;
    const P4dIsa got  = p4d_isa_use(want);
    assert(p4d_isa_supported(got) && got <= want);
    assert(got == want || !p4d_isa_supported(want));
  }
  assert(p4d_isa_supported(P4D_ISA_SCALAR));
  assert(!strcmp(p4d_isa_name(P4D_ISA_AVX512), "avx512"));
}

/// Whether the space-separated word list has word.
static bool
has_word(const char* list, const char* word, size_t length)
{
  for (const char* p = strstr(list, word); p; p = strstr(p + 1, word)) {
    const bool starts = p == list || p[-1] == ' ' || p[-1] == '\t';
    const char end    = p[length];
    if (starts && (end == ' ' || end == '\t' || end == '\n' || !end)) {
      return true;
    }
  }
  return false;
}

static void
test_cpu_features(void)
{
  // A path this build has is supported exactly when the CPU has what it
  // needs, as the OS reports it (Linux: flags on x86, Features on ARM).
  // Under qemu-user the list is the host's, of another architecture, and
  // has no line of this one's name.
#if defined(__aarch64__)
  static const char key[] = "Features";
#else
  static const char key[] = "flags";
#endif
  char        line[8192];
  bool        found   = false;
  FILE* const cpuinfo = fopen("/proc/cpuinfo", "r");
  while (cpuinfo && !found && fgets(line, sizeof(line), cpuinfo)) {
    found = !strncmp(line, key, sizeof(key) - 1U);
  }
  if (cpuinfo) {
    const int closed = fclose(cpuinfo);
    assert(!closed);
  }
  if (!found) {
    printf("# no CPU feature list: the paths not checked against it\n");
    return;
  }

  const char* const list = strchr(line, ':');
  assert(list);
  for (unsigned i = 0U; i < P4D_ISA_COUNT; ++i) {
    const P4dIsa      isa   = (P4dIsa)i;
    const char* const needs = p4d_isa_needs(isa);
    if (!needs) {
      assert(!p4d_isa_supported(isa));
      continue;
    }
    bool has = true;
    for (const char* w = needs; *w;) {
      const size_t length = strcspn(w, " ");
      char         word[32];
      assert(length > 0U && length < sizeof(word));
      memcpy(word, w, length);
      word[length] = '\0';
      has          = has && has_word(list + 1, word, length);
      w += length + (w[length] == ' ');
    }
    assert(p4d_isa_supported(isa) == has);
    printf("# %s needs \"%s\": %s\n",
           p4d_isa_name(isa),
           needs,
           has ? "has" : "lacks");
  }
}

int
main(void)
{
  test_selection();

  unsigned n_compared = 0U;
  for (unsigned i = 1U; i < P4D_ISA_COUNT; ++i) {
    const P4dIsa isa = (P4dIsa)i;
    if (!p4d_isa_supported(isa)) {
      printf("# %s: not in this build or not on this CPU\n", p4d_isa_name(isa));
      continue;
    }
    test_random_lines(isa);
    test_engines(isa);
    ++n_compared;
  }

  test_cpu_features();
  printf("# %u vector paths compared\n", n_compared);
  return 0;
}
