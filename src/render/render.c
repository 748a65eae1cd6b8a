// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Rendering a plan.

  The timeline is cut into chunks.  With n jobs, job j renders chunks j,
  j + n, j + 2n, ... into two buffers of its own, and the calling thread
  hands the chunks to the sink in order, so memory stays flat whatever the
  duration.  A job starts each chunk from an engine state that does not
  depend on where it starts: it replays the parameter timeline without
  computing noise up to the engine's exact warm-up frame, renders the
  warm-up, then the chunk.  A job whose next chunk follows the last one
  simply carries on.  The file is therefore the same bytes for any number
  of jobs, and a render cut anywhere joins the uncut one.

  Runs.  A job that starts a chunk where it did not stop pays the warm-up
  (the Noise's high-pass: up to 0.4 s; Motion's filters and delay: up to
  4 s, most of a chunk).  So the chunks are dealt out in runs of
  consecutive chunks, run r to job r mod n, long enough that the warm-up
  at the start of a run costs at most about 1/16 of the run, each job
  holding a run (and one more chunk) of buffers so that it need not wait
  for the writer.  The runs change only who renders what, never the bits;
  their buffers are capped (RUN_MEMORY), and every job gets a run.

  Rows.  A writer that reads only one frame per row (the CSV at --fps)
  gets chunks in which only those frames hold samples.  Each is rendered
  as a chunk of one frame: the job carries on to it (through the frames
  between, computed and dropped) when that costs less than starting there
  afresh, else it starts there as at any chunk (a Mod, whose output has no
  past, after replaying the parameters without noise).  The same bits as
  rendering every frame, for a fraction of the work.

  Every kind renders through its class (src/kinds/kind.h) with this one
  chunk renderer.  A kind that takes an input (Perlin4D Motion, a plan
  with an input) works the same way on audio: each job reads the input
  through a reader of its own, block by block.  The
  output at song frame f is the processor's output at song frame f, and
  the processor is fed the input latency frames ahead (input frame
  f - start + latency at song frame f; silence before the input's first
  frame and past its end), as a host that compensates the latency does:
  Ardour tells a latent plugin the song position where its output is
  heard.  So the motion at a song position is the curve's value there, as
  in the plugin and in Ardour's export, and the file lines up with the
  input.  The processor's song frames start before 0 when the render
  starts within the latency of 0.  A job starts a chunk at the class's
  exact_from(its first frame) (for every kind): it activates the processor
  there (or, when automated, at song frame 0 or that frame if earlier, and
  replays the parameters without audio up to there), then warms up on the
  input from there.  An input that cannot be
  decoded from a seek to the same samples (a lossy codec) is rendered by
  one job straight through.
*/

#define _POSIX_C_SOURCE 200809L

#include "render.h"

#include "input.h"
#include "kind.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK_FRAMES P4D_RENDER_CHUNK

/// The warm-up of a run costs at most 1 / RUN_SHARE of it.
#define RUN_SHARE 16

/// Bytes of chunk buffers that runs may hold, all jobs together.
#define RUN_MEMORY ((size_t)48U << 20U)

/// Chunk starts looked at for the longest warm-up.
#define RUN_PROBES 64

/// Frames the engine renders at once when nothing is automated (a Motion
/// input block at most).
#define PLAIN_BLOCK 4096

#if PLAIN_BLOCK > P4D_INPUT_BLOCK
#  error "a block of the render must fit in an input block"
#endif

/*
  Signals.  Each signal that would end the program (all but SIGKILL and the
  crashes) stops rendering cleanly instead, so that the caller removes what
  it wrote: the handler only notes the signal, the loops below look at the
  note between chunks.  A signal the program was started with ignored
  (nohup, a shell's background job) stays ignored.  SIGXFSZ (a file-size
  limit) is always ignored: the write that passes the limit then fails with
  EFBIG and says so in the one line of the error.
*/

/// The signals that stop rendering.
static const int stop_signals[] = { SIGHUP,  SIGINT,  SIGQUIT, SIGPIPE,
                                    SIGTERM, SIGUSR1, SIGUSR2, SIGALRM };

