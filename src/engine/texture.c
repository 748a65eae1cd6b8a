// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Noise's texture envelope (see texture.h for what it is).

  Gusts.  Noise along the time axis alone (x, y, z still) is low-pass: its
  spectrum is flat from 0 to about 0.3 cycles per cell and falls past 0.7,
  so over half a minute its slowest swings would set the "period" of the
  gusts at random.  The gust field is therefore band-passed by a
  Hann-tapered alternating comb of 5 taps one cell apart,

      g(t) = sum_m h_m * G(w(t) + m),   h = (1, -3, 4, -3, 1) / 4

  whose response is 0 at 0 and 1 cycle per cell and largest at 0.5: g(t)
  swings up and down once in about GUST_CELLS_PER_PERIOD cells (measured:
  the dominant period over 30 s falls within 0.65x - 1.6x of that in 98 %
  of 400 trials), so the gust rate sets the period of the gusts.  G is the
  first two octaves of fBm (persistence 0.5).  Noise one cell apart on the
  time axis is nearly uncorrelated (measured r = 0.003), so the comb scales
  the standard deviation by sqrt(sum h_m^2) = 1.5.  g is a fixed linear
  combination of the field at shifted song times: still a pure function of
  the song position, with no state.

  Grit.  r(t) is fBm of 2 octaves at GRIT_RATE_HZ cells per second:
  exp(a r) with a large a is near 0 most of the time and rises into short
  bumps at the field's peaks, so the noise comes in sparse grains; a grows
  with grit up to GRIT_A_MAX nepers per standard deviation (at grit 1 the
  crest factor of the Noise is 27 - 30 dB, against 11 dB without).

  Normalisation.  z = g or r scaled to unit standard deviation (the core's
  P4D_NOISE_STD times the root of the summed squared weights, times 1.5 for
  the comb).  E[exp(2 a z)] is exp(2 a^2) for a Gaussian z; our fields are
  bounded (lighter tails), so k(a) = ln E[exp(2 a z)] / 2 is read from
  tables measured over 2^22 points of each field (test_textures measures
  E[env^2] again and checks it against 1).

  Evaluation.  The fields are evaluated at knots every P4D_TEXTURE_KNOT
  frames of the voice's time line (knot j at frame j * KNOT, so the knots
  do not depend on how a render is cut) and the exponent is interpolated
  linearly between them: 16 frames are 0.33 ms at 48 kHz, against bumps of
  a few ms.  The exponential is a polynomial (p4d_exact_exp,
  src/maths/exact_math.h): libm's exp() may round differently on another
  machine.

  Events (issue 23).  Rain, surf and wind are made of events, which a
  field of noise does not give: droplets with sharp onsets, waves that
  build up and crash, gusts at irregular times.  Song seconds are cut into
  cells of event_cell = per_cell / rate seconds; cell j holds an event with
  chance per_cell, its peak at a uniform time in the cell, its amplitude,
  times and place between the channels drawn from a hash of the seed and
  j (no state: a pure function of the song time).  An event's shape
  around its peak time, tau seconds from it, is

      h(tau) = build * exp(tau / r)               tau < 0 (the build-up)
               build + (1 - build) * tau / attack  0 <= tau < attack
               exp(-(tau - attack) / d)           after (the decay)

  with r and d log-uniform in the kind's ranges, cut 5 time constants
  out.  A channel's event envelope is D = norm * (bed + sum A g h), g the
  event's equal-power place, sqrt(1 -+ q width) for q uniform in [-1, 1]
  (width 0: both channels the same).  norm makes E[D^2] = 1 for events at
  Poisson times, E[D^2] = M^2 + V with M = bed + rate E[A] E[int h] and
  V = rate E[A^2] E[int h^2], so the level stays where the level control
  puts it (test_textures measures it).  D is evaluated at the knots and
  interpolated linearly, so an onset takes one knot (0.33 ms at 48 kHz).
  Gusts also brighten as they swell (texture.h, p4d_texture_apply()).
