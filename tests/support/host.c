// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "host.h"

#include "host_checks.h"
#include "params.h"
#include "urid_map.h"

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/core/lv2.h>
#include <lv2/time/time.h>

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char p4d_host_case[160] = "setup";

const uint32_t p4d_host_mixed[P4D_HOST_N_MIXED] = {
  0U, 1U, 7U, 64U, 4096U, 3U, 0U, 333U, 1U, 2U, 1000U, 63U, 65U, 511U
};

// -- The world -------------------------------------------------------------

static LilvWorld*         world   = NULL;
static const LilvPlugins* plugins = NULL;
static LilvNode*          lv2_InputPort;
static LilvNode*          lv2_ControlPort;
static LilvNode*          lv2_AudioPort;
static LilvNode*          lv2_CVPort;
static LilvNode*          lv2_integer;
static LilvNode*          atom_AtomPort;

void
p4d_world_load_bundle(LilvWorld* w, const char* dir)
{
  // lilv wants the bundle's file URI with a trailing slash.
  const size_t len  = strlen(dir);
  char* const  path = (char*)calloc(len + 2U, 1U);
  assert(path);
  memcpy(path, dir, len + 1U);
  if (len == 0U || dir[len - 1U] != '/') {
    path[len] = '/';
  }

  LilvNode* const uri = lilv_new_file_uri(w, NULL, path);
  if (!uri) {
    fprintf(stderr, "no file URI for %s\n", path);
  }
  assert(uri);
  lilv_world_load_bundle(w, uri);
  lilv_node_free(uri);
  free(path);
}

LilvWorld*
p4d_host_world_open(const char* bundle_dir)
{
  assert(!world);
  world = lilv_world_new();
  assert(world);
  p4d_world_load_bundle(world, bundle_dir);
  plugins = lilv_world_get_all_plugins(world);
  printf("# bundle %s: %u plugins\n", bundle_dir, lilv_plugins_size(plugins));
  assert(lilv_plugins_size(plugins) == 4U);
  lv2_InputPort   = lilv_new_uri(world, LV2_CORE__InputPort);
  lv2_ControlPort = lilv_new_uri(world, LV2_CORE__ControlPort);
  lv2_AudioPort   = lilv_new_uri(world, LV2_CORE__AudioPort);
  lv2_CVPort      = lilv_new_uri(world, LV2_CORE__CVPort);
  lv2_integer     = lilv_new_uri(world, LV2_CORE__integer);
  atom_AtomPort   = lilv_new_uri(world, LV2_ATOM__AtomPort);
  return world;
}

void
p4d_host_world_close(void)
{
  lilv_node_free(atom_AtomPort);
  lilv_node_free(lv2_integer);
  lilv_node_free(lv2_CVPort);
  lilv_node_free(lv2_AudioPort);
  lilv_node_free(lv2_ControlPort);
  lilv_node_free(lv2_InputPort);
  lilv_world_free(world);
  world   = NULL;
  plugins = NULL;
}

const LilvPlugin*
p4d_host_plugin(const char* uri)
{
  LilvNode* const         node   = lilv_new_uri(world, uri);
  const LilvPlugin* const plugin = lilv_plugins_get_by_uri(plugins, node);
  lilv_node_free(node);
  assert(plugin);
  return plugin;
}

// -- Instances -------------------------------------------------------------

uint32_t
p4d_host_port(const P4dHost* h, const char* symbol)
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

void
p4d_host_set(P4dHost* h, const char* symbol, float value)
{
  const uint32_t i = p4d_host_port(h, symbol);
  assert(h->control_in[i]);
  h->value[i] = value;
}

/// The value of control input i as the plugin must see it, from the TTL.
static float
clamped(const P4dHost* h, uint32_t i)
{
  const float v = h->value[i];
  if (isnan(v)) {
    return h->def[i];
  }

  const float c = v < h->minimum[i]   ? h->minimum[i]
                  : v > h->maximum[i] ? h->maximum[i]
                                      : v;
  return h->integer[i] ? floorf(c + 0.5f) : c;
}

