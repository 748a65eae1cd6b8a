// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The LV2 glue of Perlin4D Mod, Perlin4D Mod CV and Perlin4D Noise: copies
  ports into parameters, passes the host transport on, and calls the engine.
  Mod also turns its channels into MIDI control changes.
*/

#include "engine.h"
#include "params.h"

#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/midi/midi.h>
#include <lv2/time/time.h>
#include <lv2/urid/urid.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define P4D_URI_MOD "urn:perlin4d:mod"
#define P4D_URI_MOD_CV "urn:perlin4d:mod-cv"
#define P4D_URI_NOISE "urn:perlin4d:noise"

/// Ports of Perlin4D Mod and Mod CV, as lv2:index numbers them.
typedef enum {
  MOD_CONTROL     = 0,
  MOD_MIDI_OUT    = 1,
  MOD_FIRST_PARAM = 2,
  MOD_OUT_1       = 21,
  MOD_CV_1        = 25,
  MOD_CV_END      = 29,
} ModPortIndex;

/// Ports of Perlin4D Noise.
typedef enum {
  NOISE_CONTROL     = 0,
  NOISE_OUT_L       = 1,
  NOISE_FIRST_PARAM = 3,
  NOISE_END         = 15,
} NoisePortIndex;

/// Frames the glue renders at once into its own buffers.
#define CHUNK 256U

/// Shortest time between two CC messages of one channel.
#define CC_MIN_INTERVAL_S 0.005

typedef struct {
  LV2_URID atom_Double;
  LV2_URID atom_Float;
  LV2_URID atom_Int;
  LV2_URID atom_Long;
  LV2_URID atom_Object;
  LV2_URID atom_Blank;
  LV2_URID midi_MidiEvent;
  LV2_URID time_Position;
  LV2_URID time_bar;
  LV2_URID time_barBeat;
  LV2_URID time_beat;
  LV2_URID time_beatsPerBar;
  LV2_URID time_beatsPerMinute;
  LV2_URID time_frame;
  LV2_URID time_speed;
} Uris;

typedef struct {
  P4dKind                  kind;
  unsigned                 n_channels;
  P4dEngine*               engine;
  double                   sample_rate_hz;
  bool                     has_map; ///< urid:map given: transport and MIDI work
  Uris                     uris;
  LV2_Atom_Forge           forge;
  const LV2_Atom_Sequence* control;
  LV2_Atom_Sequence*       midi_out;
  const float*             params[P4D_MAX_PARAMS];
  float*                   out[P4D_MAX_CHANNELS];    ///< Control outputs (Mod)
  float*                   signal[P4D_MAX_CHANNELS]; ///< CV or audio outputs
  float                    buf[P4D_MAX_CHANNELS][CHUNK];
  int64_t                  frame; ///< Frames since activate()
  int64_t                  cc_time[P4D_MAX_CHANNELS];  ///< Frame of the last CC
  int                      cc_value[P4D_MAX_CHANNELS]; ///< Last CC value sent
} Plugin;

