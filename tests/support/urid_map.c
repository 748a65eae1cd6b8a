// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "urid_map.h"

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

LV2_URID_Map p4d_urid_map = { NULL, map_uri };

static const LV2_Feature map_feature = { LV2_URID__map, &p4d_urid_map };

const LV2_Feature* const p4d_features_map[]  = { &map_feature, NULL };
const LV2_Feature* const p4d_features_none[] = { NULL };

LV2_URID
p4d_urid(const char* uri)
{
  return map_uri(NULL, uri);
}
