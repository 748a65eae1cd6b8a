// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  What perlin4d-render writes: every format read back with libsndfile
  (header and content against the engine, linked here), the channels asked
  for, CSV curves and SVG plots, and a render that refuses to clobber its
  own output but replaces it with the same bytes when forced.

  Usage: test_render_files PATH_TO_PERLIN4D_RENDER
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "engine.h"
#include "params.h"

#include "support/cli.h"
#include "support/compare.h"
#include "support/files.h"

#include <sndfile.h>

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void
test_render_reads_back(void)
{
  static const char* const args[] = {
    "-o",    "n.wav",  "--duration", "0.5", "--samplerate",
    "44100", "--seed", "9",          NULL
  };

  const P4dProcResult r = p4d_cli_run(args, P4D_PROC_PLAIN);
  assert(r.status == 0 && r.err[0] == '\0');
  assert(p4d_work_count() == 1U);

  SF_INFO      info   = { 0 };
  float* const frames = p4d_cli_read_frames("n.wav", &info);
  assert(info.frames == 22050 && info.channels == 2 &&
         info.samplerate == 44100);
  assert(info.format == (SF_FORMAT_WAV | SF_FORMAT_FLOAT));

  // Bounded, not silent, and the two channels differ.
  double   energy = 0.0;
  unsigned n_same = 0U;
  for (size_t i = 0U; i < 22050U; ++i) {
    assert(frames[2 * i] >= -1.0f && frames[2 * i] <= 1.0f);
    energy += (double)frames[2 * i] * frames[2 * i];
    n_same += frames[2 * i] == frames[2 * i + 1];
  }
  assert(energy / 22050.0 > 1.0e-4);
  assert(n_same < 100U);
  free(frames);

  // A second render refuses to clobber the first, and leaves it intact.
  size_t              size_a = 0U;
  char*               a      = p4d_work_read("n.wav", &size_a);
  const P4dProcResult again  = p4d_cli_run(args, P4D_PROC_PLAIN);
  assert(again.status == 2 && strstr(again.err, "exists"));

  // With --force it replaces it, with the same bytes: renders are repeatable,
  // also a second later (libsndfile's PEAK chunk would hold the time).
  const struct timespec second = { 1, 100000000L };
  nanosleep(&second, NULL);
  static const char* const forced[] = {
    "-o",    "n.wav",  "--duration", "0.5",     "--samplerate",
    "44100", "--seed", "9",          "--force", NULL
  };
  assert(p4d_cli_run(forced, P4D_PROC_PLAIN).status == 0);
  size_t size_b = 0U;
  char*  b      = p4d_work_read("n.wav", &size_b);
  assert(size_a == size_b && !memcmp(a, b, size_a));
  assert(p4d_work_count() == 1U);
  free(a);
  free(b);
  p4d_work_clear();
}

// -- Formats ---------------------------------------------------------------

typedef struct {
  const char* format;    ///< --format, or NULL for the extension's default
  const char* extension; ///< Of the output
  int         sf_format; ///< What libsndfile must read back
  int         bits;      ///< PCM bits, 0 for float
} FormatCase;