#define N_STOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))

/// The signal that stopped rendering, or 0.
static volatile sig_atomic_t interrupted = 0;

static void
on_signal(int sig)
{
  interrupted = sig;
}

/// The signals that stop rendering, as a set.
static sigset_t
stop_set(void)
{
  sigset_t set;
  sigemptyset(&set);
  for (size_t i = 0U; i < N_STOP_SIGNALS; ++i) {
    sigaddset(&set, stop_signals[i]);
  }
  return set;
}

void
p4d_render_catch_signals(void)
{
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0U; i < N_STOP_SIGNALS; ++i) {
    struct sigaction old;
    if (!sigaction(stop_signals[i], NULL, &old) && old.sa_handler != SIG_IGN) {
      sigaction(stop_signals[i], &action, NULL);
    }
  }
  action.sa_handler = SIG_IGN;
  sigaction(SIGXFSZ, &action, NULL);
}

int
p4d_render_signal(void)
{
  return (int)interrupted;
}

P4dRenderCode
p4d_render_check_signal(P4dRenderStatus* status)
{
  switch (interrupted) {
  case 0:
    return P4D_RENDER_SUCCESS;
  case SIGHUP:
    return p4d_report_failure(status, NULL, "interrupted by SIGHUP");
  case SIGINT:
    return p4d_report_failure(status, NULL, "interrupted by SIGINT");
  case SIGQUIT:
    return p4d_report_failure(status, NULL, "interrupted by SIGQUIT");
  case SIGPIPE:
    return p4d_report_failure(status, NULL, "interrupted by SIGPIPE");
  case SIGTERM:
    return p4d_report_failure(status, NULL, "interrupted by SIGTERM");
  case SIGUSR1:
    return p4d_report_failure(status, NULL, "interrupted by SIGUSR1");
  case SIGUSR2:
    return p4d_report_failure(status, NULL, "interrupted by SIGUSR2");
  default:
    return p4d_report_failure(status, NULL, "interrupted by SIGALRM");
  }
}

/// The signal mask p4d_render_hold_signals() let through, to restore.
static sigset_t held_mask;

void
p4d_render_hold_signals(bool hold)
{
  if (hold) {
    const sigset_t set = stop_set();
    pthread_sigmask(SIG_BLOCK, &set, &held_mask);
  } else {
    pthread_sigmask(SIG_SETMASK, &held_mask, NULL);
  }
}

/// A processor of the plan's kind (and its input, if it takes one) and
/// where it stands on the song timeline.
typedef struct {
  const P4dKindClass* kind;
  void*               proc;
  P4dInput*           input;
  uint32_t            latency; ///< In frames
  int64_t             next;    ///< The song frame it renders next, or -1
  unsigned            n_channels;
  float*              out[P4D_MAX_CHANNELS];
  float*              in[2]; ///< The input block
} Runner;

/// The multiple of grid at or before f (Motion's song frames may be
/// negative).
static int64_t
grid_floor(int64_t f, int64_t grid)
{
  const int64_t q = f / grid;
  return (q - (f % grid < 0)) * grid;
}

/// The first frame r's processor must run from for its output from frame
/// on to be exact (the kind's exact_from), told the plan's parameters
/// when they are held.
static int64_t
exact_from(const P4dPlan* plan, const Runner* r, int64_t frame)
{
  return r->kind->exact_from(
    r->proc, frame, plan->automated ? NULL : plan->base);
}

/// The frame at which the block that starts at f ends (exclusive).
static int64_t
block_end(const P4dPlan* plan, int64_t f, int64_t limit)
{
  const int64_t grid = plan->automated ? P4D_AUTOMATION_GRID : PLAIN_BLOCK;
  const int64_t end  = grid_floor(f, grid) + grid;
  return end < limit ? end : limit;
}

