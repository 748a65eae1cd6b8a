// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render against a hostile user: preset files that name no
  plugin, hold damaged values, are no regular files or no Turtle at all;
  numbers of any length; more settings and automation points than any
  fixed table holds; options that do not apply to the output.  Each case
  is a row of a table: the input it creates, its arguments, the exit code,
  what stderr holds, and the files it leaves.  A case that hangs is killed
  (after a minute, whatever the load) and fails alone.

  Usage: test_render_hostile PATH_TO_PERLIN4D_RENDER
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "support/cli.h"
#include "support/files.h"

#include <assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// Seconds a case may run: a hang is killed and fails its case.  Each
/// case takes well under a second alone, and many times that on a loaded
/// machine: the limit is far past both, so that only a hang reaches it.
#define TIMEOUT_S 60.0

/// Every case renders this long, to a.wav; a reference to ref.wav.
#define DURATION "0.05"

/// The preset file limit the man page states, in bytes.
#define PRESET_MAX_BYTES (1024L * 1024L)

/// Ten zeros, to write long numbers.
#define D10 "0000000000"

/// The start of every preset file of the table.
#define HEAD                                              \
  "@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n"      \
  "@prefix pset: <http://lv2plug.in/ns/ext/presets#> .\n" \
  "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"

/// A Noise preset whose one port is level_db with the given pset:value.
#define LEVEL(value)                                               \
  HEAD "<> a pset:Preset ; lv2:appliesTo <urn:perlin4d:noise> ;\n" \
       "  lv2:port [ lv2:symbol \"level_db\" ; pset:value " value " ] .\n"

/// What in.ttl, the case's input, is.
typedef enum {
  NO_INPUT,
  TEXT,   ///< A file holding text (size bytes, or up to its NUL)
  BIG,    ///< text after comment lines, one byte more than the limit
  FIFO,   ///< A FIFO nobody writes to
  FOLDER, ///< A folder
  LINK,   ///< A symbolic link to text (a path)
} Input;

typedef struct {
  const char* name;
  Input       input;
  unsigned    size; ///< Bytes of text (0: up to its NUL)
  const char* text;
  unsigned    n_sets;   ///< Put this many "--set level_db=-6" first
  unsigned    n_points; ///< Then an --automate lane of this many points
  const char* args[8];  ///< Then these (and "-o a.wav --duration 0.05")
  int         status;   ///< Exit code
  const char* err;      ///< Its one line on stderr holds this; NULL: silent
  const char* leaves;   ///< The output left, or NULL: none
  const char* same[6];  ///< a.wav must equal what these render, if given
} Case;

static const char noapplies[] =
  "@prefix lv2: <http://lv2plug.in/ns/lv2core#> . "
  "@prefix pset: <http://lv2plug.in/ns/ext/presets#> . "
  "<> a pset:Preset ; lv2:port [ lv2:symbol \"level_db\" ; "
  "pset:value -20.0 ] .\n";

static const char binary[] = "\x7f"
                             "ELF\x02\x01\x01\0\0\0\0\0\x03\0>\0\x01\0\0\0"
                             "\xa0\x61\0\0\0\0\0\0@\0\0\0\0\0\0\0";

