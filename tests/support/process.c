// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _DEFAULT_SOURCE // setgroups
#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "process.h"

#include "basics.h"

#include <assert.h>
#include <dirent.h>
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

/// Bytes by which the whole of stdout grows when kept.
#define OUT_STEP 65536U

void
p4d_proc_sleep_ms(long ms)
{
  const struct timespec t = { ms / 1000L, (ms % 1000L) * 1000000L };
  nanosleep(&t, NULL);
}

/// In the child: set up the trouble, then become the program.
static void
child(const P4dProcSetup* how, char* const* argv, const char* pts)
{
  // Every signal as a shell leaves it, so that each case means something.
  static const int sigs[] = { SIGHUP,  SIGINT,  SIGQUIT, SIGPIPE, SIGTERM,
                              SIGUSR1, SIGUSR2, SIGALRM, SIGXFSZ };
  for (size_t i = 0U; i < sizeof(sigs) / sizeof(sigs[0]); ++i) {
    (void)signal(sigs[i], SIG_DFL);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);

  char env[256];
  snprintf(env, sizeof(env), "%s", how->env ? how->env : "");
  char* const         eq    = strchr(env, '=');
  const struct rlimit limit = { (rlim_t)how->fsize, (rlim_t)how->fsize };
  if (eq) {
    *eq = '\0';
  }
  // A full disk, as the program sees it: writes past the limit fail.
  if ((how->dir && chdir(how->dir)) || (eq && setenv(env, eq + 1, 1)) ||
      (how->full_disk && signal(SIGXFSZ, SIG_IGN) == SIG_ERR) ||
      (how->fsize && setrlimit(RLIMIT_FSIZE, &limit)) ||
      (how->nobody && getuid() == 0 &&
       // Without root's supplementary groups too: nobody as such.
       (setgroups(0U, NULL) || setgid(NOBODY) || setuid(NOBODY)))) {
    _exit(P4D_PROC_NO_NOBODY);
  }
  if (pts) {
    const int fd = open(pts, O_RDWR | O_NOCTTY);
    if (fd < 0 || dup2(fd, 2) < 0) {
      _exit(96);
    }
    close(fd);
  }
  execv(argv[0], argv);
  _exit(98);
}

P4dProc
p4d_proc_start(const P4dProcSetup* how, const char* const* args)
{
  size_t n_args = 0U;
  while (args[n_args]) {
    ++n_args;
  }
  const char** const argv =
    (const char**)p4d_alloc(n_args + 2U, sizeof(const char*));
  argv[0] = how->program;
  memcpy(argv + 1, args, n_args * sizeof(const char*));

  P4dProc p;
  memset(&p, 0, sizeof(p));
  p.tty       = -1;
  p.timeout_s = how->timeout_s > 0.0 ? how->timeout_s : P4D_PROC_TIMEOUT_S;
  p.peak      = how->peak;
  p.keep_out  = how->keep_out;
  // The kernel's name of the running program: its file name, cut to 15.
  const char* const slash = strrchr(how->program, '/');
  snprintf(
    p.name, sizeof(p.name), "Name:\t%.15s\n", slash ? slash + 1 : how->program);

  const char* pts = NULL;
  if (how->stderr_tty) {
    p.tty = posix_openpt(O_RDWR | O_NOCTTY);
    assert(p.tty >= 0 && !grantpt(p.tty) && !unlockpt(p.tty));
    pts = ptsname(p.tty);
    assert(pts);
  }

  int out[2];
  int err[2];
  assert(!pipe(out) && !pipe(err));
  p.start_s = p4d_now_s();
  p.pid     = fork();
  assert(p.pid >= 0);
  if (p.pid == 0) {
    dup2(out[1], 1);
    dup2(err[1], 2);
    close(out[0]);
    close(out[1]);
    close(err[0]);
    close(err[1]);
    if (p.tty >= 0) {
      close(p.tty);
    }
    child(how, (char* const*)argv, pts);
  }
  free(argv);
  close(out[1]);
  close(err[1]);
  p.out = out[0];
  p.err = err[0];
  return p;
}

/// Whether the process has ended (a zombie, not yet waited for) or is gone.
static bool
ended(pid_t pid)
{
  char path[64];
  snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
  FILE* const f = fopen(path, "r");
  if (!f) {
    return true;
  }
  char      state = '?';
  const int n     = fscanf(f, "%*d (%*[^)]) %c", &state);
  assert(!fclose(f));
  return n == 1 && (state == 'Z' || state == 'X');
}

/// Whether the process holds open a file whose path is prefix + NAME.
static bool
holds_open(pid_t pid, const char* prefix)
{
  const size_t len = strlen(prefix);
  char         fds[64];
  snprintf(fds, sizeof(fds), "/proc/%ld/fd", (long)pid);
  DIR* const d = opendir(fds);
  if (!d) {
    return false;
  }
  bool found = false;
  for (struct dirent* e = readdir(d); e && !found; e = readdir(d)) {
    char link[700];
    char target[1200];
    snprintf(link, sizeof(link), "%s/%s", fds, e->d_name);
    const ssize_t n       = readlink(link, target, sizeof(target) - 1U);
    target[n > 0 ? n : 0] = '\0';
    found = !strncmp(target, prefix, len) && !strchr(target + len, '/');
  }
  closedir(d);
  return found;
}

