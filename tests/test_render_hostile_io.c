// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's files against a hostile user (issue 23 item 4), each
  case a defect that a render of issue 22 showed:
  - every stream written to a pipe is read by the format's reference
    reader: FLAC by flac -t (no stray bytes at the end), CSV and JSON by
    Python's csv and json modules, MIDI by mido, Y4M by ffmpeg;
  - a symbolic link at -o is replaced, never written through, --force or
    not;
  - an input that changes in any way during the render (rewritten in place
    with its modification time put back, truncated, extended, replaced)
    fails with exit 1 and leaves nothing;
  - standard output open on an input (1<>in.wav, >> in.flac) is refused
    and the input stays as it was;
  - inputs libsndfile reads but cannot seek (GSM 6.10 WAV, G.721 AU) are
    read by one job straight through: the same samples out as from the
    same samples in a float WAV, for any --jobs;
  - -i given twice is refused;
  - --start takes the 10,000 hours the README promises, and the noise
    holds there (level, steps and smoothness as at hour 0).

  Usage: test_render_hostile_io PATH_TO_PERLIN4D_RENDER [CASE]
*/

#define _GNU_SOURCE // futimens' UTIME_OMIT, dirent
#undef NDEBUG

#include "support/cli.h"
#include "support/files.h"
#include "support/sound.h"

#include <sndfile.h>

#include <assert.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// Run a shell command line in the work folder (sh -c, through the tests'
/// process runner, killed if it hangs); its exit status.
static int
shell(const char* line)
{
  P4dProcSetup how           = p4d_cli_setup();
  how.program                = "/bin/sh";
  const char* const   args[] = { "-c", line, NULL };
  const P4dProcResult r      = p4d_proc_run(&how, args);
  return r.status;
}

/// The number written in name of the work folder.
static long
read_number(const char* name)
{
  size_t      size = 0U;
  char* const text = p4d_work_read(name, &size);
  char*       end  = NULL;
  const long  n    = strtol(text, &end, 10);
  assert(end != text);
  free(text);
  return n;
}

// -- Streams read by their reference readers ---------------------------------

static void
test_streams(void)
{
  const char* const r = p4d_cli_render();
  static const struct {
    const char* what;
    const char* args;   ///< The renderer's, writing to standard output
    const char* reader; ///< Reads the stream from its standard input
  } cases[] = {
    { "FLAC, flac -t", "-o - --format flac --duration 2", "flac -t -s -" },
    { "FLAC pcm16, flac -d",
      "-o - --format flac-pcm16 --duration 1.5 --plugin mod",
      "flac -d -s -f -o s.wav - && test -s s.wav" },
    { "CSV, Python's csv",
      "-o - --format csv --plugin mod --duration 2 --fps 100",
      "/usr/bin/python3 -c 'import csv,sys; r=list(csv.reader(sys.stdin)); "
      "assert len(r)==201 and len(r[0])==5, len(r); [float(x) for row in "
      "r[1:] for x in row]'" },
    { "JSON, Python's json",
      "-o - --format json --plugin mod --duration 2 --fps 50",
      "/usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); "
      "assert isinstance(d,dict) and d'" },
    { "MIDI, Python's mido",
      "-o - --format midi --plugin mod --duration 2 --set rate_hz=9 --set "
      "cc_1=1",
      "/usr/bin/python3 -c 'import io,sys,mido; m=mido.MidiFile(file=io."
      "BytesIO(sys.stdin.buffer.read())); assert m.type==1 and sum(1 for t "
      "in m.tracks for e in t if e.type==\"control_change\")>10'" },
    { "Y4M, ffmpeg",
      "-o - --format y4m --size 64x48 --fps 10 --duration 1",
      "ffmpeg -v error -f yuv4mpegpipe -i - -f null - && exit 0" },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char line[2048];
    // The renderer's status goes to s.rc; the reader's is the pipeline's.
    snprintf(line,
             sizeof(line),
             "{ '%s' %s; echo $? > s.rc; } | { %s; }",
             r,
             cases[i].args,
             cases[i].reader);
    const int  status = shell(line);
    const long rc     = read_number("s.rc");
    printf(
      "# %s from a pipe: renderer %ld, reader %d\n", cases[i].what, rc, status);
    assert(rc == 0 && status == 0);
    p4d_work_clear();
  }
}

// -- Links
// ---------------------------------------------------------------------

