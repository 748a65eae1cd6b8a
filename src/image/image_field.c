// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Image's fields: octaves, types and warp, row by row.

  Octaves.  Octave k of a field is the Mod's octave k: the same seed and
  offsets as the core's fBm (p4d_fbm_octave()), its time coordinate w
  scaled as the core scales it (lacunarity^k, or whole cells per loop),
  its weight from p4d_fbm_weights_loop(), and z = sum * norm by the Mod's
  divisor rule (p4d_voice_norm()).  What fractal changes is space:

  - off (the default): octaves scale time, not space, exactly as the Mod
    adds its channels' positions unscaled (p4d_fbm4_sum_span()'s
    position): the field point of a pixel is added to every octave as it
    is, and the weights are the Mod's, under its band limit at the setup's
    sample rate.  The pixel at a Mod channel's position is then that
    channel's value (up to the rounding of the point: far below 1/65535).
    Every octave has the same spatial grain, so the picture looks like
    octave 0, its octaves mixing at one size.
  - on: classic fBm textures.  The field point goes into the octave's line
    scaled by lacunarity^k like time, about the channels' centre c (base +
    morph): octave k's point is (p - c) lacunarity^k + c + offset_k.  The
    weights come from p4d_fbm_weights_loop() with the pixel step as the
    line's step and a band limit of P4D_IMAGE_BAND_LIMIT (0.5 cells per
    pixel), so octaves finer than two pixels a cell fade out instead of
    aliasing.  The Mod's value is then kept only at the centre (every
    octave of a channel at spread 0, whose point is c), and in octave 0 of
    every channel; elsewhere octaves k >= 1 are elsewhere in their noise,
    and the weights differ where the band limits differ.

  Tile.  With tile on, x and y wrap: the whole cells across the width and
  height C_x, C_y (image.c) are the periods of octave 0, and with fractal
  on octave k's are round(C lacunarity^k) (at least 1), its x and y scaled
  by period / C instead of lacunarity^k: loops snap octaves just so.

  Types (one row of the types table each): the octave term t(n) summed
  with the octave weights, then z = (sum - mean * sum of weights) * norm *
  (std of n / std of t), unit-ish variance before the tone map.

  Warp.  Two more fields of the same settings with other seeds, evaluated
  along the row, displace x and y by warp times their z (cells); the field
  is then evaluated at the displaced points.

  Bases (one row of the bases table each): the noise an octave is made
  of, along a row and at any points, and its level.  Improved 4D is the
  Mod's noise; classic 3D and 2D are the core's 1985 noise (classic.h) on
  the octave's x, y and w, or x and y.  Octaves, weights, tiles and types
  are the same for every basis.
*/

#include "classic.h"
#include "exact_math.h"
#include "image_private.h"
#include "isa_table.h"

#include <math.h>
#include <string.h>

/// The offsets of octave k (its line through the origin, standing still),
/// and its seed: the core's placement of fBm octaves.
static uint32_t
octave_place(uint32_t seed, unsigned k, double off[4])
{
  static const double zero[4] = { 0.0, 0.0, 0.0, 0.0 };
  double              step[4];
  return p4d_fbm_octave(seed, k, 1.0, zero, zero, off, step);
}

/// Whole cells per period of the octave whose lacunarity power is lac_pow
/// in a period of cells (0: none), as loops snap octaves.
static uint64_t
octave_period(double cells, double lac_pow)
{
  return (uint64_t)p4d_fbm_octave_period(cells, lac_pow);
}

/// The measured mean and deviation of a type whose table gives none.
static void
field_measure(P4dImageField* f, unsigned type, unsigned basis);

