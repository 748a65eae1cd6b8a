// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _POSIX_C_SOURCE 200809L

#include "preset.h"

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/presets/presets.h>
#include <lv2/urid/urid.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#ifndef P4D_BUNDLE_DIR
#  define P4D_BUNDLE_DIR "/usr/local/lib/lv2/perlin4d.lv2"
#endif

#define MAX_URIS 64U

/// A small urid:map for reading preset values.
typedef struct {
  char*    uris[MAX_URIS];
  unsigned n_uris;
} UriTable;

static LV2_URID
map_uri(LV2_URID_Map_Handle handle, const char* uri)
{
  UriTable* const table = (UriTable*)handle;
  for (unsigned i = 0U; i < table->n_uris; ++i) {
    if (!strcmp(table->uris[i], uri)) {
      return i + 1U;
    }
  }
  if (table->n_uris == MAX_URIS) {
    return 0U;
  }
  table->uris[table->n_uris] = strdup(uri);
  return table->uris[table->n_uris] ? ++table->n_uris : 0U;
}

typedef struct {
  LilvWorld*   world;
  UriTable     uris;
  LV2_URID_Map map;
  LilvNode*    preset_class;
  LilvNode*    label;
} Presets;

static bool
is_bundle(const char* dir)
{
  char        manifest[4096];
  struct stat st;
  snprintf(manifest, sizeof(manifest), "%s/manifest.ttl", dir);
  return !stat(manifest, &st) && S_ISREG(st.st_mode);
}

/// Open a world with the bundle beside the program (a build tree), or the
/// installed bundle, or whatever LV2_PATH holds.
static void
presets_open(Presets* p, const char* exe_path)
{
  memset(p, 0, sizeof(*p));
  p->world        = lilv_world_new();
  p->map.handle   = &p->uris;
  p->map.map      = map_uri;
  p->preset_class = lilv_new_uri(p->world, LV2_PRESETS__Preset);
  p->label =
    lilv_new_uri(p->world, "http://www.w3.org/2000/01/rdf-schema#label");

  char        beside[4096] = "";
  const char* slash        = strrchr(exe_path, '/');
  if (slash && (size_t)(slash - exe_path) < sizeof(beside) - 32U) {
    snprintf(beside,
             sizeof(beside),
             "%.*s/lv2/perlin4d.lv2",
             (int)(slash - exe_path),
             exe_path);
  }

  const char* const dirs[] = { beside, P4D_BUNDLE_DIR };
  for (size_t i = 0U; i < 2U; ++i) {
    if (dirs[i][0] && is_bundle(dirs[i])) {
      char uri_path[4096];
      snprintf(uri_path, sizeof(uri_path), "%s/", dirs[i]);
      LilvNode* bundle = lilv_new_file_uri(p->world, NULL, uri_path);
      lilv_world_load_bundle(p->world, bundle);
      lilv_node_free(bundle);
      return;
    }
  }
  lilv_world_load_all(p->world);
}

static void
presets_close(Presets* p)
{
  lilv_node_free(p->preset_class);
  lilv_node_free(p->label);
  lilv_world_free(p->world);
  for (unsigned i = 0U; i < p->uris.n_uris; ++i) {
    free(p->uris.uris[i]);
  }
}

/// One plugin of each kind: Mod CV has the presets of Mod.
static const P4dPluginId plugin_ids[] = { P4D_PLUGIN_MOD, P4D_PLUGIN_NOISE };

static bool
kind_of(const char* plugin_uri, P4dKind* kind)
{
  const P4dPlugin* const plugin = p4d_plugin_find(plugin_uri);
  if (plugin) {
    *kind = plugin->kind;
  }
  return plugin != NULL;
}

/// Call visit(preset, label, kind) for every preset of both plugins; stop
/// when it returns true and return that preset.
static const LilvNode*
presets_find(Presets* p,
             bool (*visit)(const LilvNode*, const char*, P4dKind, void*),
             void*       data,
             LilvNodes** keep)
{
  const LilvPlugins* plugins = lilv_world_get_all_plugins(p->world);
  for (size_t i = 0U; i < 2U; ++i) {
    LilvNode* uri = lilv_new_uri(p->world, p4d_plugin(plugin_ids[i])->uri);
    const LilvPlugin* plugin = lilv_plugins_get_by_uri(plugins, uri);
    lilv_node_free(uri);
    if (!plugin) {
      continue;
    }

    LilvNodes* presets = lilv_plugin_get_related(plugin, p->preset_class);
    LILV_FOREACH(nodes, it, presets)
    {
      const LilvNode* preset = lilv_nodes_get(presets, it);
      lilv_world_load_resource(p->world, preset);
      LilvNode*   label = lilv_world_get(p->world, preset, p->label, NULL);
      const char* text  = label ? lilv_node_as_string(label) : "";
      const bool  found =
        visit(preset, text, i ? P4D_KIND_NOISE : P4D_KIND_MOD, data);
      lilv_node_free(label);
      if (found) {
        *keep = presets;
        return preset;
      }
    }
    lilv_nodes_free(presets);
  }
  return NULL;
}

