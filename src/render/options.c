// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _XOPEN_SOURCE 700

#include "options.h"

#include "kind.h"
#include "terrain.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef P4D_VERSION
#  define P4D_VERSION "unknown"
#endif

/// The column at which --help starts the text of each option.
#define HELP_COLUMN 27

typedef enum {
  P4D_OPT_OUTPUT,
  P4D_OPT_INPUT,
  P4D_OPT_PLUGIN,
  P4D_OPT_FORMAT,
  P4D_OPT_FPS,
  P4D_OPT_SIZE,
  P4D_OPT_COMPRESSION,
  P4D_OPT_TERRAIN,
  P4D_OPT_HEIGHT_RANGE,
  P4D_OPT_HEIGHT_UNIT,
  P4D_OPT_PIXEL_SIZE,
  P4D_OPT_HILLSHADE,
  P4D_OPT_LIGHT,
  P4D_OPT_PLOT,
  P4D_OPT_PRESET,
  P4D_OPT_SET,
  P4D_OPT_AUTOMATE,
  P4D_OPT_SEED,
  P4D_OPT_TEMPO,
  P4D_OPT_START,
  P4D_OPT_DURATION,
  P4D_OPT_SAMPLERATE,
  P4D_OPT_CHANNELS,
  P4D_OPT_CHANNEL,
  P4D_OPT_TOLERANCE,
  P4D_OPT_JOBS,
  P4D_OPT_QUIET,
  P4D_OPT_FORCE,
  P4D_OPT_LIST_PARAMS,
  P4D_OPT_LIST_PRESETS,
  P4D_OPT_HELP,
  P4D_OPT_VERSION,
  P4D_N_OPTIONS
} P4dOptionId;

/// What follows an option, checked before the value is stored.
typedef enum {
  P4D_VALUE_NONE,  ///< Nothing: a flag
  P4D_VALUE_TEXT,  ///< Any text
  P4D_VALUE_REAL,  ///< A decimal number in [lo, hi]
  P4D_VALUE_WHOLE, ///< Digits only, in [lo, hi]
} P4dValueKind;

/// One option: its names, its value, and its lines in --help.
typedef struct {
  char         short_name; ///< 'o' for -o, or 0
  P4dValueKind kind;
  const char*  name;       ///< The long name without "--"
  const char*  value_name; ///< The value as --help names it, or NULL
  double       lo;         ///< Range of a number
  double       hi;
  const char*  help; ///< Its help, lines separated by '\n'
} P4dOptionSpec;

