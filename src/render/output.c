// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _POSIX_C_SOURCE 200809L

#include "output.h"

#include "atomic_file.h"
#include "plot.h"

#include <sndfile.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/// A WAV larger than this is written as RF64.
#define WAV_LIMIT_BYTES (4294967295.0 - 1048576.0)

typedef struct {
  const char* name;
  int         subtype;
} Subtype;

static const Subtype subtypes[] = {
  { "pcm16", SF_FORMAT_PCM_16 },
  { "pcm24", SF_FORMAT_PCM_24 },
  { "pcm32", SF_FORMAT_PCM_32 },
  { "float", SF_FORMAT_FLOAT },
};

static const struct {
  const char*  name;
  P4dContainer container;
  int          default_subtype;
} containers[] = {
  { "wav", P4D_CONTAINER_WAV, SF_FORMAT_FLOAT },
  { "flac", P4D_CONTAINER_FLAC, SF_FORMAT_PCM_24 },
  { "aiff", P4D_CONTAINER_AIFF, SF_FORMAT_PCM_24 },
  { "aif", P4D_CONTAINER_AIFF, SF_FORMAT_PCM_24 },
  { "csv", P4D_CONTAINER_CSV, 0 },
};

#define N_CONTAINERS (sizeof(containers) / sizeof(containers[0]))
#define N_SUBTYPES (sizeof(subtypes) / sizeof(subtypes[0]))

static int
find_container(const char* name, size_t len)
{
  for (size_t i = 0U; i < N_CONTAINERS; ++i) {
    if (strlen(containers[i].name) == len &&
        !strncasecmp(containers[i].name, name, len)) {
      return (int)i;
    }
  }
  return -1;
}

static int
find_subtype(const char* name)
{
  for (size_t i = 0U; i < N_SUBTYPES; ++i) {
    if (!strcasecmp(subtypes[i].name, name)) {
      return subtypes[i].subtype;
    }
  }
  return 0;
}

/// Record a format that cannot be: a bad command line, its culprit named
/// by the caller.
static P4dRenderCode
refuse(P4dRenderStatus* status, const char* reason)
{
  return p4d_report_usage(status, NULL, reason);
}

P4dRenderCode
p4d_output_choose_format(const char*      path,
                         const char*      format_arg,
                         P4dFormat*       format,
                         P4dRenderStatus* status)
{
  int         container = -1;
  const char* sub_name  = NULL;

  if (format_arg) {
    const char*  dash = strchr(format_arg, '-');
    const size_t len  = dash ? (size_t)(dash - format_arg) : strlen(format_arg);
    container         = find_container(format_arg, len);
    if (container < 0 && !dash && find_subtype(format_arg)) {
      sub_name =
        format_arg; // a subtype alone: the container is the extension's
    } else if (container < 0) {
      return refuse(status,
                    "unknown format (wav, flac, aiff, csv, optionally with "
                    "-pcm16, -pcm24, -pcm32 or -float)");
    } else {
      sub_name = dash ? dash + 1 : NULL;
    }
  }

  if (container < 0 && p4d_atomic_is_stream(path)) {
    return refuse(status,
                  "standard output needs --format flac or --format csv");
  }
  if (container < 0) {
    const char* slash = strrchr(path, '/');
    const char* dot   = strrchr(slash ? slash : path, '.');
    container         = dot ? find_container(dot + 1, strlen(dot + 1)) : -1;
    if (container < 0) {
      return refuse(status,
                    "unknown file extension (use .wav, .flac, .aiff, .csv, or "
                    "--format)");
    }
  }

  format->container = containers[container].container;
  format->subtype   = containers[container].default_subtype;
  if (sub_name) {
    format->subtype = find_subtype(sub_name);
    if (!format->subtype || format->container == P4D_CONTAINER_CSV ||
        (format->container == P4D_CONTAINER_FLAC &&
         format->subtype != SF_FORMAT_PCM_16 &&
         format->subtype != SF_FORMAT_PCM_24)) {
      return refuse(status, "this container cannot hold that sample format");
    }
  }
  return P4D_RENDER_SUCCESS;
}

bool
p4d_output_can_stream(const P4dFormat* format)
{
  return format->container == P4D_CONTAINER_FLAC ||
         format->container == P4D_CONTAINER_CSV;
}

struct P4dOutput {
  P4dOutputInfo info;
  P4dAtomicFile main;
  P4dAtomicFile plot;
  SNDFILE*      sound;
  SF_INFO       sf_info;
  FILE*         csv;
  int64_t       next_row; ///< Next CSV row
  bool          has_plot;
  P4dPlot       plot_data;
  float*        narrow; ///< The frames written, if fewer channels than given
};

