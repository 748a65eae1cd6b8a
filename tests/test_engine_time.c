// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The engines' song-locked time model: output as a function of the song
  position, stop and roll, song beats, and renders split anywhere that join
  exactly.
*/

#undef NDEBUG

#include "engine.h"
#include "noise.h"
#include "params.h"

#include "support/compare.h"
#include "support/rig.h"
#include "support/stats.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The Noise's longest warm-up after a relocation (0.4 s of the past at 8
/// frames per frame of output: 2743 frames at 48 kHz) and its 20 ms glide.
#define SETTLE 3744U

static P4dTransport
rolling_at(int64_t frame)
{
  P4dTransport t = { true, true, false, false, frame, 1.0, 0.0, 0.0 };
  return t;
}

static void
test_song_position(void)
{
  const double  rate = 48000.0;
  const size_t  n    = 48000U;
  const int64_t song = 10000000; // about 3.5 minutes in

  for (unsigned kind = 0U; kind < 2U; ++kind) {
    // The reference: playback starting at the song position.
    P4dRig       ref = p4d_rig_new((P4dKind)kind, rate);
    P4dBuffers   a   = p4d_buffers_new(3U * n);
    P4dTransport at  = rolling_at(song);
    p4d_engine_transport(ref.engine, &at);
    p4d_rig_render(&ref, a.ch, 3U * n, 256U);

    // Another playback elsewhere, then a locate to the same position: after
    // the glide the output is the same, bit for bit (Noise warms its
    // high-pass up from the new position's past first: both runs are exact
    // from the end of that warm-up and the glide on).
    P4dRig       rig   = p4d_rig_new((P4dKind)kind, rate);
    P4dBuffers   b     = p4d_buffers_new(3U * n);
    P4dTransport other = rolling_at(77777);
    p4d_engine_transport(rig.engine, &other);
    p4d_rig_render(&rig, b.ch, 5000U, 100U);
    p4d_engine_transport(rig.engine, &at);
    p4d_rig_render(&rig, b.ch, 3U * n, 100U);

    // The Mod's 20 ms glide; the Noise's warm-up (at most 0.4 s of the past
    // at 8 frames per frame) and its glide.
    const size_t settled = kind == P4D_KIND_NOISE ? SETTLE : 960U;
    for (unsigned c = 0U; c < ref.n_channels; ++c) {
      assert(p4d_first_difference(a.ch[c], b.ch[c], settled) < settled);
      p4d_assert_same("relocated", a.ch[c], b.ch[c], settled, 3U * n);
    }

    // Without transport, time counts frames from activation: the same as
    // a song played from frame 0.
    P4dRig       zero = p4d_rig_new((P4dKind)kind, rate);
    P4dRig       free = p4d_rig_new((P4dKind)kind, rate);
    P4dTransport at0  = rolling_at(0);
    p4d_engine_transport(zero.engine, &at0);
    p4d_rig_render(&zero, a.ch, n, 333U);
    p4d_rig_render(&free, b.ch, n, 4096U);
    for (unsigned c = 0U; c < ref.n_channels; ++c) {
      p4d_assert_same("from frame 0", a.ch[c], b.ch[c], 0U, n);
    }

    p4d_engine_free(ref.engine);
    p4d_engine_free(rig.engine);
    p4d_engine_free(zero.engine);
    p4d_engine_free(free.engine);
    p4d_buffers_free(&a);
    p4d_buffers_free(&b);
  }
  printf("# a locate to the same song position gives the same output after "
         "the 20 ms glide (Mod) or the warm-up and the glide, %u frames "
         "(Noise)\n",
         SETTLE);
}

/// A playback that starts at a song position is the same bits as a straight
/// run from frame 0 through it: from its first frame (Mod), or once the
/// Noise's high-pass has warmed up from the position's past and glided in.
static void
test_start_equals_straight_run(void)
{
  const double  rate = 48000.0;
  const int64_t song = 250007; // 5.2 s, more than the high-pass window
  const size_t  n    = 24000U;

  for (unsigned kind = 0U; kind < 2U; ++kind) {
    P4dRig     straight = p4d_rig_new((P4dKind)kind, rate);
    P4dBuffers a        = p4d_buffers_new((size_t)song + n);
    p4d_rig_render(&straight, a.ch, (size_t)song + n, 512U);

    P4dRig       start = p4d_rig_new((P4dKind)kind, rate);
    P4dBuffers   b     = p4d_buffers_new(n);
    P4dTransport at    = rolling_at(song);
    p4d_engine_transport(start.engine, &at);
    p4d_rig_render(&start, b.ch, n, 333U);
    const size_t from = kind == P4D_KIND_NOISE ? SETTLE : 0U;
    for (unsigned c = 0U; c < start.n_channels; ++c) {
      p4d_assert_same(
        "start at a song position", a.ch[c] + song, b.ch[c], from, n);
    }

    p4d_engine_free(straight.engine);
    p4d_engine_free(start.engine);
    p4d_buffers_free(&a);
    p4d_buffers_free(&b);
  }
  printf("# playback from song frame 250007 equals a straight run from 0, "
         "from its first frame (Mod) or from frame %u (Noise)\n",
         SETTLE);
}

