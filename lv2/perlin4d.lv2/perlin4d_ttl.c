// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Writes the bundle's plugin description (perlin4d.ttl) and manifest from
  the port table (params.h), in the layout `serdi -o turtle` prints, so that
  no plugin, port or control is written by hand twice.  The presets stay
  hand-written Turtle: the manifest lists each preset found in presets.ttl
  with the plugins it applies to.  Built for the build machine and run by
  meson:

      perlin4d_ttl MINOR MICRO LIB_EXT presets.ttl perlin4d.ttl manifest.ttl
*/

#include "params.h"

#include <serd/serd.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_LV2 "http://lv2plug.in/ns/lv2core#"
#define NS_PSET "http://lv2plug.in/ns/ext/presets#"
#define NS_RDF "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

/*
  The maintainer, as lv2lint wants it on the lv2:project node.  The project
  has no public home yet: the address and page are in the example.org
  domain, reserved for exactly this, until it has one.
*/
#define P4D_MAINTAINER_NAME "The perlin4d authors"
#define P4D_MAINTAINER_MBOX "mailto:perlin4d@example.org"
#define P4D_HOMEPAGE "https://example.org/perlin4d"

static const char* const header =
  "# Copyright 2026 The perlin4d authors\n"
  "# SPDX-License-Identifier: ISC\n"
  "# Generated from the port table (src/ports/params.c): edit that.\n"
  "\n";

/// The properties of one Turtle subject, written " ;"-separated.
typedef struct {
  char     text[4096];
  size_t   len;
  unsigned n;
  int      depth; ///< Tabs before each property
} Props;

/// Indentation: a tab per level of nesting, as serdi writes.
static const char tabs[] = "\t\t\t\t\t\t";

/// Add a property line to props.
static void
prop(Props* props, const char* format, ...)
{
  const size_t room = sizeof(props->text) - props->len;
  int          n    = snprintf(props->text + props->len,
                   room,
                   "%s%.*s",
                   props->n ? " ;\n" : "",
                   props->depth,
                   tabs);

  va_list args;
  va_start(args, format);
  n += vsnprintf(
    props->text + props->len + (size_t)n, room - (size_t)n, format, args);
  va_end(args);
  if ((size_t)n >= room) {
    fprintf(stderr, "perlin4d_ttl: a subject is too long\n");
    exit(1);
  }

  props->len += (size_t)n;
  ++props->n;
}

/**
   Write a number as the shortest decimal that reads back as the same float
   (serdi keeps the literal: 0.001, not 0.00100000005), with ".0" on whole
   values of real-valued ports and no fraction on integer ports.
*/
static void
number(char* buf, size_t size, float value, int integer)
{
  if (integer) {
    snprintf(buf, size, "%d", (int)lrintf(value));
    return;
  }

  for (int digits = 1; digits <= 12; ++digits) {
    snprintf(buf, size, "%.*f", digits, (double)value);
    if (strtof(buf, NULL) == value) {
      break;
    }
  }
}

/// A property with two objects, the second on a line of its own.
static void
prop2(Props* props, const char* predicate, const char* a, const char* b)
{
  prop(props, "%s %s ,\n%.*s%s", predicate, a, props->depth + 1, tabs, b);
}

static void
control_in(Props* props, const P4dParam* param)
{
  const int integer = (param->flags & P4D_PARAM_INTEGER) != 0U;
  char      value[32];

  number(value, sizeof(value), param->def, integer);
  prop(props, "lv2:default %s", value);
  number(value, sizeof(value), param->minimum, integer);
  prop(props, "lv2:minimum %s", value);
  number(value, sizeof(value), param->maximum, integer);
  prop(props, "lv2:maximum %s", value);

  const char* const unit = p4d_unit_uri(param->unit);
  if (unit) {
    prop(props, "units:unit units:%s", strrchr(unit, '#') + 1);
  }

  if (param->flags & P4D_PARAM_ENUMERATION) {
    prop2(props, "lv2:portProperty", "lv2:integer", "lv2:enumeration");
  } else if (param->flags & P4D_PARAM_TOGGLED) {
    prop2(props, "lv2:portProperty", "lv2:integer", "lv2:toggled");
  } else if (param->flags & P4D_PARAM_INTEGER) {
    prop(props, "lv2:portProperty lv2:integer");
  } else if (param->flags & P4D_PARAM_LOGARITHMIC) {
    prop(props, "lv2:portProperty pprops:logarithmic");
  }

  if (param->flags & P4D_PARAM_ENABLED) {
    prop(props, "lv2:designation lv2:enabled");
  }

  if (param->points) {
    char text[1024] = "lv2:scalePoint [";
    for (const P4dScalePoint* sp = param->points; sp->label; ++sp) {
      number(value, sizeof(value), sp->value, integer);
      const size_t len = strlen(text);
      snprintf(text + len,
               sizeof(text) - len,
               "%s\n\t\t\trdfs:label \"%s\" ;\n\t\t\trdf:value %s\n\t\t]",
               sp == param->points ? "" : " , [",
               sp->label,
               value);
    }
    prop(props, "%s", text);
  }
}

