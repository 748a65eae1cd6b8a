// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The built bundle as a host reads it, through lilv, against the released
  contract written out by hand (support/ttl_contract.c): every port of
  every plugin (index, symbol, name, type, direction, range, default, unit,
  properties, scale points) and the metadata hosts show.  The presets are
  test_ttl_presets.c's.

  The expectations are deliberately not read from the port table the TTL is
  generated from (a test that reads the table it checks proves nothing):
  they are the 0.2.0 release, frozen, and Perlin4D Motion as it will first
  be released.  Port symbols and indices never change once released, so a
  change there is a change to the plugins' contract.

  Usage: test_ttl BUNDLE_DIR
*/

#undef NDEBUG

#include "support/ttl_contract.h"
#include "support/ttl_read.h"

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

#define N_PLUGINS P4D_TTL_N_PLUGINS

/// The release these expectations freeze: meson project version 0.2.0.
#define MINOR_VERSION "2"
#define MICRO_VERSION "0"

#define LICENSE "http://opensource.org/licenses/isc"

/// Ports and scale points this test can hold.
#define MAX_PORTS 64U
#define MAX_POINTS 16U

/// Bytes of a port's one-line description.
#define DESC_SIZE 1024U

#define DOAP(name) LILV_NS_DOAP name
#define FOAF(name) LILV_NS_FOAF name

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
describe_expected(const P4dTtlPort* const port, char* const desc)
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
  const P4dTtlKind kind = port->kind;

  add(desc, "%s \"%s\" %s", port->symbol, port->name, kinds[kind]);
  if (port->props & P4D_TTL_ENABLED) {
    add(desc, " designation " LV2_CORE__enabled);
  }
  if (kind == P4D_TTL_CONTROL_IN) {
    add(desc, " default %.9g", (double)port->def);
  }

  if (kind == P4D_TTL_CONTROL_IN || kind == P4D_TTL_CONTROL_OUT ||
      kind == P4D_TTL_CV_OUT || kind == P4D_TTL_LATENCY_OUT) {
    add(
      desc, " minimum %.9g maximum %.9g", (double)port->min, (double)port->max);
  }

  if (port->unit) {
    add(desc, " unit %s", port->unit);
  }

  add(desc,
      "%s%s%s%s%s%s",
      (port->props & P4D_TTL_INT) ? " integer" : "",
      (port->props & P4D_TTL_ENUM) ? " enumeration" : "",
      (port->props & P4D_TTL_LOG) ? " logarithmic" : "",
      (port->props & P4D_TTL_TOGGLED) ? " toggled" : "",
      kind == P4D_TTL_CV_OUT ? " connectionOptional" : "",
      kind == P4D_TTL_LATENCY_OUT ? " reportsLatency" : "");
  for (const P4dTtlPoint* point = port->points; point && point->label;
       ++point) {
    add(desc, " point %.9g \"%s\"", (double)point->value, point->label);
  }
  if (port->comment) {
    add(desc, " comment %s", port->comment);
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
  LilvNodes* const values =
    lilv_port_get_value(plugin, port, p4d_ttl_node(predicate));
  LilvIter* i = values ? lilv_nodes_begin(values) : NULL;
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
        p4d_ttl_is_number(value) ? " %s %.9g" : " %s ?",
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
    if (lilv_port_is_a(plugin, port, p4d_ttl_node(words[i][1]))) {
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
    if (lilv_port_has_property(plugin, port, p4d_ttl_node(words[i][1]))) {
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
  add_values(desc, plugin, port, "comment", LILV_NS_RDFS "comment");
}

/**
   Check every port, in index order, against the expected table; that there
   are as many lv2:port nodes as ports (lilv merges two ports of one index,
   and refuses a plugin with a gap), so the indices are 0..n-1, each once;
   and that each symbol names only its own port.
*/
static void
check_ports(const P4dTtlPlugin* const spec, const LilvPlugin* const plugin)
{
  // (lilv reads the plugin's data here, before its nodes can be found)
  const uint32_t   n_ports = lilv_plugin_get_num_ports(plugin);
  LilvNodes* const port_nodes =
    lilv_world_find_nodes(p4d_ttl_world(),
                          lilv_plugin_get_uri(plugin),
                          p4d_ttl_node(LV2_CORE__port),
                          NULL);
  const unsigned n_port_nodes = port_nodes ? lilv_nodes_size(port_nodes) : 0U;
  lilv_nodes_free(port_nodes);
  p4d_ttl_expect(n_ports == spec->n_ports && n_port_nodes == spec->n_ports,
                 "%s has %u ports (%u lv2:port), expected %u",
                 spec->uri,
                 n_ports,
                 n_port_nodes,
                 spec->n_ports);

  for (uint32_t index = 0U; index < n_ports; ++index) {
    assert(spec->ports[index].index == index); // the table itself
    const LilvPort* const port = lilv_plugin_get_port_by_index(plugin, index);
    p4d_ttl_expect(port && lilv_port_get_index(plugin, port) == index,
                   "%s has no port %u",
                   spec->uri,
                   index);
    const LilvNode* const symbol = lilv_port_get_symbol(plugin, port);
    p4d_ttl_expect(lilv_plugin_get_port_by_symbol(plugin, symbol) == port,
                   "%s: symbol %s is given twice",
                   spec->uri,
                   lilv_node_as_string(symbol));

    char ttl[DESC_SIZE]      = { '\0' };
    char expected[DESC_SIZE] = { '\0' };
    describe_port(plugin, port, ttl);
    describe_expected(&spec->ports[index], expected);
    p4d_ttl_expect(!strcmp(ttl, expected),
                   "%s port %u:\n  TTL:      %s\n  expected: %s",
                   spec->uri,
                   index,
                   ttl,
                   expected);
  }
}

/// Check name, class, licence, versions, project and features.
static void
check_metadata(const P4dTtlPlugin* const spec, const LilvPlugin* const plugin)
{
  const LilvNode* const uri = lilv_plugin_get_uri(plugin);
  p4d_ttl_check_value(spec->uri, uri, DOAP("name"), spec->name);
  p4d_ttl_check_value(spec->uri, uri, DOAP("license"), LICENSE);
  p4d_ttl_check_value(spec->uri, uri, LV2_CORE__minorVersion, MINOR_VERSION);
  p4d_ttl_check_value(spec->uri, uri, LV2_CORE__microVersion, MICRO_VERSION);
  LilvNode* const minor =
    p4d_ttl_get_one(spec->uri, uri, LV2_CORE__minorVersion);
  LilvNode* const micro =
    p4d_ttl_get_one(spec->uri, uri, LV2_CORE__microVersion);
  p4d_ttl_expect(lilv_node_is_int(minor) && lilv_node_is_int(micro),
                 "%s: versions are not integers",
                 spec->uri);
  lilv_node_free(micro);
  lilv_node_free(minor);

  // The class as written, which hosts file the plugin under
  LilvNodes* const types = lilv_world_find_nodes(
    p4d_ttl_world(), uri, p4d_ttl_node(LILV_NS_RDF "type"), NULL);
  p4d_ttl_expect(types && lilv_nodes_size(types) == 2U &&
                   lilv_nodes_contains(types, p4d_ttl_node(LV2_CORE__Plugin)) &&
                   lilv_nodes_contains(types, p4d_ttl_node(spec->class_uri)),
                 "%s is not exactly a lv2:Plugin and a %s",
                 spec->uri,
                 spec->class_uri);
  lilv_nodes_free(types);

  LilvNode* const project = lilv_plugin_get_project(plugin);
  p4d_ttl_expect(project != NULL, "%s has no lv2:project", spec->uri);
  p4d_ttl_check_value(spec->uri, project, DOAP("license"), LICENSE);
  lilv_node_free(project);

  LilvNodes* const required = lilv_plugin_get_required_features(plugin);
  p4d_ttl_expect(!required || lilv_nodes_size(required) == 0U,
                 "%s requires a feature (%s)",
                 spec->uri,
                 required ? lilv_node_as_uri(lilv_nodes_get_first(required))
                          : "");
  lilv_nodes_free(required);

  LilvNodes* const optional   = lilv_plugin_get_optional_features(plugin);
  unsigned         n_optional = 0U;
  for (const char* const* f = p4d_ttl_optional_features; *f; ++f) {
    p4d_ttl_expect(optional && lilv_nodes_contains(optional, p4d_ttl_node(*f)),
                   "%s lacks the optional feature %s",
                   spec->uri,
                   *f);
    ++n_optional;
  }
  p4d_ttl_expect(optional && lilv_nodes_size(optional) == n_optional,
                 "%s lists %u optional features, not %u",
                 spec->uri,
                 optional ? lilv_nodes_size(optional) : 0U,
                 n_optional);
  lilv_nodes_free(optional);

  LilvNodes* const data = lilv_plugin_get_extension_data(plugin);
  for (const char* const* x = p4d_ttl_extension_data; *x; ++x) {
    p4d_ttl_expect(data && lilv_nodes_contains(data, p4d_ttl_node(*x)),
                   "%s lacks the extension data %s",
                   spec->uri,
                   *x);
  }
  // Defined in the bundle, as lv2lint asks (the host's own headers are not
  // data it can read).
  for (const char* const* f = p4d_ttl_optional_features + 2; *f; ++f) {
    p4d_ttl_expect(lilv_world_ask(p4d_ttl_world(),
                                  p4d_ttl_node(*f),
                                  p4d_ttl_node(LILV_NS_RDF "type"),
                                  p4d_ttl_node(LV2_CORE__Feature)),
                   "%s is not declared a lv2:Feature",
                   *f);
  }
  for (const char* const* x = p4d_ttl_extension_data; *x; ++x) {
    p4d_ttl_expect(lilv_world_ask(p4d_ttl_world(),
                                  p4d_ttl_node(*x),
                                  p4d_ttl_node(LILV_NS_RDF "type"),
                                  p4d_ttl_node(LV2_CORE__ExtensionData)),
                   "%s is not declared a lv2:ExtensionData",
                   *x);
  }
  lilv_nodes_free(data);
}

static void
test_plugin(const P4dTtlPlugin* const spec)
{
  const LilvPlugin* const plugin = p4d_ttl_find_plugin(spec);
  check_ports(spec, plugin);
  check_metadata(spec, plugin);

  unsigned n_controls = 0U;
  for (uint32_t i = 0U; i < spec->n_ports; ++i) {
    n_controls += spec->ports[i].kind == P4D_TTL_CONTROL_IN;
  }

  printf("# %s: %u ports (%u controls match the table: symbol, name, range, "
         "default, unit, properties, scale points; %u other ports), "
         "%s, versions, project, no required feature\n",
         spec->uri,
         spec->n_ports,
         n_controls,
         spec->n_ports - n_controls,
         spec->class_uri + strlen(LV2_CORE_PREFIX));
}

/**
   Check what a host shows about who made a plugin: its doap:shortdesc, the
   doap:name of its project, and a maintainer with foaf:name, foaf:mbox and
   foaf:homepage.  Checked last, so that a missing credit hides no other
   failure.
*/
static void
test_credits(const P4dTtlPlugin* const spec)
{
  const LilvPlugin* const plugin = p4d_ttl_find_plugin(spec);
  p4d_ttl_check_value(
    spec->uri, lilv_plugin_get_uri(plugin), DOAP("shortdesc"), NULL);

  LilvNode* const project = lilv_plugin_get_project(plugin);
  p4d_ttl_check_value(spec->uri, project, DOAP("name"), NULL);
  LilvNode* const maintainer =
    p4d_ttl_get_one(spec->uri, project, DOAP("maintainer"));
  LilvNode* const mbox = p4d_ttl_get_one(spec->uri, maintainer, FOAF("mbox"));
  LilvNode* const homepage =
    p4d_ttl_get_one(spec->uri, maintainer, FOAF("homepage"));
  p4d_ttl_check_value(spec->uri, maintainer, FOAF("name"), NULL);
  p4d_ttl_expect(lilv_node_is_uri(mbox) &&
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
  p4d_ttl_open(argc, argv);
  for (size_t i = 0U; i < N_PLUGINS; ++i) {
    test_plugin(&p4d_ttl_plugins[i]);
  }
  for (size_t i = 0U; i < N_PLUGINS; ++i) {
    test_credits(&p4d_ttl_plugins[i]);
  }

  printf("# every plugin has a doap:shortdesc, its project a doap:name and a "
         "maintainer with foaf:name, foaf:mbox and foaf:homepage\n");
  p4d_ttl_close();
  return 0;
}
