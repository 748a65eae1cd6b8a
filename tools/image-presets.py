#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC

"""A labelled contact sheet of the Image's presets, as doc/image-presets.png.

Usage: /usr/bin/python3 tools/image-presets.py RENDERER OUT.png

Each Image preset (perlin4d-render --list-presets, kind image) is rendered
by RENDERER at song time 8 s, TILE pixels a side, and labelled with its
name under it (PIL's default font); a tiling preset gets a second tile,
its frame at half the size repeated 2 x 2, where any seam would show.
"""

import json
import os
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw

TILE = 192
GAP = 4
LABEL = 14
COLUMNS = 3


def render(renderer, preset, side, folder):
    out = os.path.join(folder, '%s-%d.png' % (preset, side))
    subprocess.run([renderer, '--preset', preset, '--plugin', 'image',
                    '--size', '%dx%d' % (side, side), '--start', '8',
                    '--quiet', '--force', '-o', out], check=True)
    with open(out[:-4] + '.json') as f:
        settings = json.load(f)['settings']
    return Image.open(out).convert('RGB'), settings


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    renderer, target = sys.argv[1], sys.argv[2]
    listing = subprocess.run([renderer, '--list-presets'], check=True,
                             capture_output=True, text=True).stdout
    presets = [line.split()[0] for line in listing.splitlines()
               if len(line.split()) > 1 and line.split()[1] == 'image']
    tiles = []
    with tempfile.TemporaryDirectory() as folder:
        for name in presets:
            picture, settings = render(renderer, name, TILE, folder)
            tiles.append((picture, name))
            if settings.get('tile'):
                half, _ = render(renderer, name, TILE // 2, folder)
                repeated = Image.new('RGB', (TILE, TILE))
                for x in (0, TILE // 2):
                    for y in (0, TILE // 2):
                        repeated.paste(half, (x, y))
                tiles.append((repeated, name + ', 2 x 2'))
    rows = (len(tiles) + COLUMNS - 1) // COLUMNS
    pitch = TILE + LABEL + GAP
    sheet = Image.new('RGB', (GAP + COLUMNS * (TILE + GAP), GAP + rows * pitch))
    draw = ImageDraw.Draw(sheet)
    for i, (picture, name) in enumerate(tiles):
        left = GAP + (i % COLUMNS) * (TILE + GAP)
        top = GAP + (i // COLUMNS) * pitch
        sheet.paste(picture, (left, top))
        draw.text((left + 2, top + TILE + 1), name, fill=(230, 230, 230))
    sheet.save(target, optimize=True)
    print('%d tiles of %d Image presets in %s' % (len(tiles), len(presets),
                                                  target))


if __name__ == '__main__':
    main()
