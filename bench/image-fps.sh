#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Frames per second of perlin4d-render streaming YUV4MPEG2 (issue 19 item
# 5): 1920x1080 frames of 6-octave fBm at 24 fps, written to standard
# output into /dev/null, as a music video pipeline pipes them into ffmpeg.
# Prints the frames, the wall seconds, the frames per second, the CPU
# seconds (user + system: what the jobs cost) and the code path.
#
#     bench/image-fps.sh [RENDER [SECONDS [JOBS [EXTRA ARGUMENTS...]]]]
#
# RENDER defaults to build/perlin4d-render, SECONDS (of song time, whole)
# to 10, JOBS to 2; the code path is P4D_ISA's (default: the fastest).
# Run it several times on a quiet machine (or under chrt -f 50) and keep
# the best and the median: the target is 24 fps on 2 cores.
set -euo pipefail
render=$(realpath "${1:-build/perlin4d-render}")
seconds=${2:-10}
jobs=${3:-2}
shift $(($# < 3 ? $# : 3))
fps=24
frames=$((seconds * fps))
log=$(mktemp)
trap 'rm -f "$log"' EXIT
/usr/bin/time -f '%e %U %S' -o "$log" \
  "$render" --plugin image --size 1920x1080 --fps "$fps" \
  --duration "$seconds" --set octaves=6 --jobs "$jobs" --quiet \
  --format y4m -o - "$@" >/dev/null
read -r wall user sys <"$log"
awk -v f="$frames" -v w="$wall" -v u="$user" -v s="$sys" \
  -v isa="${P4D_ISA:-default}" -v j="$jobs" 'BEGIN {
  printf "frames %d  seconds %.2f  fps %.1f  cpu %.2f s (%.2f cores)  jobs %d  P4D_ISA %s\n",
         f, w, f / w, u + s, (u + s) / w, j, isa
}'
