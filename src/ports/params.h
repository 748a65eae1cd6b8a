// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file params.h
   The one port table: every plugin of the bundle with every one of its
   ports, and every parameter of every engine, shared by the LV2 glue, the
   TTL generator, the renderer and the tests.

   An engine's parameters are listed once per kind (P4dParam, indexed by a
   parameter id such as P4D_MOD_RATE_HZ); a plugin lists its ports (P4dPort)
   with explicit lv2:index numbers, a control port naming the parameter it
   carries.  Port indices and symbols are a public contract (Ardour keys
   automation by index and values by symbol):

   - indices are append-only per plugin: a new port, control or other,
     takes the next free index of that plugin, so the same new control may
     have different indices in Perlin4D Mod (30) and Perlin4D Mod CV (34);
   - nothing is ever renumbered, removed or renamed once released;
   - a new parameter takes the next free parameter id of its kind (ids are
     internal and may differ from any port index).
*/

#ifndef P4D_PARAMS_H
#define P4D_PARAMS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Unit of a parameter, as the TTL's units: property names it.
typedef enum {
  P4D_UNIT_NONE,
  P4D_UNIT_HZ,
  P4D_UNIT_DB,
  P4D_UNIT_MS,
  P4D_UNIT_BEAT,
  P4D_UNIT_FRAME,
} P4dUnit;

/// Parameter properties (lv2:portProperty).
typedef enum {
  P4D_PARAM_INTEGER     = 1U << 0U, ///< lv2:integer
  P4D_PARAM_ENUMERATION = 1U << 1U, ///< lv2:enumeration (scale points)
  P4D_PARAM_LOGARITHMIC = 1U << 2U, ///< pprops:logarithmic
  P4D_PARAM_TOGGLED     = 1U << 3U, ///< lv2:toggled: an on/off switch
  P4D_PARAM_ENABLED     = 1U << 4U, ///< lv2:designation lv2:enabled (bypass)
} P4dParamFlag;

/// A labelled value of a parameter (lv2:scalePoint).
typedef struct {
  float       value; ///< The value
  const char* label; ///< Its label, NULL at the end of a list
} P4dScalePoint;

/// One control input.
typedef struct {
  const char*          symbol;  ///< LV2 port symbol
  const char*          name;    ///< LV2 port name
  float                minimum; ///< Smallest value
  float                def;     ///< Default value
  float                maximum; ///< Largest value
  P4dUnit              unit;    ///< Unit
  unsigned             flags;   ///< P4dParamFlag bits
  const P4dScalePoint* points; ///< Scale points, ended by a NULL label, or NULL
} P4dParam;

/// The engines a plugin or a render can drive.
typedef enum {
  P4D_KIND_MOD,    ///< Modulator: 4 channels of smooth control signal
  P4D_KIND_NOISE,  ///< Noise texture: stereo audio
  P4D_KIND_MOTION, ///< Motion: the modulation applied to stereo audio
  P4D_KIND_IMAGE,  ///< Image: pictures of the Mod's field (src/image/)
} P4dKind;

/// Perlin4D Mod (and Mod CV) parameters, in port order.
typedef enum {
  P4D_MOD_CLOCK,
  P4D_MOD_RATE_HZ,
  P4D_MOD_PERIOD_BEATS,
  P4D_MOD_OCTAVES,
  P4D_MOD_LACUNARITY,
  P4D_MOD_PERSISTENCE,
  P4D_MOD_SPREAD,
  P4D_MOD_MORPH_X,
  P4D_MOD_MORPH_Y,
  P4D_MOD_MORPH_Z,
  P4D_MOD_SEED,
  P4D_MOD_OUT_MIN,
  P4D_MOD_OUT_MAX,
  P4D_MOD_SMOOTH_MS,
  P4D_MOD_MIDI_CHANNEL,
  P4D_MOD_CC_1,
  P4D_MOD_CC_2,
  P4D_MOD_CC_3,
  P4D_MOD_CC_4,
  P4D_MOD_MIDI_MODE_1, ///< P4dMidiMode of channel 1
  P4D_MOD_MIDI_MODE_2,
  P4D_MOD_MIDI_MODE_3,
  P4D_MOD_MIDI_MODE_4,
  P4D_MOD_LOOP_BEATS, ///< Loop length in beats (song beats clock), 0: off
  P4D_MOD_N_PARAMS
} P4dModParam;

