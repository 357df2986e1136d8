/*
 * lexiko._kernel, common.h: what every unit of the compiled kernel shares: the board and
 * arc-format constants, a move (Move), the move generator's state (Gen), the order of
 * moves (move_cmp) and the GADDAG's arc look-ups (find_arc, child_of).
 *
 * The kernel is plain C but for its Python bindings (bindings*.c, through bindings.h, the
 * only header to include Python.h). Each unit has a header as its contract; headers
 * include only those below them, so the include graph has no cycle:
 *   common.h        the shared types (rng.h needs none)
 *   anagram.h, depths.h, leaves.h, movegen.h, wordmap.h, clabbers.h   on common.h
 *   rules.h         the game state of play-outs: on movegen.h, leaves.h, wordmap.h, rng.h
 *   playout.h       on rules.h; simulation.h, rl.h on playout.h; endgame.h on rules.h
 *   bindings.h      Python.h, common.h, rules.h
 * A hot helper shared by units is static inline in its header (move_cmp, find_arc,
 * child_of, ana_key, set_line, the word map's look-ups, the endgame's rack sums); the
 * build links with -flto, so calls between units are inlined as within one.
 *
 * Arc format (lexiko/kwg.py): bits 0-21 the low 22 bits of the child node, bit 22 END
 * (last arc of its node), bit 23 ACCEPTS, bits 24-29 tile (0: GADDAG separator), bits
 * 30-31 the child's bits 22-23. An automaton of at most 2**22 arcs (the narrow layout,
 * every English list) has bits 30-31 clear, so its arcs read as they always did; a
 * larger one (the wide layout, up to 2**24 arcs: Polish) sets them. Read arcs with
 * ARC_TILE and ARC_CHILD, which read both (CHILD_BITS writes a child). kwg[1] points at the GADDAG root, kwg[0] at
 * the DAWG root.
 */
#ifndef LEXIKO_KERNEL_COMMON_H
#define LEXIKO_KERNEL_COMMON_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 32 /* largest board side handled */
#define CHILD_MASK 0x3FFFFFu /* the child's low bits; ARC_CHILD reads all of them */
#define MAX_ARCS (1u << 24)  /* the most arcs an automaton has (child indexes of 24 bits) */
#define ARC_TILE(a) (((a) >> 24) & 0x3Fu)
#define ARC_CHILD(a) (((a) & CHILD_MASK) | (((a) >> 30) << 22))
#define CHILD_BITS(n) (((n) & CHILD_MASK) | (((n) >> 22) << 30)) /* an arc's bits naming child n */
#define END_BIT (1u << 22)
#define ACC_BIT (1u << 23)
#define BLANK_FLAG 0x40
#define LETTER_MASK 0x3F
#define ALL_LETTERS (~(uint64_t)1) /* letter codes 1..63 */
#define MAX_LEAVES (1u << 24)
#define PRUNE_MAX_RACK 15 /* larger racks are walked without pruning */
#define NO_PLAY INT64_MIN  /* in the score bounds: no such play */
#define DEPTH_MAX 15       /* depths() saturate here: 15 means 15 or more */
#define WB(g, fi, k) ((g)->wb[(size_t)(fi) * (size_t)(g)->wstride + (size_t)(k)])

enum { MODE_COUNT = 0, MODE_ALL = 1, MODE_BEST = 2 };
#define MODE_CLABBERS 4 /* flag on the mode: Clabbers, the kwg is the alphagram automaton */

typedef struct {
    double equity;
    int32_t score;
    uint32_t leave; /* mixed-radix index of the tiles kept */
    uint8_t row, col, down, len;
    uint8_t tiles[MAXN]; /* codes of the main word, 0 where played through */
} Move;

/* The generator's state: the board's arrays by direction (prepare), the rack, the walk's
 * state, the output and what best mode's pruning keeps (see movegen.c). */
