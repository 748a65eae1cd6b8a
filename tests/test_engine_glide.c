// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Glides (issue 11, item 3): to an unrelated signal the level holds (equal
  power: mid-glide variance of z near the steady one, where a linear
  cross-fade gives 0.5), to a signal the time line moved only a little it
  does not bump either, and the slope never jumps at either end of a glide
  (a linear cross-fade's kink is 0.8 to 4.6 times the typical slope: the
  check wants below 0.1).  The slope is checked where the signal is smooth at
  the sample scale: the Mod, and the Noise at grain 20 Hz with one octave; a
  kink hides in the default Noise's own roughness.

  z is read back from the outputs: Noise at level 0 dB is soft_limit(z /
  4), which the test inverts; Mod over [0, 1] is Phi(z), inverted by
  bisection on libm's erfc.  Every trial starts at its own song position,
  so trials are independent.

  Usage: test_engine_glide [CASE]   (mod_seed, noise_seed, noise_smooth,
  noise_grain; all without)
*/

#undef NDEBUG

#include "engine.h"
#include "params.h"

#include "support/rig.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 48000.0
#define GLIDE 960U   // 20 ms: the Noise's glide, and the Mod's smoothing
#define STEADY 4800U // Frames before the change (seed trials)
#define SETTLE 3744U // The first voice's warm-up and glide in a song
#define AFTER 4800U  // Frames from the change: a warm-up, the glide, more
#define N_TRIALS 600U

/// z from a Noise output at level 0 dB: the inverse of soft_limit(z / 4).
static double
noise_z(float y)
{
  const double m = fabs((double)y);
  double       x = m;
  if (m > 0.75) {
    const double q = (m - 0.75) / 0.25;
    x              = 0.75 + 0.25 * (q / (1.0 - q));
  }
  return (y < 0.0f ? -x : x) * 4.0;
}

/// z from a Mod output over [0, 1]: the inverse of Phi.
static double
mod_z(float y)
{
  double lo = -8.0;
  double hi = 8.0;
  for (unsigned i = 0U; i < 40U; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (0.5 * erfc(-mid * 0.70710678118654752) < (double)y) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

/// What a trial changes at the glide.
typedef enum {
  CHANGE_SEED,        ///< The seed, far into the song
  CHANGE_SEED_SMOOTH, ///< The seed, with the Noise at 20 Hz, 1 octave
  CHANGE_GRAIN_EARLY, ///< The grain by 3 Hz, 50 ms into the song
} Change;

typedef struct {
  double steady;   ///< Sum of z^2 before the change
  double mid;      ///< Sum of z^2 within 48 frames of the glide's middle
  double kink[2];  ///< Sum of |second difference| at the glide's start, end
  double slope;    ///< Sum of |first difference| before the change
  double curve;    ///< Sum of |second difference| before the change
  size_t n_steady; ///< Samples of steady
  size_t n_mid;    ///< Samples of mid
  size_t n_diff;   ///< Samples of slope and curve
  size_t n_edges;  ///< Samples of each kink
  double delay;    ///< Sum of the frames from the change to the glide
} GlideStats;

/// Render a trial: STEADY frames (the grain trials: STEADY / 2) at the
/// trial's song position, then AFTER frames with the change applied or not.
static size_t
render_trial(P4dKind  kind,
             Change   change,
             unsigned index,
             bool     apply,
             float    buf[][STEADY + AFTER])
{
  P4dRig rig = p4d_rig_new(kind, RATE);
  float* out[P4D_MAX_CHANNELS];
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    out[c] = buf[c];
  }

  const unsigned seed = kind == P4D_KIND_MOD ? P4D_MOD_SEED : P4D_NOISE_SEED;
  rig.params[seed]    = (float)(index + 1U);
  if (kind == P4D_KIND_MOD) {
    rig.params[P4D_MOD_RATE_HZ] = 5.0f; // a few cells per trial
  } else {
    rig.params[P4D_NOISE_LEVEL_DB] = 0.0f;
    if (change == CHANGE_SEED_SMOOTH) {
      // 2400 samples a cell: smooth at the sample scale, like the Mod.
      rig.params[P4D_NOISE_GRAIN_HZ] = 20.0f;
      rig.params[P4D_NOISE_OCTAVES]  = 1.0f;
    }
  }

  // Seed trials start far into the song (the Noise's first voice warms its
  // high-pass up there: SETTLE frames); the grain trials at song frame 0,
  // so that at the change (0.05 s) a grain change of 3 Hz moves the time
  // line by 0.15 cells.
  const bool    early  = change == CHANGE_GRAIN_EARLY;
  const size_t  steady = early ? STEADY / 2U : STEADY;
  const int64_t song   = early ? 0 : (int64_t)(index + 1U) * 7919 * 48;
  P4dTransport  at     = { true, true, false, false, song, 1.0, 0.0, 0.0 };
  p4d_engine_transport(rig.engine, &at);
  p4d_rig_render(&rig, out, steady, 256U);

  if (apply && !early) {
    rig.params[seed] = (float)(index + 40000U);
  } else if (apply) {
    rig.params[P4D_NOISE_GRAIN_HZ] += 3.0f;
  }
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    out[c] = buf[c] + steady;
  }
  p4d_rig_render(&rig, out, AFTER, 256U);
  p4d_engine_free(rig.engine);
  return steady;
}

