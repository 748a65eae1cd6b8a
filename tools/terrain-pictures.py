#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC

"""The manual's terrain figure, as doc/terrain.png.

Usage: /usr/bin/python3 tools/terrain-pictures.py RENDERER OUT.png

RENDERER draws a hybrid multifractal heightmap for Unreal (505 x 505,
persistence 0.84, 16-bit PNG, 0 to 300 m, 4 m a sample) and its hillshade
(light from 315, 45), and four tiles of 253 x 253 at offsets one `scale`
apart (the same terrain), stitched by dropping the column and row each
shares with its neighbour (their hillshade, where a seam would show).  The
panels are shown side by side at 300 pixels, each labelled under it (PIL's
default font).
"""

import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageDraw

PANEL = 300
GAP = 4
LABEL = 14
SETTINGS = ['--set', 'fractal=1', '--set', 'octaves=8', '--set', 'type=5',
            '--set', 'persistence=0.84', '--set', 'scale=4', '--seed', '11',
            '--height-range', '0:300',
            '--quiet', '--force']


def render(renderer, out, size, extra):
    subprocess.run([renderer, '-o', out, '--terrain', 'unreal', '--size',
                    '%dx%d' % (size, size)] + SETTINGS + extra, check=True)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    renderer, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory() as work:
        height = os.path.join(work, 'height.png')
        shade = os.path.join(work, 'shade.png')
        render(renderer, height, 505,
               ['--set', 'offset_x=-2', '--set', 'offset_y=-2',
                '--pixel-size', '4', '--hillshade', shade])
        levels = np.array(Image.open(height)).astype(np.float64)
        grey = Image.fromarray((levels / 257.0 + 0.5).astype(np.uint8))

        # Four tiles of half the size (scale 2 each, the same 4 m a
        # sample), one scale apart: the same terrain, each tile sharing its
        # last column and row with the next.
        half = 253
        tiles = [[None, None], [None, None]]
        for ty in range(2):
            for tx in range(2):
                name = os.path.join(work, 't%d%d.png' % (ty, tx))
                tile_shade = os.path.join(work, 's%d%d.png' % (ty, tx))
                render(renderer, name, half,
                       ['--set', 'scale=2', '--set',
                        'offset_x=%g' % (-2 + 2 * tx), '--set',
                        'offset_y=%g' % (-2 + 2 * ty), '--pixel-size', '4',
                        '--hillshade', tile_shade])
                tiles[ty][tx] = np.array(Image.open(tile_shade))
        rows = [np.hstack([tiles[ty][0][:, :-1], tiles[ty][1]])
                for ty in range(2)]
        stitched = Image.fromarray(np.vstack([rows[0][:-1, :], rows[1]]))

        panels = [(grey, 'heightmap (16-bit PNG)'),
                  (Image.open(shade), 'hillshade 315, 45'),
                  (stitched, '2 x 2 tiles, stitched')]
        sheet = Image.new('RGB', (len(panels) * (PANEL + GAP) - GAP,
                                  PANEL + LABEL), 'white')
        draw = ImageDraw.Draw(sheet)
        for i, (img, label) in enumerate(panels):
            x = i * (PANEL + GAP)
            sheet.paste(img.convert('RGB').resize((PANEL, PANEL),
                                                  Image.LANCZOS), (x, 0))
            draw.text((x + 2, PANEL + 1), label, fill='black')
        sheet.save(out, optimize=True)


if __name__ == '__main__':
    main()
