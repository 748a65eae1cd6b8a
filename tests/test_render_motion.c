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

/*
  The renderer's peak memory, as test_render_jobs measures it:
  AddressSanitizer adds about 20 MiB to any program.
*/
#if defined(__SANITIZE_ADDRESS__)
#  define PEAK_LIMIT_KIB (52L * 1024L)
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define PEAK_LIMIT_KIB (52L * 1024L)
#  endif
#endif
#ifndef PEAK_LIMIT_KIB
#  define PEAK_LIMIT_KIB (32L * 1024L)
#endif

/**
   Streamed: 10 minutes of float stereo at 8 kHz (37 MiB) need no more
   memory than 2 minutes: 29 MiB more input, under 4 MiB more memory (with
   AddressSanitizer's own 20 MiB or so in both).
*/
static void
test_memory_flat(void)
{
  p4d_sound_write("2min.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 8000, 960000);
  p4d_sound_write(
    "10min.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 8000, 4800000);
  static const char* const short_render[] = { "-i",      "2min.wav", "-o",
                                              "s.flac",  "--jobs",   "2",
                                              "--force", NULL };
  static const char* const long_render[]  = { "-i",      "10min.wav", "-o",
                                              "s.flac",  "--jobs",    "2",
                                              "--force", NULL };
  const long               a              = p4d_cli_peak_kib(short_render);
  const long               b              = p4d_cli_peak_kib(long_render);
  size_t                   small          = 0U;
  size_t                   large          = 0U;
  free(p4d_work_read("2min.wav", &small));
  free(p4d_work_read("10min.wav", &large));
  printf("# peak memory: %ld KiB for 2 min (%zu KiB), %ld KiB for 10 min "
         "(%zu KiB)\n",
         a,
         small / 1024U,
         b,
         large / 1024U);
  assert(a > 0 && b > 0);
  assert(b < PEAK_LIMIT_KIB);
  assert(b < a + 4096L);
  assert(large - small > (size_t)7U * 4096U * 1024U);

  SF_INFO  info = { 0 };
  SNDFILE* file = sf_open(p4d_work_path("s.flac"), SFM_READ, &info);
  assert(file && info.frames == 4800000 && info.channels == 2);
  sf_close(file);
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
  test_jobs();
  test_memory_flat();
  p4d_cli_close();
  return 0;
}
