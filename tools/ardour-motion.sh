#!/bin/sh
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Perlin4D Motion in headless Ardour 7 against perlin4d-render (issue 12
# item 5).  Not part of the test suite (Ardour is large): it needs the
# Debian packages ardour (ardour7-lua) and python3-numpy, which --install
# installs the way the README's quick start installs the build's packages.
# From a build tree's source directory:
#
#   tools/ardour-motion.sh [--install] [--preset LABEL] [--set SYMBOL=VALUE]...
#                          [--start SECONDS] [BUILD]
#
# e.g.  tools/ardour-motion.sh --preset "Breathing tremolo"
#       tools/ardour-motion.sh --set gain_db=12 --set rate_hz=2
#       tools/ardour-motion.sh --preset "Breathing tremolo" --set smooth_ms=0
#
# Records MOTION_SECONDS (default 5) of the dummy backend's sine onto a track
# at the session start, inserts Motion with the settings, bounces the range
# (from --start, default 0, to the end) with and without processing, and
# exports the same range from the session (Session > Export: the master
# bus, through the track's panner, with an export preset for 32-bit float
# WAV at the session rate written into $XDG_CONFIG_HOME/ardour7/export/ of a
# private configuration folder) (tools/ardour-motion.lua).  Then it renders
# the unprocessed bounce with perlin4d-render and the same settings from the
# range's song position, and compares (tools/ardour-motion-compare.py):
#   1. the export with the renderer: both give Motion the song position
#      where its output is heard (Route::process_output_buffers runs each
#      processor at that position) and feed it the input latency frames
#      ahead;
#   2. the bounce with the renderer from `latency` frames later: Ardour's
#      bounce runs Motion at its input's position instead.
# Exit status 0 when both channels' 20 ms RMS envelopes correlate above 0.99
# in every comparison; 2 when a dependency is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
packages="ardour python3-numpy"
install=false
preset=""
sets=""
rargs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --install) install=true; shift ;;
    --preset) preset=$2; shift 2 ;;
    --set) sets="$sets $2"; shift 2 ;;
    --start) export MOTION_START="$2"; shift 2 ;;
    *) break ;;
  esac
done

# python3 may be another interpreter than Debian's (pyenv, a venv): take the
# first that imports numpy.
find_python() {
  for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import numpy' 2>/dev/null; then
      echo "$py"
      return
    fi
  done
}
if $install; then
  $(command -v sudo) apt-get update
  # shellcheck disable=SC2086
  $(command -v sudo) env DEBIAN_FRONTEND=noninteractive apt-get install -y $packages
fi
python=$(find_python)
if ! command -v ardour7-lua >/dev/null 2>&1 || [ -z "$python" ]; then
  echo "tools/ardour-motion.sh needs ardour7-lua and numpy (Debian packages: $packages)." >&2
  echo "Install them with:  tools/ardour-motion.sh --install ...   or" >&2
  echo "  \$(command -v sudo) env DEBIAN_FRONTEND=noninteractive apt-get install -y $packages" >&2
  exit 2
fi

build=$(cd "${1:-$here/../build}" && pwd)
render=$build/perlin4d-render
[ -x "$render" ] || { echo "no $render: build first (meson compile -C build)" >&2; exit 2; }
work=$(mktemp -d /tmp/ardour-motion.XXXXXX)
echo "work directory: $work"

# symbols to the labels Ardour shows (perlin4d-render --list-params)
labels=""
for kv in $sets; do
  sym=${kv%%=*}
  val=${kv#*=}
  label=$("$render" --list-params --plugin motion |
          awk -v s="$sym" '$1 == s { sub(/^[^ ]+ +/, ""); sub(/  +.*/, ""); print }')
  [ -n "$label" ] || { echo "no parameter $sym" >&2; exit 2; }
  labels="$labels$label=$val;"
  rargs="$rargs --set $sym=$val"
done

# An export preset as the export dialog saves one: Ardour's shipped format
# "BWAV 32float Export" (32-bit float, the session's rate, no dither, no
# normalisation), named by the timespan.  A private configuration folder
# keeps the user's presets out of it.
export_preset=7c1f3a52-5d0e-4c52-9e0b-70e4d4a1b001
mkdir -p "$work/config/ardour7/export"
cat > "$work/config/ardour7/export/perlin4d-motion.preset" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<ExportPreset id="$export_preset" name="perlin4d Motion check (BWAV 32float)">
  <ExportFormat id="20b4ab09-6452-4cb3-bd66-b921cdbd2942"/>
  <ExportFilename>
    <Folder relative="1" path="export"/>
    <Field name="label" enabled="0"/>
    <Field name="session" enabled="0"/>
    <Field name="snapshot" enabled="0"/>
    <Field name="timespan" enabled="1"/>
    <Field name="revision" enabled="0"/>
    <Field name="time" enabled="0" value="T_None"/>
    <Field name="date" enabled="0" value="D_None"/>
  </ExportFilename>
</ExportPreset>
XML

status=1
for _ in 1 2 3; do  # luasession sometimes aborts at exit; judge by result.txt
  rm -rf "$work/session" "$work/export" "$work/result.txt"
  XDG_CONFIG_HOME=$work/config MOTION_EXPORT_PRESET=$export_preset \
  MOTION_DIR=$work MOTION_PRESET=$preset MOTION_SET=$labels LV2_PATH=$build/lv2 \
    ardour7-lua "$here/ardour-motion.lua" > "$work/ardour.log" 2>&1 || true
  if grep -q '^done' "$work/result.txt" 2>/dev/null; then status=0; break; fi
done
[ $status -eq 0 ] || { echo "Ardour did not finish; see $work/ardour.log" >&2; exit 1; }
grep -v '^control' "$work/result.txt"

get() { awk -F '\t' -v k="$1" '$1 == k { print $2 }' "$work/result.txt"; }
start=$(get range_start)
latency=$(get plugin_latency)
dry=$(get dry_0)
render() {  # INPUT OUTPUT START_FRAME
  set -- --plugin motion -i "$1" -o "$2" --start "$(awk -v s="$3" 'BEGIN { printf "%.9f", s / 48000 }')" --quiet
  [ -n "$preset" ] && set -- "$@" --preset "$preset"
  # shellcheck disable=SC2086
  echo "perlin4d-render $* $rargs"
  # shellcheck disable=SC2086
  "$render" "$@" $rargs
}
compare=$here/ardour-motion-compare.py
render "$dry" "$work/pred.wav" "$start"
render "$dry" "$work/pred-bounce.wav" "$((start + latency))"

status=0
echo "== 1. session export against the renderer"
"$python" "$compare" "$(get export)" "$work/pred.wav" --dry "$dry" || status=1
echo "== 2. bounce (Track > Bounce with processing) against the renderer from $latency frames later"
"$python" "$compare" "$(get wet_0)" "$(get wet_1)" "$work/pred-bounce.wav" --dry "$dry" || status=1
exit $status
