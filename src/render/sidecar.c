// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "sidecar.h"

#include "text_stream.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef P4D_VERSION
#  define P4D_VERSION "unknown"
#endif

bool
p4d_sidecar_path(const char* picture, char* sidecar, size_t size)
{
  const char* const slash = strrchr(picture, '/');
  const char* const name  = slash ? slash + 1 : picture;
  const char* const dot   = strrchr(name, '.');
  const size_t      stem =
    dot && dot != name ? (size_t)(dot - picture) : strlen(picture);
  const int n = snprintf(sidecar, size, "%.*s.json", (int)stem, picture);
  return n > 0 && (size_t)n < size;
}

/// Print a JSON number (null if not finite) with digits significant digits.
static void
put_number(FILE* json, double v, int digits)
{
  if (isfinite(v)) {
    fprintf(json, "%.*g", digits, v);
  } else {
    fputs("null", json);
  }
}

/// Print s as a JSON string (symbols and file names: escape what JSON
/// must).
static void
put_string(FILE* json, const char* s)
{
  fputc('"', json);
  for (const unsigned char* c = (const unsigned char*)s; *c; ++c) {
    if (*c == '"' || *c == '\\') {
      fprintf(json, "\\%c", *c);
    } else if (*c < 0x20U) {
      fprintf(json, "\\u%04x", *c);
    } else {
      fputc(*c, json);
    }
  }
  fputc('"', json);
}

/// Print ",\n  "key": " before a member.
static void
put_key(FILE* json, const char* key, bool first)
{
  fputs(first ? "{\n  " : ",\n  ", json);
  put_string(json, key);
  fputs(": ", json);
}

static void
put_range(FILE* json, const char* key, float lo, float hi)
{
  put_key(json, key, false);
  fputs("{\"min\": ", json);
  put_number(json, (double)lo, 9);
  fputs(", \"max\": ", json);
  put_number(json, (double)hi, 9);
  fputc('}', json);
}

/// The "terrain" object of a heightmap's sidecar (sidecar.h).
static void
put_terrain(FILE* json, const P4dSidecar* s)
{
  const P4dTerrainSize* const t = s->terrain;
  put_key(json, "terrain", false);
  fputs("{\"engine\": ", json);
  if (s->engine) {
    put_string(json, s->engine);
  } else {
    fputs("null", json);
  }
  fprintf(json, ", \"edges\": %s", s->engine ? "true" : "false");
  fprintf(json, ", \"width\": %u", (unsigned)t->width);
  fprintf(json, ", \"height\": %u, \"unit\": ", (unsigned)t->height);
  put_string(json, t->unit);
  const double span_x = s->engine ? (double)t->width - 1.0 : (double)t->width;
  const double span_y = s->engine ? (double)t->height - 1.0 : (double)t->height;
  const struct {
    const char* key;
    double      v;
  } numbers[] = {
    { "level_0", t->bottom },        { "level_65535", t->top },
    { "pixel_size", t->pixel },      { "size_x", span_x * t->pixel },
    { "size_y", span_y * t->pixel },
  };
  for (size_t i = 0U; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
    fprintf(json, ", \"%s\": ", numbers[i].key);
    put_number(json, numbers[i].v, 17);
  }
  if (s->import) {
    fputs(", \"import\": {", json);
    for (unsigned i = 0U; i < s->import->n; ++i) {
      fputs(i ? ", " : "", json);
      put_string(json, s->import->key[i]);
      fputs(": ", json);
      put_number(json, s->import->value[i], 17);
    }
    fputs(s->import->n ? ", \"note\": " : "\"note\": ", json);
    put_string(json, s->import->note ? s->import->note : "");
    fputc('}', json);
  }
  fputc('}', json);
}

P4dRenderCode
p4d_sidecar_write(const P4dSidecar*    s,
                  const P4dAtomicFile* file,
                  P4dRenderStatus*     status)
{
  FILE* const json = p4d_text_stream_open(file->fd);
  if (!json) {
    return p4d_report_failure(status, file->path, strerror(errno));
  }
  const P4dImageFacts* const f = s->facts;
  put_key(json, "perlin4d", true);
  put_string(json, P4D_VERSION);
  put_key(json, "file", false);
  put_string(json, s->file);
  put_key(json, "format", false);
  put_string(json, s->format);
  put_key(json, "width", false);
  fprintf(json, "%u", (unsigned)s->width);
  put_key(json, "height", false);
  fprintf(json, "%u", (unsigned)s->height);
  put_key(json, "frame", false);
  fprintf(json, "%lld", (long long)s->frame);
  put_key(json, "fps", false);
  fprintf(json, "\"%u/%u\"", (unsigned)s->fps_num, (unsigned)s->fps_den);

  const struct {
    const char* key;
    double      v;
  } times[] = {
    { "song_s", f->song_s },       { "song_beats", f->song_beats },
    { "tempo_bpm", s->tempo_bpm }, { "w_cells", f->w },
    { "cells_x", f->cells_x },     { "cells_y", f->cells_y },
  };
  for (size_t i = 0U; i < sizeof(times) / sizeof(times[0]); ++i) {
    put_key(json, times[i].key, false);
    put_number(json, times[i].v, 17);
  }

  put_key(json, "settings", false);
  for (unsigned i = 0U; i < s->n_settings; ++i) {
    fputs(i ? ", " : "{", json);
    put_string(json, s->symbols[i]);
    fputs(": ", json);
    put_number(json, (double)s->values[i], 9);
  }
  fputs(s->n_settings ? "}" : "{}", json);
  put_range(json, "value", s->value_min, s->value_max);
  put_range(json, "tone", s->tone_min, s->tone_max);

  put_key(json, "mod_channels", false);
  for (unsigned k = 0U; k < 4U; ++k) {
    fputs(k ? ", {\"x\": " : "[{\"x\": ", json);
    put_number(json, f->mod_x[k], 17);
    fputs(", \"y\": ", json);
    put_number(json, f->mod_y[k], 17);
    fputc('}', json);
  }
  fputc(']', json);
  if (s->terrain) {
    put_terrain(json, s);
  }
  fputs("\n}\n", json);
  return p4d_text_stream_close(json, !file->stream, file->path, status);
}
