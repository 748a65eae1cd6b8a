// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The class of Perlin4D Motion (kind.h).  An instance is the Motion
  processor and each target's value at the last frame processed, which the
  plugin's control outputs show.
*/

#include "kind.h"

#include "engine.h"
#include "motion.h"
#include "params.h"

#include <stdlib.h>

/// A Motion processor and what its control outputs show.
typedef struct {
  P4dMotion*     motion;
  float          now[P4D_MOTION_N_NOW];      ///< Each target at the last frame
  const P4dPort* now_port[P4D_MOTION_N_NOW]; ///< Their outputs
} MotionKind;

static P4dStatus
motion_kind_new(double sample_rate_hz, void** instance)
{
  MotionKind* const self = (MotionKind*)calloc(1U, sizeof(MotionKind));
  if (!self) {
    return P4D_ERR_NO_MEM;
  }
  const P4dStatus st = p4d_motion_new(sample_rate_hz, &self->motion);
  if (st) {
    free(self);
    return st;
  }
  const P4dPlugin* const plugin = p4d_plugin(P4D_PLUGIN_MOTION);
  for (unsigned t = 0U; t < P4D_MOTION_N_NOW; ++t) {
    self->now_port[t] = p4d_plugin_port_with(plugin, P4D_PORT_CONTROL_OUT, t);
  }
  *instance = self;
  return P4D_SUCCESS;
}

static void
motion_kind_free(void* instance)
{
  MotionKind* const self = (MotionKind*)instance;
  if (self) {
    p4d_motion_free(self->motion);
    free(self);
  }
}

/// Until the first frame is processed, the targets at rest.
static void
at_rest(MotionKind* self)
{
  self->now[P4D_MOTION_NOW_GAIN_DB] = 0.0f;
  self->now[P4D_MOTION_NOW_PAN]     = 0.0f;
  self->now[P4D_MOTION_NOW_CUTOFF_HZ] =
    p4d_params(P4D_KIND_MOTION)->params[P4D_MOTION_CUTOFF_HZ].def;
  self->now[P4D_MOTION_NOW_WOBBLE_MS] = 0.0f;
}

static void
motion_kind_activate(void* instance)
{
  MotionKind* const self = (MotionKind*)instance;
  p4d_motion_activate(self->motion);
  at_rest(self);
}

static void
motion_kind_activate_at(void* instance, int64_t frame, double bpm)
{
  MotionKind* const self = (MotionKind*)instance;
  p4d_motion_activate_at(self->motion, frame, bpm);
  at_rest(self);
}

static void
motion_kind_transport(void* instance, const P4dTransport* transport)
{
  p4d_motion_transport(((MotionKind*)instance)->motion, transport);
}

static int64_t
motion_kind_exact_from(const void* instance, int64_t frame, const float* params)
{
  (void)params;
  return p4d_motion_exact_from(((const MotionKind*)instance)->motion, frame);
}

static void
motion_kind_process(void*              instance,
                    const float*       params,
                    const float* const in[],
                    float* const       out[],
                    uint32_t           n_frames)
{
  MotionKind* const self = (MotionKind*)instance;
  p4d_motion_process(self->motion, params, in, out, self->now, n_frames);
}

/// Every call: the targets within their outputs' ranges (the filter may go
/// past the cutoff control's range that the display shows).
static bool
motion_kind_controls(void* instance, float* values)
{
  const MotionKind* const self = (const MotionKind*)instance;
  for (unsigned t = 0U; t < P4D_MOTION_N_NOW; ++t) {
    const P4dPort* const port = self->now_port[t];
    const float          v    = self->now[t];
    values[t]                 = v < port->minimum   ? port->minimum
                                : v > port->maximum ? port->maximum
                                                    : v;
  }
  return true;
}

static uint32_t
motion_kind_latency(const void* instance)
{
  return p4d_motion_latency(((const MotionKind*)instance)->motion);
}

