// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  An in-process LV2 host for the built perlin4d.lv2 bundle.

  Loads the bundle by path with lilv and runs Perlin4D Mod, Mod CV and Noise
  as a host does: with urid:map and with no features at all, with and
  without host transport (time:Position objects built with the atom forge),
  in blocks of 0 to 4096 frames, with aliased and unconnected buffers, and
  with garbage in every control input.  Every run checks that each output is
  finite, free of denormals and within the range the controls set, and that
  the MIDI output is a well formed sequence of control changes.  The cases
  check block-size invariance, equality with the engine, identical output
  after relocating to the same song position, a moving output while the
  transport is stopped, and the CC rate limit.

  Usage: test_lv2_host BUNDLE_PATH
*/

#undef NDEBUG

#include "engine.h"
#include "params.h"
#include "urid_map.h"

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/midi/midi.h>
#include <lv2/time/time.h>
#include <lv2/urid/urid.h>

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define URI_MOD "urn:perlin4d:mod"
#define URI_MOD_CV "urn:perlin4d:mod-cv"
#define URI_NOISE "urn:perlin4d:noise"

/// Sample rate of every instance.
#define RATE 48000.0

/// One second in frames.
#define SECOND 48000U

/// Shortest time between two CCs of one controller: 5 ms in frames.
#define CC_GAP 240

/// Most ports of any plugin, and most signal or control outputs.
#define MAX_PORTS 32U
#define MAX_OUTS 4U

/// Bytes of each atom port buffer: a realistic host capacity.
#define SEQ_BYTES 8192U

/// Most CC events logged between two activations.
#define LOG_CAPACITY 8192U

/// Song positions for the transport cases: 90 s and 10 s into the song.
#define SONG_F ((int64_t)SECOND * 90 + 123)
#define SONG_G ((int64_t)SECOND * 10 + 7)

// -- The URID map (tests/urid_map.h) --------------------------------------

static LV2_URID
urid(const char* uri)
{
  return map_uri(NULL, uri);
}

static const LV2_Feature* const features_none[] = { NULL };

// -- The world -------------------------------------------------------------

static LilvWorld*         world   = NULL;
static const LilvPlugins* plugins = NULL;
static LilvNode*          lv2_InputPort;
static LilvNode*          lv2_ControlPort;
static LilvNode*          lv2_AudioPort;
static LilvNode*          lv2_CVPort;
static LilvNode*          lv2_integer;
static LilvNode*          atom_AtomPort;

/// The case running, for messages when an assertion fails.
static char what[160] = "setup";

// -- The host --------------------------------------------------------------

/// A CC the plugin sent.
typedef struct {
  int64_t frame; ///< Frames since activate()
  uint8_t controller;
  uint8_t value;
} CcEvent;

/// Where a render writes: one value per frame from the render's start.
typedef struct {
  float* sig[MAX_OUTS]; ///< CV or audio output n, or NULL: left unconnected
  float* ctl[MAX_OUTS]; ///< out_n after each run at the block's last frame
                        ///< (NaN where no block ended), or NULL
} Dest;

/// Host transport for a render: a time:Position at every block start.
typedef struct {
  bool    on;        ///< Send positions
  bool    beat_form; ///< time:beat instead of time:bar and time:barBeat
  bool    mid;       ///< Also send one in the middle of every block
  int64_t frame;     ///< Song frame of the next block
  float   speed;     ///< 0 stopped, 1 rolling
  double  bpm;       ///< Tempo
} Transport;

typedef struct {
  const LilvPlugin*    plugin;
  LilvInstance*        instance;
  bool                 noise;    ///< Perlin4D Noise, else a Mod
  bool                 with_map; ///< Instantiated with urid:map
  bool                 active;
  uint32_t             n_ports;
  const char*          symbol[MAX_PORTS];
  bool                 control_in[MAX_PORTS];
  bool                 integer[MAX_PORTS];
  float                def[MAX_PORTS];
  float                minimum[MAX_PORTS];
  float                maximum[MAX_PORTS];
  float                value[MAX_PORTS]; ///< Control port buffers
  uint32_t             n_signals;
  uint32_t             signal_port[MAX_OUTS]; ///< cv_n, or out_l and out_r
  uint32_t             n_outs;
  uint32_t             out_port[MAX_OUTS]; ///< out_n control outputs
  int                  midi_port;          ///< -1 if none
  bool                 midi_connected;
  uint32_t             midi_capacity; ///< atom.size set before each run
  float*               out_alias;     ///< Every out_n connected here, or NULL
  LV2_Atom_Forge       forge;
  LV2_Atom_Forge_Frame sequence;
  bool                 control_set; ///< Events wait for the next run
  int64_t              frame;       ///< Frames since activate()
  bool                 ran;  ///< A run of at least one frame since activate()
  double               lo;   ///< Lowest output allowed since activate()
  double               hi;   ///< Highest output allowed since activate()
  double               peak; ///< Largest |output| of the current run
  double               peak_db; ///< Noise: largest |output| re level_db
  size_t               n_ccs;
  CcEvent              ccs[LOG_CAPACITY];
  uint64_t             control[SEQ_BYTES / 8U];
  uint64_t             midi[SEQ_BYTES / 8U];
} Host;

static uint32_t
find_port(const Host* h, const char* symbol)
{
  for (uint32_t i = 0U; i < h->n_ports; ++i) {
    if (!strcmp(h->symbol[i], symbol)) {
      return i;
    }
  }

  fprintf(stderr, "no port '%s'\n", symbol);
  assert(false && "port not found");
  return 0U;
}

static void
set(Host* h, const char* symbol, float value)
{
  const uint32_t i = find_port(h, symbol);
  assert(h->control_in[i]);
  h->value[i] = value;
}

/// The value of control input i as the plugin must see it, from the TTL.
static float
clamped(const Host* h, uint32_t i)
{
  const float v = h->value[i];
  if (isnan(v)) {
    return h->def[i];
  }

  const float c = v < h->minimum[i]   ? h->minimum[i]
                  : v > h->maximum[i] ? h->maximum[i]
                                      : v;
  return h->integer[i] ? floorf(c + 0.5f) : c;
}

static float
clamped_value(const Host* h, const char* symbol)
{
  return clamped(h, find_port(h, symbol));
}

static void
set_defaults(Host* h)
{
  for (uint32_t i = 0U; i < h->n_ports; ++i) {
    if (h->control_in[i]) {
      h->value[i] = h->def[i];
    }
  }
}

static void
connect_midi(Host* h, bool connect)
{
  assert(h->midi_port >= 0);
  h->midi_connected = connect;
  lilv_instance_connect_port(
    h->instance, (uint32_t)h->midi_port, connect ? h->midi : NULL);
}

