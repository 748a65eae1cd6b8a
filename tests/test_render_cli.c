// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render from the outside: runs the built program with good and bad
  command lines, checks exit codes, messages and the files it leaves.

  Usage: test_render_cli PATH_TO_PERLIN4D_RENDER
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "noise.h"

#include <sndfile.h>

#include <assert.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 16

static const char* render_path = NULL;
static char        work_dir[]  = "/tmp/p4d-cli-XXXXXX";

typedef struct {
  int  status;    ///< Exit code, or 128 + signal
  char out[4096]; ///< What the program printed on stdout
  char err[4096]; ///< What the program printed on stderr
} Result;

typedef enum { LIMIT_NONE, LIMIT_FILE_SIZE, SEND_SIGTERM } Trouble;

static void
read_all(int fd, char* buf, size_t size)
{
  size_t  len = 0U;
  ssize_t r   = 0;
  while ((r = read(fd, buf + len, size - 1U - len)) > 0) {
    len += (size_t)r;
  }
  buf[len] = '\0';
}

/// Run the renderer with args (NULL-terminated), in the work folder.
static Result
run(const char* const* args, Trouble trouble)
{
  const char* argv[MAX_ARGS + 2] = { render_path };
  for (size_t i = 0U; args[i]; ++i) {
    assert(i < MAX_ARGS);
    argv[i + 1] = args[i];
  }

  int out_pipe[2], err_pipe[2];
  assert(!pipe(out_pipe) && !pipe(err_pipe));

  const pid_t pid = fork();
  assert(pid >= 0);
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    close(out_pipe[0]);
    close(err_pipe[0]);
    if (chdir(work_dir)) {
      _exit(99);
    }
    if (trouble == LIMIT_FILE_SIZE) {
      // A full disk, as the program sees it: writes past 64 KiB fail.
      const struct rlimit limit = { 65536, 65536 };
      signal(SIGXFSZ, SIG_IGN);
      setrlimit(RLIMIT_FSIZE, &limit);
    }
    execv(render_path, (char* const*)argv);
    _exit(98);
  }

  close(out_pipe[1]);
  close(err_pipe[1]);
  if (trouble == SEND_SIGTERM) {
    const struct timespec wait = { 0, 300000000L };
    nanosleep(&wait, NULL);
    kill(pid, SIGTERM);
  }

  Result result;
  read_all(out_pipe[0], result.out, sizeof(result.out));
  read_all(err_pipe[0], result.err, sizeof(result.err));
  close(out_pipe[0]);
  close(err_pipe[0]);

  int status = 0;
  assert(waitpid(pid, &status, 0) == pid);
  result.status =
    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

/// Number of entries in the work folder.
static unsigned
count_files(void)
{
  DIR* dir = opendir(work_dir);
  assert(dir);
  unsigned n = 0U;
  for (struct dirent* e = readdir(dir); e; e = readdir(dir)) {
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  }
  closedir(dir);
  return n;
}

static void
clear_work_dir(void)
{
  DIR* dir = opendir(work_dir);
  assert(dir);
  for (struct dirent* e = readdir(dir); e; e = readdir(dir)) {
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      char path[512];
      snprintf(path, sizeof(path), "%s/%s", work_dir, e->d_name);
      assert(!unlink(path));
    }
  }
  closedir(dir);
}

static unsigned
count_lines(const char* s)
{
  unsigned n = 0U;
  for (; *s; ++s) {
    n += *s == '\n';
  }
  return n;
}

