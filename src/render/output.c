// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "output.h"

#include "atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/// Files an output writes at most: -o and --plot.
#define MAX_TARGETS 2U

/// A file and the writer of its format.
typedef struct {
  P4dAtomicFile         file;
  const P4dWriterClass* writer;
  void*                 state; ///< The writer's, or NULL
} Target;

struct P4dOutput {
  P4dOutputInfo info;
  Target        target[MAX_TARGETS]; ///< -o, then the plot
  unsigned      n_targets;           ///< Targets set up (maybe not open)
  float*        narrow; ///< The frames written, if fewer channels than given
};

/// Open the file at path with the writer of format (the next target).
static P4dRenderCode
open_target(P4dOutput*       out,
            P4dFormat        format,
            const char*      path,
            P4dRenderStatus* status)
{
  Target* const t    = &out->target[out->n_targets++];
  t->writer          = format.writer;
  P4dRenderCode code = p4d_atomic_open(&t->file, path, out->info.force, status);
  if (!code) {
    P4dWriterInfo info = out->info.writer;
    info.variant       = format.variant;
    code               = t->writer->open(&t->state, &info, &t->file, status);
  }
  return code;
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
  out->info = *info;
  for (unsigned i = 0U; i < MAX_TARGETS; ++i) {
    out->target[i].file.fd = -1; // nothing to close yet
  }

  P4dRenderCode code = open_target(out, info->format, path, status);
  if (!code && plot_path) {
    const P4dFormat plot = { p4d_writers_plot(), 0 };
    code                 = open_target(out, plot, plot_path, status);
  }
  const size_t n_narrow = info->max_frames * info->writer.n_channels;
  if (!code && (info->frame_channels != info->writer.n_channels ||
                info->writer.first_channel)) {
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
  P4dOutput* const out    = (P4dOutput*)output;
  const unsigned   nch    = out->info.writer.n_channels;
  const unsigned   stride = out->info.frame_channels;
  const unsigned   first  = out->info.writer.first_channel;
  const float*     frames = interleaved;

  if (out->narrow) {
    for (size_t i = 0U; i < n; ++i) {
      for (unsigned c = 0U; c < nch; ++c) {
        out->narrow[i * nch + c] = interleaved[i * stride + first + c];
      }
    }
    frames = out->narrow;
  }

  P4dRenderCode code = P4D_RENDER_SUCCESS;
  for (unsigned i = 0U; !code && i < out->n_targets; ++i) {
    const Target* const t = &out->target[i];
    code = t->writer->write(t->state, frame, frames, n, status);
  }
  return code;
}

double
p4d_output_rows_per_s(const P4dOutput* out)
{
  for (unsigned i = 0U; i < out->n_targets; ++i) {
    if (!out->target[i].writer->rows) {
      return 0.0;
    }
  }
  return out->n_targets ? out->info.writer.fps : 0.0;
}

P4dRenderCode
p4d_output_close(P4dOutput* out, P4dRenderStatus* status)
{
  P4dRenderCode code = P4D_RENDER_SUCCESS;
  for (unsigned i = 0U; !code && i < out->n_targets; ++i) {
    code = out->target[i].writer->finish(out->target[i].state, status);
  }
  return code;
}

P4dRenderCode
p4d_output_commit(P4dOutput* out, P4dRenderStatus* status)
{
  // The last first: the output, whose name a user waits for, comes last.
  for (unsigned i = out->n_targets; i-- > 0U;) {
    const P4dRenderCode code = p4d_atomic_commit(&out->target[i].file, status);
    if (code) {
      for (unsigned k = i + 1U; k < out->n_targets; ++k) {
        p4d_atomic_undo(&out->target[k].file);
      }
      return code;
    }
  }
  return P4D_RENDER_SUCCESS;
}

/// Close the writers (what they did not finish is not wanted).
static void
close_writers(P4dOutput* out)
{
  for (unsigned i = 0U; i < out->n_targets; ++i) {
    Target* const t = &out->target[i];
    if (t->state) {
      t->writer->close(t->state);
      t->state = NULL;
    }
  }
}

bool
p4d_output_discard(P4dOutput* out, P4dRenderStatus* status)
{
  if (!out) {
    return true;
  }
  close_writers(out);
  bool clean = true;
  for (unsigned i = 0U; i < out->n_targets; ++i) {
    clean = p4d_atomic_discard(&out->target[i].file, status) && clean;
  }
  return clean;
}

void
p4d_output_free(P4dOutput* out)
{
  if (out) {
    close_writers(out);
    for (unsigned i = 0U; i < out->n_targets; ++i) {
      p4d_atomic_free(&out->target[i].file);
    }
    free(out->narrow);
    free(out);
  }
}
