// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Perlin4D Motion hosted through lilv as a DAW hosts an insert: stereo
  audio through its inputs, in blocks of any size, in place or not, a mono
  track given as one buffer on both inputs, hostile samples, the host's
  bypass through lv2:enabled, the latency it reports, and a relocation.
  Every run is checked by the host (finite, normal outputs; the targets
  within their TTL ranges; the latency every run).

  Usage: test_lv2_motion BUNDLE_PATH
*/

#undef NDEBUG

#include "motion.h"
#include "support/compare.h"
#include "support/dest.h"
#include "support/host.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// 2 pi, which C99 does not name.
#define TWO_PI 6.283185307179586

/// Frames of most renders: 1.5 s.
#define N_FRAMES ((size_t)P4D_HOST_SECOND * 3U / 2U)

/// The test signal over n frames: a sine and a little noise on the left, a
/// second sine on the right, so that every target has something to move.
static void
make_input(float* in[2], size_t n, size_t song_offset)
{
  uint32_t state = 12345U;
  for (size_t i = 0U; i < n; ++i) {
    const double t = (double)(i + song_offset) / P4D_HOST_RATE;
    state          = state * 1664525U + 1013904223U;
    const double r = (double)(state >> 8U) / 16777216.0 - 0.5;
    in[0][i]       = (float)(0.5 * sin(TWO_PI * 220.0 * t) + 0.1 * r);
    in[1][i]       = (float)(0.4 * sin(TWO_PI * 330.0 * t));
  }
}

typedef struct {
  float* ch[2];
} Stereo;

static Stereo
stereo_new(size_t n, size_t song_offset)
{
  Stereo s = { { p4d_floats_new(n, 0.0f), p4d_floats_new(n, 0.0f) } };
  make_input(s.ch, n, song_offset);
  return s;
}

static void
stereo_free(Stereo* s)
{
  free(s->ch[0]);
  free(s->ch[1]);
}

/// Render n frames of Motion from in (its inputs) into d, from activate().
static void
render(P4dHost*          h,
       float*            in_l,
       float*            in_r,
       const P4dDest*    d,
       size_t            n,
       const uint32_t*   pattern,
       size_t            n_pattern,
       P4dHostTransport* tr)
{
  h->in_sig[0] = in_l;
  h->in_sig[1] = in_r;
  p4d_host_activate(h);
  p4d_host_render(h, d, n, pattern, n_pattern, tr);
}

/// Copy the two input channels of s into d's outputs (for in place).
static void
fill_outputs(const P4dDest* d, const Stereo* s, size_t n)
{
  memcpy(d->sig[0], s->ch[0], n * sizeof(float));
  memcpy(d->sig[1], s->ch[1], n * sizeof(float));
}

/// The latency of the processor itself at rate, as motion.h reports it.
static uint32_t
motion_latency(double rate)
{
  P4dMotion* m = NULL;
  assert(!p4d_motion_new(rate, &m));
  const uint32_t latency = p4d_motion_latency(m);
  p4d_motion_free(m);
  return latency;
}

static void
test_latency(void)
{
  static const double rates[] = { 22050.0, 44100.0,  48000.0,
                                  96000.0, 192000.0, 768000.0 };
  for (size_t r = 0U; r < sizeof(rates) / sizeof(rates[0]); ++r) {
    snprintf(
      p4d_host_case, sizeof(p4d_host_case), "latency at %g Hz", rates[r]);
    P4dHost* const        h = p4d_host_new(P4D_HOST_URI_MOTION, rates[r], true);
    const uint32_t        latency  = motion_latency(rates[r]);
    Stereo                in       = stereo_new(1024U, 0U);
    P4dDest               d        = p4d_dest_new(h, 1024U);
    static const uint32_t blocks[] = { 0U, 100U, 1U, 923U };
    h->value[h->latency_port]      = -1.0f;
    // The filter swept past the cutoff control's range (up to 0.45 fs):
    // cutoff_now stays within its TTL range (the host checks every run).
    p4d_host_set(h, "filter_mode", 1.0f);
    p4d_host_set(h, "cutoff_hz", 20000.0f);
    p4d_host_set(h, "filter_oct", 6.0f);
    p4d_host_set(h, "rate_hz", 40.0f);
    render(h, in.ch[0], in.ch[1], &d, 1024U, blocks, 4U, NULL);
    assert(h->value[h->latency_port] == (float)latency);
    printf("# latency at %g Hz: the port reports %u frames (%.3f ms), as "
           "p4d_motion_latency()\n",
           rates[r],
           latency,
           1000.0 * latency / rates[r]);
    p4d_dest_free(&d);
    stereo_free(&in);
    p4d_host_free(h);
  }
}