/// Bad command lines: exit code, a word the one-line message must hold.
static void
test_bad_input(void)
{
  static const struct {
    const char* args[MAX_ARGS];
    int         status;
    const char* message;
  } cases[] = {
    { { "-o", "a.wav", "--duration", "abc" },
      2,
      "--duration 'abc': not a decimal" },
    { { "-o", "a.wav", "--duration", "nan" },
      2,
      "--duration 'nan': not a decimal" },
    { { "-o", "a.wav", "--duration", "inf" },
      2,
      "--duration 'inf': not a decimal" },
    { { "-o", "a.wav", "--duration", "1e309" },
      2,
      "--duration '1e309': number out" },
    { { "-o", "a.wav", "--duration", "-1" },
      2,
      "--duration '-1': out of range" },
    { { "-o", "a.wav", "--duration", "0" },
      2,
      "--duration '0': must be greater" },
    { { "-o", "a.wav", "--duration", "" }, 2, "--duration '': not a decimal" },
    { { "-o", "a.wav", "--duration", "5s" },
      2,
      "--duration '5s': not a decimal" },
    { { "-o", "a.wav", "--duration", "1,5" },
      2,
      "--duration '1,5': not a decimal" },
    { { "-o", "a.wav", "--duration", "0x10" },
      2,
      "--duration '0x10': not a decimal" },
    { { "-o", "a.wav", "--channels", "0" }, 2, "--channels '0': out of range" },
    { { "-o", "a.wav", "--channels", "3" },
      2,
      "--channels '3': more than the plugin" },
    { { "-o", "a.wav", "--channels", "1.5" },
      2,
      "--channels '1.5': not a whole" },
    { { "-o", "a.wav", "--samplerate", "7999" },
      2,
      "--samplerate '7999': out of" },
    { { "-o", "a.wav", "--samplerate", "768001" },
      2,
      "--samplerate '768001': out" },
    { { "-o", "a.wav", "--seed", "-1" }, 2, "--seed '-1': not a whole" },
    { { "-o", "a.wav", "--seed", "65536" }, 2, "--seed '65536': out of" },
    { { "-o", "a.wav", "--duration" }, 2, "--duration: missing value" },
    { { "-o", "a.wav", "--bogus" }, 2, "--bogus: unknown option" },
    { { "--duration", "1" }, 2, "-o: no output file" },
    { { "-o", "" }, 2, "-o '': empty file name" },
    { { "-o", "." }, 2, ".: is a folder" },
    { { "-o", "missing/a.wav" }, 2, "missing/a.wav: folder does not exist" },
    { { "-o", "/proc/a.wav", "--duration", "0.1" }, 1, "/proc/a.wav: " },
  };

  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const Result r = run(cases[i].args, LIMIT_NONE);
    char         expected[256];
    snprintf(
      expected, sizeof(expected), "perlin4d-render: %s", cases[i].message);
    if (r.status != cases[i].status ||
        strncmp(r.err, expected, strlen(expected)) ||
        count_lines(r.err) != 1U || count_files() != 0U) {
      printf("# case %zu: status %d, stderr: %s", i, r.status, r.err);
    }
    assert(r.status == cases[i].status);
    assert(!strncmp(r.err, expected, strlen(expected)));
    assert(count_lines(r.err) == 1U);
    assert(r.out[0] == '\0');
    assert(count_files() == 0U);
  }
}

static void
test_help_and_version(void)
{
  static const char* const help[]    = { "--help", NULL };
  static const char* const version[] = { "--version", NULL };

  const Result h = run(help, LIMIT_NONE);
  assert(h.status == 0 && h.err[0] == '\0' && strstr(h.out, "Usage:"));

  const Result v = run(version, LIMIT_NONE);
  assert(v.status == 0 && v.err[0] == '\0' &&
         strstr(v.out, "perlin4d-render "));
}

/// Read a whole file into a fresh buffer.
static char*
slurp(const char* name, size_t* size)
{
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", work_dir, name);
  FILE* f = fopen(path, "rb");
  assert(f);
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char* buf = (char*)malloc(*size);
  assert(buf && fread(buf, 1U, *size, f) == *size);
  fclose(f);
  return buf;
}

