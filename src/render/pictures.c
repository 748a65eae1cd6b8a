// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#define _POSIX_C_SOURCE 200809L

#include "pictures.h"

#include "atomic_file.h"
#include "frame_name.h"
#include "image.h"
#include "pixels.h"
#include "render.h"
#include "sidecar.h"
#include "terrain.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/// Longest path of a frame's file or sidecar.
#define PATH_SIZE 4096U

/// Most threads that share the rows of a frame (--jobs at most).
#define MAX_ROW_JOBS 64U

/// The file named in the failure of a render, which outlives it (the
/// status points here until the report).
static char failed_path[PATH_SIZE];

typedef struct Worker Worker;

/// What every job shares.
typedef struct {
  const P4dPlan*    plan;
  const P4dOptions* o;
  P4dFormat         format;
  P4dFrameName      name;
  P4dImageSetup     setup;
  int64_t           n_frames;
  unsigned          n_threads;      ///< Jobs that each render whole frames
  unsigned          n_workers;      ///< Frame buffers: frame n is in buffer
                                    ///< n % n_workers, rendered by job n %
                                    ///< n_threads; two per job for a stream,
                                    ///< so that a job renders its next frame
                                    ///< while its last waits to be written
  unsigned                row_jobs; ///< Threads that share the rows of a frame
  bool                    value;    ///< Frames need the field's value
  bool                    sidecar;  ///< Each file gets a sidecar
  bool                    progress_here; ///< The one job shows the progress bar
  const P4dTerrainEngine* engine;        ///< --terrain, or NULL
  bool                    heights; ///< A heightmap: --terrain or --hillshade
  char                    hillshade[PATH_SIZE]; ///< --hillshade's path, or ""

  pthread_mutex_t lock;
  pthread_cond_t  changed;
  bool            stop;    ///< A failure or a signal: start nothing new
  int64_t         n_done;  ///< Frames written
  int64_t         failed;  ///< The frame that failed first, or -1
  P4dRenderStatus failure; ///< Why (its culprit in failed_path)

  char          stream_path[PATH_SIZE]; ///< Its name ("%%" made "%")
  P4dAtomicFile stream_file;            ///< One stream of frames (Y4M)
  void*         stream_writer;          ///< Its writer's state
  Worker*       workers;
} Shared;

/// A job: a frame of its own and its pixels.
struct Worker {
  Shared*        sh;
  unsigned       index;
  pthread_t      thread;
  P4dImageFrame* frame;
  float*         value; ///< The field's value, or NULL
  float*         tone;
  float*         heights; ///< The heights of the 16-bit levels (hillshade)
  float*         shade;   ///< The hillshade, or NULL
  int64_t        ready;   ///< Stream: the frame rendered and not yet written
  char           path[PATH_SIZE];
  char           json[PATH_SIZE];
};

/// Hold back every signal in the calling thread (its mask into old): a
/// thread started now inherits that, and the signal that stops a render
/// comes to the thread that watches.
static void
hold_signals(sigset_t* old)
{
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, old);
}

/// Let through what hold_signals() held back.
static void
let_signals(const sigset_t* old)
{
  pthread_sigmask(SIG_SETMASK, old, NULL);
}

/// The colour of tones by the frame's palette (a P4dPictureColour).
static void
colour_of(const void* frame, const float* tone, float* rgb, size_t n)
{
  p4d_image_frame_colour((const P4dImageFrame*)frame, tone, rgb, n);
}

/// A band of rows of a frame, for a thread of its own.
typedef struct {
  const Worker* w;
  uint32_t      row0;
  uint32_t      n_rows;
  pthread_t     thread;
} Band;

static void
render_band(const Band* b)
{
  const size_t offset = (size_t)b->row0 * b->w->sh->setup.width;
  p4d_image_frame_rows(b->w->frame,
                       b->row0,
                       b->n_rows,
                       b->w->value ? b->w->value + offset : NULL,
                       b->w->tone + offset);
}

