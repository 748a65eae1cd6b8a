// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "dest.h"

#include "compare.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

P4dDest
p4d_dest_new(const P4dHost* h, size_t n)
{
  P4dDest d;
  memset(&d, 0, sizeof(d));
  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    d.sig[c] = p4d_floats_new(n, NAN);
  }
  for (uint32_t c = 0U; c < h->n_outs; ++c) {
    d.ctl[c] = p4d_floats_new(n, NAN);
  }
  return d;
}

P4dDest
p4d_dest_view(const P4dDest* d, size_t offset)
{
  P4dDest v;
  for (unsigned c = 0U; c < P4D_HOST_MAX_OUTS; ++c) {
    v.sig[c] = d->sig[c] ? d->sig[c] + offset : NULL;
    v.ctl[c] = d->ctl[c] ? d->ctl[c] + offset : NULL;
  }
  return v;
}

void
p4d_dest_free(P4dDest* d)
{
  for (unsigned c = 0U; c < P4D_HOST_MAX_OUTS; ++c) {
    free(d->sig[c]);
    free(d->ctl[c]);
  }
  memset(d, 0, sizeof(*d));
}

size_t
p4d_dest_compare(const P4dHost* h,
                 const P4dDest* a,
                 const P4dDest* b,
                 size_t         from,
                 size_t         to)
{
  size_t n = 0U;
  for (uint32_t c = 0U; c < h->n_signals; ++c) {
    n += p4d_assert_same(p4d_host_case, a->sig[c], b->sig[c], from, to);
  }
  for (uint32_t c = 0U; c < h->n_outs; ++c) {
    n +=
      p4d_assert_same_where_set(p4d_host_case, a->ctl[c], b->ctl[c], from, to);
  }
  return n;
}

const float*
p4d_dest_first(const P4dHost* h, const P4dDest* d)
{
  return h->n_signals ? d->sig[0] : d->ctl[0];
}
