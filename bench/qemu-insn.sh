#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# aarch64 instructions per frame of the renderer on each aarch64 code path,
# counted under qemu-user by a TCG plugin (bench/qemu_insn.c, built here
# with the host's cc): what can be measured of NEON without ARM hardware.
# qemu does not time the guest, so these are counts, not speeds: a NEON
# instruction counts one like a scalar one, and nothing here sees an ARM
# core's latencies, issue width or memory (doc/manual.md, Building for ARM).
#
#     bench/qemu-insn.sh CROSS_BUILD_DIR [PATHS]
#
# PATHS: default "scalar neon".  Each row renders twice with --jobs 1, for
# 1 s and for 3 s at 48 kHz, and the figure is the difference of the two
# counts over the 96000 frames between them (start-up cancels).
set -euo pipefail
build=$(realpath "${1:?usage: $0 CROSS_BUILD_DIR [PATHS]}")
paths=${2:-scalar neon}
src=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -O2 -shared -fPIC -fvisibility=hidden -o "$out/insn.so" "$src/bench/qemu_insn.c"

# The count of one run: count ISA SECONDS ARGS...
count() {
  local isa=$1 seconds=$2
  shift 2
  P4D_ISA=$isa qemu-aarch64 -L /usr/aarch64-linux-gnu -plugin "$out/insn.so" \
    "$build/perlin4d-render" --quiet --force --jobs 1 --samplerate 48000 \
    --duration "$seconds" -o "$out/r.wav" "$@" 2>&1 >/dev/null |
    awk '$1 == "insns" {print $2}'
}

rows=("noise defaults (stereo)|--plugin noise"
  "noise 10 octaves, grain 9 kHz|--plugin noise --set octaves=10 --set grain_hz=9000"
  "mod defaults|--plugin mod")
printf '%-34s' "aarch64 insns/frame"
for isa in $paths; do printf '%10s' "$isa"; done
echo
for row in "${rows[@]}"; do
  name=${row%%|*}
  read -r -a args <<<"${row#*|}"
  printf '%-34s' "$name"
  for isa in $paths; do
    short=$(count "$isa" 1 "${args[@]}")
    long=$(count "$isa" 3 "${args[@]}")
    awk -v s="$short" -v l="$long" 'BEGIN {printf "%10.1f", (l - s) / 96000}'
  done
  echo
done