void
p4d_image_field_prepare(P4dImageField*           f,
                        const P4dImageFieldSpec* spec,
                        uint32_t                 seed)
{
  const P4dVoice* const v = spec->voice;
  float                 weight[P4D_FBM_MAX_OCTAVES];
  memset(f, 0, sizeof(*f));
  if (spec->fractal) {
    P4dFbm       fbm     = v->fbm;
    const double step[4] = { spec->step[0], 0.0, 0.0, 0.0 };
    fbm.band_limit       = P4D_IMAGE_BAND_LIMIT;
    f->n_octaves         = p4d_fbm_weights_loop(
      &fbm, spec->tile ? spec->cells[0] : 0.0, step, weight);
  } else {
    f->n_octaves =
      p4d_fbm_weights_loop(&v->fbm, v->loop_cells, v->phase_step, weight);
  }
  f->norm = p4d_voice_norm(weight, f->n_octaves);

  double lac_pow = 1.0;
  for (unsigned k = 0U; k < f->n_octaves; ++k) {
    P4dImageOctave* const o = &f->octave[k];
    double                off[4];
    o->seed   = octave_place(seed, k, off);
    o->weight = weight[k];
    f->sum += weight[k];
    o->w = spec->w * p4d_fbm_octave_scale(v->loop_cells, lac_pow) + off[3];
    o->period[3] = octave_period(v->loop_cells, lac_pow);
    for (unsigned a = 0U; a < 3U; ++a) {
      const bool tiled = spec->tile && a < 2U;
      if (tiled) {
        o->period[a] = spec->fractal ? octave_period(spec->cells[a], lac_pow)
                                     : (uint64_t)spec->cells[a];
      }
      o->scale[a]  = !spec->fractal ? 1.0
                     : tiled        ? (double)o->period[a] / spec->cells[a]
                                    : lac_pow;
      o->centre[a] = spec->fractal ? spec->centre[a] : 0.0;
      o->add[a]    = off[a] + o->centre[a];
    }
    lac_pow *= v->fbm.lacunarity;
  }
  field_measure(f, spec->type, spec->basis);
}

/// The noise of octave o at n points p (improved 4D).
static void
octave_points(const P4dImageOctave* o,
              const double (*p)[4],
              float*   out,
              uint32_t n)
{
  p4d_noise4_points_tile(o->seed, p, out, n, o->period);
}

/// The line of octave o of frame fr along row y: its origin and step.
static void
octave_line(const P4dImageFrame*  fr,
            const P4dImageOctave* o,
            double                y,
            double                origin[4],
            double                step[4])
{
  origin[0] = (fr->x0 - o->centre[0]) * o->scale[0] + o->add[0];
  origin[1] = (y - o->centre[1]) * o->scale[1] + o->add[1];
  origin[2] = (fr->z - o->centre[2]) * o->scale[2] + o->add[2];
  origin[3] = o->w;
  step[0]   = fr->step_x * o->scale[0];
  step[1]   = 0.0;
  step[2]   = 0.0;
  step[3]   = 0.0;
}

/// The noise of octave o of frame fr along row y, pixels first..first+n-1
/// (improved 4D).
static void
octave_row(const P4dImageFrame*  fr,
           const P4dImageOctave* o,
           double                y,
           int64_t               first,
           float*                out,
           uint32_t              n)
{
  double origin[4];
  double step[4];
  octave_line(fr, o, y, origin, step);
  p4d_noise4_span_tile(o->seed, origin, step, first, out, n, o->period);
}

/*
  The classic bases: the 1985 noise (src/noise/classic.h, its s-curve) on
  the octave's x, y and, in 3D, its w (time): the third axis is the 4D
  octave's w, so loops and tiles wrap as they wrap the 4D noise, and z
  (morph) is not used.  In 2D time does not move the picture.
*/

/**
   The level of classic 3D noise on a slice of fixed w, over its level in
   the whole cell: the variance of the blend at fractions f is V(f) / 3,
   V = sum over axes b of T(f_b) prod_{a != b} S(f_a) (doc/noise-core.md),
   so its mean over x and y at the w fraction f is (2 E[T] E[S] S(f) +
   E[S]^2 T(f)) / 3 against E[T] E[S]^2 over the cell: a ratio r(f) =
   (2 S(f) / E[S] + T(f) / E[T]) / 3, from 0.90 at f = 0 to 1.14 at 1/2
   (cubic fade: E[S] = 26/35, E[T] = 19/315).  A frame is such a slice, so
   each octave is scaled by 1 / sqrt(r) of its w: the picture is the 1985
   noise, and its contrast does not pulse once per cell of time.  r is C1
   in w, as the noise is.
*/
static float
classic3_slice_gain(double w)
{
  const double f = w - floor(w);
  const double s = f * f * (3.0 - 2.0 * f);
  const double a = 1.0 - s;
  const double S = a * a + s * s;
  const double T = a * a * f * f + s * s * (1.0 - f) * (1.0 - f);
  const double r = (2.0 * S * (35.0 / 26.0) + T * (315.0 / 19.0)) / 3.0;
  return (float)(1.0 / sqrt(r));
}

