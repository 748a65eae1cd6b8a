// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The AVX2 path: 8 float lanes, 4 double lanes (AVX2 and FMA).  Compiled
  with those target flags, and called only when the CPU supports them (see
  ../isa.c).  The templates' types and operations, then its table.  A
  per-lane lookup in 32 entries is four in-register permutes
  (vpermps/vpermd, which read the low 3 bits of the index) and two blends
  by bits 3 and 4: on Zen 3 cheaper than vpgatherdd, and it needs no
  memory access per lane.
*/

#include "isa_table.h"

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#define P4D_W 8U
#define P4D_LOOKUP32 1
/// Blending up to 8 w layers by broadcasts is cheaper on 8 lanes than a
/// gather from the layers (which has to look up 20 values per lane).
#define P4D_GATHER_LAYERS 9U

typedef __m256  VF;
typedef __m256i VI;
typedef __m256d VD;
typedef __m256  VM;
typedef __m256d VDM;
typedef __m256i VL;

static inline VF
vf_set1(float a)
{
  return _mm256_set1_ps(a);
}

static inline VF
vf_add(VF a, VF b)
{
  return _mm256_add_ps(a, b);
}

static inline VF
vf_sub(VF a, VF b)
{
  return _mm256_sub_ps(a, b);
}

static inline VF
vf_mul(VF a, VF b)
{
  return _mm256_mul_ps(a, b);
}

static inline VF
vf_div(VF a, VF b)
{
  return _mm256_div_ps(a, b);
}

static inline VF
vf_sqrt(VF a)
{
  return _mm256_sqrt_ps(a);
}

/// a * b + c with one rounding: only where a * b is exact.
static inline VF
vf_fma(VF a, VF b, VF c)
{
  return _mm256_fmadd_ps(a, b, c);
}

/// b in the lanes of m, a elsewhere.
static inline VF
vf_blend(VM m, VF a, VF b)
{
  return _mm256_blendv_ps(a, b, m);
}

static inline VF
vf_clamp1(VF x)
{
  return _mm256_max_ps(_mm256_min_ps(x, _mm256_set1_ps(1.0f)),
                       _mm256_set1_ps(-1.0f));
}

static inline VF
vf_load(const float* p)
{
  return _mm256_loadu_ps(p);
}

static inline void
vf_store(float* p, VF x)
{
  _mm256_storeu_ps(p, x);
}

static inline VI
vi_add_masked(VI a, VM m, VI b)
{
  return _mm256_add_epi32(a, _mm256_and_si256(_mm256_castps_si256(m), b));
}

/// t[i] for i in 0 .. 31: the permutes read bits 0-2, the blends bit 3
/// (moved to the sign, which blendv reads) and then bit 4.
static inline VF
vf_lookup32(const float t[32], VI index)
{
  const VF bit3 = _mm256_castsi256_ps(_mm256_slli_epi32(index, 28));
  const VF bit4 = _mm256_castsi256_ps(_mm256_slli_epi32(index, 27));
  const VF a    = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t), index);
  const VF b    = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t + 8), index);
  const VF c    = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t + 16), index);
  const VF d    = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t + 24), index);
  return _mm256_blendv_ps(
    _mm256_blendv_ps(a, b, bit3), _mm256_blendv_ps(c, d, bit3), bit4);
}

/// t[i] for i in 0 .. 7: one permute.
static inline VF
vf_lookup_w(const float t[8], VI index)
{
  return _mm256_permutevar8x32_ps(_mm256_loadu_ps(t), index);
}

static inline VI
vi_load(const uint32_t* p)
{
  return _mm256_loadu_si256((const __m256i*)(const void*)p);
}

