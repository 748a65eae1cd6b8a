// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  What perlin4d-render says on stderr, and its one error convention: every
  function of the renderer that can fail returns a P4dRenderCode and
  records why in the P4dRenderStatus it is given (what kind of failure, the
  culprit, the reason).  A step that does not know the culprit (a number
  read for some option, a chunk rendered for some file) records a NULL
  culprit, and its caller names it with p4d_report_name().  main() reports
  the status once, as one line, and turns it into the exit code: this is
  the only place that chooses an exit code.
*/

#ifndef P4D_REPORT_H
#define P4D_REPORT_H

#include <stdint.h>

/// The exit codes of perlin4d-render (the man page lists them).
typedef enum {
  P4D_EXIT_OK      = 0,
  P4D_EXIT_FAILURE = 1, ///< The command line was fine; rendering failed
  P4D_EXIT_USAGE   = 2, ///< Bad command line: nothing was written
} P4dExit;

/// What a step of the renderer returns.
typedef enum {
  P4D_RENDER_SUCCESS,    ///< Go on
  P4D_RENDER_ERR_USAGE,  ///< The command line asks for something impossible
  P4D_RENDER_ERR_FAILED, ///< Rendering, reading or writing failed
} P4dRenderCode;

/**
   Why a step failed, reported as "perlin4d-render: CULPRIT: REASON" or,
   with a value, "perlin4d-render: CULPRIT 'VALUE': REASON".

   Pass it by pointer and never copy it: its pointers may point into text.
*/
typedef struct {
  P4dRenderCode code;
  const char*   culprit; ///< An option or a file name
  const char*   value;   ///< The option's value, or NULL
  const char*   reason;
  char          text[512]; ///< Room for a value or reason built on the fly
} P4dRenderStatus;

/**
   Record a bad command line: CULPRIT: REASON (culprit NULL: named later).

   The strings are not copied: they must live until p4d_report_exit().
   @return P4D_RENDER_ERR_USAGE.
*/
P4dRenderCode
p4d_report_usage(P4dRenderStatus* status,
                 const char*      culprit,
                 const char*      reason);

/**
   Record a bad option value: OPTION 'VALUE': REASON.

   The strings are not copied: they must live until p4d_report_exit().
   @return P4D_RENDER_ERR_USAGE.
*/
P4dRenderCode
p4d_report_bad_value(P4dRenderStatus* status,
                     const char*      option,
                     const char*      value,
                     const char*      reason);

/**
   Record a failure while rendering: CULPRIT: REASON (culprit NULL: named
   later).

   The reason is copied (it may be strerror()'s or live in an object freed
   before the report); the culprit must live until p4d_report_exit().
   @return P4D_RENDER_ERR_FAILED.
*/
P4dRenderCode
p4d_report_failure(P4dRenderStatus* status,
                   const char*      culprit,
                   const char*      reason);

/**
   Name the culprit (and value, or NULL) of the failure that status holds,
   recorded by a step that did not know them.

   The strings are not copied: they must live until p4d_report_exit().
   @return The status's code.
*/
P4dRenderCode
p4d_report_name(P4dRenderStatus* status,
                const char*      culprit,
                const char*      value);

/**
   Add " (NAME left behind)" to the reason of a failure while rendering: a
   temporary file that could not be removed.  Nothing happens to another
   status.
*/
void
p4d_report_left_behind(P4dRenderStatus* status, const char* name);

/**
   Print the one line of a failed status on stderr (nothing on success).

   @return The exit code for the status.
*/
P4dExit
p4d_report_exit(const P4dRenderStatus* status);

/// Print "perlin4d-render: warning: " and the formatted text on stderr.
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void
p4d_report_warn(const char* format, ...);

/**
   Draw the progress bar on stderr: done of total, as a bar and a
   percentage, and "(done/total unit)" when unit is not NULL; a new line
   once done reaches total.
*/
void
p4d_report_progress(int64_t done, int64_t total, const char* unit);

#endif // P4D_REPORT_H
