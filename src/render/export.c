// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _POSIX_C_SOURCE 200809L

#include "export.h"

#include "atomic_file.h"
#include "kind.h"
#include "output.h"
#include "pictures.h"
#include "render.h"
#include "terrain.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/// The reader of standard output went away (or SIGPIPE came from
/// elsewhere): end as a filter in a pipeline does, quietly, by SIGPIPE,
/// once nothing is left behind.  Else code.
static P4dRenderCode
finish_stream(P4dRenderCode code)
{
  if (code && p4d_render_signal() == SIGPIPE) {
    // Neither can fail for SIGPIPE; if the program lives on, it exits 1.
    (void)signal(SIGPIPE, SIG_DFL);
    (void)raise(SIGPIPE);
  }
  return code;
}

/// Check the targets and describe the output, its channels named in
/// names; nothing is written yet.
static P4dRenderCode
plan_output(const P4dPlan*    plan,
            const P4dOptions* o,
            P4dOutputInfo*    info,
            const char**      names,
            P4dRenderStatus*  st)
{
  if (!o->output) {
    return p4d_report_usage(st, "-o", "no output file given (see --help)");
  }

  // The files the render reads: the preset's and the sound Motion
  // processes.
  const bool  stream    = p4d_atomic_is_stream(o->output);
  const char* inputs[3] = { NULL, NULL, NULL };
  unsigned    n_inputs  = 0U;
  if (plan->preset_file[0]) {
    inputs[n_inputs++] = plan->preset_file;
  }
  if (plan->input_file[0]) {
    inputs[n_inputs++] = plan->input_file;
  }
  P4dRenderCode code = p4d_atomic_check_target(o->output, inputs, o->force, st);
  if (!code && o->plot) {
    code = p4d_atomic_check_target(o->plot, inputs, o->force, st);
  }
  if (code) {
    return code;
  }
  if (o->plot && !stream && p4d_atomic_same_file(o->plot, o->output)) {
    return p4d_report_bad_value(st, "--plot", o->plot, "is the output file");
  }

  if (p4d_writers_choose(o->output, o->format, &info->format, st)) {
    return o->format ? p4d_report_name(st, "--format", o->format)
           : stream  ? p4d_report_name(st, "-o", o->output)
                     : p4d_report_name(st, o->output, NULL);
  }
  const P4dWriterClass* const writer = info->format.writer;
  if (plan->kind->pictures) {
    snprintf(st->text,
             sizeof(st->text),
             "%s renders pictures only (.png, .exr, .r16 or .y4m)",
             p4d_kind_title(plan->kind));
    return p4d_report_bad_value(st, "-o", o->output, st->text);
  }
  if (stream && !writer->can_stream) {
    char streams[256];
    p4d_writers_list_streams("", streams, sizeof(streams));
    snprintf(st->text,
             sizeof(st->text),
             "cannot be written to standard output (it cannot seek back): "
             "use %s",
             streams);
    return p4d_report_bad_value(st, "--format", o->format, st->text);
  }
  if (stream && !writer->text && isatty(STDOUT_FILENO)) {
    return p4d_report_bad_value(
      st, "-o", o->output, "standard output is a terminal (pipe it)");
  }

  const unsigned all = plan->kind->n_channels;
  if (o->n_channels > all) {
    snprintf(st->text, sizeof(st->text), "%u", o->n_channels);
    return p4d_report_bad_value(
      st, "--channels", st->text, "more than the plugin has");
  }
  if (o->channel && o->n_channels) {
    snprintf(st->text, sizeof(st->text), "%u", o->channel);
    return p4d_report_bad_value(
      st, "--channel", st->text, "give --channel or --channels, not both");
  }
  if (o->channel > all) {
    snprintf(st->text, sizeof(st->text), "%u", o->channel);
    return p4d_report_bad_value(
      st, "--channel", st->text, "the plugin has no such channel");
  }
  const unsigned first = o->channel ? o->channel - 1U : 0U;
  for (unsigned c = first; c < all; ++c) {
    names[c - first] = p4d_channel_symbol(plan->kind->params, c);
  }
  info->writer.n_channels     = o->channel      ? 1U
                                : o->n_channels ? o->n_channels
                                                : all;
  info->writer.first_channel  = first;
  info->writer.tolerance      = o->tolerance;
  info->writer.sample_rate_hz = plan->sample_rate_hz;
  info->writer.start_frame    = plan->start_frame;
  info->writer.n_frames       = plan->n_frames;
  info->writer.fps            = o->fps;
  info->writer.names          = names;
  info->writer.plan           = plan;
  info->frame_channels        = all;
  info->max_frames            = P4D_RENDER_CHUNK;
  info->force                 = o->force;
  return P4D_RENDER_SUCCESS;
}

