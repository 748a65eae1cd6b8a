// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The NEON path (Advanced SIMD, architectural on aarch64): 8 float lanes
  and 4 double lanes, each a pair of 128-bit registers.  A NEON register
  holds 4 floats or 2 doubles; the templates are written for 8 or 16
  lanes, and aarch64's 32 vector registers hold a pair as easily as AVX2's
  16 hold one, so every operation below is done on both halves.  The
  templates' types and operations, then its table.

  The same bits as the scalar path: plain multiplies and adds (vfmaq only
  in vf_fma(), where the templates multiply by a gradient component, so
  the product is exact), IEEE division and square root, conversions that
  round to nearest as FPCR's default mode does, and Linux's FPCR leaves
  denormals alone (FZ clear), as x86 does.  A per-lane lookup in 32 entries
  (128 bytes) is a table lookup on byte indices: TBL over the first 64
  bytes, then TBX over the last 64 (which keeps the lanes whose bytes are
  out of its range).
*/

#include "isa_table.h"

#include <arm_neon.h>
#include <stdbool.h>
#include <stdint.h>

#define P4D_W 8U
#define P4D_LOOKUP32 1
/// As on AVX2: 8 lanes blend up to 8 layers by broadcasts for less than a
/// gather of 20 values per lane.
#define P4D_GATHER_LAYERS 9U

typedef struct {
  float32x4_t v[2];
} VF;
typedef struct {
  uint32x4_t v[2];
} VI;
typedef struct {
  float64x2_t v[2];
} VD;
typedef struct {
  uint32x4_t v[2];
} VM;
typedef struct {
  uint64x2_t v[2];
} VDM;
typedef struct {
  int64x2_t v[2];
} VL;

/// Lane operations on both halves of a pair: r.v[h] = op(args of half h).
#define P4D_PAIR(T, op, ...)         \
  T r;                               \
  for (size_t h = 0U; h < 2U; ++h) { \
    r.v[h] = op(__VA_ARGS__);        \
  }                                  \
  return r

static inline VF
vf_set1(float a)
{
  const float32x4_t x = vdupq_n_f32(a);
  return (VF){ { x, x } };
}

static inline VF
vf_add(VF a, VF b)
{
  P4D_PAIR(VF, vaddq_f32, a.v[h], b.v[h]);
}

static inline VF
vf_sub(VF a, VF b)
{
  P4D_PAIR(VF, vsubq_f32, a.v[h], b.v[h]);
}

static inline VF
vf_mul(VF a, VF b)
{
  P4D_PAIR(VF, vmulq_f32, a.v[h], b.v[h]);
}

static inline VF
vf_div(VF a, VF b)
{
  P4D_PAIR(VF, vdivq_f32, a.v[h], b.v[h]);
}

static inline VF
vf_sqrt(VF a)
{
  P4D_PAIR(VF, vsqrtq_f32, a.v[h]);
}

/// a * b + c with one rounding: only where a * b is exact.
static inline VF
vf_fma(VF a, VF b, VF c)
{
  P4D_PAIR(VF, vfmaq_f32, c.v[h], a.v[h], b.v[h]);
}

/// b in the lanes of m, a elsewhere.
static inline VF
vf_blend(VM m, VF a, VF b)
{
  P4D_PAIR(VF, vbslq_f32, m.v[h], b.v[h], a.v[h]);
}

/// As x86's minps and maxps with the bound second: a lane that is not a
/// number comes out as 1 (vminnm takes the number), which the clamp of
/// the scalar kernel never meets.
static inline VF
vf_clamp1(VF x)
{
  P4D_PAIR(
    VF, vmaxq_f32, vminnmq_f32(x.v[h], vdupq_n_f32(1.0f)), vdupq_n_f32(-1.0f));
}

static inline VF
vf_load(const float* p)
{
  P4D_PAIR(VF, vld1q_f32, p + 4U * h);
}

static inline void
vf_store(float* p, VF x)
{
  vst1q_f32(p, x.v[0]);
  vst1q_f32(p + 4, x.v[1]);
}

