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
  that does not exist or that may not be written), and standard output.

  Usage: test_render_midi PATH_TO_PERLIN4D_RENDER BUNDLE_PATH
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "render.h"

#include "support/cli.h"
#include "support/files.h"
#include "support/host.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_TRACKS 17U
#define MAX_POINTS 8U

// -- A Standard MIDI File, read from the specification ---------------------

/// A channel message of a track at its absolute tick.
typedef struct {
  int64_t tick;
  uint8_t msg[3];
} Event;

typedef struct {
  unsigned format;
  unsigned n_tracks;
  unsigned division;
  long     uspq;      ///< From FF 51, or -1
  bool     four_four; ///< FF 58 04 02 ..
  char     name[MAX_TRACKS][96];
  int64_t  end[MAX_TRACKS]; ///< Tick of FF 2F
  size_t   n_events[MAX_TRACKS];
  Event*   events[MAX_TRACKS];
} Smf;

static uint32_t
be(const uint8_t* p, unsigned n)
{
  uint32_t v = 0U;
  for (unsigned i = 0U; i < n; ++i) {
    v = (v << 8U) | p[i];
  }
  return v;
}

/// A variable-length quantity at *p (at most 4 bytes), before end.
static uint32_t
vlq(const uint8_t** p, const uint8_t* end)
{
  uint32_t v = 0U;
  for (unsigned i = 0U; i < 4U; ++i) {
    assert(*p < end);
    const uint8_t b = *(*p)++;
    v               = (v << 7U) | (b & 0x7FU);
    if (!(b & 0x80U)) {
      return v;
    }
  }
  assert(!"a variable-length quantity longer than 4 bytes");
  return 0U;
}

static void
read_track(Smf* s, unsigned k, const uint8_t* p, const uint8_t* end)
{
  int64_t tick    = 0;
  uint8_t running = 0U;
  bool    ended   = false;
  s->events[k]    = (Event*)calloc((size_t)(end - p) / 2U + 1U, sizeof(Event));
  assert(s->events[k]);
  while (p < end) {
    assert(!ended); // nothing after the end of the track
    tick += vlq(&p, end);
    uint8_t status = *p;
    if (status & 0x80U) {
      ++p;
    } else {
      assert(running); // running status: the last channel status
      status = running;
    }
    if (status == 0xFFU) {
      const uint8_t  type = *p++;
      const uint32_t len  = vlq(&p, end);
      assert(p + len <= end);
      if (type == 0x03U) {
        assert(len < sizeof(s->name[k]));
        memcpy(s->name[k], p, len);
      } else if (type == 0x51U) {
        assert(len == 3U && k == 0U);
        s->uspq = (long)be(p, 3U);
      } else if (type == 0x58U) {
        assert(len == 4U && k == 0U);
        s->four_four = p[0] == 4U && p[1] == 2U;
      } else if (type == 0x2FU) {
        assert(len == 0U);
        s->end[k] = tick;
        ended     = true;
      }
      p += len;
    } else if (status == 0xF0U || status == 0xF7U) {
      p += vlq(&p, end);
    } else {
      running             = status;
      const unsigned kind = status & 0xF0U;
      assert(kind == 0xB0U || kind == 0xE0U); // what the Mod sends
      assert(p + 2 <= end && p[0] < 128U && p[1] < 128U);
      Event* const ev = &s->events[k][s->n_events[k]++];
      ev->tick        = tick;
      ev->msg[0]      = status;
      ev->msg[1]      = p[0];
      ev->msg[2]      = p[1];
      p += 2;
    }
  }
  assert(ended);
}

static Smf
read_smf(const char* name)
{
  size_t         size  = 0U;
  uint8_t* const bytes = (uint8_t*)p4d_work_read(name, &size);
  Smf            s;
  memset(&s, 0, sizeof(s));
  s.uspq = -1;
  assert(size >= 14U && !memcmp(bytes, "MThd", 4U) && be(bytes + 4, 4U) == 6U);
  s.format   = be(bytes + 8, 2U);
  s.n_tracks = be(bytes + 10, 2U);
  s.division = be(bytes + 12, 2U);
  assert(!(s.division & 0x8000U) && s.n_tracks <= MAX_TRACKS);
  const uint8_t* p = bytes + 14;
  for (unsigned k = 0U; k < s.n_tracks; ++k) {
    assert(p + 8 <= bytes + size && !memcmp(p, "MTrk", 4U));
    const uint32_t len = be(p + 4, 4U);
    assert(p + 8 + len <= bytes + size);
    read_track(&s, k, p + 8, p + 8 + len);
    p += 8 + len;
  }
  assert(p == bytes + size);
  free(bytes);
  return s;
}

static void
free_smf(Smf* s)
{
  for (unsigned k = 0U; k < MAX_TRACKS; ++k) {
    free(s->events[k]);
  }
}

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

/// An --automate lane as the test reads it, and its value at song time t:
/// the expression plan.c computes (values exact in float).
typedef struct {
  char     symbol[32];
  unsigned n;
  double   time_s[MAX_POINTS];
  float    value[MAX_POINTS];
} Lane;

static void
lane_parse(const char* arg, Lane* lane)
{
  const char* eq = strchr(arg, '=');
  memset(lane, 0, sizeof(*lane));
  memcpy(lane->symbol, arg, (size_t)(eq - arg));
  for (const char* p = eq + 1; *p;) {
    char* end              = NULL;
    lane->time_s[lane->n]  = strtod(p, &end);
    lane->value[lane->n++] = (float)strtod(end + 1, &end);
    p                      = *end ? end + 1 : end;
  }
}

static float
lane_at(const Lane* lane, double t)
{
  if (t <= lane->time_s[0]) {
    return lane->value[0];
  }
  for (unsigned k = 1U; k < lane->n; ++k) {
    if (lane->time_s[k] >= t) {
      const double u =
        (t - lane->time_s[k - 1U]) / (lane->time_s[k] - lane->time_s[k - 1U]);
      return (float)(lane->value[k - 1U] +
                     (lane->value[k] - lane->value[k - 1U]) * u);
    }
  }
  return lane->value[lane->n - 1U];
}

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
  Lane lane;
  if (c->lane) {
    lane_parse(c->lane, &lane);
  }
  P4dHostTransport tr = { true, false, false, c->start_frame, 1.0f, c->bpm };
  p4d_host_activate(h);
  for (size_t done = 0U; done < c->n_frames;) {
    const int64_t song = c->start_frame + (int64_t)done;
    uint32_t      n    = block;
    if (c->lane) {
      // A block within one cell of the grid, the value at its start.
      const int64_t cell = song - song % P4D_AUTOMATION_GRID;
      p4d_host_set(h, lane.symbol, lane_at(&lane, (double)cell / c->rate));
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
compare(const Case* c, const Smf* s, const P4dHost* h, uint32_t block)
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
      const int64_t want = tick_at(&t, e->frame);
      const Event*  got  = j < s->n_events[k] ? &s->events[k][j] : NULL;
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

  Smf         s = read_smf("c.mid");
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
  free_smf(&s);
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
  static const char* const again[]  = { "--plugin",   "mod", "-o", "old.mid",
                                        "--duration", "0.5", NULL };
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

  p4d_host_world_close();
  p4d_cli_close();
  return 0;
}