static Host*
host_new(const char* uri, bool with_map)
{
  Host* const h = (Host*)calloc(1U, sizeof(Host));
  assert(h);

  LilvNode* const node = lilv_new_uri(world, uri);
  h->plugin            = lilv_plugins_get_by_uri(plugins, node);
  lilv_node_free(node);
  assert(h->plugin);

  h->noise         = !strcmp(uri, URI_NOISE);
  h->with_map      = with_map;
  h->midi_port     = -1;
  h->midi_capacity = SEQ_BYTES - (uint32_t)sizeof(LV2_Atom);
  h->n_ports       = lilv_plugin_get_num_ports(h->plugin);
  assert(h->n_ports <= MAX_PORTS);
  h->instance = lilv_plugin_instantiate(
    h->plugin, RATE, with_map ? features_map : features_none);
  assert(h->instance);
  lv2_atom_forge_init(&h->forge, &map);

  for (uint32_t i = 0U; i < h->n_ports; ++i) {
    const LilvPort* const port = lilv_plugin_get_port_by_index(h->plugin, i);
    const bool input           = lilv_port_is_a(h->plugin, port, lv2_InputPort);
    h->symbol[i] = lilv_node_as_string(lilv_port_get_symbol(h->plugin, port));

    if (lilv_port_is_a(h->plugin, port, lv2_ControlPort)) {
      LilvNode* def = NULL;
      LilvNode* min = NULL;
      LilvNode* max = NULL;
      lilv_port_get_range(h->plugin, port, &def, &min, &max);
      h->def[i]     = def ? lilv_node_as_float(def) : 0.0f;
      h->minimum[i] = min ? lilv_node_as_float(min) : -INFINITY;
      h->maximum[i] = max ? lilv_node_as_float(max) : INFINITY;
      lilv_node_free(def);
      lilv_node_free(min);
      lilv_node_free(max);
      h->integer[i]    = lilv_port_has_property(h->plugin, port, lv2_integer);
      h->control_in[i] = input;
      h->value[i]      = input ? h->def[i] : 0.0f;
      if (!input) {
        assert(h->n_outs < MAX_OUTS);
        h->out_port[h->n_outs++] = i;
      }
      lilv_instance_connect_port(h->instance, i, &h->value[i]);
    } else if (lilv_port_is_a(h->plugin, port, lv2_AudioPort) ||
               lilv_port_is_a(h->plugin, port, lv2_CVPort)) {
      assert(!input);
      assert(h->n_signals < MAX_OUTS);
      h->signal_port[h->n_signals++] = i;
    } else {
      assert(lilv_port_is_a(h->plugin, port, atom_AtomPort));
      if (input) {
        assert(!strcmp(h->symbol[i], "control"));
        lilv_instance_connect_port(h->instance, i, h->control);
      } else {
        assert(!strcmp(h->symbol[i], "midi_out"));
        h->midi_port = (int)i;
        connect_midi(h, true);
      }
    }
  }

  if (h->noise) {
    assert(h->n_ports == 15U && h->n_signals == 2U && h->n_outs == 0U);
  } else {
    assert(h->n_ports == (h->n_signals ? 29U : 25U));
    assert(h->n_outs == 4U && h->midi_port == 1);
  }
  return h;
}

static void
host_free(Host* h)
{
  if (h->active) {
    lilv_instance_deactivate(h->instance);
  }
  lilv_instance_free(h->instance);
  free(h);
}

static void
host_activate(Host* h)
{
  if (h->active) {
    lilv_instance_deactivate(h->instance);
  }
  lilv_instance_activate(h->instance);
  h->active  = true;
  h->frame   = 0;
  h->ran     = false;
  h->lo      = INFINITY;
  h->hi      = -INFINITY;
  h->peak_db = -INFINITY;
  h->n_ccs   = 0U;
}

/// Widen the output bounds since activate() by those of the controls now:
/// a glide blends the old and the new range.
static void
update_bounds(Host* h)
{
  if (h->noise) {
    const double level = clamped_value(h, "level_db");
    const double limit = pow(10.0, (level + 1.0) / 20.0) * (1.0 + 1.0e-6);
    h->lo              = fmin(h->lo, -limit);
    h->hi              = fmax(h->hi, limit);
  } else {
    const double a = clamped_value(h, "out_min");
    const double b = clamped_value(h, "out_max");
    h->lo          = fmin(h->lo, fmin(a, b));
    h->hi          = fmax(h->hi, fmax(a, b));
  }
}

/// Whether x is within the output bounds.  A bound that is itself a
/// denormal (out_min = out_max = 1e-40) may come out flushed to zero.
static bool
in_bounds(const Host* h, float x)
{
  return (x >= h->lo && x <= h->hi) ||
         (x == 0.0f && h->lo <= FLT_MIN && h->hi >= -FLT_MIN);
}

static void
check_sample(Host* h, float x)
{
  if (!isfinite(x) || fpclassify(x) == FP_SUBNORMAL || !in_bounds(h, x)) {
    fprintf(stderr,
            "%s: output %a (%g) at frame %ld outside [%g, %g]\n",
            what,
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
check_midi(Host* h, uint32_t n)
{
  const LV2_Atom_Sequence* const seq = (const LV2_Atom_Sequence*)h->midi;

  if (!h->with_map) {
    // Without URIDs the plugin can send nothing, but must still leave an
    // empty sequence body instead of the host's untouched chunk.
    assert(seq->atom.type == urid(LV2_ATOM__Chunk) ||
           seq->atom.type == urid(LV2_ATOM__Sequence));
    assert(seq->atom.size == sizeof(LV2_Atom_Sequence_Body));
    return;
  }

  assert(seq->atom.type == urid(LV2_ATOM__Sequence));
  assert(seq->atom.size >= sizeof(LV2_Atom_Sequence_Body));
  assert(seq->atom.size <= h->midi_capacity);
  assert(seq->body.unit == 0U || seq->body.unit == urid(LV2_ATOM__frameTime));

  const int status =
    LV2_MIDI_MSG_CONTROLLER | ((int)clamped_value(h, "midi_channel") - 1);
  int controllers[4];
  for (unsigned c = 0U; c < 4U; ++c) {
    const char symbol[] = { 'c', 'c', '_', (char)('1' + c), '\0' };
    controllers[c]      = (int)clamped_value(h, symbol);
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
              what,
              h->midi_capacity,
              seq->atom.size,
              off);
    }
    assert(has_header);
    assert(has_body);

    assert(ev->body.type == urid(LV2_MIDI__MidiEvent));
    assert(ev->body.size == 3U);
    if (ev->time.frames < last) {
      fprintf(stderr,
              "%s: midi_out event at frame %ld after one at frame %ld "
              "(block of %u)\n",
              what,
              (long)ev->time.frames,
              (long)last,
              n);
    }
    assert(ev->time.frames >= last);
    assert(ev->time.frames >= 0 && ev->time.frames < (int64_t)n);
    last = ev->time.frames;

    const uint8_t* const msg = (const uint8_t*)(ev + 1);
    assert(msg[0] == status);
    assert(msg[1] <= 127U);
    assert(msg[1] == controllers[0] || msg[1] == controllers[1] ||
           msg[1] == controllers[2] || msg[1] == controllers[3]);
    assert(msg[2] <= 127U);

    assert(h->n_ccs < LOG_CAPACITY);
    h->ccs[h->n_ccs++] =
      (CcEvent){ h->frame + ev->time.frames, msg[1], msg[2] };
    off += lv2_atom_pad_size((uint32_t)sizeof(LV2_Atom_Event) + ev->body.size);
  }
  assert(off - seq->atom.size < 8U);
}

/// Run one block of n frames that starts at frame `at` of d.
static void
host_run(Host* h, const Dest* d, size_t at, uint32_t n)
{
  update_bounds(h);

  if (h->control_set) {
    lv2_atom_forge_pop(&h->forge, &h->sequence);
    h->control_set = false;
  } else {
    LV2_Atom_Sequence* const seq = (LV2_Atom_Sequence*)h->control;
    seq->atom.type               = urid(LV2_ATOM__Sequence);
    seq->atom.size               = sizeof(LV2_Atom_Sequence_Body);
    seq->body.unit               = 0U;
    seq->body.pad                = 0U;
  }

  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    lilv_instance_connect_port(
      h->instance, h->signal_port[c], d && d->sig[c] ? d->sig[c] + at : NULL);
  }
  for (uint32_t c = 0U; c < h->n_outs; ++c) {
    lilv_instance_connect_port(h->instance,
                               h->out_port[c],
                               h->out_alias ? h->out_alias
                                            : &h->value[h->out_port[c]]);
  }

  if (h->midi_connected) {
    // Stale bytes, as a host's reused buffer holds, then an empty chunk.
    memset(h->midi, 0xA5, sizeof(h->midi));
    LV2_Atom* const atom = (LV2_Atom*)h->midi;
    atom->type           = urid(LV2_ATOM__Chunk);
    atom->size           = h->midi_capacity;
  }

  lilv_instance_run(h->instance, n);
  h->peak = 0.0;

  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    if (d && d->sig[c]) {
      for (uint32_t i = 0U; i < n; ++i) {
        check_sample(h, d->sig[c][at + i]);
      }
    }
  }

  if (n || h->ran) {
    for (uint32_t c = 0U; c < h->n_outs; ++c) {
      const float v = h->out_alias ? *h->out_alias : h->value[h->out_port[c]];
      check_sample(h, v);
      if (n && d && d->ctl[c]) {
        d->ctl[c][at + n - 1U] = v;
      }
    }
  }

  if (h->noise && h->peak > 0.0) {
    const double db = 20.0 * log10(h->peak) - clamped_value(h, "level_db");
    h->peak_db      = fmax(h->peak_db, db);
  }

  if (h->midi_connected) {
    check_midi(h, n);
  }

  h->frame += n;
  h->ran = h->ran || n;
}

