// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Standard MIDI Files (.mid, .midi): the MIDI that Perlin4D Mod sends,
  made by the plugin's own generator (src/midi/midi_cc.h) from the same
  samples and the same parameters (the plan's, clamped as the plugin's
  ports clamp them; automated, they change on the P4D_AUTOMATION_GRID of
  song frames, as the engine's do).  Its frame counter counts from the
  render's first frame, as the plugin's counts from activate(): the 5 ms
  limit and the repeat suppression act at the same frames.

  The file is SMF format 1:
  - track 0, the tempo track: its name (FF 03, "Perlin4D Mod"), the tempo
    (FF 51) of uspq = round(60e6 / tempo_bpm) microseconds a quarter note,
    a time signature (FF 58) of 4/4 (the renderer knows no meter: 4/4 is
    what a DAW assumes without one), the end of the track (FF 2F);
  - then one track per MIDI channel that has events, in the order of the
    MIDI channels (the Mod sends on one; with midi_channel automated, on
    each it went through), named "Perlin4D Mod, MIDI channel N" (FF 03),
    its events in the order the plugin sends them, each with its status
    byte (no running status), then its end.

  Ticks.  The division D (ticks a quarter note) is rate * uspq / 1e6 if
  that is a whole number from 96 to 32767: then a tick is a frame (48 kHz
  at 120 bpm: D = 24000; 44.1 kHz: 22050).  Else D = 15360 and the event
  of frame f (counted from the render's first frame) goes at tick
      round(f * D * 1e6 / (uspq * rate)), a tie rounded up,
  computed exactly in integers.  Tick 0 is the render's first frame,
  whatever --start says; every track ends at the tick of the render's end
  (frame n_frames).  A gap longer than a delta time can hold (0x0FFFFFFF
  ticks) is bridged by empty text events (FF 01 00).

  A track's length comes before it, so the tracks are built in memory and
  written by finish(): a file or standard output ("-").  Only a plugin
  with a MIDI output has MIDI: any other is refused, and so is a choice of
  channels (a MIDI file holds what the plugin sends).
*/

#include "kind.h"
#include "midi_cc.h"
#include "params.h"
#include "render.h"
#include "text_stream.h"
#include "writers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// MIDI channels, each a track of its own.
#define MIDI_CHANNELS 16U

/// Frames handed to the generator at once without automation.
#define SLICE 4096U

/// Ticks a quarter note when a tick cannot be one frame.
#define FALLBACK_DIVISION 15360U

/// The range of divisions that make a tick one frame.
#define MIN_DIVISION 96U
#define MAX_DIVISION 32767U

/// The longest delta time a variable-length quantity holds.
#define MAX_DELTA 0x0FFFFFFFLL

/// Growing bytes.
typedef struct {
  uint8_t* data;
  size_t   len;
  size_t   cap;
} Bytes;

/// A track being built.
typedef struct {
  Bytes   bytes;
  int64_t tick; ///< The tick of its last event
} Track;

typedef struct {
  P4dWriterInfo info;
  int           fd;
  bool          stream;
  const char*   path;
  P4dMidiCc     cc;
  uint64_t      num; ///< A frame is num / den ticks (in lowest terms)
  uint64_t      den;
  uint32_t      division;
  uint32_t      uspq;
  int64_t       at;     ///< The render frame of the generator's offset 0
  bool          no_mem; ///< A track could not grow
  Track         track[MIDI_CHANNELS];
  float         values[P4D_MAX_CHANNELS][SLICE];
} Midi;

// -- Bytes -------------------------------------------------------------------

static bool
put(Bytes* b, const uint8_t* bytes, size_t n)
{
  if (!n) {
    return true;
  }
  if (b->len + n > b->cap) {
    const size_t   cap  = b->cap ? 2U * b->cap + n : 4096U + n;
    uint8_t* const data = (uint8_t*)realloc(b->data, cap);
    if (!data) {
      return false;
    }
    b->data = data;
    b->cap  = cap;
  }
  memcpy(b->data + b->len, bytes, n);
  b->len += n;
  return true;
}

/// Put v as a variable-length quantity (v <= MAX_DELTA).
static bool
put_vlq(Bytes* b, uint32_t v)
{
  uint8_t  out[4];
  unsigned n = 0U;
  for (unsigned shift = 21U; shift; shift -= 7U) {
    if (n || v >> shift) {
      out[n++] = (uint8_t)(0x80U | ((v >> shift) & 0x7FU));
    }
  }
  out[n++] = (uint8_t)(v & 0x7FU);
  return put(b, out, n);
}

/// Put the delta time from the track's last event to tick (bridging a long
/// gap with empty text events).
static bool
put_delta(Track* t, int64_t tick)
{
  static const uint8_t empty_text[3] = { 0xFFU, 0x01U, 0x00U };
  while (tick - t->tick > MAX_DELTA) {
    if (!put_vlq(&t->bytes, (uint32_t)MAX_DELTA) ||
        !put(&t->bytes, empty_text, 3U)) {
      return false;
    }
    t->tick += MAX_DELTA;
  }
  const bool ok = put_vlq(&t->bytes, (uint32_t)(tick - t->tick));
  t->tick       = tick;
  return ok;
}

/// Put a meta event of type at tick.
static bool
put_meta(Track* t, int64_t tick, uint8_t type, const void* data, uint8_t n)
{
  const uint8_t head[3] = { 0xFFU, type, n };
  return put_delta(t, tick) && put(&t->bytes, head, 3U) &&
         put(&t->bytes, (const uint8_t*)data, n);
}

static bool
put_name(Track* t, const char* name)
{
  const size_t n = strlen(name);
  return put_meta(t, 0, 0x03U, name, (uint8_t)(n < 255U ? n : 255U));
}

// -- Ticks -------------------------------------------------------------------

static uint64_t
gcd(uint64_t a, uint64_t b)
{
  while (b) {
    const uint64_t r = a % b;
    a                = b;
    b                = r;
  }
  return a;
}

/**
   round(f * num / den), a tie up, exactly: the 128-bit product in two
   halves, divided by den (below 2^63) a bit at a time.
*/
static int64_t
scale_round(uint64_t f, uint64_t num, uint64_t den)
{
  const uint64_t mask = 0xFFFFFFFFU;
  const uint64_t ll   = (f & mask) * (num & mask);
  const uint64_t lh   = (f & mask) * (num >> 32U);
  const uint64_t hl   = (f >> 32U) * (num & mask);
  const uint64_t hh   = (f >> 32U) * (num >> 32U);
  const uint64_t mid  = (ll >> 32U) + (lh & mask) + (hl & mask);
  const uint64_t lo   = (ll & mask) | (mid << 32U);
  const uint64_t hi   = hh + (lh >> 32U) + (hl >> 32U) + (mid >> 32U);

  if (!hi) { // the usual case: 64 bits hold the product
    return (int64_t)(lo / den + (lo % den >= den - lo % den));
  }
  uint64_t q = 0U;
  uint64_t r = 0U;
  for (int bit = 127; bit >= 0; --bit) {
    const uint64_t next = bit >= 64 ? (hi >> (unsigned)(bit - 64)) & 1U
                                    : (lo >> (unsigned)bit) & 1U;
    r                   = (r << 1U) | next; // r < den < 2^63: no bit is lost
    q <<= 1U; // the quotient fits: the ticks of any render do
    if (r >= den) {
      r -= den;
      q |= 1U;
    }
  }
  return (int64_t)(q + (r >= den - r));
}

/// The tick of render frame f.
static int64_t
tick_of(const Midi* m, int64_t f)
{
  return scale_round((uint64_t)f, m->num, m->den);
}

/// Choose the division and the ticks of a frame (see the top).
static void
choose_ticks(Midi* m, double rate_hz, double tempo_bpm)
{
  const uint64_t rate = (uint64_t)llround(rate_hz);
  m->uspq             = (uint32_t)llround(60.0e6 / tempo_bpm);
  const uint64_t per  = rate * m->uspq; // microseconds x frames a quarter
  const uint64_t d    = per / 1000000U;
  m->division = per % 1000000U == 0U && d >= MIN_DIVISION && d <= MAX_DIVISION
                  ? (uint32_t)d
                  : FALLBACK_DIVISION;
  const uint64_t num = (uint64_t)m->division * 1000000U;
  const uint64_t g   = gcd(num, per);
  m->num             = num / g;
  m->den             = per / g;
}

// -- The generator's sink ----------------------------------------------------

static bool
sink(void* handle, uint32_t offset, const uint8_t* msg, uint32_t size)
{
  Midi* const  m = (Midi*)handle;
  Track* const t = &m->track[msg[0] & 0x0FU];
  if (!put_delta(t, tick_of(m, m->at + (int64_t)offset)) ||
      !put(&t->bytes, msg, size)) {
    m->no_mem = true;
    return false;
  }
  return true;
}

// -- The writer --------------------------------------------------------------

/// Whether kind's plugin has a MIDI output.
static bool
sends_midi(const P4dKindClass* kind)
{
  const P4dPlugin* const plugin = p4d_kind_plugin(kind);
  return plugin && p4d_plugin_port_with(plugin, P4D_PORT_MIDI_OUT, 0U);
}

static P4dRenderCode
open_midi(void**               writer,
          const P4dWriterInfo* info,
          const P4dAtomicFile* file,
          P4dRenderStatus*     status)
{
  *writer                        = NULL;
  const P4dKindClass* const kind = info->plan->kind;
  if (!sends_midi(kind)) {
    snprintf(status->text,
             sizeof(status->text),
             "%s sends no MIDI (a MIDI file holds what Perlin4D Mod "
             "sends: --plugin mod)",
             p4d_kind_title(kind));
    return p4d_report_bad_value(status, "-o", file->path, status->text);
  }
  if (info->n_channels != kind->n_channels) {
    return p4d_report_bad_value(
      status,
      "-o",
      file->path,
      "a MIDI file holds every channel the plugin sends (turn one off with "
      "--set cc_N=128, not --channels or --channel)");
  }

  Midi* const m = (Midi*)calloc(1U, sizeof(Midi));
  *writer       = m;
  if (!m) {
    return p4d_report_failure(status, file->path, strerror(ENOMEM));
  }
  m->info   = *info;
  m->fd     = file->fd;
  m->stream = file->stream;
  m->path   = file->path;
  p4d_midi_cc_reset(&m->cc, info->sample_rate_hz);
  choose_ticks(m, info->sample_rate_hz, info->plan->tempo_bpm);
  return P4D_RENDER_SUCCESS;
}

/// The multiple of grid at or before f.
static int64_t
grid_floor(int64_t f, int64_t grid)
{
  const int64_t q = f / grid;
  return (q - (f % grid < 0)) * grid;
}

static P4dRenderCode
write_midi(void*            writer,
           int64_t          frame,
           const float*     interleaved,
           size_t           n,
           P4dRenderStatus* status)
{
  Midi* const                m     = (Midi*)writer;
  const P4dPlan* const       plan  = m->info.plan;
  const P4dParamTable* const table = p4d_kind_params(plan->kind);
  const unsigned             nch   = m->info.n_channels;
  const float* const         values[P4D_MAX_CHANNELS] = {
            m->values[0], m->values[1], m->values[2], m->values[3]
  };

  for (size_t done = 0U; done < n;) {
    // The parameters the engine used: on the automation grid, or fixed.
    const int64_t song = frame + (int64_t)done;
    const int64_t from =
      plan->automated ? grid_floor(song, P4D_AUTOMATION_GRID) : 0;
    const int64_t end =
      plan->automated ? from + P4D_AUTOMATION_GRID : song + (int64_t)SLICE;
    const size_t left = n - done;
    const size_t k = (size_t)(end - song) < left ? (size_t)(end - song) : left;
    float        params[P4D_MAX_PARAMS];
    p4d_plan_params_at(plan, from, params);
    for (uint32_t i = 0U; i < table->n_params; ++i) {
      params[i] = p4d_param_clamp(&table->params[i], params[i]);
    }

    for (size_t i = 0U; i < k; ++i) {
      for (unsigned c = 0U; c < nch; ++c) {
        m->values[c][i] = interleaved[(done + i) * nch + c];
      }
    }
    m->at = song - m->info.start_frame;
    p4d_midi_cc_send(&m->cc, params, values, m->at, 0U, (uint32_t)k, sink, m);
    if (m->no_mem) {
      return p4d_report_failure(status, m->path, strerror(ENOMEM));
    }
    done += k;
  }
  return P4D_RENDER_SUCCESS;
}

/// Put the chunk head "MTrk" or "MThd" and its length.
static bool
put_chunk(Bytes* b, const char* type, size_t len)
{
  const uint8_t head[8] = {
    (uint8_t)type[0],
    (uint8_t)type[1],
    (uint8_t)type[2],
    (uint8_t)type[3],
    (uint8_t)(len >> 24U),
    (uint8_t)((len >> 16U) & 0xFFU),
    (uint8_t)((len >> 8U) & 0xFFU),
    (uint8_t)(len & 0xFFU),
  };
  return len <= 0xFFFFFFFFU && put(b, head, 8U);
}

/// Build the whole file into out.
static bool
build(Midi* m, Bytes* out)
{
  const char* const    title  = p4d_kind_title(m->info.plan->kind);
  const int64_t        end    = tick_of(m, m->info.n_frames);
  static const uint8_t eot[3] = { 0xFFU, 0x2FU, 0x00U };

  Track         tempo  = { { NULL, 0U, 0U }, 0 };
  const uint8_t usp[3] = { (uint8_t)(m->uspq >> 16U),
                           (uint8_t)((m->uspq >> 8U) & 0xFFU),
                           (uint8_t)(m->uspq & 0xFFU) };
  // 4/4, a metronome click a quarter (24 MIDI clocks), 8 32nds a quarter.
  static const uint8_t meter[4] = { 4U, 2U, 24U, 8U };
  bool ok = put_name(&tempo, title) && put_meta(&tempo, 0, 0x51U, usp, 3U) &&
            put_meta(&tempo, 0, 0x58U, meter, 4U) && put_delta(&tempo, end) &&
            put(&tempo.bytes, eot, 3U);

  unsigned n_tracks = 1U;
  for (unsigned c = 0U; ok && c < MIDI_CHANNELS; ++c) {
    Track* const t = &m->track[c];
    if (!t->bytes.len) {
      continue;
    }
    ++n_tracks;
    // The name first: the events so far become the rest of the track.
    Track named = { { NULL, 0U, 0U }, 0 };
    char  name[96];
    snprintf(name, sizeof(name), "%s, MIDI channel %u", title, c + 1U);
    ok =
      put_name(&named, name) && put(&named.bytes, t->bytes.data, t->bytes.len);
    named.tick = t->tick;
    ok         = ok && put_delta(&named, end) && put(&named.bytes, eot, 3U);
    free(t->bytes.data);
    t->bytes = named.bytes;
  }

  const uint8_t head[6] = { 0U,
                            1U, // format 1
                            (uint8_t)(n_tracks >> 8U),
                            (uint8_t)(n_tracks & 0xFFU),
                            (uint8_t)(m->division >> 8U),
                            (uint8_t)(m->division & 0xFFU) };
  ok = ok && put_chunk(out, "MThd", 6U) && put(out, head, 6U) &&
       put_chunk(out, "MTrk", tempo.bytes.len) &&
       put(out, tempo.bytes.data, tempo.bytes.len);
  for (unsigned c = 0U; ok && c < MIDI_CHANNELS; ++c) {
    const Bytes* const b = &m->track[c].bytes;
    ok =
      !b->len || (put_chunk(out, "MTrk", b->len) && put(out, b->data, b->len));
  }
  free(tempo.bytes.data);
  return ok;
}

static P4dRenderCode
finish_midi(void* writer, P4dRenderStatus* status)
{
  Midi* const m   = (Midi*)writer;
  Bytes       out = { NULL, 0U, 0U };
  bool        any = false;
  for (unsigned c = 0U; c < MIDI_CHANNELS; ++c) {
    any = any || m->track[c].bytes.len;
  }
  if (!any && m->info.n_frames) {
    // Every first value goes out: only silent channels send nothing.
    p4d_report_warn("%s: no MIDI events: every cc_N is 128 (Off) and no "
                    "midi_mode_N is 2 (pitch bend); set one, such as --set "
                    "cc_1=74",
                    m->path);
  }
  if (!build(m, &out)) {
    free(out.data);
    return p4d_report_failure(status, m->path, strerror(ENOMEM));
  }
  FILE* const stream = p4d_text_stream_open(m->fd);
  if (!stream) {
    free(out.data);
    return p4d_report_failure(status, m->path, strerror(errno));
  }
  (void)fwrite(out.data, 1U, out.len, stream); // ferror() reports it below
  free(out.data);
  return p4d_text_stream_close(stream, !m->stream, m->path, status);
}

static void
close_midi(void* writer)
{
  Midi* const m = (Midi*)writer;
  for (unsigned c = 0U; m && c < MIDI_CHANNELS; ++c) {
    free(m->track[c].bytes.data);
  }
  free(m);
}

static const char* const midi_extensions[] = { "mid", "midi", NULL };

const P4dWriterClass p4d_write_midi = {
  .name       = "midi",
  .extensions = midi_extensions,
  .roles      = P4D_WRITER_OUTPUT,
  .can_stream = true,
  .tempo      = true,
  .open       = open_midi,
  .write      = write_midi,
  .finish     = finish_midi,
  .close      = close_midi,
};