static void*
band_main(void* arg)
{
  render_band((const Band*)arg);
  return NULL;
}

/// Prepare and render frame n into the worker's pixels.
static void
render_frame(Worker* w, int64_t n)
{
  const Shared* const sh = w->sh;
  const P4dOptions*   o  = sh->o;
  float               params[P4D_MAX_PARAMS];
  const P4dImageTime  time = { n, o->fps_num, o->fps_den, o->start_s };
  p4d_plan_params_at_time(sh->plan,
                          o->start_s +
                            (double)n * (double)o->fps_den / (double)o->fps_num,
                          params);
  p4d_image_frame_set(w->frame, params, &time);

  // Between 1 and MAX_ROW_JOBS bands, at least a row each.
  const uint32_t height = sh->setup.height;
  unsigned       n_jobs = sh->row_jobs < height ? sh->row_jobs : height;
  n_jobs = n_jobs < 1U ? 1U : n_jobs > MAX_ROW_JOBS ? MAX_ROW_JOBS : n_jobs;
  Band     bands[MAX_ROW_JOBS];
  unsigned n_started = 0U;
  for (unsigned j = 0U; j < n_jobs; ++j) {
    const uint32_t from = (uint32_t)((uint64_t)height * j / n_jobs);
    const uint32_t to   = (uint32_t)((uint64_t)height * (j + 1U) / n_jobs);
    bands[j]            = (Band){ w, from, to - from, 0 };
  }
  // The bands but the first in threads, if they start (else here).
  sigset_t old;
  hold_signals(&old);
  for (unsigned j = 1U; j < n_jobs; ++j) {
    if (pthread_create(&bands[j].thread, NULL, band_main, &bands[j])) {
      break;
    }
    ++n_started;
  }
  let_signals(&old);
  render_band(&bands[0]);
  for (unsigned j = 1U + n_started; j < n_jobs; ++j) {
    render_band(&bands[j]);
  }
  for (unsigned j = 1U; j <= n_started; ++j) {
    pthread_join(bands[j].thread, NULL);
  }
}

/// The picture the worker holds (frame n).
static P4dPicture
picture_of(const Worker* w, int64_t n)
{
  const P4dPicture picture = {
    w->sh->setup.width,
    w->sh->setup.height,
    n,
    p4d_image_frame_grey(w->frame) || w->sh->engine, // heights are grey
    w->value,
    w->tone,
    colour_of,
    w->frame,
  };
  return picture;
}

/// What the writers know of the render.
static P4dWriterInfo
writer_info(const Shared* sh)
{
  P4dWriterInfo info;
  memset(&info, 0, sizeof(info));
  info.sample_rate_hz = sh->plan->sample_rate_hz;
  info.fps            = sh->o->fps;
  info.variant        = sh->format.variant;
  info.width          = sh->setup.width;
  info.height         = sh->setup.height;
  info.fps_num        = sh->o->fps_num;
  info.fps_den        = sh->o->fps_den;
  info.compression    = sh->o->compression;
  return info;
}

/// The least and greatest of the n values at v.
static void
range_of(const float* v, size_t n, float* lo, float* hi)
{
  float a = v[0];
  float b = v[0];
  for (size_t i = 1U; i < n; ++i) {
    a = v[i] < a ? v[i] : a;
    b = v[i] > b ? v[i] : b;
  }
  *lo = a;
  *hi = b;
}

/// The heights and spacing of the render's heightmaps.
static P4dTerrainSize
terrain_size(const Shared* sh)
{
  const P4dTerrainSize size = {
    sh->setup.width,
    sh->setup.height,
    sh->o->height_min,
    sh->o->height_max,
    sh->o->pixel_size,
    sh->o->height_unit,
    p4d_terrain_unit_metres(sh->o->height_unit),
    sh->format.writer->name,
  };
  return size;
}

