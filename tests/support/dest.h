// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The buffers a render of the in-process host (host.h) writes into: one
  recording per output of a plugin over a number of frames, views into a
  recording from a frame on, and the comparison of two recordings bit for
  bit.
*/

#ifndef P4D_TEST_DEST_H
#define P4D_TEST_DEST_H

#include "basics.h"
#include "host.h"

#include <stddef.h>

/// Buffers for every output of h over n frames, filled with NaN.
P4dDest
p4d_dest_new(const P4dHost* h, size_t n);

/// The part of d from frame offset on.
P4dDest
p4d_dest_view(const P4dDest* d, size_t offset);

void
p4d_dest_free(P4dDest* d);

/// Assert every output of two recordings is the same bits over [from, to)
/// (control outputs where both recorded one); return the count compared.
size_t
p4d_dest_compare(const P4dHost* h,
                 const P4dDest* a,
                 const P4dDest* b,
                 size_t         from,
                 size_t         to);

/// The first recorded output of d: a signal, or else a control output.
const float*
p4d_dest_first(const P4dHost* h, const P4dDest* d);

#endif // P4D_TEST_DEST_H
