// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "plan.h"

#include "preset.h"
#include "writers.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Find the parameter named by the first len characters of symbol.
static int
find_param(const P4dParamTable* table, const char* symbol, size_t len)
{
  char name[64];
  if (len >= sizeof(name)) {
    return -1;
  }
  memcpy(name, symbol, len);
  name[len] = '\0';
  return p4d_param_find(table, name);
}

/// Record OPTION 'ARG': unknown parameter (valid: a, b, ...) for table.
static P4dRenderCode
unknown_param(const P4dParamTable* table,
              const char*          option,
              const char*          arg,
              P4dRenderStatus*     status)
{
  char* const  text = status->text;
  const size_t size = sizeof(status->text);
  size_t       len  = (size_t)snprintf(text, size, "unknown parameter (valid:");
  for (uint32_t i = 0U; i < table->n_params && len < size; ++i) {
    len += (size_t)snprintf(
      text + len, size - len, "%s %s", i ? "," : "", table->params[i].symbol);
  }
  if (len < size) {
    snprintf(text + len, size - len, ")");
  }
  return p4d_report_bad_value(status, option, arg, text);
}

/// The parameter that arg, "SYMBOL=REST", names, and *rest; -1 with the
/// failure recorded if arg is not of that form (or REST is empty and must
/// not be) or names no parameter.
static int
named_param(const P4dParamTable* table,
            const char*          option,
            const char*          arg,
            const char*          form,
            bool                 empty_rest,
            const char**         rest,
            P4dRenderStatus*     status)
{
  const char* eq = strchr(arg, '=');
  if (!eq || (!empty_rest && !eq[1])) {
    p4d_report_bad_value(status, option, arg, form);
    return -1;
  }
  *rest        = eq + 1;
  const int id = find_param(table, arg, (size_t)(eq - arg));
  if (id < 0) {
    unknown_param(table, option, arg, status);
  }
  return id;
}

/// Clamp a value into its parameter's range, warning if it moved.  Values
/// are floats, as in the plugin: a decimal a float cannot hold exactly (0.3)
/// has not moved.
static float
clamped(const P4dParam* param, const char* option, const char* arg, double v)
{
  const float f = (float)v;
  const float c = p4d_param_clamp(param, f);
  if (c != f) {
    p4d_report_warn("%s '%s': %s is out of range, using %g",
                    option,
                    arg,
                    param->symbol,
                    (double)c);
  }
  return c;
}

/// Apply every --set SYMBOL=VALUE and --seed N to the plan's base values.
static P4dRenderCode
apply_settings(const P4dOptions* o, P4dPlan* plan, P4dRenderStatus* st)
{
  const P4dParamTable* table = p4d_kind_params(plan->kind);
  P4dSetting           s     = { NULL, NULL };
  for (int pos = 0; p4d_options_next_setting(o, false, &pos, &s);) {
    const bool  seed  = !strcmp(s.option, "--seed");
    const char* value = s.value;
    const int   id    = seed ? p4d_param_find(table, "seed")
                             : named_param(table,
                                      s.option,
                                      s.value,
                                      "expected SYMBOL=VALUE",
                                      true,
                                      &value,
                                      st);
    if (id < 0) {
      return st->code;
    }
    double v = 0.0;
    if (p4d_options_number(value, strlen(value), -DBL_MAX, DBL_MAX, &v, st)) {
      return p4d_report_name(st, s.option, s.value);
    }
    plan->base[id] = clamped(&table->params[id], s.option, s.value, v);
  }
  return P4D_RENDER_SUCCESS;
}

/// Read the points T:V,T:V,... of the lane s (for param) into lane.
static P4dRenderCode
read_points(P4dLane*         lane,
            const P4dParam*  param,
            const char*      s,
            const char*      points,
            P4dRenderStatus* st)
{
  for (const char* p = points; *p;) {
    const char*   comma = strchr(p, ',');
    const size_t  len   = comma ? (size_t)(comma - p) : strlen(p);
    const char*   colon = memchr(p, ':', len);
    double        t     = 0.0;
    double        v     = 0.0;
    P4dRenderCode code =
      !colon ? p4d_report_usage(st, NULL, "each point is TIME:VALUE")
             : p4d_options_number(p, (size_t)(colon - p), 0.0, 1.0e7, &t, st);
    code = code ? code
                : p4d_options_number(colon + 1,
                                     len - (size_t)(colon - p) - 1U,
                                     -DBL_MAX,
                                     DBL_MAX,
                                     &v,
                                     st);
    if (!code && lane->n_points &&
        t < lane->points[lane->n_points - 1U].time_s) {
      code = p4d_report_usage(st, NULL, "times must not go back");
    }
    if (code) {
      return p4d_report_name(st, "--automate", s);
    }
    lane->points[lane->n_points].time_s = t;
    lane->points[lane->n_points].value  = clamped(param, "--automate", s, v);
    ++lane->n_points;
    p += len + (comma ? 1U : 0U);
    if (comma && !*p) {
      return p4d_report_bad_value(
        st, "--automate", s, "each point is TIME:VALUE");
    }
  }
  return P4D_RENDER_SUCCESS;
}

