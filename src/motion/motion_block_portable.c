// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

// motion_block.h's path with 2 frames per vector (any target: SSE2 on x86-64).

#define P4D_MB_LANES 2
#define P4D_MB_READ p4d_motion_block_read_portable
#define P4D_MB_EXP p4d_motion_block_exp_portable
#define P4D_MB_SIN p4d_motion_block_sin_portable

#include "motion_block_template.h"
