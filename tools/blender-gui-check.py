#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC

"""The add-on Perlin4D Motion in Blender's own window, checked by hand.

Usage: /usr/bin/python3 tools/blender-gui-check.py RENDERER ADDON.py OUTDIR

What the headless test (tests/blender_addon.py) cannot reach: Blender
with its window, on a virtual display (xvfb-run, Debian package xvfb),
with simulated events (--enable-event-simulate).  The add-on is installed
as Install... does, into a private user folder; then, a step every two
seconds:
  1. Object > Perlin4D Motion's dialog opens (invoke) and is photographed
     (OUTDIR/dialog.png);
  2. Return presses its OK: the cube's location x, y and z must get keys
     (the default settings: index -1, every element its own channel);
  3. the sidebar is opened on the 3D view (OUTDIR/sidebar.png: the
     Perlin4D tab, the keyed location), the Object menu photographed
     (OUTDIR/menu.png: Perlin4D Motion at its foot);
  4. one ed.undo (Ctrl Z) must leave the cube with no keys at all;
  5. the preferences' add-on entry, expanded, is photographed
     (OUTDIR/preferences.png: the renderer's path and the one it runs).
Prints what it found; exits 1 if a step failed.  Look at the pictures.
"""

import os
import shutil
import subprocess
import sys
import tempfile

# Run inside Blender: argv after "--" is ADDON RENDERER OUTDIR.
BLENDER_SCRIPT = r"""
import bpy, addon_utils, os, sys, traceback
addon, render, outdir = sys.argv[-3:]
bpy.ops.preferences.addon_install(filepath=addon)
addon_utils.enable("perlin4d_motion", default_set=True, handle_error=None)
prefs = bpy.context.preferences
prefs.addons["perlin4d_motion"].preferences.render_path = render
report = open(os.path.join(outdir, "report.txt"), "w")
step = [0]

def view3d():
    win = bpy.context.window_manager.windows[0]
    area = [a for a in win.screen.areas if a.type == "VIEW_3D"][0]
    region = [r for r in area.regions if r.type == "WINDOW"][0]
    return dict(window=win, screen=win.screen, area=area, region=region)

def shot(name, where):
    with bpy.context.temp_override(**where):
        bpy.ops.screen.screenshot(filepath=os.path.join(outdir, name))

def keys():
    anim = bpy.data.objects["Cube"].animation_data
    if anim is None or anim.action is None:
        return []
    return [(f.data_path, f.array_index, len(f.keyframe_points))
            for f in anim.action.fcurves]

def say(ok, what):
    report.write("%s %s\n" % ("ok  " if ok else "FAIL", what))
    report.flush()

def tick():
    s = step[0]
    step[0] += 1
    where = view3d()
    win = where["window"]
    try:
        if s == 0:
            with bpy.context.temp_override(**where):
                r = bpy.ops.object.perlin4d_motion("INVOKE_DEFAULT")
            say(r == {"RUNNING_MODAL"}, "the dialog opens: %s" % r)
        elif s == 1:
            shot("dialog.png", where)
            win.event_simulate(type="MOUSEMOVE", value="NOTHING",
                               x=win.width // 2, y=win.height // 2)
            win.event_simulate(type="RET", value="PRESS")
            win.event_simulate(type="RET", value="RELEASE")
        elif s == 2:
            k = keys()
            say(sorted(i for _, i, n in k if n > 1) == [0, 1, 2],
                "OK keys location x, y, z: %s" % k)
            where["area"].spaces[0].show_region_ui = True
        elif s == 3:
            shot("sidebar.png", where)
            with bpy.context.temp_override(**where):
                bpy.ops.wm.call_menu(name="VIEW3D_MT_object")
        elif s == 4:
            shot("menu.png", where)
            win.event_simulate(type="ESC", value="PRESS")
            win.event_simulate(type="ESC", value="RELEASE")
        elif s == 5:
            with bpy.context.temp_override(**where):
                bpy.ops.ed.undo()
        elif s == 6:
            say(keys() == [], "one undo removes every key: %s" % keys())
            prefs.active_section = "ADDONS"
            bpy.context.window_manager.addon_search = "Perlin4D"
            for mod in addon_utils.modules():
                if mod.__name__ == "perlin4d_motion":
                    addon_utils.module_bl_info(mod)["show_expanded"] = True
            bpy.ops.screen.userpref_show()
        elif s == 7:
            wins = bpy.context.window_manager.windows
            w = wins[len(wins) - 1]
            shot("preferences.png", dict(window=w, screen=w.screen,
                                         area=w.screen.areas[0]))
        else:
            report.close()
            bpy.ops.wm.quit_blender()
            return None
    except Exception:
        say(False, "step %d: %s" % (s, traceback.format_exc()))
    return 2.0

bpy.app.timers.register(tick, first_interval=3.0)
"""


def main():
    """Run Blender's window on a virtual display once."""
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    render, addon, outdir = (os.path.abspath(a) for a in sys.argv[1:])
    if not shutil.which("xvfb-run") or not shutil.which("blender"):
        print("needs blender and xvfb-run (apt-get install blender xvfb)")
        return 2
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="p4d-gui-") as work:
        start = os.path.join(work, "start.blend")  # a file: no splash
        subprocess.run(["blender", "-b", "--factory-startup",
                        "--python-expr", "import bpy; bpy.ops.wm."
                        "save_as_mainfile(filepath=%r)" % start],
                       capture_output=True, check=True)
        script = os.path.join(work, "gui.py")
        with open(script, "w", encoding="utf-8") as stream:
            stream.write(BLENDER_SCRIPT)
        env = dict(os.environ, BLENDER_USER_SCRIPTS=os.path.join(work, "us"),
                   BLENDER_USER_CONFIG=os.path.join(work, "cfg"))
        subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24",
                        "blender", "--factory-startup",
                        "--enable-event-simulate", start, "--python", script,
                        "--", addon, render, outdir],
                       capture_output=True, env=env, timeout=300,
                       check=False)
    with open(os.path.join(outdir, "report.txt"), encoding="utf-8") as stream:
        text = stream.read()
    print(text, end="")
    return 1 if "FAIL" in text or text.count("ok") < 3 else 0


if __name__ == "__main__":
    sys.exit(main())
