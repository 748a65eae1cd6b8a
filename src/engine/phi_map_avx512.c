// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

// The Mod's output map on AVX-512, 8 frames as the lanes (see phi_map.h).
// Built with -mavx512f -mavx512dq and called only on a CPU that has them;
// the build's -ffp-contract=off keeps every multiply and add apart, as in
// the scalar path.

#include "phi_map.h"

#include <immintrin.h>

/// Pieces j and k of the table: j in the low half, k in the high.
static inline __m512d
row_pair(const P4dPhiTable* table, int32_t j, int32_t k)
{
  return _mm512_insertf64x4(
    _mm512_castpd256_pd512(_mm256_loadu_pd(table->c[j])),
    _mm256_loadu_pd(table->c[k]),
    1);
}

void
p4d_phi_map_avx512(const P4dPhiTable* table,
                   const float*       z,
                   double             low,
                   double             span,
                   float*             y,
                   uint32_t           n)
{
  const __m512d range = _mm512_set1_pd(P4D_EXACT_PHI_RANGE);
  const __m512d steps = _mm512_set1_pd(P4D_EXACT_PHI_STEPS);
  const __m512d top   = _mm512_set1_pd(P4D_EXACT_PHI_PIECES);
  const __m512d lo    = _mm512_set1_pd(low);
  const __m512d sp    = _mm512_set1_pd(span);
  const __m256  tiny  = _mm256_set1_ps(1.0e-30f);
  const __m256  magn  = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));

  uint32_t i = 0U;
  for (; i + 8U <= n; i += 8U) {
    const __m512d  zd = _mm512_cvtps_pd(_mm256_loadu_ps(z + i));
    const __m512d  u  = _mm512_mul_pd(_mm512_add_pd(zd, range), steps);
    const __mmask8 in = _mm512_cmp_pd_mask(u, _mm512_setzero_pd(), _CMP_GE_OQ) &
                        _mm512_cmp_pd_mask(u, top, _CMP_LT_OQ);
    if (in != 0xFF) {
      // Beyond the table (|z| >= 8, or not a number): the exact formula.
      for (uint32_t j = i; j < i + 8U; ++j) {
        y[j] = p4d_phi_map_one(table, z[j], low, span);
      }
      continue;
    }

    const __m256i k = _mm512_cvttpd_epi32(u);
    const __m512d t = _mm512_sub_pd(u, _mm512_cvtepi32_pd(k));
    // The eight frames' pieces, one row each, transposed into the
    // coefficients as lanes (gathers cost more here).
    int32_t ks[8];
    _mm256_storeu_si256((__m256i*)ks, k);
    const __m512d z0 = row_pair(table, ks[0], ks[4]);
    const __m512d z1 = row_pair(table, ks[1], ks[5]);
    const __m512d z2 = row_pair(table, ks[2], ks[6]);
    const __m512d z3 = row_pair(table, ks[3], ks[7]);
    // Per 128-bit lane: l01 = a0 a1 | c0 c1 | a4 a5 | c4 c5, and so on.
    const __m512d l01  = _mm512_unpacklo_pd(z0, z1);
    const __m512d h01  = _mm512_unpackhi_pd(z0, z1);
    const __m512d l23  = _mm512_unpacklo_pd(z2, z3);
    const __m512d h23  = _mm512_unpackhi_pd(z2, z3);
    const __m512i even = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    const __m512i odd  = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    const __m512d c0   = _mm512_permutex2var_pd(l01, even, l23);
    const __m512d c1   = _mm512_permutex2var_pd(h01, even, h23);
    const __m512d c2   = _mm512_permutex2var_pd(l01, odd, l23);
    const __m512d c3   = _mm512_permutex2var_pd(h01, odd, h23);
    __m512d       p    = _mm512_add_pd(c2, _mm512_mul_pd(t, c3));
    p                  = _mm512_add_pd(c1, _mm512_mul_pd(t, p));
    p                  = _mm512_add_pd(c0, _mm512_mul_pd(t, p));

    const __m256 r = _mm512_cvtpd_ps(_mm512_add_pd(lo, _mm512_mul_pd(sp, p)));
    const __m256 zero = _mm256_cmp_ps(_mm256_and_ps(r, magn), tiny, _CMP_LT_OQ);
    _mm256_storeu_ps(y + i, _mm256_andnot_ps(zero, r));
  }
  for (; i < n; ++i) {
    y[i] = p4d_phi_map_one(table, z[i], low, span);
  }
}
