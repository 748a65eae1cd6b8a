# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
"""Perlin4D Motion: Perlin noise motion on any animatable property.

A Blender add-on (issue 22 item 3).  Object > Perlin4D Motion (or the
sidebar's Perlin4D tab, or F3 "Perlin4D Motion") writes the curve of
Perlin4D Mod, as perlin4d-render computes it, as F-curve keyframes of a
property of every selected object, in one undo step.

How the keys are made:
  1. For each selected object, perlin4d-render --plugin mod writes a JSON
     document (format "perlin4d-curves") into a private temporary folder:
     one row a frame at the scene's frame rate (render.fps / fps_base,
     passed as a fraction such as 30000/1001), from the song time of the
     range's first frame (--start), with out_min 0 and out_max 1, the
     tempo (--tempo, for the Song beats clock) and --tolerance, so that
     the document holds only the keys needed for every frame to lie within
     the tolerance of the straight line between the keys around it.
  2. Song time: frame F of the scene is song second (F - 1) / fps, so that
     frame 1 is the start of the song and two ranges rendered apart join
     without a seam; "Song time" instead gives the song second of the
     range's first frame (at least 0).
  3. Each key (time t, value v) becomes a key at frame
     frame_start + round((t - start) * fps), value low + v * (high - low),
     with LINEAR interpolation; the curve's keys inside the range are
     replaced, the keys outside are kept.  At every frame of the range the
     property is the renderer's curve within tolerance * |high - low|
     (plus the rounding of F-curve values to 32-bit floats).
  4. Channels and seeds: array element j of the property (index -1: all
     elements, at most 4) takes the Mod's channel ((channel - 1 + j) mod 4)
     + 1, so that x, y and z wander apart (Spread 0 moves them together);
     the selected objects, in name order, take seeds seed, seed + 1, ...
     (mod 65536), so that each moves its own way.  A data-block that
     several of them share (a material, a mesh) is keyed once, by the
     first.
  5. Settings: a preset of the Mod (perlin4d-render --list-presets), or
     the dialog's Clock, Rate, Period, Octaves and Spread; More settings
     passes any other parameter (--set symbol=value); Seed, Low, High
     and the tempo apply to either.
  6. Everything is rendered and checked before anything changes: an error
     (the renderer's own one-line message, a missing property) is
     reported and leaves the scene as it was.

The property is a data path from the object: "location",
"rotation_euler", "scale", '["my_prop"]' (a custom property),
'modifiers["Wave"].speed', 'data.energy' (a light's power),
'active_material.node_tree.nodes["Principled BSDF"].inputs[0]
.default_value'.  A path that leaves the object's own data (into its
mesh, light, material or node tree) is keyed on the data-block that owns
the property, as Blender's own Insert Keyframe does.

The renderer: the add-on preferences' path, else the PERLIN4D_RENDER
environment variable, else perlin4d-render on the PATH, else the one the
build installed (PREFIX/bin/perlin4d-render).

Limits: keys lie on whole frames, so between frames (motion blur's
sub-frames) the property follows the straight line between them; after
the range the curve runs straight from the last key to the next one kept;
an integer property rounds the curve; the tempo is one number (Blender
has no tempo map).
"""

import json
import os
import shutil
import subprocess
import tempfile
from fractions import Fraction

import bpy
from bpy.props import (
    BoolProperty,
    EnumProperty,
    FloatProperty,
    IntProperty,
    StringProperty,
)

bl_info = {
    "name": "Perlin4D Motion",
    "author": "The perlin4d authors",
    "version": (1, 0, 0),
    "blender": (3, 4, 0),
    "location": "View3D > Object > Perlin4D Motion; Sidebar > Perlin4D",
    "description": "Perlin noise motion (perlin4d-render's Perlin4D Mod) "
    "as keyframes on any animatable property of the selected objects",
    "category": "Animation",
}