static inline VI
vi_add_masked(VI a, VM m, VI b)
{
  P4D_PAIR(VI, vaddq_u32, a.v[h], vandq_u32(m.v[h], b.v[h]));
}

/// The byte indices of 32-bit entries i (i < 64): 4i, 4i + 1, 4i + 2,
/// 4i + 3 in the lane's bytes, lowest first.
static inline uint8x16_t
byte_index(uint32x4_t i)
{
  return vreinterpretq_u8_u32(
    vmlaq_n_u32(vdupq_n_u32(0x03020100U), vshlq_n_u32(i, 2), 0x01010101U));
}

/// The 128 bytes at t: entries 0 .. 15, then 16 .. 31.
static inline uint8x16x4_t
table64(const void* t)
{
  return vld1q_u8_x4((const uint8_t*)t);
}

/// Entry i (i < 32) of the two 64-byte tables lo (0 .. 15) and hi
/// (16 .. 31), in each lane: TBL sets the lanes of lo, TBX those of hi
/// (byte indices 64 .. 127, less 64) and keeps the others.
static inline uint32x4_t
lookup32(uint8x16x4_t lo, uint8x16x4_t hi, uint32x4_t i)
{
  const uint8x16_t b = byte_index(i);
  const uint8x16_t r = vqtbl4q_u8(lo, b);
  return vreinterpretq_u32_u8(vqtbx4q_u8(r, hi, vsubq_u8(b, vdupq_n_u8(64))));
}

/// t[i] for i in 0 .. 31.
static inline VF
vf_lookup32(const float t[32], VI index)
{
  const uint8x16x4_t lo = table64(t);
  const uint8x16x4_t hi = table64(t + 16);
  P4D_PAIR(VF, vreinterpretq_f32_u32, lookup32(lo, hi, index.v[h]));
}

/// t[i] for i in 0 .. 7: one TBL over 32 bytes.
static inline VF
vf_lookup_w(const float t[8], VI index)
{
  const uint8x16x2_t tab = vld1q_u8_x2((const uint8_t*)t);
  P4D_PAIR(VF, vreinterpretq_f32_u8, vqtbl2q_u8(tab, byte_index(index.v[h])));
}

static inline VI
vi_load(const uint32_t* p)
{
  P4D_PAIR(VI, vld1q_u32, p + 4U * h);
}

/// lo[i] for i < 16, else hi[i - 16].
static inline VI
vi_lookup32_halves(const uint32_t lo[16], const uint32_t hi[16], VI index)
{
  const uint8x16x4_t tlo = table64(lo);
  const uint8x16x4_t thi = table64(hi);
  P4D_PAIR(VI, lookup32, tlo, thi, index.v[h]);
}

static inline VF
vf_from_halves(VD lo, VD hi)
{
  const VF r = { { vcvt_high_f32_f64(vcvt_f32_f64(lo.v[0]), lo.v[1]),
                   vcvt_high_f32_f64(vcvt_f32_f64(hi.v[0]), hi.v[1]) } };
  return r;
}

static inline VI
vi_set1(uint32_t a)
{
  const uint32x4_t x = vdupq_n_u32(a);
  return (VI){ { x, x } };
}

static inline VI
vi_add(VI a, VI b)
{
  P4D_PAIR(VI, vaddq_u32, a.v[h], b.v[h]);
}

static inline VI
vi_xor(VI a, VI b)
{
  P4D_PAIR(VI, veorq_u32, a.v[h], b.v[h]);
}

static inline VI
vi_srl(VI a, unsigned n)
{
  // A shift by a vector of -n: the count need not be a constant.
  const int32x4_t count = vdupq_n_s32(-(int32_t)n);
  P4D_PAIR(VI, vshlq_u32, a.v[h], count);
}

static inline VI
vi_mullo(VI a, VI b)
{
  P4D_PAIR(VI, vmulq_u32, a.v[h], b.v[h]);
}

static inline void
vi_store(uint32_t* p, VI x)
{
  vst1q_u32(p, x.v[0]);
  vst1q_u32(p + 4, x.v[1]);
}

