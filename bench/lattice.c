// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The lattice figures of issue 11, items 7 and 8, measured on the noise core
  as it is: what the lattice and the 2^50 coordinate limit do to time, and
  how well the lattice hash mixes.

  1. Wrap and freeze: an octave whose x, y and z stand still, along w, against
     itself 2^32 and 2^40 cells later (Pearson r over 10^5 samples 0.37 cells
     apart); the coordinate the fastest band-limited octave (20000 cells/s)
     reaches in 10,000 hours, against P4D_NOISE_COORD_MAX; and what the
     noise does past that limit on w (taken as 0: frozen).
  2. Smoothness at song hour 10,000 at 192 and 768 kHz against hour 0,
     through p4d_noise4_span() as the engines call it: zero steps (two equal
     consecutive samples) and the ratio of the largest steps.
  3. Avalanche of the hash (kernel.h, the gradient index of one corner): the
     probability that one flipped input bit (of the seed, or of any of the
     64 bits of a cell) flips each of the 5 bits of the gradient index, over
     2^17 random inputs, worst per input word (tests/support/avalanche.h,
     the measurement test_hash makes).
  4. r between n(p) and n(p + 2^k along one axis), k = 8..40, every axis,
     over 10^5 random points (random seed, cells anywhere in 32 bits).

  The pseudo-random sequence is fixed, so every run prints the same figures.
  kernel.h is the core's internal header: the bench reads the hash through it
  so that it measures exactly the core's arithmetic.
*/

#include "lattice.h"

#include "avalanche.h" // tests/support: the measurement test_hash shares
#include "kernel.h"
#include "noise.h"
#include "stats.h" // tests/support: the step counter test_hash shares

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// A point off the lattice on x, y and z (the constant base
/// position), so that an octave along w moves.
static const double still_xyz[3] = { 0.3487, 0.0086, 0.3091 };

#define WRAP_SAMPLES 100000U
#define WRAP_STEP 0.37
#define FREEZE_SAMPLES 4096U
#define SMOOTH_SAMPLES 65536U
#define SMOOTH_HOURS 10000.0
#define AVALANCHE_INPUTS 131072U
#define BAND_CELLS_PER_S 20000.0
#define SHIFT_POINTS 100000U
#define SHIFT_K_MIN 8U
#define SHIFT_K_MAX 40U
#define SHIFT_KS (SHIFT_K_MAX - SHIFT_K_MIN + 1U)
#define R_TARGET 0.05

/// splitmix64: a small, fixed pseudo-random sequence.
typedef struct {
  uint64_t state;
} Rng;

static uint64_t
rng_next(Rng* rng)
{
  uint64_t z = (rng->state += 0x9E3779B97F4A7C15ULL);
  z          = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  z          = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31U);
}

static uint32_t
rng_u32(Rng* rng)
{
  return (uint32_t)(rng_next(rng) >> 32U);
}

/// Running sums for Pearson's r.
typedef struct {
  double n;
  double sx;
  double sy;
  double sxx;
  double syy;
  double sxy;
} Corr;

static void
corr_add(Corr* c, double x, double y)
{
  c->n += 1.0;
  c->sx += x;
  c->sy += y;
  c->sxx += x * x;
  c->syy += y * y;
  c->sxy += x * y;
}

static double
corr_r(const Corr* c)
{
  const double cov = c->sxy - c->sx * c->sy / c->n;
  const double vx  = c->sxx - c->sx * c->sx / c->n;
  const double vy  = c->syy - c->sy * c->sy / c->n;
  return (vx > 0.0 && vy > 0.0) ? cov / sqrt(vx * vy) : 0.0;
}

/// Figures printed "not met" so far.
static unsigned misses;

static void
print_figure(const char* name,
             const char* measured,
             const char* target,
             bool        met)
{
  misses += met ? 0U : 1U;
  printf("%-50s  %-48s  %-22s  %s\n",
         name,
         measured,
         target,
         met ? "met" : "not met");
}

static void
print_note(const char* note)
{
  printf("    %s\n", note);
}

// 1. Wrap and freeze

/// r of the still octave along w against itself shift cells later.
static double
wrap_r(uint32_t seed, double shift)
{
  Corr c = { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };
  for (unsigned i = 0U; i < WRAP_SAMPLES; ++i) {
    const double w = 0.123 + WRAP_STEP * (double)i;
    const float  a =
      p4d_noise4(seed, still_xyz[0], still_xyz[1], still_xyz[2], w);
    const float b =
      p4d_noise4(seed, still_xyz[0], still_xyz[1], still_xyz[2], w + shift);
    corr_add(&c, (double)a, (double)b);
  }
  return corr_r(&c);
}