float
p4d_host_clamped(const P4dHost* h, const char* symbol)
{
  return clamped(h, p4d_host_port(h, symbol));
}

void
p4d_host_set_defaults(P4dHost* h)
{
  for (uint32_t i = 0U; i < h->n_ports; ++i) {
    if (h->control_in[i]) {
      h->value[i] = h->def[i];
    }
  }
}

void
p4d_host_connect_midi(P4dHost* h, bool connect)
{
  assert(h->midi_port >= 0);
  h->midi_connected = connect;
  lilv_instance_connect_port(
    h->instance, (uint32_t)h->midi_port, connect ? h->midi : NULL);
}

const char* const p4d_host_uris[3] = { P4D_HOST_URI_MOD,
                                       P4D_HOST_URI_MOD_CV,
                                       P4D_HOST_URI_NOISE };

void
p4d_host_main(int argc, char** argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s BUNDLE_PATH\n", argv[0]);
    exit(2);
  }

  assert(!setvbuf(stdout, NULL, _IOLBF, 0U));
  p4d_host_world_open(argv[1]);
}

P4dHost*
p4d_host_new(const char* uri, double rate, bool with_map)
{
  P4dHost* const h = (P4dHost*)calloc(1U, sizeof(P4dHost));
  assert(h);

  h->plugin        = p4d_host_plugin(uri);
  h->noise         = !strcmp(uri, P4D_HOST_URI_NOISE);
  h->motion        = !strcmp(uri, P4D_HOST_URI_MOTION);
  h->latency_port  = -1;
  h->rate          = rate;
  h->with_map      = with_map;
  h->midi_port     = -1;
  h->midi_capacity = P4D_HOST_SEQ_BYTES - (uint32_t)sizeof(LV2_Atom);
  h->n_ports       = lilv_plugin_get_num_ports(h->plugin);
  assert(h->n_ports <= P4D_HOST_MAX_PORTS);
  h->instance = lilv_plugin_instantiate(
    h->plugin, rate, with_map ? p4d_features_map : p4d_features_none);
  assert(h->instance);
  lv2_atom_forge_init(&h->forge, &p4d_urid_map);

  for (uint32_t i = 0U; i < h->n_ports; ++i) {
    const LilvPort* const port = lilv_plugin_get_port_by_index(h->plugin, i);
    const bool input           = lilv_port_is_a(h->plugin, port, lv2_InputPort);
    h->symbol[i] = lilv_node_as_string(lilv_port_get_symbol(h->plugin, port));

    if (lilv_port_is_a(h->plugin, port, lv2_ControlPort)) {
      LilvNode* def = NULL;
      LilvNode* min = NULL;
      LilvNode* max = NULL;
      lilv_port_get_range(h->plugin, port, &def, &min, &max);
      h->def[i]     = def ? lilv_node_as_float(def) : 0.0f;
      h->minimum[i] = min ? lilv_node_as_float(min) : -INFINITY;
      h->maximum[i] = max ? lilv_node_as_float(max) : INFINITY;
      lilv_node_free(def);
      lilv_node_free(min);
      lilv_node_free(max);
      h->integer[i]    = lilv_port_has_property(h->plugin, port, lv2_integer);
      h->control_in[i] = input;
      h->value[i]      = input ? h->def[i] : 0.0f;
      if (!input && !strcmp(h->symbol[i], "latency")) {
        h->latency_port = (int)i;
      } else if (!input) {
        assert(h->n_outs < P4D_HOST_MAX_OUTS);
        h->out_port[h->n_outs++] = i;
      }
      lilv_instance_connect_port(h->instance, i, &h->value[i]);
    } else if (input && lilv_port_is_a(h->plugin, port, lv2_AudioPort)) {
      assert(h->n_ins < 2U);
      h->in_port[h->n_ins++] = i;
    } else if (lilv_port_is_a(h->plugin, port, lv2_AudioPort) ||
               lilv_port_is_a(h->plugin, port, lv2_CVPort)) {
      assert(!input);
      assert(h->n_signals < P4D_HOST_MAX_OUTS);
      h->signal_port[h->n_signals++] = i;
    } else {
      assert(lilv_port_is_a(h->plugin, port, atom_AtomPort));
      if (input) {
        assert(!strcmp(h->symbol[i], "control"));
        lilv_instance_connect_port(h->instance, i, h->control);
      } else {
        assert(!strcmp(h->symbol[i], "midi_out"));
        h->midi_port = (int)i;
        p4d_host_connect_midi(h, true);
      }
    }
  }

  // The bundle has the ports of the port table, and every channel output.
  const P4dPlugin* const table = p4d_plugin_find(uri);
  assert(table && h->n_ports == table->n_ports);
  assert((h->n_ins == 2U) == h->motion);
  assert((h->latency_port >= 0) == h->motion);
  if (h->noise) {
    assert(h->n_signals == 2U && h->n_outs == 0U && h->midi_port < 0);
  } else if (h->motion) {
    assert(h->n_signals == 2U && h->n_outs == 4U && h->midi_port < 0);
  } else {
    const P4dPort* const midi =
      p4d_plugin_port_with(table, P4D_PORT_MIDI_OUT, 0U);
    assert(h->n_outs == 4U && h->midi_port == (int)midi->index);
    assert(h->n_signals ==
           (p4d_plugin_port_with(table, P4D_PORT_CV_OUT, 0U) ? 4U : 0U));
  }
  return h;
}

