// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "writers.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/// Every output format, in the order messages and --format list them.
// Addresses are constants in C: no initialisation order to fear (the check
// is for C++ constructors).
// NOLINTNEXTLINE(cppcoreguidelines-interfaces-global-init)
static const P4dWriterClass* const writers[] = {
  &p4d_write_wav,  &p4d_write_flac, &p4d_write_aiff,  &p4d_write_csv,
  &p4d_write_svg,  &p4d_write_png,  &p4d_write_png16, &p4d_write_exr,
  &p4d_write_r16,  &p4d_write_y4m,  &p4d_write_json,  &p4d_write_ae,
  &p4d_write_chan, &p4d_write_midi,
};

#define N_WRITERS (sizeof(writers) / sizeof(writers[0]))

/// Most names a message lists.
#define MAX_LISTED 32U

/// Whether the -o format w is named by the len characters at name: its
/// name or one of its extensions, in any case.
static bool
is_named(const P4dWriterClass* w, const char* name, size_t len)
{
  if (strlen(w->name) == len && !strncasecmp(w->name, name, len)) {
    return true;
  }
  for (const char* const* ext = w->extensions; *ext; ++ext) {
    if (strlen(*ext) == len && !strncasecmp(*ext, name, len)) {
      return true;
    }
  }
  return false;
}

/// The -o format named by the len characters at name, or NULL.
static const P4dWriterClass*
find_writer(const char* name, size_t len)
{
  for (size_t i = 0U; i < N_WRITERS; ++i) {
    if ((writers[i]->roles & P4D_WRITER_OUTPUT) &&
        is_named(writers[i], name, len)) {
      return writers[i];
    }
  }
  return NULL;
}

/// The variant of w called name, or NULL.
static const P4dWriterVariant*
find_variant(const P4dWriterClass* w, const char* name)
{
  for (const P4dWriterVariant* v = w->variants; v && v->name; ++v) {
    if (!strcasecmp(v->name, name)) {
      return v;
    }
  }
  return NULL;
}

/// Whether any -o format has a variant called name.
static bool
is_variant(const char* name)
{
  for (size_t i = 0U; i < N_WRITERS; ++i) {
    if ((writers[i]->roles & P4D_WRITER_OUTPUT) &&
        find_variant(writers[i], name)) {
      return true;
    }
  }
  return false;
}

/// Text being built in a buffer of its size (cut short if it is full).
typedef struct {
  char*  text;
  size_t size;
  size_t len;
} Text;

static void
put(Text* t, const char* s)
{
  if (t->len < t->size) {
    const int n = snprintf(t->text + t->len, t->size - t->len, "%s", s);
    t->len += n > 0 ? (size_t)n : 0U;
  }
}

/// Put the n items, each after prefix, as "A, B" and then last before the
/// last one ("A, B or C" with last " or ").
static void
put_list(Text*              t,
         const char*        prefix,
         const char* const* items,
         size_t             n,
         const char*        last)
{
  for (size_t i = 0U; i < n; ++i) {
    put(t, !i ? "" : i + 1U == n ? last : ", ");
    put(t, prefix);
    put(t, items[i]);
  }
}

/// Add name to the n names of list, unless there already or full.
static void
add_name(const char** list, size_t* n, const char* name)
{
  for (size_t i = 0U; i < *n; ++i) {
    if (!strcmp(list[i], name)) {
      return;
    }
  }
  if (*n < MAX_LISTED) {
    list[(*n)++] = name;
  }
}

/// What a list names of the -o formats.
typedef enum {
  LIST_NAMES,      ///< Their names
  LIST_EXTENSIONS, ///< Their first extensions
  LIST_STREAMS,    ///< The names of those that can stream
  LIST_VARIANTS,   ///< Their variants, each once
} ListKind;

