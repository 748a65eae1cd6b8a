// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The names of a sequence's files: -o frames/f_%05d.png holds exactly one
  frame number, written as printf's %d, %5d or %05d would write it (a
  width of at most 9), and "%%" for a percent sign.  Anything else after
  a '%' (a second number, %n, %s, a precision, a length) is refused: the
  name is never handed to printf.
*/

#ifndef P4D_FRAME_NAME_H
#define P4D_FRAME_NAME_H

#include "report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// A name with a frame number in it.
typedef struct {
  const char* pattern;  ///< As given
  bool        numbered; ///< It holds a frame number
  size_t      at;       ///< Where the conversion starts in pattern
  size_t      len;      ///< Its length ("%05d": 4)
  unsigned    width;    ///< Its width, or 0
  bool        zero;     ///< Padded with zeros, not spaces
} P4dFrameName;

/**
   Read pattern as a name: numbered if it holds one conversion.

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_USAGE with no culprit.
*/
P4dRenderCode
p4d_frame_name_parse(const char*      pattern,
                     P4dFrameName*    name,
                     P4dRenderStatus* status);

/**
   The name of frame n (n >= 0) into path, of size bytes; a name without a
   number is the pattern with each "%%" made "%".

   @return Whether it fit.
*/
bool
p4d_frame_name_format(const P4dFrameName* name,
                      int64_t             n,
                      char*               path,
                      size_t              size);

#endif // P4D_FRAME_NAME_H