/// Every option, in --help order: short name, the value's kind, long name,
/// value name (NULL for a flag), the value's range (checked before it is
/// stored), and the help text.
// clang-format off
static const P4dOptionSpec specs[P4D_N_OPTIONS] = {
  [P4D_OPT_OUTPUT] = {'o', P4D_VALUE_TEXT, "output", "FILE", 0.0, 0.0,
    "file to write: .wav .flac .aiff .csv, keyframes\n"
    ".json .chan .ae, MIDI .mid, pictures .png .exr\n"
    ".r16 .y4m, or -: standard output (--format\n"
    "flac, csv, json, chan, ae, midi or y4m); a\n"
    "picture name with a frame number (f_%05d.png)\n"
    "writes one file per frame"},
  [P4D_OPT_INPUT] = {'i', P4D_VALUE_TEXT, "input", "FILE", 0.0, 0.0,
    "sound file for Motion to process (any format\n"
    "libsndfile reads, mono or stereo): the output\n"
    "has its length and sample rate, in stereo"},
  [P4D_OPT_PLUGIN] = {0, P4D_VALUE_TEXT, "plugin", "noise|mod|motion|image",
    0.0, 0.0, "engine to render (default: image for a\n"
    "picture, else the preset's, else motion with\n"
    "-i, else noise)"},
  [P4D_OPT_FORMAT] = {0, P4D_VALUE_TEXT, "format", "FORMAT", 0.0, 0.0,
    "wav, flac, aiff, csv, json (curves), chan\n"
    "(Nuke), ae (After Effects keyframes), midi,\n"
    "and/or a sample format: pcm16, pcm24, pcm32,\n"
    "float (e.g. wav-pcm24); default: the\n"
    "extension's, WAV float, FLAC and AIFF 24-bit;\n"
    "pictures: png, png16, exr, exr-half, r16, y4m\n"
    "or y4m-420"},
  [P4D_OPT_FPS] = {0, P4D_VALUE_TEXT, "fps", "N", 1.0, 1000.0,
    "rows (CSV, keyframes) or picture frames per\n"
    "second, 1 to 1000, a decimal or a fraction\n"
    "such as 30000/1001 (default 60)"},
  [P4D_OPT_SIZE] = {0, P4D_VALUE_TEXT, "size", "WxH", 1.0, 16384.0,
    "picture size in pixels, each side 1 to 16384,\n"
    "at most 8192x8192 pixels (default 512x512)"},
  [P4D_OPT_COMPRESSION] = {0, P4D_VALUE_WHOLE, "compression", "N", 0.0, 9.0,
    "PNG compression, zlib level 0 to 9 (default 1)"},
  [P4D_OPT_TERRAIN] = {0, P4D_VALUE_TEXT, "terrain", "unity|unreal|godot",
    0.0, 0.0, "a heightmap for the engine: its format (Unity\n"
    ".r16/.raw, Unreal 16-bit .png or .r16, Godot\n"
    ".exr or .r16), a size it accepts, samples on\n"
    "the edges (tiles one scale apart share their\n"
    "edges), linear tone by default"},
  [P4D_OPT_HEIGHT_RANGE] = {0, P4D_VALUE_TEXT, "height-range", "MIN:MAX",
    0.0, 0.0, "heights of level 0 and 65535 (default 0:1)"},
  [P4D_OPT_HEIGHT_UNIT] = {0, P4D_VALUE_TEXT, "height-unit", "UNIT", 0.0, 0.0,
    "unit of the heights and --pixel-size: m, cm,\n"
    "mm, km or ft (default m)"},
  [P4D_OPT_PIXEL_SIZE] = {0, P4D_VALUE_REAL, "pixel-size", "SIZE", 1.0e-6,
    1.0e9, "distance between samples, in the unit\n"
    "(default 1)"},
  [P4D_OPT_HILLSHADE] = {0, P4D_VALUE_TEXT, "hillshade", "FILE.png", 0.0, 0.0,
    "also write the shaded relief of the heights\n"
    "(one picture)"},
  [P4D_OPT_LIGHT] = {0, P4D_VALUE_TEXT, "light", "AZIMUTH,ALTITUDE", 0.0, 0.0,
    "the hillshade's light in degrees, azimuth\n"
    "clockwise from the top (default 315,45)"},
  [P4D_OPT_PLOT] = {0, P4D_VALUE_TEXT, "plot", "FILE.svg", 0.0, 0.0,
    "also draw the channels over time"},
  [P4D_OPT_PRESET] = {0, P4D_VALUE_TEXT, "preset", "NAME", 0.0, 0.0,
    "start from a preset: its label, URI, short\n"
    "name (slow-drift) or a Turtle file (a regular\n"
    "file of at most 1 MiB)"},
  [P4D_OPT_SET] = {0, P4D_VALUE_TEXT, "set", "SYMBOL=VALUE", 0.0, 0.0,
    "set a parameter (see --list-params)"},
  [P4D_OPT_AUTOMATE] = {0, P4D_VALUE_TEXT, "automate", "SYMBOL=T:V,T:V,...",
    0.0, 0.0, "move a parameter along linear ramps through\n"
    "the points (song time T in seconds)"},
  [P4D_OPT_SEED] = {0, P4D_VALUE_WHOLE, "seed", "N", 0.0, 65535.0,
    "the same as --set seed=N"},
  [P4D_OPT_TEMPO] = {0, P4D_VALUE_REAL, "tempo", "BPM", 1.0, 999.0,
    "tempo for clock 1 (song beats), default 120"},
  [P4D_OPT_START] = {0, P4D_VALUE_REAL, "start", "SECONDS", 0.0, 1.0e7,
    "song position of the first frame (default 0)"},
  [P4D_OPT_DURATION] = {0, P4D_VALUE_REAL, "duration", "SECONDS", 0.0, 1.0e7,
    "length of the render (default 10; with -i the\n"
    "input's, and a different one is refused)"},
  [P4D_OPT_SAMPLERATE] = {0, P4D_VALUE_WHOLE, "samplerate", "HZ",
    8000.0, 768000.0, "8000 to 768000 (default 48000; with -i the\n"
    "input's, and a different one is refused)"},
  [P4D_OPT_CHANNELS] = {0, P4D_VALUE_WHOLE, "channels", "N", 1.0, 4.0,
    "write only the first N channels"},
  [P4D_OPT_CHANNEL] = {0, P4D_VALUE_WHOLE, "channel", "K", 1.0, 4.0,
    "write only channel K (not with --channels)"},
  [P4D_OPT_TOLERANCE] = {0, P4D_VALUE_REAL, "tolerance", "T", 0.0, 1.0e9,
    "keyframes and CSV rows: keep only the rows\n"
    "needed for every row at --fps to lie within T\n"
    "(in the curve's units) of the straight line\n"
    "between the kept ones (default 0: every row)"},
  [P4D_OPT_JOBS] = {0, P4D_VALUE_WHOLE, "jobs", "N", 1.0, 64.0,
    "render with N threads (default: the cores)"},
  [P4D_OPT_QUIET] = {0, P4D_VALUE_NONE, "quiet", NULL, 0.0, 0.0,
    "no progress bar"},
  [P4D_OPT_FORCE] = {0, P4D_VALUE_NONE, "force", NULL, 0.0, 0.0,
    "replace FILE (and the plot) if they exist"},
  [P4D_OPT_LIST_PARAMS] = {0, P4D_VALUE_NONE, "list-params", NULL, 0.0, 0.0,
    "print the parameters of the plugin and exit"},
  [P4D_OPT_LIST_PRESETS] = {0, P4D_VALUE_NONE, "list-presets", NULL, 0.0, 0.0,
    "print the presets and exit"},
  [P4D_OPT_HELP] = {0, P4D_VALUE_NONE, "help", NULL, 0.0, 0.0,
    "print this help and exit"},
  [P4D_OPT_VERSION] = {0, P4D_VALUE_NONE, "version", NULL, 0.0, 0.0,
    "print the version and exit"},
};
// clang-format on