// -- Host transport --------------------------------------------------------

/// One property of an object the host sends.
typedef struct {
  const char* key;  ///< Property URI
  char        type; ///< 'l' Long, 'i' Int, 'f' Float, 'd' Double
  int64_t     l;    ///< Value of a Long or Int
  double      d;    ///< Value of a Float or Double
} Field;

/// Append an object to the control input of the next run, at frame `at`.
static void
send_object(Host*        h,
            uint32_t     at,
            const char*  otype,
            const Field* fields,
            size_t       n_fields)
{
  LV2_Atom_Forge* const f = &h->forge;
  if (!h->control_set) {
    lv2_atom_forge_set_buffer(f, (uint8_t*)h->control, sizeof(h->control));
    assert(lv2_atom_forge_sequence_head(f, &h->sequence, 0U));
    h->control_set = true;
  }

  LV2_Atom_Forge_Frame object;
  assert(lv2_atom_forge_frame_time(f, at));
  assert(lv2_atom_forge_object(f, &object, 0U, urid(otype)));
  for (size_t i = 0U; i < n_fields; ++i) {
    const Field* const p = &fields[i];
    assert(lv2_atom_forge_key(f, urid(p->key)));
    switch (p->type) {
    case 'l':
      assert(lv2_atom_forge_long(f, p->l));
      break;
    case 'i':
      assert(lv2_atom_forge_int(f, (int32_t)p->l));
      break;
    case 'f':
      assert(lv2_atom_forge_float(f, (float)p->d));
      break;
    default:
      assert(lv2_atom_forge_double(f, p->d));
      break;
    }
  }
  lv2_atom_forge_pop(f, &object);
}

/// Append an atom:Int event, not an object, to the next run.
static void
send_int(Host* h, uint32_t at, int32_t value)
{
  assert(h->control_set);
  assert(lv2_atom_forge_frame_time(&h->forge, at));
  assert(lv2_atom_forge_int(&h->forge, value));
}

/// Append a time:Position at song frame `frame` to the next run.
static void
send_position(Host* h, uint32_t at, const Transport* tr, int64_t frame)
{
  const double beat = (double)frame / RATE * tr->bpm / 60.0;
  const double bar  = floor(beat / 4.0);
  Field        fields[6];
  size_t       n = 0U;

  fields[n++] = (Field){ LV2_TIME__frame, 'l', frame, 0.0 };
  fields[n++] = (Field){ LV2_TIME__speed, 'f', 0, tr->speed };
  if (tr->beat_form) {
    fields[n++] = (Field){ LV2_TIME__beat, 'd', 0, beat };
  } else {
    fields[n++] = (Field){ LV2_TIME__bar, 'l', (int64_t)bar, 0.0 };
    fields[n++] = (Field){ LV2_TIME__barBeat, 'f', 0, beat - bar * 4.0 };
    fields[n++] = (Field){ LV2_TIME__beatsPerBar, 'f', 0, 4.0 };
  }
  fields[n++] = (Field){ LV2_TIME__beatsPerMinute, 'f', 0, tr->bpm };
  send_object(h, at, LV2_TIME__Position, fields, n);
}

/**
   Render n frames into d from frame 0, in blocks of the sizes of pattern
   (repeated); with transport, a time:Position starts every block.  Returns
   the number of runs.
*/
static size_t
render(Host*           h,
       const Dest*     d,
       size_t          n,
       const uint32_t* pattern,
       size_t          n_pattern,
       Transport*      tr)
{
  size_t runs = 0U;
  for (size_t done = 0U, k = 0U; done < n; ++k) {
    uint32_t m = pattern[k % n_pattern];
    if (m > n - done) {
      m = (uint32_t)(n - done);
    }

    if (tr && tr->on) {
      send_position(h, 0U, tr, tr->frame);
      if (tr->mid && m >= 2U) {
        send_position(
          h, m / 2U, tr, tr->frame + (int64_t)(tr->speed * (float)(m / 2U)));
      }
    }
    host_run(h, d, done, m);
    ++runs;

    if (tr) {
      tr->frame += (int64_t)(tr->speed * (float)m);
    }
    done += m;
  }
  return runs;
}

// -- Buffers and comparisons -----------------------------------------------

static float*
new_floats(size_t n, float fill)
{
  float* const x = (float*)malloc((n ? n : 1U) * sizeof(float));
  assert(x);
  for (size_t i = 0U; i < n; ++i) {
    x[i] = fill;
  }
  return x;
}

/// Buffers for every output of h over n frames.
static Dest
dest_new(const Host* h, size_t n)
{
  Dest d;
  memset(&d, 0, sizeof(d));
  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    d.sig[c] = new_floats(n, NAN);
  }
  for (uint32_t c = 0U; c < h->n_outs; ++c) {
    d.ctl[c] = new_floats(n, NAN);
  }
  return d;
}

/// The part of d from frame offset on.
static Dest
dest_view(const Dest* d, size_t offset)
{
  Dest v;
  for (unsigned c = 0U; c < MAX_OUTS; ++c) {
    v.sig[c] = d->sig[c] ? d->sig[c] + offset : NULL;
    v.ctl[c] = d->ctl[c] ? d->ctl[c] + offset : NULL;
  }
  return v;
}

static void
dest_free(Dest* d)
{
  for (unsigned c = 0U; c < MAX_OUTS; ++c) {
    free(d->sig[c]);
    free(d->ctl[c]);
  }
  memset(d, 0, sizeof(*d));
}

static bool
same_bits(float a, float b)
{
  return !memcmp(&a, &b, sizeof(float));
}

