#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Release tarballs (issue 24 item 2; doc/packaging.md, Tarballs) in OUT_DIR:
#
#   perlin4d-VERSION.tar.xz               the source (`meson dist`, whose
#                                         check builds the unpacked tarball
#                                         and runs its default tests)
#   perlin4d-VERSION-linux-x86_64.tar.xz  the LV2 bundle with the renderer
#   perlin4d-VERSION-linux-aarch64.tar.xz in bin/, the man page, README.txt
#                                         and LICENSE: unpacks into ~/.lv2
#   SHA256SUMS                            of the tarballs
#
# Each binary is a release build (-Dbuildtype=release), stripped by
# `meson install --strip`; aarch64 is cross-built with
# tools/cross/setup-aarch64.sh (.ci/cross-aarch64 installs what it needs).
# The build folders are OUT_DIR/build-ARCH (kept, reused on a second run).
# Prints what each binary needs: the highest GLIBC_ symbol version and the
# shared libraries.  tools/package/test-tarball.sh checks a tarball.
#
#   tools/package/release.sh OUT_DIR [source] [x86_64] [aarch64]
#                                    (default: all three)
#   P4D_DIST_TESTS=0 tools/package/release.sh ...   meson dist --no-tests
set -euo pipefail

if [ "$#" -lt 1 ]; then
  echo "usage: $0 OUT_DIR [source] [x86_64] [aarch64]" >&2
  exit 2
fi
mkdir -p "$1"
out=$(cd "$1" && pwd)
shift
parts=("$@")
if [ "${#parts[@]}" -eq 0 ]; then
  parts=(source x86_64 aarch64)
fi
src=$(cd "$(dirname "$0")/../.." && pwd)
version=$(sed -n "s/^ *version: '\([^']*\)',/\1/p" "$src/meson.build" | head -n 1)
if [ -z "$version" ]; then
  echo "$0: no version in $src/meson.build" >&2
  exit 1
fi
# Reproducible archives: every file dated by the last commit.
epoch=$(git -C "$src" log -1 --format=%ct 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH=$epoch

# Installs the release build BUILD (configured already) into a staging
# folder and packs the bundle, the renderer, the man page, README.txt and
# LICENSE as perlin4d.lv2/ in OUT_DIR/perlin4d-VERSION-linux-ARCH.tar.xz.
pack() {
  local build=$1 arch=$2 objdump=$3
  local stage=$build/release-stage
  # Only the installed targets: the tests and benchmarks stay unbuilt.
  local f targets=(perlin4d-render lv2/perlin4d.so)
  for f in perlin4d.so manifest.ttl perlin4d.ttl presets.ttl image-presets.ttl; do
    targets+=("lv2/perlin4d.lv2/$f")
  done
  ninja -C "$build" "${targets[@]}"
  rm -rf "$stage"
  meson install -C "$build" --no-rebuild --strip --quiet --destdir "$stage"
  local prefix lv2dir
  prefix=$(meson introspect --buildoptions "$build" |
    /usr/bin/python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"))')
  lv2dir=$(meson introspect --installed "$build" |
    /usr/bin/python3 -c 'import json,sys; print(next(v for v in json.load(sys.stdin).values() if v.endswith("/perlin4d.lv2/manifest.ttl"))[:-len("/manifest.ttl")])')

  local top=$stage/tar/perlin4d.lv2
  mkdir -p "$top/bin" "$top/doc"
  cp -p "$stage$lv2dir"/* "$top/"
  cp -p "$stage$prefix/bin/perlin4d-render" "$top/bin/"
  cp -p "$stage$prefix/share/man/man1/perlin4d-render.1" "$top/doc/"
  cp "$src/tools/package/LICENSE" "$top/LICENSE"

  # What the binaries need, for README.txt and the log.
  local needs="" file glibc libs
  for file in perlin4d.so bin/perlin4d-render; do
    glibc=$("$objdump" -T "$top/$file" | grep -o 'GLIBC_[0-9.]*' | sort -u -V | tail -n 1)
    libs=$("$objdump" -p "$top/$file" | awk '$1 == "NEEDED" { printf "%s ", $2 }')
    needs+="    $file: $glibc or newer; $libs"$'\n'
  done
  sed -e "s/@VERSION@/$version/g" -e "s/@ARCH@/$arch/g" \
    "$src/tools/package/README.txt.in" |
    awk -v needs="${needs%$'\n'}" '$0 == "@NEEDS@" { print "The highest glibc symbol version and the shared libraries each binary needs:\n"; print needs; next } { print }' \
      >"$top/README.txt"
  echo "== $arch needs:"
  printf '%s' "$needs"
  if strings -a "$top/perlin4d.so" "$top/bin/perlin4d-render" | grep -F -e "$src" -e "$build"; then
    echo "$0: build paths in the $arch binaries (above)" >&2
    exit 1
  fi

  find "$stage/tar" -exec touch -h -d "@$epoch" {} +
  local name=perlin4d-$version-linux-$arch.tar.xz
  tar -C "$stage/tar" --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime="@$epoch" -cJf "$out/$name" perlin4d.lv2
  echo "== $out/$name"
}


for part in "${parts[@]}"; do
  case "$part" in
    x86_64)
      build=$out/build-x86_64
      if [ -e "$build/meson-private/coredata.dat" ]; then
        meson setup --reconfigure "$build" -Dbuildtype=release >/dev/null
      else
        (cd "$src" && meson setup "$build" -Dbuildtype=release >/dev/null)
      fi
      pack "$build" x86_64 objdump
      ;;
    aarch64)
      build=$out/build-aarch64
      if [ -e "$build/meson-private/coredata.dat" ]; then
        meson setup --reconfigure "$build" -Dbuildtype=release >/dev/null
      else
        "$src/tools/cross/setup-aarch64.sh" "$build" -Dbuildtype=release >/dev/null
      fi
      pack "$build" aarch64 aarch64-linux-gnu-objdump
      ;;
    source)
      build=$out/build-dist
      if [ ! -e "$build/meson-private/coredata.dat" ]; then
        (cd "$src" && meson setup "$build" >/dev/null)
      fi
      dist_args=(--formats xztar)
      if [ "${P4D_DIST_TESTS:-1}" = 0 ]; then
        dist_args+=(--no-tests)
      fi
      meson dist -C "$build" "${dist_args[@]}"
      cp "$build/meson-dist/perlin4d-$version.tar.xz" "$out/"
      ;;
    *)
      echo "$0: unknown part $part (source, x86_64 or aarch64)" >&2
      exit 2
      ;;
  esac
done

(cd "$out" && sha256sum -- perlin4d-"$version"*.tar.xz >SHA256SUMS)
echo "== $out/SHA256SUMS"
cat "$out/SHA256SUMS"
