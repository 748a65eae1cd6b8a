// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The built bundle as a host reads it, through lilv, against the released
  contract written out by hand here: every port of every plugin (index,
  symbol, name, type, direction, range, default, unit, properties, scale
  points), the metadata hosts show, and every preset loads and stays in the
  range its port declares.

  The expectations are deliberately not read from the port table the TTL is
  generated from (a test that reads the table it checks proves nothing):
  they are the 0.2.0 release, frozen.  Port symbols and indices never change
  once released, so a change here is a change to the plugins' contract.

  Usage: test_ttl BUNDLE_DIR
*/

#undef NDEBUG

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/core/lv2.h>
#include <lv2/midi/midi.h>
#include <lv2/port-props/port-props.h>
#include <lv2/presets/presets.h>
#include <lv2/time/time.h>
#include <lv2/units/units.h>
#include <lv2/urid/urid.h>

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// What a port is: its type and direction.
typedef enum {
  ATOM_IN,     ///< atom:Sequence input, time:Position, lv2:control designation
  MIDI_OUT,    ///< atom:Sequence output of midi:MidiEvent
  CONTROL_IN,  ///< lv2:ControlPort input, with default, minimum and maximum
  CONTROL_OUT, ///< lv2:ControlPort output, with minimum and maximum
  CV_OUT,      ///< lv2:CVPort output, lv2:connectionOptional
  AUDIO_OUT,   ///< lv2:AudioPort output
  AUDIO_IN,    ///< lv2:AudioPort input
  LATENCY_OUT, ///< lv2:ControlPort output, lv2:reportsLatency, lv2:latency
} PortKind;

/// The port properties a port has: it must have no other.  ENABLED is the
/// designation lv2:enabled, which hosts use for their bypass switch.
enum { INT = 1U, ENUM = 2U, LOG = 4U, TOGGLED = 8U, ENABLED = 16U };

typedef struct {
  float       value;
  const char* label; ///< NULL ends a list
} Point;

typedef struct {
  const char*  symbol;
  const char*  name;
  uint32_t     index;
  PortKind     kind;
  float        def; ///< CONTROL_IN only
  float        min; ///< CONTROL_IN, CONTROL_OUT and CV_OUT only
  float        max;
  unsigned     props;
  const char*  unit;   ///< units:unit, NULL for none
  const Point* points; ///< lv2:scalePoint, NULL for none
} Port;

// clang-format off
static const Point mod_clock_points[] = {
  { 0, "Song time" }, { 1, "Song beats" }, { 2, "Free running" }, { 0, NULL },
};
static const Point noise_clock_points[] = {
  { 0, "Song time" }, { 1, "Free running" }, { 0, NULL },
};
static const Point cc_points[] = { { 128, "Off" }, { 0, NULL } };

#define HZ LV2_UNITS__hz
#define DB LV2_UNITS__db
#define MS LV2_UNITS__ms
#define BEAT LV2_UNITS__beat

// One port a line: index, symbol, name, kind, default, minimum, maximum,
// unit, properties, scale points.
#define OTHER(i, sym, name, kind) { sym, name, i, kind, 0, 0, 0, 0, NULL, NULL }
#define OUT(i, sym, name, kind) { sym, name, i, kind, 0, -1, 1, 0, NULL, NULL }
#define OUTU(i, sym, name, min, max, unit) \
  { sym, name, i, CONTROL_OUT, 0, min, max, 0, unit, NULL }
#define IN(i, sym, name, def, min, max, unit, props, points) \
  { sym, name, i, CONTROL_IN, def, min, max, props, unit, points }
// clang-format on

