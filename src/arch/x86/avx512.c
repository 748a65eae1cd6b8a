// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  The AVX-512 path: 16 float lanes, 8 double lanes (AVX-512 F and DQ).
  Compiled with those target flags, and called only when the CPU supports
  them (see ../isa.c).  The templates' types and operations, then its
  table.  Gradients are looked up per lane with a two-register permute
  (vpermt2ps), which reads only the low 5 bits of the index.
*/

#include "isa_table.h"

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#define P4D_W 16U
#define P4D_LOOKUP32 1

typedef __m512    VF;
typedef __m512i   VI;
typedef __m512d   VD;
typedef __mmask16 VM;
typedef __mmask8  VDM;
typedef __m512i   VL;

static inline VF
vf_set1(float a)
{
  return _mm512_set1_ps(a);
}

static inline VF
vf_add(VF a, VF b)
{
  return _mm512_add_ps(a, b);
}

static inline VF
vf_sub(VF a, VF b)
{
  return _mm512_sub_ps(a, b);
}

static inline VF
vf_mul(VF a, VF b)
{
  return _mm512_mul_ps(a, b);
}

static inline VF
vf_div(VF a, VF b)
{
  return _mm512_div_ps(a, b);
}

static inline VF
vf_sqrt(VF a)
{
  return _mm512_sqrt_ps(a);
}

/// a * b + c with one rounding: only where a * b is exact.
static inline VF
vf_fma(VF a, VF b, VF c)
{
  return _mm512_fmadd_ps(a, b, c);
}

/// b in the lanes of m, a elsewhere.
static inline VF
vf_blend(VM m, VF a, VF b)
{
  return _mm512_mask_blend_ps(m, a, b);
}

static inline VF
vf_clamp1(VF x)
{
  return _mm512_max_ps(_mm512_min_ps(x, _mm512_set1_ps(1.0f)),
                       _mm512_set1_ps(-1.0f));
}

static inline VF
vf_load(const float* p)
{
  return _mm512_loadu_ps(p);
}

static inline void
vf_store(float* p, VF x)
{
  _mm512_storeu_ps(p, x);
}

static inline VI
vi_add_masked(VI a, VM m, VI b)
{
  return _mm512_mask_add_epi32(a, m, a, b);
}

static inline VF
vf_lookup32(const float table[32], VI index)
{
  return _mm512_permutex2var_ps(
    _mm512_loadu_ps(table), index, _mm512_loadu_ps(table + 16));
}

/// t[i] for i in 0 .. 15: one permute.
static inline VF
vf_lookup_w(const float t[16], VI index)
{
  return _mm512_permutexvar_ps(index, _mm512_loadu_ps(t));
}

static inline VI
vi_load(const uint32_t* p)
{
  return _mm512_loadu_si512((const void*)p);
}

static inline VI
vi_lookup32_halves(const uint32_t lo[16], const uint32_t hi[16], VI index)
{
  return _mm512_permutex2var_epi32(_mm512_loadu_si512((const void*)lo),
                                   index,
                                   _mm512_loadu_si512((const void*)hi));
}

static inline VF
vf_from_halves(VD lo, VD hi)
{
  return _mm512_insertf32x8(
    _mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1);
}

static inline VI
vi_set1(uint32_t a)
{
  return _mm512_set1_epi32((int)a);
}

static inline VI
vi_add(VI a, VI b)
{
  return _mm512_add_epi32(a, b);
}

static inline VI
vi_xor(VI a, VI b)
{
  return _mm512_xor_si512(a, b);
}

static inline VI
vi_srl(VI a, unsigned n)
{
  return _mm512_srli_epi32(a, n);
}

static inline VI
vi_mullo(VI a, VI b)
{
  return _mm512_mullo_epi32(a, b);
}

static inline void
vi_store(uint32_t* p, VI x)
{
  _mm512_storeu_si512((void*)p, x);
}

static inline VI
vi_lane_index(void)
{
  return _mm512_setr_epi32(
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

static inline VM
vi_eq(VI a, VI b)
{
  return _mm512_cmpeq_epi32_mask(a, b);
}

static inline VM
vm_none(void)
{
  return 0U;
}

static inline VD
vd_set1(double a)
{
  return _mm512_set1_pd(a);
}

static inline VD
vd_add(VD a, VD b)
{
  return _mm512_add_pd(a, b);
}

static inline VD
vd_sub(VD a, VD b)
{
  return _mm512_sub_pd(a, b);
}

static inline VD
vd_mul(VD a, VD b)
{
  return _mm512_mul_pd(a, b);
}

static inline VD
vd_floor(VD a)
{
  return _mm512_roundscale_pd(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
}

static inline VD
vd_load(const double* p)
{
  return _mm512_loadu_pd(p);
}

static inline void
vd_store(double* p, VD x)
{
  _mm512_storeu_pd(p, x);
}

static inline VD
vd_load_floats(const float* p)
{
  return _mm512_cvtps_pd(_mm256_loadu_ps(p));
}

static inline void
vd_store_floats_flushed(float* p, VD x, float tiny)
{
  const __m256 r    = _mm512_cvtpd_ps(x);
  const __m256 magn = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
  const __m256 zero =
    _mm256_cmp_ps(_mm256_and_ps(r, magn), _mm256_set1_ps(tiny), _CMP_LT_OQ);
  _mm256_storeu_ps(p, _mm256_andnot_ps(zero, r));
}

static inline VDM
vd_lt(VD a, VD b)
{
  return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ);
}

static inline VDM
vd_eq(VD a, VD b)
{
  return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ);
}

/// b in the lanes of m, a elsewhere.
static inline VD
vd_blend(VDM m, VD a, VD b)
{
  return _mm512_mask_blend_pd(m, a, b);
}

static inline bool
vd_all_within(VD x, VD lo, VD hi)
{
  return (_mm512_cmp_pd_mask(x, lo, _CMP_GE_OQ) & vd_lt(x, hi)) == 0xFF;
}

static inline VD
vd_trunc_index(VD x, int32_t* k)
{
  const __m256i i = _mm512_cvttpd_epi32(x);
  _mm256_storeu_si256((__m256i*)(void*)k, i);
  return _mm512_cvtepi32_pd(i);
}

/// Rows j and k of rows: j in the low half, k in the high.
static inline VD
row_pair(const double (*rows)[4], int32_t j, int32_t k)
{
  return _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_loadu_pd(rows[j])),
                            _mm256_loadu_pd(rows[k]),
                            1);
}

