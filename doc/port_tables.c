// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Writes the manual's port tables from the port table (src/ports/params.c,
  with the descriptions of src/ports/descriptions.c), so that no index,
  symbol, range or default is copied into the manual by hand:

      port_tables                  print every table, between its markers
      port_tables --check FILE     exit 1 when FILE's tables differ
      port_tables --update FILE    rewrite FILE's tables in place

  A table sits in the manual between two lines, `<!-- port-table NAME -->`
  and `<!-- /port-table NAME -->`, NAME the last part of the URI of the
  first plugin of an engine ("mod" for Perlin4D Mod and Mod CV, which share
  one table with an index column each), or "image": the renderer's Image,
  which is no plugin, has parameters and no ports (no index column).  Everything
  outside the markers is left as it is.  The test 'manual_port_tables' runs
  --check on doc/manual.md; `meson compile -C build manual-port-tables` runs
  --update.
*/

#define _XOPEN_SOURCE 700

#include "descriptions.h"
#include "params.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The minus sign (U+2212) and the en dash (U+2013), as the manual's prose
/// writes negative numbers and ranges.
#define MINUS "\xe2\x88\x92"
#define DASH "\xe2\x80\x93"

/// The largest manual read, far above its size.
#define MAX_FILE_SIZE (4UL << 20U)

static const char* const begin_mark = "<!-- port-table ";
static const char* const end_mark   = "<!-- /port-table ";
static const char* const mark_close = " -->";

/// Text that grows as it is written.
typedef struct {
  char*  text;
  size_t len;
  size_t size;
} Text;

static void
die(const char* what, const char* reason)
{
  fprintf(stderr, "port_tables: %s: %s\n", what, reason);
  exit(1);
}

static void
put(Text* t, const char* format, ...)
{
  va_list args;
  va_start(args, format);
  const int n = vsnprintf(NULL, 0U, format, args);
  va_end(args);
  if (n < 0) {
    die(format, "cannot format");
  }

  if (t->len + (size_t)n + 1U > t->size) {
    const size_t size = 2U * (t->len + (size_t)n + 1U);
    char* const  text = (char*)realloc(t->text, size);
    if (!text) {
      die("memory", "out of memory");
    }
    t->text = text;
    t->size = size;
  }

  va_start(args, format);
  (void)vsnprintf(t->text + t->len, t->size - t->len, format, args);
  va_end(args);
  t->len += (size_t)n;
}

/// Write v as the prose does: %g, with a minus sign.
static void
put_number(Text* t, float v)
{
  char number[32];
  (void)snprintf(number, sizeof(number), "%g", (double)v);
  if (number[0] == '-') {
    put(t, MINUS "%s", number + 1);
  } else {
    put(t, "%s", number);
  }
}

/// Return the parameter a control input carries, else NULL.
static const P4dParam*
port_param(const P4dPlugin* plugin, const P4dPort* port)
{
  return port->role == P4D_PORT_CONTROL_IN
           ? &p4d_params(plugin->kind)->params[port->id]
           : NULL;
}

/// Return the label of the scale point of param at value, or NULL.
static const char*
point_label(const P4dParam* param, float value)
{
  for (const P4dScalePoint* p = param->points; p && p->label; ++p) {
    if (p->value == value) {
      return p->label;
    }
  }

  return NULL;
}

/// Write "lo – hi unit", or nothing when the port has no range.
static void
put_span(Text* t, float lo, float hi, P4dUnit unit)
{
  if (lo == hi) {
    return;
  }

  put_number(t, lo);
  put(t, " " DASH " ");
  put_number(t, hi);
  if (unit != P4D_UNIT_NONE) {
    put(t, " %s", p4d_unit_label(unit));
  }
}