/**
   The heights of the frame the worker holds: a terrain's value becomes its
   height, bottom + tone (top - bottom) (what EXR stores); the hillshade
   shades the heights of the 16-bit levels, what an engine reads.
*/
static void
make_heights(Worker* w)
{
  const Shared* const sh     = w->sh;
  const size_t        n      = (size_t)sh->setup.width * sh->setup.height;
  const double        bottom = sh->o->height_min;
  const double        range  = sh->o->height_max - sh->o->height_min;
  for (size_t i = 0U; sh->engine && i < n; ++i) {
    w->value[i] = (float)(bottom + (double)w->tone[i] * range);
  }
  if (w->shade) {
    for (size_t i = 0U; i < n; ++i) {
      const double level = (double)p4d_pixel_level(w->tone[i], 65535U);
      w->heights[i]      = (float)(bottom + level / 65535.0 * range);
    }
    p4d_terrain_hillshade(w->heights,
                          sh->setup.width,
                          sh->setup.height,
                          sh->o->pixel_size,
                          sh->o->light_azimuth_deg,
                          sh->o->light_altitude_deg,
                          w->shade);
  }
}

/// Write the hillshade the worker holds to file: 8-bit grey PNG.
static P4dRenderCode
write_hillshade(const Worker*        w,
                int64_t              n,
                const P4dAtomicFile* file,
                P4dRenderStatus*     st)
{
  const P4dWriterInfo info = writer_info(w->sh);
  P4dPicture          pic  = picture_of(w, n);
  pic.grey                 = true;
  pic.value                = NULL;
  pic.tone                 = w->shade;
  void*         state      = NULL;
  P4dRenderCode code       = p4d_write_png.open(&state, &info, file, st);
  code = code ? code : p4d_write_png.write_picture(state, &pic, st);
  code = code ? code : p4d_write_png.finish(state, st);
  p4d_write_png.close(state);
  return code;
}

/// Write the sidecar of frame n (w->path's) to file.
static P4dRenderCode
write_sidecar(const Worker*    w,
              int64_t          n,
              P4dAtomicFile*   file,
              P4dRenderStatus* st)
{
  const Shared* const        sh    = w->sh;
  const P4dParamTable* const table = p4d_kind_params(sh->plan->kind);
  const char*                symbols[P4D_MAX_PARAMS];
  float                      values[P4D_MAX_PARAMS];
  for (uint32_t i = 0U; i < table->n_params; ++i) {
    symbols[i] = table->params[i].symbol;
  }
  p4d_plan_params_at_time(sh->plan,
                          sh->o->start_s + (double)n * (double)sh->o->fps_den /
                                             (double)sh->o->fps_num,
                          values);

  P4dImageFacts facts;
  p4d_image_frame_facts(w->frame, &facts);
  const char* const slash = strrchr(w->path, '/');
  P4dSidecar        s     = {
               slash ? slash + 1 : w->path,
    sh->format.writer->name,
    sh->setup.width,
    sh->setup.height,
    n,
    sh->o->fps_num,
    sh->o->fps_den,
    sh->plan->tempo_bpm,
    &facts,
    table->n_params,
    symbols,
    values,
    0.0f,
    0.0f,
    0.0f,
    0.0f,
    sh->o->terrain,
    NULL,
    NULL,
  };
  const P4dTerrainSize size = terrain_size(sh);
  P4dTerrainImport     import;
  memset(&import, 0, sizeof(import));
  if (sh->heights) {
    s.terrain = &size;
  }
  if (sh->engine) {
    sh->engine->import(&size, &import);
    s.import = &import;
  }
  const size_t n_pixels = (size_t)sh->setup.width * sh->setup.height;
  if (w->value) {
    range_of(w->value, n_pixels, &s.value_min, &s.value_max);
  }
  range_of(w->tone, n_pixels, &s.tone_min, &s.tone_max);
  return p4d_sidecar_write(&s, file, st);
}

