// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The built bundle as a host reads it, through lilv, against the one
  parameter table: every control input agrees with its table entry (index,
  symbol, name, range, default, unit, properties, scale points), the other
  ports are the ones the plugins promise, the plugins carry the metadata
  hosts show, and every preset loads and stays in range.

  Usage: test_ttl BUNDLE_DIR
*/

#undef NDEBUG

#include "params.h"

#include "support/host.h"

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/core/lv2.h>
#include <lv2/midi/midi.h>
#include <lv2/port-props/port-props.h>
#include <lv2/presets/presets.h>
#include <lv2/time/time.h>
#include <lv2/units/units.h>

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// What a port that is not a control input must be.
typedef enum {
  PORT_ATOM_IN,     ///< atom:Sequence input that supports time:Position
  PORT_MIDI_OUT,    ///< atom:Sequence output of midi:MidiEvent
  PORT_CONTROL_OUT, ///< lv2:ControlPort output
  PORT_CV_OUT,      ///< lv2:CVPort output, lv2:connectionOptional
  PORT_AUDIO_OUT,   ///< lv2:AudioPort output
} PortKind;

typedef struct {
  uint32_t    index;
  const char* symbol;
  PortKind    kind;
} FixedPort;

/// What one plugin must be: ports beyond its controls, class, presets.
typedef struct {
  const char*      uri;
  const char*      name;
  const char*      class_uri;
  P4dKind          kind;
  uint32_t         n_ports;
  const FixedPort* fixed;
  uint32_t         n_fixed;
  unsigned         min_presets;
} PluginSpec;

static const FixedPort mod_fixed[] = {
  { 0U, "control", PORT_ATOM_IN },    { 1U, "midi_out", PORT_MIDI_OUT },
  { 21U, "out_1", PORT_CONTROL_OUT }, { 22U, "out_2", PORT_CONTROL_OUT },
  { 23U, "out_3", PORT_CONTROL_OUT }, { 24U, "out_4", PORT_CONTROL_OUT },
};

static const FixedPort mod_cv_fixed[] = {
  { 0U, "control", PORT_ATOM_IN },    { 1U, "midi_out", PORT_MIDI_OUT },
  { 21U, "out_1", PORT_CONTROL_OUT }, { 22U, "out_2", PORT_CONTROL_OUT },
  { 23U, "out_3", PORT_CONTROL_OUT }, { 24U, "out_4", PORT_CONTROL_OUT },
  { 25U, "cv_1", PORT_CV_OUT },       { 26U, "cv_2", PORT_CV_OUT },
  { 27U, "cv_3", PORT_CV_OUT },       { 28U, "cv_4", PORT_CV_OUT },
};

static const FixedPort noise_fixed[] = {
  { 0U, "control", PORT_ATOM_IN },
  { 1U, "out_l", PORT_AUDIO_OUT },
  { 2U, "out_r", PORT_AUDIO_OUT },
};

#define N_FIXED(ports) ((uint32_t)(sizeof(ports) / sizeof((ports)[0])))

static const PluginSpec plugin_specs[] = {
  { "urn:perlin4d:mod",
    "Perlin4D Mod",
    LV2_CORE__UtilityPlugin,
    P4D_KIND_MOD,
    25U,
    mod_fixed,
    N_FIXED(mod_fixed),
    3U },
  { "urn:perlin4d:mod-cv",
    "Perlin4D Mod CV",
    LV2_CORE__UtilityPlugin,
    P4D_KIND_MOD,
    29U,
    mod_cv_fixed,
    N_FIXED(mod_cv_fixed),
    0U },
  { "urn:perlin4d:noise",
    "Perlin4D Noise",
    LV2_CORE__GeneratorPlugin,
    P4D_KIND_NOISE,
    15U,
    noise_fixed,
    N_FIXED(noise_fixed),
    3U },
};

/// Presets over all plugins, at least.
#define MIN_PRESETS 8U

/// Distinct presets this test can count.
#define MAX_PRESETS 64U

/// Where an installed LV2 core specification may live, after LV2_PATH.
static const char* const lv2_dirs[] = {
  "/usr/lib/lv2",
  "/usr/local/lib/lv2",
  "/usr/lib/x86_64-linux-gnu/lv2",
  "/usr/lib/aarch64-linux-gnu/lv2",
  "/usr/lib64/lv2",
};

