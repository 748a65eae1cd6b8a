#!/usr/bin/env bash
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# Installs the Debian package in a clean Debian 12 root and checks what a
# user gets (doc/packaging.md, Debian package):
#
#   1. debootstrap --variant=minbase bookworm into ROOT_DIR (an absent or
#      empty folder) from deb.debian.org, with bookworm-updates and the
#      security archive as a Debian 12 system has them; /proc mounted, a
#      policy-rc.d that starts no service;
#   2. `apt-get install --no-install-recommends ./DEB` in the root: the
#      package's Depends alone must bring what it needs;
#   3. perlin4d-render is on PATH, lists its presets, renders a WAV file,
#      a CSV curve and a PNG picture, and the files are what they say;
#      the man page and the Ardour script (for Ardour 7) and the Blender
#      add-on are where they belong;
#   4. with lilv-utils, jalv and jackd2 installed: lv2ls lists the four
#      urn:perlin4d: plugins in /usr/lib/lv2, lv2info reads one, and jalv
#      runs Perlin4D Mod on a JACK dummy backend with its output moving;
#      man -w finds the man page (man-db);
#   5. `apt-get remove --purge perlin4d` leaves none of the files that
#      `dpkg -L perlin4d` listed after the install (folders shared with
#      other packages excepted: they stay when not empty).
#
#   tools/package/test-deb.sh ROOT_DIR DEB
#
# Runs as root (debootstrap, chroot, mount).  Every step has a time limit;
# every check prints "ok: WHAT" or "FAIL: WHAT" and the script exits 1 when
# one failed.  The root is a tmpfs mounted on ROOT_DIR, unmounted at the
# end with /proc: the empty folder is left for the caller to remove.
# P4D_MIRROR names another Debian mirror.
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 ROOT_DIR DEB" >&2
  exit 2