/// A link at -o to a file elsewhere: replaced with --force, refused without;
/// the file it points to is never written.
static void
test_link_not_followed(void)
{
  assert(!mkdir(p4d_work_path("other"), 0700));
  p4d_work_write("other/victim.txt", "keep me\n");
  assert(!symlink("other/victim.txt", p4d_work_path("out.wav")));

  static const char* const plain[] = {
    "-o", "out.wav", "--duration", "0.1", NULL
  };
  static const char* const forced[] = { "-o",         "out.wav", "--force",
                                        "--duration", "0.1",     NULL };
  p4d_cli_refused(plain, 2, "out.wav: exists (use --force", 2U);
  p4d_cli_ok(forced, NULL);

  struct stat st;
  assert(!lstat(p4d_work_path("out.wav"), &st) && S_ISREG(st.st_mode));
  size_t size = 0U;
  char*  text = p4d_work_read("other/victim.txt", &size);
  printf("# -o naming a link, --force: the link replaced by the file, what "
         "it pointed to kept (%zu bytes: %s)\n",
         size,
         !strcmp(text, "keep me\n") ? "intact" : "OVERWRITTEN");
  assert(!strcmp(text, "keep me\n"));
  free(text);
  p4d_work_clear();
}

// -- Inputs that change
// --------------------------------------------------------

/// Whether process pid holds open a file of folder dir of the work folder.
static bool
holds_open(pid_t pid, const char* dir)
{
  char fds[64];
  snprintf(fds, sizeof(fds), "/proc/%d/fd", (int)pid);
  DIR* const d = opendir(fds);
  if (!d) {
    return false;
  }
  char prefix[1024];
  snprintf(prefix, sizeof(prefix), "%s/%s/", p4d_work_dir(), dir);
  bool found = false;
  for (const struct dirent* e = readdir(d); e && !found; e = readdir(d)) {
    char link[1100];
    char target[1024];
    snprintf(link, sizeof(link), "%s/%s", fds, e->d_name);
    const ssize_t n = readlink(link, target, sizeof(target) - 1U);
    if (n > 0) {
      target[n] = '\0';
      found     = !strncmp(target, prefix, strlen(prefix));
    }
  }
  closedir(d);
  return found;
}

typedef enum { REWRITE, TRUNCATE, EXTEND, REPLACE } Change;

/// Change in/in.wav as the case says, while the render holds it.
static void
change_input(Change change)
{
  const char* const path = p4d_work_path("in/in.wav");
  struct stat       st;
  assert(!stat(path, &st));
  if (change == REPLACE) {
    // The same bytes under a new inode, renamed over the input.
    p4d_file_copy(path, p4d_work_path("in/new.wav"), 0644);
    assert(!rename(p4d_work_path("in/new.wav"), path));
    return;
  }
  const int fd = open(path, O_WRONLY);
  assert(fd >= 0);
  if (change == REWRITE) {
    // Other samples in the middle, the size and modification time kept.
    static const char noise[4096] = { 0x55 };
    assert(pwrite(fd, noise, sizeof(noise), st.st_size / 2) ==
           (ssize_t)sizeof(noise));
    const struct timespec times[2] = { { 0, UTIME_OMIT }, st.st_mtim };
    assert(!futimens(fd, times));
  } else if (change == TRUNCATE) {
    assert(!ftruncate(fd, st.st_size / 2));
  } else {
    static const char more[65536] = { 0 };
    assert(pwrite(fd, more, sizeof(more), st.st_size) == (ssize_t)sizeof(more));
  }
  assert(!close(fd));
}

/// Each change while the render reads the input (it holds both the input
/// and its output open): exit 1, one line, nothing left in out/.
static void
test_input_changes(void)
{
  static const char* const names[] = { "rewritten in place (mtime kept)",
                                       "truncated",
                                       "extended",
                                       "replaced by a copy" };
  for (Change change = REWRITE; change <= REPLACE; ++change) {
    assert(!mkdir(p4d_work_path("in"), 0755));
    assert(!mkdir(p4d_work_path("out"), 0755));
    p4d_sound_write("in/in.wav",
                    SF_FORMAT_WAV | SF_FORMAT_PCM_16,
                    2,
                    48000,
                    (int64_t)48000 * 120);
    // One job (rewritten, extended): its one reader is open from start to
    // end, so the change comes between the looks at the input before and
    // after; two (truncated, replaced): the second reader may open after
    // the change and see it.
    const char* const args[] = { "-i",     "in/in.wav",
                                 "-o",     "out/o.wav",
                                 "--jobs", change % 2U ? "2" : "1",
                                 NULL };
    const P4dCliStart start  = { 0 };
    P4dProc           c      = p4d_cli_start(&start, args);
    // Stopped while it holds its output and the input's reader open: it
    // has not yet looked at the input after reading it.
    for (;;) {
      p4d_cli_stop_when_open(&c, "out");
      if (holds_open(c.pid, "in")) {
        break;
      }
      assert(!kill(c.pid, SIGCONT));
      p4d_proc_sleep_ms(1L);
    }
    // The render stands still: 20 ms on, the change's times are a clock
    // tick (4 ms at most) past any it took, whatever the load.
    p4d_proc_sleep_ms(20L);
    change_input(change);
    assert(!kill(c.pid, SIGCONT));
    P4dProcResult  r = p4d_proc_finish(&c);
    char           list[512];
    const unsigned left = p4d_cli_names("out", list, sizeof(list));
    printf("# input %s during the render: exit %d, %u files left in out/, "
           "stderr: %s",
           names[change],
           r.status,
           left,
           r.err[0] ? r.err : "(none)\n");
    assert(r.status == 1 && p4d_count_lines(r.err) == 1U);
    assert(strstr(r.err, "changed"));
    assert(left == 0U);
    free(r.out_all);
    p4d_work_clear();
  }
}