/**
   Create an instance.  Instantiation class: allocates.
*/
static LV2_Handle
instantiate(const LV2_Descriptor*     descriptor,
            double                    rate,
            const char*               bundle_path,
            const LV2_Feature* const* features)
{
  (void)bundle_path;

  Plugin* self = (Plugin*)calloc(1U, sizeof(Plugin));
  if (!self) {
    return NULL;
  }

  self->kind =
    strcmp(descriptor->URI, P4D_URI_NOISE) ? P4D_KIND_MOD : P4D_KIND_NOISE;
  self->n_channels     = p4d_engine_channels(self->kind);
  self->sample_rate_hz = rate;
  if (p4d_engine_new(self->kind, rate, &self->engine)) {
    free(self);
    return NULL;
  }

  const LV2_URID_Map* map = NULL;
  for (unsigned i = 0U; features && features[i]; ++i) {
    if (!strcmp(features[i]->URI, LV2_URID__map)) {
      map = (const LV2_URID_Map*)features[i]->data;
    }
  }

  if (map) {
    Uris* const u          = &self->uris;
    u->atom_Double         = map->map(map->handle, LV2_ATOM__Double);
    u->atom_Float          = map->map(map->handle, LV2_ATOM__Float);
    u->atom_Int            = map->map(map->handle, LV2_ATOM__Int);
    u->atom_Long           = map->map(map->handle, LV2_ATOM__Long);
    u->atom_Object         = map->map(map->handle, LV2_ATOM__Object);
    u->atom_Blank          = map->map(map->handle, LV2_ATOM__Blank);
    u->midi_MidiEvent      = map->map(map->handle, LV2_MIDI__MidiEvent);
    u->time_Position       = map->map(map->handle, LV2_TIME__Position);
    u->time_bar            = map->map(map->handle, LV2_TIME__bar);
    u->time_barBeat        = map->map(map->handle, LV2_TIME__barBeat);
    u->time_beat           = map->map(map->handle, LV2_TIME__beat);
    u->time_beatsPerBar    = map->map(map->handle, LV2_TIME__beatsPerBar);
    u->time_beatsPerMinute = map->map(map->handle, LV2_TIME__beatsPerMinute);
    u->time_frame          = map->map(map->handle, LV2_TIME__frame);
    u->time_speed          = map->map(map->handle, LV2_TIME__speed);
    lv2_atom_forge_init(&self->forge, (LV2_URID_Map*)map);
    self->has_map = true;
  }

  return (LV2_Handle)self;
}

/**
   Connect a port to a buffer.  Audio class: only stores the pointer.
*/
static void
connect_port(LV2_Handle instance, uint32_t port, void* data)
{
  Plugin* const self = (Plugin*)instance;
  float* const  f    = (float*)data;

  if (port == 0U) {
    self->control = (const LV2_Atom_Sequence*)data;
  } else if (self->kind == P4D_KIND_NOISE) {
    if (port < NOISE_FIRST_PARAM) {
      self->signal[port - NOISE_OUT_L] = f;
    } else if (port < NOISE_END) {
      self->params[port - NOISE_FIRST_PARAM] = f;
    }
  } else if (port == MOD_MIDI_OUT) {
    self->midi_out = (LV2_Atom_Sequence*)data;
  } else if (port < MOD_OUT_1) {
    self->params[port - MOD_FIRST_PARAM] = f;
  } else if (port < MOD_CV_1) {
    self->out[port - MOD_OUT_1] = f;
  } else if (port < MOD_CV_END) {
    self->signal[port - MOD_CV_1] = f;
  }
}

/**
   Restart time at frame 0.  Instantiation class.
*/
static void
activate(LV2_Handle instance)
{
  Plugin* const self = (Plugin*)instance;

  p4d_engine_activate(self->engine);
  self->frame = 0;
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    self->cc_time[c]  = INT64_MIN / 2;
    self->cc_value[c] = -1;
  }
}

/// Read a number atom of any numeric type; false if it is none.
static bool
read_number(const Uris* u, const LV2_Atom* atom, double* value)
{
  if (!atom) {
    return false;
  }

  if (atom->type == u->atom_Double) {
    *value = ((const LV2_Atom_Double*)atom)->body;
  } else if (atom->type == u->atom_Float) {
    *value = ((const LV2_Atom_Float*)atom)->body;
  } else if (atom->type == u->atom_Long) {
    *value = (double)((const LV2_Atom_Long*)atom)->body;
  } else if (atom->type == u->atom_Int) {
    *value = ((const LV2_Atom_Int*)atom)->body;
  } else {
    return false;
  }

  return *value == *value;
}