# The renderer meson installed, written in when the add-on is installed
# (blender/meson.build); left as it is in the source folder.
INSTALLED_RENDER = "@RENDER@"
# Rows per second the renderer accepts (its --fps range).
FPS_LOWEST, FPS_HIGHEST = 1.0, 1000.0
# Elements of one property at once: the Mod has 4 channels.
MOD_CHANNELS = 4
# A key of the range: frames this close to its ends count as inside.
FRAME_EPSILON = 1e-3

CLOCKS = (
    ("0", "Song time", "The curve follows the song position in seconds"),
    ("1", "Song beats", "The curve follows the song position in beats "
     "at the tempo (Period in beats)"),
    ("2", "Free running", "The curve runs on its own from the range's start"),
)


def find_renderer(context):
    """Return the renderer to run: preferences, environment, PATH, build.

    Returns the path of an executable, or None.
    """
    addon = context.preferences.addons.get(__name__)
    chosen = addon.preferences.render_path if addon else ""
    if chosen:
        return bpy.path.abspath(chosen)
    if os.environ.get("PERLIN4D_RENDER"):
        return os.environ["PERLIN4D_RENDER"]
    found = shutil.which("perlin4d-render")
    if found:
        return found
    if not INSTALLED_RENDER.startswith("@") and os.access(INSTALLED_RENDER,
                                                          os.X_OK):
        return INSTALLED_RENDER
    return None


def run_renderer(render, args):
    """Run the renderer; return (its one-line error or None, warnings)."""
    try:
        done = subprocess.run([render] + args, capture_output=True,
                              text=True, check=False)
    except OSError as err:
        return "cannot run perlin4d-render (%s): %s" % (
            render, err.strerror), []
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    if done.returncode == 0:
        return None, lines
    return lines[-1] if lines else (
        "perlin4d-render failed with exit status %d" % done.returncode), []


# The Mod's presets, by renderer: {path: [(name, label), ...]}.  Kept for
# the session, and the enum items built from it are kept too (Blender does
# not hold the strings of dynamic enum items).
_PRESETS = {}
_PRESET_ITEMS = {}


def mod_presets(render):
    """The Mod's presets as perlin4d-render --list-presets prints them."""
    if render not in _PRESETS:
        presets = []
        try:
            done = subprocess.run([render, "--list-presets"],
                                  capture_output=True, text=True,
                                  check=False)
            for line in done.stdout.splitlines():
                fields = line.split()
                if len(fields) >= 3 and fields[1] == "mod":
                    presets.append((fields[0], " ".join(fields[2:-1])))
        except OSError:
            pass
        _PRESETS[render] = presets
    return _PRESETS[render]


def preset_items(_self, context):
    """Items of the Preset menu: none, then the Mod's presets."""
    render = find_renderer(context) if context else None
    presets = tuple(mod_presets(render)) if render else ()
    if presets not in _PRESET_ITEMS:
        items = [("NONE", "None (the settings below)",
                  "Rate, octaves, spread and clock from this dialog")]
        items += [(name, label, "The Mod's preset %s" % label)
                  for name, label in presets]
        _PRESET_ITEMS[presets] = items
    return _PRESET_ITEMS[presets]


def scene_fps(scene):
    """The scene's frame rate as a fraction (30 / 1.001 -> 30000/1001).

    fps_base is a 32-bit float (1.001 is 1.00100004673...): the nearest
    fraction of denominator at most 1000 is the rate the user chose.
    """
    base = Fraction(scene.render.fps_base).limit_denominator(1000)
    return Fraction(scene.render.fps) / base


def decimal(value):
    """A setting as the user typed it: Blender keeps 32-bit floats."""
    return "%.7g" % value


def split_path(data_path):
    """Split a data path into its owner's path and its last property.

    'modifiers["Wave"].speed' -> ('modifiers["Wave"]', 'speed', False);
    '["my_prop"]' -> ('', 'my_prop', True) (a custom property).
    """
    if data_path.endswith('"]'):
        cut = data_path.rfind('["')
        if cut >= 0:
            return data_path[:cut], data_path[cut + 2:-2], True
    cut = data_path.rfind(".")
    return data_path[:cut] if cut >= 0 else "", data_path[cut + 1:], False


