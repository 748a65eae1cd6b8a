// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "frames.h"

#include "compare.h"
#include "params.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
p4d_frames_defaults(float* params)
{
  p4d_param_defaults(p4d_params(P4D_KIND_IMAGE), params);
}

void
p4d_frames_params(float* params, const char* settings)
{
  const P4dParamTable* const table = p4d_params(P4D_KIND_IMAGE);
  p4d_param_defaults(table, params);
  for (const char* word = settings; *(word += strspn(word, " "));) {
    const size_t n = strcspn(word, "= ");
    char         symbol[32];
    char*        end = NULL;
    snprintf(symbol, sizeof(symbol), "%.*s", (int)n, word);
    const int   id    = p4d_param_find(table, symbol);
    const float value = word[n] == '=' ? strtof(word + n + 1, &end) : 0.0f;
    if (id < 0 || !end || end == word + n + 1 || (*end && *end != ' ')) {
      fprintf(
        stderr, "frames: no setting %.*s\n", (int)strcspn(word, " "), word);
      abort();
    }
    params[id] = value;
    word       = end;
  }
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