/// Pass a time:Position object on to the engine.
static void
read_position(Plugin* self, const LV2_Atom_Object* obj)
{
  const Uris* const u          = &self->uris;
  const LV2_Atom*   frame      = NULL;
  const LV2_Atom*   speed      = NULL;
  const LV2_Atom*   beat       = NULL;
  const LV2_Atom*   bar        = NULL;
  const LV2_Atom*   bar_beat   = NULL;
  const LV2_Atom*   per_bar    = NULL;
  const LV2_Atom*   per_minute = NULL;
  lv2_atom_object_get(obj,
                      u->time_frame,
                      &frame,
                      u->time_speed,
                      &speed,
                      u->time_beat,
                      &beat,
                      u->time_bar,
                      &bar,
                      u->time_barBeat,
                      &bar_beat,
                      u->time_beatsPerBar,
                      &per_bar,
                      u->time_beatsPerMinute,
                      &per_minute,
                      0);

  P4dTransport tr = { false, false, false, false, 0, 0.0, 0.0, 0.0 };
  double       v  = 0.0;
  if (read_number(u, frame, &v) && v > -9.0e15 && v < 9.0e15) {
    tr.has_frame = true;
    tr.frame     = (int64_t)v;
  }
  tr.has_speed = read_number(u, speed, &tr.speed);
  tr.has_bpm   = read_number(u, per_minute, &tr.bpm);
  tr.has_beat  = read_number(u, beat, &tr.beat);

  double n_bar = 0.0, in_bar = 0.0, beats_per_bar = 0.0;
  if (!tr.has_beat && read_number(u, bar, &n_bar) &&
      read_number(u, bar_beat, &in_bar) &&
      read_number(u, per_bar, &beats_per_bar)) {
    tr.has_beat = true;
    tr.beat     = n_bar * beats_per_bar + in_bar;
  }

  p4d_engine_transport(self->engine, &tr);
}

/// Send the CCs of one rendered chunk (Mod only).
static void
send_ccs(Plugin* self, const float* values, uint32_t offset, uint32_t m)
{
  const float   low     = values[P4D_MOD_OUT_MIN];
  const float   range   = values[P4D_MOD_OUT_MAX] - low;
  const int     channel = (int)values[P4D_MOD_MIDI_CHANNEL] - 1;
  const int64_t gap = (int64_t)(CC_MIN_INTERVAL_S * self->sample_rate_hz + 0.5);

  // Frame by frame, so that the events are in time order.
  for (uint32_t i = 0U; i < m; ++i) {
    const int64_t now = self->frame + (int64_t)(offset + i);
    for (unsigned c = 0U; c < 4U; ++c) {
      const int cc = (int)values[P4D_MOD_CC_1 + c];
      if (cc == P4D_CC_OFF || now - self->cc_time[c] < gap) {
        continue;
      }

      const float u   = range != 0.0f ? (self->buf[c][i] - low) / range : 0.0f;
      const float s   = u * 127.0f + 0.5f;
      const int   val = s < 0.0f ? 0 : s >= 127.0f ? 127 : (int)s;
      if (val == self->cc_value[c]) {
        continue;
      }

      const uint8_t msg[3] = { (uint8_t)(LV2_MIDI_MSG_CONTROLLER | channel),
                               (uint8_t)cc,
                               (uint8_t)val };
      // Write only a whole event: one that does not fit waits for later.
      const uint32_t need =
        (uint32_t)sizeof(LV2_Atom_Event) + lv2_atom_pad_size(3U);
      if (self->forge.offset + need > self->forge.size) {
        return;
      }
      lv2_atom_forge_frame_time(&self->forge, offset + i);
      lv2_atom_forge_atom(&self->forge, 3U, self->uris.midi_MidiEvent);
      lv2_atom_forge_write(&self->forge, msg, 3U);
      self->cc_value[c] = val;
      self->cc_time[c]  = now;
    }
  }
}

