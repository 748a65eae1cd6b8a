// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _GNU_SOURCE // O_TMPFILE, AT_EMPTY_PATH, renameat2

#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/// Room for a folder name (realpath() needs PATH_MAX).
#define FOLDER_BYTES 4096U

/// The temporary names: ".p4d-" and six letters, 11 bytes, so that they
/// fit in any folder where the output's own name fits.
#define HIDDEN_STEM ".p4d-"
#define HIDDEN_LETTERS 6U

/// Tries at a free hidden name before giving up.
#define HIDDEN_TRIES 100

/// Says to write through a named temporary file even where O_TMPFILE works,
/// as on a filesystem without it (for the tests of that path).
#define NO_TMPFILE_ENV "P4D_NO_TMPFILE"

bool
p4d_atomic_is_stream(const char* path)
{
  return !strcmp(path, "-");
}

/// Copy the folder part of path into dir ("." if none, "/" for a file in
/// the root) and point name at the rest; false if the folder is too long.
static bool
split_path(const char* path, char dir[FOLDER_BYTES], const char** name)
{
  const char*  slash = strrchr(path, '/');
  const size_t len   = slash ? (size_t)(slash - path) : 0U;
  if (len >= FOLDER_BYTES) {
    return false;
  }
  memcpy(dir, slash ? path : ".", slash ? (len ? len : 1U) : 1U);
  dir[slash ? (len ? len : 1U) : 1U] = '\0';
  *name                              = slash ? slash + 1 : path;
  return true;
}

/// A fresh copy of s, or NULL.
static char*
copy_string(const char* s)
{
  const size_t size = strlen(s) + 1U;
  char* const  copy = (char*)malloc(size);
  return copy ? (char*)memcpy(copy, s, size) : NULL;
}

/// Make a new hidden name in the folder of path, its letters still "XXXXXX"
/// (mkstemp's template); NULL if out of memory.
static char*
hidden_name(const char* path)
{
  char        dir[FOLDER_BYTES];
  const char* name = NULL;
  if (!split_path(path, dir, &name)) {
    return NULL;
  }
  const size_t size = strlen(dir) + sizeof("/" HIDDEN_STEM "XXXXXX");
  char* const  temp = (char*)malloc(size);
  if (temp) {
    snprintf(temp, size, "%s/%sXXXXXX", dir, HIDDEN_STEM);
  }
  return temp;
}

/// Replace the last HIDDEN_LETTERS characters of temp by letters that
/// differ from call to call and from process to process.
static void
pick_letters(char* temp)
{
  static const char letters[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  static uint64_t counter = 0U;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  // A 64-bit mix (splitmix64) of the time, the process and a counter.
  uint64_t x = (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 30U) ^
               ((uint64_t)getpid() << 40U) ^ ++counter * 0x9E3779B97F4A7C15U;
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9U;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBU;
  x ^= x >> 31U;
  char* const end = temp + strlen(temp);
  for (char* c = end - HIDDEN_LETTERS; c < end; ++c) {
    *c = letters[x % (sizeof(letters) - 1U)];
    x /= sizeof(letters) - 1U;
  }
}

/// Give the unnamed file fd the name to; fails (EEXIST) if it is taken.
static int
link_fd(int fd, const char* to)
{
  char from[64];
  snprintf(from, sizeof(from), "/proc/self/fd/%d", fd);
  if (!linkat(AT_FDCWD, from, AT_FDCWD, to, AT_SYMLINK_FOLLOW)) {
    return 0;
  }
  // Without /proc, by the descriptor itself (Linux 6.10, or a privilege).
  if (errno == ENOENT && access("/proc/self/fd", F_OK)) {
    return linkat(fd, "", AT_FDCWD, to, AT_EMPTY_PATH);
  }
  return -1;
}

/// Give the named file from the name to as well; fails (EEXIST) if it is
/// taken.  Where the filesystem has no hard links, move it instead (then
/// from is gone), refusing an existing name as the kernel allows.
static int
link_name(const char* from, const char* to)
{
  if (!link(from, to)) {
    return 0;
  }
  if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS) {
    return -1;
  }
  if (!renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE)) {
    return 0;
  }
  if (errno != EINVAL && errno != ENOSYS) {
    return -1;
  }
  // Neither: the check and the rename are two steps, as on any filesystem
  // of old.
  struct stat st;
  if (!lstat(to, &st)) {
    errno = EEXIST;
    return -1;
  }
  return rename(from, to);
}

/// Record the failure of file, named by its path.
static P4dRenderCode
fail(const P4dAtomicFile* file, const char* reason, P4dRenderStatus* status)
{
  return p4d_report_failure(status, file->path, reason);
}

