// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render -o FILE.mid against Perlin4D Mod's MIDI output, event for
  event.

  Each case renders a MIDI file, reads it back with the reader below
  (written from the Standard MIDI File 1.0 specification, not from the
  writer), hosts Perlin4D Mod from the built bundle through lilv with the
  same controls (at --start, a rolling time:Position at every block;
  automation moved by the host at every block of the renderer's grid), in
  blocks of several sizes, and requires the same (tick, bytes) sequence on
  every MIDI channel, with the plugin's frames turned into ticks by the
  rule the writer documents:
      uspq = round(60e6 / bpm); D = rate * uspq / 1e6 if whole and in
      96..32767, else 15360; tick = round(f * D * 1e6 / (uspq * rate)),
      a tie up.
  Then refusals (another plugin, --channels, an existing file, a folder
  that does not exist or that may not be written), a file of silent
  channels (a warning), standard output, and in-process the ticks of a
  render of 10^7 s (past 64-bit products, gaps past a delta time).

  Usage: test_render_midi PATH_TO_PERLIN4D_RENDER BUNDLE_PATH
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "options.h"
#include "plan.h"
#include "render.h"
#include "writers.h"

#include "support/cli.h"
#include "support/files.h"
#include "support/host.h"
#include "support/lane.h"
#include "support/smf.h"

#include <assert.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// -- Ticks, by the documented rule -------------------------------------------

typedef struct {
  int64_t  num; ///< D * 1e6
  int64_t  den; ///< uspq * rate
  long     uspq;
  unsigned division;
} Ticks;

static Ticks
ticks_for(double rate, double bpm)
{
  Ticks         t;
  const int64_t r = (int64_t)rate;
  t.uspq          = lround(60.0e6 / bpm);
  t.den           = (int64_t)t.uspq * r;
  t.division =
    t.den % 1000000 == 0 && t.den / 1000000 >= 96 && t.den / 1000000 <= 32767
      ? (unsigned)(t.den / 1000000)
      : 15360U;
  t.num = (int64_t)t.division * 1000000;
  return t;
}

/// The tick of frame f (the test's renders are short: f * num fits).
static int64_t
tick_at(const Ticks* t, int64_t f)
{
  assert(f < INT64_MAX / 2 / t->num);
  return (2 * f * t->num + t->den) / (2 * t->den);
}

// -- The cases ---------------------------------------------------------------

typedef struct {
  const char* name;
  double      rate;
  const char* duration;
  size_t      n_frames;
  const char* start; ///< --start, or NULL
  int64_t     start_frame;
  double      bpm;        ///< --tempo (120: not given)
  const char* sets[10];   ///< SYMBOL=VALUE, NULL-terminated
  const char* lane;       ///< --automate SYMBOL=T:V,..., or NULL
  uint32_t    blocks[5];  ///< Host block sizes, 0-terminated
  size_t      min_events; ///< At least this many (not a trivial match)
} Case;

/// Run the plugin as the case says, in blocks of block frames.
static P4dHost*
play(const Case* c, uint32_t block)
{
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_MOD, c->rate, true);
  for (size_t i = 0U; c->sets[i]; ++i) {
    char  symbol[32];
    float value = 0.0f;
    p4d_setting_parse(c->sets[i], symbol, &value);
    p4d_host_set(h, symbol, value);
  }
  P4dTestLane lane;
  if (c->lane) {
    p4d_lane_parse(c->lane, &lane);
  }
  P4dHostTransport tr = { true, false, false, c->start_frame, 1.0f, c->bpm };
  p4d_host_activate(h);
  for (size_t done = 0U; done < c->n_frames;) {
    const int64_t song = c->start_frame + (int64_t)done;
    uint32_t      n    = block;
    if (c->lane) {
      // A block within one cell of the grid, the value at its start.
      const int64_t cell = song - song % P4D_AUTOMATION_GRID;
      p4d_host_set(h, lane.symbol, p4d_lane_at(&lane, (double)cell / c->rate));
      const int64_t left = cell + P4D_AUTOMATION_GRID - song;
      n                  = (int64_t)n < left ? n : (uint32_t)left;
    }
    n = c->n_frames - done < n ? (uint32_t)(c->n_frames - done) : n;
    if (c->start) {
      p4d_host_send_position(h, 0U, &tr, song);
    }
    p4d_host_run(h, NULL, done, n);
    done += n;
  }
  return h;
}

