#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# The lint checks, run by meson as the suite 'lint':
#     meson test -C build --suite lint --print-errorlogs
#
#   lint.sh format SOURCE_DIR
#       clang-format --dry-run -Werror over every tracked .c and .h file
#       (the repository's .clang-format).
#   lint.sh tidy SOURCE_DIR BUILD_DIR
#       clang-tidy (the repository's .clang-tidy) over every .c file of
#       BUILD_DIR/compile_commands.json that lies in the source tree, one
#       process per core.
#
# Both files are written for clang-format and clang-tidy 14 (Debian 12);
# another version may format or diagnose differently.  A missing tool is a
# failure, not a skip: the suite only runs when asked for.
set -euo pipefail

need() {
  if ! command -v "$1" >/dev/null; then
    echo "lint.sh: $1 not found (apt-get install $1)" >&2
    exit 1
  fi
  "$1" --version | sed -n '/version/{p;q}'
}

# The C files of the source tree, NUL-separated: the tracked ones, or, outside
# a git checkout (a tarball; or git refusing a tree owned by another user),
# every one outside build folders.
c_files() {
  if ! git -C "$1" ls-files -z -- '*.c' '*.h' 2>/dev/null; then
    find "$1" -type d \( -name .git -o -exec test -e '{}/meson-private' \; \) \
      -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print0
  fi
}

case "${1:-}" in
format)
  src=$(realpath "$2")
  need clang-format
  cd "$src"
  c_files "$src" | xargs -0 clang-format --dry-run -Werror
  ;;
tidy)
  src=$(realpath "$2")
  build=$(realpath "$3")
  need clang-tidy
  # Each translation unit once, by absolute path, if it lies in the source
  # tree but not in a build folder (generated sources are not linted).
  mapfile -t files < <(python3 -c '
import json, os, sys
src, build = sys.argv[1], sys.argv[2]
seen = set()
for e in json.load(open(os.path.join(build, "compile_commands.json"))):
    f = os.path.realpath(os.path.join(e["directory"], e["file"]))
    if f.startswith(src + os.sep) and not f.startswith(build + os.sep) and f not in seen:
        seen.add(f)
        print(f)
' "$src" "$build")
  if [ "${#files[@]}" -eq 0 ]; then
    echo "lint.sh: no source file in $build/compile_commands.json" >&2
    exit 1
  fi
  # The compile database may hold GCC-only warning flags: not a finding.
  printf '%s\0' "${files[@]}" |
    xargs -0 -n 1 -P "$(nproc)" \
      clang-tidy --quiet -p "$build" --extra-arg=-Wno-unknown-warning-option
  ;;
*)
  echo "usage: lint.sh format SOURCE_DIR | lint.sh tidy SOURCE_DIR BUILD_DIR" >&2
  exit 2
  ;;
esac
