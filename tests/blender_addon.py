#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
"""The Blender add-on Perlin4D Motion, headless, against the renderer's CSV.

usage: blender_addon.py RENDERER ADDON.py

Blender (blender -b --factory-startup, its user folders in a temporary
folder) installs the add-on ADDON.py as Edit > Preferences > Add-ons >
Install... does (preferences.addon_install), enables it, points its
preferences at RENDERER and runs its operator on the default cube, at 24
fps and at 30000/1001 fps (fps 30, fps_base 1.001), frames 1 to 250:
  - location[2] (Low -0.5, High 1.5, rate 2 Hz, seed 7, tolerance 0.002),
    over a curve that already has keys at frames -10 and 300 (kept);
  - rotation_euler, every index (the preset wander-per-bar, Song beats at
    100 bpm, channels 2, 3, 4), tolerance 0.002, frames 51 to 300;
  - the custom property ["wobble"] with the song time of frame 1 given
    (2.5 s), tolerance 0 (a key a frame);
  - the material's Roughness, keyed on its node tree.
Then a second object sharing the cube's mesh: the two get seeds 7 and 8
on location[0], and their shared material is keyed once, with seed 99.
At every frame (scene.frame_set) it reads the property's value and the
F-curve's evaluate(); this script renders the CSV at the same fps itself
(from song time 0, or 2.5 s: row k is frame k + 1) and every row must
match within tolerance * |High - Low| plus the rounding of 32-bit floats.
The CSV shifted by one row must not match (the comparison sees an
off-by-one frame mapping).  Every key inside the range is LINEAR.

Blender's undo in background mode works once ed.undo_push() has started
the undo system: one ed.undo() after the operator must restore every
F-curve as it was before (one undo step), and ed.redo() the operator's.
The renderer found is the preferences' path, else PERLIN4D_RENDER.  Errors: a renderer path that
does not exist, a property the cube lacks and a parameter the renderer
refuses are each reported (the operator raises RuntimeError with the one
line) and change no F-curve.

Exits 77 (skipped) when blender is not installed.
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction

# The scene's range; a case may key another (the operator's own range).
FRAMES = (1, 250)
# One rounding of a 32-bit float, relative (F-curve keys and values).
FLOAT32_EPS = 2.0 ** -23

# The operator remembers its last settings (Blender's rule for registered
# operators): every case gives them all.
DEFAULTS = {"data_path": "location", "array_index": -1, "low": 0.0,
            "high": 1.0, "use_scene_range": True, "use_song_start": False,
            "song_start_s": 0.0, "preset": "NONE", "clock": "0",
            "tempo_bpm": 120.0, "rate_hz": 0.5, "period_beats": 4.0,
            "octaves": 3, "spread": 1.0, "seed": 1, "channel": 1,
            "settings": "", "tolerance": 0.002}

# Each case: the operator's settings, and the renderer arguments that draw
# the same curve from the song time of frame 1 (out_min 0, out_max 1).
CASES = [
    {"name": "location_z",
     "op": {"data_path": "location", "array_index": 2, "low": -0.5,
            "high": 1.5, "rate_hz": 2.0, "seed": 7, "tolerance": 0.002,
            "preset": "NONE", "clock": "0", "channel": 1},
     "render": ["--set", "rate_hz=2", "--seed", "7"],
     "indices": [2], "channels": [1], "start_s": 0.0},
    {"name": "rotation",
     "op": {"data_path": "rotation_euler", "array_index": -1, "low": -0.3,
            "high": 0.3, "seed": 3, "tolerance": 0.002,
            "preset": "wander-per-bar", "tempo_bpm": 100.0, "channel": 2,
            "use_scene_range": False, "frame_start": 51, "frame_end": 300},
     "frames": (51, 300),
     "render": ["--preset", "wander-per-bar", "--seed", "3", "--tempo",
                "100"],
     "indices": [0, 1, 2], "channels": [2, 3, 4], "start_s": 0.0},
    {"name": "wobble",
     "op": {"data_path": '["wobble"]', "array_index": -1, "low": 10.0,
            "high": 20.0, "rate_hz": 1.0, "seed": 1, "tolerance": 0.0,
            "preset": "NONE", "clock": "0", "channel": 4,
            "use_song_start": True, "song_start_s": 2.5},
     "render": ["--set", "rate_hz=1", "--seed", "1"],
     "indices": [0], "channels": [4], "start_s": 2.5},
    # A property of another data-block (the material's node tree), reached
    # from the object: keyed on the node tree, as Blender keys it.
    {"name": "roughness",
     "op": {"data_path": 'active_material.node_tree.nodes["Principled '
            'BSDF"].inputs["Roughness"].default_value', "array_index": -1,
            "low": 0.2, "high": 0.9, "rate_hz": 3.0, "seed": 99,
            "tolerance": 0.01},
     "fcurve": 'nodes["Principled BSDF"].inputs[9].default_value',
     "render": ["--set", "rate_hz=3", "--seed", "99"],
     "indices": [0], "channels": [1], "start_s": 0.0},
]
for _case in CASES:
    _case["op"] = dict(DEFAULTS, **_case["op"])
    _case.setdefault("frames", FRAMES)
RATES = [("24", 24, 1.0), ("30000/1001", 30, 1.001)]

# Run inside Blender: argv after "--" is ADDON RENDER CASES OUT.
BLENDER_SCRIPT = r"""
import bpy, addon_utils, json, os, shutil, sys
addon, render, cases, out = sys.argv[-4:]
cases = json.loads(cases)
os.environ.pop("PERLIN4D_RENDER", None)
# As Edit > Preferences > Add-ons > Install... and the add-on's tick box.
assert bpy.ops.preferences.addon_install(filepath=addon) == {"FINISHED"}
addon_utils.enable("perlin4d_motion", default_set=True, handle_error=None)
prefs = bpy.context.preferences.addons["perlin4d_motion"].preferences
# The renderer: the preferences' path, else PERLIN4D_RENDER.
import perlin4d_motion
assert perlin4d_motion.__file__.startswith(
    os.environ["BLENDER_USER_SCRIPTS"]), perlin4d_motion.__file__
