// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "theme.h"

const P4dTheme p4d_theme_dark = {
  { 0xFF1F2227U, "#1f2227" },
  { 0xFF15171BU, "#15171b" },
  { 0xFF3A3F47U, "#3a3f47" },
  { 0xFFE8E8E8U, "#e8e8e8" },
  {
    { P4D_THEME_DARK_1, "#f0a030" },
    { P4D_THEME_DARK_2, "#40c0f0" },
    { P4D_THEME_DARK_3, "#80d060" },
    { P4D_THEME_DARK_4, "#e070d0" },
  },
};

// The plot's channels are matplotlib's first four ("tab10"), which a
// reader of plots knows; the axes are #444 on white.
const P4dTheme p4d_theme_paper = {
  { 0xFFFFFFFFU, "white" },
  { 0xFFFFFFFFU, "white" },
  { 0xFF444444U, "#444" },
  { 0xFF444444U, "#444" },
  {
    { 0xFF1F77B4U, "#1f77b4" }, // blue
    { 0xFFD62728U, "#d62728" }, // red
    { 0xFF2CA02CU, "#2ca02c" }, // green
    { 0xFF9467BDU, "#9467bd" }, // purple
  },
};

uint32_t
p4d_theme_dim(uint32_t argb)
{
  const uint32_t r = (argb >> 16U) & 0xFFU;
  const uint32_t g = (argb >> 8U) & 0xFFU;
  const uint32_t b = argb & 0xFFU;
  return 0xFF000000U | ((r * 9U / 16U) << 16U) | ((g * 9U / 16U) << 8U) |
         (b * 9U / 16U);
}