/// Write the range of a port: its values, unit and scale.
static void
put_range(Text* t, const P4dPlugin* plugin, const P4dPort* port)
{
  const P4dParam* const param = port_param(plugin, port);
  if (!param) {
    put_span(t, port->minimum, port->maximum, port->unit);
    return;
  }

  if (param->flags & P4D_PARAM_ENUMERATION) {
    for (const P4dScalePoint* p = param->points; p && p->label; ++p) {
      put(t, p == param->points ? "" : ", ");
      put_number(t, p->value);
      put(t, " %s", p->label);
    }
    return;
  }

  if (param->flags & P4D_PARAM_TOGGLED) {
    put_number(t, param->minimum);
    put(t, ", ");
    put_number(t, param->maximum);
    return;
  }

  put_span(t, param->minimum, param->maximum, param->unit);
  if (param->flags & P4D_PARAM_LOGARITHMIC) {
    put(t, " (log)");
  }
  if (param->flags & P4D_PARAM_INTEGER) {
    put(t, ", whole");
  }
  for (const P4dScalePoint* p = param->points; p && p->label; ++p) {
    put(t, "; ");
    put_number(t, p->value);
    put(t, ": %s", p->label);
  }
}

/// Write the default of a control input, with its label if it has one.
static void
put_default(Text* t, const P4dPlugin* plugin, const P4dPort* port)
{
  const P4dParam* const param = port_param(plugin, port);
  if (!param) {
    return;
  }

  put_number(t, param->def);
  const char* const label = point_label(param, param->def);
  if (label) {
    put(t, " (%s)", label);
  }
}

/// Return the port of plugin with symbol, or NULL.
static const P4dPort*
port_named(const P4dPlugin* plugin, const char* symbol)
{
  for (uint32_t i = 0U; i < plugin->n_ports; ++i) {
    if (!strcmp(p4d_port_symbol(plugin, &plugin->ports[i]), symbol)) {
      return &plugin->ports[i];
    }
  }

  return NULL;
}

/// Return whether plugin id is the first of its engine (its table's name).
static bool
first_of_kind(unsigned id)
{
  for (unsigned i = 0U; i < id; ++i) {
    if (p4d_plugin((P4dPluginId)i)->kind == p4d_plugin((P4dPluginId)id)->kind) {
      return false;
    }
  }

  return true;
}

/// Return the name of the table of the engine of plugin.
static const char*
table_name(const P4dPlugin* plugin)
{
  const char* const colon = strrchr(plugin->uri, ':');

  return colon ? colon + 1 : plugin->uri;
}

/// Write one row: the port's index in each plugin of the table, then what
/// it is.
static void
put_row(Text*                  t,
        const P4dPlugin* const plugins[],
        unsigned               n_plugins,
        const P4dPlugin*       plugin,
        const P4dPort*         port)
{
  const char* const symbol = p4d_port_symbol(plugin, port);
  const char* const text   = p4d_port_description(plugin, port);
  if (!text) {
    die(symbol, "no description in src/ports/descriptions.c");
  }

  put(t, "|");
  for (unsigned i = 0U; i < n_plugins; ++i) {
    const P4dPort* const own = port_named(plugins[i], symbol);
    if (own) {
      put(t, " %u |", (unsigned)own->index);
    } else {
      put(t, " " DASH " |");
    }
  }
  put(t, " `%s` | ", symbol);
  put_range(t, plugin, port);
  put(t, " | ");
  put_default(t, plugin, port);
  put(t, " | %s |\n", text);
}

/// Write the table of the engine of plugin id: one index column per plugin
/// of that engine, one row per port symbol, in the order of the plugin with
/// the most ports, then the others' own ports.
static void
put_table(Text* t, unsigned id)
{
  const P4dPlugin* plugins[P4D_N_PLUGINS];
  unsigned         n_plugins = 0U;
  const P4dPlugin* spine     = p4d_plugin((P4dPluginId)id);

  for (unsigned i = id; i < P4D_N_PLUGINS; ++i) {
    const P4dPlugin* const plugin = p4d_plugin((P4dPluginId)i);
    if (plugin->kind == spine->kind) {
      plugins[n_plugins++] = plugin;
    }
  }
  for (unsigned i = 0U; i < n_plugins; ++i) {
    spine = plugins[i]->n_ports > spine->n_ports ? plugins[i] : spine;
  }

  put(t, "|");
  for (unsigned i = 0U; i < n_plugins; ++i) {
    const char* const name = plugins[i]->name;
    const char* const own  = strncmp(name, "Perlin4D ", 9U) ? name : name + 9;
    if (n_plugins > 1U) {
      put(t, " # %s |", own);
    } else {
      put(t, " # |");
    }
  }
  put(t, " symbol | range | default | what it does |\n|");
  for (unsigned i = 0U; i < n_plugins; ++i) {
    put(t, "---|");
  }
  put(t, "---|---|---|---|\n");

  for (uint32_t i = 0U; i < spine->n_ports; ++i) {
    put_row(t, plugins, n_plugins, spine, &spine->ports[i]);
  }
  for (unsigned p = 0U; p < n_plugins; ++p) {
    for (uint32_t i = 0U; i < plugins[p]->n_ports; ++i) {
      const P4dPort* const port   = &plugins[p]->ports[i];
      const char* const    symbol = p4d_port_symbol(plugins[p], port);
      bool                 shown  = port_named(spine, symbol) != NULL;
      for (unsigned q = 0U; q < p && !shown; ++q) {
        shown = port_named(plugins[q], symbol) != NULL;
      }
      if (!shown) {
        put_row(t, plugins, n_plugins, plugins[p], port);
      }
    }
  }
}