/**
   Run the processor over song frames [from, to), fed the input (if any)
   latency frames ahead; write into dest (interleaved), or drop, or (audio
   false) advance only its parameters.
*/
static P4dRenderCode
advance(const P4dPlan*   plan,
        Runner*          r,
        int64_t          from,
        int64_t          to,
        float*           dest,
        bool             audio,
        P4dRenderStatus* status)
{
  float              params[P4D_MAX_PARAMS];
  const float* const in[2] = { r->in[0], r->in[1] };
  for (int64_t f = from; f < to;) {
    const int64_t       end = block_end(plan, f, to);
    const size_t        n   = (size_t)(end - f);
    const P4dRenderCode code =
      audio && r->input
        ? p4d_input_read(r->input,
                         f - plan->start_frame + (int64_t)r->latency,
                         n,
                         r->in[0],
                         r->in[1],
                         status)
        : P4D_RENDER_SUCCESS;
    if (code) {
      return code;
    }
    p4d_plan_params_at(
      plan, plan->automated ? grid_floor(f, P4D_AUTOMATION_GRID) : 0, params);

    r->kind->process(r->proc, params, in, audio ? r->out : NULL, (uint32_t)n);
    if (dest) {
      float* const d = dest + (size_t)(f - from) * r->n_channels;
      for (size_t i = 0U; i < n; ++i) {
        for (unsigned c = 0U; c < r->n_channels; ++c) {
          d[i * r->n_channels + c] = r->out[c][i];
        }
      }
    }
    f = end;
  }
  return P4D_RENDER_SUCCESS;
}

/// Render song frames [from, to) into dest, interleaved.
static P4dRenderCode
render_chunk(const P4dPlan*   plan,
             Runner*          r,
             int64_t          from,
             int64_t          to,
             float*           dest,
             P4dRenderStatus* status)
{
  P4dRenderCode code = P4D_RENDER_SUCCESS;
  if (r->next != from) {
    const int64_t warm = exact_from(plan, r, from);
    if (!plan->automated) {
      r->kind->activate_at(r->proc, warm, plan->tempo_bpm);
    } else {
      // Replay the parameters without audio from the song's start (or from
      // warm, if it is earlier), or from where the processor stopped.
      int64_t at = r->next;
      if (at < 0 || at > warm) {
        at = warm < 0 ? warm : 0;
        r->kind->activate_at(r->proc, at, plan->tempo_bpm);
      }
      code = advance(plan, r, at, warm, NULL, false, status);
    }
    code = code ? code : advance(plan, r, warm, from, NULL, true, status);
  }
  code    = code ? code : advance(plan, r, from, to, dest, true, status);
  r->next = code ? -1 : to;
  return code;
}

int64_t
p4d_render_row_frame(double sample_rate_hz, double rows_per_s, int64_t row)
{
  return (int64_t)llround((double)row * sample_rate_hz / rows_per_s);
}

/// The first row whose frame (from the start) is at or after offset.
static int64_t
first_row(const P4dPlan* plan, double rows_per_s, int64_t offset)
{
  const double sr  = plan->sample_rate_hz;
  int64_t      row = (int64_t)floor((double)offset * rows_per_s / sr) - 1;
  row              = row < 0 ? 0 : row;
  while (p4d_render_row_frame(sr, rows_per_s, row) < offset) {
    ++row;
  }
  return row;
}

/**
   Render the frames of song frames [from, to) that rows at rows_per_s
   keep into dest (interleaved); the others are left as they are.
*/
static P4dRenderCode
render_rows(const P4dPlan*   plan,
            Runner*          r,
            int64_t          from,
            int64_t          to,
            double           rows_per_s,
            float*           dest,
            P4dRenderStatus* status)
{
  const size_t  nch  = r->n_channels;
  const int64_t base = plan->start_frame;
  P4dRenderCode code = P4D_RENDER_SUCCESS;
  int64_t       last = from - 1; // the last frame rendered
  for (int64_t k = first_row(plan, rows_per_s, from - base); !code; ++k) {
    const int64_t at =
      base + p4d_render_row_frame(plan->sample_rate_hz, rows_per_s, k);
    if (at >= to) {
      break;
    }
    if (at == last) {
      continue; // two rows on one frame (rows at nearly the sample rate)
    }
    last = at;
    // Carry on through the frames between when that costs less than the
    // warm-up of a fresh start.
    if (r->next >= exact_from(plan, r, at) && r->next < at) {
      code    = advance(plan, r, r->next, at, NULL, true, status);
      r->next = code ? -1 : at;
    }
    code = code
             ? code
             : render_chunk(
                 plan, r, at, at + 1, dest + (size_t)(at - from) * nch, status);
  }
  return code;
}

