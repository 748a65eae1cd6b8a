// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Part of the noise template (noise_template.h, which includes it and
  whose contract it keeps): per-lane gradients, for paths with
  P4D_LOOKUP32.  Every lane hashes its own corners (blocks that span
  several x, y or z cells, and any points), or picks its own corners'
  gradients from the cached w layers (blocks that span many w layers).
  Periodic axes wrap each lane's cell before its hash, in vector lanes.  Defines
  the path's points, noise_points() (a P4dPoints of kernel.h), for its table;
  without P4D_LOOKUP32 that is the scalar kernel's.
*/

#ifdef P4D_LOOKUP32

/// One link of the hash chain in every lane: hash_link().
static inline VI
vi_link(VI h, VI lo, VI hi, uint32_t mul)
{
  return vi_add(vi_mullo(vi_xor(vi_xor(h, vi_srl(h, 16U)), lo), vi_set1(mul)),
                hi);
}

/// Gradient components by index, column k holding component k.
static const float gradient_column[4][32] = {
#  define P4D_GRAD_COL8(g, k)                                           \
    P4D_GRAD(g, k), P4D_GRAD((g) + 1, k), P4D_GRAD((g) + 2, k),         \
      P4D_GRAD((g) + 3, k), P4D_GRAD((g) + 4, k), P4D_GRAD((g) + 5, k), \
      P4D_GRAD((g) + 6, k), P4D_GRAD((g) + 7, k)
#  define P4D_GRAD_COL(k)                                             \
    {                                                                 \
      P4D_GRAD_COL8(0, k), P4D_GRAD_COL8(8, k), P4D_GRAD_COL8(16, k), \
        P4D_GRAD_COL8(24, k)                                          \
    }
  P4D_GRAD_COL(0),
  P4D_GRAD_COL(1),
  P4D_GRAD_COL(2),
  P4D_GRAD_COL(3),
#  undef P4D_GRAD_COL
#  undef P4D_GRAD_COL8
};

/**
   cell_wrap() of the cells of coordinates lo, hi (in range) over period
   (1 .. 2^50) and of the cells above them, as the 32-bit halves of the
   64-bit cells, in every lane: in doubles, where every value is a whole
   number below 2^52 and so exact.  The quotient, through the rounded
   inverse of the period, may come out one too small at a multiple of the
   period, which a step corrects (a step the other way guards against the
   opposite rounding, which cells below 2^51 never meet).
*/
static inline void
lanes_wrap(uint64_t period, VD lo, VD hi, VI* at, VI* at_hi, VI* up, VI* up_hi)
{
  const VD p     = vd_set1((double)period);
  const VD inv   = vd_set1(1.0 / (double)period);
  const VD zero  = vd_set1(0.0);
  const VD one   = vd_set1(1.0);
  const VD in[2] = { lo, hi };
  VD       r[2];
  VD       u[2];
  for (unsigned h = 0U; h < 2U; ++h) {
    const VD cell = vd_floor(in[h]);
    VD       m    = vd_sub(cell, vd_mul(p, vd_floor(vd_mul(cell, inv))));
    m             = vd_blend(vd_lt(m, zero), m, vd_add(m, p));
    m             = vd_blend(vd_lt(m, p), vd_sub(m, p), m);
    const VD next = vd_add(m, one);
    r[h]          = m;
    u[h]          = vd_blend(vd_eq(next, p), next, zero);
  }
  VF frac;
  vsplit(r[0], r[1], &frac, at, at_hi);
  vsplit(u[0], u[1], &frac, up, up_hi);
}

/**
   Noise at the points whose coordinates on axis a are lo[a] (lanes 0 ..
   P4D_W / 2 - 1) and hi[a] (the others), all within P4D_NOISE_COORD_MAX:
   every lane hashes its own 16 corners, each axis wrapped by its checked
   period.
*/
static VF
lanes_noise(uint32_t       key,
            const uint64_t period[4],
            const VD       lo[4],
            const VD       hi[4])
{
  VF   f[2][4];
  VF   u[4];
  VI   c[4];
  VI   c_hi[4];
  VF   var_p   = vf_set1(1.0f);
  VF   var_t   = vf_set1(0.0f);
  bool started = false;
  for (unsigned a = 0U; a < 4U; ++a) {
    vsplit(lo[a], hi[a], &f[0][a], &c[a], &c_hi[a]);
    f[1][a] = vf_sub(f[0][a], vf_set1(1.0f));
    u[a]    = vf_fade(f[0][a]);
    vf_variance_fold(&started,
                     &var_p,
                     &var_t,
                     vf_variance_s(u[a]),
                     vf_variance_t(f[0][a], f[1][a], u[a]));
  }

  VI h[16];
  h[0] = vi_set1(key);
  P4D_UNROLL
  for (unsigned k = 0U, n = 1U; k < 4U; ++k, n <<= 1U) {
    // Cell + 1, carried into the high half.
    VI at    = c[k];
    VI at_hi = c_hi[k];
    VI up    = vi_add(c[k], vi_set1(1U));
    VI up_hi = vi_add_masked(c_hi[k], vi_eq(up, vi_set1(0U)), vi_set1(1U));
    if (period[k] != 0U) {
      lanes_wrap(period[k], lo[k], hi[k], &at, &at_hi, &up, &up_hi);
    }
    P4D_UNROLL
    for (unsigned i = n; i-- > 0U;) {
      h[i + n] = vi_link(h[i], up, up_hi, hash_mul[k]);
      h[i]     = vi_link(h[i], at, at_hi, hash_mul[k]);
    }
  }

  VF v[16];
  P4D_UNROLL
  for (unsigned i = 0U; i < 16U; ++i) {
    const VI g   = vi_leaf(h[i]);
    VF       acc = vf_mul(vf_lookup32(gradient_column[0], g), f[i & 1U][0]);
    P4D_UNROLL
    for (unsigned a = 1U; a < 4U; ++a) {
      acc =
        vf_fma(vf_lookup32(gradient_column[a], g), f[(i >> a) & 1U][a], acc);
    }
    v[i] = acc;
  }

  return vf_normalise(blend(v, u, 4U), var_t);
}

