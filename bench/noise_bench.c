// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  noise-bench: nanoseconds per sample of the noise core on every code path
  this machine has, and each path's ratio to the scalar path in the same
  run.

  Each case renders 2 channels x 48000 samples in blocks of 256, the shape
  a plugin asks for, and reports the median of several repetitions, with the
  paths interleaved so that a noisy neighbour slows them alike.  Two lines:
  along time only at the Noise's default grain (1000 cells per second, the
  Mod's kind of line; also with a periodic time axis, as a loop makes it),
  and the Noise's real default line, which also drifts
  through space (evolve 0.5 Hz).  This is a benchmark, not a test: run it on
  a quiet machine and compare ratios measured in the same run.

  Then, for every path (through P4D_ISA), what users feel: the Mod's
  plugins under lv2bench at their defaults (48 kHz, blocks of 256), and the
  renderer's speed on default stereo noise at 48 kHz, as times real time
  over one minute; the fastest path also renders a whole hour.

  Then the comparisons with the peers, each one table of contenders run
  interleaved (A B A B over --rounds rounds, default 9, the order rotated
  each round, the ratio taken within each round; bench/rounds.h), with the
  minimum and median of the per-round ratios: Perlin4D Noise on every path
  under lv2bench beside LSP's noise generator (Debian lsp-plugins-lv2),
  and Perlin4D Motion with all four targets on every path, in process
  (lv2bench runs a plugin at its default controls only), beside Calf
  Pulsator + Calf Multi Chorus (Debian calf-plugins).  The targets: Noise
  <= 0.5x LSP, Motion <= 1.0x the two Calf plugins.  A peer not installed
  is said so and the rest still runs.  The output starts with the CPU
  model and the code path dispatched.  bench/plugin-callgrind.sh counts
  the same contenders' instructions per frame.
*/

#define _POSIX_C_SOURCE 200809L

#include "../tests/support/basics.h" // p4d_now_s()
#include "image_bench.h"
#include "rounds.h"

#include "isa.h"
#include "motion.h"
#include "noise.h"
#include "params.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N_CHANNELS 2U
#define N_SAMPLES 48000U
#define BLOCK 256U
#define N_REPEATS 9U

#define CALF_PULSATOR_URI "http://calf.sourceforge.net/plugins/Pulsator"
#define CALF_CHORUS_URI "http://calf.sourceforge.net/plugins/MultiChorus"
#define LSP_NOISE_URI "http://lsp-plug.in/plugins/lv2/noise_generator_x1"

typedef enum {
  CASE_POINT,
  CASE_LINE,
  CASE_FBM8,
  CASE_FBM8_LOOP,
  CASE_DRIFT_LINE,
  CASE_DRIFT_FBM6,
  N_CASES
} Case;

static const char* const case_names[N_CASES] = {
  "p4d_noise4, one call per sample", "line along w, 1 octave",
  "line along w, fBm 8 octaves",     "the same in a loop of 1000 cells",
  "Noise default line, 1 octave",    "Noise default line, fBm 6 octaves",
};

static int
compare(const void* a, const void* b)
{
  const double x = *(const double*)a;
  const double y = *(const double*)b;
  return (x > y) - (x < y);
}

/// Keeps the compiler from dropping the work.
static volatile float sink;

static void
render(Case which)
{
  static float block[BLOCK];
  // Grain 1000 Hz at 48 kHz; evolve 0.5 Hz along the Noise's drift.
  const double w_step      = 1000.0 / 48000.0;
  const double drift       = 0.5 / 48000.0;
  const double along_w[4]  = { 0.0, 0.0, 0.0, w_step };
  const double drifting[4] = {
    drift * 0.6, drift * 0.48, drift * 0.64, w_step
  };
  const double* const step  = which >= CASE_DRIFT_LINE ? drifting : along_w;
  const P4dFbm        one   = { 1.0f, 2.0, 0.5f, 0.0 };
  const P4dFbm        six   = { 6.0f, 2.0, 0.5f, 0.0 };
  const P4dFbm        eight = { 8.0f, 2.0, 0.5f, 0.0 };

  for (unsigned c = 0U; c < N_CHANNELS; ++c) {
    const double origin[4] = { 0.371, 0.613 + 3.5 * c, 0.237, 0.0 };
    for (unsigned first = 0U; first < N_SAMPLES; first += BLOCK) {
      switch (which) {
      case CASE_POINT:
        for (unsigned i = 0U; i < BLOCK; ++i) {
          const double t = (double)(first + i);
          block[i]       = p4d_noise4(
            1U, origin[0], origin[1], origin[2], origin[3] + t * step[3]);
        }
        break;
      case CASE_LINE:
      case CASE_DRIFT_LINE:
        p4d_fbm4_span(&one, 1U, origin, step, first, block, BLOCK);
        break;
      case CASE_FBM8:
        p4d_fbm4_span(&eight, 1U, origin, step, first, block, BLOCK);
        break;
      case CASE_FBM8_LOOP:
        // A loop of 1 s (48000 samples, 1000 cells of octave 0): a
        // periodic time axis in every octave (the Mod's loop_beats).
        p4d_fbm4_sum_span_loop(
          &eight, 1000.0, 1U, origin, step, NULL, first, block, BLOCK);
        break;
      case CASE_DRIFT_FBM6:
      case N_CASES:
        p4d_fbm4_span(&six, 1U, origin, step, first, block, BLOCK);
        break;
      }
      sink = block[BLOCK - 1U];
    }
  }
}

