// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _XOPEN_SOURCE 700

#include "preset_file.h"

#include "report.h"

#include <lv2/core/lv2.h>
#include <lv2/presets/presets.h>
#include <serd/serd.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RDF_TYPE "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
#define XSD "http://www.w3.org/2001/XMLSchema#"
#define RDFS_LABEL "http://www.w3.org/2000/01/rdf-schema#label"

/// Characters of a damaged value quoted in a reason.
#define QUOTE_MAX 40

/// Replace every control character of s by '?': text from the file (or
/// serd quoting it) must not break the one line of a message.
static char*
printable(char* s)
{
  for (char* c = s; *c; ++c) {
    if ((unsigned char)*c < 0x20U || *c == 0x7F) {
      *c = '?';
    }
  }
  return s;
}

/// Record a preset refused for the formatted reason: a bad --preset, named
/// by the caller.
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static P4dRenderCode
fail(P4dRenderStatus* status, const char* format, ...)
{
  va_list args;
  va_start(args, format);
  vsnprintf(status->text, sizeof(status->text), format, args);
  va_end(args);
  return p4d_report_usage(status, NULL, printable(status->text));
}

/**
   Read the file at path into *text (NUL-terminated), if it is a regular
   file of at most P4D_PRESET_MAX_BYTES.  Anything else (a device, a FIFO,
   a folder) is refused before it is opened for reading, so that nothing
   can block or stream forever.
*/
static P4dRenderCode
read_text(const char* path, char** text, size_t* size, P4dRenderStatus* status)
{
  struct stat st;
  if (stat(path, &st)) {
    return fail(status, "%s", strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) {
    return fail(status, "is a folder");
  }
  if (!S_ISREG(st.st_mode)) {
    return fail(status, "not a regular file");
  }
  if (st.st_size > P4D_PRESET_MAX_BYTES) {
    return fail(status, "larger than 1 MiB: not a preset");
  }

  // Non-blocking: should the path have become a FIFO since, open() returns.
  const int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    return fail(status, "%s", strerror(errno));
  }
  if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    close(fd);
    return fail(status, "not a regular file");
  }

  // The size may have changed (or be unknown, as in /proc): read at most
  // one byte past the limit to tell.
  const size_t max = (size_t)P4D_PRESET_MAX_BYTES;
  char* const  buf = (char*)malloc(max + 2U);
  if (!buf) {
    close(fd);
    return fail(status, "%s", strerror(ENOMEM));
  }
  size_t      len = 0U;
  const char* why = NULL;
  while (!why && len <= max) {
    const ssize_t r = read(fd, buf + len, max + 1U - len);
    if (r < 0 && errno != EINTR) {
      why = strerror(errno);
    } else if (r == 0) {
      break;
    } else if (r > 0) {
      len += (size_t)r;
    }
  }
  close(fd);
  if (!why && len > max) {
    why = "larger than 1 MiB: not a preset";
  }
  if (why) {
    free(buf);
    return fail(status, "%s", why);
  }
  buf[len] = '\0';
  *text    = buf;
  *size    = len;
  return P4D_RENDER_SUCCESS;
}

/// The predicates a preset is made of.
typedef enum {
  PRED_TYPE,
  PRED_APPLIES_TO,
  PRED_PORT,
  PRED_SYMBOL,
  PRED_VALUE,
  PRED_LABEL,
  PRED_OTHER,
} Pred;

/// One statement of interest; nodes as text: a URI, "_:" and a blank
/// node's label, or a literal's text.
typedef struct {
  Pred  pred;
  char* subject;
  char* object;
  char* datatype; ///< A literal's datatype URI, or NULL
  bool  literal;
} Triple;

/// The statements of a file, read by serd.
typedef struct {
  SerdEnv*         env;
  Triple*          triples;
  size_t           n_triples;
  size_t           capacity;
  P4dRenderStatus* status;
  P4dRenderCode    error; ///< The first failure, recorded in status
} Graph;

static SerdStatus
on_error(void* handle, const SerdError* error)
{
  Graph* const g = (Graph*)handle;
  if (!g->error) {
    char text[256];
    // serd hands over a started va_list, which the analyzer cannot see.
    // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
    vsnprintf(text, sizeof(text), error->fmt, *error->args);
    text[strcspn(text, "\n")] = '\0';
    g->error =
      fail(g->status, "line %u, column %u: %s", error->line, error->col, text);
  }
  return SERD_SUCCESS;
}

