/*
 * lexiko._kernel, endgame.h: the endgame solver's state (Eg) and the contract between
 * its units: endgame.c (the search), endgame_moves.c (the move lists of a node and the
 * bounds against a one-tile rack), endgame_cut.c (the lexicon cut to the endgame's
 * words). The bindings' endgame() drives the iterative deepening (eg_deepen_*).
 */
#ifndef LEXIKO_KERNEL_ENDGAME_H
#define LEXIKO_KERNEL_ENDGAME_H

#include "movegen.h"
#include "rules.h"

/* -- endgame: the two-player game with the bag empty, solved in the kernel ------------
 *
 * What lexiko.bots.endgame's solver does, compiled: negamax with alpha-beta and
 * principal variation search, a transposition table (Zobrist keys of the board, both
 * racks and the scoreless run), iterative deepening for EG_DEEPEN plies (stopped at
 * EG_DEEPEN_NODES, EG_DEEPEN_NODES_BLANK with a blank on a rack) and then a search to
 * the end of every line; below the depth limit a position is valued by a greedy play-out
 * (each side plays its highest-scoring placement).
 *
 * At a node the best play going out is tried first: no other play going out can be
 * worth more (those are not searched), and it often cuts off at once. With one tile
 * left every play goes out, so the best placement of the tile is found by a look at
 * each anchor; going out then is the exact value (the pass is worth no more: see
 * eg_node), and when both sides hold one tile the value follows from their best plays
 * and the run of scoreless turns with no search (eg_last_tiles). A side with no play
 * makes at most the scoreless end. Then the table's move, the others by score, the pass
 * last. One Gen is kept prepared for the board of the node searched
 * (eg_make/eg_unmake change only the squares a play touches).
 *
 * Against an opponent holding one tile, every play is bounded above without being
 * searched (the opponent can go out next turn; a side left with one tile makes at most
 * its best afterwards plus twice the opponent's tile): plays go by the bound, and stop
 * once it is at most alpha (eg_node). The generator walks a GADDAG cut to the words the
 * endgame can make (eg_cut_lexicon), and a rack of two tiles is listed square by square
 * (eg_two).
 */
#define EG_INF 1000000000
#define EG_MAXPLY 64
#define EG_COMPLETE 32767
#define EG_DEEPEN 4 /* plies searched by iterative deepening before the search to the end */
#define EG_DEEPEN_NODES 200000 /* ... within this many nodes (its play-outs are dear with blanks) */
#define EG_DEEPEN_NODES_BLANK 20000 /* ... this many when a rack holds a blank */
enum { EG_EXACT = 0, EG_LOWER = 1, EG_UPPER = 2 };

typedef struct {
    uint64_t key, mhash;
    int32_t value;
    int16_t depth;
    uint8_t flag : 2, has_move : 1;
    uint8_t work; /* log2 of the nodes its search took (the replacement keeps the dearer) */
} EgEntry;

typedef struct {
    uint64_t key;
    int32_t value;
    int32_t used;
} EgPlay;

/* The state of a square in the Gen's arrays, both directions (see eg_make). */
typedef SquareUndo EgUndo;
/* a tile played saves its square and at most 4 more; a line of the search plays at most
 * the tiles of both racks */
#define EG_UNDO_MAX (2 * PRUNE_MAX_RACK * 5)

/* Answers of eg_is_word kept by the search: the same main words come back at node
 * after node. k1: the first ten letters (6 bits each), k2: the next nine, the length
 * in bits 56-62 and the answer in bit 63 (0 0: an empty slot). */
typedef struct {
    uint64_t k1, k2;
} EgWord;

