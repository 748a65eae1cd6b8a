// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The one interface of perlin4d-render's output formats.  Each format is a
  const P4dWriterClass: its names (for --format and the file extension),
  what it can do (stream to "-", print to a terminal, write rows at --fps,
  be the --plot), its variants (a sound file's sample formats), and its
  operations: open on an atomic file, write blocks of frames, finish, close.
  Each lives in a file named for what it writes (write_sound.c, write_csv.c,
  write_svg.c, write_png.c, write_exr.c, write_r16.c, write_y4m.c,
  write_json.c, write_ae.c, write_chan.c; the row writers share keys.h); a
  sound or text writer takes blocks of frames (write()), a picture writer
  pictures (write_picture()).  writers.c holds the one list they are chosen
  from.  Code outside the writers never asks which format it has: it reads the
  class.

  Adding a format: one write_<what>.c defining its class, its declaration
  below, one line in the list of writers.c, one line in meson.build.
*/

#ifndef P4D_WRITERS_H
#define P4D_WRITERS_H

#include "atomic_file.h"
#include "plan.h"
#include "report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Where a format may be asked for.
typedef enum {
  P4D_WRITER_OUTPUT = 1U << 0U, ///< -o FILE (by extension or --format)
  P4D_WRITER_PLOT   = 1U << 1U, ///< --plot FILE
} P4dWriterRole;

/// A variant of a format: --format NAME-VARIANT, or VARIANT alone.
typedef struct {
  const char* name; ///< "pcm16"
  int         code; ///< What the writer makes of it (a libsndfile subtype)
} P4dWriterVariant;

/**
   Colour n tones as display (gamma-encoded) values in [0, 1], rgb[3 i + c]
   for channel c of tone i: the palette of the frame ctx.
*/
typedef void (*P4dPictureColour)(const void*  ctx,
                                 const float* tone,
                                 float*       rgb,
                                 size_t       n);

/// A frame of pictures, as the picture writers are handed it: rows from
/// the top, width floats each.
typedef struct {
  uint32_t         width;
  uint32_t         height;
  int64_t          frame;      ///< Its number n in the render, from 0
  bool             grey;       ///< One channel, else the palette's colour
  const float*     value;      ///< The field's value (unclamped), or NULL
  const float*     tone;       ///< The tone in [0, 1]
  P4dPictureColour colour;     ///< The palette (see above)
  const void*      colour_ctx; ///< Its frame
} P4dPicture;

/// What the writers know of the render.
typedef struct {
  unsigned           n_channels; ///< Channels written
  double             sample_rate_hz;
  int64_t            start_frame; ///< Song frame of the first frame
  int64_t            n_frames;    ///< Frames of the whole render
  double             fps;         ///< Rows per second (writers with rows)
  int                variant;     ///< The variant's code, or 0
  const char* const* names; ///< Channel names (the port symbols), n_channels
  uint32_t           width; ///< Pictures: pixels
  uint32_t           height;
  uint32_t       fps_num; ///< Pictures: frames per second, fps_num / fps_den
  uint32_t       fps_den;
  int            compression; ///< Pictures: a zlib level, or -1: default
  const P4dPlan* plan;    ///< Sound and rows: what renders (the settings and
                          ///< their automation), or NULL
  double   tolerance;     ///< Rows: --tolerance of keys.h's thinning, 0: none
  unsigned first_channel; ///< The first channel written (--channel), from 0
} P4dWriterInfo;

/// An output format and its operations (a const table, one per format).
typedef struct {
  const char*             name;       ///< For --format, and in messages
  const char* const*      extensions; ///< NULL-terminated; the first is shown
  unsigned                roles;      ///< P4dWriterRole bits
  bool                    can_stream; ///< Can be written to a pipe ("-")
  bool                    text;       ///< May be written to a terminal
  bool                    rows;       ///< Writes rows at --fps, not every frame
  bool                    picture;    ///< Writes pictures (write_picture())
  bool                    one_stream; ///< Pictures: every frame in one file
  bool                    sidecar;    ///< Pictures: a JSON sidecar beside each
  bool                    needs_value; ///< Pictures: the field's value
  bool                    tempo;    ///< Holds the tempo: --tempo always matters
  const P4dWriterVariant* variants; ///< Terminated by a NULL name, or NULL
  int                     default_variant; ///< Code of the default, or 0

  /**
     Start writing to file (opened, empty; "-" is standard output, a pipe).
     The file stays the caller's: the writer never closes its descriptor.

     @param writer Set to the writer's state, to close() even on failure
     (NULL is fine).
     @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
  */
  P4dRenderCode (*open)(void**               writer,
                        const P4dWriterInfo* info,
                        const P4dAtomicFile* file,
                        P4dRenderStatus*     status);

  /**
     Write n interleaved frames of info->n_channels that start at song
     frame frame, in order, from the first frame of the render to the last.

     @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
  */
  P4dRenderCode (*write)(void*            writer,
                         int64_t          frame,
                         const float*     interleaved,
                         size_t           n,
                         P4dRenderStatus* status);

  /**
     Write the next picture (picture writers, else NULL): one file's only
     frame, or the next frame of a stream (one_stream).

     @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
  */
  P4dRenderCode (*write_picture)(void*             writer,
                                 const P4dPicture* picture,
                                 P4dRenderStatus*  status);

  /**
     Finish the file: flush it, sync it to the disk (unless a pipe) and
     check it as far as the format allows; it is not in place yet.

     @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_FAILED naming the file.
  */
  P4dRenderCode (*finish)(void* writer, P4dRenderStatus* status);

  /// Free the writer, dropping what was not finished (NULL is fine).
  void (*close)(void* writer);
} P4dWriterClass;

/// The formats, each defined in the file named for what it writes, and
/// listed in writers.c.
extern const P4dWriterClass p4d_write_wav;   ///< write_sound.c
extern const P4dWriterClass p4d_write_flac;  ///< write_sound.c
extern const P4dWriterClass p4d_write_aiff;  ///< write_sound.c
extern const P4dWriterClass p4d_write_csv;   ///< write_csv.c
extern const P4dWriterClass p4d_write_svg;   ///< write_svg.c
extern const P4dWriterClass p4d_write_png;   ///< write_png.c: 8 bits
extern const P4dWriterClass p4d_write_png16; ///< write_png.c: 16 bits
extern const P4dWriterClass p4d_write_exr;   ///< write_exr.c
extern const P4dWriterClass p4d_write_r16;   ///< write_r16.c
extern const P4dWriterClass p4d_write_y4m;   ///< write_y4m.c
extern const P4dWriterClass p4d_write_json;  ///< write_json.c
extern const P4dWriterClass p4d_write_ae;    ///< write_ae.c
extern const P4dWriterClass p4d_write_chan;  ///< write_chan.c
extern const P4dWriterClass p4d_write_midi;  ///< write_midi.c

/// What to write: a format and its variant.
typedef struct {
  const P4dWriterClass* writer;
  int                   variant; ///< The variant's code, or 0
} P4dFormat;

/**
   Choose the format of -o from the output's extension and the --format
   argument (a format, a variant, or format-variant: "wav", "pcm24",
   "flac-pcm16").

   @return P4D_RENDER_SUCCESS, or P4D_RENDER_ERR_USAGE with no culprit (the
   caller names the option or file).
*/
P4dRenderCode
p4d_writers_choose(const char*      path,
                   const char*      format_arg,
                   P4dFormat*       format,
                   P4dRenderStatus* status);

/// The writer of --plot.
const P4dWriterClass*
p4d_writers_plot(void);

/**
   Write "A, B or C" into text: the names of the -o formats that can be
   written to standard output, each after prefix ("--format ").
*/
void
p4d_writers_list_streams(const char* prefix, char* text, size_t size);

#endif // P4D_WRITERS_H
