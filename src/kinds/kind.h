// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file kind.h
   One class per kind of processor: a const table of the operations and
   facts that the drivers (the LV2 glue, the inline display, the renderer)
   need, so that no driver ever asks which kind it runs.

   Each engine's folder defines its own classes (src/engine/engine_kind.c:
   Mod, Mod CV and Noise; src/motion/motion_kind.c: Motion) and kinds.c
   lists them: adding a kind is one class file and one line in that list.
   The port table (params.h) stays the one truth of parameters and ports;
   a class names its parameter table by its P4dKind and its plugin by its
   P4dPluginId.

   A driver holds a pointer to the class and an instance that the class's
   new() made; every operation takes that instance.
*/

#ifndef P4D_KIND_H
#define P4D_KIND_H

#include "engine.h"
#include "params.h"
#include "status.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Curves an inline display draws at most, and the rows of values (one
/// float per column each) a preview may fill: curves first, then scratch.
#define P4D_PREVIEW_CURVES 4U
#define P4D_PREVIEW_ROWS 8U

/// Song positions a preview reads at most (Motion: its left side and its
/// flutter engine).
#define P4D_PREVIEW_POSITIONS 2U

/**
   How a preview's curves are drawn: rows[k] for k below
   P4D_PREVIEW_CURVES, where shown[k], in the k-th colour, last curve
   first; on the scale from low (the bottom) to high (the top), with a
   dashed line at grid.
*/
typedef struct {
  double low;                       ///< Value at the bottom of the image
  double high;                      ///< Value at the top of the image
  double grid;                      ///< Value of the dashed line
  bool   shown[P4D_PREVIEW_CURVES]; ///< Which curves are drawn
} P4dPreviewScale;

typedef struct P4dKindClassImpl P4dKindClass;

/// The class of a kind of processor: what it is, and its operations.
struct P4dKindClassImpl {
  /// Its name on the renderer's command line (--plugin), or NULL if the
  /// renderer reaches it as another class (Mod CV: as Mod).
  const char* name;

  /// The class the renderer renders it as (itself, or Mod for Mod CV).
  const P4dKindClass* renders_as;

  P4dPluginId plugin;   ///< The plugin of the bundle it serves, or
                        ///< P4D_PLUGIN_NONE (the renderer alone)
  P4dKind  params;      ///< Its parameter table: p4d_params(params)
  unsigned n_channels;  ///< Output channels
  bool     takes_input; ///< Processes stereo input audio
  bool     in_place;    ///< process() takes the host's buffers as they
                        ///< are, aliases included

  /// Its clock parameter, and what each of its values means.
  uint32_t            clock_param;
  uint32_t            n_clock_modes;
  const P4dClockMode* clock_modes;

  /// Its loop length parameter (song beats), or -1 without one.
  int loop_param;

  /// Song positions its preview reads (see position()).
  unsigned n_positions;

  /**
     Whether it renders pictures: frames through src/image/image.h, not
     sound through the operations below, which are all NULL.  The renderer
     routes on this (never on a name).
  */
  bool pictures;

  /// Its name in messages when it serves no plugin (else the plugin's).
  const char* title;

  /// What its presets apply to (lv2:appliesTo) when it serves no plugin
  /// (else the plugin's URI).
  const char* uri;

  /**
     The file in the bundle that holds its presets when it serves no plugin
     (the manifest does not list it: hosts never see them), or NULL.
  */
  const char* presets_file;

  /**
     A class whose presets it takes too, by the symbols they share (others
     are ignored silently): the Image takes the Mod's, so that
     `--preset breathing --plugin image` is the picture of Breathing.  Or
     NULL.
  */
  const P4dKindClass* takes_presets_of;

  /**
     Create an instance at sample_rate_hz.  Not realtime safe: call from
     instantiate().
  */
  P4dStatus (*create)(double sample_rate_hz, void** instance);

  /// Free an instance; NULL is fine.  Not realtime safe.
  void (*destroy)(void* instance);

  /// Restart at frame 0 with no transport known.  Realtime safe.
  void (*activate)(void* instance);

  /// Restart at song frame frame at bpm, no host transport.  Realtime safe.
  void (*activate_at)(void* instance, int64_t frame, double bpm);