P4dRenderCode
p4d_atomic_open(P4dAtomicFile*   file,
                const char*      path,
                bool             force,
                P4dRenderStatus* status)
{
  memset(file, 0, sizeof(*file));
  file->path  = path;
  file->fd    = -1;
  file->force = force;
  if (p4d_atomic_is_stream(path)) {
    file->stream = true;
    file->fd     = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    return file->fd < 0 ? fail(file, strerror(errno), status)
                        : P4D_RENDER_SUCCESS;
  }

  char        dir[FOLDER_BYTES];
  const char* name = NULL;
  // The path itself: a symbolic link there is replaced, never written
  // through (the Ardour script's folder, or any other, may hold a link
  // planted by another user).
  file->final = copy_string(path);
  if (!file->final) {
    return fail(file, strerror(ENOMEM), status);
  }
  if (!split_path(file->final, dir, &name)) {
    return fail(file, strerror(ENAMETOOLONG), status);
  }

  // O_TMPFILE applies the umask to 0666, as for any new file.
  if (!getenv(NO_TMPFILE_ENV)) {
    file->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
    if (file->fd >= 0) {
      return P4D_RENDER_SUCCESS;
    }
    // The filesystem (or an old kernel) has no O_TMPFILE.
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
      return fail(file, strerror(errno), status);
    }
  }

  file->temp = hidden_name(file->final);
  if (!file->temp) {
    return fail(file, strerror(ENOMEM), status);
  }
  const mode_t mask = umask(0);
  umask(mask);
  file->fd = mkstemp(file->temp);
  if (file->fd < 0) {
    const char* const reason = strerror(errno);
    free(file->temp);
    file->temp = NULL;
    return fail(file, reason, status);
  }

  // mkstemp() makes the file private; give it the mode a new file gets.
  return fchmod(file->fd, 0666 & ~mask) ? fail(file, strerror(errno), status)
                                        : P4D_RENDER_SUCCESS;
}

/// Check that what is at the file's final path may be replaced.
static P4dRenderCode
check_replaceable(const P4dAtomicFile* file, P4dRenderStatus* status)
{
  struct stat st;
  if (lstat(file->final, &st) || S_ISREG(st.st_mode)) {
    return P4D_RENDER_SUCCESS;
  }
  if (S_ISLNK(st.st_mode) && (stat(file->final, &st) || S_ISREG(st.st_mode))) {
    return P4D_RENDER_SUCCESS; // the link is replaced, not what it points to
  }
  return fail(
    file, S_ISDIR(st.st_mode) ? "is a folder" : "not a regular file", status);
}

P4dRenderCode
p4d_atomic_commit(P4dAtomicFile* file, P4dRenderStatus* status)
{
  if (file->stream) {
    return P4D_RENDER_SUCCESS;
  }

  if (!file->force) {
    if (file->temp ? link_name(file->temp, file->final)
                   : link_fd(file->fd, file->final)) {
      return fail(file,
                  errno == EEXIST ? "exists (use --force to replace it)"
                                  : strerror(errno),
                  status);
    }
    file->created = true;
    if (file->temp) {
      unlink(file->temp); // gone already if it was moved
      free(file->temp);
      file->temp = NULL;
    }
    return P4D_RENDER_SUCCESS;
  }

  // Replace in one step: a hidden name first, then rename over the target.
  if (!file->temp) {
    char* const temp = hidden_name(file->final);
    if (!temp) {
      return fail(file, strerror(ENOMEM), status);
    }
    int failed = -1;
    for (int tries = 0; failed && tries < HIDDEN_TRIES; ++tries) {
      pick_letters(temp);
      failed = link_fd(file->fd, temp);
      if (failed && errno != EEXIST) {
        break;
      }
    }
    if (failed) {
      const char* const reason = strerror(errno);
      free(temp);
      return fail(file, reason, status);
    }
    file->temp = temp;
  }

  const P4dRenderCode code = check_replaceable(file, status);
  if (code) {
    return code;
  }
  if (rename(file->temp, file->final)) {
    return fail(file, strerror(errno), status);
  }
  free(file->temp);
  file->temp = NULL;
  return P4D_RENDER_SUCCESS;
}

void
p4d_atomic_undo(P4dAtomicFile* file)
{
  struct stat ours;
  struct stat there;
  if (file->created && file->fd >= 0 && !fstat(file->fd, &ours) &&
      !lstat(file->final, &there) && ours.st_dev == there.st_dev &&
      ours.st_ino == there.st_ino) {
    unlink(file->final);
  }
  file->created = false;
}

bool
p4d_atomic_discard(P4dAtomicFile* file, P4dRenderStatus* status)
{
  if (file->fd >= 0) {
    close(file->fd);
    file->fd = -1;
  }
  if (file->temp && unlink(file->temp) && errno != ENOENT) {
    if (status) {
      p4d_report_left_behind(status, file->temp);
    }
    return false;
  }
  free(file->temp);
  file->temp = NULL;
  return true;
}

