/*
 * lexiko._kernel, rules.h: the state of a game the kernel plays (PlayOut: the board, the
 * racks, the bag, the generator, the scores) and the rules that change it (rules.c):
 * setting up its board, making a move, drawing, the end of the game.
 */
#ifndef LEXIKO_KERNEL_RULES_H
#define LEXIKO_KERNEL_RULES_H

#include "common.h"
#include "leaves.h"
#include "movegen.h"
#include "rng.h"
#include "wordmap.h"

/* What the static player takes off every play that does not go out once the bag is empty,
 * besides twice the value of the tiles it keeps (lexiko.bots.static.NON_OUTPLAY_PENALTY):
 * a play-out's seats start with it (po_rules); playout and static_games may set others. */
#define NON_OUTPLAY_PENALTY 10.0

#define PO_MAXP 8     /* seats */
#define PO_MAXBAG 1024

typedef struct PlayOut {
    /* fixed for the play-out */
    const uint32_t *kwg;
    uint32_t nk;
    const uint8_t *depth;
    const uint64_t *ana;
    uint64_t ana_mask, alphabet;
    const WmpHead *wmp; /* the word map (NULL: the turns' best placements by run_best) */
    int n, start_r, start_c, sym_dirs;
    const uint8_t *lmult, *wmult;
    uint8_t values[128];
    int bingo_tiles;
    int32_t bonus[MAXN + 1];
    int first_min, rack_size, exchange_min_bag, scoreless_limit, passes_only, exchange_scoreless, end_double;
    int np;
    const LeaveMapHead *maps[PO_MAXP];
    double penalty[PO_MAXP]; /* with the bag empty, taken off every play that does not go out:
                              * NON_OUTPLAY_PENALTY unless the caller gives another */
    /* the position */
    uint8_t cells[MAXN * MAXN];
    uint8_t rack[PO_MAXP][64];
    int rack_n[PO_MAXP];
    uint8_t bag[PO_MAXBAG];
    int nb;
    long long scores[PO_MAXP], before[PO_MAXP]; /* before: the scores before the end's adjustments */
    int turn, scoreless_run, over;
    const char *end_reason;
    Rng rng;
    /* counts */
    int turns, bingos[PO_MAXP], exchanges[PO_MAXP];
    uint8_t kept[PO_MAXP][64]; /* each seat's tiles kept on its last move (counts) */
    int kept_bag[PO_MAXP];     /* and the tiles in the bag after it; -1: no move yet */
    Gen *g;
    Gen *board; /* prepare()'s arrays for cells, kept up to date move by move (po_apply); NULL:
                   po_choose prepares them every turn */
    int last_turn; /* po_apply leaves board behind (no search follows this turn) */
    struct RackCache *cache; /* per seat (PO_MAXP), the last search's setup; NULL: none kept */
    struct BaseBest *base_best; /* per seat (PO_MAXP), on base_board; NULL: none */
    const Gen *base_board;
    uint32_t touched[2]; /* lines whose squares changed since base_board: rows, columns */
} PlayOut;

/* A move as po_apply logs it: (player, kind 0 play / 1 exchange / 2 pass, row, col,
 * down, tiles, score, kept, bag), kept the tiles kept (rack order), bag the tiles in the
 * bag after the move. */
typedef struct {
    int player, kind, row, col, down, score, bag;
    uint8_t tiles[64];
    int ntiles;
    uint8_t kept[64 * 4];
    int nkept;
} PoLog;

/* The board of a play-out, as generate() takes it (sizes checked by the caller): cells
 * (size * size), multipliers, letter values (128), the bonus by number of tiles placed
 * (nbonus int32s, the last for more tiles), the first play's minimum tiles, start square
 * and directions. */
void po_board(PlayOut *po, int size, const uint8_t *cells, const uint8_t *lmult, const uint8_t *wmult,
              const uint8_t *values, int bingo_tiles, const int32_t *bonuses, size_t nbonus, int first_min, int start_r,
              int start_c, int first_dirs);

/* Prepare po->board for po->cells from scratch (a new position). */
void po_board_prepare(PlayOut *po);

/* Seat p draws k tiles from the end of the bag (as many as it holds). */
void po_draw(PlayOut *po, int p, int k);

/* Make the move of the player on turn: kind 0 the placement *mp, 1 the exchange of ex
 * (returned to the bag in that order), 2 a pass; then the draw, the end of the game or
 * the next player. The tiles must be on the rack. log (NULL: none) gets the move. */
void po_apply(PlayOut *po, int kind, const Move *mp, const uint8_t *ex, int nex, PoLog *log);

#endif
