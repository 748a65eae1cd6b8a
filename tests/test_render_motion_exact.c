// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render -i against Perlin4D Motion, bit for bit.

  The written file is compared with the Motion processor run straight
  through in-process, and with the Motion plugin of the built bundle hosted
  through lilv the same way: from frame 0 without transport, fed the input
  and then latency frames of silence, the first latency frames of output
  dropped, so that output frame i lines up with input frame i.  Cases:
  stereo float over two of the renderer's chunks in two jobs, mono FLAC at
  44.1 kHz, an input shorter than the latency, and an automated render in
  one and three jobs (the processor moved on the renderer's grid).

  Usage: test_render_motion_exact PATH_TO_PERLIN4D_RENDER BUNDLE_PATH
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "motion.h"
#include "params.h"

#include "support/cli.h"
#include "support/compare.h"
#include "support/files.h"
#include "support/host.h"
#include "support/sound.h"
#include "support/urid_map.h"

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <sndfile.h>

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Frames the test hands the processor and the plugin at once: odd, so
/// that their blocks never line up with the renderer's.
#define TEST_BLOCK 1001U

static const char* bundle_dir = NULL;

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
  float    in[2][TEST_BLOCK];
  float    out[2][TEST_BLOCK];
};

/**
   Run a source straight through the input and latency frames of silence
   in blocks of src->block (TEST_BLOCK is odd: it never lines up with the
   renderer's blocks),
   and return its output from frame latency on, interleaved: n frames, what
   the renderer must write.
*/
static float*
straight_run(Source*      src,
             uint32_t     latency,
             const float* left,
             const float* right,
             size_t       n)
{
  float* const want = (float*)malloc(n * 2U * sizeof(float));
  assert(want);
  const size_t total = n + latency;
  for (size_t at = 0U; at < total; at += src->block) {
    const size_t m = total - at < src->block ? total - at : src->block;
    for (size_t i = 0U; i < m; ++i) {
      src->in[0][i] = at + i < n ? left[at + i] : 0.0f;
      src->in[1][i] = at + i < n ? right[at + i] : 0.0f;
    }
    src->run(src, (uint32_t)m);
    for (size_t i = 0U; i < m; ++i) {
      if (at + i >= latency) {
        want[(at + i - latency) * 2U]      = src->out[0][i];
        want[(at + i - latency) * 2U + 1U] = src->out[1][i];
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
/// automated), from frame 0.
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
  p4d_motion_activate(p->motion);
  float* const want =
    straight_run(&p->source, p4d_motion_latency(p->motion), left, right, *n);
  p4d_motion_free(p->motion);
  free(p);
  free(left);
  free(right);
  return want;
}

/// The Motion plugin of the bundle, hosted through lilv.
typedef struct {
  Source        source; ///< First: a Source* is a Plugin*
  LilvInstance* instance;
  float         control[P4D_HOST_MAX_PORTS];
  uint64_t      events[P4D_HOST_SEQ_BYTES / 8U]; ///< The atom input
  uint32_t      latency;
  int           latency_port;
} Plugin;

static void
plugin_run(Source* self, uint32_t n)
{
  Plugin* const            p   = (Plugin*)self;
  LV2_Atom_Sequence* const seq = (LV2_Atom_Sequence*)p->events;
  seq->atom.type               = p4d_urid(LV2_ATOM__Sequence);
  seq->atom.size               = (uint32_t)sizeof(LV2_Atom_Sequence_Body);
  seq->body.unit               = 0U;
  seq->body.pad                = 0U;
  lilv_instance_run(p->instance, n);
}

/**
   The plugin's output for the input name with sets, from frame 0 without
   transport, or NULL if the bundle has no Motion plugin.
*/
static float*
plugin_output(const char* name, const char* const* sets, size_t* n)
{
  LilvWorld* const world = lilv_world_new();
  assert(world);
  p4d_world_load_bundle(world, bundle_dir);
  LilvNode* const         uri = lilv_new_uri(world, P4D_URI_MOTION);
  const LilvPlugin* const plugin =
    lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), uri);
  lilv_node_free(uri);
  if (!plugin) {
    lilv_world_free(world);
    return NULL;
  }

  float* left  = NULL;
  float* right = NULL;
  p4d_sound_read_stereo(name, &left, &right, n);
  float params[P4D_MAX_PARAMS];
  motion_params(params, sets);

  Plugin* const p = (Plugin*)calloc(1U, sizeof(Plugin));
  assert(p);
  p->source.run   = plugin_run;
  p->source.block = TEST_BLOCK;
  p->latency_port = -1;
  p->instance =
    lilv_plugin_instantiate(plugin, input_rate(name), p4d_features_map);
  assert(p->instance);

  LilvNode* const audio   = lilv_new_uri(world, LV2_CORE__AudioPort);
  LilvNode* const control = lilv_new_uri(world, LV2_CORE__ControlPort);
  LilvNode* const input   = lilv_new_uri(world, LV2_CORE__InputPort);
  LilvNode* const reports = lilv_new_uri(world, LV2_CORE__reportsLatency);
  const uint32_t  n_ports = lilv_plugin_get_num_ports(plugin);
  unsigned        n_in    = 0U;
  unsigned        n_out   = 0U;
  assert(n_ports <= P4D_HOST_MAX_PORTS);
  for (uint32_t i = 0U; i < n_ports; ++i) {
    const LilvPort* const port = lilv_plugin_get_port_by_index(plugin, i);
    const bool            in   = lilv_port_is_a(plugin, port, input);
    const char* const     sym =
      lilv_node_as_string(lilv_port_get_symbol(plugin, port));
    if (lilv_port_is_a(plugin, port, control)) {
      // The parameters by their symbols (the TTL's are the table's).
      const int id = p4d_param_find(p4d_params(P4D_KIND_MOTION), sym);
      if (in) {
        assert(id >= 0);
        p->control[i] = params[id];
      } else if (lilv_port_has_property(plugin, port, reports)) {
        p->latency_port = (int)i;
      }
      lilv_instance_connect_port(p->instance, i, &p->control[i]);
    } else if (lilv_port_is_a(plugin, port, audio)) {
      assert(in ? n_in < 2U : n_out < 2U);
      lilv_instance_connect_port(
        p->instance, i, in ? p->source.in[n_in++] : p->source.out[n_out++]);
    } else {
      assert(in); // the transport input
      lilv_instance_connect_port(p->instance, i, p->events);
    }
  }
  assert(n_in == 2U && n_out == 2U);
  lilv_node_free(reports);
  lilv_node_free(input);
  lilv_node_free(control);
  lilv_node_free(audio);

  lilv_instance_activate(p->instance);
  // The latency the plugin reports, after a run of 0 frames as hosts do.
  plugin_run(&p->source, 0U);
  assert(p->latency_port >= 0);
  p->latency = (uint32_t)p->control[p->latency_port];
  printf("# plugin latency %u frames\n", p->latency);

  float* const want = straight_run(&p->source, p->latency, left, right, *n);
  lilv_instance_deactivate(p->instance);
  lilv_instance_free(p->instance);
  free(p);
  free(left);
  free(right);
  lilv_world_free(world);
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

/**
   The file equals the processor's straight run, and the plugin's: stereo
   float at 48 kHz over two chunks of the renderer in 2 jobs; mono FLAC at
   44.1 kHz; an input shorter than the latency.
*/
static void
test_exact(void)
{
  static const char* const two_jobs[] = { "--jobs", "2", NULL };
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
    render(cases[c].name, lively, two_jobs);

    size_t       n    = 0U;
    float* const want = processor_output(cases[c].name, lively, false, &n);
    assert(n == (size_t)cases[c].n_frames);
    check_written("out.wav", want, cases[c].rate, n);
    printf("# %s: %zu frames equal the processor's straight run\n",
           cases[c].name,
           n);
    free(want);

    float* const played = plugin_output(cases[c].name, lively, &n);
    if (played) {
      check_written("out.wav", played, cases[c].rate, n);
      printf("# %s: %zu frames equal the plugin's (lilv)\n", cases[c].name, n);
      free(played);
    } else {
      printf("# %s: no Motion plugin in the bundle: not compared\n",
             cases[c].name);
    }
    p4d_work_clear();
  }
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
  bundle_dir = argv[2];
  p4d_cli_open(argv[1], "motion-exact");

  test_exact();
  test_automated();
  p4d_cli_close();
  return 0;
}
