// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's command line: bad command lines get one line on
  stderr naming the culprit, nothing on stdout, exit 2 (usage) or 1
  (runtime), and leave no file; every numeric option refuses every kind of
  malformed number; --help, --version; clamped values warn.

  Usage: test_render_args PATH_TO_PERLIN4D_RENDER
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "params.h"

#include "support/cli.h"
#include "support/files.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/// Bad command lines: exit code, the start of the one-line message.
static void
test_bad_input(void)
{
  static const struct {
    const char* args[P4D_PROC_MAX_ARGS];
    int         status;
    const char* message;
  } cases[] = {
    { { "-o", "a.wav", "--duration", "abc" },
      2,
      "--duration 'abc': not a decimal" },
    { { "-o", "a.wav", "--duration", "nan" },
      2,
      "--duration 'nan': not a decimal" },
    { { "-o", "a.wav", "--duration", "inf" },
      2,
      "--duration 'inf': not a decimal" },
    { { "-o", "a.wav", "--duration", "1e309" },
      2,
      "--duration '1e309': number out" },
    { { "-o", "a.wav", "--duration", "-1" },
      2,
      "--duration '-1': out of range" },
    { { "-o", "a.wav", "--duration", "0" },
      2,
      "--duration '0': must be greater" },
    { { "-o", "a.wav", "--duration", "" }, 2, "--duration '': not a decimal" },
    { { "-o", "a.wav", "--duration", "5s" },
      2,
      "--duration '5s': not a decimal" },
    { { "-o", "a.wav", "--duration", "1,5" },
      2,
      "--duration '1,5': not a decimal" },
    { { "-o", "a.wav", "--duration", "0x10" },
      2,
      "--duration '0x10': not a decimal" },
    { { "-o", "a.wav", "--channels", "0" }, 2, "--channels '0': out of range" },
    { { "-o", "a.wav", "--channels", "3" },
      2,
      "--channels '3': more than the plugin" },
    { { "-o", "a.wav", "--channels", "5", "--plugin", "mod" },
      2,
      "--channels '5': out of range" },
    { { "-o", "a.wav", "--channels", "1.5" },
      2,
      "--channels '1.5': not a whole" },
    { { "-o", "a.wav", "--samplerate", "7999" },
      2,
      "--samplerate '7999': out of" },
    { { "-o", "a.wav", "--samplerate", "768001" },
      2,
      "--samplerate '768001': out" },
    { { "-o", "a.wav", "--samplerate", "0" }, 2, "--samplerate '0': out" },
    { { "-o", "a.wav", "--samplerate", "44100.5" },
      2,
      "--samplerate '44100.5': not a whole" },
    { { "-o", "a.wav", "--seed", "-1" }, 2, "--seed '-1': not a whole" },
    { { "-o", "a.wav", "--seed", "65536" }, 2, "--seed '65536': out of" },
    { { "-o", "a.csv", "--fps", "0" }, 2, "--fps '0': out of range" },
    { { "-o", "a.csv", "--fps", "1001" }, 2, "--fps '1001': out of range" },
    { { "-o", "a.wav", "--tempo", "0" }, 2, "--tempo '0': out of range" },
    { { "-o", "a.wav", "--jobs", "0" }, 2, "--jobs '0': out of range" },
    { { "-o", "a.wav", "--jobs", "65" }, 2, "--jobs '65': out of range" },
    { { "-o", "a.wav", "--start", "10000001" },
      2,
      "--start '10000001': out of range" },
    { { "-o", "a.wav", "--duration" }, 2, "--duration: missing value" },
    { { "-o", "a.wav", "--bogus" }, 2, "--bogus: unknown option" },
    { { "--duration", "1" }, 2, "-o: no output file" },
    { { "-o", "" }, 2, "-o '': empty file name" },
    { { "-o", "." }, 2, ".: is a folder" },
    { { "-o", "/" }, 2, "/: is a folder" },
    { { "-o", "missing/a.wav" }, 2, "missing/a.wav: folder does not exist" },
    { { "-o", "/proc/a.wav", "--duration", "0.1" }, 1, "/proc/a.wav: " },
    // The output's temporary file is gone when the plot's cannot be made.
    { { "-o", "a.wav", "--plot", "/proc/p.svg", "--duration", "0.1" },
      1,
      "/proc/p.svg: " },

    // Formats and extensions.
    { { "-o", "a.wav", "--format", "mp3" }, 2, "--format 'mp3': unknown" },
    { { "-o", "a.wav", "--format", "" }, 2, "--format '': unknown" },
    { { "-o", "a.wav", "--format", "wav-pcm8" }, 2, "--format 'wav-pcm8': " },
    { { "-o", "a.flac", "--format", "flac-float" },
      2,
      "--format 'flac-float': " },
    { { "-o", "a.flac", "--format", "float" }, 2, "--format 'float': " },
    { { "-o", "a.flac", "--format", "pcm32" }, 2, "--format 'pcm32': " },
    { { "-o", "a.csv", "--format", "csv-pcm16" }, 2, "--format 'csv-pcm16': " },
    { { "-o", "a.ogg" }, 2, "a.ogg: unknown file extension" },
    { { "-o", "a.mp3", "--duration", "1" }, 2, "a.mp3: unknown file" },
    { { "-o", "noext" }, 2, "noext: unknown file extension" },

    // Keyframes (issue 22): channels that do not exist, a rate of 0, a
    // range of length 0, a negative tolerance, unwritable paths.
    { { "-o", "a.json", "--plugin", "mod", "--channel", "5" },
      2,
      "--channel '5': out of range" },
    { { "-o", "a.json", "--channel", "0" }, 2, "--channel '0': out of range" },
    { { "-o", "a.json", "--channel", "3" },
      2,
      "--channel '3': the plugin has no such channel" },
    { { "-o", "a.ae", "--plugin", "mod", "--channel", "2", "--channels", "2" },
      2,
      "--channel '2': give --channel or --channels, not both" },
    { { "-o", "a.chan", "--fps", "0" }, 2, "--fps '0': out of range" },
    { { "-o", "a.json", "--duration", "0" },
      2,
      "--duration '0': must be greater" },
    { { "-o", "a.ae", "--duration", "1e-9" },
      2,
      "--duration '1e-9': shorter than one frame" },
    { { "-o", "a.json", "--tolerance", "-1" },
      2,
      "--tolerance '-1': out of range" },
    { { "-o", "a.json", "--format", "ae-pcm16" }, 2, "--format 'ae-pcm16': " },
    { { "-o", "missing/a.chan" }, 2, "missing/a.chan: folder does not exist" },
    { { "-o", "/proc/a.json", "--duration", "0.1" }, 1, "/proc/a.json: " },
    { { "-o", "/proc/a.ae", "--duration", "0.1" }, 1, "/proc/a.ae: " },
    { { "-o", "/proc/a.chan", "--duration", "0.1" }, 1, "/proc/a.chan: " },
    { { "-o", "/proc/a.csv", "--tolerance", "0.1", "--duration", "0.1" },
      1,
      "/proc/a.csv: " },

    // Parameters.
    { { "-o", "a.wav", "--set", "bogus=1" },
      2,
      "--set 'bogus=1': unknown parameter (valid: level_db, " },
    { { "-o", "a.wav", "--set", "rate_hz=1" },
      2,
      "--set 'rate_hz=1': unknown parameter" },
    { { "-o", "a.wav", "--plugin", "mod", "--set", "level_db=1" },
      2,
      "--set 'level_db=1': unknown parameter (valid: clock, " },
    { { "-o", "a.wav", "--set", "level_db" },
      2,
      "--set 'level_db': expected SYMBOL=VALUE" },
    { { "-o", "a.wav", "--set", "=1" }, 2, "--set '=1': unknown parameter" },
    { { "-o", "a.wav", "--set", "level_db=" }, 2, "--set 'level_db=': " },
    { { "-o", "a.wav", "--set", "level_db=nan" }, 2, "--set 'level_db=nan': " },
    { { "-o", "a.wav", "--set", "level_db=-6dB" },
      2,
      "--set 'level_db=-6dB': " },

    // Automation lanes.
    { { "-o", "a.wav", "--automate", "level_db=" },
      2,
      "--automate 'level_db=': " },
    { { "-o", "a.wav", "--automate", "level_db" },
      2,
      "--automate 'level_db': " },
    { { "-o", "a.wav", "--automate", "level_db=0" },
      2,
      "--automate 'level_db=0': " },
    { { "-o", "a.wav", "--automate", "level_db=x:0" },
      2,
      "--automate 'level_db=x:0': " },
    { { "-o", "a.wav", "--automate", "level_db=-1:0" },
      2,
      "--automate 'level_db=-1:0': " },
    { { "-o", "a.wav", "--automate", "level_db=1s:0" },
      2,
      "--automate 'level_db=1s:0': " },
    { { "-o", "a.wav", "--automate", "level_db=0:" },
      2,
      "--automate 'level_db=0:': " },
    { { "-o", "a.wav", "--automate", "level_db=0:0,2:-6,1:-3" },
      2,
      "--automate 'level_db=0:0,2:-6,1:-3': times must not go back" },
    { { "-o", "a.wav", "--automate", "bogus=0:0" },
      2,
      "--automate 'bogus=0:0': unknown parameter" },
    { { "-o", "a.wav", "--automate", "level_db=0:0," },
      2,
      "--automate 'level_db=0:0,': " },
    { { "-o", "a.wav", "--automate", "level_db=0:0,,1:-6" },
      2,
      "--automate 'level_db=0:0,,1:-6': " },
    { { "-o",
        "a.wav",
        "--automate",
        "level_db=0:0",
        "--automate",
        "level_db=1:-6" },
      2,
      "--automate 'level_db=1:-6': " },

    // Plugins and presets.
    { { "-o", "a.wav", "--plugin", "bogus" },
      2,
      "--plugin 'bogus': unknown plugin" },
    { { "-o", "a.wav", "--plugin", "" }, 2, "--plugin '': unknown plugin" },
    { { "-o", "a.wav", "--preset", "nosuch" },
      2,
      "--preset 'nosuch': no such preset" },
    { { "-o", "a.wav", "--preset", "urn:perlin4d:preset:nosuch" },
      2,
      "--preset 'urn:perlin4d:preset:nosuch': " },
    { { "-o", "a.wav", "--preset", "./nosuch.ttl" },
      2,
      "--preset './nosuch.ttl': " },
    { { "-o", "a.wav", "--preset", "" }, 2, "--preset '': " },
    { { "-o", "a.wav", "--plugin", "mod", "--preset", "wind" },
      2,
      "--preset 'wind': is not a preset of this plugin" },
    { { "-o", "a.wav", "--plugin", "noise", "--preset", "slow-drift" },
      2,
      "--preset 'slow-drift': is not a preset of this plugin" },

    // Plots.
    { { "-o", "a.wav", "--plot", "a.png" },
      2,
      "--plot 'a.png': the plot must be a .svg" },
    { { "-o", "a.wav", "--plot", ".svg" }, 2, "--plot '.svg': " },
    { { "-o", "a.svg", "--format", "csv", "--plot", "a.svg" },
      2,
      "--plot 'a.svg': is the output file" },
    { { "-o", "a.wav", "--plot", "missing/p.svg" },
      2,
      "missing/p.svg: folder does not exist" },
  };

  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    p4d_cli_refused(cases[i].args, cases[i].status, cases[i].message, 0U);
  }
  printf("# %zu bad command lines refused\n", sizeof(cases) / sizeof(cases[0]));
}