/// Assert a[i] and b[i] are the same bits for i in [from, to); return the
/// count.
static size_t
compare(const float* a, const float* b, size_t from, size_t to)
{
  for (size_t i = from; i < to; ++i) {
    if (!same_bits(a[i], b[i])) {
      fprintf(stderr,
              "%s: first difference at frame %lu: %a != %a\n",
              what,
              (unsigned long)i,
              (double)a[i],
              (double)b[i]);
    }
    assert(same_bits(a[i], b[i]));
  }
  return to - from;
}

/// Compare control outputs where both recorded a block end; return the count.
static size_t
compare_ends(const float* a, const float* b, size_t from, size_t to)
{
  size_t n = 0U;
  for (size_t i = from; i < to; ++i) {
    if (!isnan(a[i]) && !isnan(b[i])) {
      if (!same_bits(a[i], b[i])) {
        fprintf(stderr,
                "%s: control outputs differ at frame %lu: %a != %a\n",
                what,
                (unsigned long)i,
                (double)a[i],
                (double)b[i]);
      }
      assert(same_bits(a[i], b[i]));
      ++n;
    }
  }
  return n;
}

/// Compare every output of two recordings over [from, to); return the count
/// of values compared.
static size_t
compare_dest(const Host* h,
             const Dest* a,
             const Dest* b,
             size_t      from,
             size_t      to)
{
  size_t n = 0U;
  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    n += compare(a->sig[c], b->sig[c], from, to);
  }
  for (uint32_t c = 0U; c < h->n_outs; ++c) {
    n += compare_ends(a->ctl[c], b->ctl[c], from, to);
  }
  return n;
}

/// Number of distinct consecutive values of x[from..to) that are not NaN.
static size_t
changes(const float* x, size_t from, size_t to)
{
  size_t n    = 0U;
  float  last = NAN;
  for (size_t i = from; i < to; ++i) {
    if (!isnan(x[i])) {
      if (!isnan(last) && x[i] != last) {
        ++n;
      }
      last = x[i];
    }
  }
  return n;
}

/// The first recorded output of d: a signal, or else a control output.
static const float*
first_output(const Host* h, const Dest* d)
{
  return h->n_signals ? d->sig[0] : d->ctl[0];
}

static const char*
short_name(const Host* h)
{
  return h->noise ? "noise" : h->n_signals ? "mod-cv" : "mod";
}

/// Set constant, non-default controls that exercise the whole signal path.
static void
set_lively(Host* h)
{
  if (h->noise) {
    set(h, "level_db", -6.0f);
    set(h, "grain_hz", 3000.0f);
    set(h, "octaves", 3.5f);
    set(h, "lacunarity", 2.3f);
    set(h, "persistence", 0.6f);
    set(h, "evolve_hz", 3.0f);
    set(h, "width", 0.6f);
    set(h, "morph_y", -2.5f);
    set(h, "seed", 9.0f);
  } else {
    set(h, "rate_hz", 7.0f);
    set(h, "period_beats", 0.5f);
    set(h, "octaves", 2.5f);
    set(h, "lacunarity", 2.3f);
    set(h, "persistence", 0.6f);
    set(h, "spread", 0.7f);
    set(h, "morph_x", 1.25f);
    set(h, "seed", 77.0f);
    set(h, "out_min", -0.5f);
    set(h, "out_max", 0.9f);
  }
}

static const uint32_t mixed[] = { 0U,   1U, 7U, 64U,   4096U, 3U,  0U,
                                  333U, 1U, 2U, 1000U, 63U,   65U, 511U };

#define N_MIXED (sizeof(mixed) / sizeof(mixed[0]))

// -- Cases -----------------------------------------------------------------

/// Block sizes 0, every size 1..64 and 4096, with and without transport.
static void
test_block_sizes(const char* uri)
{
  snprintf(what, sizeof(what), "blocks %s", uri);
  uint32_t pattern[80];
  size_t   n_pattern = 0U;
  size_t   n         = 0U;
  for (uint32_t m = 1U; m <= 64U; ++m) {
    if (m % 8U == 1U) {
      pattern[n_pattern++] = 0U;
    }
    pattern[n_pattern++] = m;
    n += m;
  }
  pattern[n_pattern++] = 4096U;
  pattern[n_pattern++] = 0U;
  n += 4096U;

  Host* const h    = host_new(uri, true);
  Dest        d    = dest_new(h, n);
  size_t      runs = 0U;

  // Clock 0 with no transport, then rolling in seconds and in beats (both
  // forms of position), then free running.
  for (unsigned pass = 0U; pass < 4U; ++pass) {
    set_defaults(h);
    if (pass == 2U && !h->noise) {
      set(h, "clock", 1.0f);
    } else if (pass == 3U) {
      set(h, "clock", h->noise ? 1.0f : 2.0f);
    }

    Transport tr = { pass > 0U, pass == 2U, true, SONG_F, 1.0f, 120.0 };
    host_activate(h);
    runs += render(h, &d, n, pattern, n_pattern, &tr);
    assert(changes(first_output(h, &d), 0U, n) > 10U);
  }

  // Loud, peaky noise: still never above the level by more than 1 dB.
  if (h->noise) {
    set_defaults(h);
    set(h, "level_db", 0.0f);
    set(h, "octaves", 1.0f);
    set(h, "width", 0.0f);
    set(h, "grain_hz", 20000.0f);
    host_activate(h);
    for (unsigned k = 0U; k < 4U; ++k) {
      runs += render(h, &d, n, pattern, n_pattern, NULL);
    }
    printf("# blocks noise: peak %.2f dB re level_db 0 over %lu frames\n",
           h->peak_db,
           (unsigned long)(4U * n));
    assert(h->peak_db <= 1.0 + 1.0e-4);
  }

  printf("# blocks %s: %lu runs of 0, 1..64 and 4096 frames, 4 clock/"
         "transport passes, outputs finite and bounded\n",
         short_name(h),
         (unsigned long)runs);
  dest_free(&d);
  host_free(h);
}

/// Blocks of 1, 7, 64, 4096 and a mix give the bytes of one run.
static void
test_block_invariance(const char* uri, bool transport, bool beats)
{
  static const uint32_t one[]   = { 1U };
  static const uint32_t seven[] = { 7U };
  static const uint32_t sixty[] = { 64U };
  static const uint32_t large[] = { 4096U };

  static const struct {
    const uint32_t* sizes;
    size_t          n;
  } patterns[] = {
    { one, 1U }, { seven, 1U }, { sixty, 1U }, { large, 1U }, { mixed, N_MIXED }
  };

  snprintf(what,
           sizeof(what),
           "invariance %s%s%s",
           uri,
           transport ? " rolling" : "",
           beats ? " beats" : "");

  const size_t   n       = 3U * 4096U + 1000U;
  const uint32_t whole[] = { (uint32_t)n };
  Host* const    h       = host_new(uri, true);
  set_lively(h);
  if (beats) {
    set(h, "clock", 1.0f);
  }

  Dest      ref = dest_new(h, n);
  Transport tr  = { transport, beats, false, SONG_F, 1.0f, 140.0 };
  host_activate(h);
  render(h, &ref, n, whole, 1U, &tr);

  // The first pattern (blocks of 1) records the control outputs at every
  // frame: the reference for every other pattern's block ends.
  Dest   per_frame = dest_new(h, n);
  size_t compared  = 0U;
  for (size_t p = 0U; p < sizeof(patterns) / sizeof(patterns[0]); ++p) {
    Dest d   = dest_new(h, n);
    tr.frame = SONG_F;
    host_activate(h);
    render(h, &d, n, patterns[p].sizes, patterns[p].n, &tr);
    for (uint32_t c = 0U; c < h->n_signals; ++c) {
      compared += compare(ref.sig[c], d.sig[c], 0U, n);
    }
    for (uint32_t c = 0U; c < h->n_outs; ++c) {
      if (p == 0U) {
        memcpy(per_frame.ctl[c], d.ctl[c], n * sizeof(float));
        compared += compare_ends(ref.ctl[c], d.ctl[c], 0U, n);
      } else {
        compared += compare_ends(per_frame.ctl[c], d.ctl[c], 0U, n);
      }
    }
    dest_free(&d);
  }

  printf("# invariance %s%s: blocks of 1, 7, 64, 4096 and mixed vs one run "
         "of %lu frames: %lu values identical\n",
         short_name(h),
         transport ? (beats ? " (rolling, beats)" : " (rolling)") : "",
         (unsigned long)n,
         (unsigned long)compared);
  dest_free(&per_frame);
  dest_free(&ref);
  host_free(h);
}