/// Perlin4D Mod CV; Perlin4D Mod is its first 25 ports.
static const Port mod_cv_ports[] = {
  // clang-format off
  OTHER(0U, "control", "Control", ATOM_IN),
  OTHER(1U, "midi_out", "MIDI out", MIDI_OUT),
  IN(2U, "clock", "Clock", 0, 0, 2, NULL, INT | ENUM, mod_clock_points),
  IN(3U, "rate_hz", "Rate", 0.5f, 0.001f, 50.0f, HZ, LOG, NULL),
  IN(4U, "period_beats", "Period", 4.0f, 0.0625f, 256.0f, BEAT, LOG, NULL),
  IN(5U, "octaves", "Octaves", 3.0f, 1.0f, 8.0f, NULL, 0, NULL),
  IN(6U, "lacunarity", "Lacunarity", 2.0f, 1.5f, 4.0f, NULL, 0, NULL),
  IN(7U, "persistence", "Persistence", 0.5f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(8U, "spread", "Spread", 1.0f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(9U, "morph_x", "Morph X", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(10U, "morph_y", "Morph Y", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(11U, "morph_z", "Morph Z", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(12U, "seed", "Seed", 1, 0, 65535, NULL, INT, NULL),
  IN(13U, "out_min", "Output minimum", 0.0f, -1.0f, 1.0f, NULL, 0, NULL),
  IN(14U, "out_max", "Output maximum", 1.0f, -1.0f, 1.0f, NULL, 0, NULL),
  IN(15U, "smooth_ms", "Smoothing", 20.0f, 0.0f, 1000.0f, MS, 0, NULL),
  IN(16U, "midi_channel", "MIDI channel", 1, 1, 16, NULL, INT, NULL),
  IN(17U, "cc_1", "CC 1", 128, 0, 128, NULL, INT, cc_points),
  IN(18U, "cc_2", "CC 2", 128, 0, 128, NULL, INT, cc_points),
  IN(19U, "cc_3", "CC 3", 128, 0, 128, NULL, INT, cc_points),
  IN(20U, "cc_4", "CC 4", 128, 0, 128, NULL, INT, cc_points),
  OUT(21U, "out_1", "Out 1", CONTROL_OUT),
  OUT(22U, "out_2", "Out 2", CONTROL_OUT),
  OUT(23U, "out_3", "Out 3", CONTROL_OUT),
  OUT(24U, "out_4", "Out 4", CONTROL_OUT),
  OUT(25U, "cv_1", "CV 1", CV_OUT),
  OUT(26U, "cv_2", "CV 2", CV_OUT),
  OUT(27U, "cv_3", "CV 3", CV_OUT),
  OUT(28U, "cv_4", "CV 4", CV_OUT),
  // clang-format on
};

static const Port noise_ports[] = {
  // clang-format off
  OTHER(0U, "control", "Control", ATOM_IN),
  OTHER(1U, "out_l", "Left", AUDIO_OUT),
  OTHER(2U, "out_r", "Right", AUDIO_OUT),
  IN(3U, "level_db", "Level", -12.0f, -90.0f, 0.0f, DB, 0, NULL),
  IN(4U, "grain_hz", "Grain", 1000.0f, 20.0f, 20000.0f, HZ, LOG, NULL),
  IN(5U, "octaves", "Octaves", 6.0f, 1.0f, 10.0f, NULL, 0, NULL),
  IN(6U, "lacunarity", "Lacunarity", 2.0f, 1.5f, 4.0f, NULL, 0, NULL),
  IN(7U, "persistence", "Persistence", 0.5f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(8U, "evolve_hz", "Evolve", 0.5f, 0.0f, 20.0f, HZ, 0, NULL),
  IN(9U, "width", "Width", 1.0f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(10U, "morph_x", "Morph X", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(11U, "morph_y", "Morph Y", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(12U, "morph_z", "Morph Z", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(13U, "seed", "Seed", 1, 0, 65535, NULL, INT, NULL),
  IN(14U, "clock", "Clock", 0, 0, 1, NULL, INT | ENUM, noise_clock_points),
  IN(15U, "gust_db", "Gust depth", 0.0f, 0.0f, 24.0f, DB, 0, NULL),
  IN(16U, "gust_hz", "Gust rate", 0.5f, 0.02f, 5.0f, HZ, LOG, NULL),
  IN(17U, "grit", "Grit", 0.0f, 0.0f, 1.0f, NULL, 0, NULL),
  // clang-format on
};

static const Point motion_filter_points[] = {
  { 0, "Off" },       { 1, "Low pass" }, { 2, "Band pass" },
  { 3, "High pass" }, { 0, NULL },
};

#define FRAME LV2_UNITS__frame

/// Perlin4D Motion, new since 0.2.0: frozen from its first release on.
static const Port motion_ports[] = {
  // clang-format off
  OTHER(0U, "control", "Control", ATOM_IN),
  OTHER(1U, "in_l", "Left in", AUDIO_IN),
  OTHER(2U, "in_r", "Right in", AUDIO_IN),
  OTHER(3U, "out_l", "Left out", AUDIO_OUT),
  OTHER(4U, "out_r", "Right out", AUDIO_OUT),
  IN(5U, "clock", "Clock", 0, 0, 2, NULL, INT | ENUM, mod_clock_points),
  IN(6U, "rate_hz", "Rate", 0.5f, 0.001f, 50.0f, HZ, LOG, NULL),
  IN(7U, "period_beats", "Period", 4.0f, 0.0625f, 256.0f, BEAT, LOG, NULL),
  IN(8U, "octaves", "Octaves", 3.0f, 1.0f, 8.0f, NULL, 0, NULL),
  IN(9U, "lacunarity", "Lacunarity", 2.0f, 1.5f, 4.0f, NULL, 0, NULL),
  IN(10U, "persistence", "Persistence", 0.5f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(11U, "morph_x", "Morph X", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(12U, "morph_y", "Morph Y", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(13U, "morph_z", "Morph Z", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(14U, "seed", "Seed", 1, 0, 65535, NULL, INT, NULL),
  IN(15U, "smooth_ms", "Smoothing", 20.0f, 0.0f, 1000.0f, MS, 0, NULL),
  IN(16U, "spread", "Stereo spread", 0.3f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(17U, "gain_db", "Gain depth", 3.0f, 0.0f, 24.0f, DB, 0, NULL),
  IN(18U, "pan_depth", "Pan depth", 0.0f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(19U, "width", "Width", 1.0f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(20U, "filter_mode", "Filter", 0, 0, 3, NULL, INT | ENUM,
     motion_filter_points),
  IN(21U, "cutoff_hz", "Cutoff", 1000.0f, 20.0f, 20000.0f, HZ, LOG, NULL),
  IN(22U, "filter_oct", "Filter depth", 1.0f, 0.0f, 6.0f, NULL, 0, NULL),
  IN(23U, "resonance", "Resonance", 0.2f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(24U, "wow_ms", "Wow depth", 0.0f, 0.0f, 10.0f, MS, 0, NULL),
  IN(25U, "flutter_ratio", "Flutter rate ratio", 12.0f, 2.0f, 64.0f, NULL,
     LOG, NULL),
  IN(26U, "flutter_ms", "Flutter depth", 0.0f, 0.0f, 2.0f, MS, 0, NULL),
  IN(27U, "mix", "Mix", 1.0f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(28U, "output_db", "Output", 0.0f, -24.0f, 12.0f, DB, 0, NULL),
  IN(29U, "enabled", "Enabled", 1, 0, 1, NULL, INT | TOGGLED | ENABLED, NULL),
  OUTU(30U, "gain_now", "Gain now", -24.0f, 0.0f, DB),
  OUTU(31U, "pan_now", "Pan now", -1.0f, 1.0f, NULL),
  OUTU(32U, "cutoff_now", "Cutoff now", 20.0f, 20000.0f, HZ),
  OUTU(33U, "wobble_now", "Wobble now", -12.0f, 12.0f, MS),
  { "latency", "Latency", 34U, LATENCY_OUT, 0, 0, 16384, INT, FRAME, NULL },
  // clang-format on
};

#undef IN
#undef OUT
#undef OUTU
#undef OTHER

/// What one plugin must be.
typedef struct {
  const char* uri;
  const char* name;
  const char* class_uri;
  const Port* ports;
  uint32_t    n_ports;
  unsigned    min_presets; ///< released presets may not disappear
} PluginSpec;

// clang-format off
static const PluginSpec plugin_specs[] = {
  { "urn:perlin4d:mod", "Perlin4D Mod", LV2_CORE__UtilityPlugin,
    mod_cv_ports, 25U, 7U },
  { "urn:perlin4d:mod-cv", "Perlin4D Mod CV", LV2_CORE__UtilityPlugin,
    mod_cv_ports, 29U, 7U },
  { "urn:perlin4d:noise", "Perlin4D Noise", LV2_CORE__GeneratorPlugin,
    noise_ports, 18U, 5U },
  { "urn:perlin4d:motion", "Perlin4D Motion", LV2_CORE__ModulatorPlugin,
    motion_ports, 35U, 6U },
};
// clang-format on

#define N_PLUGINS (sizeof(plugin_specs) / sizeof(plugin_specs[0]))

/// The release these expectations freeze: meson project version 0.2.0.
#define MINOR_VERSION "2"
#define MICRO_VERSION "0"

#define LICENSE "http://opensource.org/licenses/isc"

/// Presets in the bundle, at least (the released ones).
#define MIN_PRESETS 18U

/// URI nodes, ports and scale points this test can hold.
#define MAX_NODES 64U
#define MAX_PORTS 64U
#define MAX_POINTS 16U

/// Bytes of a port's one-line description.
#define DESC_SIZE 1024U

#define DOAP(name) LILV_NS_DOAP name
#define FOAF(name) LILV_NS_FOAF name

static LilvWorld* world = NULL;

/// URI nodes made by node(), freed at the end.
static LilvNode* nodes[MAX_NODES];
static unsigned  n_nodes = 0U;

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

/// Return the node of a URI, made once and kept until the end.
static const LilvNode*
node(const char* const uri)
{
  for (unsigned i = 0U; i < n_nodes; ++i) {
    if (!strcmp(lilv_node_as_uri(nodes[i]), uri)) {
      return nodes[i];
    }
  }

  assert(n_nodes < MAX_NODES);
  nodes[n_nodes] = lilv_new_uri(world, uri);
  return nodes[n_nodes++];
}

static bool
is_number(const LilvNode* const value)
{
  return value && (lilv_node_is_float(value) || lilv_node_is_int(value));
}

/// Return the one value of predicate on subject (to free), failing if not one.
static LilvNode*
get_one(const char* const     what,
        const LilvNode* const subject,
        const char* const     predicate)
{
  LilvNodes* const values =
    lilv_world_find_nodes(world, subject, node(predicate), NULL);
  const unsigned n = values ? lilv_nodes_size(values) : 0U;
  expect(n == 1U, "%s: %u %s, not one", what, n, predicate);
  LilvNode* const value = lilv_node_duplicate(lilv_nodes_get_first(values));
  lilv_nodes_free(values);
  return value;
}

/// Check the one value of predicate: this string, or any text if NULL.
static void
check_value(const char* const     what,
            const LilvNode* const subject,
            const char* const     predicate,
            const char* const     expected)
{
  LilvNode* const   value = get_one(what, subject, predicate);
  const char* const str   = lilv_node_as_string(value);
  expect(expected ? !strcmp(str, expected)
                  : lilv_node_is_string(value) && *str != '\0',
         "%s: %s is \"%s\", expected %s",
         what,
         predicate,
         str,
         expected ? expected : "text");
  lilv_node_free(value);
}

/// Append to a description of at most DESC_SIZE bytes.
static void
add(char* const desc, const char* const fmt, ...)
{
  const size_t len = strlen(desc);
  va_list      args;
  va_start(args, fmt);
  vsnprintf(desc + len, DESC_SIZE - len, fmt, args);
  va_end(args);
}

/**
   Describe a port as the table expects it, in describe_port()'s words:
   numbers as %.9g, which tells every two floats apart.
*/
static void
describe_expected(const Port* const port, char* const desc)
{
  static const char* const kinds[] = {
    "atom in buffer " LV2_ATOM__Sequence " supports " LV2_TIME__Position
    " designation " LV2_CORE__control,
    "atom out buffer " LV2_ATOM__Sequence " supports " LV2_MIDI__MidiEvent,
    "control in",
    "control out",
    "cv out",
    "audio out",
    "audio in",
    "control out designation " LV2_CORE__latency,
  };
  const PortKind kind = port->kind;

  add(desc, "%s \"%s\" %s", port->symbol, port->name, kinds[kind]);
  if (port->props & ENABLED) {
    add(desc, " designation " LV2_CORE__enabled);
  }
  if (kind == CONTROL_IN) {
    add(desc, " default %.9g", (double)port->def);
  }

  if (kind == CONTROL_IN || kind == CONTROL_OUT || kind == CV_OUT ||
      kind == LATENCY_OUT) {
    add(
      desc, " minimum %.9g maximum %.9g", (double)port->min, (double)port->max);
  }

  if (port->unit) {
    add(desc, " unit %s", port->unit);
  }

  add(desc,
      "%s%s%s%s%s%s",
      (port->props & INT) ? " integer" : "",
      (port->props & ENUM) ? " enumeration" : "",
      (port->props & LOG) ? " logarithmic" : "",
      (port->props & TOGGLED) ? " toggled" : "",
      kind == CV_OUT ? " connectionOptional" : "",
      kind == LATENCY_OUT ? " reportsLatency" : "");
  for (const Point* point = port->points; point && point->label; ++point) {
    add(desc, " point %.9g \"%s\"", (double)point->value, point->label);
  }
}

/// Add " word value" for every value of predicate on a port.
static void
add_values(char* const             desc,
           const LilvPlugin* const plugin,
           const LilvPort* const   port,
           const char* const       word,
           const char* const       predicate)
{
  LilvNodes* const values = lilv_port_get_value(plugin, port, node(predicate));
  LilvIter*        i      = values ? lilv_nodes_begin(values) : NULL;
  for (; values && !lilv_nodes_is_end(values, i);
       i = lilv_nodes_next(values, i)) {
    add(desc, " %s %s", word, lilv_node_as_string(lilv_nodes_get(values, i)));
  }

  lilv_nodes_free(values);
}

/// Add " word number" if there is a value (" word ?" if not a number).
static void
add_number(char* const desc, const char* const word, const LilvNode* value)
{
  if (value) {
    add(desc,
        is_number(value) ? " %s %.9g" : " %s ?",
        word,
        (double)lilv_node_as_float(value));
  }
}

static float
value_of(const LilvScalePoint* const point)
{
  return lilv_node_as_float(lilv_scale_point_get_value(point));
}

/**
   Describe a port as the TTL gives it, through lilv: symbol, name, types,
   flow, buffer, events, designation, range, unit, properties, and scale
   points by value.
*/
static void
describe_port(const LilvPlugin* const plugin,
              const LilvPort* const   port,
              char* const             desc)
{
  // clang-format off
  static const char* const words[][2] = {
    { "atom", LV2_ATOM__AtomPort }, { "control", LV2_CORE__ControlPort },
    { "cv", LV2_CORE__CVPort }, { "audio", LV2_CORE__AudioPort },
    { "in", LV2_CORE__InputPort }, { "out", LV2_CORE__OutputPort },
    // Then the port properties
    { "integer", LV2_CORE__integer }, { "enumeration", LV2_CORE__enumeration },
    { "logarithmic", LV2_PORT_PROPS__logarithmic },
    { "toggled", LV2_CORE__toggled },
    { "connectionOptional", LV2_CORE__connectionOptional },
    { "reportsLatency", LV2_CORE__reportsLatency },
  };
  // clang-format on
  const size_t n_types = 6U;

  LilvNode* const name = lilv_port_get_name(plugin, port);
  add(desc,
      "%s \"%s\"",
      lilv_node_as_string(lilv_port_get_symbol(plugin, port)),
      name ? lilv_node_as_string(name) : "");
  lilv_node_free(name);
  for (size_t i = 0U; i < n_types; ++i) {
    if (lilv_port_is_a(plugin, port, node(words[i][1]))) {
      add(desc, " %s", words[i][0]);
    }
  }

  add_values(desc, plugin, port, "buffer", LV2_ATOM__bufferType);
  add_values(desc, plugin, port, "supports", LV2_ATOM__supports);
  add_values(desc, plugin, port, "designation", LV2_CORE__designation);

  LilvNode* range[3] = { NULL, NULL, NULL };
  lilv_port_get_range(plugin, port, &range[0], &range[1], &range[2]);
  add_number(desc, "default", range[0]);
  add_number(desc, "minimum", range[1]);
  add_number(desc, "maximum", range[2]);
  for (unsigned i = 0U; i < 3U; ++i) {
    lilv_node_free(range[i]);
  }

  add_values(desc, plugin, port, "unit", LV2_UNITS__unit);
  for (size_t i = n_types; i < sizeof(words) / sizeof(words[0]); ++i) {
    if (lilv_port_has_property(plugin, port, node(words[i][1]))) {
      add(desc, " %s", words[i][0]);
    }
  }

  // Scale points by value (lilv keeps no order), by insertion
  LilvScalePoints* const points = lilv_port_get_scale_points(plugin, port);
  const LilvScalePoint*  sorted[MAX_POINTS];
  unsigned               n = 0U;
  LilvIter*              i = points ? lilv_scale_points_begin(points) : NULL;
  for (; points && !lilv_scale_points_is_end(points, i);
       i = lilv_scale_points_next(points, i)) {
    const LilvScalePoint* const point = lilv_scale_points_get(points, i);
    unsigned                    k     = n++;
    assert(n <= MAX_POINTS);
    for (; k > 0U && value_of(sorted[k - 1U]) > value_of(point); --k) {
      sorted[k] = sorted[k - 1U];
    }

    sorted[k] = point;
  }

  for (unsigned k = 0U; k < n; ++k) {
    const LilvNode* const label = lilv_scale_point_get_label(sorted[k]);
    add_number(desc, "point", lilv_scale_point_get_value(sorted[k]));
    add(desc, " \"%s\"", label ? lilv_node_as_string(label) : "");
  }

  lilv_scale_points_free(points);
}

/**
   Check every port, in index order, against the expected table; that there
   are as many lv2:port nodes as ports (lilv merges two ports of one index,
   and refuses a plugin with a gap), so the indices are 0..n-1, each once;
   and that each symbol names only its own port.
*/
static void
check_ports(const PluginSpec* const spec, const LilvPlugin* const plugin)
{
  // (lilv reads the plugin's data here, before its nodes can be found)
  const uint32_t   n_ports    = lilv_plugin_get_num_ports(plugin);
  LilvNodes* const port_nodes = lilv_world_find_nodes(
    world, lilv_plugin_get_uri(plugin), node(LV2_CORE__port), NULL);
  const unsigned n_port_nodes = port_nodes ? lilv_nodes_size(port_nodes) : 0U;
  lilv_nodes_free(port_nodes);
  expect(n_ports == spec->n_ports && n_port_nodes == spec->n_ports,
         "%s has %u ports (%u lv2:port), expected %u",
         spec->uri,
         n_ports,
         n_port_nodes,
         spec->n_ports);

  for (uint32_t index = 0U; index < n_ports; ++index) {
    assert(spec->ports[index].index == index); // the table itself
    const LilvPort* const port = lilv_plugin_get_port_by_index(plugin, index);
    expect(port && lilv_port_get_index(plugin, port) == index,
           "%s has no port %u",
           spec->uri,
           index);
    const LilvNode* const symbol = lilv_port_get_symbol(plugin, port);
    expect(lilv_plugin_get_port_by_symbol(plugin, symbol) == port,
           "%s: symbol %s is given twice",
           spec->uri,
           lilv_node_as_string(symbol));

    char ttl[DESC_SIZE]      = { '\0' };
    char expected[DESC_SIZE] = { '\0' };
    describe_port(plugin, port, ttl);
    describe_expected(&spec->ports[index], expected);
    expect(!strcmp(ttl, expected),
           "%s port %u:\n  TTL:      %s\n  expected: %s",
           spec->uri,
           index,
           ttl,
           expected);
  }
}

/// Check name, class, licence, versions, project and features.
static void
check_metadata(const PluginSpec* const spec, const LilvPlugin* const plugin)
{
  const LilvNode* const uri = lilv_plugin_get_uri(plugin);
  check_value(spec->uri, uri, DOAP("name"), spec->name);
  check_value(spec->uri, uri, DOAP("license"), LICENSE);
  check_value(spec->uri, uri, LV2_CORE__minorVersion, MINOR_VERSION);
  check_value(spec->uri, uri, LV2_CORE__microVersion, MICRO_VERSION);
  LilvNode* const minor = get_one(spec->uri, uri, LV2_CORE__minorVersion);
  LilvNode* const micro = get_one(spec->uri, uri, LV2_CORE__microVersion);
  expect(lilv_node_is_int(minor) && lilv_node_is_int(micro),
         "%s: versions are not integers",
         spec->uri);
  lilv_node_free(micro);
  lilv_node_free(minor);

  // The class as written, which hosts file the plugin under
  LilvNodes* const types =
    lilv_world_find_nodes(world, uri, node(LILV_NS_RDF "type"), NULL);
  expect(types && lilv_nodes_size(types) == 2U &&
           lilv_nodes_contains(types, node(LV2_CORE__Plugin)) &&
           lilv_nodes_contains(types, node(spec->class_uri)),
         "%s is not exactly a lv2:Plugin and a %s",
         spec->uri,
         spec->class_uri);
  lilv_nodes_free(types);

  LilvNode* const project = lilv_plugin_get_project(plugin);
  expect(project != NULL, "%s has no lv2:project", spec->uri);
  check_value(spec->uri, project, DOAP("license"), LICENSE);
  lilv_node_free(project);

  LilvNodes* const required = lilv_plugin_get_required_features(plugin);
  expect(!required || lilv_nodes_size(required) == 0U,
         "%s requires a feature (%s)",
         spec->uri,
         required ? lilv_node_as_uri(lilv_nodes_get_first(required)) : "");
  lilv_nodes_free(required);

  LilvNodes* const optional = lilv_plugin_get_optional_features(plugin);
  expect(optional &&
           lilv_nodes_contains(optional, node(LV2_CORE__hardRTCapable)) &&
           lilv_nodes_contains(optional, node(LV2_URID__map)),
         "%s lacks the optional features lv2:hardRTCapable and urid:map",
         spec->uri);
  lilv_nodes_free(optional);
}

/// Check one lv2:port of a preset: a control input, set once, in its range.
static void
check_setting(const LilvPlugin* const plugin,
              const char* const       preset,
              const LilvNode* const   setting,
              bool* const             set)
{
  LilvNode* const       symbol = get_one(preset, setting, LV2_CORE__symbol);
  LilvNode* const       value  = get_one(preset, setting, LV2_PRESETS__value);
  const char* const     sym    = lilv_node_as_string(symbol);
  const LilvPort* const port   = lilv_plugin_get_port_by_symbol(plugin, symbol);
  expect(port && lilv_port_is_a(plugin, port, node(LV2_CORE__ControlPort)) &&
           lilv_port_is_a(plugin, port, node(LV2_CORE__InputPort)),
         "preset %s sets %s, not a control input",
         preset,
         sym);

  const uint32_t index = lilv_port_get_index(plugin, port);
  expect(
    index < MAX_PORTS && !set[index], "preset %s sets %s twice", preset, sym);
  set[index] = true;

  LilvNode* min = NULL;
  LilvNode* max = NULL;
  lilv_port_get_range(plugin, port, NULL, &min, &max);
  const float v = lilv_node_as_float(value);
  expect(is_number(value) && v >= lilv_node_as_float(min) &&
           v <= lilv_node_as_float(max) &&
           (!lilv_port_has_property(plugin, port, node(LV2_CORE__integer)) ||
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
check_presets(const PluginSpec* const spec, const LilvPlugin* const plugin)
{
  LilvNodes* const presets =
    lilv_plugin_get_related(plugin, node(LV2_PRESETS__Preset));
  const unsigned n = presets ? lilv_nodes_size(presets) : 0U;

  LilvIter* i = presets ? lilv_nodes_begin(presets) : NULL;
  for (; presets && !lilv_nodes_is_end(presets, i);
       i = lilv_nodes_next(presets, i)) {
    const LilvNode* const preset = lilv_nodes_get(presets, i);
    const char* const     uri    = lilv_node_as_uri(preset);
    expect(lilv_world_load_resource(world, preset) > 0,
           "preset %s does not load (no rdfs:seeAlso to a file?)",
           uri);
    check_value(uri, preset, LILV_NS_RDFS "label", NULL);

    LilvNodes* const settings =
      lilv_world_find_nodes(world, preset, node(LV2_CORE__port), NULL);
    expect(settings && lilv_nodes_size(settings) > 0U,
           "preset %s sets no control",
           uri);
    bool      set[MAX_PORTS] = { false };
    LilvIter* j              = lilv_nodes_begin(settings);
    for (; !lilv_nodes_is_end(settings, j); j = lilv_nodes_next(settings, j)) {
      check_setting(plugin, uri, lilv_nodes_get(settings, j), set);
    }

    lilv_nodes_free(settings);

    // Unload, so that the next preset must load its own file, as in a host
    expect(lilv_world_unload_resource(world, preset) >= 0,
           "preset %s does not unload",
           uri);
  }

  lilv_nodes_free(presets);
  expect(n >= spec->min_presets,
         "%s has %u presets, fewer than %u",
         spec->uri,
         n,
         spec->min_presets);
  return n;
}

static const LilvPlugin*
find_plugin(const PluginSpec* const spec)
{
  LilvNode* const         uri = lilv_new_uri(world, spec->uri);
  const LilvPlugin* const plugin =
    lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), uri);
  lilv_node_free(uri);
  expect(plugin != NULL, "plugin %s not found in the bundle", spec->uri);
  return plugin;
}

static void
test_plugin(const PluginSpec* const spec)
{
  const LilvPlugin* const plugin = find_plugin(spec);
  check_ports(spec, plugin);
  check_metadata(spec, plugin);
  const unsigned n_presets = check_presets(spec, plugin);

  unsigned n_controls = 0U;
  for (uint32_t i = 0U; i < spec->n_ports; ++i) {
    n_controls += spec->ports[i].kind == CONTROL_IN;
  }

  printf("# %s: %u ports (%u controls match the table: symbol, name, range, "
         "default, unit, properties, scale points; %u other ports), "
         "%s, versions, project, no required feature, "
         "%u presets load and are in range\n",
         spec->uri,
         spec->n_ports,
         n_controls,
         spec->n_ports - n_controls,
         spec->class_uri + strlen(LV2_CORE_PREFIX),
         n_presets);
}

/**
   Check what a host shows about who made a plugin: its doap:shortdesc, the
   doap:name of its project, and a maintainer with foaf:name, foaf:mbox and
   foaf:homepage.  Checked last, so that a missing credit hides no other
   failure.
*/
static void
test_credits(const PluginSpec* const spec)
{
  const LilvPlugin* const plugin = find_plugin(spec);
  check_value(spec->uri, lilv_plugin_get_uri(plugin), DOAP("shortdesc"), NULL);

  LilvNode* const project = lilv_plugin_get_project(plugin);
  check_value(spec->uri, project, DOAP("name"), NULL);
  LilvNode* const maintainer = get_one(spec->uri, project, DOAP("maintainer"));
  LilvNode* const mbox       = get_one(spec->uri, maintainer, FOAF("mbox"));
  LilvNode* const homepage   = get_one(spec->uri, maintainer, FOAF("homepage"));
  check_value(spec->uri, maintainer, FOAF("name"), NULL);
  expect(lilv_node_is_uri(mbox) &&
           !strncmp(lilv_node_as_uri(mbox), "mailto:", 7U) &&
           lilv_node_is_uri(homepage),
         "%s: the maintainer's foaf:mbox is not a mailto: URI, or its "
         "foaf:homepage not a URI",
         spec->uri);

  lilv_node_free(homepage);
  lilv_node_free(mbox);
  lilv_node_free(maintainer);
  lilv_node_free(project);
}

int
main(const int argc, char** const argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s BUNDLE_DIR\n", argv[0]);
    return 1;
  }

  // Only this bundle: an installed perlin4d must not hide the build
  world = lilv_world_new();
  assert(world);
  const size_t len  = strlen(argv[1]);
  char* const  path = (char*)calloc(len + 2U, 1U);
  assert(path);
  memcpy(path, argv[1], len);
  path[len]              = len && argv[1][len - 1U] == '/' ? '\0' : '/';
  LilvNode* const bundle = lilv_new_file_uri(world, NULL, path);
  expect(bundle != NULL, "no file URI for %s", path);
  lilv_world_load_bundle(world, bundle);
  lilv_node_free(bundle);
  free(path);

  for (size_t i = 0U; i < N_PLUGINS; ++i) {
    test_plugin(&plugin_specs[i]);
  }

  LilvNodes* const presets = lilv_world_find_nodes(
    world, NULL, node(LILV_NS_RDF "type"), node(LV2_PRESETS__Preset));
  const unsigned n_presets = presets ? lilv_nodes_size(presets) : 0U;
  lilv_nodes_free(presets);
  expect(n_presets >= MIN_PRESETS,
         "%u presets in the bundle, fewer than %u",
         n_presets,
         MIN_PRESETS);
  printf("# %u distinct presets in the bundle\n", n_presets);

  for (size_t i = 0U; i < N_PLUGINS; ++i) {
    test_credits(&plugin_specs[i]);
  }

  printf("# every plugin has a doap:shortdesc, its project a doap:name and a "
         "maintainer with foaf:name, foaf:mbox and foaf:homepage\n");

  for (unsigned i = 0U; i < n_nodes; ++i) {
    lilv_node_free(nodes[i]);
  }

  lilv_world_free(world);
  return 0;
}