def resolve_target(obj, data_path, index):
    """Find what to key: (id, path from the id, [indices]) or an error.

    The error is a one-line message (a str) instead of the tuple.
    """
    if not data_path.strip():
        return "no property given"
    owner_path, name, custom = split_path(data_path.strip())
    try:
        owner = obj.path_resolve(owner_path) if owner_path else obj
    except ValueError:
        return "%s has no %s" % (obj.name, owner_path)
    if not hasattr(owner, "bl_rna"):
        return "%s: %s is not a data-block or a struct" % (obj.name,
                                                           owner_path)
    if custom:
        if name not in owner.keys():
            return "%s has no custom property %s" % (obj.name, name)
        value = owner[name]
        length = len(value) if hasattr(value, "__len__") else 0
        sample = value[0] if length else value
        if isinstance(sample, bool) or not isinstance(sample, (int, float)):
            return "%s: %s is not a number" % (obj.name, data_path)
        last = '["%s"]' % name
    else:
        prop = owner.bl_rna.properties.get(name)
        if prop is None:
            return "%s has no property %s" % (obj.name, data_path)
        if prop.type not in ("FLOAT", "INT") or not prop.is_animatable:
            return "%s: %s is not an animatable number" % (obj.name,
                                                           data_path)
        length = prop.array_length
        last = name
    ident = owner.id_data
    if owner == ident:
        path = last
    else:
        try:
            base = owner.path_from_id()
        except ValueError:
            return "%s: Blender cannot key %s" % (obj.name, data_path)
        path = base + ("" if custom else ".") + last
    if index < 0:
        indices = list(range(length)) if length else [-1]
    elif length and index < length:
        indices = [index]
    elif not length and index == 0:
        indices = [-1]
    else:
        return "%s: %s has no index %d" % (obj.name, data_path, index)
    if len(indices) > MOD_CHANNELS:
        return "%s: %s has %d elements; the Mod has %d channels: choose " \
            "an index" % (obj.name, data_path, len(indices), MOD_CHANNELS)
    return ident, path, indices


def read_keys(document, channel, start_s, fps, frame_start):
    """The keys of one channel of the renderer's JSON: [(frame, v), ...]."""
    for entry in document.get("channels", ()):
        if entry.get("index") == channel:
            # Keys lie on rows: the nearest whole row is the frame
            # (time is printed to the microsecond, rows are 1 ms apart
            # at most).
            return [(frame_start + round((t - start_s) * fps), v)
                    for t, v in entry["keys"]]
    return None


def fcurves_of(ident):
    """The F-curves of the data-block's action (made if it has none)."""
    anim = ident.animation_data or ident.animation_data_create()
    if anim.action is None:
        anim.action = bpy.data.actions.new(ident.name + "Action")
    action = anim.action
    if hasattr(action, "fcurves"):  # Blender 3.4 to 4.x
        return action.fcurves
    # Blender 5's layered actions keep the curves in a slot's channel bag
    # (not tried here: Debian 12 has Blender 3.4).
    from bpy_extras import anim_utils  # pylint: disable=import-outside-toplevel
    if anim.action_slot is None:
        anim.action_slot = action.slots.new(ident.id_type, ident.name)
    return anim_utils.action_ensure_channelbag_for_slot(
        action, anim.action_slot).fcurves


def replace_keys(ident, path, index, keys, frame_start, frame_end):
    """Replace the F-curve's keys inside [frame_start, frame_end]."""
    curves = fcurves_of(ident)
    curve = curves.find(path, index=max(index, 0))
    if curve is None:
        curve = curves.new(path, index=max(index, 0))
    points = curve.keyframe_points
    for point in reversed(points):
        if frame_start - FRAME_EPSILON <= point.co.x \
                <= frame_end + FRAME_EPSILON:
            points.remove(point, fast=True)
    for frame, value in keys:
        point = points.insert(frame, value, options={"FAST"})
        point.interpolation = "LINEAR"
    curve.update()
    return curve