static void
test_stop_and_roll(void)
{
  const double rate           = 48000.0;
  const size_t n              = 24000U;
  P4dRig       rig            = p4d_rig_new(P4D_KIND_MOD, rate);
  P4dBuffers   b              = p4d_buffers_new(4U * n);
  rig.params[P4D_MOD_RATE_HZ] = 2.0f;

  P4dTransport roll = rolling_at(480000);
  p4d_engine_transport(rig.engine, &roll);
  p4d_rig_render(&rig, b.ch, n, 128U);

  // Stopped: the output keeps moving on from where it was, without a jump.
  P4dTransport stop = { true, true, false, false, 480000 + (int64_t)n,
                        0.0,  0.0,  0.0 };
  p4d_engine_transport(rig.engine, &stop);
  p4d_rig_render(&rig, b.ch, 2U * n, 128U);
  const double moving_step = p4d_largest_step(b.ch[0], 0U, n);
  assert(p4d_largest_step(b.ch[0], n - 1U, n + 1U) <= 2.0 * moving_step);
  float lo = 2.0f;
  float hi = -2.0f;
  for (size_t i = n; i < 2U * n; ++i) {
    lo = b.ch[0][i] < lo ? b.ch[0][i] : lo;
    hi = b.ch[0][i] > hi ? b.ch[0][i] : hi;
  }
  printf("# stopped for 0.5 s: out_1 moves over %.4f\n", hi - lo);
  assert(hi - lo > 0.01f);

  // Rolling again re-locks to the song with an equal-power glide of z,
  // never a jump larger than the glide allows: the quintic's steepest slope
  // (15/8 per 960 frames) times equal power's (pi/2 sqrt(z_old^2 +
  // z_new^2) <= pi/2 sqrt(2) z_max) times Phi's (1 / sqrt(2 pi)) over the
  // range 1.  |noise| <= 1, so |z| is at most the sum of the octaves'
  // weights over the standard deviation of their sum: at the defaults (3
  // octaves, persistence 0.5) 1.75 / (P4D_NOISE_STD sqrt(1.3125)) = 7.09.
  p4d_engine_transport(rig.engine, &roll);
  float* tail[P4D_MAX_CHANNELS];
  for (unsigned c = 0U; c < 4U; ++c) {
    tail[c] = b.ch[c] + 2U * n;
  }
  p4d_rig_render(&rig, tail, 2U * n, 128U);
  const double glide_step =
    p4d_largest_step(b.ch[0], 2U * n - 1U, 2U * n + 960U);
  const double z_max       = 1.75 / ((double)P4D_NOISE_STD * sqrt(1.3125));
  const double glide_bound = 15.0 / 8.0 * 1.5707963 * (z_max * sqrt(2.0)) /
                             sqrt(2.0 * 3.14159265) / 960.0;
  printf("# rolling again: largest step in the glide %.3g (bound %.3g at "
         "|z| <= %.2f), moving %.3g\n",
         glide_step,
         glide_bound,
         z_max,
         moving_step);
  assert(glide_step <= glide_bound + 2.0 * moving_step);

  // After the glide it is the song's output at that position.
  P4dRig     fresh              = p4d_rig_new(P4D_KIND_MOD, rate);
  P4dBuffers f                  = p4d_buffers_new(2U * n);
  fresh.params[P4D_MOD_RATE_HZ] = 2.0f;
  p4d_engine_transport(fresh.engine, &roll);
  p4d_rig_render(&fresh, f.ch, 2U * n, 1000U);
  p4d_assert_same("after the glide", f.ch[0], b.ch[0] + 2U * n, 960U, 2U * n);

  p4d_engine_free(rig.engine);
  p4d_engine_free(fresh.engine);
  p4d_buffers_free(&b);
  p4d_buffers_free(&f);
}