static void
test_render_reads_back(void)
{
  static const char* const args[] = {
    "-o",    "n.wav",  "--duration", "0.5", "--samplerate",
    "44100", "--seed", "9",          NULL
  };

  const Result r = run(args, LIMIT_NONE);
  assert(r.status == 0 && r.err[0] == '\0');
  assert(count_files() == 1U);

  char path[512];
  snprintf(path, sizeof(path), "%s/n.wav", work_dir);
  SF_INFO  info = { 0 };
  SNDFILE* file = sf_open(path, SFM_READ, &info);
  assert(file);
  assert(info.frames == 22050 && info.channels == 2 &&
         info.samplerate == 44100);
  assert(info.format == (SF_FORMAT_WAV | SF_FORMAT_FLOAT));

  static float frames[22050 * 2];
  assert(sf_readf_float(file, frames, 22050) == 22050);
  sf_close(file);

  // Bounded, not silent, and the two channels differ.
  double   energy = 0.0;
  unsigned n_same = 0U;
  for (size_t i = 0U; i < 22050U; ++i) {
    assert(frames[2 * i] >= -1.0f && frames[2 * i] <= 1.0f);
    energy += (double)frames[2 * i] * frames[2 * i];
    n_same += frames[2 * i] == frames[2 * i + 1];
  }
  assert(energy / 22050.0 > 1.0e-4);
  assert(n_same < 100U);

  // A second render refuses to clobber the first, and leaves it intact.
  size_t       size_a = 0U;
  char*        a      = slurp("n.wav", &size_a);
  const Result again  = run(args, LIMIT_NONE);
  assert(again.status == 2 && strstr(again.err, "exists"));

  // With --force it replaces it, with the same bytes: renders are repeatable,
  // also a second later (libsndfile's PEAK chunk would hold the time).
  const struct timespec second = { 1, 100000000L };
  nanosleep(&second, NULL);
  static const char* const forced[] = {
    "-o",    "n.wav",  "--duration", "0.5",     "--samplerate",
    "44100", "--seed", "9",          "--force", NULL
  };
  assert(run(forced, LIMIT_NONE).status == 0);
  size_t size_b = 0U;
  char*  b      = slurp("n.wav", &size_b);
  assert(size_a == size_b && !memcmp(a, b, size_a));
  assert(count_files() == 1U);
  free(a);
  free(b);
  clear_work_dir();
}

static void
test_failures_leave_nothing(void)
{
  // Disk full mid-render: exit 1, no output, no temporary file.
  static const char* const big[] = {
    "-o", "full.wav", "--duration", "5", NULL
  };
  const Result full = run(big, LIMIT_FILE_SIZE);
  assert(full.status == 1 && strstr(full.err, "full.wav: "));
  assert(count_lines(full.err) == 1U);
  assert(count_files() == 0U);

  // An older output survives a failed --force render.
  static const char* const small[] = {
    "-o", "keep.wav", "--duration", "0.1", NULL
  };
  assert(run(small, LIMIT_NONE).status == 0);
  size_t                   size_a = 0U;
  char*                    a      = slurp("keep.wav", &size_a);
  static const char* const redo[] = { "-o", "keep.wav", "--duration",
                                      "5",  "--force",  NULL };
  assert(run(redo, LIMIT_FILE_SIZE).status == 1);
  size_t size_b = 0U;
  char*  b      = slurp("keep.wav", &size_b);
  assert(size_a == size_b && !memcmp(a, b, size_a));
  assert(count_files() == 1U);
  free(a);
  free(b);
  clear_work_dir();

  // SIGTERM during a long render: exit 1, nothing left behind.
  static const char* const longer[] = { "-o",   "long.wav",     "--duration",
                                        "3000", "--samplerate", "8000",
                                        NULL };
  const Result             stopped  = run(longer, SEND_SIGTERM);
  assert(stopped.status == 1 && strstr(stopped.err, "interrupted"));
  assert(count_files() == 0U);
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  // The program runs in the work folder, so it needs an absolute path.
  static char path[4096];
  assert(realpath(argv[1], path));
  render_path = path;
  assert(mkdtemp(work_dir));

  test_bad_input();
  test_help_and_version();
  test_render_reads_back();
  test_failures_leave_nothing();

  assert(!rmdir(work_dir));
  return 0;
}