/// lo[i] for i < 16, else hi[i - 16]: vf_lookup32() on the bits.
static inline VI
vi_lookup32_halves(const uint32_t lo[16], const uint32_t hi[16], VI index)
{
  const VF bit3 = _mm256_castsi256_ps(_mm256_slli_epi32(index, 28));
  const VF bit4 = _mm256_castsi256_ps(_mm256_slli_epi32(index, 27));
  const VF a =
    _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(vi_load(lo), index));
  const VF b =
    _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(vi_load(lo + 8), index));
  const VF c =
    _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(vi_load(hi), index));
  const VF d =
    _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(vi_load(hi + 8), index));
  return _mm256_castps_si256(_mm256_blendv_ps(
    _mm256_blendv_ps(a, b, bit3), _mm256_blendv_ps(c, d, bit3), bit4));
}

static inline VF
vf_from_halves(VD lo, VD hi)
{
  return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}

static inline VI
vi_set1(uint32_t a)
{
  return _mm256_set1_epi32((int)a);
}

static inline VI
vi_add(VI a, VI b)
{
  return _mm256_add_epi32(a, b);
}

static inline VI
vi_xor(VI a, VI b)
{
  return _mm256_xor_si256(a, b);
}

static inline VI
vi_srl(VI a, unsigned n)
{
  return _mm256_srli_epi32(a, (int)n);
}

static inline VI
vi_mullo(VI a, VI b)
{
  return _mm256_mullo_epi32(a, b);
}

static inline void
vi_store(uint32_t* p, VI x)
{
  _mm256_storeu_si256((__m256i*)(void*)p, x);
}

static inline VI
vi_lane_index(void)
{
  return _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
}

static inline VM
vi_eq(VI a, VI b)
{
  return _mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b));
}

static inline VM
vm_none(void)
{
  return _mm256_setzero_ps();
}

static inline VD
vd_set1(double a)
{
  return _mm256_set1_pd(a);
}

static inline VD
vd_add(VD a, VD b)
{
  return _mm256_add_pd(a, b);
}

static inline VD
vd_sub(VD a, VD b)
{
  return _mm256_sub_pd(a, b);
}

static inline VD
vd_mul(VD a, VD b)
{
  return _mm256_mul_pd(a, b);
}