/// Run a shell command with P4D_ISA=isa; return its wall time in seconds, or
/// a negative number if it failed.  Its first line of output goes to line.
static double
timed(P4dIsa isa, const char* command, char* line, size_t size)
{
  char full[1024];
  snprintf(full, sizeof(full), "P4D_ISA=%s %s", p4d_isa_name(isa), command);

  const double t0 = p4d_now_s();
  // The benchmark runs the real programs (lv2bench, the renderer) through
  // the shell on purpose.
  FILE* const pipe = popen(full, "r"); // NOLINT(cert-env33-c)
  if (!pipe) {
    return -1.0;
  }
  line[0] = '\0';
  char rest[256];
  if (fgets(line, (int)size, pipe)) {
    while (fgets(rest, sizeof(rest), pipe)) {
    }
  }
  const int    status = pclose(pipe);
  const double t      = p4d_now_s() - t0;
  return status ? -1.0 : t;
}

/// ns per frame of the plugin uri under lv2bench (median of 3), or -1.
static double
plugin_ns(P4dIsa isa, const char* uri)
{
  const unsigned n_frames = 480000U;
  char           command[512];
  snprintf(command,
           sizeof(command),
           "LV2_PATH=%s/..:/usr/lib/lv2 lv2bench -n %u -b 256 %s 2>/dev/null | "
           "tail -n 1",
           P4D_BUNDLE,
           n_frames,
           uri);

  double ns[3];
  for (unsigned r = 0U; r < 3U; ++r) {
    char line[256];
    if (timed(isa, command, line, sizeof(line)) < 0.0 ||
        strstr(line, uri) == NULL) {
      return -1.0;
    }
    ns[r] = strtod(line, NULL) * 1.0e9 / n_frames;
  }
  qsort(ns, 3U, sizeof(double), compare);
  return ns[1];
}

/// Wall seconds to render duration_s of default noise into folder.
static double
render_s(P4dIsa isa, const char* folder, double duration_s)
{
  char command[1024];
  snprintf(
    command,
    sizeof(command),
    "%s --force --quiet --duration %g -o %s/noise.wav && rm %s/noise.wav",
    P4D_RENDER,
    duration_s,
    folder,
    folder);
  char line[256];
  return timed(isa, command, line, sizeof(line));
}

/// A sine of 440 Hz at 48 kHz over 188 blocks, made once before any clock
/// starts (lv2bench's plugins do not pay for their input either), so that
/// a run's cost does not grow with its length but by the processing.
#define SINE_FRAMES (188U * BLOCK)
static float sine[SINE_FRAMES];

