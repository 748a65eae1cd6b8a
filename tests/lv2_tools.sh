#!/bin/sh
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
#
# The real LV2 tools against the built bundle, as a user would run them:
#
#   a. sord_validate with the installed LV2 specifications and schemas, given
#      every TTL file of the bundle at once, finds 0 errors;
#   a2. serdi reads each generated TTL file and writes it back unchanged: the
#      generator writes the layout serdi prints;
#   b. lv2ls lists the four plugins and lv2info shows each with its ports
#      (Motion's latency output as lv2:reportsLatency);
#   c. jalv runs Perlin4D Mod on a JACK dummy backend and out_1 moves;
#   d. jalv runs Perlin4D Motion there: it reports its latency, and its
#      targets' outputs move.
#
# Usage: lv2_tools.sh BUNDLE_DIR   (the built perlin4d.lv2, an absolute path)
#
# Needs sordi, serdi, lilv-utils, jalv and jackd2.  Runs without a terminal.

set -eu

# The plugins and their number of ports.
plugins='urn:perlin4d:mod 30
urn:perlin4d:mod-cv 34
urn:perlin4d:noise 21
urn:perlin4d:motion 38'

# Where the LV2 specifications may be installed.
spec_dirs='/usr/lib/lv2 /usr/lib/x86_64-linux-gnu/lv2'

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

need() {
  command -v "$1" >/dev/null 2>&1 || fail "$1 not found (Debian package $2)"
}

