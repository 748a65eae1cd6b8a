// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render -i from the outside: --jobs 1, 2 and 3 write the same
  bytes (with and without --start) and the output has the input's length;
  a 10-minute input streams in flat memory; every refusal is one line, exit
  status 2 and nothing written.  test_render_motion_exact compares the
  samples with Motion's.

  Usage: test_render_motion PATH_TO_PERLIN4D_RENDER
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "support/cli.h"
#include "support/files.h"
#include "support/sound.h"

#include <sndfile.h>

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// --jobs 1, 2 and 3 write the same bytes, with and without --start, and
/// the output has the input's length.
static void
test_jobs(void)
{
  // Three chunks of the renderer, the last one short.
  p4d_sound_write(
    "long.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 2, 8000, 600003);
  static const char* const names[] = { "j1.wav", "j2.wav", "j3.wav" };
  static const char* const jobs[]  = { "1", "2", "3" };
  for (unsigned start = 0U; start < 2U; ++start) {
    for (unsigned j = 0U; j < 3U; ++j) {
      const char* const args[] = { "-i",
                                   "long.wav",
                                   "-o",
                                   names[j],
                                   "--jobs",
                                   jobs[j],
                                   "--set",
                                   "seed=9",
                                   "--set",
                                   "wow_ms=2",
                                   start ? "--start" : NULL,
                                   "12.5",
                                   NULL };
      p4d_cli_ok(args, NULL);
    }
    assert(p4d_work_same("j1.wav", "j2.wav"));
    assert(p4d_work_same("j1.wav", "j3.wav"));
    SF_INFO      info = { 0 };
    float* const got  = p4d_cli_read_frames("j3.wav", &info);
    assert(info.frames == 600003 && info.channels == 2);
    assert(info.samplerate == 8000);
    free(got);
    printf("# --jobs 1, 2, 3%s: the same bytes, %lld frames\n",
           start ? " from 12.5 s" : "",
           (long long)info.frames);
    for (unsigned j = 0U; j < 3U; ++j) {
      assert(!unlink(p4d_work_path(names[j])));
    }
  }
  p4d_work_clear();
}

/**
   Streamed: 12 minutes of float stereo at 8 kHz (44 MiB) need no more
   memory than 4 minutes: 29 MiB more input, under 4 MiB more memory (with
   AddressSanitizer's own 20 MiB or so in both).  Both are long enough for
   the 2 jobs to fill all their chunk buffers (runs of chunks, render.c:
   3 of 262144 frames a job here), which 2 minutes (4 chunks) do not:
   from there the memory stays flat however long the input.
*/
static void
test_memory_flat(void)
{
  p4d_sound_write(
    "4min.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 8000, 1920000);
  p4d_sound_write(
    "12min.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 8000, 5760000);
  static const char* const short_render[] = { "-i",      "4min.wav", "-o",
                                              "s.flac",  "--jobs",   "2",
                                              "--force", NULL };
  static const char* const long_render[]  = { "-i",      "12min.wav", "-o",
                                              "s.flac",  "--jobs",    "2",
                                              "--force", NULL };
  const long               a              = p4d_cli_peak_kib(short_render);
  const long               b              = p4d_cli_peak_kib(long_render);
  size_t                   small          = 0U;
  size_t                   large          = 0U;
  free(p4d_work_read("4min.wav", &small));
  free(p4d_work_read("12min.wav", &large));
  printf("# peak memory: %ld KiB for 4 min (%zu KiB), %ld KiB for 12 min "
         "(%zu KiB)\n",
         a,
         small / 1024U,
         b,
         large / 1024U);
  assert(a > 0 && b > 0);
  assert(b < P4D_CLI_PEAK_LIMIT_KIB);
  assert(b < a + 4096L);
  assert(large - small > (size_t)7U * 4096U * 1024U);

  SF_INFO  info = { 0 };
  SNDFILE* file = sf_open(p4d_work_path("s.flac"), SFM_READ, &info);
  assert(file && info.frames == 5760000 && info.channels == 2);
  sf_close(file);
  p4d_work_clear();
}

/**
   Issue 12 item 2 from the outside: on a constant input, Motion's file
   divided by the input is perlin4d-render --plugin mod's channel 1 (same
   time settings, spread 1, out 0 to 1) mapped by the gain depth:
   dB = gain_db (u - 1) / 2, u = 2 c - 1.  At spread 0 both sides match it.
   The file is latency compensated as a host does it, and its frame i
   carries the gain of song frame i: Motion is fed the input latency frames
   ahead (from song frame -latency).
*/
static void
test_gain_is_mod_file(void)
{
  enum { RATE_HZ = 48000, FRAMES = 3 * RATE_HZ };
  const float level = 0.5f;
  SF_INFO     info  = { .samplerate = RATE_HZ,
                        .channels   = 1,
                        .format     = SF_FORMAT_WAV | SF_FORMAT_FLOAT };
  SNDFILE*    file  = sf_open(p4d_work_path("dc.wav"), SFM_WRITE, &info);
  assert(file);
  for (int i = 0; i < FRAMES; ++i) {
    assert(sf_writef_float(file, &level, 1) == 1);
  }
  sf_close(file);

  static const char* const motion[] = {
    "-i",    "dc.wav",       "-o",    "motion.wav", "--set", "gain_db=18",
    "--set", "rate_hz=2.5",  "--set", "octaves=4",  "--set", "morph_x=1.25",
    "--set", "morph_z=-3",   "--set", "seed=77",    "--set", "spread=0",
    "--set", "smooth_ms=50", NULL
  };
  static const char* const mod[] = {
    "--plugin", "mod",          "-o",          "mod.wav",      "--duration",
    "3",        "--set",        "rate_hz=2.5", "--set",        "octaves=4",
    "--set",    "morph_x=1.25", "--set",       "morph_z=-3",   "--set",
    "seed=77",  "--set",        "spread=1",    "--set",        "out_min=0",
    "--set",    "out_max=1",    "--set",       "smooth_ms=50", NULL
  };
  p4d_cli_ok(motion, NULL);
  p4d_cli_ok(mod, NULL);

  SF_INFO      mi    = { 0 };
  SF_INFO      ci    = { 0 };
  float* const moved = p4d_cli_read_frames("motion.wav", &mi);
  float* const curve = p4d_cli_read_frames("mod.wav", &ci);
  assert(mi.frames == FRAMES && mi.channels == 2);
  assert(ci.frames == FRAMES && ci.channels == 4);
  double worst = 0.0;
  double lo    = 1.0;
  for (size_t i = 0U; i < (size_t)FRAMES; ++i) {
    const double u    = 2.0 * curve[4U * i] - 1.0;
    const double want = level * pow(10.0, 18.0 * (u - 1.0) * 0.5 / 20.0);
    for (unsigned k = 0U; k < 2U; ++k) {
      const double err = fabs(moved[2U * i + k] / want - 1.0);
      worst            = err > worst ? err : worst;
    }
    lo = want < lo ? want : lo;
  }
  printf("# constant input: Motion's file over perlin4d-render --plugin "
         "mod's channel 1 mapped by 18 dB: relative error %.2g over %d frames "
         "(gain down to %.1f dB)\n",
         worst,
         FRAMES,
         20.0 * log10(lo / level));
  assert(worst < 1.0e-6);   // float rounding of the gain
  assert(lo < level * 0.5); // the curve moved by more than 6 dB
  free(moved);
  free(curve);
  p4d_work_clear();
}

/// Every refusal: one line, exit 2, nothing written.
static void
test_refused(void)
{
  p4d_sound_write("in.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 2, 48000, 4800);
  p4d_sound_write("3ch.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 3, 48000, 4800);
  p4d_sound_write("empty.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 48000, 0);
  p4d_work_write("text.wav", "not a sound\n");
  assert(!mkdir(p4d_work_path("folder.wav"), 0755));
  assert(!symlink("in.wav", p4d_work_path("link.wav")));
  assert(!link(p4d_work_path("in.wav"), p4d_work_path("hard.wav")));
  const unsigned n_files = p4d_work_count();

  // The input under other spellings: ./ and ../ forms, a link, a hard link.
  const char* const work = p4d_work_dir();
  char              up[600];
  snprintf(up, sizeof(up), "../%s/in.wav", strrchr(work, '/') + 1);
  char abs[600];
  snprintf(abs, sizeof(abs), "%s/in.wav", work);

  const struct {
    const char* args[12];
    int         status;
    const char* message;
  } cases[] = {
    { { "-i", "nope.wav", "-o", "o.wav" }, 2, "-i 'nope.wav': " },
    { { "-i", "text.wav", "-o", "o.wav" }, 2, "-i 'text.wav': " },
    { { "-i", "folder.wav", "-o", "o.wav" }, 2, "-i 'folder.wav': " },
    { { "-i", "/dev/null", "-o", "o.wav" }, 2, "-i '/dev/null': " },
    { { "-i", "empty.wav", "-o", "o.wav" }, 2, "-i 'empty.wav': holds no" },
    { { "-i", "3ch.wav", "-o", "o.wav" }, 2, "-i '3ch.wav': has 3 channels" },
    { { "-i", "in.wav", "-o", "in.wav" }, 2, "in.wav: is an input" },
    { { "-i", "in.wav", "-o", "in.wav", "--force" }, 2, "in.wav: is an input" },
    { { "-i", "./in.wav", "-o", "in.wav", "--force" },
      2,
      "in.wav: is an input" },
    { { "-i", "in.wav", "-o", up, "--force" }, 2, "../" },
    { { "-i", abs, "-o", "./in.wav", "--force" }, 2, "./in.wav: is an input" },
    { { "-i", "in.wav", "-o", "link.wav", "--force" },
      2,
      "link.wav: is an input" },
    { { "-i", "link.wav", "-o", "hard.wav", "--force" },
      2,
      "hard.wav: is an input" },
    { { "-i", "in.wav", "-o", "-", "--format", "wav" }, 2, "--format 'wav'" },
    { { "--plugin", "noise", "-i", "in.wav", "-o", "o.wav" },
      2,
      "-i 'in.wav': only Perlin4D Motion" },
    { { "--plugin", "mod", "-i", "in.wav", "-o", "o.wav" },
      2,
      "-i 'in.wav': only Perlin4D Motion" },
    { { "--plugin", "motion", "-o", "o.wav" },
      2,
      "--plugin motion: Perlin4D Motion needs a sound file" },
    { { "-i", "in.wav", "-o", "o.wav", "--samplerate", "44100" },
      2,
      "--samplerate: differs from the input's 48000 Hz" },
    { { "-i", "in.wav", "-o", "o.wav", "--duration", "1" },
      2,
      "--duration '1': differs from the input's length" },
    { { "-i", "in.wav", "-o", "o.wav", "--channels", "3" },
      2,
      "--channels '3': more than" },
    { { "-i", "", "-o", "o.wav" }, 2, "-i '': empty file name" },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    p4d_cli_refused(cases[i].args, cases[i].status, cases[i].message, n_files);
  }
  printf("# %zu refusals: one line, exit 2, nothing written\n",
         sizeof(cases) / sizeof(cases[0]));

  // The same --samplerate and --duration as the input's are fine.
  static const char* const same[] = { "-i",           "in.wav",     "-o",
                                      "o.wav",        "--duration", "0.1",
                                      "--samplerate", "48000",      NULL };
  p4d_cli_ok(same, NULL);
  p4d_work_clear();
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_cli_open(argv[1], "motion");

  test_refused();
  test_gain_is_mod_file();
  test_jobs();
  test_memory_flat();
  p4d_cli_close();
  return 0;
}