static void
write_port(FILE* out, const P4dPlugin* plugin, const P4dPort* port)
{
  Props props = { { 0 }, 0U, 0U, 2 };
  char  value[32];

  switch (port->role) {
  case P4D_PORT_TRANSPORT_IN:
    prop2(&props, "a", "atom:AtomPort", "lv2:InputPort");
    prop(&props, "atom:bufferType atom:Sequence");
    prop(&props, "atom:supports time:Position");
    prop(&props, "lv2:designation lv2:control");
    break;
  case P4D_PORT_MIDI_OUT:
    prop2(&props, "a", "atom:AtomPort", "lv2:OutputPort");
    prop(&props, "atom:bufferType atom:Sequence");
    prop(&props, "atom:supports midi:MidiEvent");
    break;
  case P4D_PORT_CONTROL_IN:
    prop2(&props, "a", "lv2:ControlPort", "lv2:InputPort");
    break;
  case P4D_PORT_CONTROL_OUT:
    prop2(&props, "a", "lv2:ControlPort", "lv2:OutputPort");
    break;
  case P4D_PORT_CV_OUT:
    prop2(&props, "a", "lv2:CVPort", "lv2:OutputPort");
    break;
  case P4D_PORT_AUDIO_OUT:
    prop2(&props, "a", "lv2:AudioPort", "lv2:OutputPort");
    break;
  case P4D_PORT_AUDIO_IN:
    prop2(&props, "a", "lv2:AudioPort", "lv2:InputPort");
    break;
  case P4D_PORT_LATENCY_OUT:
    prop2(&props, "a", "lv2:ControlPort", "lv2:OutputPort");
    break;
  }

  prop(&props, "lv2:index %u", (unsigned)port->index);
  prop(&props, "lv2:symbol \"%s\"", p4d_port_symbol(plugin, port));
  prop(&props, "lv2:name \"%s\"", p4d_port_name(plugin, port));

  if (port->role == P4D_PORT_CONTROL_IN) {
    const P4dParam* const param   = &p4d_params(plugin->kind)->params[port->id];
    const char* const     comment = p4d_param_comment(param);
    if (comment) {
      prop(&props, "rdfs:comment \"%s\"", comment);
    }
    control_in(&props, param);
  } else if (port->role == P4D_PORT_CONTROL_OUT ||
             port->role == P4D_PORT_CV_OUT ||
             port->role == P4D_PORT_LATENCY_OUT) {
    const int integer = port->role == P4D_PORT_LATENCY_OUT;
    number(value, sizeof(value), port->minimum, integer);
    prop(&props, "lv2:minimum %s", value);
    number(value, sizeof(value), port->maximum, integer);
    prop(&props, "lv2:maximum %s", value);
    const char* const unit = p4d_unit_uri(port->unit);
    if (unit) {
      prop(&props, "units:unit units:%s", strrchr(unit, '#') + 1);
    }
    if (port->role == P4D_PORT_CV_OUT) {
      prop(&props, "lv2:portProperty lv2:connectionOptional");
    } else if (integer) {
      // lv2:reportsLatency for the hosts that know only it (jalv, older
      // Ardour), and the designation that the LV2 core now prefers.
      prop2(&props, "lv2:portProperty", "lv2:integer", "lv2:reportsLatency");
      prop(&props, "lv2:designation lv2:latency");
    }
  }

  fprintf(out, "%s\n", props.text);
}

