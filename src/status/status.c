// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "status.h"

const char*
p4d_strerror(P4dStatus status)
{
  switch (status) {
  case P4D_SUCCESS:
    return "success";
  case P4D_ERR_BAD_ARG:
    return "bad argument";
  case P4D_ERR_NO_MEM:
    return "out of memory";
  case P4D_ERR_IO:
    return "input/output error";
  }

  return "unknown error";
}
