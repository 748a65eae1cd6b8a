// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The picture writers and the frame driver of perlin4d-render
  (src/render/pictures.c), each file read back by an independent reader
  (tests/support/image_read.py: PIL, numpy, exrheader, ffmpeg) against the
  Image engine's own rows (image.h): sizes, bit depths, every sample; the
  BT.709 limited-range Y4M; sequences, their names and their sidecars'
  song times at a rational frame rate; the same bytes for --jobs 1, 2, 3.
*/

#undef NDEBUG

#define _XOPEN_SOURCE 700

#include "support/files.h"
#include "support/process.h"

#include "image.h"
#include "kind.h"
#include "options.h"
#include "pictures.h"
#include "plan.h"
#include "writers.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char* reader; ///< tests/support/image_read.py

/// What a render of pictures is asked for.
typedef struct {
  const char* output; ///< In the work folder
  const char* format; ///< --format, or NULL
  uint32_t    width;
  uint32_t    height;
  uint32_t    fps_num;
  uint32_t    fps_den;
  double      start_s;
  double      duration_s;
  unsigned    jobs;
  float       seed;
} Job;

/// Render job in-process: the renderer's code with the linked engine.
static P4dRenderCode
render(const Job* job, P4dRenderStatus* st)
{
  P4dOptions o;
  p4d_options_init(&o);
  o.output     = p4d_work_path(job->output);
  o.width      = job->width;
  o.height     = job->height;
  o.fps_num    = job->fps_num;
  o.fps_den    = job->fps_den;
  o.fps        = (double)job->fps_num / job->fps_den;
  o.start_s    = job->start_s;
  o.duration_s = job->duration_s;
  o.n_jobs     = job->jobs;
  o.quiet      = true;

  P4dPlan plan;
  memset(&plan, 0, sizeof(plan));
  plan.kind           = p4d_kind_by_name("mod");
  plan.sample_rate_hz = 48000.0;
  plan.tempo_bpm      = 120.0;
  p4d_param_defaults(p4d_kind_params(plan.kind), plan.base);
  plan.base[0] = job->seed;

  P4dFormat format;
  memset(st, 0, sizeof(*st));
  const P4dRenderCode chose =
    p4d_writers_choose(o.output, job->format, &format, st);
  assert(!chose);
  return p4d_pictures_run(&plan, &o, format, st);
}

static void
render_ok(const Job* job)
{
  P4dRenderStatus st;
  if (render(job, &st)) {
    printf("# %s: %s: %s\n", job->output, st.culprit, st.reason);
    assert(!"render failed");
  }
}

/// The engine's frame n of job: value and tone (width * height each) and
/// the colour (3 * width * height); whether grey.
static bool
engine_frame(const Job* job, int64_t n, float* value, float* tone, float* rgb)
{
  const P4dImageSetup setup = { job->width, job->height, 48000.0, 120.0 };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame));
  const P4dParamTable* table = p4d_kind_params(p4d_kind_by_name("mod"));
  float                params[P4D_MAX_PARAMS];
  p4d_param_defaults(table, params);
  params[0]               = job->seed;
  const P4dImageTime time = { n, job->fps_num, job->fps_den, job->start_s };
  p4d_image_frame_set(frame, params, &time);
  p4d_image_frame_rows(frame, 0U, job->height, value, tone);
  const size_t n_pixels = (size_t)job->width * job->height;
  p4d_image_frame_colour(frame, tone, rgb, n_pixels);
  const bool grey = p4d_image_frame_grey(frame);
  p4d_image_frame_free(frame);
  return grey;
}

/// What the reader made of a file: its shape and samples.
typedef struct {
  unsigned width, height, channels, bits, frames;
  size_t   size;
  void*    samples; ///< uint16_t or float (EXR)
  char     note[256];
} ReadBack;

static ReadBack
read_back(const char* name, const Job* job)
{
  char w[16];
  char h[16];
  snprintf(w, sizeof(w), "%u", (unsigned)job->width);
  snprintf(h, sizeof(h), "%u", (unsigned)job->height);
  const char* const args[] = {
    reader, p4d_work_path(name), p4d_work_path("read.raw"), w, h, NULL
  };
  const P4dProcSetup  how = { .program = "/usr/bin/python3" };
  const P4dProcResult r   = p4d_proc_run(&how, args);
  if (r.status) {
    fprintf(stderr, "# reader of %s: %s\n", name, r.err);
  }
  assert(!r.status);
  ReadBack b;
  memset(&b, 0, sizeof(b));
  unsigned* const fields[] = {
    &b.width, &b.height, &b.channels, &b.bits, &b.frames
  };
  const char* p = r.out;
  for (size_t i = 0U; i < 5U; ++i) {
    char* end  = NULL;
    *fields[i] = (unsigned)strtoul(p, &end, 10);
    assert(end != p);
    p = end;
  }
  snprintf(b.note, sizeof(b.note), "%.200s", r.err);
  b.samples = p4d_work_read("read.raw", &b.size);
  assert(!remove(p4d_work_path("read.raw")));
  return b;
}