static bool
matches(const LilvNode* preset, const char* label, P4dKind kind, void* data)
{
  (void)kind;
  const char* spec  = (const char*)data;
  const char* uri   = lilv_node_as_uri(preset);
  const char* colon = strrchr(uri, ':');
  return !strcasecmp(label, spec) || !strcmp(uri, spec) ||
         (colon && !strcmp(colon + 1, spec));
}

static bool
print_preset(const LilvNode* preset,
             const char*     label,
             P4dKind         kind,
             void*           data)
{
  const char* uri   = lilv_node_as_uri(preset);
  const char* colon = strrchr(uri, ':');
  fprintf((FILE*)data,
          "%-18s %-6s %-20s %s\n",
          colon ? colon + 1 : uri,
          kind == P4D_KIND_MOD ? "mod" : "noise",
          label,
          uri);
  return false;
}

typedef struct {
  P4dPresetValues* values;
  LV2_URID         atom_float;
  LV2_URID         atom_double;
  LV2_URID         atom_int;
  LV2_URID         atom_long;
} Collect;

static void
collect_value(const char* symbol,
              void*       data,
              const void* value,
              uint32_t    size,
              uint32_t    type)
{
  Collect* const         c = (Collect*)data;
  P4dPresetValues* const v = c->values;
  double                 x = 0.0;
  if (type == c->atom_float && size == sizeof(float)) {
    x = *(const float*)value;
  } else if (type == c->atom_double && size == sizeof(double)) {
    x = *(const double*)value;
  } else if (type == c->atom_int && size == sizeof(int32_t)) {
    x = *(const int32_t*)value;
  } else if (type == c->atom_long && size == sizeof(int64_t)) {
    x = (double)*(const int64_t*)value;
  } else {
    return;
  }

  const size_t len = strlen(symbol);
  if (v->n_values < P4D_MAX_PARAMS && len < sizeof(v->symbols[0])) {
    memcpy(v->symbols[v->n_values], symbol, len + 1U);
    v->values[v->n_values++] = (float)x;
  }
}

const char*
p4d_preset_load(const char* spec, const char* exe_path, P4dPresetValues* values)
{
  Presets p;
  presets_open(&p, exe_path);

  struct stat st;
  const bool  is_file =
    (strchr(spec, '/') || strstr(spec, ".ttl")) && !stat(spec, &st);

  LilvState*  state  = NULL;
  LilvNodes*  keep   = NULL;
  const char* reason = NULL;
  values->file[0]    = '\0';
  if (is_file) {
    state  = lilv_state_new_from_file(p.world, &p.map, NULL, spec);
    reason = state ? NULL : "not a preset file";
    snprintf(values->file, sizeof(values->file), "%s", spec);
  } else {
    const LilvNode* preset = presets_find(&p, matches, (void*)spec, &keep);
    state  = preset ? lilv_state_new_from_world(p.world, &p.map, preset) : NULL;
    reason = state ? NULL : "no such preset (see --list-presets)";

    // The file the preset's description lives in is an input too.
    LilvNode* see_also =
      lilv_new_uri(p.world, "http://www.w3.org/2000/01/rdf-schema#seeAlso");
    LilvNode* file =
      preset ? lilv_world_get(p.world, preset, see_also, NULL) : NULL;
    char* path =
      file ? lilv_file_uri_parse(lilv_node_as_uri(file), NULL) : NULL;
    if (path) {
      snprintf(values->file, sizeof(values->file), "%s", path);
    }
    lilv_free(path);
    lilv_node_free(file);
    lilv_node_free(see_also);
  }

  if (state && !kind_of(lilv_node_as_uri(lilv_state_get_plugin_uri(state)),
                        &values->kind)) {
    reason = "the preset is not for a perlin4d plugin";
  }

  if (!reason) {
    Collect c        = { values, 0U, 0U, 0U, 0U };
    c.atom_float     = map_uri(&p.uris, LV2_ATOM__Float);
    c.atom_double    = map_uri(&p.uris, LV2_ATOM__Double);
    c.atom_int       = map_uri(&p.uris, LV2_ATOM__Int);
    c.atom_long      = map_uri(&p.uris, LV2_ATOM__Long);
    values->n_values = 0U;
    lilv_state_emit_port_values(state, collect_value, &c);
  }

  lilv_state_free(state);
  lilv_nodes_free(keep);
  presets_close(&p);
  return reason;
}

const char*
p4d_preset_list(const char* exe_path, FILE* stream)
{
  Presets p;
  presets_open(&p, exe_path);
  LilvNodes* keep = NULL;
  presets_find(&p, print_preset, stream, &keep);
  presets_close(&p);
  return NULL;
}
