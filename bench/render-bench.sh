#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# The renderer's throughput, for one build or two (before and after)
# measured in one run: each round runs every row of every build once,
# in an order rotated from round to round, so that a change of load moves
# all rows alike; the medians (and minima) of the rounds are printed.
#
#   noise     default stereo Noise, 600 s at 48 kHz, --jobs 2, to a WAV:
#             times real time (wall clock)
#   mod-csv   the Mod's CSV at 1000 rows/s, 60 s, --jobs 1: CPU seconds
#             per rendered second
#   motion    Motion on a 120 s stereo input (-i), --jobs 1 and --jobs 2:
#             CPU (user + sys) and wall seconds, and CPU of 2 jobs / 1 job
#
# With --callgrind, shorter renders under callgrind instead: instruction
# counts of every thread (the CPU figure that load does not move), per
# rendered second.
#
# Usage: bench/render-bench.sh [--callgrind] BUILD_DIR [BASE_BUILD_DIR]
# Environment: ROUNDS (default 3), P4D_ISA (the code path), TMPDIR.
set -euo pipefail

callgrind=false
if [[ ${1:-} == --callgrind ]]; then
  callgrind=true
  shift
fi
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 [--callgrind] BUILD_DIR [BASE_BUILD_DIR]" >&2
  exit 2
fi
builds=("$@")
names=("build")
if [[ $# -eq 2 ]]; then
  names=("after" "before")
fi
for b in "${builds[@]}"; do
  if [[ ! -x $b/perlin4d-render ]]; then
    echo "$0: no $b/perlin4d-render" >&2
    exit 2
  fi
done
rounds=${ROUNDS:-3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/render-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
flags=$(grep -m1 '^flags' /proc/cpuinfo)
isa="scalar"
[[ $flags == *" avx2"* ]] && isa="avx2"
[[ $flags == *" avx512f"* ]] && isa="avx512"
echo "# perlin4d-render bench, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# CPU: $cpu, $(nproc) cores, best path $isa, P4D_ISA=${P4D_ISA:-auto}"
echo "# load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in "${!builds[@]}"; do
  echo "# ${names[$i]}: ${builds[$i]}"
done

# The input Motion processes: 120 s of stereo Noise, 16-bit.
"${builds[0]}/perlin4d-render" --quiet --force -o "$dir/in.wav" \
  --duration 120 --format wav-pcm16

# Seconds rendered by a row.
row_seconds() {
  case $1 in
    noise) if $callgrind; then echo 20; else echo 600; fi ;;
    mod-csv) if $callgrind; then echo 10; else echo 60; fi ;;
    *) echo 120 ;;
  esac
}

# The renderer's arguments for a row, into the array args.
row_args() {
  local seconds
  seconds=$(row_seconds "$1")
  case $1 in
    noise) args=(-o "$dir/noise.wav" --duration "$seconds" --jobs 2) ;;
    mod-csv) args=(-o "$dir/mod.csv" --plugin mod --fps 1000 --duration "$seconds" --jobs 1) ;;
    motion1) args=(-i "$dir/in.wav" -o "$dir/motion.wav" --jobs 1) ;;
    motion2) args=(-i "$dir/in.wav" -o "$dir/motion.wav" --jobs 2) ;;
  esac
}

# Run one row of build b: print "wall cpu" in seconds.
run_row() {
  local exe="$1/perlin4d-render" args=()
  row_args "$2"
  /usr/bin/time -f '%e %U %S' -o "$dir/time" "$exe" --quiet --force "${args[@]}"
  awk '{printf "%s %.3f\n", $1, $2 + $3}' "$dir/time"
}

# Instructions of every thread of one row of build b, under callgrind.
count_row() {
  local exe="$1/perlin4d-render" args=()
  row_args "$2"
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$exe" \
    --quiet --force "${args[@]}" 2>&1 |
    awk '/Collected :/ {print $4}'
}

rows=(noise mod-csv motion1 motion2)

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
minimum() { sort -g | head -n 1; }

