// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _DEFAULT_SOURCE // setgroups
#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "process.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/// User and group nobody on Debian and most Linux systems.
#define NOBODY 65534

/// A stream from the child, kept up to the buffer's size, the rest drained
/// so that the child never blocks on a full pipe.
typedef struct {
  int    fd;
  char*  buf;
  size_t size;
  size_t len;
} Sink;

static double
now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}

static void
sleep_ms(long ms)
{
  const struct timespec t = { 0, ms * 1000000L };
  nanosleep(&t, NULL);
}

/// Read what the stream holds; false at its end (or on an error).
static bool
sink_read(Sink* s)
{
  char          rest[512];
  const bool    room = s->len < s->size - 1U;
  char* const   to   = room ? s->buf + s->len : rest;
  const size_t  max  = room ? s->size - 1U - s->len : sizeof(rest);
  const ssize_t r    = read(s->fd, to, max);
  if (r < 0 && errno == EINTR) {
    return true;
  }
  if (r <= 0) {
    return false;
  }
  if (room) {
    s->len += (size_t)r;
    s->buf[s->len] = '\0';
  }
  return true;
}

/// The largest VmHWM /proc/pid/status shows once the process is `name`.
static long
peak_of(pid_t pid, const char* name, long peak)
{
  char path[64];
  snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
  FILE* f = fopen(path, "r");
  if (!f) {
    return peak;
  }

  char line[256];
  bool ours = false;
  while (fgets(line, sizeof(line), f)) {
    ours = ours || !strcmp(line, name);
    if (ours && !strncmp(line, "VmHWM:", 6U)) {
      char*      end = NULL;
      const long kib = strtol(line + 6, &end, 10);
      if (end != line + 6) {
        peak = kib > peak ? kib : peak;
      }
    }
  }
  assert(!fclose(f));
  return peak;
}

/// In the child: set up the trouble, then become the program.
static void
child(const char*  program,
      char* const* argv,
      const char*  dir,
      P4dTrouble   trouble,
      int          tty,
      const char*  pts)
{
  if (dir && chdir(dir)) {
    _exit(99);
  }
  if (trouble == P4D_PROC_FILE_LIMIT) {
    // A full disk, as the program sees it: writes past 64 KiB fail.
    const struct rlimit limit = { 65536, 65536 };
    if (signal(SIGXFSZ, SIG_IGN) == SIG_ERR) {
      _exit(95);
    }
    setrlimit(RLIMIT_FSIZE, &limit);
  } else if (trouble == P4D_PROC_AS_NOBODY && getuid() == 0 &&
             // Without root's supplementary groups too: nobody as such.
             (setgroups(0U, NULL) || setgid(NOBODY) || setuid(NOBODY))) {
    _exit(P4D_PROC_NO_NOBODY);
  } else if (trouble == P4D_PROC_STDERR_TTY) {
    close(tty);
    const int fd = open(pts, O_RDWR | O_NOCTTY);
    if (fd < 0 || dup2(fd, 2) < 0) {
      _exit(96);
    }
    close(fd);
  }
  execv(program, argv);
  _exit(98);
}