/// The level of x in [0, 1] out of top, as the writers round it.
static unsigned
level(float x, unsigned top)
{
  const float c = x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
  return (unsigned)floorf(c * (float)top + 0.5f);
}

/// Check a PNG or r16 of frame 0 of job: every sample.
static void
check_whole(const char* name, const Job* job, unsigned bits, bool want_grey)
{
  const size_t n     = (size_t)job->width * job->height;
  float*       value = (float*)malloc(n * sizeof(float));
  float*       tone  = (float*)malloc(n * sizeof(float));
  float*       rgb   = (float*)malloc(3U * n * sizeof(float));
  const bool   grey  = engine_frame(job, 0, value, tone, rgb);
  assert(grey == want_grey);
  const bool raw = strstr(name, ".r16") != NULL;

  ReadBack b = read_back(name, job);
  assert(b.width == job->width && b.height == job->height);
  assert(b.bits == bits);
  assert(b.channels == (grey || raw ? 1U : 3U));
  assert(b.size == n * b.channels * 2U);
  const uint16_t* s   = (const uint16_t*)b.samples;
  const unsigned  top = bits == 16U ? 65535U : 255U;
  for (size_t i = 0U; i < n * b.channels; ++i) {
    const float want = b.channels == 1U ? tone[i] : rgb[i];
    if (s[i] != level(want, top)) {
      printf(
        "# %s: sample %zu is %u, not %u\n", name, i, s[i], level(want, top));
      assert(!"sample differs");
    }
  }
  printf("# %s: %ux%u, %u bits, %u channel(s): every sample as the engine's\n",
         name,
         b.width,
         b.height,
         bits,
         b.channels);
  free(b.samples);
  free(value);
  free(tone);
  free(rgb);
}

static void
test_png_r16(void)
{
  Job job = { "grey.png", NULL, 64U, 48U, 30U, 1U, 1.5, 1.0, 1U, 2.0f };
  render_ok(&job);
  check_whole("grey.png", &job, 8U, true);
  assert(p4d_work_exists("grey.json"));

  job.output = "grey16.png";
  job.format = "png16";
  render_ok(&job);
  check_whole("grey16.png", &job, 16U, true);

  job.output = "height.r16";
  job.format = NULL;
  render_ok(&job);
  check_whole("height.r16", &job, 16U, true);

  job.seed   = 3.0f; // a colour palette
  job.output = "colour.png";
  render_ok(&job);
  check_whole("colour.png", &job, 8U, false);
  job.output = "colour16.png";
  job.format = "png16";
  render_ok(&job);
  check_whole("colour16.png", &job, 16U, false);
  p4d_work_clear();
}