typedef struct Eg {
    PlayOut *po; /* board constants and the Gen, kept prepared for the board being searched */
    EgUndo undo[EG_UNDO_MAX];
    size_t nundo;
    int root_empty; /* the board searched from is empty */
    int zero_tiles, board_zero; /* tiles worth no points on the racks searched from; on the board */
    int limit, penalties;
    EgEntry *tt;
    uint64_t tt_mask;
    EgPlay *pc;
    uint64_t pc_mask;
    EgWord *wc; /* eg_is_word_kept's answers (NULL: none) */
    uint64_t wc_mask;
    long long nodes;
    int seldepth; /* the most moves in a line searched (this iteration) */
    double deadline; /* CLOCK_MONOTONIC seconds; 0: none */
    long long node_cap; /* nodes: 0: none */
    int timed_out;
    long long ticks; /* calls of eg_check_time: the clock is read every EG_CLOCK_EVERY */
    int root_partial, root_value; /* the root stopped by the clock: the best valued so far */
    Move killer[EG_MAXPLY + 1]; /* by ply: the last play going out that cut off there */
    uint8_t has_killer[EG_MAXPLY + 1];
    Move pv[EG_MAXPLY + 1][EG_MAXPLY + 1];
    uint8_t pvpass[EG_MAXPLY + 1][EG_MAXPLY + 1];
    int pvlen[EG_MAXPLY + 1];
} Eg;

static inline uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static inline uint64_t eg_square_key(int sq, uint8_t code) { return mix64((uint64_t)sq * 131 + code + 1); }

/* A rack's counts read eight at a time: a rack holds few codes, so most words are 0. */
static inline uint64_t eg_word(const uint8_t *rack, int w)
{
    uint64_t x;
    memcpy(&x, rack + 8 * w, 8);
    return x;
}

static inline uint64_t eg_rack_key(const uint8_t *rack, uint64_t salt)
{
    uint64_t h = 0;
    for (int w = 0; w < 8; w++)
        for (uint64_t x = eg_word(rack, w); x; x &= ~((uint64_t)0xFF << (__builtin_ctzll(x) & ~7))) {
            int c = 8 * w + (__builtin_ctzll(x) >> 3);
            h += mix64(salt + (uint64_t)c * 17 + rack[c]);
        }
    return h;
}

static inline uint64_t eg_move_hash(const Move *m)
{
    uint64_t h = mix64((uint64_t)m->row << 16 | (uint64_t)m->col << 8 | m->down) ^ m->len;
    for (int j = 0; j < m->len; j++)
        h = mix64(h + m->tiles[j]);
    return h | 1; /* 0: the pass */
}

static inline int eg_value(const Eg *eg, const uint8_t *rack)
{
    int v = 0;
    for (int w = 0; w < 8; w++)
        for (uint64_t x = eg_word(rack, w); x; x &= ~((uint64_t)0xFF << (__builtin_ctzll(x) & ~7))) {
            int c = 8 * w + (__builtin_ctzll(x) >> 3);
            if (c)
                v += rack[c] * eg->po->values[c];
        }
    return v;
}

static inline int eg_tiles(const uint8_t *rack)
{
    int k = 0;
    for (int w = 0; w < 8; w++)
        k += (int)((eg_word(rack, w) * 0x0101010101010101ULL) >> 56); /* a word's counts sum below 256 */
    return k;
}

enum { EG_ALL = 0, EG_BEST = 1, EG_SINGLE = 2 };

#define EG_TILE_WEIGHT 6 /* points a tile played adds to a play's place in the search order */

typedef struct {
    int32_t key, idx;
    const Move *m; /* NULL: ties go by idx */
    int32_t key2;  /* eg_order2_cmp: the order's key (score and tiles) */
    uint8_t tt, pass;
} EgOrder;

/* An anchor square and the most the opponent's one tile scores there. */
typedef struct {
    int32_t score;
    int32_t sq; /* r * MAXN + c */
} EgSq;

/* The tiles a move puts down. */
static inline int eg_placed(const Move *m)
{
    int k = 0;
    for (int j = 0; j < m->len; j++)
        k += m->tiles[j] != 0;
    return k;
}

/* -- endgame_moves.c ---------------------------------------------------------------- */

/* The search's Gen holds prepare()'s arrays for the board before m: gen_make, kept on
 * the undo stack. Returns the mark to give eg_unmake. */
size_t eg_make(Eg *eg, const uint8_t *cells, const Move *m);

/* Back to the board of the mark eg_make returned. */
void eg_unmake(Eg *eg, size_t mark);

/* The highest-scoring placement of rack's one tile in *m (0: it has no place). */
int eg_single_best(const Gen *g, const uint8_t *rack, Move *m);