/**
   Whether -o asks for pictures (into format); those of a kind that renders
   none, or with a plot, are refused into status.
*/
static bool
wants_pictures(const P4dPlan*    plan,
               const P4dOptions* o,
               P4dFormat*        format,
               P4dRenderCode*    code,
               P4dRenderStatus*  st)
{
  P4dRenderStatus ignored; // plan_output() reports a bad format
  if (!o->output ||
      p4d_writers_choose(o->output, o->format, format, &ignored) ||
      !format->writer->picture) {
    return false;
  }
  if (!plan->kind->pictures) {
    snprintf(st->text,
             sizeof(st->text),
             "%s renders no pictures (pictures come from --plugin image)",
             p4d_kind_title(plan->kind));
    *code = p4d_report_bad_value(st, "-o", o->output, st->text);
  } else if (o->plot) {
    *code = p4d_report_bad_value(
      st, "--plot", o->plot, "a plot of curves, not of pictures");
  } else if (p4d_atomic_is_stream(o->output) && !format->writer->can_stream) {
    char streams[256];
    p4d_writers_list_streams("", streams, sizeof(streams));
    snprintf(st->text,
             sizeof(st->text),
             "cannot be written to standard output (it cannot seek back): "
             "use %s",
             streams);
    *code = p4d_report_bad_value(st, "--format", o->format, st->text);
  } else if (p4d_atomic_is_stream(o->output) && isatty(STDOUT_FILENO)) {
    *code = p4d_report_bad_value(
      st, "-o", o->output, "standard output is a terminal (pipe it)");
  } else if (o->terrain) {
    *code = p4d_terrain_check(p4d_terrain_find(o->terrain), o, format, st);
  }
  return true;
}

P4dRenderCode
p4d_export_run(const P4dPlan* plan, const P4dOptions* o, P4dRenderStatus* st)
{
  P4dOutputInfo info;
  const char*   names[P4D_MAX_CHANNELS] = { NULL };
  memset(&info, 0, sizeof(info));
  P4dRenderCode code = P4D_RENDER_SUCCESS;
  if (wants_pictures(plan, o, &info.format, &code, st)) {
    code = code ? code : p4d_pictures_run(plan, o, info.format, st);
    return finish_stream(code);
  }
  if (o->terrain || o->hillshade) {
    return p4d_report_bad_value(st,
                                o->terrain ? "--terrain" : "--hillshade",
                                o->terrain ? o->terrain : o->hillshade,
                                "heightmaps are pictures (-o NAME.png, .r16, "
                                ".raw or .exr)");
  }
  code = plan_output(plan, o, &info, names, st);
  if (code) {
    return code;
  }

  p4d_render_catch_signals();
  P4dOutput* out = NULL;
  code           = p4d_output_open(&out, &info, o->output, o->plot, st);
  if (!code) {
    code = p4d_render_plan(plan,
                           o->n_jobs,
                           p4d_output_rows_per_s(out),
                           !o->quiet && isatty(2),
                           p4d_output_write,
                           out,
                           st);
    code = code ? p4d_report_name(st, o->output, NULL) : code;
  }
  if (!code) {
    code = p4d_output_close(out, st);
  }
  if (!code) {
    // A signal from here on waits until the files are in place, or not
    // (it came first): a render is either complete or leaves nothing.
    p4d_render_hold_signals(true);
    code = p4d_render_check_signal(st);
    code =
      code ? p4d_report_name(st, o->output, NULL) : p4d_output_commit(out, st);
    p4d_render_hold_signals(false);
  }

  // Any reason that lived in the output is a copy in the status by now.
  const bool clean = p4d_output_discard(out, st);
  p4d_output_free(out);

  return clean ? finish_stream(code) : code;
}
