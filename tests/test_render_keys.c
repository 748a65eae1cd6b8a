// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The thinning of the row writers (keys.c) in-process: every row lies
  within the tolerance of the straight line between the kept rows around
  it (checked here by brute force, not by the module), the first and last
  rows are kept, a straight line thins to its two ends, a tolerance of 0
  keeps every row, a row exactly the tolerance away is not a key, and each
  channel thins on its own.  And the rows a writer collects from blocks of
  frames of any size are the same rows.

  The rows read back from real renders (the CSV against the JSON, After
  Effects and .chan files) are checked by keys_check.py and
  chan_blender.py.
*/

#undef NDEBUG

#include "keys.h"
#include "render.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Rows of n_channels from values (row-major), thinned by tolerance.
static P4dKeys*
thinned(const float* values, size_t n_rows, unsigned nch, double tolerance)
{
  P4dKeys* const keys = p4d_keys_new(nch);
  assert(keys);
  for (size_t k = 0U; k < n_rows; ++k) {
    assert(p4d_keys_add(keys, values + k * nch));
  }
  assert(p4d_keys_n_rows(keys) == n_rows);
  assert(p4d_keys_thin(keys, tolerance));
  return keys;
}

/// Assert that every row of channel c lies within tolerance of the line
/// between the kept rows around it, that the ends are kept, and that the
/// values are the rows' own; return the number of keys.
static size_t
check_within(const P4dKeys* keys, unsigned c, double tolerance)
{
  const size_t n = p4d_keys_n_rows(keys);
  assert(p4d_keys_kept(keys, 0U, c) && p4d_keys_kept(keys, n - 1U, c));
  size_t n_keys = 0U;
  size_t a      = 0U;
  for (size_t b = 1U; b < n; ++b) {
    if (!p4d_keys_kept(keys, b, c)) {
      continue;
    }
    const double va = (double)p4d_keys_value(keys, a, c);
    const double vb = (double)p4d_keys_value(keys, b, c);
    for (size_t i = a + 1U; i < b; ++i) {
      const double t    = (double)(i - a) / (double)(b - a);
      const double line = va * (1.0 - t) + vb * t;
      const double d    = fabs((double)p4d_keys_value(keys, i, c) - line);
      if (d > tolerance * (1.0 + 1e-12)) {
        fprintf(stderr,
                "channel %u: row %zu is %.9g off the line %zu..%zu (T %g)\n",
                c,
                i,
                d,
                a,
                b,
                tolerance);
        abort();
      }
    }
    ++n_keys;
    a = b;
  }
  return n_keys + 1U;
}

/// Count the keys of channel c.
static size_t
count_keys(const P4dKeys* keys, unsigned c)
{
  size_t n = 0U;
  for (size_t k = 0U; k < p4d_keys_n_rows(keys); ++k) {
    n += p4d_keys_kept(keys, k, c) ? 1U : 0U;
  }
  return n;
}

static void
test_straight_line(void)
{
  enum { N = 1000 };
  static float v[N];
  for (size_t k = 0U; k < N; ++k) {
    v[k] = 0.25f + 0.0005f * (float)k; // rounding: far below 1e-6
  }
  P4dKeys* keys = thinned(v, N, 1U, 1e-6);
  assert(count_keys(keys, 0U) == 2U);
  assert(check_within(keys, 0U, 1e-6) == 2U);
  p4d_keys_free(keys);

  keys = thinned(v, N, 1U, 0.0); // 0: every row is a key
  assert(count_keys(keys, 0U) == N);
  p4d_keys_free(keys);
  printf("# a straight line thins to 2 keys, to %d at tolerance 0\n", N);
}

/// A row exactly the tolerance away lies within it: not a key.  And one
/// spike anywhere (the rows next to either end too) is a key.
static void
test_edges(void)
{
  const float tent[3] = { 0.0f, 0.5f, 0.0f };
  P4dKeys*    keys    = thinned(tent, 3U, 1U, 0.5);
  assert(count_keys(keys, 0U) == 2U);
  p4d_keys_free(keys);
  keys = thinned(tent, 3U, 1U, 0.4999);
  assert(count_keys(keys, 0U) == 3U);
  p4d_keys_free(keys);

  enum { N = 9 };
  for (size_t j = 1U; j + 1U < N; ++j) {
    float v[N] = { 0.0f };
    v[j]       = 1.0f;
    keys       = thinned(v, N, 1U, 0.1);
    assert(p4d_keys_kept(keys, j, 0U));
    check_within(keys, 0U, 0.1);
    p4d_keys_free(keys);
  }

  // Two rows, and one: every row is a key.
  keys = thinned(tent, 2U, 1U, 10.0);
  assert(count_keys(keys, 0U) == 2U);
  p4d_keys_free(keys);
  keys = thinned(tent, 1U, 1U, 10.0);
  assert(count_keys(keys, 0U) == 1U);
  p4d_keys_free(keys);
  printf("# a row exactly T away is no key; a spike anywhere is one\n");
}

