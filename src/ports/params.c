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

static const P4dScalePoint noise_events_points[] = {
  { 0.0f, "Off" },   { 1.0f, "Drops" }, { 2.0f, "Waves" },
  { 3.0f, "Gusts" }, { 0.0f, NULL },
};

static const P4dScalePoint motion_filter_points[] = {
  { 0.0f, "Off" },       { 1.0f, "Low pass" }, { 2.0f, "Band pass" },
  { 3.0f, "High pass" }, { 0.0f, NULL },
};

static const P4dScalePoint motion_turntable_points[] = {
  { 0.0f, "Off" },    { 1.0f, "33 1/3 rpm" }, { 2.0f, "45 rpm" },
  { 3.0f, "78 rpm" }, { 0.0f, NULL },
};

static const P4dScalePoint cc_points[] = { { 128.0f, "Off" }, { 0.0f, NULL } };

static const P4dScalePoint midi_mode_points[] = { { 0.0f, "7-bit CC" },
                                                  { 1.0f, "14-bit CC" },
                                                  { 2.0f, "Pitch bend" },
                                                  { 0.0f, NULL } };

static const P4dScalePoint image_type_points[] = {
  { 0.0f, "fBm" },
  { 1.0f, "Ridged multifractal" },
  { 2.0f, "Billow" },
  { 3.0f, "Turbulence" },
  { 4.0f, "Veins" },
  { 5.0f, "Hybrid multifractal" },
  { 6.0f, "Hetero terrain" },
  { 0.0f, NULL },
};

static const P4dScalePoint image_basis_points[] = {
  { 0.0f, "Improved 4D" },
  { 1.0f, "Classic 3D" },
  { 2.0f, "Classic 2D" },
  { 0.0f, NULL },
};

static const P4dScalePoint image_tone_points[] = { { 0.0f, "Even" },
                                                   { 1.0f, "Linear" },
                                                   { 0.0f, NULL } };

static const P4dScalePoint image_palette_points[] = {
  { 0.0f, "Grey" }, { 1.0f, "Magma" },  { 2.0f, "Ocean" }, { 3.0f, "Terrain" },
  { 4.0f, "Fire" }, { 5.0f, "Marble" }, { 0.0f, NULL },
};

static const P4dScalePoint loop_points[] = { { 0.0f, "Off" }, { 0.0f, NULL } };

/*
  The loop (Mod and Motion): with the song beats clock, a loop of N whole
  beats makes the output repeat every N beats, bit for bit, without a step
  at the seam (rates and octaves snap to whole cells per loop: see
  src/engine/engine.c, Loops).  It does nothing with song time or free running,
  whose clocks are not in beats; 0 is off.
*/
#define LOOP_COMMENT                                                       \
  "With the song beats clock the output repeats every this many beats, "   \
  "exactly and without a step (rates and octaves snap to whole cells per " \
  "loop); it does nothing with song time or free running.  0 is off."

#define LOOP_PARAM                                                         \
  {                                                                        \
    "loop_beats", "Loop (song beats)", 0.0f, 0.0f, 1024.0f, P4D_UNIT_BEAT, \
      INT, loop_points                                                     \
  }

#define LOG P4D_PARAM_LOGARITHMIC
#define INT P4D_PARAM_INTEGER
#define ENUM (P4D_PARAM_INTEGER | P4D_PARAM_ENUMERATION)
/// An on/off switch.
#define TOGGLE (P4D_PARAM_INTEGER | P4D_PARAM_TOGGLED)
/// The lv2:enabled switch hosts use for a click-free bypass.
#define ENABLED (P4D_PARAM_INTEGER | P4D_PARAM_TOGGLED | P4D_PARAM_ENABLED)

