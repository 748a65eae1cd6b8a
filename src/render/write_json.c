// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The JSON document of the curves, for scripts (the Blender add-on, an
  After Effects or Houdini script) that read it with their own json
  module:

    {"format": "perlin4d-curves", "version": 1,
     "generator": "perlin4d-render <version>", "plugin": "mod",
     "sample_rate_hz": 48000, "tempo_bpm": 120, "start_s": 0.000000,
     "duration_s": 10.000000, "fps": 24, "tolerance": 0,
     "interpolation": "linear", "automated": false,
     "settings": {"<symbol>": <value at the start>, ...},
     "channels": [{"name": "out_1", "index": 1,
                   "keys": [[time_s, value], ...]}, ...]}

  Times are song seconds (start_s + k / fps for row k), "%.6f" as the CSV
  prints them; values "%.9g" as the CSV's; keys in time order, the first
  and last rows always among them.  Every row is a key at tolerance 0.
*/

#include "decimal.h"
#include "keys.h"
#include "render.h"
#include "writers.h"

#include <stdio.h>
#include <stdlib.h>

#ifndef P4D_VERSION
#  define P4D_VERSION "unknown"
#endif

/// x with the fewest digits that read back to x ("%.15g", else "%.17g").
static void
put_real(FILE* file, double x)
{
  char text[64];
  snprintf(text, sizeof(text), "%.15g", x);
  if (strtod(text, NULL) != x) {
    snprintf(text, sizeof(text), "%.17g", x);
  }
  fputs(text, file);
}

/// A JSON string of plain text (symbols, names, the version): quoted,
/// with '"', '\\' and control characters escaped.
static void
put_string(FILE* file, const char* s)
{
  fputc('"', file);
  for (; *s; ++s) {
    const unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      fprintf(file, "\\%c", c);
    } else if (c < 0x20U) {
      fprintf(file, "\\u%04x", c);
    } else {
      fputc(c, file);
    }
  }
  fputc('"', file);
}

/// "%.6f" or "%.9g" text of decimal.h.
static void
put_f6(FILE* file, double x)
{
  char text[P4D_DECIMAL_MAX];
  (void)fwrite(text, 1U, p4d_decimal_f6(x, text), file); // ferror() tells
}

static void
put_g9(FILE* file, float x)
{
  char text[P4D_DECIMAL_MAX];
  (void)fwrite(text, 1U, p4d_decimal_g9(x, text), file); // ferror() tells
}

/// "settings": every parameter at the render's start, by port symbol: as
/// the engine used them there (automated, they change on the grid of
/// P4D_AUTOMATION_GRID frames: those of the step the start lies in).
static void
put_settings(FILE* file, const P4dPlan* plan)
{
  fputs("  \"settings\": {", file);
  if (plan) {
    const P4dParamTable* const table = p4d_kind_params(plan->kind);
    const int64_t              start = plan->start_frame; // >= 0
    float                      params[P4D_MAX_PARAMS];
    p4d_plan_params_at(plan,
                       plan->automated ? start - start % P4D_AUTOMATION_GRID
                                       : start,
                       params);
    for (uint32_t i = 0U; i < table->n_params; ++i) {
      fputs(i ? ",\n    " : "\n    ", file);
      put_string(file, table->params[i].symbol);
      fputs(": ", file);
      put_g9(file, params[i]);
    }
  }
  fputs("},\n", file);
}

static void
put_json(const P4dKeyDoc* doc)
{
  FILE* const                file = doc->file;
  const P4dWriterInfo* const info = &doc->info;
  const P4dPlan* const       plan = info->plan;

  fputs("{\"format\": \"perlin4d-curves\", \"version\": 1,\n", file);
  fputs("  \"generator\": \"perlin4d-render " P4D_VERSION "\",\n", file);
  fputs("  \"plugin\": ", file);
  put_string(file, plan && plan->kind->name ? plan->kind->name : "");
  fputs(",\n  \"sample_rate_hz\": ", file);
  put_real(file, info->sample_rate_hz);
  fputs(", \"tempo_bpm\": ", file);
  put_real(file, plan ? plan->tempo_bpm : 0.0);
  fputs(",\n  \"start_s\": ", file);
  put_f6(file, (double)info->start_frame / info->sample_rate_hz);
  fputs(", \"duration_s\": ", file);
  put_f6(file, (double)info->n_frames / info->sample_rate_hz);
  fputs(", \"fps\": ", file);
  put_real(file, info->fps);
  fputs(",\n  \"tolerance\": ", file);
  put_real(file, info->tolerance);
  fputs(", \"interpolation\": \"linear\", \"automated\": ", file);
  fputs(plan && plan->automated ? "true" : "false", file);
  fputs(",\n", file);
  put_settings(file, plan);

  fputs("  \"channels\": [", file);
  const size_t n_rows = p4d_keys_n_rows(doc->keys);
  for (unsigned c = 0U; c < info->n_channels; ++c) {
    fputs(c ? ",\n    {\"name\": " : "\n    {\"name\": ", file);
    put_string(file, info->names[c]);
    fprintf(file, ", \"index\": %u, \"keys\": [", info->first_channel + c + 1U);
    bool first = true;
    for (size_t k = 0U; k < n_rows; ++k) {
      if (p4d_keys_kept(doc->keys, k, c)) {
        fputs(first ? "\n      [" : ",\n      [", file);
        put_f6(file, p4d_keys_row_time(info, (int64_t)k));
        fputs(", ", file);
        put_g9(file, p4d_keys_value(doc->keys, k, c));
        fputc(']', file);
        first = false;
      }
    }
    fputs("]}", file);
  }
  fputs("]}\n", file);
}

static P4dRenderCode
finish_json(void* writer, P4dRenderStatus* status)
{
  return p4d_keys_doc_finish(writer, put_json, status);
}

static const char* const json_extensions[] = { "json", NULL };

const P4dWriterClass p4d_write_json = {
  .name       = "json",
  .extensions = json_extensions,
  .roles      = P4D_WRITER_OUTPUT,
  .can_stream = true,
  .text       = true,
  .rows       = true,
  .open       = p4d_keys_doc_open,
  .write      = p4d_keys_doc_write,
  .finish     = finish_json,
  .close      = p4d_keys_doc_close,
};