*/

#include "texture.h"

#include "exact_math.h"
#include "noise.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/// Largest gust depth in dB.
#define GUST_DB_MAX 24.0f

/// Slowest and fastest gust rates in Hz.
#define GUST_HZ_MIN 0.02f
#define GUST_HZ_MAX 5.0f

/// Cells of the gust field's first octave per gust period.
#define GUST_CELLS_PER_PERIOD 2.15

/// Taps of the gust comb, one cell apart (see above).
#define GUST_TAPS 5U

/// Cells per second of the grit field's first octave.
#define GRIT_RATE_HZ 40.0

/// Cells per second of the gusts' hiss (see The gusts' hiss below).
#define HISS_RATE_HZ 8000.0

/// Natural-log gain per standard deviation of r at grit 1.
#define GRIT_A_MAX 1.0f

/// How far the channels' fields sit apart along x at width 1, in cells:
/// the gusts stay mostly common (r about 0.9), the grains are apart.
#define GUST_SPREAD 0.1
#define GRIT_SPREAD 1.75

static const float gust_taps[GUST_TAPS] = { 0.25f,
                                            -0.75f,
                                            1.0f,
                                            -0.75f,
                                            0.25f };

/// The comb's gain on the standard deviation: sqrt(sum h_m^2).
#define GUST_COMB_GAIN 1.5f

static const P4dFbm gust_fbm = { 2.0f, 2.0, 0.5f, 0.0 };
static const P4dFbm grit_fbm = { 2.0f, 2.0, 0.5f, 0.0 };

/*
  Seed offsets of the fields: never k * the core's octave seed step
  (0x6C8E9CF5) away from each other or from 0 within +-65535 for |k| < 16,
  so no octave of a field shares a lattice hash with an octave of the
  texture or of the other field for any two seeds (test_textures checks).
*/
static const uint32_t gust_seed = 0x2545F491U;
static const uint32_t grit_seed = 0x9E3779B9U;

/// Static positions of the fields, off the lattice.
static const double gust_position[4] = { 0.3487, 0.1986, 0.5091, 0.0 };
static const double grit_position[4] = { 0.7213, 0.4421, 0.1377, 0.0 };

static float
clampf(float v, float lo, float hi)
{
  return v != v ? lo : v < lo ? lo : v > hi ? hi : v;
}

/// e^x for the envelope: x clamped to [-80, 80] (NaN, never made here, to
/// the bottom), so the result is a normal float > 0.
static float
envelope_exp(float x)
{
  const float c = x > -80.0f ? (x < 80.0f ? x : 80.0f) : -80.0f;
  return (float)p4d_exact_exp((double)c);
}

/// Steps of a between the entries of the k tables.
#define K_STEP 0.125f

/*
  k(a) = ln E[exp(2 a z)] / 2 for a = 0, 1/8, 2/8, ... (a^2 for a Gaussian
  z), measured at 4 seeds x 2^22 points 0.37 cells apart of each field (the
  seeds agree within 0.005).  test_textures measures them again.
*/
static const float gust_k_table[] = { 0.0000f, 0.0143f, 0.0573f, 0.1288f,
                                      0.2286f, 0.3562f, 0.5114f, 0.6937f,
                                      0.9025f, 1.1371f, 1.3971f, 1.6818f };
static const float grit_k_table[] = { 0.0000f, 0.0157f, 0.0623f,
                                      0.1392f, 0.2453f, 0.3790f,
                                      0.5389f, 0.7232f, 0.9302f };

#define N_GUST_K (sizeof(gust_k_table) / sizeof(gust_k_table[0]))
#define N_GRIT_K (sizeof(grit_k_table) / sizeof(grit_k_table[0]))

