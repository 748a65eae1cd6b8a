// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/**
   @file image_private.h
   The Image engine's insides, shared by its files: the prepared frame
   (image.c), its fields and their octaves (image_field.c) and its tone map
   and palettes (image_tone.c).  Not part of the engine's API (image.h).
*/

#ifndef P4D_IMAGE_PRIVATE_H
#define P4D_IMAGE_PRIVATE_H

#include "exact_math.h"
#include "image.h"
#include "noise.h"
#include "params.h"
#include "voice.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Pixels of a row evaluated per pass, in stack buffers.
#define P4D_IMAGE_CHUNK 2048U

/**
   One octave of a field: where pixel (px, py) lies in its noise.  On axis
   a < 3 the octave's coordinate of a field coordinate f is (f - centre[a])
   * scale[a] + add[a]: with fractal off scale is 1 and centre 0 (add is
   the octave's offset: octaves scale time only, as the Mod's); with it on,
   the octave scales space about the channels' centre as it scales time.
*/
typedef struct {
  uint32_t seed;      ///< The octave's lattice hash
  float    weight;    ///< Its weight in the sum
  double   scale[3];  ///< x, y, z
  double   centre[3]; ///< x, y, z
  double   add[3];    ///< x, y, z
  double   w;         ///< Its w coordinate (time)
  uint64_t period[4]; ///< Periods of x, y (tile) and w (loop); 0: none
} P4dImageOctave;

/// A field: its octaves and its normalisation.
typedef struct {
  unsigned       n_octaves;
  float          norm; ///< 1 / (std of one octave * root of the power)
  float          sum;  ///< Sum of the weights (for a type's mean)
  float          mean; ///< Measured mean of the type's sum (if std > 0)
  float          std;  ///< ... and deviation; 0: the type's constants
  P4dImageOctave octave[P4D_FBM_MAX_OCTAVES];
} P4dImageField;

/// What the fields of a frame are made of (p4d_image_field_prepare()).
typedef struct {
  const P4dVoice* voice;   ///< The Mod's voice of the settings
  double          w;       ///< The frame's time coordinate, octave 0
  bool            fractal; ///< Octaves scale space too
  bool            tile;    ///< x and y wrap over cells
  double   cells[2];  ///< Cells across the width and height (whole if tile)
  double   step[2];   ///< Cells per pixel across and down
  double   centre[3]; ///< The channels' centre: base + morph
  unsigned type;      ///< P4dImageType of the field (warps: fBm)
} P4dImageFieldSpec;

/// Cells per pixel at which a fractal octave falls silent: an octave finer
/// than two pixels a cell fades out instead of aliasing.
#define P4D_IMAGE_BAND_LIMIT 0.5

/**
   Prepare field f of seed for spec: its octaves, weights and divisor.
   Realtime safe.
*/
void
p4d_image_field_prepare(P4dImageField*           f,
                        const P4dImageFieldSpec* spec,
                        uint32_t                 seed);

/// Warp fields: x and y displacements.
#define P4D_IMAGE_WARPS 2U

/// A prepared frame (image.h).
struct P4dImageFrameImpl {
  P4dImageSetup setup;
  P4dPhiTable   phi;                        ///< The even tone map's table
  float         params[P4D_IMAGE_N_PARAMS]; ///< Clamped
  unsigned      type;                       ///< P4dImageType
  unsigned      tone;                       ///< P4dImageTone
  unsigned      palette;                    ///< P4dImagePalette
  double        x0;                         ///< Field x of pixel column 0
  double        y0;                         ///< Field y of pixel row 0
  double        z;                          ///< Field z of the frame
  double        step_x;                     ///< Field cells per pixel, across
  double        step_y;                     ///< ... and down
  bool          edges;   ///< Samples on the edges (p4d_image_frame_edges())
  int64_t       first_x; ///< Index of pixel column 0 from x0 (edges: T (w - 1))
  int64_t       first_y; ///< ... and of pixel row 0 from y0
  double        warp;    ///< Displacement in cells per unit of a warp field
  P4dImageField field;   ///< The picture's field
  P4dImageField warps[P4D_IMAGE_WARPS]; ///< Its warp fields (warp > 0)
  P4dImageFacts facts;
  P4dVoice      voice; ///< Scratch of p4d_image_frame_set(): the Mod's voice
};

/**
   Field values z of row py, pixels first .. first + n - 1 (n at most
   P4D_IMAGE_CHUNK), of frame's picture (warped, of its type), into z.
   Realtime safe; reads frame only.
*/
void
p4d_image_field_chunk(const P4dImageFrame* frame,
                      uint32_t             py,
                      uint32_t             first,
                      uint32_t             n,
                      float*               z);

/**
   The tone map of frame: tone[i] in [0, 1] of value z[i] (even: Phi(z),
   the Mod's map between 0 and 1; linear: 0.5 + z / 6, clamped).  Realtime
   safe.
*/
void
p4d_image_tone_map(const P4dImageFrame* frame,
                   const float*         z,
                   float*               tone,
                   uint32_t             n);

#endif // P4D_IMAGE_PRIVATE_H
