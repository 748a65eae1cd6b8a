// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The list of the kinds of processor (kind.h): one line per class, each
  defined in its engine's folder.  The order is --list-presets' order of
  plugins and the order in which a preset's plugins are named.
*/

#include "kind.h"

#include "engine.h"
#include "image_kind.h"
#include "motion.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

const P4dKindClass*
p4d_kind_at(unsigned i)
{
  static const P4dKindClass* const kinds[] = {
    &p4d_engine_kind_mod, &p4d_engine_kind_mod_cv, &p4d_engine_kind_noise,
    &p4d_motion_kind,     &p4d_image_kind,
  };
  return i < sizeof(kinds) / sizeof(kinds[0]) ? kinds[i] : NULL;
}

unsigned
p4d_kind_index(const P4dKindClass* kind)
{
  unsigned i = 0U;
  while (p4d_kind_at(i) && p4d_kind_at(i) != kind) {
    ++i;
  }
  return i;
}

const P4dKindClass*
p4d_kind_by_name(const char* name)
{
  const P4dKindClass* kind = NULL;
  for (unsigned i = 0U; name && (kind = p4d_kind_at(i)); ++i) {
    if (kind->name && !strcmp(kind->name, name)) {
      return kind;
    }
  }
  return NULL;
}

const P4dKindClass*
p4d_kind_by_plugin(P4dPluginId plugin)
{
  const P4dKindClass* kind = NULL;
  for (unsigned i = 0U; (kind = p4d_kind_at(i)); ++i) {
    if (plugin < P4D_N_PLUGINS && kind->plugin == plugin) {
      return kind;
    }
  }
  return NULL;
}

const P4dKindClass*
p4d_kind_by_uri(const char* uri)
{
  const P4dKindClass* kind = NULL;
  for (unsigned i = 0U; uri && (kind = p4d_kind_at(i)); ++i) {
    if (!strcmp(p4d_kind_uri(kind), uri)) {
      return kind;
    }
  }
  return NULL;
}

const P4dKindClass*
p4d_kind_default(bool input)
{
  const P4dKindClass* kind = NULL;
  for (unsigned i = 0U; input && (kind = p4d_kind_at(i)); ++i) {
    if (kind->name && kind->takes_input) {
      return kind;
    }
  }
  // Without an input: the noise.
  return &p4d_engine_kind_noise;
}

const P4dParamTable*
p4d_kind_params(const P4dKindClass* kind)
{
  return p4d_params(kind->params);
}

const P4dPlugin*
p4d_kind_plugin(const P4dKindClass* kind)
{
  return kind->plugin < P4D_N_PLUGINS ? p4d_plugin(kind->plugin) : NULL;
}

const char*
p4d_kind_title(const P4dKindClass* kind)
{
  const P4dPlugin* const plugin = p4d_kind_plugin(kind);
  return plugin ? plugin->name : kind->title;
}

const char*
p4d_kind_uri(const P4dKindClass* kind)
{
  const P4dPlugin* const plugin = p4d_kind_plugin(kind);
  return plugin ? plugin->uri : kind->uri;
}

P4dClockMode
p4d_kind_clock(const P4dKindClass* kind, const float* params)
{
  const float v = params[kind->clock_param];
  for (uint32_t i = 0U; i < kind->n_clock_modes; ++i) {
    if (v == (float)i) {
      return kind->clock_modes[i];
    }
  }
  return P4D_CLOCK_SONG_SECONDS;
}

int
p4d_kind_clock_value(const P4dKindClass* kind, P4dClockMode mode)
{
  for (uint32_t i = 0U; i < kind->n_clock_modes; ++i) {
    if (kind->clock_modes[i] == mode) {
      return (int)i;
    }
  }
  return -1;
}