/// k(a) from table (n entries), linear between entries and past the last.
static float
norm_k(const float* table, size_t n, float a)
{
  const float  x = a / K_STEP;
  const size_t i = x < (float)(n - 2U) ? (size_t)x : n - 2U;
  return table[i] + (x - (float)i) * (table[i + 1U] - table[i]);
}

/// The scale of a field's sum of octaves.
typedef struct {
  float std;   ///< Its standard deviation
  float bound; ///< Its largest magnitude (|noise| <= 1): the sum of weights
} FieldScale;

static FieldScale
field_scale(const P4dFbm* fbm)
{
  float          w[P4D_FBM_MAX_OCTAVES];
  const unsigned n     = p4d_fbm_weights(fbm, NULL, w);
  float          power = 0.0f;
  float          sum   = 0.0f;
  for (unsigned k = 0U; k < n; ++k) {
    power += w[k] * w[k];
    sum += w[k];
  }
  const FieldScale scale = { P4D_NOISE_STD * sqrtf(power), sum };
  return scale;
}

/// One kind of events: a row of event_kinds (see Events above).
typedef struct {
  float per_cell;   ///< Chance of an event in a cell
  float build;      ///< Level of the build-up at the peak time (0: none)
  float build_lo;   ///< Shortest time constant of the build-up, s
  float build_span; ///< ln(longest / shortest)
  float attack_s;   ///< Linear rise from the build-up's level to 1, s
  float decay_lo;   ///< Shortest decay time constant, s
  float decay_span; ///< ln(longest / shortest)
  float amp_lo;     ///< Amplitudes amp_lo + (1 - amp_lo) u^2, u uniform
  float bed;        ///< Level between events
  float bright;     ///< Largest share of the brightening term (0: none)
} EventKind;

/*
  Drops: onsets of one knot, decays 5 - 50 ms, amplitudes spread 10:1, a
  faint bed.  Waves: a build-up of 1 - 2.5 s up to 0.3 of the crest, a
  crash of 60 ms and a wash of 0.8 - 2 s, nearly one per cell.  Gusts: a
  swell of 0.3 - 1 s to the crest and a fall of 0.4 - 1.5 s, in 7 cells
  of 10 (irregular intervals), with the hiss at up to 1.5 times the
  noise's amplitude (see The gusts' hiss).
*/
static const EventKind event_kinds[P4D_TEXTURE_N_EVENTS] = {
  [P4D_TEXTURE_EVENTS_OFF]   = { .per_cell   = 0.0f,
                                 .build      = 0.0f,
                                 .build_lo   = 0.0f,
                                 .build_span = 0.0f,
                                 .attack_s   = 0.0f,
                                 .decay_lo   = 0.0f,
                                 .decay_span = 0.0f,
                                 .amp_lo     = 1.0f,
                                 .bed        = 1.0f,
                                 .bright     = 0.0f },
  [P4D_TEXTURE_EVENTS_DROPS] = { .per_cell   = 0.5f,
                                 .build      = 0.0f,
                                 .build_lo   = 0.0f,
                                 .build_span = 0.0f,
                                 .attack_s   = 0.0f,
                                 .decay_lo   = 0.005f,
                                 .decay_span = 2.302585f,
                                 .amp_lo     = 0.1f,
                                 .bed        = 0.12f,
                                 .bright     = 0.0f },
  [P4D_TEXTURE_EVENTS_WAVES] = { .per_cell   = 0.95f,
                                 .build      = 0.3f,
                                 .build_lo   = 1.0f,
                                 .build_span = 0.916291f,
                                 .attack_s   = 0.06f,
                                 .decay_lo   = 0.8f,
                                 .decay_span = 0.916291f,
                                 .amp_lo     = 0.4f,
                                 .bed        = 0.2f,
                                 .bright     = 0.0f },
  [P4D_TEXTURE_EVENTS_GUSTS] = { .per_cell   = 0.7f,
                                 .build      = 1.0f,
                                 .build_lo   = 0.3f,
                                 .build_span = 1.203973f,
                                 .attack_s   = 0.0f,
                                 .decay_lo   = 0.4f,
                                 .decay_span = 1.321756f,
                                 .amp_lo     = 0.3f,
                                 .bed        = 0.3f,
                                 .bright     = 1.5f },
};

