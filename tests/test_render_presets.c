// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's lists and presets: --list-params names every
  parameter, --list-presets every preset, and a preset by label, short
  name, URI or file renders as its values set by hand.

  Usage: test_render_presets PATH_TO_PERLIN4D_RENDER
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "params.h"

#include "support/cli.h"
#include "support/files.h"

#include <sndfile.h>

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// -- Lists and presets -----------------------------------------------------

static void
test_lists(void)
{
  for (int k = 0; k < 2; ++k) {
    const P4dParamTable* table  = p4d_params(k ? P4D_KIND_MOD : P4D_KIND_NOISE);
    const char* const    args[] = {
         "--list-params", "--plugin", k ? "mod" : "noise", NULL
    };
    const P4dProcResult r = p4d_cli_run(args, P4D_PROC_PLAIN);
    assert(r.status == 0 && r.err[0] == '\0');
    for (uint32_t i = 0U; i < table->n_params; ++i) {
      char line[40];
      snprintf(line, sizeof(line), "\n%s ", table->params[i].symbol);
      if (!strstr(r.out, line)) {
        printf("# --list-params: no line for %s\n", table->params[i].symbol);
      }
      assert(strstr(r.out, line));
    }
  }

  static const char* const presets[] = { "--list-presets", NULL };
  const P4dProcResult      r         = p4d_cli_run(presets, P4D_PROC_PLAIN);
  assert(r.status == 0 && r.err[0] == '\0');
  const unsigned n = p4d_count_lines(r.out);
  printf("# --list-presets: %u presets\n", n);
  assert(n >= 8U);
  assert(p4d_count_substrings(r.out, "urn:perlin4d:preset:") == n);
  assert(strstr(r.out, "wind") && strstr(r.out, "slow-drift"));
  assert(p4d_work_count() == 0U);

  // In a fixed order: by plugin (mod, noise, motion, image), then by short
  // name.
  static const char* const kinds[] = { "mod", "noise", "motion", "image" };
  char                     last_name[64] = "";
  unsigned                 last_kind     = 0U;
  for (const char* line = r.out; *line;) {
    char name[64];
    char kind[16];
    assert(sscanf(line, "%63s %15s", name, kind) == 2);
    unsigned k = 0U;
    while (k < 4U && strcmp(kind, kinds[k])) {
      ++k;
    }
    assert(k < 4U && k >= last_kind);
    assert(k > last_kind || strcmp(last_name, name) < 0);
    snprintf(last_name, sizeof(last_name), "%s", name);
    last_kind = k;
    line      = strchr(line, '\n') + 1;
  }
  printf("# --list-presets: by plugin, then by name\n");
}

static void
test_presets(void)
{
  static const char* const common[] = { "--duration", "0.3", NULL };
  static const char* const label[]  = {
     "-o", "l.wav", "--preset", "Wind", NULL
  };
  static const char* const name[] = { "-o", "n.wav", "--preset", "wind", NULL };
  static const char* const uri[]  = {
     "-o", "u.wav", "--preset", "urn:perlin4d:preset:wind", NULL
  };
  static const char* const plain[] = { "-o", "d.wav", NULL };
  p4d_cli_ok(label, common);
  p4d_cli_ok(name, common);
  p4d_cli_ok(uri, common);
  p4d_cli_ok(plain, common);
  assert(p4d_work_same("l.wav", "n.wav") && p4d_work_same("l.wav", "u.wav"));
  assert(!p4d_work_same("l.wav", "d.wav"));

  // A Turtle file: the same as its values set by hand.
  p4d_work_write("p.ttl", p4d_cli_preset_ttl);
  static const char* const file[] = {
    "-o", "f.wav", "--preset", "p.ttl", NULL
  };
  static const char* const hand[] = { "-o",     "h.wav", "--set", "level_db=-6",
                                      "--seed", "7",     NULL };
  p4d_cli_ok(file, common);
  p4d_cli_ok(hand, common);
  assert(p4d_work_same("f.wav", "h.wav"));

  // Without --plugin, the preset's plugin; --set applies on top.
  static const char* const mod[] = {
    "-o", "m.wav", "--preset", "breathing", NULL
  };
  static const char* const both[] = { "-o",  "b.wav",    "--plugin",
                                      "mod", "--preset", "breathing",
                                      NULL };
  static const char* const over[] = { "-o",        "o.wav",  "--preset",
                                      "breathing", "--seed", "77",
                                      NULL };
  p4d_cli_ok(mod, common);
  p4d_cli_ok(both, common);
  p4d_cli_ok(over, common);
  SF_INFO      info = { 0 };
  float* const x    = p4d_cli_read_frames("m.wav", &info);
  assert(info.channels == 4);
  free(x);
  assert(p4d_work_same("m.wav", "b.wav"));
  assert(!p4d_work_same("m.wav", "o.wav"));
  p4d_work_clear();
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_cli_open(argv[1], "presets");

  test_lists();
  test_presets();
  p4d_cli_close();
  return 0;
}
