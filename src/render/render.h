// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's parts: the plan of a render (what to render, with which
  parameters over time), the renderer that runs the engine over the plan in
  chunks (in parallel), and the writers of sound files, CSV and SVG.
*/

#ifndef P4D_RENDER_H
#define P4D_RENDER_H

#include "engine.h"
#include "plan.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Parameters change on this grid of song frames when automated, so that
/// a render cut anywhere sees the same values at the same frames.
#define P4D_AUTOMATION_GRID 64

/// Frames in a chunk handed to the sink: 5.5 s at 48 kHz, at most 4 MiB of
/// 4-channel floats.
#define P4D_RENDER_CHUNK 262144

/// Receives rendered frames in order; returns a reason on failure, or NULL.
typedef const char* (*SinkFunc)(void*        ctx,
                                int64_t      frame,
                                const float* interleaved,
                                size_t       n_frames);

/// Set when SIGINT or SIGTERM arrives: rendering stops and cleans up.
extern volatile sig_atomic_t render_interrupted;

/**
   Render the plan with n_jobs threads, handing the frames to sink in order.

   @return NULL on success, or the reason it failed.
*/
const char*
render_plan(const P4dPlan* plan,
            unsigned       n_jobs,
            bool           progress,
            SinkFunc       sink,
            void*          ctx);

#endif // P4D_RENDER_H