static inline VI
vi_lane_index(void)
{
  static const uint32_t lanes[8] = { 0U, 1U, 2U, 3U, 4U, 5U, 6U, 7U };
  return vi_load(lanes);
}

static inline VM
vi_eq(VI a, VI b)
{
  P4D_PAIR(VM, vceqq_u32, a.v[h], b.v[h]);
}

static inline VM
vm_none(void)
{
  const uint32x4_t x = vdupq_n_u32(0U);
  return (VM){ { x, x } };
}

static inline VD
vd_set1(double a)
{
  const float64x2_t x = vdupq_n_f64(a);
  return (VD){ { x, x } };
}

static inline VD
vd_add(VD a, VD b)
{
  P4D_PAIR(VD, vaddq_f64, a.v[h], b.v[h]);
}

static inline VD
vd_sub(VD a, VD b)
{
  P4D_PAIR(VD, vsubq_f64, a.v[h], b.v[h]);
}

static inline VD
vd_mul(VD a, VD b)
{
  P4D_PAIR(VD, vmulq_f64, a.v[h], b.v[h]);
}

static inline VD
vd_floor(VD a)
{
  P4D_PAIR(VD, vrndmq_f64, a.v[h]);
}

static inline VD
vd_load(const double* p)
{
  P4D_PAIR(VD, vld1q_f64, p + 2U * h);
}

static inline void
vd_store(double* p, VD x)
{
  vst1q_f64(p, x.v[0]);
  vst1q_f64(p + 2, x.v[1]);
}

static inline VD
vd_load_floats(const float* p)
{
  const float32x4_t x = vld1q_f32(p);
  const VD r = { { vcvt_f64_f32(vget_low_f32(x)), vcvt_high_f64_f32(x) } };
  return r;
}

static inline void
vd_store_floats_flushed(float* p, VD x, float tiny)
{
  const float32x4_t r    = vcvt_high_f32_f64(vcvt_f32_f64(x.v[0]), x.v[1]);
  const uint32x4_t  zero = vcltq_f32(vabsq_f32(r), vdupq_n_f32(tiny));
  vst1q_f32(p,
            vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(r), zero)));
}

static inline VDM
vd_lt(VD a, VD b)
{
  P4D_PAIR(VDM, vcltq_f64, a.v[h], b.v[h]);
}

static inline VDM
vd_eq(VD a, VD b)
{
  P4D_PAIR(VDM, vceqq_f64, a.v[h], b.v[h]);
}

/// b in the lanes of m, a elsewhere.
static inline VD
vd_blend(VDM m, VD a, VD b)
{
  P4D_PAIR(VD, vbslq_f64, m.v[h], b.v[h], a.v[h]);
}

static inline bool
vd_all_within(VD x, VD lo, VD hi)
{
  const uint64x2_t in0 =
    vandq_u64(vcgeq_f64(x.v[0], lo.v[0]), vcltq_f64(x.v[0], hi.v[0]));
  const uint64x2_t in1 =
    vandq_u64(vcgeq_f64(x.v[1], lo.v[1]), vcltq_f64(x.v[1], hi.v[1]));
  const uint64x2_t in = vandq_u64(in0, in1);
  return (vgetq_lane_u64(in, 0) & vgetq_lane_u64(in, 1)) == UINT64_MAX;
}

static inline VD
vd_trunc_index(VD x, int32_t* k)
{
  const int64x2_t i0 = vcvtq_s64_f64(x.v[0]);
  const int64x2_t i1 = vcvtq_s64_f64(x.v[1]);
  vst1q_s32(k, vcombine_s32(vmovn_s64(i0), vmovn_s64(i1)));
  const VD r = { { vcvtq_f64_s64(i0), vcvtq_f64_s64(i1) } };
  return r;
}