/// ns per stereo frame of one run of p4d_motion_process() over n_frames
/// (48 kHz, blocks of 256, the sine in, each block copied in then
/// processed in place as hosts do), on the path in use; all four targets
/// active when all, else the defaults.  -1 if the processor cannot be made.
static double
motion_once(bool all, uint32_t n_frames)
{
  const P4dParamTable* table = p4d_params(P4D_KIND_MOTION);
  float                params[P4D_MOTION_N_PARAMS];
  p4d_param_defaults(table, params);
  if (all) {
    params[P4D_MOTION_GAIN_DB]     = 6.0f;
    params[P4D_MOTION_PAN_DEPTH]   = 0.7f;
    params[P4D_MOTION_FILTER_MODE] = (float)P4D_MOTION_FILTER_LOW_PASS;
    params[P4D_MOTION_FILTER_OCT]  = 2.0f;
    params[P4D_MOTION_WOW_MS]      = 3.0f;
    params[P4D_MOTION_FLUTTER_MS]  = 0.3f;
  }
  if (sine[1] == 0.0f) {
    for (uint32_t i = 0U; i < SINE_FRAMES; ++i) {
      sine[i] = (float)(0.5 * sin(0.0575958653 * i));
    }
  }

  P4dMotion* m = NULL;
  if (p4d_motion_new(48000.0, &m)) {
    return -1.0;
  }
  p4d_motion_activate(m);
  static float       left[BLOCK];
  static float       right[BLOCK];
  float* const       out[2] = { left, right };
  const float* const in[2]  = { left, right };
  const double       t0     = p4d_now_s();
  for (uint32_t first = 0U; first < n_frames; first += BLOCK) {
    const float* const from = sine + first % SINE_FRAMES;
    memcpy(left, from, sizeof(left));
    memcpy(right, from, sizeof(right));
    p4d_motion_process(m, params, in, out, NULL, BLOCK);
    sink = left[BLOCK - 1U];
  }
  const double ns = (p4d_now_s() - t0) * 1.0e9 / n_frames;
  p4d_motion_free(m);
  return ns;
}

/*
  The comparisons: each is one table of contenders (Perlin4D on every
  path, and its peers), run interleaved: A B A B over --rounds rounds, the
  order rotated each round (bench/rounds.h), each ratio taken within its
  round (the row over the sum of the peers), and the minimum and median of
  those ratios printed.  A peer that fails in the first round is reported
  not installed and the others still run.
*/
#define ROUND_FRAMES 240000U
#define MAX_CONTENDERS 8U
#define MAX_ROUNDS 64U
#define DEFAULT_ROUNDS 9U

typedef enum { RUN_LV2, RUN_MOTION_ALL } Run;

typedef struct {
  char        name[48];
  const char* uri;     ///< RUN_LV2: the plugin
  const char* package; ///< a peer's Debian package, or NULL for Perlin4D
  Run         run;
  P4dIsa      isa; ///< P4D_ISA (only Perlin4D reads it)
} Contender;

/// ns per frame of one lv2bench run of uri over ROUND_FRAMES, or -1.
static double
lv2_once(P4dIsa isa, const char* uri)
{
  char command[512];
  snprintf(command,
           sizeof(command),
           "LV2_PATH=%s/..:/usr/lib/lv2 lv2bench -n %u -b 256 %s 2>/dev/null | "
           "tail -n 1",
           P4D_BUNDLE,
           ROUND_FRAMES,
           uri);
  char line[256];
  if (timed(isa, command, line, sizeof(line)) < 0.0 ||
      strstr(line, uri) == NULL) {
    return -1.0;
  }
  return strtod(line, NULL) * 1.0e9 / ROUND_FRAMES;
}

static double
measure(const Contender* c)
{
  if (c->run == RUN_MOTION_ALL) {
    p4d_isa_use(c->isa);
    return motion_once(true, ROUND_FRAMES);
  }
  return lv2_once(c->isa, c->uri);
}

static void
compare_rounds(const char*      title,
               const Contender* c,
               unsigned         n,
               unsigned         n_rounds)
{
  static double ns[MAX_ROUNDS][MAX_CONTENDERS];
  bool          peer[MAX_CONTENDERS];
  bool          missing[MAX_CONTENDERS];
  for (unsigned i = 0U; i < n; ++i) {
    peer[i]    = c[i].package != NULL;
    missing[i] = false;
  }
  for (unsigned r = 0U; r < n_rounds; ++r) {
    for (unsigned k = 0U; k < n; ++k) {
      const unsigned i = p4d_rounds_order(r, n, k);
      ns[r][i]         = missing[i] ? -1.0 : measure(&c[i]);
      missing[i]       = ns[r][i] < 0.0;
    }
  }

  printf("\n%s: %u rounds interleaved, order rotated, %u frames a run, "
         "48 kHz, blocks of 256\n",
         title,
         n_rounds,
         ROUND_FRAMES);
  printf("  %-40s %10s %10s %10s\n", "", "ns/frame", "min ratio", "median");
  for (unsigned i = 0U; i < n; ++i) {
    double   v[MAX_ROUNDS];
    double   ratio[MAX_ROUNDS];
    unsigned n_v = 0U;
    unsigned n_r = 0U;
    for (unsigned r = 0U; r < n_rounds; ++r) {
      if (ns[r][i] >= 0.0) {
        v[n_v++] = ns[r][i];
      }
      const double q = peer[i] ? -1.0 : p4d_rounds_ratio(ns[r], peer, n, i);
      if (q >= 0.0) {
        ratio[n_r++] = q;
      }
    }
    if (n_v == 0U) {
      if (peer[i]) {
        printf("  %-40s not installed (apt-get install %s)\n",
               c[i].name,
               c[i].package);
      } else {
        printf("  %-40s lv2bench failed\n", c[i].name);
      }
      continue;
    }
    printf("  %-40s %10.1f", c[i].name, p4d_rounds_median(v, n_v));
    if (n_r > 0U) {
      const double least = p4d_rounds_min(ratio, n_r);
      printf(" %9.2fx %9.2fx", least, p4d_rounds_median(ratio, n_r));
    }
    printf("\n");
  }
  printf("  (ratio: the row over the peers together, within each round)\n");
}

