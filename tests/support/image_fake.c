// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  A stand-in for the Image engine (image.h) while it is not built: smooth
  synthetic rows, a pure function of the pixel, the frame's song time and
  the seed (params[0]), grey for an even seed and a three-colour ramp for
  an odd one.  The writers' tests read their files back against the rows
  of whichever engine is linked.
*/

#include "image.h"

#include <math.h>
#include <stdlib.h>

struct P4dImageFrameImpl {
  P4dImageSetup setup;
  double        song_s;
  double        seed;
  bool          grey;
};

P4dStatus
p4d_image_frame_new(const P4dImageSetup* setup, P4dImageFrame** frame)
{
  *frame = (P4dImageFrame*)calloc(1U, sizeof(P4dImageFrame));
  if (!*frame) {
    return P4D_ERR_NO_MEM;
  }
  (*frame)->setup = *setup;
  return P4D_SUCCESS;
}

void
p4d_image_frame_free(P4dImageFrame* frame)
{
  free(frame);
}

void
p4d_image_frame_set(P4dImageFrame*      frame,
                    const float*        params,
                    const P4dImageTime* time)
{
  frame->song_s = time->start_s + (double)time->frame * (double)time->fps_den /
                                    (double)time->fps_num;
  frame->seed = (double)params[0];
  frame->grey = !((long)params[0] & 1L);
}

void
p4d_image_frame_rows(const P4dImageFrame* frame,
                     uint32_t             row0,
                     uint32_t             n_rows,
                     float*               value,
                     float*               tone)
{
  const uint32_t w = frame->setup.width;
  for (uint32_t r = 0U; r < n_rows; ++r) {
    for (uint32_t x = 0U; x < w; ++x) {
      const double y = (double)(row0 + r);
      const double v = 2.5 *
                       sin(0.11 * (double)x + frame->song_s + frame->seed) *
                       cos(0.07 * y - 0.5 * frame->song_s);
      const size_t i = (size_t)r * w + x;
      if (value) {
        value[i] = (float)v;
      }
      if (tone) {
        const double t = 0.5 + 0.2 * v;
        tone[i]        = (float)(t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t);
      }
    }
  }
}

bool
p4d_image_frame_grey(const P4dImageFrame* frame)
{
  return frame->grey;
}

void
p4d_image_frame_colour(const P4dImageFrame* frame,
                       const float*         tone,
                       float*               rgb,
                       size_t               n)
{
  for (size_t i = 0U; i < n; ++i) {
    const float t    = tone[i];
    rgb[3U * i]      = t;
    rgb[3U * i + 1U] = frame->grey ? t : t * t;
    rgb[3U * i + 2U] = frame->grey ? t : 1.0f - t;
  }
}

void
p4d_image_frame_facts(const P4dImageFrame* frame, P4dImageFacts* facts)
{
  facts->song_s     = frame->song_s;
  facts->song_beats = frame->song_s * frame->setup.tempo_bpm / 60.0;
  facts->w          = frame->song_s;
  facts->cells_x    = 4.0;
  facts->cells_y    = 4.0 * frame->setup.height / frame->setup.width;
  for (unsigned k = 0U; k < 4U; ++k) {
    facts->mod_x[k] = 10.0 * k;
    facts->mod_y[k] = 5.0 * k;
  }
}
