// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Picture sequences in trouble: a disk that fills in the middle of a
  sequence (a small tmpfs mounted in the work folder, as root) stops the
  render at the frame that did not fit, names its file and number, and
  leaves no part of it and no temporary file; the frames before it are
  complete files (PNG read back by PIL) with their sidecars.
*/

#undef NDEBUG

#define _GNU_SOURCE

#include "support/files.h"
#include "support/picture_job.h"
#include "support/process.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/// Check that folder dir (of the work folder) holds only complete frames
/// (PNG read back whole by PIL) each with its sidecar, n of them, and
/// (contiguous) frames 0 .. n - 1 only.
static void
check_complete(const char* dir, unsigned n, bool contiguous)
{
  char script[640];
  snprintf(script,
           sizeof(script),
           "import os,sys,json\n"
           "from PIL import Image\n"
           "d=sys.argv[1]; names=os.listdir(d)\n"
           "pngs=sorted(x[:-4] for x in names if x.endswith('.png'))\n"
           "assert sorted(names)==sorted([p+'.png' for p in pngs]+"
           "[p+'.json' for p in pngs]), names\n"
           "assert len(pngs)==%u, pngs\n"
           "assert not %d or pngs==['f_%%03d' %% k for k in range(%u)]\n"
           "for p in pngs:\n"
           " Image.open(os.path.join(d,p+'.png')).load()\n"
           " json.load(open(os.path.join(d,p+'.json')))\n",
           n,
           contiguous ? 1 : 0,
           n);
  const char* const   args[] = { "-c", script, p4d_work_path(dir), NULL };
  const P4dProcSetup  how    = { .program = "/usr/bin/python3" };
  const P4dProcResult r      = p4d_proc_run(&how, args);
  if (r.status) {
    fprintf(stderr, "# %s: %s\n", dir, r.err);
  }
  assert(!r.status);
}

/// The number of frames (PNG files) in folder dir of the work folder.
static unsigned
count_frames(const char* dir, unsigned max)
{
  unsigned n = 0U;
  for (unsigned k = 0U; k < max; ++k) {
    char name[64];
    snprintf(name, sizeof(name), "%s/f_%03u.png", dir, k);
    struct stat st;
    n += !stat(p4d_work_path(name), &st);
  }
  return n;
}

static void
test_disk_full(unsigned jobs)
{
  char disk[4096]; // p4d_work_path() rotates its buffers
  snprintf(disk, sizeof(disk), "%s", p4d_work_path("disk"));
  assert(!mkdir(disk, 0700));
  if (mount("p4d-full", disk, "tmpfs", 0UL, "size=96k")) {
    perror("# mount tmpfs (needs root)");
    printf("# disk full mid-sequence: skipped (no tmpfs)\n");
    assert(!rmdir(disk));
    return;
  }
  // 40 frames of 64x64 16-bit PNG (8 KiB each at least) cannot fit.
  const P4dPictureJob job = {
    "disk/f_%03d.png", "png16", 64U, 64U, 10U, 1U, 0.0, 4.0, jobs, 0.0f
  };
  P4dRenderStatus st;
  assert(p4d_picture_render(&job, &st) == P4D_RENDER_ERR_FAILED);
  const unsigned n = count_frames("disk", 40U);
  printf("# disk full, --jobs %u: %s: %s (%u frames written)\n",
         jobs,
         st.culprit,
         st.reason,
         n);
  assert(n > 0U && n < 40U);
  assert(strstr(st.culprit, "disk/f_"));
  assert(strstr(st.reason, "No space left on device (frame "));
  assert(strstr(st.reason, " of 40;"));
  if (jobs == 1U) {
    // One job: the frame that failed is the first one missing.
    char want[32];
    snprintf(want, sizeof(want), "(frame %u of 40", n);
    assert(strstr(st.reason, want));
  }
  check_complete("disk", n, jobs == 1U);
  if (umount(disk)) {
    perror("# umount");
    assert(!"umount");
  }
  assert(!rmdir(disk));
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_picture_reader(argv[1]);
  p4d_work_open("image-safety");
  test_disk_full(1U);
  test_disk_full(2U);
  p4d_work_close();
  return 0;
}
