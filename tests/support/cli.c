// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "cli.h"

#include "files.h"

#include "engine.h"
#include "params.h"

#include <assert.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char        render_path[4096];
static const char* program = render_path;

const char p4d_cli_preset_ttl[] =
  "@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n"
  "@prefix pset: <http://lv2plug.in/ns/ext/presets#> .\n"
  "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
  "\n"
  "<>\n"
  "\ta pset:Preset ;\n"
  "\tlv2:appliesTo <urn:perlin4d:noise> ;\n"
  "\trdfs:label \"Test\" ;\n"
  "\tlv2:port [\n"
  "\t\tlv2:symbol \"level_db\" ;\n"
  "\t\tpset:value -6.0\n"
  "\t] , [\n"
  "\t\tlv2:symbol \"seed\" ;\n"
  "\t\tpset:value 7\n"
  "\t] .\n";

void
p4d_cli_open(const char* render_arg, const char* name)
{
  assert(!setvbuf(stdout, NULL, _IOLBF, 0U));
  umask(022);
  assert(realpath(render_arg, render_path));
  p4d_work_open(name);
}

void
p4d_cli_close(void)
{
  p4d_work_close();
}

const char*
p4d_cli_render(void)
{
  return render_path;
}

void
p4d_cli_use(const char* path)
{
  program = path ? path : render_path;
}

P4dProcSetup
p4d_cli_setup(void)
{
  P4dProcSetup how;
  memset(&how, 0, sizeof(how));
  how.program = program;
  how.dir     = p4d_work_dir();
  return how;
}

P4dProcResult
p4d_cli_run(const char* const* args, P4dTrouble trouble)
{
  P4dProcSetup how = p4d_cli_setup();
  how.fsize        = trouble == P4D_PROC_FILE_LIMIT ? 65536L : 0L;
  how.full_disk    = trouble == P4D_PROC_FILE_LIMIT;
  how.nobody       = trouble == P4D_PROC_AS_NOBODY;
  how.stderr_tty   = trouble == P4D_PROC_STDERR_TTY;
  P4dProc proc     = p4d_proc_start(&how, args);
  if (trouble == P4D_PROC_SIGTERM) {
    p4d_proc_wait_open(&proc, p4d_work_dir());
    assert(!kill(proc.pid, SIGTERM));
  }
  return p4d_proc_finish(&proc);
}

P4dProcResult
p4d_cli_run_for(const char* const* args, double timeout_s)
{
  P4dProcSetup how = p4d_cli_setup();
  how.timeout_s    = timeout_s;
  return p4d_proc_run(&how, args);
}

P4dProcResult
p4d_cli_run2(const char* const* a, const char* const* b, P4dTrouble trouble)
{
  const char* args[P4D_PROC_MAX_ARGS + 1];
  size_t      n = 0U;
  for (size_t i = 0U; a[i]; ++i) {
    assert(n < P4D_PROC_MAX_ARGS);
    args[n++] = a[i];
  }
  for (size_t i = 0U; b && b[i]; ++i) {
    assert(n < P4D_PROC_MAX_ARGS);
    args[n++] = b[i];
  }
  args[n] = NULL;
  return p4d_cli_run(args, trouble);
}

void
p4d_cli_ok(const char* const* a, const char* const* b)
{
  const P4dProcResult r = p4d_cli_run2(a, b, P4D_PROC_PLAIN);
  if (r.status || r.err[0] || r.out[0]) {
    printf("# %s: status %d, stderr: %s", a[1], r.status, r.err);
  }
  assert(r.status == 0);
  assert(r.err[0] == '\0');
  assert(r.out[0] == '\0');
}