/// The plugin's output is the engine's, bit for bit, with no transport;
/// without urid:map, positions in the control input are ignored.
static void
test_engine_equal(const char* uri, bool with_map)
{
  snprintf(what,
           sizeof(what),
           "engine %s%s",
           uri,
           with_map ? " with urid:map" : " without features");
  const size_t n = SECOND / 2U;
  Host* const  h = host_new(uri, with_map);
  set_lively(h);

  Dest      d  = dest_new(h, n);
  Transport tr = { !with_map, false, true, SONG_F, 1.0f, 120.0 };
  host_activate(h);
  render(h, &d, n, mixed, N_MIXED, &tr);

  const P4dKind        kind  = h->noise ? P4D_KIND_NOISE : P4D_KIND_MOD;
  const P4dParamTable* table = p4d_params(kind);
  float                params[P4D_MAX_PARAMS];
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    params[i] = h->value[find_port(h, table->params[i].symbol)];
  }

  P4dEngine* engine = NULL;
  assert(!p4d_engine_new(kind, RATE, &engine));
  float*   out[P4D_MAX_CHANNELS];
  unsigned n_channels = p4d_engine_channels(kind);
  for (unsigned c = 0U; c < n_channels; ++c) {
    out[c] = new_floats(n, 0.0f);
  }
  p4d_engine_process(engine, params, out, (uint32_t)n);

  size_t compared = 0U;
  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    compared += compare(out[c], d.sig[c], 0U, n);
  }
  for (uint32_t c = 0U; c < h->n_outs; ++c) {
    compared += compare_ends(out[c], d.ctl[c], 0U, n);
  }
  assert(changes(first_output(h, &d), 0U, n) > 10U);

  printf("# engine %s %s: %lu values bit-identical to p4d_engine_process\n",
         short_name(h),
         with_map ? "with urid:map" : "without features",
         (unsigned long)compared);
  for (unsigned c = 0U; c < n_channels; ++c) {
    free(out[c]);
  }
  p4d_engine_free(engine);
  dest_free(&d);
  host_free(h);
}

/// Aliased and unconnected buffers, and a control that changes every run.
static void
test_buffers(const char* uri)
{
  snprintf(what, sizeof(what), "buffers %s", uri);
  const size_t n = SECOND / 4U;
  Host* const  h = host_new(uri, true);
  set_lively(h);

  Dest ref = dest_new(h, n);
  host_activate(h);
  render(h, &ref, n, mixed, N_MIXED, NULL);

  // Every signal output into one buffer, every control output into one
  // float: each value is one of the channels' values.
  float* const shared     = new_floats(n, NAN);
  float        shared_out = 0.0f;
  Dest         one;
  memset(&one, 0, sizeof(one));
  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    one.sig[c] = shared;
  }
  one.ctl[0]   = new_floats(n, NAN);
  h->out_alias = &shared_out;
  host_activate(h);
  render(h, &one, n, mixed, N_MIXED, NULL);
  h->out_alias = NULL;

  size_t aliased = 0U;
  for (size_t i = 0U; i < n; ++i) {
    if (h->n_signals) {
      bool found = false;
      for (uint32_t c = 0U; c < h->n_signals; ++c) {
        found = found || same_bits(shared[i], ref.sig[c][i]);
      }
      assert(found);
      ++aliased;
    }
    if (h->n_outs && !isnan(one.ctl[0][i])) {
      bool found = false;
      for (uint32_t c = 0U; c < h->n_outs; ++c) {
        found = found || same_bits(one.ctl[0][i], ref.ctl[c][i]);
      }
      assert(found);
      ++aliased;
    }
  }
  free(one.ctl[0]);

  // Optional outputs left unconnected (CV outputs and midi_out NULL): the
  // rest works as before.
  size_t unconnected = 0U;
  if (!h->noise) {
    Dest none;
    memset(&none, 0, sizeof(none));
    for (uint32_t c = 0U; c < h->n_outs; ++c) {
      none.ctl[c] = new_floats(n, NAN);
    }
    connect_midi(h, false);
    host_activate(h);
    render(h, &none, n, mixed, N_MIXED, NULL);
    for (uint32_t c = 0U; c < h->n_outs; ++c) {
      unconnected += compare_ends(ref.ctl[c], none.ctl[c], 0U, n);
    }

    if (h->n_signals) {
      // Only cv_2 connected.
      none.sig[1] = new_floats(n, NAN);
      host_activate(h);
      render(h, &none, n, mixed, N_MIXED, NULL);
      unconnected += compare(ref.sig[1], none.sig[1], 0U, n);
    }
    dest_free(&none);
    connect_midi(h, true);
  }

  // A control input that changes between runs: the output follows it and
  // stays within the union of the ranges it had.
  static const float rates[]  = { 0.5f, 30.0f, 0.001f, 50.0f, 3.0f };
  static const float levels[] = { -12.0f, -3.0f, -60.0f, 0.0f, -40.0f };
  static const float lows[]   = { 0.0f, -1.0f, 0.5f, 0.9f, -0.2f };
  Dest               d        = dest_new(h, n);
  const uint32_t     block    = 256U;
  host_activate(h);
  size_t runs = 0U;
  for (size_t done = 0U; done < n; done += block, ++runs) {
    const size_t k = runs % 5U;
    if (h->noise) {
      set(h, "level_db", levels[k]);
      set(h, "grain_hz", 100.0f + 400.0f * (float)k);
    } else {
      set(h, "rate_hz", rates[k]);
      set(h, "out_min", lows[k]);
    }
    host_run(h, &d, done, (uint32_t)(n - done < block ? n - done : block));
  }
  assert(changes(first_output(h, &d), 0U, n) > 10U);

  // After the glide, only the last setting's range is left.
  if (h->noise) {
    set(h, "level_db", -40.0f);
  } else {
    set(h, "out_min", 0.25f);
    set(h, "out_max", 0.75f);
  }
  Dest after = dest_new(h, n);
  render(h, &after, n, mixed, N_MIXED, NULL);
  for (uint32_t c = 0U; c < MAX_OUTS; ++c) {
    for (size_t i = SECOND / 10U; i < n; ++i) {
      if (after.sig[c]) {
        const float x = after.sig[c][i];
        assert(h->noise ? fabsf(x) <= 0.01122019f : x >= 0.25f && x <= 0.75f);
      }
      if (after.ctl[c] && !isnan(after.ctl[c][i])) {
        assert(after.ctl[c][i] >= 0.25f && after.ctl[c][i] <= 0.75f);
      }
    }
  }
  dest_free(&after);

  printf("# buffers %s: %lu aliased values, %lu values with optional ports "
         "unconnected, %lu runs with a changing control\n",
         short_name(h),
         (unsigned long)aliased,
         (unsigned long)unconnected,
         (unsigned long)runs);
  free(shared);
  dest_free(&d);
  dest_free(&ref);
  host_free(h);
}

