// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Part of the noise template (noise_template.h, which includes it and
  whose contract it keeps): rows, lines along x only (y, z and w fixed),
  the lines of an image.  Paths with P4D_LOOKUP32 only.

  At a high octave a row crosses an x cell every few points, so most
  blocks span two or more x cells.  As the w layers do for time, the row
  caches what each x lattice value X contributes, in a window that moves
  along the row: the gradients of its 8 (y, z, w) corners, hashed
  P4D_GROUP values of X at a time in the lanes of vectors, and of each
  corner's dot product ((g0 dx + g1 dy) + g2 dz) + g3 dw the line
  constants g0, g1 dy, g2 dz and g3 dw (exact products of a gradient
  component, 0 or +-1).  A block then needs per lane only fma(g0, dx,
  g1 dy) + g2 dz + g3 dw for each corner: the scalar kernel's operations
  in its order, the first one fused with an exact product.  Lanes in cell
  X take X as their lower x corner, lanes in cell X - 1 as their upper
  one; x is blended first, as in the scalar kernel, then y, z and w with
  fades that are line constants.  Slow rows (a whole cell per block or
  more) compute up to P4D_ROW_SHARE blocks of one cell at once, sharing
  the broadcast constants; blocks across up to P4D_W cells look each
  lane's constants up by a permute (vf_lookup_w()).
*/

#ifdef P4D_LOOKUP32

/// Always inlined: the blocks of a row are specialised for their number
/// of x values.
#  define P4D_ROW_INLINE static inline __attribute__((always_inline))

/// Cached x values of a row: two halves of P4D_GROUP consecutive values.
#  define P4D_ROW_WINDOW (2U * P4D_GROUP)

/// Blocks of a row in one x cell are computed up to this many at a time,
/// sharing their corner constants.
#  define P4D_ROW_SHARE 4U

/// The window is computed in parts of P4D_W values, as they are needed:
/// a slow row needs a few values of a half.
#  define P4D_ROW_PARTS (P4D_ROW_WINDOW / P4D_W)

/// The constants of the x values first .. first + P4D_ROW_WINDOW - 1 of a
/// row: for each (y, z, w) corner q, g0 (the x component of its gradient)
/// and g1 dy, g2 dz, g3 dw, by x value.
typedef struct {
  bool     valid;
  bool     filled[P4D_ROW_PARTS]; ///< Each part computed
  uint64_t first;                 ///< A multiple of P4D_GROUP
  float    k[8][4][P4D_ROW_WINDOW];
} RowWindow;

/// Whether a coordinate stays itself at every point of a line with step
/// s: origin + t * 0 is origin, also for +0 (+0 + -0 is +0), not for -0.
static inline bool
row_fixed(double origin, double s)
{
  return s == 0.0 && coord_ok(origin) && !(origin == 0.0 && signbit(origin));
}

/// Whether the line is a row, and if so its y, z, w constants.
static void
row_setup(Line* line)
{
  line->row = true;
  for (unsigned a = 1U; a < 4U; ++a) {
    line->row = line->row && row_fixed(line->origin[a], line->step[a]);
  }
  if (!line->row) {
    return;
  }

  for (unsigned a = 1U; a < 4U; ++a) {
    uint64_t cell = 0U;
    float    frac = 0.0f;
    split(line->origin[a], &cell, &frac);
    const float u             = fade(frac);
    line->row_d[0][a - 1U]    = frac;
    line->row_d[1][a - 1U]    = frac - 1.0f;
    line->row_u[a - 1U]       = u;
    line->row_var_s[a - 1U]   = variance_s(u);
    line->row_var_t[a - 1U]   = variance_t(frac, frac - 1.0f, u);
    line->row_cell[0][a - 1U] = cell_wrap(cell, line->period[a]);
    line->row_cell[1][a - 1U] = cell_wrap(cell + 1U, line->period[a]);
  }
}