static const FormatCase formats[] = {
  { "wav-pcm16", "wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16 },
  { "wav-pcm24", "wav", SF_FORMAT_WAV | SF_FORMAT_PCM_24, 24 },
  { "wav-pcm32", "wav", SF_FORMAT_WAV | SF_FORMAT_PCM_32, 32 },
  { "wav-float", "wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 0 },
  { "flac-pcm16", "flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 16 },
  { "flac-pcm24", "flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_24, 24 },
  { "aiff-pcm16", "aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_16, 16 },
  { "aiff-pcm24", "aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_24, 24 },
  { "aiff-pcm32", "aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_32, 32 },
  { "aiff-float", "aiff", SF_FORMAT_AIFF | SF_FORMAT_FLOAT, 0 },
  { "pcm16", "wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16 },
  { "PCM24", "aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_24, 24 },
  { "flac", "wav", SF_FORMAT_FLAC | SF_FORMAT_PCM_24, 24 },
  { NULL, "wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 0 },
  { NULL, "WAV", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 0 },
  { NULL, "flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_24, 24 },
  { NULL, "aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_24, 24 },
  { NULL, "aif", SF_FORMAT_AIFF | SF_FORMAT_PCM_24, 24 },
};

/**
   Check a PCM file's samples against the float render x.  libsndfile
   writes x * (2^(bits-1) - 1), rounded and clipped, and reads a code back
   as code / 2^(bits-1): one step of rounding, half a step of scale at full
   scale.  A wrapped sample (a sign flip at full scale) is off by ~2.
*/
static unsigned
check_pcm(const char* name, const float* x, size_t n, int bits)
{
  SF_INFO  info = { 0 };
  SNDFILE* file = sf_open(p4d_work_path(name), SFM_READ, &info);
  assert(file);
  const size_t n_samples = n * (size_t)info.channels;
  int* const   codes     = (int*)malloc(n_samples * sizeof(int));
  assert(codes && sf_readf_int(file, codes, (sf_count_t)n) == (sf_count_t)n);
  sf_close(file);

  const double step   = ldexp(1.0, 1 - bits);
  unsigned     n_rail = 0U;
  double       worst  = 0.0;
  for (size_t i = 0U; i < n_samples; ++i) {
    const double want = x[i] > 1.0f ? 1.0 : x[i] < -1.0f ? -1.0 : x[i];
    const double got  = ldexp((double)codes[i], -31);
    worst             = fmax(worst, fabs(got - want) / step);
    n_rail += fabs(want) >= 1.0;
  }
  if (worst > 1.5) {
    printf("# %s: a sample is %.2f steps off\n", name, worst);
  }
  assert(worst <= 1.5);
  free(codes);
  return n_rail;
}

static void
test_formats(void)
{
  static const char* const noise_sets[] = { "level_db=0", "seed=31", NULL };
  static const char* const mod_sets[]   = {
      "out_min=-1", "out_max=1", "rate_hz=20", "seed=31", NULL
  };
  const size_t n = 11025U; // 0.25 s at 44100 Hz

  for (int k = 0; k < 2; ++k) {
    const P4dKind      kind = k ? P4D_KIND_MOD : P4D_KIND_NOISE;
    const char* const* sets = k ? mod_sets : noise_sets;
    const unsigned     nch  = k ? 4U : 2U;
    float* const       ref  = p4d_engine_samples(kind, 44100.0, n, sets);

    unsigned n_rail = 0U;
    for (size_t f = 0U; f < sizeof(formats) / sizeof(formats[0]); ++f) {
      const FormatCase* fc = &formats[f];
      char              name[32];
      snprintf(name, sizeof(name), "f%zu.%s", f, fc->extension);
      const char* args[P4D_PROC_MAX_ARGS] = {
        "-o",         name,   "--plugin",     k ? "mod" : "noise",
        "--duration", "0.25", "--samplerate", "44100"
      };
      size_t n_args = 8U;
      if (fc->format) {
        args[n_args++] = "--format";
        args[n_args++] = fc->format;
      }
      for (size_t i = 0U; sets[i]; ++i) {
        args[n_args++] = "--set";
        args[n_args++] = sets[i];
      }
      args[n_args] = NULL;
      p4d_cli_ok(args, NULL);

      SF_INFO      info = { 0 };
      float* const got  = p4d_cli_read_frames(name, &info);
      if (info.format != fc->sf_format) {
        printf("# %s (%s): format 0x%x, expected 0x%x\n",
               name,
               fc->format ? fc->format : "default",
               (unsigned)info.format,
               (unsigned)fc->sf_format);
      }
      assert(info.format == fc->sf_format);
      assert(info.frames == (sf_count_t)n);
      assert(info.channels == (int)nch);
      assert(info.samplerate == 44100);

      if (!fc->bits) {
        // Float: the engine's samples, bit for bit, all finite.
        for (size_t i = 0U; i < n * nch; ++i) {
          assert(isfinite(got[i]));
        }
        p4d_assert_same(name, got, ref, 0U, n * nch);
      } else {
        n_rail += check_pcm(name, ref, n, fc->bits);
      }
      free(got);
      assert(!unlink(p4d_work_path(name)));
    }
    printf("# %s: %zu formats read back (%u samples at full scale)\n",
           k ? "mod" : "noise",
           sizeof(formats) / sizeof(formats[0]),
           n_rail);
    free(ref);
  }
  assert(p4d_work_count() == 0U);
}

/// --channels N writes the first N channels.
static void
test_channels(void)
{
  static const char* const all[] = { "-o",           "all.wav",    "--plugin",
                                     "mod",          "--duration", "0.2",
                                     "--samplerate", "8000",       NULL };
  static const char* const one[] = {
    "-o",           "one.wav", "--plugin",   "mod", "--duration", "0.2",
    "--samplerate", "8000",    "--channels", "3",   NULL
  };
  p4d_cli_ok(all, NULL);
  p4d_cli_ok(one, NULL);
  SF_INFO      a_info = { 0 };
  SF_INFO      b_info = { 0 };
  float* const a      = p4d_cli_read_frames("all.wav", &a_info);
  float* const b      = p4d_cli_read_frames("one.wav", &b_info);
  assert(a_info.channels == 4 && b_info.channels == 3);
  assert(a_info.frames == 1600 && b_info.frames == 1600);
  for (size_t i = 0U; i < 1600U; ++i) {
    p4d_assert_same("--channels 3", &a[i * 4U], &b[i * 3U], 0U, 3U);
  }
  free(a);
  free(b);
  p4d_work_clear();
}

// -- CSV and SVG -----------------------------------------------------------

/**
   Check CSV curves against the engine: the header, one row per 1/fps
   seconds from start_s, each holding the sample at the nearest frame.
*/
static void
check_csv(const char*        name,
          P4dKind            kind,
          double             rate,
          double             fps,
          double             start_s,
          size_t             n_rows,
          const char* const* sets)
{
  const unsigned nch  = p4d_engine_channels(kind);
  const size_t   n    = (size_t)llround((double)n_rows / fps * rate) + 1U;
  float* const   ref  = p4d_engine_samples(kind, rate, n, sets);
  size_t         size = 0U;
  char* const    text = p4d_work_read(name, &size);

  const char* const header = kind == P4D_KIND_MOD
                               ? "time_s,out_1,out_2,out_3,out_4\n"
                               : "time_s,out_l,out_r\n";
  assert(!strncmp(text, header, strlen(header)));
  assert(p4d_count_lines(text) == n_rows + 1U);

  const char* p        = text + strlen(header);
  double      previous = -1.0;
  for (size_t k = 0U; k < n_rows; ++k) {
    char*        end = NULL;
    const double t   = strtod(p, &end);
    assert(end > p && *end == ',');
    assert(fabs(t - (start_s + (double)k / fps)) < 1.0e-6);
    assert(t > previous);
    previous = t;

    const size_t frame = (size_t)llround((double)k * rate / fps);
    for (unsigned c = 0U; c < nch; ++c) {
      p             = end + 1;
      const float v = strtof(p, &end);
      assert(end > p && *end == (c + 1U < nch ? ',' : '\n'));
      assert(v >= -1.0f && v <= 1.0f);
      if (start_s == 0.0 && v != ref[frame * nch + c]) {
        printf("# %s row %zu channel %u: %a, the engine has %a at frame %zu\n",
               name,
               k,
               c,
               (double)v,
               (double)ref[frame * nch + c],
               frame);
      }
      assert(start_s != 0.0 || v == ref[frame * nch + c]);
    }
    p = end + 1;
  }
  assert(*p == '\0');
  free(text);
  free(ref);
}

/**
   Check that an SVG plot is well formed: an XML declaration, then
   elements that nest and close, the root <svg>; labelled axes and one
   filled path and one label per channel.
*/
static void
check_svg(const char* name, unsigned n_channels, const char* const* names)
{
  size_t      size = 0U;
  char* const text = p4d_work_read(name, &size);
  assert(!strncmp(text, "<?xml", 5U));
  assert(size > 7U && !strcmp(text + size - 7U, "</svg>\n"));
  assert(strstr(text, "<svg"));
  assert(strstr(text, ">time (s)</text>"));

  const char* stack[32];
  size_t      length[32];
  size_t      depth      = 0U;
  unsigned    n_elements = 0U;
  const char* p          = strstr(text, "?>");
  assert(p);
  for (p = strchr(p + 2, '<'); p; p = strchr(p, '<')) {
    const char* const close = strchr(p, '>');
    assert(close);
    if (p[1] == '/') {
      const size_t len = (size_t)(close - p - 2);
      assert(depth > 0U && length[depth - 1U] == len &&
             !strncmp(stack[depth - 1U], p + 2, len));
      --depth;
    } else {
      ++n_elements;
      if (close[-1] != '/') {
        assert(depth < 32U);
        stack[depth]  = p + 1;
        length[depth] = strcspn(p + 1, " \n/>");
        ++depth;
      }
      if (n_elements == 1U) {
        assert(!strncmp(p, "<svg ", 5U));
      }
    }
    p = close + 1;
  }
  assert(depth == 0U);

  assert(p4d_count_substrings(text, "<path") >= n_channels);
  for (unsigned c = 0U; c < n_channels; ++c) {
    char label[32];
    snprintf(label, sizeof(label), ">%s</text>", names[c]);
    assert(p4d_count_substrings(text, label) == 1U);
  }
  free(text);
}

static void
test_csv_and_svg(void)
{
  static const char* const mod_names[] = { "out_1", "out_2", "out_3", "out_4" };
  static const char* const noise_names[] = { "out_l", "out_r" };
  static const char* const mod_sets[]    = { "rate_hz=2", "out_min=-1", NULL };

  // 2 s at 30 rows a second: 60 rows, and a plot.
  static const char* const mod[] = {
    "-o",         "m.csv",      "--plugin",     "mod",   "--fps", "30",
    "--duration", "2",          "--samplerate", "8000",  "--set", "rate_hz=2",
    "--set",      "out_min=-1", "--plot",       "m.svg", NULL
  };
  p4d_cli_ok(mod, NULL);
  check_csv("m.csv", P4D_KIND_MOD, 8000.0, 30.0, 0.0, 60U, mod_sets);
  check_svg("m.svg", 4U, mod_names);

  // The default 60 rows a second; fps that does not divide the rate.
  static const char* const noise[] = { "-o",     "n.csv",        "--duration",
                                       "1",      "--samplerate", "44100",
                                       "--plot", "n.svg",        NULL };
  p4d_cli_ok(noise, NULL);
  check_csv("n.csv", P4D_KIND_NOISE, 44100.0, 60.0, 0.0, 60U, NULL);
  check_svg("n.svg", 2U, noise_names);

  static const char* const odd[] = {
    "-o", "o.csv",        "--fps", "7", "--duration",
    "1",  "--samplerate", "48000", NULL
  };
  p4d_cli_ok(odd, NULL);
  check_csv("o.csv", P4D_KIND_NOISE, 48000.0, 7.0, 0.0, 7U, NULL);

  // From a song position: times count from there.
  static const char* const later[] = {
    "-o", "l.csv", "--plugin", "mod",          "--start", "12.5", "--duration",
    "1",  "--fps", "10",       "--samplerate", "8000",    NULL
  };
  p4d_cli_ok(later, NULL);
  check_csv("l.csv", P4D_KIND_MOD, 8000.0, 10.0, 12.5, 10U, NULL);

  // A plot of fewer channels, and a plot of a sound file.
  static const char* const two[] = { "-o",         "t.wav", "--plugin",   "mod",
                                     "--channels", "2",     "--duration", "0.5",
                                     "--plot",     "t.svg", NULL };
  p4d_cli_ok(two, NULL);
  check_svg("t.svg", 2U, mod_names);
  size_t      size = 0U;
  char* const text = p4d_work_read("t.svg", &size);
  assert(!strstr(text, "out_3"));
  free(text);
  printf("# CSV rows and SVG plots well formed\n");
  p4d_work_clear();
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_cli_open(argv[1], "files");

  test_render_reads_back();
  test_formats();
  test_channels();
  test_csv_and_svg();
  p4d_cli_close();
  return 0;
}