/// Slowest and fastest event rates, per second.
#define EVENT_HZ_MIN 0.02f
#define EVENT_HZ_MAX 200.0f

/// Time constants after which an event's build-up and decay are cut.
#define EVENT_CUT 5.0

/// Mean of lo * e^(span u) for u uniform in [0, 1].
static double
log_uniform_mean(double lo, double span)
{
  return span > 0.0 ? lo * (p4d_exact_exp(span) - 1.0) / span : lo;
}

static const EventKind*
event_kind(const P4dTexture* tx)
{
  return &event_kinds[tx->events];
}

void
p4d_texture_events(P4dTexture* texture, float kind, float rate_hz)
{
  const float k   = clampf(kind, 0.0f, (float)(P4D_TEXTURE_N_EVENTS - 1U));
  texture->events = (unsigned)(k + 0.5f);
  if (texture->events == P4D_TEXTURE_EVENTS_OFF) {
    return;
  }
  const EventKind* const e    = event_kind(texture);
  const double           rate = clampf(rate_hz, EVENT_HZ_MIN, EVENT_HZ_MAX);
  texture->event_cell         = (double)e->per_cell / rate;
  texture->cell_base          = texture->event_cell;

  // Means of the amplitude, its square and the integrals of h and h^2.
  const double lo = e->amp_lo;
  const double ea = lo + (1.0 - lo) / 3.0;
  const double ea2 =
    lo * lo + 2.0 * lo * (1.0 - lo) / 3.0 + (1.0 - lo) * (1.0 - lo) / 5.0;
  const double b  = e->build;
  const double er = log_uniform_mean(e->build_lo, e->build_span);
  const double ed = log_uniform_mean(e->decay_lo, e->decay_span);
  const double a  = e->attack_s;
  const double i1 = b * er + a * (1.0 + b) / 2.0 + ed;
  const double i2 = b * b * er / 2.0 + a * (1.0 + b + b * b) / 3.0 + ed / 2.0;
  // The channel gain sqrt(1 + q w), q uniform in [-1, 1]: its mean.
  const double w = texture->width;
  const double eg =
    w > 0.0
      ? ((1.0 + w) * sqrt(1.0 + w) - (1.0 - w) * sqrt(1.0 - w)) / (3.0 * w)
      : 1.0;
  const double p = e->per_cell;
  const double m = e->bed + rate * ea * eg * i1;
  // Poisson's variance, less what one event per cell at most takes off.
  const double v      = rate * (ea2 - p * ea * ea * eg * eg) * i2;
  texture->event_norm = (float)(1.0 / sqrt(m * m + v));

  // A bound: every cell of an event's reach holding a full event, at the
  // channel gain's largest, sqrt(2).
  const double reach =
    EVENT_CUT * (double)e->build_lo * p4d_exact_exp(e->build_span) + a +
    EVENT_CUT * (double)e->decay_lo * p4d_exact_exp(e->decay_span);
  const double cells = reach / texture->event_cell + 2.0;
  const double most =
    (double)texture->event_norm * ((double)e->bed + 1.4142135623730951 * cells);
  texture->peak =
    (float)((double)(texture->active ? texture->peak : 1.0f) * most);
  texture->active = true;
}

/// splitmix64's finaliser: the event hash.
static uint64_t
mix64(uint64_t x)
{
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31U);
}

/// Uniform in [0, 1) from bits 16 k .. 16 k + 15 of h.
static double
slice(uint64_t h, unsigned k)
{
  return (double)((h >> (16U * k)) & 0xFFFFU) * (1.0 / 65536.0);
}