/// Compute part h of the window.
static void
row_fill(const Line* line, RowWindow* win, unsigned h)
{
  const uint64_t first = win->first + (uint64_t)h * P4D_W;
  win->filled[h]       = true;
  VI lo;
  VI hi;
  if (line->period[0] != 0U) {
    // A tile: the values wrap anywhere in the part.
    // Consecutive values: one division, then steps.
    uint32_t wrapped_lo[P4D_W];
    uint32_t wrapped_hi[P4D_W];
    uint64_t c = cell_wrap(first, line->period[0]);
    for (unsigned i = 0U; i < P4D_W; ++i) {
      wrapped_lo[i] = cell_lo(c);
      wrapped_hi[i] = cell_hi(c);
      c             = c + 1U == line->period[0] ? 0U : c + 1U;
    }
    lo = vi_load(wrapped_lo);
    hi = vi_load(wrapped_hi);
  } else {
    // A part never straddles a multiple of 2^32.
    lo = vi_add(vi_set1(cell_lo(first)), vi_lane_index());
    hi = vi_set1(cell_hi(first));
  }

  // The chain through x, then the (y, z, w) corners: h[q], bit k - 1 of
  // q set on the upper side of axis k.
  VI hash[8];
  hash[0] = vi_link(vi_set1(line->key), lo, hi, hash_mul[0]);
  P4D_UNROLL
  for (unsigned k = 1U, n = 1U; k < 4U; ++k, n <<= 1U) {
    const uint64_t at = line->row_cell[0][k - 1U];
    const uint64_t up = line->row_cell[1][k - 1U];
    P4D_UNROLL
    for (unsigned i = n; i-- > 0U;) {
      hash[i + n] = vi_link(
        hash[i], vi_set1(cell_lo(up)), vi_set1(cell_hi(up)), hash_mul[k]);
      hash[i] = vi_link(
        hash[i], vi_set1(cell_lo(at)), vi_set1(cell_hi(at)), hash_mul[k]);
    }
  }

  const unsigned at = h * P4D_W;
  P4D_UNROLL
  for (unsigned q = 0U; q < 8U; ++q) {
    const VI g = vi_leaf(hash[q]);
    vf_store(&win->k[q][0][at], vf_lookup32(gradient_column[0], g));
    P4D_UNROLL
    for (unsigned a = 1U; a < 4U; ++a) {
      const float d = line->row_d[(q >> (a - 1U)) & 1U][a - 1U];
      vf_store(&win->k[q][a][at],
               vf_mul(vf_lookup32(gradient_column[a], g), vf_set1(d)));
    }
  }
}

/// Make the window hold the x values x0 .. x_top (x_top - x0 <=
/// P4D_GROUP), moving it forwards along the row or starting it afresh.
static inline void
row_window(const Line* line, RowWindow* win, uint64_t x0, uint64_t x_top)
{
  const uint64_t first = x0 & ~(uint64_t)(P4D_GROUP - 1U);
  if (!win->valid || first != win->first) {
    const unsigned half = P4D_ROW_PARTS / 2U;
    if (win->valid && first == win->first + P4D_GROUP) {
      // The row moved on by a half: the upper half becomes the lower.
      for (unsigned h = 0U; h < half; ++h) {
        win->filled[h] = win->filled[h + half];
        if (win->filled[h]) {
          for (unsigned q = 0U; q < 8U; ++q) {
            for (unsigned a = 0U; a < 4U; ++a) {
              memcpy(win->k[q][a] + (size_t)h * P4D_W,
                     win->k[q][a] + (size_t)(h + half) * P4D_W,
                     sizeof(float) * P4D_W);
            }
          }
        }
      }
    } else {
      for (unsigned h = 0U; h < half; ++h) {
        win->filled[h] = false;
      }
    }
    for (unsigned h = half; h < P4D_ROW_PARTS; ++h) {
      win->filled[h] = false;
    }
    win->first = first;
    win->valid = true;
  }
  for (unsigned h = (unsigned)(x0 - first) / P4D_W;
       h <= (unsigned)(x_top - first) / P4D_W;
       ++h) {
    if (!win->filled[h]) {
      row_fill(line, win, h);
    }
  }
}

/// The dot product of (y, z, w) corner q of the x value at index i of
/// the window, for x offsets dx.
P4D_ROW_INLINE VF
row_dot(const RowWindow* win, unsigned i, unsigned q, VF dx)
{
  const VF acc = vf_fma(vf_set1(win->k[q][0][i]), dx, vf_set1(win->k[q][1][i]));
  return vf_add(vf_add(acc, vf_set1(win->k[q][2][i])),
                vf_set1(win->k[q][3][i]));
}