/// The file's events of MIDI channel ch equal the plugin's, tick for tick.
static size_t
compare(const Case* c, const P4dSmf* s, const P4dHost* h, uint32_t block)
{
  const Ticks t     = ticks_for(c->rate, c->bpm);
  size_t      total = 0U;
  unsigned    k     = 1U; // the file's next track
  for (unsigned ch = 0U; ch < 16U; ++ch) {
    size_t n = 0U;
    for (size_t i = 0U; i < h->n_ccs; ++i) {
      n += (h->ccs[i].status & 0x0FU) == ch;
    }
    if (!n) {
      continue;
    }
    assert(k < s->n_tracks);
    char name[64];
    snprintf(name, sizeof(name), "Perlin4D Mod, MIDI channel %u", ch + 1U);
    assert(!strcmp(s->name[k], name));
    size_t j = 0U;
    for (size_t i = 0U; i < h->n_ccs; ++i) {
      const P4dHostCc* const e = &h->ccs[i];
      if ((e->status & 0x0FU) != ch) {
        continue;
      }
      const int64_t      want = tick_at(&t, e->frame);
      const P4dSmfEvent* got  = j < s->n_events[k] ? &s->events[k][j] : NULL;
      if (!got || got->tick != want || got->msg[0] != e->status ||
          got->msg[1] != e->controller || got->msg[2] != e->value) {
        printf("# %s, blocks of %u: event %zu of channel %u: plugin %02x %u "
               "%u at frame %ld (tick %ld), file %02x %u %u at tick %ld\n",
               c->name,
               block,
               j,
               ch + 1U,
               e->status,
               e->controller,
               e->value,
               (long)e->frame,
               (long)want,
               got ? got->msg[0] : 0U,
               got ? got->msg[1] : 0U,
               got ? got->msg[2] : 0U,
               got ? (long)got->tick : -1L);
      }
      assert(got && got->tick == want && got->msg[0] == e->status &&
             got->msg[1] == e->controller && got->msg[2] == e->value);
      ++j;
    }
    assert(j == s->n_events[k]);
    total += j;
    ++k;
  }
  assert(k == s->n_tracks);
  return total;
}

static void
check_case(const Case* c)
{
  const char* args[P4D_PROC_MAX_ARGS + 1U] = {
    "-o", "c.mid", "--plugin", "mod", "--duration", c->duration, "--quiet"
  };
  size_t n_args = 7U;
  char   rate[32];
  char   bpm[32];
  snprintf(rate, sizeof(rate), "%.0f", c->rate);
  snprintf(bpm, sizeof(bpm), "%.17g", c->bpm);
  args[n_args++] = "--samplerate";
  args[n_args++] = rate;
  args[n_args++] = "--tempo";
  args[n_args++] = bpm;
  if (c->start) {
    args[n_args++] = "--start";
    args[n_args++] = c->start;
  }
  for (size_t i = 0U; c->sets[i]; ++i) {
    args[n_args++] = "--set";
    args[n_args++] = c->sets[i];
  }
  if (c->lane) {
    args[n_args++] = "--automate";
    args[n_args++] = c->lane;
  }
  args[n_args]          = NULL;
  const P4dProcResult r = p4d_cli_run(args, P4D_PROC_PLAIN);
  if (r.status || r.err[0]) {
    printf("# %s: exit %d: %s", c->name, r.status, r.err);
  }
  assert(!r.status && !r.err[0]);

  P4dSmf      s = p4d_smf_read(p4d_work_path("c.mid"));
  const Ticks t = ticks_for(c->rate, c->bpm);
  assert(s.format == 1U && s.division == t.division && s.uspq == t.uspq);
  assert(s.four_four && !strcmp(s.name[0], "Perlin4D Mod"));
  assert(s.n_events[0] == 0U);

  snprintf(p4d_host_case, sizeof(p4d_host_case), "%s", c->name);
  for (const uint32_t* b = c->blocks; *b; ++b) {
    P4dHost* const h = play(c, *b);
    const size_t   n = compare(c, &s, h, *b);
    assert(n >= c->min_events);
    printf("# %s, blocks of %u: %zu events in %u tracks equal the plugin's "
           "(D %u, uspq %ld)\n",
           c->name,
           *b,
           n,
           s.n_tracks,
           s.division,
           s.uspq);
    p4d_host_free(h);
  }
  for (unsigned k = 0U; k < s.n_tracks; ++k) {
    assert(s.end[k] == tick_at(&t, (int64_t)c->n_frames));
  }
  p4d_smf_free(&s);
  p4d_work_clear();
}

