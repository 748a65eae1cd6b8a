// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render: renders perlin4d noise to an audio file.

  The file is written to a temporary file in the target folder, read back to
  check it, and renamed into place only when complete, so the output path
  never holds a partial file.
*/

#define _POSIX_C_SOURCE 200809L

#include "engine.h"
#include "params.h"

#include <sndfile.h>

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef P4D_VERSION
#  define P4D_VERSION "unknown"
#endif

/// Exit statuses: one place maps every failure to one of these.
typedef enum {
  EXIT_OK      = 0,
  EXIT_RUNTIME = 1, ///< The arguments were fine, rendering or writing failed
  EXIT_USAGE   = 2, ///< Bad command line
} ExitCode;

#define BLOCK_FRAMES 4096U
#define MAX_CHANNELS 2U

typedef struct {
  const char* output;
  double      duration_s;
  double      sample_rate_hz;
  uint32_t    seed;
  unsigned    n_channels;
  bool        force;
} Options;

static volatile sig_atomic_t interrupted = 0;

static void
on_signal(int sig)
{
  interrupted = sig;
}

static const char* const usage_text =
  "Usage: perlin4d-render -o FILE [OPTION]...\n"
  "Render Perlin4D Noise (at its defaults) to a 32-bit float WAV file.\n"
  "\n"
  "  -o, --output FILE      file to write (refused if it exists, see --force)\n"
  "      --duration SECONDS length of the render (default 10)\n"
  "      --samplerate HZ    frames per second, 8000 to 768000 (default 48000)\n"
  "      --seed N           noise seed, 0 to 65535 (default 1)\n"
  "      --channels N       1 or 2 (default 2)\n"
  "      --force            replace FILE if it exists\n"
  "      --help             print this help and exit\n"
  "      --version          print the version and exit\n"
  "\n"
  "Exit status: 0 on success, 1 if rendering or writing failed, 2 for a bad\n"
  "command line.  Errors are one line on stderr; no partial file is left.\n";

static int
fail(ExitCode code, const char* what, const char* reason)
{
  fprintf(stderr, "perlin4d-render: %s: %s\n", what, reason);
  return (int)code;
}

/// True if s is a plain decimal number: [+-]digits[.digits][e[+-]digits].
static bool
is_decimal(const char* s)
{
  const char* p = s;
  if (*p == '+' || *p == '-') {
    ++p;
  }

  size_t n_digits = strspn(p, "0123456789");
  p += n_digits;
  if (*p == '.') {
    const size_t n_frac = strspn(p + 1, "0123456789");
    n_digits += n_frac;
    p += 1 + n_frac;
  }

  if (n_digits == 0U) {
    return false;
  }

  if (*p == 'e' || *p == 'E') {
    ++p;
    if (*p == '+' || *p == '-') {
      ++p;
    }
    const size_t n_exp = strspn(p, "0123456789");
    if (n_exp == 0U) {
      return false;
    }
    p += n_exp;
  }

  return *p == '\0';
}

/// Parse a finite decimal number in [lo, hi], or return a reason.
static const char*
parse_real(const char* s, double lo, double hi, double* out)
{
  if (!is_decimal(s)) {
    return "not a decimal number";
  }

  errno          = 0;
  const double v = strtod(s, NULL);
  if (errno == ERANGE && (v > 1.0 || v < -1.0)) {
    return "number out of range";
  }

  if (!(v >= lo && v <= hi)) {
    return "out of range";
  }

  *out = v;
  return NULL;
}

/// Parse a whole number in [lo, hi], or return a reason.
static const char*
parse_whole(const char*    s,
            unsigned long  lo,
            unsigned long  hi,
            unsigned long* out)
{
  if (s[0] == '\0' || strspn(s, "0123456789") != strlen(s)) {
    return "not a whole number";
  }

  errno                 = 0;
  const unsigned long v = strtoul(s, NULL, 10);
  if (errno == ERANGE || v < lo || v > hi) {
    return "out of range";
  }

  *out = v;
  return NULL;
}

