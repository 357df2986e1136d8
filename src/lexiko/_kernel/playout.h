/*
 * lexiko._kernel, playout.h: the static player's turns in the kernel (playout.c): its
 * choice of a move (po_choose), a turn (po_turn), whole games from a seed
 * (po_static_game), and what a play-out keeps from one search to the next.
 */
#ifndef LEXIKO_KERNEL_PLAYOUT_H
#define LEXIKO_KERNEL_PLAYOUT_H

#include "rules.h"

/* -- play-outs: the static player's turns in the kernel ------------------------------
 *
 * playout() plays whole turns of the static player for every seat (each with its own
 * packed leave map) from a position until the game ends or a number of turns is done:
 * best placement by equity (the leave map's values while the bag holds tiles; once it is
 * empty, going out earns twice the other racks' value and each tile kept costs twice
 * its own), against the best exchange and the pass, ties broken as lexiko.movegen's
 * sort_key does; tiles drawn from the end of the bag; an exchange returns its tiles and
 * shuffles the bag with lexiko's own generator (rng.h, lexiko.rng, from the state
 * Rng.getstate() gives), so a game played here is the game lexiko.game.Game
 * plays with lexiko.bots.StaticBot, move for move.
 */


/* What a turn's search sets up from the rack alone, kept for the next turn of the same
 * seat with the same rack (simulate(): the first opponent's rack after each candidate is
 * the same in every play-out of an iteration): the sub-racks' leave values while the bag
 * holds tiles, prune_setup's and wmp_setup's results. Kept only when the word map
 * searches (no maxsub), the only case those results are all there is. */
typedef struct RackCache {
    int valid;     /* vals holds the values for rack and map; setup too when has_setup */
    int has_setup;
    uint8_t rack[64];
    const LeaveMapHead *map;
    double *vals;
    uint64_t vals_cap;
    /* prune_setup */
    int vals_desc[PRUNE_MAX_RACK], top[PRUNE_MAX_RACK + 1], vmax, blanks0;
    double lmax[PRUNE_MAX_RACK + 1];
    uint64_t hnat, avail;
    /* wmp_setup (owned here, not by the Gen) */
    SubRack *subs;
    const SubRack **cand;
    double *cand_e;
    int sub_at[PRUNE_MAX_RACK + 2];
    int ncodes;
    uint8_t codes[PRUNE_MAX_RACK];
    /* the best exchange (or the pass) when every exchange is open (the bag holds a rack's
     * worth of tiles): the same for any such bag */
    int ex_valid, ex_kind, ex_n;
    double ex_eq;
    uint8_t ex_tiles[64];
} RackCache;

/* A seat's best placements on a board (simulate(): the position before the candidates,
 * with the rack the seat is dealt for an iteration), to find its best on a board made
 * from that one by a few moves: a line (a row for plays across, a column for plays down)
 * those moves did not touch holds the same plays with the same scores, so the best
 * placement there is the first of these on an untouched line, and only the touched lines
 * are searched, for something better. */
#define BB_N 8
typedef struct BaseBest {
    int valid;
    uint8_t rack[64];
    Move moves[BB_N]; /* the best, best first (move_cmp) */
    int n;
    int all; /* n < BB_N: these are all the placements there are */
} BaseBest;

/* Free what a RackCache holds, and zero it. */
void rack_cache_free(RackCache *rc);

/* Set g (the lexicon, board and first-play fields already set) to list the best_n
 * placements of rack full by equity with leave values vals (NULL: the score alone),
 * those below floor (NaN: none) left out (rc: NULL, or the seat's cache). */
void po_gen_best(Gen *g, const PlayOut *po, const uint8_t *full, const double *vals, size_t best_n, double floor,
                 RackCache *rc);

/* Set g to the lexicon and the board of po->cells for a search. */
void po_search_gen(PlayOut *po, Gen *g);

/* The tiles of rack full not kept by the sub-rack whose digits (counts of codes[j]) are
 * given, in rack order (letters by code, then blanks), into out; how many. */
int exchanged_tiles(const uint8_t *full, const int *codes, const int *digit, int nc, uint8_t *out);

/* One placement, exchange or pass of the player on turn, as generate() and the static
 * player choose it. kind: 0 placement (m), 1 exchange (ex, nex), 2 pass. -1: no memory. */
int po_choose(PlayOut *po, Move *m, uint8_t *ex, int *nex);

/* Seat p's best placements on po->base_board into po->base_best[p]. -1: no memory. */
int po_fill_base_best(PlayOut *po, int p);

/* The static player's turn for the player on turn (log: NULL, or the move made): 0, or
 * -1 when out of memory. */
int po_turn(PlayOut *po, PoLog *log);

/* A whole game of the static player from an empty board (po set up: board, rules, maps,
 * penalties, np): what lexiko.game.Game(seed=seed, first_player=first) deals, played to
 * its end. 0, -1 out of memory, -2 the game did not end. */
int po_static_game(PlayOut *po, uint64_t seed, const uint8_t *bag0, int nbag, int first, int first_min0, int dirs0);

#endif
