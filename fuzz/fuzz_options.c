// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  libFuzzer target: perlin4d-render's command line (options.c).  The input
  is the arguments, one a line (see corpus/options/).  Besides the
  sanitizers, it checks what the parser promises: a parsed command line
  holds only values in their documented ranges, and a refused one is a
  usage error (exit 2) with a culprit and a reason.  The raw input also goes
  to the number reader, unterminated, which must not read past its length.
*/

#include "fuzz_args.h"
#include "options.h"
#include "report.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/// Read len bytes of s as a number in [lo, hi]; abort if a number is
/// accepted outside it.
static void
check_number(const char* s, size_t len, double lo, double hi)
{
  double          v      = NAN;
  P4dRenderStatus status = { 0 };
  if (!p4d_options_number(s, len, lo, hi, &v, &status) &&
      !(v >= lo && v <= hi)) {
    abort();
  }
}

static bool
in(double v, double lo, double hi)
{
  return v >= lo && v <= hi;
}

/// Abort unless the options, parsed from size bytes, hold what the parser
/// promises.
static void
check_options(const P4dOptions* o, size_t size)
{
  if (!in(o->fps, 1.0, 1000.0) || !in(o->tempo_bpm, 1.0, 999.0) ||
      !in(o->start_s, 0.0, 1.0e7) ||
      !(o->duration_s > 0.0 && o->duration_s <= 1.0e7) ||
      !in(o->sample_rate_hz, 8000.0, 768000.0) || o->n_channels > 4U ||
      o->n_jobs < 1U || o->n_jobs > 64U) {
    abort();
  }
  if (o->plugin && strcmp(o->plugin, "noise") && strcmp(o->plugin, "mod") &&
      strcmp(o->plugin, "motion") && strcmp(o->plugin, "image")) {
    abort();
  }

  // Every stored text is a whole argument: read each to its end, for the
  // sanitizer, and it cannot be longer than that.
  const char* const texts[] = {
    o->output, o->plugin, o->format, o->plot, o->preset,
  };
  for (size_t i = 0U; i < sizeof(texts) / sizeof(texts[0]); ++i) {
    if (texts[i] && strlen(texts[i]) > size) {
      abort();
    }
  }
  // Settings and lanes are read back from the arguments, in order.
  for (int lanes = 0; lanes < 2; ++lanes) {
    P4dSetting s = { NULL, NULL };
    for (int pos = 0; p4d_options_next_setting(o, lanes, &pos, &s);) {
      const bool is_lane = !strcmp(s.option, "--automate");
      if (is_lane != (lanes == 1) || strlen(s.value) > size ||
          (!is_lane && strcmp(s.option, "--set") &&
           strcmp(s.option, "--seed"))) {
        abort();
      }
    }
  }
}

int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  // The number reader, on bytes with no terminator after them.
  char* const raw = (char*)malloc(size ? size : 1U);
  if (!raw) {
    return 0;
  }
  if (size) {
    memcpy(raw, data, size);
  }
  check_number(raw, size, -DBL_MAX, DBL_MAX);
  check_number(raw, size, 0.0, 1.0e7);
  free(raw);

  P4dFuzzArgs args;
  if (!p4d_fuzz_args_new(&args, data, size)) {
    return 0;
  }

  P4dOptions      options;
  P4dRenderStatus status = { 0 };
  p4d_options_init(&options);
  if (!p4d_options_parse(&options, args.argc, args.argv, &status)) {
    check_options(&options, size);
  } else if (status.code != P4D_RENDER_ERR_USAGE || !status.culprit ||
             !status.reason || p4d_report_exit(&status) != P4D_EXIT_USAGE) {
    abort();
  }

  p4d_fuzz_args_free(&args);
  return 0;
}