/// From the x offsets f of the P4D_W lanes of a row, f1 = f - 1, fade u
/// and variance var_t, as block_row() computes them.
P4D_ROW_INLINE void
row_lanes_fade(const Line* line, VF f, VF* f1, VF* u, VF* var_t)
{
  *f1          = vf_sub(f, vf_set1(1.0f));
  *u           = vf_fade(f);
  VF var_p     = vf_variance_s(*u);
  *var_t       = vf_variance_t(f, *f1, *u);
  bool started = true;
  for (unsigned a = 0U; a < 3U; ++a) {
    vf_variance_fold(&started,
                     &var_p,
                     var_t,
                     vf_set1(line->row_var_s[a]),
                     vf_set1(line->row_var_t[a]));
  }
}

/// The x offsets f, f1 = f - 1, fade u and variance var_t of the P4D_W
/// lanes at times t_lo, t_hi of a row, as block_row() computes them; the
/// low halves of the lanes' cells in *c.
P4D_ROW_INLINE void
row_lanes(const Line* line,
          VD          t_lo,
          VD          t_hi,
          VF*         f,
          VF*         f1,
          VF*         u,
          VF*         var_t,
          VI*         c)
{
  VD lo;
  VD hi;
  VI c_hi;
  coords(line, 0U, t_lo, t_hi, &lo, &hi);
  vsplit(lo, hi, f, c, &c_hi);
  (void)c_hi;
  row_lanes_fade(line, *f, f1, u, var_t);
}

/// row_lanes() for lanes known to lie in x cell x0: their floor is x0, so
/// each offset is the coordinate minus x0, as split() subtracts it.
P4D_ROW_INLINE void
row_lanes_cell(const Line* line,
               VD          t_lo,
               VD          t_hi,
               uint64_t    x0,
               VF*         f,
               VF*         f1,
               VF*         u,
               VF*         var_t)
{
  VD lo;
  VD hi;
  coords(line, 0U, t_lo, t_hi, &lo, &hi);
  const VD fl = vd_set1((double)(int64_t)x0);
  *f          = vf_from_halves(vd_sub(lo, fl), vd_sub(hi, fl));
  row_lanes_fade(line, *f, f1, u, var_t);
}

/**
   The x blend of (y, z, w) corner q for lanes in x cells x0 .. x0 + n_x -
   2 (so that their corners are the x values x0 .. x0 + n_x - 1, at index
   i0 .. of the window), with x offsets f, fade u, and for each x value j
   the lanes in cell x0 + j and their x offsets to value j.
*/
P4D_ROW_INLINE VF
row_blend_x(const RowWindow* win,
            unsigned         i0,
            unsigned         n_x,
            unsigned         q,
            VF               f,
            VF               u,
            const VM         in_cell[],
            const VF         dx[])
{
  VF lower = row_dot(win, i0, q, f);
  VF upper = lower;
  P4D_UNROLL
  for (unsigned j = 1U; j < n_x; ++j) {
    const VF d = row_dot(win, i0 + j, q, dx[j]);
    lower      = vf_blend(in_cell[j], lower, d);
    upper      = vf_blend(in_cell[j - 1U], upper, d);
  }
  return vf_lerp(u, lower, upper);
}

/// The x blends of (y, z, w) corner q of a helper's blocks, into v[b].
typedef void (*RowBlendX)(const void* ctx, unsigned q, VF v[]);

/**
   The y, z, w blend of nb (1 .. P4D_ROW_SHARE) blocks of a row, as the
   scalar kernel blends them (y, then z, then w, with the row's fades), then
   normalised with var_t, into r: blend_x(ctx, q, v) gives each block's x
   blend of (y, z, w) corner q.  Each pair of corners is blended as soon as
   both are known, so that few values stay live in the registers; inlined
   with its callback, as if written out at each call.
*/
P4D_ROW_INLINE void
row_blend_yzw(const Line* line,
              RowBlendX   blend_x,
              const void* ctx,
              unsigned    nb,
              const VF    var_t[],
              VF          r[])
{
  VF zw[2][P4D_ROW_SHARE];
  P4D_UNROLL
  for (unsigned w = 0U; w < 2U; ++w) {
    VF yz[2][P4D_ROW_SHARE];
    P4D_UNROLL
    for (unsigned z = 0U; z < 2U; ++z) {
      VF xy[2][P4D_ROW_SHARE];
      P4D_UNROLL
      for (unsigned y = 0U; y < 2U; ++y) {
        blend_x(ctx, y | z << 1U | w << 2U, xy[y]);
      }
      const VF uy = vf_set1(line->row_u[0]);
      P4D_UNROLL
      for (unsigned b = 0U; b < nb; ++b) {
        yz[z][b] = vf_lerp(uy, xy[0][b], xy[1][b]);
      }
    }
    const VF uz = vf_set1(line->row_u[1]);
    P4D_UNROLL
    for (unsigned b = 0U; b < nb; ++b) {
      zw[w][b] = vf_lerp(uz, yz[0][b], yz[1][b]);
    }
  }
  const VF uw = vf_set1(line->row_u[2]);
  P4D_UNROLL
  for (unsigned b = 0U; b < nb; ++b) {
    r[b] = vf_normalise(vf_lerp(uw, zw[0][b], zw[1][b]), var_t[b]);
  }
}