os.environ["PERLIN4D_RENDER"] = render
found_env = perlin4d_motion.find_renderer(bpy.context)
prefs.render_path = "/elsewhere/perlin4d-render"
found_prefs = perlin4d_motion.find_renderer(bpy.context)
os.environ.pop("PERLIN4D_RENDER")
assert (found_env, found_prefs) == (render, "/elsewhere/perlin4d-render"), \
    (found_env, found_prefs)
op = bpy.ops.object.perlin4d_motion
result = {"undo": [], "errors": [], "runs": []}

def cube():
    return bpy.data.objects["Cube"]

def curves():
    # Every F-curve: action, path, index -> [(frame, value, interpolation)].
    return {"%s %s[%d]" % (a.name, f.data_path, f.array_index):
            [(k.co.x, k.co.y, k.interpolation) for k in f.keyframe_points]
            for a in bpy.data.actions for f in a.fcurves}

def fcurves(case):
    # The F-curves the case keys: the cube's, or its material's nodes'.
    owner = cube()
    if case.get("fcurve"):
        owner = owner.active_material.node_tree
    return owner.animation_data.action.fcurves

def value(path, index):
    v = cube().path_resolve(path)
    return v[index] if hasattr(v, "__len__") else v

cube()["wobble"] = 0.0
cube().keyframe_insert("location", index=2, frame=-10)
cube().location.z = 3.0
cube().keyframe_insert("location", index=2, frame=300)
bpy.ops.ed.undo_push(message="start")
for rate, fps, base in json.loads(sys.argv[-5]):
    # Undo replaces every data-block: take the scene anew each time.
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = fps, base
    scene.frame_start, scene.frame_end = cases[0]["frames"]
    for case in cases:
        scene = bpy.context.scene
        prefs.render_path = render
        before = curves()
        op("EXEC_DEFAULT", True, **case["op"])
        after = curves()
        run = {"rate": rate, "case": case["name"], "values": [],
               "evaluate": [], "keys": {}}
        anim = fcurves(case)
        path = case["op"]["data_path"]
        key_path = case.get("fcurve", path)
        for index in case["indices"]:
            fc = anim.find(key_path, index=index)
            run["keys"][str(index)] = [(k.co.x, k.co.y, k.interpolation)
                                       for k in fc.keyframe_points]
        first, last = case["frames"]
        for frame in range(first, last + 1):
            scene.frame_set(frame)
            run["values"].append([value(path, i) for i in case["indices"]])
            run["evaluate"].append([anim.find(key_path, index=i)
                                    .evaluate(frame)
                                    for i in case["indices"]])
        result["runs"].append(run)
        # One undo step: the curves as they were, then redo them.
        bpy.ops.ed.undo()
        result["undo"].append([rate, case["name"], "undo: as before",
                               before != after and curves() == before])
        bpy.ops.ed.redo()
        result["undo"].append([rate, case["name"], "redo: as after",
                               curves() == after])
        bpy.ops.ed.undo_push(message="next")