// Name, input, its size and text, --set and --automate points generated,
// arguments; exit code, stderr, output left, reference arguments.
// clang-format off
static const Case cases[] = {
  // A preset without lv2:appliesTo: the kind comes from --plugin.
  { "no appliesTo", TEXT, 0, noapplies, 0, 0, { "--preset", "in.ttl" }, 2,
    "perlin4d-render: --preset 'in.ttl': names no plugin", NULL, { 0 } },
  { "no appliesTo, --plugin noise", TEXT, 0, noapplies, 0, 0,
    { "--preset", "in.ttl", "--plugin", "noise" }, 0, NULL, "a.wav",
    { "--set", "level_db=-20" } },
  { "no appliesTo, --plugin mod", TEXT, 0, noapplies, 0, 0,
    { "--preset", "in.ttl", "--plugin", "mod" }, 0,
    "perlin4d-render: warning: --preset 'in.ttl': no parameter 'level_db' "
    "in Perlin4D Mod", "a.wav", { "--plugin", "mod" } },

  // A control character in an argument cannot split the one line.
  { "newline in a name", NO_INPUT, 0, NULL, 0, 0,
    { "--plot", "no\nsuch/x.svg" }, 2,
    "perlin4d-render: no?such/x.svg: folder does not exist", NULL, { 0 } },
  { "escape in a symbol", NO_INPUT, 0, NULL, 0, 0,
    { "--set", "lev\x1b[31mel=3" }, 2,
    "perlin4d-render: --set 'lev?[31mel=3': unknown parameter", NULL,
    { 0 } },

  // Damaged values, in each form, name the port; never 0 dB.
  { "NaN", TEXT, 0, LEVEL("\"NaN\"^^xsd:float"), 0, 0,
    { "--preset", "in.ttl" }, 2,
    "perlin4d-render: --preset 'in.ttl': level_db: \"NaN\" is not a finite",
    NULL, { 0 } },
  { "-INF", TEXT, 0, LEVEL("\"-INF\"^^xsd:float"), 0, 0,
    { "--preset", "in.ttl" }, 2,
    "--preset 'in.ttl': level_db: \"-INF\" is not a finite", NULL, { 0 } },
  { "INF double", TEXT, 0, LEVEL("\"INF\"^^xsd:double"), 0, 0,
    { "--preset", "in.ttl" }, 2,
    "--preset 'in.ttl': level_db: \"INF\" is not a finite", NULL, { 0 } },
  { "1e999", TEXT, 0, LEVEL("-1e999"), 0, 0, { "--preset", "in.ttl" }, 2,
    "--preset 'in.ttl': level_db: \"-1e999\" is not a finite", NULL, { 0 } },
  { "abc", TEXT, 0, LEVEL("\"abc\""), 0, 0, { "--preset", "in.ttl" }, 2,
    "--preset 'in.ttl': level_db: \"abc\" is not a number", NULL, { 0 } },
  { "abc float", TEXT, 0, LEVEL("\"abc\"^^xsd:float"), 0, 0,
    { "--preset", "in.ttl" }, 2,
    "--preset 'in.ttl': level_db: \"abc\" is not a number", NULL, { 0 } },
  { "a string", TEXT, 0, LEVEL("\"-6\""), 0, 0, { "--preset", "in.ttl" }, 2,
    "--preset 'in.ttl': level_db: \"-6\" is a string", NULL, { 0 } },
  { "an IRI", TEXT, 0, LEVEL("<urn:x>"), 0, 0, { "--preset", "in.ttl" }, 2,
    "--preset 'in.ttl': level_db: <urn:x> is not a number", NULL, { 0 } },
  { "a boolean", TEXT, 0, LEVEL("true"), 0, 0, { "--preset", "in.ttl" }, 2,
    "--preset 'in.ttl': level_db: \"true\" is not a number", NULL, { 0 } },
  { "no value", TEXT, 0,
    HEAD "<> a pset:Preset ; lv2:appliesTo <urn:perlin4d:noise> ;\n"
    "  lv2:port [ lv2:symbol \"level_db\" ] .\n", 0, 0,
    { "--preset", "in.ttl" }, 2, "--preset 'in.ttl': level_db: no pset:value",
    NULL, { 0 } },
  { "no symbol", TEXT, 0,
    HEAD "<> a pset:Preset ; lv2:appliesTo <urn:perlin4d:noise> ;\n"
    "  lv2:port [ pset:value -6.0 ] .\n", 0, 0, { "--preset", "in.ttl" }, 2,
    "--preset 'in.ttl': a port has no lv2:symbol", NULL, { 0 } },
  { "a newline in a value", TEXT, 0, LEVEL("\"-6\\n\""), 0, 0,
    { "--preset", "in.ttl" }, 2,
    "--preset 'in.ttl': level_db: \"-6?\" is not a number", NULL, { 0 } },
  { "a newline in a symbol", TEXT, 0,
    HEAD "<> a pset:Preset ; lv2:appliesTo <urn:perlin4d:noise> ;\n"
    "  lv2:port [ lv2:symbol \"level\\ndb\" ; pset:value -6.0 ] .\n", 0, 0,
    { "--preset", "in.ttl" }, 0,
    "perlin4d-render: warning: --preset 'in.ttl': no parameter 'level?db' in "
    "Perlin4D Noise", "a.wav", { "--plugin", "noise" } },
  { "set twice", TEXT, 0,
    HEAD "<> a pset:Preset ; lv2:appliesTo <urn:perlin4d:noise> ;\n"
    "  lv2:port [ lv2:symbol \"level_db\" ; pset:value -6.0 ] ,\n"
    "    [ lv2:symbol \"level_db\" ; pset:value -30.0 ] .\n", 0, 0,
    { "--preset", "in.ttl" }, 2, "--preset 'in.ttl': level_db: set twice",
    NULL, { 0 } },
  { "unknown symbol", TEXT, 0, LEVEL("-6.0 ] , [ lv2:symbol \"bogus\" ; "
    "pset:value 1.0"), 0, 0, { "--preset", "in.ttl" }, 0,
    "perlin4d-render: warning: --preset 'in.ttl': no parameter 'bogus' in "
    "Perlin4D Noise", "a.wav", { "--set", "level_db=-6" } },

  // Only regular files up to 1 MiB are read, nothing else is opened.
  { "/dev/zero", NO_INPUT, 0, NULL, 0, 0, { "--preset", "/dev/zero" }, 2,
    "perlin4d-render: --preset '/dev/zero': not a regular file", NULL, { 0 } },
  { "/dev/null", NO_INPUT, 0, NULL, 0, 0, { "--preset", "/dev/null" }, 2,
    "perlin4d-render: --preset '/dev/null': not a regular file", NULL, { 0 } },
  { "a FIFO", FIFO, 0, NULL, 0, 0, { "--preset", "in.ttl" }, 2,
    "perlin4d-render: --preset 'in.ttl': not a regular file", NULL, { 0 } },
  { "a link to /dev/zero", LINK, 0, "/dev/zero", 0, 0,
    { "--preset", "in.ttl" }, 2,
    "perlin4d-render: --preset 'in.ttl': not a regular file", NULL, { 0 } },
  { "a folder", FOLDER, 0, NULL, 0, 0, { "--preset", "in.ttl" }, 2,
    "perlin4d-render: --preset 'in.ttl': is a folder", NULL, { 0 } },
  { "a folder ./", NO_INPUT, 0, NULL, 0, 0, { "--preset", "./" }, 2,
    "perlin4d-render: --preset './': is a folder", NULL, { 0 } },
  { "over 1 MiB", BIG, 0, LEVEL("-6.0"), 0, 0, { "--preset", "in.ttl" }, 2,
    "perlin4d-render: --preset 'in.ttl': larger than 1 MiB", NULL, { 0 } },

  // Not Turtle: one line, where serd stopped.
  { "malformed", TEXT, 0, "garbage @@@ <\n", 0, 0, { "--preset", "in.ttl" },
    2, "perlin4d-render: --preset 'in.ttl': line 1, column ", NULL, { 0 } },
  { "binary", TEXT, (unsigned)sizeof(binary) - 1U, binary, 0, 0,
    { "--preset", "in.ttl" }, 2,
    "perlin4d-render: --preset 'in.ttl': line 1, column ", NULL, { 0 } },
  { "a control character", TEXT, 0, "@prefi\v", 0, 0,
    { "--preset", "in.ttl" }, 2,
    "perlin4d-render: --preset 'in.ttl': line 1, column ", NULL, { 0 } },
  { "undefined prefix", TEXT, 0,
    "<> a pset:Preset ; lv2:appliesTo <urn:perlin4d:noise> .\n", 0, 0,
    { "--preset", "in.ttl" }, 2,
    "perlin4d-render: --preset 'in.ttl': undefined prefix 'pset:'", NULL,
    { 0 } },

  // Numbers of any length.
  { "100-digit decimal", NO_INPUT, 0, NULL, 0, 0,
    { "--set", "level_db=-6." D10 D10 D10 D10 D10 D10 D10 D10 D10 D10 }, 0,
    NULL, "a.wav", { "--set", "level_db=-6" } },
  { "100-digit seed", NO_INPUT, 0, NULL, 0, 0,
    { "--seed", D10 D10 D10 D10 D10 D10 D10 D10 D10 "000000007" }, 0, NULL,
    "a.wav", { "--seed", "7" } },
  { "30-digit seed", NO_INPUT, 0, NULL, 0, 0,
    { "--seed", D10 D10 "000000001" }, 0, NULL, "a.wav", { "--seed", "1" } },
  { "100-digit time", NO_INPUT, 0, NULL, 0, 0,
    { "--automate", "level_db=0." D10 D10 D10 D10 D10 D10 D10 D10 D10
    "000000001:-6,1:-12" }, 0, NULL, "a.wav",
    { "--automate", "level_db=0:-6,1:-12" } },

  // No fixed tables: nothing is refused or dropped for being one too many.
  { "65 --set", NO_INPUT, 0, NULL, 65, 0, { 0 }, 0, NULL, "a.wav",
    { "--set", "level_db=-6" } },
  { "--seed after 64 --set", NO_INPUT, 0, NULL, 64, 0, { "--seed", "9" }, 0,
    NULL, "a.wav", { "--set", "level_db=-6", "--seed", "9" } },
  { "--seed after 65 --set", NO_INPUT, 0, NULL, 65, 0, { "--seed", "9" }, 0,
    NULL, "a.wav", { "--set", "level_db=-6", "--seed", "9" } },
  { "1025 points", NO_INPUT, 0, NULL, 0, 1025, { 0 }, 0, NULL, "a.wav",
    { 0 } },

  // Options that do not apply say so.
  { "--fps for WAV", NO_INPUT, 0, NULL, 0, 0, { "--fps", "30" }, 0,
    "perlin4d-render: warning: --fps: ", "a.wav", { 0 } },
  { "--tempo for Noise", NO_INPUT, 0, NULL, 0, 0, { "--tempo", "90" }, 0,
    "perlin4d-render: warning: --tempo: ", "a.wav", { 0 } },
  { "--tempo for Mod in song time", NO_INPUT, 0, NULL, 0, 0,
    { "--plugin", "mod", "--tempo", "90", "--set", "clock=2" }, 0,
    "perlin4d-render: warning: --tempo: ", "a.wav", { 0 } },
};
// clang-format on

