// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Motion.

  Modulation.  Three Mod engines (src/engine.c) make the curves, each with
  Motion's time settings copied into its Mod parameters (clock, rate_hz,
  period_beats, octaves, lacunarity, persistence, morph, seed, smooth_ms;
  out_min 0, out_max 1, CCs off), so every curve is exactly a Mod channel,
  bits included:

    L   spread 1 (its four channels independent): channel 1 the left gain,
        2 the pan, 3 the left filter, 4 the left wow.  This is a Mod engine
        with the user's settings and spread 1, nothing else.
    R   the same, with morph_z moved by spread * 4 cells (down instead of
        up when morph_z > 12, to stay in the table's range): channel 1 the
        right gain, 3 the right filter, 4 the right wow.  A move along z
        keeps every channel on its placement line in x and y (engine.c,
        Placement), so the variance swing stays below 1.5 dB for every
        spread; 4 whole cells put every channel of R more than 2 cells from
        every channel of L: at spread 1 the sides share no lattice corner
        and are independent.  At spread 0 the right side copies the left
        (identical bits), once R has been at spread 0 for two of the
        longest glides (R's own free-running phase could otherwise differ
        from L's in the last bit).
    F   flutter: rate_hz * flutter_ratio (beats: period_beats /
        flutter_ratio; the Mod engine's range caps it at 50 Hz, or 1/16
        beat), seed + 32768 (another field, so flutter never follows the
        gain), Mod spread = Motion's spread: channel 1 the left flutter,
        channel 2 the right (equal at spread 0, independent at 1).

  An engine whose curves no target needs is advanced with out NULL (its
  glides move on, no noise is computed): its curves then read 0.5, and
  every law below gives exactly its neutral value at depth 0 whatever the
  curve, so skipping never changes a bit.

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
  All maths are +, -, *, / and sqrt (the smooth.h way): no libm
  transcendental decides a bit.
*/

#include "motion.h"

#include "motion_block.h"
#include "motion_dsp.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/// Frames per pass of the modulation engines into the curve buffers.
#define P4D_MOTION_CHUNK 256U

/// The glide of Motion's own controls and of bypass.
#define P4D_MOTION_GLIDE_MS 20.0

/// Lowest and highest filter cutoff (the latter times the sample rate).
#define P4D_MOTION_MIN_CUTOFF_HZ 20.0
#define P4D_MOTION_MAX_CUTOFF 0.45

/// Damping k = 2 - P4D_MOTION_RES_RANGE resonance: 2 (Q 0.5) to 0.1 (Q 10).
#define P4D_MOTION_RES_RANGE 1.9

/// Staggered filters per channel, and how long each runs before use.
#define P4D_MOTION_FILTERS 3
#define P4D_MOTION_FILTER_AGE_S 2.6

/// Frames between the filter coefficient's knots (a power of 2).
#define P4D_MOTION_KNOT 16U

/// Interpolation points of the delay line, and the margin they need.
#define P4D_MOTION_TAPS P4D_MOTION_DSP_TAPS
#define P4D_MOTION_MARGIN (P4D_MOTION_TAPS / 2)

/// Cells between the sides at spread 1, along z.
#define P4D_MOTION_SPREAD_CELLS 4.0f

/// Highest morph_z from which the right side moves up.
#define P4D_MOTION_SPREAD_TURN 12.0f

/// The flutter engine's seed offset.
#define P4D_MOTION_FLUTTER_SEED 32768U

/// Longest Mod glide (smooth_ms's maximum) in seconds.
#define P4D_MOTION_MAX_GLIDE_S 1.0

#define P4D_LN10_20 0.11512925464970228420 // ln 10 / 20
#define P4D_LN2 0.69314718055994530942
#define P4D_PI 3.14159265358979323846
#define P4D_SQRT2 1.41421356237309504880

/// The glided controls.
enum {
  G_GAIN_DB,
  G_PAN,
  G_WIDTH,
  G_CUTOFF,
  G_OCT,
  G_RES,
  G_WOW,
  G_FLUTTER,
  G_MIX,
  G_OUT_DB,
  G_ENABLED,
  G_DRY, ///< Filter mode weights: dry, low, band, high
  G_LOW,
  G_BAND,
  G_HIGH,
  G_COUNT
};

/// Trapezoidal state-variable filter state, both sides as lanes.
typedef struct {
  P4dMotionPair ic1;
  P4dMotionPair ic2;
} Svf;

/// The song clock, as far as the filter grid needs it (mirrors engine.c).
typedef struct {
  bool    locked;
  double  speed;
  int64_t frame_anchor;
  int64_t idx_anchor;
} GridClock;

enum { ENGINE_L, ENGINE_R, ENGINE_F, N_ENGINES };

struct P4dMotionImpl {
  double        sample_rate_hz;
  double        frames_per_ms;
  uint32_t      d0;            ///< Base delay: the latency
  int64_t       reach;         ///< Frames of input the delay line reads back
  int64_t       glide_len;     ///< Frames of a control glide
  double        inv_glide_len; ///< 1 / glide_len
  int64_t       filter_q;      ///< Q: the filters restart Q apart
  int64_t       settle;       ///< Frames R must sit at spread 0 before the copy
  uint32_t      mask;         ///< Delay line length - 1
  float*        line[2];      ///< Delay lines, then a copy of their first taps
  int64_t       idx;          ///< Frames processed since activation (+ start)
  int64_t       grid;         ///< Grid time = idx + grid
  int64_t       spread_zero;  ///< Frames spread has been 0
  bool          fresh;        ///< Next process sets the controls at once
  bool          audio_dirty;  ///< The audio state needs clearing
  bool          filters_rest; ///< The filters are off and at rest
  bool          knots_fresh;  ///< The next frame restarts knot_g
  P4dMotionPair knot_g[2];    ///< g at the knot before last, and last
  double        out_db;       ///< The output gain's dB, as last computed
  double        out_gain;     ///< Its gain
  unsigned  neutral[N_ENGINES]; ///< Per engine: channels whose curves read 0.5
  GridClock clock;
  P4dMotionGlide glide[G_COUNT];
  Svf            svf[P4D_MOTION_FILTERS];
  int64_t    age[P4D_MOTION_FILTERS]; ///< Frames since each filter restarted
  P4dEngine* engine[N_ENGINES];
  float      curve[N_ENGINES][P4D_MAX_CHANNELS][P4D_MOTION_CHUNK];
  float      x[2][P4D_MOTION_CHUNK];      ///< Sanitised input of a chunk
  double     delay[2][P4D_MOTION_CHUNK];  ///< Per side: the read's delay
  double     read[2][P4D_MOTION_CHUNK];   ///< Per side: the delay line read
  double     gain_x[2][P4D_MOTION_CHUNK]; ///< Per side: the gain's exponent
  double     gain[2][P4D_MOTION_CHUNK];   ///< Per side: the gain
  double     pan_a[2][P4D_MOTION_CHUNK];  ///< Per side: the pan's angle
  double     pan[2][P4D_MOTION_CHUNK];    ///< Per side: its sine
};

/// The extreme of a Motion parameter.
static float
motion_max(P4dMotionParam id)
{
  return p4d_params(P4D_KIND_MOTION)->params[id].maximum;
}

P4dStatus
p4d_motion_new(double sample_rate_hz, P4dMotion** motion)
{
  *motion = NULL;
  if (!(sample_rate_hz >= 1000.0 && sample_rate_hz <= 768000.0)) {
    return P4D_ERR_BAD_ARG;
  }

  P4dMotion* m = (P4dMotion*)calloc(1U, sizeof(P4dMotion));
  if (!m) {
    return P4D_ERR_NO_MEM;
  }

  m->sample_rate_hz = sample_rate_hz;
  m->frames_per_ms  = sample_rate_hz / 1000.0;
  const double swing_ms =
    (double)motion_max(P4D_MOTION_WOW_MS) + motion_max(P4D_MOTION_FLUTTER_MS);
  const uint32_t swing =
    (uint32_t)ceil(swing_ms * sample_rate_hz / 1000.0 - 1.0e-9);
  m->d0        = swing + P4D_MOTION_MARGIN;
  m->reach     = (int64_t)m->d0 + swing + P4D_MOTION_MARGIN + 1;
  m->glide_len = (int64_t)(P4D_MOTION_GLIDE_MS * 0.001 * sample_rate_hz + 0.5);
  if (m->glide_len < 1) {
    m->glide_len = 1;
  }
  m->inv_glide_len = 1.0 / (double)m->glide_len;
  m->out_db        = 0.0;
  m->out_gain      = 1.0;
  m->filter_q = (int64_t)(P4D_MOTION_FILTER_AGE_S / (P4D_MOTION_FILTERS - 1) *
                            sample_rate_hz +
                          0.5);
  m->settle   = (int64_t)(2.0 * P4D_MOTION_MAX_GLIDE_S * sample_rate_hz) + 2;

  uint32_t size = 1U;
  while (size < (uint32_t)m->reach + P4D_MOTION_CHUNK + 1U) {
    size <<= 1U;
  }
  m->mask = size - 1U;

  P4dStatus st = P4D_SUCCESS;
  for (unsigned c = 0U; c < 2U && !st; ++c) {
    m->line[c] = (float*)calloc(size + P4D_MOTION_TAPS, sizeof(float));
    st         = m->line[c] ? P4D_SUCCESS : P4D_ERR_NO_MEM;
  }
  for (unsigned e = 0U; e < N_ENGINES && !st; ++e) {
    st = p4d_engine_new(P4D_KIND_MOD, sample_rate_hz, &m->engine[e]);
  }
  if (st) {
    p4d_motion_free(m);
    return st;
  }

  p4d_motion_activate(m);
  *motion = m;
  return P4D_SUCCESS;
}

void
p4d_motion_free(P4dMotion* motion)
{
  if (motion) {
    for (unsigned e = 0U; e < N_ENGINES; ++e) {
      p4d_engine_free(motion->engine[e]);
    }
    free(motion->line[0]);
    free(motion->line[1]);
    free(motion);
  }
}

uint32_t
p4d_motion_latency(const P4dMotion* motion)
{
  return motion->d0;
}

void
p4d_motion_activate(P4dMotion* motion)
{
  p4d_motion_activate_at(motion, 0, 120.0);
}

void
p4d_motion_activate_at(P4dMotion* motion, int64_t frame, double bpm)
{
  P4dMotion* const m = motion;
  for (unsigned e = 0U; e < N_ENGINES; ++e) {
    p4d_engine_activate_at(m->engine[e], frame, bpm);
  }
  m->idx         = frame;
  m->grid        = 0;
  m->spread_zero = m->settle;
  m->fresh       = true;
  m->audio_dirty = true;
  m->clock       = (GridClock){ true, 1.0, frame, frame };
}

void
p4d_motion_position(const P4dMotion* motion,
                    unsigned         engine,
                    P4dPosition*     position)
{
  p4d_engine_position(motion->engine[engine < N_ENGINES ? engine : 0U],
                      position);
}

void
p4d_motion_transport(P4dMotion* motion, const P4dTransport* transport)
{
  P4dMotion* const    m  = motion;
  const P4dTransport* tr = transport;
  GridClock* const    c  = &m->clock;
  for (unsigned e = 0U; e < N_ENGINES; ++e) {
    p4d_engine_transport(m->engine[e], tr);
  }

  // The same reading of the transport as the engines' (engine.c).
  const int64_t want =
    c->frame_anchor + (int64_t)((double)(m->idx - c->idx_anchor) * c->speed);
  const double speed =
    tr->has_speed && fabs(tr->speed) <= P4D_MAX_SPEED ? tr->speed : c->speed;
  const int64_t frame  = tr->has_frame ? tr->frame : want;
  const bool    locked = speed != 0.0;
  // A jump, a start, or back at speed 1 with the grid elsewhere (after
  // another speed, where the grid counted frames): the grid is the song
  // frame again, and the knots restart on it.
  const bool moved = frame != m->idx + m->grid;
  if (locked && (!c->locked || frame != want || (speed == 1.0 && moved))) {
    m->knots_fresh |= moved;
    m->grid = frame - m->idx;
  }
  *c = (GridClock){ locked, speed, frame, m->idx };
}

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

/// Advance every glide by one frame; return whether any still moves.
static bool
glides_step(P4dMotion* m)
{
  bool moving = false;
  for (unsigned k = 0U; k < G_COUNT; ++k) {
    moving |=
      p4d_motion_glide_step(&m->glide[k], m->glide_len, m->inv_glide_len);
  }
  return moving;
}

/// The Mod parameters of engine e from Motion's clamped parameters p.
static void
engine_params(const float* p, unsigned e, float* mp)
{
  p4d_param_defaults(p4d_params(P4D_KIND_MOD), mp);
  mp[P4D_MOD_CLOCK]        = p[P4D_MOTION_CLOCK];
  mp[P4D_MOD_RATE_HZ]      = p[P4D_MOTION_RATE_HZ];
  mp[P4D_MOD_PERIOD_BEATS] = p[P4D_MOTION_PERIOD_BEATS];
  mp[P4D_MOD_OCTAVES]      = p[P4D_MOTION_OCTAVES];
  mp[P4D_MOD_LACUNARITY]   = p[P4D_MOTION_LACUNARITY];
  mp[P4D_MOD_PERSISTENCE]  = p[P4D_MOTION_PERSISTENCE];
  mp[P4D_MOD_SPREAD]       = 1.0f;
  mp[P4D_MOD_MORPH_X]      = p[P4D_MOTION_MORPH_X];
  mp[P4D_MOD_MORPH_Y]      = p[P4D_MOTION_MORPH_Y];
  mp[P4D_MOD_MORPH_Z]      = p[P4D_MOTION_MORPH_Z];
  mp[P4D_MOD_SEED]         = p[P4D_MOTION_SEED];
  mp[P4D_MOD_OUT_MIN]      = 0.0f;
  mp[P4D_MOD_OUT_MAX]      = 1.0f;
  mp[P4D_MOD_SMOOTH_MS]    = p[P4D_MOTION_SMOOTH_MS];
  mp[P4D_MOD_LOOP_BEATS]   = p[P4D_MOTION_LOOP_BEATS];
  mp[P4D_MOD_CC_1] = mp[P4D_MOD_CC_2] = mp[P4D_MOD_CC_3] = mp[P4D_MOD_CC_4] =
    (float)P4D_CC_OFF;

  const float spread = p[P4D_MOTION_SPREAD];
  if (e == ENGINE_R) {
    const float mz    = p[P4D_MOTION_MORPH_Z];
    const float shift = spread * P4D_MOTION_SPREAD_CELLS;
    mp[P4D_MOD_MORPH_Z] =
      mz <= P4D_MOTION_SPREAD_TURN ? mz + shift : mz - shift;
  } else if (e == ENGINE_F) {
    const float ratio        = p[P4D_MOTION_FLUTTER_RATIO];
    mp[P4D_MOD_RATE_HZ]      = p[P4D_MOTION_RATE_HZ] * ratio;
    mp[P4D_MOD_PERIOD_BEATS] = p[P4D_MOTION_PERIOD_BEATS] / ratio;
    mp[P4D_MOD_SPREAD]       = spread;
    mp[P4D_MOD_SEED] =
      (float)(((uint32_t)p[P4D_MOTION_SEED] + P4D_MOTION_FLUTTER_SEED) &
              0xFFFFU);
  }
}

/// Take a host sample: non-finite and tiny ones are 0.
static inline float
clean(float x)
{
  return fabsf(x) >= 1.0e-30f && fabsf(x) <= FLT_MAX ? x : 0.0f;
}

static void
clear_audio(P4dMotion* m)
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

/// Set the glides' targets from the clamped parameters p.
static void
set_targets(P4dMotion* m, const float* p)
{
  const int64_t         len  = m->glide_len;
  const bool            once = m->fresh;
  P4dMotionGlide* const g    = m->glide;
  p4d_motion_glide_to(&g[G_GAIN_DB], p[P4D_MOTION_GAIN_DB], len, once);
  p4d_motion_glide_to(&g[G_PAN], p[P4D_MOTION_PAN_DEPTH], len, once);
  p4d_motion_glide_to(&g[G_WIDTH], p[P4D_MOTION_WIDTH], len, once);
  p4d_motion_glide_to(&g[G_CUTOFF], p[P4D_MOTION_CUTOFF_HZ], len, once);
  p4d_motion_glide_to(&g[G_OCT], p[P4D_MOTION_FILTER_OCT], len, once);
  p4d_motion_glide_to(&g[G_RES], p[P4D_MOTION_RESONANCE], len, once);
  p4d_motion_glide_to(&g[G_WOW], p[P4D_MOTION_WOW_MS], len, once);
  p4d_motion_glide_to(&g[G_FLUTTER], p[P4D_MOTION_FLUTTER_MS], len, once);
  p4d_motion_glide_to(&g[G_MIX], p[P4D_MOTION_MIX], len, once);
  p4d_motion_glide_to(&g[G_OUT_DB], p[P4D_MOTION_OUTPUT_DB], len, once);
  p4d_motion_glide_to(&g[G_ENABLED], p[P4D_MOTION_ENABLED], len, once);
  const int mode = (int)p[P4D_MOTION_FILTER_MODE];
  for (int i = 0; i < 4; ++i) {
    p4d_motion_glide_to(&g[G_DRY + i], mode == i ? 1.0 : 0.0, len, once);
  }
  m->fresh = false;
}

/// Whether glide g is, or becomes within this call, other than 0.
static bool
live(const P4dMotionGlide* g)
{
  return g->value != 0.0 || g->target != 0.0;
}

/// The Mod channel of each target (L and R; F's are the sides).
enum { CH_GAIN, CH_PAN, CH_FILTER, CH_WOW };

/// The channels of each engine that the frames read (the rest never are).
static const unsigned engine_reads[N_ENGINES] = { 0xFU, 0xDU, 0x3U };

/**
   The channels of each engine whose curves a call needs: 0 for an engine
   that is only advanced.  A channel left out reads 0.5, and its target's
   law gives exactly its neutral value at depth 0 whatever the curve (see
   the top of this file); L keeps the gain, filter and wow channels that
   the control outputs show whenever it runs, so that they keep their bits
   too (the sign of a zero included).
*/
static void
needs(const P4dMotion* m, bool spread, unsigned channels[N_ENGINES])
{
  const P4dMotionGlide* const g   = m->glide;
  const int64_t               len = m->glide_len;
  const bool filter = live(&g[G_LOW]) || live(&g[G_BAND]) || live(&g[G_HIGH]) ||
                      p4d_motion_glide_moving(&g[G_DRY], len);
  const bool     gain     = live(&g[G_GAIN_DB]);
  const bool     cut      = filter && live(&g[G_OCT]);
  const bool     wow      = live(&g[G_WOW]);
  const bool     sides    = gain || cut || wow;
  const unsigned gain_bit = 1U << CH_GAIN;
  const unsigned cut_bit  = 1U << CH_FILTER;
  const unsigned wow_bit  = 1U << CH_WOW;

  channels[ENGINE_L] = 0U;
  if (sides || live(&g[G_PAN])) {
    channels[ENGINE_L] = gain_bit | wow_bit | (live(&g[G_OCT]) ? cut_bit : 0U) |
                         (live(&g[G_PAN]) ? 1U << CH_PAN : 0U);
  }
  channels[ENGINE_R] = 0U;
  if (sides && (spread || m->spread_zero < m->settle)) {
    channels[ENGINE_R] =
      (gain ? gain_bit : 0U) | (cut ? cut_bit : 0U) | (wow ? wow_bit : 0U);
  }
  channels[ENGINE_F] = live(&g[G_FLUTTER]) ? 0x3U : 0U;
}

/// Run engine e for n frames into the curves of channels (none: advance
/// it); the other curves it reads hold 0.5.
static void
run_engine(P4dMotion*   m,
           unsigned     e,
           const float* mp,
           unsigned     channels,
           uint32_t     n)
{
  float* out[P4D_MAX_CHANNELS] = {
    m->curve[e][0], m->curve[e][1], m->curve[e][2], m->curve[e][3]
  };
  p4d_engine_set_channels(m->engine[e], channels);
  p4d_engine_process(m->engine[e], mp, channels ? out : NULL, n);
  // The buffers of the left-out channels keep their 0.5 from call to call.
  const unsigned fill = engine_reads[e] & ~channels & ~m->neutral[e];
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    if (fill & (1U << c)) {
      for (uint32_t i = 0U; i < P4D_MOTION_CHUNK; ++i) {
        m->curve[e][c][i] = 0.5f;
      }
    }
  }
  m->neutral[e] = (m->neutral[e] | fill) & ~channels;
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
    fc *= p4d_motion_dsp_exp(g[G_OCT].value * u * P4D_LN2);
  }
  const double top = P4D_MOTION_MAX_CUTOFF * m->sample_rate_hz;
  fc = fc < P4D_MOTION_MIN_CUTOFF_HZ ? P4D_MOTION_MIN_CUTOFF_HZ : fc;
  return fc > top ? top : fc;
}