/// What block_row_lookup()'s x blends read.
typedef struct {
  VF               f;
  VF               f1;
  VF               u;
  VI               j;
  const RowWindow* win;
  unsigned         i0;
} RowLookup;

/// A RowBlendX: each lane's lower and upper constants looked up.
P4D_ROW_INLINE void
row_x_lookup(const void* ctx, unsigned q, VF v[])
{
  const RowLookup* const c = (const RowLookup*)ctx;
  VF                     k[2][4];
  P4D_UNROLL
  for (unsigned a = 0U; a < 4U; ++a) {
    k[0][a] = vf_lookup_w(&c->win->k[q][a][c->i0], c->j);
    k[1][a] = vf_lookup_w(&c->win->k[q][a][c->i0 + 1U], c->j);
  }
  const VF lower =
    vf_add(vf_add(vf_fma(k[0][0], c->f, k[0][1]), k[0][2]), k[0][3]);
  const VF upper =
    vf_add(vf_add(vf_fma(k[1][0], c->f1, k[1][1]), k[1][2]), k[1][3]);
  v[0] = vf_lerp(c->u, lower, upper);
}

/**
   A block of a row whose lanes, with x offsets f, f1 = f - 1, fade u,
   variance var_t and low halves of their cells c, lie in x cells x0 .. x0
   + P4D_W - 1 (at most): each lane looks up its lower corner's constants
   at its cell's index in the window and its upper corner's at the next,
   so the dot products are those of block_row_cell(), per lane.  The
   window holds the x values x0 .. x0 + P4D_W, which the lookups read.
*/
P4D_ROW_INLINE VF
block_row_lookup(const Line* line,
                 RowWindow*  win,
                 uint64_t    x0,
                 VF          f,
                 VF          f1,
                 VF          u,
                 VF          var_t,
                 VI          c)
{
  row_window(line, win, x0, x0 + P4D_W);
  const RowLookup ctx = {
    f,   f1,
    u,   vi_add(c, vi_set1(0U - cell_lo(x0))),
    win, (unsigned)(x0 - win->first),
  };
  VF r;
  row_blend_yzw(line, row_x_lookup, &ctx, 1U, &var_t, &r);
  return r;
}

/// What block_row()'s x blends read.
typedef struct {
  VF               f;
  VF               u;
  const VM*        in_cell;
  const VF*        dx;
  const RowWindow* win;
  unsigned         i0;
  unsigned         n_x;
} RowBlends;

/// A RowBlendX: each lane picks its corners' dot products by blends.
P4D_ROW_INLINE void
row_x_blends(const void* ctx, unsigned q, VF v[])
{
  const RowBlends* const c = (const RowBlends*)ctx;
  v[0] = row_blend_x(c->win, c->i0, c->n_x, q, c->f, c->u, c->in_cell, c->dx);
}

/**
   A block of a row whose points lie in x cells x0 .. x0 + n_x - 2 (so
   that its corners are the x values x0 .. x0 + n_x - 1), 3 <= n_x <=
   P4D_GROUP + 1: block_row_lookup() if n_x <= P4D_W + 1, else each lane
   picks its corners' dot products by blends.  As in block_row_cell(),
   corner pairs are blended as soon as both are known.
*/
static VF
block_row(const Line* line,
          RowWindow*  win,
          VD          t_lo,
          VD          t_hi,
          uint64_t    x0,
          unsigned    n_x)
{
  VF f;
  VF f1;
  VF u;
  VF var_t;
  VI c;
  row_lanes(line, t_lo, t_hi, &f, &f1, &u, &var_t, &c);

  if (n_x <= P4D_W + 1U) {
    return block_row_lookup(line, win, x0, f, f1, u, var_t, c);
  }

  // Lanes in cell x0 + j see value j as their lower corner, lanes in cell
  // x0 + j - 1 as their upper one.  A block spans fewer than 2^32 cells,
  // so the low halves tell them apart.
  VM in_cell[P4D_GROUP + 1U];
  VF dx[P4D_GROUP + 1U];
  P4D_UNROLL
  for (unsigned j = 0U; j < n_x; ++j) {
    in_cell[j] = vi_eq(c, vi_set1(cell_lo(x0 + j)));
    dx[j]      = vf_blend(in_cell[j], f1, f);
  }
  row_window(line, win, x0, x0 + n_x - 1U);
  const RowBlends ctx = {
    f, u, in_cell, dx, win, (unsigned)(x0 - win->first), n_x,
  };
  VF r;
  row_blend_yzw(line, row_x_blends, &ctx, 1U, &var_t, &r);
  return r;
}

