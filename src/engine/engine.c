// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The engines.

  Voices.  A voice is one pure function of time: its parameters, fixed for
  its life, and a time line that maps the engine's frame counter to a phase
  on each noise axis.  Whenever the parameters change, or the song position
  jumps, a new voice starts and the output glides from the old voice to the
  new one over the glide time.  A change that arrives during a glide waits
  for it to end, so the output is always a blend of at most two pure
  functions, and what it is at any frame depends only on the timeline of
  parameter values and transport, never on how the work was cut into
  blocks.

  Glides mix z (a voice's unit-variance signal: see voice.c, which also
  holds the voices' time lines and placement), before any shaping, by a law
  chosen per channel from rho, an estimate of the correlation of the two
  voices' z.  Between neighbours (rho >= 0.9: morph, spread, width, octaves
  or persistence moved a little, or only out_min, out_max or level changed)
  the law is plain, z = z_old + a (z_new - z_old), a = 6t^5 - 15t^4 + 10t^3
  of the glide's progress t; it keeps at least 0.95 of the variance
  mid-glide.  To an unrelated signal (another seed, a relocation, the
  transport starting, a rate, period, grain, evolve, lacunarity or clock
  change far into the song: whatever moves the time line far) a plain law
  would dip by 3 dB, and the law is equal power on the same ramp, z =
  (cos(pi a/2) z_old + sin(pi a/2) z_new) / sqrt(1 + rho sin(pi a)): exactly
  cos and sin for rho = 0, and the divisor keeps unit variance in between (a
  rate automated near the song's start moves the time line only a little,
  where pure equal power would bump the level by up to 3 dB). rho is 0
  between seeds, else the weight-weighted mean over octaves of prod_a
  c(d_a), d_a the octave's offset between the voices on axis a at the
  glide's middle and c(d) = 1 - 3d^2 + 2d^3 (0 from d = 1), a fit within
  0.04 of the kernel's correlation at an offset of d cells along one axis,
  averaged over points (sum_b A(d_b) prod_{a != b} B(d_a), the covariance
  analogue of V in voice.c); between voices in the same loop, d_w is taken
  modulo the loop, so a host that loops the same beats glides between equal
  signals by the plain law.  Both laws have the zero end slopes of a, so the
  output's slope never jumps.  The shaping parameters glide with a.

  Flavours.  What makes an engine the Mod's or the Noise's (channels,
  parameters, glide time, high-pass, texture, output map, preview) is one
  const table per flavour (flavour.h, rows in flavour_mod.c and
  flavour_noise.c), chosen once in p4d_engine_new(): this file and voice.c
  run any flavour without asking which it is, the output map once per
  block.

  Output maps (flavour_mod.c, flavour_noise.c).  Mod: out = out_min + (out_max -
  out_min) Phi(z), Phi the standard normal CDF (src/maths/exact_math.h): a
  unit-variance z spends the same time in every tenth of the range, and Phi is
  smooth and strictly increasing, so the output never jumps and never sits at an
  end.  Noise: the high-passed z times the texture's envelope e (gusts and grit,
  src/engine/texture.h; E[e^2] = 1, so the mean power stays put), then level * h
  * soft_limit(0.25 z e / h): a standard deviation of a quarter of the
  level, the rare peaks beyond 0.75 of the ceiling rounded below it.  The
  ceiling is the level without texture (h = 1); with gusts and grit it
  rises by h, the envelope's bound but at most 12 dB
  (p4d_texture_headroom()), so that the loud moments and the grains keep
  their shape while the output never exceeds the level by more than 12 dB
  (the textured presets set their levels so that their peaks stay below 0
  dBFS).  During a glide h moves with the other shaping parameters.

  Noise high-pass.  Gradient noise along a line has a low-frequency tail
  (26 % of the power of a 40 Hz grain lies below 10 Hz).  A 2nd-order
  Butterworth high-pass at 12 Hz (src/engine/highpass.h) filters each voice's z,
  in double precision.  To keep the output a function of a bounded stretch
  of the past, four such filters run staggered per channel: filter j
  restarts from rest whenever the song's frame minus j Q is a multiple of
  4Q, and the output uses the one that restarts next, which has run for 3Q
  to 4Q frames.  3Q = P = 0.3 s is 16 time constants of the filter's
  slowest decay (18.8 ms): a start transient is far below -100 dB by then.
  A render cut anywhere therefore joins bit-exactly after a warm-up of at
  most 4Q frames (p4d_engine_exact_from()).

  Filter state belongs to the voice: a new voice takes a copy of the old
  one's on a parameter change (both then run on, each on its own z, and the
  glide mixes the filtered signals).  On a relocation (and when the
  transport starts rolling) of a voice that follows the song, the new voice
  instead renders its own past from the grid point where its oldest filter
  restarted (at most 4Q frames: 0.4 s), P4D_WARM_RATE = 8 frames of it per
  frame of output, while the old position plays on; the frame at which it
  has caught up with the output (at most 0.4 s / 7 = 57 ms later) is a
  function of the relocation's frame alone, and there the new voice takes
  over with the glide.  So a relocation costs at most 9 times the usual
  work per frame for 57 ms, never a burst in one block, and after the
  warm-up and the glide the output is the bits a straight run through that
  song position gives.  A first voice placed in a song starts with its
  filters at rest and glides to its warmed copy the same way.  Before song
  frame 0 there is nothing: the filters start at rest there.  Free-running
  voices do not depend on the song position and keep their filters.