static SerdStatus
on_base(void* handle, const SerdNode* uri)
{
  return serd_env_set_base_uri(((Graph*)handle)->env, uri);
}

static SerdStatus
on_prefix(void* handle, const SerdNode* name, const SerdNode* uri)
{
  return serd_env_set_prefix(((Graph*)handle)->env, name, uri);
}

/// The text of a node (see Triple), or NULL with the failure recorded.
static char*
node_text(Graph* g, const SerdNode* node)
{
  const char* const buf  = (const char*)node->buf;
  char*             text = NULL;
  if (node->type == SERD_LITERAL || node->type == SERD_BLANK) {
    const bool   blank = node->type == SERD_BLANK;
    const size_t skip  = blank ? 2U : 0U;
    text               = (char*)malloc(node->n_bytes + skip + 1U);
    if (text) {
      memcpy(text, "_:", skip);
      memcpy(text + skip, buf, node->n_bytes + 1U);
    }
  } else {
    SerdNode full = serd_env_expand_node(g->env, node);
    if (!full.buf) {
      const char* const colon = strchr(buf, ':');
      if (!g->error && node->type == SERD_CURIE) {
        g->error = fail(g->status,
                        "undefined prefix '%.*s'",
                        colon ? (int)(colon - buf + 1) : QUOTE_MAX,
                        buf);
      } else if (!g->error) {
        g->error = fail(g->status, "bad URI <%.*s>", QUOTE_MAX, buf);
      }
      return NULL;
    }
    text = strdup((const char*)full.buf);
    serd_node_free(&full);
  }
  if (!text && !g->error) {
    g->error = fail(g->status, "%s", strerror(ENOMEM));
  }
  return text;
}

static Pred
pred_of(const char* uri)
{
  static const char* const uris[] = {
    RDF_TYPE,         LV2_CORE__appliesTo, LV2_CORE__port,
    LV2_CORE__symbol, LV2_PRESETS__value,  RDFS_LABEL,
  };
  for (size_t i = 0U; i < sizeof(uris) / sizeof(uris[0]); ++i) {
    if (!strcmp(uri, uris[i])) {
      return (Pred)i;
    }
  }
  return PRED_OTHER;
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
  (void)lang;
  Graph* const g = (Graph*)handle;

  // Every node is expanded, so that an undefined prefix anywhere is found.
  Triple t  = { PRED_OTHER, NULL, NULL, NULL, object->type == SERD_LITERAL };
  char*  p  = node_text(g, predicate);
  t.subject = p ? node_text(g, subject) : NULL;
  t.object  = t.subject ? node_text(g, object) : NULL;
  t.datatype =
    t.object && datatype && datatype->buf ? node_text(g, datatype) : NULL;
  t.pred = p ? pred_of(p) : PRED_OTHER;
  free(p);

  bool keep = t.object && t.pred != PRED_OTHER && !g->error;
  if (keep && g->n_triples == g->capacity) {
    const size_t n    = g->capacity ? 2U * g->capacity : 64U;
    Triple*      more = (Triple*)realloc(g->triples, n * sizeof(Triple));
    if (more) {
      g->triples  = more;
      g->capacity = n;
    } else {
      g->error = fail(g->status, "%s", strerror(ENOMEM));
      keep     = false;
    }
  }
  if (keep) {
    g->triples[g->n_triples++] = t;
  } else {
    free(t.subject);
    free(t.object);
    free(t.datatype);
  }
  return g->error ? SERD_ERR_BAD_SYNTAX : SERD_SUCCESS;
}

static void
graph_free(Graph* g)
{
  for (size_t i = 0U; i < g->n_triples; ++i) {
    free(g->triples[i].subject);
    free(g->triples[i].object);
    free(g->triples[i].datatype);
  }
  free(g->triples);
  serd_env_free(g->env);
}