/// With every target at rest, the output is the input delayed by exactly
/// the latency the port reports (what a host compensates).
static void
test_alignment(void)
{
  snprintf(p4d_host_case, sizeof(p4d_host_case), "alignment");
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_MOTION, P4D_HOST_RATE, true);
  p4d_host_set(h, "gain_db", 0.0f);
  const size_t          n        = P4D_HOST_SECOND / 2U;
  Stereo                in       = stereo_new(n, 0U);
  P4dDest               d        = p4d_dest_new(h, n);
  static const uint32_t blocks[] = { 256U };
  render(h, in.ch[0], in.ch[1], &d, n, blocks, 1U, NULL);

  const size_t latency = (size_t)h->value[h->latency_port];
  double       err     = 0.0;
  for (unsigned c = 0U; c < 2U; ++c) {
    for (size_t i = latency; i < n; ++i) {
      err = fmax(err, fabs((double)d.sig[c][i] - in.ch[c][i - latency]));
    }
  }
  printf("# at rest, the output is the input %zu frames later within %.3g\n",
         latency,
         err);
  assert(err < 1.0e-4);
  p4d_dest_free(&d);
  stereo_free(&in);
  p4d_host_free(h);
}

/// Blocks of every size give the same bits as one block, with transport
/// and without; so do in place processing (the inputs on the outputs'
/// buffers) and a mono track (one buffer on both inputs, as Ardour and
/// Carla connect it) against the same audio in separate buffers.
static void
test_blocks_and_buffers(bool transport)
{
  static const uint32_t one[] = { N_FRAMES };
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_MOTION, P4D_HOST_RATE, true);
  p4d_host_set_lively(h);
  Stereo           in = stereo_new(N_FRAMES, 0U);
  P4dHostTransport tr = { transport, false, transport, 0, 1.0f, 120.0 };
  const char*      t  = transport ? " (transport)" : "";

  snprintf(p4d_host_case, sizeof(p4d_host_case), "one block%s", t);
  P4dDest straight = p4d_dest_new(h, N_FRAMES);
  render(h, in.ch[0], in.ch[1], &straight, N_FRAMES, one, 1U, &tr);

  snprintf(p4d_host_case, sizeof(p4d_host_case), "mixed blocks%s", t);
  P4dDest mixed = p4d_dest_new(h, N_FRAMES);
  tr.frame      = 0;
  render(h,
         in.ch[0],
         in.ch[1],
         &mixed,
         N_FRAMES,
         p4d_host_mixed,
         P4D_HOST_N_MIXED,
         &tr);
  size_t compared = p4d_dest_compare(h, &straight, &mixed, 0U, N_FRAMES);

  snprintf(p4d_host_case, sizeof(p4d_host_case), "in place%s", t);
  P4dDest inplace = p4d_dest_new(h, N_FRAMES);
  fill_outputs(&inplace, &in, N_FRAMES);
  tr.frame = 0;
  render(h,
         inplace.sig[0],
         inplace.sig[1],
         &inplace,
         N_FRAMES,
         p4d_host_mixed,
         P4D_HOST_N_MIXED,
         &tr);
  compared += p4d_dest_compare(h, &straight, &inplace, 0U, N_FRAMES);

  // Crossed: each input on the other channel's output buffer
  snprintf(p4d_host_case, sizeof(p4d_host_case), "crossed buffers%s", t);
  P4dDest crossed = p4d_dest_new(h, N_FRAMES);
  memcpy(crossed.sig[1], in.ch[0], N_FRAMES * sizeof(float));
  memcpy(crossed.sig[0], in.ch[1], N_FRAMES * sizeof(float));
  tr.frame = 0;
  render(h,
         crossed.sig[1],
         crossed.sig[0],
         &crossed,
         N_FRAMES,
         p4d_host_mixed,
         P4D_HOST_N_MIXED,
         &tr);
  compared += p4d_dest_compare(h, &straight, &crossed, 0U, N_FRAMES);

  // Mono: the left input on both inputs, against a copy of it on the right
  snprintf(p4d_host_case, sizeof(p4d_host_case), "mono, one buffer%s", t);
  float* const copy = p4d_floats_new(N_FRAMES, 0.0f);
  memcpy(copy, in.ch[0], N_FRAMES * sizeof(float));
  P4dDest two = p4d_dest_new(h, N_FRAMES);
  tr.frame    = 0;
  render(h, in.ch[0], copy, &two, N_FRAMES, one, 1U, &tr);
  P4dDest mono = p4d_dest_new(h, N_FRAMES);
  tr.frame     = 0;
  render(h,
         in.ch[0],
         in.ch[0],
         &mono,
         N_FRAMES,
         p4d_host_mixed,
         P4D_HOST_N_MIXED,
         &tr);
  compared += p4d_dest_compare(h, &two, &mono, 0U, N_FRAMES);

  // Mono in place, as a host that reuses the input buffer for out_l
  snprintf(p4d_host_case, sizeof(p4d_host_case), "mono in place%s", t);
  P4dDest mono_inplace = p4d_dest_new(h, N_FRAMES);
  memcpy(mono_inplace.sig[0], in.ch[0], N_FRAMES * sizeof(float));
  tr.frame = 0;
  render(h,
         mono_inplace.sig[0],
         mono_inplace.sig[0],
         &mono_inplace,
         N_FRAMES,
         p4d_host_mixed,
         P4D_HOST_N_MIXED,
         &tr);
  compared += p4d_dest_compare(h, &two, &mono_inplace, 0U, N_FRAMES);

  // The mono source comes out on both sides, moved (pan, spread)
  double diff = 0.0;
  double peak = 0.0;
  for (size_t i = 0U; i < N_FRAMES; ++i) {
    diff = fmax(diff, fabs((double)two.sig[0][i] - two.sig[1][i]));
    peak = fmax(peak, fabs((double)two.sig[1][i]));
  }
  assert(peak > 0.05 && diff > 0.0);

  printf("# %s: mixed blocks, in place, crossed buffers, mono (one buffer, "
         "and in place) give the same bits as separate buffers in one "
         "block: %zu values; mono peak %.3f on the right, L-R up to %.3f\n",
         transport ? "with transport" : "without transport",
         compared,
         peak,
         diff);
  p4d_dest_free(&mono_inplace);
  p4d_dest_free(&mono);
  p4d_dest_free(&two);
  free(copy);
  p4d_dest_free(&crossed);
  p4d_dest_free(&inplace);
  p4d_dest_free(&mixed);
  p4d_dest_free(&straight);
  stereo_free(&in);
  p4d_host_free(h);
}