*/

#include "clock.h"
#include "exact_math.h"
#include "flavour.h"
#include "ramp.h"
#include "voice.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/// An engine (engine.h): its voices in time.  Private to this file.
struct P4dEngineImpl {
  P4dVoiceSetup setup;        ///< What its voices need: flavour, rate, band
  unsigned      channel_mask; ///< Channels computed (p4d_engine_set_channels)
  int64_t       hpf_step;     ///< Q, in frames: the filters restart Q apart
  P4dHighpass   hpf;          ///< The high-pass section
  int64_t       idx;          ///< Frames processed since activation
  bool          primed;       ///< A voice is playing
  bool          relock;       ///< The song position jumped: start a new voice
  bool          fading;       ///< prev is fading out, cur in
  bool          warming;      ///< next is warming up to take over (relocation)
  int64_t       warm_from;    ///< Engine frame where the warm-up began
  int64_t       warm_pos;     ///< Engine frame next has been rendered up to
  int64_t       warm_past;    ///< Engine frame next's past starts at
  int64_t       warm_end;     ///< Engine frame where next takes over
  int64_t       fade_start;   ///< Engine frame where the glide began
  int64_t       fade_len;     ///< Glide length in frames
  double        rho[P4D_MAX_CHANNELS]; ///< Estimated correlation of the voices
  P4dPhiTable   phi;                   ///< Phi's table (the Mod's output map)
  P4dClock      clock;
  P4dVoice      cur;
  P4dVoice      prev;
  P4dVoice      next;
  float         buf_cur[P4D_MAX_CHANNELS][P4D_CHUNK];
  float         buf_prev[P4D_MAX_CHANNELS][P4D_CHUNK];
  float         buf_warm[P4D_MAX_CHANNELS][P4D_CHUNK];
  double        buf_mix[P4D_MAX_CHANNELS][P4D_CHUNK]; ///< A glide's mixed z
  double        ramp[P4D_CHUNK]; ///< A glide's ramp a at each frame
};

/// Frames of a relocated voice's past rendered per frame of output while it
/// warms up (see the top of this file).
#define P4D_WARM_RATE 8

/// The most high-pass steps Q a looped voice's filters reach back (see
/// p4d_engine_exact_from()).
#define P4D_LOOP_REACH_Q 24

/// Voices at least this correlated glide by the plain law (which keeps
/// 0.95 of the variance mid-glide); others by equal power.
#define P4D_NEIGHBOURS 0.9