// -- Standard output on an input
// -----------------------------------------------

static void
test_stdout_is_input(void)
{
  const char* const r = p4d_cli_render();
  p4d_sound_write("in.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 2, 48000, 4800);
  p4d_sound_write("in.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 2, 48000, 4800);
  assert(!symlink("in.flac", p4d_work_path("link.flac")));
  p4d_file_copy(p4d_work_path("in.wav"), p4d_work_path("wav.keep"), 0644);
  p4d_file_copy(p4d_work_path("in.flac"), p4d_work_path("flac.keep"), 0644);
  static const struct {
    const char* redirect;
    const char* input;
  } cases[] = {
    { "1<>in.wav", "in.wav" },
    { ">> in.flac", "in.flac" },
    { ">> in.flac", "link.flac" },
    { "1<> ./in.flac", "in.flac" },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char line[2048];
    snprintf(line,
             sizeof(line),
             "'%s' -i %s -o - --format flac %s 2> err.txt",
             r,
             cases[i].input,
             cases[i].redirect);
    const int status = shell(line);
    size_t    size   = 0U;
    char*     err    = p4d_work_read("err.txt", &size);
    printf("# -i %s -o - %s: exit %d, %s",
           cases[i].input,
           cases[i].redirect,
           status,
           err[0] ? err : "(nothing said)\n");
    assert(status == 2 && strstr(err, "standard output is an input"));
    assert(p4d_work_same("in.wav", "wav.keep"));
    assert(p4d_work_same("in.flac", "flac.keep"));
    free(err);
  }
  p4d_work_clear();
}

// -- Inputs that cannot seek
// -----------------------------------------------------

/// Write the samples of name, as libsndfile decodes them, to a float WAV.
static void
decode_to_float(const char* name, const char* to)
{
  float* left  = NULL;
  float* right = NULL;
  size_t n     = 0U;
  p4d_sound_read_stereo(name, &left, &right, &n);
  SF_INFO  info = { .samplerate = 8000,
                    .channels   = 1,
                    .format     = SF_FORMAT_WAV | SF_FORMAT_FLOAT };
  SNDFILE* file = sf_open(p4d_work_path(to), SFM_WRITE, &info);
  assert(file && sf_writef_float(file, left, (sf_count_t)n) == (sf_count_t)n);
  assert(!sf_close(file));
  free(left);
  free(right);
}

static void
test_unseekable_inputs(void)
{
  static const struct {
    const char* name;
    int         format;
  } inputs[] = {
    { "gsm.wav", SF_FORMAT_WAV | SF_FORMAT_GSM610 },
    { "g721.au", SF_FORMAT_AU | SF_FORMAT_G721_32 },
  };
  for (size_t i = 0U; i < sizeof(inputs) / sizeof(inputs[0]); ++i) {
    // Long enough for several chunks of the renderer (and --jobs 2 to
    // split them, were it allowed).
    p4d_sound_write(
      inputs[i].name, inputs[i].format, 1, 8000, (int64_t)8000 * 90);
    SF_INFO  info = { 0 };
    SNDFILE* file = sf_open(p4d_work_path(inputs[i].name), SFM_READ, &info);
    assert(file && !info.seekable);
    sf_close(file);
    decode_to_float(inputs[i].name, "same.wav");

    const char* const one[]  = { "-i",    inputs[i].name, "-o",
                                 "1.wav", "--jobs",       "1",
                                 "--set", "wow_ms=2",     NULL };
    const char* const two[]  = { "-i",    inputs[i].name, "-o",
                                 "2.wav", "--jobs",       "2",
                                 "--set", "wow_ms=2",     NULL };
    const char* const flat[] = { "-i",    "same.wav", "-o",
                                 "f.wav", "--jobs",   "2",
                                 "--set", "wow_ms=2", NULL };
    p4d_cli_ok(one, NULL);
    p4d_cli_ok(two, NULL);
    p4d_cli_ok(flat, NULL);
    printf("# %s (libsndfile cannot seek it, %lld frames): --jobs 1 and 2 "
           "write the same bytes as the same samples in a float WAV\n",
           inputs[i].name,
           (long long)info.frames);
    assert(p4d_work_same("1.wav", "2.wav"));
    assert(p4d_work_same("1.wav", "f.wav"));
    p4d_work_clear();
  }
}

// -- Arguments
// -------------------------------------------------------------------

static void
test_input_twice(void)
{
  p4d_sound_write("a.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 2, 48000, 4800);
  p4d_sound_write("b.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 2, 48000, 4800);
  static const char* const twice[] = { "-i", "a.wav", "-i", "b.wav",
                                       "-o", "o.wav", NULL };
  static const char* const same[]  = { "-i", "a.wav", "--input", "a.wav",
                                       "-o", "o.wav", NULL };
  p4d_cli_refused(twice, 2, "-i 'b.wav': given twice", 2U);
  p4d_cli_refused(same, 2, "--input 'a.wav': given twice", 2U);
  printf("# -i given twice: refused (exit 2), nothing written\n");
  p4d_work_clear();
}

/// Level, repeated samples and the largest step of channel 0 of name.
static void
measure(const char* name, double* rms, double* repeats, double* step)
{
  SF_INFO      info = { 0 };
  float* const x    = p4d_cli_read_frames(name, &info);
  const size_t n    = (size_t)info.frames;
  const size_t nch  = (size_t)info.channels;
  double       sum  = 0.0;
  size_t       same = 0U;
  double       big  = 0.0;
  for (size_t i = 0U; i < n; ++i) {
    sum += (double)x[i * nch] * x[i * nch];
    if (i) {
      const double d = fabs((double)x[i * nch] - x[(i - 1U) * nch]);
      same += d == 0.0;
      big = d > big ? d : big;
    }
  }
  *rms     = sqrt(sum / (double)n);
  *repeats = (double)same / (double)(n - 1U);
  *step    = big;
  free(x);
}

/// --start 36000000 (10,000 h) is taken, and the noise holds there: the
/// Noise's level and the Mod's smoothness as at hour 0, no frozen samples.
static void
test_start_range(void)
{
  static const char* const kinds[][8] = {
    { "--plugin", "noise", NULL },
    { "--plugin", "mod", "--set", "rate_hz=20", "--set", "octaves=6", NULL },
  };
  static const char* const starts[] = { "0", "36000000" };
  for (size_t k = 0U; k < 2U; ++k) {
    double rms[2];
    double repeats[2];
    double step[2];
    for (unsigned s = 0U; s < 2U; ++s) {
      const char* const args[] = { "-o",      "h.wav",   "--duration", "2",
                                   "--start", starts[s], "--force",    NULL };
      p4d_cli_ok(args, kinds[k]);
      measure("h.wav", &rms[s], &repeats[s], &step[s]);
    }
    printf("# %s at hour 0 and hour 10,000: rms %.4f and %.4f, repeated "
           "samples %.4f %% and %.4f %%, largest step %.5f and %.5f\n",
           kinds[k][1],
           rms[0],
           rms[1],
           100.0 * repeats[0],
           100.0 * repeats[1],
           step[0],
           step[1]);
    assert(rms[1] > 0.5 * rms[0] && rms[1] < 2.0 * rms[0]);
    assert(repeats[1] < 0.01 + 2.0 * repeats[0]);
    assert(step[1] < 2.0 * step[0] + 1e-6);
  }
  p4d_work_clear();
  static const char* const past[] = {
    "-o", "h.wav", "--start", "36000001", NULL
  };
  p4d_cli_refused(past, 2, "--start '36000001': out of range", 0U);
}

/// The cases, by name (a second argument runs only that one, to show each
/// failing against an older renderer).
static const struct {
  const char* name;
  void (*run)(void);
} tests[] = {
  { "input_twice", test_input_twice },      { "link", test_link_not_followed },
  { "stdout", test_stdout_is_input },       { "streams", test_streams },
  { "unseekable", test_unseekable_inputs }, { "start", test_start_range },
  { "changes", test_input_changes },
};

int
main(int argc, char** argv)
{
  assert(argc == 2 || argc == 3);
  p4d_cli_open(argv[1], "hostile-io");
  for (size_t i = 0U; i < sizeof(tests) / sizeof(tests[0]); ++i) {
    if (argc == 2 || !strcmp(argv[2], tests[i].name)) {
      tests[i].run();
    }
  }
  p4d_cli_close();
  return 0;
}
