// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  A command line made from a fuzz input: one argument a line, each in its
  own allocation of exactly its length plus the terminator, so that the
  address sanitizer catches a read past the end of any one argument.
*/

#ifndef P4D_FUZZ_ARGS_H
#define P4D_FUZZ_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// The arguments of perlin4d-render: argv[0] is its name, argv[argc] NULL.
typedef struct {
  int    argc;
  char** argv;
} P4dFuzzArgs;

/**
   Split size bytes of data at each newline into arguments (a last newline
   ends the last argument rather than starting an empty one).

   @return False if out of memory (args is then empty).
*/
bool
p4d_fuzz_args_new(P4dFuzzArgs* args, const uint8_t* data, size_t size);

/// Free what p4d_fuzz_args_new() allocated.
void
p4d_fuzz_args_free(P4dFuzzArgs* args);

#endif // P4D_FUZZ_ARGS_H