const P4dEngineFlavour*
p4d_engine_flavour(P4dKind kind)
{
  // The engine's flavours, by the kind whose engine they make.
  static const P4dEngineFlavour* const flavours[] = {
    [P4D_KIND_MOD]   = &p4d_engine_flavour_mod,
    [P4D_KIND_NOISE] = &p4d_engine_flavour_noise,
  };
  return (unsigned)kind < sizeof(flavours) / sizeof(flavours[0])
           ? flavours[kind]
           : NULL;
}

unsigned
p4d_engine_channels(P4dKind kind)
{
  // A kind without an engine of its own (Motion) runs on stereo audio.
  const P4dEngineFlavour* const flavour = p4d_engine_flavour(kind);
  return flavour ? flavour->n_channels : 2U;
}

P4dStatus
p4d_engine_new(P4dKind kind, double sample_rate_hz, P4dEngine** engine)
{
  *engine                               = NULL;
  const P4dEngineFlavour* const flavour = p4d_engine_flavour(kind);
  if (!flavour || !(sample_rate_hz >= 1000.0 && sample_rate_hz <= 1536000.0)) {
    return P4D_ERR_BAD_ARG;
  }

  P4dEngine* e = (P4dEngine*)calloc(1U, sizeof(P4dEngine));
  if (!e) {
    return P4D_ERR_NO_MEM;
  }

  e->setup        = p4d_voice_setup(flavour, sample_rate_hz);
  e->channel_mask = (1U << e->setup.n_channels) - 1U;

  e->hpf = p4d_highpass_design(sample_rate_hz);
  p4d_exact_phi_fill(&e->phi);
  e->hpf_step =
    (int64_t)(P4D_HIGHPASS_AGE_S / (P4D_HIGHPASS_FILTERS - 1) * sample_rate_hz +
              0.5);
  p4d_engine_activate(e);
  *engine = e;
  return P4D_SUCCESS;
}

void
p4d_engine_free(P4dEngine* engine)
{
  free(engine);
}

void
p4d_engine_set_channels(P4dEngine* engine, unsigned mask)
{
  // Channels that keep state (the Noise's high-pass) are always computed.
  if (engine->setup.flavour->masks_channels) {
    engine->channel_mask = mask & ((1U << engine->setup.n_channels) - 1U);
  }
}

void
p4d_engine_activate(P4dEngine* engine)
{
  p4d_engine_activate_at(engine, 0, 120.0);
}

void
p4d_engine_activate_at(P4dEngine* engine, int64_t frame, double bpm)
{
  P4dEngine* const e = engine;

  e->idx     = frame;
  e->primed  = false;
  e->relock  = false;
  e->fading  = false;
  e->warming = false;

  e->clock = p4d_clock_start(bpm);
}

/// Position of grid time t in the high-pass filters' cycle of 4Q frames.
static int64_t
hpf_phase(const P4dEngine* e, int64_t t)
{
  const int64_t cycle = P4D_HIGHPASS_FILTERS * e->hpf_step;
  return ((t % cycle) + cycle) % cycle;
}

/// Frames since the filter in use at grid time t restarted: 3Q to 4Q.
static int64_t
hpf_age(const P4dEngine* e, int64_t t)
{
  return hpf_phase(e, t) % e->hpf_step +
         (P4D_HIGHPASS_FILTERS - 1) * e->hpf_step;
}

/**
   A looped voice's high-pass grid (see Noise high-pass above): restarts
   placed by the loop, so that the filter in use at every frame of a loop
   restarted at the same place of the loop and has seen the same periodic
   z since.  A loop of L frames, at least 4Q: n = floor(L / 4Q) cycles of
   4q frames, q = floor(L / 4n), from every loop's start (the few frames
   left at its end start one more); the filter in use has run 3q to 4q + L
   - 4nq frames.  A shorter loop: q = cL, c = ceil(Q / L), the cycle
   counted over 4c loops, every filter restarting at a loop's start.  The
   piece's q and the phase of its first frame; the most frames a filter
   runs before it restarts.
*/
static int64_t
loop_grid(const P4dEngine* e,
          const P4dVoice*  v,
          P4dLoopPiece     p,
          int64_t*         q,
          int64_t*         phase)
{
  const int64_t big = e->hpf_step;
  const int64_t f   = P4D_HIGHPASS_FILTERS;
  const int64_t len = (int64_t)floor(v->loop_len);
  if (len >= f * big) {
    const int64_t n = len / (f * big);
    *q              = len / (f * n);
    *phase          = p.first % (f * *q);
    return f * *q + (len + 1 - f * n * *q);
  }
  const int64_t c   = (big + len - 1) / len;
  const int64_t cyc = f * c;
  *q                = c * len;
  *phase            = ((((p.k % cyc) + cyc) % cyc) * len + p.first) % (f * *q);
  return f * *q;
}

