// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The inline display's threads (issue 13, item 1), under ThreadSanitizer:
  a lilv host runs each plugin in an audio thread (transport rolling, jumps
  of the song position, a stop and a start, controls automated, blocks of
  odd sizes) while the main thread calls render() at random times and
  sizes, as Ardour's GUI thread does.  TSan stops the program at its first
  report (TSAN_OPTIONS=halt_on_error=1, set by meson), so passing means 0
  reports.  Also: every image is opaque and of the size promised, and
  queue_draw comes at most P4D_DISPLAY_FPS times per second of audio: not
  at all while a song clock stands still, at the frame rate while a
  free-running clock moves the picture.

  Its own small host rather than tests/support/host.c: everything here is
  built with -fsanitize=thread.

  Usage: test_display_threads TSAN_BUNDLE_PATH
*/

#undef NDEBUG

#include "display.h"

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/core/lv2.h>
#include <lv2/time/time.h>
#include <lv2/urid/urid.h>

#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RATE 48000.0
#define MAX_PORTS 64U
#define BLOCK_MAX 1024U
#define SEQ_BYTES 8192U

/// Audio per plugin: 20 s at least, and on until the main thread has
/// rendered RENDERS images (but at most an hour), in blocks of these sizes.
#define AUDIO_FRAMES (48000U * 20U)
#define AUDIO_MAX_FRAMES (48000U * 3600U)
#define RENDERS 200U
static const uint32_t block_sizes[] = { 256U, 1U, 1000U, 64U, 333U, 1024U };

// -- urid:map (instantiate() maps on the main thread; locked anyway) --------

static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;
static char            map_uris[128][128];
static uint32_t        map_n;

static LV2_URID
map_uri(LV2_URID_Map_Handle handle, const char* uri)
{
  (void)handle;
  pthread_mutex_lock(&map_lock);
  uint32_t i = 0U;
  while (i < map_n && strcmp(map_uris[i], uri)) {
    ++i;
  }
  if (i == map_n && map_n < 128U && strlen(uri) < 128U) {
    memcpy(map_uris[map_n++], uri, strlen(uri) + 1U);
  }
  pthread_mutex_unlock(&map_lock);
  return i + 1U;
}

// -- queue_draw --------------------------------------------------------------

/// What the threads share besides the plugin: counters, under a lock.
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned        draws;

static void
queue_draw(void* handle)
{
  (void)handle;
  pthread_mutex_lock(&shared_lock);
  ++draws;
  pthread_mutex_unlock(&shared_lock);
}

static unsigned
locked_get(const unsigned* counter)
{
  pthread_mutex_lock(&shared_lock);
  const unsigned v = *counter;
  pthread_mutex_unlock(&shared_lock);
  return v;
}

static void
locked_set(unsigned* counter, unsigned v)
{
  pthread_mutex_lock(&shared_lock);
  *counter = v;
  pthread_mutex_unlock(&shared_lock);
}

// -- One hosted plugin -------------------------------------------------------

typedef struct {
  LilvInstance*  instance;
  uint32_t       n_ports;
  float          value[MAX_PORTS];
  int            rate_port;  ///< rate_hz or grain_hz, automated; -1 if none
  int            clock_port; ///< clock
  float          signal[MAX_PORTS][BLOCK_MAX];
  uint64_t       control[SEQ_BYTES / 8U];
  uint64_t       midi[SEQ_BYTES / 8U];
  bool           has_midi;
  uint32_t       midi_port;
  LV2_URID_Map   map;
  LV2_Atom_Forge forge;
  pthread_t      thread;  ///< The audio thread
  unsigned       done;    ///< Under shared_lock
  unsigned       renders; ///< Under shared_lock
  double         audio_s;
} Hosted;

static LilvWorld* world;

static LilvNode*
uri_node(const char* uri)
{
  return lilv_new_uri(world, uri);
}

static void
connect(Hosted* h, const LilvPlugin* plugin)
{
  LilvNode* const control = uri_node(LV2_CORE__ControlPort);
  LilvNode* const input   = uri_node(LV2_CORE__InputPort);
  LilvNode* const atom    = uri_node(LV2_ATOM__AtomPort);
  h->n_ports              = lilv_plugin_get_num_ports(plugin);
  h->rate_port            = -1;
  h->clock_port           = -1;
  assert(h->n_ports <= MAX_PORTS);
  for (uint32_t i = 0U; i < h->n_ports; ++i) {
    const LilvPort* const port = lilv_plugin_get_port_by_index(plugin, i);
    const char* const     sym =
      lilv_node_as_string(lilv_port_get_symbol(plugin, port));
    void* where = h->signal[i];
    if (lilv_port_is_a(plugin, port, control)) {
      LilvNode* def = NULL;
      lilv_port_get_range(plugin, port, &def, NULL, NULL);
      h->value[i] = def ? lilv_node_as_float(def) : 0.0f;
      lilv_node_free(def);
      where = &h->value[i];
      if (!strcmp(sym, "rate_hz") || !strcmp(sym, "grain_hz")) {
        h->rate_port = (int)i;
      }
      if (!strcmp(sym, "clock")) {
        h->clock_port = (int)i;
      }
    } else if (lilv_port_is_a(plugin, port, atom)) {
      where = lilv_port_is_a(plugin, port, input) ? (void*)h->control
                                                  : (void*)h->midi;
      if (!lilv_port_is_a(plugin, port, input)) {
        h->has_midi  = true;
        h->midi_port = i;
      }
    }
    lilv_instance_connect_port(h->instance, i, where);
  }
  lilv_node_free(control);
  lilv_node_free(input);
  lilv_node_free(atom);
}