/// Perlin4D Noise parameters, in port order.
typedef enum {
  P4D_NOISE_LEVEL_DB,
  P4D_NOISE_GRAIN_HZ,
  P4D_NOISE_OCTAVES,
  P4D_NOISE_LACUNARITY,
  P4D_NOISE_PERSISTENCE,
  P4D_NOISE_EVOLVE_HZ,
  P4D_NOISE_WIDTH,
  P4D_NOISE_MORPH_X,
  P4D_NOISE_MORPH_Y,
  P4D_NOISE_MORPH_Z,
  P4D_NOISE_SEED,
  P4D_NOISE_CLOCK,
  P4D_NOISE_GUST_DB,
  P4D_NOISE_GUST_HZ,
  P4D_NOISE_GRIT,
  P4D_NOISE_EVENTS,     ///< P4dTextureEvents: none, drops, waves or gusts
  P4D_NOISE_EVENT_HZ,   ///< Events per second on average
  P4D_NOISE_LOOP_BEATS, ///< Loop in song beats (song clock), 0: none
  P4D_NOISE_N_PARAMS
} P4dNoiseParam;

/**
   Perlin4D Motion parameters, in port order.  The time model (clock to
   smooth_ms) is Perlin4D Mod's, with the same symbols, ranges and
   defaults; each target has its own depth and is driven by its own
   channel of the modulation (see src/motion/motion.h).
*/
typedef enum {
  P4D_MOTION_CLOCK,
  P4D_MOTION_RATE_HZ,
  P4D_MOTION_PERIOD_BEATS,
  P4D_MOTION_OCTAVES,
  P4D_MOTION_LACUNARITY,
  P4D_MOTION_PERSISTENCE,
  P4D_MOTION_MORPH_X,
  P4D_MOTION_MORPH_Y,
  P4D_MOTION_MORPH_Z,
  P4D_MOTION_SEED,
  P4D_MOTION_SMOOTH_MS,
  P4D_MOTION_SPREAD,        ///< Left/right decorrelation, 0 (same) to 1
  P4D_MOTION_GAIN_DB,       ///< Gain depth: tremolo / level drift, dB
  P4D_MOTION_PAN_DEPTH,     ///< How far the pan swings, 0 to 1
  P4D_MOTION_WIDTH,         ///< Stereo width of the panned source, 0 to 1
  P4D_MOTION_FILTER_MODE,   ///< P4dMotionFilter
  P4D_MOTION_CUTOFF_HZ,     ///< Filter base cutoff
  P4D_MOTION_FILTER_OCT,    ///< Filter depth in octaves either side
  P4D_MOTION_RESONANCE,     ///< 0 (none) to 1 (near self-oscillation)
  P4D_MOTION_WOW_MS,        ///< Wow depth: delay swing, ms either side
  P4D_MOTION_FLUTTER_RATIO, ///< Flutter rate over the rate
  P4D_MOTION_FLUTTER_MS,    ///< Flutter depth: delay swing, ms either side
  P4D_MOTION_MIX,           ///< Dry 0 to wet 1
  P4D_MOTION_OUTPUT_DB,     ///< Output gain
  P4D_MOTION_ENABLED,       ///< lv2:enabled: 0 bypass, 1 process
  P4D_MOTION_LOOP_BEATS,    ///< Loop length in beats (song beats), 0: off
  /// Wow and flutter left/right: 0 (one capstan, the default) to 1
  P4D_MOTION_TRANSPORT_SPREAD,
  /// P4dMotionTurntable: the wow as a record's warp
  P4D_MOTION_TURNTABLE,
  P4D_MOTION_N_PARAMS
} P4dMotionParam;

