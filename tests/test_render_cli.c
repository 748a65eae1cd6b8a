// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render from the outside: runs the built program with good and bad
  command lines, checks exit codes, messages and the files it leaves.

  Bad command lines: one line on stderr naming the culprit, nothing on
  stdout, exit 2 (usage) or 1 (runtime), and no file.  Good ones: every
  format read back with libsndfile (header and content against the engine,
  linked here), CSV curves and SVG plots, repeatable bytes, the same file
  for any number of jobs, split renders that join, presets by label, short
  name, URI and file, and outputs that are never half-written or clobbered.

  Usage: test_render_cli PATH_TO_PERLIN4D_RENDER
*/

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "engine.h"
#include "noise.h"
#include "params.h"

#include <sndfile.h>

#include <assert.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 32

/// Exit status of a child that could not drop root privileges.
#define NO_NOBODY 97

static const char* render_path = NULL;
static char        work_dir[]  = "/tmp/p4d-cli-XXXXXX";

typedef struct {
  int  status;    ///< Exit code, or 128 + signal
  char out[8192]; ///< What the program printed on stdout
  char err[8192]; ///< What the program printed on stderr
} Result;

typedef enum {
  LIMIT_NONE,
  LIMIT_FILE_SIZE, ///< Writes past 64 KiB fail, as on a full disk
  SEND_SIGTERM,    ///< SIGTERM after 300 ms
  AS_NOBODY,       ///< Run as user nobody if root (permissions then apply)
  STDERR_TTY,      ///< Stderr is a terminal (a pseudo-terminal)
} Trouble;

static void
read_all(int fd, char* buf, size_t size)
{
  size_t  len = 0U;
  ssize_t r   = 0;
  while (len < size - 1U && (r = read(fd, buf + len, size - 1U - len)) > 0) {
    len += (size_t)r;
  }
  buf[len] = '\0';

  // Drain the rest, so that the program never blocks on a full pipe.
  char rest[512];
  while (r > 0 && (r = read(fd, rest, sizeof(rest))) > 0) {
  }
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

  int         tty = -1;
  const char* pts = NULL;
  if (trouble == STDERR_TTY) {
    tty = posix_openpt(O_RDWR | O_NOCTTY);
    assert(tty >= 0 && !grantpt(tty) && !unlockpt(tty));
    pts = ptsname(tty);
    assert(pts);
  }

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
    } else if (trouble == AS_NOBODY && getuid() == 0 &&
               (setgid(65534) || setuid(65534))) {
      _exit(NO_NOBODY);
    } else if (trouble == STDERR_TTY) {
      close(tty);
      const int fd = open(pts, O_RDWR | O_NOCTTY);
      if (fd < 0 || dup2(fd, 2) < 0) {
        _exit(96);
      }
      close(fd);
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

  if (tty >= 0) {
    // The terminal holds what the program wrote to stderr; reading past it
    // fails (EIO) once the program is gone.
    read_all(tty, result.err, sizeof(result.err));
    close(tty);
  }
  return result;
}

/// Run the renderer with the arguments of a and then those of b.
static Result
run2(const char* const* a, const char* const* b, Trouble trouble)
{
  const char* args[MAX_ARGS + 1];
  size_t      n = 0U;
  for (size_t i = 0U; a[i]; ++i) {
    assert(n < MAX_ARGS);
    args[n++] = a[i];
  }
  for (size_t i = 0U; b && b[i]; ++i) {
    assert(n < MAX_ARGS);
    args[n++] = b[i];
  }
  args[n] = NULL;
  return run(args, trouble);
}

/// Run, and assert a silent success.
static void
render_ok(const char* const* a, const char* const* b)
{
  const Result r = run2(a, b, LIMIT_NONE);
  if (r.status || r.err[0] || r.out[0]) {
    printf("# %s: status %d, stderr: %s", a[1], r.status, r.err);
  }
  assert(r.status == 0);
  assert(r.err[0] == '\0');
  assert(r.out[0] == '\0');
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

/// Remove path and, if it is a folder, everything in it.
static void
remove_tree(const char* path)
{
  struct stat st;
  assert(!lstat(path, &st));
  if (S_ISDIR(st.st_mode)) {
    chmod(path, 0700);
    DIR* dir = opendir(path);
    assert(dir);
    for (struct dirent* e = readdir(dir); e; e = readdir(dir)) {
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
        char sub[1024];
        snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
        remove_tree(sub);
      }
    }
    closedir(dir);
    assert(!rmdir(path));
  } else {
    assert(!unlink(path));
  }
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
      remove_tree(path);
    }
  }
  closedir(dir);
}

/// The path of name in the work folder (one of two rotating buffers).
static const char*
in_work(const char* name)
{
  static char paths[2][512];
  static int  which = 0;
  which             = !which;
  snprintf(paths[which], sizeof(paths[0]), "%s/%s", work_dir, name);
  return paths[which];
}

static bool
exists(const char* name)
{
  struct stat st;
  return !stat(in_work(name), &st);
}

