#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Instructions per frame of the plugins and their peers, counted by
# callgrind: figures that a loaded machine does not move, to check the
# ratios of noise-bench's interleaved rounds (doc/performance.md).
#
#     bench/plugin-callgrind.sh BUILD_DIR [PATHS]
#
# PATHS: the code paths to count, default "scalar avx2" (valgrind has no
# AVX-512).  Each contender runs twice under callgrind, over 94 and over
# 282 blocks of 256 frames (48 kHz), and the figure is the difference of
# the two whole-run counts over the 48128 frames between them.  Why this
# is fair: both runs load the same plugin in the same host (lilv's world,
# instantiate, activate, and for Motion in process the same sine table),
# so everything but the blocks cancels, and what is left is run() and the
# host's per-block loop, the same few instructions for every plugin.  No
# function names are needed, so the peers' stripped binaries count alike.
# Motion with all four targets runs in process (noise-bench --motion-run),
# since lv2bench runs a plugin at its default controls only.  A peer that
# is not installed (Debian lsp-plugins-lv2, calf-plugins) is reported so.
set -euo pipefail
build=$(realpath "${1:?usage: $0 BUILD_DIR [PATHS]}")
paths=${2:-scalar avx2}
short=24064
long=72192
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export LV2_PATH="$build/lv2:/usr/lib/lv2"

lsp=http://lsp-plug.in/plugins/lv2/noise_generator_x1
pulsator=http://calf.sourceforge.net/plugins/Pulsator
chorus=http://calf.sourceforge.net/plugins/MultiChorus
noise=urn:perlin4d:noise
motion=urn:perlin4d:motion

# The instructions of one whole run under callgrind: count ISA N CMD...,
# where CMD gets the frame count in place of @N.
count() {
  local isa=$1 n=$2
  shift 2
  local cmd=("${@//@N/$n}")
  if ! P4D_ISA=$isa valgrind --tool=callgrind \
    --callgrind-out-file="$out/cg" "${cmd[@]}" >"$out/out" 2>"$out/log"; then
    return 1
  fi
  if [ "${cmd[0]}" = lv2bench ] && ! grep -q "${cmd[-1]}" "$out/out"; then
    return 1
  fi
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/log"
}

# Instructions per frame of CMD on ISA, or "-" if it did not run.
per_frame() {
  local isa=$1 a b
  shift
  if ! a=$(count "$isa" "$short" "$@") || ! b=$(count "$isa" "$long" "$@"); then
    echo -
    return
  fi
  echo "scale=1; ($b - $a) / ($long - $short)" | bc
}

lv2() { per_frame "$1" lv2bench -n @N -b 256 "$2"; }

grep -m1 'model name' /proc/cpuinfo | sed 's/.*: /CPU: /'
ratio() {
  if [ "$1" = - ] || [ "$2" = - ]; then echo -; else
    echo "scale=2; $1 / $2" | bc | sed 's/^\./0./'
  fi
}
sum() {
  if [ "$1" = - ] || [ "$2" = - ]; then echo -; else
    echo "$1 + $2" | bc
  fi
}
show() {
  if [ "$2" = - ]; then
    printf '  %-40s %s\n' "$1" "not installed (apt-get install $3)"
  else
    printf '  %-40s %10s\n' "$1" "$2"
  fi
}

# The peers do not read P4D_ISA: counted once.
l=$(lv2 scalar "$lsp")
p=$(lv2 scalar "$pulsator")
c=$(lv2 scalar "$chorus")
pc=$(sum "$p" "$c")
echo "instructions per frame (callgrind, 48 kHz, blocks of 256," \
  "runs of $long minus $short frames)"
show "LSP noise_generator_x1" "$l" lsp-plugins-lv2
show "Calf Pulsator" "$p" calf-plugins
show "Calf Multi Chorus" "$c" calf-plugins
for isa in $paths; do
  n=$(lv2 "$isa" "$noise")
  md=$(lv2 "$isa" "$motion")
  ma=$(per_frame "$isa" "$build/noise-bench" --motion-run @N)
  printf '  %-40s %10s   / LSP %s\n' "Perlin4D Noise, $isa" "$n" \
    "$(ratio "$n" "$l")"
  printf '  %-40s %10s   / (Pulsator + Chorus) %s\n' \
    "Motion all four (in process), $isa" "$ma" "$(ratio "$ma" "$pc")"
  printf '  %-40s %10s   / (Pulsator + Chorus) %s\n' \
    "Motion defaults (lv2bench), $isa" "$md" "$(ratio "$md" "$pc")"
done