/**
   Image parameters (src/image/image.h), in table order.  The field and
   time settings are the Mod's, with its symbols, meanings and ranges; the
   rest place the picture on the field (scale, offsets: in lattice cells)
   and shape it (tile, type, warp, tone, palette, fractal, stretch).  The image
   is no plugin of the bundle: these are the renderer's parameters only.
*/
typedef enum {
  P4D_IMAGE_CLOCK,
  P4D_IMAGE_RATE_HZ,
  P4D_IMAGE_PERIOD_BEATS,
  P4D_IMAGE_OCTAVES,
  P4D_IMAGE_LACUNARITY,
  P4D_IMAGE_PERSISTENCE,
  P4D_IMAGE_SPREAD,
  P4D_IMAGE_MORPH_X,
  P4D_IMAGE_MORPH_Y,
  P4D_IMAGE_MORPH_Z,
  P4D_IMAGE_SEED,
  P4D_IMAGE_LOOP_BEATS,
  P4D_IMAGE_SCALE,    ///< Lattice cells across the width (octave 0)
  P4D_IMAGE_OFFSET_X, ///< Where the left edge sits, in cells
  P4D_IMAGE_OFFSET_Y, ///< Where the top edge sits, in cells
  P4D_IMAGE_TILE,     ///< 1: x and y wrap (whole cells), the image tiles
  P4D_IMAGE_TYPE,     ///< P4dImageType
  P4D_IMAGE_WARP,     ///< Domain-warp amount, in cells
  P4D_IMAGE_TONE,     ///< P4dImageTone
  P4D_IMAGE_PALETTE,  ///< P4dImagePalette
  P4D_IMAGE_FRACTAL,  ///< 0: octaves scale time (the Mod's field); 1: space too
  P4D_IMAGE_STRETCH,  ///< How many times taller than wide a cell is drawn
  P4D_IMAGE_BASIS,    ///< P4dImageBasis: the noise under the octaves
  P4D_IMAGE_N_PARAMS
} P4dImageParam;

/// Values of the Image's type: how each octave's noise n enters the sum.
typedef enum {
  P4D_IMAGE_FBM,        ///< n: the Mod's sum
  P4D_IMAGE_RIDGED,     ///< Musgrave's ridged multifractal
  P4D_IMAGE_BILLOW,     ///< 2|n| - 1
  P4D_IMAGE_TURBULENCE, ///< |n|
  P4D_IMAGE_VEINS,      ///< Marble: bands pushed by the fBm
  P4D_IMAGE_HYBRID,     ///< Musgrave's hybrid multifractal
  P4D_IMAGE_HETERO,     ///< Musgrave's hetero terrain
} P4dImageType;

/// Values of the Image's basis: the noise each octave is made of.
typedef enum {
  P4D_IMAGE_BASIS_IMPROVED4, ///< Improved 4D noise, the Mod's (x, y, z, w)
  P4D_IMAGE_BASIS_CLASSIC3,  ///< Classic 1985 noise in 3D (x, y, w)
  P4D_IMAGE_BASIS_CLASSIC2,  ///< Classic 1985 noise in 2D (x, y): still
  P4D_IMAGE_N_BASES
} P4dImageBasis;

/// Values of the Image's tone map.
typedef enum {
  P4D_IMAGE_TONE_EVEN,   ///< Phi(z), the Mod's even map
  P4D_IMAGE_TONE_LINEAR, ///< 0.5 + z / 6, clamped
} P4dImageTone;

/// Values of the Image's palette.
typedef enum {
  P4D_IMAGE_GREY,
  P4D_IMAGE_MAGMA,
  P4D_IMAGE_OCEAN,
  P4D_IMAGE_TERRAIN,
  P4D_IMAGE_FIRE,
  P4D_IMAGE_MARBLE, ///< Slate veins through grey to cream
  P4D_IMAGE_N_PALETTES
} P4dImagePalette;

