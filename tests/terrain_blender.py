#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
"""Blender displaces a grid with a heightmap of perlin4d-render.

usage: terrain_blender.py RENDERER

Renders a 16-bit PNG heightmap (--terrain unreal, 127x127, 0:100 m), then
runs Blender in the background (blender -b --python-expr): a grid of one
vertex per sample, its UVs on the samples (u = i / 126), a Displace
modifier with the PNG as an image texture (Non-Color, no interpolation,
extended at the edges, strength 100, mid-level 0).  Every displaced vertex
height must equal the PNG's level (read by PIL) times 100 / 65535 within
the 16-bit quantisation.  Blender's images have their first row at the
bottom: vertex row j reads the PNG's row 126 - j.

Exits 77 (skipped) when blender is not installed.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

SIDE = 127
TOP_M = 100.0

# Run inside Blender: displace the grid, write the vertex heights as JSON.
BLENDER_SCRIPT = r"""
import bpy, json, sys
png, out, side, top = sys.argv[-4], sys.argv[-3], int(sys.argv[-2]), float(sys.argv[-1])
bpy.ops.wm.read_factory_settings(use_empty=True)
verts = [(i, j, 0.0) for j in range(side) for i in range(side)]
faces = [(j * side + i, j * side + i + 1, (j + 1) * side + i + 1,
          (j + 1) * side + i)
         for j in range(side - 1) for i in range(side - 1)]
mesh = bpy.data.meshes.new("grid")
mesh.from_pydata(verts, [], faces)
uv = mesh.uv_layers.new(name="UVMap")
for loop in mesh.loops:
    v = loop.vertex_index
    uv.data[loop.index].uv = ((v % side) / (side - 1), (v // side) / (side - 1))
obj = bpy.data.objects.new("grid", mesh)
bpy.context.scene.collection.objects.link(obj)
img = bpy.data.images.load(png)
img.colorspace_settings.name = "Non-Color"
tex = bpy.data.textures.new("height", type="IMAGE")
tex.image = img
tex.use_interpolation = False
tex.use_mipmap = False
tex.extension = "EXTEND"
mod = obj.modifiers.new("displace", type="DISPLACE")
mod.texture = tex
mod.texture_coords = "UV"
mod.direction = "Z"
mod.mid_level = 0.0
mod.strength = top
dg = bpy.context.evaluated_depsgraph_get()
ev = obj.evaluated_get(dg).to_mesh()
json.dump([v.co.z for v in ev.vertices], open(out, "w"))
"""


def main():
    blender = shutil.which("blender")
    if not blender:
        print("# blender is not installed: skipped")
        return 77
    render = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="p4d-blender-") as work:
        png = os.path.join(work, "h.png")
        subprocess.run([render, "-o", png, "--terrain", "unreal", "--size",
                        "%dx%d" % (SIDE, SIDE), "--height-range",
                        "0:%g" % TOP_M, "--set", "fractal=1", "--set",
                        "octaves=6", "--set", "type=6", "--quiet"],
                       check=True)
        side = json.load(open(os.path.join(work, "h.json")))["terrain"]
        assert side["level_0"] == 0 and side["level_65535"] == TOP_M, side
        levels = np.array(Image.open(png)).astype(np.float64)
        assert levels.shape == (SIDE, SIDE), levels.shape
        out = os.path.join(work, "z.json")
        r = subprocess.run([blender, "-b", "--factory-startup",
                            "--python-expr", BLENDER_SCRIPT, "--", png, out,
                            str(SIDE), str(TOP_M)],
                           capture_output=True, text=True, check=False)
        if r.returncode or not os.path.exists(out):
            print(r.stdout[-2000:], r.stderr[-2000:])
            return 1
        z = np.array(json.load(open(out))).reshape(SIDE, SIDE)
        want = levels[::-1, :] * (TOP_M / 65535.0)  # row j: PNG row 126 - j
        err = np.abs(z - want)
        step = TOP_M / 65535.0
        print("# Blender displaced %d vertices: largest error %.3g m "
              "(a 16-bit step is %.3g m); heights %.2f to %.2f m"
              % (z.size, err.max(), step, z.min(), z.max()))
        assert err.max() <= step, err.max()
        assert z.max() - z.min() > 10.0  # not flat: the picture was read
    return 0


if __name__ == "__main__":
    sys.exit(main())