void
p4d_cli_refused(const char* const* args,
                int                status,
                const char*        message,
                unsigned           n_files)
{
  const P4dProcResult r = p4d_cli_run(args, P4D_PROC_PLAIN);
  char                expected[512];
  snprintf(expected, sizeof(expected), "perlin4d-render: %s", message);
  const size_t len = strlen(expected);

  // "perlin4d-render: <argument>: <reason>", the reason not empty.
  const char* reason    = strstr(r.err, ": ");
  reason                = reason ? strstr(reason + 2, ": ") : NULL;
  const bool has_reason = reason && reason[2] && reason[2] != '\n';

  const bool ok = r.status == status && !strncmp(r.err, expected, len) &&
                  has_reason && p4d_count_lines(r.err) == 1U && !r.out[0] &&
                  p4d_work_count() == n_files;
  if (!ok) {
    printf("# expected %d and '%s...'; got status %d, %u files, stderr: %s",
           status,
           expected,
           r.status,
           p4d_work_count(),
           r.err);
  }
  assert(r.status == status);
  assert(!strncmp(r.err, expected, len));
  assert(has_reason);
  assert(p4d_count_lines(r.err) == 1U);
  assert(r.out[0] == '\0');
  assert(p4d_work_count() == n_files);
}

long
p4d_cli_peak_kib(const char* const* args)
{
  P4dProcSetup how      = p4d_cli_setup();
  how.peak              = true;
  const P4dProcResult r = p4d_proc_run(&how, args);
  assert(r.status == 0);
  return r.peak_kib;
}

const char*
p4d_cli_sandbox(const char* name)
{
  char              bundle[4200];
  char              into[600];
  const char* const slash = strrchr(render_path, '/');
  snprintf(bundle,
           sizeof(bundle),
           "%.*s/lv2/perlin4d.lv2",
           (int)(slash - render_path),
           render_path);

  assert(!mkdir(p4d_work_path(name), 0755));
  snprintf(into, sizeof(into), "%s/lv2", name);
  assert(!mkdir(p4d_work_path(into), 0755));
  snprintf(into, sizeof(into), "%s/lv2/perlin4d.lv2", name);
  assert(!mkdir(p4d_work_path(into), 0755));

  // Every regular file of the bundle, whatever the build puts there.
  DIR* const dir = opendir(bundle);
  assert(dir);
  unsigned n = 0U;
  for (struct dirent* e = readdir(dir); e; e = readdir(dir)) {
    char        from[4500];
    char        to[900];
    struct stat st;
    snprintf(from, sizeof(from), "%s/%s", bundle, e->d_name);
    if (!stat(from, &st) && S_ISREG(st.st_mode)) {
      snprintf(to, sizeof(to), "%s/%s", into, e->d_name);
      p4d_file_copy(from, p4d_work_path(to), 0644);
      ++n;
    }
  }
  closedir(dir);
  assert(n >= 3U); // a manifest, a binary, descriptions

  static char copy[600];
  snprintf(into, sizeof(into), "%s/perlin4d-render", name);
  snprintf(copy, sizeof(copy), "%s", p4d_work_path(into));
  p4d_file_copy(render_path, copy, 0755);
  return copy;
}

float*
p4d_cli_read_frames(const char* name, SF_INFO* info)
{
  memset(info, 0, sizeof(*info));
  SNDFILE* file = sf_open(p4d_work_path(name), SFM_READ, info);
  assert(file);
  const size_t n      = (size_t)info->frames * (size_t)info->channels;
  float* const frames = (float*)malloc((n ? n : 1U) * sizeof(float));
  assert(frames);
  assert(sf_readf_float(file, frames, info->frames) == info->frames);
  sf_close(file);
  return frames;
}

void
p4d_setting_parse(const char* set, char* symbol, float* value)
{
  const char* eq = strchr(set, '=');
  assert(eq && eq - set < 32);
  memcpy(symbol, set, (size_t)(eq - set));
  symbol[eq - set] = '\0';
  *value           = (float)strtod(eq + 1, NULL);
}

