// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  What the in-process host checks after every run (host.h): each output is
  finite, free of denormals and within the range the controls set since
  activate() (a glide blends the old and the new range); Motion's latency
  and targets within the TTL's ranges; the MIDI output a well formed
  sequence of control changes on the right controllers, which it logs.
*/

#ifndef P4D_TEST_HOST_CHECKS_H
#define P4D_TEST_HOST_CHECKS_H

#include "host.h"

#include <stddef.h>
#include <stdint.h>

/// Widen the output bounds since activate() by those of the controls now
/// (before a run).
void
p4d_host_check_bounds(P4dHost* h);

/// Assert one output value is finite, normal and within the bounds; keep
/// the largest |x| of the run in h->peak.
void
p4d_host_check_sample(P4dHost* h, float x);

/// Check the outputs of a run of n frames that wrote d from frame `at`:
/// signals, control outputs, Motion's latency, Noise's peak, the MIDI
/// output (its CCs logged in h->ccs).
void
p4d_host_check_run(P4dHost* h, const P4dDest* d, size_t at, uint32_t n);

#endif // P4D_TEST_HOST_CHECKS_H