/// Run program as p4d_proc_run() does, with any number of arguments, and
/// kill it after timeout_s.
static P4dProcResult
run(const char*        program,
    const char* const* args,
    const char*        dir,
    P4dTrouble         trouble,
    bool               peak,
    double             timeout_s)
{
  size_t n_args = 0U;
  while (args[n_args]) {
    ++n_args;
  }
  const char** const argv =
    (const char**)calloc(n_args + 2U, sizeof(const char*));
  assert(argv);
  argv[0] = program;
  memcpy(argv + 1, args, n_args * sizeof(const char*));

  // The kernel's name of the running program: its file name, cut to 15.
  const char* const slash = strrchr(program, '/');
  char              name[32];
  snprintf(name, sizeof(name), "Name:\t%.15s\n", slash ? slash + 1 : program);

  int out_pipe[2];
  int err_pipe[2];
  assert(!pipe(out_pipe) && !pipe(err_pipe));

  int         tty = -1;
  const char* pts = NULL;
  if (trouble == P4D_PROC_STDERR_TTY) {
    tty = posix_openpt(O_RDWR | O_NOCTTY);
    assert(tty >= 0 && !grantpt(tty) && !unlockpt(tty));
    pts = ptsname(tty);
    assert(pts);
  }

  const double start = now_s();
  const pid_t  pid   = fork();
  assert(pid >= 0);
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    close(out_pipe[0]);
    close(out_pipe[1]);
    close(err_pipe[0]);
    close(err_pipe[1]);
    child(program, (char* const*)argv, dir, trouble, tty, pts);
  }
  free(argv);
  close(out_pipe[1]);
  close(err_pipe[1]);

  P4dProcResult result;
  result.status        = -1;
  result.peak_kib      = 0L;
  result.out[0]        = '\0';
  result.err[0]        = '\0';
  Sink sinks[2]        = { { out_pipe[0], result.out, sizeof(result.out), 0U },
                           { err_pipe[0], result.err, sizeof(result.err), 0U } };
  struct pollfd fds[2] = { { out_pipe[0], POLLIN, 0 },
                           { err_pipe[0], POLLIN, 0 } };

  bool exited    = false;
  bool termed    = false;
  bool timed_out = false;
  int  status    = 0;
  while (!exited || fds[0].fd >= 0 || fds[1].fd >= 0) {
    // Wake often enough to sample the memory, send SIGTERM on time and
    // notice the exit of a program that closed its streams.
    const long wait_ms = peak ? 5L : fds[0].fd < 0 && fds[1].fd < 0 ? 1L : 50L;
    if (fds[0].fd >= 0 || fds[1].fd >= 0) {
      const int n = poll(fds, 2U, (int)wait_ms);
      assert(n >= 0 || errno == EINTR);
      for (unsigned i = 0U; n > 0 && i < 2U; ++i) {
        if (fds[i].fd >= 0 && fds[i].revents && !sink_read(&sinks[i])) {
          close(fds[i].fd);
          fds[i].fd = -1;
        }
      }
    } else {
      sleep_ms(wait_ms);
    }

    if (!exited) {
      if (peak) {
        result.peak_kib = peak_of(pid, name, result.peak_kib);
      }
      const pid_t done = waitpid(pid, &status, WNOHANG);
      assert(done >= 0);
      exited = done == pid;
    }

    const double elapsed = now_s() - start;
    if (!exited && trouble == P4D_PROC_SIGTERM && !termed && elapsed >= 0.3) {
      kill(pid, SIGTERM);
      termed = true;
    }
    if (!exited && !timed_out && elapsed >= timeout_s) {
      fprintf(
        stderr, "%s: still running after %g s: killed\n", program, timeout_s);
      kill(pid, SIGKILL);
      timed_out = true;
    }
  }
  result.status =
    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

  if (tty >= 0) {
    // The terminal holds what the program wrote to stderr; reading past it
    // fails (EIO) once the program is gone.
    Sink s = { tty, result.err, sizeof(result.err), strlen(result.err) };
    while (sink_read(&s)) {
    }
    close(tty);
  }
  return result;
}

P4dProcResult
p4d_proc_run(const char*        program,
             const char* const* args,
             const char*        dir,
             P4dTrouble         trouble,
             bool               peak)
{
  for (size_t i = 0U; args[i]; ++i) {
    assert(i < P4D_PROC_MAX_ARGS);
  }
  return run(program, args, dir, trouble, peak, P4D_PROC_TIMEOUT_S);
}

P4dProcResult
p4d_proc_run_for(const char*        program,
                 const char* const* args,
                 const char*        dir,
                 double             timeout_s)
{
  return run(program, args, dir, P4D_PROC_PLAIN, false, timeout_s);
}
