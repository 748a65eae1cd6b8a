// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The plan of a render: which engine, at which sample rate, from which song
  frame for how long, and every parameter over time.  It is built from the
  options in the order a user reads them: the plugin's defaults, then the
  preset, then each --set, then the --automate lanes.
*/

#ifndef P4D_PLAN_H
#define P4D_PLAN_H

#include "input.h"
#include "kind.h"
#include "options.h"
#include "params.h"
#include "report.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/// One point of an automation lane.
typedef struct {
  double time_s; ///< Song time in seconds
  float  value;  ///< Parameter value (clamped)
} P4dPoint;

/// Linear ramps between points, sorted by time; empty means not automated.
typedef struct {
  unsigned  n_points;
  P4dPoint* points;
} P4dLane;

/// Everything that determines the rendered samples, and the preset file.
typedef struct {
  const P4dKindClass* kind; ///< What renders: a class with a name
  double              sample_rate_hz;
  double              tempo_bpm;
  int64_t             start_frame; ///< Song frame of the first frame rendered
  int64_t             n_frames;    ///< Frames to render
  float               base[P4D_MAX_PARAMS];
  P4dLane             lanes[P4D_MAX_PARAMS];
  bool                automated;
  char         preset_file[4096]; ///< The preset's file (an input), or ""
  char         input_file[4096];  ///< The sound Motion processes (-i), or ""
  P4dInputInfo input;             ///< What input_file holds
} P4dPlan;

/**
   Build the plan from the options, warning on stderr of every value that
   had to be clamped into its parameter's range.

   @param exe_path The path of this program, to find the bundle beside it.
   @return P4D_RENDER_SUCCESS or the failure.  Free the plan either way.
*/
P4dRenderCode
p4d_plan_make(P4dPlan*          plan,
              const P4dOptions* options,
              const char*       exe_path,
              P4dRenderStatus*  status);

/// Free the automation lanes of a plan that p4d_plan_make() filled.
void
p4d_plan_free(P4dPlan* plan);

/// Set params to the plan's parameter values at song frame frame.
void
p4d_plan_params_at(const P4dPlan* plan, int64_t frame, float* params);

/// Set params to the plan's parameter values at song time t_s (seconds).
void
p4d_plan_params_at_time(const P4dPlan* plan, double t_s, float* params);

/// Print the parameters of a plugin kind, one a line (--list-params).
void
p4d_plan_list_params(const P4dKindClass* kind, FILE* stream);

#endif // P4D_PLAN_H
