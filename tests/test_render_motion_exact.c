// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render -i against Perlin4D Motion, bit for bit.

  The written file is compared with the Motion processor run straight
  through in-process, and with the Motion plugin of the built bundle hosted
  through lilv the same way: fed silence, the input, then latency frames of
  silence, the output before the input's first frame dropped, so that
  output frame i lines up with input frame i.  The output at song frame f
  is the processor's at song frame f, fed the input latency frames ahead
  (as Ardour does): the processor runs from 4.5 s before song frame -latency
  (more than its bounded past) against a render from song frame 0, and the
  plugin, from frame 0 without transport, against a render from 4.5 s.  Cases:
  stereo float over two of the renderer's chunks in two jobs, mono FLAC at
  44.1 kHz, an input shorter than the latency, and an automated render in
  one and three jobs (the processor moved on the renderer's grid), and the
  largest wow and flutter at the fastest rates (the read slew-limited) in
  two jobs.

  Usage: test_render_motion_exact PATH_TO_PERLIN4D_RENDER BUNDLE_PATH
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "motion.h"
#include "params.h"

#include "support/cli.h"
#include "support/compare.h"
#include "support/dest.h"
#include "support/files.h"
#include "support/host.h"
#include "support/sound.h"

#include <sndfile.h>

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Frames the test hands the processor and the plugin at once: odd, so
/// that their blocks never line up with the renderer's.
#define TEST_BLOCK 1001U

/// Motion's parameters at their defaults, then sets (SYMBOL=VALUE, NULL-
/// terminated).
static void
motion_params(float* params, const char* const* sets)
{
  const P4dParamTable* table = p4d_params(P4D_KIND_MOTION);
  p4d_param_defaults(table, params);
  for (; sets && *sets; ++sets) {
    char  symbol[32];
    float value = 0.0f;
    p4d_setting_parse(*sets, symbol, &value);
    const int id = p4d_param_find(table, symbol);
    assert(id >= 0);
    params[id] = value;
  }
}

/// Lively settings: every target moving, at a rate that shows in seconds.
static const char* const lively[] = {
  "rate_hz=3",      "gain_db=6",  "pan_depth=0.8",  "filter_mode=1",
  "cutoff_hz=2000", "wow_ms=1.5", "flutter_ms=0.3", "spread=0.7",
  "seed=42",        NULL,
};

// -- What the file must hold -------------------------------------------------

/// A source of stereo blocks, the processor or the plugin: run() turns n
/// frames of in into out.
typedef struct Source Source;
struct Source {
  void (*run)(Source* self, uint32_t n);
  uint32_t block; ///< Frames per run: TEST_BLOCK, or the automation grid
  uint32_t first; ///< Frames of the first run (onto the grid), 0: block
  float    in[2][TEST_BLOCK];
  float    out[2][TEST_BLOCK];
};

/// Silence before the input of a straight run: more than Motion's bounded
/// past (p4d_motion_exact_from(), 3.9 s at most).
#define PAD_S 4.5

/**
   Run a source straight through pad frames of silence, the input and
   latency frames of silence, in blocks of src->block after a first of
   src->first (TEST_BLOCK is odd: it never lines up with the renderer's
   blocks), and return its output from frame pad + latency on,
   interleaved: n frames, what the renderer must write.
*/
static float*
straight_run(Source*      src,
             size_t       pad,
             uint32_t     latency,
             const float* left,
             const float* right,
             size_t       n)
{
  float* const want = (float*)malloc(n * 2U * sizeof(float));
  assert(want);
  const size_t total = pad + n + latency;
  const size_t skip  = pad + latency;
  size_t       m     = src->first ? src->first : src->block;
  for (size_t at = 0U; at < total; at += m, m = src->block) {
    m = total - at < m ? total - at : m;
    for (size_t i = 0U; i < m; ++i) {
      const size_t k = at + i - pad; // wraps before the input: past n
      src->in[0][i]  = at + i >= pad && k < n ? left[k] : 0.0f;
      src->in[1][i]  = at + i >= pad && k < n ? right[k] : 0.0f;
    }
    src->run(src, (uint32_t)m);
    for (size_t i = 0U; i < m; ++i) {
      if (at + i >= skip) {
        want[(at + i - skip) * 2U]      = src->out[0][i];
        want[(at + i - skip) * 2U + 1U] = src->out[1][i];
      }
    }
  }
  return want;
}

/// A lane of --automate: gain_db from 0 at 0 s to 12 at lane_end_s, then
/// 12 (values whose difference is exact in float, so that the order of the
/// operations cannot change a bit).
static const char* const lane_arg   = "gain_db=0:0,1.5:12";
static const double      lane_end_s = 1.5;

typedef struct {
  Source     source; ///< First: a Source* is a Processor*
  P4dMotion* motion;
  float      params[P4D_MAX_PARAMS];
  bool       automated; ///< gain_db follows the lane, set every block
  double     rate;
  int64_t    frame; ///< Song frame of the next block
} Processor;

static void
processor_run(Source* self, uint32_t n)
{
  Processor* const p = (Processor*)self;
  if (p->automated) {
    // As the renderer's plan: linear in song time at each grid point.
    const double t                = (double)p->frame / p->rate;
    const double u                = t < lane_end_s ? t / lane_end_s : 1.0;
    p->params[P4D_MOTION_GAIN_DB] = (float)(0.0 + (12.0 - 0.0) * u);
  }
  p->frame += n;
  const float* const in[2]  = { self->in[0], self->in[1] };
  float* const       out[2] = { self->out[0], self->out[1] };
  float              now[P4D_MOTION_N_NOW];
  p4d_motion_process(p->motion, p->params, in, out, now, n);
}

/// The sample rate of the input name.
static double
input_rate(const char* name)
{
  SF_INFO  info = { 0 };
  SNDFILE* file = sf_open(p4d_work_path(name), SFM_READ, &info);
  assert(file);
  sf_close(file);
  return (double)info.samplerate;
}

/// The processor's output for the input name with sets (and the lane, if
/// automated) at song frames from 0, what a render from song frame 0 must
/// write: run from PAD_S before song frame -latency.
static float*
processor_output(const char*        name,
                 const char* const* sets,
                 bool               automated,
                 size_t*            n)
{
  float* left  = NULL;
  float* right = NULL;
  p4d_sound_read_stereo(name, &left, &right, n);

  Processor* const p = (Processor*)calloc(1U, sizeof(Processor));
  assert(p);
  p->source.run   = processor_run;
  p->source.block = automated ? 64U : TEST_BLOCK;
  p->automated    = automated;
  p->rate         = input_rate(name);
  motion_params(p->params, sets);
  assert(!p4d_motion_new(p->rate, &p->motion));
  const uint32_t latency = p4d_motion_latency(p->motion);
  const size_t   pad     = (size_t)(PAD_S * p->rate);
  p->frame               = -(int64_t)(pad + latency);
  // Blocks on the renderer's automation grid of song frames.
  p->source.first = automated ? (uint32_t)((pad + latency) % 64U) : 0U;
  p4d_motion_activate_at(p->motion, p->frame, 120.0);
  float* const want = straight_run(&p->source, pad, latency, left, right, *n);
  p4d_motion_free(p->motion);
  free(p);
  free(left);
  free(right);
  return want;
}

/**
   The Motion plugin's output for the input name with the preset (a URI,
   or NULL) and sets, hosted through lilv by the tests' host
   (support/host.c) from activate() without transport, in blocks of
   TEST_BLOCK: what a render from song frame PAD_S s must write.  Fed
   silence up to that frame minus the latency it reports, the input, then
   latency frames of silence; its output before that frame dropped.
*/
static float*
plugin_output(const char*        name,
              const char*        preset,
              const char* const* sets,
              size_t*            n)
{
  float* left  = NULL;
  float* right = NULL;
  p4d_sound_read_stereo(name, &left, &right, n);

  P4dHost* const h = p4d_host_new(P4D_HOST_URI_MOTION, input_rate(name), true);
  if (preset) {
    p4d_host_load_preset(h, preset);
  }
  for (; sets && *sets; ++sets) {
    char  symbol[32];
    float value = 0.0f;
    p4d_setting_parse(*sets, symbol, &value);
    p4d_host_set(h, symbol, value);
  }
  // The latency the port reports after a run of 0 frames, as hosts read it.
  p4d_host_activate(h);
  p4d_host_run(h, NULL, 0U, 0U);
  const uint32_t latency = (uint32_t)h->value[h->latency_port];
  printf("# plugin latency %u frames\n", latency);

  const size_t start = (size_t)llround(PAD_S * input_rate(name));
  const size_t pad   = start - latency;
  const size_t total = pad + *n + latency;
  float* const in_l  = p4d_floats_new(total, 0.0f);
  float* const in_r  = p4d_floats_new(total, 0.0f);
  memcpy(in_l + pad, left, *n * sizeof(float));
  memcpy(in_r + pad, right, *n * sizeof(float));
  h->in_sig[0]                     = in_l;
  h->in_sig[1]                     = in_r;
  P4dDest               d          = p4d_dest_new(h, total);
  static const uint32_t pattern[1] = { TEST_BLOCK };
  p4d_host_activate(h);
  p4d_host_render(h, &d, total, pattern, 1U, NULL);
  assert(h->value[h->latency_port] == (float)latency);

  float* const want = (float*)malloc(*n * 2U * sizeof(float));
  assert(want);
  for (size_t i = 0U; i < *n; ++i) {
    want[i * 2U]      = d.sig[0][start + i];
    want[i * 2U + 1U] = d.sig[1][start + i];
  }
  p4d_dest_free(&d);
  p4d_host_free(h);
  free(in_l);
  free(in_r);
  free(left);
  free(right);
  return want;
}

/// The float WAV out.wav the renderer wrote: check it is stereo at rate
/// with n frames, and compare every sample with want.
static void
check_written(const char* out, const float* want, double rate, size_t n)
{
  SF_INFO      info = { 0 };
  float* const got  = p4d_cli_read_frames(out, &info);
  assert(info.channels == 2 && info.samplerate == (int)rate);
  assert(info.frames == (sf_count_t)n);
  assert(info.format == (SF_FORMAT_WAV | SF_FORMAT_FLOAT));
  p4d_assert_same(out, got, want, 0U, n * 2U);
  free(got);
}

/// Render input to out.wav with sets and extra arguments (NULL-terminated).
static void
render(const char* input, const char* const* sets, const char* const* extra)
{
  const char* args[P4D_PROC_MAX_ARGS + 1];
  size_t      k = 0U;
  args[k++]     = "-i";
  args[k++]     = input;
  args[k++]     = "-o";
  args[k++]     = "out.wav";
  args[k++]     = "--force";
  for (; sets && *sets; ++sets) {
    args[k++] = "--set";
    args[k++] = *sets;
  }
  for (; extra && *extra; ++extra) {
    args[k++] = *extra;
  }
  args[k] = NULL;
  assert(k <= P4D_PROC_MAX_ARGS);
  p4d_cli_ok(args, NULL);
}

// -- The cases ---------------------------------------------------------------

/// Render name with controls in 2 jobs and check that out.wav equals the
/// processor's straight run; the frames compared.
static size_t
two_jobs_match_processor(const char*        name,
                         const char* const* controls,
                         double             rate)
{
  static const char* const two_jobs[] = { "--jobs", "2", NULL };
  render(name, controls, two_jobs);
  size_t       n    = 0U;
  float* const want = processor_output(name, controls, false, &n);
  check_written("out.wav", want, rate, n);
  free(want);
  return n;
}

/**
   The file equals the processor's straight run, and the plugin's: stereo
   float at 48 kHz over two chunks of the renderer in 2 jobs; mono FLAC at
   44.1 kHz; an input shorter than the latency.
*/
static void
test_exact(void)
{
  static const char* const from_pad[] = {
    "--jobs", "2", "--start", "4.5", NULL
  };
  const struct {
    const char* name;
    int         format;
    int         n_channels;
    int         rate;
    int64_t     n_frames;
  } cases[] = {
    { "st.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 48000, 336000 },
    { "mono.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 1, 44100, 88200 },
    { "tiny.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_24, 2, 48000, 10 },
  };
  for (size_t c = 0U; c < sizeof(cases) / sizeof(cases[0]); ++c) {
    p4d_sound_write(cases[c].name,
                    cases[c].format,
                    cases[c].n_channels,
                    cases[c].rate,
                    cases[c].n_frames);
    size_t n =
      two_jobs_match_processor(cases[c].name, lively, (double)cases[c].rate);
    assert(n == (size_t)cases[c].n_frames);
    printf("# %s: %zu frames equal the processor's straight run\n",
           cases[c].name,
           n);

    render(cases[c].name, lively, from_pad);
    float* const played = plugin_output(cases[c].name, NULL, lively, &n);
    check_written("out.wav", played, cases[c].rate, n);
    printf("# %s: %zu frames equal the plugin's (lilv)\n", cases[c].name, n);
    free(played);
    p4d_work_clear();
  }
}

/// In a loop (song beats, 2 beats at 120 bpm, a period that snaps) over
/// two chunks in 2 jobs: the file equals the processor's straight run and
/// the plugin's.
static void
test_loop(void)
{
  static const char* const looped[] = {
    "rate_hz=3",      "gain_db=6",    "pan_depth=0.8",    "filter_mode=1",
    "cutoff_hz=2000", "wow_ms=1.5",   "flutter_ms=0.3",   "spread=0.7",
    "clock=1",        "loop_beats=2", "period_beats=0.7", NULL,
  };
  p4d_sound_write(
    "loop.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 48000, 336000);
  size_t n = two_jobs_match_processor("loop.wav", looped, 48000.0);
  static const char* const from_pad[] = {
    "--jobs", "2", "--start", "4.5", NULL
  };
  render("loop.wav", looped, from_pad);
  float* const played = plugin_output("loop.wav", NULL, looped, &n);
  check_written("out.wav", played, 48000.0, n);
  free(played);
  printf("# loop_beats=2 (song beats), 2 jobs: %zu frames equal the "
         "processor's straight run and the plugin's\n",
         n);
  p4d_work_clear();
}

/// At the largest wow and flutter and the fastest rates, where the slew
/// limiter holds the read's speed (issue 23): two chunks in 2 jobs equal
/// the processor's straight run.
static void
test_slewed(void)
{
  static const char* const fast[] = {
    "rate_hz=50", "flutter_ratio=64", "wow_ms=10", "flutter_ms=2", NULL,
  };
  p4d_sound_write(
    "fast.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 48000, 336000);
  const size_t n = two_jobs_match_processor("fast.wav", fast, 48000.0);
  printf("# wow 10 + flutter 2 ms at 50 Hz x 64 (the read slew-limited), 2 "
         "jobs: %zu frames equal the processor's straight run\n",
         n);
  p4d_work_clear();
}

/// Every Motion preset of the bundle, by its short name, equals the plugin
/// with the preset restored through lilv_state.
static void
test_presets(void)
{
  static const char* const names[] = {
    "tape-wow-flutter",  "warped-vinyl",      "drifting-auto-pan",
    "breathing-tremolo", "slow-filter-drift", "underwater",
    "pulse-per-beat",
  };
  p4d_sound_write("p.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_24, 2, 44100, 100000);
  for (size_t i = 0U; i < sizeof(names) / sizeof(names[0]); ++i) {
    char uri[96];
    snprintf(uri, sizeof(uri), "urn:perlin4d:preset:%s", names[i]);
    const char* const extra[] = {
      "--preset", names[i], "--start", "4.5", NULL
    };
    render("p.wav", NULL, extra);
    size_t       n      = 0U;
    float* const played = plugin_output("p.wav", uri, NULL, &n);
    check_written("out.wav", played, 44100.0, n);
    free(played);
  }
  printf("# %zu Motion presets: the file equals the plugin's\n",
         sizeof(names) / sizeof(names[0]));
  p4d_work_clear();
}

/**
   Automated: the file equals the processor run straight through with the
   lane applied on the renderer's grid, for --jobs 1 and 3 (the second and
   third jobs replay the parameters up to their warm-up).
*/
static void
test_automated(void)
{
  p4d_sound_write("auto.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 8000, 600000);
  size_t       n    = 0U;
  float* const want = processor_output("auto.wav", lively, true, &n);
  static const char* const jobs[] = { "1", "3" };
  for (unsigned j = 0U; j < 2U; ++j) {
    const char* const extra[] = {
      "--automate", lane_arg, "--jobs", jobs[j], NULL
    };
    render("auto.wav", lively, extra);
    check_written("out.wav", want, 8000.0, n);
  }
  printf("# automated, --jobs 1 and 3: %zu frames equal the processor's "
         "straight run\n",
         n);
  free(want);
  p4d_work_clear();
}

int
main(int argc, char** argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: %s PERLIN4D_RENDER BUNDLE_PATH\n", argv[0]);
    return 2;
  }
  p4d_cli_open(argv[1], "motion-exact");
  p4d_host_world_open(argv[2]);

  test_exact();
  test_presets();
  test_automated();
  test_loop();
  test_slewed();
  p4d_host_world_close();
  p4d_cli_close();
  return 0;
}
