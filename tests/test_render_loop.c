// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The renderer honours loop_beats: Perlin4D Mod's CSV curves with the song
  beats clock repeat every loop, row for row and digit for digit, with
  rates and lacunarities that snap; without the loop they do not.
*/

#undef NDEBUG

#include "support/cli.h"
#include "support/files.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The rows of a CSV file (after the header), each without its time
/// column: pointers into text, which is cut into lines.
static size_t
csv_rows(char* text, char** rows, size_t max)
{
  size_t n    = 0U;
  char*  line = strchr(text, '\n');
  assert(line);
  ++line;
  while (*line && n < max) {
    char* const end = strchr(line, '\n');
    assert(end);
    *end            = '\0';
    char* const sep = strchr(line, ',');
    assert(sep);
    rows[n++] = sep + 1;
    line      = end + 1;
  }
  return n;
}

/// Render a CSV of Mod with the song beats clock at 100 rows a second
/// (120 bpm: 50 rows a beat), with settings, into rows.
static size_t
render_rows(const char* loop,
            const char* period,
            const char* lacunarity,
            char**      text,
            char**      rows,
            size_t      max)
{
  char loop_set[64];
  char period_set[64];
  char lac_set[64];
  snprintf(loop_set, sizeof(loop_set), "loop_beats=%s", loop);
  snprintf(period_set, sizeof(period_set), "period_beats=%s", period);
  snprintf(lac_set, sizeof(lac_set), "lacunarity=%s", lacunarity);
  const char* const args[] = { "-o",    "loop.csv",  "--plugin",   "mod",
                               "--fps", "100",       "--tempo",    "120",
                               "--set", "clock=1",   "--set",      loop_set,
                               "--set", period_set,  "--set",      lac_set,
                               "--set", "octaves=6", "--duration", "9",
                               NULL };
  p4d_cli_ok(args, NULL);
  size_t size = 0U;
  *text       = p4d_work_read("loop.csv", &size);
  p4d_work_clear();
  return csv_rows(*text, rows, max);
}

static void
test_csv_periodic(void)
{
  static const struct {
    const char* loop;
    const char* period;
    const char* lacunarity;
    size_t      rows; ///< Rows per loop: 50 a beat
  } cases[] = {
    { "2", "4", "2", 100U },
    { "3", "0.7", "1.7", 150U },
    { "1", "5", "2.5", 50U },
  };

  enum { MAX = 1000 };
  static char* rows[MAX];
  for (unsigned k = 0U; k < sizeof(cases) / sizeof(cases[0]); ++k) {
    char*        text = NULL;
    const size_t n    = render_rows(
      cases[k].loop, cases[k].period, cases[k].lacunarity, &text, rows, MAX);
    assert(n == 900U);
    const size_t per = cases[k].rows;
    for (size_t i = 0U; i + per < n; ++i) {
      if (strcmp(rows[i], rows[i + per]) != 0) {
        fprintf(stderr, "row %zu: %s != %s\n", i, rows[i], rows[i + per]);
        assert(false);
      }
    }
    printf("# --set loop_beats=%s period_beats=%s lacunarity=%s: the CSV's "
           "%zu rows repeat every %zu\n",
           cases[k].loop,
           cases[k].period,
           cases[k].lacunarity,
           n,
           per);
    free(text);
  }

  // Without the loop the curve does not repeat.
  char*        text = NULL;
  const size_t n    = render_rows("0", "0.7", "1.7", &text, rows, MAX);
  size_t       same = 0U;
  for (size_t i = 0U; i + 150U < n; ++i) {
    same += strcmp(rows[i], rows[i + 150U]) == 0;
  }
  printf("# loop_beats=0: %zu of %zu rows equal the row 3 beats later\n",
         same,
         n - 150U);
  assert(same == 0U);
  free(text);
}

/// A loop without the song beats clock changes nothing, and a warning says
/// so (the render is the one without it).
static void
test_warning(void)
{
  const char* const plain[] = { "-o",         "a.csv", "--plugin", "mod",
                                "--duration", "2",     NULL };
  const char* const loop[]  = { "-o",         "b.csv", "--plugin",
                                "mod",        "--set", "loop_beats=4",
                                "--duration", "2",     NULL };
  p4d_cli_ok(plain, NULL);
  const P4dProcResult r = p4d_cli_run(loop, P4D_PROC_PLAIN);
  assert(r.status == 0);
  assert(strstr(r.err, "loop_beats: ignored: the clock is never song beats"));
  assert(p4d_work_same("a.csv", "b.csv"));
  p4d_work_clear();
  printf("# --set loop_beats=4 with song time: warned, the same CSV\n");
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_cli_open(argv[1], "render_loop");
  test_csv_periodic();
  test_warning();
  p4d_cli_close();
  return 0;
}
