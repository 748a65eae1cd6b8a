# shellcheck shell=bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Sourced by render-sums.sh and image-sums.sh: the renderer ($1, default
# build/perlin4d-render) as $render, a private folder $dir removed at exit,
# and one EXT ARGS...: render ARGS into a new file of extension EXT there
# and print its sha256 and the arguments (with $dir left out).
# P4D_RENDER_WRAPPER, when set, is a command line that runs the renderer,
# one built for another machine: "qemu-aarch64 -L /usr/aarch64-linux-gnu"
# for the cross build of doc/manual.md (Building for ARM).
render=$(realpath "${1:-build/perlin4d-render}")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ -n "${P4D_RENDER_WRAPPER:-}" ]; then
  printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$P4D_RENDER_WRAPPER" "$render" >"$dir/render"
  chmod +x "$dir/render"
  render=$dir/render
fi
n=0
one() {
  n=$((n + 1))
  local out="$dir/r$n.$1"
  shift
  "$render" --quiet --force -o "$out" "$@"
  local args="$*"
  printf '%s  %s\n' "$(sha256sum <"$out" | cut -d' ' -f1)" "${args//$dir\//}"
}