static const char* const help_head =
  "Usage: perlin4d-render -o FILE [OPTION]...\n"
  "       perlin4d-render -i INPUT -o FILE [--plugin motion] [OPTION]...\n"
  "       perlin4d-render -o PICTURE.png|.exr|.r16|.y4m [OPTION]...\n"
  "       perlin4d-render --list-params [--plugin noise|mod|motion|image]\n"
  "       perlin4d-render --list-presets\n"
  "Render Perlin4D Noise or Perlin4D Mod to a sound file, CSV curves,\n"
  "keyframes or a MIDI file, or process a sound file through Perlin4D\n"
  "Motion, sample for sample what the plugin plays from the same song\n"
  "position; or render pictures of the Mod's field (images, sequences, a\n"
  "Y4M stream) in sync with the sound.\n"
  "\n";

static const char* const help_tail =
  "\n"
  "--set, --seed and --automate may be given any number of times, with any\n"
  "number of points.  --fps for a sound file and --tempo where no clock\n"
  "counts beats change nothing, and a warning says so.\n"
  "\n"
  "Files are written unnamed and linked into place only when complete:\n"
  "a failed or killed render leaves nothing.  Exit status: 0 on success,\n"
  "1 if rendering or writing failed, 2 for a bad command line.  Errors are\n"
  "one line on stderr.\n";

void
p4d_options_init(P4dOptions* options)
{
  memset(options, 0, sizeof(*options));
  options->fps                = 60.0;
  options->fps_num            = 60U;
  options->fps_den            = 1U;
  options->width              = 512U;
  options->height             = 512U;
  options->compression        = -1;
  options->tempo_bpm          = 120.0;
  options->duration_s         = 10.0;
  options->sample_rate_hz     = 48000.0;
  options->height_max         = 1.0;
  options->height_unit        = "m";
  options->pixel_size         = 1.0;
  options->light_azimuth_deg  = 315.0;
  options->light_altitude_deg = 45.0;

  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  options->n_jobs  = cores < 1 ? 1U : cores > 64 ? 64U : (unsigned)cores;
}