/// Create the case's input, in.ttl.
static void
make_input(const Case* c)
{
  const char* const path = p4d_work_path("in.ttl");
  switch (c->input) {
  case TEXT: {
    FILE* const f = fopen(path, "wb");
    assert(f);
    const size_t size = c->size ? (size_t)c->size : strlen(c->text);
    assert(fwrite(c->text, 1U, size, f) == size);
    assert(!fclose(f));
    break;
  }
  case BIG: {
    // One long comment line, then the preset: valid Turtle, a byte too long.
    const size_t len = strlen(c->text);
    const size_t pad = (size_t)PRESET_MAX_BYTES + 1U - len;
    char* const  big = (char*)malloc(pad + len + 1U);
    assert(big);
    memset(big, 'x', pad);
    big[0]       = '#';
    big[pad - 1] = '\n';
    memcpy(big + pad, c->text, len + 1U);
    p4d_file_write(path, big);
    free(big);
    struct stat st;
    assert(!stat(path, &st) && st.st_size == PRESET_MAX_BYTES + 1L);
    break;
  }
  case FIFO:
    assert(!mkfifo(path, 0644));
    break;
  case FOLDER:
    assert(!mkdir(path, 0755));
    break;
  case LINK:
    assert(!symlink(c->text, path));
    break;
  default:
    break;
  }
}

