// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The image rows of noise-bench (issue 19 item 5): milliseconds per frame
  of 6-octave 4D fBm, at 512x512 and 1920x1080, in perlin4d's Image engine
  (src/image/image.h: p4d_image_frame_set() and p4d_image_frame_rows(),
  fractal on, the field's values) and in FastNoise2 (Perlin under
  FractalFBm, 6 octaves, GenUniformGrid4D over a 2D slice of the 4D
  field), with 1 thread and with the rows split over 2.

      noise-bench --image [--fastnoise2 PATH] [--rounds N] [--size WxH]
                          [--scale CELLS]

  FastNoise2 is C++ and not a dependency: it is built outside the
  repository (doc/performance.md) and loaded here with dlopen() from PATH
  through its C API (FastNoise_C.h), so the project's build stays C only.
  Without --fastnoise2 its rows are skipped, and said to be.

  The ratios hold on a shared machine (issue 21 item 1): every contender
  renders one frame per round, the rounds interleave them (A B A B) with
  the order rotated by one each round, and each ratio is taken within a
  round, so that a change of load between rounds moves both sides of it.
  The table gives the minimum and the median over the rounds, of the times
  and of the per-round ratios, with the CPU model and the code path.  Each
  round renders the next frame (w moves), as a sequence does.

  The default scale, 4 cells across the width, keeps all 6 octaves at
  full weight at 512 pixels: the engine fades an octave out above 0.25
  cells per pixel (half its band limit, image_field.c), which octave 5
  just reaches there; FastNoise2 has no band limit and always computes 6.
*/

#define _POSIX_C_SOURCE 200809L

#include "image_bench.h"

#include "../tests/support/basics.h" // p4d_now_s()

#include "image.h"
#include "isa.h"
#include "params.h"

#include <ctype.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROUNDS 101U
#define MAX_THREADS 2U
#define OCTAVES 6
#define FPS 24U
#define RATE_CELLS_PER_S 0.5
#define SEED 1U

/// One frame to render: its size, its scale and its number in the run.
typedef struct {
  uint32_t width;
  uint32_t height;
  double   cells;  ///< Lattice cells across the width (octave 0)
  int64_t  number; ///< Frame n sits at song time n / FPS
} Frame;

/// Where the frame's left and top edges and its z sit, in cells: off the
/// lattice, as a user's offsets are.
static const double origin_x = 0.371;
static const double origin_y = 0.613;
static const double origin_z = 0.237;

/// The cell size of one pixel.
static double
pixel_cells(const Frame* frame)
{
  return frame->cells / frame->width;
}

/// w of the frame: time moves at RATE_CELLS_PER_S.
static double
frame_w(const Frame* frame)
{
  return (double)frame->number / FPS * RATE_CELLS_PER_S;
}

/*
  FastNoise2 through its C API, loaded at run time.  The node tree is
  built from its metadata by name (Perlin, FractalFBm and their variables),
  so that no index of one FastNoise2 version is written in here.
*/

typedef int (*FnCount)(void);
typedef const char* (*FnName)(int);
typedef int (*FnVarCount)(int);
typedef const char* (*FnVarName)(int, int);
typedef void* (*FnNew)(int, unsigned);
typedef void (*FnDelete)(void*);
typedef unsigned (*FnFeatures)(const void*);
typedef bool (*FnSetFloat)(void*, int, float);
typedef bool (*FnSetInt)(void*, int, int);
typedef bool (*FnSetLookup)(void*, int, const void*);
typedef void (*FnGrid4)(const void*,
                        float*,
                        float,
                        float,
                        float,
                        float,
                        int,
                        int,
                        int,
                        int,
                        float,
                        float,
                        float,
                        float,
                        int,
                        float*);

typedef struct {
  void*       library;
  void*       perlin;
  void*       fbm;
  FnDelete    delete_node;
  FnFeatures  features;
  FnGrid4     grid4;
  const char* path;
} Fn2;

static Fn2 fn2;

/// A symbol of the library as a function pointer (ISO C has no cast from
/// an object pointer to a function pointer; POSIX guarantees the bytes).
static bool
fn2_symbol(const char* name, void* function, size_t size)
{
  void* const symbol = dlsym(fn2.library, name);
  if (!symbol || size != sizeof(symbol)) {
    fprintf(stderr, "noise-bench: %s: no %s\n", fn2.path, name);
    return false;
  }
  memcpy(function, &symbol, size);
  return true;
}

