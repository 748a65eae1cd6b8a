// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file rig.h
   An engine with its parameters, rendered in blocks, and per-channel
   buffers: what the engine tests share.
*/

#ifndef P4D_TEST_RIG_H
#define P4D_TEST_RIG_H

#include "engine.h"
#include "params.h"

#include <stddef.h>

/// An engine of one kind with one value per parameter.
typedef struct {
  P4dKind    kind;
  unsigned   n_channels;
  P4dEngine* engine;
  float      params[P4D_MAX_PARAMS];
} P4dRig;

/// A new engine of kind at sample_rate_hz with default parameters.
P4dRig
p4d_rig_new(P4dKind kind, double sample_rate_hz);

/// Render n frames in blocks of size block into out[c] (n floats each).
void
p4d_rig_render(P4dRig* rig, float* out[], size_t n, size_t block);

/// A buffer of n frames for each of P4D_MAX_CHANNELS channels.
typedef struct {
  float* ch[P4D_MAX_CHANNELS];
} P4dBuffers;

/// Zeroed buffers of n frames.
P4dBuffers
p4d_buffers_new(size_t n);

void
p4d_buffers_free(P4dBuffers* b);

/// Largest sample-to-sample step of x[from..to).
double
p4d_largest_step(const float* x, size_t from, size_t to);

#endif // P4D_TEST_RIG_H