/**
   Song position F, a jump elsewhere, then F again: once the glide (and, for
   Noise, the DC estimator window) is over, the output is the same bits at
   the same song positions.
*/
static void
test_relocate(const char* uri, bool beats)
{
  static const uint32_t pattern_a[] = { 512U };
  static const uint32_t pattern_c[] = { 333U, 1024U, 7U };

  snprintf(what, sizeof(what), "relocate %s%s", uri, beats ? " beats" : "");
  Host* const h = host_new(uri, true);
  set_lively(h);
  if (beats) {
    set(h, "clock", 1.0f);
  }

  // Noise: 20 ms glide plus 2P = 1.6 s until the DC estimator in use started
  // after the glide; Mod: the smoothing time (20 ms) and a margin.
  const size_t settle = h->noise ? 2U * SECOND : SECOND / 40U;
  const size_t n      = settle + SECOND / 2U;
  const bool   same   = h->n_outs && !h->n_signals; // Mod: same block ends
  Dest         a      = dest_new(h, n);
  Dest         b      = dest_new(h, SECOND / 4U);
  Dest         c      = dest_new(h, n);

  Transport tr = { true, beats, false, SONG_F, 1.0f, 120.0 };
  host_activate(h);
  render(h, &a, n, pattern_a, 1U, &tr);
  tr.frame = SONG_G;
  render(h, &b, SECOND / 4U, pattern_a, 1U, &tr);
  tr.frame = SONG_F;
  if (same) {
    render(h, &c, n, pattern_a, 1U, &tr);
  } else {
    render(h, &c, n, pattern_c, 3U, &tr);
  }

  const size_t compared = compare_dest(h, &a, &c, settle, n);
  assert(compared > 0U);
  printf("# relocate %s%s: %lu values identical from %.0f ms after the return "
         "to song frame %ld\n",
         short_name(h),
         beats ? " (beats)" : "",
         (unsigned long)compared,
         1000.0 * (double)settle / RATE,
         (long)SONG_F);
  dest_free(&a);
  dest_free(&b);
  dest_free(&c);
  host_free(h);
}

/// A stopped transport: the Mod output keeps moving, without a click.
static void
test_stop(const char* uri)
{
  static const uint32_t pattern[] = { 64U };

  snprintf(what, sizeof(what), "stop %s", uri);
  Host* const h = host_new(uri, true);
  set(h, "rate_hz", 2.0f);

  const size_t roll = SECOND / 2U; // Rolling before the stop
  const size_t n    = roll + SECOND / 2U;
  Dest         d    = dest_new(h, n);
  Transport    tr   = { true, false, false, SONG_F, 1.0f, 120.0 };
  host_activate(h);
  render(h, &d, roll, pattern, 1U, &tr);

  // Stopped: the host sends speed 0 at a constant frame.
  const Dest stopped = dest_view(&d, roll);
  tr.speed           = 0.0f;
  render(h, &stopped, SECOND / 2U, pattern, 1U, &tr);

  // Rolling again from where it stopped: after the glide, the output is the
  // song's again, as a run that never stopped gives it.
  const size_t  settle = SECOND / 40U;
  Dest          again  = dest_new(h, SECOND / 2U);
  const int64_t resume = tr.frame;
  assert(resume == SONG_F + (int64_t)roll);
  tr.speed = 1.0f;
  render(h, &again, SECOND / 2U, pattern, 1U, &tr);

  const float* const x     = first_output(h, &d);
  float              low   = INFINITY;
  float              high  = -INFINITY;
  const size_t       moves = changes(x, roll, n);
  for (size_t i = roll; i < n; ++i) {
    if (!isnan(x[i])) {
      low  = fminf(low, x[i]);
      high = fmaxf(high, x[i]);
    }
  }
  assert(moves >= (h->n_signals ? 1000U : 100U));
  assert(high - low > 0.01f);

  // No click where it stopped: the step there is no larger than the
  // steps around it.
  if (h->n_signals) {
    double around = 0.0;
    for (size_t i = roll - SECOND / 4U; i < roll + SECOND / 4U; ++i) {
      if (i != roll) {
        around = fmax(around, fabs((double)x[i] - x[i - 1U]));
      }
    }
    assert(fabs((double)x[roll] - x[roll - 1U]) <= 1.5 * around);
  }

  Dest ref = dest_new(h, n);
  tr.frame = SONG_F;
  host_activate(h);
  render(h, &ref, n, pattern, 1U, &tr);
  const Dest   tail     = dest_view(&ref, roll);
  const size_t compared = compare_dest(h, &tail, &again, settle, SECOND / 2U);
  assert(compared > 0U);

  printf("# stop %s: out_1 moves over %.3f in 0.5 s stopped at 2 Hz "
         "(%lu changes); rolling again: %lu values equal the song's from "
         "25 ms on\n",
         short_name(h),
         (double)(high - low),
         (unsigned long)moves,
         (unsigned long)compared);
  dest_free(&ref);
  dest_free(&again);
  dest_free(&d);
  host_free(h);
}

