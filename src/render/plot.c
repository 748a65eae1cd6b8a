// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

#include "plot.h"

#include <math.h>

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

/// Round v to a "nice" step: 1, 2 or 5 times a power of ten.
static double
nice_step(double span)
{
  const double raw  = span / 5.0;
  const double base = pow(10.0, floor(log10(raw)));
  return raw / base < 2.0 ? base : raw / base < 5.0 ? 2.0 * base : 5.0 * base;
}

/// A tick from (x1, y1) to (x2, y2) and its label at (text_x, text_y).
static void
write_tick(FILE*       svg,
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
    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>"
    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%g</text>\n",
    x1,
    y1,
    x2,
    y2,
    text_x,
    text_y,
    anchor,
    label);
}

void
p4d_plot_write(const P4dPlot* plot, FILE* svg)
{
  static const char* const colours[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd"
  };
  const double w      = 960.0;
  const double h      = 480.0;
  const double left   = 70.0;
  const double right  = 20.0;
  const double top    = 20.0;
  const double bottom = 50.0;
  const double t0     = (double)plot->start_frame / plot->sample_rate_hz;
  const double t1     = t0 + (double)plot->n_frames / plot->sample_rate_hz;

  double lo = INFINITY;
  double hi = -INFINITY;
  for (unsigned i = 0U; i < P4D_PLOT_COLUMNS; ++i) {
    for (unsigned c = 0U; c < plot->n_channels; ++c) {
      lo = plot->low[i][c] < lo ? plot->low[i][c] : lo;
      hi = plot->high[i][c] > hi ? plot->high[i][c] : hi;
    }
  }
  if (!(hi > lo)) {
    lo -= 0.5;
    hi += 0.5;
  }

#define X(t) (left + ((t)-t0) / (t1 - t0) * (w - left - right))
#define Y(v) (top + (hi - (v)) / (hi - lo) * (h - top - bottom))

  fprintf(
    svg,
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
    "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
    "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
    w,
    h,
    w,
    h);

  // Axes with ticks and labels.
  fprintf(svg,
          "<g stroke=\"#444\" fill=\"none\"><path d=\"M%.1f %.1f V%.1f "
          "H%.1f\"/></g>\n",
          left,
          top,
          h - bottom,
          w - right);
  // The ticks step by adding, as they always did: the plot's bytes depend
  // on the sums, so neither loop counts in integers.
  const double xs = nice_step(t1 - t0);
  // NOLINTNEXTLINE(cert-flp30-c,clang-analyzer-security.FloatLoopCounter)
  for (double t = ceil(t0 / xs) * xs; t <= t1 + 1e-9; t += xs) {
    write_tick(svg,
               X(t),
               h - bottom,
               X(t),
               h - bottom + 5.0,
               X(t),
               h - bottom + 18.0,
               "middle",
               t);
  }
  const double ys = nice_step(hi - lo);
  // NOLINTNEXTLINE(cert-flp30-c,clang-analyzer-security.FloatLoopCounter)
  for (double v = ceil(lo / ys) * ys; v <= hi + 1e-12; v += ys) {
    write_tick(svg,
               left - 5.0,
               Y(v),
               left,
               Y(v),
               left - 8.0,
               Y(v) + 4.0,
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
            colours[c],
            colours[c]);
    char op = 'M';
    for (unsigned i = 0U; i < P4D_PLOT_COLUMNS; ++i) {
      if (plot->high[i][c] >= plot->low[i][c]) {
        const double t = t0 + (t1 - t0) * (i + 0.5) / P4D_PLOT_COLUMNS;
        fprintf(svg, "%c%.2f %.2f", op, X(t), Y(plot->high[i][c]));
        op = 'L';
      }
    }
    for (unsigned i = P4D_PLOT_COLUMNS; i-- > 0U;) {
      if (plot->high[i][c] >= plot->low[i][c]) {
        const double t = t0 + (t1 - t0) * (i + 0.5) / P4D_PLOT_COLUMNS;
        fprintf(svg, "L%.2f %.2f", X(t), Y(plot->low[i][c]));
      }
    }
    fprintf(svg,
            "Z\"/>\n<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text>\n",
            w - right - 60.0,
            top + 14.0 * (c + 1),
            colours[c],
            plot->names[c]);
  }
  fprintf(svg, "</svg>\n");
#undef X
#undef Y
}