/// The units: URI of each P4dUnit, NULL for no unit.
static const char* const unit_uris[] = {
  NULL, LV2_UNITS__hz, LV2_UNITS__db, LV2_UNITS__ms, LV2_UNITS__beat,
};

typedef struct {
  LilvNode* atom_AtomPort;
  LilvNode* atom_Sequence;
  LilvNode* atom_bufferType;
  LilvNode* doap_license;
  LilvNode* doap_maintainer;
  LilvNode* doap_name;
  LilvNode* lv2_AudioPort;
  LilvNode* lv2_CVPort;
  LilvNode* lv2_ControlPort;
  LilvNode* lv2_InputPort;
  LilvNode* lv2_OutputPort;
  LilvNode* lv2_connectionOptional;
  LilvNode* lv2_enumeration;
  LilvNode* lv2_hardRTCapable;
  LilvNode* lv2_integer;
  LilvNode* lv2_microVersion;
  LilvNode* lv2_minorVersion;
  LilvNode* lv2_port;
  LilvNode* lv2_symbol;
  LilvNode* lv2_toggled;
  LilvNode* midi_MidiEvent;
  LilvNode* pprops_logarithmic;
  LilvNode* pset_Preset;
  LilvNode* pset_value;
  LilvNode* rdfs_label;
  LilvNode* time_Position;
  LilvNode* units_unit;
} Uris;

/// URI nodes this test owns.
#define MAX_OWNED 32U

static LilvWorld* world = NULL;
static Uris       uris;
static LilvNode*  owned[MAX_OWNED];
static unsigned   n_owned = 0U;

/// Distinct presets seen so far, over all plugins.
static LilvNode* presets_seen[MAX_PRESETS];
static unsigned  n_presets_seen = 0U;

/// Fail with a message that names the culprit unless ok.
static void
expect(const bool ok, const char* const fmt, ...)
{
  if (!ok) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n");
    va_end(args);
  }

  assert(ok);
}

/// Return a new URI node, freed by uris_free().
static LilvNode*
new_uri(const char* const uri)
{
  assert(n_owned < MAX_OWNED);
  owned[n_owned] = lilv_new_uri(world, uri);
  return owned[n_owned++];
}

static void
uris_init(void)
{
  uris.atom_AtomPort          = new_uri(LV2_ATOM__AtomPort);
  uris.atom_Sequence          = new_uri(LV2_ATOM__Sequence);
  uris.atom_bufferType        = new_uri(LV2_ATOM__bufferType);
  uris.doap_license           = new_uri(LILV_NS_DOAP "license");
  uris.doap_maintainer        = new_uri(LILV_NS_DOAP "maintainer");
  uris.doap_name              = new_uri(LILV_NS_DOAP "name");
  uris.lv2_AudioPort          = new_uri(LV2_CORE__AudioPort);
  uris.lv2_CVPort             = new_uri(LV2_CORE__CVPort);
  uris.lv2_ControlPort        = new_uri(LV2_CORE__ControlPort);
  uris.lv2_InputPort          = new_uri(LV2_CORE__InputPort);
  uris.lv2_OutputPort         = new_uri(LV2_CORE__OutputPort);
  uris.lv2_connectionOptional = new_uri(LV2_CORE__connectionOptional);
  uris.lv2_enumeration        = new_uri(LV2_CORE__enumeration);
  uris.lv2_hardRTCapable      = new_uri(LV2_CORE__hardRTCapable);
  uris.lv2_integer            = new_uri(LV2_CORE__integer);
  uris.lv2_microVersion       = new_uri(LV2_CORE__microVersion);
  uris.lv2_minorVersion       = new_uri(LV2_CORE__minorVersion);
  uris.lv2_port               = new_uri(LV2_CORE__port);
  uris.lv2_symbol             = new_uri(LV2_CORE__symbol);
  uris.lv2_toggled            = new_uri(LV2_CORE__toggled);
  uris.midi_MidiEvent         = new_uri(LV2_MIDI__MidiEvent);
  uris.pprops_logarithmic     = new_uri(LV2_PORT_PROPS__logarithmic);
  uris.pset_Preset            = new_uri(LV2_PRESETS__Preset);
  uris.pset_value             = new_uri(LV2_PRESETS__value);
  uris.rdfs_label             = new_uri(LILV_NS_RDFS "label");
  uris.time_Position          = new_uri(LV2_TIME__Position);
  uris.units_unit             = new_uri(LV2_UNITS__unit);
}