/**
   The events' part of channel's envelope at song time t (the sum of A g h
   over the events that reach t, before bed and norm).
*/
static double
events_at(const P4dTexture* tx, uint32_t seed, double side, double t)
{
  const EventKind* const e    = event_kind(tx);
  const double           cell = tx->event_cell;
  const double           ahead =
    EVENT_CUT * (double)e->build_lo * p4d_exact_exp(e->build_span);
  const double behind = (double)e->attack_s + EVENT_CUT * (double)e->decay_lo *
                                                p4d_exact_exp(e->decay_span);
  const int64_t  j0  = (int64_t)floor((t - behind) / cell);
  const int64_t  j1  = (int64_t)floor((t + ahead) / cell);
  const uint64_t key = ((uint64_t)seed << 32U) ^ ((uint64_t)tx->events << 60U);
  double         sum = 0.0;
  for (int64_t j = j0; j <= j1; ++j) {
    // In a loop, cell j draws as cell j mod n: the events repeat.
    const int64_t  n  = tx->event_n;
    const int64_t  jj = n > 0 ? ((j % n) + n) % n : j;
    const uint64_t h1 = mix64(key ^ (uint64_t)jj);
    if (slice(h1, 0U) >= (double)e->per_cell) {
      continue;
    }
    const uint64_t h2   = mix64(h1);
    const double   peak = ((double)j + slice(h1, 1U)) * cell;
    const double   tau  = t - peak;
    const double   r    = (double)e->build_lo *
                     p4d_exact_exp((double)e->build_span * slice(h1, 2U));
    const double d = (double)e->decay_lo *
                     p4d_exact_exp((double)e->decay_span * slice(h1, 3U));
    const double a     = (double)e->attack_s;
    double       shape = 0.0;
    if (tau < 0.0) {
      shape = (r > 0.0 && tau > -EVENT_CUT * r)
                ? (double)e->build * p4d_exact_exp(tau / r)
                : 0.0;
    } else if (tau < a) {
      shape = (double)e->build + (1.0 - (double)e->build) * tau / a;
    } else if (tau - a < EVENT_CUT * d) {
      shape = p4d_exact_exp(-(tau - a) / d);
    }
    if (shape > 0.0) {
      const double u   = slice(h2, 0U);
      const double amp = (double)e->amp_lo + (1.0 - (double)e->amp_lo) * u * u;
      const double q   = 2.0 * slice(h2, 1U) - 1.0;
      sum += amp * sqrt(1.0 + side * q * (double)tx->width) * shape;
    }
  }
  return sum;
}

void
p4d_texture_init(P4dTexture* texture,
                 float       gust_db,
                 float       gust_hz,
                 float       grit,
                 float       width)
{
  const float depth = clampf(gust_db, 0.0f, GUST_DB_MAX);
  const float rate  = clampf(gust_hz, GUST_HZ_MIN, GUST_HZ_MAX);
  const float g     = clampf(grit, 0.0f, 1.0f);

  const FieldScale gust_scale = field_scale(&gust_fbm);
  const FieldScale grit_scale = field_scale(&grit_fbm);

  texture->gust_rate_hz = (double)rate * GUST_CELLS_PER_PERIOD;
  // depth / 2 dB per standard deviation, in natural-log units.
  const float gust_a = depth * (0.5f * 0.11512925464970229f);
  const float grit_a = g * GRIT_A_MAX;
  texture->gust_a    = gust_a / (GUST_COMB_GAIN * gust_scale.std);
  texture->grit_a    = grit_a / grit_scale.std;
  texture->gust_k    = norm_k(gust_k_table, N_GUST_K, gust_a);
  texture->grit_k    = norm_k(grit_k_table, N_GRIT_K, grit_a);
  texture->width     = clampf(width, 0.0f, 1.0f);
  texture->active    = depth > 0.0f || g > 0.0f;

  // The comb's taps sum to 3 in magnitude.
  const float most = texture->gust_a * 3.0f * gust_scale.bound +
                     texture->grit_a * grit_scale.bound - texture->gust_k -
                     texture->grit_k;
  texture->peak         = texture->active ? envelope_exp(most) : 1.0f;
  texture->events       = P4D_TEXTURE_EVENTS_OFF;
  texture->event_cell   = 0.0;
  texture->event_norm   = 1.0f;
  texture->gust_base_hz = texture->gust_rate_hz;
  texture->cell_base    = 0.0;
  p4d_texture_loop(texture, 0.0);
}