/// Values of Motion's filter_mode.
typedef enum {
  P4D_MOTION_FILTER_OFF,
  P4D_MOTION_FILTER_LOW_PASS,
  P4D_MOTION_FILTER_BAND_PASS,
  P4D_MOTION_FILTER_HIGH_PASS,
} P4dMotionFilter;

/// Values of Motion's turntable: the wow becomes a record's warp, once per
/// turn at this speed (src/motion/motion_warp.c).
typedef enum {
  P4D_MOTION_TURNTABLE_OFF, ///< The wow is the Mod's curve
  P4D_MOTION_TURNTABLE_33,  ///< 33 1/3 rpm: 0.556 turns a second
  P4D_MOTION_TURNTABLE_45,  ///< 45 rpm: 0.75 turns a second
  P4D_MOTION_TURNTABLE_78,  ///< 78 rpm: 1.3 turns a second
  P4D_MOTION_N_TURNTABLES
} P4dMotionTurntable;

/// Values of the clock parameters.
typedef enum {
  P4D_CLOCK_SONG_SECONDS, ///< Song position in seconds
  P4D_CLOCK_SONG_BEATS,   ///< Song position in beats (Mod only)
  P4D_CLOCK_FREE,         ///< Free running from activation
} P4dClockMode;

/// The CC number that means "send no CC".
#define P4D_CC_OFF 128

/**
   Values of Mod's midi_mode_n: how channel n goes out as MIDI (see
   src/midi/midi_cc.h for the messages).
*/
typedef enum {
  P4D_MIDI_CC_7,      ///< One 7-bit CC on cc_n
  P4D_MIDI_CC_14,     ///< 14-bit: MSB on cc_n, LSB on cc_n + 32 (cc_n < 32)
  P4D_MIDI_PITCH_BEND ///< 14-bit pitch bend on the MIDI channel
} P4dMidiMode;

/// Most parameters of any kind.
#define P4D_MAX_PARAMS 32U

/// Most output channels of any kind (the Mod's four): the engines' curves,
/// MIDI, the renderer's files and plots size their arrays by it.
#define P4D_MAX_CHANNELS 4U

/// The parameters of one kind of engine.
typedef struct {
  uint32_t        n_params; ///< Number of parameters
  const P4dParam* params;   ///< The parameters, indexed by parameter id
} P4dParamTable;

/// Return the parameter table of kind.
const P4dParamTable*
p4d_params(P4dKind kind);

/// Return the label of unit ("Hz"), "" for P4D_UNIT_NONE.
const char*
p4d_unit_label(P4dUnit unit);

/// Return the URI of unit in the LV2 units extension, NULL for none.
const char*
p4d_unit_uri(P4dUnit unit);

/// The plugin URIs: each is written here and nowhere else.
#define P4D_URI_MOD "urn:perlin4d:mod"
#define P4D_URI_MOD_CV "urn:perlin4d:mod-cv"
#define P4D_URI_NOISE "urn:perlin4d:noise"
#define P4D_URI_MOTION "urn:perlin4d:motion"

/// What the Image's presets apply to (lv2:appliesTo): no plugin of the
/// bundle, the renderer's Image alone (src/image/image_kind.c).
#define P4D_URI_IMAGE "urn:perlin4d:image"

/**
   The plugins of the bundle, in the order lv2_descriptor() lists them, and
   P4D_PLUGIN_NONE, for a kind the renderer alone drives (the Image).
*/
typedef enum {
  P4D_PLUGIN_MOD,
  P4D_PLUGIN_MOD_CV,
  P4D_PLUGIN_NOISE,
  P4D_PLUGIN_MOTION,
  P4D_N_PLUGINS,
  P4D_PLUGIN_NONE = P4D_N_PLUGINS ///< No plugin of the bundle
} P4dPluginId;