void
p4d_host_free(P4dHost* h)
{
  if (h->active) {
    lilv_instance_deactivate(h->instance);
  }
  lilv_instance_free(h->instance);
  free(h);
}

void
p4d_host_activate(P4dHost* h)
{
  if (h->active) {
    lilv_instance_deactivate(h->instance);
  }
  lilv_instance_activate(h->instance);
  h->active  = true;
  h->frame   = 0;
  h->ran     = false;
  h->lo      = INFINITY;
  h->hi      = -INFINITY;
  h->peak_db = -INFINITY;
  h->n_ccs   = 0U;
}

/// A LilvSetPortValueFunc: a preset's value into the control port buffer.
static void
set_port_value(const char* symbol,
               void*       data,
               const void* value,
               uint32_t    size,
               uint32_t    type)
{
  P4dHost* const h = (P4dHost*)data;
  float          v = 0.0f;
  if (type == p4d_urid(LV2_ATOM__Float) && size == sizeof(float)) {
    v = *(const float*)value;
  } else if (type == p4d_urid(LV2_ATOM__Double) && size == sizeof(double)) {
    v = (float)*(const double*)value;
  } else if (type == p4d_urid(LV2_ATOM__Int) && size == sizeof(int32_t)) {
    v = (float)*(const int32_t*)value;
  } else if (type == p4d_urid(LV2_ATOM__Long) && size == sizeof(int64_t)) {
    v = (float)*(const int64_t*)value;
  } else {
    fprintf(stderr, "port '%s': value of unknown type %u\n", symbol, type);
    assert(false && "preset value of unknown type");
  }
  p4d_host_set(h, symbol, v);
}

void
p4d_host_load_preset(P4dHost* h, const char* uri)
{
  LilvNode* const preset = lilv_new_uri(world, uri);
  lilv_world_load_resource(world, preset);
  LilvState* const state =
    lilv_state_new_from_world(world, &p4d_urid_map, preset);
  assert(state);
  lilv_state_restore(
    state, h->instance, set_port_value, h, 0U, p4d_features_map);
  lilv_state_free(state);
  lilv_node_free(preset);
}

const char*
p4d_host_name(const P4dHost* h)
{
  return h->noise       ? "noise"
         : h->motion    ? "motion"
         : h->n_signals ? "mod-cv"
                        : "mod";
}