static inline VD
vd_floor(VD a)
{
  return _mm256_round_pd(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
}

static inline VD
vd_load(const double* p)
{
  return _mm256_loadu_pd(p);
}

static inline void
vd_store(double* p, VD x)
{
  _mm256_storeu_pd(p, x);
}

static inline VD
vd_load_floats(const float* p)
{
  return _mm256_cvtps_pd(_mm_loadu_ps(p));
}

static inline void
vd_store_floats_flushed(float* p, VD x, float tiny)
{
  const __m128 r    = _mm256_cvtpd_ps(x);
  const __m128 magn = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
  const __m128 zero = _mm_cmplt_ps(_mm_and_ps(r, magn), _mm_set1_ps(tiny));
  _mm_storeu_ps(p, _mm_andnot_ps(zero, r));
}

static inline VDM
vd_lt(VD a, VD b)
{
  return _mm256_cmp_pd(a, b, _CMP_LT_OQ);
}

static inline VDM
vd_eq(VD a, VD b)
{
  return _mm256_cmp_pd(a, b, _CMP_EQ_OQ);
}

/// b in the lanes of m, a elsewhere.
static inline VD
vd_blend(VDM m, VD a, VD b)
{
  return _mm256_blendv_pd(a, b, m);
}

static inline bool
vd_all_within(VD x, VD lo, VD hi)
{
  const VDM in = _mm256_and_pd(_mm256_cmp_pd(x, lo, _CMP_GE_OQ), vd_lt(x, hi));
  return _mm256_movemask_pd(in) == 0xF;
}

static inline VD
vd_trunc_index(VD x, int32_t* k)
{
  const __m128i i = _mm256_cvttpd_epi32(x);
  _mm_storeu_si128((__m128i*)(void*)k, i);
  return _mm256_cvtepi32_pd(i);
}

/// The 4 rows k[0..3], transposed: c[j] holds their column j.
static inline void
vd_columns4(const double (*rows)[4], const int32_t* k, VD c[4])
{
  const VD r0  = _mm256_loadu_pd(rows[k[0]]);
  const VD r1  = _mm256_loadu_pd(rows[k[1]]);
  const VD r2  = _mm256_loadu_pd(rows[k[2]]);
  const VD r3  = _mm256_loadu_pd(rows[k[3]]);
  const VD l01 = _mm256_unpacklo_pd(r0, r1);
  const VD h01 = _mm256_unpackhi_pd(r0, r1);
  const VD l23 = _mm256_unpacklo_pd(r2, r3);
  const VD h23 = _mm256_unpackhi_pd(r2, r3);
  c[0]         = _mm256_permute2f128_pd(l01, l23, 0x20);
  c[1]         = _mm256_permute2f128_pd(h01, h23, 0x20);
  c[2]         = _mm256_permute2f128_pd(l01, l23, 0x31);
  c[3]         = _mm256_permute2f128_pd(h01, h23, 0x31);
}

/// AVX2 has no conversion between doubles and 64-bit integers: GNU C's
/// conversion, lane by lane, is C's.
static inline VL
vd_trunc(VD x)
{
  return __builtin_convertvector(x, VL);
}

static inline VD
vl_to_vd(VL k)
{
  return __builtin_convertvector(k, VD);
}

static inline VD
vl_pow2(VL k)
{
  return _mm256_castsi256_pd(
    _mm256_slli_epi64(_mm256_add_epi64(k, _mm256_set1_epi64x(1023)), 52));
}

/// Lane offsets of half h of a block of n points: the last point repeats.
static inline VD
vd_lane_times(unsigned h, size_t n)
{
  const VD lane =
    _mm256_add_pd(_mm256_set_pd(3.0, 2.0, 1.0, 0.0), _mm256_set1_pd(4.0 * h));
  return _mm256_min_pd(lane, _mm256_set1_pd((double)(n - 1U)));
}

/*
  Split of 4 coordinates, as split() does it: adding 1.5 * 2^52 rounds to
  the nearest integer r in the low bits of the sum; stepping down where
  r > v gives cell_floor() (with its +0).  The sum's bits, less that step
  and less the bits of 1.5 * 2^52, are the 64-bit cell.  Exact for
  |v| < 2^51.
*/
static inline __m256i
vsplit_half(VD v, VD* fl)
{
  const VD magic = _mm256_set1_pd(0x1.8p52);
  const VD y     = _mm256_add_pd(v, magic);
  const VD r     = _mm256_sub_pd(y, magic);
  const VD down  = _mm256_cmp_pd(r, v, _CMP_GT_OQ);
  *fl            = _mm256_sub_pd(r, _mm256_and_pd(down, _mm256_set1_pd(1.0)));

  // down is -1 as an integer: adding it steps the cell down.
  const __m256i cell =
    _mm256_add_epi64(_mm256_castpd_si256(y), _mm256_castpd_si256(down));
  return _mm256_sub_epi64(cell, _mm256_castpd_si256(magic));
}

static inline void
vsplit(VD lo, VD hi, VF* frac, VI* cell, VI* cell_hi)
{
  VD            fl_lo;
  VD            fl_hi;
  const __m256i c_lo = vsplit_half(lo, &fl_lo);
  const __m256i c_hi = vsplit_half(hi, &fl_hi);
  *frac = vf_from_halves(_mm256_sub_pd(lo, fl_lo), _mm256_sub_pd(hi, fl_hi));

  // The low halves of the 64-bit lanes, then the high halves.
  const __m256i halves = _mm256_set_epi32(7, 5, 3, 1, 6, 4, 2, 0);
  const __m256i a      = _mm256_permutevar8x32_epi32(c_lo, halves);
  const __m256i b      = _mm256_permutevar8x32_epi32(c_hi, halves);
  *cell                = _mm256_permute2x128_si256(a, b, 0x20);
  *cell_hi             = _mm256_permute2x128_si256(a, b, 0x31);
}

#include "motion_template.h"
#include "noise_template.h"
#include "phi_map_template.h"
#include "sum_template.h"

const P4dIsaTable p4d_isa_avx2 = {
  P4D_ISA_AVX2, noise_span, noise_points, phi_map,
  motion_read,  motion_exp, motion_sin,   weighted_add,
};