static int
sf_container(const P4dOutput* out)
{
  switch (out->info.format.container) {
  case P4D_CONTAINER_WAV:
    return (double)out->info.n_frames * out->info.n_channels *
                 (out->info.format.subtype == SF_FORMAT_PCM_16   ? 2.0
                  : out->info.format.subtype == SF_FORMAT_PCM_24 ? 3.0
                                                                 : 4.0) >
               WAV_LIMIT_BYTES
             ? SF_FORMAT_RF64
             : SF_FORMAT_WAV;
  case P4D_CONTAINER_FLAC:
    return SF_FORMAT_FLAC;
  default:
    return SF_FORMAT_AIFF;
  }
}

/// A stream that writes to a new descriptor of the file fd, or NULL.
static FILE*
open_stream(int fd)
{
  const int own    = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  FILE*     stream = own < 0 ? NULL : fdopen(own, "w");
  if (!stream && own >= 0) {
    const int err = errno;
    close(own);
    errno = err;
  }
  return stream;
}

/// Record a failure of the output's main file (path, or "-").
static P4dRenderCode
fail(const P4dOutput* out, const char* reason, P4dRenderStatus* status)
{
  return p4d_report_failure(status, out->main.path, reason);
}

P4dRenderCode
p4d_output_open(P4dOutput**          result,
                const P4dOutputInfo* info,
                const char*          path,
                const char*          plot_path,
                P4dRenderStatus*     status)
{
  P4dOutput* out = (P4dOutput*)calloc(1U, sizeof(P4dOutput));
  *result        = out;
  if (!out) {
    return p4d_report_failure(status, path, strerror(ENOMEM));
  }

  out->info    = *info;
  out->main.fd = out->plot.fd = -1; // nothing to close yet
  p4d_plot_init(&out->plot_data,
                info->n_channels,
                info->sample_rate_hz,
                info->start_frame,
                info->n_frames,
                info->names);

  P4dRenderCode code = p4d_atomic_open(&out->main, path, info->force, status);
  if (code) {
    return code;
  }

  if (info->format.container == P4D_CONTAINER_CSV) {
    // The stream gets a descriptor of its own: the file keeps its own, to
    // be linked into place.
    out->csv = open_stream(out->main.fd);
    if (!out->csv) {
      return fail(out, strerror(errno), status);
    }
    fprintf(out->csv, "time_s");
    for (unsigned c = 0U; c < info->n_channels; ++c) {
      fprintf(out->csv, ",%s", info->names[c]);
    }
    fputc('\n', out->csv);
  } else {
    out->sf_info.samplerate = (int)info->sample_rate_hz;
    out->sf_info.channels   = (int)info->n_channels;
    out->sf_info.format     = sf_container(out) | info->format.subtype;
    out->sound = sf_open_fd(out->main.fd, SFM_WRITE, &out->sf_info, SF_FALSE);
    if (!out->sound) {
      return fail(out, sf_strerror(NULL), status);
    }
    // No PEAK chunk (it holds the time of writing: the same command must
    // write the same bytes); PCM clips instead of wrapping.
    sf_command(out->sound, SFC_SET_ADD_PEAK_CHUNK, NULL, SF_FALSE);
    sf_command(out->sound, SFC_SET_CLIPPING, NULL, SF_TRUE);
  }

  if (plot_path) {
    out->has_plot = true;
    code          = p4d_atomic_open(&out->plot, plot_path, info->force, status);
  }
  const size_t n_narrow = info->max_frames * info->n_channels;
  if (!code && info->frame_channels != info->n_channels) {
    out->narrow = n_narrow ? (float*)malloc(n_narrow * sizeof(float)) : NULL;
    code        = out->narrow ? code
                              : p4d_report_failure(status,
                                            plot_path ? plot_path : path,
                                            strerror(ENOMEM));
  }
  return code;
}

P4dRenderCode
p4d_output_write(void*            output,
                 int64_t          frame,
                 const float*     interleaved,
                 size_t           n,
                 P4dRenderStatus* status)
{
  P4dOutput* const     out    = (P4dOutput*)output;
  const P4dOutputInfo* info   = &out->info;
  const unsigned       nch    = info->n_channels;
  const float*         frames = interleaved;

  if (out->narrow) {
    for (size_t i = 0U; i < n; ++i) {
      for (unsigned c = 0U; c < nch; ++c) {
        out->narrow[i * nch + c] = interleaved[i * info->frame_channels + c];
      }
    }
    frames = out->narrow;
  }

  if (out->has_plot) {
    p4d_plot_add(&out->plot_data, frame, frames, n);
  }

  if (out->csv) {
    // Row k is the sample nearest to k / fps seconds after the start.
    for (;;) {
      const int64_t at = (int64_t)llround((double)out->next_row *
                                          info->sample_rate_hz / info->fps);
      if (at >= info->n_frames ||
          at >= frame - info->start_frame + (int64_t)n) {
        break;
      }
      const size_t i = (size_t)(at - (frame - info->start_frame));
      fprintf(out->csv,
              "%.6f",
              (double)info->start_frame / info->sample_rate_hz +
                (double)out->next_row / info->fps);
      for (unsigned c = 0U; c < nch; ++c) {
        fprintf(out->csv, ",%.9g", (double)frames[i * nch + c]);
      }
      fputc('\n', out->csv);
      ++out->next_row;
    }
    return ferror(out->csv) ? fail(out, strerror(errno ? errno : EIO), status)
                            : P4D_RENDER_SUCCESS;
  }

  return sf_writef_float(out->sound, frames, (sf_count_t)n) == (sf_count_t)n
           ? P4D_RENDER_SUCCESS
           : fail(out, sf_strerror(out->sound), status);
}