void
p4d_host_set_lively(P4dHost* h)
{
  if (h->motion) {
    // Every target moving fast, as in the presets at their busiest.
    p4d_host_set(h, "rate_hz", 3.0f);
    p4d_host_set(h, "octaves", 2.5f);
    p4d_host_set(h, "spread", 0.6f);
    p4d_host_set(h, "seed", 77.0f);
    p4d_host_set(h, "gain_db", 9.0f);
    p4d_host_set(h, "pan_depth", 0.8f);
    p4d_host_set(h, "width", 0.7f);
    p4d_host_set(h, "filter_mode", 1.0f);
    p4d_host_set(h, "cutoff_hz", 2000.0f);
    p4d_host_set(h, "filter_oct", 3.0f);
    p4d_host_set(h, "resonance", 0.6f);
    p4d_host_set(h, "wow_ms", 4.0f);
    p4d_host_set(h, "flutter_ms", 0.5f);
    p4d_host_set(h, "mix", 0.8f);
  } else if (h->noise) {
    p4d_host_set(h, "level_db", -6.0f);
    p4d_host_set(h, "grain_hz", 3000.0f);
    p4d_host_set(h, "octaves", 3.5f);
    p4d_host_set(h, "lacunarity", 2.3f);
    p4d_host_set(h, "persistence", 0.6f);
    p4d_host_set(h, "evolve_hz", 3.0f);
    p4d_host_set(h, "width", 0.6f);
    p4d_host_set(h, "morph_y", -2.5f);
    p4d_host_set(h, "seed", 9.0f);
  } else {
    p4d_host_set(h, "rate_hz", 7.0f);
    p4d_host_set(h, "period_beats", 0.5f);
    p4d_host_set(h, "octaves", 2.5f);
    p4d_host_set(h, "lacunarity", 2.3f);
    p4d_host_set(h, "persistence", 0.6f);
    p4d_host_set(h, "spread", 0.7f);
    p4d_host_set(h, "morph_x", 1.25f);
    p4d_host_set(h, "seed", 77.0f);
    p4d_host_set(h, "out_min", -0.5f);
    p4d_host_set(h, "out_max", 0.9f);
  }
}

// -- Checks of every run ---------------------------------------------------

// -- Running ---------------------------------------------------------------

void
p4d_host_run(P4dHost* h, const P4dDest* d, size_t at, uint32_t n)
{
  p4d_host_check_bounds(h);

  if (h->control_set) {
    lv2_atom_forge_pop(&h->forge, &h->sequence);
    h->control_set = false;
  } else {
    LV2_Atom_Sequence* const seq = (LV2_Atom_Sequence*)h->control;
    seq->atom.type               = p4d_urid(LV2_ATOM__Sequence);
    seq->atom.size               = sizeof(LV2_Atom_Sequence_Body);
    seq->body.unit               = 0U;
    seq->body.pad                = 0U;
  }

  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    lilv_instance_connect_port(
      h->instance, h->signal_port[c], d && d->sig[c] ? d->sig[c] + at : NULL);
  }
  for (uint32_t c = 0U; c < h->n_ins; ++c) {
    lilv_instance_connect_port(
      h->instance, h->in_port[c], h->in_sig[c] ? h->in_sig[c] + at : NULL);
  }
  for (uint32_t c = 0U; c < h->n_outs; ++c) {
    lilv_instance_connect_port(h->instance,
                               h->out_port[c],
                               h->out_alias ? h->out_alias
                                            : &h->value[h->out_port[c]]);
  }

  if (h->midi_connected) {
    // Stale bytes, as a host's reused buffer holds, then an empty chunk.
    memset(h->midi, 0xA5, sizeof(h->midi));
    LV2_Atom* const atom = (LV2_Atom*)h->midi;
    atom->type           = p4d_urid(LV2_ATOM__Chunk);
    atom->size           = h->midi_capacity;
  }

  lilv_instance_run(h->instance, n);
  p4d_host_check_run(h, d, at, n);

  // Each control output at the block's last frame.
  for (uint32_t c = 0U; n && d && c < h->n_outs; ++c) {
    if (d->ctl[c]) {
      d->ctl[c][at + n - 1U] =
        h->out_alias ? *h->out_alias : h->value[h->out_port[c]];
    }
  }

  h->frame += n;
  h->ran = h->ran || n;
}

