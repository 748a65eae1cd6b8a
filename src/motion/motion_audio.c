// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Motion: the audio path, chunk by chunk, from the curves that
  motion.c's engines leave in the curve buffers.

  Laws, with u = 2 c - 1 in (-1, 1) for a curve c in (0, 1) (uniform: Mod
  maps z through Phi):
    gain    dB = gain_db (u - 1) / 2: a tremolo downwards from unity (the
            peaks never rise above the input; the mean drops by gain_db / 2,
            output_db restores it).
    pan     p = pan_depth u; width w first folds the sides towards mono
            (L' = a L + b R, R' = b L + a R, a = (1 + w) / 2, b = 1 - a),
            then an equal-power balance: L' sqrt2 cos(theta), R' sqrt2
            sin(theta), theta = pi (p + 1) / 4 (unity at the centre).
    filter  fc = cutoff_hz 2^(filter_oct u), clamped to [20 Hz, 0.45 fs];
            a TPT (zero-delay-feedback) state-variable filter, Simper's form
            (trapezoidal integrators, g = tan(pi fc / fs), k = 2 - 1.9
            resonance, so Q runs 0.5 to 10), stable for any per-sample
            cutoff; low pass v2, band pass k v1 (unity peak), high pass.
            Level: the low and high pass are scaled by min(1, k).  Their
            gain at the cutoff is 1 / k (Q), their peak Q / sqrt(1 - 1 /
            (4 Q^2)); times min(1, k) no sine ever comes out more than
            1.25 dB (at k = 1) above its level at any resonance, where the
            raw filter raised it by up to 20 dB (Q 10); the cutoff reads
            -6 dB at resonance 0 (Q 0.5) and 0 dB from resonance 0.53 (k =
            1) up, and the pass band gives up what the resonance no longer
            adds (-20 dB at resonance 1).  Below resonance 0.53 nothing
            changes, bit for bit (times 1).
            Mode changes cross-fade the four outputs (dry, LP, BP, HP).
            g is computed at knots every P4D_MOTION_KNOT frames of the
            filter grid (grid frame j KNOT: the song frame, however a
            render is cut or a host jumps; see Bounded past) and
            interpolated linearly from the knot before the last to the
            last, so g follows the curve one knot late (0.33 ms at 48
            kHz); a1 = 1 / (1 + g (g + k)) is computed every frame from
            the interpolated g, so the filter stays the stable TPT form.
            The knots restart (both equal to the frame's g) whenever the
            filters start from rest or the grid moves.
    delay   d = D0 + wow_ms u_w + flutter_ms u_f, in frames; D0 = (max wow
            + max flutter) ms + 16 frames (the read's half width), rounded
            up: the latency, the same for every setting.  The dry path and
            bypass read the line at D0, so everything lines up.  Reading
            at a fraction uses a 32-point Kaiser-windowed sinc, 512 phases
            interpolated linearly (motion_kernel.h): against an ideal
            resampling of the same delay curve within -90 dB up to 2/3 of
            Nyquist and -70 dB up to 0.79 of Nyquist (16 and 19 kHz at 48
            kHz), see tests/test_motion_read.c; a whole delay reads the
            tap.  The delay moves at most half a frame a frame
            (slew_limit()): the read's speed stays within 0.5 to 1.5 (an
            octave down to a fifth up), so it never runs backwards; where
            the curves move the delay slower, as in every preset, it is d
            exactly.
  Wet = pan(gain(filter(delay))); out = output_gain ((1 - mix) dry + mix
  wet); bypass (enabled 0) cross-fades to dry over 20 ms.  The depths, mix,
  output, width, cutoff, resonance and enabled glide over 20 ms (a quintic
  ramp restarted from where it is on a change), so no control clicks.

  Bounded past.  The delay line reaches back D0 + 12 ms + 16 frames, and
  the slew limiter forgets in 2 (48 ms / 0.5 + 2) frames at most.  The
  filter is IIR: three filters run staggered per channel on a grid of song
  frames, filter j restarting from rest whenever grid time minus j Q is a
  multiple of 3Q, and the output uses the oldest (3Q > age >= 2Q once the
  grid has run).  2Q = P = 2.6 s is the time the slowest decay allowed
  (20 Hz, resonance 1: sigma = pi fc k = 6.3 per second) needs to fall
  140 dB: a start transient, 20 dB of resonance included, is 120 dB below
  full scale when its filter takes over.  So the output at F depends on
  the input from p4d_motion_exact_from(F) on only.  The grid is the song
  frame: set at activation and on every jump of the song position (as the
  engines see jumps), counting frames in between.  At a speed other than 1,
  stopped, or with no transport, it counts frames from the last song
  position it knew (the audio runs at frame rate whatever the song does;
  a free-running clock parameter changes only the curves, not the grid),
  and a transport at speed 1 puts it back on the song frame.  "Oldest" (by
  frames since restart, not by grid phase) keeps a filter that has not
  warmed up out of use even when a jump moves the grid.

  Hygiene.  Non-finite input samples become 0, and tiny ones 0, before
  anything stores them; the filters flush states below 1e-30; the output
  is flushed below 1e-30 and clamped to +-3e38, so it is always finite.
  All maths are +, -, *, / and sqrt (the exact_math.h way): no libm
  transcendental decides a bit.
*/

#include "motion_block.h"
#include "motion_filter.h"
#include "motion_private.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#define P4D_LN10_20 0.11512925464970228420 // ln 10 / 20
#define P4D_SQRT2 1.41421356237309504880

/// Frames since the filter in use at grid time t restarted, on the grid.
static int64_t
filter_age(const P4dMotion* m, int64_t t)
{
  const int64_t cycle = P4D_MOTION_FILTERS * m->filter_q;
  const int64_t phase = ((t % cycle) + cycle) % cycle;
  return phase % m->filter_q + (P4D_MOTION_FILTERS - 1) * m->filter_q;
}

int64_t
p4d_motion_exact_from(const P4dMotion* motion, int64_t frame)
{
  // The filter in use at frame restarted 2Q to 3Q back, and what it has
  // filtered since came through the delay line, which reads reach back.
  return frame - filter_age(motion, frame) - motion->reach -
         motion->slew_settle;
}

/// Take a host sample: non-finite and tiny ones are 0 (& rather than &&,
/// so that a loop of them vectorises).
static inline float
clean(float x)
{
  const float a = fabsf(x);
  return ((a >= 1.0e-30f) & (a <= FLT_MAX)) ? x : 0.0f;
}

void
p4d_motion_audio_clear(P4dMotion* m)
{
  const size_t size = m->mask + 1U + P4D_MOTION_TAPS;
  memset(m->line[0], 0, size * sizeof(double));
  memset(m->line[1], 0, size * sizeof(double));
  memset(m->svf, 0, sizeof(m->svf));
  memset(m->age, 0, sizeof(m->age));
  for (unsigned c = 0U; c < 2U; ++c) {
    m->slew[0][c] = m->slew[1][c] = (double)m->d0;
  }
  m->audio_dirty  = false;
  m->filters_rest = true;
  m->knots_fresh  = true;
}

/// dB to a gain.
static inline double
db_gain(double db)
{
  return db == 0.0 ? 1.0 : p4d_exact_exp_short(db * P4D_LN10_20);
}

/// Take n frames of in from frame done into m->x and the delay lines.
static void
take_input(P4dMotion* m, const float* const in[2], uint32_t done, uint32_t n)
{
  // Read the whole chunk before writing any of it: in may alias out.
  for (unsigned c = 0U; c < 2U; ++c) {
    const float* const from = in[c] + done;
    float* const       x    = m->x[c];
    for (uint32_t i = 0U; i < n; ++i) {
      x[i] = clean(from[i]);
    }
  }
  // Frame w lands at w & mask: at most two runs (n <= mask + 1).
  const uint32_t mask  = m->mask;
  const uint32_t start = (uint32_t)((uint64_t)m->idx & mask);
  const uint32_t room  = mask + 1U - start;
  const uint32_t first = n < room ? n : room;
  for (unsigned c = 0U; c < 2U; ++c) {
    double* const      line = m->line[c];
    const float* const x    = m->x[c];
    for (uint32_t i = 0U; i < first; ++i) {
      line[start + i] = x[i];
    }
    for (uint32_t i = first; i < n; ++i) {
      line[i - first] = x[i];
    }
    // The copy past the end, so that a read's points never wrap.
    memcpy(line + mask + 1U, line, P4D_MOTION_TAPS * sizeof(double));
  }
}

/// The dry taps of the chunk's n frames (the line at D0) into m->dry.
static void
take_dry(P4dMotion* m, uint32_t n)
{
  const uint32_t mask  = m->mask;
  const uint32_t start = (uint32_t)((uint64_t)(m->idx - (int64_t)m->d0) & mask);
  const uint32_t room  = mask + 1U - start;
  const uint32_t first = n < room ? n : room;
  for (unsigned c = 0U; c < 2U; ++c) {
    const double* const line = m->line[c];
    double* const       dry  = m->dry[c];
    for (uint32_t i = 0U; i < first; ++i) {
      dry[i] = line[start + i];
    }
    for (uint32_t i = first; i < n; ++i) {
      dry[i] = line[i - first];
    }
  }
}

/// The curve each target reads per side: engine and channel (the pan has
/// no right side; the wow's is p4d_motion_wow_curves()).
static const struct {
  unsigned engine[2];
  unsigned channel[2];
  bool     right;
} u_source[U_COUNT] = {
  [U_GAIN]    = { { ENGINE_L, ENGINE_R }, { CH_GAIN, CH_GAIN }, true },
  [U_PAN]     = { { ENGINE_L, ENGINE_L }, { CH_PAN, CH_PAN }, false },
  [U_CUT]     = { { ENGINE_L, ENGINE_R }, { CH_FILTER, CH_FILTER }, true },
  [U_WOW]     = { { ENGINE_L, ENGINE_T }, { CH_WOW, CH_WOW }, false },
  [U_FLUTTER] = { { ENGINE_F, ENGINE_F }, { 0U, 1U }, true },
};

/// u[i] = 2 c[i] - 1 for i < n.
static void
to_u(const float* c, double* u, uint32_t n)
{
  for (uint32_t i = 0U; i < n; ++i) {
    u[i] = 2.0 * c[i] - 1.0;
  }
}

/**
   The chunk's n frames of curves as u in (-1, 1) into m->u, per target of
   the mask targets (bit U_GAIN and so on) and side: the right side copies
   the left from the frame on which R has sat at spread 0 for m->settle
   frames.
*/
static void
curves_u(P4dMotion* m, unsigned targets, uint32_t n)
{
  const int64_t  wait = m->settle - m->spread_zero;
  const uint32_t from = wait <= 0            ? 0U
                        : wait >= (int64_t)n ? n
                                             : (uint32_t)wait;
  for (unsigned t = 0U; t < U_COUNT; ++t) {
    if (!(targets & (1U << t))) {
      continue;
    }
    const unsigned* const e  = u_source[t].engine;
    const unsigned* const ch = u_source[t].channel;
    to_u(m->curve[e[0]][ch[0]], m->u[t][0], n);
    if (u_source[t].right) {
      to_u(m->curve[e[1]][ch[1]], m->u[t][1], from);
      memcpy(m->u[t][1] + from, m->u[t][0] + from, (n - from) * sizeof(double));
    }
  }
  if (targets & (1U << U_WOW)) {
    p4d_motion_wow_curves(m, n);
  }
}

/// Whether any control is still on its glide.
static bool
glides_moving(const P4dMotion* m)
{
  for (unsigned k = 0U; k < G_COUNT; ++k) {
    if (p4d_motion_glide_moving(&m->glide[k], m->glide_len)) {
      return true;
    }
  }
  return false;
}

/**
   The values of glide g (a copy, stepped on) over the next n frames into
   v; return whether any is not 0.
*/
static bool
glide_values(const P4dMotion* m, unsigned k, double* v, uint32_t n)
{
  P4dMotionGlide g       = m->glide[k];
  bool           nonzero = false;
  uint32_t       i       = 0U;
  for (; i < n && p4d_motion_glide_moving(&g, m->glide_len); ++i) {
    p4d_motion_glide_step(&g, m->glide_len, m->inv_glide_len);
    v[i] = g.value;
    nonzero |= g.value != 0.0;
  }
  if (i < n) {
    nonzero |= g.value != 0.0;
  }
  for (; i < n; ++i) {
    v[i] = g.value;
  }
  return nonzero;
}

/**
   Limit the slope of side c's delays d[i], i < n (all D0 unless moves), to
   P4D_MOTION_SLEW frames a frame, in two stages: the first rises at most
   SLEW a frame (x = min(d, x + SLEW)), the second falls at most SLEW a
   frame (y = max(x, y - SLEW)); y never rises faster than x, so y moves
   at most SLEW either way, and wherever d is that slow both follow it
   exactly.  The read's speed, 1 - y', stays within 1 +- SLEW: it never
   stops or runs backwards, and a delay that jumps (a depth or a rate
   automated at once) is followed without a click.  Each stage forgets its
   state within range / SLEW frames, range the span of the delay (2
   swing): a rising cone from further back lies above every delay, so a
   render cut anywhere joins after m->slew_settle frames (rounding is
   monotone, so the order of min and + SLEW does not matter).
*/
static void
slew_limit(double   slew[2][2],
           unsigned c,
           bool     moves,
           double   d0,
           double*  d,
           uint32_t n)
{
  double x = slew[0][c];
  double y = slew[1][c];
  for (uint32_t i = 0U; i < n; ++i) {
    const double di   = moves ? d[i] : d0;
    const double up   = x + P4D_MOTION_SLEW;
    x                 = di < up ? di : up;
    const double down = y - P4D_MOTION_SLEW;
    y                 = x > down ? x : down;
    d[i]              = y;
  }
  slew[0][c] = x;
  slew[1][c] = y;
}

/// Which block passes a chunk ran.
typedef struct {
  bool reads; ///< m->read holds the delay line's reads (else take m->dry)
  bool gains; ///< m->gain holds the gains
  bool pans;  ///< m->pan holds the pan's sines
} Passes;

/**
   The delay line's reads, the gains and the pan's sines of the chunk's n
   frames, as block passes (motion_block.h) into m->read, m->gain and
   m->pan, and the wobble into m->wobble: their glides run ahead on copies
   (a glide's steps depend on itself alone), and the frames take the
   results.  The reads run when a wobble depth is not 0 on some frame: at a
   wobble of 0 the delay is D0 exactly, and the read there is the dry tap,
   bit for bit.
*/
static Passes
block_passes(P4dMotion* m, uint32_t n)
{
  double wow[P4D_MOTION_CHUNK];
  double flutter[P4D_MOTION_CHUNK];
  double gain[P4D_MOTION_CHUNK];
  double pan[P4D_MOTION_CHUNK];
  // Both wobble glides fill their values, whatever the first holds.
  const bool wows     = glide_values(m, G_WOW, wow, n);
  const bool flutters = glide_values(m, G_FLUTTER, flutter, n);
  // The reads run while the depths move the delay or the slew limiter
  // has not come back to D0.
  const double d0     = (double)m->d0;
  const bool   moves  = wows || flutters;
  const bool   rested = m->slew[0][0] == d0 && m->slew[1][0] == d0 &&
                      m->slew[0][1] == d0 && m->slew[1][1] == d0;
  const Passes ps = { moves || !rested,
                      glide_values(m, G_GAIN_DB, gain, n),
                      glide_values(m, G_PAN, pan, n) };
  // Only the curves that some frame reads: the cutoff's while the filters
  // may run.
  const bool cut = glides_moving(m) || filter_on(m->glide);
  curves_u(m,
           (moves ? 1U << U_WOW | 1U << U_FLUTTER : 0U) |
             (ps.gains ? 1U << U_GAIN : 0U) | (ps.pans ? 1U << U_PAN : 0U) |
             (cut ? 1U << U_CUT : 0U),
           n);
  const double  fpm   = m->frames_per_ms;
  const double* u_pan = m->u[U_PAN][0];
  for (unsigned c = 0U; c < 2U; ++c) {
    const double* const u_wow = m->u[U_WOW][c];
    const double* const u_fl  = m->u[U_FLUTTER][c];
    const double* const u_g   = m->u[U_GAIN][c];
    double* const       d     = m->delay[c];
    double* const       x     = m->gain_x[c];
    for (uint32_t i = 0U; moves && i < n; ++i) {
      d[i] = d0 + (wow[i] * u_wow[i] + flutter[i] * u_fl[i]) * fpm;
    }
    if (ps.reads) {
      slew_limit(m->slew, c, moves, d0, d, n);
    }
    if (ps.gains) {
      for (uint32_t i = 0U; i < n; ++i) {
        x[i] = gain[i] * (u_g[i] - 1.0) * 0.5 * P4D_LN10_20;
      }
    }
  }
  if (ps.pans) {
    for (uint32_t i = 0U; i < n; ++i) {
      const double a = 0.5 * (pan[i] * u_pan[i] + 1.0);
      m->pan_a[0][i] = 1.0 - a;
      m->pan_a[1][i] = a;
    }
  }
  for (unsigned c = 0U; c < 2U; ++c) {
    if (ps.reads) {
      p4d_motion_block_read(
        m->line[c], m->kernel, m->mask, m->idx, m->delay[c], m->read[c], n);
    }
    if (ps.gains) {
      p4d_motion_block_exp(m->gain_x[c], m->gain[c], n);
    }
    if (ps.pans) {
      p4d_motion_block_sin(m->pan_a[c], m->pan[c], n);
    }
  }
  return ps;
}

/// Frame i's gain (from the block pass), then the width and the
/// equal-power balance, on the filtered y.
static inline P4dMotionPair
gain_pan(const P4dMotion* m, uint32_t i, P4dMotionPair y)
{
  const P4dMotionGlide* const g = m->glide;
  // e^0 is exactly 1: a gain depth of 0 leaves y as it is.
  P4dMotionPair wet = y;
  if (g[G_GAIN_DB].value != 0.0) {
    const P4dMotionPair gain_i = { m->gain[0][i], m->gain[1][i] };
    wet *= gain_i;
  }
  if (g[G_WIDTH].value != 1.0) {
    const double        a  = 0.5 * (1.0 + g[G_WIDTH].value);
    const double        b  = 1.0 - a;
    const P4dMotionPair ab = { a, b };
    const P4dMotionPair ba = { b, a };
    wet = ab * p4d_motion_pair(wet[0]) + ba * p4d_motion_pair(wet[1]);
  }
  if (g[G_PAN].value != 0.0) {
    const P4dMotionPair sine = { m->pan[0][i], m->pan[1][i] };
    wet *= p4d_motion_pair(P4D_SQRT2) * sine;
  }
  return wet;
}

/// The output gain, recomputed when its dB moved.
static inline double
out_gain(P4dMotion* m)
{
  if (m->glide[G_OUT_DB].value != m->out_db) {
    m->out_db   = m->glide[G_OUT_DB].value;
    m->out_gain = db_gain(m->out_db);
  }
  return m->out_gain;
}

/// Two output samples as floats.
typedef float   P4dMotionFloats __attribute__((vector_size(2 * sizeof(float))));
typedef int32_t P4dMotionFloatMask
  __attribute__((vector_size(2 * sizeof(float))));

/**
   Two output samples (two frames of one side, or the sides of one frame):
   clamped to +-3e38, rounded to float, flushed below 1e-30, into o[0] and
   o[1] (lane by lane as masks, with no branch, so that the loops over them
   stay short).
*/
static inline void
out_pair(P4dMotionPair y, float* o0, float* o1)
{
  const P4dMotionPair hi    = p4d_motion_pair(3.0e38);
  const P4dMotionPair lo    = p4d_motion_pair(-3.0e38);
  const P4dMotionMask above = y > hi;
  y =
    (P4dMotionPair)((above & (P4dMotionMask)hi) | (~above & (P4dMotionMask)y));
  const P4dMotionMask below = y < lo;
  y =
    (P4dMotionPair)((below & (P4dMotionMask)lo) | (~below & (P4dMotionMask)y));
  const P4dMotionFloats    v    = __builtin_convertvector(y, P4dMotionFloats);
  const P4dMotionFloatMask bits = (P4dMotionFloatMask)v & 0x7fffffff;
  const P4dMotionFloats    tiny = { 1.0e-30f, 1.0e-30f };
  const P4dMotionFloatMask keep = ~((P4dMotionFloats)bits < tiny);
  const P4dMotionFloats kept = (P4dMotionFloats)(keep & (P4dMotionFloatMask)v);
  *o0                        = kept[0];
  *o1                        = kept[1];
}

/// Mix dry and wet, then bypass, into frame f of out (clamped, flushed).
static inline void
mix_out(P4dMotion*    m,
        P4dMotionPair dry,
        P4dMotionPair wet,
        float* const  out[2],
        uint32_t      f)
{
  const P4dMotionGlide* const g   = m->glide;
  const double                og  = out_gain(m);
  const double                mix = g[G_MIX].value;
  const double                en  = g[G_ENABLED].value;
  const P4dMotionPair         proc =
    p4d_motion_pair(og) *
    (p4d_motion_pair(1.0 - mix) * dry + p4d_motion_pair(mix) * wet);
  const P4dMotionPair mixed =
    p4d_motion_pair(1.0 - en) * dry + p4d_motion_pair(en) * proc;
  out_pair(mixed, &out[0][f], &out[1][f]);
}

/**
   gain_pan() and mix_out() over the chunk's n frames of m->wet into out
   from frame done, with every control steady: one pass per stage over
   the frames.
*/
static void
output_steady(P4dMotion* m, float* const out[2], uint32_t done, uint32_t n)
{
  const P4dMotionGlide* const g = m->glide;
  double* const               l = m->wet[0];
  double* const               r = m->wet[1];
  if (g[G_GAIN_DB].value != 0.0) {
    for (uint32_t i = 0U; i < n; ++i) {
      l[i] *= m->gain[0][i];
      r[i] *= m->gain[1][i];
    }
  }
  if (g[G_WIDTH].value != 1.0) {
    const double a = 0.5 * (1.0 + g[G_WIDTH].value);
    const double b = 1.0 - a;
    for (uint32_t i = 0U; i < n; ++i) {
      const double left = a * l[i] + b * r[i];
      r[i]              = b * l[i] + a * r[i];
      l[i]              = left;
    }
  }
  if (g[G_PAN].value != 0.0) {
    for (uint32_t i = 0U; i < n; ++i) {
      l[i] *= P4D_SQRT2 * m->pan[0][i];
      r[i] *= P4D_SQRT2 * m->pan[1][i];
    }
  }
  const double og    = out_gain(m);
  const double mix   = g[G_MIX].value;
  const double en    = g[G_ENABLED].value;
  const double w_dry = 1.0 - mix;
  const double w_off = 1.0 - en;
  for (unsigned c = 0U; c < 2U; ++c) {
    const double* const dry = m->dry[c];
    const double* const wet = m->wet[c];
    float* const        o   = out[c] + done;
    // Two frames at a time: n is even but for a host's odd last block.
    uint32_t i = 0U;
    for (; i + 2U <= n; i += 2U) {
      const P4dMotionPair d = { dry[i], dry[i + 1U] };
      const P4dMotionPair w = { wet[i], wet[i + 1U] };
      const P4dMotionPair proc =
        p4d_motion_pair(og) *
        (p4d_motion_pair(w_dry) * d + p4d_motion_pair(mix) * w);
      out_pair(p4d_motion_pair(w_off) * d + p4d_motion_pair(en) * proc,
               &o[i],
               &o[i + 1U]);
    }
    if (i < n) {
      const P4dMotionPair d = { dry[i], 0.0 };
      const P4dMotionPair w = { wet[i], 0.0 };
      const P4dMotionPair proc =
        p4d_motion_pair(og) *
        (p4d_motion_pair(w_dry) * d + p4d_motion_pair(mix) * w);
      float spare = 0.0f;
      out_pair(
        p4d_motion_pair(w_off) * d + p4d_motion_pair(en) * proc, &o[i], &spare);
    }
  }
}

/// The chunk's n frames x, frame by frame while a control glides: its
/// filters, gain, pan and mix into out from frame done.
static void
frames_gliding(P4dMotion*          m,
               const double* const x[2],
               float* const        out[2],
               uint32_t            done,
               uint32_t            n)
{
  GridPlace place  = grid_place(m, m->idx);
  bool      moving = true;
  for (uint32_t i = 0U; i < n; ++i, grid_step(m, &place)) {
    if (moving) {
      moving = p4d_motion_glides_step(m);
    }
    const P4dMotionPair dry = { m->dry[0][i], m->dry[1][i] };
    const P4dMotionPair xi  = { x[0][i], x[1][i] };
    const P4dMotionPair y = filter_frame(m, &place, i, m->idx + (int64_t)i, xi);
    mix_out(m, dry, gain_pan(m, i, y), out, done + i);
  }
}

/// The displayed values of the chunk's frame i (the left side's, whose
/// curves every frame has): gain dB, pan, cutoff, wobble ms.
static void
show(const P4dMotion* m, uint32_t i, float now[P4D_MOTION_N_NOW])
{
  const P4dMotionGlide* const g = m->glide;
  const double u_gain           = 2.0 * m->curve[ENGINE_L][CH_GAIN][i] - 1.0;
  // A target that is off reads its neutral value, as pan does: the cutoff
  // control itself while the filter is dry (gliding there with the mode).
  const double u_cut =
    (1.0 - g[G_DRY].value) * (2.0 * m->curve[ENGINE_L][CH_FILTER][i] - 1.0);
  const double u_wow = 2.0 * m->curve[ENGINE_L][CH_WOW][i] - 1.0;
  const double u_fl  = 2.0 * m->curve[ENGINE_F][0][i] - 1.0;
  const double pan =
    g[G_PAN].value != 0.0
      ? g[G_PAN].value * (2.0 * m->curve[ENGINE_L][CH_PAN][i] - 1.0)
      : 0.0;
  now[P4D_MOTION_NOW_GAIN_DB] =
    (float)(g[G_GAIN_DB].value * (u_gain - 1.0) * 0.5);
  now[P4D_MOTION_NOW_PAN]       = (float)pan;
  now[P4D_MOTION_NOW_CUTOFF_HZ] = (float)cutoff_of(m, u_cut);
  // The wow as heard: the turntable's warp where it is on.
  const double heard = p4d_motion_wow_now(m, u_wow, m->idx + m->grid + i);
  now[P4D_MOTION_NOW_WOBBLE_MS] =
    (float)(g[G_WOW].value * heard + g[G_FLUTTER].value * u_fl);
}

void
p4d_motion_audio_chunk(P4dMotion*         m,
                       const float* const in[2],
                       float* const       out[2],
                       uint32_t           done,
                       uint32_t           n,
                       float              now[P4D_MOTION_N_NOW])
{
  take_input(m, in, done, n);
  take_dry(m, n);
  const Passes ps = block_passes(m, n);
  // The wet path starts from the read, or the dry tap when no read ran.
  const double* const x[2] = { ps.reads ? m->read[0] : m->dry[0],
                               ps.reads ? m->read[1] : m->dry[1] };
  if (glides_moving(m)) {
    frames_gliding(m, x, out, done, n);
  } else {
    // Every control holds still over the chunk: stage by stage.
    filter_steady(m, x, n);
    output_steady(m, out, done, n);
  }
  p4d_motion_turn_step(m, n);
  if (now && n > 0U) {
    show(m, n - 1U, now);
  }
}
