// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

// The Mod's output map on AVX2, 4 frames as the lanes (see phi_map.h).
// Built with -mavx2 -mfma and called only on a CPU that has them; the
// build's -ffp-contract=off keeps every multiply and add apart, as in the
// scalar path.

#include "phi_map.h"

#include <immintrin.h>

void
p4d_phi_map_avx2(const P4dPhiTable* table,
                 const float*       z,
                 double             low,
                 double             span,
                 float*             y,
                 uint32_t           n)
{
  const __m256d range = _mm256_set1_pd(P4D_EXACT_PHI_RANGE);
  const __m256d steps = _mm256_set1_pd(P4D_EXACT_PHI_STEPS);
  const __m256d top   = _mm256_set1_pd(P4D_EXACT_PHI_PIECES);
  const __m256d lo    = _mm256_set1_pd(low);
  const __m256d sp    = _mm256_set1_pd(span);
  const __m128  tiny  = _mm_set1_ps(1.0e-30f);
  const __m128  magn  = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));

  uint32_t i = 0U;
  for (; i + 4U <= n; i += 4U) {
    const __m256d zd = _mm256_cvtps_pd(_mm_loadu_ps(z + i));
    const __m256d u  = _mm256_mul_pd(_mm256_add_pd(zd, range), steps);
    const __m256d in =
      _mm256_and_pd(_mm256_cmp_pd(u, _mm256_setzero_pd(), _CMP_GE_OQ),
                    _mm256_cmp_pd(u, top, _CMP_LT_OQ));
    if (_mm256_movemask_pd(in) != 0xF) {
      // Beyond the table (|z| >= 8, or not a number): the exact formula.
      for (uint32_t j = i; j < i + 4U; ++j) {
        y[j] = p4d_phi_map_one(table, z[j], low, span);
      }
      continue;
    }

    const __m128i k = _mm256_cvttpd_epi32(u);
    const __m256d t = _mm256_sub_pd(u, _mm256_cvtepi32_pd(k));
    // The four frames' pieces, one row each, transposed into the
    // coefficients as lanes (gathers cost more here).
    int32_t ks[4];
    _mm_storeu_si128((__m128i*)ks, k);
    const __m256d r0  = _mm256_loadu_pd(table->c[ks[0]]);
    const __m256d r1  = _mm256_loadu_pd(table->c[ks[1]]);
    const __m256d r2  = _mm256_loadu_pd(table->c[ks[2]]);
    const __m256d r3  = _mm256_loadu_pd(table->c[ks[3]]);
    const __m256d l01 = _mm256_unpacklo_pd(r0, r1);
    const __m256d h01 = _mm256_unpackhi_pd(r0, r1);
    const __m256d l23 = _mm256_unpacklo_pd(r2, r3);
    const __m256d h23 = _mm256_unpackhi_pd(r2, r3);
    const __m256d c0  = _mm256_permute2f128_pd(l01, l23, 0x20);
    const __m256d c1  = _mm256_permute2f128_pd(h01, h23, 0x20);
    const __m256d c2  = _mm256_permute2f128_pd(l01, l23, 0x31);
    const __m256d c3  = _mm256_permute2f128_pd(h01, h23, 0x31);
    __m256d       p   = _mm256_add_pd(c2, _mm256_mul_pd(t, c3));
    p                 = _mm256_add_pd(c1, _mm256_mul_pd(t, p));
    p                 = _mm256_add_pd(c0, _mm256_mul_pd(t, p));

    const __m128 r = _mm256_cvtpd_ps(_mm256_add_pd(lo, _mm256_mul_pd(sp, p)));
    const __m128 zero = _mm_cmplt_ps(_mm_and_ps(r, magn), tiny);
    _mm_storeu_ps(y + i, _mm_andnot_ps(zero, r));
  }
  for (; i < n; ++i) {
    y[i] = p4d_phi_map_one(table, z[i], low, span);
  }
}
