// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Sound files for the tests of perlin4d-render -i: a test signal written
  in blocks (so that a long input takes no memory), and a file read back
  as the renderer reads it, as left and right.
*/

#ifndef P4D_TEST_SOUND_H
#define P4D_TEST_SOUND_H

#include <stddef.h>
#include <stdint.h>

/**
   Write n frames of a test signal to name in the work folder, in the
   libsndfile format given: a sine sweep under noise, peaks at -6 dBFS,
   different in each channel.
*/
void
p4d_sound_write(const char* name,
                int         format,
                int         n_channels,
                int         rate,
                int64_t     n);

/// Read name of the work folder as libsndfile reads it (as the renderer
/// does) into fresh left and right buffers (the same for a mono file) of n
/// frames.
void
p4d_sound_read_stereo(const char* name, float** left, float** right, size_t* n);

#endif // P4D_TEST_SOUND_H