typedef enum { SLOT_EMPTY, SLOT_FULL } SlotState;

typedef struct {
  float*          frames;
  int64_t         chunk;
  SlotState       state;
  P4dRenderCode   code;   ///< How rendering the chunk went
  P4dRenderStatus status; ///< Why it failed
} Slot;

typedef struct Job Job;

typedef struct {
  const P4dPlan*  plan;
  unsigned        n_jobs;
  int64_t         n_chunks;
  int64_t         run;        ///< Chunks in a run (see the top)
  unsigned        n_slots;    ///< Buffers of a job
  double          rows_per_s; ///< Rows kept per second, or 0: every frame
  bool            failed;
  pthread_mutex_t lock;
  pthread_cond_t  changed;
  Job*            jobs;
} Shared;

struct Job {
  Shared*   shared;
  unsigned  index;
  Runner    runner;
  Slot*     slot; ///< n_slots of them
  pthread_t thread;
};

/// Set up a runner (zeroed: runner_free() frees it even if this failed).
static P4dRenderCode
runner_init(Runner* r, const P4dPlan* plan, P4dRenderStatus* status)
{
  r->kind       = plan->kind;
  r->next       = -1;
  r->n_channels = plan->kind->n_channels;
  if (r->kind->create(plan->sample_rate_hz, &r->proc)) {
    r->proc = NULL;
    return p4d_report_failure(status, NULL, "out of memory");
  }
  r->latency = r->kind->latency(r->proc);
  if (plan->input_file[0]) {
    const P4dRenderCode code =
      p4d_input_open(plan->input_file, &plan->input, &r->input, status);
    if (code) {
      return code;
    }
    for (unsigned c = 0U; c < 2U; ++c) {
      r->in[c] = (float*)malloc(PLAIN_BLOCK * sizeof(float));
      if (!r->in[c]) {
        return p4d_report_failure(status, NULL, "out of memory");
      }
    }
  }
  for (unsigned c = 0U; c < r->n_channels; ++c) {
    r->out[c] = (float*)malloc(PLAIN_BLOCK * sizeof(float));
    if (!r->out[c]) {
      return p4d_report_failure(status, NULL, "out of memory");
    }
  }
  return P4D_RENDER_SUCCESS;
}

static void
runner_free(Runner* r)
{
  if (r->kind) {
    r->kind->destroy(r->proc);
  }
  p4d_input_close(r->input);
  free(r->in[0]);
  free(r->in[1]);
  for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
    free(r->out[c]);
  }
}

static void
chunk_range(const P4dPlan* plan, int64_t k, int64_t* from, int64_t* to)
{
  *from = plan->start_frame + k * CHUNK_FRAMES;
  *to   = *from + CHUNK_FRAMES;
  if (*to > plan->start_frame + plan->n_frames) {
    *to = plan->start_frame + plan->n_frames;
  }
}

/// The job that renders chunk k, and the slot it renders it into.
static Slot*
chunk_slot(const Shared* sh, int64_t k, Job** job)
{
  const int64_t run = k / sh->run;
  *job              = &sh->jobs[run % sh->n_jobs];
  // The place of chunk k among the chunks its job renders.
  const int64_t nth = (run / sh->n_jobs) * sh->run + k % sh->run;
  return &(*job)->slot[nth % sh->n_slots];
}