/// Every numeric option against every kind of malformed number.
static void
test_bad_numbers(void)
{
  static const char* const options[] = {
    "--duration", "--start", "--samplerate", "--fps",     "--tempo",
    "--jobs",     "--seed",  "--channels",   "--channel", "--tolerance"
  };
  static const char* const values[] = { "",    "1e309", "nan",  "inf",     "-1",
                                        "5s",  "1,5",   "0x10", " 5",      "5 ",
                                        "+-1", "1e",    ".",    "infinity" };
  unsigned                 n        = 0U;
  for (size_t o = 0U; o < sizeof(options) / sizeof(options[0]); ++o) {
    for (size_t v = 0U; v < sizeof(values) / sizeof(values[0]); ++v) {
      const char* const args[] = { "-o", "a.csv", options[o], values[v], NULL };
      char              message[128];
      snprintf(message, sizeof(message), "%s '%s': ", options[o], values[v]);
      p4d_cli_refused(args, 2, message, 0U);
      ++n;
    }
  }
  printf("# %u malformed numbers refused\n", n);
}

/// Every option that takes a value, given none.
static void
test_missing_values(void)
{
  static const char* const options[] = {
    "-o",       "--output",  "--plugin",   "--format",     "--plot",
    "--preset", "--set",     "--automate", "--seed",       "--fps",
    "--tempo",  "--start",   "--duration", "--samplerate", "--channels",
    "--jobs",   "--channel", "--tolerance"
  };
  for (size_t o = 0U; o < sizeof(options) / sizeof(options[0]); ++o) {
    const char* const args[] = { "-o", "a.wav", options[o], NULL };
    char              message[64];
    snprintf(message, sizeof(message), "%s: missing value", options[o]);
    p4d_cli_refused(args, 2, message, 0U);
  }
}