static void
test_against_plugin(void)
{
  static const Case cases[] = {
    // 7-bit CCs on several channels, a 14-bit pair, a pitch bend, fast
    // enough that the 5 ms limit and repeat suppression both act.
    { "mixed 48k",
      48000.0,
      "2",
      96000U,
      NULL,
      0,
      120.0,
      { "rate_hz=12",
        "midi_channel=5",
        "cc_1=20",
        "cc_2=74",
        "midi_mode_3=1",
        "cc_3=7",
        "midi_mode_4=2",
        NULL },
      NULL,
      { 64U, 256U, 1000U, 4096U },
      1000U },
    // From 3.25 s into the song, a tempo of its own: D = 15360, rounded.
    { "start 44.1k",
      44100.0,
      "1.5",
      66150U,
      "3.25",
      143325,
      77.3,
      { "rate_hz=30",
        "midi_channel=16",
        "cc_1=1",
        "cc_2=2",
        "cc_3=3",
        "midi_mode_4=1",
        "cc_4=31",
        "spread=1",
        NULL },
      NULL,
      { 333U, 4096U, 0U },
      800U },
    // 96 kHz: D = 15360, a frame is 0.32 ticks; slow: suppression acts.
    { "slow 96k",
      96000.0,
      "2",
      192000U,
      NULL,
      0,
      120.0,
      { "rate_hz=0.5", "midi_mode_1=1", "cc_1=10", "cc_2=11", NULL },
      NULL,
      { 1000U, 0U },
      40U },
    // 96 kHz at 117.1875 bpm (uspq 512000): D = 15360, a frame is 5/16
    // ticks, so every frame 8 past a multiple of 16 is a tie (rounded up).
    { "ties 96k",
      96000.0,
      "1",
      96000U,
      NULL,
      0,
      117.1875,
      { "rate_hz=3", "cc_1=1", "cc_2=2", "cc_3=3", "cc_4=4", NULL },
      NULL,
      { 512U, 0U },
      400U },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    check_case(&cases[i]);
  }
}

/// Automation of MIDI settings: the plugin moved at each grid block.
static void
test_automation(void)
{
  static const Case cases[] = {
    { "automated midi_channel",
      48000.0,
      "1.5",
      72000U,
      "1.5",
      72000,
      120.0,
      { "rate_hz=8", "cc_2=21", "midi_mode_3=2", NULL },
      "midi_channel=1.5:1,2.25:9,3:16",
      { 64U, 16U, 0U },
      300U },
    { "automated cc_1",
      48000.0,
      "1",
      48000U,
      NULL,
      0,
      120.0,
      { "rate_hz=8", "midi_mode_1=1", NULL },
      "cc_1=0:3,1:28",
      { 64U, 0U },
      150U },
    { "automated out_max",
      44100.0,
      "1",
      44100U,
      NULL,
      0,
      120.0,
      { "rate_hz=5", "cc_1=9", "midi_mode_2=2", NULL },
      "out_max=0:1,0.5:0.25,1:0.75",
      { 64U, 0U },
      150U },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    check_case(&cases[i]);
  }
}

// -- Refusals and standard output --------------------------------------------

