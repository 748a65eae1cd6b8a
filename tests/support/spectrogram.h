// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file spectrogram.h
   A spectrogram a reviewer can open: a PNG of a signal's short-time
   spectrum.  Not realtime safe: it allocates and writes a file, and
   exits the test (assert) when either fails.
*/

#ifndef P4D_TEST_SPECTROGRAM_H
#define P4D_TEST_SPECTROGRAM_H

#include <stddef.h>

/**
   Write x[0..n), sampled at rate_hz, as a spectrogram PNG at path: one
   column per 50 ms (a Hann window of 2048 frames every rate_hz / 20),
   200 rows of log frequency from 20 Hz (bottom) to 20 kHz, the level of
   each bin against a full-scale sine's from -80 dB (black) through blue
   and red to 0 dB (yellow).  Prints one line naming the file.
*/
void
p4d_spectrogram_png(const char* path, const float* x, size_t n, double rate_hz);

#endif
