// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file ramp.h
   The smoothing law of every glide: the engines' voice cross-fades
   (src/engine/engine.c) and Motion's control glides
   (src/motion/motion_private.h) move along it.  Pure, thread safe and
   realtime safe.  Internal to the engines.
*/

#ifndef P4D_RAMP_H
#define P4D_RAMP_H

/**
   The quintic ramp 6t^5 - 15t^4 + 10t^3: 0 to 1 over t in [0, 1] with
   zero first and second derivatives at both ends, so a glide along it
   starts and ends without a step in the slope or the curvature.  Exactly
   0, 1/2 and 1 at t = 0, 1/2 and 1.
*/
static inline double
p4d_ramp_quintic(double t)
{
  return ((t * t) * t) * ((t * 6.0 - 15.0) * t + 10.0);
}

#endif // P4D_RAMP_H
