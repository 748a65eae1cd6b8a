// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  After Effects keyframe clipboard text: the text After Effects puts on the
  clipboard when keyframes are copied, and reads back when it is pasted
  (open the file in a text editor, copy all, select a property in After
  Effects, paste):

    Adobe After Effects 8.0 Keyframe Data
    <empty>
    \tUnits Per Second\t<fps>
    \tSource Width\t1920
    \tSource Height\t1080
    \tSource Pixel Aspect Ratio\t1
    \tComp Pixel Aspect Ratio\t1
    <empty>
    Effects\tSlider Control #<k>\tSlider Control-0001
    \tFrame\t
    \t<frame>\t<value>\t
    ...
    <empty>
    End of Keyframe Data

  one block per channel written (k = 1, 2, ...).  Lines end in CR LF, as
  After Effects writes them.  A block of one-dimensional keys pastes onto
  any one-dimensional property selected (a Slider Control, Opacity,
  Rotation, an effect's parameter), whatever its header names; with
  several blocks and a layer selected, block k goes to the layer's Slider
  Control effect #k.  Frames count from 0 at the render's start (After
  Effects pastes the first key at the current time); with Units Per
  Second equal to --fps they are whole numbers.  The source size matters
  only to properties in pixels, which a value of a curve is not.

  The layout follows what After Effects 8.0 and later write (tabs, the
  trailing tab of each key line, "Effects" blocks named by effect and
  property) as exporters of it write it, e.g. Blender's "Export to Adobe
  After Effects" motion-tracking add-on and Mocha's AE exports.
*/

#include "decimal.h"
#include "keys.h"
#include "writers.h"

#include <stdio.h>
#include <stdlib.h>

/// After Effects' line ending.
#define EOL "\r\n"

static void
put_ae(const P4dKeyDoc* doc)
{
  FILE* const                file = doc->file;
  const P4dWriterInfo* const info = &doc->info;
  char                       text[P4D_DECIMAL_MAX];

  fputs("Adobe After Effects 8.0 Keyframe Data" EOL EOL, file);
  // Units Per Second as a decimal (29.97002997 for 30000/1001): the frame
  // numbers below count rows, so it is the rows' rate.
  snprintf(text, sizeof(text), "%.10g", info->fps);
  fprintf(file, "\tUnits Per Second\t%s" EOL, text);
  fputs("\tSource Width\t1920" EOL "\tSource Height\t1080" EOL, file);
  fputs("\tSource Pixel Aspect Ratio\t1" EOL, file);
  fputs("\tComp Pixel Aspect Ratio\t1" EOL EOL, file);

  const size_t n_rows = p4d_keys_n_rows(doc->keys);
  for (unsigned c = 0U; c < info->n_channels; ++c) {
    fprintf(file,
            "Effects\tSlider Control #%u\tSlider Control-0001" EOL
            "\tFrame\t" EOL,
            c + 1U);
    for (size_t k = 0U; k < n_rows; ++k) {
      if (p4d_keys_kept(doc->keys, k, c)) {
        const size_t len =
          p4d_decimal_g9(p4d_keys_value(doc->keys, k, c), text);
        fprintf(file, "\t%zu\t%.*s\t" EOL, k, (int)len, text);
      }
    }
    fputs(EOL, file);
  }
  fputs("End of Keyframe Data" EOL, file);
}

static P4dRenderCode
finish_ae(void* writer, P4dRenderStatus* status)
{
  return p4d_keys_doc_finish(writer, put_ae, status);
}

/// No extension of its own is common: ".ae", or any name with --format ae.
static const char* const ae_extensions[] = { "ae", NULL };

const P4dWriterClass p4d_write_ae = {
  .name       = "ae",
  .extensions = ae_extensions,
  .roles      = P4D_WRITER_OUTPUT,
  .can_stream = true,
  .text       = true,
  .rows       = true,
  .open       = p4d_keys_doc_open,
  .write      = p4d_keys_doc_write,
  .finish     = finish_ae,
  .close      = p4d_keys_doc_close,
};