/// The axes of the 4D octave that the classic noise of dims axes reads.
static const unsigned classic_axis[P4D_CLASSIC_MAX_DIMS] = { 0U, 1U, 3U };

/// Noise of octave o at n points p (dims 2 or 3 classic axes).
static void
classic_points(unsigned              dims,
               const P4dImageOctave* o,
               const double (*p)[4],
               float*   out,
               uint32_t n)
{
  const P4dClassic basis     = { dims, P4D_CLASSIC_CUBIC };
  const uint64_t   period[3] = { o->period[0], o->period[1], o->period[3] };
  double           q[256][P4D_CLASSIC_MAX_DIMS];
  for (uint32_t done = 0U; done < n; done += 256U) {
    const uint32_t m = n - done < 256U ? n - done : 256U;
    for (uint32_t i = 0U; i < m; ++i) {
      for (unsigned a = 0U; a < P4D_CLASSIC_MAX_DIMS; ++a) {
        q[i][a] = p[done + i][classic_axis[a]];
      }
    }
    p4d_classic_points_tile(
      &basis, o->seed, (const double(*)[3])q, out + done, m, period);
  }
  if (dims == 3U) {
    // Each point at the level of its own slice (a row's are all at o->w).
    for (uint32_t i = 0U; i < n; ++i) {
      out[i] *= classic3_slice_gain(p[i][3]);
    }
  }
}

/// Noise of octave o of frame fr along row y (dims 2 or 3 classic axes).
static void
classic_row(unsigned              dims,
            const P4dImageFrame*  fr,
            const P4dImageOctave* o,
            double                y,
            int64_t               first,
            float*                out,
            uint32_t              n)
{
  const P4dClassic basis     = { dims, P4D_CLASSIC_CUBIC };
  const uint64_t   period[3] = { o->period[0], o->period[1], o->period[3] };
  double           origin4[4];
  double           step4[4];
  double           origin[P4D_CLASSIC_MAX_DIMS];
  double           step[P4D_CLASSIC_MAX_DIMS];
  octave_line(fr, o, y, origin4, step4);
  for (unsigned a = 0U; a < P4D_CLASSIC_MAX_DIMS; ++a) {
    origin[a] = origin4[classic_axis[a]];
    step[a]   = step4[classic_axis[a]];
  }
  p4d_classic_span_tile(&basis, o->seed, origin, step, first, out, n, period);
  if (dims == 3U) {
    const float gain = classic3_slice_gain(o->w);
    for (uint32_t i = 0U; i < n; ++i) {
      out[i] *= gain;
    }
  }
}

static void
classic3_points(const P4dImageOctave* o,
                const double (*p)[4],
                float*   out,
                uint32_t n)
{
  classic_points(3U, o, p, out, n);
}

static void
classic2_points(const P4dImageOctave* o,
                const double (*p)[4],
                float*   out,
                uint32_t n)
{
  classic_points(2U, o, p, out, n);
}

static void
classic3_row(const P4dImageFrame*  fr,
             const P4dImageOctave* o,
             double                y,
             int64_t               first,
             float*                out,
             uint32_t              n)
{
  classic_row(3U, fr, o, y, first, out, n);
}

static void
classic2_row(const P4dImageFrame*  fr,
             const P4dImageOctave* o,
             double                y,
             int64_t               first,
             float*                out,
             uint32_t              n)
{
  classic_row(2U, fr, o, y, first, out, n);
}

/// A type's octave term's mean and deviation where a basis has its own
/// (std 0: the type's own).
typedef struct {
  float mean;
  float std;
} P4dImageMoments;

/*
  The octave terms of the classic noise (scaled to P4D_NOISE_STD), measured
  over 2 10^6 points of the core (cubic fade): billow's 2|n| - 1 has mean
  -0.653 (2D), -0.650 (3D) and deviation 0.256, 0.252 (improved 4D:
  -0.6455, 0.2418), turbulence's |z| mean 0.803 to 0.812 and deviation
  0.583 to 0.595 (0.8190, 0.5860): the types' constants serve.  The
  ridged term's mean is 0.699, 0.696 in octave 0 and 0.682, 0.680 over 5
  to 8 octaves (improved: 0.691 in octave 0): 0.690 centres 1 to 8
  octaves within 0.05.
*/
static const P4dImageMoments classic_moments[] = {
  [P4D_IMAGE_RIDGED] = { 0.690f, 0.215f },
};