/// Parse every --automate SYMBOL=T:V,T:V,... into the plan's lanes.
static P4dRenderCode
apply_lanes(const P4dOptions* o, P4dPlan* plan, P4dRenderStatus* st)
{
  const P4dParamTable* table = p4d_kind_params(plan->kind);
  P4dSetting           s     = { NULL, NULL };
  for (int pos = 0; p4d_options_next_setting(o, true, &pos, &s);) {
    const char* points = NULL;
    const int   id     = named_param(table,
                               s.option,
                               s.value,
                               "expected SYMBOL=T:V,T:V,...",
                               false,
                               &points,
                               st);
    if (id < 0) {
      return st->code;
    }
    P4dLane* lane = &plan->lanes[id];
    if (lane->n_points) {
      return p4d_report_bad_value(
        st, s.option, s.value, "this parameter is automated twice");
    }

    // A point at most after each comma: no limit but memory.
    size_t n_points = 1U;
    for (const char* c = strchr(points, ','); c; c = strchr(c + 1, ',')) {
      ++n_points;
    }
    lane->points = (P4dPoint*)calloc(n_points, sizeof(P4dPoint));
    if (!lane->points) {
      return p4d_report_failure(st, s.option, strerror(ENOMEM));
    }

    const P4dRenderCode code =
      read_points(lane, &table->params[id], s.value, points, st);
    if (code) {
      return code;
    }
    plan->automated = true;
  }
  return P4D_RENDER_SUCCESS;
}

/// Whether the clock is ever song beats (never, if it has no such value):
/// as set, or on its lane (the engine rounds the clock: beats from 0.5 to
/// 1.5).
static bool
uses_beats(const P4dPlan* plan)
{
  const int beats = p4d_kind_clock_value(plan->kind, P4D_CLOCK_SONG_BEATS);
  if (beats < 0) {
    return false;
  }
  const uint32_t clock = plan->kind->clock_param;
  const P4dLane* lane  = &plan->lanes[clock];
  const float    lo    = (float)beats - 0.5f;
  const float    hi    = (float)beats + 0.5f;
  if (!lane->n_points) {
    const float v = plan->base[clock];
    return v >= lo && v < hi;
  }
  for (unsigned i = 0U; i < lane->n_points; ++i) {
    const float a = lane->points[i].value;
    const float b = lane->points[i + 1U < lane->n_points ? i + 1U : i].value;
    if ((a < b ? b : a) >= lo && (a < b ? a : b) < hi) {
      return true;
    }
  }
  return false;
}

/// Warn of options given that change nothing in this render.
static void
warn_unused(const P4dOptions* o, const P4dPlan* plan)
{
  P4dFormat       format;
  P4dRenderStatus ignored; // a bad format is refused later
  const bool      chosen =
    o->output && !p4d_writers_choose(o->output, o->format, &format, &ignored);
  if (o->fps_given && chosen && !format.writer->rows &&
      !format.writer->picture) {
    p4d_report_warn(
      "--fps: ignored: only CSV output, keyframes and pictures have a rate");
  }
  if (o->tolerance_given && chosen && !format.writer->rows) {
    p4d_report_warn(
      "--tolerance: ignored: only CSV output and keyframes have rows");
  }
  if ((o->size_given || o->compression >= 0) && chosen &&
      !format.writer->picture) {
    p4d_report_warn("%s: ignored: only pictures have %s",
                    o->size_given ? "--size" : "--compression",
                    o->size_given ? "a size" : "a compression");
  }
  const int beats = p4d_kind_clock_value(plan->kind, P4D_CLOCK_SONG_BEATS);
  const int loop  = plan->kind->loop_param;
  // A kind without song beats that loops (the Noise) loops in beats at the
  // tempo on its song clock.
  const bool looped =
    loop >= 0 && (plan->base[loop] != 0.0f || plan->lanes[loop].n_points);
  if (o->tempo_given && !uses_beats(plan) && !(looped && beats < 0) &&
      !(chosen && format.writer->tempo)) {
    if (beats >= 0) {
      p4d_report_warn(
        "--tempo: ignored: the clock is never song beats (clock=%d)", beats);
    } else {
      p4d_report_warn("--tempo: ignored: %s has no song beats",
                      p4d_kind_title(plan->kind));
    }
  }
  if (looped && beats >= 0 && !uses_beats(plan)) {
    p4d_report_warn(
      "loop_beats: ignored: the clock is never song beats (clock=%d)", beats);
  }
}

