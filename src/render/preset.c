// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _XOPEN_SOURCE 700

#include "preset.h"

#include "preset_file.h"

#include <lilv/lilv.h>
#include <lv2/presets/presets.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef P4D_BUNDLE_DIR
#  define P4D_BUNDLE_DIR "/usr/local/lib/lv2/perlin4d.lv2"
#endif

#define RDFS_LABEL "http://www.w3.org/2000/01/rdf-schema#label"
#define RDFS_SEE_ALSO "http://www.w3.org/2000/01/rdf-schema#seeAlso"
// -- Quiet lilv ------------------------------------------------------------

/*
  lilv and the serd inside it print their own messages on stderr (a parse
  error, a bundle of LV2_PATH it cannot read), which would break the rule
  of one line per error.  While they run, stderr goes to /dev/null; this
  happens while the plan is made, before any thread starts.
*/

/// Point stderr at /dev/null; return the saved stderr (or -1 if kept).
static int
mute_stderr(void)
{
  const int null  = open("/dev/null", O_WRONLY | O_CLOEXEC);
  const int saved = null < 0 ? -1 : dup(STDERR_FILENO);
  if (saved >= 0 && fflush(stderr) == 0 && dup2(null, STDERR_FILENO) >= 0) {
    close(null);
    return saved;
  }
  if (saved >= 0) {
    close(saved);
  }
  if (null >= 0) {
    close(null);
  }
  return -1;
}

/// Give stderr back after mute_stderr().
static void
unmute_stderr(int saved)
{
  if (saved >= 0) {
    dup2(saved, STDERR_FILENO);
    close(saved);
  }
}

// -- The bundle, through lilv ------------------------------------------------

