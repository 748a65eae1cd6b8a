// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Files and the work folder of a test: a fresh folder under /tmp that a
  test fills, counts, inspects and empties again.  It is always under /tmp,
  never under TMPDIR or the build folder, so that another user (nobody) can
  be let in when a case needs one.
*/

#ifndef P4D_TEST_FILES_H
#define P4D_TEST_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/// Read a whole file into a fresh buffer with a terminating zero; its size.
char*
p4d_file_read(const char* path, size_t* size);

/// Write text to a new or truncated file.
void
p4d_file_write(const char* path, const char* text);

/// Copy a regular file, and give the copy mode.
void
p4d_file_copy(const char* from, const char* to, mode_t mode);

/// Remove path and, if it is a folder, everything in it, whatever its modes.
void
p4d_file_remove_tree(const char* path);

/// Create the work folder /tmp/p4d-NAME-XXXXXX (mode 0700); its path.
const char*
p4d_work_open(const char* name);

/// Remove the work folder, which must be empty.
void
p4d_work_close(void);

/// The work folder's absolute path.
const char*
p4d_work_dir(void);

/// The path of name in the work folder (one of four rotating buffers).
const char*
p4d_work_path(const char* name);

/// The number of entries in the work folder.
unsigned
p4d_work_count(void);

/// Remove everything in the work folder.
void
p4d_work_clear(void);

/// Whether name exists in the work folder.
bool
p4d_work_exists(const char* name);

/// Write text to name in the work folder.
void
p4d_work_write(const char* name, const char* text);

/// p4d_file_read() of name in the work folder.
char*
p4d_work_read(const char* name, size_t* size);

/// Whether the files a and b of the work folder hold the same bytes.
bool
p4d_work_same(const char* a, const char* b);

#endif // P4D_TEST_FILES_H
