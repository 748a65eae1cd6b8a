#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# The signal path imports no transcendental function of libm: libm's sin,
# exp, pow or log may round differently on another machine or libm version,
# and every sample and pixel must be the same bits everywhere (the engines
# and the picture writers use src/maths/exact_math.h instead).  Reads the
# undefined symbols of the static libraries of the noise core, its vector
# paths, the engines (Mod, Noise, Motion, Image) and the renderer (its
# picture writers: the EXR writer's sRGB decode).  Two objects are left
# out, as they draw and write no signal: draw.c (the inline display's axis
# ticks) and engine_kind.c (the preview's dB scale).  sincos is what an
# optimising compiler makes of sin and cos of one angle.  Usage:
# signal_libm.sh LIB.a...
set -euo pipefail
functions='sin|cos|sincos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|exp|exp2|expm1|log|log2|log10|log1p|pow|cbrt|hypot|erf|erfc|lgamma|tgamma'
found=$(nm -A -u "$@" |
  grep -v -E '(draw_draw|engine_engine_kind)\.c\.o:' |
  grep -E " U (${functions})f?\$" || true)
if [ -n "$found" ]; then
  echo "libm's transcendental functions in the signal path:" >&2
  echo "$found" >&2
  exit 1
fi
echo "# $# libraries: no libm transcendental function in the signal path"