typedef struct {
    const uint32_t *kwg;
    uint32_t nk;
    int n;
    /* per direction (0 across, 1 down), indexed line * MAXN + pos */
    uint8_t cell[2][MAXN * MAXN];
    uint8_t anchor[2][MAXN * MAXN];
    uint64_t xcheck[2][MAXN * MAXN];
    int32_t xscore[2][MAXN * MAXN]; /* points of the tiles of the cross word, -1: none */
    uint8_t lm[2][MAXN * MAXN], wm[2][MAXN * MAXN];
    uint8_t values[128];
    uint8_t rack[64]; /* counts; [0] blanks */
    int rack_left;
    uint32_t radix[64];
    int bingo_tiles, min_tiles, dirs;
    int32_t bonus[MAXN + 1]; /* points a play of k tiles earns on top of its words */
    const double *leave_values;
    /* walk state */
    int dir, line, anchor_pos, left_limit, start, single_skip;
    int walk_anchor; /* where the walk puts its first tile: the anchor, or a first square (best mode) */
    int turn; /* where the walk starts and turns right: walk_anchor, or the end of the tiles just after it */
    const uint8_t *lc, *llm, *lwm;
    const uint64_t *lx;
    const int32_t *lxs;
    uint8_t word[MAXN];
    int placed; /* of the move being recorded */
    uint32_t leave, full_leave; /* of the move being recorded; of the whole rack */
    /* output */
    int mode;
    long long count;
    Move *moves;
    size_t nmoves, cap, best_n;
    int oom;
    int empty_board;
    const uint8_t *open_vowel;  /* the static player's opening adjustment (see record): vowel flags by
                                   code, or NULL for none */
    /* Clabbers (see "Clabbers" below): the span being filled */
    int clabbers;
    int cl_s, cl_e, cl_ne, cl_nbl, cl_bsum, cl_ndc;
    uint64_t cl_allow;                 /* letters some empty square of the span accepts */
    uint8_t cl_sq[MAXN];               /* the span's empty squares */
    uint8_t cl_bl[MAXN];               /* the board's letters in the span, sorted */
    uint8_t cl_ch[MAXN];               /* the rack tiles chosen (codes, blank flag), sorted */
    uint8_t cl_dc[MAXN], cl_dn[MAXN];  /* their distinct codes and how many of each are left */
    int64_t cl_const;                  /* best mode: the score of the span's plays but their tiles' */
    int64_t cl_w[MAXN];                /* points each square adds per point of its tile, highest first */
    /* pruning (best mode; see "pruning" below) */
    int prune;
    const uint8_t *depth;       /* per arc index: most letters on a path to a word's end (low 4 bits), most
                                   before its separator (high 4 bits); NULL: unknown (see depths()) */
    int has_ext;                /* ext_floor is set: plays of lower equity rank below other moves */
    double ext_floor;
    uint64_t avail;             /* letters the rack can put down (all of them with a blank) */
    int vals_desc[PRUNE_MAX_RACK];      /* the rack's tile values, highest first (blanks 0) */
    int top[PRUNE_MAX_RACK + 1];        /* top[k]: sum of the k highest */
    int vmax;                           /* highest value of a letter on the rack (0: blanks only) */
    double lmax[PRUNE_MAX_RACK + 1];    /* lmax[m]: best leave value of m tiles (0 without a table) */
    double *maxsub;                     /* [idx * (R + 1) + m]: best leave of m tiles kept from the
                                           sub-rack idx (what is left on the rack); NULL: not built */
    const uint64_t *ana;                /* anagram index (see anagrams()); NULL: none */
    uint64_t ana_mask;                  /* its slots - 1 */
    uint64_t alphabet;                  /* letters of its words */
    uint64_t hnat;                      /* multiset hash of the rack's letters (not its blanks) */
    uint64_t ana_ck[256];               /* anagram_exists's answers so far: key (0: none); answer in ana_cv */
    int has_floor;                      /* floor_eq: no play of lower equity can rank (set with the masks) */
    double floor_eq;
    /* the anchor being walked: score bounds by first square placed and tiles placed */
    int f0, nf, run_left;
    int64_t *wb;                        /* WB(g, f - f0, k); NO_PLAY: no such play (the anchor's slice of
                                           the bounds run_best keeps for every anchor) */
    int wstride;                        /* R + 1 */
    int only_lines;                     /* search only the lines of line_mask (by direction) */
    uint32_t line_mask[2];
    uint32_t alive_r[PRUNE_MAX_RACK];   /* bit k: plays of k tiles from first square f0 + i may rank */
    uint32_t alive_l[MAXN][MAXN + 1]; /* [pos][w]: union over first squares pos - w < f <= pos */
    int wcap;                         /* letters from the walk's start to the first square f0 */
    int cur_fi;                         /* first square (index) of the play being extended right */
    uint32_t kmask;                     /* the numbers of tiles the current walk lists */
    int fsel;                           /* -1, or the only first square (index) the walk lists */
    uint32_t tie_only[PRUNE_MAX_RACK];  /* live groups that can at best tie the floor up to the tiles */
    uint64_t *thr_hash;                 /* by first square: letters of the board's tiles in the main word */
    int *thr_n;                         /* of a play putting down the whole rack, and how many; -1: none */
    uint64_t *wbh;                      /* NULL, or by WB's index: the hash of the board's letters in the main
                                           word of the plays of wb's bound (run_wmp's groups) */
    uint8_t *wbl;                       /* and its length (letters) */
    uint64_t bhash;                     /* letters the blanks put down so far stand for */
    int blanks0;                        /* blanks on the rack */
    double kbound[PRUNE_MAX_RACK + 1];  /* by tiles placed: best equity bound of the anchor */
    unsigned floor_ver, mask_ver;       /* floor_ver: bumped when the N-th best changes; mask_ver: the
                                           floor_ver the masks were computed for */
    /* the word map (best mode; see "word map" below): NULL, or the lexicon's map */
    const struct WmpHead *wmp;
    int use_wmp;                        /* run_wmp rather than run_best (set up by wmp_setup) */
    int no_maxsub;                      /* prune_setup: no maxsub (run_wmp has no use for it) */
    struct SubRack *subs;               /* the rack's sub-racks by size: subs[sub_at[k] .. sub_at[k + 1]) */
    const struct SubRack **cand;        /* run_wmp: the sub-racks of a group to look up, and their bounds */
    double *cand_e;
    int sub_at[PRUNE_MAX_RACK + 2];
    int ncodes;                         /* distinct codes on the rack (blank: 0), lowest first */
    uint8_t codes[PRUNE_MAX_RACK];
    uint64_t wc_key[512];               /* word-table look-ups so far: key (0: none), slot (NULL: none) */
    uint64_t bc_key[256];               /* blank-table look-ups: key (0: none), mask */
    /* scratch, every entry written before it is read (a cache's value only read when its
     * key, above, matches): generate() leaves it as malloc gives it (SCRATCH_START) */
    int64_t pm[MAXN][PRUNE_MAX_RACK + 1]; /* [pos][k]: highest wb[f][k] over f <= pos */
    uint8_t ana_cv[256];                  /* anagram_exists's answers, by ana_ck's slot */
    const struct WmpSlot *wc_val[512];    /* by wc_key's slot */
    uint64_t bc_val[256];                 /* by bc_key's slot */
} Gen;

