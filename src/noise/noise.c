// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Improved Perlin noise in 4D.

  A point p splits into its lattice cell c = floor(p) and its fraction
  f = p - c.  Each of the 16 corners of the cell's hypercube gets a pseudo
  random gradient; the noise is the quintic-faded multilinear blend of the 16
  dot products gradient . (p - corner).  At a lattice point every fraction
  is 0, so the blend picks one dot product with a zero offset: exactly 0.

  Gradients.  The 32 vectors from the centre of the 4D hypercube to the
  centres of its edges: one coordinate 0, the other three +-1.  Dot products
  with them are three additions of +-offsets, no multiplication.  Gradient
  index g (0..31): the axis g >> 3 is the zero one; bits 2, 1, 0 negate the
  remaining axes in ascending order.

  Fade.  6t^5 - 15t^4 + 10t^3 has zero first and second derivatives at 0
  and 1, so the noise is C2 across cell faces (no creases in the spectrum).

  Hash.  The 256-entry permutation table of the reference noise repeats every
  256 cells.  Here every corner's gradient is drawn from a hash of the seed
  and the full 32-bit cell coordinate of every axis, chained axis by axis
  (x, y, z, w) so that 2 + 4 + 8 + 16 multiplications serve all 16 corners.
  Each link folds the high half of the running hash onto the low half, mixes
  in the coordinate and multiplies by an odd constant; a final xorshift-
  multiply lets every bit reach the top 5 bits that pick the gradient.  The
  lattice therefore repeats only after 2^32 cells on an axis.

  Precision.  Coordinates arrive as doubles; floor() and the subtraction are
  exact, so the fraction is exact before it is rounded once to float.  The
  rest is float arithmetic in a fixed order (the build disables contraction
  into fused multiply-adds), so every code path gives the same bits.

  Output scale.  Each dot product is at most 3 in magnitude.  The largest
  raw blend, found by hill climbing over points and all 32^16 gradient
  configurations, is about 1.537 (near the cell centre with every gradient
  pointing inwards); 10^7 random points reach about 1.159 and have a
  standard deviation of about 0.293.  P4D_NOISE_SCALE = 0.86 maps that
  practical peak just below 1, so typical output uses the whole range with
  a standard deviation of about 0.25; the rare excess is clamped.

  Lipschitz bound.  The gradient of the blend is sum_c W_c g_c +
  sum_c L_c grad W_c (weights W_c, dot products L_c).  The same hill climb
  over points, directions and gradient configurations finds the largest
  directional slope of the raw blend at the cell centre: the fade's
  steepest slope (15/8) times a dot-product difference of 3, 45/8 = 5.625
  per cell.  Scaled, that is 4.8375: P4D_NOISE_LIPSCHITZ.  Clamping never
  increases a slope.
*/

#include "noise.h"
#include "kernel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The noise in the cell c at fraction f, for a key from seed_key().
static inline float
kernel(uint32_t key, const uint32_t c[4], const float f[4])
{
  float u[4];
  float d[2][4];
  for (unsigned k = 0U; k < 4U; ++k) {
    u[k]    = fade(f[k]);
    d[0][k] = f[k];
    d[1][k] = f[k] - 1.0f;
  }

  // Chain the hash through the axes, x to w.
  uint32_t h[16];
  hash_corners(key, c, 4U, h);

  float v[16];
  P4D_UNROLL
  for (unsigned i = 0U; i < 16U; ++i) {
    v[i] = gradient_dot(hash_gradient(h[i]),
                        d[i & 1U][0],
                        d[(i >> 1U) & 1U][1],
                        d[(i >> 2U) & 1U][2],
                        d[(i >> 3U) & 1U][3]);
  }

  // Blend along x, then y, z and w: 8 + 4 + 2 + 1 lerps.
  P4D_UNROLL
  for (unsigned k = 0U, n = 8U; k < 4U; ++k, n >>= 1U) {
    P4D_UNROLL
    for (unsigned i = 0U; i < n; ++i) {
      v[i] = lerp(u[k], v[2U * i], v[2U * i + 1U]);
    }
  }

  return clamp_unit(v[0] * P4D_NOISE_SCALE);
}

float
p4d_noise4(uint32_t seed, double x, double y, double z, double w)
{
  const double p[4] = { x, y, z, w };
  uint32_t     c[4];
  float        f[4];
  for (unsigned k = 0U; k < 4U; ++k) {
    split(p[k], &c[k], &f[k]);
  }

  return kernel(seed_key(seed), c, f);
}

void
p4d_noise_span_scalar(uint32_t     key,
                      const double origin[4],
                      const double step[4],
                      int64_t      first,
                      float*       out,
                      size_t       n)
{
  for (size_t i = 0U; i < n; ++i) {
    const double t = (double)(first + (int64_t)i);
    uint32_t     c[4];
    float        f[4];
    for (unsigned k = 0U; k < 4U; ++k) {
      split(origin[k] + t * step[k], &c[k], &f[k]);
    }

    out[i] = kernel(key, c, f);
  }
}

/*
  Code paths.  The vector paths are compiled only for x86-64, each in its
  own file with its own target flags, and are called only when the CPU (and
  the OS, which must save the wider registers) supports them.  The path is
  chosen once, before main() or when the plugin is loaded; P4D_ISA can ask
  for a slower one.
*/

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

static P4dIsa   isa_in_use = P4D_ISA_SCALAR;
static P4dSpan* span_fn    = p4d_noise_span_scalar;
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
p4d_isa(void)
{
  return isa_in_use;
}