/// The time model Mod and Motion share: clock to persistence.
#define TIME_PARAMS                                                                \
  {                                                                                \
    "clock", "Clock", 0.0f, 0.0f, 2.0f, P4D_UNIT_NONE, ENUM, mod_clock_points      \
  },                                                                               \
    { "rate_hz", "Rate", 0.001f, 0.5f, 50.0f, P4D_UNIT_HZ, LOG, NULL },            \
    { "period_beats", "Period", 0.0625f, 4.0f, 256.0f, P4D_UNIT_BEAT, LOG, NULL }, \
    { "octaves", "Octaves", 1.0f, 3.0f, 8.0f, P4D_UNIT_NONE, 0U, NULL },           \
    { "lacunarity", "Lacunarity", 1.5f, 2.0f, 4.0f, P4D_UNIT_NONE, 0U, NULL },     \
  {                                                                                \
    "persistence", "Persistence", 0.0f, 0.5f, 1.0f, P4D_UNIT_NONE, 0U, NULL        \
  }

/// Where in the noise space, and which field: morph x, y, z and seed.
#define PLACE_PARAMS                                                        \
  { "morph_x", "Morph X", -16.0f, 0.0f, 16.0f, P4D_UNIT_NONE, 0U, NULL },   \
    { "morph_y", "Morph Y", -16.0f, 0.0f, 16.0f, P4D_UNIT_NONE, 0U, NULL }, \
    { "morph_z", "Morph Z", -16.0f, 0.0f, 16.0f, P4D_UNIT_NONE, 0U, NULL }, \
  {                                                                         \
    "seed", "Seed", 0.0f, 1.0f, 65535.0f, P4D_UNIT_NONE, INT, NULL          \
  }

/// How a Mod channel goes out as MIDI: 7-bit CC (the default), 14-bit CC
/// or pitch bend.
#define MIDI_MODE(symbol, name)                                           \
  {                                                                       \
    symbol, name, 0.0f, 0.0f, 2.0f, P4D_UNIT_NONE, ENUM, midi_mode_points \
  }

