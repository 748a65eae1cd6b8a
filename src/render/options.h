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
#include <stdio.h>

/// At most this many --set (with --seed) and this many --automate.
#define P4D_OPTIONS_MAX_SETTINGS 64U

/// The command line as given.
typedef struct {
  const char* output;
  const char* plugin;
  const char* format;
  const char* plot;
  const char* preset;
  const char* settings[P4D_OPTIONS_MAX_SETTINGS]; ///< SYMBOL=VALUE
  unsigned    n_settings;
  const char* lanes[P4D_OPTIONS_MAX_SETTINGS]; ///< SYMBOL=T:V,...
  unsigned    n_lanes;
  double      fps;
  double      tempo_bpm;
  double      start_s;
  double      duration_s;
  const char* duration_arg; ///< --duration as given, to name it in errors
  double      sample_rate_hz;
  unsigned    n_channels; ///< 0: all
  unsigned    n_jobs;
  bool        quiet;
  bool        force;
  bool        list_params;
  bool        list_presets;
  bool        help;    ///< --help: print the help, do nothing else
  bool        version; ///< --version: print the version, do nothing else
  char        seeds[P4D_OPTIONS_MAX_SETTINGS][32]; ///< --seed N as seed=N
} P4dOptions;

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

/// Print the --help text.
void
p4d_options_print_help(FILE* stream);

/// Print the --version line.
void
p4d_options_print_version(FILE* stream);

/**
   Read len characters of s as a plain decimal number
   ([+-]digits[.digits][e[+-]digits]), finite and in [lo, hi].

   @return NULL on success, else the reason.
*/
const char*
p4d_options_number(const char* s,
                   size_t      len,
                   double      lo,
                   double      hi,
                   double*     out);

#endif // P4D_OPTIONS_H
