#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
"""Blender's own .chan importer reads a .chan of perlin4d-render.

usage: chan_blender.py RENDERER

Renders three channels of Perlin4D Mod as a Nuke .chan (24 rows a second,
2 s), then runs Blender in the background (one start): enables the bundled
add-on io_anim_nuke_chan, adds an empty and imports the file onto it with
bpy.ops.import_scene.import_chan (Y up as in the file: z_up off).  The
empty's location x, y, z at frames 1..N (its F-curves, then the evaluated
object at each frame) must equal the file's columns 2..4, and the frames
must be 1..N.

Exits 77 (skipped) when blender is not installed.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

FPS = 24
SECONDS = 2

# Run inside Blender: import the .chan onto an empty, write its locations.
BLENDER_SCRIPT = r"""
import addon_utils, bpy, json, sys
chan, out, n = sys.argv[-3], sys.argv[-2], int(sys.argv[-1])
addon_utils.enable("io_anim_nuke_chan", default_set=True)
bpy.ops.wm.read_factory_settings(use_empty=True)
addon_utils.enable("io_anim_nuke_chan", default_set=True)
obj = bpy.data.objects.new("curve", None)
bpy.context.scene.collection.objects.link(obj)
bpy.context.view_layer.objects.active = obj
res = bpy.ops.import_scene.import_chan(filepath=chan, z_up=False)
curves = {fc.array_index: fc for fc in obj.animation_data.action.fcurves
          if fc.data_path == "location"}
keys = {i: [list(k.co) for k in curves[i].keyframe_points] for i in curves}
seen = []
for f in range(1, n + 1):
    bpy.context.scene.frame_set(f)
    seen.append(list(obj.location))
json.dump({"result": list(res), "keys": keys, "seen": seen}, open(out, "w"))
"""


def main():
    blender = shutil.which("blender")
    if not blender:
        print("# blender is not installed: skipped")
        return 77
    render = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="p4d-chan-") as work:
        chan = os.path.join(work, "motion.chan")
        subprocess.run([render, "--plugin", "mod", "--channels", "3",
                        "--set", "rate_hz=2", "--set", "out_min=-1",
                        "--fps", str(FPS), "--duration", str(SECONDS),
                        "--start", "3", "-o", chan, "--quiet"], check=True)
        rows = [l.split() for l in open(chan).read().split("\n")[:-1]]
        n = FPS * SECONDS
        assert len(rows) == n and all(len(r) == 7 for r in rows)
        assert [int(r[0]) for r in rows] == list(range(1, n + 1))
        want = np.array([[float(np.float32(v)) for v in r[1:4]]
                         for r in rows])
        out = os.path.join(work, "seen.json")
        r = subprocess.run([blender, "-b", "--factory-startup",
                            "--python-expr", BLENDER_SCRIPT, "--", chan, out,
                            str(n)],
                           capture_output=True, text=True, check=False)
        if r.returncode or not os.path.exists(out):
            print(r.stdout[-2000:], r.stderr[-2000:])
            return 1
        got = json.load(open(out))
        assert got["result"] == ["FINISHED"], got["result"]
        for i in range(3):
            keys = np.array(got["keys"][str(i)])
            assert keys.shape == (n, 2), keys.shape
            assert np.array_equal(keys[:, 0], np.arange(1, n + 1))
            assert np.array_equal(keys[:, 1], want[:, i]), i
        seen = np.array(got["seen"])
        assert np.array_equal(seen, want), np.abs(seen - want).max()
        assert np.ptp(want, axis=0).min() > 0.05  # not flat: curves read
        print("# Blender imported %d frames of x, y, z, equal to the file's "
              "columns" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
