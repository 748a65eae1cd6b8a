// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file image_kind.h
   The Image's class in the list of kinds (kind.h, src/kinds/kinds.c):
   `--plugin image` of the renderer.  It serves no plugin of the bundle and
   renders pictures (its `pictures` flag) through image.h, so its sound
   operations are NULL.
*/

#ifndef P4D_IMAGE_KIND_H
#define P4D_IMAGE_KIND_H

#include "kind.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The Image's class (src/image/image_kind.c).
extern const struct P4dKindClassImpl p4d_image_kind;

#ifdef __cplusplus
}
#endif

#endif // P4D_IMAGE_KIND_H