static void
test_refusals(void)
{
  static const char* const noise[] = {
    "--plugin", "noise", "-o", "x.mid", NULL
  };
  static const char* const fewer[]   = { "--plugin",   "mod", "-o", "x.mid",
                                         "--channels", "2",   NULL };
  static const char* const nowhere[] = {
    "--plugin", "mod", "-o", "no/x.mid", NULL
  };
  p4d_cli_refused(noise,
                  2,
                  "-o 'x.mid': Perlin4D Noise sends no MIDI (a MIDI file "
                  "holds what Perlin4D Mod sends: --plugin mod)",
                  0U);
  p4d_cli_refused(fewer, 2, "-o 'x.mid': a MIDI file holds every channel", 0U);
  p4d_cli_refused(nowhere, 2, "no/x.mid: folder does not exist", 0U);

  // An existing file, kept without --force, replaced with it.
  p4d_work_write("old.mid", "old");
  static const char* const again[]  = { "--plugin",   "mod",   "-o",
                                        "old.mid",    "--set", "cc_1=1",
                                        "--duration", "0.5",   NULL };
  static const char* const forced[] = { "--force", NULL };
  p4d_cli_refused(again, 2, "old.mid: exists", 1U);
  size_t size = 0U;
  char*  text = p4d_work_read("old.mid", &size);
  assert(size == 3U && !strcmp(text, "old"));
  free(text);
  p4d_cli_ok(again, forced);
  text = p4d_work_read("old.mid", &size);
  assert(size > 14U && !memcmp(text, "MThd", 4U));
  free(text);

  // Every channel silent: a file of the tempo track alone, and a warning.
  static const char* const silent[] = { "--plugin",   "mod", "-o", "e.mid",
                                        "--duration", "0.5", NULL };
  const P4dProcResult      w        = p4d_cli_run(silent, P4D_PROC_PLAIN);
  p4d_cli_expect_line(
    &w, 0, "perlin4d-render: warning: e.mid: no MIDI events", "e.mid");
  P4dSmf s = p4d_smf_read(p4d_work_path("e.mid"));
  assert(s.n_tracks == 1U && s.end[0] == 24000);
  p4d_smf_free(&s);
  p4d_work_clear();

  // A folder it may not write to (as user nobody): exit 1, nothing left.
  assert(!chmod(p4d_work_dir(), 0755));
  assert(!mkdir(p4d_work_path("ro"), 0755));
  assert(!chmod(p4d_work_path("ro"), 0555));
  static const char* const ro[] = { "--plugin",   "mod", "-o", "ro/x.mid",
                                    "--duration", "0.1", NULL };
  p4d_cli_use(p4d_cli_sandbox("bin"));
  const P4dProcResult r = p4d_cli_run(ro, P4D_PROC_AS_NOBODY);
  p4d_cli_use(NULL);
  p4d_cli_expect_line(&r, 1, "perlin4d-render: ro/x.mid: ", "ro/x.mid");
  p4d_cli_expect_names("ro", 0U, "an unwritable folder");
  assert(!chmod(p4d_work_path("ro"), 0755));
  p4d_work_clear();
  assert(!chmod(p4d_work_dir(), 0700));
  printf("# refusals: other plugins, --channels, an existing file, a "
         "missing or unwritable folder: one line, nothing left\n");
}

/// "-o -" writes the same bytes as a file.
static void
test_stream(void)
{
  static const char* const file[] = { "--plugin", "mod",        "-o",
                                      "f.mid",    "--duration", "1",
                                      "--set",    "rate_hz=9",  "--set",
                                      "cc_1=1",   NULL };
  static const char* const pipe[] = {
    "--plugin", "mod",   "-o",        "-",     "--format", "midi", "--duration",
    "1",        "--set", "rate_hz=9", "--set", "cc_1=1",   NULL
  };
  p4d_cli_ok(file, NULL);
  const P4dCliStart   how = { NULL, false, false, 0L };
  const P4dProcResult r   = p4d_cli_run_as(&how, pipe);
  assert(!r.status && !r.err[0] && r.out_all);
  size_t size = 0U;
  char*  text = p4d_work_read("f.mid", &size);
  assert(size > 100U && r.out_len == size && !memcmp(text, r.out_all, size));
  printf("# -o - --format midi: the file's %zu bytes\n", size);
  free(text);
  free(r.out_all);
  p4d_work_clear();
}

