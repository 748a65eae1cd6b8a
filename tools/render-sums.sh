#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Prints the sha256 sums of a fixed set of renders: every preset and the
# engines at their defaults, at 44.1 and 96 kHz (Motion on a Noise render
# as its input), plus automation, a start position, CSV curves and split
# jobs.  Run it before and after a change
# that must keep every output's bytes, and compare:
#     tools/render-sums.sh build/perlin4d-render > before.txt
set -euo pipefail
# shellcheck source=tools/sums-common.sh
source "$(dirname "$0")/sums-common.sh"
mapfile -t presets < <("$render" --list-presets | awk '$2 != "motion" && $2 != "image" {print $1}')
mapfile -t motion < <("$render" --list-presets | awk '$2 == "motion" {print $1}')
for rate in 44100 96000; do
  for plugin in noise mod; do
    one wav --plugin "$plugin" --samplerate "$rate" --duration 3
  done
  for p in "${presets[@]}"; do
    one wav --preset "$p" --samplerate "$rate" --duration 3
  done
  input="$dir/in$rate.wav"
  "$render" --quiet -o "$input" --preset surf --samplerate "$rate" --duration 3
  one wav -i "$input"
  for p in "${motion[@]}"; do
    one wav -i "$input" --preset "$p"
  done
done
one wav -i "$input" --start 12.5 --set wow_ms=4 --jobs 3
one wav --plugin mod --duration 20 --start 3600 --set octaves=5.5 --set spread=0.3
one wav --plugin noise --duration 5 --automate level_db=0:-40,2:-3,4:-20 --jobs 2
one wav --plugin noise --duration 5 --automate level_db=0:-40,2:-3,4:-20 --jobs 1
one csv --plugin mod --duration 30 --fps 100 --set clock=1 --tempo 97
one flac --plugin noise --duration 2 --seed 77