/// The most frames before the output at a frame of v that its filters
/// may look back (a warm-up from there is exact): 4Q, or the loop's.
static int64_t
hpf_reach(const P4dEngine* e, const P4dVoice* v)
{
  if (v->loop_len > 0.0) {
    int64_t q     = 0;
    int64_t phase = 0;
    return loop_grid(e, v, p4d_voice_loop_piece(v, 0, 1U), &q, &phase);
  }
  return P4D_HIGHPASS_FILTERS * e->hpf_step;
}

/// Whether a voice of these parameters would loop (at any tempo).
static bool
params_loop(const P4dEngine* e, const float* params)
{
  P4dVoice v;
  p4d_voice_from_params(&e->setup, params, &v);
  return v.loop_beats > 0.0;
}

int64_t
p4d_engine_exact_from(const P4dEngine* engine,
                      int64_t          frame,
                      const float*     params)
{
  if (!engine->setup.flavour->highpassed) {
    return frame;
  }

  // The filter in use at frame restarted at a grid point 3Q to 4Q back (a
  // loop's: see loop_grid()); nothing happened before frame 0.  Before
  // its first voice the engine knows whether it will loop only from the
  // parameters it will be given, when they are held: otherwise as far
  // back as any loop's filters reach (loop_grid(): under 20Q for a loop
  // shorter than 4Q, under 8Q + L / Q + 1 for a longer one, L up to 16
  // Q^2 frames), which a render cut there warms up in vain otherwise.
  const P4dEngine* const e = engine;
  int64_t back = e->primed && e->cur.loop_len > 0.0 ? hpf_reach(e, &e->cur)
                                                    : hpf_age(e, frame);
  if (!e->primed && (!params || params_loop(e, params)) &&
      back < P4D_LOOP_REACH_Q * e->hpf_step) {
    back = P4D_LOOP_REACH_Q * e->hpf_step;
  }
  const int64_t reset = frame - back;
  return reset > 0 ? reset : 0;
}

static bool
same_signal(const P4dEngine* e, const P4dVoice* a, const P4dVoice* b)
{
  const uint32_t n = p4d_params(e->setup.flavour->params)->n_params;
  for (uint32_t i = 0U; i < n; ++i) {
    if (a->params[i] != b->params[i]) {
      return false;
    }
  }
  return true;
}

void
p4d_engine_position(const P4dEngine* engine, P4dPosition* position)
{
  const P4dEngine* const e = engine;
  P4dPosition* const     p = position;

  p4d_clock_expect(
    &e->clock, e->idx, e->setup.sample_rate_hz, &p->frame, &p->beat);
  p->bpm   = e->clock.bpm;
  p->speed = e->clock.speed;
  // Before the first voice: the line a first free voice starts (phase 0
  // at index 0, p4d_voice_line_free()).
  p->free_index = e->idx + (e->primed ? e->cur.offset : 0);
  for (unsigned a = 0U; a < P4D_LINES; ++a) {
    p->free_phase0[a] = e->primed ? e->cur.phase0[a] : 0.0;
  }
}