static void
test_beats(void)
{
  // Clock 1: the phase follows the song's beats; a tempo change bends the
  // signal without a glide or a jump.
  const double rate                = 48000.0;
  const size_t n                   = 48000U;
  P4dRig       rig                 = p4d_rig_new(P4D_KIND_MOD, rate);
  P4dBuffers   b                   = p4d_buffers_new(2U * n);
  rig.params[P4D_MOD_CLOCK]        = 1.0f;
  rig.params[P4D_MOD_PERIOD_BEATS] = 1.0f;

  P4dTransport t = { true, true, true, true, 0, 1.0, 64.0, 120.0 };
  p4d_engine_transport(rig.engine, &t);
  p4d_rig_render(&rig, b.ch, n, 256U);

  t = (P4dTransport){ true, true, true, true, (int64_t)n, 1.0, 66.0, 240.0 };
  p4d_engine_transport(rig.engine, &t);
  float* tail[P4D_MAX_CHANNELS];
  for (unsigned c = 0U; c < 4U; ++c) {
    tail[c] = b.ch[c] + n;
  }
  p4d_rig_render(&rig, tail, n, 256U);

  const double before = p4d_largest_step(b.ch[0], 0U, n);
  const double after  = p4d_largest_step(b.ch[0], n, 2U * n);
  const double join   = p4d_largest_step(b.ch[0], n - 1U, n + 1U);
  printf("# beats: step %.3g at 120 bpm, %.3g at 240 bpm, %.3g at the change\n",
         before,
         after,
         join);
  assert(after > 1.5 * before); // twice the tempo, about twice as fast
  assert(join <= 2.0 * after);

  // The same beat position gives the same phase whatever the tempo was.
  P4dRig     other                   = p4d_rig_new(P4D_KIND_MOD, rate);
  P4dBuffers o                       = p4d_buffers_new(n);
  other.params[P4D_MOD_CLOCK]        = 1.0f;
  other.params[P4D_MOD_PERIOD_BEATS] = 1.0f;
  P4dTransport same = { true, true, true, true, 999, 1.0, 66.0, 240.0 };
  p4d_engine_transport(other.engine, &same);
  p4d_rig_render(&other, o.ch, 100U, 100U);
  assert(fabsf(o.ch[0][0] - b.ch[0][n]) < 1.0e-5f);

  p4d_engine_free(rig.engine);
  p4d_engine_free(other.engine);
  p4d_buffers_free(&b);
  p4d_buffers_free(&o);
}

/// Set the morph_x parameter of kind along a slow ramp at song frame f.
static void
automate(P4dRig* rig, int64_t f)
{
  const unsigned morph =
    rig->kind == P4D_KIND_MOD ? P4D_MOD_MORPH_X : P4D_NOISE_MORPH_X;
  rig->params[morph] = (float)(0.25 * sin((double)f / 20000.0));
}

/// Render [from, to) of a song whose morph_x is automated every 64 frames,
/// starting the engine at exact_from(from) after replaying the parameters.
static void
render_song(P4dKind kind, int64_t from, int64_t to, float* out[])
{
  P4dRig rig = p4d_rig_new(kind, 48000.0);
  p4d_engine_activate_at(rig.engine, 0, 120.0);
  const int64_t warm = p4d_engine_exact_from(rig.engine, from, NULL);

  float*       scratch[P4D_MAX_CHANNELS];
  static float discard[P4D_MAX_CHANNELS][64];
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    scratch[c] = discard[c];
  }

  for (int64_t f = 0; f < to; f += 64) {
    automate(&rig, f);
    if (f < warm) {
      p4d_engine_process(rig.engine, rig.params, NULL, 64U);
    } else if (f < from) {
      p4d_engine_process(rig.engine, rig.params, scratch, 64U);
    } else {
      float* at[P4D_MAX_CHANNELS];
      for (unsigned c = 0U; c < rig.n_channels; ++c) {
        at[c] = out[c] + (f - from);
      }
      p4d_engine_process(rig.engine, rig.params, at, 64U);
    }
  }
  p4d_engine_free(rig.engine);
}

