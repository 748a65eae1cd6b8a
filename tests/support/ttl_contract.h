// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The plugins' released contract, written out by hand for test_ttl: every
  port of every plugin (index, symbol, name, type, direction, range,
  default, unit, properties, scale points), its class and how many presets
  it has at least.  Deliberately not read from the port table the TTL is
  generated from (a test that reads the table it checks proves nothing).
*/

#ifndef P4D_TEST_TTL_CONTRACT_H
#define P4D_TEST_TTL_CONTRACT_H

#include <stdint.h>

/// What a port is: its type and direction.
typedef enum {
  P4D_TTL_ATOM_IN,     ///< atom:Sequence input, time:Position, lv2:control
                       ///< designation
  P4D_TTL_MIDI_OUT,    ///< atom:Sequence output of midi:MidiEvent
  P4D_TTL_CONTROL_IN,  ///< lv2:ControlPort input, with default, minimum and
                       ///< maximum
  P4D_TTL_CONTROL_OUT, ///< lv2:ControlPort output, with minimum and maximum
  P4D_TTL_CV_OUT,      ///< lv2:CVPort output, lv2:connectionOptional
  P4D_TTL_AUDIO_OUT,   ///< lv2:AudioPort output
  P4D_TTL_AUDIO_IN,    ///< lv2:AudioPort input
  P4D_TTL_LATENCY_OUT, ///< lv2:ControlPort output, lv2:reportsLatency,
                       ///< lv2:latency
} P4dTtlKind;

/// The port properties a port has: it must have no other.  P4D_TTL_ENABLED is
/// the designation lv2:enabled, which hosts use for their bypass switch.
enum {
  P4D_TTL_INT     = 1U,
  P4D_TTL_ENUM    = 2U,
  P4D_TTL_LOG     = 4U,
  P4D_TTL_TOGGLED = 8U,
  P4D_TTL_ENABLED = 16U
};

typedef struct {
  float       value;
  const char* label; ///< NULL ends a list
} P4dTtlPoint;

typedef struct {
  const char*        symbol;
  const char*        name;
  uint32_t           index;
  P4dTtlKind         kind;
  float              def; ///< Control inputs only
  float              min; ///< Control ports and CV outputs only
  float              max;
  unsigned           props;
  const char*        unit;    ///< units:unit, NULL for none
  const P4dTtlPoint* points;  ///< lv2:scalePoint, NULL for none
  const char*        comment; ///< rdfs:comment, NULL for none
} P4dTtlPort;

/// What one plugin must be.
typedef struct {
  const char*       uri;
  const char*       name;
  const char*       class_uri;
  const P4dTtlPort* ports;
  uint32_t          n_ports;
  unsigned          min_presets; ///< released presets may not disappear
} P4dTtlPlugin;

/// The plugins of the bundle, in the order of the contract.
#define P4D_TTL_N_PLUGINS 4U

extern const P4dTtlPlugin p4d_ttl_plugins[P4D_TTL_N_PLUGINS];

/// The optional features and the extension data that every plugin lists,
/// each list ended by NULL: the features exactly (no other may be listed),
/// the extension data at least.  The features after the first two (the LV2
/// core's) and the extension data must be declared in the bundle.
extern const char* const p4d_ttl_optional_features[];
extern const char* const p4d_ttl_extension_data[];

#endif // P4D_TEST_TTL_CONTRACT_H
