// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _XOPEN_SOURCE 700

#include "atomic_file.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// Room for a folder name (realpath() needs PATH_MAX).
#define FOLDER_BYTES 4096U

const char*
p4d_atomic_open(P4dAtomicFile* file, const char* path)
{
  static const char suffix[] = ".tmp-XXXXXX";
  const size_t      len      = strlen(path);

  file->path = path;
  file->fd   = -1;
  file->temp = (char*)malloc(len + sizeof(suffix));
  if (!file->temp) {
    return strerror(ENOMEM);
  }
  memcpy(file->temp, path, len);
  memcpy(file->temp + len, suffix, sizeof(suffix));

  const mode_t mask = umask(0);
  umask(mask);
  file->fd = mkstemp(file->temp);
  if (file->fd < 0) {
    free(file->temp);
    file->temp = NULL;
    return strerror(errno);
  }

  // mkstemp() makes the file private; give it the mode a new file gets.
  if (fchmod(file->fd, 0666 & ~mask)) {
    const char* reason = strerror(errno);
    p4d_atomic_discard(file);
    return reason;
  }
  return NULL;
}

const char*
p4d_atomic_commit(P4dAtomicFile* file)
{
  if (rename(file->temp, file->path)) {
    return strerror(errno);
  }
  free(file->temp);
  file->temp = NULL;
  return NULL;
}

void
p4d_atomic_discard(P4dAtomicFile* file)
{
  if (file->fd >= 0) {
    close(file->fd);
    file->fd = -1;
  }
  if (file->temp) {
    unlink(file->temp);
    free(file->temp);
    file->temp = NULL;
  }
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

/// The folder part of path ("." if none) exists.
static bool
parent_exists(const char* path)
{
  char        dir[FOLDER_BYTES];
  const char* name = NULL;
  struct stat st;
  return split_path(path, dir, &name) && !stat(dir, &st) && S_ISDIR(st.st_mode);
}

bool
p4d_atomic_same_file(const char* a, const char* b)
{
  char        dirs[2][PATH_MAX];
  const char* names[2];
  const char* paths[2] = { a, b };
  for (unsigned i = 0U; i < 2U; ++i) {
    char dir[FOLDER_BYTES];
    if (!split_path(paths[i], dir, &names[i]) || !realpath(dir, dirs[i])) {
      return false;
    }
  }
  return !strcmp(dirs[0], dirs[1]) && !strcmp(names[0], names[1]);
}

P4dRenderCode
p4d_atomic_check_target(const char*      path,
                        const char*      input,
                        bool             force,
                        P4dRenderStatus* status)
{
  struct stat target;
  if (!parent_exists(path)) {
    return p4d_report_usage(status, path, "folder does not exist");
  }
  if (!stat(path, &target)) {
    if (S_ISDIR(target.st_mode)) {
      return p4d_report_usage(status, path, "is a folder");
    }
    struct stat in;
    if (input && !stat(input, &in) && in.st_dev == target.st_dev &&
        in.st_ino == target.st_ino) {
      return p4d_report_usage(status, path, "is an input of this render");
    }
    if (!force) {
      return p4d_report_usage(status, path, "exists (use --force to replace)");
    }
  }
  return P4D_RENDER_SUCCESS;
}
