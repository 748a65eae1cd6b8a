// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The inline display's insides (display.c is included, to reach its
  seqlock and its drawing helpers):

  - the seqlock under stress: a writer thread publishes snapshots whose
    every word says the same number k (the controls k, each engine's song
    frame, beat and tempo k) as fast as it can, while the reader copies
    snapshots and checks that each copy is one snapshot, not two mixed
    (with the sequence checks taken out, most copies are mixed);
  - a sequence that wraps to 0 still publishes;
  - the widest image is P4D_DISPLAY_MAX_W, whatever the host offers;
  - the playhead's column is where the offset is 0; at odd sizes every
    buffer is aligned to its type;
  - the window follows the rate;
  - Motion's cutoff_now reads the cutoff control while the filter is off;
  - which columns get their inner samples (a straight curve's do not, a
    peak's and dense cycles' do); the Noise's kept backdrop is redrawn
    when a control or the size moves;
  - draws: a song clock with the transport stopped queues none, a
    free-running clock (whose picture moves) queues them at the frame rate.
*/

#undef NDEBUG

#include "display.c" // NOLINT(bugprone-suspicious-include): its insides

#include "motion.h"
#include "support/basics.h"

#include <assert.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

/// The stress: reads for STRESS_MIN_S seconds, on until the reader has seen
/// STRESS_NEW new snapshots; after STRESS_SOFT_S seconds (a busy machine,
/// where the writer waits for a core), on until it has seen STRESS_SEEN,
/// however long that takes (STRESS_HARD_S only ends a writer that never
/// runs).  What passes is counted in snapshots, never in seconds.
#define STRESS_MIN_S 0.2
#define STRESS_SOFT_S 1.0
#define STRESS_HARD_S 120.0
#define STRESS_NEW 50000UL
#define STRESS_SEEN 100UL

static P4dDisplay* shared_display;
static atomic_int  stop_writer;

/// A snapshot whose every word says k: a Motion's controls (the clock never
/// Free, so each engine's song frame, beat and tempo are published).
static void
publish_k(P4dDisplay* d, unsigned k)
{
  const float v = (float)(3U + k % 60000U);
  float       params[P4D_MAX_PARAMS];
  P4dPosition at[N_ENGINES] = { { 0 } };
  for (unsigned i = 0U; i < P4D_MAX_PARAMS; ++i) {
    params[i] = v;
  }
  for (unsigned e = 0U; e < N_ENGINES; ++e) {
    at[e].frame = (int64_t)v;
    at[e].beat  = v;
    at[e].bpm   = v;
  }
  (void)publish(d, params, at, 1U);
}

static void*
writer(void* arg)
{
  (void)arg;
  for (unsigned k = 0U; !atomic_load(&stop_writer); ++k) {
    publish_k(shared_display, k);
  }
  return NULL;
}

/// Whether the copy render() holds is one snapshot: every word says the
/// same number.
static bool
consistent(const P4dDisplay* d)
{
  const Snapshot* const s = &d->seen;
  const float           k = s->params[0];
  for (uint32_t i = 0U; i < d->n_params; ++i) {
    if (s->params[i] != k) {
      return false;
    }
  }
  for (unsigned e = 0U; e < N_ENGINES; ++e) {
    if (s->at[e].frame != (int64_t)k || s->at[e].beat != k ||
        s->at[e].bpm != k) {
      return false;
    }
  }
  return true;
}

