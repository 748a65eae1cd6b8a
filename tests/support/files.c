// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _XOPEN_SOURCE 700
#undef NDEBUG

#include "files.h"

#include "compare.h"

#include <assert.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char work_dir[64] = "";

char*
p4d_file_read(const char* path, size_t* size)
{
  FILE* f = fopen(path, "rb");
  assert(f);
  assert(!fseek(f, 0, SEEK_END));
  const long end = ftell(f);
  assert(end >= 0L);
  *size = (size_t)end;
  assert(!fseek(f, 0, SEEK_SET));
  char* buf = (char*)malloc(*size + 1U);
  assert(buf && fread(buf, 1U, *size, f) == *size);
  buf[*size] = '\0';
  assert(!fclose(f));
  return buf;
}

void
p4d_file_write(const char* path, const char* text)
{
  FILE* f = fopen(path, "wb");
  assert(f);
  assert(fputs(text, f) >= 0);
  assert(!fclose(f));
}

void
p4d_file_copy(const char* from, const char* to, mode_t mode)
{
  FILE* in  = fopen(from, "rb");
  FILE* out = fopen(to, "wb");
  assert(in && out);
  char   buf[65536];
  size_t n = 0U;
  while ((n = fread(buf, 1U, sizeof(buf), in)) > 0U) {
    assert(fwrite(buf, 1U, n, out) == n);
  }
  assert(!fclose(in));
  assert(!fclose(out));
  assert(!chmod(to, mode));
}

/// Whether folder dir_path holds an entry besides . and ..; if so, its name.
static bool
first_entry(const char* dir_path, char* name, size_t size)
{
  DIR* dir = opendir(dir_path);
  assert(dir);
  struct dirent* e = readdir(dir);
  while (e && (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))) {
    e = readdir(dir);
  }
  const bool found = e != NULL;
  if (found) {
    assert(strlen(e->d_name) < size);
    snprintf(name, size, "%s", e->d_name);
  }
  closedir(dir);
  return found;
}

void
p4d_file_remove_tree(const char* path)
{
  // Depth first without recursion: `at` goes down into a folder while it
  // holds an entry, removes what it reaches that holds none, and goes back
  // up by cutting its last name off, until path itself is gone.
  char         at[1024];
  const size_t root = strlen(path);
  assert(root < sizeof(at));
  memcpy(at, path, root + 1U);
  for (;;) {
    struct stat st;
    assert(!lstat(at, &st));
    if (S_ISDIR(st.st_mode)) {
      // A case may have left it read-only.
      chmod(at, 0700);
      char         name[256];
      const size_t len = strlen(at);
      if (first_entry(at, name, sizeof(name))) {
        assert(len + 1U + strlen(name) < sizeof(at));
        snprintf(at + len, sizeof(at) - len, "/%s", name);
        continue;
      }
      assert(!rmdir(at));
    } else {
      assert(!unlink(at));
    }
    if (strlen(at) == root) {
      return;
    }
    *strrchr(at, '/') = '\0';
  }
}

const char*
p4d_work_open(const char* name)
{
  assert(!work_dir[0]);
  snprintf(work_dir, sizeof(work_dir), "/tmp/p4d-%s-XXXXXX", name);
  assert(mkdtemp(work_dir));
  return work_dir;
}

void
p4d_work_close(void)
{
  assert(!rmdir(work_dir));
  work_dir[0] = '\0';
}

const char*
p4d_work_dir(void)
{
  assert(work_dir[0]);
  return work_dir;
}

const char*
p4d_work_path(const char* name)
{
  static char paths[4][512];
  static int  which = 0;
  which             = (which + 1) % 4;
  snprintf(paths[which], sizeof(paths[0]), "%s/%s", p4d_work_dir(), name);
  return paths[which];
}

unsigned
p4d_work_count(void)
{
  DIR* dir = opendir(p4d_work_dir());
  assert(dir);
  unsigned n = 0U;
  for (struct dirent* e = readdir(dir); e; e = readdir(dir)) {
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  }
  closedir(dir);
  return n;
}

void
p4d_work_clear(void)
{
  DIR* dir = opendir(p4d_work_dir());
  assert(dir);
  for (struct dirent* e = readdir(dir); e; e = readdir(dir)) {
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      p4d_file_remove_tree(p4d_work_path(e->d_name));
    }
  }
  closedir(dir);
}

bool
p4d_work_exists(const char* name)
{
  struct stat st;
  return !stat(p4d_work_path(name), &st);
}

void
p4d_work_write(const char* name, const char* text)
{
  p4d_file_write(p4d_work_path(name), text);
}

char*
p4d_work_read(const char* name, size_t* size)
{
  return p4d_file_read(p4d_work_path(name), size);
}

bool
p4d_work_same(const char* a, const char* b)
{
  return p4d_same_file(p4d_work_path(a), p4d_work_path(b));
}