static void
uris_free(void)
{
  for (unsigned i = 0U; i < n_owned; ++i) {
    lilv_node_free(owned[i]);
  }
}

/// Return whether a file can be opened for reading.
static bool
file_exists(const char* const path)
{
  FILE* const file = fopen(path, "rb");
  if (file) {
    fclose(file);
  }

  return file != NULL;
}

/// Load core.lv2 from dir if it is there, and return whether it was.
static bool
load_core_spec_from(const char* const dir, const size_t len)
{
  static const char core[] = "/core.lv2/";
  char              path[4096];
  if (len == 0U || len + sizeof(core) + sizeof("manifest.ttl") > sizeof(path)) {
    return false;
  }

  memcpy(path, dir, len);
  memcpy(path + len, core, sizeof(core));
  strcat(path, "manifest.ttl");
  if (!file_exists(path)) {
    return false;
  }

  path[len + sizeof(core) - 1U] = '\0';
  p4d_world_load_bundle(world, path);
  return true;
}

/**
   Load the LV2 core specification, so that plugin classes resolve, without
   loading any other plugin (an installed perlin4d must not hide the build).
*/
static void
load_core_spec(void)
{
  const char* const env = getenv("LV2_PATH");
  for (const char* dir = env; dir && *dir;) {
    const char* const end = strchr(dir, ':');
    const size_t      len = end ? (size_t)(end - dir) : strlen(dir);
    if (load_core_spec_from(dir, len)) {
      return;
    }

    dir = end ? end + 1 : NULL;
  }

  for (size_t i = 0U; i < sizeof(lv2_dirs) / sizeof(lv2_dirs[0]); ++i) {
    if (load_core_spec_from(lv2_dirs[i], strlen(lv2_dirs[i]))) {
      return;
    }
  }

  expect(false, "LV2 core specification (core.lv2, from lv2-dev) not found");
}

static void
setup(const char* const bundle_dir)
{
  world = lilv_world_new();
  assert(world);
  uris_init();
  load_core_spec();
  lilv_world_load_specifications(world);
  lilv_world_load_plugin_classes(world);
  p4d_world_load_bundle(world, bundle_dir);
}

static void
teardown(void)
{
  for (unsigned i = 0U; i < n_presets_seen; ++i) {
    lilv_node_free(presets_seen[i]);
  }

  uris_free();
  lilv_world_free(world);
}

/// Return the number of scale points of a parameter.
static unsigned
count_points(const P4dScalePoint* const points)
{
  unsigned n = 0U;
  while (points && points[n].label) {
    ++n;
  }

  return n;
}

static bool
is_number(const LilvNode* const node)
{
  return node && (lilv_node_is_float(node) || lilv_node_is_int(node));
}

/// Check that a port is of type and flows the expected way.
static void
check_port_type(const LilvPlugin* const plugin,
                const LilvPort* const   port,
                const LilvNode* const   type,
                const bool              output)
{
  const char* const symbol =
    lilv_node_as_string(lilv_port_get_symbol(plugin, port));

  expect(lilv_port_is_a(plugin, port, type),
         "port %s is not a %s",
         symbol,
         lilv_node_as_uri(type));
  expect(lilv_port_is_a(plugin, port, uris.lv2_OutputPort) == output &&
           lilv_port_is_a(plugin, port, uris.lv2_InputPort) == !output,
         "port %s is not an %s",
         symbol,
         output ? "output" : "input");
}

/// Check a number the TTL gives against the table (exactly, as floats).
static void
check_number(const char* const     symbol,
             const char* const     what,
             const LilvNode* const node,
             const float           expected)
{
  expect(is_number(node), "port %s has no numeric %s", symbol, what);
  const float value = lilv_node_as_float(node);
  expect(value == expected,
         "port %s: %s is %g (%a) in the TTL but %g (%a) in the table",
         symbol,
         what,
         (double)value,
         (double)value,
         (double)expected,
         (double)expected);
}

static void
check_property(const LilvPlugin* const plugin,
               const LilvPort* const   port,
               const P4dParam* const   param,
               const LilvNode* const   property,
               const bool              expected)
{
  expect(lilv_port_has_property(plugin, port, property) == expected,
         "port %s %s %s",
         param->symbol,
         expected ? "lacks" : "has",
         lilv_node_as_uri(property));
}

