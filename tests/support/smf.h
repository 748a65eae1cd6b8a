// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  A Standard MIDI File read from the specification (SMF 1.0: MThd, MTrk
  chunks, variable-length delta times, running status, meta and system
  exclusive events), for the tests of perlin4d-render's MIDI writer: it
  shares no code with the writer.  Asserts on anything malformed, and on
  channel messages other than control changes and pitch bends (what
  Perlin4D Mod sends).
*/

#ifndef P4D_TEST_SMF_H
#define P4D_TEST_SMF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define P4D_SMF_MAX_TRACKS 17U

/// A channel message of a track at its absolute tick.
typedef struct {
  int64_t tick;
  uint8_t msg[3];
} P4dSmfEvent;

/// A file: its header, and per track its name, end and events.
typedef struct {
  unsigned     format;
  unsigned     n_tracks;
  unsigned     division;
  long         uspq;      ///< From FF 51, or -1
  bool         four_four; ///< FF 58 04 02 ..
  char         name[P4D_SMF_MAX_TRACKS][96];
  int64_t      end[P4D_SMF_MAX_TRACKS]; ///< Tick of FF 2F
  size_t       n_events[P4D_SMF_MAX_TRACKS];
  P4dSmfEvent* events[P4D_SMF_MAX_TRACKS];
} P4dSmf;

/// Read the file at path (asserting it is well formed).
P4dSmf
p4d_smf_read(const char* path);

void
p4d_smf_free(P4dSmf* s);

#endif // P4D_TEST_SMF_H
