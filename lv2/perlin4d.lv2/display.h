// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file display.h
   The inline display of every plugin of the bundle (Ardour's mixer strip,
   Carla's rack): http://harrisonconsoles.com/lv2/inlinedisplay.

   Mod, Mod CV and Motion draw their curves over a window of song time
   that follows the rate (p4d_display_span()), the playhead
   P4D_DISPLAY_PAST of the way across it, computed in render() from
   the pure function (p4d_engine_preview()), so the future shown is what
   will play (glides aside): on a song clock from the song position, which
   stands still while the transport is stopped (the picture shows what
   plays when it starts); on a free-running clock from the engine's own
   time line, which moves on whatever the transport does.  Noise draws its
   gust envelope: the texture's gain in dB over the same window, where 0 dB
   is the level control.

   Threads.  At the end of each run, run() (audio class) publishes the
   parameters and where the engine stands (p4d_engine_position()) through a
   seqlock of C11 atomics; render() (the host's GUI thread, concurrently)
   copies a consistent snapshot, evaluates and draws.  run() allocates
   nothing; the pixels and the columns are allocated by render() when the
   host first asks for that size, and the scratch engine at instantiation.
*/

#ifndef P4D_DISPLAY_H
#define P4D_DISPLAY_H

#include "engine.h"
#include "kind.h"
#include "params.h"
#include "theme.h"

#include <lv2/core/lv2.h>

#include <stdbool.h>
#include <stdint.h>

/*
  The extension, declared from Ardour's public header
  (libs/ardour/ardour/lv2_extensions.h): the host may pass a queue_draw
  feature, and asks extension_data() for the interface.
*/

#define P4D_IDPY_URI "http://harrisonconsoles.com/lv2/inlinedisplay"
#define P4D_IDPY__interface P4D_IDPY_URI "#interface"
#define P4D_IDPY__queue_draw P4D_IDPY_URI "#queue_draw"

/// An ARGB32 image (native-endian 32-bit words, alpha in the top byte),
/// owned by the plugin and valid until cleanup().
typedef struct {
  unsigned char* data;
  int            width;
  int            height;
  int            stride; ///< Bytes per row
} P4dIdpySurface;

/// The host's feature: queue_draw(handle) asks for a render() soon; it may
/// be called from run().
typedef struct {
  void* handle;
  void (*queue_draw)(void* handle);
} P4dIdpyQueueDraw;

/// The plugin's interface: render an image at most w wide and h high.
typedef struct {
  P4dIdpySurface* (*render)(LV2_Handle instance, uint32_t w, uint32_t h);
} P4dIdpyInterface;

/**
   The window drawn, in seconds of song: P4D_DISPLAY_CYCLES periods of the
   slowest octave (1 / rate_hz; on a song beats clock period_beats beats
   at the song's tempo; the Noise's gusts: 1 / gust_hz), within
   P4D_DISPLAY_MIN_S to P4D_DISPLAY_MAX_S.  The playhead is in column
   floor(w * P4D_DISPLAY_PAST), column x shows the frame
   llround((x - that column) * span * rate / w) from it, and its run
   covers the P4D_DISPLAY_STEPS + 1 frames likewise at x - 0.5,
   x - 0.5 + 1 / P4D_DISPLAY_STEPS, ... x + 0.5 (p4d_display_offset()):
   where cycles are denser than pixels the curve is a band from its
   minimum to its maximum (draw.h).  The inner frames are evaluated only
   where a curve may reach beyond its column's edges (display.c,
   sample()); elsewhere the run is the one between the edges.
*/
#define P4D_DISPLAY_CYCLES 4.0
#define P4D_DISPLAY_MIN_S 0.25
#define P4D_DISPLAY_MAX_S 240.0
#define P4D_DISPLAY_PAST 0.375
#define P4D_DISPLAY_STEPS 4U

/**
   The Noise's backdrop: its spectrum envelope (the octaves' weights, the
   band limit and the noise's roll-off above each octave's cell rate:
   display_spectrum.c, noise_power())
   from P4D_DISPLAY_SPECTRUM_LOW_HZ (left) to P4D_DISPLAY_SPECTRUM_HIGH_HZ
   (right) on a log scale, its highest point at the top and
   P4D_DISPLAY_SPECTRUM_DB under it at the bottom, filled in the third
   curve colour at P4D_DISPLAY_SPECTRUM_FILL; a dotted line at the band
   limit (20 kHz, or Nyquist if lower).  With gusts or grit, their time
   line over it (the past darkened, the 0 dB line, the curves, the
   playhead); without, the spectrum alone (nothing moves).
*/
#define P4D_DISPLAY_SPECTRUM_LOW_HZ 20.0
#define P4D_DISPLAY_SPECTRUM_HIGH_HZ 24000.0
#define P4D_DISPLAY_SPECTRUM_DB 48.0
#define P4D_DISPLAY_SPECTRUM_FILL 0.3
#define P4D_DISPLAY_GRAIN_KNEE 0.64

/// Widest image drawn (a wider offer gets this width).
#define P4D_DISPLAY_MAX_W 2048U

/// Most draws queued per second of audio.
#define P4D_DISPLAY_FPS 30.0

/// The Noise's dB scale: the top and the bottom of the image.
#define P4D_DISPLAY_NOISE_TOP_DB P4D_NOISE_PREVIEW_TOP_DB
#define P4D_DISPLAY_NOISE_BOTTOM_DB P4D_NOISE_PREVIEW_BOTTOM_DB

/// Colours of the curves, opaque ARGB: channel (or target) 1 to 4, the
/// dark theme's (theme.h).
#define P4D_DISPLAY_CURVE_1 P4D_THEME_DARK_1
#define P4D_DISPLAY_CURVE_2 P4D_THEME_DARK_2
#define P4D_DISPLAY_CURVE_3 P4D_THEME_DARK_3
#define P4D_DISPLAY_CURVE_4 P4D_THEME_DARK_4

/// The display of one instance; opaque.
typedef struct P4dDisplayImpl P4dDisplay;

/**
   Create the display of a plugin of kind (its class) at sample_rate_hz.
   Not realtime safe: call from instantiate().  NULL when out of memory.
*/
P4dDisplay*
p4d_display_new(const P4dKindClass* kind, double sample_rate_hz);

/// Free a display; NULL is fine.  Not realtime safe.
void
p4d_display_free(P4dDisplay* display);

/**
   Start over after an activation: the next run queues a draw.
   Instantiation class.
*/
void
p4d_display_activate(P4dDisplay* display);

/**
   End a run of n_frames: publish where processor (an instance of the
   display's kind) stands after it, with the clamped parameter values
   params, if the picture they give changed.  Returns
   whether to queue a draw: after such a change (every run while a song
   clock rolls or a free-running clock runs; not while a song clock stands
   still), at most P4D_DISPLAY_FPS times per second of audio.  Audio class:
   realtime safe, lock-free, no allocation.
*/
bool
p4d_display_run(P4dDisplay*  display,
                const float* params,
                const void*  processor,
                uint32_t     n_frames);

/**
   Draw the display at most w pixels wide and h high (w wide, or
   P4D_DISPLAY_MAX_W if less, and h or half that width high, whichever is
   less) and return it; NULL when the host offers
   no room or memory runs out.  GUI class: may run at the same time as
   p4d_display_run(); allocates when the size grows.
*/
P4dIdpySurface*
p4d_display_render(P4dDisplay* display, uint32_t w, uint32_t h);

/**
   The window, in seconds, the display of kind draws for params on a song
   at bpm (see P4D_DISPLAY_CYCLES).  Realtime safe.
*/
double
p4d_display_span(const P4dKindClass* kind, const float* params, double bpm);

/**
   The song frame shown at column x (fractional: column x covers x - 0.5
   to x + 0.5) of an image w wide over a window span_s seconds long,
   relative to the playhead, at sample_rate_hz.  The playhead is in the
   column where this is 0.  Realtime safe.
*/
int64_t
p4d_display_offset(double span_s, uint32_t w, double x, double sample_rate_hz);

/// The column of the playhead in an image w wide.  Realtime safe.
uint32_t
p4d_display_head(uint32_t w);

#endif // P4D_DISPLAY_H