static void
check_unit(const LilvPlugin* const plugin,
           const LilvPort* const   port,
           const P4dParam* const   param)
{
  const char* const expected = unit_uris[param->unit];
  LilvNodes* const  units = lilv_port_get_value(plugin, port, uris.units_unit);
  const unsigned    n_units = units ? lilv_nodes_size(units) : 0U;

  if (!expected) {
    expect(n_units == 0U, "port %s has a unit, the table none", param->symbol);
  } else {
    expect(
      n_units == 1U &&
        !strcmp(lilv_node_as_string(lilv_nodes_get_first(units)), expected),
      "port %s: unit is not %s",
      param->symbol,
      expected);
  }

  lilv_nodes_free(units);
}

/// Return whether the table has a scale point with this value and label.
static bool
table_has_point(const P4dScalePoint* const points,
                const float                value,
                const char* const          label)
{
  for (unsigned k = 0U; points && points[k].label; ++k) {
    if (points[k].value == value && !strcmp(points[k].label, label)) {
      return true;
    }
  }

  return false;
}

/// Return whether the TTL has a scale point with this value and label.
static bool
ttl_has_point(const LilvScalePoints* const points,
              const float                  value,
              const char* const            label)
{
  for (LilvIter* i = lilv_scale_points_begin(points);
       !lilv_scale_points_is_end(points, i);
       i = lilv_scale_points_next(points, i)) {
    const LilvScalePoint* const point = lilv_scale_points_get(points, i);
    if (lilv_node_as_float(lilv_scale_point_get_value(point)) == value &&
        !strcmp(lilv_node_as_string(lilv_scale_point_get_label(point)),
                label)) {
      return true;
    }
  }

  return false;
}

static void
check_scale_points(const LilvPlugin* const plugin,
                   const LilvPort* const   port,
                   const P4dParam* const   param)
{
  LilvScalePoints* const points  = lilv_port_get_scale_points(plugin, port);
  const unsigned         n_ttl   = points ? lilv_scale_points_size(points) : 0U;
  const unsigned         n_table = count_points(param->points);

  expect(n_ttl == n_table,
         "port %s has %u scale points in the TTL but %u in the table",
         param->symbol,
         n_ttl,
         n_table);

  if (points) {
    for (LilvIter* i = lilv_scale_points_begin(points);
         !lilv_scale_points_is_end(points, i);
         i = lilv_scale_points_next(points, i)) {
      const LilvScalePoint* const point = lilv_scale_points_get(points, i);
      const LilvNode* const       value = lilv_scale_point_get_value(point);
      const LilvNode* const       label = lilv_scale_point_get_label(point);
      expect(is_number(value) && label,
             "port %s has a scale point without a number and a label",
             param->symbol);
      expect(table_has_point(param->points,
                             lilv_node_as_float(value),
                             lilv_node_as_string(label)),
             "port %s: scale point %g \"%s\" is not in the table",
             param->symbol,
             (double)lilv_node_as_float(value),
             lilv_node_as_string(label));
    }
  }

  for (unsigned k = 0U; k < n_table; ++k) {
    expect(points && ttl_has_point(
                       points, param->points[k].value, param->points[k].label),
           "port %s: scale point %g \"%s\" is not in the TTL",
           param->symbol,
           (double)param->points[k].value,
           param->points[k].label);
  }

  lilv_scale_points_free(points);
}

/// Check a control input port against its table entry.
static void
check_control_port(const LilvPlugin* const plugin,
                   const LilvPort* const   port,
                   const P4dParam* const   param)
{
  const char* const symbol =
    lilv_node_as_string(lilv_port_get_symbol(plugin, port));
  expect(!strcmp(symbol, param->symbol),
         "port %u is \"%s\" in the TTL but \"%s\" in the table",
         lilv_port_get_index(plugin, port),
         symbol,
         param->symbol);

  check_port_type(plugin, port, uris.lv2_ControlPort, false);

  LilvNode* const name = lilv_port_get_name(plugin, port);
  expect(name && !strcmp(lilv_node_as_string(name), param->name),
         "port %s is named \"%s\" in the TTL but \"%s\" in the table",
         symbol,
         name ? lilv_node_as_string(name) : "",
         param->name);
  lilv_node_free(name);

  LilvNode* def = NULL;
  LilvNode* min = NULL;
  LilvNode* max = NULL;
  lilv_port_get_range(plugin, port, &def, &min, &max);
  check_number(symbol, "minimum", min, param->minimum);
  check_number(symbol, "default", def, param->def);
  check_number(symbol, "maximum", max, param->maximum);
  lilv_node_free(def);
  lilv_node_free(min);
  lilv_node_free(max);

  check_unit(plugin, port, param);

  const unsigned flags = param->flags;
  check_property(
    plugin, port, param, uris.lv2_integer, (flags & P4D_PARAM_INTEGER) != 0U);
  check_property(plugin,
                 port,
                 param,
                 uris.lv2_enumeration,
                 (flags & P4D_PARAM_ENUMERATION) != 0U);
  check_property(plugin,
                 port,
                 param,
                 uris.pprops_logarithmic,
                 (flags & P4D_PARAM_LOGARITHMIC) != 0U);
  check_property(plugin, port, param, uris.lv2_toggled, false);

  check_scale_points(plugin, port, param);
}