/// Render chunk k with job's runner into slot.
static void
render_slot(const Shared* sh, Job* job, int64_t k, Slot* slot)
{
  int64_t from = 0;
  int64_t to   = 0;
  chunk_range(sh->plan, k, &from, &to);
  slot->code =
    sh->rows_per_s > 0.0
      ? render_rows(sh->plan,
                    &job->runner,
                    from,
                    to,
                    sh->rows_per_s,
                    slot->frames,
                    &slot->status)
      : render_chunk(
          sh->plan, &job->runner, from, to, slot->frames, &slot->status);
}

static void*
job_main(void* arg)
{
  Job* const    job  = (Job*)arg;
  Shared* const sh   = job->shared;
  const int64_t step = (int64_t)sh->n_jobs * sh->run;

  for (int64_t k = (int64_t)job->index * sh->run; k < sh->n_chunks;
       k         = k % sh->run + 1 < sh->run ? k + 1 : k + 1 - sh->run + step) {
    Job*        owner = NULL;
    Slot* const slot  = chunk_slot(sh, k, &owner);

    pthread_mutex_lock(&sh->lock);
    while (slot->state == SLOT_FULL && !sh->failed) {
      pthread_cond_wait(&sh->changed, &sh->lock);
    }
    const bool stop = sh->failed;
    pthread_mutex_unlock(&sh->lock);
    if (stop || interrupted) {
      break;
    }

    render_slot(sh, job, k, slot);

    pthread_mutex_lock(&sh->lock);
    slot->chunk = k;
    slot->state = SLOT_FULL;
    pthread_cond_broadcast(&sh->changed);
    pthread_mutex_unlock(&sh->lock);
  }
  return NULL;
}

/**
   Choose the runs of sh (sh->run, sh->n_slots) from the longest warm-up
   that runner r needs at the start of a chunk.
*/
static void
choose_runs(Shared* sh, const Runner* r)
{
  sh->run     = 1;
  sh->n_slots = 2U;
  if (sh->n_jobs < 2U || sh->rows_per_s > 0.0) {
    return;
  }
  int64_t warm = 0;
  for (int64_t k = 0; k < sh->n_chunks && k < RUN_PROBES; ++k) {
    int64_t from = 0;
    int64_t to   = 0;
    chunk_range(sh->plan, k, &from, &to);
    const int64_t w = from - exact_from(sh->plan, r, from);
    warm            = w > warm ? w : warm;
  }
  const size_t chunk_bytes =
    (size_t)CHUNK_FRAMES * r->n_channels * sizeof(float);
  const int64_t by_memory =
    (int64_t)(RUN_MEMORY / chunk_bytes / sh->n_jobs) - 1;
  const int64_t by_jobs = (sh->n_chunks + sh->n_jobs - 1) / sh->n_jobs;
  int64_t       run     = (warm * RUN_SHARE + CHUNK_FRAMES - 1) / CHUNK_FRAMES;
  run                   = run < by_memory ? run : by_memory;
  run                   = run < by_jobs ? run : by_jobs;
  if (run > 1) {
    sh->run     = run;
    sh->n_slots = (unsigned)run + 1U;
  }
}

