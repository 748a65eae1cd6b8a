// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  libFuzzer target: the plan of a render (plan.c) from a command line, one
  argument a line (see corpus/plan/): the --set values and the --automate
  lanes, through the option parser as a user gives them.  A --preset is
  dropped (fuzz_preset.c reads presets).  Besides the sanitizers, it checks
  what the plan promises: every value, set, automated or interpolated,
  lies in its parameter's range, the lanes' times never go back, and a
  refused plan is a usage error (exit 2) with a culprit and a reason.
*/

#include "fuzz_args.h"
#include "options.h"
#include "params.h"
#include "plan.h"
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef P4D_FUZZ_EXE
#  define P4D_FUZZ_EXE "perlin4d-render"
#endif

/// Frames at which a plan's values are checked, at most.
#define MAX_CHECKED_FRAMES 34U

int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/// Abort unless v lies in param's range.
static void
check_value(const P4dParam* param, float v)
{
  if (!(v >= param->minimum && v <= param->maximum)) {
    abort();
  }
}

/// Abort unless the plan holds what p4d_plan_make() promises.
static void
check_plan(const P4dPlan* plan)
{
  if (!plan->kind || !plan->kind->name || plan->n_frames < 1) {
    abort();
  }

  const P4dParamTable* table = p4d_kind_params(plan->kind);
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    const P4dLane* lane = &plan->lanes[i];
    check_value(&table->params[i], plan->base[i]);
    for (unsigned k = 0U; k < lane->n_points; ++k) {
      check_value(&table->params[i], lane->points[k].value);
      if (!(lane->points[k].time_s >= 0.0) ||
          (k && lane->points[k].time_s < lane->points[k - 1U].time_s)) {
        abort();
      }
    }
  }

  // The values at the first and last frames, and on either side of the
  // first points of the lanes.
  const int64_t first = plan->start_frame;
  const int64_t last  = plan->start_frame + plan->n_frames - 1;
  int64_t       frames[MAX_CHECKED_FRAMES];
  size_t        n_frames = 0U;
  frames[n_frames++]     = first;
  frames[n_frames++]     = last;
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    const P4dLane* lane = &plan->lanes[i];
    for (unsigned k = 0U;
         k < lane->n_points && n_frames + 2U <= MAX_CHECKED_FRAMES;
         ++k) {
      const double f     = floor(lane->points[k].time_s * plan->sample_rate_hz);
      frames[n_frames++] = (int64_t)f;
      frames[n_frames++] = (int64_t)f + 1;
    }
  }

  float params[P4D_MAX_PARAMS];
  for (size_t j = 0U; j < n_frames; ++j) {
    p4d_plan_params_at(plan, frames[j], params);
    for (uint32_t i = 0U; i < table->n_params; ++i) {
      check_value(&table->params[i], params[i]);
    }
  }
}

int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  P4dFuzzArgs args;
  if (!p4d_fuzz_args_new(&args, data, size)) {
    return 0;
  }

  P4dOptions      options;
  P4dRenderStatus status = { 0 };
  p4d_options_init(&options);
  if (!p4d_options_parse(&options, args.argc, args.argv, &status)) {
    options.preset = NULL;

    P4dPlan plan;
    if (!p4d_plan_make(&plan, &options, P4D_FUZZ_EXE, &status)) {
      check_plan(&plan);
    } else if (!status.culprit || !status.reason ||
               p4d_report_exit(&status) == P4D_EXIT_OK) {
      abort();
    }
    p4d_plan_free(&plan);
  }

  p4d_fuzz_args_free(&args);
  return 0;
}
