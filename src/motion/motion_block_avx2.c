// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

// motion_block.h's path with 4 frames per vector.

#define P4D_MB_LANES 4
#define P4D_MB_READ p4d_motion_block_read_avx2
#define P4D_MB_EXP p4d_motion_block_exp_avx2
#define P4D_MB_SIN p4d_motion_block_sin_avx2

#include "motion_block_template.h"