P4dRenderCode
p4d_render_plan(const P4dPlan*   plan,
                unsigned         n_jobs,
                double           rows_per_s,
                bool             progress,
                P4dRenderSink    sink,
                void*            ctx,
                P4dRenderStatus* status)
{
  // An input that is not decoded to the same samples after a seek goes
  // straight through (see the top).
  if (plan->input_file[0] && !plan->input.exact_seek) {
    n_jobs = 1U;
  }
  Shared         sh         = { plan,
                                n_jobs,
                                (plan->n_frames + CHUNK_FRAMES - 1) / CHUNK_FRAMES,
                                1,
                                2U,
                                rows_per_s,
                                false,
                                PTHREAD_MUTEX_INITIALIZER,
                                PTHREAD_COND_INITIALIZER,
                                NULL };
  const unsigned n_channels = plan->kind->n_channels;
  P4dRenderCode  code       = P4D_RENDER_SUCCESS;

  // Zeroed, so that every job and runner can be freed whatever failed.
  sh.jobs = (Job*)calloc(n_jobs, sizeof(Job));
  if (!sh.jobs) {
    return p4d_report_failure(status, NULL, "out of memory");
  }

  unsigned n_started = 0U;
  for (unsigned j = 0U; j < n_jobs && !code; ++j) {
    Job* const job = &sh.jobs[j];
    job->shared    = &sh;
    job->index     = j;
    code           = runner_init(&job->runner, plan, status);
  }
  if (!code) {
    choose_runs(&sh, &sh.jobs[0].runner);
  }
  for (unsigned j = 0U; j < n_jobs && !code; ++j) {
    Job* const job = &sh.jobs[j];
    job->slot      = (Slot*)calloc(sh.n_slots, sizeof(Slot));
    if (!job->slot) {
      code = p4d_report_failure(status, NULL, "out of memory");
      break;
    }
    // Zeroed: frames that rows leave out are handed over as 0 (or as a
    // row of an earlier chunk).
    for (unsigned s = 0U; s < sh.n_slots && !code; ++s) {
      job->slot[s].frames =
        (float*)calloc((size_t)CHUNK_FRAMES * n_channels, sizeof(float));
      code = job->slot[s].frames
               ? code
               : p4d_report_failure(status, NULL, "out of memory");
    }
  }

  // With one job the calling thread renders; with more, each job runs in a
  // thread of its own while the calling thread writes.  The jobs never see
  // a signal: it comes to the calling thread, the one that writes and
  // looks at the note.
  p4d_render_hold_signals(true);
  for (unsigned j = 0U; !code && n_jobs > 1U && j < n_jobs; ++j) {
    if (pthread_create(&sh.jobs[j].thread, NULL, job_main, &sh.jobs[j])) {
      code = p4d_report_failure(status, NULL, "cannot start a render thread");
    } else {
      ++n_started;
    }
  }
  p4d_render_hold_signals(false);

  for (int64_t k = 0; !code && k < sh.n_chunks; ++k) {
    Job*        job  = NULL;
    Slot* const slot = chunk_slot(&sh, k, &job);
    int64_t     from = 0;
    int64_t     to   = 0;
    chunk_range(plan, k, &from, &to);

    if (n_jobs == 1U) {
      render_slot(&sh, job, k, slot);
    } else {
      // Wake up now and then to notice an interruption (a signal handler
      // cannot signal a condition variable).
      pthread_mutex_lock(&sh.lock);
      while (!(slot->state == SLOT_FULL && slot->chunk == k) && !interrupted) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100000000L;
        if (until.tv_nsec >= 1000000000L) {
          until.tv_sec += 1;
          until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&sh.changed, &sh.lock, &until);
      }
      pthread_mutex_unlock(&sh.lock);
    }

    if (interrupted) {
      code = p4d_render_check_signal(status);
      break;
    }
    if (slot->code) {
      code = p4d_report_failure(status, NULL, slot->status.reason);
      break;
    }

    // A write cut short by a signal fails for the signal's sake.
    code = sink(ctx, from, slot->frames, (size_t)(to - from), status);
    code = code && interrupted ? p4d_render_check_signal(status) : code;

    pthread_mutex_lock(&sh.lock);
    slot->state = SLOT_EMPTY;
    pthread_cond_broadcast(&sh.changed);
    pthread_mutex_unlock(&sh.lock);

    if (progress) {
      p4d_report_progress(to - plan->start_frame, plan->n_frames, NULL);
    }
  }

  pthread_mutex_lock(&sh.lock);
  sh.failed = true;
  pthread_cond_broadcast(&sh.changed);
  pthread_mutex_unlock(&sh.lock);
  for (unsigned j = 0U; j < n_started; ++j) {
    pthread_join(sh.jobs[j].thread, NULL);
  }

  for (unsigned j = 0U; j < n_jobs; ++j) {
    runner_free(&sh.jobs[j].runner);
    for (unsigned s = 0U; sh.jobs[j].slot && s < sh.n_slots; ++s) {
      free(sh.jobs[j].slot[s].frames);
    }
    free(sh.jobs[j].slot);
  }
  free(sh.jobs);
  return code;
}