if [ $# -ne 1 ]; then
  echo "usage: $0 BUNDLE_DIR" >&2
  exit 2
fi

bundle=${1%/}
[ -f "$bundle/manifest.ttl" ] || fail "$bundle/manifest.ttl does not exist"

tmp=$(mktemp -d)
jackd_pid=

cleanup() {
  if [ -n "$jackd_pid" ]; then
    kill "$jackd_pid" 2>/dev/null || true
    i=0
    while kill -0 "$jackd_pid" 2>/dev/null && [ $i -lt 30 ]; do
      sleep 0.1
      i=$((i + 1))
    done
    kill -9 "$jackd_pid" 2>/dev/null || true
    wait "$jackd_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}

trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# a. sord_validate ------------------------------------------------------------

need sord_validate sordi

# The specification bundles only (their manifest declares the specification):
# a third-party plugin in the same folder, or an installed perlin4d, must not
# change this test's verdict.
set --
for dir in $spec_dirs; do
  [ -d "$dir" ] || continue
  for manifest in "$dir"/*.lv2/manifest.ttl; do
    [ -f "$manifest" ] || continue
    grep -qE 'lv2:Specification|owl:Ontology' "$manifest" || continue
    for ttl in "${manifest%/manifest.ttl}"/*.ttl; do
      set -- "$@" "$ttl"
    done
  done
done
n_schemas=$#
[ $n_schemas -gt 0 ] || fail "no LV2 specifications in $spec_dirs (lv2-dev)"
for ttl in "$bundle"/*.ttl; do
  set -- "$@" "$ttl"
done

status=0
sord_validate "$@" >"$tmp/validate.out" 2>"$tmp/validate.err" || status=$?
summary=$(cat "$tmp/validate.out" "$tmp/validate.err" |
  grep -E '^Found [0-9]+ errors? ' | tail -n 1) || true
n_errors=$(echo "$summary" | sed -n 's/^Found \([0-9]*\) error.*/\1/p')
# Syntax errors stop a file's parse without counting in the summary
n_messages=$(grep -c '^error' "$tmp/validate.err") || true

echo "# sord_validate: $(($# - n_schemas)) bundle files with $n_schemas" \
  "specification files: $summary"
if [ -z "$n_errors" ] || [ "$n_errors" -ne 0 ] || [ "$n_messages" -ne 0 ] ||
  [ $status -ne 0 ]; then
  head -n 60 "$tmp/validate.err" >&2
  fail "sord_validate: ${summary:-no summary}, $n_messages error" \
    "messages, exit status $status"
fi

# lv2-dev's own wrapper, as users run it, must agree.
need lv2_validate lv2-dev
summary=$(lv2_validate "$bundle"/*.ttl 2>&1 | grep -E '^Found [0-9]+ errors? ' | tail -n 1) || true
echo "# lv2_validate: $summary"
case "$summary" in
"Found 0 errors "*) ;;
*) fail "lv2_validate: ${summary:-no summary}" ;;
esac

# a2. serdi layout ------------------------------------------------------------

need serdi serdi
for f in perlin4d.ttl manifest.ttl; do
  # serdi drops comments and ends with one blank line more; read from
  # standard input, it keeps relative URIs relative.
  grep -v '^#' "$bundle/$f" | sed '1{/^$/d;}' >"$tmp/expected.ttl"
  echo >>"$tmp/expected.ttl"
  serdi -i turtle -o turtle - <"$bundle/$f" >"$tmp/serdi.ttl" ||
    fail "serdi cannot read $f"
  cmp -s "$tmp/expected.ttl" "$tmp/serdi.ttl" ||
    fail "$f is not in serdi's layout: $(diff "$tmp/expected.ttl" "$tmp/serdi.ttl" | head -5)"
done
echo "# serdi: perlin4d.ttl and manifest.ttl are in serdi's layout"

# b. lv2ls and lv2info --------------------------------------------------------

need lv2ls lilv-utils
need lv2info lilv-utils

LV2_PATH=$(dirname "$bundle")
for dir in $spec_dirs; do
  [ -d "$dir" ] && LV2_PATH="$LV2_PATH:$dir"
done
export LV2_PATH

lv2ls >"$tmp/lv2ls.out" 2>"$tmp/lv2ls.err" ||
  fail "lv2ls failed: $(cat "$tmp/lv2ls.err")"

bundle_uri="file://$bundle/"
while read -r uri n_ports; do
  grep -qxF "$uri" "$tmp/lv2ls.out" ||
    fail "lv2ls does not list $uri (LV2_PATH=$LV2_PATH)"

  lv2info "$uri" >"$tmp/lv2info.out" 2>&1 ||
    fail "lv2info $uri failed: $(cat "$tmp/lv2info.out")"

  found=$(grep -cE '^[[:space:]]+Port [0-9]+:' "$tmp/lv2info.out") || true
  [ "$found" -eq "$n_ports" ] ||
    fail "lv2info $uri shows $found ports, not $n_ports"

  from=$(sed -n 's/^[[:space:]]*Bundle:[[:space:]]*//p' "$tmp/lv2info.out")
  [ "$from" = "$bundle_uri" ] ||
    fail "lv2info $uri: from bundle $from, not $bundle_uri"

  class=$(sed -n 's/^[[:space:]]*Class:[[:space:]]*//p' "$tmp/lv2info.out")
  if [ "$uri" = urn:perlin4d:motion ]; then
    grep -q 'reportsLatency' "$tmp/lv2info.out" ||
      fail "lv2info $uri shows no lv2:reportsLatency port"
    grep -q 'lv2core#enabled' "$tmp/lv2info.out" ||
      fail "lv2info $uri shows no lv2:enabled designation"
  fi
  echo "# lv2ls lists $uri; lv2info: $found ports, class $class, from the" \
    "built bundle"
done <<EOF
$plugins
EOF

# c. jalv on a JACK dummy backend ---------------------------------------------

need jackd jackd2
need jalv jalv
need timeout coreutils
need stdbuf coreutils

server="p4d-test-$$"
JACK_DEFAULT_SERVER=$server
JACK_NO_START_SERVER=1 # never start a stray default server
export JACK_DEFAULT_SERVER JACK_NO_START_SERVER

jackd --no-realtime -n "$server" -d dummy -r 48000 -p 256 \
  </dev/null >"$tmp/jackd.log" 2>&1 &
jackd_pid=$!

# Wait until the server takes clients: jack_lsp if it is there, else the
# server's own log line
i=0
while :; do
  kill -0 "$jackd_pid" 2>/dev/null ||
    fail "jackd exited: $(cat "$tmp/jackd.log")"
  if command -v jack_lsp >/dev/null 2>&1; then
    jack_lsp >/dev/null 2>&1 && break
  elif grep -q 'JACK server starting' "$tmp/jackd.log" && [ $i -ge 10 ]; then
    break
  fi
  # A bound for a server that never comes up, far past a loaded machine's
  [ $i -lt 600 ] || fail "jackd did not come up in 60 s: $(cat "$tmp/jackd.log")"
  sleep 0.1
  i=$((i + 1))
done

# jalv 1.6.6's console prints output changes (-p) only to a shown UI, so ask
# it for its output values with the `monitors` command, which prints lines
# like "> out_1 = 0.656929", every 0.25 s; jalv exits when its input ends.
# How many answers a second brings depends on the load of the machine (jalv
# and jackd wait for a core like anything else), so the questions go on
# until the answers are enough to judge (stdbuf: jalv's stdout line by line
# into the file read here), bounded only against a jalv that never answers.

# The values of output port $2 in jalv's output file $1, one a line.
values() {
  sed -n "s/^\(> \)*$2 = //p" "$1"
}

# Ask for the outputs until output port $2 has shown $3 values, $4 of them
# different, in output file $1 (or for 60 s).
ask() {
  i=0
  while [ $i -lt 240 ]; do
    sleep 0.25
    echo monitors
    [ "$(values "$1" "$2" | wc -l)" -ge "$3" ] &&
      [ "$(values "$1" "$2" | sort -u | wc -l)" -ge "$4" ] && break
    i=$((i + 1))
  done
  sleep 0.1
}

status=0
ask "$tmp/jalv.out" out_1 6 3 |
  timeout -k 2 120 stdbuf -oL jalv -p -c rate_hz=5 urn:perlin4d:mod \
    >"$tmp/jalv.out" 2>"$tmp/jalv.err" || status=$?

[ $status -eq 0 ] ||
  fail "jalv exited with status $status: $(cat "$tmp/jalv.err")"

values "$tmp/jalv.out" out_1 >"$tmp/out_1"
echo "# jalv: out_1 at rate_hz=5, every 0.25 s: $(paste -sd ' ' "$tmp/out_1")"

# The first value may predate the plugin's first run(): count the others
n_values=$(($(wc -l <"$tmp/out_1") - 1))
n_distinct=$(sed 1d "$tmp/out_1" | sort -u | wc -l)

awk '!($1 + 0 == $1 && $1 >= -1 && $1 <= 1) { exit 1 }' "$tmp/out_1" ||
  fail "jalv: out_1 values outside [-1, 1]: $(cat "$tmp/out_1")"
[ "$n_values" -ge 2 ] ||
  fail "jalv printed too few out_1 values: $(cat "$tmp/jalv.out")"
[ "$n_distinct" -ge 2 ] ||
  fail "jalv: out_1 does not change: $(cat "$tmp/out_1")"

echo "# jalv: out_1 changes: $n_distinct different values in the last" \
  "$n_values"

# d. jalv runs Perlin4D Motion ------------------------------------------------

status=0
ask "$tmp/jalv_motion.out" pan_now 6 3 |
  timeout -k 2 120 stdbuf -oL jalv -p -c rate_hz=5 -c gain_db=12 \
    -c pan_depth=1 urn:perlin4d:motion >"$tmp/jalv_motion.out" \
    2>"$tmp/jalv_motion.err" || status=$?

[ $status -eq 0 ] ||
  fail "jalv (Motion) exited with status $status: $(cat "$tmp/jalv_motion.err")"

# Answers to questions asked before the plugin's first run() show the
# ports as jalv set them up (0): from the first answer with a latency on.
values "$tmp/jalv_motion.out" latency | awk '$1 + 0 != 0 { on = 1 } on' \
  >"$tmp/latency"
n_before=$(($(values "$tmp/jalv_motion.out" latency | wc -l) -
  $(wc -l <"$tmp/latency")))
values "$tmp/jalv_motion.out" pan_now | awk -v n="$n_before" 'NR > n' \
  >"$tmp/pan"
[ -s "$tmp/latency" ] ||
  fail "jalv: Motion reports no latency: $(cat "$tmp/jalv_motion.out")"
echo "# jalv: Motion's latency $(sort -u "$tmp/latency" | paste -sd ' ' | cut -d. -f1) frames" \
  "at 48 kHz; pan_now every 0.25 s: $(paste -sd ' ' "$tmp/pan")"

# 12 ms of delay line and 16 frames for the read: 592 frames at 48 kHz
[ "$(awk '{ printf "%d\n", $1 }' "$tmp/latency" | sort -u)" = 592 ] ||
  fail "jalv: Motion's latency is not 592 frames: $(cat "$tmp/latency")"
n_distinct=$(sort -u "$tmp/pan" | wc -l)
[ "$n_distinct" -ge 2 ] ||
  fail "jalv: Motion's pan_now does not change: $(cat "$tmp/jalv_motion.out")"
awk '!($1 + 0 == $1 && $1 >= -1 && $1 <= 1) { exit 1 }' "$tmp/pan" ||
  fail "jalv: pan_now values outside [-1, 1]: $(cat "$tmp/pan")"
echo "# jalv: Motion's pan_now changes: $n_distinct different values"
