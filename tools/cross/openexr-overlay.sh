#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# An arm64 OpenEXR for pkg-config, for the cross builds
# (tools/cross/setup-aarch64.sh, tools/package/cross-arm64.sh).
#
# Debian 12's libopenexr-dev is not multiarch (its amd64 and arm64 packages
# conflict), so a machine that builds natively too has the amd64 headers
# and only the arm64 runtime library (libopenexr-3-1-30:arm64).  The
# headers are the same on both (one version, both LP64 little-endian).
# Without an arm64 OpenEXR.pc, this writes one into DIR/pkgconfig, with a
# DIR/lib/libOpenEXRCore.so link to the arm64 runtime, and prints DIR's
# absolute path; with one, it prints nothing.  The caller puts
# DIR/pkgconfig on pkg-config's path and DIR/lib on the linker's.
#
#   tools/cross/openexr-overlay.sh DIR
set -euo pipefail

if [ "$#" -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
multiarch=/usr/lib/aarch64-linux-gnu
if [ -e "$multiarch/pkgconfig/OpenEXR.pc" ]; then
  exit 0
fi
core=$(find "$multiarch" -maxdepth 1 -name 'libOpenEXRCore-*.so.*' | sort | head -n 1)
version=$(pkg-config --modversion OpenEXR 2>/dev/null || true)
if [ -z "$core" ] || [ ! -e /usr/include/OpenEXR/openexr.h ] || [ -z "$version" ]; then
  echo "$0: needs libopenexr-3-1-30:arm64 and the OpenEXR headers (libopenexr-dev)" >&2
  exit 1
fi
mkdir -p "$1/lib" "$1/pkgconfig"
dir=$(cd "$1" && pwd)
ln -sf "$core" "$dir/lib/libOpenEXRCore.so"
cat >"$dir/pkgconfig/OpenEXR.pc" <<PC
Name: OpenEXR
Description: OpenEXR's headers and the arm64 OpenEXRCore (tools/cross/openexr-overlay.sh)
Version: $version
Requires: Imath
Libs: -L$dir/lib -lOpenEXRCore
Cflags: -I/usr/include -I/usr/include/OpenEXR -pthread
PC
echo "$dir"
