// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "frame_name.h"

#include <stdio.h>
#include <string.h>

/// Widest frame number a name may ask for.
#define MAX_WIDTH 9U

P4dRenderCode
p4d_frame_name_parse(const char*      pattern,
                     P4dFrameName*    name,
                     P4dRenderStatus* status)
{
  memset(name, 0, sizeof(*name));
  name->pattern = pattern;
  for (size_t i = 0U; pattern[i]; ++i) {
    if (pattern[i] != '%') {
      continue;
    }
    if (pattern[i + 1U] == '%') {
      ++i;
      continue;
    }
    size_t   k     = i + 1U;
    bool     zero  = false;
    unsigned width = 0U;
    if (pattern[k] == '0') {
      zero = true;
      ++k;
    }
    while (pattern[k] >= '0' && pattern[k] <= '9' && width <= MAX_WIDTH) {
      width = width * 10U + (unsigned)(pattern[k] - '0');
      ++k;
    }
    if (pattern[k] != 'd' || width > MAX_WIDTH) {
      return p4d_report_usage(status,
                              NULL,
                              "a frame number is %d, %5d or %05d (width at "
                              "most 9), and a percent sign %%");
    }
    if (name->numbered) {
      return p4d_report_usage(
        status, NULL, "more than one frame number in the name");
    }
    name->numbered = true;
    name->at       = i;
    name->len      = k + 1U - i;
    name->width    = width;
    name->zero     = zero;
    i              = k;
  }
  return P4D_RENDER_SUCCESS;
}

/// Append the characters of s[0 .. len) to path, making "%%" "%".
static bool
put_text(const char* s, size_t len, char* path, size_t size, size_t* pos)
{
  for (size_t i = 0U; i < len; ++i) {
    if (*pos + 1U >= size) {
      return false;
    }
    path[(*pos)++] = s[i];
    if (s[i] == '%' && i + 1U < len && s[i + 1U] == '%') {
      ++i;
    }
  }
  path[*pos] = '\0';
  return true;
}

bool
p4d_frame_name_format(const P4dFrameName* name,
                      int64_t             n,
                      char*               path,
                      size_t              size)
{
  const char* const p   = name->pattern;
  size_t            pos = 0U;
  if (!size) {
    return false;
  }
  path[0] = '\0';
  if (!name->numbered) {
    return put_text(p, strlen(p), path, size, &pos);
  }
  char      number[32];
  const int len = snprintf(number,
                           sizeof(number),
                           name->zero ? "%0*lld" : "%*lld",
                           (int)name->width,
                           (long long)n);
  return put_text(p, name->at, path, size, &pos) &&
         put_text(number, (size_t)len, path, size, &pos) &&
         put_text(p + name->at + name->len,
                  strlen(p + name->at + name->len),
                  path,
                  size,
                  &pos);
}
