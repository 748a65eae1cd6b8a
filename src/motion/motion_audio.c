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
            + max flutter) ms + 4 frames (the interpolator's half width),
            rounded up: the latency, the same for every setting.  The dry
            path and bypass read the line at D0, so everything lines up.
            Reading at a fraction uses 8-point Lagrange interpolation
            (maximally flat: a 1 kHz sine through the largest wow and
            flutter differs from the ideal by far less than -80 dB, see
            tests/test_motion_wobble.c); a whole delay reads the tap.
  Wet = pan(gain(filter(delay))); out = output_gain ((1 - mix) dry + mix
  wet); bypass (enabled 0) cross-fades to dry over 20 ms.  The depths, mix,
  output, width, cutoff, resonance and enabled glide over 20 ms (a quintic
  ramp restarted from where it is on a change), so no control clicks.

  Bounded past.  The delay line reaches back D0 + 12 ms + 4 frames.  The
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
#include "motion_private.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

/// Lowest and highest filter cutoff (the latter times the sample rate).
#define P4D_MOTION_MIN_CUTOFF_HZ 20.0
#define P4D_MOTION_MAX_CUTOFF 0.45

/// Damping k = 2 - P4D_MOTION_RES_RANGE resonance: 2 (Q 0.5) to 0.1 (Q 10).
#define P4D_MOTION_RES_RANGE 1.9

/// Frames between the filter coefficient's knots (a power of 2).
#define P4D_MOTION_KNOT 16U

#define P4D_LN10_20 0.11512925464970228420 // ln 10 / 20
#define P4D_LN2 0.69314718055994530942
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
  return frame - filter_age(motion, frame) - motion->reach;
}

/// Take a host sample: non-finite and tiny ones are 0.
static inline float
clean(float x)
{
  return fabsf(x) >= 1.0e-30f && fabsf(x) <= FLT_MAX ? x : 0.0f;
}

void
p4d_motion_audio_clear(P4dMotion* m)
{
  const size_t size = m->mask + 1U + P4D_MOTION_TAPS;
  memset(m->line[0], 0, size * sizeof(float));
  memset(m->line[1], 0, size * sizeof(float));
  memset(m->svf, 0, sizeof(m->svf));
  memset(m->age, 0, sizeof(m->age));
  m->audio_dirty  = false;
  m->filters_rest = true;
  m->knots_fresh  = true;
}

/// A state variable that has decayed this far is rest, lane by lane.
static inline P4dMotionPair
flush_pair(P4dMotionPair x)
{
  const P4dMotionMask rest = p4d_motion_pair_abs(x) < p4d_motion_pair(1.0e-30);
  return p4d_motion_pair_keep(~rest, x);
}

/// Filter one frame x of both sides with g = tan(pi fc / fs) per side,
/// damping k, the mode weights w (dry, low, band, high) and filter `use`.
static inline P4dMotionPair
filter_step(P4dMotion*    m,
            P4dMotionPair x,
            P4dMotionPair g,
            double        k,
            const double  w[4],
            unsigned      use)
{
  const P4dMotionPair one = p4d_motion_pair(1.0);
  const P4dMotionPair two = p4d_motion_pair(2.0);
  const P4dMotionPair kk  = p4d_motion_pair(k);
  const P4dMotionPair a1  = one / (one + g * (g + kk));
  const P4dMotionPair a2  = g * a1;
  const P4dMotionPair a3  = g * a2;
  P4dMotionPair       lp  = p4d_motion_pair(0.0);
  P4dMotionPair       bp  = p4d_motion_pair(0.0);
  for (unsigned j = 0U; j < P4D_MOTION_FILTERS; ++j) {
    Svf* const          f  = &m->svf[j];
    const P4dMotionPair v3 = x - f->ic2;
    const P4dMotionPair v1 = a1 * f->ic1 + a2 * v3;
    const P4dMotionPair v2 = f->ic2 + a2 * f->ic1 + a3 * v3;
    f->ic1                 = flush_pair(two * v1 - f->ic1);
    f->ic2                 = flush_pair(two * v2 - f->ic2);
    if (j == use) {
      lp = v2;
      bp = v1;
    }
  }
  const P4dMotionPair hp = x - kk * bp - lp;
  return p4d_motion_pair(w[0]) * x + p4d_motion_pair(w[1]) * lp +
         p4d_motion_pair(w[2]) * (kk * bp) + p4d_motion_pair(w[3]) * hp;
}

