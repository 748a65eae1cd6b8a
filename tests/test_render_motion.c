// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render -i: Perlin4D Motion processing a sound file.

  The written file is compared bit for bit with the Motion processor run
  straight through in-process (the input, then latency frames of silence,
  the first latency frames of output dropped) and with the Motion plugin of
  the built bundle hosted through lilv the same way; --jobs 1, 2 and 3 give
  the same bytes; a 10-minute input streams in flat memory; the output has
  the input's length; and every refusal is one line, the right exit status
  and no file left behind.

  Usage: test_render_motion PATH_TO_PERLIN4D_RENDER BUNDLE_PATH
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "motion.h"
#include "params.h"

#include "support/cli.h"
#include "support/compare.h"
#include "support/files.h"
#include "support/host.h"
#include "support/rng.h"
#include "support/urid_map.h"

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <sndfile.h>

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// Frames the test hands the processor and the plugin at once: odd, so
/// that their blocks never line up with the renderer's.
#define TEST_BLOCK 1001U

static const char* bundle_dir = NULL;

// -- Inputs ------------------------------------------------------------------

/**
   Write n frames of a test signal to name in the work folder: a sine sweep
   under noise, at -6 dBFS, different in each channel.  Written in blocks,
   so that a long input needs no memory either.
*/
static void
write_input(const char* name, int format, int n_channels, int rate, int64_t n)
{
  SF_INFO info    = { 0 };
  info.samplerate = rate;
  info.channels   = n_channels;
  info.format     = format;
  SNDFILE* file   = sf_open(p4d_work_path(name), SFM_WRITE, &info);
  assert(file);

  P4dRng       rng = { 0x9E3779B97F4A7C15ULL };
  static float block[4096 * 8];
  double       phase = 0.0;
  for (int64_t done = 0; done < n;) {
    const int64_t m = n - done < 4096 ? n - done : 4096;
    for (int64_t i = 0; i < m; ++i) {
      const double t = (double)(done + i) / rate;
      phase += 2.0 * M_PI * (110.0 + 40.0 * t) / rate;
      for (int c = 0; c < n_channels; ++c) {
        block[i * n_channels + c] =
          (float)(0.35 * sin(phase * (1.0 + 0.5 * c)) +
                  p4d_rng_uniform(&rng, -0.15, 0.15));
      }
    }
    assert(sf_writef_float(file, block, m) == m);
    done += m;
  }
  assert(!sf_close(file));
}

/// The input as libsndfile reads it (as the renderer does): left and right
/// (the same for a mono file), n frames.
static void
read_input(const char* name, float** left, float** right, size_t* n)
{
  SF_INFO      info   = { 0 };
  float* const frames = p4d_cli_read_frames(name, &info);
  assert(info.channels == 1 || info.channels == 2);
  *n     = (size_t)info.frames;
  *left  = (float*)malloc(*n * sizeof(float));
  *right = (float*)malloc(*n * sizeof(float));
  assert(*left && *right);
  for (size_t i = 0U; i < *n; ++i) {
    (*left)[i]  = frames[i * (size_t)info.channels];
    (*right)[i] = frames[i * (size_t)info.channels + info.channels - 1U];
  }
  free(frames);
}

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
  float in[2][TEST_BLOCK];
  float out[2][TEST_BLOCK];
};

