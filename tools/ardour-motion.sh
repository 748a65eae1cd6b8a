#!/bin/sh
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Perlin4D Motion in headless Ardour 7 against perlin4d-render (issue 12
# item 5).  Not part of the test suite: needs the Debian packages ardour,
# python3-numpy and sox.  From a build tree's source directory:
#
#   tools/ardour-motion.sh [--preset LABEL] [--set SYMBOL=VALUE]...
#                          [--start SECONDS] [BUILD]
#
# e.g.  tools/ardour-motion.sh --preset "Breathing tremolo"
#       tools/ardour-motion.sh --set gain_db=12 --set rate_hz=2
#
# Records MOTION_SECONDS (default 5) of the dummy backend's sine onto a track
# at the session start, inserts Motion with the settings, bounces the range
# (from --start, default 0, to the end) with and without processing (tools/ardour-motion.lua), renders the
# unprocessed bounce with perlin4d-render and the same settings from song
# position 0, and compares (tools/ardour-motion-compare.py).  Exit status 0
# when both channels' 20 ms RMS envelopes correlate above 0.99.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
preset=""
sets=""
rargs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --preset) preset=$2; shift 2 ;;
    --set) sets="$sets $2"; shift 2 ;;
    --start) export MOTION_START="$2"; shift 2 ;;
    *) break ;;
  esac
done
build=$(cd "${1:-$here/../build}" && pwd)
render=$build/perlin4d-render
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

status=1
for try in 1 2 3; do  # luasession sometimes aborts at exit; judge by result.txt
  rm -rf "$work/session" "$work/result.txt"
  MOTION_DIR=$work MOTION_PRESET=$preset MOTION_SET=$labels LV2_PATH=$build/lv2 \
    ardour7-lua "$here/ardour-motion.lua" > "$work/ardour.log" 2>&1 || true
  if grep -q '^done' "$work/result.txt" 2>/dev/null; then status=0; break; fi
done
[ $status -eq 0 ] || { echo "Ardour did not finish; see $work/ardour.log" >&2; exit 1; }
grep -v '^control' "$work/result.txt"

get() { awk -F '\t' -v k="$1" '$1 == k { print $2 }' "$work/result.txt"; }
start=$(get range_start)
set -- --plugin motion -i "$(get dry_0)" -o "$work/pred.wav" --start "$(awk -v s="$start" 'BEGIN { print s / 48000 }')" --quiet
[ -n "$preset" ] && set -- "$@" --preset "$preset"
# shellcheck disable=SC2086
echo "perlin4d-render $* $rargs"
# shellcheck disable=SC2086
"$render" "$@" $rargs
python3 "$here/ardour-motion-compare.py" "$(get wet_0)" "$(get wet_1)" "$work/pred.wav" "$(get dry_0)"
