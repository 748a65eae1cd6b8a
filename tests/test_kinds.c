// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The list of kinds (src/kinds/kind.h) against the port table: one class
  per plugin of the bundle, found by its plugin, its URI and its name; the
  classes the renderer names render as themselves and a class without a
  name as one with; each class's channels, input, clock, loop and latency
  ports agree with its plugin's ports and parameters; and an instance runs
  through every operation.
*/

#undef NDEBUG

#include "kind.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/// Ports of plugin with role.
static unsigned
count_ports(const P4dPlugin* plugin, P4dPortRole role)
{
  unsigned n = 0U;
  for (uint32_t i = 0U; i < plugin->n_ports; ++i) {
    n += plugin->ports[i].role == role ? 1U : 0U;
  }
  return n;
}

static void
test_facts(const P4dKindClass* kind)
{
  const P4dPlugin* const     plugin = p4d_kind_plugin(kind);
  const P4dParamTable* const table  = p4d_kind_params(kind);

  assert(p4d_kind_by_plugin(kind->plugin) == kind);
  assert(p4d_kind_by_uri(plugin->uri) == kind);
  assert(plugin->kind == kind->params);
  assert(kind->renders_as && kind->renders_as->name);
  assert(kind->renders_as->params == kind->params);
  assert(!kind->name || kind->renders_as == kind);
  assert(!kind->name || p4d_kind_by_name(kind->name) == kind);

  // Channels: one signal output each (the Mod's control outputs too).
  const unsigned audio = count_ports(plugin, P4D_PORT_AUDIO_OUT);
  const unsigned cv    = count_ports(plugin, P4D_PORT_CV_OUT);
  const unsigned ctl   = count_ports(plugin, P4D_PORT_CONTROL_OUT);
  assert(kind->n_channels <= P4D_MAX_CHANNELS);
  assert(audio == kind->n_channels || ctl == kind->n_channels);
  assert(cv == 0U || cv == kind->n_channels);
  assert(kind->takes_input == (count_ports(plugin, P4D_PORT_AUDIO_IN) > 0U));
  assert(!kind->in_place || kind->takes_input);
  assert((count_ports(plugin, P4D_PORT_LATENCY_OUT) > 0U) == kind->takes_input);

  // The clock: an enumeration whose every value has a mode.
  const P4dParam* const clock = &table->params[kind->clock_param];
  assert(!strcmp(clock->symbol, "clock"));
  assert(clock->minimum == 0.0f);
  assert(clock->maximum == (float)(kind->n_clock_modes - 1U));
  if (kind->loop_param >= 0) {
    assert(!strcmp(table->params[kind->loop_param].symbol, "loop_beats"));
    // Loops are in beats: a song beats clock, or (the Noise) beats at the
    // tempo on its song seconds clock.
    assert(p4d_kind_clock_value(kind, P4D_CLOCK_SONG_BEATS) >= 0 ||
           p4d_kind_clock_value(kind, P4D_CLOCK_SONG_SECONDS) >= 0);
  } else {
    assert(p4d_param_find(table, "loop_beats") < 0);
  }
  assert(kind->n_positions >= 1U && kind->n_positions <= P4D_PREVIEW_POSITIONS);

  printf("# %-16s %-6s %u channels%s, clock of %u modes, %s\n",
         plugin->name,
         kind->name ? kind->name : "-",
         kind->n_channels,
         kind->takes_input ? " and an input" : "",
         kind->n_clock_modes,
         kind->loop_param >= 0 ? "a loop" : "no loop");
}

/// An instance at its defaults through every operation: outputs finite.
static void
test_run(const P4dKindClass* kind)
{
  float params[P4D_MAX_PARAMS];
  p4d_param_defaults(p4d_kind_params(kind), params);

  void* proc = NULL;
  assert(!kind->create(48000.0, &proc) && proc);
  kind->activate(proc);

  float              buf[P4D_MAX_CHANNELS][64];
  float              silence[64]           = { 0.0f };
  const float* const in[2]                 = { silence, silence };
  float* const       out[P4D_MAX_CHANNELS] = { buf[0], buf[1], buf[2], buf[3] };
  kind->process(proc, params, in, out, 64U);
  for (unsigned c = 0U; c < kind->n_channels; ++c) {
    for (unsigned i = 0U; i < 64U; ++i) {
      assert(isfinite(buf[c][i]));
    }
  }
  float now[P4D_MAX_CHANNELS] = { 0.0f };
  assert(kind->controls(proc, now));
  kind->process(proc, params, in, NULL, 64U);

  const P4dTransport tr = { true, true, false, false, 96000, 1.0, 0.0, 0.0 };
  kind->transport(proc, &tr);
  kind->activate_at(proc, 4800, 120.0);
  assert(kind->exact_from(proc, 4800, NULL) <= 4800);
  P4dPosition at;
  kind->position(proc, 0U, &at);
  assert(kind->takes_input ? kind->latency(proc) > 0U
                           : kind->latency(proc) == 0U);
  kind->destroy(proc);
  kind->destroy(NULL);
}

/// A kind that renders pictures (the Image): no plugin, no sound.
static void
test_pictures(const P4dKindClass* kind)
{
  assert(kind->pictures && kind->plugin == P4D_PLUGIN_NONE);
  assert(!p4d_kind_plugin(kind) && kind->title && kind->uri);
  assert(p4d_kind_by_uri(kind->uri) == kind && !p4d_plugin_find(kind->uri));
  assert(!strcmp(p4d_kind_title(kind), kind->title));
  assert(kind->name && p4d_kind_by_name(kind->name) == kind);
  assert(kind->renders_as == kind && !kind->takes_input);
  assert(!kind->create && !kind->process && !kind->preview);
  const P4dParamTable* const table = p4d_kind_params(kind);
  assert(!strcmp(table->params[kind->clock_param].symbol, "clock"));
  assert(!strcmp(table->params[kind->loop_param].symbol, "loop_beats"));
  printf("# %-16s %-6s pictures, no plugin\n", kind->title, kind->name);
}

int
main(void)
{
  unsigned n       = 0U;
  unsigned plugins = 0U;
  for (const P4dKindClass* kind = NULL; (kind = p4d_kind_at(n)); ++n) {
    if (kind->pictures) {
      test_pictures(kind);
      continue;
    }
    test_facts(kind);
    test_run(kind);
    ++plugins;
  }
  assert(plugins == P4D_N_PLUGINS);
  assert(!p4d_kind_by_plugin(P4D_PLUGIN_NONE));
  for (unsigned id = 0U; id < P4D_N_PLUGINS; ++id) {
    assert(p4d_kind_by_plugin((P4dPluginId)id));
  }
  assert(!p4d_kind_by_name("bogus") && !p4d_kind_by_name(NULL));
  assert(!p4d_kind_by_uri("urn:perlin4d:bogus"));
  assert(!p4d_kind_default(false)->takes_input);
  assert(p4d_kind_default(true)->takes_input);
  printf("# %u classes, one per plugin and %u of pictures\n", n, n - plugins);
  return 0;
}