typedef struct {
  LilvWorld* world;
  LilvNode*  preset_class;
  LilvNode*  label;
  int        saved_stderr;
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
/// installed bundle, or whatever LV2_PATH holds; stderr is muted until
/// presets_close().
static void
presets_open(Presets* p, const char* exe_path)
{
  memset(p, 0, sizeof(*p));
  p->saved_stderr = mute_stderr();
  p->world        = lilv_world_new();
  p->preset_class = lilv_new_uri(p->world, LV2_PRESETS__Preset);
  p->label        = lilv_new_uri(p->world, RDFS_LABEL);

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
  unmute_stderr(p->saved_stderr);
}

/// A class's presets in the bundle: those of each class the renderer names
/// (Mod CV has the presets of Mod).
typedef bool (*PresetVisit)(const LilvNode*     preset,
                            const char*         label,
                            const P4dKindClass* kind,
                            void*               data);

/// Call visit(preset, label, kind) for every preset of every plugin the
/// renderer renders; stop when it returns true and return that preset.
static const LilvNode*
presets_find(Presets* p, PresetVisit visit, void* data, LilvNodes** keep)
{
  const LilvPlugins*  plugins = lilv_world_get_all_plugins(p->world);
  const P4dKindClass* kind    = NULL;
  for (unsigned i = 0U; (kind = p4d_kind_at(i)); ++i) {
    if (!kind->name) {
      continue;
    }
    LilvNode*         uri = lilv_new_uri(p->world, p4d_kind_plugin(kind)->uri);
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
      const bool  found = visit(preset, text, kind, data);
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

/// What a search by name found.
typedef struct {
  const char*         spec;
  const P4dKindClass* kind;
} Match;

static bool
matches(const LilvNode*     preset,
        const char*         label,
        const P4dKindClass* kind,
        void*               data)
{
  Match* const match = (Match*)data;
  const char*  uri   = lilv_node_as_uri(preset);
  const char*  colon = strrchr(uri, ':');
  const bool   found = !strcasecmp(label, match->spec) ||
                     !strcmp(uri, match->spec) ||
                     (colon && !strcmp(colon + 1, match->spec));
  match->kind = found ? kind : match->kind;
  return found;
}

/// One line of --list-presets.
typedef struct {
  unsigned kind;      ///< The plugin's place in the list of kinds
  char     line[256]; ///< What --list-presets prints
} PresetLine;

/// The preset list, gathered to be printed in a fixed order: lilv gives a
/// plugin's presets in an order that changes with the bundle's contents.
typedef struct {
  unsigned   n;
  PresetLine entry[128];
} PresetLines;

static bool
list_preset(const LilvNode*     preset,
            const char*         label,
            const P4dKindClass* kind,
            void*               data)
{
  PresetLines* const lines = (PresetLines*)data;
  if (lines->n == sizeof(lines->entry) / sizeof(lines->entry[0])) {
    return false;
  }
  const char* uri   = lilv_node_as_uri(preset);
  const char* colon = strrchr(uri, ':');
  PresetLine* entry = &lines->entry[lines->n++];
  entry->kind       = p4d_kind_index(kind);
  snprintf(entry->line,
           sizeof(entry->line),
           "%-18s %-6s %-20s %s\n",
           colon ? colon + 1 : uri,
           kind->name,
           label,
           uri);
  return false;
}

/// By plugin (Mod, Noise, Motion), then by short name.
static int
compare_lines(const void* a, const void* b)
{
  const PresetLine* const x = (const PresetLine*)a;
  const PresetLine* const y = (const PresetLine*)b;
  if (x->kind != y->kind) {
    return x->kind < y->kind ? -1 : 1;
  }
  return strcmp(x->line, y->line);
}

// -- Presets -----------------------------------------------------------------

/// Find the preset spec names in the bundle: its kind, URI and file.
static P4dRenderCode
find_named(const char*      spec,
           const char*      exe_path,
           P4dPresetValues* values,
           char**           uri,
           P4dRenderStatus* status)
{
  Presets p;
  presets_open(&p, exe_path);
  LilvNodes*            keep   = NULL;
  Match                 match  = { spec, p4d_kind_default(false) };
  const LilvNode* const preset = presets_find(&p, matches, &match, &keep);

  LilvNode* see_also = lilv_new_uri(p.world, RDFS_SEE_ALSO);
  LilvNode* file =
    preset ? lilv_world_get(p.world, preset, see_also, NULL) : NULL;
  char* path = file && lilv_node_is_uri(file)
                 ? lilv_file_uri_parse(lilv_node_as_uri(file), NULL)
                 : NULL;
  if (path) {
    snprintf(values->file, sizeof(values->file), "%s", path);
  }
  *uri         = preset ? strdup(lilv_node_as_uri(preset)) : NULL;
  values->kind = match.kind;
  lilv_free(path);
  lilv_node_free(file);
  lilv_node_free(see_also);
  lilv_nodes_free(keep);
  presets_close(&p);

  if (!preset) {
    const bool path_like = strchr(spec, '/') || strstr(spec, ".ttl");
    return p4d_report_usage(status,
                            NULL,
                            path_like
                              ? "no such file or preset (see --list-presets)"
                              : "no such preset (see --list-presets)");
  }
  return *uri && values->file[0]
           ? P4D_RENDER_SUCCESS
           : p4d_report_usage(status, NULL, "the preset has no file");
}

P4dRenderCode
p4d_preset_load(const char*         spec,
                const char*         exe_path,
                const P4dKindClass* plugin,
                P4dPresetValues*    values,
                P4dRenderStatus*    status)
{
  memset(values, 0, sizeof(*values));
  struct stat st;
  const bool  is_file =
    (strchr(spec, '/') || strstr(spec, ".ttl")) && !lstat(spec, &st);
  if (is_file) {
    snprintf(values->file, sizeof(values->file), "%s", spec);
    return p4d_preset_file_read(spec, NULL, spec, plugin, values, status);
  }

  char*         uri  = NULL;
  P4dRenderCode code = find_named(spec, exe_path, values, &uri, status);
  if (!code && plugin && plugin != values->kind) {
    code = p4d_report_usage(status, NULL, "is not a preset of this plugin");
  }
  if (!code &&
      p4d_preset_file_read(values->file, uri, spec, NULL, values, status)) {
    // The reason names the bundle's file that holds the damage.
    char reason[sizeof(status->text)];
    snprintf(reason, sizeof(reason), "%s", status->text);
    snprintf(status->text,
             sizeof(status->text),
             "%.255s: %.250s",
             values->file,
             reason);
    code = p4d_report_usage(status, NULL, status->text);
  }
  free(uri);
  return code;
}

P4dRenderCode
p4d_preset_list(const char* exe_path, FILE* stream, P4dRenderStatus* status)
{
  Presets p;
  presets_open(&p, exe_path);
  LilvNodes*    keep  = NULL;
  PresetLines*  lines = (PresetLines*)calloc(1U, sizeof(PresetLines));
  P4dRenderCode code =
    lines ? P4D_RENDER_SUCCESS
          : p4d_report_failure(status, "--list-presets", "out of memory");
  if (lines) {
    presets_find(&p, list_preset, lines, &keep);
    qsort(lines->entry, lines->n, sizeof(lines->entry[0]), compare_lines);
    for (unsigned i = 0U; i < lines->n; ++i) {
      fputs(lines->entry[i].line, stream);
    }
    free(lines);
  }
  presets_close(&p);
  return code;
}
