// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "ttl_contract.h"

#include <lv2/core/lv2.h>
#include <lv2/units/units.h>
#include <lv2/urid/urid.h>

#include <stddef.h>

// Short names for the tables below, one port a line.
#define INT P4D_TTL_INT
#define ENUM P4D_TTL_ENUM
#define LOG P4D_TTL_LOG
#define TOGGLED P4D_TTL_TOGGLED
#define ENABLED P4D_TTL_ENABLED
#define ATOM_IN P4D_TTL_ATOM_IN
#define MIDI_OUT P4D_TTL_MIDI_OUT
#define CONTROL_IN P4D_TTL_CONTROL_IN
#define CONTROL_OUT P4D_TTL_CONTROL_OUT
#define AUDIO_OUT P4D_TTL_AUDIO_OUT
#define AUDIO_IN P4D_TTL_AUDIO_IN
#define CV_OUT P4D_TTL_CV_OUT
#define LATENCY_OUT P4D_TTL_LATENCY_OUT

// clang-format off
static const P4dTtlPoint mod_clock_points[] = {
  { 0, "Song time" }, { 1, "Song beats" }, { 2, "Free running" }, { 0, NULL },
};
static const P4dTtlPoint noise_clock_points[] = {
  { 0, "Song time" }, { 1, "Free running" }, { 0, NULL },
};
static const P4dTtlPoint noise_events_points[] = {
  { 0, "Off" }, { 1, "Drops" }, { 2, "Waves" }, { 3, "Gusts" }, { 0, NULL }
};
static const P4dTtlPoint cc_points[] = { { 128, "Off" }, { 0, NULL } };
static const P4dTtlPoint midi_mode_points[] = {
  { 0, "7-bit CC" }, { 1, "14-bit CC" }, { 2, "Pitch bend" }, { 0, NULL },
};
static const P4dTtlPoint loop_points[] = { { 0, "Off" }, { 0, NULL } };

#define HZ LV2_UNITS__hz
#define DB LV2_UNITS__db
#define MS LV2_UNITS__ms
#define BEAT LV2_UNITS__beat

// One port a line: index, symbol, name, kind, default, minimum, maximum,
// unit, properties, scale points (and rdfs:comment: NULL but for the loop).
#define OTHER(i, sym, name, kind) \
  { sym, name, i, kind, 0, 0, 0, 0, NULL, NULL, NULL }
#define OUT(i, sym, name, kind) \
  { sym, name, i, kind, 0, -1, 1, 0, NULL, NULL, NULL }
#define OUTU(i, sym, name, min, max, unit) \
  { sym, name, i, CONTROL_OUT, 0, min, max, 0, unit, NULL, NULL }
#define IN(i, sym, name, def, min, max, unit, props, points) \
  { sym, name, i, CONTROL_IN, def, min, max, props, unit, points, NULL }
// The loop (Mod, Mod CV, Motion), with its rdfs:comment.
#define LOOP(i) \
  { "loop_beats", "Loop (song beats)", i, CONTROL_IN, 0, 0, 1024, INT, BEAT, \
    loop_points, "With the song beats clock the output repeats every this " \
    "many beats, exactly and without a step (rates and octaves snap to " \
    "whole cells per loop); it does nothing with song time or free " \
    "running.  0 is off." }
// The Noise's loop (song clock, beats at the song's tempo).
#define NOISE_LOOP(i) \
  { "loop_beats", "Loop (song beats)", i, CONTROL_IN, 0, 0, 1024, INT, BEAT, \
    loop_points, "With the song clock the sound repeats every this many " \
    "beats at the tempo of the song, exactly (grain, evolve, gusts, grit, " \
    "events and the high-pass follow the loop); it does nothing free " \
    "running.  0 is off." }
// clang-format on

#define MIDI_MODE(i, n) \
  IN(i,                 \
     "midi_mode_" #n,   \
     "MIDI mode " #n,   \
     0,                 \
     0,                 \
     2,                 \
     NULL,              \
     INT | ENUM,        \
     midi_mode_points)