static size_t
gather(ListKind kind, const char** list)
{
  size_t n = 0U;
  for (size_t i = 0U; i < N_WRITERS; ++i) {
    const P4dWriterClass* const w = writers[i];
    if (!(w->roles & P4D_WRITER_OUTPUT)) {
      continue;
    }
    if (kind == LIST_NAMES || (kind == LIST_STREAMS && w->can_stream)) {
      add_name(list, &n, w->name);
    } else if (kind == LIST_EXTENSIONS) {
      add_name(list, &n, w->extensions[0]);
    }
    for (const P4dWriterVariant* v = w->variants;
         kind == LIST_VARIANTS && v && v->name;
         ++v) {
      add_name(list, &n, v->name);
    }
  }
  return n;
}

void
p4d_writers_list_streams(const char* prefix, char* text, size_t size)
{
  const char*  names[MAX_LISTED];
  const size_t n = gather(LIST_STREAMS, names);
  Text         t = { text, size, 0U };
  text[0]        = '\0';
  put_list(&t, prefix, names, n, " or ");
}

/// Refuse --format: "unknown format (wav, flac, ..., optionally with
/// -pcm16, ... or -float)".
static P4dRenderCode
unknown_format(P4dRenderStatus* status)
{
  const char* names[MAX_LISTED];
  Text        t = { status->text, sizeof(status->text), 0U };
  put(&t, "unknown format (");
  put_list(&t, "", names, gather(LIST_NAMES, names), ", ");
  const size_t n_variants = gather(LIST_VARIANTS, names);
  if (n_variants) {
    put(&t, ", optionally with ");
    put_list(&t, "-", names, n_variants, " or ");
  }
  put(&t, ")");
  return p4d_report_usage(status, NULL, status->text);
}

/// Refuse -o: "unknown file extension (use .wav, ..., .csv, or --format)".
static P4dRenderCode
unknown_extension(P4dRenderStatus* status)
{
  const char* names[MAX_LISTED];
  Text        t = { status->text, sizeof(status->text), 0U };
  put(&t, "unknown file extension (use ");
  put_list(&t, ".", names, gather(LIST_EXTENSIONS, names), ", ");
  put(&t, ", or --format)");
  return p4d_report_usage(status, NULL, status->text);
}

P4dRenderCode
p4d_writers_choose(const char*      path,
                   const char*      format_arg,
                   P4dFormat*       format,
                   P4dRenderStatus* status)
{
  const P4dWriterClass* writer  = NULL;
  const char*           variant = NULL;

  if (format_arg) {
    const char*  dash = strchr(format_arg, '-');
    const size_t len  = dash ? (size_t)(dash - format_arg) : strlen(format_arg);
    writer            = find_writer(format_arg, len);
    if (!writer && !dash && is_variant(format_arg)) {
      variant = format_arg; // a variant alone: the format is the extension's
    } else if (!writer) {
      return unknown_format(status);
    } else {
      variant = dash ? dash + 1 : NULL;
    }
  }

  if (!writer && p4d_atomic_is_stream(path)) {
    char streams[256];
    p4d_writers_list_streams("--format ", streams, sizeof(streams));
    snprintf(
      status->text, sizeof(status->text), "standard output needs %s", streams);
    return p4d_report_usage(status, NULL, status->text);
  }
  if (!writer) {
    const char* slash = strrchr(path, '/');
    const char* dot   = strrchr(slash ? slash : path, '.');
    writer            = dot ? find_writer(dot + 1, strlen(dot + 1)) : NULL;
    if (!writer) {
      return unknown_extension(status);
    }
  }

  format->writer  = writer;
  format->variant = writer->default_variant;
  if (variant) {
    const P4dWriterVariant* const v = find_variant(writer, variant);
    if (!v) {
      return p4d_report_usage(
        status, NULL, "this container cannot hold that sample format");
    }
    format->variant = v->code;
  }
  return P4D_RENDER_SUCCESS;
}

const P4dWriterClass*
p4d_writers_plot(void)
{
  for (size_t i = 0U; i < N_WRITERS; ++i) {
    if (writers[i]->roles & P4D_WRITER_PLOT) {
      return writers[i];
    }
  }
  return NULL;
}
