// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The classes of the engine's kinds (kind.h): Perlin4D Mod, Perlin4D Mod CV
  (the same engine; its plugin adds CV outputs) and Perlin4D Noise.  An
  instance is the engine and the last value of each channel, which the
  plugin's control outputs show.
*/

#include "kind.h"

#include "draw.h"
#include "engine.h"
#include "params.h"

#include <math.h>
#include <stdlib.h>

/// An engine and what its control outputs show.
typedef struct {
  P4dEngine* engine;
  unsigned   n_channels;
  bool       fresh; ///< last[] was written since controls() read it
  float      last[P4D_MAX_CHANNELS];
} EngineKind;

static P4dStatus
engine_kind_new(P4dKind kind, double sample_rate_hz, void** instance)
{
  EngineKind* const self = (EngineKind*)calloc(1U, sizeof(EngineKind));
  if (!self) {
    return P4D_ERR_NO_MEM;
  }
  const P4dStatus st = p4d_engine_new(kind, sample_rate_hz, &self->engine);
  if (st) {
    free(self);
    return st;
  }
  self->n_channels = p4d_engine_channels(kind);
  *instance        = self;
  return P4D_SUCCESS;
}

static P4dStatus
mod_new(double sample_rate_hz, void** instance)
{
  return engine_kind_new(P4D_KIND_MOD, sample_rate_hz, instance);
}

static P4dStatus
noise_new(double sample_rate_hz, void** instance)
{
  return engine_kind_new(P4D_KIND_NOISE, sample_rate_hz, instance);
}

static void
engine_kind_free(void* instance)
{
  EngineKind* const self = (EngineKind*)instance;
  if (self) {
    p4d_engine_free(self->engine);
    free(self);
  }
}

static void
engine_kind_activate(void* instance)
{
  EngineKind* const self = (EngineKind*)instance;
  p4d_engine_activate(self->engine);
  self->fresh = false;
}

static void
engine_kind_activate_at(void* instance, int64_t frame, double bpm)
{
  EngineKind* const self = (EngineKind*)instance;
  p4d_engine_activate_at(self->engine, frame, bpm);
  self->fresh = false;
}

static void
engine_kind_transport(void* instance, const P4dTransport* transport)
{
  p4d_engine_transport(((EngineKind*)instance)->engine, transport);
}

static int64_t
engine_kind_exact_from(const void* instance, int64_t frame, const float* params)
{
  return p4d_engine_exact_from(
    ((const EngineKind*)instance)->engine, frame, params);
}

static void
engine_kind_process(void*              instance,
                    const float*       params,
                    const float* const in[],
                    float* const       out[],
                    uint32_t           n_frames)
{
  (void)in;
  EngineKind* const self = (EngineKind*)instance;
  p4d_engine_process(self->engine, params, out, n_frames);
  if (out && n_frames) {
    for (unsigned c = 0U; c < self->n_channels; ++c) {
      self->last[c] = out[c][n_frames - 1U];
    }
    self->fresh = true;
  }
}

static bool
engine_kind_controls(void* instance, float* values)
{
  EngineKind* const self  = (EngineKind*)instance;
  const bool        fresh = self->fresh;
  for (unsigned c = 0U; fresh && c < self->n_channels; ++c) {
    values[c] = self->last[c];
  }
  self->fresh = false;
  return fresh;
}

static uint32_t
engine_kind_latency(const void* instance)
{
  (void)instance;
  return 0U;
}

static void
engine_kind_position(const void* instance, unsigned k, P4dPosition* position)
{
  (void)k;
  p4d_engine_position(((const EngineKind*)instance)->engine, position);
}

static P4dStatus
mod_scratch(double sample_rate_hz, P4dEngine** scratch)
{
  return p4d_engine_new(P4D_KIND_MOD, sample_rate_hz, scratch);
}

static P4dStatus
noise_scratch(double sample_rate_hz, P4dEngine** scratch)
{
  return p4d_engine_new(P4D_KIND_NOISE, sample_rate_hz, scratch);
}

