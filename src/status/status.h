// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file status.h
   The status codes of everything in perlin4d that can fail.
*/

#ifndef P4D_STATUS_H
#define P4D_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes.
typedef enum {
  P4D_SUCCESS,     ///< Success
  P4D_ERR_BAD_ARG, ///< An argument is out of its domain
  P4D_ERR_NO_MEM,  ///< Out of memory
  P4D_ERR_IO,      ///< Reading or writing failed
} P4dStatus;

/// Return a description of status.  Realtime safe.
const char*
p4d_strerror(P4dStatus status);

#ifdef __cplusplus
}
#endif

#endif // P4D_STATUS_H