#define SCRATCH_START offsetof(Gen, pm)

/* -- ordering: equity desc, score desc, row, col, down, tiles ------------------------- */

static inline int move_cmp(const Move *a, const Move *b)
{
    if (a->equity != b->equity)
        return a->equity > b->equity ? -1 : 1;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    if (a->down != b->down)
        return a->down < b->down ? -1 : 1;
    int m = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->tiles, b->tiles, (size_t)m);
    if (c)
        return c < 0 ? -1 : 1;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return 0;
}

static inline int move_vcmp(const void *a, const void *b)
{
    return move_cmp((const Move *)a, (const Move *)b);
}

/* Index of the arc of node with tile t, or 0 (no arc is at index 0 of a node). */
static inline uint32_t find_arc(const Gen *g, uint32_t node, uint32_t t)
{
    if (!node)
        return 0;
    for (uint32_t i = node; i < g->nk; i++) {
        uint32_t a = g->kwg[i];
        uint32_t at = ARC_TILE(a);
        if (at == t)
            return i;
        if (at > t || (a & END_BIT))
            return 0;
    }
    return 0;
}

static inline uint32_t child_of(const Gen *g, uint32_t a)
{
    uint32_t c = ARC_CHILD(a);
    return c < g->nk ? c : 0;
}

#endif
