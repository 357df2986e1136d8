/*
 * lexiko._kernel, movegen.h: the GADDAG walk's contract (see movegen.c): set a Gen up
 * for a board (prepare), search it (run), then read g->moves / g->count; the pieces the
 * word map's and Clabbers' searches and the endgame share (record, cross_set,
 * anchor_bounds, set_line) and the move-by-move update of a board (gen_make).
 */
#ifndef LEXIKO_KERNEL_MOVEGEN_H
#define LEXIKO_KERNEL_MOVEGEN_H

#include "common.h"

/* The state of a square in the Gen's arrays, both directions (what gen_make changes). */
typedef struct {
    uint64_t xc[2];
    int32_t xs[2];
    uint8_t r, c, cell, anchor;
} SquareUndo;

/* Free what a search left in g (its moves too: take them first when they are wanted). */
void gen_free(Gen *g);

/* Record the play of the current line from start to end (g->word, g->placed and g->leave
 * set) scoring score before the bonus for its tiles: counted, listed, or kept among the
 * best N. */
void record(Gen *g, int start, int end, int score);

/* Letters that may go on (r, c) given the tiles before and after it along (dr, dc);
 * the points of those tiles in *score (-1: no cross word). */
uint64_t cross_set(const Gen *g, const uint8_t *cells, int r, int c, int dr, int dc, int32_t *score);

/* The Gen's arrays for a board (cells, multipliers: size g->n squared), anchors and
 * cross-checks; the start square when the board is empty. */
void prepare(Gen *g, const uint8_t *cells, const uint8_t *lmult, const uint8_t *wmult, int start_r, int start_c);

/* Best mode: the score bounds of the anchor being looked at (see movegen.c). */
void anchor_bounds(Gen *g, uint64_t have, int *any);

/* Best mode: the per-call data of the bounds (rack values, best leaves); 0 when the
 * rack cannot be pruned (too large, or a NaN leave value). */
int prune_setup(Gen *g, const uint8_t *full, uint32_t nleaves);

/* The search the Gen is set up for: every placement, the count, or the best N (pruned
 * walk, word map or Clabbers). */
void run(Gen *g);

/* Sort g->moves, best first (move_cmp). */
void sort_moves(Gen *g);

/* g holds prepare()'s arrays for the board before m, cells the board with m: bring the
 * arrays up to date; undo (NULL: none) keeps what changed, touched (NULL: none) gets
 * the rows and columns changed (bits). */
void gen_make(Gen *g, const uint8_t *cells, const Move *m, SquareUndo *undo, size_t *nundo, uint32_t *touched);

/* Point the Gen's line fields at a line of direction dir (0 across, 1 down). */
static inline void set_line(Gen *g, int dir, int line)
{
    int base = line * MAXN;
    g->dir = dir;
    g->line = line;
    g->lc = g->cell[dir] + base;
    g->lx = g->xcheck[dir] + base;
    g->lxs = g->xscore[dir] + base;
    g->llm = g->lm[dir] + base;
    g->lwm = g->wm[dir] + base;
}

#endif
