#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC

"""The Image's bases side by side, as doc/image-basis.png.

Usage: /usr/bin/python3 tools/basis-figure.py RENDERER OUT.png

The same seed, scale and song time drawn by RENDERER in each basis
(improved 4D, classic 3D, classic 2D), in linear grey: the top row one
octave (the noise itself; the classic noise is 0, mid-grey, at every
lattice point, and its blobs line up with the axes), the bottom row five
octaves of fractal fBm.  Each panel is labelled under it (PIL's default font).
"""

import os
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw

SIDE = 256
GAP = 4
LABEL = 14
BASES = ['Improved 4D', 'Classic 3D', 'Classic 2D']
ROWS = [('1 octave', ['octaves=1']),
        ('5 octaves, fractal', ['octaves=5', 'fractal=1'])]
COMMON = ['seed=7', 'scale=6', 'offset_x=-3', 'offset_y=-3', 'tone=1']


def render(renderer, basis, extra, folder):
    out = os.path.join(folder, 'basis-%d-%s.png' % (basis, extra[0]))
    args = [renderer, '--plugin', 'image', '--size', '%dx%d' % (SIDE, SIDE),
            '--start', '8', '--quiet', '--force', '-o', out]
    for setting in COMMON + extra + ['basis=%d' % basis]:
        args += ['--set', setting]
    subprocess.run(args, check=True)
    return Image.open(out).convert('RGB')


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    renderer, target = sys.argv[1], sys.argv[2]
    pitch_x = SIDE + GAP
    pitch_y = SIDE + LABEL + GAP
    sheet = Image.new('RGB', (GAP + len(BASES) * pitch_x,
                              GAP + len(ROWS) * pitch_y))
    draw = ImageDraw.Draw(sheet)
    with tempfile.TemporaryDirectory() as folder:
        for row, (what, extra) in enumerate(ROWS):
            for basis, name in enumerate(BASES):
                left = GAP + basis * pitch_x
                top = GAP + row * pitch_y
                sheet.paste(render(renderer, basis, extra, folder),
                            (left, top))
                draw.text((left + 2, top + SIDE + 1),
                          '%s, %s' % (name, what), fill=(230, 230, 230))
    sheet.save(target, optimize=True)
    print('%d panels in %s' % (len(BASES) * len(ROWS), target))


if __name__ == '__main__':
    main()