# Two objects: each its own seed (by name: Cube seed 7, Cube2 seed 8).
scene = bpy.context.scene
scene.render.fps, scene.render.fps_base = 24, 1.0
twin = bpy.data.objects.new("Cube2", cube().data)
scene.collection.objects.link(twin)
cube().select_set(True)
twin.select_set(True)
prefs.render_path = render
op("EXEC_DEFAULT", True, **dict(cases[0]["op"], array_index=0,
                                tolerance=0.0))
result["twins"] = {}
for name in ("Cube", "Cube2"):
    obj = bpy.data.objects[name]
    values = []
    for frame in range(1, 251):
        scene.frame_set(frame)
        values.append(obj.location.x)
    result["twins"][name] = values
# A data-block both share (the material's node tree): keyed once, by Cube.
roughness = [c for c in cases if c.get("fcurve")][0]
op("EXEC_DEFAULT", True, **dict(roughness["op"], tolerance=0.0))
shared = fcurves(roughness).find(roughness["fcurve"])
result["twins"]["shared"] = [shared.evaluate(f) for f in range(1, 251)]
twin.select_set(False)
# Errors: each reported, and no F-curve changes.
settings = dict(cases[0]["op"])
bad = [("missing renderer", dict(settings), "/nonexistent/perlin4d-render"),
       ("missing property", dict(settings, data_path="no_such_thing"),
        render),
       ("renderer refuses", dict(settings, settings="no_such_param=1"),
        render)]
for name, kwargs, path in bad:
    prefs.render_path = path
    before = curves()
    try:
        op("EXEC_DEFAULT", True, **kwargs)
        message = None
    except RuntimeError as err:
        message = str(err).strip()
    result["errors"].append([name, message, curves() == before])