/// The arguments of the case: its generated ones, then its own, then the
/// output and the duration (out).  Free the result and *lane.
static const char**
case_args(const Case* c, const char* const* own, const char* out, char** lane)
{
  const char** const args =
    (const char**)calloc(2U * c->n_sets + 16U, sizeof(const char*));
  size_t n = 0U;
  assert(args);
  for (unsigned i = 0U; i < c->n_sets; ++i) {
    args[n++] = "--set";
    args[n++] = "level_db=-6";
  }

  *lane = NULL;
  if (c->n_points) {
    // level_db=0:-6,0.001:-7,...: points a millisecond apart.
    const size_t size = 32U * c->n_points + 16U;
    *lane             = (char*)malloc(size);
    assert(*lane);
    size_t len = (size_t)snprintf(*lane, size, "level_db=");
    for (unsigned i = 0U; i < c->n_points; ++i) {
      len += (size_t)snprintf(*lane + len,
                              size - len,
                              "%s%u.%03u:%d",
                              i ? "," : "",
                              i / 1000U,
                              i % 1000U,
                              -6 - (int)(i % 30U));
    }
    args[n++] = "--automate";
    args[n++] = *lane;
  }

  for (size_t i = 0U; i < 8U && own[i]; ++i) {
    args[n++] = own[i];
  }
  args[n++] = "-o";
  args[n++] = out;
  args[n++] = "--duration";
  args[n++] = DURATION;
  args[n]   = NULL;
  return args;
}

