#!/usr/bin/env python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Compares what Ardour wrote through Perlin4D Motion (a bounce or a session
# export) with what perlin4d-render predicts from the same input: 20 ms RMS
# envelopes in dB (correlation, largest difference), the sample difference,
# and which frames differ.  Reads 32-bit float WAV itself (sox converts
# through 32-bit integers and rounds the low bits of small float samples),
# so "identical" means the same float bits.  Needs numpy.
#
#   ardour-motion-compare.py WET.wav [WET_R.wav] PRED.wav [--dry DRY.wav]
#
# WET is one stereo file or two mono ones.

import struct
import sys

import numpy as np


def read(path):
    """A 32-bit float WAV (RIFF or BWF) as a frames x channels array."""
    with open(path, "rb") as f:
        b = f.read()
    if b[:4] != b"RIFF" or b[8:12] != b"WAVE":
        sys.exit(f"{path}: not a RIFF WAVE file")
    i, fmt, data = 12, None, None
    while i + 8 <= len(b):
        cid, size = b[i:i + 4], struct.unpack("<I", b[i + 4:i + 8])[0]
        body = b[i + 8:i + 8 + size]
        if cid == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
            if fmt[0] == 0xFFFE:  # WAVE_FORMAT_EXTENSIBLE: the subformat's tag
                fmt = (struct.unpack("<H", body[24:26])[0],) + fmt[1:]
        elif cid == b"data":
            data = body
        i += 8 + size + (size & 1)
    if fmt is None or data is None or fmt[0] != 3 or fmt[5] != 32:
        sys.exit(f"{path}: not 32-bit float")
    return np.frombuffer(data, dtype="<f4").reshape(-1, fmt[1]), fmt[2]


def env_db(x, win):
    n = len(x) // win
    r = np.sqrt(np.mean(x[: n * win].reshape(n, win) ** 2, axis=1))
    return 20 * np.log10(np.maximum(r, 1e-12))


def main():
    args = sys.argv[1:]
    dry = None
    if "--dry" in args:
        k = args.index("--dry")
        dry = read(args[k + 1])[0][:, 0].astype(np.float64)
        del args[k:k + 2]
    wet = np.hstack([read(p)[0] for p in args[:-1]])
    pred = read(args[-1])[0]
    n = min(len(wet), len(pred))
    wet, pred = wet[:n], pred[:n]
    dry = dry[:n] if dry is not None else None
    win = 960  # 20 ms at 48 kHz
    ok = True
    print(f"frames {n}")
    for c, name in enumerate("LR"):
        w, p = wet[:, c].astype(np.float64), pred[:, c].astype(np.float64)
        ew, ep = env_db(w, win), env_db(p, win)
        corr = np.corrcoef(ew, ep)[0, 1]
        d = np.abs(ew - ep)
        print(f"{name}: envelope dB range Ardour {ew.min():.2f}..{ew.max():.2f} "
              f"renderer {ep.min():.2f}..{ep.max():.2f}; "
              f"correlation {corr:.6f}; largest |difference| {d.max():.4f} dB "
              f"(window {d.argmax() * 0.02:.2f} s); mean {d.mean():.5f} dB")
        if dry is not None:
            eg = ew - env_db(dry, win)
            print(f"   gain the track applied (wet - dry): {eg.min():.2f}..{eg.max():.2f} dB")
        same = wet[:, c] == pred[:, c]
        diff = w - p
        peak = np.abs(diff).max()
        print(f"   samples: identical {np.mean(same) * 100:.2f} %, "
              f"largest |difference| {peak:.3g} ({20 * np.log10(max(peak, 1e-30)):.1f} dBFS), "
              f"rms difference {20 * np.log10(max(np.sqrt(np.mean(diff ** 2)), 1e-30)):.1f} dBFS")
        nz = np.nonzero(~same)[0]
        if len(nz):
            print(f"   differing frames: {len(nz)}, from {nz.min()} to {nz.max()}")
        ok = ok and corr > 0.99
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