/// NaN and infinite input samples are taken as 0 (motion.h): the same bits
/// as the input with zeros there, and every output finite (the host checks).
/// Then every control NaN or infinite: clamped, still finite.
static void
test_hostile_input(void)
{
  static const uint32_t blocks[] = { 480U, 17U };
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_MOTION, P4D_HOST_RATE, true);
  p4d_host_set_lively(h);
  Stereo hostile = stereo_new(N_FRAMES, 0U);
  Stereo zeroed  = stereo_new(N_FRAMES, 0U);
  size_t n_bad   = 0U;
  for (size_t i = P4D_HOST_SECOND / 4U; i < N_FRAMES; i += 997U) {
    for (size_t k = 0U; k < 40U && i + k < N_FRAMES; ++k, ++n_bad) {
      const float bad           = k % 3U == 0U   ? NAN
                                  : k % 3U == 1U ? INFINITY
                                                 : -INFINITY;
      hostile.ch[k % 2U][i + k] = bad;
      zeroed.ch[k % 2U][i + k]  = 0.0f;
    }
  }

  snprintf(p4d_host_case, sizeof(p4d_host_case), "NaN and Inf input");
  P4dDest a = p4d_dest_new(h, N_FRAMES);
  render(h, hostile.ch[0], hostile.ch[1], &a, N_FRAMES, blocks, 2U, NULL);
  snprintf(p4d_host_case, sizeof(p4d_host_case), "zeros for NaN and Inf");
  P4dDest b = p4d_dest_new(h, N_FRAMES);
  render(h, zeroed.ch[0], zeroed.ch[1], &b, N_FRAMES, blocks, 2U, NULL);
  const size_t compared = p4d_dest_compare(h, &a, &b, 0U, N_FRAMES);

  snprintf(p4d_host_case, sizeof(p4d_host_case), "hostile controls");
  static const float garbage[] = { NAN, INFINITY, -INFINITY, 1.0e30f };
  for (size_t g = 0U; g < 4U; ++g) {
    for (uint32_t i = 0U; i < h->n_ports; ++i) {
      if (h->control_in[i]) {
        h->value[i] = garbage[(g + i) % 4U];
      }
    }
    render(h, hostile.ch[0], hostile.ch[1], &a, N_FRAMES, blocks, 2U, NULL);
  }

  printf("# %zu NaN/Inf input samples: output finite, the same bits as zeros "
         "there (%zu values); NaN/Inf/huge controls: finite\n",
         n_bad,
         compared);
  p4d_dest_free(&b);
  p4d_dest_free(&a);
  stereo_free(&zeroed);
  stereo_free(&hostile);
  p4d_host_free(h);
}