static void
write_plugin(FILE* out, const P4dPlugin* plugin)
{
  fprintf(out,
          "<%s>\n"
          "\ta lv2:Plugin ,\n"
          "\t\tlv2:%s ;\n"
          "\tdoap:name \"%s\" ;\n"
          "\tdoap:shortdesc \"%s\" ;\n"
          "\tdoap:license <http://opensource.org/licenses/isc> ;\n"
          "\tlv2:project <urn:perlin4d:project> ;\n"
          "\trdfs:comment \"%s\" ;\n"
          "\tlv2:optionalFeature urid:map ,\n"
          "\t\tlv2:hardRTCapable ,\n"
          "\t\tidpy:queue_draw ;\n"
          "\tlv2:extensionData idpy:interface ;\n"
          "\tlv2:port [\n",
          plugin->uri,
          plugin->lv2_class,
          plugin->name,
          plugin->shortdesc,
          plugin->comment);
  for (uint32_t i = 0U; i < plugin->n_ports; ++i) {
    fprintf(out, "%s", i ? "\t] , [\n" : "");
    write_port(out, plugin, &plugin->ports[i]);
  }
  fprintf(out, "\t] .\n");
}

static void
write_plugins(FILE* out)
{
  fprintf(out,
          "%s"
          "@prefix atom: <http://lv2plug.in/ns/ext/atom#> .\n"
          "@prefix doap: <http://usefulinc.com/ns/doap#> .\n"
          "@prefix foaf: <http://xmlns.com/foaf/0.1/> .\n"
          "@prefix idpy: <http://harrisonconsoles.com/lv2/inlinedisplay#> .\n"
          "@prefix lv2: <" NS_LV2 "> .\n"
          "@prefix midi: <http://lv2plug.in/ns/ext/midi#> .\n"
          "@prefix pprops: <http://lv2plug.in/ns/ext/port-props#> .\n"
          "@prefix rdf: <" NS_RDF "> .\n"
          "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
          "@prefix time: <http://lv2plug.in/ns/ext/time#> .\n"
          "@prefix units: <http://lv2plug.in/ns/extensions/units#> .\n"
          "@prefix urid: <http://lv2plug.in/ns/ext/urid#> .\n"
          "\n"
          "<urn:perlin4d:project>\n"
          "\ta doap:Project ;\n"
          "\tdoap:name \"perlin4d\" ;\n"
          "\tdoap:shortdesc \"4D Perlin noise as sound and motion\" ;\n"
          "\tdoap:license <http://opensource.org/licenses/isc> ;\n"
          "\tdoap:maintainer [\n"
          "\t\ta foaf:Person ;\n"
          "\t\tfoaf:name \"" P4D_MAINTAINER_NAME "\" ;\n"
          "\t\tfoaf:mbox <" P4D_MAINTAINER_MBOX "> ;\n"
          "\t\tfoaf:homepage <" P4D_HOMEPAGE ">\n"
          "\t] .\n"
          "\n"
          // Ardour's inline display, declared for the tools that check
          // that features and extension data are defined (lv2lint).
          "idpy:queue_draw\n"
          "\ta lv2:Feature .\n"
          "\n"
          "idpy:interface\n"
          "\ta lv2:ExtensionData .\n",
          header);
  for (unsigned i = 0U; i < P4D_N_PLUGINS; ++i) {
    fprintf(out, "\n");
    write_plugin(out, p4d_plugin((P4dPluginId)i));
  }
}

/// The presets of presets.ttl, each with the plugins it applies to.
typedef struct {
  SerdEnv* env;
  char     uri[64][128];
  char     applies_to[64][4][128];
  unsigned n_plugins[64];
  unsigned n;
} Presets;

static SerdStatus
on_prefix(void* handle, const SerdNode* name, const SerdNode* uri)
{
  return serd_env_set_prefix(((Presets*)handle)->env, name, uri);
}