/// One side's cutoff from its curve.
static inline double
cutoff_of(const P4dMotion* m, double u)
{
  const P4dMotionGlide* const g  = m->glide;
  double                      fc = g[G_CUTOFF].value;
  if (g[G_OCT].value != 0.0) {
    fc *= p4d_exact_exp_short(g[G_OCT].value * u * P4D_LN2);
  }
  const double top = P4D_MOTION_MAX_CUTOFF * m->sample_rate_hz;
  fc = fc < P4D_MOTION_MIN_CUTOFF_HZ ? P4D_MOTION_MIN_CUTOFF_HZ : fc;
  return fc > top ? top : fc;
}

/// dB to a gain.
static inline double
db_gain(double db)
{
  return db == 0.0 ? 1.0 : p4d_exact_exp_short(db * P4D_LN10_20);
}

/// Frame i's curves of target channel ch as u in (-1, 1), left and right
/// (the right a copy of the left when copy).
static inline P4dMotionPair
curve_pair(const P4dMotion* m, unsigned ch, uint32_t i, bool copy)
{
  const double  left = 2.0 * m->curve[ENGINE_L][ch][i] - 1.0;
  P4dMotionPair u    = { left, left };
  if (!copy) {
    u[1] = 2.0 * m->curve[ENGINE_R][ch][i] - 1.0;
  }
  return u;
}

/// Frame i's wow and flutter in ms per side, at the depths wow_ms and
/// flutter_ms (the right side's curves a copy of the left's when copy).
static inline P4dMotionPair
wobble_ms(const P4dMotion* m,
          uint32_t         i,
          bool             copy,
          double           wow_ms,
          double           flutter_ms)
{
  const P4dMotionPair u_wow = curve_pair(m, CH_WOW, i, copy);
  P4dMotionPair       u_fl  = { 2.0 * m->curve[ENGINE_F][0][i] - 1.0,
                                2.0 * m->curve[ENGINE_F][1][i] - 1.0 };
  if (copy) {
    u_fl[1] = u_fl[0];
  }
  return p4d_motion_pair(wow_ms) * u_wow + p4d_motion_pair(flutter_ms) * u_fl;
}

/// Take n frames of in from frame done into m->x and the delay lines.
static void
take_input(P4dMotion* m, const float* const in[2], uint32_t done, uint32_t n)
{
  // Read the whole chunk before writing any of it: in may alias out.
  for (uint32_t i = 0U; i < n; ++i) {
    m->x[0][i] = clean(in[0][done + i]);
    m->x[1][i] = clean(in[1][done + i]);
  }
  const int64_t  w0   = m->idx;
  const uint32_t mask = m->mask;
  for (uint32_t i = 0U; i < n; ++i) {
    const uint64_t at = (uint64_t)(w0 + (int64_t)i) & mask;
    m->line[0][at]    = m->x[0][i];
    m->line[1][at]    = m->x[1][i];
    if (at < P4D_MOTION_TAPS) {
      // The copy past the end: a read's points never wrap.
      m->line[0][at + mask + 1U] = m->x[0][i];
      m->line[1][at + mask + 1U] = m->x[1][i];
    }
  }
}

/**
   The delay line's reads, the gains and the pan's sines of the chunk's n
   frames, as block passes (motion_block.h) into m->read, m->gain and
   m->pan: their glides run ahead on copies (a glide's steps depend on
   itself alone), and the frames take the results.
*/
static void
block_passes(P4dMotion* m, uint32_t n)
{
  const P4dMotionGlide* const g       = m->glide;
  const int64_t               w0      = m->idx;
  const P4dMotionPair         fpm     = p4d_motion_pair(m->frames_per_ms);
  const P4dMotionPair         d0      = p4d_motion_pair((double)m->d0);
  P4dMotionGlide              wow     = g[G_WOW];
  P4dMotionGlide              flutter = g[G_FLUTTER];
  P4dMotionGlide              gain    = g[G_GAIN_DB];
  P4dMotionGlide              pan     = g[G_PAN];
  bool                        reads   = false;
  bool                        gains   = false;
  bool                        pans    = false;
  for (uint32_t i = 0U; i < n; ++i) {
    p4d_motion_glide_step(&wow, m->glide_len, m->inv_glide_len);
    p4d_motion_glide_step(&flutter, m->glide_len, m->inv_glide_len);
    p4d_motion_glide_step(&gain, m->glide_len, m->inv_glide_len);
    p4d_motion_glide_step(&pan, m->glide_len, m->inv_glide_len);
    const double p = pan.value * (2.0 * m->curve[ENGINE_L][CH_PAN][i] - 1.0);
    const double a = 0.5 * (p + 1.0);
    m->pan_a[0][i] = 1.0 - a;
    m->pan_a[1][i] = a;
    pans |= pan.value != 0.0;
    const bool          copy   = m->spread_zero + (int64_t)i >= m->settle;
    const P4dMotionPair u_gain = curve_pair(m, CH_GAIN, i, copy);
    const P4dMotionPair wb = wobble_ms(m, i, copy, wow.value, flutter.value);
    const P4dMotionPair d  = d0 + wb * fpm;
    const P4dMotionPair x  = p4d_motion_pair(gain.value) *
                            (u_gain - p4d_motion_pair(1.0)) *
                            p4d_motion_pair(0.5) * p4d_motion_pair(P4D_LN10_20);
    for (unsigned c = 0U; c < 2U; ++c) {
      m->delay[c][i]  = d[c];
      m->gain_x[c][i] = x[c];
    }
    reads |= wb[0] != 0.0 || wb[1] != 0.0;
    gains |= gain.value != 0.0;
  }
  for (unsigned c = 0U; c < 2U; ++c) {
    if (reads) {
      p4d_motion_block_read(
        m->line[c], m->mask, w0, m->delay[c], m->read[c], n);
    }
    if (gains) {
      p4d_motion_block_exp(m->gain_x[c], m->gain[c], n);
    }
    if (pans) {
      p4d_motion_block_sin(m->pan_a[c], m->pan[c], n);
    }
  }
}

