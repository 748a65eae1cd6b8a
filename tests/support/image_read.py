#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
"""Read a picture file with readers independent of perlin4d.

usage: image_read.py FILE OUT [W H]

Prints "WIDTH HEIGHT CHANNELS BITS FRAMES" and writes the samples of every
frame to OUT, row by row from the top, channels interleaved: whole numbers
as little-endian uint16, floats (BITS 32 or 16) as little-endian float32.

  .png  PIL (grey, RGB, 16-bit grey); 16-bit RGB through ffmpeg
  .exr  exrheader for the channels and their type, ffmpeg for the pixels
  .r16  numpy (W H give the size: the file has no header); .raw the same
  .y4m  ffmpeg (its own Y4M demuxer): 4:4:4 as 3 channels; 4:2:0 as
        CHANNELS 0, planes Y, Cb, Cr one after the other
"""
import json
import re
import subprocess
import sys

import numpy as np
from PIL import Image


def ffmpeg_raw(path, pix_fmt):
    """Every frame of path decoded by ffmpeg as raw pix_fmt bytes."""
    return subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo",
         "-pix_fmt", pix_fmt, "-"],
        check=True, capture_output=True).stdout


def ffprobe(path):
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-show_streams",
         "-of", "json", path], check=True, capture_output=True).stdout
    return json.loads(out)["streams"][0]


def main():
    path, out = sys.argv[1], sys.argv[2]
    frames = 1
    if path.endswith(".png"):
        with open(path, "rb") as f:
            head = f.read(26)
        depth, colour = head[24], head[25]
        img = Image.open(path)
        w, h = img.size
        if colour == 2 and depth == 16:
            data = np.frombuffer(ffmpeg_raw(path, "rgb48le"), "<u2")
            c = 3
        else:
            data = np.array(img).astype("<u2")
            c = 3 if img.mode == "RGB" else 1
        bits = depth
    elif path.endswith(".exr"):
        head = subprocess.run(["exrheader", path], check=True,
                              capture_output=True, text=True).stdout
        chans = re.findall(r"^\s+(\w+), (16-bit floating-point|32-bit "
                           r"floating-point)", head, re.M)
        names = [n for n, _ in chans]
        bits = 16 if chans[0][1].startswith("16") else 32
        m = re.search(r"dataWindow.*?\(0 0\) - \((\d+) (\d+)\)", head, re.S)
        w, h = int(m.group(1)) + 1, int(m.group(2)) + 1
        if names == ["Y"]:
            data = np.frombuffer(ffmpeg_raw(path, "grayf32le"), "<f4")
            c = 1
        else:
            assert names == ["B", "G", "R"], names
            planes = np.frombuffer(ffmpeg_raw(path, "gbrpf32le"), "<f4")
            g, b, r = planes.reshape(3, h * w)
            data = np.stack([r, g, b], axis=1)
            c = 3
    elif path.endswith((".r16", ".raw")):
        w, h = int(sys.argv[3]), int(sys.argv[4])
        data = np.fromfile(path, "<u2")
        assert data.size == w * h, (data.size, w, h)
        c, bits = 1, 16
    elif path.endswith(".y4m"):
        s = ffprobe(path)
        w, h, frames = s["width"], s["height"], int(s["nb_read_frames"])
        bits = 8
        if s["pix_fmt"] == "yuv420p":
            # Planar: Y, then Cb and Cr of (w+1)/2 x (h+1)/2 (CHANNELS 0).
            assert s["chroma_location"] == "center", s["chroma_location"]
            data = np.frombuffer(ffmpeg_raw(path, "yuv420p"), np.uint8)
            data = data.astype("<u2")
            c = 0
        else:
            assert s["pix_fmt"] == "yuv444p", s["pix_fmt"]
            yuv = np.frombuffer(ffmpeg_raw(path, "yuv444p"), np.uint8)
            data = yuv.reshape(frames, 3, h * w).transpose(0, 2, 1)
            data = data.astype("<u2")
            c = 3
        print(s["r_frame_rate"], file=sys.stderr)
    else:
        sys.exit("unknown picture: " + path)
    data = np.ascontiguousarray(data)
    n = w * h * c if c else w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2)
    assert data.size == n * frames, (data.size, w, h, c, frames)
    data.astype("<f4" if path.endswith(".exr") else "<u2").tofile(out)
    print(w, h, c, bits, frames)


main()
