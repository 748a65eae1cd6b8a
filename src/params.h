// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file params.h
   The one parameter table: every control input of every perlin4d plugin,
   shared by the plugins, the renderer and the tests.

   A control's port index is the plugin's first control port plus its
   parameter id; its symbol is the LV2 port symbol.  Both are a public
   contract: once released they never change.
*/

#ifndef P4D_PARAMS_H
#define P4D_PARAMS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Unit of a parameter, as the TTL's units: property names it.
typedef enum {
  P4D_UNIT_NONE,
  P4D_UNIT_HZ,
  P4D_UNIT_DB,
  P4D_UNIT_MS,
  P4D_UNIT_BEAT,
} P4dUnit;

/// Parameter properties (lv2:portProperty).
typedef enum {
  P4D_PARAM_INTEGER     = 1U << 0U, ///< lv2:integer
  P4D_PARAM_ENUMERATION = 1U << 1U, ///< lv2:enumeration (scale points)
  P4D_PARAM_LOGARITHMIC = 1U << 2U, ///< pprops:logarithmic
} P4dParamFlag;

/// A labelled value of a parameter (lv2:scalePoint).
typedef struct {
  float       value; ///< The value
  const char* label; ///< Its label, NULL at the end of a list
} P4dScalePoint;

/// One control input.
typedef struct {
  const char*          symbol;  ///< LV2 port symbol
  const char*          name;    ///< LV2 port name
  float                minimum; ///< Smallest value
  float                def;     ///< Default value
  float                maximum; ///< Largest value
  P4dUnit              unit;    ///< Unit
  unsigned             flags;   ///< P4dParamFlag bits
  const P4dScalePoint* points; ///< Scale points, ended by a NULL label, or NULL
} P4dParam;

/// The engines a plugin or a render can drive.
typedef enum {
  P4D_KIND_MOD,   ///< Modulator: 4 channels of smooth control signal
  P4D_KIND_NOISE, ///< Noise texture: stereo audio
} P4dKind;

/// Perlin4D Mod (and Mod CV) parameters, in port order.
typedef enum {
  P4D_MOD_CLOCK,
  P4D_MOD_RATE_HZ,
  P4D_MOD_PERIOD_BEATS,
  P4D_MOD_OCTAVES,
  P4D_MOD_LACUNARITY,
  P4D_MOD_PERSISTENCE,
  P4D_MOD_SPREAD,
  P4D_MOD_MORPH_X,
  P4D_MOD_MORPH_Y,
  P4D_MOD_MORPH_Z,
  P4D_MOD_SEED,
  P4D_MOD_OUT_MIN,
  P4D_MOD_OUT_MAX,
  P4D_MOD_SMOOTH_MS,
  P4D_MOD_MIDI_CHANNEL,
  P4D_MOD_CC_1,
  P4D_MOD_CC_2,
  P4D_MOD_CC_3,
  P4D_MOD_CC_4,
  P4D_MOD_N_PARAMS
} P4dModParam;

/// Perlin4D Noise parameters, in port order.
typedef enum {
  P4D_NOISE_LEVEL_DB,
  P4D_NOISE_GRAIN_HZ,
  P4D_NOISE_OCTAVES,
  P4D_NOISE_LACUNARITY,
  P4D_NOISE_PERSISTENCE,
  P4D_NOISE_EVOLVE_HZ,
  P4D_NOISE_WIDTH,
  P4D_NOISE_MORPH_X,
  P4D_NOISE_MORPH_Y,
  P4D_NOISE_MORPH_Z,
  P4D_NOISE_SEED,
  P4D_NOISE_CLOCK,
  P4D_NOISE_N_PARAMS
} P4dNoiseParam;

/// Values of the clock parameters.
typedef enum {
  P4D_CLOCK_SONG_SECONDS, ///< Song position in seconds
  P4D_CLOCK_SONG_BEATS,   ///< Song position in beats (Mod only)
  P4D_CLOCK_FREE,         ///< Free running from activation
} P4dClockMode;

/// The CC number that means "send no CC".
#define P4D_CC_OFF 128

/// Most parameters of any kind.
#define P4D_MAX_PARAMS 19U

/// The table of one kind: what a plugin or the renderer exposes.
typedef struct {
  const char*     uri;           ///< Plugin URI
  const char*     name;          ///< Plugin name
  uint32_t        first_control; ///< Port index of parameter 0
  uint32_t        n_params;      ///< Number of parameters
  const P4dParam* params;        ///< The parameters, in port order
} P4dParamTable;

/// Return the parameter table of kind.
const P4dParamTable*
p4d_params(P4dKind kind);

/// Return the id of the parameter with symbol in table, or -1.
int
p4d_param_find(const P4dParamTable* table, const char* symbol);

/**
   Clamp a control value into the parameter's range.

   NaN maps to the default, infinities to the nearest bound; integer and
   enumeration values round to the nearest whole number.  Realtime safe.
*/
float
p4d_param_clamp(const P4dParam* param, float value);

/// Set values[i] to the default of every parameter of table.
void
p4d_param_defaults(const P4dParamTable* table, float* values);

#ifdef __cplusplus
}
#endif

#endif // P4D_PARAMS_H
