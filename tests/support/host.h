// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The in-process LV2 host of the tests: loads the built perlin4d.lv2 by
  path with lilv and runs Perlin4D Mod, Mod CV, Noise and Motion as a host
  does (Motion with its audio inputs on the host's buffers, which may be
  its outputs),
  with urid:map or with no features at all, with host transport
  (time:Position objects built with the atom forge) or without, in blocks
  of any size, with presets restored through lilv_state.

  Every run checks its outputs (host_checks.h): each finite, free of
  denormals and within the range the controls set, and the MIDI output a
  well formed sequence of control changes, which it logs.  The buffers a
  render writes into, and their comparison, are in dest.h.
*/

#ifndef P4D_TEST_HOST_H
#define P4D_TEST_HOST_H

#include <lilv/lilv.h>
#include <lv2/atom/forge.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// The plugins, as the tests know them (not from the parameter table).
#define P4D_HOST_URI_MOD "urn:perlin4d:mod"
#define P4D_HOST_URI_MOD_CV "urn:perlin4d:mod-cv"
#define P4D_HOST_URI_NOISE "urn:perlin4d:noise"
#define P4D_HOST_URI_MOTION "urn:perlin4d:motion"

/// The sample rate of the host tests, and one second at it in frames.
#define P4D_HOST_RATE 48000.0
#define P4D_HOST_SECOND 48000U

/// Song positions for the transport cases: 90 s and 10 s into the song.
#define P4D_HOST_SONG_F ((int64_t)P4D_HOST_SECOND * 90 + 123)
#define P4D_HOST_SONG_G ((int64_t)P4D_HOST_SECOND * 10 + 7)

/// Most ports of any plugin, and most signal or control outputs.
#define P4D_HOST_MAX_PORTS 40U
#define P4D_HOST_MAX_OUTS 4U

/// Bytes of each atom port buffer: a realistic host capacity.
#define P4D_HOST_SEQ_BYTES 8192U

/// Most CC events logged between two activations.
#define P4D_HOST_LOG_CAPACITY 8192U

/// The case running, for messages when an assertion fails.
extern char p4d_host_case[160];

/// A MIDI message the plugin sent: a CC, or a pitch bend (status En).
typedef struct {
  int64_t frame;      ///< Frames since activate()
  uint8_t controller; ///< First data byte (a pitch bend's LSB)
  uint8_t value;      ///< Second data byte (a pitch bend's MSB)
  uint8_t status;     ///< Status byte
} P4dHostCc;

/// Where a render writes: one value per frame from the render's start.
typedef struct {
  float* sig[P4D_HOST_MAX_OUTS]; ///< CV or audio output n, or NULL:
                                 ///< left unconnected
  float* ctl[P4D_HOST_MAX_OUTS]; ///< out_n after each run at the block's
                                 ///< last frame (NaN where no block
                                 ///< ended), or NULL
} P4dDest;

/// Host transport for a render: a time:Position at every block start.
typedef struct {
  bool    on;        ///< Send positions
  bool    beat_form; ///< time:beat instead of time:bar and time:barBeat
  bool    mid;       ///< Also send one in the middle of every block
  int64_t frame;     ///< Song frame of the next block
  float   speed;     ///< 0 stopped, 1 rolling
  double  bpm;       ///< Tempo
} P4dHostTransport;

/// One property of an object the host sends.
typedef struct {
  const char* key;  ///< Property URI
  char        type; ///< 'l' Long, 'i' Int, 'f' Float, 'd' Double
  int64_t     l;    ///< Value of a Long or Int
  double      d;    ///< Value of a Float or Double
} P4dHostField;

