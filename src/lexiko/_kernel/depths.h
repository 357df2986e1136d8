/*
 * lexiko._kernel, depths.h: the depths of a kwg's arcs (see depths.c).
 */
#ifndef LEXIKO_KERNEL_DEPTHS_H
#define LEXIKO_KERNEL_DEPTHS_H

#include "common.h"

/* For every arc index i of arcs (nk of them), out[i]: in the low 4 bits the most letters
 * on a path from the arcs of index i onwards (to the end of their node) to a word's end,
 * in the high 4 bits the most letters such a path has before the separator; 0 when no
 * word ends below, DEPTH_MAX (15) for 15 or more. 0, or -1 when out of memory. */
int depths_fill(const uint32_t *arcs, uint32_t nk, uint8_t *out);

#endif