float*
p4d_engine_samples(P4dKind kind, double rate, size_t n, const char* const* sets)
{
  const P4dParamTable* table = p4d_params(kind);
  float                params[P4D_MAX_PARAMS];
  p4d_param_defaults(table, params);
  for (; sets && *sets; ++sets) {
    char  symbol[32];
    float value = 0.0f;
    p4d_setting_parse(*sets, symbol, &value);
    const int id = p4d_param_find(table, symbol);
    assert(id >= 0);
    params[id] = value;
  }

  P4dEngine* engine = NULL;
  assert(!p4d_engine_new(kind, rate, &engine));
  p4d_engine_activate(engine);

  const unsigned nch = p4d_engine_channels(kind);
  float* const   out = (float*)malloc(n * nch * sizeof(float));
  assert(out);
  static float buf[P4D_MAX_CHANNELS][1000];
  float* const at[P4D_MAX_CHANNELS] = { buf[0], buf[1], buf[2], buf[3] };
  for (size_t done = 0U; done < n;) {
    const size_t m = n - done < 1000U ? n - done : 1000U;
    p4d_engine_process(engine, params, at, (uint32_t)m);
    for (size_t i = 0U; i < m; ++i) {
      for (unsigned c = 0U; c < nch; ++c) {
        out[(done + i) * nch + c] = buf[c][i];
      }
    }
    done += m;
  }
  p4d_engine_free(engine);
  return out;
}

unsigned
p4d_count_lines(const char* s)
{
  unsigned n = 0U;
  for (; *s; ++s) {
    n += *s == '\n';
  }
  return n;
}

unsigned
p4d_count_substrings(const char* s, const char* what)
{
  unsigned n = 0U;
  for (const char* p = strstr(s, what); p; p = strstr(p + 1, what)) {
    ++n;
  }
  return n;
}

P4dProc
p4d_cli_start(const P4dCliStart* s, const char* const* args)
{
  P4dProcSetup how = p4d_cli_setup();
  how.program      = s->program ? s->program : p4d_cli_render();
  how.env          = s->named ? "P4D_NO_TMPFILE=1" : NULL;
  how.nobody       = s->nobody;
  how.fsize        = s->fsize;
  how.keep_out     = true;
  return p4d_proc_start(&how, args);
}

void
p4d_cli_wait_open(const P4dProc* c, const char* dir)
{
  p4d_proc_wait_open(c, dir[0] ? p4d_work_path(dir) : p4d_work_dir());
}

void
p4d_cli_stop_when_open(const P4dProc* c, const char* dir)
{
  p4d_proc_stop_when_open(c, dir[0] ? p4d_work_path(dir) : p4d_work_dir());
}

P4dProcResult
p4d_cli_run_as(const P4dCliStart* s, const char* const* args)
{
  P4dProc c = p4d_cli_start(s, args);
  return p4d_proc_finish(&c);
}

unsigned
p4d_cli_names(const char* dir, char* list, size_t size)
{
  DIR* const d = opendir(dir[0] ? p4d_work_path(dir) : p4d_work_dir());
  assert(d);
  unsigned n = 0U;
  list[0]    = '\0';
  for (struct dirent* e = readdir(d); e; e = readdir(d)) {
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      const size_t len = strlen(list);
      snprintf(list + len, size - len, " %s", e->d_name);
      ++n;
    }
  }
  closedir(d);
  return n;
}

void
p4d_cli_expect_names(const char* dir, unsigned n, const char* what)
{
  char           list[2048];
  const unsigned found = p4d_cli_names(dir, list, sizeof(list));
  if (found != n) {
    printf("# %s: %u names left (expected %u):%s\n", what, found, n, list);
  }
  assert(found == n);
}

void
p4d_cli_expect_line(const P4dProcResult* r,
                    int                  status,
                    const char*          prefix,
                    const char*          what)
{
  const bool ok = r->status == status && p4d_count_lines(r->err) == 1U &&
                  !strncmp(r->err, prefix, strlen(prefix)) && !r->out_len;
  if (!ok) {
    printf("# %s: status %d (expected %d), stderr: %s\n",
           what,
           r->status,
           status,
           r->err);
  }
  assert(ok);
}