/// What block_row_cell()'s x blends read: nb blocks' lanes.
typedef struct {
  VF               f[P4D_ROW_SHARE];
  VF               f1[P4D_ROW_SHARE];
  VF               u[P4D_ROW_SHARE];
  const RowWindow* win;
  unsigned         i0;
  unsigned         nb;
} RowCell;

/// A RowBlendX: the cell's two x values' constants, broadcast once for
/// the nb blocks.
P4D_ROW_INLINE void
row_x_cell(const void* ctx, unsigned q, VF v[])
{
  const RowCell* const c = (const RowCell*)ctx;
  VF                   k[2][4];
  P4D_UNROLL
  for (unsigned a = 0U; a < 4U; ++a) {
    k[0][a] = vf_set1(c->win->k[q][a][c->i0]);
    k[1][a] = vf_set1(c->win->k[q][a][c->i0 + 1U]);
  }
  P4D_UNROLL
  for (unsigned b = 0U; b < c->nb; ++b) {
    const VF lower =
      vf_add(vf_add(vf_fma(k[0][0], c->f[b], k[0][1]), k[0][2]), k[0][3]);
    const VF upper =
      vf_add(vf_add(vf_fma(k[1][0], c->f1[b], k[1][1]), k[1][2]), k[1][3]);
    v[b] = vf_lerp(c->u[b], lower, upper);
  }
}

/**
   nb (1 .. P4D_ROW_SHARE) consecutive blocks of a row from time t_first,
   of m points (P4D_W if nb > 1), every point in x cell x0, into out: their
   corners are the x values x0 and x0 + 1, whose constants the blocks share. The
   scalar kernel's operations on the same values, but each pair of corners is
   blended as soon as both are known (x, then y, z, w as in blend()), so that
   few values stay live in the registers.
*/
P4D_ROW_INLINE void
block_row_cell(const Line* line,
               RowWindow*  win,
               double      t_first,
               uint64_t    x0,
               unsigned    nb,
               size_t      m,
               float*      out)
{
  RowCell ctx;
  VF      var_t[P4D_ROW_SHARE];
  P4D_UNROLL
  for (unsigned b = 0U; b < nb; ++b) {
    const VD t0 = vd_set1(t_first + (double)(b * P4D_W));
    row_lanes_cell(line,
                   vd_add(t0, vd_lane_times(0U, m)),
                   vd_add(t0, vd_lane_times(1U, m)),
                   x0,
                   &ctx.f[b],
                   &ctx.f1[b],
                   &ctx.u[b],
                   &var_t[b]);
  }

  row_window(line, win, x0, x0 + 1U);
  ctx.win = win;
  ctx.i0  = (unsigned)(x0 - win->first);
  ctx.nb  = nb;
  VF r[P4D_ROW_SHARE];
  row_blend_yzw(line, row_x_cell, &ctx, nb, var_t, r);
  P4D_UNROLL
  for (unsigned b = 0U; b < nb; ++b) {
    // Straight to out: a copy through an array of nb vectors became a
    // rep movs, slow to start, its loads over fresh stores.
    block_store(r[b], m, out + (size_t)b * P4D_W);
  }
}

/// Rows whose x cells are at least this many points wide find where each
/// cell ends (row_cell_end()), so that its blocks need no further checks.
#  define P4D_ROW_WIDE_CELL (2U * P4D_ROW_SHARE * P4D_W)