/// sRGB-encoded to linear light, written independently of the writer.
static double
linear(double c)
{
  return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static void
check_exr(const char* name, const Job* job, bool half)
{
  const size_t n     = (size_t)job->width * job->height;
  float*       value = (float*)malloc(n * sizeof(float));
  float*       tone  = (float*)malloc(n * sizeof(float));
  float*       rgb   = (float*)malloc(3U * n * sizeof(float));
  const bool   grey  = engine_frame(job, 0, value, tone, rgb);
  ReadBack     b     = read_back(name, job);
  assert(b.width == job->width && b.height == job->height);
  assert(b.bits == (half ? 16U : 32U));
  assert(b.channels == (grey ? 1U : 3U));
  assert(b.size == n * b.channels * sizeof(float));
  const float* s     = (const float*)b.samples;
  double       worst = 0.0;
  for (size_t i = 0U; i < n * b.channels; ++i) {
    const double want = grey ? (double)value[i] : linear((double)rgb[i]);
    const double err  = fabs((double)s[i] - want);
    // Half: rounded to 11 significant bits; float: the value itself
    // (colour: within float rounding of the sRGB curve).
    const double tol = half   ? fabs(want) * 0x1p-11 + 0x1p-25
                       : grey ? 0.0
                              : 1e-6;
    if (err > tol) {
      printf("# %s: sample %zu is %a, not %a\n", name, i, (double)s[i], want);
      assert(!"sample differs");
    }
    worst = err > worst ? err : worst;
  }
  printf("# %s: %ux%u, %s, %u channel(s), largest difference %g\n",
         name,
         b.width,
         b.height,
         half ? "half" : "float",
         b.channels,
         worst);
  free(b.samples);
  free(value);
  free(tone);
  free(rgb);
}

static void
test_exr(void)
{
  Job job = { "grey.exr", NULL, 40U, 24U, 30U, 1U, 0.25, 1.0, 1U, 4.0f };
  render_ok(&job);
  check_exr("grey.exr", &job, false);
  job.output = "grey_half.exr";
  job.format = "exr-half";
  render_ok(&job);
  check_exr("grey_half.exr", &job, true);
  job.seed   = 5.0f;
  job.output = "colour.exr";
  job.format = NULL;
  render_ok(&job);
  check_exr("colour.exr", &job, false);
  job.output = "colour_half.exr";
  job.format = "half";
  render_ok(&job);
  check_exr("colour_half.exr", &job, true);
  p4d_work_clear();
}

/// BT.709 limited range of an R'G'B' colour, written independently.
static void
yuv_of(const float* c, unsigned char* yuv)
{
  double v[3];
  for (unsigned k = 0U; k < 3U; ++k) {
    v[k] = c[k] < 0.0f ? 0.0 : c[k] > 1.0f ? 1.0 : (double)c[k];
  }
  const double y = 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  yuv[0]         = (unsigned char)lround(16.0 + 219.0 * y);
  yuv[1]         = (unsigned char)lround(128.0 + 224.0 * (v[2] - y) / 1.8556);
  yuv[2]         = (unsigned char)lround(128.0 + 224.0 * (v[0] - y) / 1.5748);
}

static void
test_y4m(void)
{
  // 0.1 s at 30000/1001: frames 0, 1 and 2 (2.997 frames long).
  Job job = { "clip.y4m", NULL, 32U, 16U, 30000U, 1001U, 2.0, 0.1, 2U, 3.0f };
  render_ok(&job);
  ReadBack b = read_back("clip.y4m", &job);
  assert(b.width == 32U && b.height == 16U && b.frames == 3U);
  assert(strstr(b.note, "30000/1001"));
  const size_t    n     = (size_t)job.width * job.height;
  float*          value = (float*)malloc(n * sizeof(float));
  float*          tone  = (float*)malloc(n * sizeof(float));
  float*          rgb   = (float*)malloc(3U * n * sizeof(float));
  const uint16_t* s     = (const uint16_t*)b.samples;
  unsigned        off   = 0U;
  for (int64_t f = 0; f < 3; ++f) {
    engine_frame(&job, f, value, tone, rgb);
    for (size_t i = 0U; i < n; ++i) {
      unsigned char yuv[3];
      yuv_of(rgb + 3U * i, yuv);
      for (unsigned k = 0U; k < 3U; ++k) {
        const int d = (int)s[(f * n + i) * 3U + k] - (int)yuv[k];
        // float against double arithmetic: a level apart at a tie
        assert(d >= -1 && d <= 1);
        off += d != 0;
      }
    }
  }
  printf("# clip.y4m: 3 frames of 32x16 at 30000/1001, C444, BT.709 limited "
         "(%u of %zu samples a level off a double-precision conversion)\n",
         off,
         9U * n);
  free(b.samples);
  free(value);
  free(tone);
  free(rgb);
  p4d_work_clear();
}

/// The song time in the sidecar name, read by Python's json.
static double
sidecar_song_s(const char* name, long* frame)
{
  const char* const args[] = {
    "-c",
    "import json,sys; d=json.load(open(sys.argv[1])); "
    "assert d['width'] == 16 and d['height'] == 8 and d['fps'] == "
    "'24000/1001'; "
    "assert len(d['mod_channels']) == 4 and 'seed' in d['settings']; "
    "assert d['tone']['min'] <= d['tone']['max']; "
    "print(d['frame'], repr(d['song_s']))",
    p4d_work_path(name),
    NULL
  };
  const P4dProcSetup  how = { .program = "/usr/bin/python3" };
  const P4dProcResult r   = p4d_proc_run(&how, args);
  if (r.status) {
    fprintf(stderr, "# %s: %s\n", name, r.err);
  }
  assert(!r.status);
  char* end = NULL;
  *frame    = strtol(r.out, &end, 10);
  assert(end != r.out);
  return strtod(end, NULL);
}

static void
test_sequence(void)
{
  // 0.2 s at 24000/1001 from 10 s: 4.795 frames, so 5 files.
  Job job = { "f_%03d.png", NULL, 16U, 8U, 24000U, 1001U, 10.0, 0.2, 2U, 2.0f };
  render_ok(&job);
  assert(p4d_work_count() == 10U);
  for (long k = 0; k < 5; ++k) {
    char png[32];
    char json[32];
    snprintf(png, sizeof(png), "f_%03ld.png", k);
    snprintf(json, sizeof(json), "f_%03ld.json", k);
    assert(p4d_work_exists(png) && p4d_work_exists(json));
    long         frame  = -1;
    const double song_s = sidecar_song_s(json, &frame);
    assert(frame == k);
    assert(fabs(song_s - (10.0 + (double)k * 1001.0 / 24000.0)) < 1e-12);
  }
  printf("# f_%%03d.png, 0.2 s at 24000/1001: 5 frames, sidecars at song "
         "time 10 + n 1001/24000\n");

  // No clobbering: the same render again is refused, nothing changes.
  P4dRenderStatus st;
  assert(render(&job, &st) == P4D_RENDER_ERR_USAGE);
  assert(strstr(st.culprit, "f_000.png") && p4d_work_count() == 10U);
  p4d_work_clear();
}

static void
test_jobs(void)
{
  static const char* const names[] = {
    "s_%02d.png", "s_%02d.exr", "one.png", "one.y4m"
  };
  for (size_t i = 0U; i < sizeof(names) / sizeof(names[0]); ++i) {
    for (unsigned jobs = 1U; jobs <= 3U; ++jobs) {
      char dir[32];
      char out[64];
      snprintf(dir, sizeof(dir), "j%u", jobs);
      snprintf(out, sizeof(out), "j%u/%s", jobs, names[i]);
      mkdir(p4d_work_path(dir), 0700);
      Job job = { out, NULL, 48U, 40U, 25U, 1U, 3.0, 0.2, jobs, 3.0f };
      render_ok(&job);
    }
    const bool seq = strchr(names[i], '%') != NULL;
    for (unsigned k = 0U; k < (seq ? 5U : 1U); ++k) {
      char name[32];
      snprintf(name, sizeof(name), names[i], k);
      for (unsigned jobs = 2U; jobs <= 3U; ++jobs) {
        char a[64];
        char b[64];
        snprintf(a, sizeof(a), "j1/%s", name);
        snprintf(b, sizeof(b), "j%u/%s", jobs, name);
        assert(p4d_work_same(a, b));
      }
    }
    p4d_work_clear();
  }
  printf("# --jobs 1, 2, 3: the same bytes (PNG and EXR sequences, a single "
         "PNG in rows, Y4M)\n");
}

/// Names with anything but one plain frame number are refused, nothing
/// written.
static void
test_hostile_names(void)
{
  static const struct {
    const char* name;
    const char* reason;
  } cases[] = {
    { "a_%d_%d.png", "more than one frame number" },
    { "a_%05d%03d.png", "more than one frame number" },
    { "a_%n.png", "a frame number is %d" },
    { "a_%s.png", "a frame number is %d" },
    { "a_%5.2d.png", "a frame number is %d" },
    { "a_%ld.png", "a frame number is %d" },
    { "a_%-5d.png", "a frame number is %d" },
    { "a_%10d.png", "a frame number is %d" },
    { "a_%.png", "a frame number is %d" },
    { "a_%", "a frame number is %d" },
    { "clip_%03d.y4m", "y4m holds every frame in one file" },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    Job job    = { cases[i].name, "png", 8U, 8U, 30U, 1U, 0.0, 1.0, 2U, 2.0f };
    job.format = strstr(cases[i].name, "y4m") ? NULL : "png";
    P4dRenderStatus st;
    assert(render(&job, &st) == P4D_RENDER_ERR_USAGE);
    assert(strstr(st.reason, cases[i].reason));
    assert(!p4d_work_count());
  }

  // A percent sign, and a folder that does not exist.
  Job job = { "100%%_%d.png", NULL, 8U, 8U, 30U, 1U, 0.0, 0.1, 1U, 2.0f };
  render_ok(&job);
  assert(p4d_work_exists("100%_0.png") && p4d_work_exists("100%_0.json"));
  p4d_work_clear();
  job.output = "missing/f_%d.png";
  P4dRenderStatus st;
  assert(render(&job, &st) == P4D_RENDER_ERR_USAGE);
  assert(strstr(st.reason, "folder does not exist") && !p4d_work_count());
  printf("# hostile frame names refused (two numbers, %%n, %%s, widths, "
         "lengths), a missing folder\n");
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  static char path[4096];
  assert(realpath(argv[1], path));
  reader = path;
  p4d_work_open("image-files");
  test_hostile_names();
  test_png_r16();
  test_exr();
  test_y4m();
  test_sequence();
  test_jobs();
  p4d_work_close();
  return 0;
}