static const P4dParam mod_params[P4D_MOD_N_PARAMS] = {
  TIME_PARAMS,
  { "spread", "Spread", 0.0f, 1.0f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  PLACE_PARAMS,
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
  MIDI_MODE("midi_mode_1", "MIDI mode 1"),
  MIDI_MODE("midi_mode_2", "MIDI mode 2"),
  MIDI_MODE("midi_mode_3", "MIDI mode 3"),
  MIDI_MODE("midi_mode_4", "MIDI mode 4"),
  LOOP_PARAM,
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
  { "gust_db", "Gust depth", 0.0f, 0.0f, 24.0f, P4D_UNIT_DB, 0U, NULL },
  { "gust_hz", "Gust rate", 0.02f, 0.5f, 5.0f, P4D_UNIT_HZ, LOG, NULL },
  { "grit", "Grit", 0.0f, 0.0f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "events",
    "Events",
    0.0f,
    0.0f,
    3.0f,
    P4D_UNIT_NONE,
    ENUM,
    noise_events_points },
  { "event_hz", "Event rate", 0.02f, 10.0f, 200.0f, P4D_UNIT_HZ, LOG, NULL },
  LOOP_PARAM,
};

static const P4dParam motion_params[P4D_MOTION_N_PARAMS] = {
  TIME_PARAMS,
  PLACE_PARAMS,
  { "smooth_ms", "Smoothing", 0.0f, 20.0f, 1000.0f, P4D_UNIT_MS, 0U, NULL },
  { "spread", "Stereo spread", 0.0f, 0.3f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "gain_db", "Gain depth", 0.0f, 3.0f, 24.0f, P4D_UNIT_DB, 0U, NULL },
  { "pan_depth", "Pan depth", 0.0f, 0.0f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "width", "Width", 0.0f, 1.0f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "filter_mode",
    "Filter",
    0.0f,
    0.0f,
    3.0f,
    P4D_UNIT_NONE,
    ENUM,
    motion_filter_points },
  { "cutoff_hz", "Cutoff", 20.0f, 1000.0f, 20000.0f, P4D_UNIT_HZ, LOG, NULL },
  { "filter_oct", "Filter depth", 0.0f, 1.0f, 6.0f, P4D_UNIT_NONE, 0U, NULL },
  { "resonance", "Resonance", 0.0f, 0.2f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "wow_ms", "Wow depth", 0.0f, 0.0f, 10.0f, P4D_UNIT_MS, 0U, NULL },
  { "flutter_ratio",
    "Flutter rate ratio",
    2.0f,
    12.0f,
    64.0f,
    P4D_UNIT_NONE,
    LOG,
    NULL },
  { "flutter_ms", "Flutter depth", 0.0f, 0.0f, 2.0f, P4D_UNIT_MS, 0U, NULL },
  { "mix", "Mix", 0.0f, 1.0f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  { "output_db", "Output", -24.0f, 0.0f, 12.0f, P4D_UNIT_DB, 0U, NULL },
  { "enabled", "Enabled", 0.0f, 1.0f, 1.0f, P4D_UNIT_NONE, ENABLED, NULL },
  LOOP_PARAM,
  { "transport_spread",
    "Transport stereo spread",
    0.0f,
    0.0f,
    1.0f,
    P4D_UNIT_NONE,
    0U,
    NULL },
  { "turntable",
    "Turntable",
    0.0f,
    0.0f,
    3.0f,
    P4D_UNIT_NONE,
    ENUM,
    motion_turntable_points },
};

/*
  The Image (src/image/image.h): the Mod's field and time settings, then
  the picture's own.  Scale is in cells across the width at octave 0; the
  defaults (8 cells, edges at -4) show the Mod's four channels at spread 1
  (2.47 cells either side of the centre) in a square frame.  Warp is in
  cells of displacement (1 is strong).  The Mod's 8 octaves suffice: at 8
  cells across 1920 pixels the 8th is 2 pixels a cell.
*/
static const P4dParam image_params[P4D_IMAGE_N_PARAMS] = {
  TIME_PARAMS,
  { "spread", "Spread", 0.0f, 1.0f, 1.0f, P4D_UNIT_NONE, 0U, NULL },
  PLACE_PARAMS,
  LOOP_PARAM,
  { "scale", "Scale", 0.0625f, 8.0f, 4096.0f, P4D_UNIT_NONE, LOG, NULL },
  { "offset_x",
    "Offset X",
    -65536.0f,
    -4.0f,
    65536.0f,
    P4D_UNIT_NONE,
    0U,
    NULL },
  { "offset_y",
    "Offset Y",
    -65536.0f,
    -4.0f,
    65536.0f,
    P4D_UNIT_NONE,
    0U,
    NULL },
  { "tile", "Tile", 0.0f, 0.0f, 1.0f, P4D_UNIT_NONE, TOGGLE, NULL },
  { "type", "Type", 0.0f, 0.0f, 6.0f, P4D_UNIT_NONE, ENUM, image_type_points },
  { "warp", "Warp", 0.0f, 0.0f, 4.0f, P4D_UNIT_NONE, 0U, NULL },
  { "tone", "Tone", 0.0f, 0.0f, 1.0f, P4D_UNIT_NONE, ENUM, image_tone_points },
  { "palette",
    "Palette",
    0.0f,
    0.0f,
    (float)(P4D_IMAGE_N_PALETTES - 1),
    P4D_UNIT_NONE,
    ENUM,
    image_palette_points },
  { "fractal", "Fractal", 0.0f, 0.0f, 1.0f, P4D_UNIT_NONE, TOGGLE, NULL },
  { "stretch", "Stretch Y", 0.25f, 1.0f, 4.0f, P4D_UNIT_NONE, LOG, NULL },
  { "basis",
    "Basis",
    0.0f,
    0.0f,
    (float)(P4D_IMAGE_N_BASES - 1),
    P4D_UNIT_NONE,
    ENUM,
    image_basis_points },
};

/// The tables, by kind.
static const P4dParamTable tables[] = {
  [P4D_KIND_MOD]    = { P4D_MOD_N_PARAMS, mod_params },
  [P4D_KIND_NOISE]  = { P4D_NOISE_N_PARAMS, noise_params },
  [P4D_KIND_MOTION] = { P4D_MOTION_N_PARAMS, motion_params },
  [P4D_KIND_IMAGE]  = { P4D_IMAGE_N_PARAMS, image_params },
};

const P4dParamTable*
p4d_params(P4dKind kind)
{
  return &tables[(unsigned)kind < sizeof(tables) / sizeof(tables[0]) ? kind
                                                                     : 0];
}

static const char* const unit_labels[] = { "",   "Hz",    "dB",
                                           "ms", "beats", "frames" };

static const char* const unit_uris[] = {
  NULL,
  "http://lv2plug.in/ns/extensions/units#hz",
  "http://lv2plug.in/ns/extensions/units#db",
  "http://lv2plug.in/ns/extensions/units#ms",
  "http://lv2plug.in/ns/extensions/units#beat",
  "http://lv2plug.in/ns/extensions/units#frame",
};

const char*
p4d_unit_label(P4dUnit unit)
{
  return unit_labels[unit];
}

const char*
p4d_unit_uri(P4dUnit unit)
{
  return unit_uris[unit];
}

/*
  The ports.  Each plugin lists every port with its explicit lv2:index.
  Mod and Mod CV share their first 25 ports (MOD_PORTS); what either gains
  later is appended to its own list with its own next free index.
*/

#define CONTROL(index, param)                                                \
  {                                                                          \
    index, P4D_PORT_CONTROL_IN, param, P4D_UNIT_NONE, NULL, NULL, 0.0f, 0.0f \
  }
#define OUTPUT(index, role, channel, symbol, name, lo, hi)    \
  {                                                           \
    index, role, channel, P4D_UNIT_NONE, symbol, name, lo, hi \
  }
#define OUTPUT_UNIT(index, role, channel, symbol, name, lo, hi, unit) \
  {                                                                   \
    index, role, channel, unit, symbol, name, lo, hi                  \
  }
#define TRANSPORT                                                             \
  {                                                                           \
    0U, P4D_PORT_TRANSPORT_IN, 0U, P4D_UNIT_NONE, "control", "Control", 0.0f, \
      0.0f                                                                    \
  }

/// The ports Mod and Mod CV share: indices 0 to 24.
#define MOD_PORTS                                                          \
  TRANSPORT,                                                               \
    OUTPUT(1U, P4D_PORT_MIDI_OUT, 0U, "midi_out", "MIDI out", 0.0f, 0.0f), \
    CONTROL(2U, P4D_MOD_CLOCK), CONTROL(3U, P4D_MOD_RATE_HZ),              \
    CONTROL(4U, P4D_MOD_PERIOD_BEATS), CONTROL(5U, P4D_MOD_OCTAVES),       \
    CONTROL(6U, P4D_MOD_LACUNARITY), CONTROL(7U, P4D_MOD_PERSISTENCE),     \
    CONTROL(8U, P4D_MOD_SPREAD), CONTROL(9U, P4D_MOD_MORPH_X),             \
    CONTROL(10U, P4D_MOD_MORPH_Y), CONTROL(11U, P4D_MOD_MORPH_Z),          \
    CONTROL(12U, P4D_MOD_SEED), CONTROL(13U, P4D_MOD_OUT_MIN),             \
    CONTROL(14U, P4D_MOD_OUT_MAX), CONTROL(15U, P4D_MOD_SMOOTH_MS),        \
    CONTROL(16U, P4D_MOD_MIDI_CHANNEL), CONTROL(17U, P4D_MOD_CC_1),        \
    CONTROL(18U, P4D_MOD_CC_2), CONTROL(19U, P4D_MOD_CC_3),                \
    CONTROL(20U, P4D_MOD_CC_4),                                            \
    OUTPUT(21U, P4D_PORT_CONTROL_OUT, 0U, "out_1", "Out 1", -1.0f, 1.0f),  \
    OUTPUT(22U, P4D_PORT_CONTROL_OUT, 1U, "out_2", "Out 2", -1.0f, 1.0f),  \
    OUTPUT(23U, P4D_PORT_CONTROL_OUT, 2U, "out_3", "Out 3", -1.0f, 1.0f),  \
    OUTPUT(24U, P4D_PORT_CONTROL_OUT, 3U, "out_4", "Out 4", -1.0f, 1.0f)

static const P4dPort mod_ports[] = {
  MOD_PORTS,
  CONTROL(25U, P4D_MOD_MIDI_MODE_1),
  CONTROL(26U, P4D_MOD_MIDI_MODE_2),
  CONTROL(27U, P4D_MOD_MIDI_MODE_3),
  CONTROL(28U, P4D_MOD_MIDI_MODE_4),
  CONTROL(29U, P4D_MOD_LOOP_BEATS),
};

static const P4dPort mod_cv_ports[] = {
  MOD_PORTS,
  OUTPUT(25U, P4D_PORT_CV_OUT, 0U, "cv_1", "CV 1", -1.0f, 1.0f),
  OUTPUT(26U, P4D_PORT_CV_OUT, 1U, "cv_2", "CV 2", -1.0f, 1.0f),
  OUTPUT(27U, P4D_PORT_CV_OUT, 2U, "cv_3", "CV 3", -1.0f, 1.0f),
  OUTPUT(28U, P4D_PORT_CV_OUT, 3U, "cv_4", "CV 4", -1.0f, 1.0f),
  CONTROL(29U, P4D_MOD_MIDI_MODE_1),
  CONTROL(30U, P4D_MOD_MIDI_MODE_2),
  CONTROL(31U, P4D_MOD_MIDI_MODE_3),
  CONTROL(32U, P4D_MOD_MIDI_MODE_4),
  CONTROL(33U, P4D_MOD_LOOP_BEATS),
};

static const P4dPort noise_ports[] = {
  TRANSPORT,
  OUTPUT(1U, P4D_PORT_AUDIO_OUT, 0U, "out_l", "Left", 0.0f, 0.0f),
  OUTPUT(2U, P4D_PORT_AUDIO_OUT, 1U, "out_r", "Right", 0.0f, 0.0f),
  CONTROL(3U, P4D_NOISE_LEVEL_DB),
  CONTROL(4U, P4D_NOISE_GRAIN_HZ),
  CONTROL(5U, P4D_NOISE_OCTAVES),
  CONTROL(6U, P4D_NOISE_LACUNARITY),
  CONTROL(7U, P4D_NOISE_PERSISTENCE),
  CONTROL(8U, P4D_NOISE_EVOLVE_HZ),
  CONTROL(9U, P4D_NOISE_WIDTH),
  CONTROL(10U, P4D_NOISE_MORPH_X),
  CONTROL(11U, P4D_NOISE_MORPH_Y),
  CONTROL(12U, P4D_NOISE_MORPH_Z),
  CONTROL(13U, P4D_NOISE_SEED),
  CONTROL(14U, P4D_NOISE_CLOCK),
  CONTROL(15U, P4D_NOISE_GUST_DB),
  CONTROL(16U, P4D_NOISE_GUST_HZ),
  CONTROL(17U, P4D_NOISE_GRIT),
  CONTROL(18U, P4D_NOISE_EVENTS),
  CONTROL(19U, P4D_NOISE_EVENT_HZ),
  CONTROL(20U, P4D_NOISE_LOOP_BEATS),
};

/*
  Motion: stereo audio through, every control in parameter order, then what
  it does now to each target and the latency hosts compensate.  The
  outputs' ranges: gain from the largest depth down to unity (a tremolo
  only ever attenuates), pan from left to right, the cutoff over the
  cutoff control's own range (the glue clamps the report into it; the
  filter itself may go up to 0.45 fs), the wobble within the largest wow
  plus flutter either way, the latency within the delay line's base delay
  at 768 kHz (9220 frames).
*/
static const P4dPort motion_ports[] = {
  TRANSPORT,
  OUTPUT(1U, P4D_PORT_AUDIO_IN, 0U, "in_l", "Left in", 0.0f, 0.0f),
  OUTPUT(2U, P4D_PORT_AUDIO_IN, 1U, "in_r", "Right in", 0.0f, 0.0f),
  OUTPUT(3U, P4D_PORT_AUDIO_OUT, 0U, "out_l", "Left out", 0.0f, 0.0f),
  OUTPUT(4U, P4D_PORT_AUDIO_OUT, 1U, "out_r", "Right out", 0.0f, 0.0f),
  CONTROL(5U, P4D_MOTION_CLOCK),
  CONTROL(6U, P4D_MOTION_RATE_HZ),
  CONTROL(7U, P4D_MOTION_PERIOD_BEATS),
  CONTROL(8U, P4D_MOTION_OCTAVES),
  CONTROL(9U, P4D_MOTION_LACUNARITY),
  CONTROL(10U, P4D_MOTION_PERSISTENCE),
  CONTROL(11U, P4D_MOTION_MORPH_X),
  CONTROL(12U, P4D_MOTION_MORPH_Y),
  CONTROL(13U, P4D_MOTION_MORPH_Z),
  CONTROL(14U, P4D_MOTION_SEED),
  CONTROL(15U, P4D_MOTION_SMOOTH_MS),
  CONTROL(16U, P4D_MOTION_SPREAD),
  CONTROL(17U, P4D_MOTION_GAIN_DB),
  CONTROL(18U, P4D_MOTION_PAN_DEPTH),
  CONTROL(19U, P4D_MOTION_WIDTH),
  CONTROL(20U, P4D_MOTION_FILTER_MODE),
  CONTROL(21U, P4D_MOTION_CUTOFF_HZ),
  CONTROL(22U, P4D_MOTION_FILTER_OCT),
  CONTROL(23U, P4D_MOTION_RESONANCE),
  CONTROL(24U, P4D_MOTION_WOW_MS),
  CONTROL(25U, P4D_MOTION_FLUTTER_RATIO),
  CONTROL(26U, P4D_MOTION_FLUTTER_MS),
  CONTROL(27U, P4D_MOTION_MIX),
  CONTROL(28U, P4D_MOTION_OUTPUT_DB),
  CONTROL(29U, P4D_MOTION_ENABLED),
  OUTPUT_UNIT(30U,
              P4D_PORT_CONTROL_OUT,
              0U,
              "gain_now",
              "Gain now",
              -24.0f,
              0.0f,
              P4D_UNIT_DB),
  OUTPUT(31U, P4D_PORT_CONTROL_OUT, 1U, "pan_now", "Pan now", -1.0f, 1.0f),
  OUTPUT_UNIT(32U,
              P4D_PORT_CONTROL_OUT,
              2U,
              "cutoff_now",
              "Cutoff now",
              20.0f,
              20000.0f,
              P4D_UNIT_HZ),
  OUTPUT_UNIT(33U,
              P4D_PORT_CONTROL_OUT,
              3U,
              "wobble_now",
              "Wobble now",
              -12.0f,
              12.0f,
              P4D_UNIT_MS),
  OUTPUT_UNIT(34U,
              P4D_PORT_LATENCY_OUT,
              0U,
              "latency",
              "Latency",
              0.0f,
              16384.0f,
              P4D_UNIT_FRAME),
  CONTROL(35U, P4D_MOTION_LOOP_BEATS),
  CONTROL(36U, P4D_MOTION_TRANSPORT_SPREAD),
  CONTROL(37U, P4D_MOTION_TURNTABLE),
};

#define N_PORTS(ports) (uint32_t)(sizeof(ports) / sizeof((ports)[0]))

static const P4dPlugin plugins[P4D_N_PLUGINS] = {
  { P4D_URI_MOD,
    "Perlin4D Mod",
    "UtilityPlugin",
    "Song-locked Perlin noise modulation",
    "Four channels of smooth, reproducible 4D Perlin noise modulation, "
    "locked to the song position, as control outputs and MIDI CC.",
    P4D_KIND_MOD,
    N_PORTS(mod_ports),
    mod_ports },
  { P4D_URI_MOD_CV,
    "Perlin4D Mod CV",
    "UtilityPlugin",
    "Song-locked Perlin noise modulation with CV outputs",
    "Four channels of smooth, reproducible 4D Perlin noise modulation, "
    "locked to the song position, as control, CV and MIDI CC outputs.",
    P4D_KIND_MOD,
    N_PORTS(mod_cv_ports),
    mod_cv_ports },
  { P4D_URI_NOISE,
    "Perlin4D Noise",
    "GeneratorPlugin",
    "Textured stereo Perlin noise",
    "Stereo noise audio from 4D Perlin fractal noise whose texture evolves "
    "over song time.",
    P4D_KIND_NOISE,
    N_PORTS(noise_ports),
    noise_ports },
  { P4D_URI_MOTION,
    "Perlin4D Motion",
    "ModulatorPlugin",
    "Song-locked Perlin motion on audio",
    "Smooth, reproducible 4D Perlin noise motion applied to stereo audio: "
    "tremolo, auto-pan, filter drift, tape wow and flutter, locked to the "
    "song position.",
    P4D_KIND_MOTION,
    N_PORTS(motion_ports),
    motion_ports },
};

const P4dPlugin*
p4d_plugin(P4dPluginId id)
{
  return &plugins[id];
}

const P4dPlugin*
p4d_plugin_find(const char* uri)
{
  for (unsigned i = 0U; i < P4D_N_PLUGINS; ++i) {
    if (!strcmp(plugins[i].uri, uri)) {
      return &plugins[i];
    }
  }

  return NULL;
}

const P4dPort*
p4d_plugin_port(const P4dPlugin* plugin, uint32_t index)
{
  return index < plugin->n_ports ? &plugin->ports[index] : NULL;
}

const P4dPort*
p4d_plugin_port_with(const P4dPlugin* plugin, P4dPortRole role, uint32_t id)
{
  for (uint32_t i = 0U; i < plugin->n_ports; ++i) {
    if (plugin->ports[i].role == role && plugin->ports[i].id == id) {
      return &plugin->ports[i];
    }
  }

  return NULL;
}

const char*
p4d_port_symbol(const P4dPlugin* plugin, const P4dPort* port)
{
  return port->role == P4D_PORT_CONTROL_IN
           ? p4d_params(plugin->kind)->params[port->id].symbol
           : port->symbol;
}

const char*
p4d_port_name(const P4dPlugin* plugin, const P4dPort* port)
{
  return port->role == P4D_PORT_CONTROL_IN
           ? p4d_params(plugin->kind)->params[port->id].name
           : port->name;
}

const char*
p4d_channel_symbol(P4dKind kind, unsigned channel)
{
  const P4dPort* const port =
    kind == P4D_KIND_MOD
      ? p4d_plugin_port_with(
          &plugins[P4D_PLUGIN_MOD], P4D_PORT_CONTROL_OUT, channel)
      : p4d_plugin_port_with(
          &plugins[kind == P4D_KIND_NOISE ? P4D_PLUGIN_NOISE
                                          : P4D_PLUGIN_MOTION],
          P4D_PORT_AUDIO_OUT,
          channel);

  return port ? port->symbol : NULL;
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

const char*
p4d_param_comment(const P4dParam* param)
{
  if (param == &noise_params[P4D_NOISE_LOOP_BEATS]) {
    return "With the song clock the sound repeats every this many beats at "
           "the tempo of the song, exactly (grain, evolve, gusts, grit, events "
           "and the high-pass follow the loop); it does nothing free "
           "running.  0 is off.";
  }
  return strcmp(param->symbol, "loop_beats") ? NULL : LOOP_COMMENT;
}