/// Largest step between neighbouring samples of both channels in [from, to).
static double
largest_step(const P4dDest* d, size_t from, size_t to)
{
  double step = 0.0;
  for (unsigned c = 0U; c < 2U; ++c) {
    for (size_t i = from + 1U; i < to; ++i) {
      step = fmax(step, fabs((double)d->sig[c][i] - d->sig[c][i - 1U]));
    }
  }
  return step;
}

/// The host's bypass (lv2:enabled to 0 and back) fades: the largest step
/// around each toggle stays within the larger of the processed and the dry
/// signal's own steps (pure sines, so that a click would stand out), far
/// below what a hard switch would make; once faded out, the output is the
/// input delayed by the latency, unmodified.
static void
test_bypass(void)
{
  snprintf(p4d_host_case, sizeof(p4d_host_case), "bypass");
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_MOTION, P4D_HOST_RATE, true);
  p4d_host_set_lively(h);
  const size_t n   = (size_t)P4D_HOST_SECOND * 2U;
  const size_t off = P4D_HOST_SECOND / 2U;              // toggled off here
  const size_t on  = (size_t)P4D_HOST_SECOND * 5U / 4U; // and on again here
  Stereo       in  = stereo_new(n, 0U);
  for (size_t i = 0U; i < n; ++i) {
    in.ch[0][i] = (float)(0.5 * sin(TWO_PI * 220.0 * (double)i / 48000.0));
  }
  static const uint32_t blocks[] = { 128U };
  P4dDest               wet      = p4d_dest_new(h, n);
  render(h, in.ch[0], in.ch[1], &wet, n, blocks, 1U, NULL);

  P4dDest d    = p4d_dest_new(h, n);
  h->in_sig[0] = in.ch[0];
  h->in_sig[1] = in.ch[1];
  p4d_host_activate(h);
  for (size_t done = 0U; done < n; done += 128U) {
    p4d_host_set(h, "enabled", done >= off && done < on ? 0.0f : 1.0f);
    p4d_host_run(h, &d, done, 128U);
  }

  const size_t window  = P4D_HOST_SECOND / 10U;
  const double steady  = largest_step(&d, window, off - window);
  const size_t latency = (size_t)h->value[h->latency_port];
  double       dry     = 0.0; // the dry signal's own largest step
  double       hard    = 0.0; // the step a hard switch would make
  for (unsigned c = 0U; c < 2U; ++c) {
    for (size_t i = 1U; i < n; ++i) {
      dry = fmax(dry, fabs((double)in.ch[c][i] - in.ch[c][i - 1U]));
    }
    for (size_t i = off; i < off + window; ++i) {
      hard = fmax(hard, fabs((double)wet.sig[c][i] - in.ch[c][i - latency]));
    }
  }
  const double own        = fmax(steady, dry);
  const double at_off     = largest_step(&d, off - 1U, off + window);
  const double at_on      = largest_step(&d, on - 1U, on + window);
  double       bypass_err = 0.0;
  for (unsigned c = 0U; c < 2U; ++c) {
    for (size_t i = off + window * 3U; i < on; ++i) {
      bypass_err =
        fmax(bypass_err, fabs((double)d.sig[c][i] - in.ch[c][i - latency]));
    }
  }
  printf("# bypass: largest step %.4f at the switch off, %.4f at the switch "
         "on; the signal's own %.4f (processed %.4f, dry %.4f); a hard switch "
         "would step by up to %.4f; bypassed, the input %zu frames later "
         "within %.3g\n",
         at_off,
         at_on,
         own,
         steady,
         dry,
         hard,
         latency,
         bypass_err);
  assert(at_off <= 1.1 * own && at_on <= 1.1 * own && hard > 4.0 * own);
  assert(bypass_err == 0.0);
  p4d_dest_free(&wet);
  p4d_dest_free(&d);
  stereo_free(&in);
  p4d_host_free(h);
}