/// What a port carries.
typedef enum {
  P4D_PORT_TRANSPORT_IN, ///< Atom sequence in: host transport (time:Position)
  P4D_PORT_MIDI_OUT,     ///< Atom sequence out: MIDI events
  P4D_PORT_CONTROL_IN,   ///< Control in: the parameter numbered by id
  P4D_PORT_CONTROL_OUT,  ///< Control out: channel id's latest value (Mod), or
                         ///< target id's (Motion: P4dMotionNow)
  P4D_PORT_CV_OUT,       ///< CV out: channel id at full rate, optional
  P4D_PORT_AUDIO_OUT,    ///< Audio out: channel id
  P4D_PORT_AUDIO_IN,     ///< Audio in: channel id
  P4D_PORT_LATENCY_OUT,  ///< Control out: the latency in frames
} P4dPortRole;

/// One port of a plugin.
typedef struct {
  uint32_t    index;   ///< lv2:index (append-only, see above)
  P4dPortRole role;    ///< What it carries
  uint32_t    id;      ///< Parameter id (control in) or channel (others)
  P4dUnit     unit;    ///< Unit of a control output
  const char* symbol;  ///< lv2:symbol, NULL for a control in (the param's)
  const char* name;    ///< lv2:name, NULL for a control in (the param's)
  float       minimum; ///< Smallest value of a control or CV output
  float       maximum; ///< Largest value of a control or CV output
} P4dPort;

/// One plugin of the bundle.
typedef struct {
  const char*    uri;       ///< Plugin URI
  const char*    name;      ///< doap:name
  const char*    lv2_class; ///< Plugin class in the lv2 namespace
  const char*    shortdesc; ///< doap:shortdesc: a few words
  const char*    comment;   ///< rdfs:comment: what it does, one sentence
  P4dKind        kind;      ///< The engine it drives
  uint32_t       n_ports;   ///< Number of ports
  const P4dPort* ports;     ///< Ports, in index order: ports[i].index == i
} P4dPlugin;

/// Return the plugin id, which must be below P4D_N_PLUGINS.
const P4dPlugin*
p4d_plugin(P4dPluginId id);

/// Return the plugin with uri, or NULL.
const P4dPlugin*
p4d_plugin_find(const char* uri);

/// Return port index of plugin, or NULL past its last port.
const P4dPort*
p4d_plugin_port(const P4dPlugin* plugin, uint32_t index);

/// Return the port of plugin with role and id, or NULL.
const P4dPort*
p4d_plugin_port_with(const P4dPlugin* plugin, P4dPortRole role, uint32_t id);

/// Return the lv2:symbol of port of plugin.
const char*
p4d_port_symbol(const P4dPlugin* plugin, const P4dPort* port);

/// Return the lv2:name of port of plugin.
const char*
p4d_port_name(const P4dPlugin* plugin, const P4dPort* port);

/**
   Return the symbol of the output that carries channel of kind, the name
   the renderer gives that channel: out_1 to out_4 (Mod), out_l and out_r
   (Noise and Motion); NULL past the last channel.
*/
const char*
p4d_channel_symbol(P4dKind kind, unsigned channel);

/// Return the id of the parameter with symbol in table, or -1.
int
p4d_param_find(const P4dParamTable* table, const char* symbol);

/**
   Clamp a control value into the parameter's range.

   NaN maps to the default, infinities to the nearest bound; integer and
   enumeration values round to the nearest whole number.  Realtime safe.
*/
float
p4d_param_clamp(const P4dParam* param, float value);

/**
   What param does beyond its name, as one sentence for the port's
   rdfs:comment (a tooltip in hosts), or NULL.
*/
const char*
p4d_param_comment(const P4dParam* param);

/// Set values[i] to the default of every parameter of table.
void
p4d_param_defaults(const P4dParamTable* table, float* values);

#ifdef __cplusplus
}
#endif

#endif // P4D_PARAMS_H
