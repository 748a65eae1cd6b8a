// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render never half-writes or clobbers: inputs are never outputs,
  a full disk, SIGTERM or a folder it may not write to (as another user)
  leave nothing behind and older files intact, --force replaces by
  renaming, and the same file under other names is still the same file.

  Usage: test_render_safety PATH_TO_PERLIN4D_RENDER
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "support/cli.h"
#include "support/files.h"

#include <assert.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/// A preset given as a file is an input: never an output, even forced.
static void
test_preset_file_is_input(void)
{
  p4d_work_write("p.ttl", p4d_cli_preset_ttl);
  p4d_work_write("q.svg", p4d_cli_preset_ttl);

  static const char* const same[] = { "--preset", "p.ttl",      "-o",  "p.ttl",
                                      "--force",  "--duration", "0.1", NULL };
  static const char* const as_wav[]  = { "--preset", "p.ttl",      "-o",
                                         "./p.ttl",  "--format",   "wav",
                                         "--force",  "--duration", "0.1",
                                         NULL };
  static const char* const as_plot[] = { "--preset", "./q.svg",    "-o",
                                         "a.wav",    "--plot",     "q.svg",
                                         "--force",  "--duration", "0.1",
                                         NULL };
  p4d_cli_refused(same, 2, "p.ttl: is an input", 2U);
  p4d_cli_refused(as_wav, 2, "./p.ttl: is an input", 2U);
  p4d_cli_refused(as_plot, 2, "q.svg: is an input", 2U);

  size_t size = 0U;
  char*  text = p4d_work_read("p.ttl", &size);
  assert(size == strlen(p4d_cli_preset_ttl) &&
         !strcmp(text, p4d_cli_preset_ttl));
  free(text);
  text = p4d_work_read("q.svg", &size);
  assert(size == strlen(p4d_cli_preset_ttl) &&
         !strcmp(text, p4d_cli_preset_ttl));
  free(text);
  p4d_work_clear();
}

// -- Failures leave nothing behind -----------------------------------------

/// Entries in folder, other than . and ..
static unsigned
count_entries(const char* folder)
{
  DIR* const dir = opendir(folder);
  assert(dir);
  unsigned n = 0U;
  for (const struct dirent* e = readdir(dir); e; e = readdir(dir)) {
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  }
  assert(!closedir(dir));
  return n;
}

/**
   A disk that really fills up (ENOSPC, not a file-size limit): a 256 KiB
   tmpfs mounted in the work folder.  Mounting needs root, as the
   unwritable-folder case does; a test that cannot mount fails.
*/
static void
test_disk_full(void)
{
  const char* const disk = p4d_work_path("disk");
  assert(!mkdir(disk, 0700));
  if (mount("p4d-full", disk, "tmpfs", 0UL, "size=256k")) {
    perror("# mount tmpfs (needs root)");
    assert(false);
  }

  static const char* const formats[][P4D_PROC_MAX_ARGS] = {
    { "-o", "disk/full.wav", "--duration", "5", NULL },
    { "-o", "disk/full.flac", "--duration", "5", NULL },
    { "-o", "disk/full.csv", "--fps", "1000", "--duration", "60", NULL },
  };
  for (size_t i = 0U; i < sizeof(formats) / sizeof(formats[0]); ++i) {
    const P4dProcResult r = p4d_cli_run(formats[i], P4D_PROC_PLAIN);
    printf("# %s on a full disk: status %d, %u names left, stderr: %s",
           formats[i][1],
           r.status,
           count_entries(disk),
           r.err);
    assert(r.status == 1 && p4d_count_lines(r.err) == 1U);
    assert(strstr(r.err, formats[i][1]));
    assert(count_entries(disk) == 0U);
  }

  assert(!umount(disk));
  assert(!rmdir(disk));
}