/// Any block of the line: every lane hashes its own 16 corners.
static VF
block_lanes(const Line* line, VD t_lo, VD t_hi)
{
  VD lo[4];
  VD hi[4];
  for (unsigned a = 0U; a < 4U; ++a) {
    coords(line, a, t_lo, t_hi, &lo[a], &hi[a]);
  }
  return lanes_noise(line->key, line->period, lo, hi);
}

/**
   A block whose points share their x, y, z cell and span w cells w0 ..
   w0 + n_layers - 2, n_layers <= P4D_GROUP + 1: each lane picks its own
   16 corners' gradients from the cached layers and blends only those,
   however many layers the block spans.
*/
static VF
block_gather(const Line*  line,
             Layers*      layers,
             VD           t_lo,
             VD           t_hi,
             const double floor_xyz[3],
             uint64_t     w0,
             unsigned     n_layers)
{
  BlockFrame b;
  block_frame(line, t_lo, t_hi, floor_xyz, NULL, &b);

  // The layers lie in w0's group and the next: a lane's lower layer is at
  // index cw - first in that pair, which the block keeps below 2^32.
  const uint64_t    w_top = w0 + n_layers - 1U;
  LayerGroup* const low   = layer_group(line, layers, w0);
  LayerGroup* const high  = w_top / P4D_GROUP == w0 / P4D_GROUP
                              ? low
                              : layer_group(line, layers, w_top);
  const VI          lower = vi_add(b.cw, vi_set1(0U - cell_lo(low->first)));
  const VI          upper = vi_add(lower, vi_set1(1U));

  VF v[16];
  P4D_UNROLL
  for (unsigned i = 0U; i < 16U; ++i) {
    const unsigned q = i & 7U;
    const VI       g =
      vi_lookup32_halves(low->g[q], high->g[q], i < 8U ? lower : upper);
    VF acc = vf_mul(vf_lookup32(gradient_column[0], g), b.f[q & 1U][0]);
    P4D_UNROLL
    for (unsigned a = 1U; a < 4U; ++a) {
      acc =
        vf_fma(vf_lookup32(gradient_column[a], g), b.f[(i >> a) & 1U][a], acc);
    }
    v[i] = acc;
  }

  return vf_normalise(blend(v, b.u, 4U), b.var_t);
}

/// The path's points (a P4dPoints of kernel.h): P4D_W points at a time,
/// each lane hashing its own corners; a block with a coordinate out of
/// range goes to the scalar kernel, which takes it as 0.
static void
noise_points(uint32_t key,
             const double (*p)[4],
             float*         out,
             size_t         n,
             const uint64_t period[4])
{
  for (size_t i = 0U; i < n; i += P4D_W) {
    const size_t m  = n - i < P4D_W ? n - i : P4D_W;
    bool         ok = true;
    double       lane[4][P4D_W];
    for (unsigned l = 0U; l < P4D_W; ++l) {
      // Lanes past m repeat the last point.
      const double* const q = p[i + (l < m ? l : m - 1U)];
      for (unsigned a = 0U; a < 4U; ++a) {
        lane[a][l] = q[a];
        ok         = ok && coord_ok(q[a]);
      }
    }
    if (!ok) {
      p4d_noise_points_scalar(key, p + i, out + i, m, period);
      continue;
    }

    VD lo[4];
    VD hi[4];
    for (unsigned a = 0U; a < 4U; ++a) {
      lo[a] = vd_load(lane[a]);
      hi[a] = vd_load(lane[a] + P4D_W / 2U);
    }
    block_store(lanes_noise(key, period, lo, hi), m, out + i);
  }
}

#else

/// The path's points: the scalar kernel's, without per-lane lookups.
static void
noise_points(uint32_t key,
             const double (*p)[4],
             float*         out,
             size_t         n,
             const uint64_t period[4])
{
  p4d_noise_points_scalar(key, p, out, n, period);
}

#endif