/// True if s is a plain decimal number: [+-]digits[.digits][e[+-]digits].
static bool
is_decimal(const char* s, size_t len)
{
  const char* p   = s;
  const char* end = s + len;
  if (p < end && (*p == '+' || *p == '-')) {
    ++p;
  }

  size_t n_digits = 0U;
  while (p < end && *p >= '0' && *p <= '9') {
    ++p;
    ++n_digits;
  }
  if (p < end && *p == '.') {
    ++p;
    while (p < end && *p >= '0' && *p <= '9') {
      ++p;
      ++n_digits;
    }
  }
  if (!n_digits) {
    return false;
  }

  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end && (*p == '+' || *p == '-')) {
      ++p;
    }
    size_t n_exp = 0U;
    while (p < end && *p >= '0' && *p <= '9') {
      ++p;
      ++n_exp;
    }
    if (!n_exp) {
      return false;
    }
  }
  return p == end;
}

/// Record a value that is refused: a bad command line, its option named
/// by the caller.
static P4dRenderCode
refuse(P4dRenderStatus* status, const char* reason)
{
  return p4d_report_usage(status, NULL, reason);
}

P4dRenderCode
p4d_options_number(const char*      s,
                   size_t           len,
                   double           lo,
                   double           hi,
                   double*          out,
                   P4dRenderStatus* status)
{
  if (!is_decimal(s, len)) {
    return refuse(status, "not a decimal number");
  }

  // strtod needs the number on its own; it may be of any length.
  char  small[64];
  char* buf = len < sizeof(small) ? small : (char*)malloc(len + 1U);
  if (!buf) {
    return refuse(status, strerror(ENOMEM));
  }
  memcpy(buf, s, len);
  buf[len] = '\0';

  errno          = 0;
  const double v = strtod(buf, NULL);
  const int    e = errno;
  if (buf != small) {
    free(buf);
  }
  if (e == ERANGE && fabs(v) > 1.0) {
    return refuse(status, "number out of range");
  }
  if (!(v >= lo && v <= hi)) {
    return refuse(status, "out of range");
  }
  *out = v;
  return P4D_RENDER_SUCCESS;
}

/// Check the value of an option of the given spec; a number goes to *number.
static P4dRenderCode
check_value(const P4dOptionSpec* spec,
            const char*          value,
            double*              number,
            P4dRenderStatus*     status)
{
  const size_t len = strlen(value);
  switch (spec->kind) {
  case P4D_VALUE_REAL:
    return p4d_options_number(value, len, spec->lo, spec->hi, number, status);
  case P4D_VALUE_WHOLE:
    if (!value[0] || strspn(value, "0123456789") != len) {
      return refuse(status, "not a whole number");
    }
    return p4d_options_number(value, len, spec->lo, spec->hi, number, status);
  default:
    return P4D_RENDER_SUCCESS;
  }
}

static uint64_t
gcd64(uint64_t a, uint64_t b)
{
  while (b) {
    const uint64_t r = a % b;
    a                = b;
    b                = r;
  }
  return a;
}

/// Read the whole number of the len digits at s, at most max.
static bool
whole(const char* s, size_t len, uint64_t max, uint64_t* out)
{
  uint64_t v = 0U;
  if (!len) {
    return false;
  }
  for (size_t i = 0U; i < len; ++i) {
    if (s[i] < '0' || s[i] > '9' || v > (max - (uint64_t)(s[i] - '0')) / 10U) {
      return false;
    }
    v = v * 10U + (uint64_t)(s[i] - '0');
  }
  *out = v;
  return true;
}

