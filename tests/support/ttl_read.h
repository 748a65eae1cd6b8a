// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The built bundle read as a host reads it, through lilv, for the tests of
  its description (test_ttl, test_ttl_presets): a world with only this
  bundle, URI nodes made once, and checks that name the culprit when they
  fail.
*/

#ifndef P4D_TEST_TTL_READ_H
#define P4D_TEST_TTL_READ_H

#include "ttl_contract.h"

#include <lilv/lilv.h>

#include <stdbool.h>

/// Check the command line (BUNDLE_DIR: else usage and exit 1) and open a
/// world with that bundle only: an installed perlin4d must not hide it.
LilvWorld*
p4d_ttl_open(int argc, char** argv);

/// Free the nodes made and the world.
void
p4d_ttl_close(void);

/// The world p4d_ttl_open() opened.
LilvWorld*
p4d_ttl_world(void);

/// Fail with a message that names the culprit unless ok.
void
p4d_ttl_expect(bool ok, const char* fmt, ...);

/// The node of a URI, made once and kept until p4d_ttl_close().
const LilvNode*
p4d_ttl_node(const char* uri);

/// Whether value is a number (a float or an int literal).
bool
p4d_ttl_is_number(const LilvNode* value);

/// The one value of predicate on subject (to free), failing if not one.
LilvNode*
p4d_ttl_get_one(const char*     what,
                const LilvNode* subject,
                const char*     predicate);

/// Check the one value of predicate: this string, or any text if NULL.
void
p4d_ttl_check_value(const char*     what,
                    const LilvNode* subject,
                    const char*     predicate,
                    const char*     expected);

/// The plugin of the bundle that spec describes (which must be there).
const LilvPlugin*
p4d_ttl_find_plugin(const P4dTtlPlugin* spec);

#endif // P4D_TEST_TTL_READ_H
