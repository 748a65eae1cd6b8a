// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Frames of the Image engine (src/image/image.h) for its tests: a frame
  rendered whole into values and tones, compared bit for bit.
*/

#ifndef P4D_TEST_FRAMES_H
#define P4D_TEST_FRAMES_H

#include "image.h"

#include <stdbool.h>
#include <stdint.h>

/// A frame of w x h: its values z and its tones, row after row.
typedef struct {
  uint32_t w;
  uint32_t h;
  float*   value;
  float*   tone;
} P4dFrame;

/// The Image's parameters at their defaults.
void
p4d_frames_defaults(float* params);

/**
   The Image's parameters at their defaults but for settings: words
   "symbol=value" apart by spaces, by the port table's symbols, as
   `--set` takes them ("tile=1 octaves=5 scale=4.4").  An unknown symbol
   or a value that is not a number fails the test.
*/
void
p4d_frames_params(float* params, const char* settings);

/**
   Frame time->frame of params, w x h at 48 kHz and 120 bpm, rendered in
   calls of rows_per_call rows (freed with p4d_frames_free()).
*/
P4dFrame
p4d_frames_render(const float*        params,
                  uint32_t            w,
                  uint32_t            h,
                  const P4dImageTime* time,
                  uint32_t            rows_per_call);

/// Free a picture's buffers.
void
p4d_frames_free(P4dFrame* pic);

/// Whether two pictures are the same bits, values and tones.
bool
p4d_frames_same(const P4dFrame* a, const P4dFrame* b);

#endif // P4D_TEST_FRAMES_H
