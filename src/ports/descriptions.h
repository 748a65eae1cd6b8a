// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file descriptions.h
   What each port of the bundle does, in a few words: the last column of the
   manual's port tables (doc/manual.md, written from the port table by
   doc/port_tables.c).  Kept beside the port table so that a new port gets
   its description where it gets its index; the manual's test fails for a
   port without one.
*/

#ifndef P4D_DESCRIPTIONS_H
#define P4D_DESCRIPTIONS_H

#include "params.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
   Return what port of plugin does, as a short Markdown phrase, or NULL
   when the port has no description.

   Reads constant tables only.  Not meant for the audio thread (it compares
   strings), though it allocates nothing.
*/
const char*
p4d_port_description(const P4dPlugin* plugin, const P4dPort* port);

/**
   Return what the port or parameter with symbol of the engines of kind
   does, as p4d_port_description() (the Image, which is no plugin, has its
   parameters described here too), or NULL.
*/
const char*
p4d_param_description(P4dKind kind, const char* symbol);

#ifdef __cplusplus
}
#endif

#endif // P4D_DESCRIPTIONS_H