static void
test_seqlock(void)
{
  P4dDisplay* const d =
    p4d_display_new(p4d_kind_by_plugin(P4D_PLUGIN_MOTION), 48000.0);
  assert(d);
  publish_k(d, 0U);
  read_snapshot(d); // a first copy, before the writer runs
  assert(consistent(d));
  shared_display = d;
  atomic_store(&stop_writer, 0);
  static pthread_t thread;
  assert(pthread_create(&thread, NULL, writer, NULL) == 0);

  unsigned long reads = 0UL;
  unsigned long mixed = 0UL;
  unsigned long moved = 0UL;
  float         last  = d->seen.params[0];
  const double  t0    = p4d_now_s();
  for (;; ++reads) {
    if ((reads & 1023UL) == 0UL) {
      // On a busy machine the two threads may share a core: let the
      // writer in now and then.
      (void)sched_yield();
      const double t = p4d_now_s() - t0;
      if ((t > STRESS_MIN_S && moved >= STRESS_NEW) ||
          (t > STRESS_SOFT_S && moved >= STRESS_SEEN) || t > STRESS_HARD_S) {
        break;
      }
    }
    read_snapshot(d);
    mixed += consistent(d) ? 0UL : 1UL;
    moved += d->seen.params[0] != last ? 1UL : 0UL;
    last = d->seen.params[0];
  }
  atomic_store(&stop_writer, 1);
  assert(pthread_join(thread, NULL) == 0);

  printf("# seqlock: %lu reads in %.2f s, %lu saw a new snapshot, %lu "
         "mixed\n",
         reads,
         p4d_now_s() - t0,
         moved,
         mixed);
  (void)fflush(stdout); // the figures before any failed assertion
  assert(mixed == 0UL);
  // The reader did see the writer move (on a busy machine the threads
  // seldom run at once: then it reads on until it has seen it often).
  assert(moved >= 10UL);
  p4d_display_free(d);
}

/// The sequence wraps after 2^31 publications (some weeks of small blocks):
/// the snapshot published as it wraps to 0 is read like any other.
static void
test_wrap(void)
{
  P4dDisplay* const d =
    p4d_display_new(p4d_kind_by_plugin(P4D_PLUGIN_MOTION), 48000.0);
  assert(d);
  atomic_store(&d->seq, UINT_MAX - 1U);
  publish_k(d, 7U);
  assert(atomic_load(&d->seq) == 0U);
  read_snapshot(d);
  printf("# sequence wrapped to 0: the copy reads %g (published 10)\n",
         (double)d->seen.params[0]);
  assert(d->seen.params[0] == 10.0f && consistent(d));
  p4d_display_free(d);
}

static void
test_sizes(void)
{
  P4dDisplay* const d =
    p4d_display_new(p4d_kind_by_plugin(P4D_PLUGIN_MOD), 48000.0);
  assert(d);
  const P4dIdpySurface* s = p4d_display_render(d, 8192U, 8192U);
  assert(s);
  printf("# 8192 x 8192 offered: %d x %d drawn, %u pixels held\n",
         s->width,
         s->height,
         d->capacity_px);
  assert(s->width == (int)P4D_DISPLAY_MAX_W);
  assert(s->height == (int)P4D_DISPLAY_MAX_W / 2);
  assert(d->capacity_px <= P4D_DISPLAY_MAX_W * P4D_DISPLAY_MAX_W / 2U);
  s = p4d_display_render(d, 300U, 100U);
  assert(s && s->width == 300 && s->height == 100);

  for (uint32_t w = 8U; w <= P4D_DISPLAY_MAX_W; w += 37U) {
    const double head = p4d_display_head(w);
    assert(p4d_display_offset(8.0, w, head, 48000.0) == 0);
    assert(p4d_display_offset(8.0, w, head + 1.0, 48000.0) > 0);
    assert(p4d_display_offset(8.0, w, head - 0.25, 48000.0) < 0);
  }

  // Odd sizes (odd numbers of pixels): every buffer stays aligned to its
  // type (the offsets were 4-byte aligned behind the pixels: UBSan).
  static const uint32_t odd[][2] = { { 91U, 45U }, { 89U, 50U }, { 33U, 13U } };
  for (size_t i = 0U; i < sizeof(odd) / sizeof(odd[0]); ++i) {
    s = p4d_display_render(d, odd[i][0], odd[i][1]);
    assert(s && ((uintptr_t)d->offsets % _Alignof(int64_t)) == 0U);
    assert(((uintptr_t)d->values % _Alignof(float)) == 0U);
    assert(((uintptr_t)d->pixels % _Alignof(uint32_t)) == 0U);
  }
  printf("# odd sizes 91x45, 89x50, 33x13: offsets, values, pixels aligned\n");
  p4d_display_free(d);
}