void
p4d_engine_transport(P4dEngine* engine, const P4dTransport* transport)
{
  P4dEngine* const    e  = engine;
  const P4dTransport* tr = transport;
  P4dClock* const     c  = &e->clock;

  int64_t want_frame = 0;
  double  want_beat  = 0.0;
  p4d_clock_expect(c, e->idx, e->setup.sample_rate_hz, &want_frame, &want_beat);
  const P4dClock now = p4d_clock_follow(c, tr, e->idx, e->setup.sample_rate_hz);

  const bool was_locked = c->locked;
  const bool jumped     = now.frame_anchor != want_frame ||
                      fabs(now.beat_anchor - want_beat) > 1.0e-3;
  const bool bent = now.speed != c->speed || now.bpm != c->bpm;

  *c = now;

  if (!c->locked) {
    // Stopped: the locked voices run on from where they are, and a warm-up
    // for a song position is moot (the next start relocates again).
    e->warming = false;
    if (was_locked && e->primed) {
      P4dVoice* const voices[2] = { &e->cur, &e->prev };
      for (unsigned i = 0U; i < (e->fading ? 2U : 1U); ++i) {
        if (voices[i]->mode != P4D_CLOCK_FREE) {
          const P4dVoice from = *voices[i];
          p4d_voice_line_free(&e->setup, c, e->idx, voices[i], &from);
        }
      }
    }
  } else if (!was_locked || jumped) {
    e->relock = true;
  } else if (bent && e->primed) {
    // A tempo or speed change: the song position is continuous, so the
    // locked voices follow it without a glide.
    P4dVoice* const voices[3] = { &e->cur, &e->prev, &e->next };
    for (unsigned i = 0U; i < 3U; ++i) {
      const bool playing = i == 0U || (i == 1U ? e->fading : e->warming);
      if (playing && voices[i]->mode != P4D_CLOCK_FREE) {
        p4d_voice_line_locked(&e->setup, c, voices[i]);
      }
    }
  }
}

/// High-pass m frames of v's z in buf, from engine frame at (see the top).
static void
voice_hpf(const P4dEngine* e,
          P4dVoice*        v,
          int64_t          at,
          float            buf[][P4D_CHUNK],
          uint32_t         m)
{
  if (v->loop_len > 0.0) {
    for (uint32_t done = 0U; done < m;) {
      const P4dLoopPiece p =
        p4d_voice_loop_piece(v, at + v->offset + (int64_t)done, m - done);
      int64_t      q     = 0;
      int64_t      phase = 0;
      float* const ch[2] = { buf[0] + done, buf[1] + done };
      (void)loop_grid(e, v, p, &q, &phase);
      p4d_highpass_bank_run(&e->hpf, v->hpf, q, phase, ch, p.n);
      done += p.n;
    }
    return;
  }
  float* const ch[2] = { buf[0], buf[1] };
  p4d_highpass_bank_run(
    &e->hpf, v->hpf, e->hpf_step, hpf_phase(e, at + v->grid), ch, m);
}

/**
   Begin a relocation's warm-up (see the top of this file): target becomes
   next, on the song's time line with its filters at rest, and will render
   its own past from the grid point where its oldest filter restarted (at
   most 4Q frames back, never before song frame 0), P4D_WARM_RATE frames of
   it per frame of output, while the playing voice goes on.  It takes over
   at warm_end, the first frame at which it has caught up with the output.
*/
static void
warm_begin(P4dEngine* e, const P4dVoice* target, int64_t grid)
{
  e->next = *target;
  p4d_voice_line(&e->setup, &e->clock, e->idx, &e->next, &e->cur);
  e->next.grid = grid;
  memset(e->next.hpf, 0, sizeof(e->next.hpf));
  e->relock = false;

  const int64_t now  = e->idx + e->next.grid;
  const int64_t age  = e->next.loop_len > 0.0 ? hpf_reach(e, &e->next)
                       : now > 0              ? hpf_age(e, now)
                                              : 0;
  const int64_t back = age < now ? age : now > 0 ? now : 0;
  e->warming         = true;
  e->warm_from       = e->idx;
  e->warm_past       = e->idx - back;
  e->warm_pos        = e->warm_past;
  e->warm_end = e->idx + (back + P4D_WARM_RATE - 2) / (P4D_WARM_RATE - 1);
}