/// The ports Perlin4D Mod and Mod CV share: indices 0 to 24.
// clang-format off
#define MOD_COMMON_PORTS                                                     \
  OTHER(0U, "control", "Control", ATOM_IN),                                  \
  OTHER(1U, "midi_out", "MIDI out", MIDI_OUT),                               \
  IN(2U, "clock", "Clock", 0, 0, 2, NULL, INT | ENUM, mod_clock_points),     \
  IN(3U, "rate_hz", "Rate", 0.5f, 0.001f, 50.0f, HZ, LOG, NULL),             \
  IN(4U, "period_beats", "Period", 4.0f, 0.0625f, 256.0f, BEAT, LOG, NULL),  \
  IN(5U, "octaves", "Octaves", 3.0f, 1.0f, 8.0f, NULL, 0, NULL),             \
  IN(6U, "lacunarity", "Lacunarity", 2.0f, 1.5f, 4.0f, NULL, 0, NULL),       \
  IN(7U, "persistence", "Persistence", 0.5f, 0.0f, 1.0f, NULL, 0, NULL),     \
  IN(8U, "spread", "Spread", 1.0f, 0.0f, 1.0f, NULL, 0, NULL),               \
  IN(9U, "morph_x", "Morph X", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),          \
  IN(10U, "morph_y", "Morph Y", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),         \
  IN(11U, "morph_z", "Morph Z", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),         \
  IN(12U, "seed", "Seed", 1, 0, 65535, NULL, INT, NULL),                     \
  IN(13U, "out_min", "Output minimum", 0.0f, -1.0f, 1.0f, NULL, 0, NULL),    \
  IN(14U, "out_max", "Output maximum", 1.0f, -1.0f, 1.0f, NULL, 0, NULL),    \
  IN(15U, "smooth_ms", "Smoothing", 20.0f, 0.0f, 1000.0f, MS, 0, NULL),      \
  IN(16U, "midi_channel", "MIDI channel", 1, 1, 16, NULL, INT, NULL),        \
  IN(17U, "cc_1", "CC 1", 128, 0, 128, NULL, INT, cc_points),                \
  IN(18U, "cc_2", "CC 2", 128, 0, 128, NULL, INT, cc_points),                \
  IN(19U, "cc_3", "CC 3", 128, 0, 128, NULL, INT, cc_points),                \
  IN(20U, "cc_4", "CC 4", 128, 0, 128, NULL, INT, cc_points),                \
  OUT(21U, "out_1", "Out 1", CONTROL_OUT),                                   \
  OUT(22U, "out_2", "Out 2", CONTROL_OUT),                                   \
  OUT(23U, "out_3", "Out 3", CONTROL_OUT),                                   \
  OUT(24U, "out_4", "Out 4", CONTROL_OUT),
// clang-format on

/// Perlin4D Mod: the shared ports, then what was appended.
static const P4dTtlPort mod_ports[] = {
  // clang-format off
  MOD_COMMON_PORTS
  MIDI_MODE(25U, 1), MIDI_MODE(26U, 2), MIDI_MODE(27U, 3), MIDI_MODE(28U, 4),
  LOOP(29U),
  // clang-format on
};

/// Perlin4D Mod CV: the shared ports, the CV outputs, then what was
/// appended.
static const P4dTtlPort mod_cv_ports[] = {
  // clang-format off
  MOD_COMMON_PORTS
  OUT(25U, "cv_1", "CV 1", CV_OUT),
  OUT(26U, "cv_2", "CV 2", CV_OUT),
  OUT(27U, "cv_3", "CV 3", CV_OUT),
  OUT(28U, "cv_4", "CV 4", CV_OUT),
  MIDI_MODE(29U, 1), MIDI_MODE(30U, 2), MIDI_MODE(31U, 3), MIDI_MODE(32U, 4),
  LOOP(33U),
  // clang-format on
};

