// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "frames.h"

#include "compare.h"
#include "params.h"

#include <assert.h>
#include <stdlib.h>

void
p4d_frames_defaults(float* params)
{
  p4d_param_defaults(p4d_params(P4D_KIND_IMAGE), params);
}

P4dFrame
p4d_frames_render(const float*        params,
                  uint32_t            w,
                  uint32_t            h,
                  const P4dImageTime* time,
                  uint32_t            rows_per_call)
{
  const P4dImageSetup setup = { w, h, 48000.0, 120.0 };
  P4dImageFrame*      frame = NULL;
  assert(!p4d_image_frame_new(&setup, &frame) && frame);
  p4d_image_frame_set(frame, params, time);

  P4dFrame pic = { w, h, NULL, NULL };
  pic.value    = (float*)calloc((size_t)w * h, sizeof(float));
  pic.tone     = (float*)calloc((size_t)w * h, sizeof(float));
  assert(pic.value && pic.tone);
  for (uint32_t r = 0U; r < h; r += rows_per_call) {
    const uint32_t m = h - r < rows_per_call ? h - r : rows_per_call;
    p4d_image_frame_rows(
      frame, r, m, pic.value + (size_t)r * w, pic.tone + (size_t)r * w);
  }
  p4d_image_frame_free(frame);
  return pic;
}

void
p4d_frames_free(P4dFrame* pic)
{
  free(pic->value);
  free(pic->tone);
  pic->value = pic->tone = NULL;
}

bool
p4d_frames_same(const P4dFrame* a, const P4dFrame* b)
{
  const size_t n = (size_t)a->w * a->h;
  return a->w == b->w && a->h == b->h &&
         p4d_first_difference(a->value, b->value, n) == n &&
         p4d_first_difference(a->tone, b->tone, n) == n;
}
