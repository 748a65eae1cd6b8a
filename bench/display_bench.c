// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  display-bench: what one render() of the inline display costs on the GUI
  thread, per plugin (Mod, Mod CV, Noise, Motion), at its defaults and at
  a busy preset, at a mixer strip's size (90 x 50 offered) and at 240 x
  112.  Each row is one display fed one block of run() and then rendered
  over and over (the controls stand still, as between two moves of a
  knob; the curves are computed afresh every render, as they are while
  the transport rolls).

  Usage:
    display-bench              every row: microseconds per render (the
                               best of 5 interleaved rounds of 50 renders)
                               and a checksum of the image (FNV-1a of its
                               pixels: a change that must keep the
                               pixels keeps the checksums)
    display-bench --rows       the rows' names
    display-bench ROW N        one row: one render, then N more, nothing
                               timed (for callgrind: bench/display-
                               callgrind.sh counts the instructions of N
                               renders as the difference of two runs)
*/

#define _POSIX_C_SOURCE 199309L

#include "display.h"
#include "kind.h"
#include "params.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 5
#define RENDERS 50

/// A plugin and the controls it is shown at.
typedef struct {
  unsigned    kind;   ///< p4d_kind_at()'s index
  const char* name;   ///< The row's name, before the size
  const char* preset; ///< "symbol=value ..." over the defaults
} Setting;

/// The Mod's preset Nervous jitter, as controls.
#define NERVOUS \
  "rate_hz=8 octaves=5 lacunarity=2.5 persistence=0.7 spread=1 smooth_ms=5"

static const Setting settings[] = {
  { 0U, "mod/default", "" },
  { 0U, "mod/nervous", NERVOUS },
  { 1U, "modcv/default", "" },
  { 1U, "modcv/nervous", NERVOUS },
  { 2U, "noise/default", "" },
  { 2U,
    "noise/wind",
    "level_db=-15 grain_hz=150 octaves=5 lacunarity=2 persistence=0.6 "
    "evolve_hz=0.3 gust_db=4 gust_hz=0.7 events=3 event_hz=0.5" },
  { 3U, "motion/default", "" },
  { 3U,
    "motion/tape",
    "rate_hz=0.6 octaves=2 persistence=0.35 smooth_ms=20 spread=0.1 "
    "gain_db=0.5 pan_depth=0 filter_mode=0 resonance=0.2 wow_ms=1 "
    "flutter_ratio=12 flutter_ms=0.1" },
};

#define N_SETTINGS (sizeof(settings) / sizeof(settings[0]))

/// The sizes offered: a mixer strip's, and Ardour's larger box.
static const uint32_t sizes[][2] = { { 90U, 50U }, { 240U, 112U } };

#define N_SIZES (sizeof(sizes) / sizeof(sizes[0]))
#define N_ROWS (N_SETTINGS * N_SIZES)

/// One row: a display, its processor, its size.
typedef struct {
  char                name[64];
  const P4dKindClass* kind;
  P4dDisplay*         display;
  void*               processor;
  uint32_t            w;
  uint32_t            h;
} Row;

static double
now_us(void)
{
  struct timespec t = { 0, 0 };
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1.0e6 + (double)t.tv_nsec * 1.0e-3;
}

/// FNV-1a (64 bits) of the bytes of an image.
static uint64_t
checksum(const P4dIdpySurface* s)
{
  const size_t n = (size_t)s->stride * (size_t)s->height;
  uint64_t     h = 0xCBF29CE484222325U;
  for (size_t i = 0U; i < n; ++i) {
    h = (h ^ s->data[i]) * 0x100000001B3U;
  }
  return h;
}

/// The controls of setting s into params; false on an unknown symbol.
static int
controls(const Setting* s, float* params)
{
  const P4dParamTable* const table = p4d_kind_params(p4d_kind_at(s->kind));
  p4d_param_defaults(table, params);
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s->preset);
  for (char* tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
    char* const eq = strchr(tok, '=');
    if (!eq) {
      return 0;
    }
    *eq          = '\0';
    const int id = p4d_param_find(table, tok);
    if (id < 0) {
      fprintf(stderr, "display-bench: no control %s\n", tok);
      return 0;
    }
    params[id] = strtof(eq + 1, NULL);
  }
  return 1;
}

/// Set up row r (setting r / N_SIZES, size r % N_SIZES); false on failure.
static int
row_new(unsigned r, Row* row)
{
  const Setting* const s = &settings[r / N_SIZES];
  row->kind              = p4d_kind_at(s->kind);
  row->w                 = sizes[r % N_SIZES][0];
  row->h                 = sizes[r % N_SIZES][1];
  snprintf(row->name,
           sizeof row->name,
           "%s/%ux%u",
           s->name,
           (unsigned)row->w,
           (unsigned)row->h);
  float params[P4D_MAX_PARAMS];
  row->processor = NULL;
  row->display   = row->kind ? p4d_display_new(row->kind, 48000.0) : NULL;
  if (!row->display || !controls(s, params) ||
      row->kind->create(48000.0, &row->processor)) {
    p4d_display_free(row->display);
    return 0;
  }
  (void)p4d_display_run(row->display, params, row->processor, 256U);
  return 1;
}

static void
row_free(Row* row)
{
  p4d_display_free(row->display);
  row->kind->destroy(row->processor);
}

/// One row under callgrind: one render, then n more.
static int
count(const char* name, long n)
{
  for (unsigned r = 0U; r < N_ROWS; ++r) {
    Row row;
    if (!row_new(r, &row)) {
      return 1;
    }
    if (!strcmp(row.name, name)) {
      for (long i = 0; i <= n; ++i) {
        (void)p4d_display_render(row.display, row.w, row.h);
      }
      row_free(&row);
      return 0;
    }
    row_free(&row);
  }
  fprintf(stderr, "display-bench: no row %s\n", name);
  return 1;
}

int
main(int argc, char** argv)
{
  if (argc == 3) {
    return count(argv[1], strtol(argv[2], NULL, 10));
  }

  static Row rows[N_ROWS];
  for (unsigned r = 0U; r < N_ROWS; ++r) {
    if (!row_new(r, &rows[r])) {
      fprintf(stderr, "display-bench: row %u failed\n", r);
      return 1;
    }
  }
  if (argc == 2 && !strcmp(argv[1], "--rows")) {
    for (unsigned r = 0U; r < N_ROWS; ++r) {
      printf("%s\n", rows[r].name);
    }
    return 0;
  }

  double                best[N_ROWS];
  const P4dIdpySurface* image[N_ROWS];
  for (unsigned r = 0U; r < N_ROWS; ++r) {
    best[r]  = 1.0e30;
    image[r] = p4d_display_render(rows[r].display, rows[r].w, rows[r].h);
  }
  // Rounds interleave the rows, so a change of the machine's load moves
  // every row alike.
  for (int round = 0; round < ROUNDS; ++round) {
    for (unsigned r = 0U; r < N_ROWS; ++r) {
      const double t0 = now_us();
      for (int i = 0; i < RENDERS; ++i) {
        image[r] = p4d_display_render(rows[r].display, rows[r].w, rows[r].h);
      }
      const double us = (now_us() - t0) / RENDERS;
      best[r]         = us < best[r] ? us : best[r];
    }
  }
  for (unsigned r = 0U; r < N_ROWS; ++r) {
    printf("%-28s %8.1f us per render  (pixels %016" PRIx64 ")\n",
           rows[r].name,
           best[r],
           image[r] ? checksum(image[r]) : 0U);
    row_free(&rows[r]);
  }
  return 0;
}