/// A row of a comparison; name may hold one %s, the path's name.
static Contender
contender(const char* name,
          Run         run,
          const char* uri,
          P4dIsa      isa,
          const char* package)
{
  Contender c = { .uri = uri, .package = package, .run = run, .isa = isa };
  snprintf(c.name, sizeof(c.name), name, p4d_isa_name(isa));
  return c;
}

/// Perlin4D Noise on every path beside LSP's noise generator.
static void
report_noise(const P4dIsa* paths, unsigned n_paths, unsigned n_rounds)
{
  Contender c[MAX_CONTENDERS];
  unsigned  n = 0U;
  for (unsigned p = 0U; p < n_paths && n + 1U < MAX_CONTENDERS; ++p) {
    c[n++] =
      contender("Perlin4D Noise, %s", RUN_LV2, P4D_URI_NOISE, paths[p], NULL);
  }
  c[n++] = contender("LSP noise_generator_x1",
                     RUN_LV2,
                     LSP_NOISE_URI,
                     P4D_ISA_SCALAR,
                     "lsp-plugins-lv2");
  compare_rounds("Perlin4D Noise (defaults, lv2bench) beside LSP "
                 "noise_generator_x1 (target <= 0.5x)",
                 c,
                 n,
                 n_rounds);
}

/// Motion with all four targets on every path beside Calf Pulsator and
/// Calf Multi Chorus (at their defaults under lv2bench, which runs a
/// plugin at its default controls only: Motion runs in process).
static void
report_motion(const P4dIsa* paths, unsigned n_paths, unsigned n_rounds)
{
  Contender c[MAX_CONTENDERS];
  unsigned  n = 0U;
  for (unsigned p = 0U; p < n_paths && n + 3U < MAX_CONTENDERS; ++p) {
    c[n++] = contender(
      "Motion all four (in process), %s", RUN_MOTION_ALL, NULL, paths[p], NULL);
  }
  const P4dIsa best = n_paths ? paths[n_paths - 1U] : P4D_ISA_SCALAR;
  c[n++]            = contender(
    "Motion defaults (lv2bench), %s", RUN_LV2, P4D_URI_MOTION, best, NULL);
  c[n++] = contender("Calf Pulsator",
                     RUN_LV2,
                     CALF_PULSATOR_URI,
                     P4D_ISA_SCALAR,
                     "calf-plugins");
  c[n++] = contender("Calf Multi Chorus",
                     RUN_LV2,
                     CALF_CHORUS_URI,
                     P4D_ISA_SCALAR,
                     "calf-plugins");
  compare_rounds("Perlin4D Motion, stereo, sine in, beside Calf Pulsator + "
                 "Calf Multi Chorus (target <= 1.0x)",
                 c,
                 n,
                 n_rounds);
}

/// The CPU's "model name" from /proc/cpuinfo, or "unknown CPU".
static void
cpu_model(char* out, size_t size)
{
  snprintf(out, size, "unknown CPU");
  FILE* const f = fopen("/proc/cpuinfo", "r");
  if (!f) {
    return;
  }
  char line[256];
  while (fgets(line, sizeof(line), f)) {
    const char* colon = strchr(line, ':');
    if (!strncmp(line, "model name", 10U) && colon) {
      snprintf(out, size, "%s", colon + 2);
      out[strcspn(out, "\n")] = '\0';
      break;
    }
  }
  (void)fclose(f);
}

