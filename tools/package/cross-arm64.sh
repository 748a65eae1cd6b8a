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
# satisfied and the build runs with -d (no build-dependency check).  The
# amd64 package's headers are paired with the arm64 runtime
# libopenexr-3-1-30:arm64 through an OpenEXR.pc that
# tools/cross/openexr-overlay.sh writes into a temporary folder; the meson cross file (tools/cross/aarch64-linux-gnu.ini
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
overlay=$("$src/tools/cross/openexr-overlay.sh" "$work/openexr-arm64")
if [ -n "$overlay" ]; then
  pc_libdir="'$overlay/pkgconfig', $pc_libdir"
  # Through dpkg-buildflags (LDFLAGS), not the cross file's c_link_args,
  # which would replace Debian's LDFLAGS (-z relro -z now) instead.
  ldflags="$ldflags -L$overlay/lib"
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