static void
write_text(const char* name, const char* text)
{
  FILE* f = fopen(in_work(name), "wb");
  assert(f);
  assert(fputs(text, f) >= 0);
  assert(!fclose(f));
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

static unsigned
count_substrings(const char* s, const char* what)
{
  unsigned n = 0U;
  for (const char* p = strstr(s, what); p; p = strstr(p + 1, what)) {
    ++n;
  }
  return n;
}

/// Read a whole file into a fresh buffer, with a terminating zero.
static char*
slurp(const char* name, size_t* size)
{
  FILE* f = fopen(in_work(name), "rb");
  assert(f);
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char* buf = (char*)malloc(*size + 1U);
  assert(buf && fread(buf, 1U, *size, f) == *size);
  buf[*size] = '\0';
  fclose(f);
  return buf;
}

static bool
same_bytes(const char* a, const char* b)
{
  size_t     size_a = 0U, size_b = 0U;
  char*      x  = slurp(a, &size_a);
  char*      y  = slurp(b, &size_b);
  const bool eq = size_a == size_b && !memcmp(x, y, size_a);
  free(x);
  free(y);
  return eq;
}

/// Read a sound file's frames as floats; its header into info.
static float*
read_frames(const char* name, SF_INFO* info)
{
  memset(info, 0, sizeof(*info));
  SNDFILE* file = sf_open(in_work(name), SFM_READ, info);
  assert(file);
  const size_t n      = (size_t)info->frames * (size_t)info->channels;
  float* const frames = (float*)malloc((n ? n : 1U) * sizeof(float));
  assert(frames);
  assert(sf_readf_float(file, frames, info->frames) == info->frames);
  sf_close(file);
  return frames;
}

/**
   The engine's samples for kind at rate from frame 0 with settings
   (SYMBOL=VALUE, NULL-terminated): n frames, interleaved.  What the
   renderer must write.
*/
static float*
engine_samples(P4dKind kind, double rate, size_t n, const char* const* sets)
{
  const P4dParamTable* table = p4d_params(kind);
  float                params[P4D_MAX_PARAMS];
  p4d_param_defaults(table, params);
  for (; sets && *sets; ++sets) {
    const char* eq = strchr(*sets, '=');
    char        symbol[32];
    assert(eq && (size_t)(eq - *sets) < sizeof(symbol));
    memcpy(symbol, *sets, (size_t)(eq - *sets));
    symbol[eq - *sets] = '\0';
    const int id       = p4d_param_find(table, symbol);
    assert(id >= 0);
    params[id] = (float)strtod(eq + 1, NULL);
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

// -- Bad command lines -----------------------------------------------------

/**
   Run args and check a refusal: status, a message that starts with
   "perlin4d-render: " + message and is the only line on stderr, nothing
   on stdout, and n_files entries left in the work folder.
*/
static void
check_refusal(const char* const* args,
              int                status,
              const char*        message,
              unsigned           n_files)
{
  const Result r = run(args, LIMIT_NONE);
  char         expected[512];
  snprintf(expected, sizeof(expected), "perlin4d-render: %s", message);
  const size_t len = strlen(expected);

  // "perlin4d-render: <argument>: <reason>", the reason not empty.
  const char* reason    = strstr(r.err, ": ");
  reason                = reason ? strstr(reason + 2, ": ") : NULL;
  const bool has_reason = reason && reason[2] && reason[2] != '\n';

  const bool ok = r.status == status && !strncmp(r.err, expected, len) &&
                  has_reason && count_lines(r.err) == 1U && !r.out[0] &&
                  count_files() == n_files;
  if (!ok) {
    printf("# expected %d and '%s...'; got status %d, %u files, stderr: %s",
           status,
           expected,
           r.status,
           count_files(),
           r.err);
  }
  assert(r.status == status);
  assert(!strncmp(r.err, expected, len));
  assert(has_reason);
  assert(count_lines(r.err) == 1U);
  assert(r.out[0] == '\0');
  assert(count_files() == n_files);
}

/// Bad command lines: exit code, the start of the one-line message.
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
    { { "-o", "a.wav", "--channels", "5", "--plugin", "mod" },
      2,
      "--channels '5': out of range" },
    { { "-o", "a.wav", "--channels", "1.5" },
      2,
      "--channels '1.5': not a whole" },
    { { "-o", "a.wav", "--samplerate", "7999" },
      2,
      "--samplerate '7999': out of" },
    { { "-o", "a.wav", "--samplerate", "768001" },
      2,
      "--samplerate '768001': out" },
    { { "-o", "a.wav", "--samplerate", "0" }, 2, "--samplerate '0': out" },
    { { "-o", "a.wav", "--samplerate", "44100.5" },
      2,
      "--samplerate '44100.5': not a whole" },
    { { "-o", "a.wav", "--seed", "-1" }, 2, "--seed '-1': not a whole" },
    { { "-o", "a.wav", "--seed", "65536" }, 2, "--seed '65536': out of" },
    { { "-o", "a.csv", "--fps", "0" }, 2, "--fps '0': out of range" },
    { { "-o", "a.csv", "--fps", "1001" }, 2, "--fps '1001': out of range" },
    { { "-o", "a.wav", "--tempo", "0" }, 2, "--tempo '0': out of range" },
    { { "-o", "a.wav", "--jobs", "0" }, 2, "--jobs '0': out of range" },
    { { "-o", "a.wav", "--jobs", "65" }, 2, "--jobs '65': out of range" },
    { { "-o", "a.wav", "--start", "10000001" },
      2,
      "--start '10000001': out of range" },
    { { "-o", "a.wav", "--duration" }, 2, "--duration: missing value" },
    { { "-o", "a.wav", "--bogus" }, 2, "--bogus: unknown option" },
    { { "--duration", "1" }, 2, "-o: no output file" },
    { { "-o", "" }, 2, "-o '': empty file name" },
    { { "-o", "." }, 2, ".: is a folder" },
    { { "-o", "/" }, 2, "/: is a folder" },
    { { "-o", "missing/a.wav" }, 2, "missing/a.wav: folder does not exist" },
    { { "-o", "/proc/a.wav", "--duration", "0.1" }, 1, "/proc/a.wav: " },
    // The output's temporary file is gone when the plot's cannot be made.
    { { "-o", "a.wav", "--plot", "/proc/p.svg", "--duration", "0.1" },
      1,
      "/proc/p.svg: " },

    // Formats and extensions.
    { { "-o", "a.wav", "--format", "mp3" }, 2, "--format 'mp3': unknown" },
    { { "-o", "a.wav", "--format", "" }, 2, "--format '': unknown" },
    { { "-o", "a.wav", "--format", "wav-pcm8" }, 2, "--format 'wav-pcm8': " },
    { { "-o", "a.flac", "--format", "flac-float" },
      2,
      "--format 'flac-float': " },
    { { "-o", "a.flac", "--format", "float" }, 2, "--format 'float': " },
    { { "-o", "a.flac", "--format", "pcm32" }, 2, "--format 'pcm32': " },
    { { "-o", "a.csv", "--format", "csv-pcm16" }, 2, "--format 'csv-pcm16': " },
    { { "-o", "a.ogg" }, 2, "a.ogg: unknown file extension" },
    { { "-o", "a.mp3", "--duration", "1" }, 2, "a.mp3: unknown file" },
    { { "-o", "noext" }, 2, "noext: unknown file extension" },

    // Parameters.
    { { "-o", "a.wav", "--set", "bogus=1" },
      2,
      "--set 'bogus=1': unknown parameter (valid: level_db, " },
    { { "-o", "a.wav", "--set", "rate_hz=1" },
      2,
      "--set 'rate_hz=1': unknown parameter" },
    { { "-o", "a.wav", "--plugin", "mod", "--set", "level_db=1" },
      2,
      "--set 'level_db=1': unknown parameter (valid: clock, " },
    { { "-o", "a.wav", "--set", "level_db" },
      2,
      "--set 'level_db': expected SYMBOL=VALUE" },
    { { "-o", "a.wav", "--set", "=1" }, 2, "--set '=1': unknown parameter" },
    { { "-o", "a.wav", "--set", "level_db=" }, 2, "--set 'level_db=': " },
    { { "-o", "a.wav", "--set", "level_db=nan" }, 2, "--set 'level_db=nan': " },
    { { "-o", "a.wav", "--set", "level_db=-6dB" },
      2,
      "--set 'level_db=-6dB': " },

    // Automation lanes.
    { { "-o", "a.wav", "--automate", "level_db=" },
      2,
      "--automate 'level_db=': " },
    { { "-o", "a.wav", "--automate", "level_db" },
      2,
      "--automate 'level_db': " },
    { { "-o", "a.wav", "--automate", "level_db=0" },
      2,
      "--automate 'level_db=0': " },
    { { "-o", "a.wav", "--automate", "level_db=x:0" },
      2,
      "--automate 'level_db=x:0': " },
    { { "-o", "a.wav", "--automate", "level_db=-1:0" },
      2,
      "--automate 'level_db=-1:0': " },
    { { "-o", "a.wav", "--automate", "level_db=1s:0" },
      2,
      "--automate 'level_db=1s:0': " },
    { { "-o", "a.wav", "--automate", "level_db=0:" },
      2,
      "--automate 'level_db=0:': " },
    { { "-o", "a.wav", "--automate", "level_db=0:0,2:-6,1:-3" },
      2,
      "--automate 'level_db=0:0,2:-6,1:-3': times must not go back" },
    { { "-o", "a.wav", "--automate", "bogus=0:0" },
      2,
      "--automate 'bogus=0:0': unknown parameter" },
    { { "-o", "a.wav", "--automate", "level_db=0:0," },
      2,
      "--automate 'level_db=0:0,': " },
    { { "-o", "a.wav", "--automate", "level_db=0:0,,1:-6" },
      2,
      "--automate 'level_db=0:0,,1:-6': " },
    { { "-o",
        "a.wav",
        "--automate",
        "level_db=0:0",
        "--automate",
        "level_db=1:-6" },
      2,
      "--automate 'level_db=1:-6': " },

    // Plugins and presets.
    { { "-o", "a.wav", "--plugin", "bogus" },
      2,
      "--plugin 'bogus': unknown plugin" },
    { { "-o", "a.wav", "--plugin", "" }, 2, "--plugin '': unknown plugin" },
    { { "-o", "a.wav", "--preset", "nosuch" },
      2,
      "--preset 'nosuch': no such preset" },
    { { "-o", "a.wav", "--preset", "urn:perlin4d:preset:nosuch" },
      2,
      "--preset 'urn:perlin4d:preset:nosuch': " },
    { { "-o", "a.wav", "--preset", "./nosuch.ttl" },
      2,
      "--preset './nosuch.ttl': " },
    { { "-o", "a.wav", "--preset", "" }, 2, "--preset '': " },
    { { "-o", "a.wav", "--plugin", "mod", "--preset", "wind" },
      2,
      "--preset 'wind': is not a preset of this plugin" },
    { { "-o", "a.wav", "--plugin", "noise", "--preset", "slow-drift" },
      2,
      "--preset 'slow-drift': is not a preset of this plugin" },

    // Plots.
    { { "-o", "a.wav", "--plot", "a.png" },
      2,
      "--plot 'a.png': the plot must be a .svg" },
    { { "-o", "a.wav", "--plot", ".svg" }, 2, "--plot '.svg': " },
    { { "-o", "a.svg", "--format", "csv", "--plot", "a.svg" },
      2,
      "--plot 'a.svg': is the output file" },
    { { "-o", "a.wav", "--plot", "missing/p.svg" },
      2,
      "missing/p.svg: folder does not exist" },
  };

  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    check_refusal(cases[i].args, cases[i].status, cases[i].message, 0U);
  }
  printf("# %zu bad command lines refused\n", sizeof(cases) / sizeof(cases[0]));
}

