#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Installs the build into a temporary DESTDIR (`meson install --destdir`,
# no rebuild) and checks where the files went (issue 24 item 4):
#
#   prefix  every installed file is under DESTDIR/PREFIX, or under one of
#           the folders the build was told by name (-Dlv2dir,
#           -Dardour_scripts_dir); nothing else lands in the system
#   bundle  the build tree's bundle folder (BUILD/lv2/perlin4d.lv2, which
#           the README puts on LV2_PATH) holds exactly the files that the
#           install puts in LV2DIR/perlin4d.lv2: no objects, archives or
#           generators
#
#   tests/test_install.sh MODE MESON BUILD_DIR PREFIX LV2DIR [NAMED_DIR...]
set -euo pipefail

if [ "$#" -lt 5 ]; then
  echo "usage: $0 prefix|bundle MESON BUILD_DIR PREFIX LV2DIR [NAMED_DIR...]" >&2
  exit 2
fi
mode=$1
meson=$2
build=$3
prefix=$4
lv2dir=$5
shift 5

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
if ! "$meson" install -C "$build" --no-rebuild --quiet --destdir "$dest" >"$tmp/log" 2>&1; then
  cat "$tmp/log" >&2
  echo "FAIL: meson install --destdir $dest" >&2
  exit 1
fi

# True when $1 is the folder $2 or lies under it.
under() {
  case "$1" in
    "$2" | "${2%/}"/*) return 0 ;;
    *) return 1 ;;
  esac
}

case "$mode" in
  prefix)
    count=0
    bad=0
    while IFS= read -r -d '' file; do
      path=${file#"$dest"}
      count=$((count + 1))
      ok=false
      for root in "$prefix" "$@"; do
        if under "$path" "$root"; then
          ok=true
        fi
      done
      if ! $ok; then
        echo "FAIL: $path is outside the prefix $prefix (and not in a folder named by an option)" >&2
        bad=$((bad + 1))
      fi
    done < <(find "$dest" \( -type f -o -type l \) -print0)
    if [ "$count" -eq 0 ]; then
      echo "FAIL: the install put no file in $dest" >&2
      exit 1
    fi
    echo "$count files installed, $bad outside $prefix"
    [ "$bad" -eq 0 ]
    ;;
  bundle)
    installed=$dest$lv2dir/perlin4d.lv2
    built=$build/lv2/perlin4d.lv2
    for dir in "$installed" "$built"; do
      if [ ! -d "$dir" ]; then
        echo "FAIL: no folder $dir" >&2
        exit 1
      fi
    done
    (cd "$installed" && find . -mindepth 1 | LC_ALL=C sort) >"$tmp/installed"
    (cd "$built" && find . -mindepth 1 | LC_ALL=C sort) >"$tmp/built"
    if ! diff -u "$tmp/installed" "$tmp/built" >"$tmp/diff"; then
      echo "FAIL: $built differs from the installed bundle (- installed, + build tree):" >&2
      cat "$tmp/diff" >&2
      exit 1
    fi
    echo "$built holds the $(wc -l <"$tmp/built") installed files:"
    cat "$tmp/built"
    ;;
  *)
    echo "$0: unknown mode $mode" >&2
    exit 2
    ;;
esac