/// The 4 rows k[0..3], transposed: c[j] holds their column j.
static inline void
vd_columns4(const double (*rows)[4], const int32_t* k, VD c[4])
{
  for (size_t h = 0U; h < 2U; ++h) {
    const double* const a  = rows[k[2U * h]];
    const double* const b  = rows[k[2U * h + 1U]];
    const float64x2_t   a0 = vld1q_f64(a);
    const float64x2_t   a1 = vld1q_f64(a + 2);
    const float64x2_t   b0 = vld1q_f64(b);
    const float64x2_t   b1 = vld1q_f64(b + 2);
    c[0].v[h]              = vzip1q_f64(a0, b0);
    c[1].v[h]              = vzip2q_f64(a0, b0);
    c[2].v[h]              = vzip1q_f64(a1, b1);
    c[3].v[h]              = vzip2q_f64(a1, b1);
  }
}

/// Toward zero, as C's conversion (in range, where the templates use it).
static inline VL
vd_trunc(VD x)
{
  P4D_PAIR(VL, vcvtq_s64_f64, x.v[h]);
}

static inline VD
vl_to_vd(VL k)
{
  P4D_PAIR(VD, vcvtq_f64_s64, k.v[h]);
}

static inline VD
vl_pow2(VL k)
{
  P4D_PAIR(VD,
           vreinterpretq_f64_s64,
           vshlq_n_s64(vaddq_s64(k.v[h], vdupq_n_s64(1023)), 52));
}

/// Lane offsets of half h of a block of n points: the last point repeats.
static inline VD
vd_lane_times(unsigned half, size_t n)
{
  static const double lanes[4] = { 0.0, 1.0, 2.0, 3.0 };
  const VD            lane     = vd_add(vd_load(lanes), vd_set1(4.0 * half));
  const float64x2_t   last     = vdupq_n_f64((double)(n - 1U));
  P4D_PAIR(VD, vminq_f64, lane.v[h], last);
}

/*
  Split of 2 coordinates, as split() does it: adding 1.5 * 2^52 rounds to
  the nearest integer r in the low bits of the sum; stepping down where
  r > v gives cell_floor() (with its +0).  The sum's bits, less that step
  and less the bits of 1.5 * 2^52, are the 64-bit cell.  Exact for
  |v| < 2^51.
*/
static inline uint32x4_t
vsplit_half(float64x2_t v, float64x2_t* fl)
{
  const float64x2_t magic = vdupq_n_f64(0x1.8p52);
  const float64x2_t y     = vaddq_f64(v, magic);
  const float64x2_t r     = vsubq_f64(y, magic);
  const uint64x2_t  down  = vcgtq_f64(r, v);
  *fl                     = vsubq_f64(r,
                  vreinterpretq_f64_u64(
                    vandq_u64(down, vreinterpretq_u64_f64(vdupq_n_f64(1.0)))));

  // down is -1 as an integer: adding it steps the cell down.
  const uint64x2_t cell = vaddq_u64(vreinterpretq_u64_f64(y), down);
  return vreinterpretq_u32_u64(vsubq_u64(cell, vreinterpretq_u64_f64(magic)));
}

static inline void
vsplit(VD lo, VD hi, VF* frac, VI* cell, VI* cell_hi)
{
  VD               fl_lo;
  VD               fl_hi;
  const uint32x4_t c[4] = { vsplit_half(lo.v[0], &fl_lo.v[0]),
                            vsplit_half(lo.v[1], &fl_lo.v[1]),
                            vsplit_half(hi.v[0], &fl_hi.v[0]),
                            vsplit_half(hi.v[1], &fl_hi.v[1]) };
  *frac                 = vf_from_halves(vd_sub(lo, fl_lo), vd_sub(hi, fl_hi));

  // The low halves of the 64-bit lanes, then the high halves.
  for (size_t h = 0U; h < 2U; ++h) {
    cell->v[h]    = vuzp1q_u32(c[2U * h], c[2U * h + 1U]);
    cell_hi->v[h] = vuzp2q_u32(c[2U * h], c[2U * h + 1U]);
  }
}

#undef P4D_PAIR

#include "motion_template.h"
#include "noise_template.h"
#include "phi_map_template.h"
#include "sum_template.h"

const P4dIsaTable p4d_isa_neon = {
  P4D_ISA_NEON, noise_span, noise_points, phi_map,
  motion_read,  motion_exp, motion_sin,   weighted_add,
};
