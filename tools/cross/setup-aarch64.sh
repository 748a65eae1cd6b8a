#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Sets up a cross build for aarch64 in BUILD_DIR (doc/manual.md, Building
# for ARM): meson setup with tools/cross/aarch64-linux-gnu.ini, the
# remaining arguments passed on to meson.
#
# Debian 12's libopenexr-dev is not multiarch (its amd64 and arm64 packages
# conflict), so a machine that builds natively too has the amd64 headers
# and only the arm64 runtime library (libopenexr-3-1-30:arm64).  The
# headers are the same on both (one version, both LP64 little-endian):
# without an arm64 OpenEXR.pc this script writes one into
# BUILD_DIR/openexr-arm64 with a libOpenEXRCore.so link to the arm64
# runtime, and a second cross file that points pkg-config and the linker
# there.
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

if [ ! -e "$multiarch/pkgconfig/OpenEXR.pc" ]; then
  core=$(find "$multiarch" -maxdepth 1 -name 'libOpenEXRCore-*.so.*' | sort | head -n 1)
  version=$(pkg-config --modversion OpenEXR 2>/dev/null || true)
  if [ -z "$core" ] || [ ! -e /usr/include/OpenEXR/openexr.h ] || [ -z "$version" ]; then
    echo "$0: needs libopenexr-3-1-30:arm64 and the OpenEXR headers (libopenexr-dev)" >&2
    exit 1
  fi
  mkdir -p "$build"
  build=$(cd "$build" && pwd)
  overlay=$build/openexr-arm64
  mkdir -p "$overlay/lib" "$overlay/pkgconfig"
  ln -sf "$core" "$overlay/lib/libOpenEXRCore.so"
  cat >"$overlay/pkgconfig/OpenEXR.pc" <<PC
Name: OpenEXR
Description: OpenEXR's headers and the arm64 OpenEXRCore (tools/cross/setup-aarch64.sh)
Version: $version
Requires: Imath
Libs: -L$overlay/lib -lOpenEXRCore
Cflags: -I/usr/include -I/usr/include/OpenEXR -pthread
PC
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
