#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
"""The keyframe files of perlin4d-render read back by independent readers.

Each is compared with the rows of an unthinned CSV render of the same
settings (the CSV's bytes are in the render sums):
  - the thinning (--tolerance, --channel): the keys are rows of the CSV,
    text for text, the first and last among them, and every row lies within
    T of the straight line between the keys around it (measured here, on
    the float values the CSV prints); a thinned CSV of every channel holds
    the rows that are a key of any channel;
  - the JSON document, read by Python's json module: its fields, the
    settings equal --list-params' defaults and the --set values, the keys
    equal the CSV's rows, streamed to "-" as to a file;
  - the After Effects keyframe text, read by a reader written from the
    format (header, Units Per Second, a block per channel of tab-separated
    frame and value lines, CR LF, "End of Keyframe Data");
  - the Nuke .chan, read as Blender's importer reads it (split(), int()
    frames); chan_blender.py imports it with Blender's own importer.

Usage: keys_check.py PERLIN4D_RENDER
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

RENDER = os.path.abspath(sys.argv[1])
SETTINGS = ["--plugin", "mod", "--set", "rate_hz=3", "--set", "seed=7",
            "--set", "out_min=-0.5", "--set", "out_max=0.75", "--start", "1.5",
            "--duration", "4", "--fps", "50", "--quiet"]
WORK = tempfile.mkdtemp(prefix="p4d-keys-")


def run(*args, ok=True):
    r = subprocess.run([RENDER, *args], capture_output=True, check=False)
    if ok and r.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(args), r.stderr.decode()))
    return r


def render(name, *args):
    path = os.path.join(WORK, name)
    run(*SETTINGS, *args, "-o", path)
    with open(path, "rb") as f:
        data = f.read()
    os.remove(path)
    return data


def csv_rows(data):
    """The rows of a CSV: the header's names, then (time text, [value
    texts]) per row."""
    lines = data.decode().split("\n")
    assert lines[-1] == "", "the CSV ends with a newline"
    head = lines[0].split(",")
    rows = [(l.split(",")[0], l.split(",")[1:]) for l in lines[1:-1]]
    return head, rows


def f32(text):
    return float(np.float32(text))


def check_within(values, kept, tol):
    """Every row within tol of the line between the kept rows around it."""
    assert kept[0] == 0 and kept[-1] == len(values) - 1, "ends kept"
    for a, b in zip(kept, kept[1:]):
        for i in range(a + 1, b):
            t = (i - a) / (b - a)
            line = values[a] * (1 - t) + values[b] * t
            d = abs(values[i] - line)
            assert d <= tol * (1 + 1e-9), \
                "row %d is %.9g off the line %d..%d (T %g)" % (i, d, a, b, tol)


def test_thinning(head, rows):
    times = [r[0] for r in rows]
    index = {t: k for k, t in enumerate(times)}
    for tol in (0.003, 0.05):
        union = set()
        for ch in range(1, 5):
            h, keys = csv_rows(render("c.csv", "--channel", str(ch),
                                      "--tolerance", repr(tol)))
            assert h == ["time_s", head[ch]], h
            kept = [index[t] for t, _ in keys]
            assert kept == sorted(set(kept)), "keys in time order, once"
            for (t, v), k in zip(keys, kept):
                assert v == [rows[k][1][ch - 1]], "the CSV's value text"
            check_within([f32(r[1][ch - 1]) for r in rows], kept, tol)
            assert 2 <= len(kept) < (len(rows) if tol < 0.01 else
                                     len(rows) // 2), len(kept)
            union |= set(kept)
            print("# channel %d, T %g: %d keys of %d rows"
                  % (ch, tol, len(kept), len(rows)))
        h, keys = csv_rows(render("all.csv", "--tolerance", repr(tol)))
        assert h == head
        assert [index[t] for t, _ in keys] == sorted(union)
        assert all(v == rows[index[t]][1] for t, v in keys)
    # A tolerance of 0 is no thinning: the same bytes.
    assert render("z.csv", "--tolerance", "0") == render("z.csv")


def list_params():
    """The defaults --list-params prints: "%-13s %-15s %10g %10g %10g"
    (symbol, name, minimum, default, maximum), a name of any length."""
    out = run("--list-params", "--plugin", "mod").stdout.decode().split("\n")
    line = re.compile(r"^(\S+) +(.{15,}?) +(\S+) +(\S+) +(\S+)(  |$)")
    return {m.group(1): float(m.group(4))
            for m in (line.match(l) for l in out[1:] if l.strip())}


def test_json(head, rows):
    defaults = list_params()
    for tol in (0.0, 0.02):
        data = render("k.json", "--tolerance", repr(tol))
        piped = run(*SETTINGS, "--tolerance", repr(tol), "--format", "json",
                    "-o", "-").stdout
        assert piped == data, "the same document streamed"
        doc = json.loads(data)
        expect = {"format": "perlin4d-curves", "version": 1, "plugin": "mod",
                  "sample_rate_hz": 48000, "tempo_bpm": 120, "start_s": 1.5,
                  "duration_s": 4, "fps": 50, "tolerance": tol,
                  "interpolation": "linear", "automated": False}
        for k, v in expect.items():
            assert doc[k] == v, (k, doc[k], v)
        assert doc["generator"].startswith("perlin4d-render "), doc
        want = dict(defaults, rate_hz=3, seed=7, out_min=-0.5, out_max=0.75)
        assert doc["settings"] == want, (doc["settings"], want)
        assert [c["name"] for c in doc["channels"]] == head[1:]
        assert [c["index"] for c in doc["channels"]] == [1, 2, 3, 4]
        for ch, c in enumerate(doc["channels"], 1):
            if tol == 0:
                assert len(c["keys"]) == len(rows)
            _, keys = csv_rows(render("c.csv", "--channel", str(ch),
                                      "--tolerance", repr(tol)))
            assert c["keys"] == [[float(t), float(v[0])] for t, v in keys]
    # One channel, automated: its index, and the settings at the start.
    doc = json.loads(render("a.json", "--channel", "3", "--automate",
                            "rate_hz=0:1,10:2"))
    assert doc["automated"] is True and f32(doc["settings"]["rate_hz"]) == f32("1.15")
    assert [(c["name"], c["index"]) for c in doc["channels"]] == \
        [("out_3", 3)]
    print("# JSON: fields, settings, keys equal the CSV's rows")


def read_ae(data):
    """After Effects keyframe text: (units per second, {header: value},
    [(block header, [(frame, value)])])."""
    text = data.decode()
    assert "\r\n" in text and "\n" not in text.replace("\r\n", ""), "CR LF"
    lines = text.split("\r\n")
    assert lines[0] == "Adobe After Effects 8.0 Keyframe Data"
    assert lines[1] == "" and lines[-1] == "" and \
        lines[-2] == "End of Keyframe Data"
    header, i = {}, 2
    while lines[i]:
        _, name, value = lines[i].split("\t")
        header[name] = value
        i += 1
    blocks = []
    i += 1
    while lines[i] != "End of Keyframe Data":
        title = lines[i]
        assert lines[i + 1].split("\t")[:2] == ["", "Frame"], lines[i + 1]
        i += 2
        keys = []
        while lines[i]:
            cells = lines[i].split("\t")
            assert cells[0] == "" and cells[3:] in ([], [""]), cells
            keys.append((int(cells[1]), cells[2]))
            i += 1
        blocks.append((title, keys))
        i += 1
    return header, blocks


def test_ae(head, rows):
    header, blocks = read_ae(render("k.ae"))
    assert header == {"Units Per Second": "50", "Source Width": "1920",
                      "Source Height": "1080",
                      "Source Pixel Aspect Ratio": "1",
                      "Comp Pixel Aspect Ratio": "1"}, header
    assert len(blocks) == 4
    for ch, (title, keys) in enumerate(blocks, 1):
        assert title == "Effects\tSlider Control #%d\tSlider Control-0001" % ch
        assert keys == [(k, r[1][ch - 1]) for k, r in enumerate(rows)]
    # One channel, thinned: the frames of its keys, from 0 at the start.
    index = {t: k for k, (t, _) in enumerate(rows)}
    _, keys = csv_rows(render("c.csv", "--channel", "2", "--tolerance",
                              "0.01"))
    _, blocks = read_ae(render("k.txt", "--format", "ae", "--channel", "2",
                               "--tolerance", "0.01"))
    assert blocks == [("Effects\tSlider Control #1\tSlider Control-0001",
                       [(index[t], v[0]) for t, v in keys])]
    print("# After Effects: header, blocks, frames and values as the CSV's")


def test_chan(head, rows):
    data = render("k.chan", "--channels", "2")
    got = [l.split() for l in data.decode().split("\n")[:-1]]
    assert [int(l[0]) for l in got] == list(range(1, len(rows) + 1))
    assert all(l[1:] == r[1][:2] + ["0"] * 4 for l, r in zip(got, rows))
    wav = os.path.join(WORK, "s.wav")
    r = run(*SETTINGS, "--tolerance", "0.1", "-o", wav)
    assert r.stderr.decode().split("\n")[-2:] == [
        "perlin4d-render: warning: --tolerance: ignored: only CSV output and "
        "keyframes have rows", ""], r.stderr
    os.remove(wav)
    r = run(*SETTINGS, "--tolerance", "0.1", "-o", "-", "--format", "chan")
    assert r.stderr.decode().count("\n") == 1 and \
        "--tolerance: ignored" in r.stderr.decode()
    assert r.stdout == render("k.chan")
    print("# .chan: frames from 1, the channels then zeros; --tolerance "
          "warned of for a .chan and a sound file")


def test_clobber():
    """An existing file: refused without --force (exit 2, one line, the
    file as it was), replaced with it."""
    path = os.path.join(WORK, "old.json")
    with open(path, "w") as f:
        f.write("old")
    r = run(*SETTINGS, "-o", path, ok=False)
    assert r.returncode == 2 and r.stderr.decode().count("\n") == 1, r
    assert open(path).read() == "old" and os.listdir(WORK) == ["old.json"]
    run(*SETTINGS, "-o", path, "--force")
    assert json.load(open(path))["format"] == "perlin4d-curves"
    os.remove(path)
    print("# an existing file: refused, replaced with --force")


def main():
    head, rows = csv_rows(render("all.csv"))
    assert head == ["time_s", "out_1", "out_2", "out_3", "out_4"]
    assert len(rows) == 200 and rows[0][0] == "1.500000"
    test_thinning(head, rows)
    test_json(head, rows)
    test_ae(head, rows)
    test_chan(head, rows)
    test_clobber()
    os.rmdir(WORK)


if __name__ == "__main__":
    main()
