// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _DEFAULT_SOURCE // setgroups
#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "spawn.h"

#include "process.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
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

void
p4d_spawn_sleep_ms(long ms)
{
  const struct timespec t = { ms / 1000L, (ms % 1000L) * 1000000L };
  nanosleep(&t, NULL);
}

/// In the child: set up the trouble, then become the program.
static void
child(const P4dSpawn* how, char* const* argv)
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
  if (chdir(how->dir) || (eq && setenv(env, eq + 1, 1)) ||
      (how->fsize && setrlimit(RLIMIT_FSIZE, &limit)) ||
      (how->nobody && getuid() == 0 &&
       (setgroups(0U, NULL) || setgid(NOBODY) || setuid(NOBODY)))) {
    _exit(P4D_PROC_NO_NOBODY);
  }
  execv(argv[0], argv);
  _exit(98);
}

P4dChild
p4d_spawn_start(const P4dSpawn* how, const char* const* args)
{
  const char* argv[P4D_PROC_MAX_ARGS + 2] = { how->program };
  for (size_t i = 0U; args[i]; ++i) {
    assert(i < P4D_PROC_MAX_ARGS);
    argv[i + 1] = args[i];
  }
  int out[2];
  int err[2];
  assert(!pipe(out) && !pipe(err));
  const pid_t pid = fork();
  assert(pid >= 0);
  if (pid == 0) {
    dup2(out[1], 1);
    dup2(err[1], 2);
    close(out[0]);
    close(out[1]);
    close(err[0]);
    close(err[1]);
    child(how, (char* const*)argv);
  }
  close(out[1]);
  close(err[1]);
  const P4dChild c = { pid, out[0], err[0] };
  return c;
}

void
p4d_spawn_wait_open(const P4dChild* child, const char* folder)
{
  char prefix[1024];
  snprintf(prefix, sizeof(prefix), "%s/", folder);
  const size_t len = strlen(prefix);
  char         fds[64];
  snprintf(fds, sizeof(fds), "/proc/%ld/fd", (long)child->pid);
  for (int tries = 0; tries < 2000; ++tries) {
    DIR* const d = opendir(fds);
    assert(d);
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
    if (found) {
      return;
    }
    p4d_spawn_sleep_ms(5L);
  }
  assert(!"the program never opened a file of the folder");
}

P4dSpawnResult
p4d_spawn_finish(P4dChild* c)
{
  P4dSpawnResult r;
  memset(&r, 0, sizeof(r));
  size_t cap = 65536U;
  r.out      = (char*)malloc(cap);
  assert(r.out);
  size_t        err_len = 0U;
  struct pollfd fds[2]  = { { c->out, POLLIN, 0 }, { c->err, POLLIN, 0 } };
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    assert(poll(fds, 2U, 1000) >= 0 || errno == EINTR);
    for (unsigned i = 0U; i < 2U; ++i) {
      if (fds[i].fd < 0 || !fds[i].revents) {
        continue;
      }
      if (i == 0U && cap - r.out_len < 65536U) {
        cap *= 2U;
        r.out = (char*)realloc(r.out, cap);
        assert(r.out);
      }
      // Past the size of err, what comes is read and dropped.
      char         rest[4096];
      const bool   room = err_len + 1U < sizeof(r.err);
      char* const  to = i ? (room ? r.err + err_len : rest) : r.out + r.out_len;
      const size_t max =
        i ? (room ? sizeof(r.err) - 1U - err_len : sizeof(rest))
          : cap - r.out_len;
      const ssize_t n = read(fds[i].fd, to, max);
      if (n <= 0 && !(n < 0 && errno == EINTR)) {
        close(fds[i].fd);
        fds[i].fd = -1;
      } else if (n > 0 && i == 0U) {
        r.out_len += (size_t)n;
      } else if (n > 0 && room) {
        err_len += (size_t)n;
      }
    }
  }
  c->out = c->err = -1;
  int status      = 0;
  assert(waitpid(c->pid, &status, 0) == c->pid);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}