/// Whether two FastNoise2 names match, ignoring case and spaces
/// ("Feature Scale", "featurescale").
static bool
same_name(const char* a, const char* b)
{
  for (;;) {
    while (*a == ' ') {
      ++a;
    }
    while (*b == ' ') {
      ++b;
    }
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) {
      return false;
    }
    if (!*a) {
      return true;
    }
    ++a;
    ++b;
  }
}

/// The metadata id of the node type called name, or -1.
static int
fn2_node_id(FnCount count, FnName name_of, const char* name)
{
  const int n = count();
  for (int id = 0; id < n; ++id) {
    if (same_name(name_of(id), name)) {
      return id;
    }
  }
  fprintf(stderr, "noise-bench: %s: no node %s\n", fn2.path, name);
  return -1;
}

/// The index of node type id's variable called name, or -1.
static int
fn2_variable(FnVarCount count, FnVarName name_of, int id, const char* name)
{
  const int n = count(id);
  for (int v = 0; v < n; ++v) {
    if (same_name(name_of(id, v), name)) {
      return v;
    }
  }
  fprintf(stderr, "noise-bench: %s: no variable %s\n", fn2.path, name);
  return -1;
}

/**
   Load FastNoise2 from path and build its fBm of Perlin noise: 6 octaves,
   lacunarity 2, gain 0.5 (perlin4d's settings), a feature scale of 1 so
   that coordinates are lattice cells as in perlin4d.
*/
static bool
fn2_load(const char* path)
{
  fn2.path    = path;
  fn2.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!fn2.library) {
    fprintf(stderr, "noise-bench: %s\n", dlerror());
    return false;
  }
  FnCount     count      = NULL;
  FnName      name       = NULL;
  FnVarCount  var_count  = NULL;
  FnVarName   var_name   = NULL;
  FnNew       new_node   = NULL;
  FnSetFloat  set_float  = NULL;
  FnSetInt    set_int    = NULL;
  FnSetLookup set_lookup = NULL;
  if (!fn2_symbol("fnGetMetadataCount", &count, sizeof(count)) ||
      !fn2_symbol("fnGetMetadataName", &name, sizeof(name)) ||
      !fn2_symbol(
        "fnGetMetadataVariableCount", &var_count, sizeof(var_count)) ||
      !fn2_symbol("fnGetMetadataVariableName", &var_name, sizeof(var_name)) ||
      !fn2_symbol("fnNewFromMetadata", &new_node, sizeof(new_node)) ||
      !fn2_symbol("fnSetVariableFloat", &set_float, sizeof(set_float)) ||
      !fn2_symbol("fnSetVariableIntEnum", &set_int, sizeof(set_int)) ||
      !fn2_symbol("fnSetNodeLookup", &set_lookup, sizeof(set_lookup)) ||
      !fn2_symbol("fnDeleteNodeRef", &fn2.delete_node, sizeof(void*)) ||
      !fn2_symbol("fnGetActiveFeatureSet", &fn2.features, sizeof(void*)) ||
      !fn2_symbol("fnGenUniformGrid4D", &fn2.grid4, sizeof(void*))) {
    return false;
  }

  const int perlin_id = fn2_node_id(count, name, "Perlin");
  const int fbm_id    = fn2_node_id(count, name, "FractalFBm");
  if (perlin_id < 0 || fbm_id < 0) {
    return false;
  }
  const int scale =
    fn2_variable(var_count, var_name, perlin_id, "Feature Scale");
  const int octaves = fn2_variable(var_count, var_name, fbm_id, "Octaves");
  const int lacunarity =
    fn2_variable(var_count, var_name, fbm_id, "Lacunarity");
  if (scale < 0 || octaves < 0 || lacunarity < 0) {
    return false;
  }

  fn2.perlin = new_node(perlin_id, ~0U);
  fn2.fbm    = new_node(fbm_id, ~0U);
  // The fBm's gain keeps its default, 0.5, which is perlin4d's persistence.
  if (!fn2.perlin || !fn2.fbm || !set_float(fn2.perlin, scale, 1.0f) ||
      !set_int(fn2.fbm, octaves, OCTAVES) ||
      !set_float(fn2.fbm, lacunarity, 2.0f) ||
      !set_lookup(fn2.fbm, 0, fn2.perlin)) {
    fprintf(stderr, "noise-bench: %s: cannot build the fBm\n", path);
    return false;
  }
  return true;
}

static void
fn2_unload(void)
{
  if (fn2.delete_node) {
    fn2.delete_node(fn2.fbm);
    fn2.delete_node(fn2.perlin);
  }
  if (fn2.library) {
    dlclose(fn2.library);
  }
  memset(&fn2, 0, sizeof(fn2));
}