/**
   The window follows the rate (display.h): P4D_DISPLAY_CYCLES periods of
   the slowest octave within P4D_DISPLAY_MIN_S to P4D_DISPLAY_MAX_S, in
   beats on a song beats clock; the Noise's by its gusts.
*/
static void
test_span(void)
{
  const P4dKindClass* const mod = p4d_kind_by_plugin(P4D_PLUGIN_MOD);
  float                     p[P4D_MAX_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_MOD), p);
  const double at_default = p4d_display_span(mod, p, 120.0);
  p[P4D_MOD_RATE_HZ]      = 8.0f; // Nervous jitter
  const double nervous    = p4d_display_span(mod, p, 120.0);
  p[P4D_MOD_RATE_HZ]      = 50.0f;
  const double fastest    = p4d_display_span(mod, p, 120.0);
  p[P4D_MOD_RATE_HZ]      = 0.001f;
  const double slowest    = p4d_display_span(mod, p, 120.0);
  p[P4D_MOD_RATE_HZ]      = 0.0f;
  assert(p4d_display_span(mod, p, 120.0) == P4D_DISPLAY_MAX_S);
  p[P4D_MOD_RATE_HZ] = NAN;
  assert(p4d_display_span(mod, p, 120.0) == P4D_DISPLAY_MAX_S);
  p[P4D_MOD_CLOCK]        = (float)P4D_CLOCK_SONG_BEATS;
  p[P4D_MOD_PERIOD_BEATS] = 2.0f;
  const double beats      = p4d_display_span(mod, p, 90.0);
  printf("# window: Mod defaults %g s, 8 Hz %g s, 50 Hz %g s, 0.001 Hz %g "
         "s, 2 beats at 90 bpm %g s\n",
         at_default,
         nervous,
         fastest,
         slowest,
         beats);
  assert(at_default == P4D_DISPLAY_CYCLES / 0.5);
  assert(fabs(nervous - P4D_DISPLAY_CYCLES / 8.0) < 1e-6);
  assert(fastest == P4D_DISPLAY_MIN_S && slowest == P4D_DISPLAY_MAX_S);
  assert(beats == P4D_DISPLAY_CYCLES * 2.0 * 60.0 / 90.0);

  float n[P4D_MAX_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_NOISE), n);
  n[P4D_NOISE_GUST_HZ] = 2.0f;
  assert(p4d_display_span(p4d_kind_by_plugin(P4D_PLUGIN_NOISE), n, 120.0) ==
         P4D_DISPLAY_CYCLES / 2.0);
}

/// Draws queued over one second of audio in blocks of 256, the engine at
/// song frame frame (moving if rolling) and its free line at index free.
static unsigned
draws_in_second(P4dDisplay* d, const float* params, bool rolling)
{
  unsigned    draws         = 0U;
  P4dPosition at[N_ENGINES] = { { 0 } };
  at[0].bpm                 = 120.0;
  for (int64_t t = 0; t < 48000; t += 256) {
    at[0].frame      = 480000 + (rolling ? t : 0);
    at[0].free_index = 96000 + t; // the free line always runs
    draws += publish(d, params, at, 256U) ? 1U : 0U;
  }
  return draws;
}

static void
test_draws(void)
{
  P4dDisplay* const d =
    p4d_display_new(p4d_kind_by_plugin(P4D_PLUGIN_MOD), 48000.0);
  assert(d);
  float params[P4D_MAX_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_MOD), params);
  params[P4D_MOD_CLOCK]       = (float)P4D_CLOCK_SONG_SECONDS;
  const unsigned song_rolling = draws_in_second(d, params, true);
  const unsigned song_stopped =
    draws_in_second(d, params, false) + draws_in_second(d, params, false);
  params[P4D_MOD_CLOCK]       = (float)P4D_CLOCK_FREE;
  const unsigned free_stopped = draws_in_second(d, params, false);
  printf("# draws per second: song clock rolling %u, stopped %u (over 2 s, "
         "the stop included), free clock stopped %u\n",
         song_rolling,
         song_stopped,
         free_stopped);
  // Blocks of 256 frames round the frame rate down (30 to 26.7).
  assert(song_rolling >= 20U && song_rolling <= (unsigned)P4D_DISPLAY_FPS);
  assert(song_stopped == 1U);
  assert(free_stopped >= 20U && free_stopped <= (unsigned)P4D_DISPLAY_FPS);
  p4d_display_free(d);
}