static void
report_programs(const P4dIsa* paths, unsigned n_paths)
{
  static const char* const uris[] = { P4D_URI_MOD, P4D_URI_MOD_CV };

  printf("\nlv2bench -n 480000 -b 256, defaults, ns per frame (median of 3, "
         "one path after another)\n");
  for (unsigned u = 0U; u < 2U; ++u) {
    printf("  %-36s", uris[u]);
    for (unsigned p = 0U; p < n_paths; ++p) {
      const double ns = plugin_ns(paths[p], uris[u]);
      if (ns < 0.0) {
        printf(" %17s", "lv2bench failed");
      } else {
        printf(" %8.1f         ", ns);
      }
    }
    printf("\n");
  }

  char folder[] = "/tmp/noise-bench-XXXXXX";
  if (!mkdtemp(folder)) {
    printf("  no temporary folder for the renderer\n");
    return;
  }

  printf("\nperlin4d-render, default noise, stereo 48 kHz, --jobs %ld\n",
         sysconf(_SC_NPROCESSORS_ONLN));
  printf("  %-36s", "times real time over 60 s");
  for (unsigned p = 0U; p < n_paths; ++p) {
    const double s = render_s(paths[p], folder, 60.0);
    if (s < 0.0) {
      printf(" %17s", "render failed");
    } else {
      printf(" %8.1f         ", 60.0 / s);
    }
  }
  printf("\n");

  const P4dIsa best = n_paths ? paths[n_paths - 1U] : P4D_ISA_SCALAR;
  const double hour = render_s(best, folder, 3600.0);
  printf("  one hour on %s: %.2f s wall\n", p4d_isa_name(best), hour);
  rmdir(folder);
}

/*
  The core's image rows (--rows [frames] [path]): a 512 x 512 frame of
  6-octave fBm (lacunarity 2, persistence 0.5, 4 cells across at octave 0),
  each row a line along x with y, z and w fixed, as the Image engine
  renders it; milliseconds per frame on one core, the median of the
  frames, paths interleaved.  With a path name only that path runs (for
  callgrind: `--rows 1 avx2`).
*/
#define ROWS_SIDE 512U

static void
rows_frame(float* out)
{
  const P4dFbm six  = { 6.0f, 2.0, 0.5f, 0.0 };
  const double cell = 4.0 / ROWS_SIDE;
  for (unsigned r = 0U; r < ROWS_SIDE; ++r) {
    const double origin[4] = {
      0.37 + 0.5 * cell, 0.21 + (r + 0.5) * cell, 0.4375, 5.123
    };
    const double step[4] = { cell, 0.0, 0.0, 0.0 };
    p4d_fbm4_sum_span(
      &six, 7U, origin, step, NULL, 0, out + (size_t)r * ROWS_SIDE, ROWS_SIDE);
  }
}

static void
report_rows(const P4dIsa* paths, unsigned n_paths, int argc, char** argv)
{
  static float      frame[ROWS_SIDE * ROWS_SIDE];
  const long        asked    = argc >= 3 ? strtol(argv[2], NULL, 10) : 0;
  const unsigned    n_frames = asked > 0 ? (unsigned)asked : N_REPEATS;
  const char* const only     = argc >= 4 ? argv[3] : NULL;

  double ms[P4D_ISA_COUNT][64];
  for (unsigned f = 0U; f < n_frames && f < 64U; ++f) {
    for (unsigned p = 0U; p < n_paths; ++p) {
      if (only && strcmp(only, p4d_isa_name(paths[p]))) {
        continue;
      }
      p4d_isa_use(paths[p]);
      const double t0 = p4d_now_s();
      rows_frame(frame);
      ms[p][f] = (p4d_now_s() - t0) * 1.0e3;
      sink     = frame[(f * 7919U) % (ROWS_SIDE * ROWS_SIDE)];
    }
  }

  printf("image rows: %ux%u, fBm 6 octaves, 4 cells across, median of %u "
         "frames, ms per frame on one core\n",
         ROWS_SIDE,
         ROWS_SIDE,
         n_frames < 64U ? n_frames : 64U);
  for (unsigned p = 0U; p < n_paths; ++p) {
    if (only && strcmp(only, p4d_isa_name(paths[p]))) {
      continue;
    }
    const unsigned n = n_frames < 64U ? n_frames : 64U;
    qsort(ms[p], n, sizeof(double), compare);
    printf("  %-8s %8.2f ms (min %.2f)\n",
           p4d_isa_name(paths[p]),
           ms[p][n / 2U],
           ms[p][0]);
  }
}

