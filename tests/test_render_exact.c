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
#include "render/render.h"
#include "urid_map.h"

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/core/lv2.h>
#include <lv2/presets/presets.h>
#include <lv2/urid/urid.h>
#include <sndfile.h>

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define URI_MOD_CV "urn:perlin4d:mod-cv"
#define URI_NOISE "urn:perlin4d:noise"

#define MAX_PORTS 32U
#define MAX_ARGS 32U
#define MAX_POINTS 16U

/// Bytes of each atom port buffer.
#define SEQ_BYTES 4096U

static const char* render_path = NULL;
static char        work_dir[]  = "/tmp/p4d-exact-XXXXXX";
static char        out_path[512];

static LilvWorld*         world   = NULL;
static const LilvPlugins* plugins = NULL;
static LilvNode*          lv2_InputPort;
static LilvNode*          lv2_ControlPort;
static LilvNode*          lv2_AudioPort;
static LilvNode*          lv2_CVPort;
static LilvNode*          atom_AtomPort;
static LilvNode*          pset_Preset;

// -- The host --------------------------------------------------------------

typedef struct {
  const LilvPlugin* plugin;
  LilvInstance*     instance;
  uint32_t          n_ports;
  const char*       symbol[MAX_PORTS];
  bool              control_in[MAX_PORTS];
  float             value[MAX_PORTS]; ///< Control port buffers
  uint32_t          n_signals;
  uint32_t          signal_port[P4D_MAX_CHANNELS]; ///< cv_n or out_l, out_r
  float*            signal[P4D_MAX_CHANNELS];      ///< Their block buffers
  uint64_t          control[SEQ_BYTES / 8U];
  uint64_t          midi[SEQ_BYTES / 8U];
  int               midi_port; ///< -1 if none
} Host;

static uint32_t
find_port(const Host* h, const char* symbol)
{
  for (uint32_t i = 0U; i < h->n_ports; ++i) {
    if (!strcmp(h->symbol[i], symbol)) {
      return i;
    }
  }
  fprintf(stderr, "no port '%s'\n", symbol);
  assert(false && "port not found");
  return 0U;
}

static void
host_set(Host* h, const char* symbol, float value)
{
  const uint32_t i = find_port(h, symbol);
  assert(h->control_in[i]);
  h->value[i] = value;
}

/// A LilvSetPortValueFunc: a preset's value into the control port buffer.
static void
set_port_value(const char* symbol,
               void*       data,
               const void* value,
               uint32_t    size,
               uint32_t    type)
{
  Host* const h = (Host*)data;
  float       v = 0.0f;
  if (type == map_uri(NULL, LV2_ATOM__Float) && size == sizeof(float)) {
    v = *(const float*)value;
  } else if (type == map_uri(NULL, LV2_ATOM__Double) &&
             size == sizeof(double)) {
    v = (float)*(const double*)value;
  } else if (type == map_uri(NULL, LV2_ATOM__Int) && size == sizeof(int32_t)) {
    v = (float)*(const int32_t*)value;
  } else if (type == map_uri(NULL, LV2_ATOM__Long) && size == sizeof(int64_t)) {
    v = (float)*(const int64_t*)value;
  } else {
    fprintf(stderr, "port '%s': value of unknown type %u\n", symbol, type);
    assert(false && "preset value of unknown type");
  }
  host_set(h, symbol, v);
}