/// A random walk on channel 0, a line on 1, noise on 2: each thins alone.
static void
test_channels(void)
{
  enum { N = 20000, NCH = 3 };
  float*   v = (float*)malloc(sizeof(float) * N * NCH);
  uint32_t s = 12345U;
  double   w = 0.0;
  assert(v);
  for (size_t k = 0U; k < N; ++k) {
    s = s * 1664525U + 1013904223U;
    w += ((double)(s >> 8U) / 16777216.0 - 0.5) * 0.01;
    v[k * NCH]      = (float)w;
    v[k * NCH + 1U] = (float)k * 0.25f;
    v[k * NCH + 2U] = (float)(s >> 8U) / 16777216.0f;
  }
  static const double tolerances[] = { 1e-4, 0.003, 0.05, 0.5 };
  for (size_t t = 0U; t < sizeof(tolerances) / sizeof(tolerances[0]); ++t) {
    P4dKeys* const keys = thinned(v, N, NCH, tolerances[t]);
    const size_t   k0   = check_within(keys, 0U, tolerances[t]);
    assert(check_within(keys, 1U, tolerances[t]) == 2U);
    const size_t k2 = check_within(keys, 2U, tolerances[t]);
    assert(k0 >= 2U && k0 < N && k2 > 2U && k2 < N);
    size_t n_any = 0U;
    for (size_t k = 0U; k < N; ++k) {
      const bool any = p4d_keys_kept(keys, k, 0U) ||
                       p4d_keys_kept(keys, k, 1U) || p4d_keys_kept(keys, k, 2U);
      assert(p4d_keys_kept_any(keys, k) == any);
      n_any += any ? 1U : 0U;
    }
    printf("# T %g: %zu, 2 and %zu keys of %d rows, %zu rows of any\n",
           tolerances[t],
           k0,
           k2,
           N,
           n_any);
    p4d_keys_free(keys);
  }
  free(v);
}

/// The rows collected from blocks of any size are the rows of one block:
/// row k is the frame nearest k / fps seconds after the start.
static void
test_collect(void)
{
  enum { N_FRAMES = 4801, NCH = 2 };
  float* frames = (float*)malloc(sizeof(float) * N_FRAMES * NCH);
  assert(frames);
  for (size_t i = 0U; i < (size_t)N_FRAMES * NCH; ++i) {
    frames[i] = (float)i;
  }
  P4dWriterInfo info;
  memset(&info, 0, sizeof(info));
  info.n_channels     = NCH;
  info.sample_rate_hz = 48000.0;
  info.start_frame    = 96000; // 2 s into the song
  info.n_frames       = N_FRAMES;
  info.fps            = 30000.0 / 1001.0;

  static const size_t blocks[] = { N_FRAMES, 1U, 7U, 1600U, 1601U };
  for (size_t b = 0U; b < sizeof(blocks) / sizeof(blocks[0]); ++b) {
    P4dKeys* const keys = p4d_keys_new(NCH);
    int64_t        next = 0;
    for (size_t at = 0U; at < N_FRAMES; at += blocks[b]) {
      const size_t n = at + blocks[b] > N_FRAMES ? N_FRAMES - at : blocks[b];
      assert(p4d_keys_collect(keys,
                              &info,
                              &next,
                              info.start_frame + (int64_t)at,
                              frames + at * NCH,
                              n));
    }
    // 4801 frames at 48 kHz: 0.1 s, rows at 0, 1/29.97, 2/29.97, 3/29.97.
    assert(p4d_keys_n_rows(keys) == 3U && next == 3);
    for (size_t k = 0U; k < 3U; ++k) {
      const int64_t at = p4d_render_row_frame(48000.0, info.fps, (int64_t)k);
      assert(p4d_keys_value(keys, k, 1U) == (float)(at * NCH + 1));
    }
    p4d_keys_free(keys);
  }
  assert(p4d_keys_row_time(&info, 0) == 2.0);
  assert(p4d_keys_row_time(&info, 3) == 2.0 + 3.0 / info.fps);
  free(frames);
  printf("# rows collected alike from blocks of any size\n");
}

int
main(void)
{
  test_straight_line();
  test_edges();
  test_channels();
  test_collect();
  assert(!p4d_keys_new(0U) && !p4d_keys_new(P4D_MAX_CHANNELS + 1U));
  p4d_keys_free(NULL);
  return 0;
}
