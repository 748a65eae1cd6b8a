// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render: renders the perlin4d engines to sound files, CSV curves
  and SVG plots.  This file reads the command line into a plan and maps
  every failure to one line on stderr and an exit status; render.c runs
  the engine and output.c writes the files.
*/

#define _XOPEN_SOURCE 700

#include "atomic_file.h"
#include "noise.h"
#include "options.h"
#include "output.h"
#include "preset.h"
#include "render.h"
#include "report.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LANE_POINTS 1024U

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

/// "unknown parameter (valid: a, b, ...)" for table.
static const char*
unknown_param(const P4dParamTable* table)
{
  static char text[512];
  size_t      len =
    (size_t)snprintf(text, sizeof(text), "unknown parameter (valid:");
  for (uint32_t i = 0U; i < table->n_params && len < sizeof(text); ++i) {
    len += (size_t)snprintf(text + len,
                            sizeof(text) - len,
                            "%s %s",
                            i ? "," : "",
                            table->params[i].symbol);
  }
  if (len < sizeof(text)) {
    snprintf(text + len, sizeof(text) - len, ")");
  }
  return text;
}

/// Clamp a value into its parameter's range, warning if it moved.
static float
clamped(const P4dParam* param, const char* option, const char* arg, double v)
{
  const float c = p4d_param_clamp(param, (float)v);
  if ((double)c != v) {
    p4d_report_warn("%s '%s': %s is out of range, using %g",
                    option,
                    arg,
                    param->symbol,
                    (double)c);
  }
  return c;
}

/// Apply SYMBOL=VALUE settings to the plan's base values.
static P4dRenderCode
apply_settings(const P4dOptions* o, Plan* plan, P4dRenderStatus* st)
{
  const P4dParamTable* table = p4d_params(plan->kind);
  for (unsigned i = 0U; i < o->n_settings; ++i) {
    const char* s  = o->settings[i];
    const char* eq = strchr(s, '=');
    if (!eq) {
      return p4d_report_bad_value(st, "--set", s, "expected SYMBOL=VALUE");
    }
    const int id = find_param(table, s, (size_t)(eq - s));
    if (id < 0) {
      return p4d_report_bad_value(st, "--set", s, unknown_param(table));
    }
    double      v = 0.0;
    const char* reason =
      p4d_options_number(eq + 1, strlen(eq + 1), -DBL_MAX, DBL_MAX, &v);
    if (reason) {
      return p4d_report_bad_value(st, "--set", s, reason);
    }
    plan->base[id] = clamped(&table->params[id], "--set", s, v);
  }
  return P4D_RENDER_SUCCESS;
}

/// Parse SYMBOL=T:V,T:V,... into the plan's lanes.
static P4dRenderCode
apply_lanes(const P4dOptions* o, Plan* plan, P4dRenderStatus* st)
{
  const P4dParamTable* table = p4d_params(plan->kind);
  for (unsigned i = 0U; i < o->n_lanes; ++i) {
    const char* s  = o->lanes[i];
    const char* eq = strchr(s, '=');
    if (!eq || !eq[1]) {
      return p4d_report_bad_value(
        st, "--automate", s, "expected SYMBOL=T:V,T:V,...");
    }
    const int id = find_param(table, s, (size_t)(eq - s));
    if (id < 0) {
      return p4d_report_bad_value(st, "--automate", s, unknown_param(table));
    }
    Lane* lane = &plan->lanes[id];
    if (lane->n_points) {
      return p4d_report_bad_value(
        st, "--automate", s, "this parameter is automated twice");
    }
    lane->points = (Point*)calloc(MAX_LANE_POINTS, sizeof(Point));
    if (!lane->points) {
      return p4d_report_failure(st, "--automate", strerror(ENOMEM));
    }

    for (const char* p = eq + 1; *p;) {
      const char*  comma = strchr(p, ',');
      const size_t len   = comma ? (size_t)(comma - p) : strlen(p);
      const char*  colon = memchr(p, ':', len);
      double       t = 0.0, v = 0.0;
      const char*  reason =
        !colon ? "each point is TIME:VALUE"
         : lane->n_points == MAX_LANE_POINTS
           ? "too many points"
           : p4d_options_number(p, (size_t)(colon - p), 0.0, 1.0e7, &t);
      reason =
        reason
          ? reason
          : p4d_options_number(
              colon + 1, len - (size_t)(colon - p) - 1U, -DBL_MAX, DBL_MAX, &v);
      if (!reason && lane->n_points &&
          t < lane->points[lane->n_points - 1U].time_s) {
        reason = "times must not go back";
      }
      if (reason) {
        return p4d_report_bad_value(st, "--automate", s, reason);
      }
      lane->points[lane->n_points].time_s = t;
      lane->points[lane->n_points].value =
        clamped(&table->params[id], "--automate", s, v);
      ++lane->n_points;
      p += len + (comma ? 1U : 0U);
      if (comma && !*p) {
        return p4d_report_bad_value(
          st, "--automate", s, "each point is TIME:VALUE");
      }
    }
    plan->automated = true;
  }
  return P4D_RENDER_SUCCESS;
}

