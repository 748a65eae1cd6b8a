// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _XOPEN_SOURCE 700

#include "picture_job.h"

#include "files.h"
#include "process.h"

#include "image.h"
#include "kind.h"
#include "options.h"
#include "pictures.h"
#include "plan.h"
#include "writers.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// image_read.py, absolute.
static char reader[PATH_MAX];

void
p4d_picture_reader(const char* path)
{
  assert(realpath(path, reader));
}

const P4dKindClass*
p4d_picture_kind(void)
{
  const P4dKindClass* kind = NULL;
  for (unsigned i = 0U; (kind = p4d_kind_at(i)); ++i) {
    if (kind->pictures) {
      return kind;
    }
  }
  assert(!"no kind renders pictures");
  return NULL;
}

/// The parameters of job: the image's defaults, seed 7, its palette.
static void
job_params(const P4dPictureJob* job, float* params)
{
  const P4dParamTable* const table = p4d_kind_params(p4d_picture_kind());
  p4d_param_defaults(table, params);
  params[p4d_param_find(table, "seed")]    = 7.0f;
  params[p4d_param_find(table, "palette")] = job->palette;
}

/// Render job in-process: the renderer's code with the linked engine.
P4dRenderCode
p4d_picture_render(const P4dPictureJob* job, P4dRenderStatus* st)
{
  P4dOptions o;
  p4d_options_init(&o);
  o.output     = p4d_work_path(job->output);
  o.width      = job->width;
  o.height     = job->height;
  o.fps_num    = job->fps_num;
  o.fps_den    = job->fps_den;
  o.fps        = (double)job->fps_num / job->fps_den;
  o.start_s    = job->start_s;
  o.duration_s = job->duration_s;
  o.n_jobs     = job->jobs;
  o.quiet      = true;

  P4dPlan plan;
  memset(&plan, 0, sizeof(plan));
  plan.kind           = p4d_picture_kind();
  plan.sample_rate_hz = 48000.0;
  plan.tempo_bpm      = 120.0;
  job_params(job, plan.base);

  P4dFormat format;
  memset(st, 0, sizeof(*st));
  const P4dRenderCode chose =
    p4d_writers_choose(o.output, job->format, &format, st);
  assert(!chose);
  return p4d_pictures_run(&plan, &o, format, st);
}

void
p4d_picture_render_ok(const P4dPictureJob* job)
{
  P4dRenderStatus st;
  if (p4d_picture_render(job, &st)) {
    printf("# %s: %s: %s\n", job->output, st.culprit, st.reason);
    assert(!"render failed");
  }
}

/// The engine's frame n of job: value and tone (width * height each) and
/// the colour (3 * width * height); whether grey.
bool
p4d_picture_engine(const P4dPictureJob* job,
                   int64_t              n,
                   float*               value,
                   float*               tone,
                   float*               rgb)
{
  const P4dImageSetup setup = { job->width, job->height, 48000.0, 120.0 };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame));
  float params[P4D_MAX_PARAMS];
  job_params(job, params);
  const P4dImageTime time = { n, job->fps_num, job->fps_den, job->start_s };
  p4d_image_frame_set(frame, params, &time);
  p4d_image_frame_rows(frame, 0U, job->height, value, tone);
  const size_t n_pixels = (size_t)job->width * job->height;
  p4d_image_frame_colour(frame, tone, rgb, n_pixels);
  const bool grey = p4d_image_frame_grey(frame);
  p4d_image_frame_free(frame);
  return grey;
}

P4dPictureRead
p4d_picture_read(const char* name, const P4dPictureJob* job)
{
  char w[16];
  char h[16];
  snprintf(w, sizeof(w), "%u", (unsigned)job->width);
  snprintf(h, sizeof(h), "%u", (unsigned)job->height);
  const char* const args[] = {
    reader, p4d_work_path(name), p4d_work_path("read.raw"), w, h, NULL
  };
  const P4dProcSetup  how = { .program = "/usr/bin/python3" };
  const P4dProcResult r   = p4d_proc_run(&how, args);
  if (r.status) {
    fprintf(stderr, "# reader of %s: %s\n", name, r.err);
  }
  assert(!r.status);
  P4dPictureRead b;
  memset(&b, 0, sizeof(b));
  unsigned* const fields[] = {
    &b.width, &b.height, &b.channels, &b.bits, &b.frames
  };
  const char* p = r.out;
  for (size_t i = 0U; i < 5U; ++i) {
    char* end  = NULL;
    *fields[i] = (unsigned)strtoul(p, &end, 10);
    assert(end != p);
    p = end;
  }
  snprintf(b.note, sizeof(b.note), "%.200s", r.err);
  b.samples = p4d_work_read("read.raw", &b.size);
  assert(!remove(p4d_work_path("read.raw")));
  return b;
}
