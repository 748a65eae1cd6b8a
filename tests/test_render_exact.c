// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render against the plugins, bit for bit.

  Hosts Perlin4D Noise and Perlin4D Mod CV from the built bundle through
  lilv, in-process and without host transport from frame 0, sets their
  control inputs to what the command line sets (or to a preset's values,
  through lilv_state), runs them in blocks, and compares every sample with
  the renderer's float WAV read back with libsndfile: out_l/out_r for
  --plugin noise, cv_1..cv_4 for --plugin mod.  Cases cover two sample
  rates, every shipped preset, automation (the host moves the control at
  the start of each block of the renderer's automation grid) and renders
  longer than a chunk with several jobs.

  Usage: test_render_exact PATH_TO_PERLIN4D_RENDER BUNDLE_PATH
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "engine.h"
#include "params.h"
#include "render.h"

#include "support/cli.h"
#include "support/compare.h"
#include "support/dest.h"
#include "support/files.h"
#include "support/host.h"
#include "support/lane.h"

#include <lilv/lilv.h>
#include <lv2/presets/presets.h>
#include <sndfile.h>

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char       out_path[512];
static LilvWorld* world = NULL;
static LilvNode*  pset_Preset;

// -- The renderer ----------------------------------------------------------

/// Read the float WAV at out_path; check its header and return its frames.
static float*
read_wav(double rate, unsigned n_channels, size_t n_frames)
{
  SF_INFO  info = { 0 };
  SNDFILE* file = sf_open(out_path, SFM_READ, &info);
  assert(file);
  assert(info.format == (SF_FORMAT_WAV | SF_FORMAT_FLOAT));
  assert(info.channels == (int)n_channels);
  assert(info.samplerate == (int)rate);
  assert(info.frames == (sf_count_t)n_frames);

  float* const frames = (float*)malloc(n_frames * n_channels * sizeof(float));
  assert(frames);
  assert(sf_readf_float(file, frames, (sf_count_t)n_frames) ==
         (sf_count_t)n_frames);
  sf_close(file);
  assert(!unlink(out_path));
  return frames;
}

// -- The cases -------------------------------------------------------------

typedef struct {
  const char* name;
  bool        mod;
  uint32_t    block; ///< Host block size without automation
  double      rate;
  const char* duration;   ///< Seconds, as given to --duration
  size_t      n_frames;   ///< The frames that makes at rate
  const char* preset;     ///< A preset's URI, or NULL
  const char* preset_arg; ///< What --preset gets (label, short name, URI)
  const char* sets[6];    ///< SYMBOL=VALUE settings, NULL-terminated
  const char* lane;       ///< An --automate argument, or NULL
  const char* jobs;       ///< --jobs
} Case;

static void
check_case(const Case* c)
{
  // The renderer's command line.
  const char* args[P4D_PROC_MAX_ARGS + 1U] = {
    "-o",         out_path,    "--plugin", c->mod ? "mod" : "noise",
    "--duration", c->duration, "--jobs",   c->jobs ? c->jobs : "2"
  };
  size_t n_args = 8U;
  char   rate_text[32];
  snprintf(rate_text, sizeof(rate_text), "%.0f", c->rate);
  args[n_args++] = "--samplerate";
  args[n_args++] = rate_text;
  if (c->preset) {
    args[n_args++] = "--preset";
    args[n_args++] = c->preset_arg ? c->preset_arg : c->preset;
  }
  for (size_t i = 0U; c->sets[i]; ++i) {
    args[n_args++] = "--set";
    args[n_args++] = c->sets[i];
  }
  if (c->lane) {
    args[n_args++] = "--automate";
    args[n_args++] = c->lane;
  }
  args[n_args] = NULL;

  const P4dProcResult r = p4d_cli_run(args, P4D_PROC_PLAIN);
  if (r.status) {
    printf("# %s: the renderer exited with %d: %s", c->name, r.status, r.err);
  }
  assert(r.status == 0);
  const unsigned n_channels = c->mod ? 4U : 2U;
  float* const   rendered   = read_wav(c->rate, n_channels, c->n_frames);

  // The plugin, from frame 0 without transport, the same controls.
  snprintf(p4d_host_case, sizeof(p4d_host_case), "%s", c->name);
  const uint32_t block = c->lane ? P4D_AUTOMATION_GRID : c->block;
  P4dHost* const h     = p4d_host_new(
    c->mod ? P4D_HOST_URI_MOD_CV : P4D_HOST_URI_NOISE, c->rate, true);
  assert(h->n_signals == n_channels);
  if (c->preset) {
    p4d_host_load_preset(h, c->preset);
  }
  for (size_t i = 0U; c->sets[i]; ++i) {
    char  symbol[32];
    float value = 0.0f;
    p4d_setting_parse(c->sets[i], symbol, &value);
    p4d_host_set(h, symbol, value);
  }
  P4dTestLane lane = { { 0 }, 0U, { 0.0 }, { 0.0f } };
  if (c->lane) {
    p4d_lane_parse(c->lane, &lane);
  }

  P4dDest d = p4d_dest_new(h, c->n_frames);
  p4d_host_activate(h);
  for (size_t done = 0U; done < c->n_frames;) {
    const uint32_t n =
      c->n_frames - done < block ? (uint32_t)(c->n_frames - done) : block;
    if (c->lane) {
      p4d_host_set(h, lane.symbol, p4d_lane_at(&lane, (double)done / c->rate));
    }
    p4d_host_run(h, &d, done, n);
    done += n;
  }
  float* const played =
    (float*)malloc(c->n_frames * n_channels * sizeof(float));
  assert(played);
  for (size_t i = 0U; i < c->n_frames; ++i) {
    for (unsigned ch = 0U; ch < n_channels; ++ch) {
      played[i * n_channels + ch] = d.sig[ch][i];
    }
  }
  p4d_dest_free(&d);

  size_t n_same = 0U;
  for (size_t i = 0U; i < c->n_frames * n_channels; ++i) {
    if (!p4d_same_bits(rendered[i], played[i])) {
      printf("# %s: frame %zu channel %zu: renderer %a, plugin %a\n",
             c->name,
             i / n_channels,
             i % n_channels,
             (double)rendered[i],
             (double)played[i]);
      break;
    }
    ++n_same;
  }

  // Not a trivial agreement: the signal moves.
  size_t n_moves = 0U;
  for (size_t i = n_channels; i < c->n_frames * n_channels; ++i) {
    n_moves += played[i] != played[i - n_channels];
  }

  printf("# %s: %zu frames x %u channels at %.0f Hz compared, %zu samples "
         "equal bit for bit, %zu changes\n",
         c->name,
         c->n_frames,
         n_channels,
         c->rate,
         n_same,
         n_moves);
  assert(n_same == c->n_frames * n_channels);
  assert(n_moves > c->n_frames / 100U);

  p4d_host_free(h);
  free(played);
  free(rendered);
}

static void
test_settings(void)
{
  static const Case cases[] = {
    { "noise defaults 44100",
      false,
      512U,
      44100.0,
      "2",
      88200U,
      NULL,
      NULL,
      { NULL },
      NULL,
      "1" },
    { "noise settings 44100",
      false,
      512U,
      44100.0,
      "2",
      88200U,
      NULL,
      NULL,
      { "seed=4242",
        "evolve_hz=3.5",
        "width=0.625",
        "grain_hz=2500",
        "octaves=3.5",
        NULL },
      NULL,
      "2" },
    { "noise settings 96000",
      false,
      1000U,
      96000.0,
      "1.25",
      120000U,
      NULL,
      NULL,
      { "seed=17", "level_db=-3", "morph_x=2.5", "clock=1", NULL },
      NULL,
      "2" },
    { "mod defaults 44100",
      true,
      512U,
      44100.0,
      "2",
      88200U,
      NULL,
      NULL,
      { NULL },
      NULL,
      "1" },
    { "mod settings 44100",
      true,
      512U,
      44100.0,
      "2",
      88200U,
      NULL,
      NULL,
      { "seed=99",
        "rate_hz=6",
        "octaves=4.5",
        "spread=0.375",
        "out_min=-1",
        NULL },
      NULL,
      "2" },
    { "mod settings 96000",
      true,
      333U,
      96000.0,
      "1.25",
      120000U,
      NULL,
      NULL,
      { "seed=65535", "rate_hz=12", "smooth_ms=0", "morph_z=-3", NULL },
      NULL,
      "2" },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    check_case(&cases[i]);
  }
}

/// Longer than a chunk, so that the second job starts afresh at a chunk.
static void
test_chunks(void)
{
  static const Case cases[] = {
    { "noise 2 chunks, 2 jobs",
      false,
      512U,
      48000.0,
      "6",
      288000U,
      NULL,
      NULL,
      { "evolve_hz=2", NULL },
      NULL,
      "2" },
    { "mod 2 chunks, 2 jobs",
      true,
      512U,
      48000.0,
      "6",
      288000U,
      NULL,
      NULL,
      { "rate_hz=3", NULL },
      NULL,
      "2" },
    { "mod loop, 2 chunks, 2 jobs",
      true,
      700U,
      48000.0,
      "6",
      288000U,
      NULL,
      NULL,
      { "clock=1",
        "loop_beats=3",
        "period_beats=0.7",
        "lacunarity=1.7",
        "octaves=5.5",
        NULL },
      NULL,
      "2" },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    check_case(&cases[i]);
  }
}

static void
test_automation(void)
{
  static const Case cases[] = {
    { "noise automated evolve_hz",
      false,
      0U,
      44100.0,
      "3",
      132300U,
      NULL,
      NULL,
      { "seed=5", NULL },
      "evolve_hz=0.5:0.5,1.5:8,2.25:1",
      "1" },
    { "noise automated level_db, 2 chunks, 2 jobs",
      false,
      0U,
      48000.0,
      "6",
      288000U,
      NULL,
      NULL,
      { NULL },
      "level_db=0:-24,5.5:-3",
      "2" },
    { "mod automated rate_hz",
      true,
      0U,
      44100.0,
      "3",
      132300U,
      NULL,
      NULL,
      { "smooth_ms=50", NULL },
      "rate_hz=0:0.5,1:20,2:2",
      "1" },
    { "mod automated out_max, 2 chunks, 2 jobs",
      true,
      0U,
      48000.0,
      "6",
      288000U,
      NULL,
      NULL,
      { "rate_hz=4", NULL },
      "out_max=0:1,5:-0.5,6:0.25",
      "2" },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    check_case(&cases[i]);
  }
}

/// Every preset of the bundle, found through lilv as a host finds it.
static void
test_presets(void)
{
  static const char* const uris[] = { P4D_HOST_URI_MOD_CV, P4D_HOST_URI_NOISE };
  unsigned                 n      = 0U;
  for (size_t p = 0U; p < 2U; ++p) {
    const LilvPlugin* const plugin = p4d_host_plugin(uris[p]);

    LilvNodes* const presets = lilv_plugin_get_related(plugin, pset_Preset);
    LILV_FOREACH(nodes, it, presets)
    {
      const char* const uri   = lilv_node_as_uri(lilv_nodes_get(presets, it));
      const char* const colon = strrchr(uri, ':');
      char              name[128];
      snprintf(name, sizeof(name), "preset %s", uri);

      // By short name, and by URI every third time.
      const Case c = { name,     p == 0U, 512U, 48000.0,
                       "1",      48000U,  uri,  n % 3U ? colon + 1 : uri,
                       { NULL }, NULL,    "2" };
      check_case(&c);
      ++n;
    }
    lilv_nodes_free(presets);
  }
  printf("# %u presets\n", n);
  assert(n >= 8U);

  // A preset and settings on top of it.
  const Case over = { "preset wind with settings",
                      false,
                      512U,
                      44100.0,
                      "1",
                      44100U,
                      "urn:perlin4d:preset:wind",
                      "Wind",
                      { "seed=3", "width=0.25", NULL },
                      NULL,
                      "2" };
  check_case(&over);
}

int
main(int argc, char** argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: %s PERLIN4D_RENDER BUNDLE_PATH\n", argv[0]);
    return 2;
  }

  p4d_cli_open(argv[1], "exact");
  snprintf(out_path, sizeof(out_path), "%s", p4d_work_path("out.wav"));
  world       = p4d_host_world_open(argv[2]);
  pset_Preset = lilv_new_uri(world, LV2_PRESETS__Preset);

  test_settings();
  test_chunks();
  test_automation();
  test_presets();

  lilv_node_free(pset_Preset);
  p4d_host_world_close();
  p4d_cli_close();
  return 0;
}