/// Write the picture the worker holds with the writer, to file.
static P4dRenderCode
write_with(const Worker*        w,
           int64_t              n,
           const P4dAtomicFile* file,
           P4dRenderStatus*     st)
{
  const P4dWriterClass* const writer = w->sh->format.writer;
  const P4dWriterInfo         info   = writer_info(w->sh);
  const P4dPicture            pic    = picture_of(w, n);
  void*                       state  = NULL;
  P4dRenderCode               code   = writer->open(&state, &info, file, st);
  code = code ? code : writer->write_picture(state, &pic, st);
  code = code ? code : writer->finish(state, st);
  writer->close(state);
  return code;
}

/// Write frame n (rendered) to its file and sidecar, each atomic: the
/// sidecar is put in place first, the picture last (or neither).
static P4dRenderCode
write_files(Worker* w, int64_t n, P4dRenderStatus* st)
{
  const Shared* const sh = w->sh;
  P4dAtomicFile       pic;
  P4dAtomicFile       json;
  P4dAtomicFile       hill;
  memset(&pic, 0, sizeof(pic));
  memset(&json, 0, sizeof(json));
  memset(&hill, 0, sizeof(hill));
  pic.fd  = -1;
  json.fd = -1;
  hill.fd = -1;
  if (sh->heights) {
    make_heights(w);
  }

  p4d_frame_name_format(&sh->name, n, w->path, sizeof(w->path));
  p4d_sidecar_path(w->path, w->json, sizeof(w->json));
  P4dRenderCode code = p4d_atomic_open(&pic, w->path, sh->o->force, st);
  code               = code ? code : write_with(w, n, &pic, st);
  if (!code && sh->sidecar) {
    code = p4d_atomic_open(&json, w->json, sh->o->force, st);
    code = code ? code : write_sidecar(w, n, &json, st);
  }
  const bool shade = sh->hillshade[0] != '\0';
  if (!code && shade) {
    code = p4d_atomic_open(&hill, sh->hillshade, sh->o->force, st);
    code = code ? code : write_hillshade(w, n, &hill, st);
  }
  if (!code) {
    // A signal waits until both are in place, or neither (it came first).
    sigset_t old;
    hold_signals(&old);
    code = p4d_render_check_signal(st);
    code = code ? p4d_report_name(st, w->path, NULL) : code;
    code = code || !sh->sidecar ? code : p4d_atomic_commit(&json, st);
    code = code || !shade ? code : p4d_atomic_commit(&hill, st);
    code = code ? code : p4d_atomic_commit(&pic, st);
    if (code && sh->sidecar && json.created) {
      p4d_atomic_undo(&json);
    }
    if (code && shade && hill.created) {
      p4d_atomic_undo(&hill);
    }
    let_signals(&old);
  }
  p4d_atomic_discard(&pic, st);
  p4d_atomic_discard(&json, st);
  p4d_atomic_discard(&hill, st);
  p4d_atomic_free(&pic);
  p4d_atomic_free(&json);
  p4d_atomic_free(&hill);
  return code;
}

/// Record that frame n failed (the first failure, by frame, is reported).
static void
record_failure(Shared* sh, int64_t n, const P4dRenderStatus* st)
{
  pthread_mutex_lock(&sh->lock);
  if (sh->failed < 0 || n < sh->failed) {
    sh->failed = n;
    snprintf(failed_path,
             sizeof(failed_path),
             "%s",
             st->culprit ? st->culprit : sh->o->output);
    sh->failure.code = st->code;
    snprintf(sh->failure.text, sizeof(sh->failure.text), "%s", st->reason);
  }
  sh->stop = true;
  pthread_cond_broadcast(&sh->changed);
  pthread_mutex_unlock(&sh->lock);
}

/// Whether to go on: nothing failed and no signal came.
static bool
going(Shared* sh)
{
  pthread_mutex_lock(&sh->lock);
  const bool stop = sh->stop || p4d_render_signal();
  pthread_mutex_unlock(&sh->lock);
  return !stop;
}