/// Check that an atom port holds sequences and supports an event type.
static void
check_atom_port(const LilvPlugin* const plugin,
                const LilvPort* const   port,
                const LilvNode* const   supports,
                const bool              output)
{
  const char* const symbol =
    lilv_node_as_string(lilv_port_get_symbol(plugin, port));

  check_port_type(plugin, port, uris.atom_AtomPort, output);

  LilvNodes* const types =
    lilv_port_get_value(plugin, port, uris.atom_bufferType);
  expect(types && lilv_nodes_contains(types, uris.atom_Sequence),
         "port %s: atom:bufferType is not atom:Sequence",
         symbol);
  lilv_nodes_free(types);

  expect(lilv_port_supports_event(plugin, port, supports),
         "port %s does not support %s",
         symbol,
         lilv_node_as_uri(supports));
}

/// Check a port that is not a control input against what it must be.
static void
check_fixed_port(const LilvPlugin* const plugin,
                 const LilvPort* const   port,
                 const FixedPort* const  fixed)
{
  const char* const symbol =
    lilv_node_as_string(lilv_port_get_symbol(plugin, port));
  expect(!strcmp(symbol, fixed->symbol),
         "port %u is \"%s\", not \"%s\"",
         fixed->index,
         symbol,
         fixed->symbol);

  switch (fixed->kind) {
  case PORT_ATOM_IN:
    check_atom_port(plugin, port, uris.time_Position, false);
    break;
  case PORT_MIDI_OUT:
    check_atom_port(plugin, port, uris.midi_MidiEvent, true);
    break;
  case PORT_CONTROL_OUT:
    check_port_type(plugin, port, uris.lv2_ControlPort, true);
    break;
  case PORT_CV_OUT:
    check_port_type(plugin, port, uris.lv2_CVPort, true);
    expect(lilv_port_has_property(plugin, port, uris.lv2_connectionOptional),
           "port %s is not lv2:connectionOptional",
           symbol);
    break;
  case PORT_AUDIO_OUT:
    check_port_type(plugin, port, uris.lv2_AudioPort, true);
    break;
  }
}

static const FixedPort*
find_fixed(const PluginSpec* const spec, const uint32_t index)
{
  for (uint32_t i = 0U; i < spec->n_fixed; ++i) {
    if (spec->fixed[i].index == index) {
      return &spec->fixed[i];
    }
  }

  return NULL;
}

/// Check every port: controls against the table, the others against spec.
static void
check_ports(const PluginSpec* const    spec,
            const LilvPlugin* const    plugin,
            const P4dParamTable* const table)
{
  // The spec itself: every port is either a table entry or fixed
  assert(spec->n_fixed + table->n_params == spec->n_ports);

  const uint32_t n_ports = lilv_plugin_get_num_ports(plugin);
  expect(n_ports == spec->n_ports,
         "%s has %u ports, not %u",
         spec->uri,
         n_ports,
         spec->n_ports);

  for (uint32_t index = 0U; index < n_ports; ++index) {
    const LilvPort* const port = lilv_plugin_get_port_by_index(plugin, index);
    expect(port != NULL, "%s has no port %u", spec->uri, index);

    if (index >= table->first_control &&
        index - table->first_control < table->n_params) {
      check_control_port(
        plugin, port, &table->params[index - table->first_control]);
    } else {
      const FixedPort* const fixed = find_fixed(spec, index);
      expect(fixed != NULL, "%s: port %u is unexpected", spec->uri, index);
      check_fixed_port(plugin, port, fixed);
    }
  }
}