static const P4dTtlPort noise_ports[] = {
  // clang-format off
  OTHER(0U, "control", "Control", ATOM_IN),
  OTHER(1U, "out_l", "Left", AUDIO_OUT),
  OTHER(2U, "out_r", "Right", AUDIO_OUT),
  IN(3U, "level_db", "Level", -12.0f, -90.0f, 0.0f, DB, 0, NULL),
  IN(4U, "grain_hz", "Grain", 1000.0f, 20.0f, 20000.0f, HZ, LOG, NULL),
  IN(5U, "octaves", "Octaves", 6.0f, 1.0f, 10.0f, NULL, 0, NULL),
  IN(6U, "lacunarity", "Lacunarity", 2.0f, 1.5f, 4.0f, NULL, 0, NULL),
  IN(7U, "persistence", "Persistence", 0.5f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(8U, "evolve_hz", "Evolve", 0.5f, 0.0f, 20.0f, HZ, 0, NULL),
  IN(9U, "width", "Width", 1.0f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(10U, "morph_x", "Morph X", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(11U, "morph_y", "Morph Y", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(12U, "morph_z", "Morph Z", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(13U, "seed", "Seed", 1, 0, 65535, NULL, INT, NULL),
  IN(14U, "clock", "Clock", 0, 0, 1, NULL, INT | ENUM, noise_clock_points),
  IN(15U, "gust_db", "Gust depth", 0.0f, 0.0f, 24.0f, DB, 0, NULL),
  IN(16U, "gust_hz", "Gust rate", 0.5f, 0.02f, 5.0f, HZ, LOG, NULL),
  IN(17U, "grit", "Grit", 0.0f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(18U, "events", "Events", 0, 0, 3, NULL, INT | ENUM, noise_events_points),
  IN(19U, "event_hz", "Event rate", 10.0f, 0.02f, 200.0f, HZ, LOG, NULL),
  NOISE_LOOP(20U),
  // clang-format on
};

static const P4dTtlPoint motion_filter_points[] = {
  { 0, "Off" },       { 1, "Low pass" }, { 2, "Band pass" },
  { 3, "High pass" }, { 0, NULL },
};

static const P4dTtlPoint motion_turntable_points[] = {
  { 0, "Off" },    { 1, "33 1/3 rpm" }, { 2, "45 rpm" },
  { 3, "78 rpm" }, { 0, NULL },
};

#define FRAME LV2_UNITS__frame

/// Perlin4D Motion, new since 0.2.0: frozen from its first release on.
static const P4dTtlPort motion_ports[] = {
  // clang-format off
  OTHER(0U, "control", "Control", ATOM_IN),
  OTHER(1U, "in_l", "Left in", AUDIO_IN),
  OTHER(2U, "in_r", "Right in", AUDIO_IN),
  OTHER(3U, "out_l", "Left out", AUDIO_OUT),
  OTHER(4U, "out_r", "Right out", AUDIO_OUT),
  IN(5U, "clock", "Clock", 0, 0, 2, NULL, INT | ENUM, mod_clock_points),
  IN(6U, "rate_hz", "Rate", 0.5f, 0.001f, 50.0f, HZ, LOG, NULL),
  IN(7U, "period_beats", "Period", 4.0f, 0.0625f, 256.0f, BEAT, LOG, NULL),
  IN(8U, "octaves", "Octaves", 3.0f, 1.0f, 8.0f, NULL, 0, NULL),
  IN(9U, "lacunarity", "Lacunarity", 2.0f, 1.5f, 4.0f, NULL, 0, NULL),
  IN(10U, "persistence", "Persistence", 0.5f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(11U, "morph_x", "Morph X", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(12U, "morph_y", "Morph Y", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(13U, "morph_z", "Morph Z", 0.0f, -16.0f, 16.0f, NULL, 0, NULL),
  IN(14U, "seed", "Seed", 1, 0, 65535, NULL, INT, NULL),
  IN(15U, "smooth_ms", "Smoothing", 20.0f, 0.0f, 1000.0f, MS, 0, NULL),
  IN(16U, "spread", "Stereo spread", 0.3f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(17U, "gain_db", "Gain depth", 3.0f, 0.0f, 24.0f, DB, 0, NULL),
  IN(18U, "pan_depth", "Pan depth", 0.0f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(19U, "width", "Width", 1.0f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(20U, "filter_mode", "Filter", 0, 0, 3, NULL, INT | ENUM,
     motion_filter_points),
  IN(21U, "cutoff_hz", "Cutoff", 1000.0f, 20.0f, 20000.0f, HZ, LOG, NULL),
  IN(22U, "filter_oct", "Filter depth", 1.0f, 0.0f, 6.0f, NULL, 0, NULL),
  IN(23U, "resonance", "Resonance", 0.2f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(24U, "wow_ms", "Wow depth", 0.0f, 0.0f, 10.0f, MS, 0, NULL),
  IN(25U, "flutter_ratio", "Flutter rate ratio", 12.0f, 2.0f, 64.0f, NULL,
     LOG, NULL),
  IN(26U, "flutter_ms", "Flutter depth", 0.0f, 0.0f, 2.0f, MS, 0, NULL),
  IN(27U, "mix", "Mix", 1.0f, 0.0f, 1.0f, NULL, 0, NULL),
  IN(28U, "output_db", "Output", 0.0f, -24.0f, 12.0f, DB, 0, NULL),
  IN(29U, "enabled", "Enabled", 1, 0, 1, NULL, INT | TOGGLED | ENABLED, NULL),
  OUTU(30U, "gain_now", "Gain now", -24.0f, 0.0f, DB),
  OUTU(31U, "pan_now", "Pan now", -1.0f, 1.0f, NULL),
  OUTU(32U, "cutoff_now", "Cutoff now", 20.0f, 20000.0f, HZ),
  OUTU(33U, "wobble_now", "Wobble now", -12.0f, 12.0f, MS),
  { "latency", "Latency", 34U, LATENCY_OUT, 0, 0, 16384, INT, FRAME, NULL,
    NULL },
  LOOP(35U),
  IN(36U, "transport_spread", "Transport stereo spread", 0.0f, 0.0f, 1.0f,
     NULL, 0, NULL),
  IN(37U, "turntable", "Turntable", 0, 0, 3, NULL, INT | ENUM,
     motion_turntable_points),
  // clang-format on
};

#undef MIDI_MODE
#undef MOD_COMMON_PORTS
#undef LOOP
#undef NOISE_LOOP
#undef IN
#undef OUT
#undef OUTU
#undef OTHER

// clang-format off
const P4dTtlPlugin p4d_ttl_plugins[P4D_TTL_N_PLUGINS] = {
  { "urn:perlin4d:mod", "Perlin4D Mod", LV2_CORE__UtilityPlugin,
    mod_ports, 30U, 7U },
  { "urn:perlin4d:mod-cv", "Perlin4D Mod CV", LV2_CORE__UtilityPlugin,
    mod_cv_ports, 34U, 7U },
  { "urn:perlin4d:noise", "Perlin4D Noise", LV2_CORE__GeneratorPlugin,
    noise_ports, 21U, 5U },
  { "urn:perlin4d:motion", "Perlin4D Motion", LV2_CORE__ModulatorPlugin,
    motion_ports, 38U, 6U },
};
// clang-format on

// Ardour's inline display: http://harrisonconsoles.com/lv2/inlinedisplay.
const char* const p4d_ttl_optional_features[] = {
  LV2_CORE__hardRTCapable,
  LV2_URID__map,
  "http://harrisonconsoles.com/lv2/inlinedisplay#queue_draw",
  NULL,
};

const char* const p4d_ttl_extension_data[] = {
  "http://harrisonconsoles.com/lv2/inlinedisplay#interface",
  NULL,
};
