// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render: renders the perlin4d engines to sound files, CSV curves
  and SVG plots.  main() reads the options (options.c), builds the plan
  (plan.c), exports it (export.c), and reports how that went (report.c).
*/

#define _XOPEN_SOURCE 700

#include "export.h"
#include "isa.h"
#include "options.h"
#include "plan.h"
#include "preset.h"
#include "report.h"

#include <stdio.h>
#include <unistd.h>

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

int
main(int argc, char** argv)
{
  P4dOptions      options;
  P4dRenderStatus status = { 0 };
  p4d_options_init(&options);
  if (p4d_options_parse(&options, argc, argv, &status)) {
    return (int)p4d_report_exit(&status);
  }
  if (options.help) {
    p4d_options_print_help(stdout);
    return P4D_EXIT_OK;
  }
  if (options.version) {
    p4d_options_print_version(stdout);
    return P4D_EXIT_OK;
  }
  if (p4d_isa_note()) {
    p4d_report_warn("%s", p4d_isa_note());
  }

  const char* self = exe_path(argv[0]);
  if (options.list_presets) {
    p4d_preset_list(self, stdout, &status);
    return (int)p4d_report_exit(&status);
  }

  P4dPlan plan;
  if (!p4d_plan_make(&plan, &options, self, &status)) {
    if (options.list_params) {
      p4d_plan_list_params(plan.kind, stdout);
    } else {
      p4d_export_run(&plan, &options, &status);
    }
  }
  p4d_plan_free(&plan);
  return (int)p4d_report_exit(&status);
}