/// Check that subject has a value for predicate.
static void
check_has(const char* const     uri,
          const LilvNode* const subject,
          const LilvNode* const predicate)
{
  LilvNode* const value = lilv_world_get(world, subject, predicate, NULL);
  expect(value != NULL,
         "%s: %s has no %s",
         uri,
         lilv_node_as_string(subject),
         lilv_node_as_uri(predicate));
  lilv_node_free(value);
}

static void
check_version(const LilvPlugin* const plugin,
              const char* const       uri,
              const LilvNode* const   predicate)
{
  LilvNodes* const values = lilv_plugin_get_value(plugin, predicate);
  expect(values && lilv_nodes_size(values) == 1U &&
           lilv_node_is_int(lilv_nodes_get_first(values)) &&
           lilv_node_as_int(lilv_nodes_get_first(values)) >= 0,
         "%s has no single %s",
         uri,
         lilv_node_as_uri(predicate));
  lilv_nodes_free(values);
}

/// Check name, class, versions, project and features.
static void
check_metadata(const PluginSpec* const spec, const LilvPlugin* const plugin)
{
  LilvNode* const name = lilv_plugin_get_name(plugin);
  expect(name && !strcmp(lilv_node_as_string(name), spec->name),
         "%s is named \"%s\", not \"%s\"",
         spec->uri,
         name ? lilv_node_as_string(name) : "",
         spec->name);
  lilv_node_free(name);

  const LilvPluginClass* const plugin_class = lilv_plugin_get_class(plugin);
  const char* const            class_uri =
    lilv_node_as_uri(lilv_plugin_class_get_uri(plugin_class));
  expect(!strcmp(class_uri, spec->class_uri),
         "%s is a %s, not a %s",
         spec->uri,
         class_uri,
         spec->class_uri);

  check_version(plugin, spec->uri, uris.lv2_minorVersion);
  check_version(plugin, spec->uri, uris.lv2_microVersion);

  LilvNode* const project = lilv_plugin_get_project(plugin);
  expect(project != NULL, "%s has no lv2:project", spec->uri);
  check_has(spec->uri, project, uris.doap_name);
  check_has(spec->uri, project, uris.doap_license);
  check_has(spec->uri, project, uris.doap_maintainer);
  lilv_node_free(project);

  LilvNodes* const required = lilv_plugin_get_required_features(plugin);
  expect(!required || lilv_nodes_size(required) == 0U,
         "%s requires a feature (%s)",
         spec->uri,
         required ? lilv_node_as_uri(lilv_nodes_get_first(required)) : "");
  lilv_nodes_free(required);

  LilvNodes* const optional = lilv_plugin_get_optional_features(plugin);
  expect(optional && lilv_nodes_contains(optional, uris.lv2_hardRTCapable),
         "%s is not lv2:hardRTCapable",
         spec->uri);
  lilv_nodes_free(optional);
}

/// Check one lv2:port of a preset: a known symbol and a value in range.
static void
check_preset_port(const char* const          preset_uri,
                  const LilvNode* const      port,
                  const P4dParamTable* const table,
                  bool* const                set)
{
  LilvNode* const symbol = lilv_world_get(world, port, uris.lv2_symbol, NULL);
  LilvNode* const value  = lilv_world_get(world, port, uris.pset_value, NULL);
  expect(symbol && lilv_node_is_string(symbol),
         "preset %s has a port without lv2:symbol",
         preset_uri);

  const char* const sym = lilv_node_as_string(symbol);
  const int         id  = p4d_param_find(table, sym);
  expect(id >= 0, "preset %s sets unknown control %s", preset_uri, sym);
  expect(!set[id], "preset %s sets %s twice", preset_uri, sym);
  set[id] = true;

  const P4dParam* const param = &table->params[id];
  expect(is_number(value), "preset %s: %s has no number", preset_uri, sym);

  const float v = lilv_node_as_float(value);
  expect(v >= param->minimum && v <= param->maximum,
         "preset %s: %s = %g is outside [%g, %g]",
         preset_uri,
         sym,
         (double)v,
         (double)param->minimum,
         (double)param->maximum);
  expect(!(param->flags & P4D_PARAM_INTEGER) || v == floorf(v),
         "preset %s: %s = %g is not a whole number",
         preset_uri,
         sym,
         (double)v);

  lilv_node_free(value);
  lilv_node_free(symbol);
}