/// Whole cells per loop of a field at rate_hz, at least 1.
static double
loop_cells(double rate_hz, double loop_s)
{
  const double cells = floor(rate_hz * loop_s + 0.5);
  return cells < 1.0 ? 1.0 : cells;
}

void
p4d_texture_loop(P4dTexture* texture, double loop_s)
{
  P4dTexture* const tx = texture;
  tx->gust_rate_hz     = tx->gust_base_hz;
  tx->event_cell       = tx->cell_base;
  tx->grit_rate_hz     = GRIT_RATE_HZ;
  tx->hiss_rate_hz     = HISS_RATE_HZ;
  tx->gust_cells = tx->grit_cells = tx->hiss_cells = 0.0;
  tx->event_n                                      = 0;
  if (!(loop_s > 0.0 && loop_s < 1.0e9)) {
    return;
  }
  tx->gust_cells   = loop_cells(tx->gust_base_hz, loop_s);
  tx->grit_cells   = loop_cells(GRIT_RATE_HZ, loop_s);
  tx->hiss_cells   = loop_cells(HISS_RATE_HZ, loop_s);
  tx->gust_rate_hz = tx->gust_cells / loop_s;
  tx->grit_rate_hz = tx->grit_cells / loop_s;
  tx->hiss_rate_hz = tx->hiss_cells / loop_s;
  if (tx->cell_base > 0.0) {
    const double n = loop_cells(1.0 / tx->cell_base, loop_s);
    tx->event_n    = (int64_t)n;
    tx->event_cell = loop_s / n;
  }
}