/**
   Motion's cutoff_now while the filter is off reads its neutral value,
   the cutoff control, as pan_now does for no pan (it moved 1000 to 1776
   Hz); with the filter on it moves.
*/
static void
test_cutoff_now(void)
{
  P4dMotion* m = NULL;
  assert(p4d_motion_new(48000.0, &m) == P4D_SUCCESS);
  float p[P4D_MAX_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_MOTION), p);
  p[P4D_MOTION_RATE_HZ]    = 3.0f;
  p[P4D_MOTION_FILTER_OCT] = 2.0f;
  p[P4D_MOTION_CUTOFF_HZ]  = 1000.0f;
  static float       silence[256];
  static float       l[256];
  static float       r[256];
  const float* const in[2]  = { silence, silence };
  float* const       out[2] = { l, r };
  for (int mode = P4D_MOTION_FILTER_OFF; mode <= P4D_MOTION_FILTER_LOW_PASS;
       ++mode) {
    p[P4D_MOTION_FILTER_MODE] = (float)mode;
    p4d_motion_activate(m);
    double low  = 1e30;
    double high = -1e30;
    for (int b = 0; b < 375; ++b) { // 2 s
      float now[P4D_MOTION_N_NOW] = { 0.0f };
      p4d_motion_process(m, p, in, out, now, 256U);
      const double c = now[P4D_MOTION_NOW_CUTOFF_HZ];
      low            = c < low ? c : low;
      high           = c > high ? c : high;
    }
    printf("# cutoff_now, filter %s: %.1f to %.1f Hz (control 1000 Hz, 2 "
           "octaves)\n",
           mode == P4D_MOTION_FILTER_OFF ? "off" : "low-pass",
           low,
           high);
    if (mode == P4D_MOTION_FILTER_OFF) {
      assert(low == 1000.0 && high == 1000.0);
    } else {
      assert(high - low > 500.0);
    }
  }
  p4d_motion_free(m);
}

/// How many columns of an image w wide bend (mark_bends()).
static uint32_t
count_bends(const P4dDisplay* d, uint32_t w)
{
  uint32_t n = 0U;
  for (uint32_t x = 0U; x < w; ++x) {
    n += d->bends[x] ? 1U : 0U;
  }
  return n;
}

/**
   Which columns get their inner samples: overshoot()'s parabola; a
   straight curve none but the two at either end; a sharp peak inside a
   column that column, and nothing far from it; a zigzag (cycles as dense
   as the columns) every column; a Noise with grit every column (not
   smooth).
*/
static void
test_bends(void)
{
  assert(overshoot(0.0, 0.0, 0.0) == 0.0);
  assert(overshoot(0.0, 1.0, 1.0) == 0.0); // the turn is outside
  assert(fabs(overshoot(0.0, 0.0, -1.0) - 0.125) < 1.0e-12);
  assert(isnan(overshoot(0.0, 0.0, (double)NAN)));

  const uint32_t    w = 40U;
  const uint32_t    h = 20U;
  P4dDisplay* const d =
    p4d_display_new(p4d_kind_by_plugin(P4D_PLUGIN_MOD), 48000.0);
  assert(d && reserve(d, w, h));
  float* rows[N_ROWS];
  for (unsigned k = 0U; k < N_ROWS; ++k) {
    rows[k] = values_row(d, k);
  }
  const P4dPreviewScale scale = {
    0.0, 1.0, 0.5, { true, false, false, false }
  };
  float* const v = rows[0];

  for (uint32_t x = 0U; x <= w; ++x) {
    v[(size_t)x * P4D_DISPLAY_STEPS] = (float)x / (float)w;
  }
  mark_bends(d, w, h, rows, &scale);
  assert(count_bends(d, w) == 4U && d->bends[0] && d->bends[w - 1U]);

  // Its top in the middle of column 20, 0.475 rows above its edges.
  for (uint32_t x = 0U; x <= w; ++x) {
    const float u                    = ((float)x - 20.5f) / 3.0f;
    v[(size_t)x * P4D_DISPLAY_STEPS] = 1.0f - u * u;
  }
  mark_bends(d, w, h, rows, &scale);
  assert(d->bends[20] && !d->bends[10] && !d->bends[30]);
  assert(count_bends(d, w) < w / 2U);

  for (uint32_t x = 0U; x <= w; ++x) {
    v[(size_t)x * P4D_DISPLAY_STEPS] = (float)(x % 2U);
  }
  mark_bends(d, w, h, rows, &scale);
  assert(count_bends(d, w) == w);
  p4d_display_free(d);

  P4dDisplay* const n =
    p4d_display_new(p4d_kind_by_plugin(P4D_PLUGIN_NOISE), 48000.0);
  assert(n && reserve(n, w, h));
  p4d_param_defaults(p4d_params(P4D_KIND_NOISE), n->seen.params);
  n->seen.params[P4D_NOISE_GRIT] = 0.5f;
  for (unsigned k = 0U; k < N_ROWS; ++k) {
    rows[k] = values_row(n, k);
  }
  for (uint32_t x = 0U; x <= w; ++x) {
    rows[0][(size_t)x * P4D_DISPLAY_STEPS] = 0.5f;
  }
  mark_bends(n, w, h, rows, &scale);
  assert(count_bends(n, w) == w);
  p4d_display_free(n);
  printf("# bends: a line 4 columns, a peak its own, a zigzag and grit all\n");
}