/// An unknown symbol's message lists every valid symbol of the plugin.
static void
test_unknown_symbol_lists_all(void)
{
  for (int k = 0; k < 2; ++k) {
    const P4dKind        kind   = k ? P4D_KIND_MOD : P4D_KIND_NOISE;
    const P4dParamTable* table  = p4d_params(kind);
    const char* const    args[] = {
         "-o", "a.wav", "--plugin", k ? "mod" : "noise", "--set", "nosuch=1", NULL
    };
    const P4dProcResult r = p4d_cli_run(args, P4D_PROC_PLAIN);
    assert(r.status == 2 && p4d_count_lines(r.err) == 1U);
    for (uint32_t i = 0U; i < table->n_params; ++i) {
      char item[40];
      snprintf(item, sizeof(item), " %s", table->params[i].symbol);
      const char* at = strstr(r.err, item);
      assert(at && (at[strlen(item)] == ',' || at[strlen(item)] == ')'));
    }
    assert(p4d_work_count() == 0U);
  }
}

/// Refusals that need files in the work folder.
static void
test_bad_paths(void)
{
  // An output or a plot that is a folder.
  assert(!mkdir(p4d_work_path("d.wav"), 0755));
  assert(!mkdir(p4d_work_path("d.svg"), 0755));
  static const char* const folder[]  = { "-o", "d.wav", NULL };
  static const char* const plotdir[] = {
    "-o", "a.wav", "--plot", "d.svg", NULL
  };
  static const char* const forced[] = { "-o", "d.wav", "--force", NULL };
  p4d_cli_refused(folder, 2, "d.wav: is a folder", 2U);
  p4d_cli_refused(forced, 2, "d.wav: is a folder", 2U);
  p4d_cli_refused(plotdir, 2, "d.svg: is a folder", 2U);
  p4d_work_clear();

  // Existing outputs are refused without --force, and left alone.
  p4d_work_write("old.wav", "old");
  p4d_work_write("old.svg", "old");
  static const char* const again[]      = { "-o", "old.wav", NULL };
  static const char* const plot_again[] = {
    "-o", "new.wav", "--plot", "old.svg", NULL
  };
  p4d_cli_refused(again, 2, "old.wav: exists", 2U);
  p4d_cli_refused(plot_again, 2, "old.svg: exists", 2U);
  size_t size = 0U;
  char*  text = p4d_work_read("old.wav", &size);
  assert(size == 3U && !strcmp(text, "old"));
  free(text);
  text = p4d_work_read("old.svg", &size);
  assert(size == 3U && !strcmp(text, "old"));
  free(text);
  p4d_work_clear();
}

