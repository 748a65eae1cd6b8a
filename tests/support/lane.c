// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#undef NDEBUG

#include "lane.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void
p4d_lane_parse(const char* arg, P4dTestLane* lane)
{
  const char* eq = strchr(arg, '=');
  assert(eq && (size_t)(eq - arg) < sizeof(lane->symbol));
  memset(lane, 0, sizeof(*lane));
  memcpy(lane->symbol, arg, (size_t)(eq - arg));
  for (const char* p = eq + 1; *p;) {
    char* end = NULL;
    assert(lane->n < P4D_LANE_MAX_POINTS);
    lane->time_s[lane->n] = strtod(p, &end);
    assert(*end == ':');
    lane->value[lane->n++] = (float)strtod(end + 1, &end);
    assert(*end == ',' || !*end);
    p = *end ? end + 1 : end;
  }
}

float
p4d_lane_at(const P4dTestLane* lane, double t_s)
{
  if (t_s <= lane->time_s[0]) {
    return lane->value[0];
  }
  for (unsigned k = 1U; k < lane->n; ++k) {
    if (lane->time_s[k] >= t_s) {
      const double u =
        (t_s - lane->time_s[k - 1U]) / (lane->time_s[k] - lane->time_s[k - 1U]);
      return (float)(lane->value[k - 1U] +
                     (lane->value[k] - lane->value[k - 1U]) * u);
    }
  }
  return lane->value[lane->n - 1U];
}
