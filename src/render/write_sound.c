// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Sound files, written by libsndfile: WAV (RF64 past 4 GiB), FLAC and AIFF,
  in the sample formats each can hold.  Only FLAC streams: libsndfile
  refuses to write WAV to a pipe, and its AIFF writer loses the samples
  there.  A file (not a pipe) is read back and its header checked.

  FLAC to a pipe goes through libsndfile's virtual I/O: at the end libFLAC
  seeks back to complete the STREAMINFO block (MD5, length, frame sizes),
  which a pipe cannot do; given the file descriptor, libsndfile lets those
  27 bytes land at the end of the stream, where the reference decoder
  (flac -t) refuses them.  Here a write after a seek that failed is
  dropped, so the stream ends with its last frame, a valid FLAC stream of
  unknown length and MD5 (as libFLAC writes to any pipe).
*/

#define _POSIX_C_SOURCE 200809L

#include "writers.h"

#include <sndfile.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// A WAV larger than this is written as RF64.
#define WAV_LIMIT_BYTES (4294967295.0 - 1048576.0)

/// The sample formats of WAV and AIFF.
static const P4dWriterVariant all_variants[] = {
  { "pcm16", SF_FORMAT_PCM_16 },
  { "pcm24", SF_FORMAT_PCM_24 },
  { "pcm32", SF_FORMAT_PCM_32 },
  { "float", SF_FORMAT_FLOAT },
  { NULL, 0 },
};

/// The sample formats of FLAC.
static const P4dWriterVariant flac_variants[] = {
  { "pcm16", SF_FORMAT_PCM_16 },
  { "pcm24", SF_FORMAT_PCM_24 },
  { NULL, 0 },
};

typedef struct {
  SNDFILE*    sound;
  SF_INFO     sf_info;
  int         fd; ///< The file's descriptor (the file's, not ours)
  bool        stream;
  const char* path;
  int64_t     n_frames;
  sf_count_t  at;   ///< A stream: bytes written so far
  bool        lost; ///< A stream: a seek back failed; drop what follows
} Sound;

// -- A stream through libsndfile's virtual I/O -----------------------------

static sf_count_t
stream_length(void* user)
{
  return ((const Sound*)user)->at;
}

/// Only "seeking" to where the stream stands succeeds; any other seek
/// fails and drops the writes up to the next seek that succeeds.
static sf_count_t
stream_seek(sf_count_t offset, int whence, void* user)
{
  Sound* const sound = (Sound*)user;
  // SEEK_CUR and SEEK_END: the end of a stream is where it stands.
  const sf_count_t to = whence == SEEK_SET ? offset : sound->at + offset;
  sound->lost         = to != sound->at;
  return sound->lost ? -1 : to;
}

static sf_count_t
stream_read(void* ptr, sf_count_t count, void* user)
{
  (void)ptr;
  (void)count;
  (void)user;
  return 0;
}

static sf_count_t
stream_write(const void* ptr, sf_count_t count, void* user)
{
  Sound* const sound = (Sound*)user;
  if (sound->lost) {
    return count; // the update of a header a pipe cannot take back
  }
  const char* bytes = (const char*)ptr;
  sf_count_t  done  = 0;
  while (done < count) {
    const ssize_t n = write(sound->fd, bytes + done, (size_t)(count - done));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    done += (sf_count_t)n;
  }
  sound->at += done;
  return done;
}

static sf_count_t
stream_tell(void* user)
{
  return ((const Sound*)user)->at;
}

static SF_VIRTUAL_IO stream_io = {
  stream_length, stream_seek, stream_read, stream_write, stream_tell,
};

/// The libsndfile container of a WAV of info: RF64 if it would not fit.
static int
wav_container(const P4dWriterInfo* info)
{
  const double bytes = info->variant == SF_FORMAT_PCM_16   ? 2.0
                       : info->variant == SF_FORMAT_PCM_24 ? 3.0
                                                           : 4.0;
  return (double)info->n_frames * info->n_channels * bytes > WAV_LIMIT_BYTES
           ? SF_FORMAT_RF64
           : SF_FORMAT_WAV;
}

static P4dRenderCode
open_sound(void**               writer,
           const P4dWriterInfo* info,
           const P4dAtomicFile* file,
           int                  container,
           P4dRenderStatus*     status)
{
  Sound* const sound = (Sound*)calloc(1U, sizeof(Sound));
  *writer            = sound;
  if (!sound) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  sound->fd       = file->fd;
  sound->stream   = file->stream;
  sound->path     = file->path;
  sound->n_frames = info->n_frames;

  sound->sf_info.samplerate = (int)info->sample_rate_hz;
  sound->sf_info.channels   = (int)info->n_channels;
  sound->sf_info.format     = container | info->variant;
  sound->sound =
    sound->stream
      ? sf_open_virtual(&stream_io, SFM_WRITE, &sound->sf_info, sound)
      : sf_open_fd(file->fd, SFM_WRITE, &sound->sf_info, SF_FALSE);
  if (!sound->sound) {
    return p4d_report_failure(status, file->path, sf_strerror(NULL));
  }
  // No PEAK chunk (it holds the time of writing: the same command must
  // write the same bytes); PCM clips instead of wrapping.
  sf_command(sound->sound, SFC_SET_ADD_PEAK_CHUNK, NULL, SF_FALSE);
  sf_command(sound->sound, SFC_SET_CLIPPING, NULL, SF_TRUE);
  return P4D_RENDER_SUCCESS;
}

