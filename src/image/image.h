// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file image.h
   The Image engine: pictures of the 4D field.  Each frame is a 2D slice of
   the field the Mod reads: image x and y along the field's x and y, z at
   morph_z, w at the frame's song time through the Mod's time model (clock,
   rate_hz, period_beats, loop_beats, tempo).  Its parameters are the
   P4D_KIND_IMAGE table of the one port table (params.h).

   A frame is prepared once (p4d_image_frame_set()) and then rendered row by
   row, in any order and from any number of threads (each row is a pure
   function of the frame and the row): the same bits for any cut and any
   number of jobs, on every code path.

   The renderer (src/render/) drives it: it owns no file and no thread.
*/

#ifndef P4D_IMAGE_H
#define P4D_IMAGE_H

#include "status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Largest width or height of a frame, in pixels.
#define P4D_IMAGE_MAX_SIDE 16384U

/// Largest number of pixels of a frame (width times height).
#define P4D_IMAGE_MAX_PIXELS (8192U * 8192U)

/// What stays fixed for every frame of a render.
typedef struct {
  uint32_t width;          ///< Pixels, 1 .. P4D_IMAGE_MAX_SIDE
  uint32_t height;         ///< Pixels, 1 .. P4D_IMAGE_MAX_SIDE
  double   sample_rate_hz; ///< The Mod's rate, for its band limit (sync)
  double   tempo_bpm;      ///< The song's tempo
} P4dImageSetup;

/**
   When a frame is: frame n of a render at fps_num / fps_den frames per
   second from song time start_s, that is song time start_s + n fps_den /
   fps_num seconds, computed exactly enough that frames one loop apart give
   the same bits.
*/
typedef struct {
  int64_t  frame;   ///< n, from 0
  uint32_t fps_num; ///< Frames per second: fps_num / fps_den (30000/1001)
  uint32_t fps_den;
  double   start_s; ///< Song time of frame 0, in seconds
} P4dImageTime;

/// A prepared frame.  Opaque.
typedef struct P4dImageFrameImpl P4dImageFrame;

/**
   A frame for setup, with no settings yet.  Not realtime safe.

   @return P4D_SUCCESS, P4D_ERR_BAD_ARG (a width or height of 0, a side
   above P4D_IMAGE_MAX_SIDE or more than P4D_IMAGE_MAX_PIXELS pixels) or
   P4D_ERR_NO_MEM (*frame NULL).
*/
P4dStatus
p4d_image_frame_new(const P4dImageSetup* setup, P4dImageFrame** frame);

/**
   Put the frame's samples on the edges (heightmaps for terrain tools), or
   back between them (false, the default of every frame).  Not realtime
   safe; call before p4d_image_frame_set(), whose next call it affects.

   On the edges, a side of n pixels spans its cells in n - 1 steps, so
   pixel 0 and pixel n - 1 lie on the tile's edges (without, n pixels of
   width scale / n each span it, pixel 0 at the offset).  A tile whose
   offset_x is moved by one tile (scale cells; offset_y by the tile's
   height in cells) then shares its edge column (row) with its neighbour
   bit for bit: the offset is split into whole tiles T and a remainder r
   (0 below a millionth of a tile), and pixel i is the field's span at
   origin centre + r and index T (n - 1) + i, the very expression its
   neighbour computes there.  With tile on, the last column and row are
   the first (a tiling field's tiles are then the same bits).
*/
void
p4d_image_frame_edges(P4dImageFrame* frame, bool edges);

/// Free a frame; NULL is fine.
void
p4d_image_frame_free(P4dImageFrame* frame);

/**
   Prepare the frame at time for params (one raw value per parameter of the
   P4D_KIND_IMAGE table, clamped here).
*/
void
p4d_image_frame_set(P4dImageFrame*      frame,
                    const float*        params,
                    const P4dImageTime* time);

/**
   Rows row0 .. row0 + n_rows - 1 of the prepared frame (row 0 is the top),
   width floats per row, into either or both of:

   @param value The field's value z (unit variance, unclamped): what EXR
   stores.  NULL to skip.
   @param tone The tone-mapped value in [0, 1] (the even map Phi(z) or the
   linear one, as the parameters say): what PNG, r16 and Y4M store, after
   the palette.  NULL to skip.

   Thread safe for concurrent calls on the same frame.
*/
void
p4d_image_frame_rows(const P4dImageFrame* frame,
                     uint32_t             row0,
                     uint32_t             n_rows,
                     float*               value,
                     float*               tone);

/// Whether the frame's palette is grey (one channel) rather than colour.
bool
p4d_image_frame_grey(const P4dImageFrame* frame);

/**
   The palette's colour of n tones, as display (gamma-encoded) values in
   [0, 1]: rgb[3 i + c] for channel c (red, green, blue) of tone i.  For a
   grey palette every channel is the tone.
*/
void
p4d_image_frame_colour(const P4dImageFrame* frame,
                       const float*         tone,
                       float*               rgb,
                       size_t               n);

/// What the sidecar of a frame tells (p4d_image_frame_facts()).
typedef struct {
  double song_s;     ///< The frame's song time, seconds
  double song_beats; ///< ... and beats at the tempo
  double w;          ///< Its time coordinate w (octave 0), in cells
  double cells_x;    ///< Cells across the width (octave 0, after a tile snaps)
  double cells_y;    ///< Cells across the height
  double mod_x[4];   ///< Where Mod channel k's value is in the frame:
  double mod_y[4];   ///< pixel coordinates (may lie outside the frame)
  double type_mean;  ///< Hybrid and hetero: the measured mean and deviation
  double type_std;   ///< of the type's sum that z is scaled by; else 0
} P4dImageFacts;

/// The facts of the prepared frame.
void
p4d_image_frame_facts(const P4dImageFrame* frame, P4dImageFacts* facts);

#ifdef __cplusplus
}
#endif

#endif // P4D_IMAGE_H
