// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The renderer honours loop_beats: Perlin4D Mod's CSV curves with the song
  beats clock repeat every loop, row for row and digit for digit, with
  rates and lacunarities that snap; without the loop they do not.  The
  Noise's sound (song clock, loop in beats at --tempo) repeats every loop
  bit for bit after the first (the high-pass's warm-up), with evolve,
  gusts, grit and events on, from any --start and with any --jobs.
*/

#undef NDEBUG

#include "support/cli.h"
#include "support/compare.h"
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

/// Render the Noise (WAV float) at tempo from start with settings; its
/// frames (interleaved stereo) and their number.
static float*
render_noise(const char* tempo,
             const char* start,
             const char* jobs,
             const char* loop,
             const char* texture,
             sf_count_t* frames)
{
  char loop_set[64];
  snprintf(loop_set, sizeof(loop_set), "loop_beats=%s", loop);
  const char* const args[] = {
    "-o",      "n.wav",    "--plugin",   "noise",       "--tempo", tempo,
    "--start", start,      "--duration", "4",           "--jobs",  jobs,
    "--set",   loop_set,   "--set",      texture,       "--set",   "gust_db=9",
    "--set",   "grit=0.4", "--set",      "evolve_hz=2", NULL
  };
  // Without the loop --tempo is ignored, with a warning; with it, used.
  const P4dProcResult r = p4d_cli_run(args, P4D_PROC_PLAIN);
  assert(r.status == 0);
  assert(strcmp(loop, "0") ? r.err[0] == '\0'
                           : strstr(r.err, "--tempo: ignored") != NULL);
  SF_INFO      info = { 0 };
  float* const f    = p4d_cli_read_frames("n.wav", &info);
  assert(info.channels == 2 && info.samplerate == 48000);
  *frames = info.frames;
  p4d_work_clear();
  return f;
}

static void
test_noise_periodic(void)
{
  static const struct {
    const char* tempo;
    const char* start;
    const char* loop;
    const char* texture;
    size_t      len; ///< Frames per loop at 48 kHz
  } cases[] = {
    { "120", "0", "2", "events=1", 48000U },
    { "100", "0.7", "2", "events=2", 57600U },
    { "200", "13.3", "1", "events=3", 14400U },
  };
  for (unsigned k = 0U; k < sizeof(cases) / sizeof(cases[0]); ++k) {
    sf_count_t   n   = 0;
    sf_count_t   n2  = 0;
    float* const one = render_noise(
      cases[k].tempo, cases[k].start, "1", cases[k].loop, cases[k].texture, &n);
    float* const two = render_noise(cases[k].tempo,
                                    cases[k].start,
                                    "2",
                                    cases[k].loop,
                                    cases[k].texture,
                                    &n2);
    assert(n == n2 && n == 192000);
    for (size_t i = 0U; i < (size_t)n * 2U; ++i) {
      assert(p4d_same_bits(one[i], two[i]));
    }
    const size_t len  = 2U * cases[k].len;
    size_t       same = 0U;
    for (size_t i = len; i + len < (size_t)n * 2U; ++i) {
      same += p4d_same_bits(one[i], one[i + len]) ? 1U : 0U;
    }
    printf("# Noise --tempo %s --start %s loop_beats=%s %s: %zu of %zu "
           "samples after the first loop equal the ones a loop later; "
           "--jobs 1 and 2 the same\n",
           cases[k].tempo,
           cases[k].start,
           cases[k].loop,
           cases[k].texture,
           same,
           (size_t)n * 2U - 2U * len);
    assert(same == (size_t)n * 2U - 2U * len);
    free(one);
    free(two);
  }

  // Without the loop the sound does not repeat.
  sf_count_t   n    = 0;
  float* const f    = render_noise("120", "0", "1", "0", "events=1", &n);
  size_t       same = 0U;
  for (size_t i = 96000U; i + 96000U < (size_t)n * 2U; ++i) {
    same += p4d_same_bits(f[i], f[i + 96000U]) ? 1U : 0U;
  }
  printf("# Noise loop_beats=0: %zu samples equal the ones 2 beats later\n",
         same);
  assert(same < 1000U);
  free(f);
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_cli_open(argv[1], "render_loop");
  test_csv_periodic();
  test_warning();
  test_noise_periodic();
  p4d_cli_close();
  return 0;
}