/// The references rendered so far (ref-N.wav), each once: their arguments.
static const char* const* references[16];

/// The file in which the arguments same render, rendered the first time.
static const char*
reference(const char* const* same)
{
  static char name[16][16];
  size_t      i = 0U;
  for (; i < 16U && references[i]; ++i) {
    size_t k = 0U;
    while (k < 6U && same[k] && references[i][k] &&
           !strcmp(same[k], references[i][k])) {
      ++k;
    }
    if (k == 6U || (!same[k] && !references[i][k])) {
      return name[i];
    }
  }
  assert(i < 16U);
  references[i] = same;
  snprintf(name[i], sizeof(name[i]), "ref-%zu.wav", i);

  char*               none = NULL;
  const Case          ref  = { 0 };
  const char** const  args = case_args(&ref, same, name[i], &none);
  const P4dProcResult r    = p4d_cli_run_for(args, TIMEOUT_S);
  free(args);
  assert(r.status == 0 && p4d_work_exists(name[i]));
  return name[i];
}

/// The number of references rendered.
static unsigned
n_references(void)
{
  unsigned n = 0U;
  while (n < 16U && references[n]) {
    ++n;
  }
  return n;
}

/// Run one case; false (with why, as a TAP comment) if it failed.
static bool
run_case(const Case* c)
{
  make_input(c);
  char*               lane = NULL;
  const char** const  args = case_args(c, c->args, "a.wav", &lane);
  const P4dProcResult r    = p4d_cli_run_for(args, TIMEOUT_S);
  free(args);
  free(lane);

  const unsigned n_inputs = c->input != NO_INPUT ? 1U : 0U;
  const unsigned n_lines  = p4d_count_lines(r.err);
  bool           ok       = r.status == c->status && !r.out[0];
  ok = ok && (c->err ? strstr(r.err, c->err) != NULL : !r.err[0]);
  ok = ok && (!c->err || n_lines == 1U);
  ok = ok && (!c->err || !strncmp(r.err, "perlin4d-render: ", 17U));
  for (const char* e = r.err; ok && *e; ++e) {
    ok = (unsigned char)*e >= 0x20U || *e == '\n'; // One line, as printed
  }
  ok =
    ok && p4d_work_count() == n_inputs + (c->leaves ? 1U : 0U) + n_references();
  ok = ok && (!c->leaves || p4d_work_exists(c->leaves));
  if (!ok) {
    printf("# exit %d, %u files, stderr (%u lines): %.300s\n",
           r.status,
           p4d_work_count(),
           n_lines,
           r.err);
  }

  if (ok && c->same[0]) {
    const char* const ref = reference(c->same);
    ok                    = p4d_work_same("a.wav", ref);
    if (!ok) {
      printf("# a.wav is not what %s %s renders\n", c->same[0], c->same[1]);
    }
  }
  if (p4d_work_exists("a.wav")) {
    assert(!unlink(p4d_work_path("a.wav")));
  }
  if (c->input != NO_INPUT) {
    p4d_file_remove_tree(p4d_work_path("in.ttl"));
  }
  return ok;
}

