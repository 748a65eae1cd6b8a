// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The process runner of the tests: starts a program with arguments in a
  folder, every signal at its default, optionally in trouble (an
  environment variable, a file-size limit, user nobody, a terminal on
  stderr); lets the test act on it while it runs (wait until it opens a
  file of a folder, then signal it); then reads what it prints on stdout
  and stderr to their ends, waits for it and says how it ended, killing it
  if it runs past a generous time limit.

  Nothing here depends on how fast the machine is: a test waits for a
  condition (a file open, the program gone), never for a length of time,
  and a time limit only ends a program that hangs.
*/

#ifndef P4D_TEST_PROCESS_H
#define P4D_TEST_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/// Room for the arguments of a program in a test's tables (the runner
/// itself takes any number).
#define P4D_PROC_MAX_ARGS 32

/// Exit status of a child that could not set up its trouble (become user
/// nobody, enter its folder, set its limit or environment).
#define P4D_PROC_NO_NOBODY 97

/// Seconds a program may run before it is killed (SIGKILL), unless its
/// setup says otherwise: far more than any test's program needs on a
/// loaded machine, so that only a hang reaches it.
#define P4D_PROC_TIMEOUT_S 120.0

/// How a program is started.
typedef struct {
  const char* program;   ///< Its absolute path
  const char* dir;       ///< The folder it runs in, or NULL: this one
  const char* env;       ///< "NAME=VALUE" to set, or NULL
  bool        nobody;    ///< As user nobody (if root), so that modes apply
  long        fsize;     ///< RLIMIT_FSIZE in bytes, or 0
  bool        full_disk; ///< With fsize: SIGXFSZ ignored, so that writes
                         ///< past it fail as on a full disk
  bool   stderr_tty;     ///< Stderr is a terminal (a pseudo-terminal)
  bool   peak;           ///< Watch its peak resident memory (peak_kib)
  bool   keep_out;       ///< Keep all of stdout (out_all), of any size
  double timeout_s;      ///< Kill it after this long, or 0: the default
} P4dProcSetup;

/// A running program: its pid and the read ends of its stdout and stderr.
typedef struct {
  pid_t  pid;
  int    out;     ///< -1 once the test closed it (a reader gone)
  int    err;     ///< -1 once the test closed it
  int    tty;     ///< The terminal's master side, or -1
  double start_s; ///< When it started (p4d_now_s())
  double timeout_s;
  bool   peak;
  bool   keep_out;
  char   name[32]; ///< "Name:\t" + its kernel name, as /proc shows it
} P4dProc;

/// How a program ended, and what it printed.
typedef struct {
  int    status;    ///< Exit code, or 128 + signal
  long   peak_kib;  ///< Largest resident size seen, if asked for, or 0
  size_t out_len;   ///< Bytes it printed on stdout, all of them
  char*  out_all;   ///< All of stdout (to free), if kept, else NULL
  char   out[8192]; ///< What it printed on stdout (the start of it)
  char   err[8192]; ///< What it printed on stderr (the start of it)
} P4dProcResult;

/// Start a program with args (NULL-terminated, any number).
P4dProc
p4d_proc_start(const P4dProcSetup* how, const char* const* args);

/**
   Wait until the program holds open a file whose path is folder/NAME: a
   name in that folder, even an unnamed file's.  Fails the test if the
   program ends first, or has not after its time limit.
*/
void
p4d_proc_wait_open(const P4dProc* proc, const char* folder);

/**
   Stop the program (SIGSTOP) at a moment it holds open a file whose path
   is folder/NAME, and return with it stopped (SIGCONT continues it).  It
   runs only in short spells between checks, each made while it stands
   still: a render that holds its output open when it is seen cannot have
   finished since, however the machine schedules the test and the program.
   Fails the test as p4d_proc_wait_open() does.
*/
void
p4d_proc_stop_when_open(const P4dProc* proc, const char* folder);

/**
   Read both streams to their ends, then wait for the program (sampling
   its memory on the way if asked): how it ended.  A program that runs past
   its time limit is killed (status 137) with a message on stderr: a hang
   fails its case, not the whole suite.
*/
P4dProcResult
p4d_proc_finish(P4dProc* proc);

/// Start the program and finish it: p4d_proc_start(), p4d_proc_finish().
P4dProcResult
p4d_proc_run(const P4dProcSetup* how, const char* const* args);

/// Sleep for ms milliseconds (for pacing a poll; never to wait for work).
void
p4d_proc_sleep_ms(long ms);

#endif // P4D_TEST_PROCESS_H
