// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Pictures rendered in-process by the renderer's own frame driver
  (src/render/pictures.c) into the work folder (files.h), the Image
  engine's rows for the same frame (image.h), and picture files read back
  by an independent reader (image_read.py: PIL, numpy, exrheader, ffmpeg).
*/

#ifndef P4D_TEST_PICTURE_JOB_H
#define P4D_TEST_PICTURE_JOB_H

#include "kind.h"
#include "report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// What a render of pictures is asked for.
typedef struct {
  const char* output; ///< In the work folder
  const char* format; ///< --format, or NULL
  uint32_t    width;
  uint32_t    height;
  uint32_t    fps_num;
  uint32_t    fps_den;
  double      start_s;
  double      duration_s;
  unsigned    jobs;
  float       palette; ///< 0: grey, 1 ..: a colour palette (palette=)
} P4dPictureJob;

/// Use the reader at path (made absolute) from now on.
void
p4d_picture_reader(const char* path);

/// The kind that renders pictures (the Image engine's).
const P4dKindClass*
p4d_picture_kind(void);

/// Render job in-process: the renderer's code with the linked engine.
P4dRenderCode
p4d_picture_render(const P4dPictureJob* job, P4dRenderStatus* st);

/// Render job, and assert that it succeeds.
void
p4d_picture_render_ok(const P4dPictureJob* job);

/**
   The engine's frame n of job: value and tone (width * height each) and
   the colour (3 * width * height).

   @return Whether the palette is grey.
*/
bool
p4d_picture_engine(const P4dPictureJob* job,
                   int64_t              n,
                   float*               value,
                   float*               tone,
                   float*               rgb);

/// What the reader made of a file: its shape and samples.
typedef struct {
  unsigned width;
  unsigned height;
  unsigned channels;
  unsigned bits;
  unsigned frames;
  size_t   size;
  void*    samples;   ///< uint16_t, or float (EXR); to free
  char     note[256]; ///< What it said on stderr (Y4M: the rate)
} P4dPictureRead;

/// Read the file name of the work folder (of job's size, for r16).
P4dPictureRead
p4d_picture_read(const char* name, const P4dPictureJob* job);

#endif // P4D_TEST_PICTURE_JOB_H
