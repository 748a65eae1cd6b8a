// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The urid:map feature the lilv-hosting tests give the plugins: a small
  URI table, one per test program.
*/

#ifndef P4D_TEST_URID_MAP_H
#define P4D_TEST_URID_MAP_H

#include <lv2/core/lv2.h>
#include <lv2/urid/urid.h>

/// The map, for lilv_state and the atom forge.
extern LV2_URID_Map p4d_urid_map;

/// Features with urid:map, and none at all (both NULL-terminated).
extern const LV2_Feature* const p4d_features_map[];
extern const LV2_Feature* const p4d_features_none[];

/// The URID of uri in p4d_urid_map.
LV2_URID
p4d_urid(const char* uri);

#endif // P4D_TEST_URID_MAP_H
