#!/usr/bin/env python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Compares what Ardour bounced through Perlin4D Motion with what
# perlin4d-render predicts from the same input: 20 ms RMS envelopes in dB
# (correlation, largest difference), the sample difference, and which frames
# differ.  Needs numpy and sox.
#
#   ardour-motion-compare.py WET_L.wav WET_R.wav PRED.wav [DRY.wav]

import subprocess
import sys

import numpy as np


def read(path):
    raw = subprocess.run(["sox", "-V1", path, "-t", "f32", "-e", "floating-point", "-"],
                         check=True, capture_output=True).stdout
    chans = int(subprocess.run(["soxi", "-V1", "-c", path], check=True,
                               capture_output=True, text=True).stdout)
    return np.frombuffer(raw, dtype="<f4").reshape(-1, chans).astype(np.float64)


def env_db(x, win):
    n = len(x) // win
    r = np.sqrt(np.mean(x[: n * win].reshape(n, win) ** 2, axis=1))
    return 20 * np.log10(np.maximum(r, 1e-12))


def main():
    wet = np.hstack([read(sys.argv[1]), read(sys.argv[2])])
    pred = read(sys.argv[3])
    dry = read(sys.argv[4])[:, 0] if len(sys.argv) > 4 else None
    n = min(len(wet), len(pred))
    wet, pred = wet[:n], pred[:n]
    win = 960  # 20 ms at 48 kHz
    ok = True
    print(f"frames {n}")
    for c, name in enumerate("LR"):
        ew, ep = env_db(wet[:, c], win), env_db(pred[:, c], win)
        corr = np.corrcoef(ew, ep)[0, 1]
        d = np.abs(ew - ep)
        print(f"{name}: envelope dB range Ardour {ew.min():.2f}..{ew.max():.2f} "
              f"renderer {ep.min():.2f}..{ep.max():.2f}; "
              f"correlation {corr:.6f}; largest |difference| {d.max():.4f} dB "
              f"(window {d.argmax() * 0.02:.2f} s); mean {d.mean():.5f} dB")
        if dry is not None:
            eg = ew - env_db(dry[:n], win)
            print(f"   gain the track applied (wet - dry): {eg.min():.2f}..{eg.max():.2f} dB")
        diff = wet[:, c] - pred[:, c]
        peak = np.abs(diff).max()
        print(f"   samples: identical {np.mean(diff == 0) * 100:.2f} %, "
              f"largest |difference| {peak:.3g} ({20 * np.log10(max(peak, 1e-30)):.1f} dBFS), "
              f"rms difference {20 * np.log10(max(np.sqrt(np.mean(diff ** 2)), 1e-30)):.1f} dBFS")
        nz = np.nonzero(diff)[0]
        if len(nz):
            print(f"   differing frames: {len(nz)}, from {nz.min()} to {nz.max()}")
        ok = ok and corr > 0.99
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