static void
trial(P4dKind kind, Change change, unsigned index, GlideStats* st)
{
  static float buf[P4D_MAX_CHANNELS][STEADY + AFTER];
  static float ref[P4D_MAX_CHANNELS][STEADY + AFTER];
  const size_t steady = render_trial(kind, change, index, true, buf);
  render_trial(kind, change, index, false, ref);
  const unsigned n_channels = p4d_engine_channels(kind);

  // The glide starts a frame before the output leaves the unchanged run's:
  // at the change, or once an unrelated Noise voice has warmed up.
  size_t start = steady + AFTER;
  for (unsigned c = 0U; c < n_channels; ++c) {
    for (size_t i = steady; i < start; ++i) {
      if (buf[c][i] != ref[c][i]) {
        start = i;
      }
    }
  }
  // The glide's first frames are the old voice's still, to the last bit
  // (the quintic weight starts at 0 with zero slope and curvature: below
  // 1e-7 for 3 frames), so the first difference is a few frames late.
  assert(start > steady && start + GLIDE < steady + AFTER);
  --start;
  assert(kind != P4D_KIND_MOD || start - steady <= 8U);
  st->delay += (double)(start - steady);

  const size_t settled = change == CHANGE_GRAIN_EARLY ? 0U : SETTLE;
  for (unsigned c = 0U; c < n_channels; ++c) {
    const float* y = buf[c];
    for (size_t i = settled; i < start + GLIDE; ++i) {
      const bool in_mid =
        i >= start + GLIDE / 2U - 48U && i < start + GLIDE / 2U + 48U;
      if (!in_mid && (i >= steady || i % 8U)) {
        continue;
      }
      const double z = kind == P4D_KIND_MOD ? mod_z(y[i]) : noise_z(y[i]);
      if (in_mid) {
        st->mid += z * z;
        ++st->n_mid;
      } else {
        st->steady += z * z;
        ++st->n_steady;
      }
    }
    for (size_t i = settled + 1U; i + 1U < steady; ++i) {
      st->slope += fabs((double)y[i] - y[i - 1U]);
      st->curve +=
        fabs(((double)y[i + 1U] - y[i]) - ((double)y[i] - y[i - 1U]));
      ++st->n_diff;
    }
    const size_t edge[2] = { start, start + GLIDE };
    for (unsigned k = 0U; k < 2U; ++k) {
      const size_t i = edge[k];
      st->kink[k] +=
        fabs(((double)y[i + 1U] - y[i]) - ((double)y[i] - y[i - 1U]));
    }
    ++st->n_edges;
  }
}

static void
check(P4dKind kind, Change change, const char* what)
{
  GlideStats st = { 0.0, 0.0, { 0.0, 0.0 }, 0.0, 0.0, 0U, 0U, 0U, 0U, 0.0 };
  for (unsigned i = 0U; i < N_TRIALS; ++i) {
    trial(kind, change, i, &st);
  }

  const double ratio =
    (st.mid / (double)st.n_mid) / (st.steady / (double)st.n_steady);
  const double slope = st.slope / (double)st.n_diff;
  const double curve = st.curve / (double)st.n_diff;
  const double edges = (double)st.n_edges;
  printf("# %s %s: glide %.1f ms after the change (mean), mid-glide "
         "variance %.3f of steady (%u trials); slope jump at the start, "
         "end: %.4f, %.4f of the typical slope, %.2f, %.2f of the typical "
         "second difference\n",
         kind == P4D_KIND_MOD ? "Mod  " : "Noise",
         what,
         1000.0 * st.delay / (double)N_TRIALS / RATE,
         ratio,
         N_TRIALS,
         st.kink[0] / edges / slope,
         st.kink[1] / edges / slope,
         st.kink[0] / edges / curve,
         st.kink[1] / edges / curve);
  const bool smooth = kind == P4D_KIND_MOD || change == CHANGE_SEED_SMOOTH;
  // (The smooth Noise's level once rose to 1.88 of steady: its new voice
  // copied the old one's high-pass state, which rang on the new signal; an
  // unrelated voice now warms its filters up from its own past.)
  assert(ratio >= 0.9 && ratio <= 1.12);
  for (unsigned k = 0U; k < 2U; ++k) {
    // A smooth signal's second difference is far below its slope: a kink
    // would stand out of the slope (a linear cross-fade's is several times
    // it).  The default Noise is rough at the sample scale, where its own
    // second differences are of the order of its slope and would hide a
    // kink: there the edges need only not stand out of them.
    assert(smooth ? st.kink[k] / edges < 0.1 * slope
                  : st.kink[k] / edges < 2.0 * curve);
  }
}

int
main(int argc, char** argv)
{
  // One case per meson test (a few seconds of work each, many times that
  // in a build without vector code under load), or all of them.
  static const struct {
    const char* name;
    P4dKind     kind;
    Change      change;
    const char* what;
  } cases[] = {
    { "mod_seed", P4D_KIND_MOD, CHANGE_SEED, "seed change      " },
    { "noise_seed", P4D_KIND_NOISE, CHANGE_SEED, "seed change      " },
    { "noise_smooth", P4D_KIND_NOISE, CHANGE_SEED_SMOOTH, "seed, 20 Hz 1 oct" },
    { "noise_grain",
      P4D_KIND_NOISE,
      CHANGE_GRAIN_EARLY,
      "grain +3 Hz at 50 ms" },
  };
  assert(!setvbuf(stdout, NULL, _IOLBF, 0));
  assert(argc <= 2);
  unsigned n_run = 0U;
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    if (argc < 2 || !strcmp(argv[1], cases[i].name)) {
      check(cases[i].kind, cases[i].change, cases[i].what);
      ++n_run;
    }
  }
  assert(n_run > 0U);
  return 0;
}