/**
   Read --fps: a fraction N/D of whole numbers, or a plain decimal (its
   exact value as a fraction: 29.97 is 2997/100), in [lo, hi], into
   o->fps_num / o->fps_den in lowest terms, each below 2^32.
*/
static P4dRenderCode
read_fps(P4dOptions*          o,
         const P4dOptionSpec* spec,
         const char*          value,
         P4dRenderStatus*     status)
{
  const char* const slash = strchr(value, '/');
  uint64_t          num   = 0U;
  uint64_t          den   = 1U;
  if (slash) {
    if (!whole(value, (size_t)(slash - value), UINT32_MAX, &num) ||
        !whole(slash + 1, strlen(slash + 1), UINT32_MAX, &den) || !den) {
      return refuse(status, "not a fraction of whole numbers (30000/1001)");
    }
  } else {
    double              v = 0.0;
    const P4dRenderCode code =
      p4d_options_number(value, strlen(value), spec->lo, spec->hi, &v, status);
    if (code) {
      return code;
    }
    // The digits make the numerator, the decimals and exponent the
    // denominator (the form was checked).
    const char* p   = value + (value[0] == '+');
    int         exp = 0;
    for (; *p && *p != 'e' && *p != 'E'; ++p) {
      if (*p == '.') {
        continue;
      }
      if (num > (UINT64_MAX - 9U) / 10U) {
        return refuse(status, "too many digits (give a fraction N/D)");
      }
      num = num * 10U + (uint64_t)(*p - '0');
      exp -= strchr(value, '.') && p > strchr(value, '.') ? 1 : 0;
    }
    exp += *p ? (int)strtol(p + 1, NULL, 10) : 0;
    for (; exp > 0; --exp) {
      if (num > UINT64_MAX / 10U) {
        return refuse(status, "too many digits (give a fraction N/D)");
      }
      num *= 10U;
    }
    for (; exp < 0; ++exp) {
      if (den > UINT64_MAX / 10U) {
        return refuse(status, "too many digits (give a fraction N/D)");
      }
      den *= 10U;
    }
  }
  const uint64_t g = num ? gcd64(num, den) : 1U;
  num /= g;
  den /= g;
  if (num > UINT32_MAX || den > UINT32_MAX) {
    return refuse(status, "too many digits (give a fraction N/D)");
  }
  const double fps = (double)num / (double)den;
  if (!(fps >= spec->lo && fps <= spec->hi)) {
    return refuse(status, "out of range");
  }
  o->fps     = fps;
  o->fps_num = (uint32_t)num;
  o->fps_den = (uint32_t)den;
  return P4D_RENDER_SUCCESS;
}

/// Read --size WxH: each side in [lo, hi], at most 8192 * 8192 pixels.
static P4dRenderCode
read_size(P4dOptions*          o,
          const P4dOptionSpec* spec,
          const char*          value,
          P4dRenderStatus*     status)
{
  const char* const x = strchr(value, 'x');
  uint64_t          w = 0U;
  uint64_t          h = 0U;
  if (!x || !whole(value, (size_t)(x - value), UINT32_MAX, &w) ||
      !whole(x + 1, strlen(x + 1), UINT32_MAX, &h)) {
    return refuse(status, "expected WIDTHxHEIGHT in pixels (1920x1080)");
  }
  if (w < (uint64_t)spec->lo || h < (uint64_t)spec->lo ||
      w > (uint64_t)spec->hi || h > (uint64_t)spec->hi) {
    return refuse(status, "each side is 1 to 16384 pixels");
  }
  if (w * h > (uint64_t)8192U * 8192U) {
    return refuse(status, "more than 8192x8192 pixels");
  }
  o->width      = (uint32_t)w;
  o->height     = (uint32_t)h;
  o->size_given = true;
  return P4D_RENDER_SUCCESS;
}

/**
   Read two numbers A<sep>B (each a plain decimal in [lo, hi]) into a, b.
*/
static P4dRenderCode
read_pair(const char*      value,
          char             sep,
          double           lo,
          double           hi,
          double*          a,
          double*          b,
          P4dRenderStatus* status)
{
  const char* const mid = strchr(value, sep);
  if (!mid) {
    return refuse(status, sep == ':' ? "expected MIN:MAX" : "expected A,B");
  }
  P4dRenderCode code =
    p4d_options_number(value, (size_t)(mid - value), lo, hi, a, status);
  return code ? code
              : p4d_options_number(mid + 1, strlen(mid + 1), lo, hi, b, status);
}

/// Set the flag of an option that takes no value.
static void
set_flag(P4dOptions* o, P4dOptionId id)
{
  switch (id) {
  case P4D_OPT_QUIET:
    o->quiet = true;
    break;
  case P4D_OPT_FORCE:
    o->force = true;
    break;
  case P4D_OPT_LIST_PARAMS:
    o->list_params = true;
    break;
  case P4D_OPT_LIST_PRESETS:
    o->list_presets = true;
    break;
  case P4D_OPT_HELP:
    o->help = true;
    break;
  case P4D_OPT_VERSION:
    o->version = true;
    break;
  default: // takes a value: see store()
    break;
  }
}