static SerdStatus
on_statement(void*              handle,
             SerdStatementFlags flags,
             const SerdNode*    graph,
             const SerdNode*    subject,
             const SerdNode*    predicate,
             const SerdNode*    object,
             const SerdNode*    datatype,
             const SerdNode*    lang)
{
  (void)flags;
  (void)graph;
  (void)datatype;
  (void)lang;

  Presets* const    p    = (Presets*)handle;
  SerdNode          pred = serd_env_expand_node(p->env, predicate);
  const char* const sub  = (const char*)subject->buf;
  const int         applies =
    pred.buf && !strcmp((const char*)pred.buf, NS_LV2 "appliesTo");
  serd_node_free(&pred);
  if (subject->type != SERD_URI || object->type != SERD_URI || !applies) {
    return SERD_SUCCESS;
  }

  unsigned i = 0U;
  while (i < p->n && strcmp(p->uri[i], sub)) {
    ++i;
  }
  if (i == p->n) {
    if (p->n == 64U || strlen(sub) >= sizeof(p->uri[0])) {
      return SERD_ERR_BAD_SYNTAX;
    }
    snprintf(p->uri[p->n++], sizeof(p->uri[0]), "%s", sub);
  }
  if (p->n_plugins[i] == 4U || object->n_bytes >= sizeof(p->uri[0])) {
    return SERD_ERR_BAD_SYNTAX;
  }
  snprintf(p->applies_to[i][p->n_plugins[i]++],
           sizeof(p->uri[0]),
           "%s",
           (const char*)object->buf);
  return SERD_SUCCESS;
}

/// Parse the whole of text as a version number into *value.
static int
parse_version(const char* text, unsigned* value)
{
  char*               end = NULL;
  const unsigned long v   = strtoul(text, &end, 10);
  if (end == text || *end || v > 1000U) {
    fprintf(stderr, "perlin4d_ttl: bad version number '%s'\n", text);
    return 1;
  }

  *value = (unsigned)v;
  return 0;
}

/**
   Write the manifest: each plugin with its binary and version (lv2 minor
   and micro version, from meson's project version major.minor.micro), then
   each preset of presets.ttl with the plugins it applies to.
*/
static int
write_manifest(FILE*       out,
               const char* minor_text,
               const char* micro_text,
               const char* lib_ext,
               const char* presets_path)
{
  unsigned minor = 0U;
  unsigned micro = 0U;
  if (parse_version(minor_text, &minor) || parse_version(micro_text, &micro)) {
    return 1;
  }

  static Presets presets;
  presets.env              = serd_env_new(NULL);
  SerdReader* const reader = serd_reader_new(
    SERD_TURTLE, &presets, NULL, NULL, on_prefix, on_statement, NULL);
  const SerdStatus st =
    serd_reader_read_file(reader, (const uint8_t*)presets_path);
  serd_reader_free(reader);
  serd_env_free(presets.env);
  if (st) {
    fprintf(
      stderr, "perlin4d_ttl: %s: cannot read the presets\n", presets_path);
    return 1;
  }

  fprintf(out,
          "%s"
          "@prefix lv2: <" NS_LV2 "> .\n"
          "@prefix pset: <" NS_PSET "> .\n"
          "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n",
          header);
  for (unsigned i = 0U; i < P4D_N_PLUGINS; ++i) {
    fprintf(out,
            "\n<%s>\n"
            "\ta lv2:Plugin ;\n"
            "\tlv2:binary <perlin4d%s> ;\n"
            "\tlv2:minorVersion %u ;\n"
            "\tlv2:microVersion %u ;\n"
            "\trdfs:seeAlso <perlin4d.ttl> .\n",
            p4d_plugin((P4dPluginId)i)->uri,
            lib_ext,
            minor,
            micro);
  }
  for (unsigned i = 0U; i < presets.n; ++i) {
    fprintf(out, "\n<%s>\n\ta pset:Preset ;\n\tlv2:appliesTo ", presets.uri[i]);
    for (unsigned j = 0U; j < presets.n_plugins[i]; ++j) {
      fprintf(out, "%s<%s>", j ? " ,\n\t\t" : "", presets.applies_to[i][j]);
    }
    fprintf(out, " ;\n\trdfs:seeAlso <presets.ttl> .\n");
  }

  return 0;
}

int
main(int argc, char** argv)
{
  if (argc != 7) {
    fprintf(stderr,
            "usage: perlin4d_ttl MINOR MICRO LIB_EXT PRESETS PLUGINS_OUT "
            "MANIFEST_OUT\n");
    return 2;
  }

  FILE* const plugins  = fopen(argv[5], "w");
  FILE* const manifest = fopen(argv[6], "w");
  int         status   = !plugins || !manifest;
  if (!status) {
    write_plugins(plugins);
    status = write_manifest(manifest, argv[1], argv[2], argv[3], argv[4]);
  }
  if (plugins && fclose(plugins)) {
    status = 1;
  }
  if (manifest && fclose(manifest)) {
    status = 1;
  }
  if (status) {
    fprintf(stderr, "perlin4d_ttl: cannot write %s or %s\n", argv[5], argv[6]);
  }

  return status;
}
