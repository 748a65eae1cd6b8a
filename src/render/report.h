// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  What perlin4d-render says on stderr.  A step that fails records why in a
  P4dRenderStatus (what kind of failure, the culprit, the reason) and
  returns; main() reports it once, as one line, and turns it into the exit
  code.  This is the only place that chooses an exit code.
*/

#ifndef P4D_REPORT_H
#define P4D_REPORT_H

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
   Record a bad command line: CULPRIT: REASON.

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
   Record a failure while rendering: CULPRIT: REASON.

   The reason is copied (it may be strerror()'s or live in an object freed
   before the report); the culprit must live until p4d_report_exit().
   @return P4D_RENDER_ERR_FAILED.
*/
P4dRenderCode
p4d_report_failure(P4dRenderStatus* status,
                   const char*      culprit,
                   const char*      reason);

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

#endif // P4D_REPORT_H