/// Read the Turtle file at path into g.
static P4dRenderCode
graph_read(Graph* g, const char* path, P4dRenderStatus* status)
{
  memset(g, 0, sizeof(*g));
  g->status = status;

  char*               text = NULL;
  size_t              size = 0U;
  const P4dRenderCode code = read_text(path, &text, &size, status);
  if (code || !text) {
    return code ? code : fail(status, "cannot be read");
  }

  // serd reads up to a NUL: a NUL byte is no Turtle.
  const char* const nul = (const char*)memchr(text, '\0', size);
  if (nul) {
    unsigned line = 1U;
    unsigned col  = 1U;
    for (const char* c = text; c < nul; ++c) {
      line += *c == '\n' ? 1U : 0U;
      col = *c == '\n' ? 1U : col + 1U;
    }
    free(text);
    return fail(
      status, "line %u, column %u: a NUL byte: not Turtle", line, col);
  }

  // The base is the file's URI, as lilv has it: <> is the file.
  char* const abs  = realpath(path, NULL);
  SerdNode    base = serd_node_new_file_uri(
    (const uint8_t*)(abs ? abs : path), NULL, NULL, true);
  free(abs);
  g->env = serd_env_new(&base);
  serd_node_free(&base);

  SerdReader* const reader = serd_reader_new(
    SERD_TURTLE, g, NULL, on_base, on_prefix, on_statement, NULL);
  serd_reader_set_strict(reader, true);
  serd_reader_set_error_sink(reader, on_error, g);
  const SerdStatus st = serd_reader_read_string(reader, (uint8_t*)text);
  serd_reader_free(reader);
  free(text);

  if (!g->error && st) {
    g->error = fail(status, "%s", (const char*)serd_strerror(st));
  }
  return g->error;
}

/// The objects of (subject, pred), one after the other: start with *i = 0.
static const Triple*
graph_next(const Graph* g, const char* subject, Pred pred, size_t* i)
{
  for (; *i < g->n_triples; ++*i) {
    const Triple* t = &g->triples[*i];
    if (t->pred == pred && !strcmp(t->subject, subject)) {
      ++*i;
      return t;
    }
  }
  return NULL;
}

/// The number of objects of (subject, pred), and the first in *first.
static size_t
graph_count(const Graph*   g,
            const char*    subject,
            Pred           pred,
            const Triple** first)
{
  size_t n = 0U;
  *first   = NULL;
  for (size_t i = 0U; graph_next(g, subject, pred, &i);) {
    *first = *first ? *first : &g->triples[i - 1U];
    ++n;
  }
  return n;
}

/// The preset of a file: <> (the file itself) if anything is said of it,
/// else its only pset:Preset.
static P4dRenderCode
graph_subject(const Graph* g, const char** subject)
{
  const char* const base =
    (const char*)serd_env_get_base_uri(g->env, NULL)->buf;
  for (size_t i = 0U; base && i < g->n_triples; ++i) {
    if (!strcmp(g->triples[i].subject, base)) {
      *subject = g->triples[i].subject;
      return P4D_RENDER_SUCCESS;
    }
  }

  // Counted as they change: A, B, A counts three, but more than one is
  // all that matters.
  size_t n = 0U;
  for (size_t i = 0U; i < g->n_triples; ++i) {
    const Triple* t = &g->triples[i];
    if (t->pred == PRED_TYPE && !strcmp(t->object, LV2_PRESETS__Preset) &&
        (!n || strcmp(t->subject, *subject))) {
      *subject = t->subject;
      ++n;
    }
  }
  return n == 1U ? P4D_RENDER_SUCCESS
         : n     ? fail(g->status, "holds more than one preset")
                 : fail(g->status, "holds no preset (<> a pset:Preset)");
}

/// The plugin's name (Perlin4D Mod) of a class.
static const char*
kind_name(const P4dKindClass* kind)
{
  return p4d_kind_title(kind);
}

/// The bit of the class the renderer renders kind as, in a set of them.
static unsigned
kind_bit(const P4dKindClass* kind)
{
  return 1U << p4d_kind_index(kind->renders_as);
}