/**
   A basis of the Image (P4dImageBasis): an octave's noise along a row and
   at any points (the warp), the standard deviation of that noise, and the
   moments of the types' octave terms where they differ from the improved
   noise's.  field_values() scales the noise by P4D_NOISE_STD / std
   (exactly 1 for the improved noise, whose bits stay), so every type's
   octave term meets noise at the level its mean and deviation were
   measured at.
*/
typedef struct {
  void (*row)(const P4dImageFrame*  fr,
              const P4dImageOctave* o,
              double                y,
              int64_t               first,
              float*                out,
              uint32_t              n);
  void (*points)(const P4dImageOctave* o,
                 const double (*p)[4],
                 float*   out,
                 uint32_t n);
  float                  std;
  const P4dImageMoments* moments;   ///< By type, or NULL
  unsigned               n_moments; ///< Types in moments
} P4dImageBasisClass;

/// Types in classic_moments.
#define P4D_CLASSIC_N_MOMENTS \
  ((unsigned)(sizeof(classic_moments) / sizeof(classic_moments[0])))

/// The bases; the classic stds are p4d_classic_std() of the cubic fade.
static const P4dImageBasisClass bases[P4D_IMAGE_N_BASES] = {
  [P4D_IMAGE_BASIS_IMPROVED4] = { octave_row,
                                  octave_points,
                                  P4D_NOISE_STD,
                                  NULL,
                                  0U },
  [P4D_IMAGE_BASIS_CLASSIC3]  = { classic3_row,
                                  classic3_points,
                                  0.182443f,
                                  classic_moments,
                                  P4D_CLASSIC_N_MOMENTS },
  [P4D_IMAGE_BASIS_CLASSIC2]  = { classic2_row,
                                  classic2_points,
                                  0.211677f,
                                  classic_moments,
                                  P4D_CLASSIC_N_MOMENTS },
};

/// A type's octave term, added to acc with weight; state starts at 1.
typedef void (*OctaveTerm)(float        weight,
                           const float* noise,
                           float*       acc,
                           float*       state,
                           uint32_t     n);

/// A type of field (P4dImageType): its octave term, the term's mean and
/// standard deviation, and what is done with z at the end (or NULL).
typedef struct {
  OctaveTerm term;
  float      mean;
  float      std;
  void (*finish)(const double* u, float* z, uint32_t n);
} P4dImageTypeClass;

// The terms that keep no state still take it: the signature of OctaveTerm.
// NOLINTBEGIN(readability-non-const-parameter)
static void
fbm_term(float weight, const float* noise, float* acc, float* state, uint32_t n)
{
  (void)state;
  p4d_isa_table()->weighted_add(weight, noise, acc, n);
}

/// Musgrave's ridged multifractal, offset 1 and gain 2: each octave's ridge
/// (1 - |n|)^2 is weighted by the previous octave's ridge times the gain
/// (at most 1), so detail gathers on the ridges.
static void
ridged_term(float        weight,
            const float* noise,
            float*       acc,
            float*       state,
            uint32_t     n)
{
  for (uint32_t i = 0U; i < n; ++i) {
    const float r = 1.0f - fabsf(noise[i]);
    const float s = r * r * state[i];
    acc[i] += weight * s;
    const float g = 2.0f * s;
    state[i]      = g > 1.0f ? 1.0f : g;
  }
}

static void
billow_term(float        weight,
            const float* noise,
            float*       acc,
            float*       state,
            uint32_t     n)
{
  (void)state;
  for (uint32_t i = 0U; i < n; ++i) {
    acc[i] += weight * (2.0f * fabsf(noise[i]) - 1.0f);
  }
}
/*
  Musgrave's terrains as Blender implements them (Cycles'
  kernel/svm/fractal_noise.h), with octave k's weight w_k = persistence^k
  standing for lacunarity^(-H k) (H = -log(persistence) / log(lacunarity)),
  the band limit's fade included: the last, fractional octave of Blender's
  detail is the same fade.  Blender's defaults (offset 0, gain 1) would
  stop the hybrid wherever the first octave is below 0 and leave hetero
  terrain a scaled fBm, so the constants are these: the hybrid's offset
  0.7 is Musgrave's suggestion for it (Texturing and Modeling, ch. 16, with
  H = 0.25: persistence 0.84 at lacunarity 2), its gain 1 his original's
  (which has none); hetero terrain's offset 1 keeps its first octave,
  1 + n, positive (this core's noise deviates by P4D_NOISE_STD, 0.2155,
  close to Blender's Perlin noise).
*/