/// A job's frames: n = index, index + n_threads, ...; each written to its
/// files, or (one stream) handed to the writing thread.
static void*
worker_main(void* arg)
{
  const Worker* const job        = (const Worker*)arg;
  Shared* const       sh         = job->sh;
  const bool          one_stream = sh->format.writer->one_stream;
  for (int64_t n = job->index; n < sh->n_frames && going(sh);
       n += sh->n_threads) {
    Worker* const w = &sh->workers[n % sh->n_workers];
    if (one_stream) {
      pthread_mutex_lock(&sh->lock);
      while (w->ready >= 0 && !sh->stop) {
        pthread_cond_wait(&sh->changed, &sh->lock);
      }
      pthread_mutex_unlock(&sh->lock);
      if (!going(sh)) {
        break;
      }
    }
    render_frame(w, n);
    pthread_mutex_lock(&sh->lock);
    if (one_stream) {
      w->ready = n;
    }
    pthread_cond_broadcast(&sh->changed);
    pthread_mutex_unlock(&sh->lock);
    if (!one_stream) {
      P4dRenderStatus st;
      memset(&st, 0, sizeof(st));
      if (write_files(w, n, &st)) {
        record_failure(sh, n, &st);
        break;
      }
      pthread_mutex_lock(&sh->lock);
      const int64_t done = ++sh->n_done;
      pthread_cond_broadcast(&sh->changed);
      pthread_mutex_unlock(&sh->lock);
      if (sh->progress_here) {
        p4d_report_progress(done, sh->n_frames, "frames");
      }
    }
  }
  return NULL;
}

/// Wait on the shared condition for at most a tenth of a second (a signal
/// handler cannot signal a condition variable).  Called locked.
static void
wait_a_little(Shared* sh)
{
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_nsec += 100000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec += 1;
    until.tv_nsec -= 1000000000L;
  }
  pthread_cond_timedwait(&sh->changed, &sh->lock, &until);
}

/// The writing thread of one stream: frame k from buffer k % n_workers, in
/// order.  With one job it renders too.
static void
write_stream(Shared* sh, bool progress)
{
  const P4dWriterClass* const writer = sh->format.writer;
  for (int64_t k = 0; k < sh->n_frames; ++k) {
    Worker* const w = &sh->workers[k % sh->n_workers];
    if (sh->n_threads == 1U) {
      if (!going(sh)) {
        break;
      }
      render_frame(w, k);
    } else {
      pthread_mutex_lock(&sh->lock);
      while (w->ready != k && !sh->stop && !p4d_render_signal()) {
        wait_a_little(sh);
      }
      pthread_mutex_unlock(&sh->lock);
    }
    if (!going(sh)) {
      break;
    }
    P4dRenderStatus  st;
    const P4dPicture pic = picture_of(w, k);
    memset(&st, 0, sizeof(st));
    if (writer->write_picture(sh->stream_writer, &pic, &st)) {
      record_failure(sh, k, &st);
      break;
    }
    pthread_mutex_lock(&sh->lock);
    w->ready = -1;
    ++sh->n_done;
    pthread_cond_broadcast(&sh->changed);
    pthread_mutex_unlock(&sh->lock);
    if (progress) {
      p4d_report_progress(k + 1, sh->n_frames, "frames");
    }
  }
}

/// Wait for the jobs that write files, showing progress.
static void
watch_files(Shared* sh, bool progress)
{
  int64_t shown = -1;
  pthread_mutex_lock(&sh->lock);
  while (sh->n_done < sh->n_frames && !sh->stop) {
    if (p4d_render_signal()) {
      sh->stop = true;
      pthread_cond_broadcast(&sh->changed);
      break;
    }
    if (progress && sh->n_done != shown) {
      shown = sh->n_done;
      p4d_report_progress(shown, sh->n_frames, "frames");
    }
    wait_a_little(sh);
  }
  const int64_t done = sh->n_done;
  pthread_mutex_unlock(&sh->lock);
  if (progress && done == sh->n_frames) {
    p4d_report_progress(done, sh->n_frames, "frames");
  }
}

