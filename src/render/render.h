// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The renderer: runs the engine over a plan (plan.h) in chunks, in
  parallel, and hands the frames to a sink in order.
*/

#ifndef P4D_RENDER_H
#define P4D_RENDER_H

#include "engine.h"
#include "plan.h"
#include "report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Parameters change on this grid of song frames when automated, so that
/// a render cut anywhere sees the same values at the same frames.
#define P4D_AUTOMATION_GRID 64

/// Frames in a chunk handed to the sink: 5.5 s at 48 kHz, at most 4 MiB of
/// 4-channel floats.
#define P4D_RENDER_CHUNK 262144

/// Receives rendered frames in order; a failure goes into status, its
/// culprit named or not (the caller of p4d_render_plan() names it).
typedef P4dRenderCode (*P4dRenderSink)(void*            ctx,
                                       int64_t          frame,
                                       const float*     interleaved,
                                       size_t           n_frames,
                                       P4dRenderStatus* status);

/**
   From now on, SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGUSR1, SIGUSR2
   and SIGALRM (unless ignored from the start) stop p4d_render_plan()
   cleanly: it fails with "interrupted by SIGTERM" (and so on), so that the
   caller can remove its files.  SIGXFSZ is ignored: a write past a file
   size limit fails instead (EFBIG).
*/
void
p4d_render_catch_signals(void);

/// The signal that stopped rendering, or 0.
int
p4d_render_signal(void);

/**
   Record "interrupted by SIGTERM" (and so on), with no culprit, once a
   signal stopped rendering.

   @return P4D_RENDER_SUCCESS if no signal came, else P4D_RENDER_ERR_FAILED.
*/
P4dRenderCode
p4d_render_check_signal(P4dRenderStatus* status);

/// Hold back (true) or let through the signals that stop rendering, in the
/// calling thread: a held signal arrives when let through.
void
p4d_render_hold_signals(bool hold);

/**
   The frame, counted from a render's first, of row row of a writer that
   keeps rows_per_s rows a second: the frame nearest row / rows_per_s
   seconds after the first.
*/
int64_t
p4d_render_row_frame(double sample_rate_hz, double rows_per_s, int64_t row);

/**
   Render the plan with n_jobs threads, handing the frames to sink in order.

   @param rows_per_s 0: every frame; else the sink reads only the frames
   of the rows (p4d_render_row_frame()) and only those are computed, each
   with the bits it has in a render of every frame; the other frames it is
   handed hold 0 or stale samples.
   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED with no culprit
   (the caller names its output).
*/
P4dRenderCode
p4d_render_plan(const P4dPlan*   plan,
                unsigned         n_jobs,
                double           rows_per_s,
                bool             progress,
                P4dRenderSink    sink,
                void*            ctx,
                P4dRenderStatus* status);

#endif // P4D_RENDER_H