/// FastSIMD's feature set as a name (its FeatureFlag bits: AVX2 is bit 9,
/// AVX512_F bit 10, SSE4.1 bit 6, SSE2 bit 3).
static const char*
fn2_features_name(void)
{
  const unsigned set = fn2.features(fn2.fbm);
  if (set & (1U << 10U)) {
    return "AVX512";
  }
  if (set & (1U << 9U)) {
    return "AVX2";
  }
  if (set & (1U << 6U)) {
    return "SSE4.1";
  }
  return set & (1U << 3U) ? "SSE2" : "scalar";
}

/*
  The contenders: a function that renders rows row0 .. row0 + n_rows - 1 of
  a frame into out (width floats per row), each a pure function of the
  frame and its rows, so that threads may split a frame by rows.
*/

typedef void (*RenderRows)(const Frame* frame,
                           uint32_t     row0,
                           uint32_t     n_rows,
                           float*       out);

/// perlin4d's Image engine: the frame of the current size, made by
/// run_size() and prepared once per frame (p4d_prepare()).
static P4dImageFrame* image_frame;

/**
   Prepare frame's number in the Image engine: 6-octave fBm with fractal
   on (octaves finer in space as well as time: classic fBm, FastNoise2's
   kind), lacunarity 2, persistence 0.5, cells across the width, w moving
   at rate_hz (RATE_CELLS_PER_S) in song seconds; the other parameters at
   their defaults.
*/
static void
p4d_prepare(const Frame* frame)
{
  float params[P4D_IMAGE_N_PARAMS];
  p4d_param_defaults(p4d_params(P4D_KIND_IMAGE), params);
  params[P4D_IMAGE_OCTAVES]     = (float)OCTAVES;
  params[P4D_IMAGE_LACUNARITY]  = 2.0f;
  params[P4D_IMAGE_PERSISTENCE] = 0.5f;
  params[P4D_IMAGE_RATE_HZ]     = (float)RATE_CELLS_PER_S;
  params[P4D_IMAGE_SCALE]       = (float)frame->cells;
  params[P4D_IMAGE_FRACTAL]     = 1.0f;
  const P4dImageTime time       = { frame->number, FPS, 1U, 0.0 };
  p4d_image_frame_set(image_frame, params, &time);
}

/// perlin4d: the Image engine's rows, the field's value (what EXR stores).
static void
p4d_rows(const Frame* frame, uint32_t row0, uint32_t n_rows, float* out)
{
  (void)frame;
  p4d_image_frame_rows(image_frame, row0, n_rows, out, NULL);
}

/// FastNoise2: a 4D uniform grid one cell deep in z and w.
static void
fn2_rows(const Frame* frame, uint32_t row0, uint32_t n_rows, float* out)
{
  const double cell = pixel_cells(frame);
  fn2.grid4(fn2.fbm,
            out,
            (float)(origin_x + 0.5 * cell),
            (float)(origin_y + (row0 + 0.5) * cell),
            (float)origin_z,
            (float)frame_w(frame),
            (int)frame->width,
            (int)n_rows,
            1,
            1,
            (float)cell,
            (float)cell,
            1.0f,
            1.0f,
            (int)SEED,
            NULL);
}

/// What a contender does once per frame before its rows, or NULL.
typedef void (*PrepareFrame)(const Frame* frame);

typedef struct {
  const char*  name;
  PrepareFrame prepare;
  RenderRows   render;
  unsigned     threads;
  bool         fastnoise2; ///< Needs FastNoise2 loaded
  int          versus;     ///< The contender its ratio is taken to, or -1
} Contender;

static const Contender contenders[] = {
  { "perlin4d, 1 thread", p4d_prepare, p4d_rows, 1U, false, 1 },
  { "FastNoise2, 1 thread", NULL, fn2_rows, 1U, true, -1 },
  { "perlin4d, 2 threads (rows split)", p4d_prepare, p4d_rows, 2U, false, 3 },
  { "FastNoise2, 2 threads (rows split)", NULL, fn2_rows, 2U, true, -1 },
};

#define N_CONTENDERS (sizeof(contenders) / sizeof(contenders[0]))

typedef struct {
  RenderRows   render;
  const Frame* frame;
  uint32_t     row0;
  uint32_t     n_rows;
  float*       out;
} Job;

static void*
job_run(void* arg)
{
  const Job* const job = (const Job*)arg;
  if (job->n_rows == 0U) {
    return NULL;
  }
  job->render(job->frame, job->row0, job->n_rows, job->out);
  return NULL;
}