/// The left side's engine (0) and the flutter engine (2).
static void
motion_kind_position(const void* instance, unsigned k, P4dPosition* position)
{
  p4d_motion_position(
    ((const MotionKind*)instance)->motion, k ? 2U : 0U, position);
}

static P4dStatus
motion_kind_scratch(double sample_rate_hz, P4dEngine** scratch)
{
  return p4d_engine_new(P4D_KIND_MOD, sample_rate_hz, scratch);
}

/// Where each target is within its swing, -1 to 1 (gain, pan, filter,
/// wobble), left side; a target at depth 0 is left out.
static void
motion_kind_preview(P4dEngine*         scratch,
                    const float*       params,
                    const P4dPosition* at,
                    const int64_t*     offsets,
                    uint32_t           n,
                    float* const       rows[P4D_PREVIEW_ROWS],
                    P4dPreviewScale*   scale)
{
  const float* const p = params;
  float              mp[P4D_MAX_PARAMS];

  // Left: rows 0 to 3 (gain, pan, filter, wow); flutter: rows 4 to 7.
  p4d_motion_mod_params(p, 0U, mp);
  p4d_engine_preview(scratch, mp, &at[0], offsets, n, rows);
  p4d_motion_mod_params(p, 2U, mp);
  p4d_engine_preview(scratch, mp, &at[1], offsets, n, rows + 4);

  const float wow     = p[P4D_MOTION_WOW_MS];
  const float flutter = p[P4D_MOTION_FLUTTER_MS];
  scale->shown[0]     = p[P4D_MOTION_GAIN_DB] > 0.0f;
  scale->shown[1]     = p[P4D_MOTION_PAN_DEPTH] > 0.0f;
  scale->shown[2] = p[P4D_MOTION_FILTER_MODE] != (float)P4D_MOTION_FILTER_OFF &&
                    p[P4D_MOTION_FILTER_OCT] > 0.0f;
  scale->shown[3] = wow + flutter > 0.0f;
  for (unsigned k = 0U; k < P4D_PREVIEW_CURVES; ++k) {
    float* const v = rows[k];
    for (uint32_t x = 0U; x < n; ++x) {
      v[x] = 2.0f * v[x] - 1.0f;
    }
  }
  if (scale->shown[3]) {
    float* const       v = rows[3];
    const float* const f = rows[4];
    for (uint32_t x = 0U; x < n; ++x) {
      v[x] = (wow * v[x] + flutter * (2.0f * f[x] - 1.0f)) / (wow + flutter);
    }
  }
  scale->low  = -1.0;
  scale->high = 1.0;
  scale->grid = 0.0;
}

/// Motion's clock: the Mod's.
static const P4dClockMode motion_clock[] = { P4D_CLOCK_SONG_SECONDS,
                                             P4D_CLOCK_SONG_BEATS,
                                             P4D_CLOCK_FREE };

const struct P4dKindClassImpl p4d_motion_kind = {
  .name          = "motion",
  .renders_as    = &p4d_motion_kind,
  .plugin        = P4D_PLUGIN_MOTION,
  .params        = P4D_KIND_MOTION,
  .n_channels    = 2U,
  .takes_input   = true,
  .in_place      = true,
  .clock_param   = P4D_MOTION_CLOCK,
  .n_clock_modes = 3U,
  .clock_modes   = motion_clock,
  .loop_param    = P4D_MOTION_LOOP_BEATS,
  .n_positions   = 2U,
  .create        = motion_kind_new,
  .destroy       = motion_kind_free,
  .activate      = motion_kind_activate,
  .activate_at   = motion_kind_activate_at,
  .transport     = motion_kind_transport,
  .exact_from    = motion_kind_exact_from,
  .process       = motion_kind_process,
  .controls      = motion_kind_controls,
  .latency       = motion_kind_latency,
  .position      = motion_kind_position,
  .scratch_new   = motion_kind_scratch,
  .preview       = motion_kind_preview,
};
