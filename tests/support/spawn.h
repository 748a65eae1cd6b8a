// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  A program started and left running, for the tests that act on it while it
  runs (a signal, a file made or a folder locked under its feet): started in
  a folder with every signal at its default, optionally in trouble (an
  environment variable, a file-size limit with SIGXFSZ as is, user nobody),
  watched until it opens a file of a folder, then read to its end with all
  of its stdout, binary and of any size.
*/

#ifndef P4D_TEST_SPAWN_H
#define P4D_TEST_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/// How a program is started.
typedef struct {
  const char* program; ///< Its absolute path
  const char* dir;     ///< The folder it runs in
  const char* env;     ///< "NAME=VALUE" to set, or NULL
  bool        nobody;  ///< As user nobody (if root), so that modes apply
  long        fsize;   ///< RLIMIT_FSIZE in bytes (SIGXFSZ as is), or 0
} P4dSpawn;

/// A running program: its pid and the read ends of its stdout and stderr.
typedef struct {
  pid_t pid;
  int   out; ///< -1 once the test closed it (a reader gone)
  int   err;
} P4dChild;

/// How it ended: its status (128 + signal if killed), stderr (the start of
/// it), all of stdout (to free).
typedef struct {
  int    status;
  char   err[8192];
  char*  out;
  size_t out_len;
} P4dSpawnResult;

/// Start the program with args (NULL-terminated).
P4dChild
p4d_spawn_start(const P4dSpawn* how, const char* const* args);

/// Wait (up to 10 s, else fail) until the child holds open a file whose
/// path is folder/NAME: a name in that folder, even an unnamed file's.
void
p4d_spawn_wait_open(const P4dChild* child, const char* folder);

/// Read both streams to their ends, then wait for the child.
P4dSpawnResult
p4d_spawn_finish(P4dChild* child);

/// Sleep for ms milliseconds.
void
p4d_spawn_sleep_ms(long ms);

#endif // P4D_TEST_SPAWN_H
