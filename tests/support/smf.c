// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "smf.h"

#include "files.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static uint32_t
be(const uint8_t* p, unsigned n)
{
  uint32_t v = 0U;
  for (unsigned i = 0U; i < n; ++i) {
    v = (v << 8U) | p[i];
  }
  return v;
}

/// A variable-length quantity at *p (at most 4 bytes), before end.
static uint32_t
vlq(const uint8_t** p, const uint8_t* end)
{
  uint32_t v = 0U;
  for (unsigned i = 0U; i < 4U; ++i) {
    assert(*p < end);
    const uint8_t b = *(*p)++;
    v               = (v << 7U) | (b & 0x7FU);
    if (!(b & 0x80U)) {
      return v;
    }
  }
  assert(!"a variable-length quantity longer than 4 bytes");
  return 0U;
}

static void
read_track(P4dSmf* s, unsigned k, const uint8_t* p, const uint8_t* end)
{
  int64_t tick    = 0;
  uint8_t running = 0U;
  bool    ended   = false;
  s->events[k] =
    (P4dSmfEvent*)calloc((size_t)(end - p) / 2U + 1U, sizeof(P4dSmfEvent));
  assert(s->events[k]);
  while (p < end) {
    assert(!ended); // nothing after the end of the track
    tick += vlq(&p, end);
    uint8_t status = *p;
    if (status & 0x80U) {
      ++p;
    } else {
      assert(running); // running status: the last channel status
      status = running;
    }
    if (status == 0xFFU) {
      const uint8_t  type = *p++;
      const uint32_t len  = vlq(&p, end);
      assert(p + len <= end);
      if (type == 0x03U) {
        assert(len < sizeof(s->name[k]));
        memcpy(s->name[k], p, len);
      } else if (type == 0x51U) {
        assert(len == 3U && k == 0U);
        s->uspq = (long)be(p, 3U);
      } else if (type == 0x58U) {
        assert(len == 4U && k == 0U);
        s->four_four = p[0] == 4U && p[1] == 2U;
      } else if (type == 0x2FU) {
        assert(len == 0U);
        s->end[k] = tick;
        ended     = true;
      }
      p += len;
    } else if (status == 0xF0U || status == 0xF7U) {
      p += vlq(&p, end);
    } else {
      running             = status;
      const unsigned kind = status & 0xF0U;
      assert(kind == 0xB0U || kind == 0xE0U); // what the Mod sends
      assert(p + 2 <= end && p[0] < 128U && p[1] < 128U);
      P4dSmfEvent* const ev = &s->events[k][s->n_events[k]++];
      ev->tick              = tick;
      ev->msg[0]            = status;
      ev->msg[1]            = p[0];
      ev->msg[2]            = p[1];
      p += 2;
    }
  }
  assert(ended);
}

P4dSmf
p4d_smf_read(const char* path)
{
  size_t         size  = 0U;
  uint8_t* const bytes = (uint8_t*)p4d_file_read(path, &size);
  P4dSmf         s;
  memset(&s, 0, sizeof(s));
  s.uspq = -1;
  assert(size >= 14U && !memcmp(bytes, "MThd", 4U) && be(bytes + 4, 4U) == 6U);
  s.format   = be(bytes + 8, 2U);
  s.n_tracks = be(bytes + 10, 2U);
  s.division = be(bytes + 12, 2U);
  assert(!(s.division & 0x8000U) && s.n_tracks <= P4D_SMF_MAX_TRACKS);
  const uint8_t* p = bytes + 14;
  for (unsigned k = 0U; k < s.n_tracks; ++k) {
    assert(p + 8 <= bytes + size && !memcmp(p, "MTrk", 4U));
    const uint32_t len = be(p + 4, 4U);
    assert(p + 8 + len <= bytes + size);
    read_track(&s, k, p + 8, p + 8 + len);
    p += 8 + len;
  }
  assert(p == bytes + size);
  free(bytes);
  return s;
}

void
p4d_smf_free(P4dSmf* s)
{
  for (unsigned k = 0U; k < P4D_SMF_MAX_TRACKS; ++k) {
    free(s->events[k]);
  }
}
