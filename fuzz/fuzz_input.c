// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  libFuzzer target: the sound file of -i (input.c), the bytes of a file
  (see corpus/input/: WAV, AIFF, AU, FLAC, GSM 6.10 and G.721 seeds).  The
  bytes become a file (a memfd, named by /proc/self/fd/N) that the input
  module probes, opens, reads by blocks from before its start to past its
  end (and, where it seeks exactly, from its middle), and checks as
  unchanged; then a Motion plan is made of it (-i FILE).  Besides the
  sanitizers, it checks what the module promises: a refusal is a usage
  error naming -i with a reason; an accepted file has 1 or 2 channels, a
  frame at least and a rate Motion runs at, opens again as described and
  is still the same file after reading; the plan has the file's length.
*/

#define _GNU_SOURCE // memfd_create

#include "input.h"
#include "options.h"
#include "plan.h"
#include "report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef P4D_FUZZ_EXE
#  define P4D_FUZZ_EXE "perlin4d-render"
#endif

/// Frames read at most from each place (the start, the middle), so that a
/// header claiming hours does not make an input run for long.
#define MAX_READ_FRAMES (4U * P4D_INPUT_BLOCK)

int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/// Read up to MAX_READ_FRAMES frames from first on; a failure must say why.
static void
read_from(P4dInput* input, int64_t first, float* left, float* right)
{
  for (int64_t at = first; at < first + (int64_t)MAX_READ_FRAMES;
       at += P4D_INPUT_BLOCK) {
    P4dRenderStatus status = { 0 };
    if (p4d_input_read(input, at, P4D_INPUT_BLOCK, left, right, &status)) {
      if (!status.reason || status.code != P4D_RENDER_ERR_FAILED) {
        abort();
      }
      return;
    }
  }
}

/// Check the probe's answer, then read the file and make a plan of it.
static void
check_input(const char* path)
{
  P4dInputInfo    info;
  P4dRenderStatus status = { 0 };
  if (p4d_input_probe(path, &info, &status)) {
    if (status.code != P4D_RENDER_ERR_USAGE || !status.culprit ||
        strcmp(status.culprit, "-i") || !status.reason) {
      abort();
    }
    return;
  }
  if (info.n_channels < 1U || info.n_channels > 2U || info.n_frames < 1 ||
      !(info.sample_rate_hz >= 1000.0 && info.sample_rate_hz <= 768000.0)) {
    abort();
  }

  // It opens again as described (nothing changed it).
  P4dInput* input = NULL;
  if (p4d_input_open(path, &info, &input, &status) || !input) {
    abort();
  }
  static float left[P4D_INPUT_BLOCK];
  static float right[P4D_INPUT_BLOCK];
  read_from(input, -(int64_t)P4D_INPUT_BLOCK / 2, left, right);
  if (info.exact_seek) {
    read_from(input, info.n_frames / 2, left, right);
    read_from(input, info.n_frames - 1, left, right);
  }
  p4d_input_close(input);
  if (p4d_input_check(path, &info, &status)) {
    abort();
  }

  // A Motion plan of it has its length.
  char* argv[] = {
    (char*)"perlin4d-render",          (char*)"-i", (char*)path, (char*)"-o",
    (char*)"fuzz-input-unwritten.wav", NULL
  };
  P4dOptions options;
  p4d_options_init(&options);
  status = (P4dRenderStatus){ 0 };
  if (p4d_options_parse(&options, 5, argv, &status)) {
    abort();
  }
  P4dPlan plan;
  if (!p4d_plan_make(&plan, &options, P4D_FUZZ_EXE, &status)) {
    if (plan.n_frames != info.n_frames) {
      abort();
    }
  } else if (!status.reason || p4d_report_exit(&status) == P4D_EXIT_OK) {
    abort();
  }
  p4d_plan_free(&plan);
}

int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const int fd = memfd_create("p4d-fuzz-input", MFD_CLOEXEC);
  if (fd < 0) {
    return 0;
  }
  size_t done = 0U;
  while (done < size) {
    const ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) {
      close(fd);
      return 0;
    }
    done += (size_t)n;
  }
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  check_input(path);
  close(fd);
  return 0;
}
