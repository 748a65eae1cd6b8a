// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The LV2 glue's instantiate() when something fails: every plugin at
  sample rates that its engine (or Motion, which takes at most 768 kHz)
  refuses while the display's Mod preview engine takes them, and at good
  ones.  The glue (perlin4d.c) is included with p4d_display_new() and
  p4d_display_free() counted, so a display that a failed instantiate()
  leaves behind shows as one still alive at the end.
*/

#undef NDEBUG

#include "display.h"

#include <assert.h>
#include <stdio.h>

/// Displays created and not freed.
static int live_displays;

static P4dDisplay*
counted_display_new(const P4dKindClass* kind, double sample_rate_hz)
{
  P4dDisplay* const d = p4d_display_new(kind, sample_rate_hz);
  live_displays += d ? 1 : 0;
  return d;
}

static void
counted_display_free(P4dDisplay* display)
{
  live_displays -= display ? 1 : 0;
  p4d_display_free(display);
}

#define p4d_display_new counted_display_new
#define p4d_display_free counted_display_free
#include "perlin4d.c" // NOLINT(bugprone-suspicious-include): the glue

int
main(void)
{
  static const double rates[] = { 48000.0, 1.0e6, 500.0, 2.0e6, 96000.0 };
  unsigned            made    = 0U;
  unsigned            refused = 0U;
  for (uint32_t i = 0U; i < P4D_N_PLUGINS; ++i) {
    const LV2_Descriptor* const desc = lv2_descriptor(i);
    for (unsigned r = 0U; r < sizeof(rates) / sizeof(rates[0]); ++r) {
      LV2_Handle h = desc->instantiate(desc, rates[r], "", NULL);
      if (h) {
        ++made;
        desc->cleanup(h);
      } else {
        ++refused;
      }
      if (live_displays != 0) {
        fprintf(stderr,
                "%s at %g Hz: %s, %d display(s) left\n",
                desc->URI,
                rates[r],
                h ? "made" : "refused",
                live_displays);
      }
      assert(live_displays == 0);
    }
  }
  printf("# %u instances made and freed, %u refused, no display left\n",
         made,
         refused);
  assert(refused == 9U); // 500 Hz and 2 MHz for all, 1 MHz for Motion
  return 0;
}