/// Render next's past as far as output frame to allows: P4D_WARM_RATE
/// frames per frame since the warm-up began, never past to itself.
static void
warm_advance(P4dEngine* e, int64_t to)
{
  const int64_t budget = e->warm_past + P4D_WARM_RATE * (to - e->warm_from);
  const int64_t goal   = budget < to ? budget : to;
  while (e->warm_pos < goal) {
    const int64_t  left = goal - e->warm_pos;
    const uint32_t m = left < (int64_t)P4D_CHUNK ? (uint32_t)left : P4D_CHUNK;
    p4d_voice_z(
      &e->setup, e->channel_mask, &e->next, e->warm_pos, e->buf_warm, m);
    voice_hpf(e, &e->next, e->warm_pos, e->buf_warm, m);
    e->warm_pos += m;
  }
}

/// Correlation, roughly, of two noise points d cells apart along one axis.
static double
axis_correlation(double d)
{
  const double u = fabs(d);
  return u >= 1.0 ? 0.0 : 1.0 - u * u * (3.0 - 2.0 * u);
}

/**
   Estimate, per channel, the correlation rho of the voices o and n at the
   middle of a glide of len frames from the engine's frame (see the top of
   this file).
*/
static void
voices_correlation(const P4dEngine* e,
                   const P4dVoice*  o,
                   const P4dVoice*  n,
                   int64_t          len,
                   double           rho[P4D_MAX_CHANNELS])
{
  const int64_t mid = e->idx + len / 2;

  float          wo[P4D_FBM_MAX_OCTAVES];
  float          wn[P4D_FBM_MAX_OCTAVES];
  const unsigned n_o =
    p4d_fbm_weights_loop(&o->fbm, o->loop_cells, o->phase_step, wo);
  const unsigned n_n =
    p4d_fbm_weights_loop(&n->fbm, n->loop_cells, n->phase_step, wn);
  double po = 0.0;
  double pn = 0.0;
  for (unsigned k = 0U; k < n_o; ++k) {
    po += (double)wo[k] * wo[k];
  }
  for (unsigned k = 0U; k < n_n; ++k) {
    pn += (double)wn[k] * wn[k];
  }

  // In the same loop, an octave whose whole cells per loop did not change
  // is the same periodic function of w: phases a loop apart are the same
  // point (a host that loops the same beats relocates by whole loops; a
  // voice's phase is reduced modulo the loop where it starts).
  const bool same_loop = n->loop_cells > 0.0 && n->loop_cells == o->loop_cells;
  for (unsigned c = 0U; c < e->setup.n_channels; ++c) {
    double cov  = 0.0;
    double lo_k = 1.0; // lacunarity^k of each voice
    double ln_k = 1.0;
    for (unsigned k = 0U; k < n_o && k < n_n; ++k) {
      const double so     = p4d_fbm_octave_scale(o->loop_cells, lo_k);
      const double sn     = p4d_fbm_octave_scale(n->loop_cells, ln_k);
      const bool   looped = same_loop && so == sn;
      double       r      = (double)wo[k] * wn[k];
      for (unsigned a = 0U; a < 4U; ++a) {
        const double d =
          looped && a == 3U
            ? remainder(p4d_voice_phase(n, a, mid) * sn -
                          p4d_voice_phase(o, a, mid) * so,
                        n->loop_cells * sn) +
                (n->position[c][a] - o->position[c][a])
            : (p4d_voice_place(n, a, mid) * sn + n->position[c][a]) -
                (p4d_voice_place(o, a, mid) * so + o->position[c][a]);
        r *= axis_correlation(d);
      }
      cov += r;
      lo_k *= o->fbm.lacunarity;
      ln_k *= n->fbm.lacunarity;
    }
    rho[c] =
      o->seed == n->seed && po > 0.0 && pn > 0.0 ? cov / sqrt(po * pn) : 0.0;
  }
}