void
p4d_proc_wait_open(const P4dProc* proc, const char* folder)
{
  char prefix[1024];
  snprintf(prefix, sizeof(prefix), "%s/", folder);
  // The file is the sign; the time limit only ends a program that hangs.
  while (!holds_open(proc->pid, prefix)) {
    if (ended(proc->pid)) {
      fprintf(
        stderr, "the program ended before it opened a file of %s\n", folder);
      assert(!"the program ended before it opened a file of the folder");
    }
    if (p4d_now_s() - proc->start_s > proc->timeout_s) {
      assert(!"the program never opened a file of the folder");
    }
    p4d_proc_sleep_ms(2L);
  }
}

void
p4d_proc_stop_when_open(const P4dProc* proc, const char* folder)
{
  char prefix[1024];
  snprintf(prefix, sizeof(prefix), "%s/", folder);
  for (;;) {
    int status = 0;
    assert(!kill(proc->pid, SIGSTOP));
    assert(waitpid(proc->pid, &status, WUNTRACED) == proc->pid);
    if (!WIFSTOPPED(status)) {
      fprintf(stderr,
              "the program ended (status %d) before it opened a file of %s\n",
              status,
              folder);
      assert(!"the program ended before it opened a file of the folder");
    }
    if (holds_open(proc->pid, prefix)) {
      return;
    }
    if (p4d_now_s() - proc->start_s > proc->timeout_s) {
      assert(!"the program never opened a file of the folder");
    }
    assert(!kill(proc->pid, SIGCONT));
    p4d_proc_sleep_ms(1L);
  }
}

/// A stream from the child: the start kept in a buffer, all of it too if
/// asked, the rest drained so that the child never blocks on a full pipe.
typedef struct {
  int    fd;
  char*  buf;
  size_t size;
  size_t len;
  size_t total; ///< Bytes read, kept or not
  char** all;   ///< Where all of it grows, or NULL
  size_t all_len;
  size_t all_cap;
} Sink;

/// Read what the stream holds; false at its end (or on an error).
static bool
sink_read(Sink* s)
{
  char          rest[4096];
  const bool    room = s->len + 1U < s->size;
  char* const   to   = room ? s->buf + s->len : rest;
  const size_t  max  = room ? s->size - 1U - s->len : sizeof(rest);
  const ssize_t r    = read(s->fd, to, max);
  if (r < 0 && errno == EINTR) {
    return true;
  }
  if (r <= 0) {
    return false;
  }
  s->total += (size_t)r;
  if (s->all) {
    while (s->all_cap - s->all_len <= (size_t)r) {
      s->all_cap += OUT_STEP;
      *s->all = (char*)realloc(*s->all, s->all_cap);
      assert(*s->all);
    }
    memcpy(*s->all + s->all_len, to, (size_t)r);
    s->all_len += (size_t)r;
    (*s->all)[s->all_len] = '\0';
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

P4dProcResult
p4d_proc_finish(P4dProc* proc)
{
  P4dProcResult result;
  memset(&result, 0, sizeof(result));
  result.status = -1;
  Sink sinks[2] = {
    { proc->out, result.out, sizeof(result.out), 0U, 0U, NULL, 0U, 0U },
    { proc->err, result.err, sizeof(result.err), 0U, 0U, NULL, 0U, 0U }
  };
  if (proc->keep_out) {
    sinks[0].all     = &result.out_all;
    sinks[0].all_cap = OUT_STEP;
    result.out_all   = (char*)calloc(OUT_STEP, 1U);
    assert(result.out_all);
  }
  struct pollfd fds[2] = { { proc->out, POLLIN, 0 }, { proc->err, POLLIN, 0 } };

  bool exited    = false;
  bool timed_out = false;
  int  status    = 0;
  while (!exited || fds[0].fd >= 0 || fds[1].fd >= 0) {
    // Wake often enough to sample the memory and to notice the exit of a
    // program that closed its streams.
    const long wait_ms = proc->peak                       ? 5L
                         : fds[0].fd < 0 && fds[1].fd < 0 ? 1L
                                                          : 50L;
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
      p4d_proc_sleep_ms(wait_ms);
    }

    if (!exited) {
      if (proc->peak) {
        result.peak_kib = peak_of(proc->pid, proc->name, result.peak_kib);
      }
      const pid_t done = waitpid(proc->pid, &status, WNOHANG);
      assert(done >= 0);
      exited = done == proc->pid;
    }

    if (!exited && !timed_out &&
        p4d_now_s() - proc->start_s >= proc->timeout_s) {
      fprintf(stderr, "still running after %g s: killed\n", proc->timeout_s);
      kill(proc->pid, SIGKILL);
      timed_out = true;
    }
  }
  proc->out = proc->err = -1;
  result.out_len        = sinks[0].total;
  result.status =
    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

  if (proc->tty >= 0) {
    // The terminal holds what the program wrote to stderr; reading past it
    // fails (EIO) once the program is gone.
    Sink s = {
      proc->tty, result.err, sizeof(result.err), strlen(result.err), 0U, NULL,
      0U,        0U
    };
    while (sink_read(&s)) {
    }
    close(proc->tty);
    proc->tty = -1;
  }
  return result;
}

P4dProcResult
p4d_proc_run(const P4dProcSetup* how, const char* const* args)
{
  P4dProc proc = p4d_proc_start(how, args);
  return p4d_proc_finish(&proc);
}
