// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "sound.h"

#include "cli.h"
#include "files.h"
#include "rng.h"

#include <sndfile.h>

#include <assert.h>
#include <math.h>
#include <stdlib.h>

void
p4d_sound_write(const char* name,
                int         format,
                int         n_channels,
                int         rate,
                int64_t     n)
{
  SF_INFO info    = { 0 };
  info.samplerate = rate;
  info.channels   = n_channels;
  info.format     = format;
  SNDFILE* file   = sf_open(p4d_work_path(name), SFM_WRITE, &info);
  assert(file);

  P4dRng       rng = { 0x9E3779B97F4A7C15ULL };
  static float block[4096 * 8];
  double       phase = 0.0;
  for (int64_t done = 0; done < n;) {
    const int64_t m = n - done < 4096 ? n - done : 4096;
    for (int64_t i = 0; i < m; ++i) {
      const double t = (double)(done + i) / rate;
      phase += 2.0 * M_PI * (110.0 + 40.0 * t) / rate;
      for (int c = 0; c < n_channels; ++c) {
        block[i * n_channels + c] =
          (float)(0.35 * sin(phase * (1.0 + 0.5 * c)) +
                  p4d_rng_uniform(&rng, -0.15, 0.15));
      }
    }
    assert(sf_writef_float(file, block, m) == m);
    done += m;
  }
  assert(!sf_close(file));
}

void
p4d_sound_read_stereo(const char* name, float** left, float** right, size_t* n)
{
  SF_INFO      info   = { 0 };
  float* const frames = p4d_cli_read_frames(name, &info);
  assert(info.channels == 1 || info.channels == 2);
  *n     = (size_t)info.frames;
  *left  = (float*)malloc(*n * sizeof(float));
  *right = (float*)malloc(*n * sizeof(float));
  assert(*left && *right);
  for (size_t i = 0U; i < *n; ++i) {
    (*left)[i]  = frames[i * (size_t)info.channels];
    (*right)[i] = frames[i * (size_t)info.channels + info.channels - 1U];
  }
  free(frames);
}