static void
figure_wrap(void)
{
  static const unsigned shifts[2] = { 32U, 40U };
  char                  name[64];
  char                  measured[64];
  for (unsigned i = 0U; i < 2U; ++i) {
    const double r = wrap_r(1U, ldexp(1.0, (int)shifts[i]));
    snprintf(name,
             sizeof(name),
             "1. wrap: still octave vs 2^%u cells later",
             shifts[i]);
    snprintf(measured, sizeof(measured), "r = %+.4f (10^5 samples)", r);
    print_figure(name, measured, "|r| < 0.05", fabs(r) < R_TARGET);
  }

  // With the band limit no octave moves faster than 20000 cells/s, at any
  // sample rate: the farthest coordinate in 10,000 hours.
  const double reach = BAND_CELLS_PER_S * SMOOTH_HOURS * 3600.0;
  snprintf(measured,
           sizeof(measured),
           "%.3g = 2^%.1f cells, limit 2^%.0f",
           reach,
           log2(reach),
           log2(P4D_NOISE_COORD_MAX));
  print_figure("1. reach: 20000 cells/s for 10,000 h",
               measured,
               "below the limit",
               reach < P4D_NOISE_COORD_MAX);

  // Past the limit every w is taken as 0: the octave stands still.
  const float at_zero =
    p4d_noise4(1U, still_xyz[0], still_xyz[1], still_xyz[2], 0.0);
  float    lo        = 1.0f;
  float    hi        = -1.0f;
  unsigned same_as_0 = 0U;
  for (unsigned k = 1U; k <= FREEZE_SAMPLES; ++k) {
    const double w = P4D_NOISE_COORD_MAX + 0.25 * (double)k;
    const float v = p4d_noise4(1U, still_xyz[0], still_xyz[1], still_xyz[2], w);
    lo            = v < lo ? v : lo;
    hi            = v > hi ? v : hi;
    same_as_0 += v == at_zero ? 1U : 0U;
  }
  snprintf(measured,
           sizeof(measured),
           "range %.4f (%u/%u equal n(w=0) = %+.4f)",
           (double)(hi - lo),
           same_as_0,
           FREEZE_SAMPLES,
           (double)at_zero);
  printf("%-50s  %-48s  %-22s  %s\n",
         "1. past the limit: n at w = 2^50 + k/4, k=1..4096",
         measured,
         "(frozen by design)",
         "-");
}

// 2. Smoothness at song hour 10,000

/// Counts the zero steps of a span and returns its largest step.
static double
span_steps(double cells_per_s, double rate, double hours, unsigned* zero_steps)
{
  static float out[SMOOTH_SAMPLES];
  const double origin[4] = {
    still_xyz[0], still_xyz[1], still_xyz[2], hours * 3600.0 * cells_per_s
  };
  const double step[4] = { 0.0, 0.0, 0.0, cells_per_s / rate };
  p4d_noise4_span(1U, origin, step, 0, out, SMOOTH_SAMPLES);

  return p4d_largest_step_zeros(out, SMOOTH_SAMPLES, zero_steps);
}

static void
figure_smooth_one(const char* name, double cells_per_s, double rate)
{
  unsigned     zero_late  = 0U;
  unsigned     zero_early = 0U;
  const double late  = span_steps(cells_per_s, rate, SMOOTH_HOURS, &zero_late);
  const double early = span_steps(cells_per_s, rate, 0.0, &zero_early);
  const double ratio = early > 0.0 ? late / early : 0.0;
  char         measured[64];
  snprintf(measured,
           sizeof(measured),
           "%u/%u zero steps, max step ratio %.3f",
           zero_late,
           SMOOTH_SAMPLES - 1U,
           ratio);
  print_figure(name,
               measured,
               "0, ratio 1/1.5..1.5",
               zero_late == 0U && ratio <= 1.5 && ratio >= 1.0 / 1.5);

  // w's double spacing at hour 10,000: how finely a sample is placed.
  const double w_late   = SMOOTH_HOURS * 3600.0 * cells_per_s;
  int          exponent = 0;
  (void)frexp(w_late, &exponent);
  char note[200];
  snprintf(note,
           sizeof(note),
           "%.6g cells/s = %.3g cells/sample%s; hour 0: %u zero steps; "
           "w at hour 10,000 = 2^%.1f, spacing 2^%d cells%s",
           cells_per_s,
           cells_per_s / rate,
           cells_per_s > rate / 2.0 ? ", past Nyquist" : "",
           zero_early,
           log2(w_late),
           exponent - 53,
           w_late > P4D_NOISE_COORD_MAX ? ", > 2^50: taken as 0, frozen" : "");
  print_note(note);
}

