#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
"""How far two folders of display PNGs differ, picture by picture.

    /usr/bin/python3 bench/display-diff.py BEFORE_DIR AFTER_DIR

For every PNG of BEFORE_DIR also in AFTER_DIR: the largest and the mean
absolute difference of its channels (0-255) and the part of its pixels
that differ; then the same over all of them.  Pictures from the gallery
test (BUILD/tests/display-gallery) or test_lv2_display (display-png).
Exits 1 if a picture is missing or changed size.
"""

import sys
from pathlib import Path

import numpy as np
from PIL import Image


def main() -> int:
    before, after = Path(sys.argv[1]), Path(sys.argv[2])
    worst, total, n_px, n_diff, bad = 0, 0.0, 0, 0, 0
    for a in sorted(before.glob("*.png")):
        b = after / a.name
        if not b.exists():
            print(f"{a.name}: missing")
            bad += 1
            continue
        x = np.asarray(Image.open(a).convert("RGB"), dtype=np.int16)
        y = np.asarray(Image.open(b).convert("RGB"), dtype=np.int16)
        if x.shape != y.shape:
            print(f"{a.name}: size {x.shape} -> {y.shape}")
            bad += 1
            continue
        d = np.abs(x - y)
        px = d.max(axis=2) > 0
        worst = max(worst, int(d.max()))
        total += float(d.sum())
        n_px += px.size
        n_diff += int(px.sum())
        print(f"{a.name:48s} max {int(d.max()):3d}  mean {d.mean():.4f}"
              f"  pixels changed {100.0 * px.mean():5.2f} %")
    if n_px:
        print(f"all: max {worst}  mean {total / (3 * n_px):.4f}"
              f"  pixels changed {100.0 * n_diff / n_px:.2f} %")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