void
p4d_host_send_object(P4dHost*            h,
                     uint32_t            at,
                     const char*         otype,
                     const P4dHostField* fields,
                     size_t              n_fields)
{
  LV2_Atom_Forge* const f = &h->forge;
  if (!h->control_set) {
    lv2_atom_forge_set_buffer(f, (uint8_t*)h->control, sizeof(h->control));
    assert(lv2_atom_forge_sequence_head(f, &h->sequence, 0U));
    h->control_set = true;
  }

  LV2_Atom_Forge_Frame object;
  assert(lv2_atom_forge_frame_time(f, at));
  assert(lv2_atom_forge_object(f, &object, 0U, p4d_urid(otype)));
  for (size_t i = 0U; i < n_fields; ++i) {
    const P4dHostField* const p = &fields[i];
    assert(lv2_atom_forge_key(f, p4d_urid(p->key)));
    switch (p->type) {
    case 'l':
      assert(lv2_atom_forge_long(f, p->l));
      break;
    case 'i':
      assert(lv2_atom_forge_int(f, (int32_t)p->l));
      break;
    case 'f':
      assert(lv2_atom_forge_float(f, (float)p->d));
      break;
    default:
      assert(lv2_atom_forge_double(f, p->d));
      break;
    }
  }
  lv2_atom_forge_pop(f, &object);
}

void
p4d_host_send_int(P4dHost* h, uint32_t at, int32_t value)
{
  assert(h->control_set);
  assert(lv2_atom_forge_frame_time(&h->forge, at));
  assert(lv2_atom_forge_int(&h->forge, value));
}

void
p4d_host_send_position(P4dHost*                h,
                       uint32_t                at,
                       const P4dHostTransport* tr,
                       int64_t                 frame)
{
  const double beat = (double)frame / h->rate * tr->bpm / 60.0;
  const double bar  = floor(beat / 4.0);
  P4dHostField fields[6];
  size_t       n = 0U;

  fields[n++] = (P4dHostField){ LV2_TIME__frame, 'l', frame, 0.0 };
  fields[n++] = (P4dHostField){ LV2_TIME__speed, 'f', 0, tr->speed };
  if (tr->beat_form) {
    fields[n++] = (P4dHostField){ LV2_TIME__beat, 'd', 0, beat };
  } else {
    fields[n++] = (P4dHostField){ LV2_TIME__bar, 'l', (int64_t)bar, 0.0 };
    fields[n++] = (P4dHostField){ LV2_TIME__barBeat, 'f', 0, beat - bar * 4.0 };
    fields[n++] = (P4dHostField){ LV2_TIME__beatsPerBar, 'f', 0, 4.0 };
  }
  fields[n++] = (P4dHostField){ LV2_TIME__beatsPerMinute, 'f', 0, tr->bpm };
  p4d_host_send_object(h, at, LV2_TIME__Position, fields, n);
}

size_t
p4d_host_render(P4dHost*          h,
                const P4dDest*    d,
                size_t            n,
                const uint32_t*   pattern,
                size_t            n_pattern,
                P4dHostTransport* tr)
{
  size_t runs = 0U;
  for (size_t done = 0U, k = 0U; done < n; ++k) {
    uint32_t m = pattern[k % n_pattern];
    if (m > n - done) {
      m = (uint32_t)(n - done);
    }

    if (tr && tr->on) {
      p4d_host_send_position(h, 0U, tr, tr->frame);
      if (tr->mid && m >= 2U) {
        const uint32_t half = m / 2U; // whole frames: the division truncates
        p4d_host_send_position(
          h, half, tr, tr->frame + (int64_t)(tr->speed * (float)half));
      }
    }
    p4d_host_run(h, d, done, m);
    ++runs;

    if (tr) {
      tr->frame += (int64_t)(tr->speed * (float)m);
    }
    done += m;
  }
  return runs;
}