P4dIsa
p4d_isa_use(P4dIsa isa)
{
  P4dIsa use = (unsigned)isa < P4D_ISA_COUNT ? isa : P4D_ISA_AVX512;
  while (use > P4D_ISA_SCALAR && !p4d_isa_supported(use)) {
    use = (P4dIsa)(use - 1);
  }

  isa_in_use = use;
  span_fn    = isa_spans[use];
  return use;
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
  span_fn(seed_key(seed), origin, step, first, out, n);
}

void
p4d_noise4_line(uint32_t     seed,
                const double origin[4],
                const double step[4],
                float*       out,
                size_t       n)
{
  p4d_noise4_span(seed, origin, step, 0U, out, n);
}

/*
  fBm.  Octave k has its own seed (the seed plus k times an odd constant, so
  every octave of every seed is a different lattice hash) and its own offset
  off the lattice, so that no two octaves pass through lattice points
  together and fBm is not 0 at the origin.  The offsets are the fractional
  parts of multiples of irrational numbers (golden ratio, sqrt 2, sqrt 3,
  sqrt 5).
*/

static const double octave_offset[4] = { 0.6180339887498949,
                                         0.4142135623730950,
                                         0.7320508075688772,
                                         0.2360679774997897 };

/// Odd constant that separates the octave seeds.
#define P4D_OCTAVE_SEED_STEP 0x6C8E9CF5u

/// Octaves are evaluated in chunks of this many points on the stack.
#define P4D_FBM_CHUNK 256U

static float
clampf(float v, float lo, float hi, float fallback)
{
  return v != v ? fallback : v < lo ? lo : v > hi ? hi : v;
}

P4dFbm
p4d_fbm_clamp(P4dFbm settings)
{
  const double lac = settings.lacunarity;

  settings.octaves =
    clampf(settings.octaves, 1.0f, (float)P4D_FBM_MAX_OCTAVES, 3.0f);
  settings.persistence = clampf(settings.persistence, 0.0f, 1.0f, 0.5f);
  settings.lacunarity  = lac != lac   ? 2.0
                         : lac < 1.0  ? 1.0
                         : lac > 16.0 ? 16.0
                                      : lac;
  return settings;
}

unsigned
p4d_fbm_weights(const P4dFbm* settings, float weight[P4D_FBM_MAX_OCTAVES])
{
  const P4dFbm   s        = p4d_fbm_clamp(*settings);
  const unsigned n_full   = (unsigned)s.octaves;
  const float    fraction = s.octaves - (float)n_full;
  const unsigned n_oct    = n_full + (fraction > 0.0f ? 1U : 0U);

  float amplitude = 1.0f;
  for (unsigned k = 0U; k < n_oct; ++k) {
    weight[k] = k < n_full ? amplitude : amplitude * fraction;
    amplitude *= s.persistence;
  }

  return n_oct;
}

uint32_t
p4d_fbm_octave(uint32_t     seed,
               unsigned     k,
               double       scale,
               const double origin[4],
               const double step[4],
               double       octave_origin[4],
               double       octave_step[4])
{
  for (unsigned a = 0U; a < 4U; ++a) {
    const double off = (double)(k + 1U) * octave_offset[a];
    octave_origin[a] = origin[a] * scale + (off - floor(off));
    octave_step[a]   = step[a] * scale;
  }

  return seed + k * P4D_OCTAVE_SEED_STEP;
}

void
p4d_fbm4_span(const P4dFbm* settings,
              uint32_t      seed,
              const double  origin[4],
              const double  step[4],
              int64_t       first,
              float*        out,
              size_t        n)
{
  const P4dFbm   s = p4d_fbm_clamp(*settings);
  float          weight[P4D_FBM_MAX_OCTAVES];
  const unsigned n_oct = p4d_fbm_weights(&s, weight);

  // The normalising sum does not depend on the point.
  float sum = 0.0f;
  for (unsigned k = 0U; k < n_oct; ++k) {
    sum += weight[k];
  }
  const float norm = 1.0f / sum;

  for (size_t done = 0U; done < n; done += P4D_FBM_CHUNK) {
    const size_t m = n - done < P4D_FBM_CHUNK ? n - done : P4D_FBM_CHUNK;
    float        acc[P4D_FBM_CHUNK];
    float        octave[P4D_FBM_CHUNK];
    double       scale = 1.0;

    for (size_t i = 0U; i < m; ++i) {
      acc[i] = 0.0f;
    }

    for (unsigned k = 0U; k < n_oct; ++k) {
      double         o[4];
      double         st[4];
      const uint32_t octave_seed =
        p4d_fbm_octave(seed, k, scale, origin, step, o, st);

      p4d_noise4_span(octave_seed, o, st, first + (int64_t)done, octave, m);
      for (size_t i = 0U; i < m; ++i) {
        acc[i] += weight[k] * octave[i];
      }
      scale *= s.lacunarity;
    }

    for (size_t i = 0U; i < m; ++i) {
      const float v = acc[i] * norm;
      out[done + i] = v > 1.0f ? 1.0f : v < -1.0f ? -1.0f : v;
    }
  }
}

float
p4d_fbm4(const P4dFbm* settings,
         uint32_t      seed,
         double        x,
         double        y,
         double        z,
         double        w)
{
  const double origin[4] = { x, y, z, w };
  const double step[4]   = { 0.0, 0.0, 0.0, 0.0 };
  float        out       = 0.0f;

  p4d_fbm4_span(settings, seed, origin, step, 0U, &out, 1U);
  return out;
}
