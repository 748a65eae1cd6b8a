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
#include "support/picture_job.h"
#include "support/process.h"

#include "image.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/// The level of x in [0, 1] out of top, as the writers round it.
static unsigned
level(float x, unsigned top)
{
  const float c = x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
  return (unsigned)floorf(c * (float)top + 0.5f);
}

/// Check a PNG or r16 of frame 0 of job: every sample.
static void
check_whole(const char*          name,
            const P4dPictureJob* job,
            unsigned             bits,
            bool                 want_grey)
{
  const size_t n     = (size_t)job->width * job->height;
  float*       value = (float*)malloc(n * sizeof(float));
  float*       tone  = (float*)malloc(n * sizeof(float));
  float*       rgb   = (float*)malloc(3U * n * sizeof(float));
  const bool   grey  = p4d_picture_engine(job, 0, value, tone, rgb);
  assert(grey == want_grey);
  const bool raw = strstr(name, ".r16") != NULL;

  P4dPictureRead b = p4d_picture_read(name, job);
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
  P4dPictureJob job = {
    "grey.png", NULL, 64U, 48U, 30U, 1U, 1.5, 1.0, 1U, 0.0f
  };
  p4d_picture_render_ok(&job);
  check_whole("grey.png", &job, 8U, true);
  assert(p4d_work_exists("grey.json"));

  job.output = "grey16.png";
  job.format = "png16";
  p4d_picture_render_ok(&job);
  check_whole("grey16.png", &job, 16U, true);

  job.output = "height.r16";
  job.format = NULL;
  p4d_picture_render_ok(&job);
  check_whole("height.r16", &job, 16U, true);

  job.palette = 1.0f; // a colour palette (Magma)
  job.output  = "colour.png";
  p4d_picture_render_ok(&job);
  check_whole("colour.png", &job, 8U, false);
  job.output = "colour16.png";
  job.format = "png16";
  p4d_picture_render_ok(&job);
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
check_exr(const char* name, const P4dPictureJob* job, bool half)
{
  const size_t   n     = (size_t)job->width * job->height;
  float*         value = (float*)malloc(n * sizeof(float));
  float*         tone  = (float*)malloc(n * sizeof(float));
  float*         rgb   = (float*)malloc(3U * n * sizeof(float));
  const bool     grey  = p4d_picture_engine(job, 0, value, tone, rgb);
  P4dPictureRead b     = p4d_picture_read(name, job);
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
  P4dPictureJob job = {
    "grey.exr", NULL, 40U, 24U, 30U, 1U, 0.25, 1.0, 1U, 0.0f
  };
  p4d_picture_render_ok(&job);
  check_exr("grey.exr", &job, false);
  job.output = "grey_half.exr";
  job.format = "exr-half";
  p4d_picture_render_ok(&job);
  check_exr("grey_half.exr", &job, true);
  job.palette = 2.0f;
  job.output  = "colour.exr";
  job.format  = NULL;
  p4d_picture_render_ok(&job);
  check_exr("colour.exr", &job, false);
  job.output = "colour_half.exr";
  job.format = "half";
  p4d_picture_render_ok(&job);
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

/// A Y4M clip of palette (grey or colour) against the engine's frames.
static void
check_y4m(float palette)
{
  // 0.1 s at 30000/1001: frames 0, 1 and 2 (2.997 frames long).
  P4dPictureJob job = { "clip.y4m", NULL, 32U, 16U, 30000U,
                        1001U,      2.0,  0.1, 2U,  palette };
  p4d_picture_render_ok(&job);
  P4dPictureRead b = p4d_picture_read("clip.y4m", &job);
  assert(b.width == 32U && b.height == 16U && b.frames == 3U);
  assert(strstr(b.note, "30000/1001"));
  const size_t    n     = (size_t)job.width * job.height;
  float*          value = (float*)malloc(n * sizeof(float));
  float*          tone  = (float*)malloc(n * sizeof(float));
  float*          rgb   = (float*)malloc(3U * n * sizeof(float));
  const uint16_t* s     = (const uint16_t*)b.samples;
  unsigned        off   = 0U;
  for (int64_t f = 0; f < 3; ++f) {
    p4d_picture_engine(&job, f, value, tone, rgb);
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
  printf("# clip.y4m, palette %g: 3 frames of 32x16 at 30000/1001, C444, "
         "BT.709 limited (%u of %zu samples a level off a double-precision "
         "conversion)\n",
         (double)palette,
         off,
         9U * n);
  free(b.samples);
  free(value);
  free(tone);
  free(rgb);
  p4d_work_clear();
}

/// A 4:2:0 clip of an odd size (33x17): Y as in 4:4:4, Cb and Cr the
/// averages of each 2x2 block (of the pixels there are).
static void
check_y4m_420(float palette)
{
  P4dPictureJob job = { "c420.y4m", "y4m-420", 33U, 17U, 25U,
                        1U,         0.5,       0.1, 2U,  palette };
  p4d_picture_render_ok(&job);
  P4dPictureRead b = p4d_picture_read("c420.y4m", &job);
  assert(b.width == 33U && b.height == 17U && b.frames == 3U);
  assert(b.channels == 0U);
  const size_t    w     = 33U;
  const size_t    h     = 17U;
  const size_t    n     = w * h;
  const size_t    cw    = 17U;
  const size_t    ch    = 9U;
  float*          value = (float*)malloc(n * sizeof(float));
  float*          tone  = (float*)malloc(n * sizeof(float));
  float*          rgb   = (float*)malloc(3U * n * sizeof(float));
  const uint16_t* s     = (const uint16_t*)b.samples;
  for (int64_t f = 0; f < 3; ++f) {
    const uint16_t* const plane = s + (size_t)f * (n + 2U * cw * ch);
    p4d_picture_engine(&job, f, value, tone, rgb);
    for (size_t i = 0U; i < n; ++i) {
      unsigned char yuv[3];
      yuv_of(rgb + 3U * i, yuv);
      assert(abs((int)plane[i] - (int)yuv[0]) <= 1);
    }
    for (size_t j = 0U; j < ch; ++j) {
      for (size_t i = 0U; i < cw; ++i) {
        double   sum[2] = { 0.0, 0.0 };
        unsigned count  = 0U;
        for (size_t y = 2U * j; y < 2U * j + 2U && y < h; ++y) {
          for (size_t x = 2U * i; x < 2U * i + 2U && x < w; ++x) {
            unsigned char yuv[3];
            yuv_of(rgb + 3U * (y * w + x), yuv);
            sum[0] += yuv[1];
            sum[1] += yuv[2];
            ++count;
          }
        }
        // The writer averages before rounding, this after: a level apart.
        for (unsigned k = 0U; k < 2U; ++k) {
          const double got = plane[n + k * cw * ch + j * cw + i];
          assert(fabs(got - sum[k] / count) <= 1.0);
        }
      }
    }
  }
  printf("# c420.y4m, palette %g: 33x17 C420jpeg, chroma the 2x2 averages\n",
         (double)palette);
  free(b.samples);
  free(value);
  free(tone);
  free(rgb);
  p4d_work_clear();
}

static void
test_y4m(void)
{
  check_y4m(3.0f);
  check_y4m(0.0f);
  check_y4m_420(2.0f);
  check_y4m_420(0.0f);
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
  P4dPictureJob job = { "f_%03d.png", NULL, 16U, 8U, 24000U,
                        1001U,        10.0, 0.2, 2U, 0.0f };
  p4d_picture_render_ok(&job);
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
  assert(p4d_picture_render(&job, &st) == P4D_RENDER_ERR_USAGE);
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
      P4dPictureJob job = {
        out, NULL, 48U, 40U, 25U, 1U, 3.0, 0.2, jobs, 3.0f
      };
      p4d_picture_render_ok(&job);
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
    P4dPictureJob job = { cases[i].name, "png", 8U, 8U,  30U, 1U,
                          0.0,           1.0,   2U, 0.0f };
    job.format        = strstr(cases[i].name, "y4m") ? NULL : "png";
    P4dRenderStatus st;
    assert(p4d_picture_render(&job, &st) == P4D_RENDER_ERR_USAGE);
    assert(strstr(st.reason, cases[i].reason));
    assert(!p4d_work_count());
  }

  // A percent sign, and a folder that does not exist.
  P4dPictureJob job = {
    "100%%_%d.png", NULL, 8U, 8U, 30U, 1U, 0.0, 0.1, 1U, 0.0f
  };
  p4d_picture_render_ok(&job);
  assert(p4d_work_exists("100%_0.png") && p4d_work_exists("100%_0.json"));
  p4d_work_clear();
  job.output = "missing/f_%d.png";
  P4dRenderStatus st;
  assert(p4d_picture_render(&job, &st) == P4D_RENDER_ERR_USAGE);
  assert(strstr(st.reason, "folder does not exist") && !p4d_work_count());
  printf("# hostile frame names refused (two numbers, %%n, %%s, widths, "
         "lengths), a missing folder\n");
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_picture_reader(argv[1]);
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
