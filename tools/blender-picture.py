#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC

"""The manual's Blender figure, as doc/blender-motion.png.

Usage: /usr/bin/python3 tools/blender-picture.py RENDERER OUT.png

Blender (blender -b --factory-startup, EEVEE, 960 x 540) enables the
add-on blender/perlin4d_motion.py of this checkout, pointed at RENDERER,
and runs its operator on Suzanne, frames 1 to 250 at 24 fps: location z
between 0 and 4.4 (rate 0.4 Hz, seed 5) and rotation_euler between -0.5
and 0.5 rad (the preset slow-drift, seed 5), tolerance 0.005.  Then it
draws what the F-curves hold, the song's time running to the right: a
tube through location z at every frame (x = the frame), a dot at every
key the renderer kept, and Suzanne herself at nine frames (her height and
turn at that frame, read with scene.frame_set), each labelled with its
frame.  An orthographic camera looks along +y, at a wall that catches
the shadows.
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ADDON = os.path.join(HERE, "..", "blender", "perlin4d_motion.py")

# Run inside Blender: argv after "--" is ADDON_FOLDER RENDERER OUT.
BLENDER_SCRIPT = r"""
import bpy, addon_utils, math, sys
folder, render, out = sys.argv[-3:]
sys.path.insert(0, folder)
addon_utils.enable("perlin4d_motion", default_set=True, handle_error=None)
bpy.context.preferences.addons["perlin4d_motion"].preferences \
    .render_path = render
FIRST, LAST = 1, 250
X0, X1 = -7.6, 7.6            # where frames FIRST and LAST are drawn
GHOSTS = [1, 32, 63, 94, 125, 156, 187, 218, 250]

scene = bpy.context.scene
scene.render.fps, scene.render.fps_base = 24, 1.0
scene.frame_start, scene.frame_end = FIRST, LAST
for obj in list(bpy.data.objects):
    bpy.data.objects.remove(obj)

bpy.ops.mesh.primitive_monkey_add(size=1.0)
monkey = bpy.context.active_object
monkey.name = "Suzanne"
bpy.ops.object.shade_smooth()
monkey.modifiers.new("smooth", "SUBSURF").levels = 2
op = bpy.ops.object.perlin4d_motion
common = dict(use_scene_range=True, use_song_start=False, seed=5,
              tolerance=0.005, settings="", channel=1, tempo_bpm=120.0)
op("EXEC_DEFAULT", data_path="location", array_index=2, low=0.0, high=4.4,
   preset="NONE", clock="0", rate_hz=0.4, octaves=3, spread=1.0, **common)
op("EXEC_DEFAULT", data_path="rotation_euler", array_index=-1, low=-0.5,
   high=0.5, preset="slow-drift", **common)
curves = monkey.animation_data.action.fcurves
z_curve = curves.find("location", index=2)

def frame_x(frame):
    return X0 + (X1 - X0) * (frame - FIRST) / (LAST - FIRST)

def material(name, rgb, rough=0.4, emit=0.0):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    bsdf = m.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = rgb + (1.0,)
    bsdf.inputs["Roughness"].default_value = rough
    if emit:
        bsdf.inputs["Emission"].default_value = rgb + (1.0,)
        bsdf.inputs["Emission Strength"].default_value = emit
    return m

orange = material("curve", (1.0, 0.25, 0.02), emit=1.5)
keys_m = material("keys", (0.05, 0.05, 0.06), rough=0.3)
skin = material("suzanne", (0.08, 0.42, 0.62), rough=0.3)
floor_m = material("floor", (0.9, 0.9, 0.88), rough=0.8)
ink = material("ink", (0.12, 0.12, 0.14), rough=0.9)

# The tube through location z at every frame (the curve Blender plays).
data = bpy.data.curves.new("z", "CURVE")
data.dimensions = "3D"
data.bevel_depth = 0.05
data.bevel_resolution = 3
spline = data.splines.new("POLY")
spline.points.add(LAST - FIRST)
for i, frame in enumerate(range(FIRST, LAST + 1)):
    spline.points[i].co = (frame_x(frame), 0.6, z_curve.evaluate(frame), 1)
tube = bpy.data.objects.new("z curve", data)
tube.data.materials.append(orange)
scene.collection.objects.link(tube)