static const char* const mod_names[]   = { "out_1", "out_2", "out_3", "out_4" };
static const char* const noise_names[] = { "out_l", "out_r" };

static void
list_params(P4dKind kind)
{
  static const char* const units[] = { "", "Hz", "dB", "ms", "beats" };
  const P4dParamTable*     table   = p4d_params(kind);

  printf("%-13s %-15s %10s %10s %10s  %s\n",
         "symbol",
         "name",
         "minimum",
         "default",
         "maximum",
         "unit");
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    const P4dParam* p = &table->params[i];
    printf("%-13s %-15s %10g %10g %10g  %s",
           p->symbol,
           p->name,
           (double)p->minimum,
           (double)p->def,
           (double)p->maximum,
           units[p->unit]);
    for (const P4dScalePoint* sp = p->points; sp && sp->label; ++sp) {
      printf("%s%g = %s",
             sp == p->points ? "  (" : ", ",
             (double)sp->value,
             sp->label);
    }
    printf("%s\n", p->points ? ")" : "");
  }
}

static void
on_signal(int sig)
{
  render_interrupted = sig;
}

/// The path of this program, to find the bundle beside it.
static const char*
exe_path(const char* argv0)
{
  static char   path[4096];
  const ssize_t len = readlink("/proc/self/exe", path, sizeof(path) - 1U);
  if (len <= 0) {
    return argv0;
  }
  path[len] = '\0';
  return path;
}

/// Build the plan from the options.
static P4dRenderCode
make_plan(const P4dOptions* o,
          const char*       self,
          Plan*             plan,
          const char**      preset_file,
          P4dRenderStatus*  st)
{
  PresetValues preset;
  memset(&preset, 0, sizeof(preset));
  preset.kind = P4D_KIND_NOISE;
  if (o->preset) {
    const char* reason = preset_load(o->preset, self, &preset);
    if (reason) {
      return p4d_report_bad_value(st, "--preset", o->preset, reason);
    }
    static char file[sizeof(preset.file)];
    memcpy(file, preset.file, sizeof(file));
    *preset_file = file[0] ? file : NULL;
  }

  plan->kind = o->plugin
                 ? (strcmp(o->plugin, "mod") ? P4D_KIND_NOISE : P4D_KIND_MOD)
                 : preset.kind;
  if (o->preset && preset.kind != plan->kind) {
    return p4d_report_bad_value(
      st, "--preset", o->preset, "is not a preset of this plugin");
  }

  const P4dParamTable* table = p4d_params(plan->kind);
  p4d_param_defaults(table, plan->base);
  for (unsigned i = 0U; i < preset.n_values; ++i) {
    const int id = p4d_param_find(table, preset.symbols[i]);
    if (id >= 0) {
      plan->base[id] =
        clamped(&table->params[id], "--preset", o->preset, preset.values[i]);
    }
  }

  const P4dRenderCode code = apply_settings(o, plan, st);
  if (code) {
    return code;
  }

  plan->sample_rate_hz = o->sample_rate_hz;
  plan->tempo_bpm      = o->tempo_bpm;
  plan->start_frame    = (int64_t)llround(o->start_s * o->sample_rate_hz);
  plan->n_frames       = (int64_t)llround(o->duration_s * o->sample_rate_hz);
  if (plan->n_frames < 1) {
    return p4d_report_bad_value(
      st, "--duration", o->duration_arg, "shorter than one frame");
  }
  return apply_lanes(o, plan, st);
}

/// Copy the first n channels of each frame (a SinkFunc in front of output).
typedef struct {
  Output*  out;
  unsigned from_channels;
  unsigned to_channels;
  float*   buf;
} Narrow;

