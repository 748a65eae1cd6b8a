// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  perlin4d-render's pictures from the command line: an image output
  implies --plugin image (the refusals are test_render_image_args'); a
  sequence at a rational rate; a progress bar on a terminal only; SIGTERM
  in the middle of a sequence leaves no partial file; and a Y4M stream
  piped into ffmpeg with the WAV of the same song makes an MP4 whose video
  and audio streams have the song's length (ffprobe).
*/

#undef NDEBUG

#include "support/cli.h"
#include "support/files.h"
#include "support/process.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A picture from the command line: an image output implies the engine.
static void
test_implied(void)
{
  const char* const args[] = { "-o",     "a.png", "--size",  "40x30",
                               "--seed", "3",     "--quiet", NULL };
  p4d_cli_ok(args, NULL);
  const char* const script =
    "import sys,json\n"
    "from PIL import Image\n"
    "im=Image.open(sys.argv[1]); assert im.size==(40,30), im.size\n"
    "d=json.load(open(sys.argv[2])); assert d['settings']['seed']==3\n"
    "assert d['width']==40 and d['frame']==0 and d['song_s']==0\n";
  const char* const py[] = {
    "-c", script, p4d_work_path("a.png"), p4d_work_path("a.json"), NULL
  };
  const P4dProcSetup  how = { .program = "/usr/bin/python3" };
  const P4dProcResult r   = p4d_proc_run(&how, py);
  if (r.status) {
    fprintf(stderr, "# %s\n", r.err);
  }
  assert(!r.status);

  // No clobbering: the picture or its sidecar exists.
  p4d_cli_refused(args, 2, "a.png: exists", 2U);
  assert(!remove(p4d_work_path("a.png")));
  p4d_cli_refused(args, 2, "a.json: exists", 1U);
  p4d_work_clear();
  printf("# -o a.png: the Image engine, 40x30, its sidecar; no clobbering\n");
}

/// Options that change nothing say so: --size for a sound file,
/// --duration for a single picture.
static void
test_warnings(void)
{
  static const struct {
    const char* args[8];
    const char* warning;
  } cases[] = {
    { { "-o", "a.wav", "--size", "64x64", "--duration", "0.1" },
      "warning: --size: ignored: only pictures have a size" },
    { { "-o", "a.png", "--size", "8x8", "--duration", "2" },
      "warning: --duration: ignored: one picture, at --start" },
  };
  for (size_t i = 0U; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const P4dProcResult r = p4d_cli_run(cases[i].args, P4D_PROC_PLAIN);
    assert(!r.status && strstr(r.err, cases[i].warning));
    assert(p4d_count_lines(r.err) == 1U);
    p4d_work_clear();
  }
  printf("# --size for sound, --duration for one picture: a warning\n");
}

/// A sequence at 30000/1001 for 0.2 s: frames 0 .. 5, named f_00000.png
/// on.
static void
test_sequence(void)
{
  const char* const args[] = { "-o",      "f_%05d.png", "--size",     "16x16",
                               "--fps",   "30000/1001", "--duration", "0.2",
                               "--start", "1",          NULL };
  p4d_cli_ok(args, NULL);
  assert(p4d_work_count() == 12U);
  assert(p4d_work_exists("f_00000.png") && p4d_work_exists("f_00005.json"));
  size_t      size = 0U;
  char* const json = p4d_work_read("f_00005.json", &size);
  // 1 + 5 1001/30000 s
  assert(strstr(json, "\"song_s\": 1.1668333333333334"));
  assert(strstr(json, "\"fps\": \"30000/1001\""));
  free(json);
  p4d_work_clear();
  printf("# f_%%05d.png at 30000/1001 from 1 s: 6 frames, frame 5 at "
         "1.1668333333333334 s\n");
}

/// The progress bar: on a terminal, not with --quiet, never on a pipe.
static void
test_progress(void)
{
  const char* const   args[] = { "-o", "p_%02d.png", "--size", "16x16", "--fps",
                                 "10", "--duration", "1",      NULL };
  const P4dProcResult bar    = p4d_cli_run(args, P4D_PROC_STDERR_TTY);
  assert(!bar.status && strstr(bar.err, "100% (10/10 frames)"));
  p4d_work_clear();
  const P4dProcResult piped = p4d_cli_run(args, P4D_PROC_PLAIN);
  assert(!piped.status && !piped.err[0]);
  p4d_work_clear();
  printf("# a progress bar on a terminal only\n");
}

/// SIGTERM in the middle of a sequence: exit 1, no partial file, no
/// temporary name; the frames in place are whole.
static void
test_sigterm(void)
{
  const char* const args[] = { "-o",     "t_%04d.exr", "--size",     "256x256",
                               "--fps",  "60",         "--duration", "60",
                               "--jobs", "2",          NULL };
  const P4dProcResult r    = p4d_cli_run(args, P4D_PROC_SIGTERM);
  assert(r.status == 1 && strstr(r.err, "interrupted by SIGTERM"));
  assert(p4d_count_lines(r.err) == 1U);
  char     names[8192];
  unsigned n = p4d_cli_names("", names, sizeof(names));
  assert(!strstr(names, ".p4d-") && n % 2U == 0U);
  printf("# SIGTERM mid-sequence: exit 1, %u complete files left, no "
         "temporary: %s\n",
         n,
         r.err);
  p4d_work_clear();
}

/// Run a shell command line in the work folder; its result.
static P4dProcResult
shell(const char* line)
{
  const char* const args[] = { "-c", line, NULL };
  P4dProcSetup      how    = p4d_cli_setup();
  how.program              = "/bin/sh";
  return p4d_proc_run(&how, args);
}

/// Automation is read at each frame's song time: frame 1 of a sequence
/// whose scale ramps from 4 to 10 over 0.3 s is the picture at 0.1 s with
/// scale 6, byte for byte.
static void
test_automation(void)
{
  const char* const seq[] = {
    "-o", "a_%d.png",   "--size", "32x32",      "--fps",
    "10", "--duration", "0.3",    "--automate", "scale=0:4,0.3:10",
    NULL
  };
  const char* const one[] = { "-o",  "s.png", "--size",  "32x32", "--start",
                              "0.1", "--set", "scale=6", NULL };
  p4d_cli_ok(seq, NULL);
  p4d_cli_ok(one, NULL);
  assert(p4d_work_same("a_1.png", "s.png"));
  assert(!p4d_work_same("a_0.png", "s.png"));
  size_t      size = 0U;
  char* const json = p4d_work_read("a_2.json", &size);
  assert(strstr(json, "\"scale\": 8,")); // 4 + 6 (0.2 / 0.3)
  free(json);
  p4d_work_clear();
  printf("# --automate read at each frame's song time\n");
}

/// A reader of the stream that goes away: the render ends quietly by
/// SIGPIPE, as filters do.
static void
test_sigpipe(void)
{
  char line[1024];
  snprintf(line,
           sizeof(line),
           "('%s' -o - --format y4m --size 320x240 --duration 60 --quiet; "
           "echo $? >status) | head -c 1000 >/dev/null",
           p4d_cli_render());
  const P4dProcResult r      = shell(line);
  size_t              size   = 0U;
  char* const         status = p4d_work_read("status", &size);
  assert(!r.status && !r.err[0] && !strcmp(status, "141\n"));
  free(status);
  p4d_work_clear();
  printf("# y4m to a reader that goes away: ends quietly by SIGPIPE (141)\n");
}

/// The README's music video: a Y4M stream into ffmpeg with the song's WAV.
static void
test_mux(void)
{
  char line[2048];
  snprintf(line,
           sizeof(line),
           "'%s' --plugin noise -o song.wav --duration 2 --quiet && "
           "'%s' -o - --format y4m --size 64x48 --fps 25 --duration 2 --quiet "
           "| ffmpeg -v error -i - -i song.wav -c:v mpeg4 -c:a aac "
           "-shortest video.mp4 && "
           "ffprobe -v error -show_entries stream=codec_type,duration "
           "-of csv=p=0 video.mp4",
           p4d_cli_render(),
           p4d_cli_render());
  const P4dProcResult r = shell(line);
  if (r.status) {
    fprintf(stderr, "# %s\n", r.err);
  }
  assert(!r.status);
  // "video,2.000000" and "audio,2.0xxxxx" (AAC pads to its frame).
  double video = 0.0;
  double audio = 0.0;
  for (const char* l = r.out; *l;) {
    if (!strncmp(l, "video,", 6U)) {
      video = strtod(l + 6, NULL);
    } else if (!strncmp(l, "audio,", 6U)) {
      audio = strtod(l + 6, NULL);
    }
    const char* const end = strchr(l, '\n');
    l                     = end ? end + 1 : l + strlen(l);
  }
  printf(
    "# y4m | ffmpeg with song.wav: video %g s, audio %g s\n", video, audio);
  assert(video > 1.95 && video < 2.05);
  assert(audio > 1.95 && audio < 2.05);
  p4d_work_clear();
}

int
main(int argc, char** argv)
{
  assert(argc == 2);
  p4d_cli_open(argv[1], "image-cli");
  test_implied();
  test_warnings();
  test_sequence();
  test_progress();
  test_sigterm();
  test_automation();
  test_sigpipe();
  test_mux();
  p4d_cli_close();
  return 0;
}