if $callgrind; then
  echo "# callgrind: instructions of every thread, per rendered second"
  printf '%-8s %-9s %16s\n' build row "Ir/s rendered"
  for i in "${!builds[@]}"; do
    for row in "${rows[@]}"; do
      ir=$(count_row "${builds[$i]}" "$row")
      echo "${names[$i]} $row $ir" >>"$dir/counts"
      printf '%-8s %-9s %16.0f\n' "${names[$i]}" "$row" \
        "$(awk -v ir="$ir" -v s="$(row_seconds "$row")" 'BEGIN {print ir / s}')"
    done
  done
  for i in "${!builds[@]}"; do
    awk -v n="${names[$i]}" '$1 == n && $2 == "motion1" {a = $3}
      $1 == n && $2 == "motion2" {b = $3}
      END {printf "%-8s motion CPU --jobs 2 / --jobs 1: %.3fx\n", n, b / a}' \
      "$dir/counts"
  done
  exit 0
fi

# Every (build, row) pair, rotated by one place each round.
pairs=()
for i in "${!builds[@]}"; do
  for row in "${rows[@]}"; do
    pairs+=("$i:$row")
  done
done
for ((r = 0; r < rounds; ++r)); do
  n=${#pairs[@]}
  for ((p = 0; p < n; ++p)); do
    pair=${pairs[$(((p + r) % n))]}
    i=${pair%%:*}
    row=${pair#*:}
    read -r wall cpu_s < <(run_row "${builds[$i]}" "$row")
    echo "$i $row $r $wall $cpu_s" >>"$dir/results"
  done
done

# Column k (4: wall, 5: cpu) of build i's row.
column() { awk -v i="$1" -v row="$2" -v k="$3" '$1 == i && $2 == row {print $k}' "$dir/results"; }

echo "# $rounds rounds, interleaved; median (min) of the rounds"
for i in "${!builds[@]}"; do
  n=${names[$i]}
  w=$(column "$i" noise 4 | median)
  wmin=$(column "$i" noise 4 | minimum)
  c=$(column "$i" noise 5 | median)
  # The CPU seconds over 2 cores: what the wall clock would be on an idle
  # machine, the writer's waits left out.
  awk -v n="$n" -v w="$w" -v m="$wmin" -v c="$c" 'BEGIN {
    printf "%-7s noise 600 s --jobs 2: %.0fx real time (best %.0fx), wall %.2f s; CPU %.2f s: %.0fx real time on 2 idle cores\n",
      n, 600 / w, 600 / m, w, c, 1200 / c}'
  c=$(column "$i" mod-csv 5 | median)
  cmin=$(column "$i" mod-csv 5 | minimum)
  awk -v n="$n" -v c="$c" -v m="$cmin" 'BEGIN {
    printf "%-7s mod CSV 1000 rows/s: %.2f ms CPU per rendered second (best %.2f)\n",
      n, c / 60 * 1000, m / 60 * 1000}'
  c1=$(column "$i" motion1 5 | median)
  c2=$(column "$i" motion2 5 | median)
  w1=$(column "$i" motion1 4 | median)
  w2=$(column "$i" motion2 4 | median)
  # The ratio of CPU round by round (the same round's load for both).
  ratio=$(paste <(column "$i" motion1 5) <(column "$i" motion2 5) |
    awk '{print $2 / $1}' | median)
  awk -v n="$n" -v c1="$c1" -v c2="$c2" -v w1="$w1" -v w2="$w2" -v q="$ratio" 'BEGIN {
    printf "%-7s motion 120 s: CPU %.2f s (1 job) %.2f s (2 jobs), wall %.2f s / %.2f s; CPU 2 jobs / 1 job %.3fx\n",
      n, c1, c2, w1, w2, q}'
done
if [[ ${#builds[@]} -eq 2 ]]; then
  # After / before, round by round.
  for row in noise mod-csv motion2; do
    k=5
    [[ $row == noise ]] && k=4
    paste <(column 0 "$row" $k) <(column 1 "$row" $k) |
      awk '{print $2 / $1}' | median |
      awk -v row="$row" '{printf "speed-up %-8s before / after: %.2fx (median of the rounds)\n", row, $1}'
  done
fi