/// Floor of a / b for b > 0.
static int64_t
floor_div(int64_t a, int64_t b)
{
  const int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

/// Most knots evaluated at once, on the stack.
#define MAX_KNOTS 64U

/*
  The gusts' hiss: one octave of noise along time at HISS_RATE_HZ cells per
  second (flat to about 2.4 kHz, falling past 5.6 kHz), its own seed and
  place, the channels HISS_SPREAD cells apart at width 1.  A gust mixes it
  into the Noise at constant power: z cos + hiss sin, tan = bright x.
*/
#define HISS_SPREAD 1.75
static const uint32_t hiss_seed        = 0x3C6EF372U;
static const double   hiss_position[4] = { 0.1731, 0.6637, 0.3829, 0.0 };
static const P4dFbm   hiss_fbm         = { 1.0f, 2.0, 0.5f, 0.0 };

/**
   Multiply the m frames of env (the piece from frame at, knots from j0 on)
   by the events' envelope, interpolated between knots, and when tone is
   not NULL set tone[.][done + i], the brightening (see texture.h).
*/
static void
events_span(const P4dTexture* tx,
            uint32_t          seed,
            double            side,
            double            t0_s,
            double            step_s,
            int64_t           j0,
            int64_t           at,
            uint32_t          m,
            float*            env,
            float* const      tone[2],
            uint32_t          done)
{
  const int64_t          knot    = (int64_t)P4D_TEXTURE_KNOT;
  const int64_t          j1      = floor_div(at + (int64_t)m - 1, knot) + 1;
  const size_t           n_knots = (size_t)(j1 - j0 + 1);
  const EventKind* const e       = event_kind(tx);
  float                  d[MAX_KNOTS];
  float                  c1[MAX_KNOTS];
  float                  c2[MAX_KNOTS];
  for (size_t k = 0U; k < n_knots; ++k) {
    const double t = t0_s + (double)(((j0 + (int64_t)k) * knot)) * step_s;
    const double x = events_at(tx, seed, side, t);
    d[k]           = (float)((double)tx->event_norm * ((double)e->bed + x));
    const double b = (double)e->bright * (x < 1.0 ? x : 1.0);
    const double s = 1.0 / sqrt(1.0 + b * b);
    c1[k]          = (float)s;
    c2[k]          = (float)(b * s / (double)P4D_NOISE_STD);
  }
  for (uint32_t i = 0U; i < m; ++i) {
    const int64_t pos  = at + (int64_t)i - j0 * knot;
    const size_t  k    = (size_t)(pos / knot);
    const float   frac = (float)(pos % knot) * (1.0f / (float)knot);
    env[i] *= d[k] + frac * (d[k + 1U] - d[k]);
    if (tone) {
      tone[0][done + i] = c1[k] + frac * (c1[k + 1U] - c1[k]);
      tone[1][done + i] = c2[k] + frac * (c2[k + 1U] - c2[k]);
    }
  }
}

/**
   The envelope of p4d_texture_envelope() into env and, when tone is not
   NULL, the brightening of gusts events: tone[0][i] z + tone[1][i] hiss
   is frame i's tone (z itself without brightening; hiss the gusts' hiss
   field, unscaled).
*/
static void
texture_span(const P4dTexture* texture,
             uint32_t          seed,
             unsigned          channel,
             double            t0_s,
             double            step_s,
             int64_t           first,
             float*            env,
             float* const      tone[2],
             uint32_t          n)
{
  const P4dTexture* const tx = texture;
  if (!tx->active) {
    for (uint32_t i = 0U; i < n; ++i) {
      env[i] = 1.0f;
    }
    return;
  }

  const int64_t knot = (int64_t)P4D_TEXTURE_KNOT;
  const double  side = channel ? 1.0 : -1.0;

  double gust_pos[4];
  double grit_pos[4];
  memcpy(gust_pos, gust_position, sizeof(gust_pos));
  memcpy(grit_pos, grit_position, sizeof(grit_pos));
  gust_pos[0] += side * tx->width * GUST_SPREAD;
  grit_pos[0] += side * tx->width * GRIT_SPREAD;

  const double gust_step[4] = {
    0.0, 0.0, 0.0, (double)knot * step_s * tx->gust_rate_hz
  };
  const double grit_origin[4] = { 0.0, 0.0, 0.0, t0_s * tx->grit_rate_hz };
  const double grit_step[4]   = {
      0.0, 0.0, 0.0, (double)knot * step_s * tx->grit_rate_hz
  };
  const float bias = -tx->gust_k - tx->grit_k;

  for (uint32_t done = 0U; done < n;) {
    const int64_t at = first + (int64_t)done;
    const int64_t j0 = floor_div(at, knot);
    // Frames of this piece: up to the knot MAX_KNOTS - 1 knots on.
    const int64_t  end = (j0 + (int64_t)MAX_KNOTS - 1) * knot;
    const uint32_t m =
      end - at < (int64_t)(n - done) ? (uint32_t)(end - at) : n - done;
    const int64_t j1      = floor_div(at + (int64_t)m - 1, knot) + 1;
    const size_t  n_knots = (size_t)(j1 - j0 + 1);

    float e[MAX_KNOTS] = { 0.0f };
    float f[MAX_KNOTS] = { 0.0f };
    for (size_t k = 0U; k < n_knots; ++k) {
      e[k] = bias;
    }
    if (tx->gust_a > 0.0f) {
      for (unsigned m_tap = 0U; m_tap < GUST_TAPS; ++m_tap) {
        const double origin[4] = {
          0.0, 0.0, 0.0, t0_s * tx->gust_rate_hz + ((double)m_tap - 2.0)
        };
        p4d_fbm4_sum_span_loop(&gust_fbm,
                               tx->gust_cells,
                               seed + gust_seed,
                               origin,
                               gust_step,
                               gust_pos,
                               j0,
                               f,
                               n_knots);
        const float h = gust_taps[m_tap] * tx->gust_a;
        for (size_t k = 0U; k < n_knots; ++k) {
          e[k] += h * f[k];
        }
      }
    }
    if (tx->grit_a > 0.0f) {
      p4d_fbm4_sum_span_loop(&grit_fbm,
                             tx->grit_cells,
                             seed + grit_seed,
                             grit_origin,
                             grit_step,
                             grit_pos,
                             j0,
                             f,
                             n_knots);
      for (size_t k = 0U; k < n_knots; ++k) {
        e[k] += tx->grit_a * f[k];
      }
    }

    for (uint32_t i = 0U; i < m; ++i) {
      const int64_t pos  = at + (int64_t)i - j0 * knot;
      const size_t  k    = (size_t)(pos / knot);
      const float   frac = (float)(pos % knot) * (1.0f / (float)knot);
      const float   x    = e[k] + frac * (e[k + 1U] - e[k]);
      env[done + i]      = envelope_exp(x);
    }
    if (tx->events != P4D_TEXTURE_EVENTS_OFF) {
      events_span(
        tx, seed, side, t0_s, step_s, j0, at, m, env + done, tone, done);
    }
    done += m;
  }
}

void
p4d_texture_envelope(const P4dTexture* texture,
                     uint32_t          seed,
                     unsigned          channel,
                     double            t0_s,
                     double            step_s,
                     int64_t           first,
                     float*            env,
                     uint32_t          n)
{
  texture_span(texture, seed, channel, t0_s, step_s, first, env, NULL, n);
}

void
p4d_texture_apply(const P4dTexture* texture,
                  uint32_t          seed,
                  unsigned          channel,
                  double            t0_s,
                  double            step_s,
                  int64_t           first,
                  float*            buf,
                  uint32_t          n)
{
  if (!texture->active) {
    return;
  }

  const bool bright = event_kind(texture)->bright > 0.0f;
  for (uint32_t done = 0U; done < n;) {
    float          env[256]  = { 0.0f };
    float          c[2][256] = { { 0.0f } };
    float* const   tone[2]   = { c[0], c[1] };
    const uint32_t m         = n - done < 256U ? n - done : 256U;
    texture_span(texture,
                 seed,
                 channel,
                 t0_s,
                 step_s,
                 first + (int64_t)done,
                 env,
                 bright ? tone : NULL,
                 m);
    if (bright) {
      float        hiss[256] = { 0.0f };
      const double side      = channel ? 1.0 : -1.0;
      double       pos[4];
      memcpy(pos, hiss_position, sizeof(pos));
      pos[0] += side * texture->width * HISS_SPREAD;
      const double origin[4] = { 0.0, 0.0, 0.0, t0_s * texture->hiss_rate_hz };
      const double step[4] = { 0.0, 0.0, 0.0, step_s * texture->hiss_rate_hz };
      p4d_fbm4_sum_span_loop(&hiss_fbm,
                             texture->hiss_cells,
                             seed + hiss_seed,
                             origin,
                             step,
                             pos,
                             first + (int64_t)done,
                             hiss,
                             m);
      for (uint32_t i = 0U; i < m; ++i) {
        buf[done + i] = env[i] * (c[0][i] * buf[done + i] + c[1][i] * hiss[i]);
      }
    } else {
      for (uint32_t i = 0U; i < m; ++i) {
        buf[done + i] *= env[i];
      }
    }
    done += m;
  }
}

float
p4d_texture_peak(const P4dTexture* texture)
{
  return texture->peak;
}

float
p4d_texture_headroom(const P4dTexture* texture)
{
  return texture->peak < P4D_TEXTURE_HEADROOM ? texture->peak
                                              : P4D_TEXTURE_HEADROOM;
}