/// Hybrid multifractal's offset: (n + 0.7) is mostly positive, so the
/// product of the octaves' signals gathers detail where the terrain is high.
#define P4D_IMAGE_HYBRID_OFFSET 0.7f

/// Hybrid multifractal's gain: the next octave's weight is the last
/// weight times the gain times its signal.
#define P4D_IMAGE_HYBRID_GAIN 1.0f

/// Below this weight an octave adds nothing (Blender stops the loop there:
/// a signal below 0 ends the sum at that point).
#define P4D_IMAGE_HYBRID_FLOOR 0.001f

/// Hetero terrain's offset: the terrain's height 1 + n0 scales every
/// later octave, smooth lowlands and rough highlands.
#define P4D_IMAGE_HETERO_OFFSET 1.0f

/// Hybrid multifractal: signal s = (n + offset) w, added with the weight
/// (the state, at most 1), which then becomes weight gain s.
static void
hybrid_term(float        weight,
            const float* noise,
            float*       acc,
            float*       state,
            uint32_t     n)
{
  for (uint32_t i = 0U; i < n; ++i) {
    if (state[i] > P4D_IMAGE_HYBRID_FLOOR) {
      const float k = state[i] > 1.0f ? 1.0f : state[i];
      const float s = (noise[i] + P4D_IMAGE_HYBRID_OFFSET) * weight;
      acc[i] += k * s;
      state[i] = k * P4D_IMAGE_HYBRID_GAIN * s;
    }
  }
}

/// Hetero terrain: octave 0 is offset + n; each later octave adds (n +
/// offset) w times the terrain so far (the state: 1, then the sum).
static void
hetero_term(float        weight,
            const float* noise,
            float*       acc,
            float*       state,
            uint32_t     n)
{
  for (uint32_t i = 0U; i < n; ++i) {
    acc[i] += (noise[i] + P4D_IMAGE_HETERO_OFFSET) * weight * state[i];
    state[i] = acc[i];
  }
}
// NOLINTEND(readability-non-const-parameter)

/// Turbulence: |z| of the whole fBm, centred and scaled (see the types
/// below): its creases lie where the whole field crosses 0 (veins,
/// marble), not in every octave as billow's (which, centred and scaled,
/// would be the sum of |n| per octave again).
static void
turbulence_finish(const double* u, float* z, uint32_t n)
{
  (void)u;
  for (uint32_t i = 0U; i < n; ++i) {
    z[i] = (fabsf(z[i]) - 0.8190f) / 0.5860f;
  }
}

/// Turbulence the veins' phase takes per unit of the fBm's z.
#define P4D_IMAGE_VEIN_TURBULENCE 0.25

/// Veins (classic marble): bands along u = x + y (one a cell, so tiles
/// keep them whole) pushed by the fBm, b = |sin(pi (u + 0.25 z))|; the
/// fourth root sharpens them: b^(1/4) is bright almost everywhere and dark
/// only in thin veins where b crosses 0.  Centred and scaled by the mean
/// 0.8594 and deviation 0.1555 of b^(1/4) for an even phase, which the
/// field's phase is over many bands (tests/test_image_tile.c measures z).
static void
veins_finish(const double* u, float* z, uint32_t n)
{
  for (uint32_t i = 0U; i < n; ++i) {
    // |sin(pi v)| through the fraction r of v (exact), with the core's
    // deterministic sine (libm's sin may differ in the last bit on another
    // machine; sqrt is exact everywhere).
    const double v = u[i] + P4D_IMAGE_VEIN_TURBULENCE * (double)z[i];
    const double r = v - floor(v);
    const double b = p4d_exact_quarter_sin(r <= 0.5 ? 2.0 * r : 2.0 - 2.0 * r);
    z[i]           = (float)((sqrt(sqrt(b)) - 0.8594) / 0.1555);
  }
}

