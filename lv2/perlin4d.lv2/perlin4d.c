// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The LV2 glue of Perlin4D Mod, Perlin4D Mod CV, Perlin4D Noise and
  Perlin4D Motion: copies ports into parameters, passes the host transport
  on, and calls the processor through its kind's class (src/kinds/kind.h),
  which never asks which plugin it is.  A plugin with a MIDI output (Mod,
  Mod CV) sends its channels as MIDI (CC, 14-bit CC or pitch bend:
  src/midi/midi_cc.h).  Every plugin has an inline display (display.h).
*/

#include "display.h"
#include "engine.h"
#include "kind.h"
#include "midi_cc.h"
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

/// Frames the glue renders at once into its own buffers.
#define CHUNK 256U

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
  const P4dPlugin*         plugin;
  const P4dKindClass*      kind; ///< The plugin's class
  void*                    proc; ///< Its processor
  unsigned                 n_channels;
  double                   sample_rate_hz;
  bool                     has_map; ///< urid:map given: transport and MIDI work
  Uris                     uris;
  LV2_Atom_Forge           forge;
  const LV2_Atom_Sequence* control;
  LV2_Atom_Sequence*       midi_out;
  const float*             params[P4D_MAX_PARAMS];
  float*                   out[P4D_MAX_CHANNELS];    ///< Control outputs
  float*                   signal[P4D_MAX_CHANNELS]; ///< CV or audio outputs
  const float*             in[2];                    ///< Audio inputs
  float*                   latency;                  ///< Latency output
  float                    buf[P4D_MAX_CHANNELS][CHUNK];
  float                    zero[CHUNK]; ///< An unconnected audio input
  int64_t                  frame;       ///< Frames since activate()
  P4dMidiCc                cc;          ///< The MIDI CC generator (Mod)
  P4dDisplay*              display;     ///< The inline display
  const P4dIdpyQueueDraw*  queue_draw;  ///< The host's, or NULL
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

  self->kind = p4d_kind_by_uri(descriptor->URI);
  if (!self->kind) {
    free(self);
    return NULL;
  }

  self->plugin         = p4d_kind_plugin(self->kind);
  self->n_channels     = self->kind->n_channels;
  self->sample_rate_hz = rate;
  const P4dStatus st   = self->kind->create(rate, &self->proc);
  self->display        = st ? NULL : p4d_display_new(self->kind, rate);
  if (!self->display) {
    self->kind->destroy(self->proc);
    free(self);
    return NULL;
  }

  const LV2_URID_Map* map = NULL;
  for (unsigned i = 0U; features && features[i]; ++i) {
    if (!strcmp(features[i]->URI, LV2_URID__map)) {
      map = (const LV2_URID_Map*)features[i]->data;
    } else if (!strcmp(features[i]->URI, P4D_IDPY__queue_draw)) {
      self->queue_draw = (const P4dIdpyQueueDraw*)features[i]->data;
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
  Plugin* const        self = (Plugin*)instance;
  const P4dPort* const p    = p4d_plugin_port(self->plugin, port);
  if (!p) {
    return;
  }

  switch (p->role) {
  case P4D_PORT_TRANSPORT_IN:
    self->control = (const LV2_Atom_Sequence*)data;
    break;
  case P4D_PORT_MIDI_OUT:
    self->midi_out = (LV2_Atom_Sequence*)data;
    break;
  case P4D_PORT_CONTROL_IN:
    self->params[p->id] = (const float*)data;
    break;
  case P4D_PORT_CONTROL_OUT:
    self->out[p->id] = (float*)data;
    break;
  case P4D_PORT_CV_OUT:
  case P4D_PORT_AUDIO_OUT:
    self->signal[p->id] = (float*)data;
    break;
  case P4D_PORT_AUDIO_IN:
    self->in[p->id] = (const float*)data;
    break;
  case P4D_PORT_LATENCY_OUT:
    self->latency = (float*)data;
    break;
  }
}

/**
   Restart time at frame 0.  Instantiation class.
*/
static void
activate(LV2_Handle instance)
{
  Plugin* const self = (Plugin*)instance;

  self->kind->activate(self->proc);
  self->frame = 0;
  p4d_midi_cc_reset(&self->cc, self->sample_rate_hz);
  p4d_display_activate(self->display);
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

  double n_bar         = 0.0;
  double in_bar        = 0.0;
  double beats_per_bar = 0.0;
  if (!tr.has_beat && read_number(u, bar, &n_bar) &&
      read_number(u, bar_beat, &in_bar) &&
      read_number(u, per_bar, &beats_per_bar)) {
    tr.has_beat = true;
    tr.beat     = n_bar * beats_per_bar + in_bar;
  }

  self->kind->transport(self->proc, &tr);
}

/// Whether this instance sends MIDI: only a plugin with a MIDI port (Mod,
/// Mod CV), and events need mapped URIDs.
static bool
sends_midi(const Plugin* self)
{
  return self->has_map && self->midi_out;
}

/// Append one whole MIDI event to the output sequence, if it fits.
static bool
write_midi(void* handle, uint32_t offset, const uint8_t* msg, uint32_t size)
{
  Plugin* const  self = (Plugin*)handle;
  const uint32_t need =
    (uint32_t)sizeof(LV2_Atom_Event) + lv2_atom_pad_size(size);
  if (self->forge.offset + need > self->forge.size) {
    return false;
  }

  lv2_atom_forge_frame_time(&self->forge, offset);
  lv2_atom_forge_atom(&self->forge, size, self->uris.midi_MidiEvent);
  lv2_atom_forge_write(&self->forge, msg, size);
  return true;
}

/**
   Render frames [begin, end) of this run() with the current values:
   straight from the input to the output buffers for a processor that takes
   them as they are (which may be the same, or the one input given twice
   for a mono track) when every audio port is connected; else in chunks
   into the plugin's own buffers (silence for an unconnected input), which
   are copied to the connected outputs and, for a plugin with a MIDI port,
   sent as MIDI.
*/
static void
render(Plugin* self, const float* values, uint32_t begin, uint32_t end)
{
  const unsigned n = self->n_channels;
  if (self->kind->in_place && self->in[0] && self->in[1] && self->signal[0] &&
      self->signal[1]) {
    if (begin < end) {
      const float* const in[2]  = { self->in[0] + begin, self->in[1] + begin };
      float* const       out[2] = { self->signal[0] + begin,
                                    self->signal[1] + begin };
      self->kind->process(self->proc, values, in, out, end - begin);
    }
    return;
  }

  const bool midi = sends_midi(self);

  for (uint32_t offset = begin; offset < end; offset += CHUNK) {
    const uint32_t     m     = end - offset < CHUNK ? end - offset : CHUNK;
    const float* const in[2] = {
      self->in[0] ? self->in[0] + offset : self->zero,
      self->in[1] ? self->in[1] + offset : self->zero
    };
    float* const chunk[P4D_MAX_CHANNELS] = {
      self->buf[0], self->buf[1], self->buf[2], self->buf[3]
    };
    self->kind->process(self->proc, values, in, chunk, m);

    for (unsigned c = 0U; c < n; ++c) {
      if (self->signal[c]) {
        memcpy(self->signal[c] + offset, self->buf[c], m * sizeof(float));
      }
    }

    if (midi) {
      const float* const chunk_values[P4D_MAX_CHANNELS] = {
        self->buf[0], self->buf[1], self->buf[2], self->buf[3]
      };
      p4d_midi_cc_send(&self->cc,
                       values,
                       chunk_values,
                       self->frame + (int64_t)offset,
                       offset,
                       m,
                       write_midi,
                       self);
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
  const P4dParamTable* table = p4d_kind_params(self->kind);

  // Controls are read once, before any output is written (buffers may
  // alias), and clamped; a port the host left unconnected is its default.
  float values[P4D_MAX_PARAMS];
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    const float raw = self->params[i] ? *self->params[i] : table->params[i].def;
    values[i]       = p4d_param_clamp(&table->params[i], raw);
  }

  // The MIDI output is an empty sequence that write_midi() appends to.
  LV2_Atom_Forge_Frame sequence;
  const bool           midi = sends_midi(self);
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

  // Every run, so that a host reads the latency whenever it looks.
  if (self->latency) {
    *self->latency = (float)self->kind->latency(self->proc);
  }
  float now[P4D_MAX_CHANNELS] = { 0.0f, 0.0f, 0.0f, 0.0f };
  if (self->kind->controls(self->proc, now)) {
    for (unsigned t = 0U; t < P4D_MAX_CHANNELS; ++t) {
      if (self->out[t]) {
        *self->out[t] = now[t];
      }
    }
  }

  if (midi) {
    lv2_atom_forge_pop(&self->forge, &sequence);
  }

  if (p4d_display_run(self->display, values, self->proc, n_frames) &&
      self->queue_draw) {
    self->queue_draw->queue_draw(self->queue_draw->handle);
  }
}

/**
   Free an instance.  Instantiation class.
*/
static void
cleanup(LV2_Handle instance)
{
  Plugin* const self = (Plugin*)instance;

  self->kind->destroy(self->proc);
  p4d_display_free(self->display);
  free(self);
}

/**
   Render the inline display.  GUI class: may run at the same time as
   run(); see display.h.
*/
static P4dIdpySurface*
render_display(LV2_Handle instance, uint32_t w, uint32_t h)
{
  return p4d_display_render(((Plugin*)instance)->display, w, h);
}

/**
   Return an extension's interface.  Discovery class.
*/
static const void*
extension_data(const char* uri)
{
  static const P4dIdpyInterface display = { render_display };
  return !strcmp(uri, P4D_IDPY__interface) ? &display : NULL;
}

#define DESCRIPTOR(uri)                                           \
  {                                                               \
    uri, instantiate, connect_port, activate, run, NULL, cleanup, \
      extension_data                                              \
  }

/// In the order of P4dPluginId.
static const LV2_Descriptor descriptors[P4D_N_PLUGINS] = {
  DESCRIPTOR(P4D_URI_MOD),
  DESCRIPTOR(P4D_URI_MOD_CV),
  DESCRIPTOR(P4D_URI_NOISE),
  DESCRIPTOR(P4D_URI_MOTION),
};

/**
   Return plugin descriptor index.  Discovery class.
*/
LV2_SYMBOL_EXPORT const LV2_Descriptor*
lv2_descriptor(uint32_t index)
{
  return index < P4D_N_PLUGINS ? &descriptors[index] : NULL;
}
