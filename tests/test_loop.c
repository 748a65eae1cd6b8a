// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Loops (issue 13 item 2): with the song beats clock and a loop of N
  beats, Perlin4D Mod's output repeats every N beats bit for bit, for
  rates and lacunarities that must snap to whole cells per loop, from
  negative song positions too, and steps across the seam no more than
  beside it; Perlin4D Motion's modulation curves repeat the same way.
  With song time or free running the loop changes nothing.
*/

#undef NDEBUG

#include "engine.h"
#include "motion.h"
#include "params.h"

#include "support/compare.h"
#include "support/motion_rig.h"
#include "support/rig.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/// One loop setting: loop length, period, lacunarity, octaves, and a song
/// (sample rate and tempo) in which N beats are a whole number of frames.
typedef struct {
  float  loop_beats;
  float  period_beats;
  float  lacunarity;
  float  octaves;
  double rate_hz;
  double bpm;
} Case;

static const Case cases[] = {
  // One cell per loop already: nothing to snap.
  { 4.0f, 4.0f, 2.0f, 3.0f, 48000.0, 120.0 },
  // 3 / 0.7 = 4.29 cells snap to 4; octaves to round(4 * 1.7^k).
  { 3.0f, 0.7f, 1.7f, 5.5f, 48000.0, 120.0 },
  // 0.2 cells per loop snap up to 1; lacunarity 2.5.
  { 1.0f, 5.0f, 2.5f, 4.0f, 44100.0, 105.0 },
  // A long loop, 16 beats: 6.96 cells snap to 7, lacunarity 3.1, 8 octaves.
  { 16.0f, 2.3f, 3.1f, 8.0f, 48000.0, 240.0 },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static void
mod_loop_params(P4dRig* rig, const Case* c)
{
  rig->params[P4D_MOD_CLOCK]        = (float)P4D_CLOCK_SONG_BEATS;
  rig->params[P4D_MOD_LOOP_BEATS]   = c->loop_beats;
  rig->params[P4D_MOD_PERIOD_BEATS] = c->period_beats;
  rig->params[P4D_MOD_LACUNARITY]   = c->lacunarity;
  rig->params[P4D_MOD_OCTAVES]      = c->octaves;
}

static P4dTransport
at_beat(double beat, double bpm)
{
  P4dTransport t = { true, true, true, true, (int64_t)floor(beat * 1000.0),
                     1.0,  beat, bpm };
  return t;
}

/// Frames per loop of c, a whole number by the choice of the cases.
static size_t
loop_frames(const Case* c)
{
  const double len = (double)c->loop_beats * 60.0 * c->rate_hz / c->bpm;
  assert(len == floor(len));
  return (size_t)len;
}

/**
   The largest step across the seams at frames s (out[s] - out[s - 1]),
   against the larger step beside each (the frames before and after):
   asserts that nothing steps at a seam.
*/
static double
seam_steps(const float* x, const size_t* seams, unsigned n, double* beside)
{
  double worst = 0.0;
  *beside      = 0.0;
  for (unsigned i = 0U; i < n; ++i) {
    const size_t s      = seams[i];
    const double across = fabs((double)x[s] - (double)x[s - 1U]);
    const double before = fabs((double)x[s - 1U] - (double)x[s - 2U]);
    const double after  = fabs((double)x[s + 1U] - (double)x[s]);
    const double near   = before > after ? before : after;
    assert(across <= 1.5 * near + 1.0e-6);
    worst   = across > worst ? across : worst;
    *beside = near > *beside ? near : *beside;
  }
  return worst;
}

/// Mod: out[i] and out[i + L] are the same bits; the seams do not step.
static void
test_mod_periodic(void)
{
  for (unsigned k = 0U; k < N_CASES; ++k) {
    const Case*  c   = &cases[k];
    const size_t len = loop_frames(c);
    const size_t n   = 2U * len + 4000U;
    P4dRig       rig = p4d_rig_new(P4D_KIND_MOD, c->rate_hz);
    P4dBuffers   b   = p4d_buffers_new(n);
    mod_loop_params(&rig, c);
    const P4dTransport t = at_beat(0.0, c->bpm);
    p4d_engine_transport(rig.engine, &t);
    p4d_rig_render(&rig, b.ch, n, 317U);

    double across = 0.0;
    double beside = 0.0;
    for (unsigned ch = 0U; ch < 4U; ++ch) {
      p4d_assert_same("a loop later", b.ch[ch], b.ch[ch] + len, 0U, n - len);
      const size_t seams[2] = { len, 2U * len };
      double       near     = 0.0;
      const double a        = seam_steps(b.ch[ch], seams, 2U, &near);
      across                = a > across ? a : across;
      beside                = near > beside ? near : beside;
    }
    printf("# loop %g beats, period %g, lacunarity %g, %g octaves: every "
           "frame equals the one %zu frames later; step across the seam "
           "%.3g, beside it %.3g\n",
           (double)c->loop_beats,
           (double)c->period_beats,
           (double)c->lacunarity,
           (double)c->octaves,
           len,
           across,
           beside);

    p4d_engine_free(rig.engine);
    p4d_buffers_free(&b);
  }
}

/**
   The value at beat b is the value at beat b + N, bit for bit, for
   negative b too, and for a tempo at which N beats are not a whole number
   of frames (44.1 kHz, 130 bpm, 3 beats: 61061.5 frames): engines placed
   at b, b + N, b + 2N and b - 5N play the same bits.  From a negative beat,
   one engine's output repeats across song beat 0.
*/
static void
test_mod_beat_positions(void)
{
  const Case   odd     = { 3.0f, 0.7f, 1.7f, 5.5f, 44100.0, 130.0 };
  const Case*  tried[] = { &cases[1], &odd };
  const size_t n       = 70000U;
  for (unsigned k = 0U; k < 2U; ++k) {
    const Case*  c      = tried[k];
    const double b0     = -6.5;
    const double N      = c->loop_beats;
    const double beat[] = { b0, b0 + N, b0 + 2.0 * N, b0 - 5.0 * N };
    P4dBuffers   ref    = p4d_buffers_new(n);
    for (unsigned i = 0U; i < 4U; ++i) {
      P4dRig     rig = p4d_rig_new(P4D_KIND_MOD, c->rate_hz);
      P4dBuffers b   = p4d_buffers_new(n);
      mod_loop_params(&rig, c);
      const P4dTransport t = at_beat(beat[i], c->bpm);
      p4d_engine_transport(rig.engine, &t);
      p4d_rig_render(&rig, i ? b.ch : ref.ch, n, 500U + 37U * i);
      for (unsigned ch = 0U; i && ch < 4U; ++ch) {
        p4d_assert_same("beat b + kN", ref.ch[ch], b.ch[ch], 0U, n);
      }
      p4d_engine_free(rig.engine);
      p4d_buffers_free(&b);
    }
    p4d_buffers_free(&ref);
  }
  printf("# beats -6.5, -3.5, -0.5, -21.5 (loop 3) play the same bits, at "
         "48 kHz 120 bpm and at 44.1 kHz 130 bpm (61061.5 frames a loop)\n");

  // One engine from beat -6.5 at 48 kHz: 3 beats are 72000 frames; song
  // beat 0 is at frame 156000.
  const Case*  c   = &cases[1];
  const size_t len = loop_frames(c);
  const size_t m   = 3U * len;
  P4dRig       rig = p4d_rig_new(P4D_KIND_MOD, c->rate_hz);
  P4dBuffers   b   = p4d_buffers_new(m);
  mod_loop_params(&rig, c);
  const P4dTransport t = at_beat(-6.5, c->bpm);
  p4d_engine_transport(rig.engine, &t);
  p4d_rig_render(&rig, b.ch, m, 999U);
  for (unsigned ch = 0U; ch < 4U; ++ch) {
    p4d_assert_same("from beat -6.5", b.ch[ch], b.ch[ch] + len, 0U, m - len);
  }
  printf("# from beat -6.5 through beat 0: every frame equals the one a "
         "loop (%zu frames) later\n",
         len);

  p4d_engine_free(rig.engine);
  p4d_buffers_free(&b);

  // Far into the song (no transport: frames since activation), a loop
  // before the frame where w of octave 0 (7 cells a loop of 192000 frames)
  // passes 2^23 cells: there a double's spacing doubles, so a line not cut
  // per loop would round differently a loop later (this fails without
  // the cut).
  const Case*   l     = &cases[3];
  const size_t  llen  = loop_frames(l);
  const int64_t cross = (int64_t)(0x1p23 * (double)llen / 7.0);
  P4dRig        far   = p4d_rig_new(P4D_KIND_MOD, l->rate_hz);
  P4dBuffers    f     = p4d_buffers_new(2U * llen);
  mod_loop_params(&far, l);
  p4d_engine_activate_at(far.engine, cross - (int64_t)llen * 3 / 2, l->bpm);
  p4d_rig_render(&far, f.ch, 2U * llen, 4096U);
  for (unsigned ch = 0U; ch < 4U; ++ch) {
    p4d_assert_same("far into the song", f.ch[ch], f.ch[ch] + llen, 0U, llen);
  }
  printf("# 1300 hours into the song (w of octave 0 passing 2^23 cells): every "
         "frame equals the one a loop "
         "(%zu frames) later\n",
         llen);
  p4d_engine_free(far.engine);
  p4d_buffers_free(&f);
}

/**
   A loop that is not a whole number of frames (61061.54 at 44.1 kHz, 130
   bpm, 3 beats) is cut at frames ceil(k L): no step there either.
*/
static void
test_mod_fractional_seams(void)
{
  const Case   c   = { 3.0f, 0.7f, 1.7f, 5.5f, 44100.0, 130.0 };
  const double len = 3.0 * 60.0 * 44100.0 / 130.0;
  const size_t n   = (size_t)(4.0 * len) + 10U;
  P4dRig       rig = p4d_rig_new(P4D_KIND_MOD, c.rate_hz);
  P4dBuffers   b   = p4d_buffers_new(n);
  mod_loop_params(&rig, &c);
  const P4dTransport t = at_beat(0.0, c.bpm);
  p4d_engine_transport(rig.engine, &t);
  p4d_rig_render(&rig, b.ch, n, 256U);

  size_t seams[4];
  for (unsigned k = 0U; k < 4U; ++k) {
    seams[k] = (size_t)ceil((k + 1U) * len);
  }
  double across = 0.0;
  double beside = 0.0;
  double drift  = 0.0;
  for (unsigned ch = 0U; ch < 4U; ++ch) {
    double       near = 0.0;
    const double a    = seam_steps(b.ch[ch], seams, 3U, &near);
    across            = a > across ? a : across;
    beside            = near > beside ? near : beside;
    // Whole frames a loop apart are half a frame off the period at most.
    for (size_t i = 0U; i + seams[2] < n; ++i) {
      const double d = fabs((double)b.ch[ch][i] - (double)b.ch[ch][i + 61062U]);
      drift          = d > drift ? d : drift;
    }
  }
  printf("# 61061.54 frames a loop: step across the seams %.3g, beside "
         "them %.3g; frames 61062 apart differ by %.3g at most\n",
         across,
         beside,
         drift);
  assert(drift < 2.0 * beside);
  p4d_engine_free(rig.engine);
  p4d_buffers_free(&b);
}

/**
   A host that loops the same N beats (relocating from beat N back to
   beat 0 at every turn) plays the same bits as a straight run: the glide
   after each locate mixes two equal signals by the plain law (the voices
   are a whole loop apart, which the correlation estimate knows), so
   nothing bumps at the host's loop point either.
*/
static void
test_mod_host_loop(void)
{
  const Case*  c   = &cases[1];
  const size_t len = loop_frames(c);
  const size_t n   = 3U * len;
  P4dRig       ref = p4d_rig_new(P4D_KIND_MOD, c->rate_hz);
  P4dRig       rig = p4d_rig_new(P4D_KIND_MOD, c->rate_hz);
  P4dBuffers   a   = p4d_buffers_new(n);
  P4dBuffers   b   = p4d_buffers_new(n);
  mod_loop_params(&ref, c);
  mod_loop_params(&rig, c);
  const P4dTransport start = at_beat(0.0, c->bpm);
  p4d_engine_transport(ref.engine, &start);
  p4d_rig_render(&ref, a.ch, n, 480U);
  for (unsigned k = 0U; k < 3U; ++k) {
    // The host's locate back to beat 0 at the top of every loop.
    p4d_engine_transport(rig.engine, &start);
    float* at[4] = {
      b.ch[0] + k * len, b.ch[1] + k * len, b.ch[2] + k * len, b.ch[3] + k * len
    };
    p4d_rig_render(&rig, at, len, 480U);
  }
  for (unsigned ch = 0U; ch < 4U; ++ch) {
    p4d_assert_same("host loop", a.ch[ch], b.ch[ch], 0U, n);
  }
  printf("# a host looping the same 3 beats (a locate to beat 0 every "
         "72000 frames) plays the straight run's bits\n");
  p4d_engine_free(ref.engine);
  p4d_engine_free(rig.engine);
  p4d_buffers_free(&a);
  p4d_buffers_free(&b);
}

/**
   A change that keeps every octave's whole cells per loop (lacunarity 2 to
   2.0001 in a loop of 16 cells: 16, 32, 64 cells either way) plays the
   same signal: the glide knows it (the plain law between equal signals),
   also once the song has passed loops since the old voice began, where
   the new voice's phase is a whole number of loops smaller.  Before, the
   estimate gave 0 and the equal-power law lifted z by up to sqrt 2.
*/
static void
test_mod_same_periods(void)
{
  const double rate  = 48000.0;
  const size_t block = 480U;
  const size_t head  = (size_t)(5.0 * rate); // 2.5 loops of 2 s
  const size_t n     = head + (size_t)(3.0 * rate);
  P4dRig       rig[2];
  P4dBuffers   out[2];
  const Case   c = { 4.0f, 0.25f, 2.0f, 3.0f, rate, 120.0 };
  for (unsigned k = 0U; k < 2U; ++k) {
    rig[k] = p4d_rig_new(P4D_KIND_MOD, rate);
    out[k] = p4d_buffers_new(n);
    mod_loop_params(&rig[k], &c);
    rig[k].params[P4D_MOD_SMOOTH_MS] = 2000.0f;
  }
  // A host's time:Position at every block: the voice that the change
  // starts is anchored there, loops after the first voice's anchor.
  for (size_t at = 0U; at < n; at += block) {
    if (at == head) {
      rig[1].params[P4D_MOD_LACUNARITY] = 2.0001f;
    }
    for (unsigned k = 0U; k < 2U; ++k) {
      const P4dTransport now = {
        true, true, true, true, (int64_t)at, 1.0, (double)at * 2.0 / rate, c.bpm
      };
      float* const ch[4] = { out[k].ch[0] + at,
                             out[k].ch[1] + at,
                             out[k].ch[2] + at,
                             out[k].ch[3] + at };
      p4d_engine_transport(rig[k].engine, &now);
      p4d_engine_process(rig[k].engine, rig[k].params, ch, (uint32_t)block);
    }
  }
  double worst = 0.0;
  for (unsigned ch = 0U; ch < 4U; ++ch) {
    for (size_t i = head; i < n; ++i) {
      const double d = fabs((double)out[1].ch[ch][i] - out[0].ch[ch][i]);
      worst          = d > worst ? d : worst;
    }
  }
  printf("# lacunarity 2 -> 2.0001 in a loop of 16 cells after 2.5 loops "
         "(the same octave periods): largest difference from no change "
         "%.2g over the 2 s glide\n",
         worst);
  assert(worst < 1.0e-4);
  for (unsigned k = 0U; k < 2U; ++k) {
    p4d_engine_free(rig[k].engine);
    p4d_buffers_free(&out[k]);
  }
}

/// With song time or free running, loop_beats changes nothing.
static void
test_mod_loop_needs_beats(void)
{
  const size_t n = 30000U;
  for (int clock = 0; clock < 3; clock += 2) {
    P4dRig     off            = p4d_rig_new(P4D_KIND_MOD, 48000.0);
    P4dRig     on             = p4d_rig_new(P4D_KIND_MOD, 48000.0);
    P4dBuffers a              = p4d_buffers_new(n);
    P4dBuffers b              = p4d_buffers_new(n);
    off.params[P4D_MOD_CLOCK] = on.params[P4D_MOD_CLOCK] = (float)clock;
    on.params[P4D_MOD_LOOP_BEATS]                        = 4.0f;
    p4d_rig_render(&off, a.ch, n, 1000U);
    p4d_rig_render(&on, b.ch, n / 2U, 1000U);
    // Switched on midway: nothing to glide to.
    on.params[P4D_MOD_LOOP_BEATS] = 2.0f;
    float* tail[4]                = {
                     b.ch[0] + n / 2U, b.ch[1] + n / 2U, b.ch[2] + n / 2U, b.ch[3] + n / 2U
    };
    p4d_rig_render(&on, tail, n / 2U, 1000U);
    for (unsigned ch = 0U; ch < 4U; ++ch) {
      p4d_assert_same("loop without beats", a.ch[ch], b.ch[ch], 0U, n);
    }
    p4d_engine_free(off.engine);
    p4d_engine_free(on.engine);
    p4d_buffers_free(&a);
    p4d_buffers_free(&b);
  }
  printf("# song time and free running: loop_beats changes no bit\n");
}

/// The larger step of curve c (n values) beside block s, and assert that
/// the step across s is no larger than 1.5 times it.
static void
assert_no_step(const float* c, size_t n, size_t s)
{
  if (s < 2U || s + 1U >= n) {
    return;
  }
  const double across = fabs((double)c[s] - (double)c[s - 1U]);
  const double before = fabs((double)c[s - 1U] - (double)c[s - 2U]);
  const double after  = fabs((double)c[s + 1U] - (double)c[s]);
  assert(across <= 1.5 * (before > after ? before : after) + 1.0e-4);
}

/**
   Motion in a loop at 48 kHz, 120 bpm, placed at song beat start: what it
   does to each target (gain, pan, cutoff, wobble: its modulation curves)
   at the end of every block equals, bit for bit, what it does a loop
   later, and moves across the cuts of its time line and the song's loop
   points no more than beside them.  Its filters and delay line carry
   audio, which does not repeat, so the audio output is not claimed
   periodic.
*/
static void
test_motion_periodic(float loop_beats, float period_beats, double start)
{
  const double   rate  = 48000.0;
  const uint32_t block = 480U;
  const size_t   len   = (size_t)(loop_beats * 24000.0f);
  const size_t   n     = 3U * len;
  const size_t   n_blk = n / block;
  P4dMotion*     m     = NULL;
  assert(len % block == 0U);
  assert(p4d_motion_new(rate, &m) == P4D_SUCCESS);
  p4d_motion_activate(m);
  const P4dTransport t = at_beat(start, 120.0);
  p4d_motion_transport(m, &t);

  float p[P4D_MAX_PARAMS];
  busy(p);
  p[P4D_MOTION_CLOCK]        = (float)P4D_CLOCK_SONG_BEATS;
  p[P4D_MOTION_PERIOD_BEATS] = period_beats;
  p[P4D_MOTION_LACUNARITY]   = 1.7f;
  p[P4D_MOTION_LOOP_BEATS]   = loop_beats;

  float* const in_l  = malloc(n * sizeof(float));
  float* const in_r  = malloc(n * sizeof(float));
  float* const out_l = malloc(n * sizeof(float));
  float* const out_r = malloc(n * sizeof(float));
  float* const now   = malloc(n_blk * P4D_MOTION_N_NOW * sizeof(float));
  float* const curve = calloc(n_blk, sizeof(float));
  assert(in_l && in_r && out_l && out_r && now && curve);
  noise(in_l, in_r, n, 5U, 0.5);

  for (size_t j = 0U; j < n_blk; ++j) {
    const float* const in[2]  = { in_l + j * block, in_r + j * block };
    float* const       out[2] = { out_l + j * block, out_r + j * block };
    p4d_motion_process(m, p, in, out, now + j * P4D_MOTION_N_NOW, block);
  }

  const size_t per_loop = len / block;
  for (unsigned k = 0U; k < P4D_MOTION_N_NOW; ++k) {
    for (size_t j = 0U; j < n_blk; ++j) {
      curve[j] = now[j * P4D_MOTION_N_NOW + k];
    }
    for (size_t j = per_loop; j + per_loop < n_blk; ++j) {
      assert(p4d_first_difference(&curve[j], &curve[j + per_loop], 1U) == 1U);
    }
    // The cuts (a loop apart from the start) and the song's loop points.
    const double to_loop = fmod(-start, (double)loop_beats);
    const size_t first =
      (size_t)((to_loop < 0.0 ? to_loop + loop_beats : to_loop) * 24000.0 /
               block);
    for (size_t s = per_loop; s < n_blk; s += per_loop) {
      assert_no_step(curve, n_blk, s);
      assert_no_step(curve, n_blk, first + s - per_loop);
    }
  }
  printf("# Motion, loop %g beats at period %g from beat %g: gain, pan, "
         "cutoff and wobble at the end of each of %zu blocks equal those a "
         "loop later, and step across the seams like beside them\n",
         (double)loop_beats,
         (double)period_beats,
         start,
         per_loop);

  p4d_motion_free(m);
  free(in_l);
  free(in_r);
  free(out_l);
  free(out_r);
  free(now);
  free(curve);
}

int
main(void)
{
  test_mod_periodic();
  test_mod_beat_positions();
  test_mod_fractional_seams();
  test_mod_host_loop();
  test_mod_same_periods();
  test_mod_loop_needs_beats();
  test_motion_periodic(2.0f, 0.7f, 0.0);
  test_motion_periodic(1.0f, 5.0f, -3.25);
  test_motion_periodic(4.0f, 1.3f, 17.5);
  return 0;
}