/// Glide from cur to v (whose time line and filters are set) over glide
/// frames.
static void
voice_glide_to(P4dEngine* e, const P4dVoice* v, int64_t glide)
{
  e->prev       = e->cur;
  e->cur        = *v;
  e->fading     = glide > 0;
  e->fade_start = e->idx;
  e->fade_len   = glide;
  if (e->fading) {
    voices_correlation(e, &e->prev, &e->cur, glide, e->rho);
  }
}

/// Start a new voice from target on a parameter change (or a relocation
/// that needs no warm-up): it continues the filters of the voice before it.
static void
voice_start(P4dEngine* e, const P4dVoice* target, int64_t glide)
{
  P4dVoice v = *target;
  p4d_voice_line(&e->setup, &e->clock, e->idx, &v, &e->cur);
  v.grid = e->cur.grid;
  memcpy(v.hpf, e->cur.hpf, sizeof(v.hpf));
  e->relock = false;
  voice_glide_to(e, &v, glide);
}

/// Whether a relocation to target must warm its filters up: a high-passed
/// voice that follows the song.
static bool
relocation_warms(const P4dEngine* e, const P4dVoice* target)
{
  return e->setup.flavour->highpassed && target->mode != P4D_CLOCK_FREE &&
         e->clock.locked;
}

/// Whether a parameter change to target must warm its filters up: a
/// high-passed voice unrelated to the playing one (the filters of the old
/// signal would ring on the new one).
static bool
change_warms(const P4dEngine* e, const P4dVoice* target, int64_t glide)
{
  if (!e->setup.flavour->highpassed) {
    return false;
  }

  P4dVoice v = *target;
  p4d_voice_line(&e->setup, &e->clock, e->idx, &v, &e->cur);
  double rho[P4D_MAX_CHANNELS];
  voices_correlation(e, &e->cur, &v, glide, rho);
  for (unsigned c = 0U; c < e->setup.n_channels; ++c) {
    if (rho[c] < P4D_NEIGHBOURS) {
      return true;
    }
  }
  return false;
}

/// Mix the voices' z (cur in buf_cur, prev in buf_prev) and shape it into
/// the output, by the flavour's map (a function per block).
static void
mix_out(P4dEngine* e, float* const out[], uint32_t done, uint32_t m)
{
  const P4dEngineFlavour* const f = e->setup.flavour;
  const P4dShaping              s = { &e->setup, e->channel_mask, &e->phi };
  if (!e->fading) {
    f->shape(&s, &e->cur, e->buf_cur, out, done, m);
    return;
  }

  for (uint32_t i = 0U; i < m; ++i) {
    const double t =
      (double)(e->idx + (int64_t)i - e->fade_start) / (double)e->fade_len;
    const double a = p4d_ramp_quintic(t);
    const double u = p4d_exact_quarter_cos(a);
    const double v = p4d_exact_quarter_sin(a);
    e->ramp[i]     = a;
    for (unsigned c = 0U; c < e->setup.n_channels; ++c) {
      if (!(e->channel_mask & (1U << c))) {
        continue;
      }
      const double z    = e->buf_cur[c][i];
      const double from = e->buf_prev[c][i];
      e->buf_mix[c][i] =
        e->rho[c] < P4D_NEIGHBOURS
          ? (u * from + v * z) / sqrt(1.0 + e->rho[c] * (2.0 * u * v))
          : from + a * (z - from);
    }
  }
  f->shape_glide(&s, &e->prev, &e->cur, e->ramp, e->buf_mix, out, done, m);
}

/// Run v's z in buf, m frames from engine frame at, through the flavour's
/// filters: the high-pass, then the colour.
static void
voice_filter(P4dEngine* e, P4dVoice* v, float buf[][P4D_CHUNK], uint32_t m)
{
  const P4dEngineFlavour* const f = e->setup.flavour;
  if (f->highpassed) {
    voice_hpf(e, v, e->idx, buf, m);
  }
  if (f->colour) {
    f->colour(&e->setup, v, e->idx, buf, m);
  }
}