/// The control input of one block: a time:Position at its start, or none.
static void
position(Hosted* h, bool send, int64_t frame, float speed)
{
  LV2_Atom_Forge* const     f = &h->forge;
  LV2_Atom_Forge_Frame      seq;
  LV2_Atom_Forge_Frame      obj;
  const LV2_URID_Map* const m = &h->map;
  lv2_atom_forge_set_buffer(f, (uint8_t*)h->control, sizeof(h->control));
  lv2_atom_forge_sequence_head(f, &seq, 0U);
  if (send) {
    lv2_atom_forge_frame_time(f, 0);
    lv2_atom_forge_object(f, &obj, 0U, m->map(m->handle, LV2_TIME__Position));
    lv2_atom_forge_key(f, m->map(m->handle, LV2_TIME__frame));
    lv2_atom_forge_long(f, frame);
    lv2_atom_forge_key(f, m->map(m->handle, LV2_TIME__speed));
    lv2_atom_forge_float(f, speed);
    lv2_atom_forge_key(f, m->map(m->handle, LV2_TIME__beatsPerMinute));
    lv2_atom_forge_float(f, 96.0f);
    lv2_atom_forge_pop(f, &obj);
  }
  lv2_atom_forge_pop(f, &seq);
}

/// The audio thread: run() through AUDIO_FRAMES frames of song.
static void*
audio(void* arg)
{
  Hosted* const h      = (Hosted*)arg;
  int64_t       song   = (int64_t)48000 * 60;
  float         speed  = 1.0f;
  uint32_t      frames = 0U;
  for (unsigned k = 0U;
       frames < AUDIO_FRAMES ||
       (locked_get(&h->renders) < RENDERS && frames < AUDIO_MAX_FRAMES);
       ++k) {
    const uint32_t n    = block_sizes[k % 6U];
    bool           send = k % 7U == 0U;
    if (k % 400U == 200U) {
      song = (song * 7) % ((int64_t)48000 * 600); // a jump
      send = true;
    }
    if (k % 1000U == 500U || k % 1000U == 700U) {
      speed = 1.0f - speed; // a stop, then a start
      send  = true;
    }
    if (h->rate_port >= 0 && k % 50U == 0U) {
      h->value[h->rate_port] = 0.5f + (float)(k % 9U); // automation
    }
    position(h, send, song, speed);
    if (h->has_midi) {
      // The capacity, as hosts announce it in the output's atom header.
      const LV2_Atom capacity = { SEQ_BYTES - (uint32_t)sizeof(LV2_Atom), 0U };
      memcpy(h->midi, &capacity, sizeof(capacity));
    }
    lilv_instance_run(h->instance, n);
    song += speed != 0.0f ? n : 0;
    frames += n;
  }
  h->audio_s = frames / RATE;
  locked_set(&h->done, 1U);
  return NULL;
}

/// The pixel in column x, row y of s.
static uint32_t
pixel(const P4dIdpySurface* s, uint32_t x, uint32_t y)
{
  uint32_t px = 0U;
  memcpy(&px, s->data + (size_t)y * (size_t)s->stride + (size_t)4U * x, 4U);
  return px;
}

/// The main thread's part: render at random moments and sizes until the
/// audio is done.  Returns the renders.
static unsigned
gui(Hosted* h, unsigned* seed)
{
  const P4dIdpyInterface* const idpy =
    (const P4dIdpyInterface*)lilv_instance_get_extension_data(
      h->instance, P4D_IDPY__interface);
  assert(idpy && idpy->render);
  LV2_Handle handle  = lilv_instance_get_handle(h->instance);
  unsigned   renders = 0U;
  while (!locked_get(&h->done)) {
    *seed                    = *seed * 1103515245U + 12345U;
    const uint32_t        w  = 16U + (*seed >> 8U) % 400U;
    const uint32_t        hh = 8U + (*seed >> 20U) % 150U;
    const P4dIdpySurface* s  = idpy->render(handle, w, hh);
    assert(s && s->width == (int)w);
    assert(s->height == (int)(hh < w / 2U ? hh : w / 2U));
    for (uint32_t y = 0U; y < (uint32_t)s->height; ++y) {
      for (uint32_t x = 0U; x < (uint32_t)s->width; ++x) {
        assert((pixel(s, x, y) >> 24U) == 0xFFU);
      }
    }
    ++renders;
    locked_set(&h->renders, renders);
    const struct timespec pause = { 0, (long)((*seed >> 4U) % 500000U) };
    nanosleep(&pause, NULL);
  }
  return renders;
}