/// Every numeric option against every kind of malformed number.
static void
test_bad_numbers(void)
{
  static const char* const options[] = { "--duration",   "--start",
                                         "--samplerate", "--fps",
                                         "--tempo",      "--jobs",
                                         "--seed",       "--channels" };
  static const char* const values[] = { "",    "1e309", "nan",  "inf",     "-1",
                                        "5s",  "1,5",   "0x10", " 5",      "5 ",
                                        "+-1", "1e",    ".",    "infinity" };
  unsigned                 n        = 0U;
  for (size_t o = 0U; o < sizeof(options) / sizeof(options[0]); ++o) {
    for (size_t v = 0U; v < sizeof(values) / sizeof(values[0]); ++v) {
      const char* const args[] = { "-o", "a.csv", options[o], values[v], NULL };
      char              message[128];
      snprintf(message, sizeof(message), "%s '%s': ", options[o], values[v]);
      check_refusal(args, 2, message, 0U);
      ++n;
    }
  }
  printf("# %u malformed numbers refused\n", n);
}

/// Every option that takes a value, given none.
static void
test_missing_values(void)
{
  static const char* const options[] = {
    "-o",         "--output",     "--plugin",   "--format",
    "--plot",     "--preset",     "--set",      "--automate",
    "--seed",     "--fps",        "--tempo",    "--start",
    "--duration", "--samplerate", "--channels", "--jobs"
  };
  for (size_t o = 0U; o < sizeof(options) / sizeof(options[0]); ++o) {
    const char* const args[] = { "-o", "a.wav", options[o], NULL };
    char              message[64];
    snprintf(message, sizeof(message), "%s: missing value", options[o]);
    check_refusal(args, 2, message, 0U);
  }
}

/// An unknown symbol's message lists every valid symbol of the plugin.
static void
test_unknown_symbol_lists_all(void)
{
  for (int k = 0; k < 2; ++k) {
    const P4dKind        kind   = k ? P4D_KIND_MOD : P4D_KIND_NOISE;
    const P4dParamTable* table  = p4d_params(kind);
    const char* const    args[] = {
         "-o", "a.wav", "--plugin", k ? "mod" : "noise", "--set", "nosuch=1", NULL
    };
    const Result r = run(args, LIMIT_NONE);
    assert(r.status == 2 && count_lines(r.err) == 1U);
    for (uint32_t i = 0U; i < table->n_params; ++i) {
      char item[40];
      snprintf(item, sizeof(item), " %s", table->params[i].symbol);
      const char* at = strstr(r.err, item);
      assert(at && (at[strlen(item)] == ',' || at[strlen(item)] == ')'));
    }
    assert(count_files() == 0U);
  }
}

/// Refusals that need files in the work folder.
static void
test_bad_paths(void)
{
  // An output or a plot that is a folder.
  assert(!mkdir(in_work("d.wav"), 0755));
  assert(!mkdir(in_work("d.svg"), 0755));
  static const char* const folder[]  = { "-o", "d.wav", NULL };
  static const char* const plotdir[] = {
    "-o", "a.wav", "--plot", "d.svg", NULL
  };
  static const char* const forced[] = { "-o", "d.wav", "--force", NULL };
  check_refusal(folder, 2, "d.wav: is a folder", 2U);
  check_refusal(forced, 2, "d.wav: is a folder", 2U);
  check_refusal(plotdir, 2, "d.svg: is a folder", 2U);
  clear_work_dir();

  // Existing outputs are refused without --force, and left alone.
  write_text("old.wav", "old");
  write_text("old.svg", "old");
  static const char* const again[]      = { "-o", "old.wav", NULL };
  static const char* const plot_again[] = {
    "-o", "new.wav", "--plot", "old.svg", NULL
  };
  check_refusal(again, 2, "old.wav: exists", 2U);
  check_refusal(plot_again, 2, "old.svg: exists", 2U);
  size_t size = 0U;
  char*  text = slurp("old.wav", &size);
  assert(size == 3U && !strcmp(text, "old"));
  free(text);
  text = slurp("old.svg", &size);
  assert(size == 3U && !strcmp(text, "old"));
  free(text);
  clear_work_dir();
}

/// A preset given as a file is an input: never an output, even forced.
static const char preset_ttl[] =
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

static void
test_preset_file_is_input(void)
{
  write_text("p.ttl", preset_ttl);
  write_text("q.svg", preset_ttl);

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
  check_refusal(same, 2, "p.ttl: is an input", 2U);
  check_refusal(as_wav, 2, "./p.ttl: is an input", 2U);
  check_refusal(as_plot, 2, "q.svg: is an input", 2U);

  size_t size = 0U;
  char*  text = slurp("p.ttl", &size);
  assert(size == strlen(preset_ttl) && !strcmp(text, preset_ttl));
  free(text);
  text = slurp("q.svg", &size);
  assert(size == strlen(preset_ttl) && !strcmp(text, preset_ttl));
  free(text);
  clear_work_dir();
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
  assert(count_files() == 0U);
}

