// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The process runner: runs a program with arguments in a folder, captures
  what it prints on stdout and stderr and how it ends, optionally in
  trouble (a full disk, SIGTERM, another user, a terminal on stderr), and
  kills it if it runs past a time limit.
*/

#ifndef P4D_TEST_PROCESS_H
#define P4D_TEST_PROCESS_H

#include <stdbool.h>

/// Most arguments a program gets, beyond its name.
#define P4D_PROC_MAX_ARGS 32

/// Exit status of a child that could not become user nobody.
#define P4D_PROC_NO_NOBODY 97

/// Seconds a program may run before it is killed (SIGKILL).
#define P4D_PROC_TIMEOUT_S 120.0

/// The trouble a program runs in.
typedef enum {
  P4D_PROC_PLAIN,      ///< None
  P4D_PROC_FILE_LIMIT, ///< Writes past 64 KiB fail, as on a full disk
  P4D_PROC_SIGTERM,    ///< SIGTERM after 300 ms
  P4D_PROC_AS_NOBODY,  ///< As user nobody if root (so permissions apply)
  P4D_PROC_STDERR_TTY, ///< Stderr is a terminal (a pseudo-terminal)
} P4dTrouble;

typedef struct {
  int  status;    ///< Exit code, or 128 + signal
  long peak_kib;  ///< Largest resident size seen, if asked for, or 0
  char out[8192]; ///< What the program printed on stdout (the start of it)
  char err[8192]; ///< What the program printed on stderr (the start of it)
} P4dProcResult;

/**
   Run program (an absolute path) with args (NULL-terminated) in folder dir
   and wait for it.  With peak, also watch the peak resident memory (VmHWM)
   of the program while it runs: the largest /proc reports once the child
   is the program (before the exec it is a copy of this test), or 0 if
   /proc cannot tell.
*/
P4dProcResult
p4d_proc_run(const char*        program,
             const char* const* args,
             const char*        dir,
             P4dTrouble         trouble,
             bool               peak);

/**
   Run program as p4d_proc_run() does, plainly, with any number of
   arguments, and kill it (SIGKILL: status 137) if it runs longer than
   timeout_s: a program that hangs fails its case, not the whole suite.
*/
P4dProcResult
p4d_proc_run_for(const char*        program,
                 const char* const* args,
                 const char*        dir,
                 double             timeout_s);

#endif // P4D_TEST_PROCESS_H