/// The kind that renders pictures, or NULL.
static const P4dKindClass*
picture_kind(void)
{
  const P4dKindClass* kind = NULL;
  for (unsigned i = 0U; (kind = p4d_kind_at(i)); ++i) {
    if (kind->pictures) {
      return kind;
    }
  }
  return NULL;
}

/// Whether -o asks for pictures (its format, by --format or extension).
static bool
wants_pictures(const P4dOptions* o)
{
  P4dFormat       format;
  P4dRenderStatus ignored; // a bad format is refused later
  return o->output &&
         !p4d_writers_choose(o->output, o->format, &format, &ignored) &&
         format.writer->picture;
}

/// The plugin that --plugin names; without it the one that renders
/// pictures for a picture output, else the one that processes an input if
/// there is one (Motion), else Noise (a preset may still choose: see
/// p4d_plan_make()).
static const P4dKindClass*
plugin_kind(const P4dOptions* o)
{
  const P4dKindClass* const named = p4d_kind_by_name(o->plugin);
  const P4dKindClass* const image = wants_pictures(o) ? picture_kind() : NULL;
  return named ? named : image ? image : p4d_kind_default(o->input != NULL);
}

/**
   Check that an input is given exactly when the plugin takes one (Motion),
   and take the sample rate and the length from it: a --samplerate or
   --duration that says otherwise is refused (the output is the input,
   processed).
*/
static P4dRenderCode
check_input(const P4dOptions* o, P4dPlan* plan, P4dRenderStatus* st)
{
  const bool takes_input = plan->kind->takes_input;
  if (o->input && !takes_input) {
    const P4dKindClass* const taker = p4d_kind_default(true);
    snprintf(st->text,
             sizeof(st->text),
             "only %s processes a sound file (--plugin %s)",
             p4d_kind_title(taker),
             taker->name);
    return p4d_report_bad_value(st, "-i", o->input, st->text);
  }
  if (!takes_input || o->list_params) {
    return P4D_RENDER_SUCCESS;
  }
  if (!o->input) {
    // The text holds the culprit ("--plugin NAME"), then the reason.
    const int n =
      snprintf(st->text, sizeof(st->text), "--plugin %s", plan->kind->name);
    char* const reason = st->text + n + 1;
    snprintf(reason,
             sizeof(st->text) - (size_t)n - 1U,
             "%s needs a sound file to process (-i FILE)",
             p4d_kind_title(plan->kind));
    return p4d_report_usage(st, o->plugin ? st->text : "--preset", reason);
  }

  const P4dRenderCode code = p4d_input_probe(o->input, &plan->input, st);
  if (code) {
    return code;
  }
  snprintf(plan->input_file, sizeof(plan->input_file), "%s", o->input);
  if (strlen(o->input) >= sizeof(plan->input_file)) {
    return p4d_report_bad_value(st, "-i", o->input, "path too long");
  }

  const double  rate     = plan->input.sample_rate_hz;
  const int64_t n_frames = plan->input.n_frames;
  if (o->samplerate_given && o->sample_rate_hz != rate) {
    snprintf(st->text,
             sizeof(st->text),
             "differs from the input's %g Hz (the output keeps the input's "
             "rate)",
             rate);
    return p4d_report_usage(st, "--samplerate", st->text);
  }
  if (o->duration_arg && llround(o->duration_s * rate) != n_frames) {
    snprintf(st->text,
             sizeof(st->text),
             "differs from the input's length (%lld frames, %.6g s): the "
             "output has the input's length",
             (long long)n_frames,
             (double)n_frames / rate);
    return p4d_report_bad_value(st, "--duration", o->duration_arg, st->text);
  }
  plan->sample_rate_hz = rate;
  plan->n_frames       = n_frames;
  return P4D_RENDER_SUCCESS;
}

