// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The presets of the built bundle as a host reads them, through lilv: each
  plugin has at least the released presets (support/ttl_contract.c), each
  preset loads from its own file, has a label, and sets only control
  inputs of its plugin, each once, to a number in the range the port
  declares (whole if the port is an integer); and the bundle holds at least
  the released number of distinct presets.

  Usage: test_ttl_presets BUNDLE_DIR
*/

#undef NDEBUG

#include "support/ttl_contract.h"
#include "support/ttl_read.h"

#include <lilv/lilv.h>
#include <lv2/core/lv2.h>
#include <lv2/presets/presets.h>

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/// Presets in the bundle, at least (the released ones).
#define MIN_PRESETS 18U

/// Ports this test can hold.
#define MAX_PORTS 64U

/// Check one lv2:port of a preset: a control input, set once, in its range.
static void
check_setting(const LilvPlugin* const plugin,
              const char* const       preset,
              const LilvNode* const   setting,
              bool* const             set)
{
  LilvNode* const symbol = p4d_ttl_get_one(preset, setting, LV2_CORE__symbol);
  LilvNode* const value  = p4d_ttl_get_one(preset, setting, LV2_PRESETS__value);
  const char* const     sym  = lilv_node_as_string(symbol);
  const LilvPort* const port = lilv_plugin_get_port_by_symbol(plugin, symbol);
  p4d_ttl_expect(
    port && lilv_port_is_a(plugin, port, p4d_ttl_node(LV2_CORE__ControlPort)) &&
      lilv_port_is_a(plugin, port, p4d_ttl_node(LV2_CORE__InputPort)),
    "preset %s sets %s, not a control input",
    preset,
    sym);

  const uint32_t index = lilv_port_get_index(plugin, port);
  p4d_ttl_expect(
    index < MAX_PORTS && !set[index], "preset %s sets %s twice", preset, sym);
  set[index] = true;

  LilvNode* min = NULL;
  LilvNode* max = NULL;
  lilv_port_get_range(plugin, port, NULL, &min, &max);
  const float v = lilv_node_as_float(value);
  p4d_ttl_expect(
    p4d_ttl_is_number(value) && v >= lilv_node_as_float(min) &&
      v <= lilv_node_as_float(max) &&
      (!lilv_port_has_property(plugin, port, p4d_ttl_node(LV2_CORE__integer)) ||
       v == floorf(v)),
    "preset %s: %s = %s is not a number in [%s, %s] (whole if integer)",
    preset,
    sym,
    lilv_node_as_string(value),
    lilv_node_as_string(min),
    lilv_node_as_string(max));

  lilv_node_free(min);
  lilv_node_free(max);
  lilv_node_free(value);
  lilv_node_free(symbol);
}

/// Load every preset of a plugin on its own, check it, unload it; count them.
static unsigned
check_presets(const P4dTtlPlugin* const spec, const LilvPlugin* const plugin)
{
  LilvNodes* const presets =
    lilv_plugin_get_related(plugin, p4d_ttl_node(LV2_PRESETS__Preset));
  const unsigned n = presets ? lilv_nodes_size(presets) : 0U;

  LilvIter* i = presets ? lilv_nodes_begin(presets) : NULL;
  for (; presets && !lilv_nodes_is_end(presets, i);
       i = lilv_nodes_next(presets, i)) {
    const LilvNode* const preset = lilv_nodes_get(presets, i);
    const char* const     uri    = lilv_node_as_uri(preset);
    p4d_ttl_expect(lilv_world_load_resource(p4d_ttl_world(), preset) > 0,
                   "preset %s does not load (no rdfs:seeAlso to a file?)",
                   uri);
    p4d_ttl_check_value(uri, preset, LILV_NS_RDFS "label", NULL);

    LilvNodes* const settings = lilv_world_find_nodes(
      p4d_ttl_world(), preset, p4d_ttl_node(LV2_CORE__port), NULL);
    p4d_ttl_expect(settings && lilv_nodes_size(settings) > 0U,
                   "preset %s sets no control",
                   uri);
    bool      set[MAX_PORTS] = { false };
    LilvIter* j              = lilv_nodes_begin(settings);
    for (; !lilv_nodes_is_end(settings, j); j = lilv_nodes_next(settings, j)) {
      check_setting(plugin, uri, lilv_nodes_get(settings, j), set);
    }

    lilv_nodes_free(settings);

    // Unload, so that the next preset must load its own file, as in a host
    p4d_ttl_expect(lilv_world_unload_resource(p4d_ttl_world(), preset) >= 0,
                   "preset %s does not unload",
                   uri);
  }

  lilv_nodes_free(presets);
  p4d_ttl_expect(n >= spec->min_presets,
                 "%s has %u presets, fewer than %u",
                 spec->uri,
                 n,
                 spec->min_presets);
  return n;
}

int
main(const int argc, char** const argv)
{
  p4d_ttl_open(argc, argv);
  for (size_t i = 0U; i < P4D_TTL_N_PLUGINS; ++i) {
    const P4dTtlPlugin* const spec = &p4d_ttl_plugins[i];
    const unsigned n = check_presets(spec, p4d_ttl_find_plugin(spec));
    printf("# %s: %u presets load and are in range\n", spec->uri, n);
  }

  LilvNodes* const presets =
    lilv_world_find_nodes(p4d_ttl_world(),
                          NULL,
                          p4d_ttl_node(LILV_NS_RDF "type"),
                          p4d_ttl_node(LV2_PRESETS__Preset));
  const unsigned n_presets = presets ? lilv_nodes_size(presets) : 0U;
  lilv_nodes_free(presets);
  p4d_ttl_expect(n_presets >= MIN_PRESETS,
                 "%u presets in the bundle, fewer than %u",
                 n_presets,
                 MIN_PRESETS);
  printf("# %u distinct presets in the bundle\n", n_presets);
  p4d_ttl_close();
  return 0;
}
