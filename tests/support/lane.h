// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  An --automate lane as a test host applies it: SYMBOL=T:V,T:V,... and its
  value at a song time, by the expression plan.c computes (so that a host
  moving the control at each block of the renderer's automation grid gives
  the plugin the values the renderer's engine used).
*/

#ifndef P4D_TEST_LANE_H
#define P4D_TEST_LANE_H

#define P4D_LANE_MAX_POINTS 16U

typedef struct {
  char     symbol[32];
  unsigned n;
  double   time_s[P4D_LANE_MAX_POINTS];
  float    value[P4D_LANE_MAX_POINTS];
} P4dTestLane;

/// Read SYMBOL=T:V,T:V,... (asserting its form).
void
p4d_lane_parse(const char* arg, P4dTestLane* lane);

/// The value at song time t_s: linear between the points around it, the
/// first before the first, the last after the last.
float
p4d_lane_at(const P4dTestLane* lane, double t_s);

#endif // P4D_TEST_LANE_H