static void
figure_smooth(void)
{
  // Mod: rate 50, lacunarity 4, octave 7 (its fastest without a band
  // limit); and the fastest octave the band limit keeps (20 kHz), at 192
  // and 768 kHz.  Faster octaves (Noise grain 20000 x 4^9) are no longer
  // computed.
  figure_smooth_one(
    "2. smooth h10000 @192k: Mod 50 Hz x 4^7", 50.0 * 16384.0, 192000.0);
  figure_smooth_one("2. smooth h10000 @192k: octave at 20000 cells/s",
                    BAND_CELLS_PER_S,
                    192000.0);
  figure_smooth_one("2. smooth h10000 @768k: octave at 20000 cells/s",
                    BAND_CELLS_PER_S,
                    768000.0);
}

// 3. Avalanche of the hash

/// Input n of the avalanche: a random seed and random 64-bit cells.
static void
draw_input(void* state, unsigned n, uint64_t in[P4D_AVALANCHE_WORDS])
{
  Rng* const rng = (Rng*)state;
  (void)n;
  for (unsigned i = 0U; i < P4D_AVALANCHE_WORDS; ++i) {
    in[i] = i == 0U ? rng_u32(rng) : rng_next(rng);
  }
}

static void
figure_avalanche(void)
{
  Rng                rng = { 0x1234567890ABCDEFULL };
  const P4dAvalanche a =
    p4d_avalanche_measure(AVALANCHE_INPUTS, draw_input, &rng);
  for (unsigned i = 0U; i < P4D_AVALANCHE_WORDS; ++i) {
    char name[64];
    char measured[64];
    snprintf(name,
             sizeof(name),
             "3. avalanche: flip any of the %u bits of the %s",
             p4d_avalanche_bits[i],
             p4d_avalanche_names[i]);
    snprintf(measured,
             sizeof(measured),
             "worst |p-0.5| = %.4f (bit %u -> index bit %u)",
             a.worst[i],
             a.bit[i],
             a.out_bit[i]);
    print_figure(
      name, measured, "<= 0.05 (2^17 inputs)", a.worst[i] <= R_TARGET);
  }
}

// 4. Correlation along one axis

static void
figure_shift(void)
{
  static Corr       corr[4][SHIFT_KS];
  static const char axes[4] = { 'x', 'y', 'z', 'w' };
  Rng               rng     = { 0xFEDCBA0987654321ULL };

  for (unsigned n = 0U; n < SHIFT_POINTS; ++n) {
    const uint32_t seed = rng_u32(&rng);
    double         p[4];
    for (unsigned a = 0U; a < 4U; ++a) {
      // A cell anywhere in 32 bits and a fraction in 2^-10 steps, so that
      // p + 2^40 is exact.
      const double cell = (double)(int32_t)rng_u32(&rng);
      p[a]              = cell + (double)(rng_u32(&rng) >> 22U) / 1024.0;
    }
    const double base = (double)p4d_noise4(seed, p[0], p[1], p[2], p[3]);
    for (unsigned a = 0U; a < 4U; ++a) {
      for (unsigned k = 0U; k < SHIFT_KS; ++k) {
        double q[4] = { p[0], p[1], p[2], p[3] };
        q[a] += ldexp(1.0, (int)(k + SHIFT_K_MIN));
        corr_add(
          &corr[a][k], base, (double)p4d_noise4(seed, q[0], q[1], q[2], q[3]));
      }
    }
  }

  for (unsigned a = 0U; a < 4U; ++a) {
    double   worst       = 0.0;
    unsigned worst_k     = 0U;
    double   worst_low   = 0.0;
    unsigned worst_low_k = 0U;
    for (unsigned k = 0U; k < SHIFT_KS; ++k) {
      const double r = corr_r(&corr[a][k]);
      if (fabs(r) > fabs(worst)) {
        worst   = r;
        worst_k = k + SHIFT_K_MIN;
      }
      if (k + SHIFT_K_MIN < 32U && fabs(r) > fabs(worst_low)) {
        worst_low   = r;
        worst_low_k = k + SHIFT_K_MIN;
      }
    }
    char name[64];
    char measured[64];
    snprintf(
      name, sizeof(name), "4. r(n(p), n(p + 2^k %c)), k = 8..40", axes[a]);
    snprintf(measured,
             sizeof(measured),
             "worst %+.4f at k=%u; k<32: %+.4f at k=%u",
             worst,
             worst_k,
             worst_low,
             worst_low_k);
    print_figure(
      name, measured, "|r| < 0.05 (10^5 pts)", fabs(worst) < R_TARGET);
  }
  char note[96];
  snprintf(note,
           sizeof(note),
           "r at 2^31 along w: %+.4f (the issue measured -0.375)",
           corr_r(&corr[3][31U - SHIFT_K_MIN]));
  print_note(note);
}

unsigned
p4d_bench_lattice(void)
{
  misses = 0U;
  printf("%-50s  %-48s  %-22s  %s\n",
         "lattice figure",
         "measured",
         "target",
         "verdict");
  figure_wrap();
  figure_smooth();
  figure_avalanche();
  figure_shift();
  return misses;
}