fi
root=$1
deb=$2
mirror=${P4D_MIRROR:-http://deb.debian.org/debian}
if [ "$(id -u)" -ne 0 ]; then
  echo "$0: needs root (debootstrap, chroot, mount)" >&2
  exit 2
fi
if [ ! -f "$deb" ]; then
  echo "$0: no such package: $deb" >&2
  exit 2
fi
if [ -e "$root" ] && [ -n "$(ls -A "$root")" ]; then
  echo "$0: $root is not empty: give a new folder" >&2
  exit 2
fi
mkdir -p "$root"
root=$(cd "$root" && pwd)
# The root lives in memory (a tmpfs of at most 3 GiB; it needs about 600
# MiB): dpkg's fsync()s on a loaded disk took most of the time, and
# unmounting it at the end removes every trace.
mount -t tmpfs -o size=3G,mode=755 p4d-root "$root"

failed=0
ok() { echo "ok: $*"; }
bad() {
  echo "FAIL: $*"
  failed=1
}
# inroot SECONDS COMMAND...: runs a shell command line inside the root, bounded.
inroot() {
  local limit=$1
  shift
  timeout -k 5 "$limit" chroot "$root" /usr/bin/env -i \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
    /bin/bash -c "$*"
}
step() {
  echo "+ $* ($SECONDS s)"
}

cleanup() {
  for m in dev/shm proc ""; do
    if mountpoint -q "$root/$m" 2>/dev/null; then
      umount "$root/$m" || umount -l "$root/$m" || true
    fi
  done
  rm -rf "$meta"
}
meta=$(mktemp -d)
trap cleanup EXIT

# 1. The clean root ----------------------------------------------------------
step "debootstrap --variant=minbase bookworm $root $mirror"
if ! timeout -k 10 900 debootstrap --variant=minbase bookworm "$root" "$mirror" \
  >"$meta/debootstrap.log" 2>&1; then
  tail -n 20 "$meta/debootstrap.log"
  echo "FAIL: debootstrap"
  exit 1
fi
security=${mirror%/debian}/debian-security
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
mount -t proc proc "$root/proc"
mkdir -p "$root/dev/shm"
mount -t tmpfs -o mode=1777 shm "$root/dev/shm" # JACK's shared memory
ok "Debian $(cat "$root/etc/debian_version") minbase root in $SECONDS s"

# 2. Install ------------------------------------------------------------------
step "apt-get update; apt-get install --no-install-recommends ./$(basename "$deb")"
cp "$deb" "$root/tmp/"
name=$(basename "$deb")
inroot 300 "apt-get -q update" >"$root/tmp/apt.log" 2>&1 ||
  { tail -n 20 "$root/tmp/apt.log"; echo "FAIL: apt-get update"; exit 1; }
if inroot 600 "apt-get -q install -y --no-install-recommends ./tmp/$name" >>"$root/tmp/apt.log" 2>&1; then
  ok "apt-get install ./$name: $(grep -c '^Setting up' "$root/tmp/apt.log") packages set up, $SECONDS s since the start"
else
  tail -n 20 "$root/tmp/apt.log"
  echo "FAIL: apt-get install ./$name"
  exit 1
fi
inroot 30 "dpkg -L perlin4d" >"$meta/files"
inroot 30 "dpkg -s perlin4d | grep -E '^(Version|Depends):'" || true

# 3. The renderer, the man page, the scripts ----------------------------------
step "perlin4d-render"
if [ "$(inroot 10 "command -v perlin4d-render")" = /usr/bin/perlin4d-render ]; then
  ok "perlin4d-render is on PATH: /usr/bin/perlin4d-render"
else
  bad "perlin4d-render is not on PATH"
fi
presets=$(inroot 60 "perlin4d-render --list-presets" || true)
n_presets=$(printf '%s\n' "$presets" | grep -c . || true)
if printf '%s\n' "$presets" | grep -q '^surf '; then
  ok "perlin4d-render --list-presets: $n_presets presets ($(printf '%s\n' "$presets" | awk '{print $1}' | head -n 4 | paste -sd ' ') ...)"
else
  bad "perlin4d-render --list-presets lists no surf: $presets"
fi
mkdir -p "$root/tmp/p4d"
if inroot 120 "cd /tmp/p4d && perlin4d-render --quiet --force -o surf.wav --preset surf --duration 2 &&
  perlin4d-render --quiet --force -o mod.csv --plugin mod --duration 2 --fps 50 &&
  perlin4d-render --quiet --force -o field.png --size 64x48"; then
  wav=$(dd if="$root/tmp/p4d/surf.wav" bs=1 count=4 2>/dev/null)$(
    dd if="$root/tmp/p4d/surf.wav" bs=1 skip=8 count=4 2>/dev/null)
  png=$(dd if="$root/tmp/p4d/field.png" bs=1 skip=1 count=3 2>/dev/null)
  rows=$(wc -l <"$root/tmp/p4d/mod.csv")
  if [ "$wav" = RIFFWAVE ] && [ "$(stat -c %s "$root/tmp/p4d/surf.wav")" -gt 100000 ] &&
    [ "$png" = PNG ] && [ "$rows" -ge 100 ]; then
    ok "perlin4d-render wrote surf.wav ($(stat -c %s "$root/tmp/p4d/surf.wav") bytes, RIFF/WAVE), mod.csv ($rows lines), field.png (PNG)"
  else
    bad "perlin4d-render's files are wrong: wav '$wav', png '$png', csv $rows lines"
  fi
else
  bad "perlin4d-render failed to render"
fi
for f in /usr/share/man/man1/perlin4d-render.1.gz \
  /usr/share/ardour7/scripts/perlin4d-automation.lua \
  /usr/share/perlin4d/blender/perlin4d_motion.py \
  /usr/lib/lv2/perlin4d.lv2/manifest.ttl; do
  if [ -s "$root$f" ]; then ok "$f is installed"; else bad "$f is missing"; fi
done
if grep -qs "/usr/bin/perlin4d-render" "$root/usr/share/ardour7/scripts/perlin4d-automation.lua"; then
  ok "the Ardour script runs /usr/bin/perlin4d-render"
else
  bad "the Ardour script does not name /usr/bin/perlin4d-render"
fi

# 4. The LV2 tools and jalv -----------------------------------------------------
step "apt-get install lilv-utils jalv jackd2 man-db"
if inroot 600 "apt-get -q install -y --no-install-recommends lilv-utils jalv jackd2 man-db" >>"$root/tmp/apt.log" 2>&1; then
  ok "lilv-utils, jalv, jackd2 and man-db installed, $SECONDS s since the start"
else
  tail -n 20 "$root/tmp/apt.log"
  bad "apt-get install lilv-utils jalv jackd2 man-db"
fi
man=$(inroot 30 "man -w perlin4d-render" 2>&1 || true)
if [ "$man" = /usr/share/man/man1/perlin4d-render.1.gz ]; then
  ok "man -w perlin4d-render: $man"
else
  bad "man -w perlin4d-render: $man"
fi
lv2=$(inroot 60 "lv2ls" 2>&1 || true)
want="urn:perlin4d:mod urn:perlin4d:mod-cv urn:perlin4d:motion urn:perlin4d:noise"
got=$(printf '%s\n' "$lv2" | grep '^urn:perlin4d:' | sort | paste -sd ' ' || true)
if [ "$got" = "$want" ]; then
  ok "lv2ls lists the four plugins: $got"
else
  bad "lv2ls lists '$got', not '$want'"
fi
info=$(inroot 60 "lv2info urn:perlin4d:noise" 2>&1 || true)
if printf '%s\n' "$info" | grep -q 'Binary:.*file:///usr/lib/lv2/perlin4d.lv2/perlin4d.so'; then
  ok "lv2info urn:perlin4d:noise: $(printf '%s\n' "$info" | grep -c 'Port [0-9]*:') ports, binary in /usr/lib/lv2/perlin4d.lv2"
else
  bad "lv2info urn:perlin4d:noise: $(printf '%s\n' "$info" | head -n 5)"
fi

# jalv on a JACK dummy backend (doc HOSTS.md): the console's `monitors`
# command prints "> out_1 = VALUE"; ask every 0.25 s for 10 s.
cat >"$root/tmp/p4d/jalv.sh" <<'EOF'
set -u
export JACK_DEFAULT_SERVER=p4d JACK_NO_START_SERVER=1
jackd --no-realtime -n p4d -d dummy -r 48000 -p 256 </dev/null >/tmp/p4d/jackd.log 2>&1 &
jackd_pid=$!
i=0
until jack_lsp >/dev/null 2>&1; do
  kill -0 "$jackd_pid" 2>/dev/null || { cat /tmp/p4d/jackd.log; exit 1; }
  [ "$i" -lt 300 ] || { echo "jackd did not come up"; exit 1; }
  sleep 0.1
  i=$((i + 1))
done
for _ in $(seq 40); do sleep 0.25; echo monitors; done |
  timeout -k 2 60 stdbuf -oL jalv -p -c rate_hz=5 urn:perlin4d:mod >/tmp/p4d/jalv.out 2>/tmp/p4d/jalv.err
rc=$?
kill "$jackd_pid"
wait "$jackd_pid" 2>/dev/null
exit "$rc"
EOF
if inroot 120 "bash /tmp/p4d/jalv.sh"; then
  values=$(sed -n 's/^\(> \)*out_1 = //p' "$root/tmp/p4d/jalv.out" | sed 1d)
  distinct=$(printf '%s\n' "$values" | grep . | sort -u | wc -l || true)
  if [ "$distinct" -ge 3 ] &&
    printf '%s\n' "$values" | awk '!($1 + 0 == $1 && $1 >= -1 && $1 <= 1) { exit 1 }'; then
    ok "jalv runs urn:perlin4d:mod on jackd's dummy backend: out_1 took $distinct values in [-1, 1] ($(printf '%s\n' "$values" | head -n 4 | paste -sd ' ') ...)"
  else
    bad "jalv: out_1 does not move in [-1, 1]: $(head -c 400 "$root/tmp/p4d/jalv.out")"
  fi
else
  bad "jalv or jackd failed: $(cat "$root/tmp/p4d/jalv.err" "$root/tmp/p4d/jackd.log" 2>/dev/null | head -n 10)"
fi

# 5. Remove ----------------------------------------------------------------------
step "apt-get remove --purge perlin4d"
if inroot 300 "apt-get -q remove -y --purge perlin4d" >>"$root/tmp/apt.log" 2>&1; then
  ok "apt-get remove --purge perlin4d"
else
  bad "apt-get remove --purge perlin4d"
fi
if inroot 10 "dpkg -s perlin4d" >/dev/null 2>&1; then
  bad "dpkg still knows perlin4d"
fi
left=()
while IFS= read -r f; do
  if [ -z "$f" ] || [ "$f" = /. ]; then continue; fi
  if [ -d "$root$f" ] && [ ! -L "$root$f" ]; then
    # A folder stays only when something else is in it.
    [ -n "$(ls -A "$root$f")" ] || left+=("$f")
  elif [ -e "$root$f" ] || [ -L "$root$f" ]; then
    left+=("$f")
  fi
done <"$meta/files"
if [ "${#left[@]}" -eq 0 ]; then
  ok "nothing of the $(grep -c . "$meta/files") paths dpkg -L listed is left but shared folders ($(
    while IFS= read -r f; do [ -d "$root$f" ] && printf '%s\n' "$f"; done <"$meta/files" | paste -sd ' '
  ))"
else
  bad "left after the purge: ${left[*]}"
fi

echo "+ done in $SECONDS s"
if [ "$failed" -ne 0 ]; then
  echo "$0: some checks failed" >&2
  exit 1
fi
echo "$0: every check passed"