/// Read the written sound file back, through a descriptor of its own, and
/// check its header.
static P4dRenderCode
verify_sound(const P4dOutput* out, P4dRenderStatus* status)
{
  SF_INFO   info = { 0 };
  const int fd   = fcntl(out->main.fd, F_DUPFD_CLOEXEC, 3);
  SNDFILE*  file = fd >= 0 && !lseek(fd, 0, SEEK_SET)
                     ? sf_open_fd(fd, SFM_READ, &info, SF_FALSE)
                     : NULL;
  bool      ok   = false;
  if (file) {
    ok = info.frames == out->info.n_frames &&
         info.channels == out->sf_info.channels &&
         info.samplerate == out->sf_info.samplerate &&
         info.format == out->sf_info.format;
    sf_close(file);
  }
  if (fd >= 0) {
    close(fd);
  }
  return !file ? fail(out, "the written file cannot be read back", status)
         : ok  ? P4D_RENDER_SUCCESS
               : fail(out,
                     "the written file does not read back as written",
                     status);
}

/// Flush, sync (a file, not a pipe) and close the stream of the file named
/// culprit; the first failure is recorded.
static P4dRenderCode
close_stream(FILE*            stream,
             bool             sync,
             const char*      culprit,
             P4dRenderStatus* status)
{
  const bool failed =
    fflush(stream) || ferror(stream) || (sync && fsync(fileno(stream)));
  const char* reason = failed ? strerror(errno ? errno : EIO) : NULL;
  if (fclose(stream) && !reason) {
    reason = strerror(errno);
  }
  return reason ? p4d_report_failure(status, culprit, reason)
                : P4D_RENDER_SUCCESS;
}

P4dRenderCode
p4d_output_close(P4dOutput* out, P4dRenderStatus* status)
{
  P4dRenderCode code = P4D_RENDER_SUCCESS;
  const bool    sync = !out->main.stream;

  if (out->csv) {
    code     = close_stream(out->csv, sync, out->main.path, status);
    out->csv = NULL;
  } else {
    if (sf_close(out->sound)) {
      code = fail(out, "cannot finish the file", status);
    }
    out->sound = NULL;
    if (!code && sync && fsync(out->main.fd)) {
      code = fail(out, strerror(errno), status);
    }
    code = code || !sync ? code : verify_sound(out, status);
  }

  if (!code && out->has_plot) {
    FILE* svg = open_stream(out->plot.fd);
    if (!svg) {
      return p4d_report_failure(status, out->plot.path, strerror(errno));
    }
    p4d_plot_write(&out->plot_data, svg);
    code = close_stream(svg, true, out->plot.path, status);
  }
  return code;
}

P4dRenderCode
p4d_output_commit(P4dOutput* out, P4dRenderStatus* status)
{
  P4dRenderCode code =
    out->has_plot ? p4d_atomic_commit(&out->plot, status) : P4D_RENDER_SUCCESS;
  if (code) {
    return code;
  }
  code = p4d_atomic_commit(&out->main, status);
  if (code) {
    p4d_atomic_undo(&out->plot);
  }
  return code;
}

/// Close the writers' streams (what they hold is not wanted).
static void
drop_streams(P4dOutput* out)
{
  if (out->csv) {
    (void)fclose(out->csv); // discarded: how it closes does not matter
    out->csv = NULL;
  }
  if (out->sound) {
    sf_close(out->sound);
    out->sound = NULL;
  }
}

bool
p4d_output_discard(P4dOutput* out, P4dRenderStatus* status)
{
  if (!out) {
    return true;
  }
  drop_streams(out);
  const bool main_clean = p4d_atomic_discard(&out->main, status);
  const bool plot_clean = p4d_atomic_discard(&out->plot, status);
  return main_clean && plot_clean;
}

void
p4d_output_free(P4dOutput* out)
{
  if (out) {
    drop_streams(out);
    p4d_atomic_free(&out->main);
    p4d_atomic_free(&out->plot);
    free(out->narrow);
    free(out);
  }
}