/*
  The types, with the mean and deviation of each octave term, measured on
  this core's noise (tests/test_image_tile.c prints z's mean and deviation
  for each type at 1, 3 and 5 octaves, fractal on, persistence 0.5, over
  2048 x 1024 pixels of 32 x 16 cells; 0 and 1 within 0.05 there):

  - fBm: n, mean 0, deviation P4D_NOISE_STD: exactly the Mod's z;
  - billow: 2|n| - 1, mean -0.6455, deviation 0.2418 (so E|n| = 0.1773);
  - ridged: its weighted ridges have mean 0.691 and deviation 0.191 in
    octave 0, and less in later octaves, whose weights the feedback
    lowers: 0.680 and 0.215 suit 1 to 8 octaves (mean within 0.05 and
    deviation within 0.89 to 1.03 at 1 to 5);
  - turbulence: |z| of the fBm, centred and scaled by its own measured
    mean 0.8190 and deviation 0.5860 (sqrt(2 / pi) = 0.798 and
    sqrt(1 - 2 / pi) = 0.603 for an exactly normal z).
*/
static const P4dImageTypeClass types[] = {
  [P4D_IMAGE_FBM]        = { fbm_term, 0.0f, P4D_NOISE_STD, NULL },
  [P4D_IMAGE_RIDGED]     = { ridged_term, 0.680f, 0.215f, NULL },
  [P4D_IMAGE_BILLOW]     = { billow_term, -0.6455f, 0.2418f, NULL },
  [P4D_IMAGE_TURBULENCE] = { fbm_term, 0.0f, P4D_NOISE_STD, turbulence_finish },
  [P4D_IMAGE_VEINS]      = { fbm_term, 0.0f, P4D_NOISE_STD, veins_finish },
  [P4D_IMAGE_HYBRID]     = { hybrid_term, 0.0f, 0.0f, NULL },
  [P4D_IMAGE_HETERO]     = { hetero_term, 0.0f, 0.0f, NULL },
};

/// Samples of a field's sum that field_measure() takes.
#define P4D_IMAGE_MEASURE 1024U

/*
  The multiplicative types (hybrid, hetero) have no mean or deviation of
  their own: both grow with the octaves, their weights and the band
  limit.  So each field measures its own: the type's sum over
  P4D_IMAGE_MEASURE points of its own octaves (each octave's noise, of its
  own seed, at the points 1.75 (j + 1/2), 2.32 (j + 1/2) cells apart
  along a line, j < 1024, far enough apart to be independent), and z =
  (sum - mean) / deviation.  The points are the same for every frame and
  every place: not the frame's time or the octaves' offsets (the octaves'
  seeds already make them independent), so the measure depends on the
  settings only and a picture's level does not drift from frame to frame
  or differ between the tiles of a terrain.  The points and the arithmetic
  are fixed, so every code path measures the same bits; a sampling error
  of about 3 % of the deviation remains.
*/
static void
field_measure(P4dImageField* f, unsigned type, unsigned basis)
{
  const P4dImageTypeClass* const  t    = &types[type];
  const P4dImageBasisClass* const b    = &bases[basis];
  const float                     gain = P4D_NOISE_STD / b->std;
  f->mean                              = 0.0f;
  f->std                               = 0.0f;
  if (t->std > 0.0f || !f->n_octaves) {
    return;
  }
  float acc[P4D_IMAGE_MEASURE];
  float state[P4D_IMAGE_MEASURE];
  float noise[P4D_IMAGE_MEASURE];
  for (uint32_t j = 0U; j < P4D_IMAGE_MEASURE; ++j) {
    acc[j]   = 0.0f;
    state[j] = 1.0f;
  }
  for (unsigned k = 0U; k < f->n_octaves; ++k) {
    const P4dImageOctave* const o = &f->octave[k];
    double                      q[P4D_IMAGE_MEASURE][4];
    for (uint32_t j = 0U; j < P4D_IMAGE_MEASURE; ++j) {
      q[j][0] = 1.7548776662466927 * ((double)j + 0.5);
      q[j][1] = 2.3247179572447460 * ((double)j + 0.5);
      q[j][2] = 0.5;
      q[j][3] = 0.5;
    }
    b->points(o, (const double(*)[4])q, noise, P4D_IMAGE_MEASURE);
    for (uint32_t j = 0U; j < P4D_IMAGE_MEASURE; ++j) {
      noise[j] *= gain; // as field_values() scales the basis's noise
    }
    t->term(o->weight, noise, acc, state, P4D_IMAGE_MEASURE);
  }
  double sum  = 0.0;
  double sum2 = 0.0;
  for (uint32_t j = 0U; j < P4D_IMAGE_MEASURE; ++j) {
    sum += (double)acc[j];
    sum2 += (double)acc[j] * (double)acc[j];
  }
  const double mean = sum / (double)P4D_IMAGE_MEASURE;
  const double var  = sum2 / (double)P4D_IMAGE_MEASURE - mean * mean;
  f->mean           = (float)mean;
  f->std            = var > 1.0e-12 ? (float)sqrt(var) : 1.0f;
}