static const char*
narrow_write(void* ctx, int64_t frame, const float* in, size_t n)
{
  Narrow* const nw = (Narrow*)ctx;
  if (nw->from_channels == nw->to_channels) {
    return output_write(nw->out, frame, in, n);
  }
  for (size_t i = 0U; i < n; ++i) {
    for (unsigned c = 0U; c < nw->to_channels; ++c) {
      nw->buf[i * nw->to_channels + c] = in[i * nw->from_channels + c];
    }
  }
  return output_write(nw->out, frame, nw->buf, n);
}

/// Everything after the command line is read: plan, check, render, write.
static P4dRenderCode
run(const P4dOptions* o, const char* self, Plan* plan, P4dRenderStatus* st)
{
  const char*   preset_file = NULL;
  P4dRenderCode code        = make_plan(o, self, plan, &preset_file, st);
  if (code) {
    return code;
  }
  if (o->list_params) {
    list_params(plan->kind);
    return P4D_RENDER_SUCCESS;
  }

  if (!o->output) {
    return p4d_report_usage(st, "-o", "no output file given (see --help)");
  }

  if ((code = p4d_atomic_check_target(o->output, preset_file, o->force, st)) ||
      (o->plot &&
       (code = p4d_atomic_check_target(o->plot, preset_file, o->force, st)))) {
    return code;
  }
  if (o->plot && p4d_atomic_same_file(o->plot, o->output)) {
    return p4d_report_bad_value(st, "--plot", o->plot, "is the output file");
  }

  OutputInfo  info   = { { CONTAINER_WAV, 0 }, 0U, 0.0, 0, 0, 0.0, NULL };
  const char* reason = format_choose(o->output, o->format, &info.format);
  if (reason) {
    return o->format ? p4d_report_bad_value(st, "--format", o->format, reason)
                     : p4d_report_usage(st, o->output, reason);
  }

  const unsigned all = p4d_engine_channels(plan->kind);
  if (o->n_channels > all) {
    snprintf(st->text, sizeof(st->text), "%u", o->n_channels);
    return p4d_report_bad_value(
      st, "--channels", st->text, "more than the plugin has");
  }
  info.n_channels     = o->n_channels ? o->n_channels : all;
  info.sample_rate_hz = plan->sample_rate_hz;
  info.start_frame    = plan->start_frame;
  info.n_frames       = plan->n_frames;
  info.fps            = o->fps;
  info.names          = plan->kind == P4D_KIND_MOD ? mod_names : noise_names;

  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = on_signal;
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);

  Output*     out  = NULL;
  const char* what = o->output;
  reason           = output_open(&out, &info, o->output, o->plot, &what);

  Narrow narrow = { out, all, info.n_channels, NULL };
  if (!reason && info.n_channels != all) {
    narrow.buf = (float*)malloc((size_t)P4D_RENDER_CHUNK * info.n_channels *
                                sizeof(float));
    reason     = narrow.buf ? NULL : strerror(ENOMEM);
  }
  if (!reason) {
    what   = o->output;
    reason = render_plan(
      plan, o->n_jobs, !o->quiet && isatty(2), narrow_write, &narrow);
  }
  if (!reason) {
    reason = output_finish(out, &what);
  }

  // The reason may live in the output: record it (a copy) before freeing.
  code = reason ? p4d_report_failure(st, what, reason) : P4D_RENDER_SUCCESS;
  output_free(out);
  free(narrow.buf);
  return code;
}

int
main(int argc, char** argv)
{
  P4dOptions o;
  p4d_options_init(&o);
  P4dRenderStatus status = { 0 };
  if (p4d_options_parse(&o, argc, argv, &status)) {
    return (int)p4d_report_exit(&status);
  }
  if (o.help) {
    p4d_options_print_help(stdout);
    return P4D_EXIT_OK;
  }
  if (o.version) {
    p4d_options_print_version(stdout);
    return P4D_EXIT_OK;
  }
  if (p4d_isa_note()) {
    p4d_report_warn("%s", p4d_isa_note());
  }

  const char* self = exe_path(argv[0]);
  if (o.list_presets) {
    preset_list(self, stdout);
    return P4D_EXIT_OK;
  }

  Plan plan = { 0 };
  run(&o, self, &plan, &status);
  for (unsigned i = 0U; i < P4D_MAX_PARAMS; ++i) {
    free(plan.lanes[i].points);
  }
  return (int)p4d_report_exit(&status);
}
