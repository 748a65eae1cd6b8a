// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

P4dRenderCode
p4d_report_name(P4dRenderStatus* status, const char* culprit, const char* value)
{
  status->culprit = culprit;
  status->value   = value;
  return status->code;
}

void
p4d_report_left_behind(P4dRenderStatus* status, const char* name)
{
  if (status->code == P4D_RENDER_ERR_FAILED && status->reason == status->text) {
    const size_t len = strlen(status->text);
    snprintf(status->text + len,
             sizeof(status->text) - len,
             " (%s left behind)",
             name);
  }
}

/**
   Write text to stderr with every control character (a newline in a file
   name, an escape sequence) shown as '?', so that a message stays one line
   and cannot drive the terminal.
*/
static void
put_clean(const char* text)
{
  for (const unsigned char* c = (const unsigned char*)text; *c; ++c) {
    fputc(*c < 0x20U || *c == 0x7FU ? '?' : (int)*c, stderr);
  }
}

P4dExit
p4d_report_exit(const P4dRenderStatus* status)
{
  if (status->code == P4D_RENDER_SUCCESS) {
    return P4D_EXIT_OK;
  }

  // A culprit is always named; a step that forgot still gets its line.
  fputs("perlin4d-render: ", stderr);
  if (status->culprit) {
    put_clean(status->culprit);
    if (status->value) {
      fputs(" '", stderr);
      put_clean(status->value);
      fputc('\'', stderr);
    }
    fputs(": ", stderr);
  }
  put_clean(status->reason);
  fputc('\n', stderr);
  return status->code == P4D_RENDER_ERR_USAGE ? P4D_EXIT_USAGE
                                              : P4D_EXIT_FAILURE;
}

void
p4d_report_warn(const char* format, ...)
{
  char    text[4096];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  fputs("perlin4d-render: warning: ", stderr);
  put_clean(text);
  fputc('\n', stderr);
}

void
p4d_report_progress(int64_t done, int64_t total, const char* unit)
{
  const int width = 40;
  const int fill  = total ? (int)(done * width / total) : width;
  fprintf(stderr,
          "\r[%.*s%*s] %3d%%",
          fill,
          "########################################",
          width - fill,
          "",
          total ? (int)(done * 100 / total) : 100);
  if (unit) {
    fprintf(stderr, " (%lld/%lld %s)", (long long)done, (long long)total, unit);
  }
  if (done == total) {
    fputc('\n', stderr);
  }
}
