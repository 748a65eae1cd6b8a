#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Builds the Debian package (debian/, doc/packaging.md) from this
# checkout without writing into it: the files git knows (tracked, and
# new ones that .gitignore does not exclude, so that uncommitted edits
# count) are copied into a fresh folder perlin4d-VERSION under a
# temporary directory, dpkg-buildpackage runs there, and the .deb,
# .buildinfo and .changes files are moved into OUT_DIR.  The temporary
# directory is removed at the end.
#
#   tools/package/build-deb.sh OUT_DIR [DPKG_BUILDPACKAGE_ARGS...]
#
# The default arguments are -us -uc -b (unsigned, binary only).  The
# test suite runs unless DEB_BUILD_OPTIONS contains nocheck.  Examples:
#
#   DEB_BUILD_OPTIONS=nocheck tools/package/build-deb.sh /tmp/deb
#   tools/package/build-deb.sh /tmp/deb-arm64 -a arm64 -d -us -uc -b
set -euo pipefail

if [ "$#" -lt 1 ]; then
  echo "usage: $0 OUT_DIR [DPKG_BUILDPACKAGE_ARGS...]" >&2
  exit 2
fi
out=$1
shift
if [ "$#" -eq 0 ]; then
  set -- -us -uc -b
fi
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
upstream=${version%-*}
work=$(mktemp -d "${TMPDIR:-/tmp}/perlin4d-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
tree=$work/perlin4d-$upstream
mkdir "$tree"
(cd "$src" && git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do
    # A file deleted in the work tree but still tracked is skipped.
    [ -e "$f" ] || [ -L "$f" ] || continue
    printf '%s\0' "$f"
  done | tar --null -T - -cf -) | tar -xf - -C "$tree"

echo "+ dpkg-buildpackage $* (in $tree)"
(cd "$tree" && dpkg-buildpackage "$@")

shopt -s nullglob
results=("$work"/*.deb "$work"/*.ddeb "$work"/*.buildinfo "$work"/*.changes)
if [ "${#results[@]}" -eq 0 ]; then
  echo "$0: dpkg-buildpackage made no package" >&2
  exit 1
fi
mv "${results[@]}" "$out"/
for f in "${results[@]}"; do
  echo "$out/$(basename "$f")"
done