/// Field f of type at the points of row y (or p, if not NULL), pixels
/// first..first+n-1, into z.
static void
field_values(const P4dImageFrame*     fr,
             const P4dImageField*     f,
             const P4dImageTypeClass* type,
             double                   y,
             const double (*p)[4],
             int64_t  first,
             float*   z,
             uint32_t n)
{
  const P4dImageBasisClass* const basis = &bases[fr->basis];
  const float                     gain  = P4D_NOISE_STD / basis->std;
  float                           noise[P4D_IMAGE_CHUNK];
  float                           state[P4D_IMAGE_CHUNK];
  for (uint32_t i = 0U; i < n; ++i) {
    z[i]     = 0.0f;
    state[i] = 1.0f;
  }
  for (unsigned k = 0U; k < f->n_octaves; ++k) {
    const P4dImageOctave* const o = &f->octave[k];
    if (p) {
      double q[P4D_IMAGE_CHUNK][4];
      for (uint32_t i = 0U; i < n; ++i) {
        for (unsigned a = 0U; a < 3U; ++a) {
          q[i][a] = (p[i][a] - o->centre[a]) * o->scale[a] + o->add[a];
        }
        q[i][3] = o->w;
      }
      basis->points(o, (const double(*)[4])q, noise, n);
    } else {
      basis->row(fr, o, y, first, noise, n);
    }
    for (uint32_t i = 0U; i < n; ++i) {
      noise[i] *= gain;
    }
    type->term(o->weight, noise, z, state, n);
  }

  // The field's own measure (field_measure()), else the basis's moments
  // of the type, else the type's constants.
  const unsigned t        = (unsigned)(type - types);
  const bool     measured = f->std > 0.0f;
  const bool     own = t < basis->n_moments && basis->moments[t].std > 0.0f;
  const float    type_std = own ? basis->moments[t].std : type->std;
  const float    mean     = own ? basis->moments[t].mean : type->mean;
  const float    norm =
    measured ? 1.0f / f->std : f->norm * (P4D_NOISE_STD / type_std);
  const float centre = measured ? f->mean : mean * f->sum;
  for (uint32_t i = 0U; i < n; ++i) {
    z[i] = (z[i] - centre) * norm;
  }
  if (type->finish) {
    // The band coordinate u = x + y of each point, in cells.
    double u[P4D_IMAGE_CHUNK];
    for (uint32_t i = 0U; i < n; ++i) {
      u[i] = p ? p[i][0] + p[i][1]
               : fr->x0 + (double)(first + (int64_t)i) * fr->step_x + y;
    }
    type->finish(u, z, n);
  }
}

void
p4d_image_field_chunk(const P4dImageFrame* frame,
                      uint32_t             py,
                      uint32_t             first,
                      uint32_t             n,
                      float*               z)
{
  const P4dImageFrame* const     fr   = frame;
  const P4dImageTypeClass* const type = &types[fr->type];
  // Pixel indices from x0 and y0 (first_x, first_y: whole tiles of
  // samples on the edges, else 0), so that the warp and the veins see
  // the very points the octaves' spans do.
  const int64_t at = fr->first_x + (int64_t)first;
  const double  y  = fr->y0 + (double)(fr->first_y + (int64_t)py) * fr->step_y;
  if (!(fr->warp > 0.0)) {
    field_values(fr, &fr->field, type, y, NULL, at, z, n);
    return;
  }

  // The warp fields along the row, then the field at the pushed points.
  float dx[P4D_IMAGE_CHUNK];
  float dy[P4D_IMAGE_CHUNK];
  field_values(fr, &fr->warps[0], &types[P4D_IMAGE_FBM], y, NULL, at, dx, n);
  field_values(fr, &fr->warps[1], &types[P4D_IMAGE_FBM], y, NULL, at, dy, n);
  double p[P4D_IMAGE_CHUNK][4];
  for (uint32_t i = 0U; i < n; ++i) {
    p[i][0] =
      fr->x0 + (double)(at + (int64_t)i) * fr->step_x + fr->warp * dx[i];
    p[i][1] = y + fr->warp * dy[i];
    p[i][2] = fr->z;
    p[i][3] = 0.0;
  }
  field_values(fr, &fr->field, type, y, (const double(*)[4])p, at, z, n);
}