static Host*
host_new(const char* uri, double rate, uint32_t block)
{
  Host* const h = (Host*)calloc(1U, sizeof(Host));
  assert(h);

  LilvNode* const node = lilv_new_uri(world, uri);
  h->plugin            = lilv_plugins_get_by_uri(plugins, node);
  lilv_node_free(node);
  assert(h->plugin);

  h->midi_port = -1;
  h->n_ports   = lilv_plugin_get_num_ports(h->plugin);
  assert(h->n_ports <= MAX_PORTS);
  h->instance = lilv_plugin_instantiate(h->plugin, rate, features_map);
  assert(h->instance);

  for (uint32_t i = 0U; i < h->n_ports; ++i) {
    const LilvPort* const port = lilv_plugin_get_port_by_index(h->plugin, i);
    const bool input           = lilv_port_is_a(h->plugin, port, lv2_InputPort);
    h->symbol[i] = lilv_node_as_string(lilv_port_get_symbol(h->plugin, port));

    if (lilv_port_is_a(h->plugin, port, lv2_ControlPort)) {
      // Every control input starts at its TTL default, as in a new host.
      LilvNode* def = NULL;
      lilv_port_get_range(h->plugin, port, &def, NULL, NULL);
      h->control_in[i] = input;
      h->value[i]      = input && def ? lilv_node_as_float(def) : 0.0f;
      lilv_node_free(def);
      lilv_instance_connect_port(h->instance, i, &h->value[i]);
    } else if (lilv_port_is_a(h->plugin, port, lv2_AudioPort) ||
               lilv_port_is_a(h->plugin, port, lv2_CVPort)) {
      assert(!input && h->n_signals < P4D_MAX_CHANNELS);
      h->signal[h->n_signals] = (float*)calloc(block, sizeof(float));
      assert(h->signal[h->n_signals]);
      lilv_instance_connect_port(h->instance, i, h->signal[h->n_signals]);
      h->signal_port[h->n_signals++] = i;
    } else {
      assert(lilv_port_is_a(h->plugin, port, atom_AtomPort));
      if (input) {
        lilv_instance_connect_port(h->instance, i, h->control);
      } else {
        h->midi_port = (int)i;
        lilv_instance_connect_port(h->instance, i, h->midi);
      }
    }
  }
  return h;
}

static void
host_free(Host* h)
{
  lilv_instance_deactivate(h->instance);
  lilv_instance_free(h->instance);
  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    free(h->signal[c]);
  }
  free(h);
}

/// Run one block of n frames and append it to out (interleaved).
static void
host_run(Host* h, float* out, uint32_t n)
{
  LV2_Atom_Sequence* const seq = (LV2_Atom_Sequence*)h->control;
  seq->atom.type               = map_uri(NULL, LV2_ATOM__Sequence);
  seq->atom.size               = sizeof(LV2_Atom_Sequence_Body);
  seq->body.unit               = 0U;
  seq->body.pad                = 0U;
  if (h->midi_port >= 0) {
    LV2_Atom* const atom = (LV2_Atom*)h->midi;
    atom->type           = map_uri(NULL, LV2_ATOM__Chunk);
    atom->size           = SEQ_BYTES - (uint32_t)sizeof(LV2_Atom);
  }

  lilv_instance_run(h->instance, n);
  for (uint32_t i = 0U; i < n; ++i) {
    for (uint32_t c = 0U; c < h->n_signals; ++c) {
      out[(size_t)i * h->n_signals + c] = h->signal[c][i];
    }
  }
}

// -- Automation as the host applies it -------------------------------------

/// A lane as --automate takes it: SYMBOL=T:V,T:V,...
typedef struct {
  char     symbol[32];
  unsigned n_points;
  double   time_s[MAX_POINTS];
  float    value[MAX_POINTS];
} Ramps;

static void
ramps_parse(const char* arg, Ramps* lane)
{
  const char* eq = strchr(arg, '=');
  assert(eq && (size_t)(eq - arg) < sizeof(lane->symbol));
  memset(lane, 0, sizeof(*lane));
  memcpy(lane->symbol, arg, (size_t)(eq - arg));
  for (const char* p = eq + 1; *p;) {
    char* end = NULL;
    assert(lane->n_points < MAX_POINTS);
    lane->time_s[lane->n_points] = strtod(p, &end);
    assert(*end == ':');
    lane->value[lane->n_points++] = (float)strtod(end + 1, &end);
    assert(*end == ',' || !*end);
    p = *end ? end + 1 : end;
  }
}

/**
   The lane's value at song time t: linear between the points around t,
   the first before the first point, the last after the last.  The test's
   lanes use values whose differences are exact in float, so the order of
   operations cannot change the result.
*/
static float
ramps_value(const Ramps* lane, double t)
{
  if (t <= lane->time_s[0]) {
    return lane->value[0];
  }
  for (unsigned k = 1U; k < lane->n_points; ++k) {
    if (lane->time_s[k] >= t) {
      const double u =
        (t - lane->time_s[k - 1U]) / (lane->time_s[k] - lane->time_s[k - 1U]);
      return (float)(lane->value[k - 1U] +
                     (lane->value[k] - lane->value[k - 1U]) * u);
    }
  }
  return lane->value[lane->n_points - 1U];
}

// -- The renderer ----------------------------------------------------------

