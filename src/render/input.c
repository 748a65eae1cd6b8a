// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _POSIX_C_SOURCE 200809L

#include "input.h"

#include <sndfile.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// The sample rates Motion runs at (p4d_motion_new()).
#define LOWEST_RATE_HZ 1000
#define HIGHEST_RATE_HZ 768000

struct P4dInput {
  SNDFILE* file;
  unsigned n_channels;
  int64_t  n_frames;
  int64_t  at; ///< The frame the file reads next
  float    frames[P4D_INPUT_BLOCK * 2U];
};

/**
   Open path for reading with libsndfile, refusing anything but a regular
   file before reading it (a FIFO would block, "-" would be stdin to
   libsndfile, a device could be endless).  NULL with *reason set on
   failure, and *not_sound if libsndfile refused the file (its reason).
*/
static SNDFILE*
open_sound(const char*  path,
           SF_INFO*     info,
           const char** reason,
           bool*        not_sound)
{
  *not_sound = false;
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  const int   fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd < 0) {
    *reason = strerror(errno);
    return NULL;
  }
  if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    *reason = S_ISDIR(st.st_mode) ? "is a folder" : "not a regular file";
    close(fd);
    return NULL;
  }
  // Blocking again, as a regular file reads anyway.
  (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);

  memset(info, 0, sizeof(*info));
  SNDFILE* const file = sf_open_fd(fd, SFM_READ, info, SF_TRUE);
  if (!file) {
    *reason    = sf_strerror(NULL);
    *not_sound = true;
  }
  return file;
}

/// Whether decoding the subtype after a seek may differ from decoding
/// straight through: the lossy codecs, whose decoders carry state.
static bool
lossy(int format)
{
  switch (format & SF_FORMAT_SUBMASK) {
  case SF_FORMAT_VORBIS:
#ifdef SF_FORMAT_OPUS
  case SF_FORMAT_OPUS:
#endif
#ifdef SF_FORMAT_MPEG_LAYER_III
  case SF_FORMAT_MPEG_LAYER_I:
  case SF_FORMAT_MPEG_LAYER_II:
  case SF_FORMAT_MPEG_LAYER_III:
#endif
    return true;
  default:
    return false;
  }
}

P4dRenderCode
p4d_input_probe(const char* path, P4dInputInfo* info, P4dRenderStatus* st)
{
  SF_INFO     sf        = { 0 };
  const char* reason    = NULL;
  bool        not_sound = false;
  SNDFILE*    file      = open_sound(path, &sf, &reason, &not_sound);
  if (!file) {
    if (not_sound) {
      snprintf(st->text,
               sizeof(st->text),
               "not a sound file libsndfile reads (%s)",
               reason);
      reason = st->text;
    }
    return p4d_report_bad_value(st, "-i", path, reason);
  }
  const bool seekable = sf.seekable;
  sf_close(file);

  memset(info, 0, sizeof(*info));
  info->n_frames       = (int64_t)sf.frames;
  info->n_channels     = (unsigned)sf.channels;
  info->sample_rate_hz = (double)sf.samplerate;
  info->exact_seek     = seekable && !lossy(sf.format);

  if (sf.channels > 2) {
    snprintf(st->text,
             sizeof(st->text),
             "has %d channels: Motion takes mono or stereo (split it first)",
             sf.channels);
    return p4d_report_bad_value(st, "-i", path, st->text);
  }
  if (sf.samplerate < LOWEST_RATE_HZ || sf.samplerate > HIGHEST_RATE_HZ) {
    snprintf(st->text,
             sizeof(st->text),
             "sample rate %d Hz is out of range (%d to %d)",
             sf.samplerate,
             LOWEST_RATE_HZ,
             HIGHEST_RATE_HZ);
    return p4d_report_bad_value(st, "-i", path, st->text);
  }
  if (sf.frames < 1 || sf.frames == SF_COUNT_MAX) {
    return p4d_report_bad_value(
      st, "-i", path, sf.frames < 1 ? "holds no frames" : "has no length");
  }
  if (!seekable) {
    return p4d_report_bad_value(st, "-i", path, "cannot be read by parts");
  }
  return P4D_RENDER_SUCCESS;
}

P4dInput*
p4d_input_open(const char* path, const P4dInputInfo* info)
{
  P4dInput* const input = (P4dInput*)calloc(1U, sizeof(P4dInput));
  if (!input) {
    return NULL;
  }
  SF_INFO     sf        = { 0 };
  const char* reason    = NULL;
  bool        not_sound = false;
  input->file           = open_sound(path, &sf, &reason, &not_sound);
  // The file must still be the one the plan was made from.
  if (!input->file || (int64_t)sf.frames != info->n_frames ||
      (unsigned)sf.channels != info->n_channels) {
    p4d_input_close(input);
    return NULL;
  }
  input->n_channels = info->n_channels;
  input->n_frames   = info->n_frames;
  return input;
}

void
p4d_input_close(P4dInput* input)
{
  if (input) {
    if (input->file) {
      sf_close(input->file);
    }
    free(input);
  }
}

const char*
p4d_input_read(P4dInput* input,
               int64_t   first,
               size_t    n,
               float*    left,
               float*    right)
{
  const int64_t end  = first + (int64_t)n;
  const int64_t from = first < 0 ? 0 : first;
  const int64_t to   = end < input->n_frames ? end : input->n_frames;

  memset(left, 0, n * sizeof(float));
  memset(right, 0, n * sizeof(float));
  if (from >= to) {
    return NULL;
  }

  if (input->at != from) {
    if (sf_seek(input->file, (sf_count_t)from, SEEK_SET) != from) {
      return sf_strerror(input->file);
    }
    input->at = from;
  }
  const sf_count_t count = (sf_count_t)(to - from);
  if (sf_readf_float(input->file, input->frames, count) != count) {
    input->at = -1; // where it stands is unknown: seek next time
    return "the input ended early (was it changed?)";
  }
  input->at = to;

  const size_t   skip = (size_t)(from - first);
  const unsigned nch  = input->n_channels;
  for (size_t i = 0U; i < (size_t)count; ++i) {
    left[skip + i]  = input->frames[i * nch];
    right[skip + i] = input->frames[i * nch + nch - 1U];
  }
  return NULL;
}
