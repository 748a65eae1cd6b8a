#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Runs one libFuzzer target of a fuzz build (see doc/contributing.md, Fuzzing) for a
# bounded time, from its seeds in fuzz/corpus/TARGET:
#     fuzz/run.sh BUILD_DIR TARGET SECONDS [LIBFUZZER_OPTION]...
# TARGET is input, options, plan or preset.  The seeds are only read: new inputs go
# to a temporary corpus, removed at the end.  A crash, a sanitizer report, a
# leak or an input that runs 10 s stops the run with a non-zero status; its
# report (with the input in Base64) is printed, and the input is written to
# $FUZZ_ARTIFACTS (default: the current folder) as crash-*, leak-* or
# timeout-*.  The targets' own output is discarded (-close_fd_mask=3);
# libFuzzer's progress lines are left out, its summary is kept.
set -euo pipefail
if [ "$#" -lt 3 ]; then
  echo "usage: fuzz/run.sh BUILD_DIR TARGET SECONDS [LIBFUZZER_OPTION]..." >&2
  exit 2
fi
fuzz=$(cd "$(dirname "$0")" && pwd)
build=$1
target=$2
seconds=$3
shift 3

dict=$fuzz/options.dict
[ "$target" = preset ] && dict=$fuzz/preset.dict
dict_arg=(-dict="$dict")
[ "$target" = input ] && dict_arg=() # sound files: no dictionary
artifacts=${FUZZ_ARTIFACTS:-.}
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export LSAN_OPTIONS=suppressions=$fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}
set +e
"$build/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 \
  -close_fd_mask=3 -print_final_stats=1 "${dict_arg[@]}" \
  -artifact_prefix="${artifacts%/}/" "$@" "$corpus" "$fuzz/corpus/$target" 2>&1 |
  grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|RELOAD)'
status=${PIPESTATUS[0]}
set -e
echo "fuzz_$target: exit status $status"
exit "$status"
