// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "host_checks.h"

#include "params.h"
#include "texture.h"
#include "urid_map.h"

#include <lv2/atom/atom.h>
#include <lv2/atom/util.h>
#include <lv2/midi/midi.h>

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

/// Widen the output bounds since activate() by those of the controls now:
/// a glide blends the old and the new range.
void
p4d_host_check_bounds(P4dHost* h)
{
  if (h->motion) {
    // Audio follows its input: only finite and normal here; each Motion
    // test bounds its own levels.
    h->lo = -INFINITY;
    h->hi = INFINITY;
  } else if (h->noise) {
    // Gusts, grit and events may lift the output's ceiling past the level
    // by at most 12 dB (p4d_texture_headroom()).
    P4dTexture texture;
    p4d_texture_init(&texture,
                     p4d_host_clamped(h, "gust_db"),
                     p4d_host_clamped(h, "gust_hz"),
                     p4d_host_clamped(h, "grit"),
                     p4d_host_clamped(h, "width"));
    p4d_texture_events(
      &texture, p4d_host_clamped(h, "events"), p4d_host_clamped(h, "event_hz"));
    const double level = p4d_host_clamped(h, "level_db");
    const double limit =
      pow(10.0, level / 20.0) * (1.0 + 1.0e-6) * p4d_texture_headroom(&texture);
    h->lo = fmin(h->lo, -limit);
    h->hi = fmax(h->hi, limit);
  } else {
    const double a = p4d_host_clamped(h, "out_min");
    const double b = p4d_host_clamped(h, "out_max");
    h->lo          = fmin(h->lo, fmin(a, b));
    h->hi          = fmax(h->hi, fmax(a, b));
  }
}

/// Whether x is within the output bounds.  A bound that is itself a
/// denormal (out_min = out_max = 1e-40) may come out flushed to zero.
static bool
in_bounds(const P4dHost* h, float x)
{
  return (x >= h->lo && x <= h->hi) ||
         (x == 0.0f && h->lo <= FLT_MIN && h->hi >= -FLT_MIN);
}

void
p4d_host_check_sample(P4dHost* h, float x)
{
  if (!isfinite(x) || fpclassify(x) == FP_SUBNORMAL || !in_bounds(h, x)) {
    fprintf(stderr,
            "%s: output %a (%g) at frame %ld outside [%g, %g]\n",
            p4d_host_case,
            (double)x,
            (double)x,
            (long)h->frame,
            h->lo,
            h->hi);
  }
  assert(isfinite(x));
  assert(fpclassify(x) != FP_SUBNORMAL);
  assert(in_bounds(h, x));
  h->peak = fmax(h->peak, fabs((double)x));
}

