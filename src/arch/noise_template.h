// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The template of the vector paths of p4d_noise4_span(): written once for
  P4D_W lanes, instantiated once per instruction set.  A path is a file
  (src/arch/x86/avx2.c, avx512.c) that defines the contract below and then
  includes this file, which defines the path's span, noise_span() (a
  P4dSpan of kernel.h), and its points, noise_points() (a P4dPoints;
  noise_lanes_template.h), for its table.  See doc/vector-code.md.

  The contract.  Before including this file, a path defines:

    P4D_W                       lanes per vector: 8 or 16 (a power of two
                                that divides P4D_GROUP, 16)
    P4D_LOOKUP32                optional: vf_lookup32() exists, so blocks
                                that span several x, y or z cells are
                                vectorised too (otherwise they go to the
                                scalar kernel)
    P4D_LAYERS_MAX              optional: most w layers a block blends
                                (default 8, at most P4D_GROUP)

    VF   P4D_W floats           VI   P4D_W uint32_t
    VD   P4D_W / 2 doubles      VM   a mask of P4D_W lanes
         (half a block)

  and these static inline functions, each lane by lane, with the scalar
  kernel's rounding (no fused operation but vf_fma()):

    VF   vf_set1(float a)                   every lane a
    VF   vf_add(VF a, VF b)                 a + b
    VF   vf_sub(VF a, VF b)                 a - b
    VF   vf_mul(VF a, VF b)                 a * b
    VF   vf_div(VF a, VF b)                 a / b
    VF   vf_sqrt(VF a)                      square root
    VF   vf_fma(VF a, VF b, VF c)           a * b + c, one rounding (used
                                            only where a * b is exact)
    VF   vf_blend(VM m, VF a, VF b)         b in the lanes of m, a elsewhere
    VF   vf_clamp1(VF x)                    x clamped into [-1, 1]
    void vf_store(float* p, VF x)           P4D_W floats to p, unaligned
    VF   vf_from_halves(VD lo, VD hi)       lanes lo then hi, each rounded
                                            to float
    VF   vf_lookup32(const float t[32], VI i)  t[i], only with
                                            P4D_LOOKUP32
    VF   vf_lookup_w(const float t[P4D_W], VI i)  t[i] for i < P4D_W
                                            (one permute), only with
                                            P4D_LOOKUP32
    VI   vi_add_masked(VI a, VM m, VI b)    a + b in the lanes of m, a
                                            elsewhere; only with
                                            P4D_LOOKUP32
    VI   vi_lookup32_halves(const uint32_t lo[16], const uint32_t hi[16],
                            VI i)           lo[i] for i < 16, else
                                            hi[i - 16]; only with
                                            P4D_LOOKUP32
    VI   vi_load(const uint32_t* p)         P4D_W values from p, unaligned;
                                            only with P4D_LOOKUP32
    VD   vd_load(const double* p)           P4D_W / 2 values from p,
                                            unaligned
    VI   vi_set1(uint32_t a)                every lane a
    VI   vi_add(VI a, VI b)                 a + b modulo 2^32
    VI   vi_xor(VI a, VI b)                 a ^ b
    VI   vi_srl(VI a, unsigned n)           a >> n, logical
    VI   vi_mullo(VI a, VI b)               a * b modulo 2^32
    void vi_store(uint32_t* p, VI x)        P4D_W values to p, unaligned
    VI   vi_lane_index(void)                0, 1, ..., P4D_W - 1
    VM   vi_eq(VI a, VI b)                  the lanes where a == b
    VM   vm_none(void)                      no lane
    VD   vd_set1(double a)                  every lane a
    VD   vd_add(VD a, VD b)                 a + b
    VD   vd_sub(VD a, VD b)                 a - b
    VD   vd_mul(VD a, VD b)                 a * b
    VD   vd_floor(VD a)                     floor(a)
    VDM  vd_lt(VD a, VD b), vd_eq           the lanes where a < b, a == b
    VD   vd_blend(VDM m, VD a, VD b)        b in the lanes of m, a
                                            elsewhere
    VD   vd_lane_times(unsigned h, size_t n)  the lane offsets of half h
                                            (0 or 1) of a block of n
                                            points, min(h * P4D_W / 2 +
                                            lane, n - 1): the last point
                                            repeats
    void vsplit(VD lo, VD hi, VF* frac, VI* cell, VI* cell_hi)
                                            split() of every lane of lo
                                            then hi: the fraction and the
                                            low and high 32 bits of the
                                            64-bit cell, for |v| < 2^51

  test_paths proves every path bit-identical to the scalar one; a new path
  is a table of its own (doc/vector-code.md).

  How it works.  A lane is one point of the line.  Every lane does exactly
  the scalar kernel's arithmetic (noise.c) in the same order, so every path
  gives the same bits.  These tricks make that fast without changing a bit:

  - Layers.  Gradients depend only on the cell.  Where a block's points
    share their x, y and z cells (lines in the engines move slowly in space
    and fast in time), the block spans a few cells of w, and the gradients
    of each w layer are block constants: the kernel blends each layer's
    8 corners for every lane with broadcast gradients, and each lane keeps
    the layers below and above it.  Layers are cached across blocks.  When
    x, y and z are constant (the Mod's lines) even the first three terms of
    each dot product are constants.

  - Fixed axes.  The variance terms (noise.c) of an axis that does not move
    along the line are line constants, computed once by the scalar code and
    broadcast; when x, y and z are all fixed, so is their fold.

  - Gathered layers.  Where a block spans many w layers (fast octaves),
    blending every layer in every lane wastes most of the work: with
    P4D_LOOKUP32 each lane instead picks its own 16 corners'
    gradients from the cached layers and blends only those.

  - Rows.  A line along x only (an image row) caches each x lattice
    value's corner gradients and constant products in a window that moves
    along the row (noise_row_template.h; with P4D_LOOKUP32).

  - Per-lane gradients.  Otherwise every lane hashes its own corners, where
    the path can look up a gradient per lane (P4D_LOOKUP32); a path
    that cannot leaves such blocks to the scalar kernel.

  Periodic axes (a w period for loops, x, y, z periods for tiles) wrap
  their cells before the hash: the x, y, z cell of the cached layers is
  wrapped when its chain is hashed, each layer group hashes its 16 wrapped
  w cells in scalar code, and per-lane hashing wraps each lane's cells in
  vector code (lanes_wrap()); the aperiodic path is untouched.

  The fused multiply-adds multiply by a gradient component, 0 or +-1, so the
  product is exact and the single rounding is the sum's: the same bits as
  the scalar kernel's multiply and add.  Nothing else is fused.
*/

#include "kernel.h"

#include <stdbool.h>
#include <string.h>

/// Most w layers a block blends; a block that spans more w cells costs more
/// this way than hashing per lane.  At most P4D_GROUP, so that a block's
/// layers lie in the two cached groups.
#ifndef P4D_LAYERS_MAX
#  define P4D_LAYERS_MAX 8U
#endif

/// Keep a rarely taken function out of its hot caller, or inline one into
/// each caller, where its constant arguments fold (GCC and clang).
#define P4D_NOINLINE __attribute__((noinline))
#define P4D_INLINE inline __attribute__((always_inline))

/// Layers hashed together, in the lanes of vectors (a power of two).
#define P4D_GROUP 16U

/// What a line's blocks share.
typedef struct {
  uint32_t key;
  uint64_t period[4]; ///< Cells per period of each axis, 0: aperiodic
  double   origin[4];
  double   step[4];
  bool     fixed[3];       ///< Axis x, y or z does not move along the line
  bool     fixed_xyz;      ///< None of x, y, z moves
  float    frac[3];        ///< Fraction on a fixed axis
  float    fade[3];        ///< fade() of the fraction on a fixed axis
  double   floor[3];       ///< Cell on a fixed axis, as cell_floor() gives it
  float    var_s[3];       ///< variance_s() of a fixed axis
  float    var_t[3];       ///< variance_t() of a fixed axis
  float    xyz_p;          ///< Variance fold of x, y, z: p (when fixed_xyz)
  float    xyz_t;          ///< Variance fold of x, y, z: t (when fixed_xyz)
  bool     one_xyz;        ///< Every point of the span is in range, in one x,
                           ///< y, z cell
  double   xyz_floor[3];   ///< That cell, as block() would find it
  bool     row;            ///< Only x moves: y, z, w fixed (an image row)
  float    row_d[2][3];    ///< y, z, w offsets to the lower, upper corners
  float    row_u[3];       ///< Fades of y, z, w
  float    row_var_s[3];   ///< variance_s() of y, z, w
  float    row_var_t[3];   ///< variance_t() of y, z, w
  uint64_t row_cell[2][3]; ///< y, z, w cells of the corners, wrapped
} Line;

/// Gradients of P4D_GROUP consecutive w layers of the cached xyz cell.
typedef struct {
  bool     valid;
  uint64_t first;           ///< First layer, a multiple of P4D_GROUP
  uint32_t g[8][P4D_GROUP]; ///< Gradient of each xyz corner and layer
} LayerGroup;

/// One w layer of a line whose x, y and z are fixed: per xyz corner, the
/// ready-to-broadcast constants of its dot product.
typedef struct {
  VF       partial[8]; ///< x + y + z terms of each corner's dot product
  float    gw[8];      ///< w component of each corner's gradient
  uint64_t w;          ///< The layer's w cell, as the block numbers it
  bool     valid;
} FixedLayer;

/// Fixed layers cached, by the low bits of w: consecutive layers never
/// share a slot.
#define P4D_FIXED_SLOTS 8U

/// The gradients of the w layers of one x, y, z cell, by groups.
typedef struct {
  bool       valid;
  uint64_t   cell[3]; ///< The x, y, z cell
  uint32_t   hxyz[8]; ///< Hash chain through x, y, z for the 8 xyz corners
  LayerGroup group[2];
  FixedLayer fixed[P4D_FIXED_SLOTS]; ///< When fixed_xyz
} Layers;

/// Forget the layers of the cached cell, which has just been set (the
/// fixed layers only where the line has them).
static inline void
layers_reset(bool fixed_xyz, Layers* layers)
{
  layers->group[0].valid = layers->group[1].valid = false;
  if (fixed_xyz) {
    for (unsigned s = 0U; s < P4D_FIXED_SLOTS; ++s) {
      layers->fixed[s].valid = false;
    }
  }
  layers->valid = true;
}

static inline VF
vf_fade(VF t)
{
  const VF t3 = vf_mul(vf_mul(t, t), t);
  const VF poly =
    vf_add(vf_mul(vf_sub(vf_mul(t, vf_set1(6.0f)), vf_set1(15.0f)), t),
           vf_set1(10.0f));
  return vf_mul(t3, poly);
}

/// The gradient index that ends a chain, in every lane: hash_gradient().
static inline VI
vi_leaf(VI h)
{
  h = vi_mullo(vi_xor(h, vi_srl(h, 16U)), vi_set1(0x7FEB352DU));
  h = vi_mullo(vi_xor(h, vi_srl(h, 15U)), vi_set1(0x846CA68BU));
  return vi_srl(h, 27U);
}

/// variance_s() in every lane.
static inline VF
vf_variance_s(VF u)
{
  const VF a = vf_sub(vf_set1(1.0f), u);
  return vf_add(vf_mul(a, a), vf_mul(u, u));
}

/// variance_t() in every lane.
static inline VF
vf_variance_t(VF f, VF g, VF u)
{
  const VF a = vf_sub(vf_set1(1.0f), u);
  return vf_add(vf_mul(vf_mul(a, a), vf_mul(f, f)),
                vf_mul(vf_mul(u, u), vf_mul(g, g)));
}

/// variance_fold() in every lane; the first axis folded (*started false)
/// starts (p, t).
static inline void
vf_variance_fold(bool* started, VF* p, VF* t, VF s_axis, VF t_axis)
{
  if (*started) {
    *t = vf_add(vf_mul(*t, s_axis), vf_mul(*p, t_axis));
    *p = vf_mul(*p, s_axis);
  } else {
    *p       = s_axis;
    *t       = t_axis;
    *started = true;
  }
}

/// normalise() in every lane.
static inline VF
vf_normalise(VF v, VF var)
{
  return vf_clamp1(vf_div(vf_mul(vf_set1(P4D_NOISE_GAIN), v),
                          vf_sqrt(vf_add(var, vf_set1(P4D_NOISE_FLOOR)))));
}

static inline VF
vf_lerp(VF t, VF a, VF b)
{
  return vf_add(a, vf_mul(t, vf_sub(b, a)));
}

/// Coordinates of axis a at the block's lane times.
static inline void
coords(const Line* line, unsigned a, VD t_lo, VD t_hi, VD* lo, VD* hi)
{
  const VD o = vd_set1(line->origin[a]);
  const VD s = vd_set1(line->step[a]);
  *lo        = vd_add(o, vd_mul(t_lo, s));
  *hi        = vd_add(o, vd_mul(t_hi, s));
}

/// The blend of the 2^n_axes corners in v along the first n_axes axes: x,
/// then y, z, w, as the scalar kernel blends.
static inline VF
blend(VF v[], const VF u[], unsigned n_axes)
{
  P4D_UNROLL
  for (unsigned k = 0U, n = 1U << (n_axes - 1U); k < n_axes; ++k, n >>= 1U) {
    P4D_UNROLL
    for (size_t i = 0U; i < n; ++i) {
      v[i] = vf_lerp(u[k], v[2U * i], v[2U * i + 1U]);
    }
  }
  return v[0];
}

/// The group of layer w of the cached cell, its layers hashed on first use.
static LayerGroup*
layer_group(const Line* line, Layers* layers, uint64_t w)
{
  const uint64_t    first = w & ~(uint64_t)(P4D_GROUP - 1U);
  LayerGroup* const group = &layers->group[(w / P4D_GROUP) & 1U];
  if (group->valid && group->first == first) {
    return group;
  }

  group->first = first;
  group->valid = true;
  if (line->period[3] != 0U) {
    // A periodic w: the layers' cells wrap anywhere in the group, so each
    // is wrapped and hashed as the scalar kernel does (only loops pay).
    for (unsigned l = 0U; l < P4D_GROUP; ++l) {
      const uint64_t cell = cell_wrap(first + l, line->period[3]);
      for (unsigned q = 0U; q < 8U; ++q) {
        group->g[q][l] = hash_gradient(hash_link(
          layers->hxyz[q], cell_lo(cell), cell_hi(cell), hash_mul[3]));
      }
    }
    return group;
  }

  // The last link (w) and the gradient of every layer at once.  A group
  // never straddles a multiple of 2^32, so its cells share their high half.
  const VI hi = vi_set1(cell_hi(first));
  P4D_UNROLL
  for (unsigned l = 0U; l < P4D_GROUP; l += P4D_W) {
    const VI cell = vi_add(vi_set1(cell_lo(first) + l), vi_lane_index());
    P4D_UNROLL
    for (unsigned q = 0U; q < 8U; ++q) {
      const uint32_t h    = layers->hxyz[q];
      const VI       link = vi_add(
        vi_mullo(vi_xor(vi_set1(h ^ (h >> 16U)), cell), vi_set1(hash_mul[3])),
        hi);
      vi_store(&group->g[q][l], vi_leaf(link));
    }
  }
  return group;
}

/**
   Hash and dot layer w of a line whose x, y and z are fixed (its cached
   cell) into layer: the gradients' w components and the x + y + z terms
   of the 8 dot products, in the scalar kernel's order.  Out of line: a
   line meets a new layer rarely.
*/
static P4D_NOINLINE void
fixed_layer_fill(const Line*   line,
                 const Layers* layers,
                 uint64_t      w,
                 FixedLayer*   layer)
{
  const uint64_t cell = cell_wrap(w, line->period[3]);
  for (unsigned q = 0U; q < 8U; ++q) {
    const float* const m = gradients[hash_gradient(
      hash_link(layers->hxyz[q], cell_lo(cell), cell_hi(cell), hash_mul[3]))];
    float              d[3];
    for (unsigned a = 0U; a < 3U; ++a) {
      d[a] = (q >> a) & 1U ? line->frac[a] - 1.0f : line->frac[a];
    }
    layer->gw[q]      = m[3];
    layer->partial[q] = vf_set1((m[0] * d[0] + m[1] * d[1]) + m[2] * d[2]);
  }
  layer->w     = w;
  layer->valid = true;
}

/// Layer w of a line whose x, y and z are fixed, filled on first use.
static inline const FixedLayer*
fixed_layer(const Line* line, Layers* layers, uint64_t w)
{
  FixedLayer* const layer = &layers->fixed[w & (P4D_FIXED_SLOTS - 1U)];
  if (!layer->valid || layer->w != w) {
    fixed_layer_fill(line, layers, w, layer);
  }
  return layer;
}

/// The blend of the 8 xyz corners of a fixed layer at w offsets dw.
static inline VF
fixed_blend(const FixedLayer* layer, VF dw, const VF u[3])
{
  VF v[8];
  P4D_UNROLL
  for (unsigned q = 0U; q < 8U; ++q) {
    v[q] = vf_fma(vf_set1(layer->gw[q]), dw, layer->partial[q]);
  }
  return blend(v, u, 3U);
}

/**
   A block of a line whose x, y and z are fixed (one_xyz, so its layers
   are cached), spanning w cells w0 .. w0 + n_layers - 2 (fl_w is w0 as
   a double): what block_layers() gives, with the line's constants
   broadcast.  In the common case, every lane in cell w0 (n_layers 2),
   the lanes' cells are known, and the lower and upper layers are blended
   without masks.
*/
static P4D_INLINE VF
block_fixed(const Line* line,
            Layers*     layers,
            VD          t_lo,
            VD          t_hi,
            double      fl_w,
            uint64_t    w0,
            unsigned    n_layers)
{
  VD lo;
  VD hi;
  coords(line, 3U, t_lo, t_hi, &lo, &hi);
  VF fw;
  VI cw = vi_set1(cell_lo(w0));
  if (n_layers == 2U) {
    // Every lane is in cell w0: its fraction is split()'s.
    const VD fl = vd_set1(fl_w);
    fw          = vf_from_halves(vd_sub(lo, fl), vd_sub(hi, fl));
  } else {
    VI cw_hi;
    vsplit(lo, hi, &fw, &cw, &cw_hi);
    (void)cw_hi;
  }
  const VF fw1 = vf_sub(fw, vf_set1(1.0f));
  const VF uw  = vf_fade(fw);
  // vf_variance_fold() of w into x, y, z's fold.
  const VF var_t =
    vf_add(vf_mul(vf_set1(line->xyz_t), vf_variance_s(uw)),
           vf_mul(vf_set1(line->xyz_p), vf_variance_t(fw, fw1, uw)));
  const VF u[3] = { vf_set1(line->fade[0]),
                    vf_set1(line->fade[1]),
                    vf_set1(line->fade[2]) };

  VF lower;
  VF upper;
  if (n_layers == 2U) {
    lower = fixed_blend(fixed_layer(line, layers, w0), fw, u);
    upper = fixed_blend(fixed_layer(line, layers, w0 + 1U), fw1, u);
  } else {
    // As block_layers() does.
    lower    = vf_set1(0.0f);
    upper    = vf_set1(0.0f);
    VM below = vm_none();
    for (unsigned j = 0U; j < n_layers; ++j) {
      const uint64_t w       = w0 + j;
      const VM       in_cell = vi_eq(cw, vi_set1(cell_lo(w)));
      const VF       layer   = fixed_blend(
        fixed_layer(line, layers, w), vf_blend(in_cell, fw1, fw), u);
      lower = vf_blend(in_cell, lower, layer);
      upper = vf_blend(below, upper, layer);
      below = in_cell;
    }
  }
  return vf_normalise(vf_lerp(uw, lower, upper), var_t);
}

/// What every lane of a block in one x, y, z cell needs: the offsets f
/// (lower, upper) and fades u of each axis, w's cells and the variance.
typedef struct {
  VF f[2][4];
  VF u[4];
  VI cw;    ///< Low half of each lane's w cell
  VF var_t; ///< V of noise.c, to normalise by
} BlockFrame;

/// The frame of a block whose points share their x, y, z cell, and their
/// w cell *fl_w unless fl_w is NULL (then b->cw is left unset).
static inline void
block_frame(const Line*   line,
            VD            t_lo,
            VD            t_hi,
            const double  floor_xyz[3],
            const double* fl_w,
            BlockFrame*   b)
{
  VF(*const f)[4]   = b->f;
  VF* const u       = b->u;
  VF        var_p   = vf_set1(line->xyz_p);
  VF        var_t   = vf_set1(line->xyz_t);
  bool      started = line->fixed_xyz;
  for (unsigned a = 0U; a < 3U; ++a) {
    if (line->fixed[a]) {
      f[0][a] = vf_set1(line->frac[a]);
      f[1][a] = vf_set1(line->frac[a] - 1.0f);
      u[a]    = vf_set1(line->fade[a]);
      if (!line->fixed_xyz) {
        vf_variance_fold(&started,
                         &var_p,
                         &var_t,
                         vf_set1(line->var_s[a]),
                         vf_set1(line->var_t[a]));
      }
    } else {
      VD lo;
      VD hi;
      coords(line, a, t_lo, t_hi, &lo, &hi);
      const VD fl = vd_set1(floor_xyz[a]);
      f[0][a]     = vf_from_halves(vd_sub(lo, fl), vd_sub(hi, fl));
      f[1][a]     = vf_sub(f[0][a], vf_set1(1.0f));
      u[a]        = vf_fade(f[0][a]);
      vf_variance_fold(&started,
                       &var_p,
                       &var_t,
                       vf_variance_s(u[a]),
                       vf_variance_t(f[0][a], f[1][a], u[a]));
    }
  }

  VD lo;
  VD hi;
  coords(line, 3U, t_lo, t_hi, &lo, &hi);
  if (fl_w) {
    // Every lane is in cell *fl_w: its fraction is split()'s.
    const VD fl = vd_set1(*fl_w);
    f[0][3]     = vf_from_halves(vd_sub(lo, fl), vd_sub(hi, fl));
  } else {
    VI cw_hi;
    vsplit(lo, hi, &f[0][3], &b->cw, &cw_hi);
    (void)cw_hi;
  }
  f[1][3] = vf_sub(f[0][3], vf_set1(1.0f));
  u[3]    = vf_fade(f[0][3]);
  vf_variance_fold(&started,
                   &var_p,
                   &var_t,
                   vf_variance_s(u[3]),
                   vf_variance_t(f[0][3], f[1][3], u[3]));
  b->var_t = var_t;
}

/// The blend of the 8 xyz corners of layer l of group at x, y, z offsets
/// f, fades u and w offsets dw.
static inline VF
moving_layer(const LayerGroup* group,
             unsigned          l,
             const VF          f[2][3],
             const VF          u[3],
             VF                dw)
{
  VF v[8];
  P4D_UNROLL
  for (unsigned q = 0U; q < 8U; ++q) {
    const float* const m   = gradients[group->g[q][l]];
    VF                 acc = vf_mul(vf_set1(m[0]), f[q & 1U][0]);
    acc                    = vf_fma(vf_set1(m[1]), f[(q >> 1U) & 1U][1], acc);
    acc                    = vf_fma(vf_set1(m[2]), f[(q >> 2U) & 1U][2], acc);
    v[q]                   = vf_fma(vf_set1(m[3]), dw, acc);
  }
  return blend(v, u, 3U);
}

/// A block whose points share their x, y, z cell and span w cells
/// w0 .. w0 + n_layers - 2: each layer's 8 corners are blended in every
/// lane with broadcast gradients.
static VF
block_layers(const Line*  line,
             Layers*      layers,
             VD           t_lo,
             VD           t_hi,
             const double floor_xyz[3],
             uint64_t     w0,
             unsigned     n_layers)
{
  if (line->fixed_xyz) {
    return block_fixed(
      line, layers, t_lo, t_hi, (double)(int64_t)w0, w0, n_layers);
  }

  const double fl_w = (double)(int64_t)w0;
  BlockFrame   b;
  block_frame(line, t_lo, t_hi, floor_xyz, n_layers == 2U ? &fl_w : NULL, &b);
  // Plain locals, which the compiler keeps in registers.
  const VF f[2][3] = { { b.f[0][0], b.f[0][1], b.f[0][2] },
                       { b.f[1][0], b.f[1][1], b.f[1][2] } };
  const VF u[3]    = { b.u[0], b.u[1], b.u[2] };
  const VF fw      = b.f[0][3];
  const VF fw1     = b.f[1][3];
  const VF uw      = b.u[3];
  const VF var_t   = b.var_t;

  // The layers lie in w0's group and the next (P4D_LAYERS_MAX).
  const uint64_t    w_top = w0 + n_layers - 1U;
  LayerGroup* const low   = layer_group(line, layers, w0);
  LayerGroup* const high  = w_top / P4D_GROUP == w0 / P4D_GROUP
                              ? low
                              : layer_group(line, layers, w_top);

  VF lower;
  VF upper;
  if (n_layers == 2U) {
    // Every lane is in cell w0: no masks.
    const unsigned k = (unsigned)(w0 - low->first);
    lower            = moving_layer(low, k, f, u, fw);
    upper            = moving_layer(
      k + 1U < P4D_GROUP ? low : high, (k + 1U) & (P4D_GROUP - 1U), f, u, fw1);
  } else {
    const VI cw = b.cw;
    lower       = vf_set1(0.0f);
    upper       = vf_set1(0.0f);
    VM below    = vm_none();
    for (unsigned j = 0U; j < n_layers; ++j) {
      const uint64_t    w     = w0 + j;
      const unsigned    k     = (unsigned)(w - low->first);
      LayerGroup* const group = k < P4D_GROUP ? low : high;

      // Lanes in cell w see this layer as their lower one, with offset
      // fw; lanes in cell w - 1 as their upper one, with offset fw - 1.
      // The block spans fewer than 2^32 cells, so the low halves tell
      // them apart.
      const VM in_cell = vi_eq(cw, vi_set1(cell_lo(w)));
      const VF layer   = moving_layer(
        group, k & (P4D_GROUP - 1U), f, u, vf_blend(in_cell, fw1, fw));
      lower = vf_blend(in_cell, lower, layer);
      upper = vf_blend(below, upper, layer);
      below = in_cell;
    }
  }

  return vf_normalise(vf_lerp(uw, lower, upper), var_t);
}

/// The first n lanes of r to out.
static inline void
block_store(VF r, size_t n, float* out)
{
  if (n == P4D_W) {
    vf_store(out, r);
  } else {
    float lanes[P4D_W];
    vf_store(lanes, r);
    memcpy(out, lanes, n * sizeof(float));
  }
}

#include "noise_lanes_template.h"
#include "noise_row_template.h"

/// Gather from P4D_GATHER_LAYERS layers on (a path with
/// P4D_LOOKUP32): fewer layers cost less by broadcasts.
#ifndef P4D_GATHER_LAYERS
#  define P4D_GATHER_LAYERS 4U
#endif

/**
   A block whose points share the x, y, z cell floor_xyz (whose layers are
   cached) and span w cells fl_first .. fl_last, into *r; false if it spans
   too many for the layers.
*/
static inline bool
block_in_cell(const Line*  line,
              Layers*      layers,
              VD           t_lo,
              VD           t_hi,
              const double floor_xyz[3],
              double       fl_first,
              double       fl_last,
              VF*          r)
{
  const double   w_span = fl_last - fl_first;
  const uint64_t w0 = (uint64_t)(int64_t)(w_span < 0.0 ? fl_last : fl_first);
  const double   n_layers = fabs(w_span) + 2.0;
#ifdef P4D_LOOKUP32
  if (n_layers >= (double)P4D_GATHER_LAYERS &&
      n_layers <= (double)(P4D_GROUP + 1U)) {
    *r =
      block_gather(line, layers, t_lo, t_hi, floor_xyz, w0, (unsigned)n_layers);
    return true;
  }
#endif
  if (n_layers <= (double)P4D_LAYERS_MAX) {
    *r =
      block_layers(line, layers, t_lo, t_hi, floor_xyz, w0, (unsigned)n_layers);
    return true;
  }
  return false;
}

/**
   Noise at points t0 .. t0 + n - 1 of the line, 1 <= n <= P4D_W, into out.

   Lanes past n repeat the last point, so that a short block has the same
   cells as its points.
*/
static P4D_INLINE void
block(const Line* line, Layers* layers, int64_t t0, size_t n, float* out)
{
  const double t_first = (double)t0;
  const double t_last  = (double)(t0 + (int64_t)n - 1);
  const VD     t_lo    = vd_add(vd_set1(t_first), vd_lane_times(0U, n));
  const VD     t_hi    = vd_add(vd_set1(t_first), vd_lane_times(1U, n));

  if (line->one_xyz) {
    // The span's ends settled the range and the x, y, z cell (whose
    // layers are cached): only w is left to place.
    const double fl_first = floor(line->origin[3] + t_first * line->step[3]);
    const double fl_last  = floor(line->origin[3] + t_last * line->step[3]);
    VF           r;
    if (block_in_cell(
          line, layers, t_lo, t_hi, line->xyz_floor, fl_first, fl_last, &r)) {
      block_store(r, n, out);
      return;
    }
  }

  // A line is monotonic on every axis, so its ends bound the block: all of
  // it is in range, and an axis whose ends share a cell has one cell.
  // floor() + 0 is cell_floor() in range, in one instruction.
  double   fl_first[4];
  double   fl_last[4];
  uint64_t c_first[4];
  for (unsigned a = 0U; a < 4U; ++a) {
    if (a < 3U && line->fixed[a]) {
      fl_first[a] = fl_last[a] = line->floor[a];
    } else {
      const double p_first = line->origin[a] + t_first * line->step[a];
      const double p_last  = line->origin[a] + t_last * line->step[a];
      if (!coord_ok(p_first) || !coord_ok(p_last)) {
        p4d_noise_span_scalar(
          line->key, line->origin, line->step, t0, out, n, line->period);
        return;
      }
      fl_first[a] = floor(p_first) + 0.0;
      fl_last[a]  = floor(p_last) + 0.0;
    }
    c_first[a] = (uint64_t)(int64_t)fl_first[a];
  }

  const bool one_xyz_cell = fl_first[0] == fl_last[0] &&
                            fl_first[1] == fl_last[1] &&
                            fl_first[2] == fl_last[2];
  VF r;
  if (one_xyz_cell) {
    if (!layers->valid || memcmp(layers->cell, c_first, sizeof(layers->cell))) {
      memcpy(layers->cell, c_first, sizeof(layers->cell));
      hash_corners(line->key, c_first, 3U, line->period, layers->hxyz);
      layers_reset(line->fixed_xyz, layers);
    }
  }
  if (!one_xyz_cell ||
      !block_in_cell(
        line, layers, t_lo, t_hi, fl_first, fl_first[3], fl_last[3], &r)) {
#ifdef P4D_LOOKUP32
    r = block_lanes(line, t_lo, t_hi);
#else
    p4d_noise_span_scalar(
      line->key, line->origin, line->step, t0, out, n, line->period);
    return;
#endif
  }

  block_store(r, n, out);
}

/// block() out of line: the few blocks of a fixed span that cross w cells
/// keep it out of the hot loop.
static P4D_NOINLINE void
block_apart(const Line* line, Layers* layers, int64_t t0, size_t n, float* out)
{
  block(line, layers, t0, n, out);
}

/**
   The blocks of points first .. first + n - 1 of a line whose x, y and z
   are fixed (one_xyz): whole blocks in one w cell go straight to
   block_fixed(), the others through block().
*/
static P4D_NOINLINE void
fixed_span(const Line* line,
           Layers*     layers,
           int64_t     first,
           float*      out,
           size_t      n)
{
  const VD lanes_lo = vd_lane_times(0U, P4D_W);
  const VD lanes_hi = vd_lane_times(1U, P4D_W);
  size_t   i        = 0U;
  for (; i + P4D_W <= n; i += P4D_W) {
    const int64_t t0       = first + (int64_t)i;
    const double  t_first  = (double)t0;
    const double  t_last   = (double)(t0 + (int64_t)P4D_W - 1);
    const double  fl_first = floor(line->origin[3] + t_first * line->step[3]);
    const double  fl_last  = floor(line->origin[3] + t_last * line->step[3]);
    if (fl_first != fl_last) {
      block_apart(line, layers, t0, P4D_W, out + i);
      continue;
    }
    const VD t_lo = vd_add(vd_set1(t_first), lanes_lo);
    const VD t_hi = vd_add(vd_set1(t_first), lanes_hi);
    vf_store(
      out + i,
      block_fixed(
        line, layers, t_lo, t_hi, fl_first, (uint64_t)(int64_t)fl_first, 2U));
  }
  if (i < n) {
    block_apart(line, layers, first + (int64_t)i, n - i, out + i);
  }
}

static void
noise_span(uint32_t       key,
           const double   origin[4],
           const double   step[4],
           int64_t        first,
           float*         out,
           size_t         n,
           const uint64_t period[4])
{
  Line line;
  memset(&line, 0, sizeof(line));
  line.key       = key;
  line.fixed_xyz = true;
  line.xyz_p     = 1.0f;
  memcpy(line.period, period, sizeof(line.period));
  memcpy(line.origin, origin, sizeof(line.origin));
  memcpy(line.step, step, sizeof(line.step));
  for (unsigned a = 0U; a < 3U; ++a) {
    // origin + t * 0 is origin at every t unless origin is a zero (whose
    // sign would follow t's).
    line.fixed[a]  = step[a] == 0.0 && origin[a] != 0.0 && coord_ok(origin[a]);
    line.fixed_xyz = line.fixed_xyz && line.fixed[a];
    if (line.fixed[a]) {
      uint64_t cell = 0U;
      split(origin[a], &cell, &line.frac[a]);
      line.floor[a]    = cell_floor(origin[a]);
      const float frac = line.frac[a];
      const float u    = fade(frac);
      line.fade[a]     = u;
      line.var_s[a]    = variance_s(u);
      line.var_t[a]    = variance_t(frac, frac - 1.0f, u);
    }
  }
  if (line.fixed_xyz) {
    line.xyz_p = line.var_s[0];
    line.xyz_t = line.var_t[0];
    for (unsigned a = 1U; a < 3U; ++a) {
      variance_fold(&line.xyz_p, &line.xyz_t, line.var_s[a], line.var_t[a]);
    }
  }

  row_setup(&line);
  if (line.row) {
    row_span(&line, first, out, n);
    return;
  }

  Layers layers;
  layers.valid = false;

  // A line is monotonic on every axis, so the span's ends bound it: when
  // they are in range and share their x, y, z cell, so does every point.
  const double t_ends[2] = { (double)first, (double)(first + (int64_t)n - 1) };
  double       fl_ends[2][3];
  line.one_xyz = n > 0U;
  for (unsigned a = 0U; a < 4U; ++a) {
    for (unsigned e = 0U; e < 2U; ++e) {
      const double p = origin[a] + t_ends[e] * step[a];
      line.one_xyz   = line.one_xyz && coord_ok(p);
      if (a < 3U) {
        // As block() finds the cell.
        fl_ends[e][a] = line.fixed[a] ? line.floor[a] : floor(p) + 0.0;
      }
    }
    if (a < 3U) {
      line.one_xyz      = line.one_xyz && fl_ends[0][a] == fl_ends[1][a];
      line.xyz_floor[a] = fl_ends[0][a];
    }
  }
  if (line.one_xyz) {
    for (unsigned a = 0U; a < 3U; ++a) {
      layers.cell[a] = (uint64_t)(int64_t)line.xyz_floor[a];
    }
    hash_corners(line.key, layers.cell, 3U, line.period, layers.hxyz);
    layers_reset(line.fixed_xyz, &layers);
    if (line.fixed_xyz) {
      fixed_span(&line, &layers, first, out, n);
      return;
    }
  }

  for (size_t i = 0U; i < n; i += P4D_W) {
    const size_t m = n - i < P4D_W ? n - i : P4D_W;
    block(&line, &layers, first + (int64_t)i, m, out + i);
  }
}