/// The 8 rows k[0..7], transposed: c[j] holds their column j.
static inline void
vd_columns4(const double (*rows)[4], const int32_t* k, VD c[4])
{
  const VD z0 = row_pair(rows, k[0], k[4]);
  const VD z1 = row_pair(rows, k[1], k[5]);
  const VD z2 = row_pair(rows, k[2], k[6]);
  const VD z3 = row_pair(rows, k[3], k[7]);
  // Per 128-bit lane: l01 = a0 a1 | c0 c1 | a4 a5 | c4 c5, and so on.
  const VD      l01  = _mm512_unpacklo_pd(z0, z1);
  const VD      h01  = _mm512_unpackhi_pd(z0, z1);
  const VD      l23  = _mm512_unpacklo_pd(z2, z3);
  const VD      h23  = _mm512_unpackhi_pd(z2, z3);
  const __m512i even = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
  const __m512i odd  = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  c[0]               = _mm512_permutex2var_pd(l01, even, l23);
  c[1]               = _mm512_permutex2var_pd(h01, even, h23);
  c[2]               = _mm512_permutex2var_pd(l01, odd, l23);
  c[3]               = _mm512_permutex2var_pd(h01, odd, h23);
}

static inline VL
vd_trunc(VD x)
{
  return _mm512_cvttpd_epi64(x);
}

static inline VD
vl_to_vd(VL k)
{
  return _mm512_cvtepi64_pd(k);
}

static inline VD
vl_pow2(VL k)
{
  return _mm512_castsi512_pd(
    _mm512_slli_epi64(_mm512_add_epi64(k, _mm512_set1_epi64(1023)), 52));
}

/// Lane offsets of half h of a block of n points: the last point repeats.
static inline VD
vd_lane_times(unsigned h, size_t n)
{
  const VD lane =
    _mm512_add_pd(_mm512_set_pd(7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0),
                  _mm512_set1_pd(8.0 * h));
  return _mm512_min_pd(lane, _mm512_set1_pd((double)(n - 1U)));
}

/*
  Split of 8 coordinates, as split() does it: adding 1.5 * 2^52 rounds to
  the nearest integer r in the low bits of the sum; stepping down where
  r > v gives cell_floor() (with its +0).  The sum's bits, less that step
  and less the bits of 1.5 * 2^52, are the 64-bit cell.  Exact for
  |v| < 2^51.
*/
static inline void
vsplit_half(VD v, VD* fl, __m512i* cell64)
{
  const VD       magic = _mm512_set1_pd(0x1.8p52);
  const VD       y     = _mm512_add_pd(v, magic);
  const VD       r     = _mm512_sub_pd(y, magic);
  const __mmask8 down  = _mm512_cmp_pd_mask(r, v, _CMP_GT_OQ);
  const __m512i  bits =
    _mm512_sub_epi64(_mm512_castpd_si512(y), _mm512_castpd_si512(magic));
  *fl     = _mm512_mask_sub_pd(r, down, r, _mm512_set1_pd(1.0));
  *cell64 = _mm512_mask_sub_epi64(bits, down, bits, _mm512_set1_epi64(1));
}

static inline void
vsplit(VD lo, VD hi, VF* frac, VI* cell, VI* cell_hi)
{
  VD      fl_lo;
  VD      fl_hi;
  __m512i c_lo;
  __m512i c_hi;
  vsplit_half(lo, &fl_lo, &c_lo);
  vsplit_half(hi, &fl_hi, &c_hi);
  *frac = vf_from_halves(_mm512_sub_pd(lo, fl_lo), _mm512_sub_pd(hi, fl_hi));

  // The low, then the high 32 bits of each 64-bit lane, lo then hi.
  const __m512i even =
    _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i odd =
    _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  *cell    = _mm512_permutex2var_epi32(c_lo, even, c_hi);
  *cell_hi = _mm512_permutex2var_epi32(c_lo, odd, c_hi);
}

#include "motion_template.h"
#include "noise_template.h"
#include "phi_map_template.h"
#include "sum_template.h"

const P4dIsaTable p4d_isa_avx512 = {
  P4D_ISA_AVX512, noise_span, noise_points, phi_map,
  motion_read,    motion_exp, motion_sin,   weighted_add,
};
