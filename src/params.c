// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "params.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static const P4dScalePoint mod_clock_points[] = { { 0.0f, "Song time" },
                                                  { 1.0f, "Song beats" },
                                                  { 2.0f, "Free running" },
                                                  { 0.0f, NULL } };

static const P4dScalePoint noise_clock_points[] = { { 0.0f, "Song time" },
                                                    { 1.0f, "Free running" },
                                                    { 0.0f, NULL } };

static const P4dScalePoint cc_points[] = { { 128.0f, "Off" }, { 0.0f, NULL } };

#define LOG P4D_PARAM_LOGARITHMIC
#define INT P4D_PARAM_INTEGER
#define ENUM (P4D_PARAM_INTEGER | P4D_PARAM_ENUMERATION)

static const P4dParam mod_params[P4D_MOD_N_PARAMS] = {
  { "clock", "Clock", 0.0f, 0.0f, 2.0f, P4D_UNIT_NONE, ENUM, mod_clock_points },
  { "rate_hz", "Rate", 0.001f, 0.5f, 50.0f, P4D_UNIT_HZ, LOG, NULL },
  { "period_beats", "Period", 0.0625f, 4.0f, 256.0f, P4D_UNIT_BEAT, LOG, NULL },
  { "octaves", "Octaves", 1.0f, 3.0f, 8.0f, P4D_UNIT_NONE, 0U, NULL },
  { "lacunarity", "Lacunarity", 1.5f, 2.0f, 4.0f, P4D_UNIT_NONE, 0U, NULL },
  { "persistence", "Persistence", 0.0f, 0.5f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "spread", "Spread", 0.0f, 1.0f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "morph_x", "Morph X", -16.0f, 0.0f, 16.0f, P4D_UNIT_NONE, 0U, NULL },
  { "morph_y", "Morph Y", -16.0f, 0.0f, 16.0f, P4D_UNIT_NONE, 0U, NULL },
  { "morph_z", "Morph Z", -16.0f, 0.0f, 16.0f, P4D_UNIT_NONE, 0U, NULL },
  { "seed", "Seed", 0.0f, 1.0f, 65535.0f, P4D_UNIT_NONE, INT, NULL },
  { "out_min", "Output minimum", -1.0f, 0.0f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "out_max", "Output maximum", -1.0f, 1.0f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "smooth_ms", "Smoothing", 0.0f, 20.0f, 1000.0f, P4D_UNIT_MS, 0U, NULL },
  { "midi_channel",
    "MIDI channel",
    1.0f,
    1.0f,
    16.0f,
    P4D_UNIT_NONE,
    INT,
    NULL },
  { "cc_1", "CC 1", 0.0f, 128.0f, 128.0f, P4D_UNIT_NONE, INT, cc_points },
  { "cc_2", "CC 2", 0.0f, 128.0f, 128.0f, P4D_UNIT_NONE, INT, cc_points },
  { "cc_3", "CC 3", 0.0f, 128.0f, 128.0f, P4D_UNIT_NONE, INT, cc_points },
  { "cc_4", "CC 4", 0.0f, 128.0f, 128.0f, P4D_UNIT_NONE, INT, cc_points },
};

static const P4dParam noise_params[P4D_NOISE_N_PARAMS] = {
  { "level_db", "Level", -90.0f, -12.0f, 0.0f, P4D_UNIT_DB, 0U, NULL },
  { "grain_hz", "Grain", 20.0f, 1000.0f, 20000.0f, P4D_UNIT_HZ, LOG, NULL },
  { "octaves", "Octaves", 1.0f, 6.0f, 10.0f, P4D_UNIT_NONE, 0U, NULL },
  { "lacunarity", "Lacunarity", 1.5f, 2.0f, 4.0f, P4D_UNIT_NONE, 0U, NULL },
  { "persistence", "Persistence", 0.0f, 0.5f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "evolve_hz", "Evolve", 0.0f, 0.5f, 20.0f, P4D_UNIT_HZ, 0U, NULL },
  { "width", "Width", 0.0f, 1.0f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "morph_x", "Morph X", -16.0f, 0.0f, 16.0f, P4D_UNIT_NONE, 0U, NULL },
  { "morph_y", "Morph Y", -16.0f, 0.0f, 16.0f, P4D_UNIT_NONE, 0U, NULL },
  { "morph_z", "Morph Z", -16.0f, 0.0f, 16.0f, P4D_UNIT_NONE, 0U, NULL },
  { "seed", "Seed", 0.0f, 1.0f, 65535.0f, P4D_UNIT_NONE, INT, NULL },
  { "clock",
    "Clock",
    0.0f,
    0.0f,
    1.0f,
    P4D_UNIT_NONE,
    ENUM,
    noise_clock_points },
};

static const P4dParamTable tables[] = {
  { "urn:perlin4d:mod", "Perlin4D Mod", 2U, P4D_MOD_N_PARAMS, mod_params },
  { "urn:perlin4d:noise",
    "Perlin4D Noise",
    3U,
    P4D_NOISE_N_PARAMS,
    noise_params },
};

const P4dParamTable*
p4d_params(P4dKind kind)
{
  return &tables[kind == P4D_KIND_NOISE];
}

int
p4d_param_find(const P4dParamTable* table, const char* symbol)
{
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    if (!strcmp(table->params[i].symbol, symbol)) {
      return (int)i;
    }
  }

  return -1;
}

float
p4d_param_clamp(const P4dParam* param, float value)
{
  if (value != value) {
    return param->def;
  }

  const float v = value < param->minimum   ? param->minimum
                  : value > param->maximum ? param->maximum
                                           : value;

  return (param->flags & P4D_PARAM_INTEGER) ? floorf(v + 0.5f) : v;
}

void
p4d_param_defaults(const P4dParamTable* table, float* values)
{
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    values[i] = table->params[i].def;
  }
}