/// The pixels of d drawn for params at w by h, into out.
static void
draw_into(P4dDisplay*  d,
          const float* params,
          uint32_t     w,
          uint32_t     h,
          uint32_t*    out)
{
  P4dPosition at[N_ENGINES] = { { 0 } };
  at[0].bpm                 = 120.0;
  at[0].frame               = 480000;
  (void)publish(d, params, at, 256U);
  const P4dIdpySurface* const s = p4d_display_render(d, w, h);
  assert(s && s->width == (int)w && s->height == (int)h);
  const uint32_t* const px = (const uint32_t*)(const void*)s->data;
  for (size_t i = 0U; i < (size_t)w * h; ++i) {
    out[i] = px[i];
  }
}

/**
   The Noise's backdrop is kept while its controls and size stand still,
   and drawn afresh when either moves: each picture is the one a new
   display draws.
*/
static void
test_backdrop_cache(void)
{
  enum { W = 120, H = 50, PX = W * H };
  static uint32_t a[PX];
  static uint32_t b[PX];
  float           p[P4D_MAX_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_NOISE), p);
  const P4dKindClass* const noise = p4d_kind_by_plugin(P4D_PLUGIN_NOISE);
  P4dDisplay* const         kept  = p4d_display_new(noise, 48000.0);
  assert(kept);
  draw_into(kept, p, W, H, a);
  draw_into(kept, p, W, H, b);
  assert(!memcmp(a, b, sizeof(a)));

  // Each change once to the display that keeps its backdrop, once to a
  // new one.
  static const struct {
    int   param;
    float value;
    int   w;
  } moves[] = {
    { P4D_NOISE_GRAIN_HZ, 300.0f, W },   { P4D_NOISE_GUST_DB, 12.0f, W },
    { P4D_NOISE_OCTAVES, 3.0f, W },      { P4D_NOISE_OCTAVES, 3.0f, W - 20 },
    { P4D_NOISE_GUST_DB, 0.0f, W - 20 },
  };
  for (size_t i = 0U; i < sizeof(moves) / sizeof(moves[0]); ++i) {
    p[moves[i].param]     = moves[i].value;
    const uint32_t w      = (uint32_t)moves[i].w;
    P4dDisplay* const new = p4d_display_new(noise, 48000.0);
    assert(new);
    draw_into(kept, p, w, H, a);
    draw_into(new, p, w, H, b);
    assert(!memcmp(a, b, (size_t)w * H * sizeof(uint32_t)));
    p4d_display_free(new);
  }
  p4d_display_free(kept);
  printf("# the Noise's kept backdrop is redrawn when a control or the "
         "size moves\n");
}

int
main(void)
{
  test_sizes();
  test_span();
  test_cutoff_now();
  test_bends();
  test_backdrop_cache();
  test_wrap();
  test_draws();
  test_seqlock();
  return 0;
}