/// NaN, infinities, huge, tiny and out-of-range values on every control
/// input, and garbage in the host transport: outputs stay finite and bounded.
static void
test_garbage(const char* uri)
{
  static const uint32_t pattern[] = { 0U, 511U, 1U, 64U };
  static const float    bad[]     = { NAN,      INFINITY, -INFINITY, 3.0e38f,
                                      -3.0e38f, 1.0e-40f, -1.0e-40f };

  Host* const  h     = host_new(uri, true);
  const size_t n     = 576U;
  Dest         d     = dest_new(h, n);
  size_t       cases = 0U;

  for (uint32_t i = 0U; i < h->n_ports; ++i) {
    if (!h->control_in[i]) {
      continue;
    }
    const size_t n_bad = sizeof(bad) / sizeof(bad[0]);
    for (size_t k = 0U; k < n_bad + 2U; ++k) {
      set_defaults(h);
      h->value[i] = k < n_bad    ? bad[k]
                    : k == n_bad ? h->minimum[i] - 1.0f
                                 : h->maximum[i] + 1.0f;
      snprintf(what,
               sizeof(what),
               "garbage %s: %s = %g",
               short_name(h),
               h->symbol[i],
               (double)h->value[i]);
      Transport tr = { true, false, true, SONG_F, 1.0f, 120.0 };
      host_activate(h);
      render(h, &d, n, pattern, 4U, &tr);
      ++cases;
    }
  }

  // Every control at once.
  for (size_t k = 0U; k < sizeof(bad) / sizeof(bad[0]); ++k) {
    for (uint32_t i = 0U; i < h->n_ports; ++i) {
      if (h->control_in[i]) {
        h->value[i] = bad[k];
      }
    }
    snprintf(what,
             sizeof(what),
             "garbage %s: every control = %g",
             short_name(h),
             (double)bad[k]);
    host_activate(h);
    render(h, &d, n, pattern, 4U, NULL);
    ++cases;
  }

  // One after another while running, without activate() in between.
  snprintf(
    what, sizeof(what), "garbage %s: changing while running", short_name(h));
  set_defaults(h);
  host_activate(h);
  for (size_t k = 0U; k < sizeof(bad) / sizeof(bad[0]); ++k) {
    for (uint32_t i = 0U; i < h->n_ports; ++i) {
      if (h->control_in[i]) {
        h->value[i] = bad[(k + i) % (sizeof(bad) / sizeof(bad[0]))];
      }
    }
    render(h, &d, n, pattern, 4U, NULL);
    ++cases;
  }

  // Garbage positions between good ones, in seconds and in beats.
  const Field bad_positions[][3] = {
    { { LV2_TIME__frame, 'l', SONG_F, 0.0 }, { LV2_TIME__speed, 'f', 0, NAN } },
    { { LV2_TIME__frame, 'l', SONG_F, 0.0 },
      { LV2_TIME__speed, 'f', 0, INFINITY } },
    { { LV2_TIME__frame, 'l', SONG_F, 0.0 },
      { LV2_TIME__speed, 'f', 0, 1.0e30 } },
    { { LV2_TIME__frame, 'l', SONG_F, 0.0 },
      { LV2_TIME__speed, 'f', 0, -1.0 } },
    { { LV2_TIME__frame, 'd', 0, NAN }, { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__frame, 'd', 0, 1.0e300 }, { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__frame, 'f', 0, -1.0e20 }, { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__frame, 'l', INT64_MAX, 0.0 },
      { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__frame, 'l', INT64_MIN, 0.0 },
      { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__frame, 'i', -1000, 0.0 }, { LV2_TIME__speed, 'd', 0, 1.0 } },
    { { LV2_TIME__beatsPerMinute, 'f', 0, 0.0 },
      { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__beatsPerMinute, 'f', 0, -120.0 },
      { LV2_TIME__beat, 'd', 0, 3.0 } },
    { { LV2_TIME__beatsPerMinute, 'f', 0, NAN },
      { LV2_TIME__beat, 'd', 0, 3.0 } },
    { { LV2_TIME__beatsPerMinute, 'f', 0, INFINITY },
      { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__beatsPerMinute, 'f', 0, 1.0e-30 },
      { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__beat, 'd', 0, NAN }, { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__beat, 'd', 0, INFINITY }, { LV2_TIME__speed, 'f', 0, 1.0 } },
    { { LV2_TIME__beat, 'd', 0, -1.0e300 },
      { LV2_TIME__beatsPerMinute, 'l', 200, 0.0 } },
    { { LV2_TIME__bar, 'l', INT64_MAX / 2, 0.0 },
      { LV2_TIME__barBeat, 'f', 0, INFINITY },
      { LV2_TIME__beatsPerBar, 'f', 0, 0.0 } },
    { { LV2_TIME__bar, 'd', 0, NAN },
      { LV2_TIME__barBeat, 'f', 0, 1.0 },
      { LV2_TIME__beatsPerBar, 'f', 0, 1.0e38 } },
  };
  const size_t n_bad_positions =
    sizeof(bad_positions) / sizeof(bad_positions[0]);
  for (unsigned clock = 0U; clock < (h->noise ? 1U : 2U); ++clock) {
    set_defaults(h);
    set(h, "clock", (float)clock);
    for (size_t k = 0U; k < n_bad_positions; ++k) {
      size_t n_fields = 0U;
      while (n_fields < 3U && bad_positions[k][n_fields].key) {
        ++n_fields;
      }
      snprintf(what,
               sizeof(what),
               "garbage %s: clock %u, position %lu",
               short_name(h),
               clock,
               (unsigned long)k);
      Transport tr = { true, clock == 1U, false, SONG_F, 1.0f, 120.0 };
      host_activate(h);
      send_position(h, 0U, &tr, tr.frame);
      host_run(h, &d, 0U, 256U);
      send_object(h, 17U, LV2_TIME__Position, bad_positions[k], n_fields);
      host_run(h, &d, 0U, 256U);
      tr.frame += 512;
      send_position(h, 0U, &tr, tr.frame);
      host_run(h, &d, 0U, 256U);
      host_run(h, &d, 0U, 256U);
      // Something that is not a position, and a non-object event.
      send_object(h, 0U, LV2_ATOM__Object, bad_positions[k], n_fields);
      send_int(h, 3U, 42);
      host_run(h, &d, 0U, 256U);
      ++cases;
    }
  }

  printf("# garbage %s: %lu cases (NaN, +-Inf, +-3e38, +-1e-40, out of range "
         "on every control; garbage positions), outputs finite and bounded\n",
         short_name(h),
         (unsigned long)cases);
  dest_free(&d);
  host_free(h);
}

/// Statistics of the CCs of one channel.
typedef struct {
  size_t  count;   ///< CCs sent
  int64_t min_gap; ///< Shortest time between two, in frames
} CcStats;

/**
   Check the logged CCs of every channel with a distinct CC number against
   the rules (only on a change, at least 5 ms apart) and against the CV
   output at the same frame.
*/
static void
check_cc_log(const Host* h, const Dest* d, CcStats stats[MAX_OUTS])
{
  const double low   = clamped_value(h, "out_min");
  const double range = clamped_value(h, "out_max") - low;
  int          cc[MAX_OUTS];
  int64_t      last_frame[MAX_OUTS];
  int          last_value[MAX_OUTS];
  for (unsigned c = 0U; c < MAX_OUTS; ++c) {
    const char symbol[] = { 'c', 'c', '_', (char)('1' + c), '\0' };
    cc[c]               = (int)clamped_value(h, symbol);
    last_frame[c]       = INT64_MIN / 2;
    last_value[c]       = -1;
    stats[c].count      = 0U;
    stats[c].min_gap    = INT64_MAX;
    for (unsigned b = 0U; b < c; ++b) {
      assert(cc[b] == P4D_CC_OFF || cc[b] != cc[c]);
    }
  }

  for (size_t k = 0U; k < h->n_ccs; ++k) {
    const CcEvent* const ev = &h->ccs[k];
    unsigned             c  = 0U;
    while (c < MAX_OUTS && cc[c] != ev->controller) {
      ++c;
    }
    assert(c < MAX_OUTS);

    const int64_t gap = ev->frame - last_frame[c];
    if (ev->value == last_value[c] || gap < CC_GAP) {
      fprintf(stderr,
              "%s: CC %u = %u at frame %ld, the last (%d) at frame %ld\n",
              what,
              ev->controller,
              ev->value,
              (long)ev->frame,
              last_value[c],
              (long)last_frame[c]);
    }
    assert(ev->value != last_value[c]);
    assert(gap >= CC_GAP);
    if (stats[c].count && gap < stats[c].min_gap) {
      stats[c].min_gap = gap;
    }

    // The value is the channel's output at that frame, scaled from
    // out_min..out_max to 0..127 (rounding may differ by one step).
    const double u        = ((double)d->sig[c][ev->frame] - low) / range;
    const double expected = fmin(127.0, fmax(0.0, floor(u * 127.0 + 0.5)));
    assert(fabs((double)ev->value - expected) <= 1.0);

    last_frame[c] = ev->frame;
    last_value[c] = ev->value;
    ++stats[c].count;
  }
}