  /// The host transport at the next frame.  Realtime safe.
  void (*transport)(void* instance, const P4dTransport* transport);

  /// The first frame to process from so that the output from frame on is
  /// exact; params: those it will be processed with, if held, or NULL if
  /// they may change (the answer then holds for any).  Realtime safe.
  int64_t (*exact_from)(const void*  instance,
                        int64_t      frame,
                        const float* params);

  /**
     Process n_frames: params holds one raw value per parameter; in the
     input channels (takes_input only); out one buffer per channel, or
     NULL to advance the parameter state only.  Realtime safe.
  */
  void (*process)(void*              instance,
                  const float*       params,
                  const float* const in[],
                  float* const       out[],
                  uint32_t           n_frames);

  /**
     The values of the plugin's control outputs after the last process()
     (values[id] for each P4D_PORT_CONTROL_OUT id, below
     P4D_MAX_CHANNELS); false if there is nothing new to show since the
     last call.  Realtime safe.
  */
  bool (*controls)(void* instance, float* values);

  /// The latency in frames.  Realtime safe.
  uint32_t (*latency)(const void* instance);

  /// Where preview position k (below n_positions) stands.  Realtime safe.
  void (*position)(const void* instance, unsigned k, P4dPosition* position);

  /**
     Create the scratch engine that preview() evaluates with.  Not realtime
     safe.
  */
  P4dStatus (*scratch_new)(double sample_rate_hz, P4dEngine** scratch);

  /**
     Evaluate the curves the inline display shows for params at the
     positions at (n_positions of them), at offsets[i] frames from each, for
     i below n, into rows (P4D_PREVIEW_ROWS rows of n floats), and say how
     to draw them.  Realtime safe.
  */
  void (*preview)(P4dEngine*         scratch,
                  const float*       params,
                  const P4dPosition* at,
                  const int64_t*     offsets,
                  uint32_t           n,
                  float* const       rows[P4D_PREVIEW_ROWS],
                  P4dPreviewScale*   scale);
};

/*
  The list.  Every function below only reads const tables: realtime safe,
  and safe from any thread.
*/

/**
   The class at index i of the list (kinds.c), or NULL past its end.
   Realtime safe.
*/
const P4dKindClass*
p4d_kind_at(unsigned i);

/// The place of kind in the list (its index).  Realtime safe.
unsigned
p4d_kind_index(const P4dKindClass* kind);

/// The class with name on the command line (--plugin), or NULL (name NULL
/// too).  Realtime safe.
const P4dKindClass*
p4d_kind_by_name(const char* name);

/// The class that serves plugin, or NULL.  Realtime safe.
const P4dKindClass*
p4d_kind_by_plugin(P4dPluginId plugin);

/// The class that serves the plugin with uri, or NULL.  Realtime safe.
const P4dKindClass*
p4d_kind_by_uri(const char* uri);

/**
   The class the renderer takes without --plugin: the one that processes
   an input if there is one (input true), else the noise.  Realtime safe.
*/
const P4dKindClass*
p4d_kind_default(bool input);

/// The parameter table of a class.  Realtime safe.
const P4dParamTable*
p4d_kind_params(const P4dKindClass* kind);

/// The plugin of a class, or NULL if it serves none (P4D_PLUGIN_NONE).
/// Realtime safe.
const P4dPlugin*
p4d_kind_plugin(const P4dKindClass* kind);

/// The name of a class in messages ("Perlin4D Mod"): its plugin's, or its
/// title.  Realtime safe.
const char*
p4d_kind_title(const P4dKindClass* kind);

/// The URI its presets apply to: its plugin's, or its own.  Realtime safe.
const char*
p4d_kind_uri(const P4dKindClass* kind);

/**
   The clock mode of params (clamped values, one per parameter of kind):
   what the value of its clock parameter means; a value that is none of
   the clock's is song seconds.  Realtime safe.
*/
P4dClockMode
p4d_kind_clock(const P4dKindClass* kind, const float* params);

/// The value of kind's clock parameter that means mode, or -1 if none.
/// Realtime safe.
int
p4d_kind_clock_value(const P4dKindClass* kind, P4dClockMode mode);

#ifdef __cplusplus
}
#endif

#endif // P4D_KIND_H
