// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "rig.h"

#include "basics.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

P4dRig
p4d_rig_new(P4dKind kind, double sample_rate_hz)
{
  P4dRig rig = { kind, p4d_engine_channels(kind), NULL, { 0.0f } };
  assert(!p4d_engine_new(kind, sample_rate_hz, &rig.engine));
  p4d_param_defaults(p4d_params(kind), rig.params);
  return rig;
}

void
p4d_rig_render(P4dRig* rig, float* out[], size_t n, size_t block)
{
  for (size_t done = 0U; done < n; done += block) {
    const size_t m = n - done < block ? n - done : block;
    float*       at[P4D_MAX_CHANNELS];
    for (unsigned c = 0U; c < rig->n_channels; ++c) {
      at[c] = out[c] + done;
    }
    p4d_engine_process(rig->engine, rig->params, at, (uint32_t)m);
  }
}

P4dBuffers
p4d_buffers_new(size_t n)
{
  P4dBuffers b;
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    b.ch[c] = p4d_floats_new(n, 0.0f);
  }
  return b;
}

void
p4d_buffers_free(P4dBuffers* b)
{
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    free(b->ch[c]);
  }
}

double
p4d_largest_step(const float* x, size_t from, size_t to)
{
  double step = 0.0;
  for (size_t i = from + 1U; i < to; ++i) {
    const double d = fabs((double)x[i] - x[i - 1U]);
    step           = d > step ? d : step;
  }
  return step;
}