static void
test_help_and_version(void)
{
  static const char* const help[]    = { "--help", NULL };
  static const char* const version[] = { "--version", NULL };

  const P4dProcResult h = p4d_cli_run(help, P4D_PROC_PLAIN);
  assert(h.status == 0 && h.err[0] == '\0' && strstr(h.out, "Usage:"));

  const P4dProcResult v = p4d_cli_run(version, P4D_PROC_PLAIN);
  assert(v.status == 0 && v.err[0] == '\0' &&
         strstr(v.out, "perlin4d-render "));
  assert(p4d_work_count() == 0U);
}

/// An out-of-range value is clamped with a one-line warning.
static void
test_warnings(void)
{
  static const char* const loud[] = { "-o",           "loud.wav",   "--set",
                                      "level_db=10",  "--duration", "0.2",
                                      "--samplerate", "8000",       NULL };
  const P4dProcResult      r      = p4d_cli_run(loud, P4D_PROC_PLAIN);
  assert(r.status == 0 && r.out[0] == '\0');
  assert(p4d_count_lines(r.err) == 1U);
  assert(!strncmp(r.err, "perlin4d-render: warning: ", 26U));
  assert(strstr(r.err, "level_db"));
  assert(p4d_work_exists("loud.wav"));

  // ... and renders the clamped value.
  static const char* const top[] = { "-o",           "top.wav",    "--set",
                                     "level_db=0",   "--duration", "0.2",
                                     "--samplerate", "8000",       NULL };
  p4d_cli_ok(top, NULL);
  assert(p4d_work_same("loud.wav", "top.wav"));

  // Each clamped point of a lane warns.
  static const char* const lane[] = { "-o",         "lane.csv",
                                      "--plugin",   "mod",
                                      "--automate", "out_max=0:2,1:0.5,2:-3",
                                      "--duration", "0.2",
                                      NULL };
  const P4dProcResult      l      = p4d_cli_run(lane, P4D_PROC_PLAIN);
  assert(l.status == 0 && p4d_count_lines(l.err) == 2U);
  assert(p4d_count_substrings(l.err, "perlin4d-render: warning: ") == 2U);
  assert(p4d_work_exists("lane.csv"));

  // A value within range that a float cannot hold exactly (0.3) is no
  // cause for a warning, in a setting or a lane.
  static const char* const inexact[] = {
    "-o",         "inexact.csv", "--plugin",   "mod",
    "--set",      "spread=0.3",  "--automate", "morph_x=0:0.1,1:-2.7",
    "--duration", "0.2",         NULL
  };
  p4d_cli_ok(inexact, NULL);
  assert(p4d_work_exists("inexact.csv"));
  p4d_work_clear();
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_cli_open(argv[1], "args");

  test_bad_input();
  test_bad_numbers();
  test_missing_values();
  test_unknown_symbol_lists_all();
  test_bad_paths();
  test_help_and_version();
  test_warnings();
  p4d_cli_close();
  return 0;
}
