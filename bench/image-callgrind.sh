#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Instructions per pixel of a frame of 6-octave 4D fBm, perlin4d beside
# FastNoise2, counted by callgrind: figures that a loaded machine does not
# move, to check the ratios of `noise-bench --image` (doc/performance.md).
#
#     bench/image-callgrind.sh NOISE_BENCH [FASTNOISE2_SO [WxH [CELLS]]]
#
# Runs noise-bench --image --rounds 1 at one size (default 512x512) under
# callgrind and divides the inclusive counts of its two row functions,
# p4d_rows (perlin4d) and fn2_rows (FastNoise2), by the pixels they
# rendered: each renders 4 frames (a warm-up and one round, with 1 thread
# and with 2).  The code path is P4D_ISA's (valgrind has no AVX-512).
set -euo pipefail
bench=$(realpath "${1:?usage: $0 NOISE_BENCH [FASTNOISE2_SO [WxH [CELLS]]]}")
fn2=${2:-}
size=${3:-512x512}
cells=${4:-4}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(--image --rounds 1 --size "$size" --scale "$cells")
if [ -n "$fn2" ]; then
  args+=(--fastnoise2 "$(realpath "$fn2")")
fi
valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
  "$bench" "${args[@]}" >"$out/log" 2>&1 || {
  cat "$out/log" >&2
  exit 1
}
pixels=$((4 * ${size%x*} * ${size#*x}))
grep -m1 'CPU:' "$out/log"
callgrind_annotate --inclusive=yes "$out/cg" 2>/dev/null |
  awk -v px="$pixels" -v isa="${P4D_ISA:-default}" -v size="$size" '
    /:(p4d_rows|fn2_rows) / {
      gsub(",", "", $1)
      name = $0; sub(/.*:/, "", name); sub(/ .*/, "", name)
      n[name] = $1
    }
    END {
      printf "%s, P4D_ISA %s, instructions per pixel (callgrind):\n", size, isa
      printf "  perlin4d (p4d_rows)    %8.1f\n", n["p4d_rows"] / px
      if ("fn2_rows" in n) {
        printf "  FastNoise2 (fn2_rows)  %8.1f\n", n["fn2_rows"] / px
        printf "  perlin4d / FastNoise2  %8.2fx\n", n["p4d_rows"] / n["fn2_rows"]
      } else {
        printf "  FastNoise2             skipped: no FASTNOISE2_SO\n"
      }
    }'
