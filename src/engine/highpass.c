// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Noise's staggered high-pass filters, stepped fast: see highpass.h and
  src/engine/engine.c (Noise high-pass).  Every output is the bits the filters
  give when each steps by itself through p4d_highpass_step().
*/

#include "highpass.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/// Two filters' worth of one term of the high-pass state (GNU C vectors,
/// which GCC and clang lower to what the target has: SSE2 on x86-64).
typedef double  P4dHpfPair __attribute__((vector_size(2 * sizeof(double))));
typedef int64_t P4dHpfPairMask __attribute__((vector_size(2 * sizeof(double))));

/**
   The Noise's filters in the order of their age: lane k of channel c (pair
   k / 2, element k % 2) is the filter that restarted (F - 1 - k) Q frames
   before the last restart, so lane 0 is the one in use.  Two frames after
   a restart every filter of a channel has seen the same inputs (x1, x2),
   so they are kept once per channel.
*/
typedef struct {
  double     x1[2];
  double     x2[2];
  P4dHpfPair y1[2][2];
  P4dHpfPair y2[2][2];
} P4dHpfLanes;

/// Step every filter of both channels over n frames of buf from frame i,
/// exactly as p4d_highpass_step() does, keeping lane 0's outputs; every
/// filter of a channel has its input history.
static void
hpf_run(const P4dHighpass* h,
        P4dHpfLanes*       lanes,
        float* const       buf[2],
        uint32_t           i,
        uint32_t           n)
{
  const P4dHpfPair     a1        = { h->a1, h->a1 };
  const P4dHpfPair     a2        = { h->a2, h->a2 };
  const P4dHpfPair     tiny      = { 1.0e-100, 1.0e-100 };
  const P4dHpfPairMask magnitude = { INT64_MAX, INT64_MAX };

  // The channels are independent: one at a time, with its state in
  // locals, so that it stays in registers.
  for (unsigned c = 0U; c < 2U; ++c) {
    double       x1    = lanes->x1[c];
    double       x2    = lanes->x2[c];
    P4dHpfPair   y1[2] = { lanes->y1[c][0], lanes->y1[c][1] };
    P4dHpfPair   y2[2] = { lanes->y2[c][0], lanes->y2[c][1] };
    float* const b     = buf[c];
    for (uint32_t f = i; f < i + n; ++f) {
      // The feed-forward term, the same in every lane.
      const double     x  = b[f];
      const double     ff = h->b0 * ((x - 2.0 * x1) + x2);
      const P4dHpfPair t  = { ff, ff };
      x2                  = x1;
      x1                  = x;
      for (unsigned p = 0U; p < 2U; ++p) {
        const P4dHpfPair y = t - a1 * y1[p] - a2 * y2[p];
        y2[p]              = y1[p];
        // As p4d_highpass_step(): a state that has decayed this far is rest.
        const P4dHpfPairMask rest =
          (P4dHpfPair)((P4dHpfPairMask)y & magnitude) < tiny;
        y1[p] = (P4dHpfPair)(~rest & (P4dHpfPairMask)y);
        if (p == 0U) {
          b[f] = (float)y[0];
        }
      }
    }
    lanes->x1[c]    = x1;
    lanes->x2[c]    = x2;
    lanes->y1[c][0] = y1[0];
    lanes->y1[c][1] = y1[1];
    lanes->y2[c][0] = y2[0];
    lanes->y2[c][1] = y2[1];
  }
}

/// The bits of a double.
static uint64_t
double_bits(double v)
{
  uint64_t bits = 0U;
  memcpy(&bits, &v, sizeof(bits));
  return bits;
}

/// Whether a channel's filters have the same input history, bit for bit.
static bool
hpf_shared(const P4dBiquad f[P4D_HIGHPASS_FILTERS])
{
  for (unsigned j = 1U; j < P4D_HIGHPASS_FILTERS; ++j) {
    if (double_bits(f[j].x1) != double_bits(f[0].x1) ||
        double_bits(f[j].x2) != double_bits(f[0].x2)) {
      return false;
    }
  }
  return true;
}

/*
  The two frames after a restart step each filter by itself; then a
  channel's filters step side by side as lanes, each exactly as
  p4d_highpass_step(), and keep their roles until the next restart.
*/
void
p4d_highpass_bank_run(const P4dHighpass* h,
                      P4dBiquad          bank[][P4D_HIGHPASS_FILTERS],
                      int64_t            q,
                      int64_t            phase,
                      float* const       buf[2],
                      uint32_t           m)
{
  enum { F = P4D_HIGHPASS_FILTERS };
  int64_t slot = phase / q;
  int64_t sub  = phase % q;

  for (uint32_t i = 0U; i < m;) {
    const unsigned use = (unsigned)((slot + 1) % F);
    uint32_t       n   = 0U;
    if (sub == 0 || !hpf_shared(bank[0]) || !hpf_shared(bank[1])) {
      // A filter restarts here, or less than two stepped frames ago: its
      // inputs differ from the others'.
      for (unsigned c = 0U; c < 2U; ++c) {
        P4dBiquad* const f = bank[c];
        if (sub == 0) {
          f[slot] = (P4dBiquad){ 0.0, 0.0, 0.0, 0.0 };
        }

        const double x = buf[c][i];
        double       y = 0.0;
        for (unsigned j = 0U; j < F; ++j) {
          const double out = p4d_highpass_step(h, &f[j], x);
          y                = j == use ? out : y;
        }
        buf[c][i] = (float)y;
      }
      n = 1U;
    } else {
      P4dHpfLanes s;
      for (unsigned c = 0U; c < 2U; ++c) {
        const P4dBiquad* const f = bank[c];
        s.x1[c]                  = f[use].x1;
        s.x2[c]                  = f[use].x2;
        for (unsigned p = 0U; p < 2U; ++p) {
          const P4dBiquad* const lo = &f[(use + 2U * p) % F];
          const P4dBiquad* const hi = &f[(use + 2U * p + 1U) % F];
          s.y1[c][p]                = (P4dHpfPair){ lo->y1, hi->y1 };
          s.y2[c][p]                = (P4dHpfPair){ lo->y2, hi->y2 };
        }
      }

      const uint32_t left = m - i;
      n = q - sub < (int64_t)left ? (uint32_t)(q - sub) : left;
      hpf_run(h, &s, buf, i, n);

      for (unsigned c = 0U; c < 2U; ++c) {
        for (unsigned k = 0U; k < F; ++k) {
          P4dBiquad* const f = &bank[c][(use + k) % F];
          f->x1              = s.x1[c];
          f->x2              = s.x2[c];
          f->y1              = s.y1[c][k / 2U][k % 2U];
          f->y2              = s.y2[c][k / 2U][k % 2U];
        }
      }
    }

    i += n;
    sub += n;
    if (sub == q) {
      sub  = 0;
      slot = (slot + 1) % F;
    }
  }
}