typedef struct {
  const LilvPlugin* plugin;
  LilvInstance*     instance;
  double            rate;     ///< Sample rate in Hz
  bool              noise;    ///< Perlin4D Noise
  bool              motion;   ///< Perlin4D Motion (else a Mod if not Noise)
  bool              with_map; ///< Instantiated with urid:map
  bool              active;
  uint32_t          n_ports;
  const char*       symbol[P4D_HOST_MAX_PORTS];
  bool              control_in[P4D_HOST_MAX_PORTS];
  bool              integer[P4D_HOST_MAX_PORTS];
  float             def[P4D_HOST_MAX_PORTS];
  float             minimum[P4D_HOST_MAX_PORTS];
  float             maximum[P4D_HOST_MAX_PORTS];
  float             value[P4D_HOST_MAX_PORTS]; ///< Control port buffers
  uint32_t          n_signals;
  uint32_t          signal_port[P4D_HOST_MAX_OUTS]; ///< cv_n, or out_l
                                                    ///< and out_r
  uint32_t n_outs;
  uint32_t out_port[P4D_HOST_MAX_OUTS]; ///< out_n outputs, or
                                        ///< Motion's targets
  uint32_t n_ins;
  uint32_t in_port[2];               ///< Motion's in_l and in_r
  float*   in_sig[2];                ///< What each input reads, one value per
                                     ///< frame of the render, or NULL: left
                                     ///< unconnected
  int                  latency_port; ///< Motion's latency output, else -1
  int                  midi_port;    ///< -1 if none
  bool                 midi_connected;
  uint32_t             midi_capacity; ///< atom.size set before each run
  float*               out_alias;     ///< Every out_n connected here, or NULL
  LV2_Atom_Forge       forge;
  LV2_Atom_Forge_Frame sequence;
  bool                 control_set; ///< Events wait for the next run
  int64_t              frame;       ///< Frames since activate()
  bool                 ran;  ///< A run of at least one frame since activate()
  double               lo;   ///< Lowest output allowed since activate()
  double               hi;   ///< Highest output allowed since activate()
  double               peak; ///< Largest |output| of the current run
  double               peak_db; ///< Noise: largest |output| re level_db
  size_t               n_ccs;
  P4dHostCc            ccs[P4D_HOST_LOG_CAPACITY];
  uint64_t             control[P4D_HOST_SEQ_BYTES / 8U];
  uint64_t             midi[P4D_HOST_SEQ_BYTES / 8U];
} P4dHost;

// -- The world -------------------------------------------------------------

/// Load one bundle folder into world (a path, with or without a final '/').
void
p4d_world_load_bundle(LilvWorld* world, const char* dir);

/// Open the host's world with the bundle at bundle_dir, and only it.
LilvWorld*
p4d_host_world_open(const char* bundle_dir);

/// The plugins of the bundle that make their signal from nothing (Motion,
/// which processes audio, has tests of its own).
extern const char* const p4d_host_uris[3];

/**
   Start a test program whose one argument is the bundle folder: check the
   command line (exit 2 if it is wrong), make stdout line-buffered so that
   results appear even if an assertion aborts, and open the lilv world.
*/
void
p4d_host_main(int argc, char** argv);

void
p4d_host_world_close(void);

/// The plugin of the bundle with this URI.
const LilvPlugin*
p4d_host_plugin(const char* uri);

// -- Instances -------------------------------------------------------------

/// Instantiate uri at rate, every control input at its TTL default.
P4dHost*
p4d_host_new(const char* uri, double rate, bool with_map);

void
p4d_host_free(P4dHost* h);

/// activate(), after deactivate() if active; clears the bounds and the log.
void
p4d_host_activate(P4dHost* h);

/// The index of the port with this symbol (which must exist).
uint32_t
p4d_host_port(const P4dHost* h, const char* symbol);

/// Set a control input.
void
p4d_host_set(P4dHost* h, const char* symbol, float value);

/// Set every control input to its default.
void
p4d_host_set_defaults(P4dHost* h);

/// The value of a control input as the plugin must see it, from the TTL.
float
p4d_host_clamped(const P4dHost* h, const char* symbol);

/// Set the controls from a preset of the bundle, as a host loads it.
void
p4d_host_load_preset(P4dHost* h, const char* uri);

/// Connect midi_out (a Mod's), or leave it unconnected.
void
p4d_host_connect_midi(P4dHost* h, bool connect);

/// "noise", "motion", "mod" or "mod-cv".
const char*
p4d_host_name(const P4dHost* h);

/// Set constant, non-default controls that exercise the whole signal path.
void
p4d_host_set_lively(P4dHost* h);

// -- Running -----------------------------------------------------------------

/// Run one block of n frames that starts at frame `at` of d (or NULL), and
/// check its outputs.
void
p4d_host_run(P4dHost* h, const P4dDest* d, size_t at, uint32_t n);

/// Append an object to the control input of the next run, at frame `at`.
void
p4d_host_send_object(P4dHost*            h,
                     uint32_t            at,
                     const char*         otype,
                     const P4dHostField* fields,
                     size_t              n_fields);

/// Append an atom:Int event, not an object, to the next run.
void
p4d_host_send_int(P4dHost* h, uint32_t at, int32_t value);

/// Append a time:Position at song frame `frame` to the next run.
void
p4d_host_send_position(P4dHost*                h,
                       uint32_t                at,
                       const P4dHostTransport* tr,
                       int64_t                 frame);

/**
   Render n frames into d from frame 0, in blocks of the sizes of pattern
   (repeated); with transport, a time:Position starts every block.  Returns
   the number of runs.
*/
size_t
p4d_host_render(P4dHost*          h,
                const P4dDest*    d,
                size_t            n,
                const uint32_t*   pattern,
                size_t            n_pattern,
                P4dHostTransport* tr);

/// Block sizes of every kind: 0, 1, odd, powers of two and around them.
extern const uint32_t p4d_host_mixed[];
#define P4D_HOST_N_MIXED 14U

#endif // P4D_TEST_HOST_H