/// Parse the command line; on error print one line and return EXIT_USAGE.
static int
parse_options(int argc, char** argv, Options* opts)
{
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];

    if (!strcmp(arg, "--help")) {
      fputs(usage_text, stdout);
      exit(EXIT_OK);
    }

    if (!strcmp(arg, "--version")) {
      printf("perlin4d-render %s\n", P4D_VERSION);
      exit(EXIT_OK);
    }

    if (!strcmp(arg, "--force")) {
      opts->force = true;
      continue;
    }

    const bool takes_value =
      !strcmp(arg, "-o") || !strcmp(arg, "--output") ||
      !strcmp(arg, "--duration") || !strcmp(arg, "--samplerate") ||
      !strcmp(arg, "--seed") || !strcmp(arg, "--channels");
    if (!takes_value) {
      return fail(EXIT_USAGE, arg, "unknown option (see --help)");
    }

    if (i + 1 == argc) {
      return fail(EXIT_USAGE, arg, "missing value");
    }

    const char*   value  = argv[++i];
    const char*   reason = NULL;
    unsigned long whole  = 0U;
    if (!strcmp(arg, "-o") || !strcmp(arg, "--output")) {
      opts->output = value;
      reason       = value[0] ? NULL : "empty file name";
    } else if (!strcmp(arg, "--duration")) {
      reason = parse_real(value, 0.0, 1.0e7, &opts->duration_s);
      if (!reason && opts->duration_s <= 0.0) {
        reason = "must be greater than 0";
      }
    } else if (!strcmp(arg, "--samplerate")) {
      reason               = parse_whole(value, 8000U, 768000U, &whole);
      opts->sample_rate_hz = (double)whole;
    } else if (!strcmp(arg, "--seed")) {
      reason     = parse_whole(value, 0U, 65535U, &whole);
      opts->seed = (uint32_t)whole;
    } else {
      reason           = parse_whole(value, 1U, MAX_CHANNELS, &whole);
      opts->n_channels = (unsigned)whole;
    }

    if (reason) {
      char what[64];
      snprintf(what, sizeof(what), "%s '%s'", arg, value);
      return fail(EXIT_USAGE, what, reason);
    }
  }

  if (!opts->output) {
    return fail(EXIT_USAGE, "-o", "no output file given (see --help)");
  }

  return EXIT_OK;
}

/// Check the output path before rendering; on error print one line.
static int
check_output(const Options* opts)
{
  // The folder the output goes into must exist.
  const char*  slash   = strrchr(opts->output, '/');
  const size_t dir_len = slash ? (size_t)(slash - opts->output) : 0U;
  char         dir[4096];
  if (dir_len >= sizeof(dir)) {
    return fail(EXIT_USAGE, opts->output, "path too long");
  }
  memcpy(dir, slash ? opts->output : ".", slash ? dir_len : 1U);
  dir[slash ? (dir_len ? dir_len : 1U) : 1U] = '\0';

  struct stat st;
  if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
    return fail(EXIT_USAGE, opts->output, "folder does not exist");
  }

  const double n_bytes =
    opts->duration_s * opts->sample_rate_hz * opts->n_channels * sizeof(float);
  if (n_bytes > (double)UINT32_MAX - 4096.0) {
    return fail(EXIT_USAGE, "--duration", "too long for a WAV file (4 GiB)");
  }

  if (!stat(opts->output, &st)) {
    if (S_ISDIR(st.st_mode)) {
      return fail(EXIT_USAGE, opts->output, "is a folder");
    }
    if (!opts->force) {
      return fail(EXIT_USAGE, opts->output, "exists (use --force to replace)");
    }
  }

  return EXIT_OK;
}

/// Render n frames of the Noise engine, interleaved.
static void
render_block(const Options* opts,
             P4dEngine*     engine,
             const float*   params,
             size_t         n,
             float*         interleaved)
{
  static float left[BLOCK_FRAMES];
  static float right[BLOCK_FRAMES];
  float* const out[2] = { left, right };

  p4d_engine_process(engine, params, out, (uint32_t)n);
  for (size_t i = 0U; i < n; ++i) {
    for (unsigned c = 0U; c < opts->n_channels; ++c) {
      interleaved[i * opts->n_channels + c] = out[c][i];
    }
  }
}