/* Whether m (a play made on another board) is a play of the whole rack on the Gen's
 * board; its score then in *score. */
int eg_check_out(const Gen *g, const Move *m, const uint8_t *rack, int *score);

/* Placements of rack on the search's board (EG_ALL, EG_BEST or EG_SINGLE) in *out
 * (the caller frees it), *count of them. -1: no memory. */
int eg_generate(Eg *eg, const uint8_t *rack, int mode, Move **out, size_t *count);

/* Put m's tiles on cells (side n), taking them off rack. */
void eg_place(uint8_t *cells, int n, const Move *m, uint8_t *rack);

/* The board key's change by m's tiles. */
uint64_t eg_place_key(int n, const Move *m);

/* The squares where rack's one tile has a placement, with the most it scores there,
 * highest first, in out (room for n * n): how many. */
int eg_single_squares(const Gen *g, const uint8_t *rack, EgSq *out);

/* The squares whose state in the Gen a play changes, on after (the board with it). */
int eg_changed_squares(int n, const uint8_t *after, const Move *m, int32_t *sq);

/* The most the tile scores on a square of list that sq does not hold (-1: none). */
int eg_unchanged_best(const EgSq *list, int nl, const int32_t *sq, int ns);

/* At most what one tile of value v scores on the empty square sq of after. */
int eg_square_most(const Gen *g, const uint8_t *after, int sq, int v);

/* The most the one tile of rack1 scores on after, the board after m (-1: no place). */
int eg_one_after(const Gen *g, const uint8_t *after, const Move *m, const uint8_t *rack1, const EgSq *list, int nl);

/* eg_single_squares for one tile of code c, made when first asked for (-1: no room). */
int eg_u_list(const Gen *g, int c, EgSq **ul, int *nul, int *ulc, int *nlists);

/* -- endgame_cut.c ---------------------------------------------------------------- */

/* The GADDAG of kwg cut for an endgame of racks a and b (counts; [0] blanks) on cells
 * (size n): a malloc'ed KWG (arcs in *nk_out), or NULL (no memory, too large, or past
 * deadline: CLOCK_MONOTONIC seconds, 0: none). */
uint32_t *eg_cut_lexicon(const uint32_t *kwg, uint32_t nk, const uint8_t *cells, int n, const uint8_t *a,
                         const uint8_t *b, double deadline, uint32_t *nk_out);

/* -- endgame.c -------------------------------------------------------------------- */

/* An Eg with its PlayOut, Gen and tables (NULL: out of memory); eg_free frees it. */
Eg *eg_new(void);
void eg_free(Eg *eg);

/* The search's Gen, prepared for the board searched from (po's board set). */
void eg_init_gen(Eg *eg);

/* The tiles worth no points (blanks) on the rack. */
int eg_zero_tiles(const Eg *eg, const uint8_t *rack);

/* Set the search up for the position: its scoreless limit, the board's key (returned)
 * and the tiles worth no points. */
uint64_t eg_position(Eg *eg, const uint8_t *cells, const uint8_t *me, const uint8_t *opp, int limit);

/* The iterative deepening of endgame(): a depth (eg_deepen_next), its search
 * (eg_deepen_search: no Python), what it found (eg_deepen_result), whether to stop. */
typedef struct {
    int max_depth, depth, next, final, capped, started;
    double time_limit, start;
    int v, c, err;
    /* the last depth searched through */
    int value, complete, done, line_len;
    Move line[EG_MAXPLY + 1];
    uint8_t line_pass[EG_MAXPLY + 1];
} EgDeepen;

enum { EG_AGAIN = 0, EG_STOP = 1, EG_FOUND = 2 };

void eg_deepen_init(EgDeepen *d, int max_depth, double time_limit);

/* CLOCK_MONOTONIC seconds. */
double eg_now(void);
int eg_deepen_next(Eg *eg, EgDeepen *d);
void eg_deepen_search(Eg *eg, EgDeepen *d, const uint8_t *cells, uint64_t bkey, const uint8_t *me, const uint8_t *opp,
                      int scoreless);
int eg_deepen_result(Eg *eg, EgDeepen *d);
int eg_deepen_finished(const Eg *eg, const EgDeepen *d);

#endif