/// Store a checked value (and number, if a number), or refuse it.
static P4dRenderCode
store(P4dOptions*      o,
      P4dOptionId      id,
      const char*      value,
      double           number,
      P4dRenderStatus* status)
{
  switch (id) {
  case P4D_OPT_OUTPUT:
    o->output = value;
    return value[0] ? P4D_RENDER_SUCCESS : refuse(status, "empty file name");
  case P4D_OPT_INPUT:
    o->input = value;
    return value[0] ? P4D_RENDER_SUCCESS : refuse(status, "empty file name");
  case P4D_OPT_PLUGIN:
    o->plugin = value;
    return p4d_kind_by_name(value)
             ? P4D_RENDER_SUCCESS
             : refuse(status, "unknown plugin (noise, mod, motion or image)");
  case P4D_OPT_FORMAT:
    o->format = value;
    return P4D_RENDER_SUCCESS;
  case P4D_OPT_PLOT: {
    const size_t len = strlen(value);
    o->plot          = value;
    return len > 4U && !strcmp(value + len - 4U, ".svg")
             ? P4D_RENDER_SUCCESS
             : refuse(status, "the plot must be a .svg file");
  }
  case P4D_OPT_PRESET:
    o->preset = value;
    return value[0] ? P4D_RENDER_SUCCESS : refuse(status, "empty preset name");
  case P4D_OPT_FPS:
    o->fps_given = true;
    return read_fps(o, &specs[id], value, status);
  case P4D_OPT_SIZE:
    return read_size(o, &specs[id], value, status);
  case P4D_OPT_COMPRESSION:
    o->compression = (int)number;
    return P4D_RENDER_SUCCESS;
  case P4D_OPT_TERRAIN:
    o->terrain = value;
    return p4d_terrain_find(value)
             ? P4D_RENDER_SUCCESS
             : refuse(status, "unknown engine (unity, unreal or godot)");
  case P4D_OPT_HEIGHT_RANGE: {
    const P4dRenderCode code = read_pair(
      value, ':', -1.0e9, 1.0e9, &o->height_min, &o->height_max, status);
    return code || o->height_min <= o->height_max
             ? code
             : refuse(status, "MIN is above MAX");
  }
  case P4D_OPT_HEIGHT_UNIT:
    o->height_unit = value;
    return p4d_terrain_unit_metres(value) > 0.0
             ? P4D_RENDER_SUCCESS
             : refuse(status, "unknown unit (m, cm, mm, km or ft)");
  case P4D_OPT_PIXEL_SIZE:
    o->pixel_size = number;
    return P4D_RENDER_SUCCESS;
  case P4D_OPT_HILLSHADE: {
    const size_t len = strlen(value);
    o->hillshade     = value;
    return len > 4U && !strcmp(value + len - 4U, ".png")
             ? P4D_RENDER_SUCCESS
             : refuse(status, "the hillshade must be a .png file");
  }
  case P4D_OPT_LIGHT: {
    const P4dRenderCode code = read_pair(value,
                                         ',',
                                         -360.0,
                                         360.0,
                                         &o->light_azimuth_deg,
                                         &o->light_altitude_deg,
                                         status);
    return code ||
               (o->light_altitude_deg >= 0.0 && o->light_altitude_deg <= 90.0)
             ? code
             : refuse(status, "the altitude is 0 to 90 degrees");
  }
  case P4D_OPT_TEMPO:
    o->tempo_bpm   = number;
    o->tempo_given = true;
    return P4D_RENDER_SUCCESS;
  case P4D_OPT_START:
    o->start_s = number;
    return P4D_RENDER_SUCCESS;
  case P4D_OPT_DURATION:
    o->duration_s   = number;
    o->duration_arg = value;
    return number > 0.0 ? P4D_RENDER_SUCCESS
                        : refuse(status, "must be greater than 0");
  case P4D_OPT_SAMPLERATE:
    o->sample_rate_hz   = number;
    o->samplerate_given = true;
    return P4D_RENDER_SUCCESS;
  case P4D_OPT_CHANNELS:
    o->n_channels = (unsigned)number;
    return P4D_RENDER_SUCCESS;
  case P4D_OPT_CHANNEL:
    o->channel = (unsigned)number;
    return P4D_RENDER_SUCCESS;
  case P4D_OPT_TOLERANCE:
    o->tolerance       = number;
    o->tolerance_given = true;
    return P4D_RENDER_SUCCESS;
  case P4D_OPT_JOBS:
    o->n_jobs = (unsigned)number;
    return P4D_RENDER_SUCCESS;
  default: // a flag (see set_flag()), or a setting, read from argv later
    return P4D_RENDER_SUCCESS;
  }
}