static void
test_failures_leave_nothing(void)
{
  // Disk full mid-render: exit 1, no output, no temporary file.
  static const char* const big[] = {
    "-o", "full.wav", "--duration", "5", NULL
  };
  const P4dProcResult full = p4d_cli_run(big, P4D_PROC_FILE_LIMIT);
  assert(full.status == 1 && strstr(full.err, "full.wav: "));
  assert(p4d_count_lines(full.err) == 1U);
  assert(p4d_work_count() == 0U);

  // The same for every container, and for a plot too large.
  static const char* const others[][P4D_PROC_MAX_ARGS] = {
    { "-o", "full.flac", "--duration", "5", NULL },
    { "-o", "full.aiff", "--duration", "5", NULL },
    { "-o", "full.csv", "--fps", "1000", "--duration", "20", NULL },
    { "-o", "full.json", "--fps", "1000", "--duration", "20", NULL },
    { "-o", "full.ae", "--fps", "1000", "--duration", "20", NULL },
    { "-o", "full.chan", "--fps", "1000", "--duration", "20", NULL },
    { "-o",
      "thin.csv",
      "--fps",
      "1000",
      "--duration",
      "20",
      "--tolerance",
      "1e-9",
      NULL },
    { "-o",
      "small.wav",
      "--plot",
      "big.svg",
      "--duration",
      "0.2",
      "--plugin",
      "mod",
      NULL },
  };
  for (size_t i = 0U; i < sizeof(others) / sizeof(others[0]); ++i) {
    const P4dProcResult r = p4d_cli_run(others[i], P4D_PROC_FILE_LIMIT);
    if (r.status != 1 || p4d_work_count()) {
      printf("# %s: status %d, %u files, stderr: %s",
             others[i][1],
             r.status,
             p4d_work_count(),
             r.err);
    }
    assert(r.status == 1 && p4d_count_lines(r.err) == 1U);
    assert(p4d_work_count() == 0U);
  }
  printf("# disk full (WAV, FLAC, AIFF, CSV, JSON, AE, .chan, SVG): exit 1, "
         "nothing left\n");

  // An older output survives a failed --force render.
  static const char* const small[] = {
    "-o", "keep.wav", "--duration", "0.1", NULL
  };
  assert(p4d_cli_run(small, P4D_PROC_PLAIN).status == 0);
  size_t                   size_a = 0U;
  char*                    a      = p4d_work_read("keep.wav", &size_a);
  static const char* const redo[] = { "-o", "keep.wav", "--duration",
                                      "5",  "--force",  NULL };
  assert(p4d_cli_run(redo, P4D_PROC_FILE_LIMIT).status == 1);
  size_t size_b = 0U;
  char*  b      = p4d_work_read("keep.wav", &size_b);
  assert(size_a == size_b && !memcmp(a, b, size_a));
  assert(p4d_work_count() == 1U);
  free(b);

  // ... and a render stopped by SIGTERM.
  static const char* const stop[] = { "-o",           "keep.wav",
                                      "--duration",   "3000",
                                      "--samplerate", "8000",
                                      "--force",      NULL };
  const P4dProcResult      st     = p4d_cli_run(stop, P4D_PROC_SIGTERM);
  assert(st.status == 1 && strstr(st.err, "interrupted"));
  b = p4d_work_read("keep.wav", &size_b);
  assert(size_a == size_b && !memcmp(a, b, size_a));
  assert(p4d_work_count() == 1U);
  free(a);
  free(b);
  p4d_work_clear();

  // SIGTERM during a long render: exit 1, nothing left behind.
  static const char* const longer[] = { "-o",   "long.wav",     "--duration",
                                        "3000", "--samplerate", "8000",
                                        NULL };
  const P4dProcResult      stopped  = p4d_cli_run(longer, P4D_PROC_SIGTERM);
  assert(stopped.status == 1 && strstr(stopped.err, "interrupted"));
  assert(p4d_work_count() == 0U);
}

/**
   A folder the program may not write to: exit 1, the older file intact.

   As root the child drops to user nobody, so that the folder's mode
   applies; not being able to is a failure, never a skipped check.  Nobody
   runs a copy of the renderer and its bundle in the work folder: the build
   folder may lie where nobody cannot enter (a clone in /root, mode 0700).
*/
static void
test_unwritable_folder(void)
{
  assert(!chmod(p4d_work_dir(), 0755));
  assert(!mkdir(p4d_work_path("ro"), 0755));
  p4d_work_write("ro/keep.wav", "older");
  assert(!chmod(p4d_work_path("ro"), 0555));

  static const char* const args[] = { "-o",         "ro/keep.wav", "--force",
                                      "--duration", "0.1",         NULL };
  p4d_cli_use(p4d_cli_sandbox("bin"));
  const P4dProcResult r = p4d_cli_run(args, P4D_PROC_AS_NOBODY);
  p4d_cli_use(NULL);
  if (r.status != 1) {
    printf("# as nobody: status %d (%d: could not become nobody, 98: could "
           "not run the renderer), stderr: %s\n",
           r.status,
           P4D_PROC_NO_NOBODY,
           r.err);
  }
  assert(r.status != P4D_PROC_NO_NOBODY);
  assert(r.status == 1);
  assert(!strncmp(r.err, "perlin4d-render: ro/keep.wav: ", 30U));
  assert(p4d_count_lines(r.err) == 1U);
  size_t size = 0U;
  char*  text = p4d_work_read("ro/keep.wav", &size);
  assert(size == 5U && !strcmp(text, "older"));
  free(text);

  DIR* dir = opendir(p4d_work_path("ro"));
  assert(dir);
  unsigned n = 0U;
  for (struct dirent* e = readdir(dir); e; e = readdir(dir)) {
    n += e->d_name[0] != '.';
  }
  closedir(dir);
  assert(n == 1U);
  printf("# unwritable folder: exit 1 as another user, the older file "
         "intact\n");
  p4d_work_clear();
  assert(!chmod(p4d_work_dir(), 0700));
}