/**
   Run a source straight through the input and latency frames of silence
   in blocks of TEST_BLOCK (odd: they never line up with the renderer's),
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
  for (size_t at = 0U; at < total; at += TEST_BLOCK) {
    const size_t m = total - at < TEST_BLOCK ? total - at : TEST_BLOCK;
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

typedef struct {
  Source     source; ///< First: a Source* is a Processor*
  P4dMotion* motion;
  float      params[P4D_MAX_PARAMS];
} Processor;

static void
processor_run(Source* self, uint32_t n)
{
  Processor* const   p      = (Processor*)self;
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

/// The processor's output for the input name with sets, from frame 0.
static float*
processor_output(const char* name, const char* const* sets, size_t* n)
{
  float* left  = NULL;
  float* right = NULL;
  read_input(name, &left, &right, n);

  Processor* const p = (Processor*)calloc(1U, sizeof(Processor));
  assert(p);
  p->source.run = processor_run;
  motion_params(p->params, sets);
  assert(!p4d_motion_new(input_rate(name), &p->motion));
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
  read_input(name, &left, &right, n);
  float params[P4D_MAX_PARAMS];
  motion_params(params, sets);

  Plugin* const p = (Plugin*)calloc(1U, sizeof(Plugin));
  assert(p);
  p->source.run   = plugin_run;
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
    write_input(cases[c].name,
                cases[c].format,
                cases[c].n_channels,
                cases[c].rate,
                cases[c].n_frames);
    render(cases[c].name, lively, two_jobs);

    size_t       n    = 0U;
    float* const want = processor_output(cases[c].name, lively, &n);
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

/// --jobs 1, 2 and 3 write the same bytes, with and without --start, and
/// the output has the input's length.
static void
test_jobs(void)
{
  write_input("long.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 2, 8000, 1600003);
  static const char* const names[] = { "j1.wav", "j2.wav", "j3.wav" };
  static const char* const jobs[]  = { "1", "2", "3" };
  for (unsigned start = 0U; start < 2U; ++start) {
    for (unsigned j = 0U; j < 3U; ++j) {
      const char* const args[] = { "-i",
                                   "long.wav",
                                   "-o",
                                   names[j],
                                   "--jobs",
                                   jobs[j],
                                   "--set",
                                   "seed=9",
                                   "--set",
                                   "wow_ms=2",
                                   start ? "--start" : NULL,
                                   "12.5",
                                   NULL };
      p4d_cli_ok(args, NULL);
    }
    assert(p4d_work_same("j1.wav", "j2.wav"));
    assert(p4d_work_same("j1.wav", "j3.wav"));
    SF_INFO      info = { 0 };
    float* const got  = p4d_cli_read_frames("j3.wav", &info);
    assert(info.frames == 1600003 && info.channels == 2);
    assert(info.samplerate == 8000);
    free(got);
    printf("# --jobs 1, 2, 3%s: the same bytes, %lld frames\n",
           start ? " from 12.5 s" : "",
           (long long)info.frames);
    for (unsigned j = 0U; j < 3U; ++j) {
      assert(!unlink(p4d_work_path(names[j])));
    }
  }
  p4d_work_clear();
}

/*
  The renderer's peak memory, as test_render_jobs measures it:
  AddressSanitizer adds about 20 MiB to any program.
*/
#if defined(__SANITIZE_ADDRESS__)
#  define PEAK_LIMIT_KIB (52L * 1024L)
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define PEAK_LIMIT_KIB (52L * 1024L)
#  endif
#endif
#ifndef PEAK_LIMIT_KIB
#  define PEAK_LIMIT_KIB (32L * 1024L)
#endif