/// The kind of the preset from its lv2:appliesTo, or from plugin if it
/// names none (or names more than one kind).
static P4dRenderCode
graph_kind(const Graph*        g,
           const char*         subject,
           const P4dKindClass* plugin,
           P4dPresetValues*    values)
{
  unsigned      kinds   = 0U;
  const Triple* foreign = NULL;
  const Triple* t       = NULL;
  for (size_t i = 0U; (t = graph_next(g, subject, PRED_APPLIES_TO, &i));) {
    const P4dKindClass* const p = p4d_kind_by_uri(t->object);
    kinds |= p ? kind_bit(p) : 0U;
    foreign = p ? foreign : t;
  }

  if (!kinds && foreign) {
    return fail(g->status,
                "a preset of <%.*s>, not of a perlin4d plugin",
                QUOTE_MAX * 2,
                foreign->object);
  }
  if (!kinds && !plugin) {
    return fail(g->status,
                "names no plugin (no lv2:appliesTo): "
                "choose one with --plugin noise|mod|motion");
  }
  if (plugin && kinds && !(kinds & kind_bit(plugin))) {
    // A class may take another's presets, by the symbols they share.
    const P4dKindClass* const other = plugin->takes_presets_of;
    if (!other || !(kinds & kind_bit(other))) {
      return fail(g->status, "is not a preset of this plugin");
    }
    values->borrowed = true;
  }
  if (!plugin && (kinds & (kinds - 1U))) {
    // Name the first two kinds it applies to.
    const P4dKindClass* two[2] = { NULL, NULL };
    unsigned            n_two  = 0U;
    const P4dKindClass* kind   = NULL;
    for (unsigned i = 0U; n_two < 2U && (kind = p4d_kind_at(i)); ++i) {
      if (kinds & (1U << i)) {
        two[n_two++] = kind;
      }
    }
    return fail(g->status,
                "applies to %s and %s: choose one with --plugin "
                "noise|mod|motion",
                kind_name(two[0]),
                kind_name(two[1]));
  }
  // Else it applies to one kind: that one.
  unsigned one = 0U;
  while (!plugin && !(kinds & (1U << one))) {
    ++one;
  }
  values->kind = plugin ? plugin : p4d_kind_at(one);
  return P4D_RENDER_SUCCESS;
}

/// Whether s is [+-]digits[.digits][(e|E)[+-]digits] with a digit before
/// the exponent (the XSD numeric forms but INF and NaN); integer: digits.
static bool
is_number(const char* s, bool integer)
{
  const char*  p     = s + (*s == '+' || *s == '-' ? 1 : 0);
  const size_t n_int = strspn(p, "0123456789");
  p += n_int;
  size_t n_frac = 0U;
  if (!integer && *p == '.') {
    n_frac = strspn(p + 1, "0123456789");
    p += 1U + n_frac;
  }
  if (!n_int && !n_frac) {
    return false;
  }
  if (!integer && (*p == 'e' || *p == 'E')) {
    ++p;
    p += *p == '+' || *p == '-' ? 1 : 0;
    const size_t n_exp = strspn(p, "0123456789");
    if (!n_exp) {
      return false;
    }
    p += n_exp;
  }
  return !*p;
}

/// The XSD types of a pset:value that lilv (through sratom) reads as a
/// number for a host; the first three are not integers.
static const char* const number_types[] = {
  XSD "decimal", XSD "float", XSD "double",
  XSD "integer", XSD "int",   XSD "long",
};

/// The value of a pset:value object t of port symbol.
static P4dRenderCode
port_value(const Triple*    t,
           const char*      symbol,
           double*          value,
           P4dRenderStatus* status)
{
  const char* const s    = t->object;
  const char* const more = strlen(s) > QUOTE_MAX ? "..." : "";
  if (!t->literal) {
    return s[0] == '_' && s[1] == ':'
             ? fail(status, "%s: a blank node is not a number", symbol)
             : fail(status,
                    "%s: <%.*s%s> is not a number",
                    symbol,
                    QUOTE_MAX,
                    s,
                    more);
  }

  size_t       type    = 0U;
  const size_t n_types = sizeof(number_types) / sizeof(number_types[0]);
  while (t->datatype && type < n_types &&
         strcmp(t->datatype, number_types[type])) {
    ++type;
  }
  if (!t->datatype && is_number(s, false)) {
    return fail(status,
                "%s: \"%.*s%s\" is a string, not a number (no quotes)",
                symbol,
                QUOTE_MAX,
                s,
                more);
  }
  const bool special = !strcmp(s, "NaN") || !strcmp(s, "INF") ||
                       !strcmp(s, "+INF") || !strcmp(s, "-INF");
  if (t->datatype && type < 3U && special) {
    return fail(status, "%s: \"%s\" is not a finite number", symbol, s);
  }
  if (t->datatype && type == n_types) {
    return fail(status,
                "%s: \"%.*s%s\" is not a number (its type is <%.*s>)",
                symbol,
                QUOTE_MAX,
                s,
                more,
                QUOTE_MAX * 2,
                t->datatype);
  }
  if (!t->datatype || !is_number(s, type >= 3U)) {
    return fail(
      status, "%s: \"%.*s%s\" is not a number", symbol, QUOTE_MAX, s, more);
  }

  // As lilv (through sratom) reads it for a host: the same float.
  const double v = serd_strtod(s, NULL);
  if (!isfinite(v)) {
    return fail(status,
                "%s: \"%.*s%s\" is not a finite number",
                symbol,
                QUOTE_MAX,
                s,
                more);
  }
  *value = v;
  return P4D_RENDER_SUCCESS;
}

