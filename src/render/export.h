// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Exporting a plan: check where it goes (the targets, the format, the
  channels), open the outputs, render into them, and rename them into
  place; or leave nothing behind.
*/

#ifndef P4D_EXPORT_H
#define P4D_EXPORT_H

#include "options.h"
#include "plan.h"
#include "report.h"

/**
   Render the plan into the files the options name.

   @return P4D_RENDER_SUCCESS; P4D_RENDER_ERR_USAGE if the targets cannot be
   written (nothing was); P4D_RENDER_ERR_FAILED if rendering or writing
   failed (nothing is left).
*/
P4dRenderCode
p4d_export_run(const P4dPlan*    plan,
               const P4dOptions* options,
               P4dRenderStatus*  status);

#endif // P4D_EXPORT_H