/// Render frames [begin, end) of this run() with the current values.
static void
render(Plugin* self, const float* values, uint32_t begin, uint32_t end)
{
  const bool midi =
    self->kind == P4D_KIND_MOD && self->has_map && self->midi_out;

  for (uint32_t offset = begin; offset < end; offset += CHUNK) {
    const uint32_t m = end - offset < CHUNK ? end - offset : CHUNK;

    float* chunk[P4D_MAX_CHANNELS];
    for (unsigned c = 0U; c < self->n_channels; ++c) {
      chunk[c] = self->buf[c];
    }
    p4d_engine_process(self->engine, values, chunk, m);

    for (unsigned c = 0U; c < self->n_channels; ++c) {
      if (self->signal[c]) {
        memcpy(self->signal[c] + offset, self->buf[c], m * sizeof(float));
      }
      if (self->out[c]) {
        *self->out[c] = self->buf[c][m - 1U];
      }
    }

    if (midi) {
      send_ccs(self, values, offset, m);
    }
  }
}

/**
   Process a block.  Audio class: realtime safe, no allocation or locks.
*/
static void
run(LV2_Handle instance, uint32_t n_frames)
{
  Plugin* const        self  = (Plugin*)instance;
  const P4dParamTable* table = p4d_params(self->kind);

  // Controls are read once, before any output is written (buffers may
  // alias), and clamped; a port the host left unconnected is its default.
  float values[P4D_MAX_PARAMS];
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    const float raw = self->params[i] ? *self->params[i] : table->params[i].def;
    values[i]       = p4d_param_clamp(&table->params[i], raw);
  }

  // The MIDI output is an empty sequence that send_ccs() appends to.
  LV2_Atom_Forge_Frame sequence;
  const bool           midi =
    self->kind == P4D_KIND_MOD && self->has_map && self->midi_out;
  if (midi) {
    const uint32_t capacity = self->midi_out->atom.size;
    lv2_atom_forge_set_buffer(&self->forge, (uint8_t*)self->midi_out, capacity);
    lv2_atom_forge_sequence_head(&self->forge, &sequence, 0U);
  } else if (self->midi_out) {
    self->midi_out->atom.size = sizeof(LV2_Atom_Sequence_Body);
    self->midi_out->body.unit = 0U;
    self->midi_out->body.pad  = 0U;
  }

  uint32_t done = 0U;
  if (self->has_map && self->control) {
    const Uris* const u = &self->uris;
    LV2_ATOM_SEQUENCE_FOREACH(self->control, ev)
    {
      const int64_t          at    = ev->time.frames;
      const uint32_t         until = at < (int64_t)done       ? done
                                     : at > (int64_t)n_frames ? n_frames
                                                              : (uint32_t)at;
      const LV2_Atom_Object* obj   = (const LV2_Atom_Object*)&ev->body;
      if ((obj->atom.type == u->atom_Object ||
           obj->atom.type == u->atom_Blank) &&
          obj->body.otype == u->time_Position) {
        render(self, values, done, until);
        done = until;
        read_position(self, obj);
      }
    }
  }
  render(self, values, done, n_frames);
  self->frame += n_frames;

  if (midi) {
    lv2_atom_forge_pop(&self->forge, &sequence);
  }
}

/**
   Free an instance.  Instantiation class.
*/
static void
cleanup(LV2_Handle instance)
{
  Plugin* const self = (Plugin*)instance;

  p4d_engine_free(self->engine);
  free(self);
}

static const LV2_Descriptor descriptors[] = {
  { P4D_URI_MOD,
    instantiate,
    connect_port,
    activate,
    run,
    NULL,
    cleanup,
    NULL },
  { P4D_URI_MOD_CV,
    instantiate,
    connect_port,
    activate,
    run,
    NULL,
    cleanup,
    NULL },
  { P4D_URI_NOISE,
    instantiate,
    connect_port,
    activate,
    run,
    NULL,
    cleanup,
    NULL },
};

/**
   Return plugin descriptor index.  Discovery class.
*/
LV2_SYMBOL_EXPORT const LV2_Descriptor*
lv2_descriptor(uint32_t index)
{
  return index < sizeof(descriptors) / sizeof(descriptors[0])
           ? &descriptors[index]
           : NULL;
}