/// The table of the Image's parameters: no plugin, no index column.
#define IMAGE_TABLE P4D_N_PLUGINS

/// The tables: one per engine of the bundle, and the Image's.
#define N_TABLES (P4D_N_PLUGINS + 1U)

/// Write the table of the Image's parameters (P4D_KIND_IMAGE): a stand-in
/// plugin whose ports are its parameters, in order, with no index column.
static void
put_image_table(Text* t)
{
  static P4dPort             ports[P4D_IMAGE_N_PARAMS];
  const P4dParamTable* const table = p4d_params(P4D_KIND_IMAGE);
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    ports[i] =
      (P4dPort){ i,   P4D_PORT_CONTROL_IN, i, P4D_UNIT_NONE, NULL, NULL, 0.0f,
                 0.0f };
  }
  const P4dPlugin image = { P4D_URI_IMAGE,  "Perlin4D Image", NULL, NULL, NULL,
                            P4D_KIND_IMAGE, table->n_params,  ports };

  put(t, "| symbol | range | default | what it does |\n|---|---|---|---|\n");
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    put_row(t, NULL, 0U, &image, &ports[i]);
  }
}

/// Write table id: an engine's (the id of its first plugin) or the
/// Image's.
static void
put_any_table(Text* t, unsigned id)
{
  if (id == IMAGE_TABLE) {
    put_image_table(t);
  } else {
    put_table(t, id);
  }
}

/// Return the table called name (see put_any_table()), or N_TABLES.
static unsigned
table_named(const char* name, size_t len)
{
  for (unsigned i = 0U; i < P4D_N_PLUGINS; ++i) {
    const char* const own = table_name(p4d_plugin((P4dPluginId)i));
    if (first_of_kind(i) && strlen(own) == len && !strncmp(own, name, len)) {
      return i;
    }
  }

  return len == 5U && !strncmp(name, "image", len) ? IMAGE_TABLE : N_TABLES;
}

/// Whether table id is written (the first plugin of an engine, or the
/// Image's).
static bool
is_table(unsigned id)
{
  return id == IMAGE_TABLE || first_of_kind(id);
}

/// Write every table between its markers.
static void
put_all(Text* t)
{
  for (unsigned i = 0U; i < N_TABLES; ++i) {
    if (is_table(i)) {
      const char* const name =
        i == IMAGE_TABLE ? "image" : table_name(p4d_plugin((P4dPluginId)i));
      put(t, "%s%s%s\n\n", begin_mark, name, mark_close);
      put_any_table(t, i);
      put(t, "\n%s%s%s\n\n", end_mark, name, mark_close);
    }
  }
}

/// Read the file at path into t.
static void
read_file(const char* path, Text* t)
{
  FILE* const file = fopen(path, "rb");
  if (!file) {
    die(path, "cannot open");
  }

  char   block[4096];
  size_t n = 0U;
  while ((n = fread(block, 1U, sizeof(block), file)) > 0U) {
    put(t, "%.*s", (int)n, block);
    if (t->len > MAX_FILE_SIZE) {
      die(path, "too large");
    }
  }
  if (ferror(file) || fclose(file)) {
    die(path, "cannot read");
  }
  if (strlen(t->text ? t->text : "") != t->len) {
    die(path, "holds a NUL byte");
  }
}

/// Return the length of the line at s, its newline included.
static size_t
line_length(const char* s)
{
  const char* const newline = strchr(s, '\n');

  return newline ? (size_t)(newline - s) + 1U : strlen(s);
}