/// Check every path the render will write (and its sidecar) before
/// anything is written.
static P4dRenderCode
check_targets(const Shared* sh, const char* const* inputs, P4dRenderStatus* st)
{
  const bool    stream = sh->format.writer->one_stream;
  const int64_t n      = stream ? 1 : sh->n_frames;
  char          json[PATH_SIZE];
  for (int64_t k = 0; k < n; ++k) {
    if (!p4d_frame_name_format(
          &sh->name, k, failed_path, sizeof(failed_path)) ||
        (sh->sidecar && !p4d_sidecar_path(failed_path, json, sizeof(json)))) {
      return p4d_report_bad_value(st, "-o", sh->o->output, "name too long");
    }
    P4dRenderCode code =
      p4d_atomic_check_target(failed_path, inputs, sh->o->force, st);
    if (!code && sh->sidecar) {
      if (p4d_atomic_same_file(json, failed_path)) {
        return p4d_report_bad_value(
          st, "-o", sh->o->output, "a picture cannot be named .json");
      }
      code = p4d_atomic_check_target(json, inputs, sh->o->force, st);
      if (code) {
        // The culprit lives in failed_path: copy the sidecar's name there.
        snprintf(failed_path, sizeof(failed_path), "%s", json);
      }
    }
    if (code) {
      return code;
    }
  }
  if (sh->hillshade[0]) {
    if (p4d_atomic_same_file(sh->hillshade, failed_path) ||
        (sh->sidecar && p4d_atomic_same_file(sh->hillshade, json))) {
      return p4d_report_bad_value(
        st, "--hillshade", sh->hillshade, "is another file of the render");
    }
    const P4dRenderCode code =
      p4d_atomic_check_target(sh->hillshade, inputs, sh->o->force, st);
    if (code) {
      snprintf(failed_path, sizeof(failed_path), "%s", sh->hillshade);
      return code;
    }
  }
  return P4D_RENDER_SUCCESS;
}

/// The number of frames the render writes.
static int64_t
count_frames(const P4dOptions* o, bool sequence)
{
  if (!sequence) {
    return 1;
  }
  // Frame n is written while n fps_den / fps_num < duration: a tolerance
  // of a millionth of a frame keeps 10 s at 30 fps 300 frames.
  const double x = o->duration_s * (double)o->fps_num / (double)o->fps_den;
  const double n = ceil(x - 1.0e-6);
  return n < 1.0 ? 1 : (int64_t)n;
}

/// Set up the jobs (zeroed: free_workers() frees them whatever failed).
static P4dRenderCode
make_workers(Shared* sh, P4dRenderStatus* st)
{
  const size_t n_pixels = (size_t)sh->setup.width * sh->setup.height;
  sh->workers           = (Worker*)calloc(sh->n_workers, sizeof(Worker));
  if (!sh->workers) {
    return p4d_report_failure(st, NULL, "out of memory");
  }
  for (unsigned j = 0U; j < sh->n_workers; ++j) {
    Worker* const w = &sh->workers[j];
    w->sh           = sh;
    w->index        = j;
    w->ready        = -1;
    w->tone         = (float*)malloc(n_pixels * sizeof(float));
    w->value = sh->value ? (float*)malloc(n_pixels * sizeof(float)) : NULL;
    const bool shade = sh->hillshade[0] != '\0';
    w->heights       = shade ? (float*)malloc(n_pixels * sizeof(float)) : NULL;
    w->shade         = shade ? (float*)malloc(n_pixels * sizeof(float)) : NULL;
    if (p4d_image_frame_new(&sh->setup, &w->frame) || !w->tone ||
        (sh->value && !w->value) || (shade && (!w->heights || !w->shade))) {
      return p4d_report_failure(st, NULL, "out of memory");
    }
    p4d_image_frame_edges(w->frame, sh->engine != NULL);
  }
  return P4D_RENDER_SUCCESS;
}

