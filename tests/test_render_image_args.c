// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's picture options from the command line: --size,
  rational and decimal --fps, --compression, frame names, folders, a
  plugin that renders no pictures, formats that cannot stream; each bad
  value refused with one line and exit status 2, nothing written.
*/

#undef NDEBUG

#include "support/cli.h"
#include "support/files.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char* args[P4D_PROC_MAX_ARGS];
  int         status;
  const char* message;
} Case;

static const Case refusals[] = {
  { { "-o", "a.png", "--size", "0x0" }, 2, "--size '0x0': each side is 1" },
  { { "-o", "a.png", "--size", "65536x65536" },
    2,
    "--size '65536x65536': each side is 1" },
  { { "-o", "a.png", "--size", "16385x1" }, 2, "--size '16385x1': each side" },
  { { "-o", "a.png", "--size", "16384x8192" },
    2,
    "--size '16384x8192': more than 8192x8192 pixels" },
  { { "-o", "a.png", "--size", "512" }, 2, "--size '512': expected WIDTHx" },
  { { "-o", "a.png", "--size", "x512" }, 2, "--size 'x512': expected" },
  { { "-o", "a.png", "--size", "-5x5" }, 2, "--size '-5x5': expected" },
  { { "-o", "a.png", "--size", "99999999999999999999x1" },
    2,
    "--size '99999999999999999999x1': expected" },
  { { "-o", "a.png", "--fps", "30000/0" },
    2,
    "--fps '30000/0': not a fraction" },
  { { "-o", "a.png", "--fps", "1/1001" }, 2, "--fps '1/1001': out of range" },
  { { "-o", "a.png", "--fps", "30/1/1" }, 2, "--fps '30/1/1': not a fraction" },
  { { "-o", "a.png", "--fps", "0x1E" }, 2, "--fps '0x1E': not a decimal" },
  { { "-o", "a.png", "--fps", "29.970000000000000000001" },
    2,
    "--fps '29.970000000000000000001': too many digits" },
  { { "-o", "a.png", "--fps", "nan" }, 2, "--fps 'nan': not a decimal" },
  { { "-o", "a.png", "--compression", "10" },
    2,
    "--compression '10': out of range" },
  { { "-o", "a.png", "--compression", "-1" },
    2,
    "--compression '-1': not a whole" },
  { { "-o", "a_%d_%d.png" }, 2, "-o 'a_%d_%d.png': more than one frame" },
  { { "-o", "a_%n.png" }, 2, "-o 'a_%n.png': a frame number is %d" },
  { { "-o", "a_%s.png" }, 2, "-o 'a_%s.png': a frame number is %d" },
  { { "-o", "a_%03d.y4m" }, 2, "-o 'a_%03d.y4m': y4m holds every frame" },
  { { "-o", "missing/f_%03d.png" },
    2,
    "missing/f_000.png: folder does not exist" },
  { { "-o", "a.png", "--plugin", "mod" },
    2,
    "-o 'a.png': Perlin4D Mod renders no pictures" },
  { { "-o", "a.wav", "--plugin", "image" },
    2,
    "-o 'a.wav': Perlin4D Image renders pictures only" },
  { { "-o", "-", "--format", "png" }, 2, "--format 'png': cannot be written" },
  { { "-o", "a.exr", "--format", "exr-pcm16" },
    2,
    "--format 'exr-pcm16': this container" },
};

/// CSV rows at a rational rate: row k at k 1001/30000 s.
static void
test_csv_rational(void)
{
  const char* const args[] = { "-o",         "r.csv", "--plugin",
                               "mod",        "--fps", "30000/1001",
                               "--duration", "1",     NULL };
  p4d_cli_ok(args, NULL);
  size_t      size = 0U;
  char* const text = p4d_work_read("r.csv", &size);
  // 1 s at 29.97 rows a second: rows 0 .. 29; row 29 at 0.967633 s.
  assert(p4d_count_lines(text) == 31U);
  assert(strstr(text, "\n0.967633,"));
  free(text);
  p4d_work_clear();

  const char* const decimal[] = { "-o",         "d.csv", "--plugin",
                                  "mod",        "--fps", "29.97",
                                  "--duration", "1",     NULL };
  p4d_cli_ok(decimal, NULL);
  p4d_work_clear();
  printf("# --fps 30000/1001 and 29.97 for CSV rows\n");
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_cli_open(argv[1], "image-args");
  for (size_t i = 0U; i < sizeof(refusals) / sizeof(refusals[0]); ++i) {
    p4d_cli_refused(
      refusals[i].args, refusals[i].status, refusals[i].message, 0U);
  }
  printf("# %zu refusals, one line each, nothing written\n",
         sizeof(refusals) / sizeof(refusals[0]));
  test_csv_rational();
  p4d_cli_close();
  return 0;
}
