// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render from the outside, for the tests that run it: the program
  runs in the test's work folder (files.h) through the process runner
  (process.h); helpers expect a silent success or a one-line refusal, read
  back what it wrote and compute what it should have written.
*/

#ifndef P4D_TEST_CLI_H
#define P4D_TEST_CLI_H

#include "process.h"

#include "params.h"

#include <sndfile.h>

#include <stddef.h>

/// The trouble a render runs in.
typedef enum {
  P4D_PROC_PLAIN,      ///< None
  P4D_PROC_FILE_LIMIT, ///< Writes past 64 KiB fail, as on a full disk
  P4D_PROC_SIGTERM,    ///< SIGTERM once it holds its output open
  P4D_PROC_AS_NOBODY,  ///< As user nobody if root (so permissions apply)
  P4D_PROC_STDERR_TTY, ///< Stderr is a terminal (a pseudo-terminal)
} P4dTrouble;

/**
   Set up a test of the renderer: render_arg is the path it was given (made
   absolute, as the program runs in the work folder), the work folder is
   /tmp/p4d-NAME-XXXXXX, stdout is line-buffered and the umask 022.
*/
void
p4d_cli_open(const char* render_arg, const char* name);

/// Remove the (empty) work folder.
void
p4d_cli_close(void);

/// The absolute path of the renderer the test was given.
const char*
p4d_cli_render(void);

/// Run the program at path (a copy of the renderer) from now on; NULL: the
/// original.
void
p4d_cli_use(const char* path);

/// How a render is started, for a test that acts on it while it runs.
typedef struct {
  const char* program; ///< A copy of the renderer, or NULL: the original
  bool        named;   ///< P4D_NO_TMPFILE=1: a named temporary file
  bool        nobody;  ///< As user nobody (if root), so that modes apply
  long        fsize;   ///< RLIMIT_FSIZE in bytes (SIGXFSZ as is), or 0
} P4dCliStart;

/// Start a render in the work folder, all of its stdout kept (out_all).
P4dProc
p4d_cli_start(const P4dCliStart* s, const char* const* args);

/// Wait until the render holds open a file of folder dir of the work
/// folder ("" for itself): its output, under whatever name or none.
void
p4d_cli_wait_open(const P4dProc* c, const char* dir);

/// Stop the render (SIGSTOP) at a moment it holds open a file of folder
/// dir of the work folder ("" for itself): p4d_proc_stop_when_open().
void
p4d_cli_stop_when_open(const P4dProc* c, const char* dir);

/// Start a render and finish it.
P4dProcResult
p4d_cli_run_as(const P4dCliStart* s, const char* const* args);

/// The names in folder dir of the work folder ("" for itself), for a
/// message (" a b c"); and how many.
unsigned
p4d_cli_names(const char* dir, char* list, size_t size);

/// Assert that folder dir of the work folder holds n names, listing them
/// if not.
void
p4d_cli_expect_names(const char* dir, unsigned n, const char* what);

/// Assert the one-line refusal or failure of r: status, a stderr of one
/// line that starts with prefix, nothing on stdout.
void
p4d_cli_expect_line(const P4dProcResult* r,
                    int                  status,
                    const char*          prefix,
                    const char*          what);

/// How the renderer is run in the work folder, plainly: a setup to change
/// (process.h) for a test that acts on the render while it runs.
P4dProcSetup
p4d_cli_setup(void);

/**
   Run the renderer with args (NULL-terminated) in the work folder.  With
   P4D_PROC_SIGTERM the signal comes once the render holds open a file of
   the work folder (its output, under whatever name or none): by then it
   catches signals, however slowly a loaded machine started it.
*/
P4dProcResult
p4d_cli_run(const char* const* args, P4dTrouble trouble);

/// Run the renderer with args (any number, NULL-terminated) in the work
/// folder, and kill it after timeout_s (a hang, however loaded the
/// machine: make it generous).
P4dProcResult
p4d_cli_run_for(const char* const* args, double timeout_s);

/// Run the renderer with the arguments of a and then those of b (or NULL).
P4dProcResult
p4d_cli_run2(const char* const* a, const char* const* b, P4dTrouble trouble);

/// Run, and assert a silent success.
void
p4d_cli_ok(const char* const* a, const char* const* b);

/**
   Run args and check a refusal: status, a message that starts with
   "perlin4d-render: " + message and is the only line on stderr, nothing
   on stdout, and n_files entries left in the work folder.
*/
void
p4d_cli_refused(const char* const* args,
                int                status,
                const char*        message,
                unsigned           n_files);

/// The peak resident memory of a successful render, in KiB (0: unknown).
long
p4d_cli_peak_kib(const char* const* args);

/*
  The renderer's peak memory.  AddressSanitizer's shadow memory and
  quarantine add about 20 MiB to any program, so a sanitized build (CI runs
  one) gets that much more room; flatness is checked the same either way.
*/
#if defined(__SANITIZE_ADDRESS__)
#  define P4D_CLI_PEAK_LIMIT_KIB (52L * 1024L)
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define P4D_CLI_PEAK_LIMIT_KIB (52L * 1024L)
#  endif
#endif
#ifndef P4D_CLI_PEAK_LIMIT_KIB
#  define P4D_CLI_PEAK_LIMIT_KIB (32L * 1024L)
#endif

/**
   Copy the renderer and every file of the bundle beside it into folder
   name of the work folder (name/perlin4d-render, name/lv2/perlin4d.lv2/),
   where any user may read and run them; return the copy's path.  The copy
   finds its bundle as the original does, so it runs wherever the checkout
   lies, even under a folder other users cannot enter.
*/
const char*
p4d_cli_sandbox(const char* name);

/// Read a sound file of the work folder as floats; its header into info.
float*
p4d_cli_read_frames(const char* name, SF_INFO* info);

/**
   The engine's samples for kind at rate from frame 0 with settings
   (SYMBOL=VALUE, NULL-terminated): n frames, interleaved.  What the
   renderer must write.
*/
float*
p4d_engine_samples(P4dKind            kind,
                   double             rate,
                   size_t             n,
                   const char* const* sets);

/// Split SYMBOL=VALUE into symbol (32 bytes) and value.
void
p4d_setting_parse(const char* set, char* symbol, float* value);

/// The number of lines of s, and of times what occurs in s.
unsigned
p4d_count_lines(const char* s);

unsigned
p4d_count_substrings(const char* s, const char* what);

/// A preset file of Perlin4D Noise: level_db -6, seed 7.
extern const char p4d_cli_preset_ttl[];

#endif // P4D_TEST_CLI_H