/// Return whether the line at s, of len bytes, is a marker that starts
/// with mark; set *name and *name_len to the name it carries.
static bool
is_mark(const char*  s,
        size_t       len,
        const char*  mark,
        const char** name,
        size_t*      name_len)
{
  const size_t mark_len  = strlen(mark);
  const size_t close_len = strlen(mark_close);
  while (len > 0U && (s[len - 1U] == '\n' || s[len - 1U] == '\r')) {
    --len;
  }
  if (len <= mark_len + close_len || strncmp(s, mark, mark_len) ||
      strncmp(s + len - close_len, mark_close, close_len)) {
    return false;
  }

  *name     = s + mark_len;
  *name_len = len - mark_len - close_len;
  return true;
}

/// Copy the manual in to out with every table written anew.
static void
rewrite(const char* path, const char* in, Text* out)
{
  bool written[N_TABLES] = { false };

  for (const char* s = in; *s;) {
    size_t      len      = line_length(s);
    const char* name     = NULL;
    size_t      name_len = 0U;
    put(out, "%.*s", (int)len, s);
    s += len;
    if (!is_mark(s - len, len, begin_mark, &name, &name_len)) {
      continue;
    }

    const unsigned id = table_named(name, name_len);
    if (id == N_TABLES || written[id]) {
      die(path, "a port-table marker names no table, or one twice");
    }
    written[id] = true;
    put(out, "\n");
    put_any_table(out, id);
    put(out, "\n");

    // Skip the old table, up to its end marker.
    const char* end_name     = NULL;
    size_t      end_name_len = 0U;
    while (*s &&
           !is_mark(s, line_length(s), end_mark, &end_name, &end_name_len)) {
      s += line_length(s);
    }
    if (!*s || end_name_len != name_len || strncmp(end_name, name, name_len)) {
      die(path, "a port table has no end marker of its own");
    }
  }

  for (unsigned i = 0U; i < N_TABLES; ++i) {
    if (is_table(i) && !written[i]) {
      die(path, "a port table is missing (see port_tables with no argument)");
    }
  }
}

/// Report the first line where the manual (a) and the table (b) differ.
static void
report_difference(const char* path, const char* a, const char* b)
{
  unsigned    line  = 1U;
  const char* start = a;
  size_t      i     = 0U;
  for (; a[i] && a[i] == b[i]; ++i) {
    if (a[i] == '\n') {
      ++line;
      start = a + i + 1U;
    }
  }

  const size_t at = (size_t)(start - a);
  fprintf(stderr,
          "port_tables: %s:%u: the port tables differ from the port table "
          "(src/ports/); refresh them with `meson compile -C BUILD "
          "manual-port-tables`\n  the manual: %.*s  the table:  %.*s",
          path,
          line,
          (int)line_length(a + at),
          a + at,
          (int)line_length(b + at),
          b + at);
}

int
main(int argc, char** argv)
{
  Text out = { NULL, 0U, 0U };

  if (argc == 1) {
    put_all(&out);
    fputs(out.text, stdout);
    free(out.text);
    return fflush(stdout) || ferror(stdout);
  }

  if (argc != 3 ||
      (strcmp(argv[1], "--check") && strcmp(argv[1], "--update"))) {
    fprintf(stderr, "Usage: port_tables [--check FILE | --update FILE]\n");
    return 2;
  }

  const char* const path = argv[2];
  Text              in   = { NULL, 0U, 0U };
  read_file(path, &in);
  rewrite(path, in.text ? in.text : "", &out);
  const bool same = in.len == out.len && !memcmp(in.text, out.text, in.len);

  int status = 0;
  if (!same && !strcmp(argv[1], "--check")) {
    report_difference(path, in.text, out.text);
    status = 1;
  } else if (!same) {
    // Written beside it and renamed over it: never a half-written manual.
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
      die(path, "path too long");
    }
    FILE* const file = fopen(tmp, "wb");
    if (!file) {
      die(tmp, "cannot open");
    }
    const bool written = fwrite(out.text, 1U, out.len, file) == out.len;
    if (fclose(file) || !written || rename(tmp, path)) {
      (void)remove(tmp);
      die(tmp, "cannot write");
    }
    printf("port_tables: wrote the port tables of %s\n", path);
  }

  free(in.text);
  free(out.text);
  return status;
}