/// Write the whole render to an open sound file; return a reason or NULL.
static const char*
write_frames(const Options* opts, SNDFILE* file, uint64_t n_frames)
{
  static float interleaved[BLOCK_FRAMES * MAX_CHANNELS];

  // Perlin4D Noise at its defaults, with the seed given.
  const P4dParamTable* table = p4d_params(P4D_KIND_NOISE);
  float                params[P4D_MAX_PARAMS];
  p4d_param_defaults(table, params);
  params[P4D_NOISE_SEED] = (float)opts->seed;

  P4dEngine* engine = NULL;
  if (p4d_engine_new(P4D_KIND_NOISE, opts->sample_rate_hz, &engine)) {
    return "cannot create the noise engine";
  }

  for (uint64_t done = 0U; done < n_frames; done += BLOCK_FRAMES) {
    if (interrupted) {
      p4d_engine_free(engine);
      return "interrupted";
    }

    const size_t n =
      (size_t)(n_frames - done < BLOCK_FRAMES ? n_frames - done : BLOCK_FRAMES);
    render_block(opts, engine, params, n, interleaved);
    if (sf_writef_float(file, interleaved, (sf_count_t)n) != (sf_count_t)n) {
      // The text belongs to the file, which is closed before it is shown.
      static char reason[256];
      snprintf(reason, sizeof(reason), "%s", sf_strerror(file));
      p4d_engine_free(engine);
      return reason;
    }
  }

  p4d_engine_free(engine);
  return NULL;
}

/// Read a written file back and check its header against what was meant.
static const char*
verify_file(const char* path, const SF_INFO* meant)
{
  SF_INFO  info = { 0 };
  SNDFILE* file = sf_open(path, SFM_READ, &info);
  if (!file) {
    return "the written file cannot be read back";
  }

  const bool ok =
    info.frames == meant->frames && info.channels == meant->channels &&
    info.samplerate == meant->samplerate && info.format == meant->format;
  sf_close(file);
  return ok ? NULL : "the written file does not read back as written";
}

/// Render into a temporary file beside the output, then rename it in place.
static int
render_file(const Options* opts)
{
  const size_t len  = strlen(opts->output);
  char*        temp = (char*)malloc(len + sizeof(".tmp-XXXXXX"));
  if (!temp) {
    return fail(EXIT_RUNTIME, opts->output, strerror(ENOMEM));
  }
  memcpy(temp, opts->output, len);
  memcpy(temp + len, ".tmp-XXXXXX", sizeof(".tmp-XXXXXX"));

  const mode_t mask = umask(0);
  umask(mask);

  const int fd = mkstemp(temp);
  if (fd < 0) {
    const int code = fail(EXIT_RUNTIME, opts->output, strerror(errno));
    free(temp);
    return code;
  }

  const uint64_t n_frames =
    (uint64_t)(opts->duration_s * opts->sample_rate_hz + 0.5);
  SF_INFO info    = { 0 };
  info.samplerate = (int)opts->sample_rate_hz;
  info.channels   = (int)opts->n_channels;
  info.format     = SF_FORMAT_WAV | SF_FORMAT_FLOAT;

  // mkstemp() makes the file private; give it the mode a new file gets.
  const char* reason = fchmod(fd, 0666 & ~mask) ? strerror(errno) : NULL;
  SNDFILE*    file = reason ? NULL : sf_open_fd(fd, SFM_WRITE, &info, SF_TRUE);
  if (!file) {
    reason = reason ? reason : sf_strerror(NULL);
    close(fd);
  } else {
    // The PEAK chunk holds the time of writing: without it the same command
    // writes the same bytes.
    sf_command(file, SFC_SET_ADD_PEAK_CHUNK, NULL, SF_FALSE);
    reason = write_frames(opts, file, n_frames);
    if (sf_close(file) && !reason) {
      reason = "cannot finish the file";
    }
  }

  info.frames = (sf_count_t)n_frames;
  if (!reason) {
    reason = verify_file(temp, &info);
  }
  if (!reason && rename(temp, opts->output)) {
    reason = strerror(errno);
  }

  if (reason) {
    unlink(temp);
  }
  free(temp);
  return reason ? fail(EXIT_RUNTIME, opts->output, reason) : EXIT_OK;
}

int
main(int argc, char** argv)
{
  Options opts = { NULL, 10.0, 48000.0, 1U, 2U, false };

  int code = parse_options(argc, argv, &opts);
  if (code == EXIT_OK) {
    code = check_output(&opts);
  }
  if (code != EXIT_OK) {
    return code;
  }

  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = on_signal;
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);

  return render_file(&opts);
}