/// Render a whole frame with the contender; return its wall seconds.
static double
frame_s(const Contender* c, const Frame* frame, float* out)
{
  Job            jobs[MAX_THREADS];
  pthread_t      threads[MAX_THREADS];
  const uint32_t n   = c->threads < 1U            ? 1U
                       : c->threads > MAX_THREADS ? MAX_THREADS
                                                  : c->threads;
  const double   t0  = p4d_now_s();
  uint32_t       row = 0U;
  if (c->prepare) {
    c->prepare(frame);
  }
  for (uint32_t j = 0U; j < n; ++j) {
    const uint32_t rows = (frame->height - row) / (n - j);
    jobs[j].render      = c->render;
    jobs[j].frame       = frame;
    jobs[j].row0        = row;
    jobs[j].n_rows      = rows;
    jobs[j].out         = out + (size_t)row * frame->width;
    row += rows;
  }
  for (uint32_t j = 1U; j < n; ++j) {
    if (pthread_create(&threads[j], NULL, job_run, &jobs[j])) {
      job_run(&jobs[j]); // no thread: the work still gets done
      threads[j] = pthread_self();
    }
  }
  job_run(&jobs[0]);
  for (uint32_t j = 1U; j < n; ++j) {
    if (!pthread_equal(threads[j], pthread_self())) {
      pthread_join(threads[j], NULL);
    }
  }
  return p4d_now_s() - t0;
}

static int
compare(const void* a, const void* b)
{
  const double x = *(const double*)a;
  const double y = *(const double*)b;
  return (x > y) - (x < y);
}

/// The minimum and median of x[0 .. n-1] (sorted in place).
static void
min_median(double* x, unsigned n, double* min, double* median)
{
  qsort(x, n, sizeof(double), compare);
  *min    = x[0];
  *median = n % 2U ? x[n / 2U] : 0.5 * (x[n / 2U - 1U] + x[n / 2U]);
}

/// The CPU as /proc/cpuinfo names it: model name, family and model (a
/// KVM guest may say no more than "AMD EPYC"; family 25 model 1 is Zen 3).
static void
cpu_model(char* name, size_t size)
{
  char        model[96]  = "unknown CPU";
  char        family[16] = "?";
  char        number[16] = "?";
  FILE* const file       = fopen("/proc/cpuinfo", "r");
  if (file) {
    char line[256];
    while (fgets(line, sizeof(line), file) && line[0] != '\n') {
      const char* colon = strchr(line, ':');
      if (!colon) {
        continue;
      }
      colon += 1 + strspn(colon + 1, " \t");
      const int length = (int)strcspn(colon, "\n");
      if (!strncmp(line, "model name", 10U)) {
        snprintf(model, sizeof(model), "%.*s", length, colon);
      } else if (!strncmp(line, "cpu family", 10U)) {
        snprintf(family, sizeof(family), "%.*s", length, colon);
      } else if (!strncmp(line, "model\t", 6U)) {
        snprintf(number, sizeof(number), "%.*s", length, colon);
      }
    }
    (void)fclose(file);
  }
  snprintf(name, size, "%s (family %s model %s)", model, family, number);
}

/// The root mean square of x[0 .. n-1]: a check that a contender drew a
/// field (each has its own scale: perlin4d's fBm has unit variance).
static double
rms(const float* x, size_t n)
{
  double sum = 0.0;
  for (size_t i = 0U; i < n; ++i) {
    sum += (double)x[i] * x[i];
  }
  return sqrt(sum / (double)n);
}