/**
   Streamed: 10 minutes of float stereo at 16 kHz (73 MiB) need no more
   memory than 2 minutes, and far less than the file.
*/
static void
test_memory_flat(void)
{
  write_input("2min.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 16000, 1920000);
  write_input("10min.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 16000, 9600000);
  static const char* const short_render[] = { "-i",      "2min.wav", "-o",
                                              "s.flac",  "--jobs",   "2",
                                              "--force", NULL };
  static const char* const long_render[]  = { "-i",      "10min.wav", "-o",
                                              "s.flac",  "--jobs",    "2",
                                              "--force", NULL };
  const long               a              = p4d_cli_peak_kib(short_render);
  const long               b              = p4d_cli_peak_kib(long_render);
  size_t                   size           = 0U;
  free(p4d_work_read("10min.wav", &size));
  printf("# peak memory: %ld KiB for 2 min, %ld KiB for 10 min (the input "
         "is %zu KiB)\n",
         a,
         b,
         size / 1024U);
  assert(a > 0 && b > 0);
  assert(b < PEAK_LIMIT_KIB);
  assert(b < a + 4096L);
  assert((size_t)b * 1024U < size / 2U);

  SF_INFO  info = { 0 };
  SNDFILE* file = sf_open(p4d_work_path("s.flac"), SFM_READ, &info);
  assert(file && info.frames == 9600000 && info.channels == 2);
  sf_close(file);
  p4d_work_clear();
}

/// Every refusal: one line, exit 2, nothing written.
static void
test_refused(void)
{
  write_input("in.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 2, 48000, 4800);
  write_input("3ch.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 3, 48000, 4800);
  write_input("empty.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 48000, 0);
  p4d_work_write("text.wav", "not a sound\n");
  assert(!mkdir(p4d_work_path("folder.wav"), 0755));
  assert(!symlink("in.wav", p4d_work_path("link.wav")));
  assert(!link(p4d_work_path("in.wav"), p4d_work_path("hard.wav")));
  const unsigned n_files = p4d_work_count();

  // The input under other spellings: ./ and ../ forms, a link, a hard link.
  const char* const work = p4d_work_dir();
  char              up[600];
  snprintf(up, sizeof(up), "../%s/in.wav", strrchr(work, '/') + 1);
  char abs[600];
  snprintf(abs, sizeof(abs), "%s/in.wav", work);

  const struct {
    const char* args[12];
    int         status;
    const char* message;
  } cases[] = {
    { { "-i", "nope.wav", "-o", "o.wav" }, 2, "-i 'nope.wav': " },
    { { "-i", "text.wav", "-o", "o.wav" }, 2, "-i 'text.wav': " },
    { { "-i", "folder.wav", "-o", "o.wav" }, 2, "-i 'folder.wav': " },
    { { "-i", "/dev/null", "-o", "o.wav" }, 2, "-i '/dev/null': " },
    { { "-i", "empty.wav", "-o", "o.wav" }, 2, "-i 'empty.wav': holds no" },
    { { "-i", "3ch.wav", "-o", "o.wav" }, 2, "-i '3ch.wav': has 3 channels" },
    { { "-i", "in.wav", "-o", "in.wav" }, 2, "in.wav: is an input" },
    { { "-i", "in.wav", "-o", "in.wav", "--force" }, 2, "in.wav: is an input" },
    { { "-i", "./in.wav", "-o", "in.wav", "--force" },
      2,
      "in.wav: is an input" },
    { { "-i", "in.wav", "-o", up, "--force" }, 2, "../" },
    { { "-i", abs, "-o", "./in.wav", "--force" }, 2, "./in.wav: is an input" },
    { { "-i", "in.wav", "-o", "link.wav", "--force" },
      2,
      "link.wav: is an input" },
    { { "-i", "link.wav", "-o", "hard.wav", "--force" },
      2,
      "hard.wav: is an input" },
    { { "-i", "in.wav", "-o", "-", "--format", "wav" }, 2, "--format 'wav'" },
    { { "--plugin", "noise", "-i", "in.wav", "-o", "o.wav" },
      2,
      "-i 'in.wav': only Perlin4D Motion" },
    { { "--plugin", "mod", "-i", "in.wav", "-o", "o.wav" },
      2,
      "-i 'in.wav': only Perlin4D Motion" },
    { { "--plugin", "motion", "-o", "o.wav" },
      2,
      "--plugin motion: Perlin4D Motion needs a sound file" },
    { { "-i", "in.wav", "-o", "o.wav", "--samplerate", "44100" },
      2,
      "--samplerate: differs from the input's 48000 Hz" },
    { { "-i", "in.wav", "-o", "o.wav", "--duration", "1" },
      2,
      "--duration '1': differs from the input's length" },
    { { "-i", "in.wav", "-o", "o.wav", "--channels", "3" },
      2,
      "--channels '3': more than" },
    { { "-i", "", "-o", "o.wav" }, 2, "-i '': empty file name" },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    p4d_cli_refused(cases[i].args, cases[i].status, cases[i].message, n_files);
  }
  printf("# %zu refusals: one line, exit 2, nothing written\n",
         sizeof(cases) / sizeof(cases[0]));

  // The same --samplerate and --duration as the input's are fine.
  static const char* const same[] = { "-i",           "in.wav",     "-o",
                                      "o.wav",        "--duration", "0.1",
                                      "--samplerate", "48000",      NULL };
  p4d_cli_ok(same, NULL);
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
  p4d_cli_open(argv[1], "motion");

  test_refused();
  test_exact();
  test_jobs();
  test_memory_flat();
  p4d_cli_close();
  return 0;
}