# A dot at every key the renderer kept.
bpy.ops.mesh.primitive_uv_sphere_add(radius=0.075, segments=12,
                                     ring_count=8)
dot = bpy.context.active_object
dot.data.materials.append(keys_m)
for point in z_curve.keyframe_points:
    copy = dot.copy()
    copy.location = (frame_x(point.co.x), 0.6, point.co.y)
    scene.collection.objects.link(copy)
bpy.data.objects.remove(dot)

# Suzanne at some frames: her height and turn there, as Blender plays them.
monkey.data.materials.append(skin)
for frame in GHOSTS:
    scene.frame_set(frame)
    ghost = monkey.copy()
    ghost.animation_data_clear()
    ghost.location = (frame_x(frame), 0.0, monkey.location.z)
    ghost.rotation_euler = monkey.rotation_euler.copy()
    ghost.scale = (0.85, 0.85, 0.85)
    scene.collection.objects.link(ghost)
    bpy.ops.object.text_add(location=(frame_x(frame), -0.4, -1.25))
    label = bpy.context.active_object
    label.data.body = "frame %d" % frame
    label.data.size = 0.3
    label.data.align_x = "CENTER"
    label.rotation_euler = (math.pi / 2, 0, 0)
    label.data.materials.append(ink)
bpy.data.objects.remove(monkey)

bpy.ops.object.text_add(location=(X0, -0.4, 5.9))
title = bpy.context.active_object
title.data.body = ("Perlin4D Motion on Suzanne's height and turn: "
                   "%d keys for %d frames, tolerance 0.5 %%" % (
                       len(z_curve.keyframe_points), LAST - FIRST + 1))
title.data.size = 0.4
title.rotation_euler = (math.pi / 2, 0, 0)
title.data.materials.append(ink)

bpy.ops.mesh.primitive_plane_add(size=60, location=(0, 1.3, 0),
                                 rotation=(math.pi / 2, 0, 0))
bpy.context.active_object.data.materials.append(floor_m)

bpy.ops.object.light_add(type="SUN", rotation=(0.75, 0.35, 0.2))
sun = bpy.context.active_object
sun.data.energy = 3.5
sun.data.angle = 0.05
bpy.ops.object.camera_add(location=(0, -20, 2.25),
                          rotation=(math.pi / 2, 0, 0))
camera = bpy.context.active_object
camera.data.type = "ORTHO"
camera.data.ortho_scale = 17.2
scene.camera = camera
world = scene.world
world.use_nodes = True
world.node_tree.nodes["Background"].inputs["Color"].default_value = (
    0.9, 0.91, 0.93, 1.0)
world.node_tree.nodes["Background"].inputs["Strength"].default_value = 0.6

scene.frame_set(FIRST)
scene.render.engine = "BLENDER_EEVEE"
scene.eevee.taa_render_samples = 32
scene.eevee.use_soft_shadows = True
scene.eevee.use_gtao = True
scene.view_settings.view_transform = "Filmic"
scene.view_settings.look = "Medium High Contrast"
scene.render.resolution_x, scene.render.resolution_y = 960, 540
scene.render.resolution_percentage = 100
scene.render.image_settings.file_format = "PNG"
scene.render.image_settings.color_mode = "RGB"
scene.render.image_settings.compression = 100
scene.render.filepath = out
bpy.ops.render.render(write_still=True)
"""


def main():
    """Run Blender once."""
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    render = os.path.abspath(sys.argv[1])
    out = os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="p4d-picture-") as work:
        folder = os.path.join(work, "addon")
        os.mkdir(folder)
        with open(ADDON, encoding="utf-8") as src, \
                open(os.path.join(folder, "perlin4d_motion.py"), "w",
                     encoding="utf-8") as dst:
            dst.write(src.read())
        script = os.path.join(work, "picture.py")
        with open(script, "w", encoding="utf-8") as stream:
            stream.write(BLENDER_SCRIPT)
        done = subprocess.run(
            ["blender", "-b", "--factory-startup", "--python-exit-code", "1",
             "--python", script, "--", folder, render, out],
            capture_output=True, text=True, check=False)
        if done.returncode or not os.path.exists(out):
            print(done.stdout[-3000:], done.stderr[-3000:])
            return 1
    print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
