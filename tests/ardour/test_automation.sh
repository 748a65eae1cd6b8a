#!/bin/sh
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Runs tests/ardour/test_automation.lua in ardour7-lua (a headless Ardour
# session) and judges it by what the Lua wrote: luasession sometimes aborts
# at exit after the work is done, so a run that wrote no verdict is tried
# again (three times at most); a run that wrote one is final.
#
#   test_automation.sh ARDOUR7_LUA TEST.lua SCRIPT.lua PERLIN4D_RENDER LV2_DIR
set -eu
[ $# -eq 5 ] || { echo "usage: $0 ARDOUR7_LUA TEST.lua SCRIPT.lua RENDER LV2_DIR" >&2; exit 2; }
# the script falls back to perlin4d-render on the PATH when the installed
# one is missing (the dialog's stand-in run relies on it)
PATH=$(cd "$(dirname "$4")" && pwd):$PATH
export PATH
work=$(mktemp -d "${TMPDIR:-/tmp}/p4d-ardour-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
for try in 1 2 3; do
  rm -rf "$work/session" "$work/result.txt"
  P4D_DIR=$work P4D_SCRIPT=$3 P4D_RENDER=$4 LV2_PATH=$5 XDG_CONFIG_HOME=$work/config \
    "$1" "$2" > "$work/ardour.log" 2>&1 || true
  if grep -q '^verdict' "$work/result.txt" 2>/dev/null; then break; fi
  echo "# try $try: ardour7-lua ended without a verdict" >&2
  tail -n 20 "$work/ardour.log" >&2
done
[ -f "$work/result.txt" ] || { echo "no result from ardour7-lua" >&2; exit 1; }
grep -v '^verdict' "$work/result.txt"
grep -q '^verdict	pass$' "$work/result.txt" || { tail -n 40 "$work/ardour.log" >&2; exit 1; }