P4dRenderCode
p4d_plan_make(P4dPlan*          plan,
              const P4dOptions* o,
              const char*       exe_path,
              P4dRenderStatus*  st)
{
  memset(plan, 0, sizeof(*plan));

  // Without --plugin: the preset's, else Motion for an input, else Noise.
  // A picture output names the kind that renders pictures, as --plugin
  // would.
  const P4dKindClass* given = plugin_kind(o);
  const bool          named = o->plugin || o->input || given->pictures;
  P4dPresetValues     preset;
  memset(&preset, 0, sizeof(preset));
  preset.kind = given;
  if (o->preset) {
    if (p4d_preset_load(
          o->preset, exe_path, named ? given : NULL, &preset, st)) {
      return p4d_report_name(st, "--preset", o->preset);
    }
    snprintf(plan->preset_file, sizeof(plan->preset_file), "%s", preset.file);
  }

  // With --plugin, the preset is of that plugin (p4d_preset_load() checks).
  plan->kind                 = preset.kind;
  const P4dParamTable* table = p4d_kind_params(plan->kind);
  p4d_param_defaults(table, plan->base);
  // A heightmap's tone is linear unless set: terrains want rare high
  // peaks (the field's own tails), not the even map's uniform heights.
  const int tone = o->terrain ? p4d_param_find(table, "tone") : -1;
  if (tone >= 0) {
    plan->base[tone] = (float)P4D_IMAGE_TONE_LINEAR;
  }
  for (unsigned i = 0U; i < preset.n_values; ++i) {
    const int id = preset.params[i];
    plan->base[id] =
      clamped(&table->params[id], "--preset", o->preset, preset.values[i]);
  }

  const P4dRenderCode code = apply_settings(o, plan, st);
  if (code) {
    return code;
  }

  plan->sample_rate_hz = o->sample_rate_hz;
  plan->tempo_bpm      = o->tempo_bpm;
  plan->n_frames       = (int64_t)llround(o->duration_s * o->sample_rate_hz);
  const P4dRenderCode input = check_input(o, plan, st);
  if (input) {
    return input;
  }
  plan->start_frame = (int64_t)llround(o->start_s * plan->sample_rate_hz);
  if (plan->n_frames < 1) {
    return p4d_report_bad_value(
      st, "--duration", o->duration_arg, "shorter than one frame");
  }
  const P4dRenderCode lanes = apply_lanes(o, plan, st);
  if (!lanes && !o->list_params) {
    warn_unused(o, plan);
  }
  return lanes;
}

void
p4d_plan_free(P4dPlan* plan)
{
  for (unsigned i = 0U; i < P4D_MAX_PARAMS; ++i) {
    free(plan->lanes[i].points);
    plan->lanes[i].points = NULL;
  }
}

void
p4d_plan_params_at(const P4dPlan* plan, int64_t frame, float* params)
{
  p4d_plan_params_at_time(plan, (double)frame / plan->sample_rate_hz, params);
}

void
p4d_plan_params_at_time(const P4dPlan* plan, double t, float* params)
{
  const P4dParamTable* table = p4d_kind_params(plan->kind);

  for (uint32_t i = 0U; i < table->n_params; ++i) {
    const P4dLane* lane = &plan->lanes[i];
    if (!lane->n_points) {
      params[i] = plan->base[i];
    } else if (t <= lane->points[0].time_s) {
      params[i] = lane->points[0].value;
    } else {
      unsigned k = 1U;
      while (k < lane->n_points && lane->points[k].time_s < t) {
        ++k;
      }
      if (k == lane->n_points) {
        params[i] = lane->points[k - 1U].value;
      } else {
        const P4dPoint a = lane->points[k - 1U];
        const P4dPoint b = lane->points[k];
        const double   u =
          b.time_s > a.time_s ? (t - a.time_s) / (b.time_s - a.time_s) : 1.0;
        params[i] = (float)(a.value + (b.value - a.value) * u);
      }
    }
  }
}

void
p4d_plan_list_params(const P4dKindClass* kind, FILE* stream)
{
  const P4dParamTable* table = p4d_kind_params(kind);

  fprintf(stream,
          "%-13s %-15s %10s %10s %10s  %s\n",
          "symbol",
          "name",
          "minimum",
          "default",
          "maximum",
          "unit");
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    const P4dParam* p = &table->params[i];
    fprintf(stream,
            "%-13s %-15s %10g %10g %10g  %s",
            p->symbol,
            p->name,
            (double)p->minimum,
            (double)p->def,
            (double)p->maximum,
            p4d_unit_label(p->unit));
    for (const P4dScalePoint* sp = p->points; sp && sp->label; ++sp) {
      fprintf(stream,
              "%s%g = %s",
              sp == p->points ? "  (" : ", ",
              (double)sp->value,
              sp->label);
    }
    fprintf(stream, "%s\n", p->points ? ")" : "");
  }
}