/// Mod and Mod CV: the four channels on the scale out_min..out_max.
static void
mod_preview(P4dEngine*         scratch,
            const float*       params,
            const P4dPosition* at,
            const int64_t*     offsets,
            uint32_t           n,
            float* const       rows[P4D_PREVIEW_ROWS],
            P4dPreviewScale*   scale)
{
  p4d_engine_preview(scratch, params, &at[0], offsets, n, rows);
  const double a    = params[P4D_MOD_OUT_MIN];
  const double b    = params[P4D_MOD_OUT_MAX];
  double       low  = a < b ? a : b;
  double       high = a < b ? b : a;
  p4d_draw_widen(&low, &high, 1.0e-6);
  scale->low  = low;
  scale->high = high;
  scale->grid = 0.5 * (low + high);
  for (unsigned c = 0U; c < P4D_PREVIEW_CURVES; ++c) {
    scale->shown[c] = true;
  }
}

/// Noise: each channel's texture envelope in dB (0 dB: the level).
static void
noise_preview(P4dEngine*         scratch,
              const float*       params,
              const P4dPosition* at,
              const int64_t*     offsets,
              uint32_t           n,
              float* const       rows[P4D_PREVIEW_ROWS],
              P4dPreviewScale*   scale)
{
  p4d_engine_preview(scratch, params, &at[0], offsets, n, rows);
  for (unsigned c = 0U; c < 2U; ++c) {
    float* const v = rows[c];
    for (uint32_t x = 0U; x < n; ++x) {
      v[x] = (float)(20.0 * log10(v[x] > 1.0e-6f ? (double)v[x] : 1.0e-6));
    }
  }
  scale->low  = P4D_NOISE_PREVIEW_BOTTOM_DB;
  scale->high = P4D_NOISE_PREVIEW_TOP_DB;
  scale->grid = 0.0;
  for (unsigned c = 0U; c < P4D_PREVIEW_CURVES; ++c) {
    scale->shown[c] = c < 2U;
  }
}

/// The Mod's clock: song seconds, song beats, free.
static const P4dClockMode mod_clock[] = { P4D_CLOCK_SONG_SECONDS,
                                          P4D_CLOCK_SONG_BEATS,
                                          P4D_CLOCK_FREE };

/// The Noise's clock: song seconds, free.
static const P4dClockMode noise_clock[] = { P4D_CLOCK_SONG_SECONDS,
                                            P4D_CLOCK_FREE };

/// The operations Mod, Mod CV and Noise share.
#define ENGINE_OPS                                                            \
  .destroy = engine_kind_free, .activate = engine_kind_activate,              \
  .activate_at = engine_kind_activate_at, .transport = engine_kind_transport, \
  .exact_from = engine_kind_exact_from, .process = engine_kind_process,       \
  .controls = engine_kind_controls, .latency = engine_kind_latency,           \
  .position = engine_kind_position

/// Mod and Mod CV: one engine, two plugins.
#define MOD_CLASS                                                              \
  .renders_as = &p4d_engine_kind_mod, .params = P4D_KIND_MOD,                  \
  .n_channels = 4U, .takes_input = false, .in_place = false,                   \
  .clock_param = P4D_MOD_CLOCK, .n_clock_modes = 3U, .clock_modes = mod_clock, \
  .loop_param = P4D_MOD_LOOP_BEATS, .n_positions = 1U, .create = mod_new,      \
  ENGINE_OPS, .scratch_new = mod_scratch, .preview = mod_preview

const struct P4dKindClassImpl p4d_engine_kind_mod = {
  .name   = "mod",
  .plugin = P4D_PLUGIN_MOD,
  MOD_CLASS,
};

const struct P4dKindClassImpl p4d_engine_kind_mod_cv = {
  .name   = NULL,
  .plugin = P4D_PLUGIN_MOD_CV,
  MOD_CLASS,
};

const struct P4dKindClassImpl p4d_engine_kind_noise = {
  .name          = "noise",
  .renders_as    = &p4d_engine_kind_noise,
  .plugin        = P4D_PLUGIN_NOISE,
  .params        = P4D_KIND_NOISE,
  .n_channels    = 2U,
  .takes_input   = false,
  .in_place      = false,
  .clock_param   = P4D_NOISE_CLOCK,
  .n_clock_modes = 2U,
  .clock_modes   = noise_clock,
  .loop_param    = P4D_NOISE_LOOP_BEATS,
  .n_positions   = 1U,
  .create        = noise_new,
  ENGINE_OPS,
  .scratch_new = noise_scratch,
  .preview     = noise_preview,
};