/// An out-of-range value is clamped with a one-line warning.
static void
test_warnings(void)
{
  static const char* const loud[] = { "-o",           "loud.wav",   "--set",
                                      "level_db=10",  "--duration", "0.2",
                                      "--samplerate", "8000",       NULL };
  const Result             r      = run(loud, LIMIT_NONE);
  assert(r.status == 0 && r.out[0] == '\0');
  assert(count_lines(r.err) == 1U);
  assert(!strncmp(r.err, "perlin4d-render: warning: ", 26U));
  assert(strstr(r.err, "level_db"));
  assert(exists("loud.wav"));

  // ... and renders the clamped value.
  static const char* const top[] = { "-o",           "top.wav",    "--set",
                                     "level_db=0",   "--duration", "0.2",
                                     "--samplerate", "8000",       NULL };
  render_ok(top, NULL);
  assert(same_bytes("loud.wav", "top.wav"));

  // Each clamped point of a lane warns.
  static const char* const lane[] = { "-o",         "lane.csv",
                                      "--plugin",   "mod",
                                      "--automate", "out_max=0:2,1:0.5,2:-3",
                                      "--duration", "0.2",
                                      NULL };
  const Result             l      = run(lane, LIMIT_NONE);
  assert(l.status == 0 && count_lines(l.err) == 2U);
  assert(count_substrings(l.err, "perlin4d-render: warning: ") == 2U);
  assert(exists("lane.csv"));
  clear_work_dir();
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

  SF_INFO      info   = { 0 };
  float* const frames = read_frames("n.wav", &info);
  assert(info.frames == 22050 && info.channels == 2 &&
         info.samplerate == 44100);
  assert(info.format == (SF_FORMAT_WAV | SF_FORMAT_FLOAT));

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
  free(frames);

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

// -- Formats ---------------------------------------------------------------

typedef struct {
  const char* format;    ///< --format, or NULL for the extension's default
  const char* extension; ///< Of the output
  int         sf_format; ///< What libsndfile must read back
  int         bits;      ///< PCM bits, 0 for float
} FormatCase;

static const FormatCase formats[] = {
  { "wav-pcm16", "wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16 },
  { "wav-pcm24", "wav", SF_FORMAT_WAV | SF_FORMAT_PCM_24, 24 },
  { "wav-pcm32", "wav", SF_FORMAT_WAV | SF_FORMAT_PCM_32, 32 },
  { "wav-float", "wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 0 },
  { "flac-pcm16", "flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 16 },
  { "flac-pcm24", "flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_24, 24 },
  { "aiff-pcm16", "aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_16, 16 },
  { "aiff-pcm24", "aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_24, 24 },
  { "aiff-pcm32", "aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_32, 32 },
  { "aiff-float", "aiff", SF_FORMAT_AIFF | SF_FORMAT_FLOAT, 0 },
  { "pcm16", "wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16 },
  { "PCM24", "aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_24, 24 },
  { "flac", "wav", SF_FORMAT_FLAC | SF_FORMAT_PCM_24, 24 },
  { NULL, "wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 0 },
  { NULL, "WAV", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 0 },
  { NULL, "flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_24, 24 },
  { NULL, "aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_24, 24 },
  { NULL, "aif", SF_FORMAT_AIFF | SF_FORMAT_PCM_24, 24 },
};

/**
   Check a PCM file's samples against the float render x.  libsndfile
   writes x * (2^(bits-1) - 1), rounded and clipped, and reads a code back
   as code / 2^(bits-1): one step of rounding, half a step of scale at full
   scale.  A wrapped sample (a sign flip at full scale) is off by ~2.
*/
static unsigned
check_pcm(const char* name, const float* x, size_t n, int bits)
{
  SF_INFO  info = { 0 };
  SNDFILE* file = sf_open(in_work(name), SFM_READ, &info);
  assert(file);
  const size_t n_samples = n * (size_t)info.channels;
  int* const   codes     = (int*)malloc(n_samples * sizeof(int));
  assert(codes && sf_readf_int(file, codes, (sf_count_t)n) == (sf_count_t)n);
  sf_close(file);

  const double step   = ldexp(1.0, 1 - bits);
  unsigned     n_rail = 0U;
  double       worst  = 0.0;
  for (size_t i = 0U; i < n_samples; ++i) {
    const double want = x[i] > 1.0f ? 1.0 : x[i] < -1.0f ? -1.0 : x[i];
    const double got  = ldexp((double)codes[i], -31);
    worst             = fmax(worst, fabs(got - want) / step);
    n_rail += fabs(want) >= 1.0;
  }
  if (worst > 1.5) {
    printf("# %s: a sample is %.2f steps off\n", name, worst);
  }
  assert(worst <= 1.5);
  free(codes);
  return n_rail;
}

static void
test_formats(void)
{
  static const char* const noise_sets[] = { "level_db=0", "seed=31", NULL };
  static const char* const mod_sets[]   = {
      "out_min=-1", "out_max=1", "rate_hz=20", "seed=31", NULL
  };
  const size_t n = 11025U; // 0.25 s at 44100 Hz

  for (int k = 0; k < 2; ++k) {
    const P4dKind      kind = k ? P4D_KIND_MOD : P4D_KIND_NOISE;
    const char* const* sets = k ? mod_sets : noise_sets;
    const unsigned     nch  = k ? 4U : 2U;
    float* const       ref  = engine_samples(kind, 44100.0, n, sets);

    unsigned n_rail = 0U;
    for (size_t f = 0U; f < sizeof(formats) / sizeof(formats[0]); ++f) {
      const FormatCase* fc = &formats[f];
      char              name[32];
      snprintf(name, sizeof(name), "f%zu.%s", f, fc->extension);
      const char* args[MAX_ARGS] = { "-o",           name,
                                     "--plugin",     k ? "mod" : "noise",
                                     "--duration",   "0.25",
                                     "--samplerate", "44100" };
      size_t      n_args         = 8U;
      if (fc->format) {
        args[n_args++] = "--format";
        args[n_args++] = fc->format;
      }
      for (size_t i = 0U; sets[i]; ++i) {
        args[n_args++] = "--set";
        args[n_args++] = sets[i];
      }
      args[n_args] = NULL;
      render_ok(args, NULL);

      SF_INFO      info = { 0 };
      float* const got  = read_frames(name, &info);
      if (info.format != fc->sf_format) {
        printf("# %s (%s): format 0x%x, expected 0x%x\n",
               name,
               fc->format ? fc->format : "default",
               (unsigned)info.format,
               (unsigned)fc->sf_format);
      }
      assert(info.format == fc->sf_format);
      assert(info.frames == (sf_count_t)n);
      assert(info.channels == (int)nch);
      assert(info.samplerate == 44100);

      if (!fc->bits) {
        // Float: the engine's samples, bit for bit, all finite.
        for (size_t i = 0U; i < n * nch; ++i) {
          assert(isfinite(got[i]));
        }
        assert(!memcmp(got, ref, n * nch * sizeof(float)));
      } else {
        n_rail += check_pcm(name, ref, n, fc->bits);
      }
      free(got);
      assert(!unlink(in_work(name)));
    }
    printf("# %s: %zu formats read back (%u samples at full scale)\n",
           k ? "mod" : "noise",
           sizeof(formats) / sizeof(formats[0]),
           n_rail);
    free(ref);
  }
  assert(count_files() == 0U);
}

/// --channels N writes the first N channels.
static void
test_channels(void)
{
  static const char* const all[] = { "-o",           "all.wav",    "--plugin",
                                     "mod",          "--duration", "0.2",
                                     "--samplerate", "8000",       NULL };
  static const char* const one[] = {
    "-o",           "one.wav", "--plugin",   "mod", "--duration", "0.2",
    "--samplerate", "8000",    "--channels", "3",   NULL
  };
  render_ok(all, NULL);
  render_ok(one, NULL);
  SF_INFO      a_info = { 0 }, b_info = { 0 };
  float* const a = read_frames("all.wav", &a_info);
  float* const b = read_frames("one.wav", &b_info);
  assert(a_info.channels == 4 && b_info.channels == 3);
  assert(a_info.frames == 1600 && b_info.frames == 1600);
  for (size_t i = 0U; i < 1600U; ++i) {
    assert(!memcmp(&a[i * 4U], &b[i * 3U], 3U * sizeof(float)));
  }
  free(a);
  free(b);
  clear_work_dir();
}

// -- CSV and SVG -----------------------------------------------------------

/**
   Check CSV curves against the engine: the header, one row per 1/fps
   seconds from start_s, each holding the sample at the nearest frame.
*/
static void
check_csv(const char*        name,
          P4dKind            kind,
          double             rate,
          double             fps,
          double             start_s,
          size_t             n_rows,
          const char* const* sets)
{
  const unsigned nch  = p4d_engine_channels(kind);
  const size_t   n    = (size_t)llround((double)n_rows / fps * rate) + 1U;
  float* const   ref  = engine_samples(kind, rate, n, sets);
  size_t         size = 0U;
  char* const    text = slurp(name, &size);

  const char* const header = kind == P4D_KIND_MOD
                               ? "time_s,out_1,out_2,out_3,out_4\n"
                               : "time_s,out_l,out_r\n";
  assert(!strncmp(text, header, strlen(header)));
  assert(count_lines(text) == n_rows + 1U);

  const char* p        = text + strlen(header);
  double      previous = -1.0;
  for (size_t k = 0U; k < n_rows; ++k) {
    char*        end = NULL;
    const double t   = strtod(p, &end);
    assert(end > p && *end == ',');
    assert(fabs(t - (start_s + (double)k / fps)) < 1.0e-6);
    assert(t > previous);
    previous = t;

    const size_t frame = (size_t)llround((double)k * rate / fps);
    for (unsigned c = 0U; c < nch; ++c) {
      p             = end + 1;
      const float v = strtof(p, &end);
      assert(end > p && *end == (c + 1U < nch ? ',' : '\n'));
      assert(v >= -1.0f && v <= 1.0f);
      if (start_s == 0.0 && v != ref[frame * nch + c]) {
        printf("# %s row %zu channel %u: %a, the engine has %a at frame %zu\n",
               name,
               k,
               c,
               (double)v,
               (double)ref[frame * nch + c],
               frame);
      }
      assert(start_s != 0.0 || v == ref[frame * nch + c]);
    }
    p = end + 1;
  }
  assert(*p == '\0');
  free(text);
  free(ref);
}

/**
   Check that an SVG plot is well formed: an XML declaration, then
   elements that nest and close, the root <svg>; labelled axes and one
   filled path and one label per channel.
*/
static void
check_svg(const char* name, unsigned n_channels, const char* const* names)
{
  size_t      size = 0U;
  char* const text = slurp(name, &size);
  assert(!strncmp(text, "<?xml", 5U));
  assert(size > 7U && !strcmp(text + size - 7U, "</svg>\n"));
  assert(strstr(text, "<svg"));
  assert(strstr(text, ">time (s)</text>"));

  const char* stack[32];
  size_t      length[32];
  size_t      depth      = 0U;
  unsigned    n_elements = 0U;
  const char* p          = strstr(text, "?>");
  assert(p);
  for (p = strchr(p + 2, '<'); p; p = strchr(p, '<')) {
    const char* const close = strchr(p, '>');
    assert(close);
    if (p[1] == '/') {
      const size_t len = (size_t)(close - p - 2);
      assert(depth > 0U && length[depth - 1U] == len &&
             !strncmp(stack[depth - 1U], p + 2, len));
      --depth;
    } else {
      ++n_elements;
      if (close[-1] != '/') {
        assert(depth < 32U);
        stack[depth]  = p + 1;
        length[depth] = strcspn(p + 1, " \n/>");
        ++depth;
      }
      if (n_elements == 1U) {
        assert(!strncmp(p, "<svg ", 5U));
      }
    }
    p = close + 1;
  }
  assert(depth == 0U);

  assert(count_substrings(text, "<path") >= n_channels);
  for (unsigned c = 0U; c < n_channels; ++c) {
    char label[32];
    snprintf(label, sizeof(label), ">%s</text>", names[c]);
    assert(count_substrings(text, label) == 1U);
  }
  free(text);
}

static void
test_csv_and_svg(void)
{
  static const char* const mod_names[] = { "out_1", "out_2", "out_3", "out_4" };
  static const char* const noise_names[] = { "out_l", "out_r" };
  static const char* const mod_sets[]    = { "rate_hz=2", "out_min=-1", NULL };

  // 2 s at 30 rows a second: 60 rows, and a plot.
  static const char* const mod[] = {
    "-o",         "m.csv",      "--plugin",     "mod",   "--fps", "30",
    "--duration", "2",          "--samplerate", "8000",  "--set", "rate_hz=2",
    "--set",      "out_min=-1", "--plot",       "m.svg", NULL
  };
  render_ok(mod, NULL);
  check_csv("m.csv", P4D_KIND_MOD, 8000.0, 30.0, 0.0, 60U, mod_sets);
  check_svg("m.svg", 4U, mod_names);

  // The default 60 rows a second; fps that does not divide the rate.
  static const char* const noise[] = { "-o",     "n.csv",        "--duration",
                                       "1",      "--samplerate", "44100",
                                       "--plot", "n.svg",        NULL };
  render_ok(noise, NULL);
  check_csv("n.csv", P4D_KIND_NOISE, 44100.0, 60.0, 0.0, 60U, NULL);
  check_svg("n.svg", 2U, noise_names);

  static const char* const odd[] = {
    "-o", "o.csv",        "--fps", "7", "--duration",
    "1",  "--samplerate", "48000", NULL
  };
  render_ok(odd, NULL);
  check_csv("o.csv", P4D_KIND_NOISE, 48000.0, 7.0, 0.0, 7U, NULL);

  // From a song position: times count from there.
  static const char* const later[] = {
    "-o", "l.csv", "--plugin", "mod",          "--start", "12.5", "--duration",
    "1",  "--fps", "10",       "--samplerate", "8000",    NULL
  };
  render_ok(later, NULL);
  check_csv("l.csv", P4D_KIND_MOD, 8000.0, 10.0, 12.5, 10U, NULL);

  // A plot of fewer channels, and a plot of a sound file.
  static const char* const two[] = { "-o",         "t.wav", "--plugin",   "mod",
                                     "--channels", "2",     "--duration", "0.5",
                                     "--plot",     "t.svg", NULL };
  render_ok(two, NULL);
  check_svg("t.svg", 2U, mod_names);
  size_t      size = 0U;
  char* const text = slurp("t.svg", &size);
  assert(!strstr(text, "out_3"));
  free(text);
  printf("# CSV rows and SVG plots well formed\n");
  clear_work_dir();
}

// -- Repeatable bytes ------------------------------------------------------

static void
test_repeatable(void)
{
  static const char* const flac_a[] = {
    "-o", "a.flac", "--plot", "a.svg", NULL
  };
  static const char* const flac_b[] = {
    "-o", "b.flac", "--plot", "b.svg", NULL
  };
  static const char* const csv_a[]  = { "-o", "a.csv", NULL };
  static const char* const csv_b[]  = { "-o", "b.csv", NULL };
  static const char* const common[] = { "--plugin",   "mod",
                                        "--duration", "1.5",
                                        "--automate", "rate_hz=0:1,1:8",
                                        NULL };
  render_ok(flac_a, common);
  render_ok(flac_b, common);
  render_ok(csv_a, common);
  render_ok(csv_b, common);
  assert(same_bytes("a.flac", "b.flac"));
  assert(same_bytes("a.svg", "b.svg"));
  assert(same_bytes("a.csv", "b.csv"));
  clear_work_dir();
}

/// P4D_ISA picks the code path; every path writes the same bytes, and a
/// request the program cannot honour is one warning, not a failure.
static void
test_isa_override(void)
{
  static const char* const names[] = { "scalar", "avx2", "avx512" };
  static const char* const outs[]  = { "scalar.wav", "avx2.wav", "avx512.wav" };
  static const char* const common[] = {
    "--duration", "1", "--set", "grain_hz=20000", "--set", "octaves=10", NULL
  };

  for (unsigned i = 0U; i < 3U; ++i) {
    const char* const args[] = { "-o", outs[i], NULL };
    setenv("P4D_ISA", names[i], 1);
    const Result r = run2(args, common, LIMIT_NONE);
    assert(r.status == 0 && r.out[0] == '\0');
    if (p4d_isa_supported((P4dIsa)i)) {
      assert(r.err[0] == '\0');
    } else {
      // "P4D_ISA=avx512 is not supported by this CPU; using avx2"
      assert(count_lines(r.err) == 1U);
      assert(!strncmp(r.err, "perlin4d-render: warning: P4D_ISA=", 34U));
    }
    assert(same_bytes(outs[0], outs[i]));
  }

  static const char* const bogus[] = { "-o", "bogus.wav", NULL };
  setenv("P4D_ISA", "sse9", 1);
  const Result r = run2(bogus, common, LIMIT_NONE);
  unsetenv("P4D_ISA");
  assert(r.status == 0 && count_lines(r.err) == 1U);
  assert(!strncmp(r.err,
                  "perlin4d-render: warning: P4D_ISA=sse9 is not scalar, avx2 "
                  "or avx512; using ",
                  76U));
  assert(same_bytes(outs[0], "bogus.wav"));
  printf("# P4D_ISA: scalar, avx2 and avx512 renders are the same bytes\n");
  clear_work_dir();
}

/// The file is the same bytes whatever the number of jobs.
static void
test_jobs(void)
{
  static const char* const noise[] = { "--duration", "8", "--seed", "3", NULL };
  static const char* const mod[]   = { "--duration", "8",
                                       "--plugin",   "mod",
                                       "--automate", "rate_hz=0:0.5,3:20,7:2",
                                       "--automate", "spread=1:0,6:1",
                                       NULL };
  static const char* const n1[]    = { "-o", "n1.wav", "--jobs", "1", NULL };
  static const char* const n2[]    = { "-o", "n2.wav", "--jobs", "2", NULL };
  static const char* const n3[]    = { "-o", "n3.wav", "--jobs", "3", NULL };
  static const char* const m1[]    = { "-o", "m1.wav", "--jobs", "1", NULL };
  static const char* const m2[]    = { "-o", "m2.wav", "--jobs", "2", NULL };
  render_ok(n1, noise);
  render_ok(n2, noise);
  render_ok(n3, noise);
  render_ok(m1, mod);
  render_ok(m2, mod);
  assert(same_bytes("n1.wav", "n2.wav"));
  assert(same_bytes("n1.wav", "n3.wav"));
  assert(same_bytes("m1.wav", "m2.wav"));

  // Several chunks; and not the trivial agreement of silence.
  SF_INFO      info = { 0 };
  float* const x    = read_frames("m1.wav", &info);
  assert(info.frames == 384000 && info.frames > 262144);
  assert(x[0] != x[4 * 300000]);
  free(x);
  printf("# 8 s at 48 kHz: --jobs 1, 2 and 3 write the same bytes\n");
  clear_work_dir();
}

/**
   Render [0, a) and [a, b) apart and [0, b) at once (extra arguments
   common to all three) and check that the two parts join into the whole.
*/
static void
check_split(const char*        a_s,
            const char*        rest_s,
            const char*        b_s,
            const char* const* extra)
{
  const char* const first[]  = { "-o", "first.wav", "--duration", a_s, NULL };
  const char* const second[] = { "-o",         "second.wav", "--start", a_s,
                                 "--duration", rest_s,       NULL };
  const char* const whole[]  = { "-o", "whole.wav", "--duration", b_s, NULL };
  render_ok(first, extra);
  render_ok(second, extra);
  render_ok(whole, extra);

  SF_INFO      ia = { 0 }, ib = { 0 }, iw = { 0 };
  float* const a   = read_frames("first.wav", &ia);
  float* const b   = read_frames("second.wav", &ib);
  float* const w   = read_frames("whole.wav", &iw);
  const size_t nch = (size_t)iw.channels;
  assert(ia.frames + ib.frames == iw.frames);
  assert(ia.frames % 2 == 1); // a is not on any block grid
  const bool head = !memcmp(a, w, (size_t)ia.frames * nch * sizeof(float));
  const bool tail = !memcmp(
    b, w + (size_t)ia.frames * nch, (size_t)ib.frames * nch * sizeof(float));
  printf("# [0, %s) + [%s, %s) = [0, %s): %ld + %ld frames, %s\n",
         a_s,
         a_s,
         b_s,
         b_s,
         (long)ia.frames,
         (long)ib.frames,
         head && tail ? "the same" : "DIFFERENT");
  assert(head && tail);
  free(a);
  free(b);
  free(w);
  clear_work_dir();
}

static void
test_split(void)
{
  // 3.3 s at 22050 Hz is 72765 frames; the whole, 15 s, is two chunks.
  static const char* const noise[] = {
    "--samplerate", "22050", "--seed", "12", NULL
  };
  static const char* const automated[] = { "--samplerate",
                                           "22050",
                                           "--automate",
                                           "evolve_hz=0:0.5,3.2:6,3.4:1,9:12",
                                           "--automate",
                                           "level_db=2:-30,14:-6",
                                           NULL };
  static const char* const mod[]       = { "--samplerate",
                                           "22050",
                                           "--plugin",
                                           "mod",
                                           "--tempo",
                                           "97",
                                           "--set",
                                           "clock=1",
                                           "--set",
                                           "period_beats=0.5",
                                           "--automate",
                                           "smooth_ms=0:5,10:300",
                                           "--automate",
                                           "octaves=3:1,3.3:8",
                                           NULL };
  check_split("3.3", "11.7", "15", noise);
  check_split("3.3", "11.7", "15", automated);
  check_split("3.3", "11.7", "15", mod);
}

// -- Failures leave nothing behind -----------------------------------------

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

  // The same for every container, and for a plot too large.
  static const char* const others[][MAX_ARGS] = {
    { "-o", "full.flac", "--duration", "5", NULL },
    { "-o", "full.aiff", "--duration", "5", NULL },
    { "-o", "full.csv", "--fps", "1000", "--duration", "20", NULL },
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
    const Result r = run(others[i], LIMIT_FILE_SIZE);
    if (r.status != 1 || count_files()) {
      printf("# %s: status %d, %u files, stderr: %s",
             others[i][1],
             r.status,
             count_files(),
             r.err);
    }
    assert(r.status == 1 && count_lines(r.err) == 1U);
    assert(count_files() == 0U);
  }
  printf("# disk full (WAV, FLAC, AIFF, CSV, SVG): exit 1, nothing left\n");

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
  free(b);

  // ... and a render stopped by SIGTERM.
  static const char* const stop[] = { "-o",           "keep.wav",
                                      "--duration",   "3000",
                                      "--samplerate", "8000",
                                      "--force",      NULL };
  const Result             st     = run(stop, SEND_SIGTERM);
  assert(st.status == 1 && strstr(st.err, "interrupted"));
  b = slurp("keep.wav", &size_b);
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

/// A folder the program may not write to: exit 1, the older file intact.
static void
test_unwritable_folder(void)
{
  assert(!chmod(work_dir, 0755));
  assert(!mkdir(in_work("ro"), 0755));
  write_text("ro/keep.wav", "older");
  assert(!chmod(in_work("ro"), 0555));

  static const char* const args[] = { "-o",         "ro/keep.wav", "--force",
                                      "--duration", "0.1",         NULL };
  const Result             r      = run(args, AS_NOBODY);
  // As root the child drops to user nobody, so the folder's mode applies;
  // not being able to is a failure, never a skipped check.
  assert(r.status != NO_NOBODY);
  {
    assert(r.status == 1);
    assert(!strncmp(r.err, "perlin4d-render: ro/keep.wav: ", 30U));
    assert(count_lines(r.err) == 1U);
    size_t size = 0U;
    char*  text = slurp("ro/keep.wav", &size);
    assert(size == 5U && !strcmp(text, "older"));
    free(text);

    DIR* dir = opendir(in_work("ro"));
    assert(dir);
    unsigned n = 0U;
    for (struct dirent* e = readdir(dir); e; e = readdir(dir)) {
      n += e->d_name[0] != '.';
    }
    closedir(dir);
    assert(n == 1U);
    printf("# unwritable folder: exit 1, the older file intact\n");
  }
  clear_work_dir();
  assert(!chmod(work_dir, 0700));
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
  render_ok(first, NULL);
  assert(!link(in_work("r.wav"), in_work("old.wav")));
  struct stat before, after;
  assert(!stat(in_work("r.wav"), &before));
  size_t size_a = 0U;
  char*  a      = slurp("r.wav", &size_a);

  render_ok(second, NULL);
  assert(!stat(in_work("r.wav"), &after));
  assert(after.st_ino != before.st_ino);
  assert(!same_bytes("r.wav", "old.wav"));
  size_t size_b = 0U;
  char*  b      = slurp("old.wav", &size_b);
  assert(size_a == size_b && !memcmp(a, b, size_a));
  assert(count_files() == 2U);

  // The mode a new file gets (the umask is 022 here), not mkstemp's 0600.
  assert((after.st_mode & 0777) == 0644);
  printf("# --force renames a new file into place; a link to the old one "
         "keeps it\n");
  free(a);
  free(b);
  clear_work_dir();
}

// -- Lists and presets -----------------------------------------------------

static void
test_lists(void)
{
  for (int k = 0; k < 2; ++k) {
    const P4dParamTable* table  = p4d_params(k ? P4D_KIND_MOD : P4D_KIND_NOISE);
    const char* const    args[] = {
         "--list-params", "--plugin", k ? "mod" : "noise", NULL
    };
    const Result r = run(args, LIMIT_NONE);
    assert(r.status == 0 && r.err[0] == '\0');
    for (uint32_t i = 0U; i < table->n_params; ++i) {
      char line[40];
      snprintf(line, sizeof(line), "\n%s ", table->params[i].symbol);
      if (!strstr(r.out, line)) {
        printf("# --list-params: no line for %s\n", table->params[i].symbol);
      }
      assert(strstr(r.out, line));
    }
  }

  static const char* const presets[] = { "--list-presets", NULL };
  const Result             r         = run(presets, LIMIT_NONE);
  assert(r.status == 0 && r.err[0] == '\0');
  const unsigned n = count_lines(r.out);
  printf("# --list-presets: %u presets\n", n);
  assert(n >= 8U);
  assert(count_substrings(r.out, "urn:perlin4d:preset:") == n);
  assert(strstr(r.out, "wind") && strstr(r.out, "slow-drift"));
  assert(count_files() == 0U);
}

static void
test_presets(void)
{
  static const char* const common[] = { "--duration", "0.3", NULL };
  static const char* const label[]  = {
     "-o", "l.wav", "--preset", "Wind", NULL
  };
  static const char* const name[] = { "-o", "n.wav", "--preset", "wind", NULL };
  static const char* const uri[]  = {
     "-o", "u.wav", "--preset", "urn:perlin4d:preset:wind", NULL
  };
  static const char* const plain[] = { "-o", "d.wav", NULL };
  render_ok(label, common);
  render_ok(name, common);
  render_ok(uri, common);
  render_ok(plain, common);
  assert(same_bytes("l.wav", "n.wav") && same_bytes("l.wav", "u.wav"));
  assert(!same_bytes("l.wav", "d.wav"));

  // A Turtle file: the same as its values set by hand.
  write_text("p.ttl", preset_ttl);
  static const char* const file[] = {
    "-o", "f.wav", "--preset", "p.ttl", NULL
  };
  static const char* const hand[] = { "-o",     "h.wav", "--set", "level_db=-6",
                                      "--seed", "7",     NULL };
  render_ok(file, common);
  render_ok(hand, common);
  assert(same_bytes("f.wav", "h.wav"));

  // Without --plugin, the preset's plugin; --set applies on top.
  static const char* const mod[] = {
    "-o", "m.wav", "--preset", "breathing", NULL
  };
  static const char* const both[] = { "-o",  "b.wav",    "--plugin",
                                      "mod", "--preset", "breathing",
                                      NULL };
  static const char* const over[] = { "-o",        "o.wav",  "--preset",
                                      "breathing", "--seed", "77",
                                      NULL };
  render_ok(mod, common);
  render_ok(both, common);
  render_ok(over, common);
  SF_INFO      info = { 0 };
  float* const x    = read_frames("m.wav", &info);
  assert(info.channels == 4);
  free(x);
  assert(same_bytes("m.wav", "b.wav"));
  assert(!same_bytes("m.wav", "o.wav"));
  clear_work_dir();
}

// -- Progress and memory ---------------------------------------------------

static void
test_progress(void)
{
  // Not a terminal: not a byte on stderr, even over several chunks.
  static const char* const args[]  = { "-o", "a.wav", "--duration", "8", NULL };
  static const char* const quiet[] = { "-o", "b.wav",   "--duration",
                                       "8",  "--quiet", NULL };
  render_ok(args, NULL);

  // A terminal: a progress bar to 100%, unless --quiet.
  const Result tty = run(quiet, STDERR_TTY);
  assert(tty.status == 0 && tty.err[0] == '\0');
  static const char* const shown[] = { "-o", "c.wav", "--duration", "8", NULL };
  const Result             bar     = run(shown, STDERR_TTY);
  assert(bar.status == 0 && strstr(bar.err, "100%"));
  assert(!strstr(bar.err, "perlin4d-render"));
  assert(same_bytes("a.wav", "c.wav"));
  clear_work_dir();
}

/**
   The peak resident memory of a render, in KiB: the largest VmHWM that
   /proc reports for it while it runs, once it is the renderer (before the
   exec it is a copy of this test), or 0 if /proc cannot tell.
*/
static long
peak_kib(const char* const* args)
{
  const char* argv[MAX_ARGS + 2] = { render_path };
  for (size_t i = 0U; args[i]; ++i) {
    assert(i < MAX_ARGS);
    argv[i + 1] = args[i];
  }

  const pid_t pid = fork();
  assert(pid >= 0);
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0 || chdir(work_dir)) {
      _exit(99);
    }
    execv(render_path, (char* const*)argv);
    _exit(98);
  }

  char path[64];
  snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
  long peak   = 0L;
  int  status = 0;
  for (;;) {
    FILE* f = fopen(path, "r");
    if (f) {
      char line[256];
      bool renderer = false;
      long kib      = 0L;
      while (fgets(line, sizeof(line), f)) {
        renderer = renderer || !strcmp(line, "Name:\tperlin4d-render\n");
        if (renderer && sscanf(line, "VmHWM: %ld kB", &kib) == 1) {
          peak = kib > peak ? kib : peak;
        }
      }
      fclose(f);
    }

    const pid_t done = waitpid(pid, &status, WNOHANG);
    assert(done >= 0);
    if (done == pid) {
      break;
    }
    const struct timespec wait = { 0, 5000000L };
    nanosleep(&wait, NULL);
  }
  assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return peak;
}

/**
   Streamed in chunks: a long render needs no more memory than a short one
   that already cycles through every buffer (2 jobs x 2 chunks).
*/
static void
test_memory_flat(void)
{
  static const char* const short_render[] = {
    "-o",           "s.wav", "--plugin", "mod", "--duration", "150",
    "--samplerate", "8000",  "--jobs",   "2",   "--force",    NULL
  };
  static const char* const long_render[] = {
    "-o",           "s.wav", "--plugin", "mod", "--duration", "600",
    "--samplerate", "8000",  "--jobs",   "2",   "--force",    NULL
  };
  const long a = peak_kib(short_render);
  const long b = peak_kib(long_render);
  assert(a > 0 && b > 0); // Linux reports VmHWM: no skipping
  printf("# peak memory: %ld KiB for 150 s, %ld KiB for 600 s\n", a, b);
  assert(b < 32L * 1024L);
  assert(b < a + 4096L);
  clear_work_dir();
}

// -- Outputs that are inputs, or each other, under other names -------------

/// Copy a file from one path to another.
static void
copy_file(const char* from, const char* to, mode_t mode)
{
  FILE* in  = fopen(from, "rb");
  FILE* out = fopen(to, "wb");
  assert(in && out);
  char   buf[65536];
  size_t n = 0U;
  while ((n = fread(buf, 1U, sizeof(buf), in)) > 0U) {
    assert(fwrite(buf, 1U, n, out) == n);
  }
  fclose(in);
  assert(!fclose(out));
  assert(!chmod(to, mode));
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
  const Result r1           = run(plot_is_output, LIMIT_NONE);
  const bool   plot_refused = r1.status == 2 && count_lines(r1.err) == 1U &&
                            !strncmp(r1.err, "perlin4d-render: ", 17U) &&
                            count_files() == 0U;
  if (!plot_refused) {
    printf("# not refused: -o ./p.svg --format csv --plot p.svg: status %d, "
           "%u files\n",
           r1.status,
           count_files());
  }
  clear_work_dir();

  // 2. The renderer beside a copy of the bundle: --preset wind reads the
  // bundle's presets.ttl, which must not become the output.
  char exe_dir[4096];
  snprintf(exe_dir, sizeof(exe_dir), "%s", render_path);
  *strrchr(exe_dir, '/') = '\0';
  assert(!mkdir(in_work("bin"), 0755));
  assert(!mkdir(in_work("bin/lv2"), 0755));
  assert(!mkdir(in_work("bin/lv2/perlin4d.lv2"), 0755));
  static const char* const bundle_files[] = {
    "manifest.ttl", "perlin4d.ttl", "presets.ttl", "perlin4d.so"
  };
  for (size_t i = 0U; i < 4U; ++i) {
    char from[4200], to[64];
    snprintf(
      from, sizeof(from), "%s/lv2/perlin4d.lv2/%s", exe_dir, bundle_files[i]);
    snprintf(to, sizeof(to), "bin/lv2/perlin4d.lv2/%s", bundle_files[i]);
    copy_file(from, in_work(to), 0644);
  }
  char sandboxed[512];
  snprintf(sandboxed, sizeof(sandboxed), "%s", in_work("bin/perlin4d-render"));
  copy_file(render_path, sandboxed, 0755);

  const char* const real_render          = render_path;
  render_path                            = sandboxed;
  static const char* const from_bundle[] = { "--preset", "wind",       "-o",
                                             "a.wav",    "--duration", "0.1",
                                             NULL };
  render_ok(from_bundle, NULL); // the copy finds its bundle
  static const char* const over_bundle[] = {
    "--preset", "wind", "-o",      "bin/lv2/perlin4d.lv2/presets.ttl",
    "--format", "wav",  "--force", "--duration",
    "0.1",      NULL
  };
  char original[4200];
  snprintf(
    original, sizeof(original), "%s/lv2/perlin4d.lv2/presets.ttl", exe_dir);
  copy_file(original, in_work("presets.orig"), 0644);
  const Result r2 = run(over_bundle, LIMIT_NONE);
  render_path     = real_render;
  const bool bundle_refused =
    r2.status == 2 && count_lines(r2.err) == 1U &&
    same_bytes("bin/lv2/perlin4d.lv2/presets.ttl", "presets.orig");
  if (!bundle_refused) {
    printf("# not refused: --preset wind -o <its bundle>/presets.ttl "
           "--force: status %d, presets.ttl %s\n",
           r2.status,
           same_bytes("bin/lv2/perlin4d.lv2/presets.ttl", "presets.orig")
             ? "intact"
             : "REPLACED");
  }
  clear_work_dir();

  // 3. A duration shorter than one frame names the value given.
  static const char* const tiny[] = {
    "-o", "a.wav", "--duration", "1e-5", NULL
  };
  const Result r3 = run(tiny, LIMIT_NONE);
  const bool   named =
    r3.status == 2 &&
    !strncmp(r3.err, "perlin4d-render: --duration '1e-5': ", 36U) &&
    count_lines(r3.err) == 1U && count_files() == 0U;
  if (!named) {
    printf("# --duration 1e-5: status %d, stderr: %s", r3.status, r3.err);
  }
  clear_work_dir();
  assert(!rmdir(work_dir));

  assert(plot_refused);
  assert(bundle_refused);
  assert(named);
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  setvbuf(stdout, NULL, _IOLBF, 0U);
  umask(022);

  // The program runs in the work folder, so it needs an absolute path.
  static char path[4096];
  assert(realpath(argv[1], path));
  render_path = path;
  assert(mkdtemp(work_dir));

  test_bad_input();
  test_bad_numbers();
  test_missing_values();
  test_unknown_symbol_lists_all();
  test_bad_paths();
  test_preset_file_is_input();
  test_help_and_version();
  test_warnings();
  test_render_reads_back();
  test_formats();
  test_channels();
  test_csv_and_svg();
  test_repeatable();
  test_isa_override();
  test_jobs();
  test_split();
  test_failures_leave_nothing();
  test_unwritable_folder();
  test_force_replaces_atomically();
  test_lists();
  test_presets();
  test_progress();
  test_memory_flat();
  test_culprits_under_other_names();
  return 0;
}