json.dump(result, open(out, "w"))
"""


def render_csv(render, work, case, rate, name):
    """The renderer's rows for the case: [[out_1 .. out_4], ...].

    Row k is frame k + 1: the render starts at the song time of frame 1.
    """
    path = os.path.join(work, name + ".csv")
    fps = Fraction(rate)
    last = case["frames"][1]
    # Rows 0 .. last: one more than the range, for the shifted check.
    subprocess.run([render, "--plugin", "mod", "-o", path, "--quiet",
                    "--force", "--fps", rate, "--start", repr(case["start_s"]),
                    "--duration", repr(float((last + 0.5) / fps)),
                    "--set", "out_min=0", "--set", "out_max=1"]
                   + case["render"], check=True)
    with open(path, encoding="utf-8") as stream:
        rows = list(csv.reader(stream))[1:]
    assert len(rows) == last + 1, len(rows)
    return [[float(x) for x in row[1:]] for row in rows]


def check_run(run, case, rows):
    """Every frame within tolerance of the CSV; returns the worst error."""
    low, high = case["op"]["low"], case["op"]["high"]
    span = high - low
    allowed = case["op"]["tolerance"] * abs(span) \
        + 4 * FLOAT32_EPS * max(abs(low), abs(high))
    worst = 0.0
    shifted = 0.0
    first, last = case["frames"]
    for frame in range(first, last + 1):
        k = frame - first
        for j, channel in enumerate(case["channels"]):
            want = low + rows[frame - 1][channel - 1] * span
            got = run["values"][k][j]
            assert abs(run["evaluate"][k][j] - got) <= allowed, \
                (case["name"], frame, run["evaluate"][k][j], got)
            worst = max(worst, abs(got - want))
            assert abs(got - want) <= allowed, \
                (run["rate"], case["name"], "frame", frame, got, want,
                 allowed)
            off = low + rows[frame][channel - 1] * span
            shifted = max(shifted, abs(got - off))
    # Frame F one row late would be far outside the tolerance.
    assert shifted > 10 * allowed, (case["name"], shifted, allowed)
    return worst / abs(span), shifted / abs(span)


def check_keys(run, case):
    """LINEAR keys on whole frames inside the range, the rest kept."""
    n_keys = 0
    first, last = case["frames"]
    for index, keys in run["keys"].items():
        inside = [k for k in keys if first <= k[0] <= last]
        outside = [k for k in keys if not first <= k[0] <= last]
        assert inside[0][0] == first and inside[-1][0] == last, inside
        assert all(k[2] == "LINEAR" and k[0] == round(k[0])
                   for k in inside), inside
        if case["op"]["tolerance"] == 0:
            assert len(inside) == last - first + 1, len(inside)
        else:
            assert len(inside) < last - first + 1, len(inside)  # thinned
        if case["name"] == "location_z":
            # The keys at -10 and 300 were there before: kept.
            assert [k[0] for k in outside] == [-10, 300], outside
            assert abs(outside[1][1] - 3.0) < 1e-6, outside
        else:
            assert not outside, (index, outside)
        n_keys += len(inside)
    return n_keys


def check_twins(render, work, twins):
    """Two objects keyed at once: seeds 7 and 8, in name order."""
    case = CASES[0]
    low, high = case["op"]["low"], case["op"]["high"]
    allowed = 4 * FLOAT32_EPS * max(abs(low), abs(high))
    for name, seed in (("Cube", 7), ("Cube2", 8)):
        rows = render_csv(render, work, dict(case, render=[
            "--set", "rate_hz=2", "--seed", str(seed)]), "24",
                          "twin-%d" % seed)
        worst = max(abs(v - (low + rows[k][0] * (high - low)))
                    for k, v in enumerate(twins[name]))
        print("# two objects: %s has seed %d (largest error %.2e)" % (
            name, seed, worst))
        assert worst <= allowed, (name, worst)
    assert twins["Cube"] != twins["Cube2"]
    case = [c for c in CASES if c.get("fcurve")][0]
    low, high = case["op"]["low"], case["op"]["high"]
    rows = render_csv(render, work, case, "24", "shared")
    worst = max(abs(v - (low + rows[k][0] * (high - low)))
                for k, v in enumerate(twins["shared"]))
    print("# two objects, one material: keyed once, with Cube's seed "
          "(largest error %.2e)" % worst)
    assert worst <= 4 * FLOAT32_EPS * max(abs(low), abs(high)), worst


def main():
    """Run Blender and check what it reports."""
    blender = shutil.which("blender")
    if not blender:
        print("# blender is not installed: skipped")
        return 77
    render = os.path.abspath(sys.argv[1])
    addon = os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="p4d-blender-addon-") as work:
        out = os.path.join(work, "result.json")
        script = os.path.join(work, "in_blender.py")
        with open(script, "w", encoding="utf-8") as stream:
            stream.write(BLENDER_SCRIPT)
        env = dict(os.environ, BLENDER_USER_CONFIG=os.path.join(work, "cfg"),
                   BLENDER_USER_SCRIPTS=os.path.join(work, "scripts"))
        done = subprocess.run(
            [blender, "-b", "--factory-startup", "--python-exit-code", "1",
             "--python", script, "--",
             json.dumps(RATES), addon,
             render, json.dumps(CASES), out],
            capture_output=True, text=True, check=False, env=env)
        if done.returncode or not os.path.exists(out):
            print(done.stdout[-3000:], done.stderr[-3000:])
            return 1
        with open(out, encoding="utf-8") as stream:
            result = json.load(stream)
        cases = {case["name"]: case for case in CASES}
        for run in result["runs"]:
            case = cases[run["case"]]
            rows = render_csv(render, work, case, run["rate"], "%s-%d" % (
                case["name"], len(run["rate"])))
            worst, shifted = check_run(run, case, rows)
            n_keys = check_keys(run, case)
            print("# %-10s %-10s %3d keys, frames %d-%d x %d: largest "
                  "error %.2e of |High - Low| (allowed %g); one frame "
                  "late %.2e" % (run["rate"], case["name"], n_keys,
                                 case["frames"][0], case["frames"][1],
                                 len(case["indices"]), worst,
                                 case["op"]["tolerance"], shifted))
        assert len(result["runs"]) == len(RATES) * len(CASES)
        for rate, name, what, same in result["undo"]:
            print("# %-10s %-13s %s: %s" % (rate, name, what,
                                             "yes" if same else "NO"))
            assert same, (rate, name, what)
        for name, message, same in result["errors"]:
            print("# error (%s): %s; curves %s" % (
                name, message, "unchanged" if same else "CHANGED"))
            assert message and same, (name, message, same)
        assert "cannot run perlin4d-render" in result["errors"][0][1]
        assert "no_such_thing" in result["errors"][1][1]
        assert "no_such_param" in result["errors"][2][1]
        check_twins(render, work, result["twins"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
