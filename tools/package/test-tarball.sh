#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Checks a binary release tarball (tools/package/release.sh) as a user
# installs it: unpacked into ~/.lv2 of a temporary HOME,
#   - its line in SHA256SUMS (beside the tarball) checks out;
#   - the layout: ~/.lv2/perlin4d.lv2 with the bundle, bin/perlin4d-render,
#     doc/perlin4d-render.1, README.txt, LICENSE, nothing else on top;
#   - lv2ls, with LV2_PATH holding only that ~/.lv2, lists the four plugins;
#   - the unpacked renderer lists the bundle's presets and renders one
#     (--preset rain), with no LV2_PATH and no installed bundle to help;
#   - native tarball only: tests/lv2_tools.sh on the unpacked bundle
#     (sord_validate, lv2info, jalv on a JACK dummy backend).
# An aarch64 tarball's renderer runs under qemu-aarch64
# (QEMU_LD_PREFIX=/usr/aarch64-linux-gnu, the arm64 libraries of a
# multiarch system: .ci/cross-aarch64); its plugin is checked by lv2ls,
# which reads the bundle's Turtle only.  Prints the render's SHA-256: the
# same on every architecture.
#
#   tools/package/test-tarball.sh TARBALL
set -euo pipefail

if [ "$#" -ne 1 ]; then
  echo "usage: $0 TARBALL" >&2
  exit 2
fi
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case "$tarball" in
  *-linux-x86_64.tar.xz) arch=x86_64 ;;
  *-linux-aarch64.tar.xz) arch=aarch64 ;;
  *) fail "$tarball: not a perlin4d-VERSION-linux-ARCH.tar.xz" ;;
esac
run=()
if [ "$arch" != "$(uname -m)" ]; then
  command -v "qemu-$arch" >/dev/null || fail "qemu-$arch is needed (qemu-user)"
  run=(env QEMU_LD_PREFIX="/usr/$arch-linux-gnu" "qemu-$arch")
fi

# The checksum.
sums=$(dirname "$tarball")/SHA256SUMS
[ -f "$sums" ] || fail "no $sums"
grep -q " $(basename "$tarball")\$" "$sums" || fail "$sums has no line for $(basename "$tarball")"
(cd "$(dirname "$tarball")" && grep " $(basename "$tarball")\$" SHA256SUMS | sha256sum -c --quiet -) ||
  fail "sha256sum -c: $(basename "$tarball")"
echo "# sha256sum -c: $(basename "$tarball") OK"

# Unpacked as the README says.
home=$tmp/home
mkdir -p "$home/.lv2" "$tmp/work"
tar -xf "$tarball" -C "$home/.lv2"
top=$(cd "$home/.lv2" && ls -A)
[ "$top" = perlin4d.lv2 ] || fail "the tarball unpacks to '$top', not perlin4d.lv2"
bundle=$home/.lv2/perlin4d.lv2
(cd "$bundle" && find . -mindepth 1 | LC_ALL=C sort) >"$tmp/files"
cat >"$tmp/expected" <<LIST
./LICENSE
./README.txt
./bin
./bin/perlin4d-render
./doc
./doc/perlin4d-render.1
./image-presets.ttl
./manifest.ttl
./perlin4d.so
./perlin4d.ttl
./presets.ttl
LIST
diff -u "$tmp/expected" "$tmp/files" >&2 || fail "the bundle's files differ from the layout (- expected, + unpacked)"
[ -x "$bundle/bin/perlin4d-render" ] || fail "bin/perlin4d-render is not executable"
if file "$bundle/perlin4d.so" "$bundle/bin/perlin4d-render" | grep "not stripped"; then
  fail "binaries not stripped"
fi
echo "# layout: ~/.lv2/perlin4d.lv2 with $(grep -c . "$tmp/files") entries, stripped $arch binaries"

# lv2ls sees the four plugins, from ~/.lv2 only.
(cd "$tmp/work" && env -u LV2_PATH HOME="$home" LV2_PATH="$home/.lv2" lv2ls) >"$tmp/lv2ls"
printf '%s\n' urn:perlin4d:mod urn:perlin4d:mod-cv urn:perlin4d:motion urn:perlin4d:noise >"$tmp/uris"
LC_ALL=C sort "$tmp/lv2ls" | diff -u "$tmp/uris" - >&2 || fail "lv2ls with LV2_PATH=~/.lv2 (- expected, + listed)"
echo "# lv2ls (LV2_PATH=~/.lv2): $(tr '\n' ' ' <"$tmp/lv2ls")"

# The renderer from the unpacked folder, its presets from the bundle that
# holds it: no LV2_PATH to help.
render() {
  (cd "$tmp/work" && env -u LV2_PATH HOME="$home" LV2_PATH="$tmp/work" \
    "${run[@]}" "$bundle/bin/perlin4d-render" "$@")
}
render --list-presets >"$tmp/presets" || fail "perlin4d-render --list-presets"
grep -q '^rain ' "$tmp/presets" || fail "--list-presets does not list the bundle's presets"
# A tenth of a second: qemu-user runs the renderer a hundred times slower;
# and one thread there (--jobs 1): under this machine's qemu-user 7.2 the
# renderer's worker threads did not finish a 0.1 s render in ten minutes.
jobs=()
if [ "${#run[@]}" -gt 0 ]; then
  jobs=(--jobs 1)
fi
render --force --preset rain --duration 0.1 "${jobs[@]}" -o rain.wav || fail "perlin4d-render --preset rain"
[ -s "$tmp/work/rain.wav" ] || fail "the render wrote no file"
echo "# renderer (${run[*]:-native}): $(grep -c . "$tmp/presets") presets;" \
  "--preset rain --duration 0.1: SHA-256 $(sha256sum "$tmp/work/rain.wav" | cut -c1-16)"

# The plugin in hosts, where this machine can load it.
if [ "$arch" = "$(uname -m)" ]; then
  HOME=$home "$src/tests/lv2_tools.sh" "$bundle"
fi
echo "PASS: $(basename "$tarball")"