/// --force replaces by renaming: a reader of the old file keeps it whole.
static void
test_force_replaces_atomically(void)
{
  static const char* const first[]  = { "-o",         "r.wav", "--seed", "1",
                                        "--duration", "0.2",   NULL };
  static const char* const second[] = {
    "-o", "r.wav", "--seed", "2", "--duration", "0.2", "--force", NULL
  };
  p4d_cli_ok(first, NULL);
  assert(!link(p4d_work_path("r.wav"), p4d_work_path("old.wav")));
  struct stat before;
  struct stat after;
  assert(!stat(p4d_work_path("r.wav"), &before));
  size_t size_a = 0U;
  char*  a      = p4d_work_read("r.wav", &size_a);

  p4d_cli_ok(second, NULL);
  assert(!stat(p4d_work_path("r.wav"), &after));
  assert(after.st_ino != before.st_ino);
  assert(!p4d_work_same("r.wav", "old.wav"));
  size_t size_b = 0U;
  char*  b      = p4d_work_read("old.wav", &size_b);
  assert(size_a == size_b && !memcmp(a, b, size_a));
  assert(p4d_work_count() == 2U);

  // The mode a new file gets (the umask is 022 here), not mkstemp's 0600.
  assert((after.st_mode & 0777) == 0644);
  printf("# --force renames a new file into place; a link to the old one "
         "keeps it\n");
  free(a);
  free(b);
  p4d_work_clear();
}

/**
   The plot and the output are the same file however the path is spelled;
   the bundle's presets.ttl is an input when a preset comes from it; a
   failure names the value given.  The last test: it removes the work
   folder before its verdict.
*/
static void
test_culprits_under_other_names(void)
{
  // 1. --plot is the output, spelled differently: both files cannot be
  // written, so the command must be refused (else one silently replaces
  // the other).
  static const char* const plot_is_output[] = {
    "-o",    "./p.svg",    "--format", "csv", "--plot",
    "p.svg", "--duration", "0.1",      NULL
  };
  const P4dProcResult r1  = p4d_cli_run(plot_is_output, P4D_PROC_PLAIN);
  const bool plot_refused = r1.status == 2 && p4d_count_lines(r1.err) == 1U &&
                            !strncmp(r1.err, "perlin4d-render: ", 17U) &&
                            p4d_work_count() == 0U;
  if (!plot_refused) {
    printf("# not refused: -o ./p.svg --format csv --plot p.svg: status %d, "
           "%u files\n",
           r1.status,
           p4d_work_count());
  }
  p4d_work_clear();

  // 2. The renderer beside a copy of the bundle: --preset wind reads the
  // bundle's presets.ttl, which must not become the output.
  p4d_cli_use(p4d_cli_sandbox("bin"));
  static const char* const from_bundle[] = { "--preset", "wind",       "-o",
                                             "a.wav",    "--duration", "0.1",
                                             NULL };
  p4d_cli_ok(from_bundle, NULL); // the copy finds its bundle
  static const char* const over_bundle[] = {
    "--preset", "wind", "-o",      "bin/lv2/perlin4d.lv2/presets.ttl",
    "--format", "wav",  "--force", "--duration",
    "0.1",      NULL
  };
  char              original[4200];
  const char* const render = p4d_cli_render();
  snprintf(original,
           sizeof(original),
           "%.*s/lv2/perlin4d.lv2/presets.ttl",
           (int)(strrchr(render, '/') - render),
           render);
  p4d_file_copy(original, p4d_work_path("presets.orig"), 0644);
  const P4dProcResult r2 = p4d_cli_run(over_bundle, P4D_PROC_PLAIN);
  p4d_cli_use(NULL);
  const bool bundle_refused =
    r2.status == 2 && p4d_count_lines(r2.err) == 1U &&
    p4d_work_same("bin/lv2/perlin4d.lv2/presets.ttl", "presets.orig");
  if (!bundle_refused) {
    printf("# not refused: --preset wind -o <its bundle>/presets.ttl "
           "--force: status %d, presets.ttl %s\n",
           r2.status,
           p4d_work_same("bin/lv2/perlin4d.lv2/presets.ttl", "presets.orig")
             ? "intact"
             : "REPLACED");
  }
  p4d_work_clear();

  // 3. A duration shorter than one frame names the value given.
  static const char* const tiny[] = {
    "-o", "a.wav", "--duration", "1e-5", NULL
  };
  const P4dProcResult r3 = p4d_cli_run(tiny, P4D_PROC_PLAIN);
  const bool          named =
    r3.status == 2 &&
    !strncmp(r3.err, "perlin4d-render: --duration '1e-5': ", 36U) &&
    p4d_count_lines(r3.err) == 1U && p4d_work_count() == 0U;
  if (!named) {
    printf("# --duration 1e-5: status %d, stderr: %s", r3.status, r3.err);
  }
  p4d_work_clear();
  p4d_cli_close();

  assert(plot_refused);
  assert(bundle_refused);
  assert(named);
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_cli_open(argv[1], "safety");

  test_preset_file_is_input();
  test_failures_leave_nothing();
  test_disk_full();
  test_unwritable_folder();
  test_force_replaces_atomically();
  test_culprits_under_other_names();
  return 0;
}