/// Check the MIDI output of a run of n frames and log its CCs.
static void
check_midi(P4dHost* h, uint32_t n)
{
  const LV2_Atom_Sequence* const seq = (const LV2_Atom_Sequence*)h->midi;

  if (!h->with_map) {
    // Without URIDs the plugin can send nothing, but must still leave an
    // empty sequence body instead of the host's untouched chunk.
    assert(seq->atom.type == p4d_urid(LV2_ATOM__Chunk) ||
           seq->atom.type == p4d_urid(LV2_ATOM__Sequence));
    assert(seq->atom.size == sizeof(LV2_Atom_Sequence_Body));
    return;
  }

  assert(seq->atom.type == p4d_urid(LV2_ATOM__Sequence));
  assert(seq->atom.size >= sizeof(LV2_Atom_Sequence_Body));
  assert(seq->atom.size <= h->midi_capacity);
  assert(seq->body.unit == 0U ||
         seq->body.unit == p4d_urid(LV2_ATOM__frameTime));

  // CCs on the cc_n (and cc_n + 32 of a 14-bit cc_n < 32), pitch bends
  // if a channel asks for them, all on midi_channel.
  const int channel = (int)p4d_host_clamped(h, "midi_channel") - 1;
  const int status  = LV2_MIDI_MSG_CONTROLLER | channel;
  int       controllers[8];
  bool      bends = false;
  for (unsigned c = 0U; c < 4U; ++c) {
    const char symbol[] = { 'c', 'c', '_', (char)('1' + c), '\0' };
    char       mode[]   = "midi_mode_1";
    mode[10]            = (char)('1' + c);
    const int m         = (int)p4d_host_clamped(h, mode);
    controllers[c] =
      m == P4D_MIDI_PITCH_BEND ? P4D_CC_OFF : (int)p4d_host_clamped(h, symbol);
    controllers[c + 4U] = m == P4D_MIDI_CC_14 && controllers[c] < 32
                            ? controllers[c] + 32
                            : P4D_CC_OFF;
    bends |= m == P4D_MIDI_PITCH_BEND;
  }

  const uint8_t* const body = (const uint8_t*)&seq->body;
  uint32_t             off  = (uint32_t)sizeof(LV2_Atom_Sequence_Body);
  int64_t              last = 0;
  while (off < seq->atom.size) {
    // The event lies whole inside the sequence.
    const LV2_Atom_Event* const ev = (const LV2_Atom_Event*)(body + off);
    const bool has_header = off + sizeof(LV2_Atom_Event) <= seq->atom.size;
    const bool has_body =
      has_header &&
      ev->body.size <= seq->atom.size - off - sizeof(LV2_Atom_Event);
    if (!has_body) {
      fprintf(stderr,
              "%s: midi_out (capacity %u) ends in a partial event: sequence "
              "size %u, event at body offset %u\n",
              p4d_host_case,
              h->midi_capacity,
              seq->atom.size,
              off);
    }
    assert(has_header);
    assert(has_body);

    assert(ev->body.type == p4d_urid(LV2_MIDI__MidiEvent));
    assert(ev->body.size == 3U);
    if (ev->time.frames < last) {
      fprintf(stderr,
              "%s: midi_out event at frame %ld after one at frame %ld "
              "(block of %u)\n",
              p4d_host_case,
              (long)ev->time.frames,
              (long)last,
              n);
    }
    assert(ev->time.frames >= last);
    assert(ev->time.frames >= 0 && ev->time.frames < (int64_t)n);
    last = ev->time.frames;

    const uint8_t* const msg = (const uint8_t*)(ev + 1);
    assert(msg[1] <= 127U && msg[2] <= 127U);
    if (msg[0] == status) {
      unsigned c = 0U;
      while (c < 8U && msg[1] != controllers[c]) {
        ++c;
      }
      assert(c < 8U);
    } else {
      assert(bends && msg[0] == (LV2_MIDI_MSG_BENDER | channel));
    }

    assert(h->n_ccs < P4D_HOST_LOG_CAPACITY);
    h->ccs[h->n_ccs++] =
      (P4dHostCc){ h->frame + ev->time.frames, msg[1], msg[2], msg[0] };
    off += lv2_atom_pad_size((uint32_t)sizeof(LV2_Atom_Event) + ev->body.size);
  }
  assert(off - seq->atom.size < 8U);
}

void
p4d_host_check_run(P4dHost* h, const P4dDest* d, size_t at, uint32_t n)
{
  h->peak = 0.0;
  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    if (d && d->sig[c]) {
      for (uint32_t i = 0U; i < n; ++i) {
        p4d_host_check_sample(h, d->sig[c][at + i]);
      }
    }
  }

  if (h->motion) {
    // The latency, every run, a whole number of frames in the TTL's range.
    const float latency = h->value[h->latency_port];
    assert(latency >= 0.0f && latency == floorf(latency) &&
           latency <= h->maximum[h->latency_port]);
  }

  if (n || h->ran) {
    for (uint32_t c = 0U; c < h->n_outs; ++c) {
      const uint32_t i = h->out_port[c];
      const float    v = h->out_alias ? *h->out_alias : h->value[i];
      p4d_host_check_sample(h, v);
      if (h->motion && !(v >= h->minimum[i] && v <= h->maximum[i])) {
        fprintf(stderr,
                "%s: %s = %g outside the TTL's [%g, %g]\n",
                p4d_host_case,
                h->symbol[i],
                (double)v,
                (double)h->minimum[i],
                (double)h->maximum[i]);
        assert(false && "a target's output outside its range");
      }
    }
  }

  if (h->noise && h->peak > 0.0) {
    const double db = 20.0 * log10(h->peak) - p4d_host_clamped(h, "level_db");
    h->peak_db      = fmax(h->peak_db, db);
  }

  if (h->midi_connected) {
    check_midi(h, n);
  }
}
