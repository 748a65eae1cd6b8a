#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Instructions per frame of a whole picture render, counted by callgrind:
# perlin4d-render --plugin image streaming 3 frames of 1920x1080, 6
# octaves, as YUV4MPEG2 into /dev/null with one job (the render of
# bench/image-fps.sh, without the threads), then the functions that cost
# 1 % or more.  Figures that load does not move (doc/performance.md).
#
#     bench/image-render-callgrind.sh [RENDER [EXTRA ARGUMENTS...]]
#
# RENDER defaults to build/perlin4d-render; the code path is P4D_ISA's
# (valgrind has no AVX-512).  Prints the millions of instructions per
# frame, per pixel, and by function.  memset's count is callgrind's
# (one per byte of a rep stosb), more than it costs.
set -euo pipefail
render=$(realpath "${1:-build/perlin4d-render}")
shift $(($# < 1 ? $# : 1))
frames=3
pixels=$((1920 * 1080))
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
  "$render" --plugin image --size 1920x1080 --fps 24 --duration 0.125 \
  --set octaves=6 --jobs 1 --quiet --format y4m -o - "$@" \
  >/dev/null 2>"$out/log" || {
  cat "$out/log" >&2
  exit 1
}
callgrind_annotate --threshold=99 "$out/cg" 2>/dev/null |
  awk -v f="$frames" -v px="$pixels" -v isa="${P4D_ISA:-default}" '
    /PROGRAM TOTALS/ {
      gsub(",", "", $1)
      total = $1
      printf "1920x1080, P4D_ISA %s: %.1f M instructions a frame (%.0f a pixel)\n",
             isa, total / f / 1e6, total / f / px
    }
    total && /^ *[0-9,]+ +\(/ && !/PROGRAM TOTALS/ {
      n = $1; gsub(",", "", n)
      if (n / total < 0.01) next
      name = $0; sub(/.*:/, "", name); sub(/ .*/, "", name)
      printf "  %-32s %7.1f M  (%.1f a pixel)\n", name, n / f / 1e6, n / f / px
    }'
