/*
 * lexiko._kernel, clabbers.h: Clabbers' contract (see clabbers.c).
 */
#ifndef LEXIKO_KERNEL_CLABBERS_H
#define LEXIKO_KERNEL_CLABBERS_H

#include "common.h"

/* Letters that may go on (r, c) in Clabbers given the tiles before and after it along
 * (dr, dc); the points of those tiles in *score (-1: no cross word). */
uint64_t alpha_cross_set(const Gen *g, const uint8_t *cells, int r, int c, int dr, int dc, int32_t *score);

/* The search of a Gen set up for Clabbers (g->clabbers): every placement, the count, or
 * the best N. */
void run_clabbers(Gen *g);

#endif
