// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Rendering pictures: the frames of a plan whose kind renders pictures
  (the Image engine, src/image/image.h), each written by the picture
  writer of the output's format (writers.h).

  -o NAME without a frame number writes the frame at --start; with one
  (frames/f_%05d.png, frame_name.h) one file per frame for --duration at
  --fps, frame n at song time start + n fps_den / fps_num; a format that
  holds every frame in one stream (Y4M) writes them all into NAME, or to
  standard output ("-").  Each file, and the JSON sidecar beside it
  (sidecar.h), is an atomic file: complete or absent.

  --jobs: frames in parallel, each job with a frame of its own, and the
  rows of each frame in parallel when there are fewer frames than jobs (a
  single picture).  A frame's rows are a pure function of the frame and
  the row (image.h), so the files are the same bytes for any --jobs.

  A sequence that fails (a full disk, a signal) stops at the frame that
  failed, names its file and its number, and leaves no part of it; the
  frames already in place are complete files, and stay.
*/

#ifndef P4D_PICTURES_H
#define P4D_PICTURES_H

#include "options.h"
#include "plan.h"
#include "report.h"
#include "writers.h"

/**
   Render the pictures of plan to o->output in format (a picture format).

   @return P4D_RENDER_SUCCESS, P4D_RENDER_ERR_USAGE (a name or target that
   cannot be written, nothing written) or P4D_RENDER_ERR_FAILED naming the
   file that failed.
*/
P4dRenderCode
p4d_pictures_run(const P4dPlan*    plan,
                 const P4dOptions* o,
                 P4dFormat         format,
                 P4dRenderStatus*  status);

#endif // P4D_PICTURES_H