/// Where a frame is on the filter grid: the filter that restarts next,
/// frames since the last restart, and the filter in use (the oldest).
typedef struct {
  unsigned next;
  int64_t  since;
  unsigned use;
} GridPlace;

/// The grid's place at absolute frame w (the grid moves only between
/// calls, so a chunk counts on from there).
static inline GridPlace
grid_place(const P4dMotion* m, int64_t w)
{
  const int64_t q     = m->filter_q;
  const int64_t cycle = P4D_MOTION_FILTERS * q;
  const int64_t ph0   = (((w + m->grid) % cycle) + cycle) % cycle;
  return (GridPlace){ (unsigned)(ph0 / q), ph0 % q, 0U };
}

/**
   Frame y (both sides, the chunk's frame i, absolute frame w) through the
   staggered filters at grid place p, with the cutoff curves u_cut: restart
   a filter on the grid, pick the oldest, move the knots of g, step every
   filter.  The filters rest while the mode is dry.
*/
static inline P4dMotionPair
filter_frame(P4dMotion*    m,
             GridPlace*    p,
             uint32_t      i,
             int64_t       w,
             P4dMotionPair u_cut,
             P4dMotionPair y)
{
  const P4dMotionGlide* const g = m->glide;
  const bool on = !(g[G_DRY].value == 1.0 && g[G_LOW].value == 0.0 &&
                    g[G_BAND].value == 0.0 && g[G_HIGH].value == 0.0);
  if (!on && !m->filters_rest) {
    // Off (the output is the input whatever the filters hold): they
    // rest, so that their state is a function of the bounded past when
    // they start again.
    memset(m->svf, 0, sizeof(m->svf));
    memset(m->age, 0, sizeof(m->age));
  }
  m->filters_rest     = !on;
  const uint64_t kph  = (uint64_t)(w + m->grid) & (P4D_MOTION_KNOT - 1U);
  const bool     knot = kph == 0U || m->knots_fresh;
  const double   frac = (double)kph * (1.0 / P4D_MOTION_KNOT);
  if (on && p->since == 0) {
    m->svf[p->next] = (Svf){ p4d_motion_pair(0.0), p4d_motion_pair(0.0) };
    m->age[p->next] = 0;
  }
  // The filters age together: only a restart changes the oldest.
  if (!on || p->since == 0 || i == 0U) {
    p->use = 0U;
    for (unsigned j = 1U; j < P4D_MOTION_FILTERS; ++j) {
      p->use = m->age[j] > m->age[p->use] ? j : p->use;
    }
  }
  if (on) {
    P4dMotionPair* const kg = m->knot_g;
    if (knot) {
      P4dMotionPair at = p4d_motion_pair(0.0);
      for (unsigned c = 0U; c < 2U; ++c) {
        at[c] = p4d_exact_quarter_tan(2.0 * cutoff_of(m, u_cut[c]) /
                                      m->sample_rate_hz);
      }
      kg[0] = m->knots_fresh ? at : kg[1];
      kg[1] = at;
    }
    const P4dMotionPair gk = kg[0] + (kg[1] - kg[0]) * p4d_motion_pair(frac);
    const double        wmode[4] = {
             g[G_DRY].value, g[G_LOW].value, g[G_BAND].value, g[G_HIGH].value
    };
    const double kdamp = 2.0 - P4D_MOTION_RES_RANGE * g[G_RES].value;
    y                  = filter_step(m, y, gk, kdamp, wmode, p->use);
    for (unsigned j = 0U; j < P4D_MOTION_FILTERS; ++j) {
      ++m->age[j];
    }
  }
  m->knots_fresh = !on;
  return y;
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

/// Mix dry and wet, then bypass, into frame f of out (clamped, flushed).
static inline void
mix_out(P4dMotion*    m,
        P4dMotionPair dry,
        P4dMotionPair wet,
        float* const  out[2],
        uint32_t      f)
{
  const P4dMotionGlide* const g = m->glide;
  if (g[G_OUT_DB].value != m->out_db) {
    m->out_db   = g[G_OUT_DB].value;
    m->out_gain = db_gain(m->out_db);
  }
  const double        mix = g[G_MIX].value;
  const double        en  = g[G_ENABLED].value;
  const P4dMotionPair proc =
    p4d_motion_pair(m->out_gain) *
    (p4d_motion_pair(1.0 - mix) * dry + p4d_motion_pair(mix) * wet);
  const P4dMotionPair mixed =
    p4d_motion_pair(1.0 - en) * dry + p4d_motion_pair(en) * proc;
  for (unsigned c = 0U; c < 2U; ++c) {
    double yc     = mixed[c];
    yc            = yc > 3.0e38 ? 3.0e38 : yc < -3.0e38 ? -3.0e38 : yc;
    const float v = (float)yc;
    out[c][f]     = fabsf(v) < 1.0e-30f ? 0.0f : v;
  }
}

/// The displayed values of frame i (the left side's): gain dB, pan,
/// cutoff, wobble ms.
static void
show(const P4dMotion* m,
     uint32_t         i,
     P4dMotionPair    u_cut,
     P4dMotionPair    wb,
     float            now[P4D_MOTION_N_NOW])
{
  const P4dMotionGlide* const g = m->glide;
  const double u_gain           = 2.0 * m->curve[ENGINE_L][CH_GAIN][i] - 1.0;
  const double pan =
    g[G_PAN].value != 0.0
      ? g[G_PAN].value * (2.0 * m->curve[ENGINE_L][CH_PAN][i] - 1.0)
      : 0.0;
  now[P4D_MOTION_NOW_GAIN_DB] =
    (float)(g[G_GAIN_DB].value * (u_gain - 1.0) * 0.5);
  now[P4D_MOTION_NOW_PAN]       = (float)pan;
  now[P4D_MOTION_NOW_CUTOFF_HZ] = (float)cutoff_of(m, u_cut[0]);
  now[P4D_MOTION_NOW_WOBBLE_MS] = (float)wb[0];
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
  block_passes(m, n);

  const P4dMotionGlide* const g       = m->glide;
  const int64_t               w0      = m->idx;
  const uint32_t              mask    = m->mask;
  const float* const          line[2] = { m->line[0], m->line[1] };
  GridPlace                   place   = grid_place(m, w0);
  bool                        moving  = true;
  for (uint32_t i = 0U; i < n; ++i, ++place.since) {
    if (place.since == m->filter_q) {
      place.since = 0;
      place.next = place.next + 1U == P4D_MOTION_FILTERS ? 0U : place.next + 1U;
    }
    if (moving) {
      moving = p4d_motion_glides_step(m);
    }
    const int64_t       w     = w0 + (int64_t)i;
    const bool          copy  = m->spread_zero + (int64_t)i >= m->settle;
    const P4dMotionPair u_cut = curve_pair(m, CH_FILTER, i, copy);
    const P4dMotionPair wb =
      wobble_ms(m, i, copy, g[G_WOW].value, g[G_FLUTTER].value);

    const uint64_t      tap = (uint64_t)(w - (int64_t)m->d0) & mask;
    const P4dMotionPair dry = { line[0][tap], line[1][tap] };
    // A whole delay reads the tap: at wb 0 that is the dry tap.
    P4dMotionPair y = dry;
    if (wb[0] != 0.0 || wb[1] != 0.0) {
      y[0] = m->read[0][i];
      y[1] = m->read[1][i];
    }
    y = filter_frame(m, &place, i, w, u_cut, y);
    mix_out(m, dry, gain_pan(m, i, y), out, done + i);

    if (now && i + 1U == n) {
      show(m, i, u_cut, wb, now);
    }
  }
}
