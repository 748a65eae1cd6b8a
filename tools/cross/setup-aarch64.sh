#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Sets up a cross build for aarch64 in BUILD_DIR (doc/manual.md, Building
# for ARM): meson setup with tools/cross/aarch64-linux-gnu.ini, the
# remaining arguments passed on to meson.
#
# Without an arm64 OpenEXR.pc (Debian 12's libopenexr-dev is not
# multiarch), tools/cross/openexr-overlay.sh writes one into
# BUILD_DIR/openexr-arm64, and a second cross file points pkg-config and
# the linker there.
#
#   tools/cross/setup-aarch64.sh BUILD_DIR [MESON_ARGS...]
set -euo pipefail

if [ "$#" -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [MESON_ARGS...]" >&2
  exit 2
fi
build=$1
shift
src=$(cd "$(dirname "$0")/../.." && pwd)
multiarch=/usr/lib/aarch64-linux-gnu
cross=("--cross-file" "$src/tools/cross/aarch64-linux-gnu.ini")

mkdir -p "$build"
build=$(cd "$build" && pwd)
overlay=$("$src/tools/cross/openexr-overlay.sh" "$build/openexr-arm64")
if [ -n "$overlay" ]; then
  cat >"$overlay/openexr.ini" <<INI
[properties]
pkg_config_libdir = ['$overlay/pkgconfig', '$multiarch/pkgconfig', '/usr/share/pkgconfig']

[built-in options]
c_link_args = ['-L$overlay/lib']
INI
  cross+=("--cross-file" "$overlay/openexr.ini")
fi

cd "$src"
meson setup "${cross[@]}" "$build" "$@"
