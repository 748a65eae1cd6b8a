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

static const char* const mod_names[]   = { "out_1", "out_2", "out_3", "out_4" };
static const char* const noise_names[] = { "out_l", "out_r" };

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
run(const P4dOptions* o, const char* self, P4dPlan* plan, P4dRenderStatus* st)
{
  P4dRenderCode code = p4d_plan_make(plan, o, self, st);
  if (code) {
    return code;
  }
  const char* preset_file = plan->preset_file[0] ? plan->preset_file : NULL;
  if (o->list_params) {
    p4d_plan_list_params(plan->kind, stdout);
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

  P4dPlan plan;
  run(&o, self, &plan, &status);
  p4d_plan_free(&plan);
  return (int)p4d_report_exit(&status);
}
