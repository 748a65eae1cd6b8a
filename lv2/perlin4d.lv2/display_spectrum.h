// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file display_spectrum.h
   The Noise's inline display backdrop: its spectrum envelope (display.h,
   P4D_DISPLAY_SPECTRUM_*), apart from the display's threads and time line.
*/

#ifndef P4D_DISPLAY_SPECTRUM_H
#define P4D_DISPLAY_SPECTRUM_H

#include "draw.h"

/**
   Draw the spectrum envelope of the Noise at the controls params and
   sample_rate_hz into s (over what is there): filled under it, the
   envelope in the third curve colour, a dotted line at the band limit;
   row is scratch (s->width + 1 floats).  Realtime safe (render()
   calls it when the controls or the size move).
*/
void
p4d_display_spectrum(const float*          params,
                     double                sample_rate_hz,
                     const P4dDrawSurface* s,
                     float*                row);

#endif // P4D_DISPLAY_SPECTRUM_H
