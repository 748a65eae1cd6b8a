#!/bin/sh
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Perlin4D Mod moving a bus's fader in headless Ardour 7 through the
# Generic MIDI surface, as doc/manual.md's "Perlin motion on any parameter in
# Ardour" describes (issue 13 item 4).  Not part of the test suite: needs
# the Debian package ardour.  From a build tree's source directory:
#
#   tools/ardour-midi.sh [--7bit] [--no-motorised] [BUILD]
#
# Makes a session with a MIDI bus holding Perlin4D Mod and an audio bus
# "target" (tools/ardour-midi.lua), binds the target's gain to pitch bend on
# MIDI channel 1 (or, with --7bit, to CC 7) in the session file, as MIDI
# learn would, with the surface Motorised (or not), connects the bus's MIDI
# out to "MIDI Control In", rolls 4 s at rate_hz 1 and samples the fader
# every 10 ms (MIDI_RATE=HZ sets another rate).  Prints when the fader
# first moved, from when it follows the curve (out_1, 0..1, against the
# fader position), and the finest step between the positions it took
# (7-bit: 1/126 at best).  Exit status 0 when it follows within 100 ms.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mode=2
event=0xe0
additional=0x0
motorised=1
while [ $# -gt 0 ]; do
  case "$1" in
    --7bit) mode=0; event=0xb0; additional=0x7; shift ;;
    --no-motorised) motorised=0; shift ;;
    *) break ;;
  esac
done
build=$(cd "${1:-$here/../build}" && pwd)
work=$(mktemp -d /tmp/ardour-midi.XXXXXX)
echo "work directory: $work"

# luasession sometimes aborts at exit after the work is done: judge by files
ardour() {
  for _ in 1 2 3; do
    MIDI_DIR=$work MIDI_PASS=$1 MIDI_MODE=$mode LV2_PATH=$build/lv2 \
      ardour7-lua "$here/ardour-midi.lua" > "$work/$1.log" 2>&1 || true
    [ ! -s "$2" ] || return 0
    [ "$1" != create ] || rm -rf "$work/session"
  done
  echo "Ardour did not finish; see $work/$1.log" >&2
  exit 1
}

ardour create "$work/gain_id.txt"
id=$(cat "$work/gain_id.txt")
# What MIDI learn stores: GenericMidiControlProtocol::get_state (Ardour 7).
sed -i "s|<Protocol name=\"Generic MIDI\" active=\"0\"/>|<Protocol name=\"Generic MIDI\" active=\"1\" feedback_interval=\"10000\" threshold=\"10\" motorized=\"$motorised\"><Controls><MIDIControllable id=\"$id\" event=\"$event\" channel=\"0\" additional=\"$additional\"/></Controls></Protocol>|" \
  "$work/session/midi.ardour"
grep -q "MIDIControllable id=\"$id\"" "$work/session/midi.ardour" ||
  { echo "no Generic MIDI node in the session file" >&2; exit 1; }
ardour run "$work/result.txt"
grep -q '^done' "$work/result.txt" || { echo "no result" >&2; exit 1; }

python3 - "$work/result.txt" "$mode" "$motorised" <<'PY'
import math, sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith('sample')]
frames = [int(r[1]) for r in rows]
gains = [float(r[2]) for r in rows]
outs = [float(r[3]) for r in rows]
# Ardour's fader law (gain_to_slider_position, +6 dB at the top)
def position(g):
    return 0.0 if g <= 0 else ((6.0 * math.log2(g) + 192.0) / 198.0) ** 8
pos = sorted(set(round(position(g), 9) for g in gains))
steps = [b - a for a, b in zip(pos, pos[1:]) if b - a > 1e-7]
start = next((f for f, g in zip(frames, gains) if f > 0), 0)
moved = next((f for f, g in zip(frames, gains) if g != 1.0), None)
mode = "pitch bend" if sys.argv[2] == "2" else "7-bit CC 7"
print("%s, %s: %d samples over %.2f s, %d distinct fader positions"
      % (mode, "motorised" if sys.argv[3] == "1" else "not motorised",
         len(rows), (frames[-1] - start) / 48000.0, len(pos)))
if moved is None:
    print("the fader never moved")
    sys.exit(1)
# Channel 1 runs over 0..1 (out_min, out_max): the fader should be there.
off = [abs(position(g) - o) for g, o in zip(gains, outs)]
follows = next((f for f, d in zip(frames, off) if f > 0 and d < 0.02), None)
print("the fader first moved %.0f ms after the roll began" % ((moved - start) / 48.0))
print("it follows the curve (within 0.02) from %s; %.0f %% of the samples "
      "within 0.02, mean distance %.4f"
      % ("%.0f ms" % ((follows - start) / 48.0) if follows is not None else "never",
         100.0 * sum(d < 0.02 for d in off) / len(off), sum(off) / len(off)))
if steps:
    print("finest step between positions: %.6f (1/%.0f)" % (min(steps), 1.0 / min(steps)))
sys.exit(0 if follows is not None and follows - start <= 4800 else 1)
PY
