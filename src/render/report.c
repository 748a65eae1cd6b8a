// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "report.h"

#include <stdarg.h>
#include <stdio.h>

static P4dRenderCode
record(P4dRenderStatus* status,
       P4dRenderCode    code,
       const char*      culprit,
       const char*      value,
       const char*      reason)
{
  status->code    = code;
  status->culprit = culprit;
  status->value   = value;
  status->reason  = reason;
  return code;
}

P4dRenderCode
p4d_report_usage(P4dRenderStatus* status,
                 const char*      culprit,
                 const char*      reason)
{
  return record(status, P4D_RENDER_ERR_USAGE, culprit, NULL, reason);
}

P4dRenderCode
p4d_report_bad_value(P4dRenderStatus* status,
                     const char*      option,
                     const char*      value,
                     const char*      reason)
{
  return record(status, P4D_RENDER_ERR_USAGE, option, value, reason);
}

P4dRenderCode
p4d_report_failure(P4dRenderStatus* status,
                   const char*      culprit,
                   const char*      reason)
{
  if (reason != status->text) {
    snprintf(status->text, sizeof(status->text), "%s", reason);
  }
  return record(status, P4D_RENDER_ERR_FAILED, culprit, NULL, status->text);
}

P4dExit
p4d_report_exit(const P4dRenderStatus* status)
{
  if (status->code == P4D_RENDER_SUCCESS) {
    return P4D_EXIT_OK;
  }

  if (status->value) {
    fprintf(stderr,
            "perlin4d-render: %s '%s': %s\n",
            status->culprit,
            status->value,
            status->reason);
  } else {
    fprintf(
      stderr, "perlin4d-render: %s: %s\n", status->culprit, status->reason);
  }
  return status->code == P4D_RENDER_ERR_USAGE ? P4D_EXIT_USAGE
                                              : P4D_EXIT_FAILURE;
}

void
p4d_report_warn(const char* format, ...)
{
  va_list args;
  va_start(args, format);
  fputs("perlin4d-render: warning: ", stderr);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
}