/// One size: every contender interleaved over rounds, then the table.
static void
run_size(uint32_t width, uint32_t height, double cells, unsigned rounds)
{
  float* const        out   = p4d_floats_new((size_t)width * height, 0.0f);
  const P4dImageSetup setup = { width, height, 48000.0, 120.0 };
  if (p4d_image_frame_new(&setup, &image_frame)) {
    fprintf(stderr, "noise-bench: no image frame of %ux%u\n", width, height);
    free(out);
    return;
  }
  double seconds[N_CONTENDERS][MAX_ROUNDS];
  double level[N_CONTENDERS];
  bool   active[N_CONTENDERS];
  for (unsigned c = 0U; c < N_CONTENDERS; ++c) {
    active[c] = !contenders[c].fastnoise2 || fn2.library;
  }

  // A frame of each first, unmeasured: caches, pages, FastNoise2's set-up.
  Frame frame = { width, height, cells, 0 };
  for (unsigned c = 0U; c < N_CONTENDERS; ++c) {
    if (active[c]) {
      (void)frame_s(&contenders[c], &frame, out);
    }
  }
  for (unsigned r = 0U; r < rounds; ++r) {
    frame.number = r;
    for (unsigned k = 0U; k < N_CONTENDERS; ++k) {
      const unsigned c = (r + k) % N_CONTENDERS;
      if (active[c]) {
        seconds[c][r] = frame_s(&contenders[c], &frame, out);
        if (r + 1U == rounds) {
          level[c] = rms(out, (size_t)width * height);
        }
      }
    }
  }

  char title[64];
  snprintf(
    title, sizeof(title), "%ux%u, %g cells across", width, height, cells);
  printf("  %-46s %9s %10s %6s %9s %7s\n",
         title,
         "min ms",
         "median ms",
         "rms",
         "/FN2 min",
         "median");
  for (unsigned c = 0U; c < N_CONTENDERS; ++c) {
    if (!active[c]) {
      printf("    %-44s skipped: no --fastnoise2 PATH\n", contenders[c].name);
      continue;
    }
    double    ratio[MAX_ROUNDS];
    const int versus = contenders[c].versus;
    if (versus >= 0 && active[versus]) {
      for (unsigned r = 0U; r < rounds; ++r) {
        ratio[r] = seconds[c][r] / seconds[versus][r];
      }
    }
    double min    = 0.0;
    double median = 0.0;
    min_median(seconds[c], rounds, &min, &median);
    printf("    %-44s %9.2f %10.2f %6.3f",
           contenders[c].name,
           1e3 * min,
           1e3 * median,
           level[c]);
    if (versus >= 0 && active[versus]) {
      min_median(ratio, rounds, &min, &median);
      printf(" %8.2fx %6.2fx", min, median);
    }
    printf("\n");
  }
  p4d_image_frame_free(image_frame);
  image_frame = NULL;
  free(out);
}

bool
p4d_image_bench_wanted(int argc, char** argv)
{
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--image") || !strcmp(argv[i], "--fastnoise2")) {
      return true;
    }
  }
  return false;
}

int
p4d_image_bench_run(int argc, char** argv)
{
  const char* path   = NULL;
  unsigned    rounds = 11U;
  double      cells  = 4.0;
  uint32_t    width  = 0U; // 0: both sizes
  uint32_t    height = 0U;
  for (int i = 1; i < argc; ++i) {
    const char* const value = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--image")) {
      continue;
    }
    char* end = NULL;
    if (!strcmp(argv[i], "--fastnoise2") && value) {
      path = value;
    } else if (!strcmp(argv[i], "--rounds") && value) {
      const unsigned long n = strtoul(value, &end, 10);
      rounds                = (unsigned)n;
      if (*end || n < 1U || n > MAX_ROUNDS) {
        fprintf(stderr, "noise-bench: --rounds: 1 to %u\n", MAX_ROUNDS);
        return 2;
      }
    } else if (!strcmp(argv[i], "--size") && value) {
      const unsigned long w = strtoul(value, &end, 10);
      const unsigned long h = *end == 'x' ? strtoul(end + 1, &end, 10) : 0U;
      if (*end || w < 1U || h < 1U || w > 16384U || h > 16384U) {
        fprintf(stderr, "noise-bench: --size: WxH, 1 to 16384 each\n");
        return 2;
      }
      width  = (uint32_t)w;
      height = (uint32_t)h;
    } else if (!strcmp(argv[i], "--scale") && value) {
      cells = strtod(value, &end);
      if (*end || !(cells > 0.0 && cells <= 4096.0)) {
        fprintf(stderr, "noise-bench: --scale: cells across, 0 to 4096\n");
        return 2;
      }
    } else {
      fprintf(stderr,
              "usage: noise-bench --image [--fastnoise2 PATH] [--rounds N] "
              "[--size WxH] [--scale CELLS]\n");
      return 2;
    }
    ++i;
  }

  if (path && !fn2_load(path)) {
    fn2_unload();
    return 1;
  }

  char cpu[160];
  cpu_model(cpu, sizeof(cpu));
  printf("\nImage frames: 4D fBm, %d octaves (lacunarity 2, gain 0.5), w "
         "moving %g cells/s at %u fps; %u rounds, contenders interleaved in "
         "an order rotated each round; ms per frame, ratio to FastNoise2 "
         "with as many threads taken per round\n",
         OCTAVES,
         RATE_CELLS_PER_S,
         FPS,
         rounds);
  printf("  CPU: %s; perlin4d path: %s; FastNoise2: %s\n",
         cpu,
         p4d_isa_name(p4d_isa_current()),
         fn2.library ? fn2_features_name() : "not loaded");
  if (width) {
    run_size(width, height, cells, rounds);
  } else {
    run_size(512U, 512U, cells, rounds);
    run_size(1920U, 1080U, cells, rounds);
  }
  fn2_unload();
  return 0;
}
