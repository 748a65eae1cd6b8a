#!/usr/bin/python3
# Copyright 2026 The perlin4d authors
# SPDX-License-Identifier: ISC
"""perlin4d-render's MIDI file read back by mido, an independent reader.

usage: midi_read.py RENDERER

Renders Perlin4D Mod to a MIDI file and, with the same settings, to a float
WAV (every frame of the four channels).  mido must read the file as format
1 with the render's tempo, a 4/4 time signature and the documented track
names, and its events must be those that the rules of the plugin's MIDI
(src/midi/midi_cc.h, restated here from its documentation) make of the
WAV's samples: each channel's value quantised over out_min..out_max, sent
when it changes, at least 5 ms after the channel's last update; 7-bit CC,
a 14-bit CC (MSB then LSB when the MSB changes, else the LSB alone) and
pitch bend.  Times come from mido's own tick-to-seconds conversion.

Exits 77 (skipped) when mido is not installed.
"""
import os
import struct
import subprocess
import sys
import tempfile

try:
    import mido
except ImportError:
    print("# mido is not installed (apt-get install python3-mido)")
    sys.exit(77)
import numpy as np

RATE = 48000
BPM = 100.0
DURATION = "3"
# Channel 1: 7-bit CC 20; 2: 14-bit CC 7 (LSB on 39); 3: pitch bend;
# 4: off.  MIDI channel 6.
SETTINGS = ["rate_hz=9", "midi_channel=6", "out_min=-0.75", "out_max=0.875",
            "cc_1=20", "midi_mode_2=1", "cc_2=7", "midi_mode_3=2",
            "cc_4=128", "spread=0.8"]
LOW, HIGH = np.float32(-0.75), np.float32(0.875)


def render(renderer, out, extra):
    args = [renderer, "--quiet", "--plugin", "mod", "--samplerate", str(RATE),
            "--duration", DURATION, "-o", out] + extra
    for s in SETTINGS:
        args += ["--set", s]
    subprocess.run(args, check=True)


def read_wav(path):
    """The float samples of a WAV file (RIFF chunks, read by hand)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE"
    pos, channels, samples = 12, 0, None
    while pos + 8 <= len(data):
        kind, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8:pos + 8 + size]
        if kind == b"fmt ":
            tag, channels, _, _, _, bits = struct.unpack("<HHIIHH", body[:16])
            assert bits == 32 and tag in (3, 0xFFFE)
        elif kind == b"data":
            samples = np.frombuffer(body, dtype="<f4")
        pos += 8 + size + (size & 1)
    return samples.reshape(-1, channels)


def expected_events(values):
    """(frame, bytes) of the plugin's MIDI, from the documented rules."""
    rng = np.float32(HIGH - LOW)
    u7 = ((values - LOW) / rng).astype(np.float32)
    s7 = (u7 * np.float32(127.0) + np.float32(0.5)).astype(np.float32)
    q7 = np.where(s7 < 0, 0, np.where(s7 >= 127, 127, s7.astype(np.int64)))
    s14 = (values.astype(np.float64) - float(LOW)) / float(rng) * 16383.0 + 0.5
    q14 = np.where(s14 < 0, 0, np.where(s14 >= 16383, 16383, s14.astype(np.int64)))
    gap = int(0.005 * RATE + 0.5)
    status_cc, status_bend = 0xB0 | 5, 0xE0 | 5
    last_frame, last_val = [-10**9] * 3, [-1] * 3
    events = []
    for i in range(values.shape[0]):
        for c in range(3):
            if i - last_frame[c] < gap:
                continue
            v = int(q7[i, c] if c == 0 else q14[i, c])
            if v == last_val[c]:
                continue
            if c == 0:
                events.append((i, (status_cc, 20, v)))
            elif c == 1:
                if last_val[c] < 0 or v >> 7 != last_val[c] >> 7:
                    events.append((i, (status_cc, 7, v >> 7)))
                events.append((i, (status_cc, 39, v & 127)))
            else:
                events.append((i, (status_bend, v & 127, v >> 7)))
            last_frame[c], last_val[c] = i, v
    return events


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    renderer = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        mid_path, wav_path = os.path.join(tmp, "c.mid"), os.path.join(tmp, "c.wav")
        render(renderer, mid_path, ["--tempo", str(BPM)])
        render(renderer, wav_path, [])
        mid = mido.MidiFile(mid_path)
        values = read_wav(wav_path)

    uspq = round(60e6 / BPM)
    assert mid.type == 1, mid.type
    assert len(mid.tracks) == 2, len(mid.tracks)
    assert mid.ticks_per_beat == RATE * uspq // 1000000 == 28800
    meta = {m.type: m for m in mid.tracks[0]}
    assert meta["track_name"].name == "Perlin4D Mod"
    assert meta["set_tempo"].tempo == uspq
    sig = meta["time_signature"]
    assert (sig.numerator, sig.denominator) == (4, 4)
    assert mid.tracks[1].name == "Perlin4D Mod, MIDI channel 6"
    assert abs(mid.length - float(DURATION)) < 1e-6, mid.length

    got, tick = [], 0
    for msg in mid.tracks[1]:
        tick += msg.time
        if msg.is_meta:
            continue
        seconds = mido.tick2second(tick, mid.ticks_per_beat, uspq)
        got.append((round(seconds * RATE), tuple(msg.bytes())))
    want = expected_events(values)
    for k, (g, w) in enumerate(zip(got, want)):
        if g != w:
            print(f"# event {k}: file {g}, rules {w}")
            break
    assert got == want, (len(got), len(want))
    kinds = {b[0] & 0xF0 for _, b in got}
    assert kinds == {0xB0, 0xE0}
    print(f"# mido: format 1, {mid.ticks_per_beat} ticks a quarter, tempo "
          f"{uspq} us, 4/4; {len(got)} events equal the rules applied to "
          f"the WAV's {values.shape[0]} frames")
    return 0


if __name__ == "__main__":
    sys.exit(main())
