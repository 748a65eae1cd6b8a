// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The port table's own rules (params.h): indices in order from 0 without a
  gap, unique symbols, one control port per parameter, one output per
  channel, defaults and scale points within range.  What each port must be
  is checked against hand-written expectations by test_ttl.
*/

#undef NDEBUG

#include "engine.h"
#include "motion.h"
#include "params.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void
test_plugin(const P4dPlugin* plugin)
{
  const P4dParamTable* const table = p4d_params(plugin->kind);
  unsigned                   controls[P4D_MAX_PARAMS]  = { 0U };
  unsigned                   outputs[P4D_MAX_CHANNELS] = { 0U };
  unsigned                   transports                = 0U;
  unsigned                   targets[P4D_MOTION_N_NOW] = { 0U };
  unsigned                   inputs[P4D_MAX_CHANNELS]  = { 0U };
  unsigned                   latencies                 = 0U;
  const bool                 motion = plugin->kind == P4D_KIND_MOTION;

  assert(p4d_plugin_find(plugin->uri) == plugin);
  for (uint32_t i = 0U; i < plugin->n_ports; ++i) {
    const P4dPort* const port = p4d_plugin_port(plugin, i);
    assert(port == &plugin->ports[i] && port->index == i);

    const char* const symbol = p4d_port_symbol(plugin, port);
    assert(symbol && p4d_port_name(plugin, port));
    for (uint32_t j = 0U; j < i; ++j) {
      assert(strcmp(symbol, p4d_port_symbol(plugin, &plugin->ports[j])));
    }

    switch (port->role) {
    case P4D_PORT_TRANSPORT_IN:
      ++transports;
      break;
    case P4D_PORT_MIDI_OUT:
      assert(plugin->kind == P4D_KIND_MOD);
      break;
    case P4D_PORT_CONTROL_IN:
      assert(port->id < table->n_params && !port->symbol && !port->name);
      ++controls[port->id];
      break;
    case P4D_PORT_CONTROL_OUT:
      assert(port->minimum < port->maximum);
      if (motion) {
        // One per target of the processor (motion.h's P4dMotionNow)
        assert(port->id < P4D_MOTION_N_NOW);
        ++targets[port->id];
        break;
      }
      // fall through
    case P4D_PORT_CV_OUT:
      assert(port->minimum < port->maximum);
      // fall through
    case P4D_PORT_AUDIO_OUT:
      assert(port->id < p4d_engine_channels(plugin->kind));
      outputs[port->id] += port->role != P4D_PORT_CV_OUT;
      break;
    case P4D_PORT_AUDIO_IN:
      assert(motion && port->id < p4d_engine_channels(plugin->kind));
      ++inputs[port->id];
      break;
    case P4D_PORT_LATENCY_OUT:
      assert(motion && port->minimum == 0.0f && port->maximum > 0.0f);
      assert(port->unit == P4D_UNIT_FRAME);
      ++latencies;
      break;
    }
  }
  assert(!p4d_plugin_port(plugin, plugin->n_ports));

  assert(transports == 1U);
  assert(latencies == (motion ? 1U : 0U));
  for (unsigned t = 0U; t < P4D_MOTION_N_NOW; ++t) {
    assert(targets[t] == (motion ? 1U : 0U));
  }
  for (uint32_t p = 0U; p < table->n_params; ++p) {
    assert(controls[p] == 1U);
  }
  for (unsigned c = 0U; c < p4d_engine_channels(plugin->kind); ++c) {
    assert(outputs[c] == 1U);
    assert(inputs[c] == (motion ? 1U : 0U));
    assert(p4d_plugin_port_with(
      plugin,
      plugin->kind == P4D_KIND_MOD ? P4D_PORT_CONTROL_OUT : P4D_PORT_AUDIO_OUT,
      c));
  }

  printf("# %s: %u ports in index order, %u controls, %u channels\n",
         plugin->uri,
         (unsigned)plugin->n_ports,
         (unsigned)table->n_params,
         p4d_engine_channels(plugin->kind));
}

static void
test_params(P4dKind kind)
{
  const P4dParamTable* const table = p4d_params(kind);
  // Engines, drivers and presets size their parameter arrays by it.
  assert(table->n_params <= P4D_MAX_PARAMS);
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    const P4dParam* const p = &table->params[i];
    assert(p->minimum <= p->def && p->def <= p->maximum);
    assert(p4d_param_find(table, p->symbol) == (int)i);
    assert(p4d_param_clamp(p, p->def) == p->def);
    for (const P4dScalePoint* sp = p->points; sp && sp->label; ++sp) {
      assert(p->minimum <= sp->value && sp->value <= p->maximum);
    }
    assert(!(p->flags & P4D_PARAM_ENUMERATION) || p->points);
    assert(!strcmp(p4d_unit_label(p->unit), "") == !p4d_unit_uri(p->unit));
  }
  assert(p4d_param_find(table, "no_such_symbol") == -1);
}

static void
test_channel_symbols(void)
{
  static const char* const mod[]   = { "out_1", "out_2", "out_3", "out_4" };
  static const char* const noise[] = { "out_l", "out_r" };
  for (unsigned c = 0U; c < 4U; ++c) {
    assert(!strcmp(p4d_channel_symbol(P4D_KIND_MOD, c), mod[c]));
  }
  for (unsigned c = 0U; c < 2U; ++c) {
    assert(!strcmp(p4d_channel_symbol(P4D_KIND_NOISE, c), noise[c]));
  }
  for (unsigned c = 0U; c < 2U; ++c) {
    assert(!strcmp(p4d_channel_symbol(P4D_KIND_MOTION, c), noise[c]));
  }
  assert(!p4d_channel_symbol(P4D_KIND_MOD, 4U));
  assert(!p4d_channel_symbol(P4D_KIND_MOTION, 2U));
  assert(!p4d_channel_symbol(P4D_KIND_NOISE, 2U));
}

int
main(void)
{
  for (unsigned i = 0U; i < P4D_N_PLUGINS; ++i) {
    test_plugin(p4d_plugin((P4dPluginId)i));
  }
  assert(!p4d_plugin_find("urn:perlin4d:none"));
  test_params(P4D_KIND_MOD);
  test_params(P4D_KIND_NOISE);
  test_params(P4D_KIND_MOTION);
  test_channel_symbols();
  return 0;
}