/// A preset of the bundle itself with a damaged value is refused as well,
/// naming the file it lives in.
static bool
bundle_damaged(void)
{
  const char* const program = p4d_cli_sandbox("bin");
  size_t            size    = 0U;
  char* const text = p4d_work_read("bin/lv2/perlin4d.lv2/presets.ttl", &size);
  char* const wind = strstr(text, "<urn:perlin4d:preset:wind>");
  char* const level =
    wind ? strstr(wind, "lv2:symbol \"level_db\" ;\n\t\tpset:value ") : NULL;
  assert(level);
  char* const value =
    level + strlen("lv2:symbol \"level_db\" ;\n\t\tpset:value ");
  char* const end = strchr(value, '\n');
  assert(end);

  char damaged[65536];
  assert(size < sizeof(damaged) - 32U);
  snprintf(damaged,
           sizeof(damaged),
           "%.*s\"NaN\"^^<http://www.w3.org/2001/XMLSchema#float>%s",
           (int)(value - text),
           text,
           end);
  free(text);
  p4d_work_write("bin/lv2/perlin4d.lv2/presets.ttl", damaged);

  static const char* const args[] = { "--preset",   "wind",   "-o", "a.wav",
                                      "--duration", DURATION, NULL };
  p4d_cli_use(program);
  const P4dProcResult r = p4d_cli_run_for(args, TIMEOUT_S);
  p4d_cli_use(NULL);

  const bool ok =
    r.status == 2 && p4d_count_lines(r.err) == 1U &&
    !strncmp(r.err, "perlin4d-render: --preset 'wind': ", 34U) &&
    strstr(r.err, "presets.ttl: level_db: \"NaN\" is not a finite number") &&
    !p4d_work_exists("a.wav");
  if (!ok) {
    printf("# exit %d, stderr: %.300s\n", r.status, r.err);
  }
  p4d_work_clear();
  return ok;
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_cli_open(argv[1], "hostile");

  const size_t n        = sizeof(cases) / sizeof(cases[0]);
  unsigned     n_failed = 0U;
  printf("1..%zu\n", n + 1U);
  for (size_t i = 0U; i < n; ++i) {
    const bool ok = run_case(&cases[i]);
    printf("%s %zu - %s\n", ok ? "ok" : "not ok", i + 1U, cases[i].name);
    n_failed += ok ? 0U : 1U;
  }
  p4d_work_clear();
  const bool ok = bundle_damaged();
  printf(
    "%s %zu - a damaged preset of the bundle\n", ok ? "ok" : "not ok", n + 1U);
  n_failed += ok ? 0U : 1U;

  p4d_cli_close();
  return n_failed ? 1 : 0;
}