/// Run the renderer with args (NULL-terminated); return its exit status.
static int
run_render(const char* const* args)
{
  const char* argv[MAX_ARGS + 2U] = { render_path };
  for (size_t i = 0U; args[i]; ++i) {
    assert(i < MAX_ARGS);
    argv[i + 1U] = args[i];
  }

  const pid_t pid = fork();
  assert(pid >= 0);
  if (pid == 0) {
    execv(render_path, (char* const*)argv);
    _exit(98);
  }
  int status = 0;
  assert(waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

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
  double      rate;
  const char* duration;   ///< Seconds, as given to --duration
  size_t      n_frames;   ///< The frames that makes at rate
  uint32_t    block;      ///< Host block size without automation
  const char* preset;     ///< A preset's URI, or NULL
  const char* preset_arg; ///< What --preset gets (label, short name, URI)
  const char* sets[6];    ///< SYMBOL=VALUE settings, NULL-terminated
  const char* lane;       ///< An --automate argument, or NULL
  const char* jobs;       ///< --jobs
} Case;

/// Set h's controls from a preset of the bundle, as a host loads it.
static void
host_load_preset(Host* h, const char* uri)
{
  LilvNode* const preset = lilv_new_uri(world, uri);
  lilv_world_load_resource(world, preset);
  LilvState* const state = lilv_state_new_from_world(world, &map, preset);
  assert(state);
  lilv_state_restore(state, h->instance, set_port_value, h, 0U, features_map);
  lilv_state_free(state);
  lilv_node_free(preset);
}

static void
check_case(const Case* c)
{
  // The renderer's command line.
  const char* args[MAX_ARGS + 1U] = { "-o",         out_path,
                                      "--plugin",   c->mod ? "mod" : "noise",
                                      "--duration", c->duration,
                                      "--jobs",     c->jobs ? c->jobs : "2" };
  size_t      n_args              = 8U;
  char        rate_text[32];
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

  const int status = run_render(args);
  if (status) {
    printf("# %s: the renderer exited with %d\n", c->name, status);
  }
  assert(status == 0);
  const unsigned n_channels = c->mod ? 4U : 2U;
  float* const   rendered   = read_wav(c->rate, n_channels, c->n_frames);

  // The plugin, from frame 0 without transport, the same controls.
  const uint32_t block = c->lane ? P4D_AUTOMATION_GRID : c->block;
  Host* const    h = host_new(c->mod ? URI_MOD_CV : URI_NOISE, c->rate, block);
  assert(h->n_signals == n_channels);
  if (c->preset) {
    host_load_preset(h, c->preset);
  }
  for (size_t i = 0U; c->sets[i]; ++i) {
    const char* eq = strchr(c->sets[i], '=');
    char        symbol[32];
    assert(eq && (size_t)(eq - c->sets[i]) < sizeof(symbol));
    memcpy(symbol, c->sets[i], (size_t)(eq - c->sets[i]));
    symbol[eq - c->sets[i]] = '\0';
    host_set(h, symbol, (float)strtod(eq + 1, NULL));
  }
  Ramps lane = { { 0 }, 0U, { 0.0 }, { 0.0f } };
  if (c->lane) {
    ramps_parse(c->lane, &lane);
  }

  float* const played =
    (float*)malloc(c->n_frames * n_channels * sizeof(float));
  assert(played);
  lilv_instance_activate(h->instance);
  for (size_t done = 0U; done < c->n_frames;) {
    const uint32_t n =
      c->n_frames - done < block ? (uint32_t)(c->n_frames - done) : block;
    if (c->lane) {
      host_set(h, lane.symbol, ramps_value(&lane, (double)done / c->rate));
    }
    host_run(h, played + done * n_channels, n);
    done += n;
  }

  size_t n_same = 0U;
  for (size_t i = 0U; i < c->n_frames * n_channels; ++i) {
    if (memcmp(&rendered[i], &played[i], sizeof(float))) {
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

  host_free(h);
  free(played);
  free(rendered);
}

static void
test_settings(void)
{
  static const Case cases[] = {
    { "noise defaults 44100",
      false,
      44100.0,
      "2",
      88200U,
      512U,
      NULL,
      NULL,
      { NULL },
      NULL,
      "1" },
    { "noise settings 44100",
      false,
      44100.0,
      "2",
      88200U,
      512U,
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
      96000.0,
      "1.25",
      120000U,
      1000U,
      NULL,
      NULL,
      { "seed=17", "level_db=-3", "morph_x=2.5", "clock=1", NULL },
      NULL,
      "2" },
    { "mod defaults 44100",
      true,
      44100.0,
      "2",
      88200U,
      512U,
      NULL,
      NULL,
      { NULL },
      NULL,
      "1" },
    { "mod settings 44100",
      true,
      44100.0,
      "2",
      88200U,
      512U,
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
      96000.0,
      "1.25",
      120000U,
      333U,
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
      48000.0,
      "6",
      288000U,
      512U,
      NULL,
      NULL,
      { "evolve_hz=2", NULL },
      NULL,
      "2" },
    { "mod 2 chunks, 2 jobs",
      true,
      48000.0,
      "6",
      288000U,
      512U,
      NULL,
      NULL,
      { "rate_hz=3", NULL },
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
      44100.0,
      "3",
      132300U,
      0U,
      NULL,
      NULL,
      { "seed=5", NULL },
      "evolve_hz=0.5:0.5,1.5:8,2.25:1",
      "1" },
    { "noise automated level_db, 2 chunks, 2 jobs",
      false,
      48000.0,
      "6",
      288000U,
      0U,
      NULL,
      NULL,
      { NULL },
      "level_db=0:-24,5.5:-3",
      "2" },
    { "mod automated rate_hz",
      true,
      44100.0,
      "3",
      132300U,
      0U,
      NULL,
      NULL,
      { "smooth_ms=50", NULL },
      "rate_hz=0:0.5,1:20,2:2",
      "1" },
    { "mod automated out_max, 2 chunks, 2 jobs",
      true,
      48000.0,
      "6",
      288000U,
      0U,
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
  static const char* const uris[] = { URI_MOD_CV, URI_NOISE };
  unsigned                 n      = 0U;
  for (size_t p = 0U; p < 2U; ++p) {
    LilvNode* const         node   = lilv_new_uri(world, uris[p]);
    const LilvPlugin* const plugin = lilv_plugins_get_by_uri(plugins, node);
    lilv_node_free(node);
    assert(plugin);

    LilvNodes* const presets = lilv_plugin_get_related(plugin, pset_Preset);
    LILV_FOREACH(nodes, it, presets)
    {
      const char* const uri   = lilv_node_as_uri(lilv_nodes_get(presets, it));
      const char* const colon = strrchr(uri, ':');
      char              name[128];
      snprintf(name, sizeof(name), "preset %s", uri);

      // By short name, and by URI every third time.
      const Case c = { name,     p == 0U, 48000.0, "1",
                       48000U,   512U,    uri,     n % 3U ? colon + 1 : uri,
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
                      44100.0,
                      "1",
                      44100U,
                      512U,
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
  setvbuf(stdout, NULL, _IOLBF, 0U);

  static char path[4096];
  assert(realpath(argv[1], path));
  render_path = path;
  assert(mkdtemp(work_dir));
  snprintf(out_path, sizeof(out_path), "%s/out.wav", work_dir);

  // The bundle's file URI, with a trailing slash.
  char bundle_path[4096];
  snprintf(bundle_path,
           sizeof(bundle_path),
           "%s%s",
           argv[2],
           argv[2][0] && argv[2][strlen(argv[2]) - 1U] == '/' ? "" : "/");
  world                  = lilv_world_new();
  LilvNode* const bundle = lilv_new_file_uri(world, NULL, bundle_path);
  assert(bundle);
  lilv_world_load_bundle(world, bundle);
  plugins         = lilv_world_get_all_plugins(world);
  lv2_InputPort   = lilv_new_uri(world, LV2_CORE__InputPort);
  lv2_ControlPort = lilv_new_uri(world, LV2_CORE__ControlPort);
  lv2_AudioPort   = lilv_new_uri(world, LV2_CORE__AudioPort);
  lv2_CVPort      = lilv_new_uri(world, LV2_CORE__CVPort);
  atom_AtomPort   = lilv_new_uri(world, LV2_ATOM__AtomPort);
  pset_Preset     = lilv_new_uri(world, LV2_PRESETS__Preset);

  test_settings();
  test_chunks();
  test_automation();
  test_presets();

  lilv_node_free(pset_Preset);
  lilv_node_free(atom_AtomPort);
  lilv_node_free(lv2_CVPort);
  lilv_node_free(lv2_AudioPort);
  lilv_node_free(lv2_ControlPort);
  lilv_node_free(lv2_InputPort);
  lilv_node_free(bundle);
  lilv_world_free(world);
  assert(!rmdir(work_dir));
  return 0;
}