void
p4d_atomic_free(P4dAtomicFile* file)
{
  p4d_atomic_discard(file, NULL);
  free(file->temp);
  free(file->final);
  file->temp  = NULL;
  file->final = NULL;
}

/// The folder part of path ("." if none) exists.
static bool
parent_exists(const char* path)
{
  char        dir[FOLDER_BYTES];
  const char* name = NULL;
  struct stat st;
  return split_path(path, dir, &name) && !stat(dir, &st) && S_ISDIR(st.st_mode);
}

/// Check that path can be a name on this system (is not too long).
static P4dRenderCode
check_length(const char* path, P4dRenderStatus* status)
{
  if (strlen(path) >= PATH_MAX) {
    return p4d_report_usage(status, path, "path too long (at most 4095 bytes)");
  }
  char        dir[FOLDER_BYTES];
  const char* name = NULL;
  const bool  ok   = split_path(path, dir, &name);
  const long  max  = ok ? pathconf(dir, _PC_NAME_MAX) : -1L;
  for (const char* p = path; *p;) {
    const char* const slash = strchr(p, '/');
    const size_t      len   = slash ? (size_t)(slash - p) : strlen(p);
    if (len > NAME_MAX || (!slash && max > 0L && len > (size_t)max)) {
      return p4d_report_usage(status, path, "file name too long");
    }
    p += len + (slash ? 1U : 0U);
  }
  return P4D_RENDER_SUCCESS;
}

/// The folder (resolved) and name of path, and through a link to an
/// existing file, of that file; false if the folder cannot be resolved.
static bool
locate(const char* path, char dir[PATH_MAX], const char** name, char** real)
{
  struct stat st;
  char        folder[FOLDER_BYTES];
  *real = NULL;
  if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
    *real = realpath(path, NULL);
  }
  const char* const where = *real ? *real : path;
  return split_path(where, folder, name) && realpath(folder, dir);
}

bool
p4d_atomic_same_file(const char* a, const char* b)
{
  char        dirs[2][PATH_MAX];
  const char* names[2] = { NULL, NULL };
  char*       real[2]  = { NULL, NULL };
  const bool  found    = locate(a, dirs[0], &names[0], &real[0]) &&
                     locate(b, dirs[1], &names[1], &real[1]);
  const bool same =
    found && !strcmp(dirs[0], dirs[1]) && !strcmp(names[0], names[1]);
  free(real[0]);
  free(real[1]);
  return same;
}

/// Whether the file described by target is one of inputs.
static bool
is_input(const struct stat* target, const char* const* inputs)
{
  for (const char* const* input = inputs; *input; ++input) {
    struct stat in;
    if (!stat(*input, &in) && in.st_dev == target->st_dev &&
        in.st_ino == target->st_ino) {
      return true;
    }
  }
  return false;
}

/// Refuse a standard output opened on an input (-o - 1<>in.wav, >> in.flac).
static P4dRenderCode
check_stdout(const char* const* inputs, P4dRenderStatus* status)
{
  struct stat out;
  if (!fstat(STDOUT_FILENO, &out) && is_input(&out, inputs)) {
    return p4d_report_usage(
      status, "-o -", "standard output is an input of this render");
  }
  return P4D_RENDER_SUCCESS;
}

P4dRenderCode
p4d_atomic_check_target(const char*        path,
                        const char* const* inputs,
                        bool               force,
                        P4dRenderStatus*   status)
{
  if (p4d_atomic_is_stream(path)) {
    return check_stdout(inputs, status);
  }
  const P4dRenderCode code = check_length(path, status);
  if (code) {
    return code;
  }
  if (!parent_exists(path)) {
    return p4d_report_usage(status, path, "folder does not exist");
  }

  struct stat target;
  if (lstat(path, &target)) {
    return P4D_RENDER_SUCCESS; // nothing there (else opening it says why)
  }
  if (stat(path, &target)) {
    return force ? P4D_RENDER_SUCCESS
                 : p4d_report_usage(status,
                                    path,
                                    "is a dangling symbolic link (use --force "
                                    "to replace it)");
  }
  if (S_ISDIR(target.st_mode)) {
    return p4d_report_usage(status, path, "is a folder");
  }
  if (!S_ISREG(target.st_mode)) {
    return p4d_report_usage(status, path, "not a regular file");
  }
  if (is_input(&target, inputs)) {
    return p4d_report_usage(status, path, "is an input of this render");
  }
  if (!force) {
    return p4d_report_usage(status, path, "exists (use --force to replace it)");
  }
  return P4D_RENDER_SUCCESS;
}