/// Draws queued while this thread runs the plugin for n_frames in blocks of
/// 256, with a stopped transport at the first block if stop.
static unsigned
draws_over(Hosted* h, uint32_t n_frames, bool stop)
{
  const unsigned before = locked_get(&draws);
  for (uint32_t done = 0U; done < n_frames; done += 256U) {
    position(h, stop && done == 0U, (int64_t)48000 * 30, 0.0f);
    lilv_instance_run(h->instance, 256U);
  }
  return locked_get(&draws) - before;
}

/// Stopped, nothing to redraw: no draw queued; a control changed: one; a
/// free-running clock (free_clock: the clock control's value for it), whose
/// picture moves on, at the frame rate.
static void
quiet_when_stopped(Hosted* h, float free_clock)
{
  const unsigned at_stop = draws_over(h, 48000U, true);
  const unsigned idle    = draws_over(h, 48000U, false);
  if (h->rate_port >= 0) {
    // In range for rate_hz (up to 50 Hz) and grain_hz (from 20 Hz), and
    // unlike every automated value.
    h->value[h->rate_port] = 33.0f;
  }
  const unsigned changed = draws_over(h, 48000U, false);
  printf("# stopped: %u draw(s) at the stop, %u in the next second, %u "
         "after a control changed\n",
         at_stop,
         idle,
         changed);
  (void)fflush(stdout); // the figures before any failed assertion
  assert(at_stop == 1U);
  assert(idle == 0U);
  assert(changed == (h->rate_port >= 0 ? 1U : 0U));

  assert(h->clock_port >= 0);
  h->value[h->clock_port] = free_clock;
  const unsigned moving   = draws_over(h, 48000U, false);
  printf("# stopped, free-running clock: %u draws in a second\n", moving);
  (void)fflush(stdout);
  // Blocks of 256 frames round the frame rate down (30 to 26.7).
  assert(moving >= 20U && moving <= (unsigned)P4D_DISPLAY_FPS);
}

static void
run_plugin(const char* uri, float free_clock, unsigned* seed)
{
  LilvNode* const         node = uri_node(uri);
  const LilvPlugin* const plugin =
    lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), node);
  lilv_node_free(node);
  assert(plugin);

  Hosted* const h = (Hosted*)calloc(1U, sizeof(Hosted));
  assert(h);
  h->map                     = (LV2_URID_Map){ NULL, map_uri };
  P4dIdpyQueueDraw   qd      = { NULL, queue_draw };
  const LV2_Feature  map_f   = { LV2_URID__map, &h->map };
  const LV2_Feature  draw_f  = { P4D_IDPY__queue_draw, &qd };
  const LV2_Feature* feats[] = { &map_f, &draw_f, NULL };
  lv2_atom_forge_init(&h->forge, &h->map);
  h->instance = lilv_plugin_instantiate(plugin, RATE, feats);
  assert(h->instance);
  connect(h, plugin);
  lilv_instance_activate(h->instance);
  locked_set(&draws, 0U);

  assert(pthread_create(&h->thread, NULL, audio, h) == 0);
  const unsigned renders = gui(h, seed);
  assert(pthread_join(h->thread, NULL) == 0);

  const unsigned queued = locked_get(&draws);
  const double   per_s  = queued / h->audio_s;
  printf("# %s: %u renders during %.1f s of audio, %u draws queued "
         "(%.1f per second of audio)\n",
         uri,
         renders,
         h->audio_s,
         queued,
         per_s);
  assert(renders >= RENDERS);
  assert(queued > 0U);
  assert(per_s <= P4D_DISPLAY_FPS + 0.5);
  quiet_when_stopped(h, free_clock);

  lilv_instance_deactivate(h->instance);
  lilv_instance_free(h->instance);
  free(h);
}

int
main(int argc, char** argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s TSAN_BUNDLE_PATH\n", argv[0]);
    return 2;
  }

  world = lilv_world_new();
  char dir[1024];
  snprintf(dir, sizeof(dir), "%s/", argv[1]);
  LilvNode* const bundle = lilv_new_file_uri(world, NULL, dir);
  lilv_world_load_bundle(world, bundle);
  lilv_node_free(bundle);

  unsigned seed = 12345U;
  run_plugin("urn:perlin4d:mod", (float)P4D_CLOCK_FREE, &seed);
  run_plugin("urn:perlin4d:mod-cv", (float)P4D_CLOCK_FREE, &seed);
  run_plugin("urn:perlin4d:noise", 1.0f, &seed); // Noise: 0 song, 1 free
  run_plugin("urn:perlin4d:motion", (float)P4D_CLOCK_FREE, &seed);

  lilv_world_free(world);
  printf("# no ThreadSanitizer report (it would have stopped the test)\n");
  return 0;
}