void
p4d_engine_process(P4dEngine*   engine,
                   const float* params,
                   float* const out[],
                   uint32_t     n_frames)
{
  P4dEngine* const e = engine;

  P4dVoice target;
  p4d_voice_from_params(&e->setup, params, &target);

  const double  glide_ms = e->setup.flavour->glide_ms(params);
  const int64_t glide =
    (int64_t)(glide_ms * 0.001 * e->setup.sample_rate_hz + 0.5);

  if (!e->primed) {
    // The first voice: nothing to glide from; its filters start at rest.
    // If the transport put it somewhere in a song, a warmed copy takes
    // over once it has caught up.
    e->cur = target;
    p4d_voice_line(&e->setup, &e->clock, e->idx, &e->cur, NULL);
    e->cur.grid = e->clock.frame_anchor - e->clock.idx_anchor;
    if (e->relock && relocation_warms(e, &target)) {
      warm_begin(e, &target, e->cur.grid);
    }
    e->relock = false;
    e->primed = true;
  }

  for (uint32_t done = 0U; done < n_frames;) {
    if (e->fading && e->idx >= e->fade_start + e->fade_len) {
      e->fading = false;
    }

    if (e->warming && e->idx >= e->warm_end) {
      e->warming = false;
      voice_glide_to(e, &e->next, glide);
    }

    if (!e->fading && e->relock) {
      if (relocation_warms(e, &target)) {
        warm_begin(e, &target, e->clock.frame_anchor - e->clock.idx_anchor);
      } else {
        voice_start(e, &target, glide);
      }
    } else if (!e->fading && !e->warming && !same_signal(e, &target, &e->cur)) {
      if (change_warms(e, &target, glide)) {
        warm_begin(e, &target, e->cur.grid);
      } else {
        voice_start(e, &target, glide);
      }
    }

    uint32_t m = n_frames - done < P4D_CHUNK ? n_frames - done : P4D_CHUNK;
    if (e->fading && e->fade_start + e->fade_len - e->idx < (int64_t)m) {
      m = (uint32_t)(e->fade_start + e->fade_len - e->idx);
    }
    if (e->warming && e->warm_end - e->idx < (int64_t)m) {
      m = (uint32_t)(e->warm_end - e->idx);
    }

    if (e->warming && out) {
      warm_advance(e, e->idx + (int64_t)m);
    }

    if (out) {
      p4d_voice_z(&e->setup, e->channel_mask, &e->cur, e->idx, e->buf_cur, m);
      if (e->fading) {
        p4d_voice_z(
          &e->setup, e->channel_mask, &e->prev, e->idx, e->buf_prev, m);
      }
      voice_filter(e, &e->cur, e->buf_cur, m);
      if (e->fading) {
        voice_filter(e, &e->prev, e->buf_prev, m);
      }
      mix_out(e, out, done, m);
    }

    e->idx += m;
    done += m;
  }
}

void
p4d_engine_preview(P4dEngine*         engine,
                   const float*       params,
                   const P4dPosition* at,
                   const int64_t*     offsets,
                   uint32_t           n,
                   float* const       out[])
{
  P4dEngine* const e = engine;

  // Engine frame 0 is the song frame at->frame, rolling at speed 1.
  const double bpm = at->bpm > 0.0 && at->bpm < P4D_MAX_BPM ? at->bpm : 120.0;
  e->idx           = 0;
  e->clock =
    (P4dClock){ true, 1.0, bpm, at->frame, isfinite(at->beat) ? at->beat : 0.0,
                0 };

  P4dVoice* const v = &e->cur;
  p4d_voice_from_params(&e->setup, params, v);
  p4d_voice_line(&e->setup, &e->clock, e->idx, v, NULL);
  if (v->mode == P4D_CLOCK_FREE) {
    // The playing voice's line at engine frame 0 (loops need the song
    // beats clock: a free-running voice has none to cut).
    memcpy(v->phase0, at->free_phase0, sizeof(v->phase0));
    v->offset = at->free_index;
  }

  const P4dShaping s = { &e->setup, e->channel_mask, &e->phi };
  e->setup.flavour->preview(&s, v, offsets, n, e->buf_cur, out);
}
