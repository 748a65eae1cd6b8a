// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "ttl_read.h"

#include "host.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// URI nodes made by p4d_ttl_node(), freed at the end.
#define MAX_NODES 64U

static LilvWorld* world = NULL;
static LilvNode*  nodes[MAX_NODES];
static unsigned   n_nodes = 0U;

LilvWorld*
p4d_ttl_open(const int argc, char** const argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s BUNDLE_DIR\n", argv[0]);
    exit(1);
  }

  // Only this bundle: an installed perlin4d must not hide the build
  world = lilv_world_new();
  assert(world);
  p4d_world_load_bundle(world, argv[1]);
  return world;
}

void
p4d_ttl_close(void)
{
  for (unsigned i = 0U; i < n_nodes; ++i) {
    lilv_node_free(nodes[i]);
  }
  n_nodes = 0U;
  lilv_world_free(world);
  world = NULL;
}

LilvWorld*
p4d_ttl_world(void)
{
  return world;
}

void
p4d_ttl_expect(const bool ok, const char* const fmt, ...)
{
  if (!ok) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n");
    va_end(args);
  }

  assert(ok);
}

const LilvNode*
p4d_ttl_node(const char* const uri)
{
  for (unsigned i = 0U; i < n_nodes; ++i) {
    if (!strcmp(lilv_node_as_uri(nodes[i]), uri)) {
      return nodes[i];
    }
  }

  assert(n_nodes < MAX_NODES);
  nodes[n_nodes] = lilv_new_uri(world, uri);
  return nodes[n_nodes++];
}

bool
p4d_ttl_is_number(const LilvNode* const value)
{
  return value && (lilv_node_is_float(value) || lilv_node_is_int(value));
}

LilvNode*
p4d_ttl_get_one(const char* const     what,
                const LilvNode* const subject,
                const char* const     predicate)
{
  LilvNodes* const values =
    lilv_world_find_nodes(world, subject, p4d_ttl_node(predicate), NULL);
  const unsigned n = values ? lilv_nodes_size(values) : 0U;
  p4d_ttl_expect(n == 1U, "%s: %u %s, not one", what, n, predicate);
  LilvNode* const value = lilv_node_duplicate(lilv_nodes_get_first(values));
  lilv_nodes_free(values);
  return value;
}

void
p4d_ttl_check_value(const char* const     what,
                    const LilvNode* const subject,
                    const char* const     predicate,
                    const char* const     expected)
{
  LilvNode* const   value = p4d_ttl_get_one(what, subject, predicate);
  const char* const str   = lilv_node_as_string(value);
  p4d_ttl_expect(expected ? !strcmp(str, expected)
                          : lilv_node_is_string(value) && *str != '\0',
                 "%s: %s is \"%s\", expected %s",
                 what,
                 predicate,
                 str,
                 expected ? expected : "text");
  lilv_node_free(value);
}

const LilvPlugin*
p4d_ttl_find_plugin(const P4dTtlPlugin* const spec)
{
  LilvNode* const         uri = lilv_new_uri(world, spec->uri);
  const LilvPlugin* const plugin =
    lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), uri);
  lilv_node_free(uri);
  p4d_ttl_expect(
    plugin != NULL, "plugin %s not found in the bundle", spec->uri);
  return plugin;
}
