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

/// Bytes of the head and of the tail of the input that its identity sums.
#define ID_BYTES 65536

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

/// FNV-1a over n bytes, from sum.
static uint64_t
fnv1a(uint64_t sum, const unsigned char* bytes, size_t n)
{
  for (size_t i = 0U; i < n; ++i) {
    sum = (sum ^ bytes[i]) * 0x100000001B3U;
  }
  return sum;
}

/// The identity of the regular file fd, st its fstat(); false if its bytes
/// cannot be read.  pread(): the file's offset does not move.
static bool
identify(int fd, const struct stat* st, P4dInputId* id)
{
  memset(id, 0, sizeof(*id));
  id->dev      = (uint64_t)st->st_dev;
  id->ino      = (uint64_t)st->st_ino;
  id->size     = (int64_t)st->st_size;
  id->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
  id->ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
  id->sum      = 0xCBF29CE484222325U;

  // The head, then the tail (the same bytes twice for a short file).
  const off_t size    = (off_t)id->size;
  const off_t head    = size < ID_BYTES ? size : (off_t)ID_BYTES;
  const off_t from[2] = { 0, size - head };
  for (unsigned k = 0U; k < 2U; ++k) {
    unsigned char bytes[4096];
    for (off_t at = from[k]; at < from[k] + head;) {
      const off_t  left = from[k] + head - at;
      const size_t want =
        left < (off_t)sizeof(bytes) ? (size_t)left : sizeof(bytes);
      const ssize_t got = pread(fd, bytes, want, at);
      if (got != (ssize_t)want) {
        return false;
      }
      id->sum = fnv1a(id->sum, bytes, want);
      at += (off_t)want;
    }
  }
  return true;
}

/// Whether two identities are the same file, unchanged.
static bool
same_id(const P4dInputId* a, const P4dInputId* b)
{
  return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
         a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns &&
         a->sum == b->sum;
}

/**
   Open path for reading with libsndfile, refusing anything but a regular
   file before reading it (a FIFO would block, "-" would be stdin to
   libsndfile, a device could be endless).  A failure is a bad -i.
*/
static P4dRenderCode
open_sound(const char*      path,
           SF_INFO*         info,
           SNDFILE**        file,
           P4dInputId*      id,
           P4dRenderStatus* status)
{
  *file = NULL;
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  const int   fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd < 0) {
    return p4d_report_bad_value(status, "-i", path, strerror(errno));
  }
  if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    close(fd);
    return p4d_report_bad_value(status,
                                "-i",
                                path,
                                S_ISDIR(st.st_mode) ? "is a folder"
                                                    : "not a regular file");
  }
  // Blocking again, as a regular file reads anyway.
  (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (!identify(fd, &st, id)) {
    close(fd);
    return p4d_report_bad_value(status, "-i", path, "cannot be read");
  }

  memset(info, 0, sizeof(*info));
  *file = sf_open_fd(fd, SFM_READ, info, SF_TRUE);
  if (!*file) {
    snprintf(status->text,
             sizeof(status->text),
             "not a sound file libsndfile reads (%s)",
             sf_strerror(NULL));
    return p4d_report_bad_value(status, "-i", path, status->text);
  }
  return P4D_RENDER_SUCCESS;
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
  SF_INFO             sf   = { 0 };
  SNDFILE*            file = NULL;
  P4dInputId          id   = { 0 };
  const P4dRenderCode code = open_sound(path, &sf, &file, &id, st);
  if (code) {
    return code;
  }
  const bool seekable = sf.seekable;
  sf_close(file);

  memset(info, 0, sizeof(*info));
  info->id             = id;
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
  return P4D_RENDER_SUCCESS;
}

P4dRenderCode
p4d_input_open(const char*         path,
               const P4dInputInfo* info,
               P4dInput**          input,
               P4dRenderStatus*    status)
{
  P4dInput* const in = (P4dInput*)calloc(1U, sizeof(P4dInput));
  *input             = NULL;
  if (in) {
    SF_INFO    sf = { 0 };
    P4dInputId id = { 0 };
    // The file must still be the one the plan was made from.
    if (!open_sound(path, &sf, &in->file, &id, status) &&
        same_id(&id, &info->id) && (int64_t)sf.frames == info->n_frames &&
        (unsigned)sf.channels == info->n_channels) {
      in->n_channels = info->n_channels;
      in->n_frames   = info->n_frames;
      *input         = in;
      return P4D_RENDER_SUCCESS;
    }
    p4d_input_close(in);
  }
  return p4d_report_failure(
    status, NULL, "cannot read the input again (was it changed?)");
}

P4dRenderCode
p4d_input_check(const char*         path,
                const P4dInputInfo* info,
                P4dRenderStatus*    status)
{
  const int   fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  P4dInputId  id = { 0 };
  const bool  ok = fd >= 0 && !fstat(fd, &st) && identify(fd, &st, &id) &&
                  same_id(&id, &info->id);
  if (fd >= 0) {
    close(fd);
  }
  if (ok) {
    return P4D_RENDER_SUCCESS;
  }
  p4d_report_failure(status, NULL, "changed during the render");
  return p4d_report_name(status, "-i", path);
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

P4dRenderCode
p4d_input_read(P4dInput*        input,
               int64_t          first,
               size_t           n,
               float*           left,
               float*           right,
               P4dRenderStatus* status)
{
  const int64_t end  = first + (int64_t)n;
  const int64_t from = first < 0 ? 0 : first;
  const int64_t to   = end < input->n_frames ? end : input->n_frames;

  memset(left, 0, n * sizeof(float));
  memset(right, 0, n * sizeof(float));
  if (from >= to) {
    return P4D_RENDER_SUCCESS;
  }

  if (input->at != from) {
    if (sf_seek(input->file, (sf_count_t)from, SEEK_SET) != from) {
      // Copied: the reason lives in the file, which is closed before the
      // failure is reported.
      return p4d_report_failure(status, NULL, sf_strerror(input->file));
    }
    input->at = from;
  }
  const sf_count_t count = (sf_count_t)(to - from);
  if (sf_readf_float(input->file, input->frames, count) != count) {
    input->at = -1; // where it stands is unknown: seek next time
    return p4d_report_failure(
      status, NULL, "the input ended early (was it changed?)");
  }
  input->at = to;

  const size_t   skip = (size_t)(from - first);
  const unsigned nch  = input->n_channels;
  for (size_t i = 0U; i < (size_t)count; ++i) {
    left[skip + i]  = input->frames[i * nch];
    right[skip + i] = input->frames[i * nch + nch - 1U];
  }
  return P4D_RENDER_SUCCESS;
}
