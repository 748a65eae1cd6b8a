// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "plot.h"

#include "draw.h"
#include "theme.h"

#include <math.h>

_Static_assert(P4D_MAX_CHANNELS <= P4D_THEME_CHANNELS,
               "a channel has no colour");

void
p4d_plot_init(P4dPlot*           plot,
              unsigned           n_channels,
              double             sample_rate_hz,
              int64_t            start_frame,
              int64_t            n_frames,
              const char* const* names)
{
  plot->n_channels     = n_channels;
  plot->sample_rate_hz = sample_rate_hz;
  plot->start_frame    = start_frame;
  plot->n_frames       = n_frames;
  plot->names          = names;
  for (unsigned i = 0U; i < P4D_PLOT_COLUMNS; ++i) {
    for (unsigned c = 0U; c < P4D_MAX_CHANNELS; ++c) {
      plot->low[i][c]  = INFINITY;
      plot->high[i][c] = -INFINITY;
    }
  }
}

void
p4d_plot_add(P4dPlot* plot, int64_t frame, const float* interleaved, size_t n)
{
  const unsigned nch = plot->n_channels;
  for (size_t i = 0U; i < n; ++i) {
    const int64_t at = frame + (int64_t)i - plot->start_frame;
    const size_t  col =
      (size_t)(at * (int64_t)P4D_PLOT_COLUMNS / plot->n_frames);
    for (unsigned c = 0U; c < nch; ++c) {
      const float v      = interleaved[i * nch + c];
      plot->low[col][c]  = v < plot->low[col][c] ? v : plot->low[col][c];
      plot->high[col][c] = v > plot->high[col][c] ? v : plot->high[col][c];
    }
  }
}

/// A tick from (x1, y1) to (x2, y2) and its label at (text_x, text_y).
static void
write_tick(FILE*       svg,
           const char* stroke,
           double      x1,
           double      y1,
           double      x2,
           double      y2,
           double      text_x,
           double      text_y,
           const char* anchor,
           double      label)
{
  fprintf(
    svg,
    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%g</text>\n",
    x1,
    y1,
    x2,
    y2,
    stroke,
    text_x,
    text_y,
    anchor,
    label);
}

void
p4d_plot_write(const P4dPlot* plot, FILE* svg)
{
  const P4dTheme* const theme  = &p4d_theme_paper;
  const char* const     grey   = theme->grid.css;
  const double          w      = 960.0;
  const double          h      = 480.0;
  const double          left   = 70.0;
  const double          right  = 20.0;
  const double          top    = 20.0;
  const double          bottom = 50.0;
  const double          t0 = (double)plot->start_frame / plot->sample_rate_hz;
  const double          t1 = t0 + (double)plot->n_frames / plot->sample_rate_hz;

  double lo = INFINITY;
  double hi = -INFINITY;
  for (unsigned i = 0U; i < P4D_PLOT_COLUMNS; ++i) {
    for (unsigned c = 0U; c < plot->n_channels; ++c) {
      lo = plot->low[i][c] < lo ? plot->low[i][c] : lo;
      hi = plot->high[i][c] > hi ? plot->high[i][c] : hi;
    }
  }
  p4d_draw_widen(&lo, &hi, 0.0);
  const P4dDrawAxis x_axis = p4d_draw_time_axis(t0, t1, left, w - right);
  const P4dDrawAxis y_axis = p4d_draw_value_axis(lo, hi, top, h - bottom);

  fprintf(
    svg,
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
    "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
    "<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n",
    w,
    h,
    w,
    h,
    theme->background.css);

  // Axes with ticks and labels.
  fprintf(svg,
          "<g stroke=\"%s\" fill=\"none\"><path d=\"M%.1f %.1f V%.1f "
          "H%.1f\"/></g>\n",
          grey,
          left,
          top,
          h - bottom,
          w - right);
  // The ticks step by adding, as they always did: the plot's bytes depend
  // on the sums, so neither loop counts in integers.
  const double xs = p4d_draw_tick_step(t1 - t0);
  // NOLINTNEXTLINE(cert-flp30-c,clang-analyzer-security.FloatLoopCounter)
  for (double t = ceil(t0 / xs) * xs; t <= t1 + 1e-9; t += xs) {
    const double x = p4d_draw_at(&x_axis, t);
    write_tick(svg,
               grey,
               x,
               h - bottom,
               x,
               h - bottom + 5.0,
               x,
               h - bottom + 18.0,
               "middle",
               t);
  }
  const double ys = p4d_draw_tick_step(hi - lo);
  // NOLINTNEXTLINE(cert-flp30-c,clang-analyzer-security.FloatLoopCounter)
  for (double v = ceil(lo / ys) * ys; v <= hi + 1e-12; v += ys) {
    const double y = p4d_draw_at(&y_axis, v);
    write_tick(svg,
               grey,
               left - 5.0,
               y,
               left,
               y,
               left - 8.0,
               y + 4.0,
               "end",
               fabs(v) < ys * 1e-6 ? 0.0 : v);
  }
  fprintf(svg,
          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">time (s)</text>\n"
          "<text transform=\"translate(16 %.1f) rotate(-90)\" "
          "text-anchor=\"middle\">value</text>\n",
          (left + w - right) / 2.0,
          h - 8.0,
          (top + h - bottom) / 2.0);

  // Each channel as the band between its lowest and highest value per
  // column: a curve where it moves slowly, a waveform's envelope where not.
  for (unsigned c = 0U; c < plot->n_channels; ++c) {
    fprintf(svg,
            "<path fill=\"%s\" fill-opacity=\"0.35\" stroke=\"%s\" d=\"",
            theme->channel[c].css,
            theme->channel[c].css);
    char op = 'M';
    for (unsigned i = 0U; i < P4D_PLOT_COLUMNS; ++i) {
      if (plot->high[i][c] >= plot->low[i][c]) {
        const double t = t0 + (t1 - t0) * (i + 0.5) / P4D_PLOT_COLUMNS;
        fprintf(svg,
                "%c%.2f %.2f",
                op,
                p4d_draw_at(&x_axis, t),
                p4d_draw_at(&y_axis, plot->high[i][c]));
        op = 'L';
      }
    }
    for (unsigned i = P4D_PLOT_COLUMNS; i-- > 0U;) {
      if (plot->high[i][c] >= plot->low[i][c]) {
        const double t = t0 + (t1 - t0) * (i + 0.5) / P4D_PLOT_COLUMNS;
        fprintf(svg,
                "L%.2f %.2f",
                p4d_draw_at(&x_axis, t),
                p4d_draw_at(&y_axis, plot->low[i][c]));
      }
    }
    fprintf(svg,
            "Z\"/>\n<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text>\n",
            w - right - 60.0,
            top + 14.0 * (c + 1),
            theme->channel[c].css,
            plot->names[c]);
  }
  fprintf(svg, "</svg>\n");
}
