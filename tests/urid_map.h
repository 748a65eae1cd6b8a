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

#include <assert.h>
#include <stdint.h>
#include <string.h>

#define MAX_URIS 64U

static char     uri_table[MAX_URIS][96];
static uint32_t n_uris = 0U;

static LV2_URID
map_uri(LV2_URID_Map_Handle handle, const char* uri)
{
  (void)handle;
  for (uint32_t i = 0U; i < n_uris; ++i) {
    if (!strcmp(uri_table[i], uri)) {
      return i + 1U;
    }
  }

  assert(n_uris < MAX_URIS);
  assert(strlen(uri) < sizeof(uri_table[0]));
  memcpy(uri_table[n_uris], uri, strlen(uri) + 1U);
  return ++n_uris;
}

static LV2_URID_Map             map            = { NULL, map_uri };
static const LV2_Feature        map_feature    = { LV2_URID__map, &map };
static const LV2_Feature* const features_map[] = { &map_feature, NULL };

#endif // P4D_TEST_URID_MAP_H