/// Read the ports of subject into values (whose kind is set).
static P4dRenderCode
graph_ports(const Graph*     g,
            const char*      subject,
            const char*      spec,
            P4dPresetValues* values)
{
  const P4dParamTable* table = p4d_kind_params(values->kind);
  const Triple*        port  = NULL;
  values->n_values           = 0U;
  for (size_t i = 0U; (port = graph_next(g, subject, PRED_PORT, &i));) {
    const Triple* symbol = NULL;
    const Triple* value  = NULL;
    const size_t  n_symbols =
      port->literal ? 0U : graph_count(g, port->object, PRED_SYMBOL, &symbol);
    if (n_symbols != 1U || !symbol || !symbol->literal) {
      return fail(g->status,
                  n_symbols > 1U ? "a port has more than one lv2:symbol"
                                 : "a port has no lv2:symbol");
    }

    const char* const name = symbol->object;
    const size_t n_values  = graph_count(g, port->object, PRED_VALUE, &value);
    if (n_values != 1U) {
      return fail(g->status,
                  "%.*s: %s",
                  QUOTE_MAX,
                  name,
                  n_values ? "more than one pset:value" : "no pset:value");
    }
    double              v    = 0.0;
    const P4dRenderCode code = port_value(value, name, &v, g->status);
    if (code) {
      return code;
    }

    const int id = p4d_param_find(table, name);
    if (id < 0 && values->borrowed) {
      continue;
    }
    if (id < 0) {
      char shown[QUOTE_MAX + 1];
      snprintf(shown, sizeof(shown), "%s", name);
      p4d_report_warn("--preset '%s': no parameter '%s' in %s: ignored",
                      spec,
                      printable(shown),
                      kind_name(values->kind));
      continue;
    }
    for (unsigned k = 0U; k < values->n_values; ++k) {
      if (values->params[k] == id) {
        return fail(g->status, "%s: set twice", name);
      }
    }
    values->params[values->n_values]   = id;
    values->values[values->n_values++] = v;
  }
  return P4D_RENDER_SUCCESS;
}

P4dRenderCode
p4d_preset_file_read(const char*         path,
                     const char*         subject,
                     const char*         spec,
                     const P4dKindClass* plugin,
                     P4dPresetValues*    values,
                     P4dRenderStatus*    status)
{
  Graph         g;
  P4dRenderCode code = graph_read(&g, path, status);
  if (!code && !subject) {
    code = graph_subject(&g, &subject);
    code = code ? code : graph_kind(&g, subject, plugin, values);
  }
  code = code ? code : graph_ports(&g, subject, spec, values);
  graph_free(&g);
  return code;
}

bool
p4d_preset_file_each(const char* path,
                     bool (*visit)(const char* uri,
                                   const char* label,
                                   void*       data),
                     void* data)
{
  P4dRenderStatus status;
  Graph           g;
  bool            stop = false;
  memset(&status, 0, sizeof(status));
  if (!graph_read(&g, path, &status)) {
    for (size_t i = 0U; !stop && i < g.n_triples; ++i) {
      const Triple* const t = &g.triples[i];
      if (t->pred != PRED_TYPE || strcmp(t->object, LV2_PRESETS__Preset)) {
        continue;
      }
      const Triple* label = NULL;
      graph_count(&g, t->subject, PRED_LABEL, &label);
      stop =
        visit(t->subject, label && label->literal ? label->object : "", data);
    }
  }
  graph_free(&g);
  return stop;
}
