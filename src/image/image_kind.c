// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The Image's class (kind.h): the renderer's `--plugin image`.  Its
  parameters are the P4D_KIND_IMAGE table; its clock is the Mod's (song
  seconds, song beats, free) with the Mod's loop; its presets live in
  image-presets.ttl in the bundle, which the manifest does not list (no
  host sees them: there is no Image plugin), and it takes the Mod's
  presets too, by the symbols they share.  Frames are rendered through
  image.h, so every sound operation is NULL.
*/

#include "image_kind.h"

#include "engine.h"
#include "params.h"

#include <stddef.h>

/// The Mod's clock: song seconds, song beats, free.
static const P4dClockMode image_clock[] = { P4D_CLOCK_SONG_SECONDS,
                                            P4D_CLOCK_SONG_BEATS,
                                            P4D_CLOCK_FREE };

// An address is a constant: the Mod's class needs no initialising first.
// NOLINTNEXTLINE(cppcoreguidelines-interfaces-global-init)
const struct P4dKindClassImpl p4d_image_kind = {
  .name             = "image",
  .renders_as       = &p4d_image_kind,
  .plugin           = P4D_PLUGIN_NONE,
  .params           = P4D_KIND_IMAGE,
  .n_channels       = 0U,
  .takes_input      = false,
  .in_place         = false,
  .clock_param      = P4D_IMAGE_CLOCK,
  .n_clock_modes    = 3U,
  .clock_modes      = image_clock,
  .loop_param       = P4D_IMAGE_LOOP_BEATS,
  .n_positions      = 0U,
  .pictures         = true,
  .title            = "Perlin4D Image",
  .uri              = P4D_URI_IMAGE,
  .presets_file     = "image-presets.ttl",
  .takes_presets_of = &p4d_engine_kind_mod,
};