/// The core's cases on every path, interleaved, ratios to scalar.
static void
report_core(const P4dIsa* paths, unsigned n_paths)
{
  printf("noise-bench: %u channels x %u samples in blocks of %u, median of "
         "%u, ns per sample (ratio to scalar)\n",
         N_CHANNELS,
         N_SAMPLES,
         BLOCK,
         N_REPEATS);
  printf("  %-36s", "case");
  for (unsigned p = 0U; p < n_paths; ++p) {
    printf(" %17s", p4d_isa_name(paths[p]));
  }
  printf("\n");

  for (Case which = CASE_POINT; which < N_CASES; ++which) {
    double ns[P4D_ISA_COUNT][N_REPEATS];
    for (unsigned r = 0U; r < N_REPEATS; ++r) {
      for (unsigned p = 0U; p < n_paths; ++p) {
        p4d_isa_use(paths[p]);
        if (r == 0U) {
          render(which); // warm up
        }
        const double t0 = p4d_now_s();
        render(which);
        ns[p][r] = (p4d_now_s() - t0) * 1.0e9 / (N_CHANNELS * N_SAMPLES);
      }
    }

    printf("  %-36s", case_names[which]);
    double scalar = 0.0;
    for (unsigned p = 0U; p < n_paths; ++p) {
      qsort(ns[p], N_REPEATS, sizeof(double), compare);
      const double median = ns[p][N_REPEATS / 2U];
      if (p == 0U) {
        scalar = median;
        printf(" %8.2f         ", median);
      } else {
        printf(" %8.2f (%5.3fx)", median, median / scalar);
      }
    }
    printf("\n");
  }
}

/// The value of --rounds N anywhere in argv, else DEFAULT_ROUNDS.
static unsigned
rounds_wanted(int argc, char** argv)
{
  for (int i = 1; i + 1 < argc; ++i) {
    if (!strcmp(argv[i], "--rounds")) {
      const long n = strtol(argv[i + 1], NULL, 10);
      return n < 1 ? 1U : n > (long)MAX_ROUNDS ? MAX_ROUNDS : (unsigned)n;
    }
  }
  return DEFAULT_ROUNDS;
}

/*
  Modes (the first argument): none, the whole benchmark; --core-only, the
  core's table; --plugins-only and --motion-only, the interleaved
  comparisons; --rows, the image rows; --motion-run N, one run of Motion
  with all four targets over N frames and nothing timed, for
  bench/plugin-callgrind.sh.  --rounds N (default 9) anywhere.
*/
int
main(int argc, char** argv)
{
  if (p4d_image_bench_wanted(argc, argv)) {
    return p4d_image_bench_run(argc, argv);
  }
  const char* const mode = argc >= 2 ? argv[1] : "";
  if (!strcmp(mode, "--motion-run") && argc >= 3) {
    const long n = strtol(argv[2], NULL, 10);
    return motion_once(true, n > 0 ? (uint32_t)n : BLOCK) < 0.0;
  }

  const P4dIsa dispatched = p4d_isa_current();
  P4dIsa       paths[P4D_ISA_COUNT];
  unsigned     n_paths = 0U;
  for (unsigned i = 0U; i < P4D_ISA_COUNT; ++i) {
    if (p4d_isa_supported((P4dIsa)i)) {
      paths[n_paths++] = (P4dIsa)i;
    }
  }

  if (!strcmp(mode, "--rows")) {
    report_rows(paths, n_paths, argc, argv);
    return 0;
  }

  char cpu[128];
  cpu_model(cpu, sizeof(cpu));
  const char* const asked = getenv("P4D_ISA");
  printf("CPU: %s; code path dispatched: %s (P4D_ISA %s); paths run:",
         cpu,
         p4d_isa_name(dispatched),
         asked ? asked : "unset");
  for (unsigned p = 0U; p < n_paths; ++p) {
    printf(" %s", p4d_isa_name(paths[p]));
  }
  printf("\n");

  const unsigned n_rounds = rounds_wanted(argc, argv);
  const bool     core =
    strcmp(mode, "--plugins-only") && strcmp(mode, "--motion-only");
  if (core) {
    report_core(paths, n_paths);
  }
  if (!strcmp(mode, "--core-only")) {
    return 0;
  }
  if (!strcmp(mode, "--motion-only")) {
    report_motion(paths, n_paths, n_rounds);
    return 0;
  }
  if (core) {
    report_programs(paths, n_paths);
  }
  report_noise(paths, n_paths, n_rounds);
  report_motion(paths, n_paths, n_rounds);
  return 0;
}