static void
count_preset(const LilvNode* const preset)
{
  for (unsigned i = 0U; i < n_presets_seen; ++i) {
    if (lilv_node_equals(presets_seen[i], preset)) {
      return;
    }
  }

  assert(n_presets_seen < MAX_PRESETS);
  presets_seen[n_presets_seen++] = lilv_node_duplicate(preset);
}

/// Load one preset on its own, check it, and unload it.
static void
check_preset(const PluginSpec* const    spec,
             const P4dParamTable* const table,
             const LilvNode* const      preset)
{
  const char* const uri = lilv_node_as_uri(preset);
  expect(lilv_world_load_resource(world, preset) > 0,
         "preset %s does not load (no rdfs:seeAlso to a file?)",
         uri);
  check_has(spec->uri, preset, uris.rdfs_label);

  LilvNodes* const ports =
    lilv_world_find_nodes(world, preset, uris.lv2_port, NULL);
  const unsigned n_ports = ports ? lilv_nodes_size(ports) : 0U;
  expect(n_ports > 0U, "preset %s sets no control", uri);

  bool      set[P4D_MAX_PARAMS] = { false };
  LilvIter* i                   = lilv_nodes_begin(ports);
  for (; !lilv_nodes_is_end(ports, i); i = lilv_nodes_next(ports, i)) {
    check_preset_port(uri, lilv_nodes_get(ports, i), table, set);
  }

  lilv_nodes_free(ports);

  // Unload, so that the next preset must load its own file, as in a host
  expect(lilv_world_unload_resource(world, preset) >= 0,
         "preset %s does not unload",
         uri);
}

/// Check every preset of a plugin, and return how many there are.
static unsigned
check_presets(const PluginSpec* const    spec,
              const LilvPlugin* const    plugin,
              const P4dParamTable* const table)
{
  LilvNodes* const presets = lilv_plugin_get_related(plugin, uris.pset_Preset);
  const unsigned   n       = presets ? lilv_nodes_size(presets) : 0U;

  if (presets) {
    LilvIter* i = lilv_nodes_begin(presets);
    for (; !lilv_nodes_is_end(presets, i); i = lilv_nodes_next(presets, i)) {
      check_preset(spec, table, lilv_nodes_get(presets, i));
      count_preset(lilv_nodes_get(presets, i));
    }
  }

  lilv_nodes_free(presets);

  expect(n >= spec->min_presets,
         "%s has %u presets, fewer than %u",
         spec->uri,
         n,
         spec->min_presets);
  return n;
}

static void
test_plugin(const PluginSpec* const spec)
{
  const LilvPlugins* const plugins = lilv_world_get_all_plugins(world);
  LilvNode* const          uri     = lilv_new_uri(world, spec->uri);
  const LilvPlugin* const  plugin  = lilv_plugins_get_by_uri(plugins, uri);
  lilv_node_free(uri);
  expect(plugin != NULL, "plugin %s not found in the bundle", spec->uri);

  const P4dParamTable* const table = p4d_params(spec->kind);
  if (spec->kind == P4D_KIND_MOD) {
    assert(!strncmp(spec->uri, table->uri, strlen(table->uri)));
  } else {
    assert(!strcmp(spec->uri, table->uri));
  }

  check_ports(spec, plugin, table);
  check_metadata(spec, plugin);
  const unsigned n_presets = check_presets(spec, plugin, table);

  printf("# %s: %u ports (%u controls match the table: symbol, name, range, "
         "default, unit, properties, scale points; %u other ports), "
         "%s, versions, project, no required feature, "
         "%u presets load and are in range\n",
         spec->uri,
         spec->n_ports,
         table->n_params,
         spec->n_fixed,
         spec->class_uri + strlen(LV2_CORE_PREFIX),
         n_presets);
}

int
main(const int argc, char** const argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s BUNDLE_DIR\n", argv[0]);
    return 1;
  }

  setup(argv[1]);

  for (size_t i = 0U; i < sizeof(plugin_specs) / sizeof(plugin_specs[0]); ++i) {
    test_plugin(&plugin_specs[i]);
  }

  expect(n_presets_seen >= MIN_PRESETS,
         "%u presets in the bundle, fewer than %u",
         n_presets_seen,
         MIN_PRESETS);
  printf("# %u distinct presets in the bundle\n", n_presets_seen);

  teardown();
  return 0;
}