/// Played elsewhere, then relocated to song frame F: from the settle time
/// the processor documents (p4d_motion_exact_from()) and the end of the
/// glide on, the same bits as a straight run from frame 0 through F.
static void
test_relocate(void)
{
  static const uint32_t blocks[] = { 333U, 1024U, 7U, 64U };
  snprintf(p4d_host_case, sizeof(p4d_host_case), "relocate");
  P4dHost* const h = p4d_host_new(P4D_HOST_URI_MOTION, P4D_HOST_RATE, true);
  p4d_host_set_lively(h);
  const size_t song_f = (size_t)P4D_HOST_SECOND * 6U + 123U;
  const size_t song_g = (size_t)P4D_HOST_SECOND + 7U;

  // The documented settle, and the glide of a jump (the engines' 20 ms)
  P4dMotion* m = NULL;
  assert(!p4d_motion_new(P4D_HOST_RATE, &m));
  const size_t settle =
    (size_t)((int64_t)song_f - p4d_motion_exact_from(m, (int64_t)song_f));
  p4d_motion_free(m);
  const size_t glide = P4D_HOST_SECOND / 50U;
  const size_t bound = (settle > glide ? settle : glide) + glide;
  const size_t n     = bound + P4D_HOST_SECOND / 4U;
  const size_t total = song_f + n;
  Stereo       in    = stereo_new(total, 0U);

  P4dDest          straight = p4d_dest_new(h, total);
  P4dHostTransport tr       = { true, false, false, 0, 1.0f, 120.0 };
  render(h, in.ch[0], in.ch[1], &straight, total, blocks, 4U, &tr);
  const P4dDest at_f = p4d_dest_view(&straight, song_f);

  P4dDest elsewhere = p4d_dest_new(h, P4D_HOST_SECOND / 4U);
  P4dDest located   = p4d_dest_new(h, n);
  tr.frame          = (int64_t)song_g;
  render(h,
         in.ch[0] + song_g,
         in.ch[1] + song_g,
         &elsewhere,
         P4D_HOST_SECOND / 4U,
         blocks,
         4U,
         &tr);
  tr.frame     = (int64_t)song_f;
  h->in_sig[0] = in.ch[0] + song_f;
  h->in_sig[1] = in.ch[1] + song_f;
  p4d_host_render(h, &located, n, blocks, 4U, &tr);

  size_t equal_from = n;
  while (equal_from > 0U &&
         p4d_same_bits(at_f.sig[0][equal_from - 1U],
                       located.sig[0][equal_from - 1U]) &&
         p4d_same_bits(at_f.sig[1][equal_from - 1U],
                       located.sig[1][equal_from - 1U])) {
    --equal_from;
  }
  printf("# relocate to %zu: the same bits as the straight run from %zu "
         "frames (%.1f ms) after the jump on; documented settle %zu frames, "
         "bound %zu\n",
         song_f,
         equal_from,
         1000.0 * (double)equal_from / P4D_HOST_RATE,
         settle,
         bound);
  assert(equal_from > 0U && equal_from <= bound);
  assert(p4d_dest_compare(h, &at_f, &located, bound, n) > 0U);
  p4d_dest_free(&located);
  p4d_dest_free(&elsewhere);
  p4d_dest_free(&straight);
  stereo_free(&in);
  p4d_host_free(h);
}