/// dB to a gain.
static inline double
db_gain(double db)
{
  return db == 0.0 ? 1.0 : p4d_motion_dsp_exp(db * P4D_LN10_20);
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

/// Process m frames of the sanitised input in m->x into out at offset done.
static void
process_chunk(P4dMotion*   m,
              float* const out[2],
              uint32_t     done,
              uint32_t     n,
              float        now[P4D_MOTION_N_NOW])
{
  P4dMotionGlide* const g       = m->glide;
  const int64_t         q       = m->filter_q;
  const int64_t         w0      = m->idx;
  const P4dMotionPair   fpm     = p4d_motion_pair(m->frames_per_ms);
  const P4dMotionPair   d0      = p4d_motion_pair((double)m->d0);
  const uint32_t        mask    = m->mask;
  const float* const    line[2] = { m->line[0], m->line[1] };

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

  // The delay line's reads, the gains and the pan's sines of the chunk, as
  // block passes (motion_block.h): their glides run ahead on copies (a
  // glide's steps depend on itself alone), and the frames below take the
  // results.
  P4dMotionGlide wow     = g[G_WOW];
  P4dMotionGlide flutter = g[G_FLUTTER];
  P4dMotionGlide gain    = g[G_GAIN_DB];
  P4dMotionGlide pan     = g[G_PAN];
  bool           reads   = false;
  bool           gains   = false;
  bool           pans    = false;
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
    const P4dMotionPair u_wow  = curve_pair(m, CH_WOW, i, copy);
    P4dMotionPair       u_fl   = { 2.0 * m->curve[ENGINE_F][0][i] - 1.0,
                                   2.0 * m->curve[ENGINE_F][1][i] - 1.0 };
    if (copy) {
      u_fl[1] = u_fl[0];
    }
    const P4dMotionPair wb = p4d_motion_pair(wow.value) * u_wow +
                             p4d_motion_pair(flutter.value) * u_fl;
    const P4dMotionPair d = d0 + wb * fpm;
    const P4dMotionPair x = p4d_motion_pair(gain.value) *
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
      p4d_motion_block_read(line[c], mask, w0, m->delay[c], m->read[c], n);
    }
    if (gains) {
      p4d_motion_block_exp(m->gain_x[c], m->gain[c], n);
    }
    if (pans) {
      p4d_motion_block_sin(m->pan_a[c], m->pan[c], n);
    }
  }

  // The filter grid's phase at the chunk's first frame: which filter
  // restarts next (r) and frames since the last restart (ph); counted on
  // from there (the grid moves only between calls).
  const int64_t cycle = P4D_MOTION_FILTERS * q;
  const int64_t ph0   = (((w0 + m->grid) % cycle) + cycle) % cycle;
  unsigned      r     = (unsigned)(ph0 / q);
  int64_t       ph    = ph0 % q;

  bool     moving = true;
  unsigned use    = 0U;
  for (uint32_t i = 0U; i < n; ++i, ++ph) {
    if (ph == q) {
      ph = 0;
      r  = r + 1U == P4D_MOTION_FILTERS ? 0U : r + 1U;
    }
    if (moving) {
      moving = glides_step(m);
    }
    const int64_t w = w0 + (int64_t)i;

    // The curves of each side, as u in (-1, 1).
    const bool          copy   = m->spread_zero + (int64_t)i >= m->settle;
    const P4dMotionPair u_gain = curve_pair(m, CH_GAIN, i, copy);
    const P4dMotionPair u_cut  = curve_pair(m, CH_FILTER, i, copy);
    const P4dMotionPair u_wow  = curve_pair(m, CH_WOW, i, copy);
    P4dMotionPair       u_fl   = { 2.0 * m->curve[ENGINE_F][0][i] - 1.0,
                                   2.0 * m->curve[ENGINE_F][1][i] - 1.0 };
    if (copy) {
      u_fl[1] = u_fl[0];
    }

    // Filter grid: restart, then pick the oldest filter.
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
    if (on && ph == 0) {
      m->svf[r] = (Svf){ p4d_motion_pair(0.0), p4d_motion_pair(0.0) };
      m->age[r] = 0;
    }
    // The filters age together: only a restart changes the oldest.
    if (!on || ph == 0 || i == 0U) {
      use = 0U;
      for (unsigned j = 1U; j < P4D_MOTION_FILTERS; ++j) {
        use = m->age[j] > m->age[use] ? j : use;
      }
    }

    const uint64_t      tap = (uint64_t)(w - (int64_t)m->d0) & mask;
    const P4dMotionPair dry = { line[0][tap], line[1][tap] };
    const P4dMotionPair wb  = p4d_motion_pair(g[G_WOW].value) * u_wow +
                             p4d_motion_pair(g[G_FLUTTER].value) * u_fl;
    // A whole delay reads the tap: at wb 0 that is the dry tap.
    P4dMotionPair y = dry;
    if (wb[0] != 0.0 || wb[1] != 0.0) {
      y[0] = m->read[0][i];
      y[1] = m->read[1][i];
    }
    if (on) {
      P4dMotionPair* const kg = m->knot_g;
      if (knot) {
        P4dMotionPair at = p4d_motion_pair(0.0);
        for (unsigned c = 0U; c < 2U; ++c) {
          at[c] = p4d_motion_dsp_tan(2.0 * cutoff_of(m, u_cut[c]) /
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
      y                  = filter_step(m, y, gk, kdamp, wmode, use);
      for (unsigned j = 0U; j < P4D_MOTION_FILTERS; ++j) {
        ++m->age[j];
      }
    }
    m->knots_fresh = !on;

    // Gain (e^0 is exactly 1: a gain depth of 0 leaves y as it is).
    const P4dMotionPair gain_db = p4d_motion_pair(g[G_GAIN_DB].value) *
                                  (u_gain - p4d_motion_pair(1.0)) *
                                  p4d_motion_pair(0.5);
    P4dMotionPair wet = y;
    if (g[G_GAIN_DB].value != 0.0) {
      const P4dMotionPair gain_i = { m->gain[0][i], m->gain[1][i] };
      wet *= gain_i;
    }

    // Width, then the equal-power balance.
    double pan = 0.0;
    if (g[G_WIDTH].value != 1.0) {
      const double        a  = 0.5 * (1.0 + g[G_WIDTH].value);
      const double        b  = 1.0 - a;
      const P4dMotionPair ab = { a, b };
      const P4dMotionPair ba = { b, a };
      wet = ab * p4d_motion_pair(wet[0]) + ba * p4d_motion_pair(wet[1]);
    }
    if (g[G_PAN].value != 0.0) {
      pan = g[G_PAN].value * (2.0 * m->curve[ENGINE_L][CH_PAN][i] - 1.0);
      const P4dMotionPair sine = { m->pan[0][i], m->pan[1][i] };
      wet *= p4d_motion_pair(P4D_SQRT2) * sine;
    }

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
      double yc        = mixed[c];
      yc               = yc > 3.0e38 ? 3.0e38 : yc < -3.0e38 ? -3.0e38 : yc;
      const float f    = (float)yc;
      out[c][done + i] = fabsf(f) < 1.0e-30f ? 0.0f : f;
    }

    if (now && i + 1U == n) {
      now[P4D_MOTION_NOW_GAIN_DB]   = (float)gain_db[0];
      now[P4D_MOTION_NOW_PAN]       = (float)pan;
      now[P4D_MOTION_NOW_CUTOFF_HZ] = (float)cutoff_of(m, u_cut[0]);
      now[P4D_MOTION_NOW_WOBBLE_MS] = (float)wb[0];
    }
  }
}

void
p4d_motion_process(P4dMotion*         motion,
                   const float*       params,
                   const float* const in[2],
                   float* const       out[2],
                   float              now[P4D_MOTION_N_NOW],
                   uint32_t           n_frames)
{
  P4dMotion* const     m     = motion;
  const P4dParamTable* table = p4d_params(P4D_KIND_MOTION);

  float p[P4D_MOTION_N_PARAMS];
  for (uint32_t i = 0U; i < P4D_MOTION_N_PARAMS; ++i) {
    p[i] = p4d_param_clamp(&table->params[i], params[i]);
  }
  float mp[N_ENGINES][P4D_MAX_PARAMS];
  for (unsigned e = 0U; e < N_ENGINES; ++e) {
    engine_params(p, e, mp[e]);
  }
  set_targets(m, p);
  const bool spread = p[P4D_MOTION_SPREAD] != 0.0f;

  if (!out) {
    // Parameters only: the engines' glides and the controls move on; the
    // audio state is cleared before the next audio.
    for (unsigned e = 0U; e < N_ENGINES; ++e) {
      p4d_engine_process(m->engine[e], mp[e], NULL, n_frames);
    }
    bool moving = true;
    for (uint32_t i = 0U; i < n_frames && moving; ++i) {
      moving = glides_step(m);
    }
    m->spread_zero = spread ? 0 : m->spread_zero + n_frames;
    m->idx += n_frames;
    m->audio_dirty = true;
    return;
  }

  if (m->audio_dirty) {
    clear_audio(m);
  }

  for (uint32_t done = 0U; done < n_frames;) {
    const uint32_t n =
      n_frames - done < P4D_MOTION_CHUNK ? n_frames - done : P4D_MOTION_CHUNK;

    // Read the whole chunk before writing any of it: in may alias out.
    for (uint32_t i = 0U; i < n; ++i) {
      m->x[0][i] = clean(in[0][done + i]);
      m->x[1][i] = clean(in[1][done + i]);
    }

    if (spread) {
      m->spread_zero = 0;
    }
    unsigned channels[N_ENGINES];
    needs(m, spread, channels);
    for (unsigned e = 0U; e < N_ENGINES; ++e) {
      run_engine(m, e, mp[e], channels[e], n);
    }

    process_chunk(m, out, done, n, now);
    if (!spread) {
      m->spread_zero += n;
    }
    m->idx += n;
    done += n;
  }
}

void
p4d_motion_mod_params(const float* params, unsigned engine, float* mod_params)
{
  const P4dParamTable* table = p4d_params(P4D_KIND_MOTION);

  float p[P4D_MOTION_N_PARAMS];
  for (uint32_t i = 0U; i < P4D_MOTION_N_PARAMS; ++i) {
    p[i] = p4d_param_clamp(&table->params[i], params[i]);
  }
  engine_params(p, engine < N_ENGINES ? engine : ENGINE_L, mod_params);
}
