#!/bin/sh
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# The inline display in headless Ardour 7 (issue 13 item 1).  Not part of
# the test suite: needs the Debian packages ardour, gdb and python3.  From a
# build tree's source directory:
#
#   tools/ardour-display.sh [URI] [BUILD]      (URI default urn:perlin4d:mod)
#
# Runs tools/ardour-display.lua in Ardour's luasession under gdb, with a
# breakpoint on Ardour's LV2Plugin::queue_draw (the callback Ardour hands
# the plugin as the idpy:queue_draw feature).  At the 20th call (the
# transport rolling) it asks Ardour's own LV2Plugin::has_inline_display()
# and render_inline_display(200, 112), the calls Ardour's mixer strip makes,
# and dumps the image; then counts the calls.  Prints the figures and writes
# WORK/ardour-display.png.  Exit status 0 when Ardour saw the display and
# rendered a 200 x 100 image.  Perlin4D Mod CV cannot be checked so: Ardour 7.3
# refuses any LV2 plugin with a CV port (its display is Mod's code).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
uri=${1:-urn:perlin4d:mod}
build=$(cd "${2:-$here/../build}" && pwd)
work=$(mktemp -d /tmp/ardour-display.XXXXXX)
echo "work directory: $work"

cat >"$work/display.gdb" <<GDB
set pagination off
set confirm off
set breakpoint pending on
handle SIGPIPE nostop noprint
set \$n = 0
break ARDOUR::LV2Plugin::queue_draw(void*)
commands 1
  silent
  set \$n = \$n + 1
  if \$n == 20
    set \$h = \$rdi
    set \$has = ((char(*)(void*))'ARDOUR::LV2Plugin::has_inline_display()')(\$h)
    printf "has_inline_display\t%d\n", \$has
    set \$s = ((long*(*)(void*,unsigned int,unsigned int))'ARDOUR::LV2Plugin::render_inline_display(unsigned int, unsigned int)')(\$h, 200, 112)
    printf "image\t%d\t%d\t%d\n", ((int*)\$s)[2], ((int*)\$s)[3], ((int*)\$s)[4]
    dump binary memory $work/image.raw \$s[0] (\$s[0] + ((int*)\$s)[4] * ((int*)\$s)[3])
  end
  continue
end
run
printf "queue_draw_calls\t%d\n", \$n
quit
GDB

# ardour7-lua is a shell wrapper: its environment, then luasession itself.
LD_LIBRARY_PATH=/usr/lib/ardour7 ARDOUR_DATA_PATH=/usr/share/ardour7 \
  ARDOUR_CONFIG_PATH=/etc/ardour7 ARDOUR_DLL_PATH=/usr/lib/ardour7 \
  DISPLAY_DIR=$work DISPLAY_URI=$uri LV2_PATH=$build/lv2 \
  gdb -batch -x "$work/display.gdb" --args /usr/lib/ardour7/luasession \
  "$here/ardour-display.lua" >"$work/gdb.log" 2>&1 || true
grep -E '^(has_inline_display|image|queue_draw_calls)' "$work/gdb.log" || true

python3 - "$work" <<'PY'
import struct, sys, zlib
work = sys.argv[1]
fields = dict(l.rstrip("\n").split("\t", 1) for l in open(work + "/gdb.log")
              if l.startswith(("has_inline_display", "image")))
w, h, stride = (int(v) for v in fields["image"].split("\t"))
assert fields["has_inline_display"] == "1" and (w, h) == (200, 100), fields
raw = open(work + "/image.raw", "rb").read()
rows = b"".join(b"\0" + b"".join(bytes((raw[y * stride + 4 * x + 2],
                                         raw[y * stride + 4 * x + 1],
                                         raw[y * stride + 4 * x]))
                                  for x in range(w)) for y in range(h))
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
with open(work + "/ardour-display.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
print("wrote", work + "/ardour-display.png")
PY
