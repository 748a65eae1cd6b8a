#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Cross-builds the Debian package for arm64 on an amd64 Debian 12 with
# arm64 multiarch (doc/packaging.md, Debian package): the cross compiler
# and the arm64 -dev packages as .ci/cross-aarch64 installs them.
#
# Debian 12's libopenexr-dev is not multiarch: its arm64 package cannot be
# installed beside the amd64 one, so dpkg-checkbuilddeps cannot be
# satisfied and the build runs with -d (no build-dependency check).  As in
# tools/cross/setup-aarch64.sh, the amd64 package's headers (the same for
# both: one version, both LP64 little-endian) are paired with the arm64
# runtime libopenexr-3-1-30:arm64 through an OpenEXR.pc written into a
# temporary folder; the meson cross file (tools/cross/aarch64-linux-gnu.ini
# with that folder on pkg-config's path) goes to debhelper through
# DH_MESON_CROSS_FILE.  The tests are not run (nocheck): under qemu-user
# they take over an hour (.ci/cross-aarch64 runs the ones that compare the
# code paths).
#
#   tools/package/cross-arm64.sh OUT_DIR
set -euo pipefail

if [ "$#" -ne 1 ]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 2
fi
out=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
multiarch=/usr/lib/aarch64-linux-gnu

work=$(mktemp -d "${TMPDIR:-/tmp}/perlin4d-cross.XXXXXX")
trap 'rm -rf "$work"' EXIT
pc_libdir="'$multiarch/pkgconfig', '/usr/share/pkgconfig'"
ldflags=${DEB_LDFLAGS_APPEND:-}
if [ ! -e "$multiarch/pkgconfig/OpenEXR.pc" ]; then
  core=$(find "$multiarch" -maxdepth 1 -name 'libOpenEXRCore-*.so.*' | sort | head -n 1)
  version=$(pkg-config --modversion OpenEXR 2>/dev/null || true)
  if [ -z "$core" ] || [ ! -e /usr/include/OpenEXR/openexr.h ] || [ -z "$version" ]; then
    echo "$0: needs libopenexr-3-1-30:arm64 and the OpenEXR headers (libopenexr-dev)" >&2
    exit 1
  fi
  mkdir -p "$work/lib" "$work/pkgconfig"
  ln -s "$core" "$work/lib/libOpenEXRCore.so"
  cat >"$work/pkgconfig/OpenEXR.pc" <<PC
Name: OpenEXR
Description: OpenEXR's headers and the arm64 OpenEXRCore (tools/package/cross-arm64.sh)
Version: $version
Requires: Imath
Libs: -L$work/lib -lOpenEXRCore
Cflags: -I/usr/include -I/usr/include/OpenEXR -pthread
PC
  pc_libdir="'$work/pkgconfig', $pc_libdir"
  # Through dpkg-buildflags (LDFLAGS), not the cross file's c_link_args,
  # which would replace Debian's LDFLAGS (-z relro -z now) instead.
  ldflags="$ldflags -L$work/lib"
fi

# One cross file: tools/cross/aarch64-linux-gnu.ini without its
# [properties], then these.
awk '/^\[/ { skip = ($0 == "[properties]") } !skip' \
  "$src/tools/cross/aarch64-linux-gnu.ini" >"$work/cross.ini"
cat >>"$work/cross.ini" <<INI

[properties]
pkg_config_libdir = [$pc_libdir]
INI

DH_MESON_CROSS_FILE=$work/cross.ini DEB_BUILD_OPTIONS=nocheck DEB_LDFLAGS_APPEND=$ldflags \
  "$src/tools/package/build-deb.sh" "$out" -a arm64 -d -us -uc -b -Pcross,nocheck