static void
test_split_renders(void)
{
  // A render cut anywhere joins the uncut render exactly: the parameter
  // state is replayed without noise, the noise DC window is warmed up.
  const int64_t n = 120000;
  for (unsigned kind = 0U; kind < 2U; ++kind) {
    P4dBuffers whole = p4d_buffers_new((size_t)n);
    P4dBuffers part  = p4d_buffers_new((size_t)n);
    render_song((P4dKind)kind, 0, n, whole.ch);

    static const int64_t cuts[] = { 64, 14400, 28800, 100032 };
    for (size_t i = 0U; i < sizeof(cuts) / sizeof(cuts[0]); ++i) {
      render_song((P4dKind)kind, cuts[i], n, part.ch);
      for (unsigned c = 0U; c < p4d_engine_channels((P4dKind)kind); ++c) {
        p4d_assert_same("split render",
                        whole.ch[c] + cuts[i],
                        part.ch[c],
                        0U,
                        (size_t)(n - cuts[i]));
      }
    }
    p4d_buffers_free(&whole);
    p4d_buffers_free(&part);
  }
  printf("# split renders join the whole render bit for bit\n");

  // The warm-up is needed: without it the noise differs after the cut.
  P4dRig     cold  = p4d_rig_new(P4D_KIND_NOISE, 48000.0);
  P4dBuffers whole = p4d_buffers_new((size_t)n);
  P4dBuffers part  = p4d_buffers_new((size_t)n);
  render_song(P4D_KIND_NOISE, 0, n, whole.ch);
  p4d_engine_activate_at(cold.engine, 100032, 120.0);
  for (int64_t f = 100032; f < n; f += 64) {
    automate(&cold, f);
    float* at[P4D_MAX_CHANNELS] = { part.ch[0] + (f - 100032),
                                    part.ch[1] + (f - 100032) };
    p4d_engine_process(cold.engine, cold.params, at, 64U);
  }
  const size_t n_after = (size_t)(n - 100032);
  assert(p4d_first_difference(whole.ch[0] + 100032, part.ch[0], n_after) <
         n_after);
  p4d_engine_free(cold.engine);
  p4d_buffers_free(&whole);
  p4d_buffers_free(&part);
}

/// Render [from, to) of the Noise, params held, started at start.
static void
render_held(P4dRig* rig, int64_t start, int64_t from, int64_t to, float* out[])
{
  float*       at[P4D_MAX_CHANNELS];
  static float discard[P4D_MAX_CHANNELS][64];
  p4d_engine_activate_at(rig->engine, start, 120.0);
  for (int64_t f = start; f < to;) {
    const int64_t stop = f < from ? from : to;
    const int64_t end  = stop - f < 64 ? stop : f + 64;
    for (unsigned c = 0U; c < rig->n_channels; ++c) {
      at[c] = f < from ? discard[c] : out[c] + (f - from);
    }
    p4d_engine_process(rig->engine, rig->params, at, (uint32_t)(end - f));
    f = end;
  }
}

static void
test_held_warm_up(void)
{
  // Told the parameters it will hold, a Noise that does not loop warms up
  // from at most 0.4 s back (4 filters of Q = 0.1 s), as before loops
  // existed; a looped one from as far back as its loop's filters reach.
  // Either way the render joins a straight run from song frame 0.
  const int64_t      n       = 9600;
  static const float loops[] = { 0.0F, 4.0F, 0.75F };
  for (size_t l = 0U; l < sizeof(loops) / sizeof(loops[0]); ++l) {
    P4dRig rig                       = p4d_rig_new(P4D_KIND_NOISE, 48000.0);
    rig.params[P4D_NOISE_LOOP_BEATS] = loops[l];
    static const int64_t froms[]     = { 100032, 480017 };
    for (size_t i = 0U; i < sizeof(froms) / sizeof(froms[0]); ++i) {
      const int64_t from  = froms[i];
      P4dBuffers    whole = p4d_buffers_new((size_t)n);
      P4dBuffers    part  = p4d_buffers_new((size_t)n);
      render_held(&rig, 0, from, from + n, whole.ch);
      p4d_engine_activate_at(rig.engine, 0, 120.0);
      const int64_t warm = p4d_engine_exact_from(rig.engine, from, rig.params);
      const int64_t back = from - warm;
      printf("# loop_beats %.2f, from %lld: warm-up %lld frames (%.3f s)\n",
             (double)loops[l],
             (long long)from,
             (long long)back,
             (double)back / 48000.0);
      assert(loops[l] > 0.0F || back <= 19200);
      render_held(&rig, warm, from, from + n, part.ch);
      for (unsigned c = 0U; c < rig.n_channels; ++c) {
        p4d_assert_same("held warm-up", whole.ch[c], part.ch[c], 0U, (size_t)n);
      }
      p4d_buffers_free(&whole);
      p4d_buffers_free(&part);
    }
    p4d_engine_free(rig.engine);
  }
}

int
main(void)
{
  assert(!setvbuf(stdout, NULL, _IOLBF, 0));
  test_song_position();
  test_start_equals_straight_run();
  test_stop_and_roll();
  test_beats();
  test_split_renders();
  test_held_warm_up();
  return 0;
}