/**
   The last point of a row (step > 0) in x cell a, from its point t in it:
   the greatest k >= t whose x, computed as the blocks compute it
   (origin + k step, in doubles: monotonic in k), is below a + 1.  The
   division only guesses; the points' own coordinates decide.
*/
static int64_t
row_cell_end(const Line* line, int64_t t, double a)
{
  const double o     = line->origin[0];
  const double s     = line->step[0];
  const double top   = a + 1.0;
  const double guess = floor((top - o) / s);
  int64_t      k     = t;
  if (guess > (double)t) {
    k = guess < (double)t + 1048576.0 ? (int64_t)guess : t + 1048576;
  }
  while (k - t < 1048576 && o + (double)(k + 1) * s < top) {
    ++k;
  }
  while (k > t && !(o + (double)k * s < top)) {
    --k;
  }
  return k;
}

/// Points first .. first + n - 1 of a row into out, P4D_W at a time.
static void
row_span(const Line* line, int64_t first, float* out, size_t n)
{
  RowWindow win;
  win.valid = false;
  // Wide cells: the cell found last, and its last point (none yet).
  const bool wide =
    line->step[0] > 0.0 && line->step[0] * (double)P4D_ROW_WIDE_CELL <= 1.0;
  uint64_t cell_x   = 0U;
  int64_t  cell_end = INT64_MIN;
  for (size_t i = 0U; i < n; i += P4D_W) {
    const size_t  m  = n - i < P4D_W ? n - i : P4D_W;
    const int64_t t0 = first + (int64_t)i;
    if (n - i >= (size_t)P4D_ROW_SHARE * P4D_W &&
        t0 + (int64_t)(P4D_ROW_SHARE * P4D_W) - 1 <= cell_end) {
      // The next blocks lie in the cell found last (the row moves forwards).
      block_row_cell(
        line, &win, (double)t0, cell_x, P4D_ROW_SHARE, P4D_W, out + i);
      i += (size_t)(P4D_ROW_SHARE - 1U) * P4D_W;
      continue;
    }
    const double t_first = (double)t0;
    const double t_last  = (double)(t0 + (int64_t)m - 1);
    const double p_first = line->origin[0] + t_first * line->step[0];
    const double p_last  = line->origin[0] + t_last * line->step[0];
    if (!coord_ok(p_first) || !coord_ok(p_last)) {
      p4d_noise_span_scalar(
        line->key, line->origin, line->step, t0, out + i, m, line->period);
      continue;
    }

    // A line is monotonic, so its ends bound the block's cells.
    const VD     t_lo = vd_add(vd_set1(t_first), vd_lane_times(0U, m));
    const VD     t_hi = vd_add(vd_set1(t_first), vd_lane_times(1U, m));
    const double a    = floor(p_first) + 0.0;
    const double b    = floor(p_last) + 0.0;
    if (a == b) {
      if (wide && t0 > cell_end && coord_ok(a + 1.0)) {
        cell_x   = (uint64_t)(int64_t)a;
        cell_end = row_cell_end(line, t0, a);
      }
      // One x cell: with the next blocks too if they share it.
      unsigned nb = 1U;
      if (m == P4D_W) {
        for (unsigned k = P4D_ROW_SHARE; k > 1U; k /= 2U) {
          if (n - i < (size_t)k * P4D_W) {
            continue;
          }
          const double p_next =
            line->origin[0] +
            (double)(t0 + (int64_t)(k * P4D_W) - 1) * line->step[0];
          if (coord_ok(p_next) && floor(p_next) + 0.0 == a) {
            nb = k;
            break;
          }
        }
      }
      const uint64_t x0 = (uint64_t)(int64_t)a;
      if (nb == 4U) {
        block_row_cell(line, &win, t_first, x0, 4U, P4D_W, out + i);
      } else if (nb == 2U) {
        block_row_cell(line, &win, t_first, x0, 2U, P4D_W, out + i);
      } else {
        block_row_cell(line, &win, t_first, x0, 1U, m, out + i);
      }
      i += (size_t)(nb - 1U) * P4D_W;
      continue;
    }
    const double n_x = fabs(b - a) + 2.0;
    const VF     r   = n_x <= (double)(P4D_GROUP + 1U)
                         ? block_row(line,
                               &win,
                               t_lo,
                               t_hi,
                               (uint64_t)(int64_t)(a < b ? a : b),
                               (unsigned)n_x)
                         : block_lanes(line, t_lo, t_hi);
    block_store(r, m, out + i);
  }
}

#else

static void
row_setup(Line* line)
{
  line->row = false;
}

static void
row_span(const Line* line, int64_t first, float* out, size_t n)
{
  (void)line;
  (void)first;
  (void)out;
  (void)n;
}

#endif