static void
free_workers(Shared* sh)
{
  for (unsigned j = 0U; sh->workers && j < sh->n_workers; ++j) {
    p4d_image_frame_free(sh->workers[j].frame);
    free(sh->workers[j].value);
    free(sh->workers[j].tone);
    free(sh->workers[j].heights);
    free(sh->workers[j].shade);
  }
  free(sh->workers);
}

/// Open the one stream (Y4M) and its writer.
static P4dRenderCode
open_stream(Shared* sh, P4dRenderStatus* st)
{
  const P4dWriterInfo info = writer_info(sh);
  P4dRenderCode       code =
    p4d_atomic_open(&sh->stream_file, sh->stream_path, sh->o->force, st);
  return code ? code
              : sh->format.writer->open(
                  &sh->stream_writer, &info, &sh->stream_file, st);
}

/// Finish the one stream and put it in place.
static P4dRenderCode
close_stream(Shared* sh, P4dRenderStatus* st)
{
  P4dRenderCode code = sh->format.writer->finish(sh->stream_writer, st);
  if (!code) {
    sigset_t old;
    hold_signals(&old);
    code = p4d_render_check_signal(st);
    code = code ? p4d_report_name(st, sh->stream_path, NULL)
                : p4d_atomic_commit(&sh->stream_file, st);
    let_signals(&old);
  }
  return code;
}

/// Run the jobs over the frames: with one, here; with more, each in a
/// thread of its own while this one writes the stream or watches.
static void
run_jobs(Shared* sh, bool progress)
{
  const bool one_stream = sh->format.writer->one_stream;
  unsigned   n_started  = 0U;
  if (sh->n_threads > 1U) {
    sigset_t old;
    hold_signals(&old);
    for (unsigned j = 0U; j < sh->n_threads; ++j) {
      if (pthread_create(
            &sh->workers[j].thread, NULL, worker_main, &sh->workers[j])) {
        P4dRenderStatus st;
        memset(&st, 0, sizeof(st));
        p4d_report_failure(&st, sh->o->output, "cannot start a render thread");
        record_failure(sh, 0, &st);
        break;
      }
      ++n_started;
    }
    let_signals(&old);
  }
  if (one_stream) {
    write_stream(sh, progress);
  } else if (sh->n_threads == 1U) {
    sh->progress_here = progress;
    worker_main(&sh->workers[0]);
  } else {
    watch_files(sh, progress);
  }

  pthread_mutex_lock(&sh->lock);
  if (sh->n_done < sh->n_frames) {
    sh->stop = true;
  }
  pthread_cond_broadcast(&sh->changed);
  pthread_mutex_unlock(&sh->lock);
  for (unsigned j = 0U; j < n_started; ++j) {
    pthread_join(sh->workers[j].thread, NULL);
  }
}

/// The failure of the render, named: the file, and which frame.
static P4dRenderCode
report(Shared* sh, P4dRenderStatus* st)
{
  if (sh->failed < 0) {
    const P4dRenderCode code = p4d_render_check_signal(st);
    return code ? p4d_report_name(st, sh->o->output, NULL) : code;
  }
  char reason[sizeof(st->text)];
  if (sh->n_frames > 1) {
    snprintf(reason,
             sizeof(reason),
             "%.300s (frame %lld of %lld; the frames already in place are "
             "complete)",
             sh->failure.text,
             (long long)sh->failed,
             (long long)sh->n_frames);
  } else {
    snprintf(reason, sizeof(reason), "%.400s", sh->failure.text);
  }
  p4d_report_failure(st, failed_path, reason);
  st->code = sh->failure.code;
  return st->code;
}