// -- Far from the start, in-process ------------------------------------------

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 Wide;

/// The documented rule in 128 bits.
static int64_t
tick_wide(const Ticks* t, int64_t f)
{
  const Wide twice = (Wide)2U * (Wide)f * (Wide)t->num + (Wide)t->den;
  return (int64_t)(twice / ((Wide)2U * (Wide)t->den));
}

/**
   The writer handed three frames of a render of 10^7 s at 44.1 kHz and
   77.3 bpm (the others are never read: each frame differs from the last
   sent, which is long enough ago): f * D * 1e6 overflows 64 bits, and the
   gaps, of some 10^11 ticks, are longer than a delta time holds.
*/
static void
test_far(void)
{
  char*           argv[] = { "x",        "--plugin", "mod",    "--samplerate",
                             "44100",    "--tempo",  "77.3",   "--duration",
                             "10000000", "--set",    "cc_1=1", "-o",
                             "far.mid",  NULL };
  P4dOptions      o;
  P4dPlan         plan;
  P4dRenderStatus st;
  memset(&st, 0, sizeof(st));
  p4d_options_init(&o);
  assert(!p4d_options_parse(&o, 13, argv, &st));
  assert(!p4d_plan_make(&plan, &o, argv[0], &st));

  const int     fd   = open(p4d_work_path("far.mid"), O_RDWR | O_CREAT, 0644);
  P4dAtomicFile file = { "far.mid", NULL, NULL, fd, false, false, false };
  P4dWriterInfo info;
  memset(&info, 0, sizeof(info));
  info.n_channels     = 4U;
  info.sample_rate_hz = plan.sample_rate_hz;
  info.n_frames       = plan.n_frames;
  info.plan           = &plan;
  void* w             = NULL;
  assert(fd >= 0 && !p4d_write_midi.open(&w, &info, &file, &st));
  const int64_t at[3]       = { 0, plan.n_frames / 2, plan.n_frames - 1 };
  const float   value[3]    = { 0.25f, 0.5f, 1.0f };
  const int     expected[3] = { 32, 64, 127 };
  for (unsigned i = 0U; i < 3U; ++i) {
    const float frame[4] = { value[i], value[i], value[i], value[i] };
    assert(!p4d_write_midi.write(w, at[i], frame, 1U, &st));
  }
  assert(!p4d_write_midi.finish(w, &st));
  p4d_write_midi.close(w);
  assert(!close(fd));

  P4dSmf      s = p4d_smf_read(p4d_work_path("far.mid"));
  const Ticks t = ticks_for(44100.0, 77.3);
  assert(s.n_tracks == 2U && s.n_events[1] == 3U && s.division == 15360U);
  for (unsigned i = 0U; i < 3U; ++i) {
    assert(s.events[1][i].tick == tick_wide(&t, at[i]));
    assert(s.events[1][i].msg[0] == 0xB0U && s.events[1][i].msg[1] == 1U &&
           s.events[1][i].msg[2] == expected[i]);
  }
  assert(s.end[0] == tick_wide(&t, plan.n_frames));
  assert(s.end[1] == s.end[0] && s.end[0] > ((int64_t)1 << 37));
  printf("# 10^7 s at 44.1 kHz, 77.3 bpm: events at ticks 0, %lld and %lld, "
         "the end at %lld, exact\n",
         (long long)s.events[1][1].tick,
         (long long)s.events[1][2].tick,
         (long long)s.end[1]);
  p4d_smf_free(&s);
  p4d_plan_free(&plan);
  p4d_work_clear();
}
#else
static void
test_far(void)
{
  printf("# no 128-bit integers: far ticks not checked\n");
}
#endif

int
main(int argc, char** argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: %s PERLIN4D_RENDER BUNDLE_PATH\n", argv[0]);
    return 2;
  }
  p4d_cli_open(argv[1], "midi");
  p4d_host_world_open(argv[2]);

  test_against_plugin();
  test_automation();
  test_refusals();
  test_stream();
  test_far();

  p4d_host_world_close();
  p4d_cli_close();
  return 0;
}
