// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "fuzz_args.h"

#include <stdlib.h>
#include <string.h>

/// A copy of the len bytes at s with a terminator, in its own allocation.
static char*
copy(const uint8_t* s, size_t len)
{
  char* const text = (char*)malloc(len + 1U);
  if (text) {
    memcpy(text, s, len);
    text[len] = '\0';
  }
  return text;
}

bool
p4d_fuzz_args_new(P4dFuzzArgs* args, const uint8_t* data, size_t size)
{
  size_t n_lines = 0U;
  for (size_t i = 0U; i < size; ++i) {
    n_lines += data[i] == '\n' || i + 1U == size;
  }

  args->argc = 0;
  args->argv = (char**)calloc(n_lines + 2U, sizeof(char*));
  if (!args->argv) {
    return false;
  }
  args->argv[args->argc++] = copy((const uint8_t*)"perlin4d-render", 15U);

  const uint8_t* line = data;
  const uint8_t* end  = data + size;
  while (line < end) {
    const uint8_t* nl =
      (const uint8_t*)memchr(line, '\n', (size_t)(end - line));
    const size_t len         = (size_t)((nl ? nl : end) - line);
    args->argv[args->argc++] = copy(line, len);
    line += len + 1U;
  }

  for (int i = 0; i < args->argc; ++i) {
    if (!args->argv[i]) {
      p4d_fuzz_args_free(args);
      return false;
    }
  }
  return true;
}

void
p4d_fuzz_args_free(P4dFuzzArgs* args)
{
  for (int i = 0; i < args->argc; ++i) {
    free(args->argv[i]);
  }
  free((void*)args->argv);
  args->argc = 0;
  args->argv = NULL;
}
