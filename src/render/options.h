// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's command line: one table of options drives both the
  parser and --help.  Values are checked for their form and range here;
  what they mean together (a symbol, a preset, a file) is checked later.
*/

#ifndef P4D_OPTIONS_H
#define P4D_OPTIONS_H

#include "report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// The command line as given.  --set, --seed and --automate may be given
/// any number of times: they stay in argv (see p4d_options_next_setting()).
typedef struct {
  int         argc; ///< The command line, which settings are read from
  char**      argv;
  const char* output;
  const char* input; ///< -i: the sound file Motion processes, or NULL
  const char* plugin;
  const char* format;
  const char* plot;
  const char* preset;
  double      fps;     ///< fps_num / fps_den
  uint32_t    fps_num; ///< --fps as a fraction in lowest terms
  uint32_t    fps_den;
  bool        fps_given; ///< --fps was given (CSV rows, picture frames)
  uint32_t    width;     ///< --size: pictures' pixels
  uint32_t    height;
  bool        size_given;
  int         compression; ///< --compression: a zlib level, or -1
  const char* terrain;     ///< --terrain: unity, unreal, godot, or NULL
  double      height_min;  ///< --height-range: level 0's height (default 0)
  double      height_max;  ///< ... level 65535's (default 1)
  const char* height_unit; ///< --height-unit: m (default), cm, mm, km, ft
  double      pixel_size;  ///< --pixel-size: between samples, in the unit
  const char* hillshade;   ///< --hillshade: a shaded-relief PNG, or NULL
  double      light_azimuth_deg;  ///< --light: clockwise from north (315)
  double      light_altitude_deg; ///< ... above the horizon (45)
  double      tempo_bpm;
  bool        tempo_given; ///< --tempo was given (it applies to beats only)
  double      start_s;
  double      duration_s;
  const char* duration_arg; ///< --duration as given, to name it in errors
  double      sample_rate_hz;
  bool        samplerate_given; ///< --samplerate was given
  unsigned    n_channels;       ///< 0: all
  unsigned    channel;          ///< --channel K: only channel K, 0: none
  unsigned    n_jobs;
  double      tolerance;       ///< --tolerance: keys.h's thinning, 0: none
  bool        tolerance_given; ///< --tolerance was given
  bool        quiet;
  bool        force;
  bool        list_params;
  bool        list_presets;
  bool        help;    ///< --help: print the help, do nothing else
  bool        version; ///< --version: print the version, do nothing else
} P4dOptions;

/// A --set, --seed or --automate as given.
typedef struct {
  const char* option; ///< "--set", "--seed" or "--automate"
  const char* value;  ///< SYMBOL=VALUE, N, or SYMBOL=T:V,...
} P4dSetting;

/// Set every option to its default (--jobs: the number of cores).
void
p4d_options_init(P4dOptions* options);

/**
   Read the command line into options, which p4d_options_init() set.

   Stops at --help or --version (with that flag set).  The options point
   into argv, which must outlive them.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_USAGE with the culprit.
*/
P4dRenderCode
p4d_options_parse(P4dOptions*      options,
                  int              argc,
                  char**           argv,
                  P4dRenderStatus* status);

/**
   Find the next --set or --seed (lanes false) or --automate (lanes true)
   of options, which p4d_options_parse() read, in command-line order.

   @param pos Where to look from: 0 to start, then as this function left
   it.
   @return false past the last.
*/
bool
p4d_options_next_setting(const P4dOptions* options,
                         bool              lanes,
                         int*              pos,
                         P4dSetting*       setting);

/// Print the --help text.
void
p4d_options_print_help(FILE* stream);

/// Print the --version line.
void
p4d_options_print_version(FILE* stream);

/**
   Read len characters of s as a plain decimal number
   ([+-]digits[.digits][e[+-]digits], of any length), finite and in
   [lo, hi].

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_USAGE with no culprit (the
   caller names the option and its value).
*/
P4dRenderCode
p4d_options_number(const char*      s,
                   size_t           len,
                   double           lo,
                   double           hi,
                   double*          out,
                   P4dRenderStatus* status);

#endif // P4D_OPTIONS_H
