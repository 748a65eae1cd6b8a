#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Instructions per render() of the inline display, counted by callgrind
# (figures a loaded machine does not move), for every row of display-bench
# (or the rows named):
#
#     bench/display-callgrind.sh BUILD_DIR [ROW...]
#
# Each row runs twice under callgrind, counting only inside
# p4d_display_render(): one render then 1 more, and one render then 9
# more; "per render" is the difference over the 8 renders between them
# (the controls stand still, so a cache filled by the first render is
# used by the others, as between two moves of a knob), and "first" what
# the first render cost (the image's allocation and the caches' filling
# included).  BUILD_DIR may be an older build of the tree with this
# bench's source compiled in, for the figures before a change.
set -euo pipefail
build=$(realpath "${1:?usage: $0 BUILD_DIR [ROW...]}")
shift
bench="$build/display-bench"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

count() {
  valgrind --tool=callgrind --toggle-collect=p4d_display_render \
    --callgrind-out-file="$out/cg" "$bench" "$1" "$2" >/dev/null 2>"$out/log"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/log"
}

if [ $# -eq 0 ]; then
  mapfile -t rows < <("$bench" --rows)
else
  rows=("$@")
fi
grep -m1 'model name' /proc/cpuinfo | sed 's/.*: /CPU: /'
printf '%-28s %14s %14s\n' row "per render" first
for row in "${rows[@]}"; do
  a=$(count "$row" 1)
  b=$(count "$row" 9)
  per=$(((b - a) / 8))
  printf '%-28s %14d %14d\n' "$row" "$per" $((a - per))
done
