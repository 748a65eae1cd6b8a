#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Prints the sha256 sums of a fixed set of picture renders: every image
# preset, each type, tone, palette and format, fractal, tile, warp, loops,
# a stream, terrain heightmaps and the classic bases, small enough to run
# in seconds.  Run it before and after a change that must keep every
# picture's bytes, and compare:
#     tools/image-sums.sh build/perlin4d-render > before.txt
set -euo pipefail
# shellcheck source=tools/sums-common.sh
source "$(dirname "$0")/sums-common.sh"
mapfile -t presets < <("$render" --list-presets | awk '$2 == "image" {print $1}')
for p in "${presets[@]}"; do
  one png --preset "$p" --size 160x90
done
for type in 0 1 2 3 4; do
  for fractal in 0 1; do
    one exr --size 97x61 --set type=$type --set fractal=$fractal --set octaves=5
  done
done
one png --format png16 --size 130x70 --set tone=1 --set palette=3 --start 7.25
one r16 --size 64x64 --set tile=1 --set fractal=1 --set octaves=6 --seed 9
one exr --format exr-half --size 80x40 --set warp=1.5 --set palette=1
one y4m --size 96x64 --set loop_beats=2 --set clock=1 --tempo 93.75 --duration 0.2 --fps 30
one y4m --format y4m-420 --size 2100x8 --set stretch=3 --set morph_z=2.5 --duration 0.05
one png --size 33x33 --set scale=300 --set offset_x=-60000 --set lacunarity=3.1
one r16 --terrain unity --size 65x65 --set type=5 --set octaves=5 --set persistence=0.84 --set fractal=1
one exr --terrain godot --size 40x30 --set type=6 --set basis=1 --height-range -20:380 --set offset_x=-12
one png --size 90x50 --set basis=2 --set type=1 --set fractal=1 --set octaves=4 --set warp=0.7
