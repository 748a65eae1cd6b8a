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

/// Open a world with the bundle beside the program (a build tree:
/// build/perlin4d-render and build/lv2/perlin4d.lv2), or the bundle that
/// holds the program (a release tarball unpacked into ~/.lv2:
/// perlin4d.lv2/bin/perlin4d-render), or the installed bundle, or whatever
/// LV2_PATH holds; stderr is muted until presets_close().
static void
presets_open(Presets* p, const char* exe_path)
{
  memset(p, 0, sizeof(*p));
  p->saved_stderr = mute_stderr();
  p->world        = lilv_world_new();
  p->preset_class = lilv_new_uri(p->world, LV2_PRESETS__Preset);
  p->label        = lilv_new_uri(p->world, RDFS_LABEL);

  char        beside[4096] = "";
  char        holder[4096] = "";
  const char* slash        = strrchr(exe_path, '/');
  if (slash && (size_t)(slash - exe_path) < sizeof(beside) - 32U) {
    const int dir_len = (int)(slash - exe_path);
    snprintf(
      beside, sizeof(beside), "%.*s/lv2/perlin4d.lv2", dir_len, exe_path);
    const char* up = slash;
    while (up > exe_path && up[-1] != '/') {
      --up;
    }
    if (up > exe_path + 1) {
      snprintf(
        holder, sizeof(holder), "%.*s", (int)(up - 1 - exe_path), exe_path);
    }
  }

  const char* const dirs[] = { beside, holder, P4D_BUNDLE_DIR };
  for (size_t i = 0U; i < sizeof(dirs) / sizeof(dirs[0]); ++i) {
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
/// (Mod CV has the presets of Mod), by URI, label and the file that holds
/// it.
typedef bool (*PresetVisit)(const char*         uri,
                            const char*         label,
                            const char*         file,
                            const P4dKindClass* kind,
                            void*               data);

/// The folder of the bundle that p holds (that of its first plugin), to
/// free with lilv_free(), or NULL.
static char*
presets_bundle(Presets* p)
{
  const LilvPlugins*  plugins = lilv_world_get_all_plugins(p->world);
  const P4dKindClass* kind    = NULL;
  for (unsigned i = 0U; (kind = p4d_kind_at(i)); ++i) {
    const P4dPlugin* const plugin = p4d_kind_plugin(kind);
    LilvNode* uri = plugin ? lilv_new_uri(p->world, plugin->uri) : NULL;
    const LilvPlugin* const found =
      uri ? lilv_plugins_get_by_uri(plugins, uri) : NULL;
    lilv_node_free(uri);
    if (found) {
      return lilv_file_uri_parse(
        lilv_node_as_uri(lilv_plugin_get_bundle_uri(found)), NULL);
    }
  }
  return NULL;
}

/// What presets_file() passes on to a visit.
typedef struct {
  PresetVisit         visit;
  void*               data;
  const char*         file;
  const P4dKindClass* kind;
} FileVisit;

static bool
visit_file_preset(const char* uri, const char* label, void* data)
{
  const FileVisit* const v = (const FileVisit*)data;
  return v->visit(uri, label, v->file, v->kind, v->data);
}

/// Visit the presets of kind in its own file of the bundle (a kind that is
/// no plugin: the Image); true if a visit said stop.
static bool
presets_file(Presets*            p,
             const P4dKindClass* kind,
             PresetVisit         visit,
             void*               data)
{
  char* const bundle = presets_bundle(p);
  if (!bundle) {
    return false;
  }
  char file[4096];
  snprintf(file, sizeof(file), "%s%s", bundle, kind->presets_file);
  lilv_free(bundle);
  const FileVisit v = { visit, data, file, kind };
  return p4d_preset_file_each(file, visit_file_preset, (void*)&v);
}

/// Call visit(uri, label, file, kind) for every preset of every class the
/// renderer renders; stop when it returns true, and return true then.
static bool
presets_find(Presets* p, PresetVisit visit, void* data)
{
  const LilvPlugins*  plugins  = lilv_world_get_all_plugins(p->world);
  LilvNode* const     see_also = lilv_new_uri(p->world, RDFS_SEE_ALSO);
  const P4dKindClass* kind     = NULL;
  bool                found    = false;
  for (unsigned i = 0U; !found && (kind = p4d_kind_at(i)); ++i) {
    if (!kind->name) {
      continue;
    }
    if (kind->presets_file) {
      found = presets_file(p, kind, visit, data);
      continue;
    }
    LilvNode*         uri    = lilv_new_uri(p->world, p4d_kind_uri(kind));
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
      LilvNode*   file  = lilv_world_get(p->world, preset, see_also, NULL);
      char*       path  = file && lilv_node_is_uri(file)
                            ? lilv_file_uri_parse(lilv_node_as_uri(file), NULL)
                            : NULL;
      const char* text  = label ? lilv_node_as_string(label) : "";
      found =
        visit(lilv_node_as_uri(preset), text, path ? path : "", kind, data);
      lilv_free(path);
      lilv_node_free(file);
      lilv_node_free(label);
      if (found) {
        break;
      }
    }
    lilv_nodes_free(presets);
  }
  lilv_node_free(see_also);
  return found;
}

/// What a search by name found.
typedef struct {
  const char*         spec;
  const P4dKindClass* kind;
  char*               uri;        ///< The preset's URI (to free)
  char                file[4096]; ///< The file that holds it
} Match;

static bool
matches(const char*         uri,
        const char*         label,
        const char*         file,
        const P4dKindClass* kind,
        void*               data)
{
  Match* const match = (Match*)data;
  const char*  colon = strrchr(uri, ':');
  const bool   found = !strcasecmp(label, match->spec) ||
                     !strcmp(uri, match->spec) ||
                     (colon && !strcmp(colon + 1, match->spec));
  if (found) {
    match->kind = kind;
    match->uri  = strdup(uri);
    snprintf(match->file, sizeof(match->file), "%s", file);
  }
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
list_preset(const char*         uri,
            const char*         label,
            const char*         file,
            const P4dKindClass* kind,
            void*               data)
{
  (void)file;
  PresetLines* const lines = (PresetLines*)data;
  if (lines->n == sizeof(lines->entry) / sizeof(lines->entry[0])) {
    return false;
  }
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

/// By plugin (Mod, Noise, Motion, Image), then by short name.
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
  Match match;
  memset(&match, 0, sizeof(match));
  match.spec       = spec;
  match.kind       = p4d_kind_default(false);
  const bool found = presets_find(&p, matches, &match);
  presets_close(&p);

  snprintf(values->file, sizeof(values->file), "%s", match.file);
  *uri         = match.uri;
  values->kind = match.kind;
  if (!found) {
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
    // A class may take another's presets, by the symbols they share.
    if (plugin->takes_presets_of && plugin->takes_presets_of == values->kind) {
      values->kind     = plugin;
      values->borrowed = true;
    } else {
      code = p4d_report_usage(status, NULL, "is not a preset of this plugin");
    }
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
  PresetLines*  lines = (PresetLines*)calloc(1U, sizeof(PresetLines));
  P4dRenderCode code =
    lines ? P4D_RENDER_SUCCESS
          : p4d_report_failure(status, "--list-presets", "out of memory");
  if (lines) {
    presets_find(&p, list_preset, lines);
    qsort(lines->entry, lines->n, sizeof(lines->entry[0]), compare_lines);
    for (unsigned i = 0U; i < lines->n; ++i) {
      fputs(lines->entry[i].line, stream);
    }
    free(lines);
  }
  presets_close(&p);
  return code;
}