P4dRenderCode
p4d_pictures_run(const P4dPlan*    plan,
                 const P4dOptions* o,
                 P4dFormat         format,
                 P4dRenderStatus*  st)
{
  Shared sh;
  memset(&sh, 0, sizeof(sh));
  sh.plan   = plan;
  sh.o      = o;
  sh.format = format;
  sh.setup  = (P4dImageSetup){
     o->width, o->height, plan->sample_rate_hz, plan->tempo_bpm
  };
  sh.failed  = -1;
  sh.engine  = o->terrain ? p4d_terrain_find(o->terrain) : NULL;
  sh.heights = sh.engine || o->hillshade;
  sh.sidecar = format.writer->sidecar || sh.heights;
  sh.value   = format.writer->needs_value || sh.sidecar;
  snprintf(
    sh.hillshade, sizeof(sh.hillshade), "%s", o->hillshade ? o->hillshade : "");
  sh.stream_file.fd = -1;
  pthread_mutex_init(&sh.lock, NULL);
  pthread_cond_init(&sh.changed, NULL);

  if (p4d_frame_name_parse(o->output, &sh.name, st)) {
    return p4d_report_name(st, "-o", o->output);
  }
  const bool one_stream = format.writer->one_stream;
  if (one_stream && sh.name.numbered) {
    snprintf(st->text,
             sizeof(st->text),
             "%s holds every frame in one file: no frame number in its name",
             format.writer->name);
    return p4d_report_bad_value(st, "-o", o->output, st->text);
  }
  p4d_frame_name_format(&sh.name, 0, sh.stream_path, sizeof(sh.stream_path));
  const bool sequence    = one_stream || sh.name.numbered;
  const bool heights_set = o->height_min != 0.0 || o->height_max != 1.0 ||
                           strcmp(o->height_unit, "m") || o->pixel_size != 1.0;
  if (!sh.heights && heights_set) {
    p4d_report_warn("--height-range, --height-unit, --pixel-size: ignored: "
                    "only heightmaps have heights (--terrain, --hillshade)");
  }
  if (!o->hillshade &&
      (o->light_azimuth_deg != 315.0 || o->light_altitude_deg != 45.0)) {
    p4d_report_warn("--light: ignored: it lights the --hillshade");
  }
  if (o->hillshade && sequence) {
    return p4d_report_bad_value(st,
                                "--hillshade",
                                o->hillshade,
                                "one picture only (no frame number in -o, "
                                "no stream)");
  }
  sh.n_frames = count_frames(o, sequence);
  if (!sequence && (o->duration_arg || o->fps_given)) {
    p4d_report_warn("%s: ignored: one picture, at --start (a name with a "
                    "frame number, such as f_%%05d.png, writes a sequence)",
                    o->duration_arg ? "--duration" : "--fps");
  }
  const unsigned jobs = o->n_jobs ? o->n_jobs : 1U;
  sh.n_threads = (int64_t)jobs < sh.n_frames ? jobs : (unsigned)sh.n_frames;
  sh.n_workers =
    one_stream && sh.n_threads > 1U ? 2U * sh.n_threads : sh.n_threads;
  sh.row_jobs = jobs / sh.n_threads;

  const char* inputs[2] = { plan->preset_file[0] ? plan->preset_file : NULL,
                            NULL };
  P4dRenderCode code = check_targets(&sh, inputs, st);
  if (code) {
    return code;
  }

  p4d_render_catch_signals();
  code = make_workers(&sh, st);
  code = code || !one_stream ? code : open_stream(&sh, st);
  if (code) {
    code = p4d_report_name(st, o->output, NULL);
  } else {
    run_jobs(&sh, !o->quiet && isatty(2));
    code = report(&sh, st);
    code = code || !one_stream ? code : close_stream(&sh, st);
  }
  if (sh.stream_writer) {
    format.writer->close(sh.stream_writer);
  }
  p4d_atomic_discard(&sh.stream_file, st);
  p4d_atomic_free(&sh.stream_file);
  free_workers(&sh);
  pthread_cond_destroy(&sh.changed);
  pthread_mutex_destroy(&sh.lock);
  return code;
}