/// MIDI CC output: well formed, on a change only, 5 ms apart, scaled.
static void
test_midi(void)
{
  static const uint32_t pattern[] = { 4096U, 1U, 7U, 64U, 0U, 1000U, 333U };

  snprintf(what, sizeof(what), "midi %s", URI_MOD_CV);
  Host* const h = host_new(URI_MOD_CV, true);
  set(h, "cc_1", 20.0f);
  set(h, "cc_2", 21.0f);
  set(h, "midi_channel", 3.0f);
  set(h, "rate_hz", 20.0f);

  const size_t n = 2U * SECOND;
  Dest         d = dest_new(h, n);
  CcStats      stats[MAX_OUTS];
  host_activate(h);
  const size_t runs = render(h, &d, n, pattern, 7U, NULL);
  check_cc_log(h, &d, stats);
  assert(stats[0].count >= 100U && stats[1].count >= 100U);
  printf("# midi mod-cv: %lu CCs in %lu runs over 2 s at 20 Hz (cc 20: %lu, "
         "cc 21: %lu), min interval %.2f ms\n",
         (unsigned long)h->n_ccs,
         (unsigned long)runs,
         (unsigned long)stats[0].count,
         (unsigned long)stats[1].count,
         1000.0 *
           (double)(stats[0].min_gap < stats[1].min_gap ? stats[0].min_gap
                                                        : stats[1].min_gap) /
           RATE);

  // out_min > out_max inverts the scale.
  snprintf(what, sizeof(what), "midi %s inverted", URI_MOD_CV);
  set(h, "out_min", 0.8f);
  set(h, "out_max", -0.6f);
  host_activate(h);
  render(h, &d, n / 2U, pattern, 7U, NULL);
  check_cc_log(h, &d, stats);
  assert(stats[0].count >= 50U && stats[1].count >= 50U);
  printf("# midi mod-cv inverted: %lu CCs, values 0..127 on the inverted "
         "scale\n",
         (unsigned long)h->n_ccs);

  // cc_n = 128 sends nothing.
  snprintf(what, sizeof(what), "midi %s cc off", URI_MOD_CV);
  set(h, "cc_1", 128.0f);
  set(h, "cc_2", 128.0f);
  host_activate(h);
  render(h, &d, n / 4U, pattern, 7U, NULL);
  assert(h->n_ccs == 0U);

  // Small buffers that fill up: the sequence stays well formed and the
  // rest is sent later.
  set(h, "cc_1", 1.0f);
  set(h, "cc_2", 2.0f);
  set(h, "cc_3", 3.0f);
  set(h, "cc_4", 4.0f);
  set(h, "rate_hz", 50.0f);
  size_t small = 0U;
  for (uint32_t capacity = 40U; capacity <= 160U; capacity += 4U) {
    h->midi_capacity = capacity;
    snprintf(
      what, sizeof(what), "midi %s: 4 CCs into %u bytes", URI_MOD_CV, capacity);
    host_activate(h);
    render(h, &d, SECOND / 10U, pattern, 7U, NULL);
    check_cc_log(h, &d, stats);
    small += h->n_ccs;
  }
  h->midi_capacity = SEQ_BYTES - (uint32_t)sizeof(LV2_Atom);
  printf("# midi mod-cv small buffers: %lu CCs into atom buffers of 40..160 "
         "bytes, all well formed\n",
         (unsigned long)small);
  dest_free(&d);
  host_free(h);

  // Perlin4D Mod, channel 16, one CC, rolling transport.
  snprintf(what, sizeof(what), "midi %s", URI_MOD);
  Host* const m = host_new(URI_MOD, true);
  set(m, "cc_3", 74.0f);
  set(m, "midi_channel", 16.0f);
  set(m, "rate_hz", 5.0f);
  Dest      e  = dest_new(m, SECOND);
  Transport tr = { true, false, true, SONG_F, 1.0f, 120.0 };
  host_activate(m);
  render(m, &e, SECOND, pattern, 7U, &tr);
  assert(m->n_ccs >= 20U);
  for (size_t k = 1U; k < m->n_ccs; ++k) {
    assert(m->ccs[k].frame - m->ccs[k - 1U].frame >= CC_GAP);
    assert(m->ccs[k].value != m->ccs[k - 1U].value);
  }
  printf("# midi mod: %lu CCs on channel 16 over 1 s at 5 Hz\n",
         (unsigned long)m->n_ccs);
  dest_free(&e);
  host_free(m);

  // Without urid:map: no MIDI, and midi_out is an empty sequence body.
  snprintf(what, sizeof(what), "midi %s without features", URI_MOD);
  Host* const x = host_new(URI_MOD, false);
  set(x, "cc_1", 20.0f);
  set(x, "rate_hz", 20.0f);
  Dest f = dest_new(x, SECOND / 2U);
  host_activate(x);
  const size_t empty_runs = render(x, &f, SECOND / 2U, pattern, 7U, NULL);
  assert(x->n_ccs == 0U);
  printf("# midi mod without urid:map: %lu runs, midi_out an empty sequence "
         "each time\n",
         (unsigned long)empty_runs);
  dest_free(&f);
  host_free(x);
}

int
main(int argc, char** argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s BUNDLE_PATH\n", argv[0]);
    return 2;
  }

  // Results appear as they come, even if an assertion aborts.
  setvbuf(stdout, NULL, _IOLBF, 0U);

  // The bundle's file URI, with a trailing slash.
  const size_t len  = strlen(argv[1]);
  char* const  path = (char*)malloc(len + 2U);
  assert(path);
  memcpy(path, argv[1], len + 1U);
  if (len == 0U || path[len - 1U] != '/') {
    path[len]      = '/';
    path[len + 1U] = '\0';
  }

  world                  = lilv_world_new();
  LilvNode* const bundle = lilv_new_file_uri(world, NULL, path);
  assert(bundle);
  lilv_world_load_bundle(world, bundle);
  plugins = lilv_world_get_all_plugins(world);
  assert(lilv_plugins_size(plugins) == 3U);
  lv2_InputPort   = lilv_new_uri(world, LV2_CORE__InputPort);
  lv2_ControlPort = lilv_new_uri(world, LV2_CORE__ControlPort);
  lv2_AudioPort   = lilv_new_uri(world, LV2_CORE__AudioPort);
  lv2_CVPort      = lilv_new_uri(world, LV2_CORE__CVPort);
  lv2_integer     = lilv_new_uri(world, LV2_CORE__integer);
  atom_AtomPort   = lilv_new_uri(world, LV2_ATOM__AtomPort);
  printf("# bundle %s: %u plugins\n",
         lilv_node_as_uri(bundle),
         lilv_plugins_size(plugins));

  static const char* const uris[] = { URI_MOD, URI_MOD_CV, URI_NOISE };
  for (unsigned p = 0U; p < 3U; ++p) {
    test_engine_equal(uris[p], false);
    test_engine_equal(uris[p], true);
    test_block_sizes(uris[p]);
    test_block_invariance(uris[p], false, false);
    test_block_invariance(uris[p], true, false);
    test_buffers(uris[p]);
    test_relocate(uris[p], false);
  }
  test_block_invariance(URI_MOD_CV, true, true);
  test_relocate(URI_MOD_CV, true);
  test_stop(URI_MOD);
  test_stop(URI_MOD_CV);
  test_midi();
  for (unsigned p = 0U; p < 3U; ++p) {
    test_garbage(uris[p]);
  }

  lilv_node_free(atom_AtomPort);
  lilv_node_free(lv2_integer);
  lilv_node_free(lv2_CVPort);
  lilv_node_free(lv2_AudioPort);
  lilv_node_free(lv2_ControlPort);
  lilv_node_free(lv2_InputPort);
  lilv_node_free(bundle);
  lilv_world_free(world);
  free(path);
  return 0;
}
