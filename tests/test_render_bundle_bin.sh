#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# The renderer inside the bundle (the release tarball's layout,
# tools/package/release.sh): perlin4d.lv2/bin/perlin4d-render finds the
# presets of the bundle that holds it (src/render/preset.c,
# presets_open()), with no bundle beside it, no LV2_PATH and no installed
# bundle to fall back on.
#
#   tests/test_render_bundle_bin.sh RENDER BUNDLE_DIR
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 RENDER BUNDLE_DIR" >&2
  exit 2
fi
render=$1
bundle=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A copy of the bundle with the renderer in bin/, as unpacked into ~/.lv2.
mkdir -p "$tmp/home/.lv2/perlin4d.lv2/bin" "$tmp/empty"
cp "$bundle"/*.ttl "$bundle"/perlin4d.so "$tmp/home/.lv2/perlin4d.lv2/"
cp "$render" "$tmp/home/.lv2/perlin4d.lv2/bin/perlin4d-render"
run() {
  (cd "$tmp" && env HOME="$tmp/empty" LV2_PATH="$tmp/empty" "$@")
}
exe=$tmp/home/.lv2/perlin4d.lv2/bin/perlin4d-render

if ! run "$exe" --list-presets >"$tmp/list"; then
  echo "FAIL: --list-presets failed" >&2
  exit 1
fi
if ! grep -q '^rain ' "$tmp/list"; then
  echo "FAIL: --list-presets does not list the bundle's presets:" >&2
  cat "$tmp/list" >&2
  exit 1
fi
run "$exe" --force --preset rain --duration 0.1 -o "$tmp/rain.wav"
if [ ! -s "$tmp/rain.wav" ]; then
  echo "FAIL: --preset rain wrote no file" >&2
  exit 1
fi

# The same program moved out of the bundle finds nothing: the lookup above
# is the bundle that holds it.
mkdir -p "$tmp/elsewhere/bin"
cp "$render" "$tmp/elsewhere/bin/perlin4d-render"
if run "$tmp/elsewhere/bin/perlin4d-render" --force --preset rain \
  --duration 0.1 -o "$tmp/none.wav" 2>"$tmp/err"; then
  echo "FAIL: a renderer with no bundle found the preset rain" >&2
  exit 1
fi
echo "$(grep -c . "$tmp/list") presets listed from perlin4d.lv2/bin; none from elsewhere/bin"