class Perlin4dMotionPreferences(bpy.types.AddonPreferences):
    """Where perlin4d-render is."""

    bl_idname = __name__

    render_path: StringProperty(
        name="perlin4d-render",
        description="The renderer to run (empty: PERLIN4D_RENDER, else "
        "perlin4d-render on the PATH, else the installed one)",
        subtype="FILE_PATH",
        default="",
    )

    def draw(self, context):
        """The preferences' one field and the renderer it finds."""
        self.layout.prop(self, "render_path")
        found = find_renderer(context)
        self.layout.label(text="Runs: " + (found or "none found"))


class OBJECT_OT_perlin4d_motion(bpy.types.Operator):
    """Perlin noise motion on a property of the selected objects"""

    bl_idname = "object.perlin4d_motion"
    bl_label = "Perlin4D Motion"
    bl_options = {"REGISTER", "UNDO"}

    data_path: StringProperty(
        name="Property", default="location",
        description="Data path from the object: location, rotation_euler, "
        'scale, ["custom"], modifiers["Wave"].speed, data.energy, ...')
    array_index: IntProperty(
        name="Index", default=-1, min=-1,
        description="Element of the property (-1: every element, each on "
        "its own channel)")
    use_scene_range: BoolProperty(
        name="Scene range", default=True,
        description="Key the scene's frame range")
    frame_start: IntProperty(name="Start", default=1,
                             description="First frame to key")
    frame_end: IntProperty(name="End", default=250,
                           description="Last frame to key")
    use_song_start: BoolProperty(
        name="Set song time", default=False,
        description="Give the song time of the range's first frame "
        "(off: frame F is song second (F - 1) / fps)")
    song_start_s: FloatProperty(
        name="Song time", default=0.0, min=0.0, unit="TIME_ABSOLUTE",
        description="Song time of the range's first frame, in seconds")
    preset: EnumProperty(
        name="Preset", items=preset_items, default=0,
        description="Start from a preset of Perlin4D Mod")
    clock: EnumProperty(name="Clock", items=CLOCKS, default="0",
                        description="What the curve follows")
    tempo_bpm: FloatProperty(
        name="Tempo", default=120.0, min=1.0, max=999.0,
        description="The song's tempo in beats a minute (Song beats)")
    rate_hz: FloatProperty(
        name="Rate", default=0.5, min=0.001, max=50.0, unit="NONE",
        description="Speed of the motion in Hz (Song time, Free running)")
    period_beats: FloatProperty(
        name="Period", default=4.0, min=0.0625, max=256.0,
        description="Length of one wander in beats (Song beats)")
    octaves: IntProperty(name="Octaves", default=3, min=1, max=8,
                         description="Layers of finer detail")
    spread: FloatProperty(
        name="Spread", default=1.0, min=0.0, max=1.0,
        description="How differently the channels (the elements) move")
    seed: IntProperty(name="Seed", default=1, min=0, max=65535,
                      description="Seed of the first object (the next "
                      "objects, by name, take the next seeds)")
    channel: IntProperty(name="Channel", default=1, min=1, max=4,
                         description="Mod channel of the first element")
    settings: StringProperty(
        name="More settings", default="",
        description="More parameters as symbol=value separated by spaces "
        "(perlin4d-render --list-params --plugin mod)")
    low: FloatProperty(name="Low", default=0.0,
                       description="Value at the curve's lowest")
    high: FloatProperty(name="High", default=1.0,
                        description="Value at the curve's highest")
    tolerance: FloatProperty(
        name="Tolerance", default=0.002, min=0.0, max=0.1, precision=4,
        description="Keep only the keys needed so that every frame lies "
        "within this fraction of |High - Low| of the curve (0: a key a "
        "frame)")

    @classmethod
    def poll(cls, context):
        """Needs a selected object."""
        return bool(context.selected_objects)

    def invoke(self, context, _event):
        """Ask for the settings, with the scene's range."""
        self.frame_start = context.scene.frame_start
        self.frame_end = context.scene.frame_end
        return context.window_manager.invoke_props_dialog(self, width=420)

    def draw(self, _context):
        """The dialog (and the redo panel)."""
        layout = self.layout
        layout.use_property_split = True
        for name in ("data_path", "array_index", "low", "high"):
            layout.prop(self, name)
        layout.prop(self, "use_scene_range")
        col = layout.column(align=True)
        col.enabled = not self.use_scene_range
        col.prop(self, "frame_start")
        col.prop(self, "frame_end")
        layout.prop(self, "use_song_start")
        col = layout.column()
        col.enabled = self.use_song_start
        col.prop(self, "song_start_s")
        layout.prop(self, "preset")
        col = layout.column()
        col.enabled = self.preset == "NONE"
        for name in ("clock", "rate_hz", "period_beats", "octaves",
                     "spread"):
            col.prop(self, name)
        for name in ("tempo_bpm", "seed", "channel", "settings",
                     "tolerance"):
            layout.prop(self, name)

    def settings_args(self):
        """--set arguments of the More settings field, or an error."""
        args = []
        for item in self.settings.split():
            symbol, _, value = item.partition("=")
            if not symbol or not value:
                return "More settings: %s is not symbol=value" % item
            if symbol in ("out_min", "out_max", "seed"):
                return "More settings: %s is set by %s" % (
                    symbol, "Seed" if symbol == "seed" else "Low and High")
            args += ["--set", "%s=%s" % (symbol, value)]
        return args

    def plan(self, context):
        """Check the settings; return what to render or an error."""
        scene = context.scene
        fps = scene_fps(scene)
        if not FPS_LOWEST <= fps <= FPS_HIGHEST:
            return "the scene's %g fps is outside 1 to 1000" % float(fps)
        if self.use_scene_range:
            first, last = scene.frame_start, scene.frame_end
        else:
            first, last = self.frame_start, self.frame_end
        if last < first:
            return "the range %d to %d is empty" % (first, last)
        start_s = float(decimal(self.song_start_s)) if self.use_song_start \
            else (first - 1) / fps
        if start_s < 0:
            return "frame %d is before the song's start: give the song " \
                "time of the first frame" % first
        extra = self.settings_args()
        if isinstance(extra, str):
            return extra
        render = find_renderer(context)
        if render is None:
            return "perlin4d-render not found: set its path in the " \
                "add-on's preferences or PERLIN4D_RENDER"
        args = ["--plugin", "mod", "--quiet", "--force",
                "--fps", "%d/%d" % (fps.numerator, fps.denominator),
                "--start", repr(float(start_s)),
                # Half a frame more than the last row: rows 0 .. n - 1.
                "--duration", repr(float((last - first + 0.5) / fps)),
                "--tempo", decimal(self.tempo_bpm),
                "--tolerance", decimal(self.tolerance)]
        if self.preset != "NONE":
            args += ["--preset", self.preset]
        else:
            for symbol in ("rate_hz", "period_beats", "octaves", "spread"):
                args += ["--set", "%s=%s" % (symbol,
                                             decimal(getattr(self, symbol)))]
            args += ["--set", "clock=" + self.clock]
        args += extra + ["--set", "out_min=0", "--set", "out_max=1"]
        return {"render": render, "args": args, "fps": float(fps),
                "start_s": float(start_s), "first": first, "last": last}

    def execute(self, context):
        """Render every object's curves, then key them all (one undo)."""
        plan = self.plan(context)
        if isinstance(plan, str):
            self.report({"ERROR"}, plan)
            return {"CANCELLED"}
        objects = sorted(context.selected_objects, key=lambda o: o.name)
        jobs = []
        keyed = set()
        for obj in objects:
            target = resolve_target(obj, self.data_path, self.array_index)
            if isinstance(target, str):
                self.report({"ERROR"}, target)
                return {"CANCELLED"}
            # A shared data-block: the first object keys it.
            owner = (target[0].as_pointer(), target[1])
            if owner not in keyed:
                keyed.add(owner)
                jobs.append((obj, target))
        work = tempfile.mkdtemp(prefix="perlin4d-motion-")
        try:
            curves = self.render_all(plan, jobs, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        if isinstance(curves, str):
            self.report({"ERROR"}, curves)
            return {"CANCELLED"}
        n_keys = 0
        for ident, path, index, keys in curves:
            replace_keys(ident, path, index, keys, plan["first"],
                         plan["last"])
            n_keys += len(keys)
        self.report({"INFO"}, "Perlin4D Motion: %d keys on %d curves" %
                    (n_keys, len(curves)))
        return {"FINISHED"}

    def render_all(self, plan, jobs, work):
        """Run the renderer for each object: the curves to key, or an error.

        Returns [(id, path, index, [(frame, value), ...]), ...].
        """
        curves = []
        span = self.high - self.low
        for number, (obj, (ident, path, indices)) in enumerate(jobs):
            channels = [(self.channel - 1 + j) % MOD_CHANNELS + 1
                        for j in range(len(indices))]
            out = os.path.join(work, "curves-%d.json" % number)
            args = ["-o", out] + plan["args"] + [
                "--seed", str((self.seed + number) % 65536)]
            if len(channels) == 1:
                args += ["--channel", str(channels[0])]
            error, warnings = run_renderer(plan["render"], args)
            if error:
                return error
            # The tempo goes with every render (a preset may count
            # beats), and is no news where the clock does not.
            warnings = [line for line in warnings if "--tempo" not in line]
            if warnings and number == 0:
                self.report({"WARNING"}, warnings[0])
            try:
                with open(out, encoding="utf-8") as stream:
                    document = json.load(stream)
            except (OSError, ValueError) as err:
                return "cannot read perlin4d-render's JSON: %s" % err
            if document.get("format") != "perlin4d-curves" \
                    or document.get("version") != 1:
                return "%s does not write perlin4d-curves version 1 (too " \
                    "old or too new for this add-on)" % plan["render"]
            for index, channel in zip(indices, channels):
                keys = read_keys(document, channel, plan["start_s"],
                                 plan["fps"], plan["first"])
                if not keys or keys[0][0] != plan["first"] \
                        or keys[-1][0] != plan["last"]:
                    return "perlin4d-render's keys for %s do not span " \
                        "frames %d to %d" % (obj.name, plan["first"],
                                             plan["last"])
                curves.append((ident, path, index,
                               [(f, self.low + v * span) for f, v in keys]))
        return curves


class VIEW3D_PT_perlin4d_motion(bpy.types.Panel):
    """The sidebar's Perlin4D tab: the operator's button."""

    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "Perlin4D"
    bl_label = "Perlin4D Motion"

    def draw(self, context):
        """One button, and the renderer it will run."""
        self.layout.operator(OBJECT_OT_perlin4d_motion.bl_idname,
                             icon="FCURVE")
        found = find_renderer(context)
        self.layout.label(text=os.path.basename(found) if found
                          else "perlin4d-render not found")


def menu_entry(self, _context):
    """Object > Perlin4D Motion."""
    self.layout.separator()
    self.layout.operator(OBJECT_OT_perlin4d_motion.bl_idname,
                         icon="FCURVE")


CLASSES = (Perlin4dMotionPreferences, OBJECT_OT_perlin4d_motion,
           VIEW3D_PT_perlin4d_motion)


def register():
    """Add the operator, its menu entry, panel and preferences."""
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.VIEW3D_MT_object.append(menu_entry)


def unregister():
    """Remove what register() added."""
    bpy.types.VIEW3D_MT_object.remove(menu_entry)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