/// Whether arg is spec's long ("--output") or short ("-o") name.
static bool
names(const char* arg, const P4dOptionSpec* spec)
{
  if (arg[0] != '-') {
    return false;
  }
  if (arg[1] == '-') {
    return !strcmp(arg + 2, spec->name);
  }
  return arg[1] && !arg[2] && arg[1] == spec->short_name;
}

/// The option named by arg, or -1.
static int
find_option(const char* arg)
{
  for (size_t i = 0U; i < P4D_N_OPTIONS; ++i) {
    if (names(arg, &specs[i])) {
      return (int)i;
    }
  }
  return -1;
}

P4dRenderCode
p4d_options_parse(P4dOptions* o, int argc, char** argv, P4dRenderStatus* status)
{
  o->argc = argc;
  o->argv = argv;
  for (int i = 1; i < argc && !o->help && !o->version; ++i) {
    const char* arg = argv[i];
    const int   id  = find_option(arg);
    if (id < 0) {
      return p4d_report_usage(status, arg, "unknown option (see --help)");
    }

    const P4dOptionSpec* spec = &specs[id];
    if (spec->kind == P4D_VALUE_NONE) {
      set_flag(o, (P4dOptionId)id);
      continue;
    }
    if (i + 1 == argc) {
      return p4d_report_usage(status, arg, "missing value");
    }

    const char*   value  = argv[++i];
    double        number = 0.0;
    P4dRenderCode code   = check_value(spec, value, &number, status);
    code = code ? code : store(o, (P4dOptionId)id, value, number, status);
    if (code) {
      return p4d_report_name(status, arg, value);
    }
  }
  return P4D_RENDER_SUCCESS;
}

bool
p4d_options_next_setting(const P4dOptions* o,
                         bool              lanes,
                         int*              pos,
                         P4dSetting*       setting)
{
  for (int i = *pos > 0 ? *pos : 1; i < o->argc; ++i) {
    const int id = find_option(o->argv[i]);
    if (id < 0 || specs[id].kind == P4D_VALUE_NONE || i + 1 >= o->argc) {
      continue; // a flag (parsing refused anything else)
    }
    const bool is_lane    = id == P4D_OPT_AUTOMATE;
    const bool is_setting = id == P4D_OPT_SET || id == P4D_OPT_SEED;
    if (lanes ? is_lane : is_setting) {
      setting->option = o->argv[i];
      setting->value  = o->argv[i + 1];
      *pos            = i + 2;
      return true;
    }
    ++i; // the value, which may look like an option
  }
  *pos = o->argc;
  return false;
}

void
p4d_options_print_help(FILE* stream)
{
  fputs(help_head, stream);
  for (size_t i = 0U; i < P4D_N_OPTIONS; ++i) {
    const P4dOptionSpec* spec = &specs[i];

    int len = spec->short_name
                ? fprintf(stream, "  -%c, --%s", spec->short_name, spec->name)
                : fprintf(stream, "      --%s", spec->name);
    if (spec->value_name) {
      len += fprintf(stream, " %s", spec->value_name);
    }
    // The help starts at its column, after at least two spaces.
    if (len + 2 > HELP_COLUMN) {
      fputc('\n', stream);
      len = 0;
    }
    fprintf(stream, "%*s", HELP_COLUMN - len, "");

    for (const char* c = spec->help; *c; ++c) {
      fputc(*c, stream);
      if (*c == '\n') {
        fprintf(stream, "%*s", HELP_COLUMN, "");
      }
    }
    fputc('\n', stream);
  }
  fputs(help_tail, stream);
}

void
p4d_options_print_version(FILE* stream)
{
  fprintf(stream, "perlin4d-render %s\n", P4D_VERSION);
}
