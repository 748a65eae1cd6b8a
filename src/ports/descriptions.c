// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "descriptions.h"

#include <stddef.h>
#include <string.h>

/// What one port of the plugins of one kind does.
typedef struct {
  P4dKind     kind;   ///< The engine of the plugins the port belongs to
  const char* symbol; ///< Its lv2:symbol
  const char* text;   ///< What it does, a short Markdown phrase
} P4dDescription;

#define TRANSPORT_TEXT                                                 \
  "atom input: the host transport (`time:Position`: position, tempo, " \
  "speed)"
#define SEED_TEXT "which noise field"
#define LOOP_TEXT                                          \
  "loop length: the output repeats every this many beats " \
  "(song beats only; see [Loops](#loops))"

/*
  Sibling plugins of one kind (Perlin4D Mod and Mod CV) share their rows;
  the rows of a kind follow its ports' order.
*/
static const P4dDescription descriptions[] = {
  { P4D_KIND_MOD, "control", TRANSPORT_TEXT },
  { P4D_KIND_MOD,
    "midi_out",
    "MIDI output: the channels as CC or pitch bend (see [MIDI](#midi))" },
  { P4D_KIND_MOD, "clock", "what drives time" },
  { P4D_KIND_MOD,
    "rate_hz",
    "lattice cells per second (song time, free running)" },
  { P4D_KIND_MOD, "period_beats", "beats per cell (song beats)" },
  { P4D_KIND_MOD,
    "octaves",
    "fBm octaves; fractional values fade the last one in" },
  { P4D_KIND_MOD, "lacunarity", "speed ratio between octaves" },
  { P4D_KIND_MOD,
    "persistence",
    "amplitude ratio between octaves (roughness)" },
  { P4D_KIND_MOD,
    "spread",
    "0: four identical channels, 1: four independent ones" },
  { P4D_KIND_MOD, "morph_x", "where in the noise space the channels are" },
  { P4D_KIND_MOD, "morph_y", "where in the noise space the channels are" },
  { P4D_KIND_MOD, "morph_z", "where in the noise space the channels are" },
  { P4D_KIND_MOD, "seed", SEED_TEXT },
  { P4D_KIND_MOD, "out_min", "output at the bottom of the range" },
  { P4D_KIND_MOD, "out_max", "output at the top (below `out_min` inverts)" },
  { P4D_KIND_MOD, "smooth_ms", "glide time after a change" },
  { P4D_KIND_MOD, "midi_channel", "channel of the MIDI messages" },
  { P4D_KIND_MOD, "cc_1", "CC number channel 1 sends" },
  { P4D_KIND_MOD, "cc_2", "CC number channel 2 sends" },
  { P4D_KIND_MOD, "cc_3", "CC number channel 3 sends" },
  { P4D_KIND_MOD, "cc_4", "CC number channel 4 sends" },
  { P4D_KIND_MOD, "out_1", "control output: channel 1's current value" },
  { P4D_KIND_MOD, "out_2", "control output: channel 2's current value" },
  { P4D_KIND_MOD, "out_3", "control output: channel 3's current value" },
  { P4D_KIND_MOD, "out_4", "control output: channel 4's current value" },
  { P4D_KIND_MOD, "cv_1", "CV output: channel 1 at full rate, optional" },
  { P4D_KIND_MOD, "cv_2", "CV output: channel 2 at full rate, optional" },
  { P4D_KIND_MOD, "cv_3", "CV output: channel 3 at full rate, optional" },
  { P4D_KIND_MOD, "cv_4", "CV output: channel 4 at full rate, optional" },
  { P4D_KIND_MOD, "midi_mode_1", "how channel 1 goes out as MIDI" },
  { P4D_KIND_MOD, "midi_mode_2", "how channel 2 goes out as MIDI" },
  { P4D_KIND_MOD, "midi_mode_3", "how channel 3 goes out as MIDI" },
  { P4D_KIND_MOD, "midi_mode_4", "how channel 4 goes out as MIDI" },
  { P4D_KIND_MOD, "loop_beats", LOOP_TEXT },

  { P4D_KIND_NOISE, "control", TRANSPORT_TEXT },
  { P4D_KIND_NOISE, "out_l", "left audio output" },
  { P4D_KIND_NOISE, "out_r", "right audio output" },
  { P4D_KIND_NOISE,
    "level_db",
    "peak level; without gusts or grit the output never exceeds it" },
  { P4D_KIND_NOISE,
    "grain_hz",
    "lattice cells per second: where the spectrum sits" },
  { P4D_KIND_NOISE, "octaves", "fBm octaves (brightness)" },
  { P4D_KIND_NOISE, "lacunarity", "frequency ratio between octaves" },
  { P4D_KIND_NOISE, "persistence", "amplitude ratio between octaves" },
  { P4D_KIND_NOISE, "evolve_hz", "how fast the texture drifts through space" },
  { P4D_KIND_NOISE, "width", "0: mono, 1: independent left and right" },
  { P4D_KIND_NOISE, "morph_x", "where in the noise space the texture is" },
  { P4D_KIND_NOISE, "morph_y", "where in the noise space the texture is" },
  { P4D_KIND_NOISE, "morph_z", "where in the noise space the texture is" },
  { P4D_KIND_NOISE, "seed", SEED_TEXT },
  { P4D_KIND_NOISE, "clock", "what drives time" },
  { P4D_KIND_NOISE,
    "gust_db",
    "gust depth (0: off): how far gusts swing the level; a gust and a lull "
    "one standard deviation either side are this many dB apart" },
  { P4D_KIND_NOISE,
    "gust_hz",
    "gust rate: gusts come about once every 1/rate seconds" },
  { P4D_KIND_NOISE,
    "grit",
    "(0: off) breaks the noise into sparse, impulsive grains (rain, "
    "crackle); 1 is sparsest" },
  { P4D_KIND_NOISE,
    "events",
    "(0: off) events at random times: 1 drops (onsets under 1 ms, decays "
    "of 5 - 50 ms), 2 waves (a build-up of seconds and a crash), 3 gusts "
    "(irregular swells that brighten)" },
  { P4D_KIND_NOISE,
    "event_hz",
    "events per second on average (drops: the rain's density)" },
  { P4D_KIND_NOISE,
    "loop_beats",
    "loop length: with the song clock the sound repeats every this many "
    "beats at the song's tempo (see [Loops](#loops))" },

  { P4D_KIND_MOTION, "control", TRANSPORT_TEXT },
  { P4D_KIND_MOTION, "in_l", "left audio input" },
  { P4D_KIND_MOTION, "in_r", "right audio input" },
  { P4D_KIND_MOTION, "out_l", "left audio output" },
  { P4D_KIND_MOTION, "out_r", "right audio output" },
  { P4D_KIND_MOTION, "clock", "what drives time (as the Mod)" },
  { P4D_KIND_MOTION,
    "rate_hz",
    "how fast the motion moves (song time, free running)" },
  { P4D_KIND_MOTION,
    "period_beats",
    "one cell of motion per this many beats (song beats)" },
  { P4D_KIND_MOTION, "octaves", "roughness of the curves, as the Mod" },
  { P4D_KIND_MOTION, "lacunarity", "roughness of the curves, as the Mod" },
  { P4D_KIND_MOTION, "persistence", "roughness of the curves, as the Mod" },
  { P4D_KIND_MOTION, "morph_x", "where in the noise space" },
  { P4D_KIND_MOTION, "morph_y", "where in the noise space" },
  { P4D_KIND_MOTION, "morph_z", "where in the noise space" },
  { P4D_KIND_MOTION, "seed", SEED_TEXT },
  { P4D_KIND_MOTION, "smooth_ms", "glide after a control change or a locate" },
  { P4D_KIND_MOTION,
    "spread",
    "0: left and right gain and filter move together; 1: independently "
    "(wow and flutter: `transport_spread`)" },
  { P4D_KIND_MOTION,
    "gain_db",
    "tremolo depth: the gain swings from unity down to -depth" },
  { P4D_KIND_MOTION,
    "pan_depth",
    "(0: off) how far the pan swings (equal power)" },
  { P4D_KIND_MOTION,
    "width",
    "stereo width of the source before panning (0 mono)" },
  { P4D_KIND_MOTION,
    "filter_mode",
    "the filter (a zero-delay-feedback state-variable filter)" },
  { P4D_KIND_MOTION, "cutoff_hz", "the filter's centre cutoff" },
  { P4D_KIND_MOTION,
    "filter_oct",
    "how far the cutoff moves either side, in octaves" },
  { P4D_KIND_MOTION,
    "resonance",
    "Q from 0.5 to 10; low and high pass held to unity at their peak" },
  { P4D_KIND_MOTION,
    "wow_ms",
    "wow (0: off): slow delay swing either side (pitch drift)" },
  { P4D_KIND_MOTION, "flutter_ratio", "flutter's rate over `rate_hz`" },
  { P4D_KIND_MOTION,
    "flutter_ms",
    "flutter (0: off): fast delay swing either side" },
  { P4D_KIND_MOTION, "mix", "dry 0 to wet 1" },
  { P4D_KIND_MOTION, "output_db", "output gain" },
  { P4D_KIND_MOTION,
    "enabled",
    "`lv2:enabled`: the host's bypass; 0 fades to the dry input in 20 ms" },
  { P4D_KIND_MOTION, "gain_now", "the gain now, left side" },
  { P4D_KIND_MOTION, "pan_now", "the pan now: -1 left to 1 right" },
  { P4D_KIND_MOTION, "cutoff_now", "the filter's cutoff now, left side" },
  { P4D_KIND_MOTION,
    "wobble_now",
    "the delay swing of wow and flutter now, left side" },
  { P4D_KIND_MOTION,
    "latency",
    "the delay line's base delay, the same for every setting (592 frames "
    "at 48 kHz)" },
  { P4D_KIND_MOTION,
    "loop_beats",
    "loop length: the motion repeats every this many beats (song beats "
    "only; see [Loops](#loops))" },
  { P4D_KIND_MOTION,
    "transport_spread",
    "the right side's wow and flutter: 0 the left's (one capstan), 1 "
    "independent" },
  { P4D_KIND_MOTION,
    "turntable",
    "the wow as a record's warp, once per turn at this speed (Off: the "
    "Mod's curve)" },

  // The Image: the renderer's parameters only (no plugin has them).
  { P4D_KIND_IMAGE, "clock", "what drives time (as the Mod)" },
  { P4D_KIND_IMAGE,
    "rate_hz",
    "cells of time per second (song time, free running)" },
  { P4D_KIND_IMAGE, "period_beats", "beats per cell of time (song beats)" },
  { P4D_KIND_IMAGE,
    "octaves",
    "fBm octaves; fractional values fade the last one in" },
  { P4D_KIND_IMAGE, "lacunarity", "frequency ratio between octaves" },
  { P4D_KIND_IMAGE,
    "persistence",
    "amplitude ratio between octaves (roughness)" },
  { P4D_KIND_IMAGE,
    "spread",
    "where the Mod's channels sit (the sidecar's positions); the picture "
    "itself does not change" },
  { P4D_KIND_IMAGE, "morph_x", "moves the picture through the field (x)" },
  { P4D_KIND_IMAGE, "morph_y", "moves the picture through the field (y)" },
  { P4D_KIND_IMAGE, "morph_z", "the slice of the field (z)" },
  { P4D_KIND_IMAGE, "seed", SEED_TEXT },
  { P4D_KIND_IMAGE,
    "loop_beats",
    "loop length: frames one loop apart are the same picture (song beats "
    "only)" },
  { P4D_KIND_IMAGE, "scale", "lattice cells across the width (octave 0)" },
  { P4D_KIND_IMAGE, "offset_x", "where the left edge sits, in cells" },
  { P4D_KIND_IMAGE, "offset_y", "where the top edge sits, in cells" },
  { P4D_KIND_IMAGE,
    "tile",
    "1: the picture tiles (whole cells across, every octave wraps)" },
  { P4D_KIND_IMAGE,
    "type",
    "fBm, ridged multifractal, billow, turbulence, veins (marble), hybrid "
    "multifractal or hetero terrain" },
  { P4D_KIND_IMAGE,
    "warp",
    "domain warp: how far the field is pushed, in cells" },
  { P4D_KIND_IMAGE,
    "tone",
    "even (the Mod's map: every tone as often) or linear" },
  { P4D_KIND_IMAGE, "palette", "grey, or a colour map from dark to bright" },
  { P4D_KIND_IMAGE,
    "fractal",
    "0: the Mod's field (octaves scale time only); 1: octaves scale space "
    "too (classic fBm textures)" },
  { P4D_KIND_IMAGE,
    "stretch",
    "how many times taller than wide a cell is drawn (above 1: features "
    "stretched upward, as flames)" },
  { P4D_KIND_IMAGE,
    "basis",
    "the noise: improved 4D (the Mod's), classic 1985 3D (x, y and time) "
    "or classic 2D (x, y: time does not move it)" },
};

const char*
p4d_param_description(P4dKind kind, const char* symbol)
{
  for (size_t i = 0U; i < sizeof(descriptions) / sizeof(descriptions[0]); ++i) {
    if (descriptions[i].kind == kind &&
        !strcmp(descriptions[i].symbol, symbol)) {
      return descriptions[i].text;
    }
  }

  return NULL;
}

const char*
p4d_port_description(const P4dPlugin* plugin, const P4dPort* port)
{
  return p4d_param_description(plugin->kind, p4d_port_symbol(plugin, port));
}