static P4dRenderCode
open_wav(void**               writer,
         const P4dWriterInfo* info,
         const P4dAtomicFile* file,
         P4dRenderStatus*     status)
{
  return open_sound(writer, info, file, wav_container(info), status);
}

static P4dRenderCode
open_flac(void**               writer,
          const P4dWriterInfo* info,
          const P4dAtomicFile* file,
          P4dRenderStatus*     status)
{
  return open_sound(writer, info, file, SF_FORMAT_FLAC, status);
}

static P4dRenderCode
open_aiff(void**               writer,
          const P4dWriterInfo* info,
          const P4dAtomicFile* file,
          P4dRenderStatus*     status)
{
  return open_sound(writer, info, file, SF_FORMAT_AIFF, status);
}

static P4dRenderCode
write_sound(void*            writer,
            int64_t          frame,
            const float*     interleaved,
            size_t           n,
            P4dRenderStatus* status)
{
  (void)frame; // the frames come in order
  Sound* const sound = (Sound*)writer;
  return sf_writef_float(sound->sound, interleaved, (sf_count_t)n) ==
             (sf_count_t)n
           ? P4D_RENDER_SUCCESS
           : p4d_report_failure(status, sound->path, sf_strerror(sound->sound));
}

/// Read the written sound file back, through a descriptor of its own, and
/// check its header.
static P4dRenderCode
verify_sound(const Sound* sound, P4dRenderStatus* status)
{
  SF_INFO   info = { 0 };
  const int fd   = fcntl(sound->fd, F_DUPFD_CLOEXEC, 3);
  SNDFILE*  file = fd >= 0 && !lseek(fd, 0, SEEK_SET)
                     ? sf_open_fd(fd, SFM_READ, &info, SF_FALSE)
                     : NULL;
  bool      ok   = false;
  if (file) {
    ok = info.frames == sound->n_frames &&
         info.channels == sound->sf_info.channels &&
         info.samplerate == sound->sf_info.samplerate &&
         info.format == sound->sf_info.format;
    sf_close(file);
  }
  if (fd >= 0) {
    close(fd);
  }
  return !file ? p4d_report_failure(
                   status, sound->path, "the written file cannot be read back")
         : ok ? P4D_RENDER_SUCCESS
              : p4d_report_failure(
                  status,
                  sound->path,
                  "the written file does not read back as written");
}

static P4dRenderCode
finish_sound(void* writer, P4dRenderStatus* status)
{
  Sound* const sound  = (Sound*)writer;
  const bool   closed = !sf_close(sound->sound);
  sound->sound        = NULL;
  if (!closed) {
    return p4d_report_failure(status, sound->path, "cannot finish the file");
  }
  if (sound->stream) {
    return P4D_RENDER_SUCCESS;
  }
  if (fsync(sound->fd)) {
    return p4d_report_failure(status, sound->path, strerror(errno));
  }
  return verify_sound(sound, status);
}

static void
close_sound(void* writer)
{
  Sound* const sound = (Sound*)writer;
  if (sound && sound->sound) {
    sf_close(sound->sound);
  }
  free(sound);
}

static const char* const wav_extensions[]  = { "wav", NULL };
static const char* const flac_extensions[] = { "flac", NULL };
static const char* const aiff_extensions[] = { "aiff", "aif", NULL };

const P4dWriterClass p4d_write_wav = {
  .name            = "wav",
  .extensions      = wav_extensions,
  .roles           = P4D_WRITER_OUTPUT,
  .variants        = all_variants,
  .default_variant = SF_FORMAT_FLOAT,
  .open            = open_wav,
  .write           = write_sound,
  .finish          = finish_sound,
  .close           = close_sound,
};

const P4dWriterClass p4d_write_flac = {
  .name            = "flac",
  .extensions      = flac_extensions,
  .roles           = P4D_WRITER_OUTPUT,
  .can_stream      = true,
  .variants        = flac_variants,
  .default_variant = SF_FORMAT_PCM_24,
  .open            = open_flac,
  .write           = write_sound,
  .finish          = finish_sound,
  .close           = close_sound,
};

const P4dWriterClass p4d_write_aiff = {
  .name            = "aiff",
  .extensions      = aiff_extensions,
  .roles           = P4D_WRITER_OUTPUT,
  .variants        = all_variants,
  .default_variant = SF_FORMAT_PCM_24,
  .open            = open_aiff,
  .write           = write_sound,
  .finish          = finish_sound,
  .close           = close_sound,
};
