// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  libFuzzer target: a preset file given to --preset (preset.c, through
  lilv).  The input is the Turtle file (see corpus/preset/), written to a
  temporary file and loaded with the bundle of the build folder, as
  perlin4d-render in the build folder loads it.  Besides the sanitizers, it
  checks what a loaded preset promises: a plugin kind, and no more values
  than a plugin has parameters, each a finite number with a port symbol.
*/

#define _POSIX_C_SOURCE 200809L

#include "params.h"
#include "preset.h"
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef P4D_FUZZ_EXE
#  error "P4D_FUZZ_EXE: the renderer in the build folder, beside its bundle"
#endif

int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/// The preset file, rewritten for each input: a temporary file removed at
/// once, so that nothing is left behind even by a crash, and read through
/// its descriptor's path in /proc.
static char preset_path[64];
static int  preset_fd = -1;

/// Check the bundle and make the temporary file, or exit.
static void
set_up(void)
{
  // Without the bundle beside the renderer, the loader would silently read
  // another one (installed, or LV2_PATH's): refuse to fuzz that.
  char        manifest[4096];
  const char* slash = strrchr(P4D_FUZZ_EXE, '/');
  const int   len   = slash ? (int)(slash - P4D_FUZZ_EXE) : 1;
  struct stat st;
  snprintf(manifest,
           sizeof(manifest),
           "%.*s/lv2/perlin4d.lv2/manifest.ttl",
           len,
           slash ? P4D_FUZZ_EXE : ".");
  if (stat(manifest, &st) || !S_ISREG(st.st_mode)) {
    fprintf(stderr, "fuzz_preset: %s: build the bundle first\n", manifest);
    exit(1);
  }

  const char* tmp = getenv("TMPDIR");
  char        name[4096];
  snprintf(name,
           sizeof(name),
           "%s/perlin4d-fuzz-XXXXXX",
           tmp && tmp[0] ? tmp : "/tmp");
  preset_fd = mkstemp(name);
  if (preset_fd < 0 || unlink(name)) {
    perror(name);
    exit(1);
  }
  snprintf(preset_path, sizeof(preset_path), "/proc/self/fd/%d", preset_fd);
  if (stat(preset_path, &st)) {
    perror(preset_path);
    exit(1);
  }
}

/// Abort unless values hold what p4d_preset_load() promises.
static void
check_values(const P4dPresetValues* values)
{
  if (!values->kind || !values->kind->name ||
      values->n_values > P4D_MAX_PARAMS) {
    abort();
  }
  // Each parameter of the preset's plugin at most once, each value finite.
  const uint32_t n_params = p4d_kind_params(values->kind)->n_params;
  for (unsigned i = 0U; i < values->n_values; ++i) {
    if (values->params[i] < 0 || (uint32_t)values->params[i] >= n_params ||
        !isfinite(values->values[i])) {
      abort();
    }
    for (unsigned k = 0U; k < i; ++k) {
      if (values->params[k] == values->params[i]) {
        abort();
      }
    }
  }
}

int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  if (preset_fd < 0) {
    set_up();
  }
  if (ftruncate(preset_fd, 0) ||
      (size && pwrite(preset_fd, data, size, 0) != (ssize_t)size)) {
    perror(preset_path);
    abort();
  }

  P4dPresetValues values;
  P4dRenderStatus status = { 0 };
  memset(&values, 0, sizeof(values));
  // Without --plugin, then as --plugin noise would (a preset naming no
  // plugin takes that kind).  A refused preset is a usage error with a
  // reason.
  if (!p4d_preset_load(preset_path, P4D_FUZZ_EXE, NULL, &values, &status)) {
    check_values(&values);
  } else if (status.code != P4D_RENDER_ERR_USAGE || !status.reason) {
    abort();
  }
  const P4dKindClass* const noise = p4d_kind_by_name("noise");
  memset(&values, 0, sizeof(values));
  if (!p4d_preset_load(preset_path, P4D_FUZZ_EXE, noise, &values, &status)) {
    check_values(&values);
  } else if (status.code != P4D_RENDER_ERR_USAGE || !status.reason) {
    abort();
  }
  return 0;
}