/// Every preset of Motion loads through lilv_state and plays finite audio.
static void
test_presets(void)
{
  static const char* const presets[] = {
    "tape-wow-flutter",  "warped-vinyl",      "drifting-auto-pan",
    "breathing-tremolo", "slow-filter-drift", "underwater",
    "pulse-per-beat",
  };
  static const uint32_t blocks[] = { 512U };
  P4dHost* const h  = p4d_host_new(P4D_HOST_URI_MOTION, P4D_HOST_RATE, true);
  Stereo         in = stereo_new(P4D_HOST_SECOND, 0U);
  P4dDest        d  = p4d_dest_new(h, P4D_HOST_SECOND);
  for (size_t p = 0U; p < sizeof(presets) / sizeof(presets[0]); ++p) {
    char uri[128];
    snprintf(uri, sizeof(uri), "urn:perlin4d:preset:%s", presets[p]);
    snprintf(p4d_host_case, sizeof(p4d_host_case), "preset %s", presets[p]);
    p4d_host_set_defaults(h);
    p4d_host_load_preset(h, uri);
    P4dHostTransport tr = { true, false, false, 0, 1.0f, 120.0 };
    render(h, in.ch[0], in.ch[1], &d, P4D_HOST_SECOND, blocks, 1U, &tr);
    double sum = 0.0;
    for (size_t i = 0U; i < P4D_HOST_SECOND; ++i) {
      sum += (double)d.sig[0][i] * d.sig[0][i];
    }
    const double rms_db = 10.0 * log10(sum / P4D_HOST_SECOND + 1.0e-30);
    printf("# preset %s: left RMS %.1f dB\n", presets[p], rms_db);
    assert(rms_db > -40.0 && rms_db < 6.0);
  }
  p4d_dest_free(&d);
  stereo_free(&in);
  p4d_host_free(h);
}

int
main(int argc, char** argv)
{
  p4d_host_main(argc, argv);
  test_latency();
  test_alignment();
  test_blocks_and_buffers(false);
  test_blocks_and_buffers(true);
  test_hostile_input();
  test_bypass();
  test_relocate();
  test_presets();
  p4d_host_world_close();
  return 0;
}
