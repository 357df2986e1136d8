/*
 * lexiko._kernel: the compiled move generator.
 *
 * The inner loop of lexiko.movegen: GADDAG-based generation of every legal placement
 * over the flat arc array of lexiko.kwg, with cross-checks as 64-bit letter masks per
 * square, incremental scoring, blanks, an optional leave-value table, a bounded heap
 * for the best N moves and Python objects built only for the moves returned.
 *
 * The behaviour is that of the pure-Python reference in lexiko/movegen.py; the tests
 * compare the two. The Python side validates arguments; this file checks sizes again
 * so that no argument can make it read or write out of bounds.
 *
 * Arc format (lexiko/kwg.py): bits 0-21 child node, bit 22 END (last arc of its node),
 * bit 23 ACCEPTS, bits 24-31 tile (0: GADDAG separator). kwg[1] points at the GADDAG
 * root. GADDAG paths of a word c1..cn: reverse(c1..ci) SEP c(i+1)..cn for i < n, and
 * reverse(c1..cn) for i = n.
 *
 * Generation (Gordon's algorithm): for each anchor (an empty square next to a tile, or
 * the start square of an empty board), walk the GADDAG placing the anchor's tile first,
 * extending left (no further than the previous anchor of the line: plays placing a
 * tile there are generated from that anchor), then after the separator to the right.
 * When tiles lie just after the anchor, the walk starts on the last of them and reads
 * them first (set_turn): a word must hold them, so the letters no word puts before
 * them are never tried. Each play is so generated once per direction; a one-tile play
 * that forms a word in both directions is kept only across (Place.normalized).
 *
 * Best-N mode prunes (branch and bound, see "pruning" below): each anchor gets upper
 * bounds of the score of its plays by first square and number of tiles (anchor_bounds;
 * a play putting down the whole rack must also spell a word of the lexicon, looked up
 * in an anagram index), its walks are done best bound first, and a walk, or a branch of
 * it, is cut once no play it can still make can enter the N best kept so far (the
 * bounds, the leave values still possible, the letters the words below a GADDAG node
 * still have: depths()). A play is only left out when it compares worse than the N-th
 * best by move_cmp, ties included, so the result is exactly that of the full walk.
 *
 * With a word map (wordmap(); see "word map" below) best mode takes the same bounds by
 * another way: each (anchor, first square, number of tiles) group fixes the squares of
 * the main word, so its plays are the words of that length with the board's letters
 * there and a sub-rack of that size, looked up by letter multiset and checked square by
 * square, best bound first. Same moves as the walk (the tests compare the two), 1.7 to
 * 1.8 times faster on positions of the RL environment; the walk stays for racks the map
 * does not take (more than two blanks or 2,048 sub-racks) and for every other mode.
 *
 * Clabbers (mode flag MODE_CLABBERS; the kwg is then the alphagram automaton of
 * lexiko/clabbers.py, a DAWG of every word's letters sorted): a word is valid when its
 * letters are an anagram of a word. Generation goes by span rather than by anchor (see
 * "Clabbers" below): the multisets of rack tiles that complete the span's board letters
 * to an alphagram, then every order of each that the anagram cross-checks allow. Best
 * mode walks the spans best bound first and skips multisets by a bound; the same rule
 * (cut only what compares worse than the N-th best) keeps the result exact.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 32 /* largest board side handled */
#define CHILD_MASK 0x3FFFFFu
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

/* Work in best mode: the plays of an anchor with a number of tiles in kmask (bingos and
 * the others are walked apart: a bingo lane's bound is far above the rest), and the
 * bound of their equity. */
typedef struct {
    double bound;
    uint32_t kmask;
    uint16_t order; /* natural order: dir, line, pos */
    uint16_t slot;  /* the anchor's bounds (anchor_bounds' results, kept) */
    int8_t f0, nf, run_left;
    uint8_t dir, line, pos;
    int8_t left_limit;
    int8_t first; /* -1: the GADDAG walk from the anchor; else only the plays whose first tile goes there */
    uint8_t single_skip;
} Anchor;

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
    uint64_t ana_ck[256];               /* anagram_exists's answers so far: key (0: none) and answer */
    uint8_t ana_cv[256];
    int has_floor;                      /* floor_eq: no play of lower equity can rank (set with the masks) */
    double floor_eq;
    /* the anchor being walked: score bounds by first square placed and tiles placed */
    int f0, nf, run_left;
    int64_t *wb;                        /* WB(g, f - f0, k); NO_PLAY: no such play (the anchor's slice of
                                           the bounds run_best keeps for every anchor) */
    int wstride;                        /* R + 1 */
    int only_lines;                     /* search only the lines of line_mask (by direction) */
    uint32_t line_mask[2];
    int64_t pm[MAXN][PRUNE_MAX_RACK + 1];           /* [pos][k]: highest wb[f][k] over f <= pos */
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
    const struct WmpSlot *wc_val[512];
    uint64_t bc_key[256], bc_val[256];  /* blank-table look-ups: key, mask */
} Gen;

/* Free what a search left in g (its moves too: take them first when they are wanted). */
static void gen_free(Gen *g)
{
    free(g->moves);
    free(g->maxsub);
    free(g->subs);
    free(g->cand);
    free(g->cand_e);
    g->moves = NULL;
    g->maxsub = NULL;
    g->subs = NULL;
    g->cand = NULL;
    g->cand_e = NULL;
}

static int cells_valid(const Py_buffer *cells);

/* -- ordering: equity desc, score desc, row, col, down, tiles ------------------------- */

static int move_cmp(const Move *a, const Move *b)
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

static int move_vcmp(const void *a, const void *b)
{
    return move_cmp((const Move *)a, (const Move *)b);
}

/* min-heap on "worse first": the root is the worst move kept */
static void heap_up(Move *h, size_t i)
{
    Move x = h[i];
    while (i) {
        size_t p = (i - 1) / 2;
        if (move_cmp(&h[p], &x) >= 0)
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

static void heap_down(Move *h, size_t n, size_t i)
{
    Move x = h[i];
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n)
            break;
        size_t w = l;
        if (l + 1 < n && move_cmp(&h[l + 1], &h[l]) > 0)
            w = l + 1;
        if (move_cmp(&h[w], &x) <= 0)
            break;
        h[i] = h[w];
        i = w;
    }
    h[i] = x;
}

/* -- recording ------------------------------------------------------------------- */

static void fill_move(Gen *g, Move *m, int start, int end, int score, double eq)
{
    int len = end - start + 1;
    m->equity = eq;
    m->score = score;
    m->leave = g->leave;
    if (g->dir) {
        m->row = (uint8_t)start;
        m->col = (uint8_t)g->line;
    } else {
        m->row = (uint8_t)g->line;
        m->col = (uint8_t)start;
    }
    m->down = (uint8_t)g->dir;
    m->len = (uint8_t)len;
    memcpy(m->tiles, g->word + start, (size_t)len);
}

/* The static player's opening adjustment, added to the equity of a play on the empty board:
 * OPEN_VOWEL_STEP for every step of premium (a double letter: 1, a triple word: 2) of the
 * squares on either side of each vowel put down (a blank standing for a vowel counts), the
 * squares a reply can use to score with that vowel. lexiko.bots.static.opening_adjustment is
 * the same, added in the same order. It is never positive: a bound on equity stays a bound. */
#define OPEN_VOWEL_STEP (-0.35)

/* What the static player takes off every play that does not go out once the bag is empty,
 * besides twice the value of the tiles it keeps (lexiko.bots.static.NON_OUTPLAY_PENALTY):
 * a play-out's seats start with it (po_rules); playout and static_games may set others. */
#define NON_OUTPLAY_PENALTY 10.0

static double opening_adjustment(const Gen *g, int start, int end, double eq)
{
    int d = g->dir;
    for (int j = start; j <= end; j++) {
        if (!g->open_vowel[g->word[j] & 63])
            continue;
        for (int side = g->line - 1; side <= g->line + 1; side += 2)
            if (side >= 0 && side < g->n) {
                int sq = side * MAXN + j;
                eq += OPEN_VOWEL_STEP * (double)(g->lm[d][sq] - 1 + g->wm[d][sq] - 1);
            }
    }
    return eq;
}

static void record(Gen *g, int start, int end, int score)
{
    score += g->bonus[g->placed];
    if (g->mode == MODE_COUNT) {
        g->count++;
        return;
    }
    double eq = g->leave_values ? (double)score + g->leave_values[g->leave] : (double)score;
    if (g->open_vowel && g->empty_board)
        eq = opening_adjustment(g, start, end, eq);
    if (g->mode == MODE_BEST && g->nmoves == g->best_n) {
        Move *w = &g->moves[0];
        if (eq < w->equity)
            return;
        Move m;
        fill_move(g, &m, start, end, score, eq);
        if (move_cmp(&m, w) >= 0)
            return;
        g->moves[0] = m;
        heap_down(g->moves, g->nmoves, 0);
        g->floor_ver++;
        return;
    }
    if (g->nmoves == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 1024;
        if (g->mode == MODE_BEST && cap > g->best_n)
            cap = g->best_n;
        Move *nm = (Move *)realloc(g->moves, cap * sizeof(Move));
        if (!nm) {
            g->oom = 1;
            return;
        }
        g->moves = nm;
        g->cap = cap;
    }
    fill_move(g, &g->moves[g->nmoves], start, end, score, eq);
    g->nmoves++;
    if (g->mode == MODE_BEST) {
        heap_up(g->moves, g->nmoves - 1);
        if (g->nmoves == g->best_n)
            g->floor_ver++;
    }
}

/* -- anagram index ---------------------------------------------------------------- */

/*
 * A play that puts down every tile of the rack spells a word holding exactly the rack's
 * letters (blanks: any letter) and the board's letters in its span. Whether any word of
 * the lexicon has such letters is one look-up in a hash set of the words' letter
 * multisets (26 with a blank, 351 with two), far cheaper than walking a bingo lane that
 * holds no bingo (most racks have none). The hash of a multiset is the sum of one
 * random 64-bit number per letter, plus one per letter of length: order does not count,
 * and tiles add up as they are placed. A collision can only make the test say yes.
 */
static uint64_t letter_hash[64];

static void init_letter_hash(void)
{
    uint64_t x = 0x6c6578696b6f2121ULL; /* splitmix64 from a fixed seed */
    for (int t = 0; t < 64; t++) {
        uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        letter_hash[t] = (z ^ (z >> 31)) | 1;
    }
}

/* The slot key of a multiset hash h of `len` letters (never 0, the empty slot). */
static inline uint64_t ana_key(uint64_t h, int len)
{
    uint64_t k = h + (uint64_t)len * letter_hash[0];
    return k ? k : 1;
}

static inline int ana_probe(const uint64_t *table, uint64_t mask, uint64_t key)
{
    for (uint64_t i = (key * 0x9E3779B97F4A7C15ULL) >> 20 & mask;; i = (i + 1) & mask) {
        uint64_t v = table[i];
        if (v == key)
            return 1;
        if (!v)
            return 0;
    }
}

/* Whether some word of len letters holds the letters of hash h and `blanks` more. */
static int anagram_exists(Gen *g, int len, uint64_t h, int blanks)
{
    uint64_t key = ana_key(h, len);
    unsigned slot = (unsigned)((key ^ (key >> 29)) & 255);
    if (g->ana_ck[slot] == key)
        return g->ana_cv[slot];
    int found = 0;
    uint64_t alpha = g->alphabet;
    if (blanks == 0) {
        found = ana_probe(g->ana, g->ana_mask, key);
    } else if (blanks == 1) {
        for (uint64_t a = alpha; a && !found; a &= a - 1)
            found = ana_probe(g->ana, g->ana_mask, ana_key(h + letter_hash[__builtin_ctzll(a)], len));
    } else if (blanks == 2) {
        for (uint64_t a = alpha; a && !found; a &= a - 1) {
            uint64_t h1 = h + letter_hash[__builtin_ctzll(a)];
            for (uint64_t b = a; b && !found; b &= b - 1)
                found = ana_probe(g->ana, g->ana_mask, ana_key(h1 + letter_hash[__builtin_ctzll(b)], len));
        }
    } else {
        found = 1; /* not worth the look-ups */
    }
    g->ana_ck[slot] = key;
    g->ana_cv[slot] = (uint8_t)found;
    return found;
}

/* -- pruning: the alive masks ----------------------------------------------------- */

/*
 * In best mode, anchor_bounds (below) fills g->wb with an upper bound of the score of
 * every play of the anchor being walked, by the first square f it puts a tile on and the
 * number k of tiles it places (these fix the squares it covers). A play of k tiles then
 * has equity at most wb + lmax[R - k] (R the rack's size; floating-point addition is
 * monotonic, so the bound holds for the doubles the kernel compares).
 *
 * The "floor" is the worst of the N kept (once N are kept) and ext_floor, the equity of
 * the N-th best exchange or pass (placements rank before those at equal equity). A
 * group (f, k) is dead when none of its plays can rank before the floor: equity bound
 * below it, or equal with a score bound not above the floor's and a position (row,
 * column, direction: fixed by f) after the floor's, the order move_cmp sorts by.
 * alive_r[f - f0] has bit k set for the live groups, alive_l[pos][w] the union over the
 * first squares pos - w < f <= pos (those still possible while the walk goes left at
 * pos, when the words below its node have at most w letters left of pos); tie_only[f -
 * f0] the live groups that can at best tie with the floor but for their tiles (the walk
 * right compares those as it goes). Masks depend on the floor: they are recomputed when
 * it moves (floor_ver).
 */
static void update_masks(Gen *g)
{
    g->mask_ver = g->floor_ver;
    const Move *w = g->best_n && g->nmoves == g->best_n ? &g->moves[0] : NULL;
    int R = g->rack_left, A = g->anchor_pos;
    g->has_floor = g->has_ext || w;
    g->floor_eq = g->has_ext ? g->ext_floor : -INFINITY;
    if (w && w->equity > g->floor_eq)
        g->floor_eq = w->equity;
    for (int fi = 0; fi < g->nf; fi++) {
        int ws = g->run_left ? g->left_limit + 1 : g->f0 + fi; /* first square of the main word */
        int row = g->dir ? ws : g->line, col = g->dir ? g->line : ws;
        int order = 0; /* the group's position against the floor's: -1 before, 1 after */
        if (w)
            order = row != w->row ? (row > w->row ? 1 : -1)
                    : col != w->col ? (col > w->col ? 1 : -1)
                    : g->dir != w->down ? (g->dir > w->down ? 1 : -1) : 0;
        uint32_t m = 0, tie = 0;
        for (int k = 1; k <= R && (g->fsel < 0 || fi == g->fsel); k++) {
            int64_t s = WB(g, fi, k);
            if (s == NO_PLAY)
                continue;
            double e = (double)s + g->lmax[R - k];
            if (g->has_ext && e < g->ext_floor)
                continue;
            if (w && e < w->equity)
                continue;
            if (w && e <= w->equity && s <= w->score) { /* at best equal equity and score */
                if (s < w->score || order > 0)
                    continue;
                if (!order)
                    tie |= 1u << k; /* the tiles decide */
            }
            m |= 1u << k;
        }
        g->alive_r[fi] = m & g->kmask;
        g->tie_only[fi] = tie;
    }
    g->wcap = g->turn - g->f0 + 1;
    for (int pos = g->left_limit + 1; pos <= g->turn; pos++) {
        uint32_t acc = 0;
        for (int w = 1; w <= g->wcap; w++) {
            int f = pos - w + 1; /* first squares f..pos: the walk reaches no further left */
            if (g->run_left)
                acc = g->alive_r[0];
            else if (f >= g->f0 && f <= A && f - g->f0 < g->nf)
                acc |= g->alive_r[f - g->f0];
            g->alive_l[pos][w] = acc;
        }
    }
}

/* Whether no play through the square at pos (empty: a tile goes there) from GADDAG node
 * can rank: every live group needs more tiles than the walk can still place (the rack's
 * size, and the most letters any word continuing from node has left), or, going left,
 * a first square further left than the words from node reach. */
static inline int branch_dead(Gen *g, int pos, uint32_t node, int left, int placed, int empty, uint32_t leave)
{
    if (g->mask_ver != g->floor_ver)
        update_masks(g);
    uint32_t m;
    if (!left) {
        m = g->alive_r[g->cur_fi];
    } else if (g->run_left || !g->depth) {
        m = g->alive_l[pos][g->wcap];
    } else {
        int w = g->depth[node] >> 4; /* letters left from pos at most: first square > pos - w */
        if (w == DEPTH_MAX)
            w = g->wcap;
        m = g->alive_l[pos][w < g->wcap ? w : g->wcap];
    }
    m &= ~((1u << (placed + empty)) - 1u); /* a play from here places more than `placed` tiles */
    if (!m)
        return 1;
    if (!left && !(m & ~g->tie_only[g->cur_fi])) {
        /* at best a tie with the floor up to the tiles, and the tiles so far are known:
         * once they sort after the floor's, so does every play from here */
        const Move *w = &g->moves[0];
        int len = pos - g->start;
        int c = memcmp(g->word + g->start, w->tiles, (size_t)(len < w->len ? len : w->len));
        if (c > 0 || (c == 0 && len >= w->len))
            return 1;
    }
    int need = __builtin_ctz(m) - placed;
    if (need > 1 && g->depth && (g->depth[node] & 15) < need) /* need <= R <= 15 = DEPTH_MAX */
        return 1;
    if (g->ana && g->blanks0 && !g->rack[0] && m == 1u << g->rack_left) {
        /* only plays putting down the whole rack are left, and the blanks are down: the
         * word's letters are all known, up to the first square when going left */
        uint64_t h = g->hnat + g->bhash;
        int R = g->rack_left, found = 0;
        if (!left) {
            found = g->thr_n[g->cur_fi] >= 0 &&
                    anagram_exists(g, R + g->thr_n[g->cur_fi], h + g->thr_hash[g->cur_fi], 0);
        } else {
            for (int fi = 0; fi < g->nf && !found; fi++)
                if ((g->alive_r[fi] >> R) & 1 && g->thr_n[fi] >= 0 && (g->run_left || g->f0 + fi <= pos))
                    found = anagram_exists(g, R + g->thr_n[fi], h + g->thr_hash[fi], 0);
        }
        if (!found)
            return 1;
    }
    if (g->maxsub && g->has_floor) {
        /* the tiles kept come from what is left on the rack now: once a good tile (a
         * blank) is down, the leave is worth less than the best of the whole rack */
        const int64_t *wb = left ? g->pm[pos] : &WB(g, g->cur_fi, 0);
        const double *ms = g->maxsub + (size_t)leave * (size_t)(g->rack_left + 1) + g->rack_left;
        while (m) {
            int k = __builtin_ctz(m);
            m &= m - 1;
            if ((double)wb[k] + ms[-k] >= g->floor_eq)
                return 0;
        }
        return 1;
    }
    return 0;
}

/* -- the GADDAG walk ------------------------------------------------------------- */

/*
 * The score so far travels in the arguments: main (points of the main word's tiles,
 * letter premiums applied), mult (word multiplier), cross (points of the cross words
 * of the tiles placed), placed (tiles placed), leave (index of the tiles kept) and
 * have (bit t set while the rack holds letter t).
 *
 * Each step exists twice, without and with pruning (prune a constant: the compiler
 * drops the tests from the first, so listing every play costs nothing more).
 */
#define WALK_ARGS int main, int mult, int cross, int placed, uint32_t leave, uint64_t have
#define WALK_PASS main, mult, cross, placed, leave, have

static void gen_left(Gen *g, int pos, uint32_t node, WALK_ARGS);
static void gen_right(Gen *g, int pos, uint32_t node, WALK_ARGS);
static void gen_left_p(Gen *g, int pos, uint32_t node, WALK_ARGS);
static void gen_right_p(Gen *g, int pos, uint32_t node, WALK_ARGS);

static inline void store(Gen *g, int start, int end, int main, int mult, int cross, int placed, uint32_t leave)
{
    if (placed < g->min_tiles || (placed == 1 && g->single_skip))
        return;
    g->placed = placed;
    g->leave = leave;
    record(g, start, end, main * mult + cross);
}

/* After the tile at pos, read through arc a going left: record, go on left, turn right
 * (only once the anchor's tile is down: the walk may start on the tiles after it).
 * With pruning, only plays of a number of tiles in g->kmask are recorded (the others
 * belong to another walk of the same anchor). */
static inline __attribute__((always_inline)) void after_left(Gen *g, int pos, uint32_t a, int prune, WALK_ARGS)
{
    uint32_t child = a & CHILD_MASK;
    int left_empty = pos <= g->walk_anchor && (pos == 0 || !g->lc[pos - 1]);
    if ((a & ACC_BIT) && left_empty && (!prune || ((g->kmask >> placed) & 1 && g->turn >= g->anchor_pos)))
        store(g, pos, g->turn, main, mult, cross, placed, leave);
    if (!child || child >= g->nk)
        return;
    if (pos - 1 > g->left_limit) {
        if (prune)
            gen_left_p(g, pos - 1, child, WALK_PASS);
        else
            gen_left(g, pos - 1, child, WALK_PASS);
    }
    if (left_empty && g->turn + 1 < g->n) {
        uint32_t s = g->kwg[child];
        if ((s >> 24) == 0) {
            uint32_t sc = s & CHILD_MASK;
            if (sc && sc < g->nk) {
                g->start = pos;
                if (prune) {
                    g->cur_fi = g->run_left ? 0 : pos - g->f0;
                    gen_right_p(g, g->turn + 1, sc, WALK_PASS);
                } else {
                    gen_right(g, g->turn + 1, sc, WALK_PASS);
                }
            }
        }
    }
}

/* After the tile at pos, read through arc a going right: record, go on right. */
static inline __attribute__((always_inline)) void after_right(Gen *g, int pos, uint32_t a, int prune, WALK_ARGS)
{
    uint32_t child = a & CHILD_MASK;
    int right_empty = pos == g->n - 1 || !g->lc[pos + 1];
    if ((a & ACC_BIT) && right_empty && (!prune || ((g->kmask >> placed) & 1 && pos >= g->anchor_pos)))
        store(g, g->start, pos, main, mult, cross, placed, leave);
    if (child && child < g->nk && pos + 1 < g->n) {
        if (prune)
            gen_right_p(g, pos + 1, child, WALK_PASS);
        else
            gen_right(g, pos + 1, child, WALK_PASS);
    }
}

#define AFTER(pos_, a_, ...)                                                                                           \
    do {                                                                                                               \
        if (left)                                                                                                      \
            after_left(g, pos_, a_, prune, __VA_ARGS__);                                                               \
        else                                                                                                           \
            after_right(g, pos_, a_, prune, __VA_ARGS__);                                                              \
    } while (0)

/* The tile at pos from node: the one on the board, or each one the rack allows. */
static inline __attribute__((always_inline)) void gen_at(Gen *g, int pos, uint32_t node, int left, int prune,
                                                         WALK_ARGS)
{
    const uint32_t *kwg = g->kwg;
    uint32_t nk = g->nk;
    uint8_t c = g->lc[pos];
    if (g->oom)
        return;
    if (prune && branch_dead(g, pos, node, left, placed, !c, leave))
        return;
    if (c) {
        uint32_t want = c & LETTER_MASK;
        for (uint32_t i = node; i < nk; i++) {
            uint32_t a = kwg[i];
            uint32_t t = a >> 24;
            if (t == want) {
                int v = g->values[c];
                g->word[pos] = 0;
                AFTER(pos, a, main + v, mult, cross, placed, leave, have);
                return;
            }
            if (t > want || (a & END_BIT))
                return;
        }
        return;
    }
    int blanks = g->rack[0];
    uint64_t cand = g->lx[pos] & (blanks ? ALL_LETTERS : have);
    if (!cand)
        return;
    uint32_t top = 63 - (uint32_t)__builtin_clzll(cand);
    int lm = g->llm[pos], wm = g->lwm[pos];
    int xs = g->lxs[pos];
    for (uint32_t i = node; i < nk; i++) {
        uint32_t a = kwg[i];
        uint32_t t = a >> 24;
        if (t > top)
            break;
        if ((cand >> t) & 1) {
            if ((have >> t) & 1) {
                int v = g->values[t] * lm;
                int x = xs >= 0 ? cross + (xs + v) * wm : cross;
                uint64_t h = --g->rack[t] ? have : have & ~((uint64_t)1 << t);
                g->word[pos] = (uint8_t)t;
                AFTER(pos, a, main + v, mult * wm, x, placed + 1, leave - g->radix[t], h);
                g->rack[t]++;
            }
            if (blanks) {
                int x = xs >= 0 ? cross + xs * wm : cross;
                g->rack[0]--;
                g->word[pos] = (uint8_t)(t | BLANK_FLAG);
                if (prune)
                    g->bhash += letter_hash[t];
                AFTER(pos, a, main, mult * wm, x, placed + 1, leave - g->radix[0], have);
                if (prune)
                    g->bhash -= letter_hash[t];
                g->rack[0]++;
            }
        }
        if (a & END_BIT)
            break;
    }
}

static void gen_left(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 1, 0, WALK_PASS);
}

static void gen_right(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 0, 0, WALK_PASS);
}

static void gen_left_p(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 1, 1, WALK_PASS);
}

static void gen_right_p(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 0, 1, WALK_PASS);
}

/* Where the walk of the current anchor starts. With tiles just after the anchor, every
 * play of it holds them: the walk starts on the last of them and reads them (the GADDAG
 * path of a word starts anywhere in it) before it puts a tile on the anchor, so that a
 * letter no word puts before those tiles is never tried, nor any left part after it. */
static inline void set_turn(Gen *g)
{
    int t = g->walk_anchor;
    while (t + 1 < g->n && g->lc[t + 1])
        t++;
    g->turn = t;
    g->start = t;
}

/* -- cross-checks ---------------------------------------------------------------- */

/* Index of the arc of node with tile t, or 0 (no arc is at index 0 of a node). */
static inline uint32_t find_arc(const Gen *g, uint32_t node, uint32_t t)
{
    if (!node)
        return 0;
    for (uint32_t i = node; i < g->nk; i++) {
        uint32_t a = g->kwg[i];
        uint32_t at = a >> 24;
        if (at == t)
            return i;
        if (at > t || (a & END_BIT))
            return 0;
    }
    return 0;
}

static inline uint32_t child_of(const Gen *g, uint32_t a)
{
    uint32_t c = a & CHILD_MASK;
    return c < g->nk ? c : 0;
}

/* Letters that may go on (r, c) given the tiles before and after it along (dr, dc). */
static uint64_t cross_set(const Gen *g, const uint8_t *cells, int r, int c, int dr, int dc, int32_t *score)
{
    int n = g->n;
    uint8_t before[MAXN], after[MAXN]; /* before: nearest first */
    int nb = 0, na = 0, sum = 0;
    int rr = r - dr, cc = c - dc;
    while (rr >= 0 && cc >= 0 && cells[rr * n + cc]) {
        uint8_t x = cells[rr * n + cc];
        before[nb++] = x & LETTER_MASK;
        sum += g->values[x];
        rr -= dr;
        cc -= dc;
    }
    rr = r + dr;
    cc = c + dc;
    while (rr < n && cc < n && cells[rr * n + cc]) {
        uint8_t x = cells[rr * n + cc];
        after[na++] = x & LETTER_MASK;
        sum += g->values[x];
        rr += dr;
        cc += dc;
    }
    if (!nb && !na) {
        *score = -1;
        return ALL_LETTERS;
    }
    *score = sum;
    uint32_t node = g->nk > 1 ? child_of(g, g->kwg[1]) : 0;
    uint64_t out = 0;
    if (nb) {
        /* reverse(before) SEP L after */
        for (int k = 0; k < nb; k++) {
            uint32_t i = find_arc(g, node, before[k]);
            if (!i)
                return 0;
            node = child_of(g, g->kwg[i]);
        }
        uint32_t i = find_arc(g, node, 0);
        if (!i)
            return 0;
        node = child_of(g, g->kwg[i]);
        for (uint32_t j = node; node && j < g->nk; j++) {
            uint32_t a = g->kwg[j];
            uint32_t t = a >> 24;
            if (t) {
                uint32_t b = a;
                int ok = 1;
                for (int k = 0; k < na; k++) {
                    uint32_t x = find_arc(g, child_of(g, b), after[k]);
                    if (!x) {
                        ok = 0;
                        break;
                    }
                    b = g->kwg[x];
                }
                if (ok && (b & ACC_BIT))
                    out |= (uint64_t)1 << t;
            }
            if (a & END_BIT)
                break;
        }
    } else {
        /* reverse(L after) = reverse(after) L */
        for (int k = na - 1; k >= 0; k--) {
            uint32_t i = find_arc(g, node, after[k]);
            if (!i)
                return 0;
            node = child_of(g, g->kwg[i]);
        }
        for (uint32_t j = node; node && j < g->nk; j++) {
            uint32_t a = g->kwg[j];
            uint32_t t = a >> 24;
            if (t && (a & ACC_BIT))
                out |= (uint64_t)1 << t;
            if (a & END_BIT)
                break;
        }
    }
    return out;
}

/* -- Clabbers: cross-checks ----------------------------------------------------- */

/*
 * In Clabbers a word is valid when its letters, sorted, are a key of the alphagram
 * automaton (a DAWG of every word's letters sorted by code, lexiko.clabbers). A letter
 * L may go on a square when the cross word's letters m (sorted) plus L form a key: one
 * walk merging m with one inserted letter, the letters t of the arcs where it may be
 * inserted collected as it goes (an L equal to a letter of m is met twice: a mask
 * does not mind).
 */
static void alpha_cross_walk(const Gen *g, uint32_t node, const uint8_t *m, int nm, int i, uint32_t ins,
                             uint64_t *out)
{
    for (uint32_t j = node; node && j < g->nk; j++) {
        uint32_t a = g->kwg[j];
        uint32_t t = a >> 24;
        if (i < nm && t > m[i])
            break; /* m[i] can no longer come */
        if (t) {
            uint32_t child = child_of(g, a);
            if (i < nm && t == m[i]) {
                if (i + 1 == nm) {
                    if (ins && (a & ACC_BIT))
                        *out |= (uint64_t)1 << ins;
                    else if (!ins)
                        alpha_cross_walk(g, child, m, nm, i + 1, 0, out);
                } else {
                    alpha_cross_walk(g, child, m, nm, i + 1, ins, out);
                }
            }
            if (!ins && (i == nm || t <= m[i])) {
                if (i == nm) {
                    if (a & ACC_BIT)
                        *out |= (uint64_t)1 << t;
                } else {
                    alpha_cross_walk(g, child, m, nm, i, t, out);
                }
            }
        }
        if (a & END_BIT)
            break;
    }
}

static void sort_letters(uint8_t *x, int n)
{
    for (int i = 1; i < n; i++) {
        uint8_t v = x[i];
        int j = i;
        while (j > 0 && x[j - 1] > v) {
            x[j] = x[j - 1];
            j--;
        }
        x[j] = v;
    }
}

/* Letters that may go on (r, c) in Clabbers given the tiles before and after it along (dr, dc). */
static uint64_t alpha_cross_set(const Gen *g, const uint8_t *cells, int r, int c, int dr, int dc, int32_t *score)
{
    int n = g->n;
    uint8_t m[MAXN];
    int nm = 0, sum = 0;
    for (int dir = -1; dir <= 1; dir += 2) {
        int rr = r + dir * dr, cc = c + dir * dc;
        while (rr >= 0 && cc >= 0 && rr < n && cc < n && cells[rr * n + cc] && nm < MAXN) {
            uint8_t x = cells[rr * n + cc];
            m[nm++] = x & LETTER_MASK;
            sum += g->values[x];
            rr += dir * dr;
            cc += dir * dc;
        }
    }
    if (!nm) {
        *score = -1;
        return ALL_LETTERS;
    }
    *score = sum;
    sort_letters(m, nm);
    uint64_t out = 0;
    uint32_t root = g->nk ? child_of(g, g->kwg[0]) : 0;
    alpha_cross_walk(g, root, m, nm, 0, 0, &out);
    return out & ALL_LETTERS;
}

static void prepare(Gen *g, const uint8_t *cells, const uint8_t *lmult, const uint8_t *wmult, int start_r, int start_c)
{
    int n = g->n;
    int empty = 1;
    for (int i = 0; i < n * n; i++)
        if (cells[i]) {
            empty = 0;
            break;
        }
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            int i = r * n + c;
            int ia = r * MAXN + c, id = c * MAXN + r;
            uint8_t x = cells[i];
            g->cell[0][ia] = g->cell[1][id] = x;
            g->lm[0][ia] = g->lm[1][id] = lmult[i];
            g->wm[0][ia] = g->wm[1][id] = wmult[i];
            g->anchor[0][ia] = g->anchor[1][id] = 0;
            g->xcheck[0][ia] = g->xcheck[1][id] = ALL_LETTERS;
            g->xscore[0][ia] = g->xscore[1][id] = -1;
            if (x || empty)
                continue;
            int adj = (r > 0 && cells[i - n]) || (r + 1 < n && cells[i + n]) || (c > 0 && cells[i - 1]) ||
                      (c + 1 < n && cells[i + 1]);
            if (!adj)
                continue;
            g->anchor[0][ia] = g->anchor[1][id] = 1;
            /* across plays: the cross word runs down; down plays: across */
            if (g->clabbers) {
                g->xcheck[0][ia] = alpha_cross_set(g, cells, r, c, 1, 0, &g->xscore[0][ia]);
                g->xcheck[1][id] = alpha_cross_set(g, cells, r, c, 0, 1, &g->xscore[1][id]);
            } else {
                g->xcheck[0][ia] = cross_set(g, cells, r, c, 1, 0, &g->xscore[0][ia]);
                g->xcheck[1][id] = cross_set(g, cells, r, c, 0, 1, &g->xscore[1][id]);
            }
        }
    }
    if (empty && start_r >= 0 && start_r < n && start_c >= 0 && start_c < n) {
        g->anchor[0][start_r * MAXN + start_c] = 1;
        g->anchor[1][start_c * MAXN + start_r] = 1;
    }
    g->min_tiles = empty ? g->min_tiles : 1;
    g->empty_board = empty;
    if (!empty)
        g->dirs = 2;
}

/* -- pruning: bounds and the best-first walk -------------------------------------- */

/* Highest value of a letter of the rack in mask (0 when only a blank fits there). */
static inline int max_value(const Gen *g, uint64_t mask, uint64_t have)
{
    uint64_t m = mask & have;
    int best = 0;
    while (m) {
        int t = __builtin_ctzll(m);
        m &= m - 1;
        if (g->values[t] > best)
            best = g->values[t];
    }
    return best;
}

static int wmp_rack_word(const Gen *g, int len, uint64_t h);

/*
 * Fill g->wb, g->kbound (the best equity bound of its plays of k tiles) and g->thr_* for
 * the anchor (line pointers, anchor_pos, left_limit and single_skip set); set bit k of
 * *any when it may have plays of k tiles.
 *
 * A play whose first tile goes on square f and which places k tiles covers the first k
 * empty squares from f (and must reach the anchor). With W the product of their word
 * multipliers, B the points of the board tiles of its main word, X the points of the
 * board tiles of its cross words times their word multipliers, and v_j the value of
 * the tile put on square j, its score is
 *     W * B + X + sum_j v_j * lm_j * (W + [cross word at j] * wm_j)   (+ the bonus for k tiles)
 *   = W * B + X + W * sum_j v_j + sum_j d_j * v_j,
 * with d_j = (lm_j - 1) * W + lm_j * [cross word at j] * wm_j >= 0, nonzero only on
 * premium or hooked squares. sum_j v_j is at most the k highest values of the rack, and
 * sum_j d_j * v_j at most both the d_j sorted against the highest values (rearrangement
 * inequality) and the sum of d_j times the highest value a rack letter allowed on j has.
 * The first k empty squares from f fix the squares, so the bound is exact enough to
 * tell a bingo lane from a dead end; a square no rack tile fits closes every larger k.
 */
static void anchor_bounds(Gen *g, uint64_t have, int *any)
{
    /* the line and the rack's figures in locals: the stores below (wb, wbh) could alias
     * the Gen's fields, which the compiler would otherwise load again every time */
    const uint8_t *lc = g->lc, *llm = g->llm, *lwm = g->lwm;
    const uint64_t *lx = g->lx;
    const int32_t *lxs = g->lxs;
    const uint64_t avail = g->avail;
    const int n = g->n, A = g->anchor_pos, R = g->rack_left, min_tiles = g->min_tiles, single_skip = g->single_skip;
    const int vmax = g->vmax;
    const size_t stride = (size_t)g->wstride;
    uint64_t *const wbh = g->wbh;
    uint8_t *const wbl = g->wbl;
    const int *top = g->top, *vals_desc = g->vals_desc;
    const int32_t *bonus = g->bonus;
    int run = A > 0 && lc[A - 1]; /* tiles just left of the anchor: the play starts with them */
    int f0 = run ? A : g->left_limit + 1;
    if (!run && f0 < A - R + 1)
        f0 = A - R + 1;
    g->f0 = f0;
    g->nf = A - f0 + 1;
    g->run_left = run;
    int64_t left_points = 0;
    uint64_t left_hash = 0; /* letters of the board's tiles in the play's main word, and how many */
    int left_count = 0;
    for (int p = A - 1; run && p >= 0 && lc[p]; p--) {
        left_points += g->values[lc[p]];
        left_hash += letter_hash[lc[p] & LETTER_MASK];
        left_count++;
    }
    int anyk = 0;
    if (!wbh)
        for (int k = 0; k <= R; k++)
            g->kbound[k] = -INFINITY;
    for (int f = f0; f <= A; f++) {
        const size_t fi = (size_t)(f - f0);
        int64_t *wb = &WB(g, fi, 0);
        for (int k = 0; k <= R; k++)
            wb[k] = NO_PLAY;
        g->thr_n[fi] = -1;
        int64_t W = 1, B = left_points, X = 0;
        uint64_t bh = left_hash;
        int bn = left_count;
        int ns = 0, slm[PRUNE_MAX_RACK], sxw[PRUNE_MAX_RACK], smv[PRUNE_MAX_RACK];
        /* d_j sorted (highest first) and capped, for the first nd squares and word multiplier
         * dW: kept from one k to the next, remade only when W grows */
        int64_t d[PRUNE_MAX_RACK], capped = 0, dW = 0;
        int nd = 0;
        int p = f;
        while (p < n && lc[p]) {
            bh += letter_hash[lc[p] & LETTER_MASK];
            bn++;
            B += g->values[lc[p++]];
        }
        for (int k = 1; k <= R; k++) {
            if (p >= n || !(lx[p] & avail))
                break;
            int lm = llm[p], wm = lwm[p], xs = lxs[p];
            W *= wm;
            if (lm > 1 || xs >= 0) {
                slm[ns] = lm;
                sxw[ns] = xs >= 0 ? wm : 0;
                smv[ns] = xs >= 0 ? max_value(g, lx[p], have) : vmax;
                ns++;
                if (xs >= 0)
                    X += (int64_t)xs * wm;
            }
            int pk = ++p;
            /* the board's tiles after the square, in the main word of this play and of
             * every longer one */
            while (p < n && lc[p]) {
                bh += letter_hash[lc[p] & LETTER_MASK];
                bn++;
                B += g->values[lc[p++]];
            }
            if (pk <= A || k < min_tiles || (k == 1 && single_skip))
                continue;
            if (wbh) {
                wbh[fi * stride + (size_t)k] = bh;
                wbl[fi * stride + (size_t)k] = (uint8_t)(k + bn);
            }
            if (k == R) {
                g->thr_hash[fi] = bh;
                g->thr_n[fi] = bn;
                if (g->use_wmp ? !wmp_rack_word(g, R + bn, g->hnat + bh)
                               : g->ana && !anagram_exists(g, R + bn, g->hnat + bh, g->blanks0))
                    continue; /* every tile down: no word has these letters */
            }
            if (W != dW) {
                nd = 0;
                capped = 0;
                dW = W;
            }
            for (; nd < ns; nd++) {
                int64_t dj = (int64_t)(slm[nd] - 1) * W + (int64_t)slm[nd] * sxw[nd];
                capped += dj * smv[nd];
                int i = nd;
                for (; i > 0 && d[i - 1] < dj; i--)
                    d[i] = d[i - 1];
                d[i] = dj;
            }
            int64_t paired = 0;
            for (int j = 0; j < ns; j++)
                paired += d[j] * vals_desc[j];
            int64_t s = W * (B + top[k]) + X + (paired < capped ? paired : capped);
            s += bonus[k];
            wb[k] = s;
            anyk |= 1 << k;
            if (wbh)
                continue; /* run_wmp bounds its groups itself */
            double e = (double)s + g->lmax[R - k];
            if (e > g->kbound[k])
                g->kbound[k] = e;
        }
    }
    *any = anyk;
}

static int anchor_cmp(const void *x, const void *y)
{
    const Anchor *a = (const Anchor *)x, *b = (const Anchor *)y;
    if (a->bound != b->bound)
        return a->bound > b->bound ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

static void set_line(Gen *g, int dir, int line)
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

/* Best mode with pruning: bound every anchor, walk them best bound first, stop at the
 * first whose bound is below the floor (every later one is too). The order the plays
 * are found in does not matter: move_cmp is a total order, so the heap ends up with the
 * same N plays whatever the order. */
static void run_best(Gen *g, uint32_t root, uint64_t have)
{
    int n = g->n, R = g->rack_left;
    size_t nanch = 0;
    for (int dir = 0; dir < g->dirs; dir++)
        for (int i = 0; i < n * MAXN; i++)
            nanch += g->anchor[dir][i];
    if (!nanch)
        return;
    /* per anchor: its items (plain and empty-board walks: at most 2 * R), its bounds */
    Anchor *list = (Anchor *)malloc(sizeof(Anchor) * 2 * (size_t)R * nanch);
    int64_t *wbs = (int64_t *)malloc(sizeof(int64_t) * nanch * (size_t)R * (size_t)(R + 1));
    uint64_t *ths = (uint64_t *)malloc(sizeof(uint64_t) * nanch * (size_t)R);
    int *tns = (int *)malloc(sizeof(int) * nanch * (size_t)R);
    /* the numbers of tiles that make a bingo, walked apart (none: one walk for all) */
    uint32_t bingo = g->bingo_tiles >= 1 && g->bingo_tiles <= R ? ~((1u << g->bingo_tiles) - 1u) : 0;
    if (!list || !wbs || !ths || !tns) {
        free(list);
        free(wbs);
        free(ths);
        free(tns);
        g->oom = 1;
        return;
    }
    g->wstride = R + 1;
    size_t na = 0, slot = 0;
    for (int dir = 0; dir < g->dirs; dir++) {
        for (int line = 0; line < n; line++) {
            if (g->only_lines && !((g->line_mask[dir] >> line) & 1))
                continue;
            set_line(g, dir, line);
            const uint8_t *anc = g->anchor[dir] + line * MAXN;
            int prev = -1;
            for (int pos = 0; pos < n; pos++) {
                if (!anc[pos])
                    continue;
                g->anchor_pos = pos;
                g->left_limit = prev;
                g->single_skip = dir == 1 && g->lxs[pos] >= 0;
                g->wb = wbs + slot * (size_t)R * (size_t)(R + 1);
                g->thr_hash = ths + slot * (size_t)R;
                g->thr_n = tns + slot * (size_t)R;
                int any;
                anchor_bounds(g, have, &any);
                /* On an empty board the plays of the start square are walked by first
                 * square: a walk from its first square reads each play in order of its
                 * tiles, which lets ties with the floor be cut by the tiles (openings
                 * tie a lot); there is no cross-check a GADDAG walk would gain by. */
                int nfirst = g->empty_board ? g->nf : 1;
                for (int fi = 0; fi < nfirst; fi++) {
                    for (int part = 0; part < 2; part++) {
                        uint32_t km = (uint32_t)any & (part ? ~bingo : bingo);
                        double b = -INFINITY;
                        uint32_t kk = 0;
                        for (int k = 1; k <= g->rack_left; k++) {
                            if (!((km >> k) & 1))
                                continue;
                            double e = g->kbound[k];
                            if (g->empty_board) {
                                if (WB(g, fi, k) == NO_PLAY)
                                    continue;
                                e = (double)WB(g, fi, k) + g->lmax[g->rack_left - k];
                            }
                            kk |= 1u << k;
                            if (e > b)
                                b = e;
                        }
                        if (!kk)
                            continue;
                        Anchor *a = &list[na];
                        a->bound = b;
                        a->kmask = kk;
                        a->order = (uint16_t)na;
                        a->dir = (uint8_t)dir;
                        a->line = (uint8_t)line;
                        a->pos = (uint8_t)pos;
                        a->left_limit = (int8_t)prev;
                        a->first = (int8_t)(g->empty_board ? g->f0 + fi : -1);
                        a->single_skip = (uint8_t)g->single_skip;
                        a->slot = (uint16_t)slot;
                        a->f0 = (int8_t)g->f0;
                        a->nf = (int8_t)g->nf;
                        a->run_left = (int8_t)g->run_left;
                        na++;
                    }
                }
                slot++;
                prev = pos;
            }
        }
    }
    qsort(list, na, sizeof(Anchor), anchor_cmp);
    for (size_t i = 0; i < na && !g->oom; i++) {
        const Anchor *a = &list[i];
        if (g->has_ext && a->bound < g->ext_floor)
            break;
        if (g->nmoves == g->best_n && a->bound < g->moves[0].equity)
            break;
        set_line(g, a->dir, a->line);
        g->anchor_pos = a->pos;
        g->left_limit = a->left_limit;
        g->single_skip = a->single_skip;
        g->wb = wbs + (size_t)a->slot * (size_t)R * (size_t)(R + 1);
        g->thr_hash = ths + (size_t)a->slot * (size_t)R;
        g->thr_n = tns + (size_t)a->slot * (size_t)R;
        g->f0 = a->f0;
        g->nf = a->nf;
        g->run_left = a->run_left;
        g->fsel = -1;
        g->walk_anchor = a->pos;
        if (a->first >= 0) { /* a walk from the first square: nothing left of it */
            g->fsel = a->first - g->f0;
            g->walk_anchor = a->first;
            g->left_limit = a->first - 1;
        }
        set_turn(g);
        if (g->maxsub) {
            for (int pos = g->left_limit + 1; pos <= g->turn; pos++)
                for (int k = 0; k <= g->rack_left; k++) {
                    int64_t b = NO_PLAY;
                    if (g->run_left)
                        b = WB(g, 0, k);
                    else
                        for (int f = g->f0; f <= pos && f <= a->pos; f++)
                            if (WB(g, f - g->f0, k) > b)
                                b = WB(g, f - g->f0, k);
                    g->pm[pos][k] = b;
                }
        }
        g->kmask = a->kmask;
        update_masks(g);
        if (!g->alive_l[g->turn][g->wcap])
            continue;
        gen_left_p(g, g->turn, root, 0, 1, 0, 0, g->full_leave, have);
    }
    free(list);
    free(wbs);
    free(ths);
    free(tns);
}

/* Per-call data of the bounds: the rack's values, the best leave of each size. */
static int prune_setup(Gen *g, const uint8_t *full, uint32_t nleaves)
{
    int R = g->rack_left, nv = 0;
    if (R < 1 || R > PRUNE_MAX_RACK)
        return 0;
    g->vmax = 0;
    for (int c = 0; c < 64; c++)
        for (int k = 0; k < full[c]; k++) {
            int v = c ? g->values[c] : 0;
            int i = nv++;
            for (; i > 0 && g->vals_desc[i - 1] < v; i--)
                g->vals_desc[i] = g->vals_desc[i - 1];
            g->vals_desc[i] = v;
            if (c && v > g->vmax)
                g->vmax = v;
        }
    g->top[0] = 0;
    for (int k = 1; k <= R; k++)
        g->top[k] = g->top[k - 1] + g->vals_desc[k - 1];
    for (int m = 0; m <= R; m++)
        g->lmax[m] = g->leave_values ? -INFINITY : 0.0;
    if (g->leave_values) {
        /* the sub-racks in index order: an odometer over the codes on the rack, the
         * lowest code turning fastest (its radix is 1) */
        int codes[PRUNE_MAX_RACK], nc = 0, digit[PRUNE_MAX_RACK] = {0}, size = 0;
        for (int c = 0; c < 64; c++)
            if (full[c])
                codes[nc++] = c;
        size_t stride = (size_t)R + 1;
        double *ms = NULL;
        if ((size_t)nleaves * stride <= (1u << 16) && !g->no_maxsub)
            ms = (double *)malloc((size_t)nleaves * stride * sizeof(double));
        for (uint32_t idx = 0; idx < nleaves; idx++) {
            double v = g->leave_values[idx];
            if (v != v) {
                free(ms);
                return 0; /* NaN: no order to prune by */
            }
            if (v > g->lmax[size])
                g->lmax[size] = v;
            if (ms) {
                /* ms[idx][m]: the leave itself when of size m, or the best of the
                 * sub-racks with one tile fewer (every smaller one is inside one) */
                double *row = ms + idx * stride;
                for (int m = 0; m <= R; m++)
                    row[m] = m == size ? v : -INFINITY;
                for (int j = 0; j < nc; j++) {
                    if (!digit[j])
                        continue;
                    const double *sub = ms + (idx - g->radix[codes[j]]) * stride;
                    for (int m = 0; m < size; m++)
                        if (sub[m] > row[m])
                            row[m] = sub[m];
                }
            }
            for (int j = 0; j < nc; j++) { /* next index */
                if (digit[j] < full[codes[j]]) {
                    digit[j]++;
                    size++;
                    break;
                }
                size -= digit[j];
                digit[j] = 0;
            }
        }
        g->maxsub = ms;
    }
    g->hnat = 0;
    for (int t = 1; t < 64; t++)
        g->hnat += (uint64_t)full[t] * letter_hash[t];
    g->blanks0 = full[0];
    g->avail = 0;
    for (int t = 1; t < 64; t++)
        if (full[t])
            g->avail |= (uint64_t)1 << t;
    if (full[0])
        g->avail = ALL_LETTERS;
    return 1;
}

/* -- word map: best mode by letter multiset ------------------------------------------ */

/*
 * The word map (wordmap() builds it from the kwg's DAWG, once per lexicon) indexes the
 * words by letter multiset: a hash table from the key of a multiset (ana_key: the sum of
 * the letters' random numbers and the length) to the words with those letters, stored
 * one after the other; and for the blanks, a table from the key of a multiset M to a
 * mask of the letters x such that M + x is the multiset of a word.
 *
 * A key is a 64-bit hash, so two multisets may share one (never seen; with about a
 * million keys the odds are ~1e-7): a look-up may then give words of another multiset,
 * and a blank mask letters of another. Neither is trusted: every word found is checked
 * square by square (its letters on the board's tiles, and on the empty squares letters
 * the cross-checks allow, drawn from the sub-rack's tiles exactly, with the blanks for
 * exactly the letters looked up for them), so a collision can cost a look-up, never add
 * or repeat a play. A play can never be missed: its word has the key looked up.
 *
 * Best mode with the map (run_wmp): anchor_bounds gives, for every anchor, first square
 * f and number of tiles k (which fix the squares the main word covers), a bound of the
 * equity of the plays; these groups are taken best bound first, until the best left
 * is below the floor (the N-th best kept, or ext_floor). A group taken from it bounds
 * each of the rack's sub-racks of k tiles (its own tile values sorted against the
 * squares' weights, its own leave; sub-racks go best leave first, so the first whose
 * leave cannot make up for the group's score bound ends the group), and those that
 * reach the floor are looked up: the words of the span's length with the span's board
 * letters and the sub-rack's, each checked and scored as the walk scores it, once for
 * every distinct placement of the blanks. (Putting a group back in the heap with the
 * bound of its best sub-rack was tried: the bounds cost more than the order gained.)
 * Nothing is cut that could rank before the N-th best, so the result is that of
 * run_best (the tests compare them).
 */
#define WMP_MAGIC 0x3170616d64726f77ULL /* "wordmap1" */
#define WMP_MAX_SUBS 2048               /* more sub-racks: run_best */

typedef struct WmpHead {
    uint64_t magic;
    uint64_t wslots, bslots; /* powers of two */
    uint64_t nletters, nwords;
    uint64_t alphabet;
    uint64_t wfbits, bfbits; /* log2 of the bits of the word and blank filters */
} WmpHead;

typedef struct WmpSlot {
    uint64_t key; /* ana_key of the words' multiset; 0: an empty slot */
    uint32_t off; /* the first word's letters in the letter array; the others follow */
    uint16_t cnt; /* words */
    uint8_t len, pad;
} WmpSlot;

typedef struct {
    uint64_t key;  /* ana_key of a multiset M; 0: an empty slot */
    uint64_t mask; /* letters x such that M + x is (or shares its key with) a word's multiset */
} WmpBSlot;

typedef struct SubRack {
    uint64_t h;         /* hash of its letters (not its blanks) */
    uint64_t nat;       /* its letters, as a mask */
    double leave;       /* value of the tiles kept (0 without a table) */
    uint32_t leave_idx; /* index of the tiles kept */
    uint8_t k, b;       /* tiles, blanks */
    uint8_t vd[PRUNE_MAX_RACK];  /* its tiles' values, highest first (blanks 0) */
    uint8_t dig[PRUNE_MAX_RACK]; /* how many of each of g->codes */
} SubRack;

static inline const WmpSlot *wmp_wt(const WmpHead *h)
{
    return (const WmpSlot *)(h + 1);
}

static inline const WmpBSlot *wmp_bt(const WmpHead *h)
{
    return (const WmpBSlot *)(wmp_wt(h) + h->wslots);
}

/* The filters: one bit per key (wmp_fbit), a bit set for every key of the table; far
 * smaller than the tables (a bit against 16 bytes), they stay in cache, and most
 * look-ups find nothing (only one sub-rack in eight spells a word in its span). */
static inline const uint64_t *wmp_wf(const WmpHead *h)
{
    return (const uint64_t *)(wmp_bt(h) + h->bslots);
}

static inline const uint64_t *wmp_bf(const WmpHead *h)
{
    return wmp_wf(h) + ((1ULL << h->wfbits) >> 6);
}

static inline const uint8_t *wmp_letters(const WmpHead *h)
{
    return (const uint8_t *)(wmp_bf(h) + ((1ULL << h->bfbits) >> 6));
}

static inline uint64_t wmp_fbit(uint64_t key, uint64_t bits)
{
    return (key * 0xD6E8FEB86659FD93ULL) >> (64 - bits);
}

static inline int wmp_test(const uint64_t *f, uint64_t bits, uint64_t key)
{
    uint64_t i = wmp_fbit(key, bits);
    return (f[i >> 6] >> (i & 63)) & 1;
}

static inline uint64_t wmp_home(uint64_t key)
{
    return (key * 0x9E3779B97F4A7C15ULL) >> 20;
}

/* The words of `len` letters with the multiset of hash h (NULL: none). */
static const WmpSlot *wmp_find(Gen *g, uint64_t h, int len)
{
    uint64_t key = ana_key(h, len);
    unsigned c = (unsigned)((key ^ (key >> 31)) & 511);
    if (g->wc_key[c] == key)
        return g->wc_val[c];
    const WmpHead *wh = g->wmp;
    const WmpSlot *t = wmp_wt(wh), *r = NULL;
    uint64_t mask = wh->wslots - 1;
    if (!wmp_test(wmp_wf(wh), wh->wfbits, key))
        return NULL;
    for (uint64_t i = wmp_home(key) & mask, probes = 0; probes <= mask; i = (i + 1) & mask, probes++) {
        if (t[i].key == key && t[i].len == len) {
            r = &t[i];
            break;
        }
        if (!t[i].key)
            break;
    }
    if (r && (uint64_t)r->off + (uint64_t)r->cnt * r->len > wh->nletters)
        r = NULL; /* not a map wordmap() made */
    g->wc_key[c] = key;
    g->wc_val[c] = r;
    return r;
}

/* The letters x such that some word of len + 1 letters has the multiset of hash h + x. */
static uint64_t wmp_blank_mask(Gen *g, uint64_t h, int len)
{
    uint64_t key = ana_key(h, len);
    unsigned c = (unsigned)((key ^ (key >> 31)) & 255);
    if (g->bc_key[c] == key)
        return g->bc_val[c];
    const WmpHead *wh = g->wmp;
    const WmpBSlot *t = wmp_bt(wh);
    uint64_t mask = wh->bslots - 1, r = 0;
    if (!wmp_test(wmp_bf(wh), wh->bfbits, key))
        return 0;
    for (uint64_t i = wmp_home(key) & mask, probes = 0; probes <= mask; i = (i + 1) & mask, probes++) {
        if (t[i].key == key) {
            r = t[i].mask;
            break;
        }
        if (!t[i].key)
            break;
    }
    g->bc_key[c] = key;
    g->bc_val[c] = r;
    return r;
}

/* Whether some word of len letters may hold the letters of hash h and the rack's blanks:
 * anchor_bounds' test of the plays putting down the whole rack, by the word map's filters
 * when run_wmp searches (bits of a table far smaller than the anagram index's slots, and
 * one test for a blank where the index takes one per letter). A filter can only say yes
 * too often, and run_wmp finds no play where no word is: the same plays. */
static int wmp_rack_word(const Gen *g, int len, uint64_t h)
{
    const WmpHead *wh = g->wmp;
    if (g->blanks0 == 0)
        return wmp_test(wmp_wf(wh), wh->wfbits, ana_key(h, len));
    if (g->blanks0 == 1)
        return wmp_test(wmp_bf(wh), wh->bfbits, ana_key(h, len - 1));
    for (uint64_t a = wh->alphabet; a; a &= a - 1) /* two blanks (wmp_fits) */
        if (wmp_test(wmp_bf(wh), wh->bfbits, ana_key(h + letter_hash[__builtin_ctzll(a)], len - 1)))
            return 1;
    return 0;
}

/* Whether run_wmp takes this rack: at most two blanks (the blank table answers for one
 * letter, a loop over the alphabet for a second) and WMP_MAX_SUBS sub-racks. */
static int wmp_fits(const uint8_t *full)
{
    uint32_t total = 1;
    int nc = 0;
    if (full[0] > 2)
        return 0;
    for (int c = 0; c < 64; c++)
        if (full[c]) {
            total *= (uint32_t)full[c] + 1;
            if (++nc > PRUNE_MAX_RACK || total > WMP_MAX_SUBS)
                return 0;
        }
    return 1;
}

/* The rack's sub-racks (g->subs by size, best leave first); 0 when out of memory. */
static int wmp_setup(Gen *g, const uint8_t *full)
{
    int nc = 0, R = g->rack_left;
    uint32_t total = 1;
    if (!wmp_fits(full))
        return 0;
    for (int c = 0; c < 64; c++)
        if (full[c]) {
            g->codes[nc++] = (uint8_t)c;
            total *= (uint32_t)full[c] + 1;
        }
    g->ncodes = nc;
    SubRack *subs = (SubRack *)malloc(sizeof(SubRack) * total * 2);
    g->cand = (const SubRack **)malloc(sizeof(SubRack *) * total);
    g->cand_e = (double *)malloc(sizeof(double) * total);
    uint16_t *order = (uint16_t *)malloc(sizeof(uint16_t) * total);
    if (!subs || !g->cand || !g->cand_e || !order) {
        free(subs);
        free(g->cand);
        free(g->cand_e);
        free(order);
        g->cand = NULL;
        g->cand_e = NULL;
        return 0;
    }
    /* the codes by value, highest first: a sub-rack's values come out sorted */
    int byv[PRUNE_MAX_RACK], val[PRUNE_MAX_RACK];
    for (int j = 0; j < nc; j++) {
        val[j] = g->codes[j] ? g->values[g->codes[j]] : 0;
        int i = j;
        for (; i > 0 && val[byv[i - 1]] < val[j]; i--)
            byv[i] = byv[i - 1];
        byv[i] = j;
    }
    /* each code's value 16 times, for the values of a sub-rack (a block per code) */
    uint8_t reps[PRUNE_MAX_RACK][16];
    for (int j = 0; j < nc; j++)
        memset(reps[j], val[byv[j]], 16);
    SubRack *tmp = subs + total;
    double lvs[WMP_MAX_SUBS]; /* tmp's leaves, apart: the sort reads only them */
    int count[PRUNE_MAX_RACK + 2] = {0};
    uint8_t dig[PRUNE_MAX_RACK] = {0};
    uint32_t n = 0;
    SubRack cur;
    memset(&cur, 0, sizeof cur);
    cur.leave_idx = g->full_leave;
    for (uint32_t idx = 1; idx < total; idx++) {
        for (int j = 0; j < nc; j++) { /* next sub-rack: one more of code j, none of those before */
            int c = g->codes[j];
            if (dig[j] < full[c]) {
                dig[j]++;
                cur.k++;
                cur.leave_idx -= g->radix[c];
                if (c) {
                    cur.h += letter_hash[c];
                    cur.nat |= (uint64_t)1 << c;
                } else {
                    cur.b++;
                }
                break;
            }
            cur.k -= dig[j];
            cur.leave_idx += dig[j] * g->radix[c];
            if (c) {
                cur.h -= dig[j] * letter_hash[c];
                cur.nat &= ~((uint64_t)1 << c);
            } else {
                cur.b = 0;
            }
            dig[j] = 0;
        }
        SubRack *s = &tmp[n++];
        *s = cur;
        memcpy(s->dig, dig, sizeof dig);
        /* the blocks one after the other, each written whole (16 bytes) and moved past by
         * its count: only the first k values are read (wmp_sub_bound) */
        uint8_t vbuf[PRUNE_MAX_RACK + 16 + 1];
        int nv = 0;
        for (int i = 0; i < nc; i++) {
            memcpy(vbuf + nv, reps[i], 16);
            nv += dig[byv[i]];
        }
        memcpy(s->vd, vbuf, PRUNE_MAX_RACK);
        s->leave = g->leave_values ? g->leave_values[s->leave_idx] : 0.0;
        lvs[n - 1] = s->leave;
        count[s->k + 1]++;
    }
    /* by size, each size best leave first (run_wmp stops at the first leave too low) */
    for (int k = 0; k <= R; k++)
        count[k + 1] += count[k];
    for (int k = 0; k <= R + 1; k++)
        g->sub_at[k] = count[k];
    for (uint32_t i = 0; i < n; i++) {
        int k = tmp[i].k, at = count[k]++;
        for (; at > g->sub_at[k] && lvs[order[at - 1]] < lvs[i]; at--)
            order[at] = order[at - 1];
        order[at] = (uint16_t)i;
    }
    for (uint32_t i = 0; i < n; i++)
        subs[i] = tmp[order[i]];
    free(order);
    g->subs = subs;
    return 1;
}

/* A group: the plays of an anchor's line and direction with first tile on square f and
 * k tiles; bound: of their equity. */
typedef struct {
    double bound;
    int64_t score; /* bound of the score (anchor_bounds') */
    uint64_t bh;   /* hash of the board's letters in the span (wmp_span's bh) */
    uint8_t dir, line, f, k;
    uint8_t L; /* letters in the span (wmp_span's L) */
    uint16_t bucket;
} WGroup;

/* Which sub-racks of k tiles pass the word map's filters (bit: index from the first of
 * k tiles) with a span's board letters bh and length L (0: an empty entry). */
typedef struct {
    uint64_t bh, mask;
    uint8_t L, k;
} WMemo;

/* The equity below which a play cannot rank (-inf: none yet). */
static inline double wmp_floor(const Gen *g)
{
    double f = g->has_ext ? g->ext_floor : -INFINITY;
    if (g->nmoves == g->best_n && g->moves[0].equity > f)
        f = g->moves[0].equity;
    return f;
}

/* The span of a group, as its words are checked and scored. */
typedef struct {
    int ws, we, L, k, nbl;
    uint8_t bpos[MAXN], blet[MAXN]; /* the board's tiles: index in the word, letter */
    uint8_t epos[PRUNE_MAX_RACK];   /* the empty squares: index in the word */
    uint64_t emask[PRUNE_MAX_RACK]; /* and their cross-checks */
    int64_t cw[PRUNE_MAX_RACK];     /* points a tile's value is worth there (letter premium, word
                                       multipliers of the main and the cross word) */
    int64_t cs[PRUNE_MAX_RACK];     /* the same, highest first */
    int64_t base;                   /* the score without the tiles' values: board tiles, cross words */
    uint64_t bh;                    /* hash of the board's letters in the span */
    uint64_t hooks[PRUNE_MAX_RACK]; /* cross-checks of the hooked squares */
    int nhooks;
    uint64_t any;                   /* letters some empty square allows */
    uint8_t cnt[64];                /* the sub-rack being looked up: its letters */
    const SubRack *s;
} WSpan;

static int wmp_span(Gen *g, const WGroup *gr, WSpan *sp)
{
    set_line(g, gr->dir, gr->line);
    const uint8_t *lc = g->lc;
    int n = g->n, k = gr->k, ws = gr->f;
    while (ws > 0 && lc[ws - 1])
        ws--;
    int64_t W = 1, B = 0, X = 0;
    int p = ws, ne = 0;
    sp->nbl = 0;
    sp->bh = 0;
    sp->nhooks = 0;
    sp->any = 0;
    while (ne < k || (p < n && lc[p])) {
        if (p >= n)
            return 0;
        if (lc[p]) {
            B += g->values[lc[p]];
            sp->bh += letter_hash[lc[p] & LETTER_MASK];
            sp->bpos[sp->nbl] = (uint8_t)(p - ws);
            sp->blet[sp->nbl++] = lc[p] & LETTER_MASK;
        } else {
            sp->epos[ne] = (uint8_t)(p - ws);
            sp->emask[ne] = g->lx[p];
            sp->any |= g->lx[p];
            if (g->lx[p] != ALL_LETTERS)
                sp->hooks[sp->nhooks++] = g->lx[p];
            W *= g->lwm[p];
            if (g->lxs[p] >= 0)
                X += (int64_t)g->lxs[p] * g->lwm[p];
            ne++;
        }
        p++;
    }
    sp->ws = ws;
    sp->we = p - 1;
    sp->L = p - ws;
    sp->k = k;
    for (int j = 0; j < k; j++) {
        int q = ws + sp->epos[j];
        int64_t c = (int64_t)g->llm[q] * (W + (g->lxs[q] >= 0 ? g->lwm[q] : 0));
        sp->cw[j] = c;
        int i = j;
        for (; i > 0 && sp->cs[i - 1] < c; i--)
            sp->cs[i] = sp->cs[i - 1];
        sp->cs[i] = c;
    }
    sp->base = W * B + X;
    return 1;
}

/* The bound of the sub-rack's plays in the span (-inf: its tiles fit no hooked square). */
static inline double wmp_sub_bound(const Gen *g, const WSpan *sp, const SubRack *s)
{
    if (!s->b)
        for (int i = 0; i < sp->nhooks; i++)
            if (!(sp->hooks[i] & s->nat))
                return -INFINITY;
    int64_t v = sp->base + g->bonus[sp->k];
    for (int j = 0; j < sp->k; j++)
        v += sp->cs[j] * s->vd[j];
    return (double)v + s->leave;
}

/* Record the play of word w in the span with the blanks on the squares in bmask (bits:
 * empty-square indexes). */
static void wmp_emit(Gen *g, const WSpan *sp, const uint8_t *w, int64_t score, uint32_t bmask)
{
    for (int i = 0; i < sp->nbl; i++)
        g->word[sp->ws + sp->bpos[i]] = 0;
    for (int j = 0; j < sp->k; j++) {
        uint8_t t = w[sp->epos[j]];
        if ((bmask >> j) & 1) {
            score -= (int64_t)g->values[t] * sp->cw[j];
            t |= BLANK_FLAG;
        }
        g->word[sp->ws + sp->epos[j]] = t;
    }
    g->placed = sp->k;
    g->leave = sp->s->leave_idx;
    record(g, sp->ws, sp->we, (int)score);
}

/* The words of the span's letters plus the sub-rack's, with blanks for x and y (0: no
 * blank); h: hash of all those letters. */
static void wmp_words(Gen *g, const WSpan *sp, uint64_t h, uint8_t x, uint8_t y)
{
    const WmpSlot *e = wmp_find(g, h, sp->L);
    if (!e)
        return;
    const uint8_t *w = wmp_letters(g->wmp) + e->off;
    int b = sp->s->b, k = sp->k;
    for (int i = 0; i < e->cnt; i++, w += sp->L) {
        int ok = 1;
        for (int q = 0; q < sp->nbl && ok; q++)
            ok = w[sp->bpos[q]] == sp->blet[q];
        if (!ok)
            continue;
        uint8_t tmp[64];
        memcpy(tmp, sp->cnt, 64);
        int nb = 0;
        uint8_t bl[2] = {0, 0};
        int64_t score = sp->base;
        for (int j = 0; j < k && ok; j++) {
            uint8_t t = w[sp->epos[j]] & LETTER_MASK;
            if (!((sp->emask[j] >> t) & 1))
                ok = 0;
            else if (tmp[t])
                tmp[t]--;
            else if (nb < b)
                bl[nb++] = t;
            else
                ok = 0;
            score += (int64_t)g->values[t] * sp->cw[j];
        }
        if (!ok || nb != b)
            continue;
        /* the score with every tile at its value bounds the blanks' placements (a blank
         * scores nothing): below the floor, none can rank (as record() would find) */
        if ((double)(score + g->bonus[k]) + sp->s->leave < wmp_floor(g))
            continue;
        if (b == 1 && bl[0] != x)
            continue;
        if (b == 2 && !((bl[0] == x && bl[1] == y) || (bl[0] == y && bl[1] == x)))
            continue;
        if (!b) {
            wmp_emit(g, sp, w, score, 0);
            continue;
        }
        /* every distinct placement of the blanks: among the squares of their letters */
        uint32_t px = 0, py = 0;
        for (int j = 0; j < k; j++) {
            uint8_t t = w[sp->epos[j]] & LETTER_MASK;
            if (t == x)
                px |= 1u << j;
            if (b == 2 && t == y)
                py |= 1u << j;
        }
        if (b == 1) {
            for (uint32_t m = px; m; m &= m - 1)
                wmp_emit(g, sp, w, score, m & -m);
        } else if (x == y) {
            for (uint32_t m = px; m; m &= m - 1)
                for (uint32_t m2 = m & (m - 1); m2; m2 &= m2 - 1)
                    wmp_emit(g, sp, w, score, (m & -m) | (m2 & -m2));
        } else {
            for (uint32_t m = px; m; m &= m - 1)
                for (uint32_t m2 = py; m2; m2 &= m2 - 1)
                    wmp_emit(g, sp, w, score, (m & -m) | (m2 & -m2));
        }
        if (g->oom)
            return;
    }
}

/* The plays of one sub-rack in the span. With blanks, the keys of every letter they may
 * stand for are made first and their table slots fetched together (most are cache
 * misses), then read. */
static void wmp_sub(Gen *g, WSpan *sp, const SubRack *s)
{
    sp->s = s;
    memset(sp->cnt, 0, sizeof sp->cnt);
    for (int j = 0; j < g->ncodes; j++)
        if (g->codes[j])
            sp->cnt[g->codes[j]] = s->dig[j];
    uint64_t h = sp->bh + s->h;
    if (!s->b) {
        wmp_words(g, sp, h, 0, 0);
        return;
    }
    const WmpHead *wh = g->wmp;
    const WmpSlot *wt = wmp_wt(wh);
    const WmpBSlot *bt = wmp_bt(wh);
    uint8_t xs[64 * 64 / 2], ys[64 * 64 / 2];
    int n = 0;
    if (s->b == 1) {
        for (uint64_t m = wmp_blank_mask(g, h, sp->L - 1) & sp->any; m; m &= m - 1) {
            int x = __builtin_ctzll(m);
            uint64_t key = ana_key(h + letter_hash[x], sp->L);
            if (!wmp_test(wmp_wf(wh), wh->wfbits, key))
                continue;
            __builtin_prefetch(&wt[wmp_home(key) & (wh->wslots - 1)]);
            xs[n++] = (uint8_t)x;
        }
        for (int i = 0; i < n && !g->oom; i++)
            wmp_words(g, sp, h + letter_hash[xs[i]], xs[i], 0);
        return;
    }
    /* two blanks: x <= y, the blank table for the letters of the span and the sub-rack
     * and x, then the words of those and y */
    int nx = 0;
    uint8_t cx[64];
    for (uint64_t a = wh->alphabet & sp->any; a; a &= a - 1) {
        int x = __builtin_ctzll(a);
        uint64_t key = ana_key(h + letter_hash[x], sp->L - 1);
        if (!wmp_test(wmp_bf(wh), wh->bfbits, key))
            continue;
        __builtin_prefetch(&bt[wmp_home(key) & (wh->bslots - 1)]);
        cx[nx++] = (uint8_t)x;
    }
    for (int i = 0; i < nx; i++) {
        int x = cx[i];
        uint64_t hx = h + letter_hash[x];
        uint64_t m = wmp_blank_mask(g, hx, sp->L - 1) & sp->any & ~(((uint64_t)1 << x) - 1);
        for (; m; m &= m - 1) {
            int y = __builtin_ctzll(m);
            uint64_t key = ana_key(hx + letter_hash[y], sp->L);
            if (!wmp_test(wmp_wf(wh), wh->wfbits, key))
                continue;
            __builtin_prefetch(&wt[wmp_home(key) & (wh->wslots - 1)]);
            xs[n] = (uint8_t)x;
            ys[n++] = (uint8_t)y;
        }
    }
    for (int i = 0; i < n && !g->oom; i++)
        wmp_words(g, sp, h + letter_hash[xs[i]] + letter_hash[ys[i]], xs[i], ys[i]);
}

/* Best mode by the word map (see above). */
static void run_wmp(Gen *g, uint64_t have)
{
    int n = g->n, R = g->rack_left;
    size_t nanch = 0;
    for (int dir = 0; dir < g->dirs; dir++)
        for (int i = 0; i < n * MAXN; i++)
            nanch += g->anchor[dir][i];
    if (!nanch)
        return;
    size_t cap = nanch * (size_t)R * (size_t)R + 1;
    WGroup *groups = (WGroup *)malloc(sizeof(WGroup) * cap * 2);
    if (!groups) {
        g->oom = 1;
        return;
    }
    WGroup *sorted = groups + cap;
    int64_t wb[PRUNE_MAX_RACK * (PRUNE_MAX_RACK + 1)];
    uint64_t wbh[PRUNE_MAX_RACK * (PRUNE_MAX_RACK + 1)];
    uint8_t wbl[PRUNE_MAX_RACK * (PRUNE_MAX_RACK + 1)];
    uint64_t ths[PRUNE_MAX_RACK];
    int tns[PRUNE_MAX_RACK];
    g->wstride = R + 1;
    g->wb = wb;
    g->wbh = wbh;
    g->wbl = wbl;
    g->thr_hash = ths;
    g->thr_n = tns;
    size_t ng = 0;
    for (int dir = 0; dir < g->dirs; dir++) {
        for (int line = 0; line < n; line++) {
            if (g->only_lines && !((g->line_mask[dir] >> line) & 1))
                continue;
            set_line(g, dir, line);
            const uint8_t *anc = g->anchor[dir] + line * MAXN;
            int prev = -1;
            for (int pos = 0; pos < n; pos++) {
                if (!anc[pos])
                    continue;
                g->anchor_pos = pos;
                g->left_limit = prev;
                g->single_skip = dir == 1 && g->lxs[pos] >= 0;
                int any;
                anchor_bounds(g, have, &any);
                prev = pos;
                if (!any)
                    continue;
                for (int fi = 0; fi < g->nf; fi++)
                    for (int k = 1; k <= R; k++) {
                        int64_t s = WB(g, fi, k);
                        if (s == NO_PLAY)
                            continue;
                        WGroup *gr = &groups[ng++];
                        gr->bound = (double)s + g->lmax[R - k];
                        gr->score = s;
                        gr->bh = wbh[(size_t)fi * (size_t)g->wstride + (size_t)k];
                        gr->L = wbl[(size_t)fi * (size_t)g->wstride + (size_t)k];
                        gr->dir = (uint8_t)dir;
                        gr->line = (uint8_t)line;
                        gr->f = (uint8_t)(g->f0 + fi);
                        gr->k = (uint8_t)k;
                    }
            }
        }
    }
    /* best bound first, near enough: by buckets of a point of equity or more (a groups
     * cost more, and nearly every group is taken in best-32), each with its highest bound */
    enum { NB = 1024 };
    int bcount[NB + 1];
    double bmax[NB];
    double hi = -INFINITY, lo = INFINITY;
    for (size_t i = 0; i < ng; i++) {
        if (groups[i].bound > hi)
            hi = groups[i].bound;
        if (groups[i].bound < lo)
            lo = groups[i].bound;
    }
    double width = (hi - lo) / (NB - 1) > 1.0 ? (hi - lo) / (NB - 1) : 1.0;
    /* the buckets in use: the bounds seldom span NB points, and a search is short */
    int nbk = ng ? (int)((hi - lo) / width) + 1 : 0;
    nbk = nbk < 1 ? 1 : nbk > NB ? NB : nbk;
    memset(bcount, 0, sizeof(int) * (size_t)(nbk + 1));
    for (int b = 0; b < nbk; b++)
        bmax[b] = -INFINITY;
    for (size_t i = 0; i < ng; i++) {
        int b = (int)((hi - groups[i].bound) / width);
        b = b < 0 ? 0 : b >= nbk ? nbk - 1 : b;
        groups[i].bucket = (uint16_t)b;
        bcount[b + 1]++;
        if (groups[i].bound > bmax[b])
            bmax[b] = groups[i].bound;
    }
    for (int b = 0; b < nbk; b++)
        bcount[b + 1] += bcount[b];
    for (size_t i = 0; i < ng; i++)
        sorted[bcount[groups[i].bucket]++] = groups[i];
    WSpan sp;
    WMemo memo[256];
    memset(memo, 0, sizeof memo);
    static const uint64_t all_ones = ~(uint64_t)0;
    /* the map's tables and filters, found once (the loops below are the search's hottest) */
    const WmpHead *wh = g->wmp;
    const WmpSlot *wt = wmp_wt(wh);
    const WmpBSlot *bt = wmp_bt(wh);
    const uint64_t *wf = wmp_wf(wh), *bf = wmp_bf(wh);
    const uint64_t wmask = wh->wslots - 1, bmask = wh->bslots - 1, wfbits = wh->wfbits, bfbits = wh->bfbits;
    for (size_t i = 0; i < ng && !g->oom; i++) {
        WGroup gr = sorted[i];
        double floor = wmp_floor(g);
        if (bmax[gr.bucket] < floor)
            break; /* this bucket and the next are too low */
        if (gr.bound < floor)
            continue;
        const SubRack *s0 = g->subs + g->sub_at[gr.k], *s1 = g->subs + g->sub_at[gr.k + 1];
        /* the sub-racks worth a look-up, their table slots fetched before any is read */
        int nc = 0;
        /* which sub-racks pass the filter depends on the span's board letters and length
         * only: many groups share them (the first squares of a lane around the same
         * tiles, the parallel plays of every lane), so it is kept by (bh, L, k) */
        uint64_t pass = ~(uint64_t)0;
        if (s1 - s0 <= 64) {
            WMemo *mo = &memo[(gr.bh ^ (gr.bh >> 29) ^ (uint64_t)gr.L * 0x9E3779B97F4A7C15ULL) >> 56];
            if (mo->L == gr.L && mo->k == gr.k && mo->bh == gr.bh) {
                pass = mo->mask;
            } else {
                /* the filters' words fetched first, then read */
                uint64_t bit[64];
                const uint64_t *fw[64];
                pass = 0;
                for (const SubRack *s = s0; s < s1; s++) {
                    uint64_t h = gr.bh + s->h;
                    int i = (int)(s - s0);
                    if (s->b == 0) {
                        bit[i] = wmp_fbit(ana_key(h, gr.L), wfbits);
                        fw[i] = wf + (bit[i] >> 6);
                    } else if (s->b == 1) {
                        bit[i] = wmp_fbit(ana_key(h, gr.L - 1), bfbits);
                        fw[i] = bf + (bit[i] >> 6);
                    } else {
                        bit[i] = 0;
                        fw[i] = &all_ones;
                    }
                    __builtin_prefetch(fw[i]);
                }
                for (int i = 0; i < (int)(s1 - s0); i++)
                    pass |= ((*fw[i] >> (bit[i] & 63)) & 1) << i;
                mo->bh = gr.bh;
                mo->L = (uint8_t)gr.L;
                mo->k = gr.k;
                mo->mask = pass;
            }
            if (!pass)
                continue;
        }
        /* the span's squares: only for a group some sub-rack may fill */
        if (!wmp_span(g, &gr, &sp))
            continue;
        for (const SubRack *s = s0; s < s1; s++) {
            if ((double)gr.score + s->leave < floor)
                break;
            /* the filter first: it turns away most sub-racks, at less cost than a bound */
            uint64_t h = sp.bh + s->h, key = 0;
            if (pass != ~(uint64_t)0) {
                uint64_t rest = pass >> (s - s0);
                if (!rest)
                    break;
                s += __builtin_ctzll(rest);
                if ((double)gr.score + s->leave < floor)
                    break;
                h = sp.bh + s->h;
                if (s->b == 0)
                    key = ana_key(h, sp.L);
                else if (s->b == 1)
                    key = ana_key(h, sp.L - 1);
            } else if (s->b == 0) {
                key = ana_key(h, sp.L);
                if (!wmp_test(wf, wfbits, key))
                    continue;
            } else if (s->b == 1) {
                key = ana_key(h, sp.L - 1);
                if (!wmp_test(bf, bfbits, key))
                    continue;
            }
            double e = wmp_sub_bound(g, &sp, s);
            if (e < floor)
                continue;
            if (s->b == 0)
                __builtin_prefetch(&wt[wmp_home(key) & wmask]);
            else if (s->b == 1)
                __builtin_prefetch(&bt[wmp_home(key) & bmask]);
            g->cand[nc] = s;
            g->cand_e[nc++] = e;
        }
        /* the words of the sub-racks without blanks fetched before any is read (wmp_find
         * keeps the slots it finds) */
        for (int i = 0; i < nc; i++)
            if (!g->cand[i]->b) {
                const WmpSlot *e = wmp_find(g, sp.bh + g->cand[i]->h, sp.L);
                if (e)
                    __builtin_prefetch(wmp_letters(wh) + e->off);
            }
        for (int i = 0; i < nc && !g->oom; i++)
            if (g->cand_e[i] >= wmp_floor(g))
                wmp_sub(g, &sp, g->cand[i]);
    }
    g->wbh = NULL;
    g->wbl = NULL;
    free(groups);
}

/* -- word map: the build ---------------------------------------------------------- */

typedef struct {
    uint64_t h;
    uint32_t off;
    uint8_t len;
} WmpWord;

typedef struct {
    const uint32_t *kwg;
    uint32_t nk;
    WmpWord *w;
    size_t nw, capw;
    uint8_t *let;
    size_t nl, capl;
    long long steps;
    int err; /* -1: out of memory; -2: malformed */
    uint64_t alphabet;
    uint8_t path[64];
} WmpBuild;

static void wmp_dfs(WmpBuild *b, uint32_t node, int len, uint64_t h)
{
    for (uint32_t i = node; i < b->nk && !b->err; i++) {
        uint32_t a = b->kwg[i], t = (a >> 24) & LETTER_MASK, child = a & CHILD_MASK;
        if (++b->steps > (1LL << 28) || len >= 63) {
            b->err = -2;
            return;
        }
        uint64_t h2 = h + letter_hash[t];
        b->path[len] = (uint8_t)t;
        b->alphabet |= (uint64_t)1 << t;
        if (a & ACC_BIT) {
            if (b->nw == b->capw) {
                size_t cap = b->capw ? 2 * b->capw : 4096;
                WmpWord *nw = (WmpWord *)realloc(b->w, cap * sizeof(WmpWord));
                if (!nw) {
                    b->err = -1;
                    return;
                }
                b->w = nw;
                b->capw = cap;
            }
            if (b->nl + (size_t)len + 1 > b->capl) {
                size_t cap = b->capl ? 2 * b->capl : 65536;
                uint8_t *nl = (uint8_t *)realloc(b->let, cap);
                if (!nl) {
                    b->err = -1;
                    return;
                }
                b->let = nl;
                b->capl = cap;
            }
            if (b->nl > 0xFFFFFF00u) {
                b->err = -2;
                return;
            }
            memcpy(b->let + b->nl, b->path, (size_t)len + 1);
            b->w[b->nw++] = (WmpWord){h2, (uint32_t)b->nl, (uint8_t)(len + 1)};
            b->nl += (size_t)len + 1;
        }
        if (child && child < b->nk)
            wmp_dfs(b, child, len + 1, h2);
        if (a & END_BIT)
            break;
    }
}

static int wmp_word_cmp(const void *x, const void *y)
{
    const WmpWord *a = (const WmpWord *)x, *b = (const WmpWord *)y;
    uint64_t ka = ana_key(a->h, a->len), kb = ana_key(b->h, b->len);
    if (ka != kb)
        return ka < kb ? -1 : 1;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return (a->off > b->off) - (a->off < b->off);
}

static int u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* wordmap(kwg) -> bytes: the word map of the kwg's DAWG (see "word map" above). */
static PyObject *k_wordmap(PyObject *self, PyObject *args)
{
    Py_buffer kwg;
    if (!PyArg_ParseTuple(args, "y*:wordmap", &kwg))
        return NULL;
    PyObject *result = NULL;
    WmpBuild b;
    memset(&b, 0, sizeof b);
    uint64_t *bk = NULL; /* blank entries: key, then the letter in the low 6 bits of a second word */
    if (kwg.len % 4 || kwg.len / 4 > 0xFFFFFFFFLL) {
        PyErr_SetString(PyExc_ValueError, "bad kwg buffer");
        goto out;
    }
    b.kwg = (const uint32_t *)kwg.buf;
    b.nk = (uint32_t)(kwg.len / 4);
    size_t ngroups = 0, nb = 0, nbd = 0;
    Py_BEGIN_ALLOW_THREADS
    if (b.nk >= 1) {
        uint32_t root = b.kwg[0] & CHILD_MASK;
        if (root && root < b.nk)
            wmp_dfs(&b, root, 0, 0);
    }
    if (!b.err && b.nw) {
        qsort(b.w, b.nw, sizeof(WmpWord), wmp_word_cmp);
        /* groups of one key and length, and the blank entries of each: (key of the
         * multiset less one letter, the letter) pairs, sorted by key */
        bk = (uint64_t *)malloc(2 * sizeof(uint64_t) * (b.nl + 1));
        if (!bk)
            b.err = -1;
        for (size_t i = 0; i < b.nw && !b.err; i++) {
            if (i && ana_key(b.w[i].h, b.w[i].len) == ana_key(b.w[i - 1].h, b.w[i - 1].len) &&
                b.w[i].len == b.w[i - 1].len)
                continue;
            ngroups++;
            const uint8_t *l = b.let + b.w[i].off;
            uint64_t seen = 0;
            for (int j = 0; j < b.w[i].len; j++) {
                if ((seen >> l[j]) & 1)
                    continue;
                seen |= (uint64_t)1 << l[j];
                bk[2 * nb] = ana_key(b.w[i].h - letter_hash[l[j]], b.w[i].len - 1);
                bk[2 * nb + 1] = l[j];
                nb++;
            }
        }
        if (!b.err)
            qsort(bk, nb, 2 * sizeof(uint64_t), u64_cmp);
        for (size_t i = 0; i < nb && !b.err; i++)
            if (!i || bk[2 * i] != bk[2 * i - 2])
                nbd++;
    }
    Py_END_ALLOW_THREADS
    if (b.err) {
        if (b.err == -1)
            PyErr_NoMemory();
        else
            PyErr_SetString(PyExc_ValueError, "malformed kwg");
        goto out;
    }
    uint64_t wslots = 1024, bslots = 1024;
    while (wslots < 2 * (uint64_t)ngroups)
        wslots *= 2;
    while (bslots * 7 < 10 * (uint64_t)nbd)
        bslots *= 2;
    uint64_t wfbits = 12, bfbits = 12; /* about 16 bits a key, 8 for the blank table's */
    while (wfbits < 24 && (1ULL << wfbits) < 16 * (uint64_t)ngroups)
        wfbits++;
    while (bfbits < 23 && (1ULL << bfbits) < 8 * (uint64_t)nbd)
        bfbits++;
    size_t total = sizeof(WmpHead) + wslots * sizeof(WmpSlot) + bslots * sizeof(WmpBSlot) + ((1ULL << wfbits) >> 3) +
                   ((1ULL << bfbits) >> 3) + b.nl;
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (!result)
        goto out;
    char *buf = PyBytes_AS_STRING(result);
    memset(buf, 0, total);
    WmpHead *head = (WmpHead *)buf;
    head->magic = WMP_MAGIC;
    head->wslots = wslots;
    head->bslots = bslots;
    head->nletters = b.nl;
    head->nwords = b.nw;
    head->alphabet = b.alphabet & ALL_LETTERS;
    head->wfbits = wfbits;
    head->bfbits = bfbits;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    WmpSlot *wt = (WmpSlot *)(head + 1);
    WmpBSlot *bt = (WmpBSlot *)(wt + wslots);
    uint64_t *wf = (uint64_t *)(bt + bslots), *bf = wf + ((1ULL << wfbits) >> 6);
    uint8_t *letters = (uint8_t *)(bf + ((1ULL << bfbits) >> 6));
    size_t at = 0;
    WmpSlot *cur = NULL;
    for (size_t i = 0; i < b.nw; i++) {
        uint64_t key = ana_key(b.w[i].h, b.w[i].len);
        if (!cur || cur->key != key || cur->len != b.w[i].len) {
            uint64_t j = wmp_home(key) & (wslots - 1);
            while (wt[j].key)
                j = (j + 1) & (wslots - 1);
            cur = &wt[j];
            cur->key = key;
            cur->len = b.w[i].len;
            cur->off = (uint32_t)at;
            uint64_t f = wmp_fbit(key, wfbits);
            wf[f >> 6] |= (uint64_t)1 << (f & 63);
        }
        if (cur->cnt == 0xFFFF) {
            failed = 1; /* 65535 words of one multiset: not a lexicon */
            break;
        }
        cur->cnt++;
        memcpy(letters + at, b.let + b.w[i].off, b.w[i].len);
        at += b.w[i].len;
    }
    for (size_t i = 0; i < nb; i++) {
        uint64_t key = bk[2 * i];
        uint64_t j = wmp_home(key) & (bslots - 1);
        while (bt[j].key && bt[j].key != key)
            j = (j + 1) & (bslots - 1);
        bt[j].key = key;
        bt[j].mask |= (uint64_t)1 << bk[2 * i + 1];
        uint64_t f = wmp_fbit(key, bfbits);
        bf[f >> 6] |= (uint64_t)1 << (f & 63);
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        Py_CLEAR(result);
        PyErr_SetString(PyExc_ValueError, "malformed kwg");
    }
out:
    free(b.w);
    free(b.let);
    free(bk);
    PyBuffer_Release(&kwg);
    return result;
}

/* The word map of a Python buffer, checked (NULL with a Python error set). */
static const WmpHead *wmp_of(const Py_buffer *b)
{
    const WmpHead *h = (const WmpHead *)b->buf;
    if ((size_t)b->len < sizeof(WmpHead) || ((uintptr_t)b->buf & 7) || h->magic != WMP_MAGIC || !h->wslots ||
        !h->bslots || (h->wslots & (h->wslots - 1)) || (h->bslots & (h->bslots - 1)) || h->wslots > (1ULL << 40) ||
        h->bslots > (1ULL << 40) || h->nletters > (1ULL << 40) || h->wfbits < 6 || h->wfbits > 40 ||
        h->bfbits < 6 || h->bfbits > 40 ||
        (size_t)b->len != sizeof(WmpHead) + h->wslots * sizeof(WmpSlot) + h->bslots * sizeof(WmpBSlot) +
                              ((1ULL << h->wfbits) >> 3) + ((1ULL << h->bfbits) >> 3) + h->nletters) {
        PyErr_SetString(PyExc_ValueError, "wordmap needs what wordmap() returns");
        return NULL;
    }
    return h;
}

/* -- Clabbers: generation ------------------------------------------------------- */

/*
 * For every span of a line a play can cover (from a square after an empty square or
 * the edge to one before an empty square or the edge, holding an empty square, and a
 * tile or an anchor), the multisets of rack tiles that with the span's board letters
 * spell an alphagram are found in one walk of the automaton in letter order: at each
 * arc the next board letter is consumed when it is the arc's letter (board copies of a
 * letter before rack copies, so each multiset is met once), else a rack tile of the
 * arc's letter (a real tile, or a blank; real copies of a letter before blank copies).
 * Each multiset found is then put down in every distinct order the cross-checks allow
 * (clab_assign), each order a move. The leave is the same for all orders.
 */
static void clab_assign(Gen *g, int i, int main, int mult, int cross)
{
    if (i == g->cl_ne) {
        record(g, g->cl_s, g->cl_e, (main + g->cl_bsum) * mult + cross);
        return;
    }
    int p = g->cl_sq[i];
    uint64_t x = g->lx[p];
    int lm = g->llm[p], wm = g->lwm[p], xs = g->lxs[p];
    for (int d = 0; d < g->cl_ndc; d++) {
        if (!g->cl_dn[d])
            continue;
        uint8_t code = g->cl_dc[d];
        if (!(x >> (code & LETTER_MASK) & 1))
            continue;
        int v = g->values[code] * lm;
        g->cl_dn[d]--;
        g->word[p] = code;
        clab_assign(g, i + 1, main + v, mult * wm, xs >= 0 ? cross + (xs + v) * wm : cross);
        g->cl_dn[d]++;
    }
}

/* Best mode: whether no order of the multiset chosen can rank among the best N. A
 * play's score is cl_const (board letters, cross words' other tiles, bingo) plus the sum
 * of each tile's value times its square's weight; no order beats the highest values on
 * the highest weights. */
static int clab_cut(Gen *g, uint32_t leave)
{
    if (g->mode != MODE_BEST || g->nmoves < g->best_n || !g->best_n)
        return 0;
    int v[MAXN];
    int ne = g->cl_ne;
    for (int k = 0; k < ne; k++) {
        int x = g->values[g->cl_ch[k]];
        int j = k;
        while (j > 0 && v[j - 1] < x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
    int64_t bound = g->cl_const;
    for (int k = 0; k < ne; k++)
        bound += (int64_t)v[k] * g->cl_w[k];
    double eq = g->leave_values ? (double)bound + g->leave_values[leave] : (double)bound;
    return eq < g->moves[0].equity;
}

static void clab_found(Gen *g)
{
    uint32_t leave = g->full_leave;
    int nd = 0;
    for (int k = 0; k < g->cl_ne; k++) {
        uint8_t code = g->cl_ch[k];
        leave -= g->radix[code & BLANK_FLAG ? 0 : code];
        if (nd && g->cl_dc[nd - 1] == code) {
            g->cl_dn[nd - 1]++;
        } else {
            g->cl_dc[nd] = code;
            g->cl_dn[nd++] = 1;
        }
    }
    if (clab_cut(g, leave))
        return;
    g->cl_ndc = nd;
    g->leave = leave;
    g->placed = g->cl_ne;
    clab_assign(g, 0, 0, 1, 0);
}

/* Walk from node with board letters bi.. and k rack tiles chosen; prev: the code of
 * the last rack tile chosen (0 after a board letter). */
static void clab_walk(Gen *g, uint32_t node, int bi, int k, uint8_t prev)
{
    int nbl = g->cl_nbl, ne = g->cl_ne;
    for (uint32_t j = node; node && j < g->nk && !g->oom; j++) {
        uint32_t a = g->kwg[j];
        uint32_t t = a >> 24;
        if (bi < nbl && t > g->cl_bl[bi])
            break;
        uint32_t child = child_of(g, a);
        if (bi < nbl && t == g->cl_bl[bi]) {
            if (bi + 1 == nbl && k == ne) {
                if (a & ACC_BIT)
                    clab_found(g);
            } else if (child) {
                clab_walk(g, child, bi + 1, k, 0);
            }
        } else if (t && k < ne && (g->cl_allow >> t & 1)) {
            int last = k + 1 == ne && bi == nbl;
            /* a real tile, unless a blank already stands for this letter (blanks after) */
            if (g->rack[t] && prev != (t | BLANK_FLAG)) {
                g->rack[t]--;
                g->cl_ch[k] = (uint8_t)t;
                if (last) {
                    if (a & ACC_BIT)
                        clab_found(g);
                } else if (child) {
                    clab_walk(g, child, bi, k + 1, (uint8_t)t);
                }
                g->rack[t]++;
            }
            if (g->rack[0]) {
                g->rack[0]--;
                g->cl_ch[k] = (uint8_t)(t | BLANK_FLAG);
                if (last) {
                    if (a & ACC_BIT)
                        clab_found(g);
                } else if (child) {
                    clab_walk(g, child, bi, k + 1, (uint8_t)(t | BLANK_FLAG));
                }
                g->rack[0]++;
            }
        }
        if (a & END_BIT)
            break;
    }
}

/* Best mode: cl_const and cl_w of the span (see clab_cut). */
static void clab_weights(Gen *g)
{
    int64_t mult = 1, cross = 0;
    for (int k = 0; k < g->cl_ne; k++)
        mult *= g->lwm[g->cl_sq[k]];
    for (int k = 0; k < g->cl_ne; k++) {
        int p = g->cl_sq[k];
        int64_t w = (int64_t)g->llm[p] * mult;
        if (g->lxs[p] >= 0) {
            w += (int64_t)g->llm[p] * g->lwm[p];
            cross += (int64_t)g->lxs[p] * g->lwm[p];
        }
        int j = k;
        while (j > 0 && g->cl_w[j - 1] < w) {
            g->cl_w[j] = g->cl_w[j - 1];
            j--;
        }
        g->cl_w[j] = w;
    }
    g->cl_const = (int64_t)g->cl_bsum * mult + cross + g->bonus[g->cl_ne];
}

static void clab_line(Gen *g, int dir, int line)
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

/* Set up the span s..e of the current line (cl_*, and the weights in best mode). */
static void clab_span_setup(Gen *g, int s, int e)
{
    const uint8_t *lc = g->lc;
    int ne = 0, nbl = 0, bsum = 0;
    uint64_t allow = 0;
    for (int p = s; p <= e; p++) {
        g->word[p] = 0;
        if (lc[p]) {
            g->cl_bl[nbl++] = lc[p] & LETTER_MASK;
            bsum += g->values[lc[p]];
        } else {
            g->cl_sq[ne++] = (uint8_t)p;
            allow |= g->lx[p];
        }
    }
    sort_letters(g->cl_bl, nbl);
    g->cl_s = s;
    g->cl_e = e;
    g->cl_ne = ne;
    g->cl_nbl = nbl;
    g->cl_bsum = bsum;
    g->cl_allow = allow;
    if (g->mode == MODE_BEST)
        clab_weights(g);
}

/* Calls fn(g, s, e, arg) for every span of the current line a play can cover. */
static void clab_spans(Gen *g, void (*fn)(Gen *, int, int, void *), void *arg)
{
    int n = g->n, dir = g->dir;
    const uint8_t *lc = g->lc;
    const uint8_t *anc = g->anchor[dir] + g->line * MAXN;
    for (int s = 0; s < n && !g->oom; s++) {
        if (s && lc[s - 1])
            continue;
        int ne = 0, conn = 0, first = -1;
        for (int e = s; e < n; e++) {
            if (lc[e]) {
                conn = 1;
            } else {
                if (ne == g->rack_left)
                    break;
                if (!ne)
                    first = e;
                ne++;
                conn |= anc[e];
            }
            if (e + 1 < n && lc[e + 1])
                continue;
            if (e == s || !ne || !conn || ne < g->min_tiles)
                continue;
            if (dir == 1 && ne == 1 && g->lxs[first] >= 0)
                continue; /* a one-tile play forming a word across is listed across */
            fn(g, s, e, arg);
            if (g->oom)
                return;
        }
    }
}

static void clab_do_span(Gen *g, int s, int e, void *arg)
{
    (void)arg;
    clab_span_setup(g, s, e);
    clab_walk(g, child_of(g, g->kwg[0]), 0, 0, 0);
    for (int p = s; p <= e; p++)
        g->word[p] = 0;
}

/* Best mode: the spans, by an upper bound of the equity of their plays, walked best
 * bound first until the N-th best kept beats the bound of every span left. The bound:
 * the rack's highest values on the span's highest weights (clab_cut), plus the best
 * leave value of the tiles a play of the span keeps. */
typedef struct {
    double bound;
    uint8_t dir, line, s, e;
} ClSpan;

typedef struct {
    ClSpan *spans;
    size_t n, cap;
    int rv[MAXN];       /* the rack's tile values, highest first */
    double lmax[MAXN + 1]; /* best leave value keeping m tiles */
} ClBest;

static void clab_collect(Gen *g, int s, int e, void *arg)
{
    ClBest *b = (ClBest *)arg;
    clab_span_setup(g, s, e);
    int64_t score = g->cl_const;
    for (int k = 0; k < g->cl_ne; k++)
        score += (int64_t)b->rv[k] * g->cl_w[k];
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        ClSpan *ns = (ClSpan *)realloc(b->spans, cap * sizeof(ClSpan));
        if (!ns) {
            g->oom = 1;
            return;
        }
        b->spans = ns;
        b->cap = cap;
    }
    ClSpan *c = &b->spans[b->n++];
    c->bound = (double)score + b->lmax[g->rack_left - g->cl_ne];
    c->dir = (uint8_t)g->dir;
    c->line = (uint8_t)g->line;
    c->s = (uint8_t)s;
    c->e = (uint8_t)e;
}

static int clspan_cmp(const void *x, const void *y)
{
    const ClSpan *a = (const ClSpan *)x, *b = (const ClSpan *)y;
    if (a->bound != b->bound)
        return a->bound > b->bound ? -1 : 1;
    int ka = ((a->dir * MAXN + a->line) * MAXN + a->s) * MAXN + a->e;
    int kb = ((b->dir * MAXN + b->line) * MAXN + b->s) * MAXN + b->e;
    return ka < kb ? -1 : ka > kb;
}

static void run_clabbers_best(Gen *g)
{
    ClBest b;
    memset(&b, 0, sizeof b);
    int nv = 0;
    for (int c = 0; c < 64; c++)
        for (int k = 0; k < g->rack[c] && nv < MAXN; k++) {
            int x = g->values[c], j = nv++;
            while (j > 0 && b.rv[j - 1] < x) {
                b.rv[j] = b.rv[j - 1];
                j--;
            }
            b.rv[j] = x;
        }
    uint32_t nleaves = g->full_leave + 1;
    for (int m = 0; m <= MAXN; m++)
        b.lmax[m] = g->leave_values ? -INFINITY : 0.0;
    if (g->leave_values && nleaves > (1u << 20)) {
        for (int m = 0; m <= MAXN; m++)
            b.lmax[m] = INFINITY; /* not worth it: no span is cut */
    } else if (g->leave_values) {
        for (uint32_t i = 0; i < nleaves; i++) {
            int kept = 0;
            for (int c = 0; c < 64; c++)
                if (g->rack[c])
                    kept += (int)((i / g->radix[c]) % (uint32_t)(g->rack[c] + 1));
            if (kept <= MAXN && g->leave_values[i] > b.lmax[kept])
                b.lmax[kept] = g->leave_values[i];
        }
    }
    for (int dir = 0; dir < g->dirs && !g->oom; dir++)
        for (int line = 0; line < g->n && !g->oom; line++) {
            clab_line(g, dir, line);
            clab_spans(g, clab_collect, &b);
        }
    if (!g->oom) {
        qsort(b.spans, b.n, sizeof(ClSpan), clspan_cmp);
        for (size_t i = 0; i < b.n && !g->oom; i++) {
            const ClSpan *c = &b.spans[i];
            if (g->nmoves == g->best_n && c->bound < g->moves[0].equity)
                break;
            clab_line(g, c->dir, c->line);
            clab_do_span(g, c->s, c->e, NULL);
        }
    }
    free(b.spans);
}

static void run_clabbers(Gen *g)
{
    uint32_t root = g->nk ? child_of(g, g->kwg[0]) : 0;
    if (!root || !g->rack_left)
        return;
    if (g->mode == MODE_BEST) {
        run_clabbers_best(g);
        return;
    }
    for (int dir = 0; dir < g->dirs && !g->oom; dir++)
        for (int line = 0; line < g->n && !g->oom; line++) {
            clab_line(g, dir, line);
            clab_spans(g, clab_do_span, NULL);
        }
}

static void run(Gen *g)
{
    int n = g->n;
    if (g->clabbers) {
        run_clabbers(g);
        return;
    }
    uint32_t root = g->nk > 1 ? child_of(g, g->kwg[1]) : 0;
    uint64_t have = 0;
    for (int t = 1; t < 64; t++)
        if (g->rack[t])
            have |= (uint64_t)1 << t;
    if (!root || !g->rack_left)
        return;
    if (g->prune) {
        if (g->use_wmp)
            run_wmp(g, have);
        else
            run_best(g, root, have);
        return;
    }
    for (int dir = 0; dir < g->dirs; dir++) {
        g->dir = dir;
        for (int line = 0; line < n; line++) {
            int base = line * MAXN;
            g->line = line;
            g->lc = g->cell[dir] + base;
            g->lx = g->xcheck[dir] + base;
            g->lxs = g->xscore[dir] + base;
            g->llm = g->lm[dir] + base;
            g->lwm = g->wm[dir] + base;
            const uint8_t *anc = g->anchor[dir] + base;
            int prev = -1;
            for (int pos = 0; pos < n; pos++) {
                if (!anc[pos])
                    continue;
                g->anchor_pos = g->walk_anchor = pos;
                g->left_limit = prev;
                g->single_skip = dir == 1 && g->lxs[pos] >= 0;
                set_turn(g);
                gen_left(g, g->turn, root, 0, 1, 0, 0, g->full_leave, have);
                prev = pos;
            }
        }
    }
}

/* -- Python objects -------------------------------------------------------------- */

typedef struct {
    PyTypeObject *type;
    Py_ssize_t off[4];
} SlotType;

static SlotType place_t, cand_t;

static int slot_setup(SlotType *st, PyObject *type, const char *const names[4])
{
    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, "setup() needs classes");
        return -1;
    }
    for (int k = 0; k < 4; k++) {
        PyObject *d = PyObject_GetAttrString(type, names[k]);
        if (!d)
            return -1;
        if (!Py_IS_TYPE(d, &PyMemberDescr_Type)) {
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", ((PyTypeObject *)type)->tp_name, names[k]);
            return -1;
        }
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX || (m->flags & READONLY)) {
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, "%s.%s is not a writable object slot", ((PyTypeObject *)type)->tp_name,
                         names[k]);
            return -1;
        }
        st->off[k] = m->offset;
        Py_DECREF(d);
    }
    Py_XDECREF(st->type);
    Py_INCREF(type);
    st->type = (PyTypeObject *)type;
    return 0;
}

/* A new instance with its four slots set (references stolen; all non-NULL). */
static PyObject *slot_new(SlotType *st, PyObject *a, PyObject *b, PyObject *c, PyObject *d)
{
    PyObject *o = NULL;
    if (a && b && c && d)
        o = st->type->tp_alloc(st->type, 0);
    if (!o) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(c);
        Py_XDECREF(d);
        return NULL;
    }
    *(PyObject **)((char *)o + st->off[0]) = a;
    *(PyObject **)((char *)o + st->off[1]) = b;
    *(PyObject **)((char *)o + st->off[2]) = c;
    *(PyObject **)((char *)o + st->off[3]) = d;
    /* Immutable values holding only immutable values: no cycle can go through them,
     * so the cyclic collector need not track them (as CPython untracks such tuples).
     * This halves the time to build a long list. */
    if (PyObject_GC_IsTracked(o))
        PyObject_GC_UnTrack(o);
    return o;
}

static PyObject *k_setup(PyObject *self, PyObject *args)
{
    PyObject *place, *cand;
    static const char *const pn[4] = {"row", "col", "down", "tiles"};
    static const char *const cn[4] = {"move", "score", "equity", "leave"};
    if (!PyArg_ParseTuple(args, "OO:setup", &place, &cand))
        return NULL;
    if (slot_setup(&place_t, place, pn) < 0 || slot_setup(&cand_t, cand, cn) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* Sort g->moves, best first. Without a leave table, equity is the score: a counting
 * sort on it (moving the records, so that they are read in order afterwards) leaves
 * only runs of equal scores to sort (a plain sort when memory is short). */
static void sort_moves(Gen *g)
{
    size_t n = g->nmoves;
    if (n < 2)
        return;
    int32_t top = 0;
    for (size_t i = 0; i < n; i++)
        if (g->moves[i].score > top)
            top = g->moves[i].score;
    size_t *start = NULL;
    Move *out = NULL;
    if (!g->leave_values && top < (1 << 20) && n > 64) {
        start = (size_t *)calloc((size_t)top + 2, sizeof(size_t));
        out = (Move *)malloc(n * sizeof(Move));
    }
    if (!start || !out) {
        free(start);
        free(out);
        qsort(g->moves, n, sizeof(Move), move_vcmp);
        return;
    }
    /* bucket b holds the score top - b */
    for (size_t i = 0; i < n; i++)
        start[top - g->moves[i].score + 1]++;
    for (int32_t b = 0; b <= top; b++)
        start[b + 1] += start[b];
    for (size_t i = 0; i < n; i++)
        out[start[top - g->moves[i].score]++] = g->moves[i];
    /* start[b] is now the end of bucket b */
    size_t lo = 0;
    for (int32_t b = 0; b <= top; b++) {
        size_t hi = start[b];
        if (hi - lo > 1)
            qsort(out + lo, hi - lo, sizeof(Move), move_vcmp);
        lo = hi;
    }
    free(start);
    free(g->moves);
    g->moves = out;
    g->cap = n;
}

/* The leave tuple of a leave index: letters ascending, blanks last. */
static PyObject *leave_tuple(const Gen *g, const uint8_t *full, uint32_t idx)
{
    uint8_t buf[64 * 4];
    int n = 0;
    for (int c = 1; c < 64; c++) {
        if (!full[c])
            continue;
        int k = (int)((idx / g->radix[c]) % (uint32_t)(full[c] + 1));
        while (k-- > 0 && n < (int)sizeof buf)
            buf[n++] = (uint8_t)c;
    }
    if (full[0]) {
        int k = (int)((idx / g->radix[0]) % (uint32_t)(full[0] + 1));
        while (k-- > 0 && n < (int)sizeof buf)
            buf[n++] = 0;
    }
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(buf[i]));
    PyObject_GC_UnTrack(t);
    return t;
}

static PyObject *build_list(Gen *g, const uint8_t *full, uint32_t nleaves)
{
    if (!place_t.type || !cand_t.type) {
        PyErr_SetString(PyExc_RuntimeError, "lexiko._kernel.setup() was not called");
        return NULL;
    }
    size_t n = g->nmoves;
    PyObject **leaves = (PyObject **)calloc(nleaves ? nleaves : 1, sizeof(PyObject *));
    PyObject *list = NULL;
    if (!leaves) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    sort_moves(g);
    Py_END_ALLOW_THREADS
    list = PyList_New((Py_ssize_t)n);
    if (!list)
        goto done;
    for (size_t i = 0; i < n; i++) {
        const Move *m = &g->moves[i];
        PyObject *tiles = PyTuple_New(m->len);
        if (!tiles)
            goto fail;
        for (int j = 0; j < m->len; j++)
            PyTuple_SET_ITEM(tiles, j, PyLong_FromLong(m->tiles[j])); /* small ints: cached */
        PyObject_GC_UnTrack(tiles);
        PyObject *down = m->down ? Py_True : Py_False;
        Py_INCREF(down);
        PyObject *place = slot_new(&place_t, PyLong_FromLong(m->row), PyLong_FromLong(m->col), down, tiles);
        if (!place)
            goto fail;
        uint32_t li = m->leave < nleaves ? m->leave : 0;
        if (!leaves[li]) {
            leaves[li] = leave_tuple(g, full, li);
            if (!leaves[li]) {
                Py_DECREF(place);
                goto fail;
            }
        }
        Py_INCREF(leaves[li]);
        PyObject *cand = slot_new(&cand_t, place, PyLong_FromLong(m->score), PyFloat_FromDouble(m->equity), leaves[li]);
        if (!cand)
            goto fail;
        PyList_SET_ITEM(list, (Py_ssize_t)i, cand);
    }
    goto done;
fail:
    Py_CLEAR(list);
done:
    if (leaves) {
        for (uint32_t i = 0; i < nleaves; i++)
            Py_XDECREF(leaves[i]);
        free(leaves);
    }
    return list;
}

/*
 * generate(kwg, cells, size, letter_mult, word_mult, values, rack, bingo_tiles,
 *          bingo_bonus, first_min, start_row, start_col, first_dirs, mode, best_n,
 *          leave_values, depths, anagrams, floor[, bonuses])
 *
 * kwg: buffer of uint32 arcs; cells, letter_mult, word_mult: size*size bytes; values:
 * 128 bytes (points of each board code); rack: 64 bytes of counts (index 0 blanks);
 * first_min: tiles a first play needs; first_dirs: 1 to list only across plays on an
 * empty board (when down plays are their mirror images), else 2; mode 0 count (returns int), 1 every placement,
 * 2 the best best_n (lists of Candidate, best first); leave_values: None or a buffer of
 * doubles indexed by the mixed-radix leave index (radix of code c: product of
 * count[d] + 1 over the codes d < c present on the rack); depths: None or what
 * depths(kwg) returns, anagrams: None or what anagrams(kwg) returns (both let best mode
 * prune more); floor (best mode): NaN, or an equity
 * the caller has other moves at (its N-th best exchange or pass): plays of lower equity
 * may be left out. bonuses: None, or int32s, the points a play of k tiles earns on top
 * of its words at index k (the last for more tiles): it replaces bingo_bonus, which
 * alone is earned from bingo_tiles tiles on (bingo_tiles also splits best mode's walks).
 */
static PyObject *k_generate(PyObject *self, PyObject *args)
{
    Py_buffer kwg, cells, lmult, wmult, values, rack, leaves;
    int size, bingo_tiles, bingo_bonus, first_min, start_r, start_c, first_dirs, mode;
    Py_ssize_t best_n;
    PyObject *leave_obj, *depth_obj, *ana_obj, *bonus_obj = Py_None, *wmp_obj = Py_None;
    double floor;
    Py_buffer depths, anas, wmps;
    int have_depths = 0, have_anas = 0, have_wmp = 0;
    PyObject *result = NULL;
    Gen *g = NULL;
    int have_leaves = 0;
    memset(&leaves, 0, sizeof leaves);
    memset(&depths, 0, sizeof depths);
    memset(&anas, 0, sizeof anas);
    memset(&wmps, 0, sizeof wmps);
    if (!PyArg_ParseTuple(args, "y*y*iy*y*y*y*iiiiiiinOOOd|OO:generate", &kwg, &cells, &size, &lmult, &wmult, &values,
                          &rack, &bingo_tiles, &bingo_bonus, &first_min, &start_r, &start_c, &first_dirs, &mode,
                          &best_n, &leave_obj, &depth_obj, &ana_obj, &floor, &bonus_obj, &wmp_obj))
        return NULL;
    if (size < 1 || size > MAXN) {
        PyErr_Format(PyExc_ValueError, "board side %d is not in 1..%d", size, MAXN);
        goto out;
    }
    if (cells.len != (Py_ssize_t)size * size || lmult.len != cells.len || wmult.len != cells.len) {
        PyErr_SetString(PyExc_ValueError, "cells and multipliers need size*size bytes");
        goto out;
    }
    if (values.len != 128 || rack.len != 64 || kwg.len % 4 || kwg.len / 4 > 0xFFFFFFFFLL) {
        PyErr_SetString(PyExc_ValueError, "bad values, rack or kwg buffer");
        goto out;
    }
    if (!cells_valid(&cells))
        goto out;
    int clabbers = (mode & MODE_CLABBERS) != 0;
    mode &= ~MODE_CLABBERS;
    if (mode < MODE_COUNT || mode > MODE_BEST || best_n < 0) {
        PyErr_SetString(PyExc_ValueError, "bad mode");
        goto out;
    }
    g = (Gen *)calloc(1, sizeof(Gen));
    if (!g) {
        PyErr_NoMemory();
        goto out;
    }
    g->kwg = (const uint32_t *)kwg.buf;
    g->nk = (uint32_t)(kwg.len / 4);
    g->n = size;
    memcpy(g->values, values.buf, 128);
    memcpy(g->rack, rack.buf, 64);
    uint8_t full[64];
    memcpy(full, rack.buf, 64);
    uint64_t nleaves = 1;
    for (int c = 0; c < 64; c++) {
        g->radix[c] = (uint32_t)nleaves;
        g->rack_left += full[c];
        if (full[c])
            nleaves *= (uint64_t)full[c] + 1;
        if (nleaves > MAX_LEAVES) {
            PyErr_SetString(PyExc_ValueError, "rack too large");
            goto out;
        }
    }
    g->full_leave = (uint32_t)(nleaves - 1);
    if (leave_obj != Py_None) {
        if (PyObject_GetBuffer(leave_obj, &leaves, PyBUF_SIMPLE) < 0)
            goto out;
        have_leaves = 1;
        if ((size_t)leaves.len != nleaves * sizeof(double)) {
            PyErr_SetString(PyExc_ValueError, "leave_values needs one double per sub-rack");
            goto out;
        }
        g->leave_values = (const double *)leaves.buf;
    }
    if (depth_obj != Py_None) {
        if (PyObject_GetBuffer(depth_obj, &depths, PyBUF_SIMPLE) < 0)
            goto out;
        have_depths = 1;
        if ((size_t)depths.len != (size_t)g->nk) {
            PyErr_SetString(PyExc_ValueError, "depths needs one byte per arc");
            goto out;
        }
        g->depth = (const uint8_t *)depths.buf;
    }
    if (ana_obj != Py_None) {
        if (PyObject_GetBuffer(ana_obj, &anas, PyBUF_SIMPLE) < 0)
            goto out;
        have_anas = 1;
        size_t slots = (size_t)anas.len / sizeof(uint64_t);
        if (anas.len % sizeof(uint64_t) || slots < 2 || ((slots - 1) & (slots - 2))) {
            PyErr_SetString(PyExc_ValueError, "anagrams needs what anagrams() returns");
            goto out;
        }
        const uint64_t *ab = (const uint64_t *)anas.buf;
        g->alphabet = ab[0] & ~(uint64_t)1;
        g->ana = ab + 1;
        g->ana_mask = slots - 2;
    }
    if (wmp_obj != Py_None) {
        if (PyObject_GetBuffer(wmp_obj, &wmps, PyBUF_SIMPLE) < 0)
            goto out;
        have_wmp = 1;
        if (!(g->wmp = wmp_of(&wmps)))
            goto out;
    }
    g->has_ext = floor == floor;
    g->ext_floor = floor;
    g->bingo_tiles = bingo_tiles;
    for (int k = 0; k <= MAXN; k++)
        g->bonus[k] = k >= bingo_tiles ? bingo_bonus : 0;
    if (bonus_obj != Py_None) {
        Py_buffer bb;
        if (PyObject_GetBuffer(bonus_obj, &bb, PyBUF_SIMPLE) < 0)
            goto out;
        Py_ssize_t nb = bb.len / (Py_ssize_t)sizeof(int32_t);
        if (bb.len % (Py_ssize_t)sizeof(int32_t) || nb < 1) {
            PyBuffer_Release(&bb);
            PyErr_SetString(PyExc_ValueError, "bonuses needs one int32 per number of tiles");
            goto out;
        }
        const int32_t *b = (const int32_t *)bb.buf;
        for (int k = 0; k <= MAXN; k++)
            g->bonus[k] = b[k < nb ? k : nb - 1];
        PyBuffer_Release(&bb);
    }
    g->min_tiles = first_min;
    g->dirs = first_dirs == 1 ? 1 : 2;
    g->mode = mode;
    g->best_n = (size_t)best_n;
    if (mode == MODE_BEST && best_n == 0) {
        result = PyList_New(0);
        goto out;
    }
    g->clabbers = clabbers;
    if (mode == MODE_BEST && !clabbers) {
        g->no_maxsub = g->wmp && wmp_fits(full);
        g->prune = prune_setup(g, full, (uint32_t)nleaves);
        if (g->prune && g->no_maxsub)
            g->use_wmp = wmp_setup(g, full);
    }
    Py_BEGIN_ALLOW_THREADS
    prepare(g, (const uint8_t *)cells.buf, (const uint8_t *)lmult.buf, (const uint8_t *)wmult.buf, start_r, start_c);
    run(g);
    Py_END_ALLOW_THREADS
    if (g->oom) {
        PyErr_NoMemory();
        goto out;
    }
    if (mode == MODE_COUNT)
        result = PyLong_FromLongLong(g->count);
    else
        result = build_list(g, full, (uint32_t)nleaves);
out:
    if (g) {
        gen_free(g);
        free(g);
    }
    if (have_wmp)
        PyBuffer_Release(&wmps);
    if (have_leaves)
        PyBuffer_Release(&leaves);
    if (have_depths)
        PyBuffer_Release(&depths);
    if (have_anas)
        PyBuffer_Release(&anas);
    PyBuffer_Release(&kwg);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&lmult);
    PyBuffer_Release(&wmult);
    PyBuffer_Release(&values);
    PyBuffer_Release(&rack);
    return result;
}

/* -- depths: the most letters left on the way to a word's end ------------------------ */

#define DEPTH_UNKNOWN (-2)
#define DEPTH_BUSY (-3)
#define DEPTH_NONE (-1000) /* no word ends below */

typedef struct {
    uint32_t i, j;    /* the node's arcs from i, and the next to do (downwards) */
    int left;         /* arcs still to do */
    int after, lafter; /* the values of the arcs after j */
} DepthFrame;

/*
 * memo[i] becomes, for the arcs from index i to the end of their node, the most letters
 * (tiles other than the separator) on a path that starts with one of them and ends with
 * an accepting arc (DEPTH_NONE when there is no such path), and lmemo[i] the most letters
 * such a path has before its separator (or in all, without one). Depth-first with an explicit
 * stack (a long chain in a malformed array cannot overflow the C stack); the arcs of a
 * node are done last to first, so that a node sharing the tail of another's arcs finds
 * them done. A cycle (not a valid kwg) counts as 255 letters, which keeps bounds safe.
 */
static int depth_fill(const uint32_t *kwg, uint32_t nk, int16_t *memo, int16_t *lmemo, uint32_t start)
{
    size_t cap = 64, sp = 0;
    DepthFrame *st = (DepthFrame *)malloc(cap * sizeof(DepthFrame));
    if (!st)
        return -1;
    uint32_t push = start;
    for (;;) {
        if (push != UINT32_MAX) {
            if (sp == cap) {
                DepthFrame *ns = (DepthFrame *)realloc(st, 2 * cap * sizeof(DepthFrame));
                if (!ns) {
                    free(st);
                    return -1;
                }
                st = ns;
                cap *= 2;
            }
            uint32_t e = push;
            while (e + 1 < nk && !(kwg[e] & END_BIT))
                e++;
            for (uint32_t j = push; j <= e; j++)
                if (memo[j] == DEPTH_UNKNOWN)
                    memo[j] = DEPTH_BUSY;
            st[sp].i = push;
            st[sp].j = e;
            st[sp].left = (int)(e - push + 1);
            st[sp].after = st[sp].lafter = DEPTH_NONE;
            sp++;
            push = UINT32_MAX;
        }
        if (!sp)
            break;
        DepthFrame *f = &st[sp - 1];
        if (!f->left) {
            sp--;
            continue;
        }
        uint32_t j = f->j;
        if (memo[j] != DEPTH_BUSY) { /* done before (the tail of another node) */
            f->after = memo[j];
            f->lafter = lmemo[j];
        } else {
            uint32_t a = kwg[j], child = a & CHILD_MASK;
            if (child && child < nk && memo[child] == DEPTH_UNKNOWN) {
                push = child; /* do the child first, then come back to this arc */
                continue;
            }
            int letters = (a >> 24) ? 1 : 0;
            int best = (a & ACC_BIT) ? letters : DEPTH_NONE;
            int lbest = best; /* a separator ends the letters before it */
            if (child && child < nk) {
                int busy = memo[child] == DEPTH_BUSY;
                int below = busy ? 255 : memo[child];
                int lbelow = busy ? 255 : lmemo[child];
                if (below != DEPTH_NONE && letters + below > best)
                    best = letters + below;
                if (!letters && below != DEPTH_NONE && lbest < 0)
                    lbest = 0;
                if (letters && lbelow != DEPTH_NONE && 1 + lbelow > lbest)
                    lbest = 1 + lbelow;
            }
            if (best > 255)
                best = 255;
            if (lbest > 255)
                lbest = 255;
            if (f->after > best)
                best = f->after;
            if (f->lafter > lbest)
                lbest = f->lafter;
            memo[j] = (int16_t)best;
            lmemo[j] = (int16_t)lbest;
            f->after = best;
            f->lafter = lbest;
        }
        f->j--;
        f->left--;
    }
    free(st);
    return 0;
}

/* depths(kwg) -> bytes: for every arc index i, in the low 4 bits the most letters on a
 * path from the arcs of index i onwards (to the end of their node) to a word's end, in
 * the high 4 bits the most letters such a path has before the separator; 0 when no word
 * ends below, DEPTH_MAX (15) for 15 or more. One byte an arc keeps the array small enough
 * to stay in cache. generate() takes it to stop branches that cannot place enough tiles. */
static PyObject *k_depths(PyObject *self, PyObject *args)
{
    Py_buffer kwg;
    if (!PyArg_ParseTuple(args, "y*:depths", &kwg))
        return NULL;
    PyObject *result = NULL;
    if (kwg.len % 4 || kwg.len / 4 > 0xFFFFFFFFLL) {
        PyErr_SetString(PyExc_ValueError, "bad kwg buffer");
        goto out;
    }
    uint32_t nk = (uint32_t)(kwg.len / 4);
    int16_t *memo = (int16_t *)malloc((nk ? 2 * (size_t)nk : 1) * sizeof(int16_t));
    int16_t *lmemo = memo + nk;
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)nk);
    if (!memo || !result) {
        free(memo);
        Py_CLEAR(result);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto out;
    }
    const uint32_t *arcs = (const uint32_t *)kwg.buf;
    uint8_t *outp = (uint8_t *)PyBytes_AS_STRING(result);
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (uint32_t i = 0; i < nk; i++)
        memo[i] = lmemo[i] = DEPTH_UNKNOWN;
    for (uint32_t i = 0; i < nk && !failed; i++) {
        if (memo[i] == DEPTH_UNKNOWN && depth_fill(arcs, nk, memo, lmemo, i) < 0)
            failed = 1;
        int d = memo[i], l = lmemo[i];
        d = d < 0 ? 0 : d > DEPTH_MAX ? DEPTH_MAX : d;
        l = l < 0 ? 0 : l > DEPTH_MAX ? DEPTH_MAX : l;
        outp[i] = (uint8_t)(d | l << 4);
    }
    Py_END_ALLOW_THREADS
    free(memo);
    if (failed) {
        Py_CLEAR(result);
        PyErr_NoMemory();
    }
out:
    PyBuffer_Release(&kwg);
    return result;
}

/* -- anagrams: the index of the words' letter multisets ------------------------------ */

typedef struct {
    uint32_t arc;
    int len;
    uint64_t h;
} WordFrame;

/* Visit every word of the DAWG: emit(table, mask, key) for each (table NULL: count).
 * Returns the number of words, -1 when out of memory, -2 on a malformed array (a path
 * longer than any word, or too many steps). */
static long long dawg_words(const uint32_t *kwg, uint32_t nk, uint64_t *table, uint64_t mask, uint64_t *alphabet)
{
    if (nk < 1)
        return 0;
    uint32_t root = kwg[0] & CHILD_MASK;
    if (!root || root >= nk)
        return 0;
    size_t cap = 256, sp = 0;
    WordFrame *st = (WordFrame *)malloc(cap * sizeof(WordFrame));
    if (!st)
        return -1;
    long long words = 0, steps = 0;
    st[sp++] = (WordFrame){root, 0, 0};
    while (sp) {
        WordFrame f = st[--sp];
        if (f.arc >= nk || f.len >= 64 || ++steps > (1LL << 28)) {
            free(st);
            return -2;
        }
        uint32_t a = kwg[f.arc];
        uint32_t t = a >> 24;
        uint64_t h = f.h + letter_hash[t & 63];
        *alphabet |= (uint64_t)1 << (t & 63);
        if (sp + 2 > cap) {
            WordFrame *ns = (WordFrame *)realloc(st, 2 * cap * sizeof(WordFrame));
            if (!ns) {
                free(st);
                return -1;
            }
            st = ns;
            cap *= 2;
        }
        if (!(a & END_BIT))
            st[sp++] = (WordFrame){f.arc + 1, f.len, f.h};
        uint32_t child = a & CHILD_MASK;
        if (child)
            st[sp++] = (WordFrame){child, f.len + 1, h};
        if (a & ACC_BIT) {
            words++;
            if (table) {
                uint64_t key = ana_key(h, f.len + 1);
                for (uint64_t i = (key * 0x9E3779B97F4A7C15ULL) >> 20 & mask;; i = (i + 1) & mask) {
                    if (table[i] == key)
                        break;
                    if (!table[i]) {
                        table[i] = key;
                        break;
                    }
                }
            }
        }
    }
    free(st);
    return words;
}

/* anagrams(kwg) -> bytes: the letter multisets of the DAWG's words, for generate(): a
 * uint64 of the letters used, then an open-addressing hash set of uint64 keys (0: empty
 * slot), its size a power of two at least twice the number of words. */
static PyObject *k_anagrams(PyObject *self, PyObject *args)
{
    Py_buffer kwg;
    if (!PyArg_ParseTuple(args, "y*:anagrams", &kwg))
        return NULL;
    PyObject *result = NULL;
    if (kwg.len % 4 || kwg.len / 4 > 0xFFFFFFFFLL) {
        PyErr_SetString(PyExc_ValueError, "bad kwg buffer");
        goto out;
    }
    uint32_t nk = (uint32_t)(kwg.len / 4);
    const uint32_t *arcs = (const uint32_t *)kwg.buf;
    uint64_t alphabet = 0;
    long long words;
    Py_BEGIN_ALLOW_THREADS
    words = dawg_words(arcs, nk, NULL, 0, &alphabet);
    Py_END_ALLOW_THREADS
    if (words < 0) {
        if (words == -1)
            PyErr_NoMemory();
        else
            PyErr_SetString(PyExc_ValueError, "malformed kwg");
        goto out;
    }
    uint64_t slots = 1024;
    while (slots < 2 * (uint64_t)words)
        slots *= 2;
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((slots + 1) * sizeof(uint64_t)));
    if (!result)
        goto out;
    uint64_t *buf = (uint64_t *)PyBytes_AS_STRING(result);
    memset(buf, 0, (slots + 1) * sizeof(uint64_t));
    Py_BEGIN_ALLOW_THREADS
    words = dawg_words(arcs, nk, buf + 1, slots - 1, &alphabet);
    Py_END_ALLOW_THREADS
    buf[0] = alphabet & ~(uint64_t)1;
out:
    PyBuffer_Release(&kwg);
    return result;
}

/* -- leave tables ------------------------------------------------------------------ */

/*
 * leave_table(counts, leaves) -> bytes: float(leaves(t)) for every sub-rack t of the rack
 * with counts[c] tiles of code c (64 bytes, [0] blanks), as doubles in the index order
 * generate() takes (mixed radix, the lowest code on the rack the least significant digit),
 * t in rack order (letters by code, then blanks). What lexiko.movegen does in Python,
 * without a Python tuple operation per sub-rack.
 */
static PyObject *k_leave_table(PyObject *self, PyObject *args)
{
    Py_buffer counts;
    PyObject *fn, *result = NULL;
    if (!PyArg_ParseTuple(args, "y*O:leave_table", &counts, &fn))
        return NULL;
    const uint8_t *full = (const uint8_t *)counts.buf;
    int codes[64], nc = 0, digit[64], tiles = 0;
    uint64_t nleaves = 1;
    if (counts.len != 64) {
        PyErr_SetString(PyExc_ValueError, "counts needs 64 bytes");
        goto out;
    }
    for (int c = 0; c < 64; c++) {
        if (!full[c])
            continue;
        codes[nc] = c;
        digit[nc++] = 0;
        tiles += full[c];
        nleaves *= (uint64_t)full[c] + 1;
        if (nleaves > MAX_LEAVES) {
            PyErr_SetString(PyExc_ValueError, "rack too large");
            goto out;
        }
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nleaves * sizeof(double)));
    if (!result)
        goto out;
    double *vals = (double *)PyBytes_AS_STRING(result);
    int first = nc && codes[0] == 0; /* the blanks: least significant digit, last in the tuple */
    int size = 0;
    for (uint64_t idx = 0; idx < nleaves; idx++) {
        PyObject *t = PyTuple_New(size);
        if (!t)
            goto fail;
        Py_ssize_t at = 0;
        for (int j = first; j < nc; j++)
            for (int k = 0; k < digit[j]; k++)
                PyTuple_SET_ITEM(t, at++, PyLong_FromLong(codes[j])); /* small ints: cached */
        for (int k = 0; first && k < digit[0]; k++)
            PyTuple_SET_ITEM(t, at++, PyLong_FromLong(0));
        PyObject *v = PyObject_CallOneArg(fn, t);
        Py_DECREF(t);
        if (!v)
            goto fail;
        if (PyFloat_CheckExact(v)) {
            vals[idx] = PyFloat_AS_DOUBLE(v);
            Py_DECREF(v);
        } else { /* float(v), as Python would */
            PyObject *f = PyObject_CallOneArg((PyObject *)&PyFloat_Type, v);
            Py_DECREF(v);
            if (!f)
                goto fail;
            vals[idx] = PyFloat_AsDouble(f);
            Py_DECREF(f);
        }
        for (int j = 0; j < nc; j++) { /* next index */
            if (digit[j] < full[codes[j]]) {
                digit[j]++;
                size++;
                break;
            }
            size -= digit[j];
            digit[j] = 0;
        }
    }
    goto out;
fail:
    Py_CLEAR(result);
out:
    PyBuffer_Release(&counts);
    return result;
}

/* 1 when every cell holds 0 or a tile code below 128 (values[] has 128 entries), else
 * 0 with a Python error set. */
static int cells_valid(const Py_buffer *cells)
{
    const uint8_t *c = (const uint8_t *)cells->buf;
    for (Py_ssize_t i = 0; i < cells->len; i++)
        if (c[i] >= 128) {
            PyErr_SetString(PyExc_ValueError, "a board cell holds a code of 128 or more");
            return 0;
        }
    return 1;
}

/* -- packed leave maps --------------------------------------------------------------
 *
 * A lexiko.leaves.LeaveTable the kernel reads directly (no Python call per sub-rack):
 * a LeaveMapHead (the fallback model: a constant, terms per code and number of copies,
 * a term per count of vowels and consonants) followed by an open-addressing hash table
 * of the stored leaves. A leave's key is 1, then 6 bits per tile, codes ascending
 * (blanks, code 0, first): leaves of up to LM_MAXLEN tiles. The value of a leave is the
 * stored one, else offset + the terms of each code present (letters by code, then the
 * blanks: the order lexiko.leaves adds them in, so the sum is the same double) + the
 * balance term.
 */
#define LM_MAGIC 0x31304D4C4B584CULL /* "LXKLM01" */
#define LM_K 32                     /* copies with terms: a rack's tiles at most */
#define LM_B 33                     /* balance table side: vowels, consonants 0..32 */
#define LM_MAXLEN 10                /* longest stored leave */
#define LM_BATCH 256                /* racks of at most so many sub-racks are looked up at once */
#define LM_HASH(key, bits) ((uint64_t)((key) * 0x9E3779B97F4A7C15ULL) >> (64 - (bits)))

typedef struct {
    uint64_t magic, bits;
    double offset;
    uint8_t vowel[64];
    double terms[64][LM_K + 1][2];
    double balance[LM_B][LM_B];
} LeaveMapHead;

typedef struct {
    uint64_t key;
    double value;
} LeaveSlot;

/* The map in a buffer, or NULL with a Python error set. */
static const LeaveMapHead *leave_map_of(const Py_buffer *b)
{
    const LeaveMapHead *h = (const LeaveMapHead *)b->buf;
    if ((size_t)b->len < sizeof(LeaveMapHead) || h->magic != LM_MAGIC || h->bits < 1 || h->bits > 40 ||
        (size_t)b->len != sizeof(LeaveMapHead) + ((size_t)1 << h->bits) * sizeof(LeaveSlot)) {
        PyErr_SetString(PyExc_ValueError, "not a packed leave map (lexiko.leaves.LeaveTable.packed)");
        return NULL;
    }
    return h;
}

static double leave_map_value(const LeaveMapHead *h, const int *codes, const int *digit, int nc, int size)
{
    const LeaveSlot *slots = (const LeaveSlot *)(h + 1);
    if (size <= LM_MAXLEN) {
        uint64_t key = 1;
        for (int j = 0; j < nc; j++) /* codes ascending, the blank (0) first */
            for (int k = 0; k < digit[j]; k++)
                key = key << 6 | (uint64_t)codes[j];
        uint64_t mask = ((uint64_t)1 << h->bits) - 1;
        for (uint64_t i = LM_HASH(key, h->bits);; i = (i + 1) & mask) {
            if (slots[i].key == key)
                return slots[i].value;
            if (!slots[i].key)
                break;
        }
    }
    double total = h->offset;
    int vowels = 0, consonants = 0;
    int first = nc && codes[0] == 0;
    for (int j = first; j <= nc; j++) { /* letters by code, then the blanks */
        int at = j < nc ? j : 0;
        if (j == nc && !first)
            break;
        int k = digit[at], c = codes[at];
        if (!k)
            continue;
        if (c) {
            if (h->vowel[c])
                vowels += k;
            else
                consonants += k;
        }
        if (k > LM_K)
            k = LM_K;
        total += h->terms[c][k][0];
        total += h->terms[c][k][1];
    }
    if (vowels < LM_B && consonants < LM_B)
        total += h->balance[vowels][consonants];
    return total;
}

/*
 * leave_map(keys, values, bits, offset, vowels, terms, balance) -> bytes: a packed leave
 * map: keys (uint64, as above, distinct) and their values (doubles), 2**bits slots (more
 * than the keys), the model: offset, vowels (64 bytes, 1 for a vowel's code), terms
 * (64 * (LM_K + 1) * 2 doubles: what k copies of code c add), balance (LM_B * LM_B
 * doubles, by vowels then consonants).
 */
static PyObject *k_leave_map(PyObject *self, PyObject *args)
{
    Py_buffer keys, values, vowels, terms, balance;
    int bits;
    double offset;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*idy*y*y*:leave_map", &keys, &values, &bits, &offset, &vowels, &terms, &balance))
        return NULL;
    size_t n = (size_t)keys.len / sizeof(uint64_t);
    if (keys.len % (Py_ssize_t)sizeof(uint64_t) || (size_t)values.len != n * sizeof(double) || bits < 1 ||
        bits > 40 || n >= ((size_t)1 << bits) || vowels.len != 64 ||
        (size_t)terms.len != sizeof(((LeaveMapHead *)0)->terms) ||
        (size_t)balance.len != sizeof(((LeaveMapHead *)0)->balance)) {
        PyErr_SetString(PyExc_ValueError, "bad leave map arguments");
        goto out;
    }
    size_t nslots = (size_t)1 << bits;
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(sizeof(LeaveMapHead) + nslots * sizeof(LeaveSlot)));
    if (!result)
        goto out;
    LeaveMapHead *h = (LeaveMapHead *)PyBytes_AS_STRING(result);
    memset(h, 0, sizeof(LeaveMapHead) + nslots * sizeof(LeaveSlot));
    h->magic = LM_MAGIC;
    h->bits = (uint64_t)bits;
    h->offset = offset;
    memcpy(h->vowel, vowels.buf, 64);
    memcpy(h->terms, terms.buf, sizeof h->terms);
    memcpy(h->balance, balance.buf, sizeof h->balance);
    LeaveSlot *slots = (LeaveSlot *)(h + 1);
    const uint64_t *kb = (const uint64_t *)keys.buf;
    const double *vb = (const double *)values.buf;
    for (size_t j = 0; j < n; j++) {
        if (!kb[j]) {
            Py_CLEAR(result);
            PyErr_SetString(PyExc_ValueError, "leave key 0");
            goto out;
        }
        for (uint64_t i = LM_HASH(kb[j], bits);; i = (i + 1) & (nslots - 1)) {
            if (!slots[i].key || slots[i].key == kb[j]) {
                slots[i].key = kb[j];
                slots[i].value = vb[j];
                break;
            }
        }
    }
out:
    PyBuffer_Release(&keys);
    PyBuffer_Release(&values);
    PyBuffer_Release(&vowels);
    PyBuffer_Release(&terms);
    PyBuffer_Release(&balance);
    return result;
}

/* Fill vals[idx] for every sub-rack of the rack with counts full[] (the index order of
 * generate()). */
static void leave_map_fill(const LeaveMapHead *h, const uint8_t *full, double *vals, uint64_t nleaves)
{
    int codes[64], digit[64], nc = 0, size = 0;
    for (int c = 0; c < 64; c++)
        if (full[c]) {
            codes[nc] = c;
            digit[nc++] = 0;
        }
    if (nleaves <= LM_BATCH) {
        /* A rack's sub-racks at once: every key first, its slot fetched ahead (a table of
         * a million leaves does not fit in the caches), then the look-ups, the model for
         * the leaves not stored. The same values as one leave_map_value at a time. */
        const LeaveSlot *slots = (const LeaveSlot *)(h + 1);
        uint64_t keys[LM_BATCH], mask = ((uint64_t)1 << h->bits) - 1;
        for (uint64_t idx = 0; idx < nleaves; idx++) {
            uint64_t key = 0; /* 0: longer than any stored leave */
            if (size <= LM_MAXLEN) {
                key = 1;
                for (int j = 0; j < nc; j++) /* codes ascending, the blank (0) first */
                    for (int k = 0; k < digit[j]; k++)
                        key = key << 6 | (uint64_t)codes[j];
                __builtin_prefetch(&slots[LM_HASH(key, h->bits)]);
            }
            keys[idx] = key;
            for (int j = 0; j < nc; j++) { /* next index */
                if (digit[j] < full[codes[j]]) {
                    digit[j]++;
                    size++;
                    break;
                }
                size -= digit[j];
                digit[j] = 0;
            }
        }
        for (uint64_t idx = 0; idx < nleaves; idx++) {
            uint64_t key = keys[idx];
            int found = 0;
            for (uint64_t i = LM_HASH(key, h->bits); key; i = (i + 1) & mask) {
                if (slots[i].key == key) {
                    vals[idx] = slots[i].value;
                    found = 1;
                    break;
                }
                if (!slots[i].key)
                    break;
            }
            if (!found)
                vals[idx] = leave_map_value(h, codes, digit, nc, LM_MAXLEN + 1); /* the model */
            for (int j = 0; j < nc; j++) { /* next index (size is not needed here) */
                if (digit[j] < full[codes[j]]) {
                    digit[j]++;
                    break;
                }
                digit[j] = 0;
            }
        }
        return;
    }
    for (uint64_t idx = 0; idx < nleaves; idx++) {
        vals[idx] = leave_map_value(h, codes, digit, nc, size);
        for (int j = 0; j < nc; j++) { /* next index */
            if (digit[j] < full[codes[j]]) {
                digit[j]++;
                size++;
                break;
            }
            size -= digit[j];
            digit[j] = 0;
        }
    }
}

/* leave_values(counts, map) -> bytes: what leave_table(counts, table) gives for the
 * LeaveTable packed in map, computed here. */
static PyObject *k_leave_values(PyObject *self, PyObject *args)
{
    Py_buffer counts, map;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*:leave_values", &counts, &map))
        return NULL;
    const LeaveMapHead *h = leave_map_of(&map);
    if (!h)
        goto out;
    if (counts.len != 64) {
        PyErr_SetString(PyExc_ValueError, "counts needs 64 bytes");
        goto out;
    }
    const uint8_t *full = (const uint8_t *)counts.buf;
    uint64_t nleaves = 1;
    for (int c = 0; c < 64; c++) {
        nleaves *= (uint64_t)full[c] + 1;
        if (nleaves > MAX_LEAVES) {
            PyErr_SetString(PyExc_ValueError, "rack too large");
            goto out;
        }
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nleaves * sizeof(double)));
    if (result)
        leave_map_fill(h, full, (double *)PyBytes_AS_STRING(result), nleaves);
out:
    PyBuffer_Release(&counts);
    PyBuffer_Release(&map);
    return result;
}

/*
 * rack_leaves(racks, sums, counts, dist, size) -> (keys, weighted, weights, seen): what
 * each leave is worth from the full racks it is part of (lexiko.training's rack-equity
 * method). racks: size codes per rack (any order, 0 the blank), each rack once; sums and
 * counts (doubles, one per rack): the equity of the moves made from it, summed, and how
 * many; dist: 64 bytes, the copies of each code in the tile set. For every leave L of 1
 * to size - 1 tiles that some rack R holds, with w the number of ways of drawing R - L
 * from the tile set less L (a product of binomials):
 *   keys: L as the leave map keys it (1, then 6 bits per tile, codes ascending);
 *   weighted: the sum over R of w * sums[R] / counts[R]; weights: the sum of w;
 *   seen: the sum of counts[R] (how many moves the value rests on).
 */
typedef struct {
    uint64_t key;
    double weighted, weight, seen;
} RackLeaveSlot;

static int rl_grow(RackLeaveSlot **slots, int *bits)
{
    size_t old = (size_t)1 << *bits, n = old * 2;
    RackLeaveSlot *fresh = calloc(n, sizeof *fresh);
    if (!fresh)
        return -1;
    for (size_t j = 0; j < old; j++) {
        RackLeaveSlot *s = &(*slots)[j];
        if (!s->key)
            continue;
        for (uint64_t i = LM_HASH(s->key, *bits + 1);; i = (i + 1) & (n - 1))
            if (!fresh[i].key) {
                fresh[i] = *s;
                break;
            }
    }
    free(*slots);
    *slots = fresh;
    (*bits)++;
    return 0;
}

static PyObject *k_rack_leaves(PyObject *self, PyObject *args)
{
    Py_buffer racks, sums, counts, dist;
    int size;
    PyObject *result = NULL;
    RackLeaveSlot *slots = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*i:rack_leaves", &racks, &sums, &counts, &dist, &size))
        return NULL;
    size_t n = size > 0 ? (size_t)racks.len / (size_t)size : 0;
    if (size < 2 || size > LM_MAXLEN || (size_t)racks.len != n * (size_t)size || dist.len != 64 ||
        (size_t)sums.len != n * sizeof(double) || (size_t)counts.len != n * sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "bad rack_leaves arguments");
        goto out;
    }
    /* binomials C(a, b) for a < 256, b <= size */
    static double binom[256][LM_MAXLEN + 1];
    for (int a = 0; a < 256; a++)
        for (int b = 0; b <= LM_MAXLEN; b++)
            binom[a][b] = b == 0 ? 1.0 : a == 0 ? 0.0 : binom[a - 1][b - 1] + binom[a - 1][b];
    const uint8_t *rb = racks.buf, *db = dist.buf;
    const double *sb = sums.buf, *cb = counts.buf;
    int bits = 16;
    size_t used = 0;
    slots = calloc((size_t)1 << bits, sizeof *slots);
    if (!slots)
        goto nomem;
    for (size_t r = 0; r < n; r++) {
        if (cb[r] <= 0)
            continue;
        double mean = sb[r] / cb[r];
        int have[64] = {0}, codes[LM_MAXLEN], full[LM_MAXLEN], digit[LM_MAXLEN] = {0}, nc = 0;
        for (int j = 0; j < size; j++) {
            if (rb[r * (size_t)size + j] >= 64) {
                PyErr_SetString(PyExc_ValueError, "a tile code past 63");
                goto out;
            }
            have[rb[r * (size_t)size + j]]++;
        }
        for (int c = 0; c < 64; c++)
            if (have[c]) {
                codes[nc] = c;
                full[nc++] = have[c];
            }
        for (;;) { /* every sub-multiset: an odometer over the digits */
            int j = 0;
            while (j < nc && digit[j] == full[j])
                digit[j++] = 0;
            if (j == nc)
                break;
            digit[j]++;
            int len = 0;
            double w = 1.0;
            uint64_t key = 1;
            for (int i = 0; i < nc; i++) {
                len += digit[i];
                w *= binom[db[codes[i]] >= digit[i] ? db[codes[i]] - digit[i] : 0][full[i] - digit[i]];
                for (int k = 0; k < digit[i]; k++)
                    key = key << 6 | (uint64_t)codes[i];
            }
            if (len == size || w == 0.0)
                continue;
            if (2 * (used + 1) > ((size_t)1 << bits) && rl_grow(&slots, &bits) < 0)
                goto nomem;
            uint64_t mask = ((uint64_t)1 << bits) - 1;
            for (uint64_t i = LM_HASH(key, bits);; i = (i + 1) & mask) {
                RackLeaveSlot *s = &slots[i];
                if (!s->key) {
                    s->key = key;
                    used++;
                }
                if (s->key == key) {
                    s->weighted += w * mean;
                    s->weight += w;
                    s->seen += cb[r];
                    break;
                }
            }
        }
    }
    {
        PyObject *k = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(used * sizeof(uint64_t)));
        PyObject *a = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(used * sizeof(double)));
        PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(used * sizeof(double)));
        PyObject *s = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(used * sizeof(double)));
        if (k && a && b && s) {
            uint64_t *kp = (uint64_t *)PyBytes_AS_STRING(k);
            double *ap = (double *)PyBytes_AS_STRING(a), *bp = (double *)PyBytes_AS_STRING(b),
                   *sp = (double *)PyBytes_AS_STRING(s);
            size_t o = 0;
            for (size_t i = 0; i < ((size_t)1 << bits); i++)
                if (slots[i].key) {
                    kp[o] = slots[i].key;
                    ap[o] = slots[i].weighted;
                    bp[o] = slots[i].weight;
                    sp[o++] = slots[i].seen;
                }
            result = PyTuple_Pack(4, k, a, b, s);
        }
        Py_XDECREF(k);
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(s);
    }
    goto out;
nomem:
    PyErr_NoMemory();
out:
    free(slots);
    PyBuffer_Release(&racks);
    PyBuffer_Release(&sums);
    PyBuffer_Release(&counts);
    PyBuffer_Release(&dist);
    return result;
}

/* -- play-outs: the static player's turns in the kernel ------------------------------
 *
 * playout() plays whole turns of the static player for every seat (each with its own
 * packed leave map) from a position until the game ends or a number of turns is done:
 * best placement by equity (the leave map's values while the bag holds tiles; once it is
 * empty, going out earns twice the other racks' value and each tile kept costs twice
 * its own), against the best exchange and the pass, ties broken as lexiko.movegen's
 * sort_key does; tiles drawn from the end of the bag; an exchange returns its tiles and
 * shuffles the bag with Python's own generator (MT19937 and random.shuffle, from the
 * state random.getstate() gives), so a game played here is the game lexiko.game.Game
 * plays with lexiko.bots.StaticBot, move for move.
 */

typedef struct {
    uint32_t mt[624];
    uint32_t index;
} PyMT;

static uint32_t pymt_next(PyMT *r)
{
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (r->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < 623; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (r->mt[623] & 0x80000000U) | (r->mt[0] & 0x7fffffffU);
        r->mt[623] = r->mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = r->mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random._randbelow_with_getrandbits(n), n < 2**32 */
static uint32_t pymt_below(PyMT *r, uint32_t n)
{
    int k = 0;
    while (k < 32 && (n >> k))
        k++;
    uint32_t x;
    do
        x = pymt_next(r) >> (32 - k);
    while (x >= n);
    return x;
}

/* random.shuffle */
static void pymt_shuffle(PyMT *r, uint8_t *x, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)pymt_below(r, (uint32_t)i + 1);
        uint8_t t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

/* An unsigned 128-bit integer as two halves (portable C: no compiler extension). */
typedef struct {
    uint64_t lo, hi;
} U128;

/* The number in 16 bytes, little-endian. */
static U128 u128_le(const uint8_t *b)
{
    U128 x = {0, 0};
    for (int k = 7; k >= 0; k--) {
        x.lo = x.lo << 8 | b[k];
        x.hi = x.hi << 8 | b[k + 8];
    }
    return x;
}

static U128 u128_add(U128 a, uint64_t b)
{
    U128 r = {a.lo + b, a.hi};
    if (r.lo < a.lo)
        r.hi++;
    return r;
}

/* random.Random(n) for an integer 0 <= n < 2**128: init_by_array on n's 32-bit words. */
static void pymt_seed(PyMT *r, U128 n)
{
    uint32_t key[4] = {(uint32_t)n.lo, (uint32_t)(n.lo >> 32), (uint32_t)n.hi, (uint32_t)(n.hi >> 32)};
    int len = 4;
    while (len > 1 && !key[len - 1])
        len--;
    uint32_t *mt = r->mt;
    mt[0] = 19650218U;
    for (int i = 1; i < 624; i++)
        mt[i] = (1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i);
    int i = 1, j = 0;
    for (int k = 624 > len ? 624 : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
        if (j >= len)
            j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    r->index = 624;
}

#define PO_MAXP 8     /* seats */

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

static void rack_cache_free(RackCache *rc)
{
    free(rc->vals);
    free(rc->subs);
    free(rc->cand);
    free(rc->cand_e);
    memset(rc, 0, sizeof *rc);
}
#define PO_MAXBAG 1024

typedef struct {
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
    PyMT rng;
    int rng_lazy; /* rng is random.Random(rng_key), seeded when first used (a shuffle) */
    U128 rng_key;
    /* counts */
    int turns, bingos[PO_MAXP], exchanges[PO_MAXP];
    uint8_t kept[PO_MAXP][64]; /* each seat's tiles kept on its last move (counts) */
    int kept_bag[PO_MAXP];     /* and the tiles in the bag after it; -1: no move yet */
    Gen *g;
    Gen *board; /* prepare()'s arrays for cells, kept up to date move by move (po_apply); NULL:
                   po_choose prepares them every turn */
    int last_turn; /* po_apply leaves board behind (no search follows this turn) */
    RackCache *cache; /* per seat (PO_MAXP), the last search's setup; NULL: none kept */
    BaseBest *base_best; /* per seat (PO_MAXP), on base_board; NULL: none */
    const Gen *base_board;
    uint32_t touched[2]; /* lines whose squares changed since base_board: rows, columns */
} PlayOut;

struct Eg;
static void gen_make(Gen *g, const uint8_t *cells, const Move *m, struct Eg *eg, uint32_t *touched);

/* The lexicon's buffers of a play-out (kwg, and what depths() and anagrams() return, or
 * None): 0, or -1 with a Python error set; the buffers got are flagged for release. */
static int po_lexicon(PlayOut *po, const Py_buffer *kwg, PyObject *depth_obj, PyObject *ana_obj, Py_buffer *depths,
                      int *have_depths, Py_buffer *anas, int *have_anas)
{
    po->kwg = (const uint32_t *)kwg->buf;
    po->nk = (uint32_t)(kwg->len / 4);
    if (depth_obj != Py_None) {
        if (PyObject_GetBuffer(depth_obj, depths, PyBUF_SIMPLE) < 0)
            return -1;
        *have_depths = 1;
        if ((size_t)depths->len != (size_t)po->nk) {
            PyErr_SetString(PyExc_ValueError, "depths needs one byte per arc");
            return -1;
        }
        po->depth = (const uint8_t *)depths->buf;
    }
    if (ana_obj != Py_None) {
        if (PyObject_GetBuffer(ana_obj, anas, PyBUF_SIMPLE) < 0)
            return -1;
        *have_anas = 1;
        size_t slots = (size_t)anas->len / sizeof(uint64_t);
        if (anas->len % sizeof(uint64_t) || slots < 2 || ((slots - 1) & (slots - 2))) {
            PyErr_SetString(PyExc_ValueError, "anagrams needs what anagrams() returns");
            return -1;
        }
        const uint64_t *ab = (const uint64_t *)anas->buf;
        po->alphabet = ab[0] & ~(uint64_t)1;
        po->ana = ab + 1;
        po->ana_mask = slots - 2;
    }
    return 0;
}

/* The word map of a play-out (None: none): 0, or -1 with a Python error set. */
static int po_wordmap(PlayOut *po, PyObject *obj, Py_buffer *buf, int *have)
{
    if (obj == Py_None)
        return 0;
    if (PyObject_GetBuffer(obj, buf, PyBUF_SIMPLE) < 0)
        return -1;
    *have = 1;
    po->wmp = wmp_of(buf);
    return po->wmp ? 0 : -1;
}

/* The board of a play-out, as generate() takes it (sizes checked by the caller):
 * cells, multipliers, letter values, the bonus by number of tiles placed (int32s, the
 * last for more tiles), the first play's minimum tiles, start square and directions. */
/* The rules tuple lexiko.bots.playout passes (_rules_args) read into po: 0, or -1 with a
 * Python error set. */
static int po_rules(PlayOut *po, PyObject *rules)
{
    for (int p = 0; p < PO_MAXP; p++)
        po->penalty[p] = NON_OUTPLAY_PENALTY;
    return PyArg_ParseTuple(rules, "iiiiii:rules", &po->rack_size, &po->exchange_min_bag, &po->scoreless_limit,
                            &po->passes_only, &po->exchange_scoreless, &po->end_double)
               ? 0
               : -1;
}

/* A zeroed PlayOut with its two generators (g, board), its lexicon and word map in *out: 0,
 * or -1 with a Python error set (the caller frees what *out holds, as it frees a PlayOut). */
static int po_new(PlayOut **out, const Py_buffer *kwg, PyObject *depth_obj, PyObject *ana_obj, Py_buffer *depths,
                  int *have_depths, Py_buffer *anas, int *have_anas, PyObject *wmp_obj, Py_buffer *wmps,
                  int *have_wmp)
{
    PlayOut *po = *out = (PlayOut *)calloc(1, sizeof(PlayOut));
    if (po) {
        po->g = (Gen *)calloc(1, sizeof(Gen));
        po->board = (Gen *)calloc(1, sizeof(Gen));
    }
    if (!po || !po->g || !po->board) {
        PyErr_NoMemory();
        return -1;
    }
    if (po_lexicon(po, kwg, depth_obj, ana_obj, depths, have_depths, anas, have_anas) < 0)
        return -1;
    return po_wordmap(po, wmp_obj, wmps, have_wmp);
}

static void po_board(PlayOut *po, int size, const Py_buffer *cells, const Py_buffer *lmult, const Py_buffer *wmult,
                     const Py_buffer *values, int bingo_tiles, const Py_buffer *bonuses, int first_min, int start_r,
                     int start_c, int first_dirs)
{
    po->n = size;
    memcpy(po->cells, cells->buf, (size_t)cells->len);
    po->lmult = (const uint8_t *)lmult->buf;
    po->wmult = (const uint8_t *)wmult->buf;
    memcpy(po->values, values->buf, 128);
    po->bingo_tiles = bingo_tiles;
    const int32_t *b = (const int32_t *)bonuses->buf;
    Py_ssize_t nb = bonuses->len / 4;
    for (int k = 0; k <= MAXN; k++)
        po->bonus[k] = b[k < nb ? k : nb - 1];
    po->first_min = first_min;
    po->start_r = start_r;
    po->start_c = start_c;
    po->sym_dirs = first_dirs == 1 ? 1 : 2;
}

/* Set g (the lexicon, board and first-play fields already set) to list the best_n
 * placements of rack full by equity with leave values vals (NULL: the score alone),
 * those below floor (NaN: none) left out: the pruned search, by the play-out's word map
 * when it has one. */
static void po_gen_best(Gen *g, const PlayOut *po, const uint8_t *full, const double *vals, size_t best_n,
                        double floor, RackCache *rc)
{
    memcpy(g->rack, full, 64);
    uint64_t nl = 1;
    for (int t = 0; t < 64; t++) {
        g->radix[t] = (uint32_t)nl;
        g->rack_left += full[t];
        if (full[t])
            nl *= (uint64_t)full[t] + 1;
    }
    g->full_leave = (uint32_t)(nl - 1);
    g->leave_values = vals;
    g->depth = po->depth;
    if (po->ana) {
        g->alphabet = po->alphabet;
        g->ana = po->ana;
        g->ana_mask = po->ana_mask;
    }
    g->has_ext = floor == floor;
    g->ext_floor = floor;
    g->bingo_tiles = po->bingo_tiles;
    memcpy(g->bonus, po->bonus, sizeof g->bonus);
    g->mode = MODE_BEST;
    g->best_n = best_n;
    g->wmp = po->wmp;
    if (rc && rc->has_setup) { /* the same rack and values as the last search's */
        g->no_maxsub = 1;
        g->prune = 1;
        g->use_wmp = 1;
        memcpy(g->vals_desc, rc->vals_desc, sizeof g->vals_desc);
        memcpy(g->top, rc->top, sizeof g->top);
        memcpy(g->lmax, rc->lmax, sizeof g->lmax);
        g->vmax = rc->vmax;
        g->blanks0 = rc->blanks0;
        g->hnat = rc->hnat;
        g->avail = rc->avail;
        g->subs = rc->subs;
        g->cand = rc->cand;
        g->cand_e = rc->cand_e;
        memcpy(g->sub_at, rc->sub_at, sizeof g->sub_at);
        g->ncodes = rc->ncodes;
        memcpy(g->codes, rc->codes, sizeof g->codes);
        return;
    }
    g->no_maxsub = g->wmp && wmp_fits(full);
    g->prune = prune_setup(g, full, (uint32_t)nl);
    if (g->prune && g->no_maxsub)
        g->use_wmp = wmp_setup(g, full);
    if (rc && g->use_wmp && !g->maxsub) {
        /* kept for the next search of this rack: the cache owns the sub-racks now */
        rc->has_setup = 1;
        memcpy(rc->vals_desc, g->vals_desc, sizeof rc->vals_desc);
        memcpy(rc->top, g->top, sizeof rc->top);
        memcpy(rc->lmax, g->lmax, sizeof rc->lmax);
        rc->vmax = g->vmax;
        rc->blanks0 = g->blanks0;
        rc->hnat = g->hnat;
        rc->avail = g->avail;
        rc->subs = g->subs;
        rc->cand = g->cand;
        rc->cand_e = g->cand_e;
        memcpy(rc->sub_at, g->sub_at, sizeof rc->sub_at);
        rc->ncodes = g->ncodes;
        memcpy(rc->codes, g->codes, sizeof rc->codes);
    }
}

/* Prepare po->board for po->cells from scratch (a new position). */
static void po_board_prepare(PlayOut *po)
{
    Gen *b = po->board;
    memset(b, 0, sizeof(Gen));
    b->kwg = po->kwg;
    b->nk = po->nk;
    b->n = po->n;
    memcpy(b->values, po->values, 128);
    prepare(b, po->cells, po->lmult, po->wmult, po->start_r, po->start_c);
}

/* po->board after placement m (po->cells already holds it): the squares it changed, or
 * everything after the first play (the start square stops being the only anchor). */
static void po_board_make(PlayOut *po, const Move *m)
{
    if (po->board->empty_board) {
        po_board_prepare(po);
        po->touched[0] = po->touched[1] = ~(uint32_t)0;
    } else {
        gen_make(po->board, po->cells, m, NULL, po->touched);
    }
}

/* Set g to the lexicon and the board of po->cells for a search: copied from po->board
 * when kept (a copy costs less than the cross-sets of every anchor), else prepared. */
static void po_search_gen(PlayOut *po, Gen *g)
{
    if (po->board) {
        memcpy(g, po->board, sizeof(Gen));
        g->min_tiles = g->empty_board ? po->first_min : 1; /* as prepare() leaves them */
        g->dirs = g->empty_board ? po->sym_dirs : 2;
        return;
    }
    memset(g, 0, sizeof(Gen));
    g->kwg = po->kwg;
    g->nk = po->nk;
    g->n = po->n;
    memcpy(g->values, po->values, 128);
    g->min_tiles = po->first_min;
    g->dirs = po->sym_dirs;
    prepare(g, po->cells, po->lmult, po->wmult, po->start_r, po->start_c);
}

/* The tiles of rack full not kept by the sub-rack whose digits (counts of codes[j]) are
 * given, in rack order (letters by code, then blanks), into out; how many. */
static int exchanged_tiles(const uint8_t *full, const int *codes, const int *digit, int nc, uint8_t *out)
{
    int n = 0;
    for (int j = 0; j < nc; j++)
        if (codes[j])
            for (int k = digit[j]; k < full[codes[j]]; k++)
                out[n++] = (uint8_t)codes[j];
    if (nc && codes[0] == 0)
        for (int k = digit[0]; k < full[0]; k++)
            out[n++] = 0;
    return n;
}

/* The map's values of the sub-racks of seat p's rack (nleaves of them), kept with the rack
 * in the seat's RackCache (*rcp): NULL when out of memory. */
static double *po_cached_vals(PlayOut *po, int p, uint64_t nleaves, RackCache **rcp)
{
    const uint8_t *full = po->rack[p];
    RackCache *rc = *rcp = &po->cache[p];
    if (rc->valid && rc->map == po->maps[p] && !memcmp(rc->rack, full, 64))
        return rc->vals;
    free(rc->subs);
    free(rc->cand);
    free(rc->cand_e);
    rc->subs = NULL;
    rc->cand = NULL;
    rc->cand_e = NULL;
    rc->valid = rc->has_setup = rc->ex_valid = 0;
    if (rc->vals_cap < nleaves) {
        free(rc->vals);
        rc->vals = (double *)malloc(nleaves * sizeof(double));
        rc->vals_cap = rc->vals ? nleaves : 0;
        if (!rc->vals)
            return NULL;
    }
    leave_map_fill(po->maps[p], full, rc->vals, nleaves);
    memcpy(rc->rack, full, 64);
    rc->map = po->maps[p];
    rc->valid = 1;
    return rc->vals;
}

/* One placement, exchange or pass of the player on turn, as generate() and the static
 * player choose it. kind: 0 placement (m), 1 exchange (ex, nex), 2 pass. -1: no memory. */
static int po_choose(PlayOut *po, Move *m, uint8_t *ex, int *nex)
{
    int p = po->turn;
    const uint8_t *full = po->rack[p];
    Gen *g = po->g;
    /* the leave values of the rack's sub-racks */
    uint64_t nleaves = 1;
    for (int c = 0; c < 64; c++)
        nleaves *= (uint64_t)full[c] + 1;
    if (nleaves > (1u << 16))
        return -1;
    /* while the bag holds tiles the values are the map's: kept with the seat's rack */
    RackCache *rc = NULL;
    double *vals;
    if (po->cache && po->nb > 0) {
        if (!(vals = po_cached_vals(po, p, nleaves, &rc)))
            return -1;
    } else if (!(vals = (double *)malloc(nleaves * sizeof(double)))) {
        return -1;
    } else if (po->nb > 0) {
        leave_map_fill(po->maps[p], full, vals, nleaves);
    } else {
        int others = 0;
        for (int q = 0; q < po->np; q++)
            if (q != p)
                for (int c = 0; c < 64; c++)
                    others += po->rack[q][c] * (c ? po->values[c] : 0);
        int codes[64], digit[64], nc = 0;
        for (int c = 0; c < 64; c++)
            if (full[c]) {
                codes[nc] = c;
                digit[nc++] = 0;
            }
        for (uint64_t idx = 0; idx < nleaves; idx++) {
            if (!idx) {
                vals[idx] = 2.0 * (double)others;
            } else {
                double v = 0.0;
                for (int j = 0; j < nc; j++)
                    v += 2.0 * (double)(digit[j] * (codes[j] ? po->values[codes[j]] : 0));
                vals[idx] = -v - po->penalty[p];
            }
            for (int j = 0; j < nc; j++) {
                if (digit[j] < full[codes[j]]) {
                    digit[j]++;
                    break;
                }
                digit[j] = 0;
            }
        }
    }
    uint32_t fullidx = (uint32_t)(nleaves - 1);
    /* the best of the exchanges and the pass */
    int can_ex = po->nb >= po->exchange_min_bag;
    /* the pass: while the bag holds tiles, only when nothing else can be played (it keeps
     * the whole rack, a leave no table is trained on); once it is empty, as valued above */
    double best_eq = po->nb > 0 ? -INFINITY : vals[fullidx];
    int best_kind = 2;
    uint8_t best_ex[64];
    int best_nex = 0;
    int every_ex = rc && can_ex && po->nb >= po->rack_n[p]; /* rc: the map's values */
    if (every_ex && rc->ex_valid) {
        best_eq = rc->ex_eq;
        best_kind = rc->ex_kind;
        best_nex = rc->ex_n;
        memcpy(best_ex, rc->ex_tiles, (size_t)best_nex);
    } else if (can_ex) {
        int codes[64], digit[64], nc = 0, kept = 0;
        for (int c = 0; c < 64; c++)
            if (full[c]) {
                codes[nc] = c;
                digit[nc++] = 0;
            }
        int total = po->rack_n[p];
        for (uint32_t idx = 0; idx < fullidx; idx++) {
            int nx = total - kept;
            if (nx <= po->nb) {
                double eq = 0.0 + vals[idx];
                uint8_t cur[64];
                int nn = eq >= best_eq ? exchanged_tiles(full, codes, digit, nc, cur) : 0;
                if (eq > best_eq || (eq == best_eq && best_kind == 2)) {
                    best_eq = eq;
                    best_kind = 1;
                    memcpy(best_ex, cur, (size_t)nn);
                    best_nex = nn;
                } else if (eq == best_eq) {
                    int mn = nn < best_nex ? nn : best_nex;
                    int cmp = memcmp(cur, best_ex, (size_t)mn);
                    if (cmp < 0 || (cmp == 0 && nn < best_nex)) {
                        memcpy(best_ex, cur, (size_t)nn);
                        best_nex = nn;
                    }
                }
            }
            for (int j = 0; j < nc; j++) {
                if (digit[j] < full[codes[j]]) {
                    digit[j]++;
                    kept++;
                    break;
                }
                kept -= digit[j];
                digit[j] = 0;
            }
        }
    }
    if (every_ex && !rc->ex_valid) {
        rc->ex_valid = 1;
        rc->ex_eq = best_eq;
        rc->ex_kind = best_kind;
        rc->ex_n = best_nex;
        memcpy(rc->ex_tiles, best_ex, (size_t)best_nex);
    }
    /* the best placement: from the seat's best on the base board when it has them for
     * this rack (the best on an untouched line; the touched lines searched for better),
     * else a search of the whole board */
    const BaseBest *bb = po->base_best && rc && rc->has_setup ? &po->base_best[p] : NULL;
    const Move *kept_best = NULL;
    if (bb && bb->valid && !memcmp(bb->rack, full, 64)) {
        for (int i = 0; i < bb->n && !kept_best; i++) {
            const Move *x = &bb->moves[i];
            if (!((po->touched[x->down] >> (x->down ? x->col : x->row)) & 1))
                kept_best = x;
        }
        if (!kept_best && !bb->all)
            bb = NULL; /* the best may be on a line untouched but below these: search it all */
    } else {
        bb = NULL;
    }
    po_search_gen(po, g);
    g->open_vowel = g->empty_board && po->maps[p] ? po->maps[p]->vowel : NULL;
    int searched = 1;
    if (bb) {
        double floor = kept_best && !(kept_best->equity < best_eq) ? kept_best->equity : best_eq;
        po_gen_best(g, po, full, vals, 1, floor, rc);
        g->only_lines = 1;
        g->line_mask[0] = po->touched[0];
        g->line_mask[1] = po->touched[1];
        searched = (po->touched[0] | po->touched[1]) != 0;
    } else {
        po_gen_best(g, po, full, vals, 1, best_eq, rc);
    }
    if (searched)
        run(g);
    const Move *top = g->nmoves ? &g->moves[0] : NULL;
    if (kept_best && (!top || move_cmp(kept_best, top) < 0))
        top = kept_best;
    int kind = best_kind;
    if (g->oom) {
        kind = -1;
    } else if (top && top->equity >= best_eq) {
        *m = *top;
        kind = 0;
    } else if (kind == 1) {
        memcpy(ex, best_ex, (size_t)best_nex);
        *nex = best_nex;
    }
    if (rc && rc->has_setup) { /* the cache's, not the search's */
        g->subs = NULL;
        g->cand = NULL;
        g->cand_e = NULL;
    }
    gen_free(g);
    if (!rc)
        free(vals);
    return kind;
}

/* Seat p's best placements on po->base_board (po->board) with its rack, into
 * po->base_best[p] (left invalid when the search is not the word map's, or the board is
 * empty). The bag must hold tiles (the map's leave values). -1: no memory. */
static int po_fill_base_best(PlayOut *po, int p)
{
    BaseBest *bb = &po->base_best[p];
    const uint8_t *full = po->rack[p];
    Gen *g = po->g;
    bb->valid = 0;
    if (po->board->empty_board || po->nb <= 0)
        return 0;
    uint64_t nleaves = 1;
    for (int c = 0; c < 64; c++)
        nleaves *= (uint64_t)full[c] + 1;
    if (nleaves > (1u << 16))
        return 0;
    RackCache *rc;
    double *vals = po_cached_vals(po, p, nleaves, &rc);
    if (!vals)
        return -1;
    po_search_gen(po, g);
    po_gen_best(g, po, full, vals, BB_N, NAN, rc);
    int ok = rc->has_setup;
    if (ok)
        run(g);
    if (g->oom) {
        ok = -1;
    } else if (ok) {
        if (g->nmoves) {
            qsort(g->moves, g->nmoves, sizeof(Move), move_vcmp);
            memcpy(bb->moves, g->moves, g->nmoves * sizeof(Move));
        }
        bb->n = (int)g->nmoves;
        bb->all = g->nmoves < BB_N;
        memcpy(bb->rack, full, 64);
        bb->valid = 1;
    }
    if (rc->has_setup) {
        g->subs = NULL;
        g->cand = NULL;
        g->cand_e = NULL;
    }
    gen_free(g);
    return ok < 0 ? -1 : 0;
}

static int po_rack_value(const PlayOut *po, int p)
{
    int v = 0;
    for (int c = 1; c < 64; c++)
        v += po->rack[p][c] * po->values[c];
    return v;
}

static void po_draw(PlayOut *po, int p, int k)
{
    for (int i = 0; i < k && po->nb > 0; i++) {
        po->rack[p][po->bag[--po->nb]]++;
        po->rack_n[p]++;
    }
}

static void po_count(PlayOut *po, int scoreless, int is_pass)
{
    int counts = po->passes_only ? is_pass : scoreless;
    po->scoreless_run = counts ? po->scoreless_run + 1 : 0;
}

static void po_finish(PlayOut *po, const char *reason, int out_player)
{
    po->over = 1;
    po->end_reason = reason;
    memcpy(po->before, po->scores, sizeof po->before);
    if (out_player >= 0) {
        int left = 0;
        for (int q = 0; q < po->np; q++)
            if (q != out_player)
                left += po_rack_value(po, q);
        if (po->end_double && po->np == 2) {
            po->scores[out_player] += 2 * left;
        } else {
            po->scores[out_player] += left;
            for (int q = 0; q < po->np; q++)
                if (q != out_player)
                    po->scores[q] -= po_rack_value(po, q);
        }
    } else {
        for (int q = 0; q < po->np; q++)
            po->scores[q] -= po_rack_value(po, q);
    }
}

/* Play one turn; appends (player, kind, row, col, down, tiles, score, kept, bag) to log
 * when given (kept: the tiles kept, rack order; bag: tiles in the bag after the move).
 * Returns 0, or -1 with a Python error set. */
static int po_apply(PlayOut *po, int kind, const Move *mp, const uint8_t *ex, int nex, PyObject *log);

static int po_turn(PlayOut *po, PyObject *log)
{
    Move m;
    memset(&m, 0, sizeof m);
    uint8_t ex[64];
    int nex = 0;
    int kind = po_choose(po, &m, ex, &nex);
    if (kind < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return po_apply(po, kind, &m, ex, nex, log);
}

/* Make the move of the player on turn: kind 0 the placement *mp, 1 the exchange of ex
 * (returned to the bag in that order), 2 a pass; then the draw, the end of the game or
 * the next player. The tiles must be on the rack. */
static int po_apply(PlayOut *po, int kind, const Move *mp, const uint8_t *ex, int nex, PyObject *log)
{
    Move m = *mp;
    int p = po->turn, out = 0;
    po->turns++;
    if (kind == 0) {
        int placed = 0, n = po->n;
        for (int j = 0; j < m.len; j++) {
            uint8_t t = m.tiles[j];
            if (!t)
                continue;
            int r = m.down ? m.row + j : m.row, c = m.down ? m.col : m.col + j;
            po->cells[r * n + c] = t;
            if (t & BLANK_FLAG)
                po->rack[p][0]--;
            else
                po->rack[p][t]--;
            po->rack_n[p]--;
            placed++;
        }
        if (po->board && !po->last_turn)
            po_board_make(po, &m);
        po->scores[p] += m.score;
        if (placed >= po->bingo_tiles)
            po->bingos[p]++;
        po->first_min = 1;
        po->sym_dirs = 2;
        po_count(po, m.score == 0, 0);
        memcpy(po->kept[p], po->rack[p], 64);
        po_draw(po, p, po->rack_size - po->rack_n[p]);
        po->kept_bag[p] = po->nb;
        out = !po->rack_n[p] && !po->nb;
    } else if (kind == 1) {
        for (int j = 0; j < nex; j++) {
            po->rack[p][ex[j]]--;
            po->rack_n[p]--;
        }
        memcpy(po->kept[p], po->rack[p], 64);
        po_draw(po, p, nex);
        for (int j = 0; j < nex; j++)
            po->bag[po->nb++] = ex[j];
        if (po->rng_lazy) {
            pymt_seed(&po->rng, po->rng_key);
            po->rng_lazy = 0;
        }
        pymt_shuffle(&po->rng, po->bag, po->nb);
        po->kept_bag[p] = po->nb;
        po->exchanges[p]++;
        po_count(po, po->exchange_scoreless, 0);
    } else {
        memcpy(po->kept[p], po->rack[p], 64);
        po->kept_bag[p] = po->nb;
        po_count(po, 1, 1);
    }
    if (log) {
        uint8_t u[64 * 4];
        int k = 0;
        for (int c = 1; c < 64; c++)
            for (int j = 0; j < po->kept[p][c]; j++)
                u[k++] = (uint8_t)c;
        for (int j = 0; j < po->kept[p][0]; j++)
            u[k++] = 0;
        PyObject *item;
        if (kind == 0)
            item = Py_BuildValue("(iiiiiy#iy#i)", p, 0, m.row, m.col, m.down, (const char *)m.tiles, (Py_ssize_t)m.len,
                                 m.score, (const char *)u, (Py_ssize_t)k, po->nb);
        else
            item = Py_BuildValue("(iiiiiy#iy#i)", p, kind, 0, 0, 0, (const char *)ex, (Py_ssize_t)(kind == 1 ? nex : 0),
                                 0, (const char *)u, (Py_ssize_t)k, po->nb);
        if (!item || PyList_Append(log, item) < 0) {
            Py_XDECREF(item);
            return -1;
        }
        Py_DECREF(item);
    }
    if (out) {
        po_finish(po, "out", p);
        return 0;
    }
    if (po->scoreless_limit && po->scoreless_run >= po->scoreless_limit) {
        po_finish(po, "scoreless", -1);
        return 0;
    }
    po->turn = (p + 1) % po->np;
    return 0;
}

/*
 * playout(kwg, depths, anagrams, size, cells, letter_mult, word_mult, values, bingo_tiles,
 *         bonuses, first_min, start_row, start_col, first_dirs, rules, racks, bag, scores,
 *         turn, scoreless_run, maps, rng_state, max_turns, log)
 *   -> (cells, racks, bag, scores, turn, scoreless_run, end_reason, rng_state, turns,
 *       bingos, exchanges, scores_before_end, kept)
 *
 * kwg, depths, anagrams, size, cells, multipliers, values, first_min, start and
 * first_dirs as for generate(); bonuses: int32s by number of tiles (what a play of k
 * tiles earns on top of its words); rules: (rack_size, exchange_min_bag,
 * scoreless_turn_limit, scoreless_passes_only, exchange_is_scoreless, end_double); racks:
 * bytes of tile codes per seat; bag: bytes, drawn from the end; maps: a packed leave map
 * per seat; rng_state: the 625 ints of random.getstate()[1]; max_turns: stop after so
 * many turns (-1: at the end of the game); penalties (optional): per seat, the points taken
 * off every play that does not go out once the bag is empty; log: None or a list to append each turn to,
 * as (player, kind 0 play / 1 exchange / 2 pass, row, col, down, tiles, score, kept,
 * bag): kept the tiles kept (rack order), bag the tiles in the bag after the move.
 * end_reason is None while the game goes on; kept: per seat, the tiles it kept on its
 * last move (rack order) and the tiles in the bag after that move, or (None, -1).
 */
static PyObject *k_playout(PyObject *self, PyObject *args)
{
    Py_buffer kwg, cells, lmult, wmult, values, bonuses;
    PyObject *depth_obj, *ana_obj, *rules, *racks, *bag, *scores, *maps, *rng_state, *log;
    int size, bingo_tiles, first_min, start_r, start_c, first_dirs, turn, scoreless_run, max_turns;
    Py_buffer depths, anas;
    int have_depths = 0, have_anas = 0;
    Py_buffer mapbuf[PO_MAXP];
    int nmaps = 0;
    PyObject *result = NULL;
    PlayOut *po = NULL;
    memset(&depths, 0, sizeof depths);
    memset(&anas, 0, sizeof anas);
    PyObject *penalties = Py_None, *wmp_obj = Py_None;
    Py_buffer wmps;
    int have_wmp = 0;
    if (!PyArg_ParseTuple(args, "y*OOiy*y*y*y*iy*iiiiOOOOiiOOiO|OO:playout", &kwg, &depth_obj, &ana_obj, &size,
                          &cells, &lmult, &wmult, &values, &bingo_tiles, &bonuses, &first_min, &start_r, &start_c,
                          &first_dirs, &rules, &racks, &bag, &scores, &turn, &scoreless_run, &maps, &rng_state,
                          &max_turns, &log, &penalties, &wmp_obj))
        return NULL;
    if (size < 1 || size > MAXN || cells.len != (Py_ssize_t)size * size || lmult.len != cells.len ||
        wmult.len != cells.len || values.len != 128 || kwg.len % 4 || bonuses.len < 4 || bonuses.len % 4) {
        PyErr_SetString(PyExc_ValueError, "playout: bad board, values, bonuses or kwg buffer");
        goto out;
    }
    if (!cells_valid(&cells))
        goto out;
    if (po_new(&po, &kwg, depth_obj, ana_obj, &depths, &have_depths, &anas, &have_anas, wmp_obj, &wmps,
               &have_wmp) < 0)
        goto out;
    po_board(po, size, &cells, &lmult, &wmult, &values, bingo_tiles, &bonuses, first_min, start_r, start_c,
             first_dirs);
    po_board_prepare(po);
    if (po_rules(po, rules) < 0)
        goto out;
    if (!PyList_Check(racks) || !PyList_Check(scores) || !PyList_Check(maps) || !PyBytes_Check(bag) ||
        (log != Py_None && !PyList_Check(log))) {
        PyErr_SetString(PyExc_TypeError, "playout: racks, scores and maps are lists, bag is bytes, log a list or None");
        goto out;
    }
    po->np = (int)PyList_GET_SIZE(racks);
    if (po->np < 1 || po->np > PO_MAXP || PyList_GET_SIZE(scores) != po->np || PyList_GET_SIZE(maps) != po->np ||
        turn < 0 || turn >= po->np || PyBytes_GET_SIZE(bag) > PO_MAXBAG) {
        PyErr_SetString(PyExc_ValueError, "playout: a rack, a score and a leave map per seat; turn a seat");
        goto out;
    }
    for (int p = 0; p < po->np; p++) {
        PyObject *r = PyList_GET_ITEM(racks, p);
        if (!PyBytes_Check(r)) {
            PyErr_SetString(PyExc_TypeError, "playout: racks are bytes");
            goto out;
        }
        const uint8_t *t = (const uint8_t *)PyBytes_AS_STRING(r);
        for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(r); i++) {
            if (t[i] >= 64) {
                PyErr_SetString(PyExc_ValueError, "playout: a rack code above 63");
                goto out;
            }
            po->rack[p][t[i]]++;
            po->rack_n[p]++;
        }
        if (po->rack_n[p] > PRUNE_MAX_RACK) {
            PyErr_SetString(PyExc_ValueError, "playout: a rack of more than 15 tiles");
            goto out;
        }
        po->scores[p] = PyLong_AsLongLong(PyList_GET_ITEM(scores, p));
        if (PyErr_Occurred())
            goto out;
        if (PyObject_GetBuffer(PyList_GET_ITEM(maps, p), &mapbuf[p], PyBUF_SIMPLE) < 0)
            goto out;
        nmaps++;
        po->maps[p] = leave_map_of(&mapbuf[p]);
        if (!po->maps[p])
            goto out;
        if (penalties != Py_None) {
            if (!PyList_Check(penalties) || PyList_GET_SIZE(penalties) != po->np) {
                PyErr_SetString(PyExc_ValueError, "playout: penalties is a list of a number per seat");
                goto out;
            }
            po->penalty[p] = PyFloat_AsDouble(PyList_GET_ITEM(penalties, p));
            if (PyErr_Occurred())
                goto out;
        }
    }
    po->nb = (int)PyBytes_GET_SIZE(bag);
    memcpy(po->bag, PyBytes_AS_STRING(bag), (size_t)po->nb);
    for (int i = 0; i < po->nb; i++)
        if (po->bag[i] >= 64) {
            PyErr_SetString(PyExc_ValueError, "playout: a bag code above 63");
            goto out;
        }
    po->turn = turn;
    po->scoreless_run = scoreless_run;
    for (int p = 0; p < PO_MAXP; p++)
        po->kept_bag[p] = -1;
    if (!PyTuple_Check(rng_state) || PyTuple_GET_SIZE(rng_state) != 625) {
        PyErr_SetString(PyExc_ValueError, "playout: rng_state is random.getstate()[1]");
        goto out;
    }
    for (int i = 0; i < 625; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(rng_state, i));
        if (PyErr_Occurred())
            goto out;
        if (i < 624)
            po->rng.mt[i] = (uint32_t)v;
        else
            po->rng.index = (uint32_t)v;
    }
    {
        int done = 0;
        while (!po->over && (max_turns < 0 || done < max_turns)) {
            if (po->turns > 100000) {
                PyErr_SetString(PyExc_RuntimeError, "playout: the game did not end");
                goto out;
            }
            if (po_turn(po, log == Py_None ? NULL : log) < 0)
                goto out;
            done++;
        }
    }
    {
        PyObject *rk = PyList_New(po->np), *sc = PyList_New(po->np), *bg = PyList_New(po->np),
                 *exs = PyList_New(po->np), *st = PyTuple_New(625), *bf = PyList_New(po->np),
                 *kp = PyList_New(po->np);
        if (!rk || !sc || !bg || !exs || !st || !bf || !kp) {
            Py_XDECREF(kp);
            Py_XDECREF(bf);
            Py_XDECREF(rk);
            Py_XDECREF(sc);
            Py_XDECREF(bg);
            Py_XDECREF(exs);
            Py_XDECREF(st);
            goto out;
        }
        for (int p = 0; p < po->np; p++) {
            uint8_t t[64 * 4];
            int k = 0;
            for (int c = 1; c < 64; c++)
                for (int j = 0; j < po->rack[p][c]; j++)
                    t[k++] = (uint8_t)c;
            for (int j = 0; j < po->rack[p][0]; j++)
                t[k++] = 0;
            PyList_SET_ITEM(rk, p, PyBytes_FromStringAndSize((const char *)t, k));
            int kk = 0;
            uint8_t u[64 * 4];
            for (int c = 1; c < 64; c++)
                for (int j = 0; j < po->kept[p][c]; j++)
                    u[kk++] = (uint8_t)c;
            for (int j = 0; j < po->kept[p][0]; j++)
                u[kk++] = 0;
            PyList_SET_ITEM(kp, p, po->kept_bag[p] < 0 ? Py_BuildValue("(Oi)", Py_None, -1)
                                                       : Py_BuildValue("(y#i)", (const char *)u, (Py_ssize_t)kk,
                                                                       po->kept_bag[p]));
            PyList_SET_ITEM(sc, p, PyLong_FromLongLong(po->scores[p]));
            PyList_SET_ITEM(bg, p, PyLong_FromLong(po->bingos[p]));
            PyList_SET_ITEM(exs, p, PyLong_FromLong(po->exchanges[p]));
            PyList_SET_ITEM(bf, p, PyLong_FromLongLong(po->over ? po->before[p] : po->scores[p]));
        }
        for (int i = 0; i < 624; i++)
            PyTuple_SET_ITEM(st, i, PyLong_FromUnsignedLong(po->rng.mt[i]));
        PyTuple_SET_ITEM(st, 624, PyLong_FromUnsignedLong(po->rng.index));
        result = Py_BuildValue("(y#Ny#NiizNiNNNN)", (const char *)po->cells, (Py_ssize_t)(size * size), rk,
                               (const char *)po->bag, (Py_ssize_t)po->nb, sc, po->turn, po->scoreless_run,
                               po->end_reason, st, po->turns, bg, exs, bf, kp);
    }
out:
    for (int i = 0; i < nmaps; i++)
        PyBuffer_Release(&mapbuf[i]);
    if (po) {
        free(po->g);
        free(po->board);
        free(po);
    }
    if (have_wmp)
        PyBuffer_Release(&wmps);
    if (have_depths)
        PyBuffer_Release(&depths);
    if (have_anas)
        PyBuffer_Release(&anas);
    PyBuffer_Release(&kwg);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&lmult);
    PyBuffer_Release(&wmult);
    PyBuffer_Release(&values);
    PyBuffer_Release(&bonuses);
    return result;
}

/*
 * static_games(kwg, depths, anagrams, size, letter_mult, word_mult, values, bingo_tiles,
 *              bonuses, first_min, start_row, start_col, first_dirs, rules, bag, maps,
 *              seeds, first_players, penalties, wordmap)
 *   -> [(scores, scores_before_end, bingos, turns, end_reason), ...]
 *
 * Whole games of the static player against itself from an empty board, one per seed: what
 * playout() plays from the start lexiko.game.Game(seed=seed, first_player=first) deals
 * (the bag, a full bag as TileSet.bag() lists it, shuffled by random.Random(seed), each
 * seat from the first player on drawing its rack from the bag's end), without a Python
 * call, a Game or a random.Random per game (self-play's cost outside the turns). The
 * arguments are playout()'s, but: bag the unshuffled full bag; seeds bytes, 16 per game
 * (the seed, 0 <= seed < 2**128, little-endian); first_players bytes, one per game.
 */
static PyObject *k_static_games(PyObject *self, PyObject *args)
{
    Py_buffer kwg, lmult, wmult, values, bonuses, bagb, seeds, firsts;
    PyObject *depth_obj, *ana_obj, *rules, *maps, *penalties, *wmp_obj;
    int size, bingo_tiles, first_min, start_r, start_c, first_dirs;
    Py_buffer depths, anas, wmps;
    int have_depths = 0, have_anas = 0, have_wmp = 0;
    Py_buffer mapbuf[PO_MAXP];
    int nmaps = 0;
    PyObject *result = NULL, *list = NULL;
    PlayOut *po = NULL;
    memset(&depths, 0, sizeof depths);
    memset(&anas, 0, sizeof anas);
    if (!PyArg_ParseTuple(args, "y*OOiy*y*y*iy*iiiiOy*Oy*y*OO:static_games", &kwg, &depth_obj, &ana_obj, &size,
                          &lmult, &wmult, &values, &bingo_tiles, &bonuses, &first_min, &start_r, &start_c,
                          &first_dirs, &rules, &bagb, &maps, &seeds, &firsts, &penalties, &wmp_obj))
        return NULL;
    Py_ssize_t ngames = firsts.len;
    if (size < 1 || size > MAXN || lmult.len != (Py_ssize_t)size * size || wmult.len != lmult.len ||
        values.len != 128 || kwg.len % 4 || bonuses.len < 4 || bonuses.len % 4 || bagb.len > PO_MAXBAG ||
        seeds.len != 16 * ngames) {
        PyErr_SetString(PyExc_ValueError, "static_games: bad board, values, bonuses, kwg, bag or seeds");
        goto out;
    }
    if (po_new(&po, &kwg, depth_obj, ana_obj, &depths, &have_depths, &anas, &have_anas, wmp_obj, &wmps,
               &have_wmp) < 0)
        goto out;
    {
        /* po_board's empty board: the cells of a game's start */
        static const uint8_t zeros[MAXN * MAXN];
        Py_buffer cells = lmult;
        cells.buf = (void *)zeros;
        po_board(po, size, &cells, &lmult, &wmult, &values, bingo_tiles, &bonuses, first_min, start_r, start_c,
                 first_dirs);
    }
    if (po_rules(po, rules) < 0)
        goto out;
    if (!PyList_Check(maps) || (penalties != Py_None && !PyList_Check(penalties))) {
        PyErr_SetString(PyExc_TypeError, "static_games: maps and penalties are lists");
        goto out;
    }
    po->np = (int)PyList_GET_SIZE(maps);
    if (po->np < 1 || po->np > PO_MAXP || (penalties != Py_None && PyList_GET_SIZE(penalties) != po->np) ||
        po->rack_size < 0 || po->rack_size > PRUNE_MAX_RACK || po->np * po->rack_size > bagb.len) {
        PyErr_SetString(PyExc_ValueError, "static_games: a leave map (and penalty) per seat, racks of at most 15 "
                                          "tiles that the bag can fill");
        goto out;
    }
    for (int p = 0; p < po->np; p++) {
        if (PyObject_GetBuffer(PyList_GET_ITEM(maps, p), &mapbuf[p], PyBUF_SIMPLE) < 0)
            goto out;
        nmaps++;
        if (!(po->maps[p] = leave_map_of(&mapbuf[p])))
            goto out;
        if (penalties != Py_None) {
            po->penalty[p] = PyFloat_AsDouble(PyList_GET_ITEM(penalties, p));
            if (PyErr_Occurred())
                goto out;
        }
    }
    const uint8_t *bag0 = (const uint8_t *)bagb.buf, *fp = (const uint8_t *)firsts.buf;
    for (Py_ssize_t i = 0; i < bagb.len; i++)
        if (bag0[i] >= 64) {
            PyErr_SetString(PyExc_ValueError, "static_games: a bag code above 63");
            goto out;
        }
    for (Py_ssize_t i = 0; i < ngames; i++)
        if (fp[i] >= po->np) {
            PyErr_SetString(PyExc_ValueError, "static_games: a first player is not a seat");
            goto out;
        }
    if (!(list = PyList_New(ngames)))
        goto out;
    int first_min0 = po->first_min, dirs0 = po->sym_dirs;
    for (Py_ssize_t gi = 0; gi < ngames; gi++) {
        /* the start Game deals: its generator seeded, the bag shuffled, the racks drawn */
        pymt_seed(&po->rng, u128_le((const uint8_t *)seeds.buf + 16 * gi));
        po->rng_lazy = 0;
        po->nb = (int)bagb.len;
        memcpy(po->bag, bag0, (size_t)po->nb);
        pymt_shuffle(&po->rng, po->bag, po->nb);
        memset(po->cells, 0, sizeof po->cells);
        memset(po->rack, 0, sizeof po->rack);
        memset(po->rack_n, 0, sizeof po->rack_n);
        memset(po->scores, 0, sizeof po->scores);
        memset(po->before, 0, sizeof po->before);
        memset(po->bingos, 0, sizeof po->bingos);
        memset(po->exchanges, 0, sizeof po->exchanges);
        memset(po->kept, 0, sizeof po->kept);
        for (int p = 0; p < PO_MAXP; p++)
            po->kept_bag[p] = -1;
        int first = fp[gi];
        for (int i = 0; i < po->np; i++)
            po_draw(po, (first + i) % po->np, po->rack_size);
        po->turn = first;
        po->scoreless_run = 0;
        po->over = 0;
        po->end_reason = NULL;
        po->turns = 0;
        po->first_min = first_min0;
        po->sym_dirs = dirs0;
        po_board_prepare(po);
        while (!po->over) {
            if (po->turns > 100000) {
                PyErr_SetString(PyExc_RuntimeError, "static_games: a game did not end");
                goto out;
            }
            if (po_turn(po, NULL) < 0)
                goto out;
        }
        PyObject *sc = PyTuple_New(po->np), *bf = PyTuple_New(po->np), *bg = PyTuple_New(po->np);
        if (!sc || !bf || !bg) {
            Py_XDECREF(sc);
            Py_XDECREF(bf);
            Py_XDECREF(bg);
            goto out;
        }
        for (int p = 0; p < po->np; p++) {
            PyTuple_SET_ITEM(sc, p, PyLong_FromLongLong(po->scores[p]));
            PyTuple_SET_ITEM(bf, p, PyLong_FromLongLong(po->before[p]));
            PyTuple_SET_ITEM(bg, p, PyLong_FromLong(po->bingos[p]));
        }
        PyObject *item = Py_BuildValue("(NNNiz)", sc, bf, bg, po->turns, po->end_reason);
        if (!item)
            goto out;
        PyList_SET_ITEM(list, gi, item);
    }
    result = list;
    list = NULL;
out:
    Py_XDECREF(list);
    for (int i = 0; i < nmaps; i++)
        PyBuffer_Release(&mapbuf[i]);
    if (po) {
        free(po->g);
        free(po->board);
        free(po);
    }
    if (have_wmp)
        PyBuffer_Release(&wmps);
    if (have_depths)
        PyBuffer_Release(&depths);
    if (have_anas)
        PyBuffer_Release(&anas);
    PyBuffer_Release(&kwg);
    PyBuffer_Release(&lmult);
    PyBuffer_Release(&wmult);
    PyBuffer_Release(&values);
    PyBuffer_Release(&bonuses);
    PyBuffer_Release(&bagb);
    PyBuffer_Release(&seeds);
    PyBuffer_Release(&firsts);
    return result;
}

/* -- simulation: the play-outs of many iterations in one call ------------------------ */

/* The value of the leave with counts kept[] by the map. */
static double leave_map_counts(const LeaveMapHead *h, const uint8_t *kept)
{
    int codes[64], digit[64], nc = 0, size = 0;
    for (int c = 0; c < 64; c++)
        if (kept[c]) {
            codes[nc] = c;
            digit[nc++] = kept[c];
            size += kept[c];
        }
    return leave_map_value(h, codes, digit, nc, size);
}

typedef struct {
    int kind; /* 0 placement, 1 exchange, 2 pass */
    Move m;
    uint8_t ex[64];
    int nex;
    long long id; /* its number among the candidates: the seed of its shuffles */
} SimCand;

/*
 * simulate(kwg, depths, anagrams, size, cells, letter_mult, word_mult, values, bingo_tiles,
 *          bonuses, first_min, start_row, start_col, first_dirs, rules, map, rack, unseen,
 *          opp_sizes, scores, scoreless_run, candidates, plies, seed_base, start, stop)
 *   -> [[(value, win) per candidate] per iteration start..stop-1]
 *
 * What lexiko.bots.simulation's play-outs compute, iteration for iteration: iteration
 * i shuffles unseen with random.Random(seed_base + i), deals the opponents' racks
 * (opp_sizes, bytes) from its start and leaves the rest as the bag; candidate j is made
 * (candidates: (kind, row, col, down, tiles, score[, id])) with random.Random(seed_base +
 * i + 7919 * (id + 1)) for any shuffle (id: j unless given), then plies static turns
 * follow. seed_base: 16 bytes,
 * little-endian. scores: the player's first, then the opponents' in turn order.
 * known (optional, after the word map): per iteration, bytes of tiles the first opponent
 * holds for sure; they leave the pool (each its first copy) before the shuffle and that
 * opponent is dealt them, then the first tiles of the pool.
 */
static PyObject *k_simulate(PyObject *self, PyObject *args)
{
    Py_buffer kwg, cells, lmult, wmult, values, bonuses, map, rack, unseen, opp, seedb;
    PyObject *depth_obj, *ana_obj, *rules, *scores, *cands;
    int size, bingo_tiles, first_min, start_r, start_c, first_dirs, scoreless_run, plies;
    Py_ssize_t start, stop;
    Py_buffer depths, anas;
    int have_depths = 0, have_anas = 0;
    PyObject *result = NULL;
    PlayOut *base = NULL, *po = NULL;
    Gen *board = NULL;
    RackCache *cache = NULL;
    BaseBest *base_best = NULL;
    Gen *cboards = NULL;         /* per placement candidate: the board's arrays after it */
    uint32_t (*ctouched)[2] = NULL; /* and the lines it touched */
    uint8_t *cready = NULL;
    SimCand *cs = NULL;
    memset(&depths, 0, sizeof depths);
    memset(&anas, 0, sizeof anas);
    PyObject *wmp_obj = Py_None, *known = Py_None;
    Py_buffer wmps;
    int have_wmp = 0;
    if (!PyArg_ParseTuple(args, "y*OOiy*y*y*y*iy*iiiiOy*y*y*y*OiOiy*nn|OO:simulate", &kwg, &depth_obj, &ana_obj, &size,
                          &cells, &lmult, &wmult, &values, &bingo_tiles, &bonuses, &first_min, &start_r, &start_c,
                          &first_dirs, &rules, &map, &rack, &unseen, &opp, &scores, &scoreless_run, &cands, &plies,
                          &seedb, &start, &stop, &wmp_obj, &known))
        return NULL;
    const LeaveMapHead *lmh = leave_map_of(&map);
    if (!lmh)
        goto out;
    int np = 1 + (int)opp.len;
    if (size < 1 || size > MAXN || cells.len != (Py_ssize_t)size * size || lmult.len != cells.len ||
        wmult.len != cells.len || values.len != 128 || kwg.len % 4 || bonuses.len < 4 || bonuses.len % 4 ||
        seedb.len != 16 || np > PO_MAXP || !PyList_Check(scores) || PyList_GET_SIZE(scores) != np ||
        !PyList_Check(cands) || unseen.len > PO_MAXBAG || rack.len > PRUNE_MAX_RACK || start < 0 || stop < start ||
        (known != Py_None && (!PyList_Check(known) || PyList_GET_SIZE(known) != stop - start || opp.len < 1))) {
        PyErr_SetString(PyExc_ValueError, "simulate: bad arguments");
        goto out;
    }
    if (!cells_valid(&cells))
        goto out;
    base = (PlayOut *)calloc(1, sizeof(PlayOut));
    po = (PlayOut *)calloc(1, sizeof(PlayOut));
    Py_ssize_t nc = PyList_GET_SIZE(cands);
    cs = (SimCand *)calloc(nc ? (size_t)nc : 1, sizeof(SimCand));
    board = (Gen *)calloc(1, sizeof(Gen));
    cache = (RackCache *)calloc(PO_MAXP, sizeof(RackCache));
    base_best = (BaseBest *)calloc(PO_MAXP, sizeof(BaseBest));
    if (!base || !po || !cs || !board || !cache || !base_best || !(base->g = (Gen *)calloc(1, sizeof(Gen))) ||
        !(base->board = (Gen *)calloc(1, sizeof(Gen)))) {
        PyErr_NoMemory();
        goto out;
    }
    if (po_lexicon(base, &kwg, depth_obj, ana_obj, &depths, &have_depths, &anas, &have_anas) < 0)
        goto out;
    if (po_wordmap(base, wmp_obj, &wmps, &have_wmp) < 0)
        goto out;
    po_board(base, size, &cells, &lmult, &wmult, &values, bingo_tiles, &bonuses, first_min, start_r, start_c,
             first_dirs);
    if (po_rules(base, rules) < 0)
        goto out;
    base->np = np;
    for (int p = 0; p < np; p++)
        base->maps[p] = lmh;
    /* the board's generator arrays, prepared once: each play-out starts from a copy and
     * keeps it up to date move by move (its last turn needs no update) */
    po_board_prepare(base);
    base->cache = cache;
    /* with several candidates, the opponents' best on this board with the racks an
     * iteration deals them, found once: each play-out searches only the lines its moves
     * touched (po_choose) */
    if (nc >= 3) {
        base->base_best = base_best;
        base->base_board = base->board;
    }
    /* a candidate's board is the same in every iteration: made once (with few candidates;
     * the copies must stay in the caches) */
    if (plies > 0 && nc <= 16 && !base->board->empty_board) {
        cboards = (Gen *)malloc((size_t)nc * sizeof(Gen));
        ctouched = (uint32_t(*)[2])calloc((size_t)nc, sizeof *ctouched);
        cready = (uint8_t *)calloc((size_t)nc, 1);
        if (!cboards || !ctouched || !cready) {
            PyErr_NoMemory();
            goto out;
        }
    }
    long long init_scores[PO_MAXP];
    for (int p = 0; p < np; p++) {
        init_scores[p] = PyLong_AsLongLong(PyList_GET_ITEM(scores, p));
        if (PyErr_Occurred())
            goto out;
    }
    const uint8_t *ub = (const uint8_t *)unseen.buf, *rb = (const uint8_t *)rack.buf, *ob = (const uint8_t *)opp.buf;
    int dealt = 0;
    for (int q = 0; q < (int)opp.len; q++)
        dealt += ob[q];
    for (Py_ssize_t i = 0; i < unseen.len; i++)
        if (ub[i] >= 64)
            dealt = INT32_MAX;
    for (Py_ssize_t i = 0; i < rack.len; i++)
        if (rb[i] >= 64)
            dealt = INT32_MAX;
    if (dealt > unseen.len) {
        PyErr_SetString(PyExc_ValueError, "simulate: more tiles dealt than unseen, or a code above 63");
        goto out;
    }
    for (Py_ssize_t j = 0; j < nc; j++) {
        PyObject *c = PyList_GET_ITEM(cands, j);
        int kind, row, col, down, score;
        long long id = (long long)j;
        const char *t;
        Py_ssize_t tl;
        if (!PyArg_ParseTuple(c, "iiiiy#i|L:candidate", &kind, &row, &col, &down, &t, &tl, &score, &id))
            goto out;
        if (id < 0 || id > 1000000) {
            PyErr_SetString(PyExc_ValueError, "simulate: a candidate number out of range");
            goto out;
        }
        cs[j].id = id;
        if (kind < 0 || kind > 2 || tl > (kind == 0 ? MAXN : 63) || row < 0 || col < 0 || row >= size || col >= size ||
            (kind == 0 && (down ? row : col) + tl > size)) {
            PyErr_SetString(PyExc_ValueError, "simulate: a bad candidate");
            goto out;
        }
        cs[j].kind = kind;
        if (kind == 0) {
            cs[j].m.row = (uint8_t)row;
            cs[j].m.col = (uint8_t)col;
            cs[j].m.down = (uint8_t)(down != 0);
            cs[j].m.len = (uint8_t)tl;
            cs[j].m.score = score;
            memcpy(cs[j].m.tiles, t, (size_t)tl);
        } else if (kind == 1) {
            memcpy(cs[j].ex, t, (size_t)tl);
            cs[j].nex = (int)tl;
        }
    }
    U128 seed0 = u128_le((const uint8_t *)seedb.buf);
    result = PyList_New(0);
    if (!result)
        goto out;
    uint8_t pool[PO_MAXBAG];
    for (Py_ssize_t it = start; it < stop; it++) {
        PyMT rng;
        pymt_seed(&rng, u128_add(seed0, (uint64_t)it));
        /* the tiles the first opponent holds for sure (inferred), out of the pool first */
        uint8_t held[64];
        int nheld = 0, npool = (int)unseen.len;
        memcpy(pool, ub, (size_t)unseen.len);
        if (known != Py_None) {
            PyObject *kb = PyList_GET_ITEM(known, it - start);
            if (!PyBytes_Check(kb) || PyBytes_GET_SIZE(kb) > ob[0]) {
                PyErr_SetString(PyExc_ValueError, "simulate: known holds bytes of at most the first opponent's rack");
                Py_CLEAR(result);
                goto out;
            }
            for (Py_ssize_t x = 0; x < PyBytes_GET_SIZE(kb); x++) {
                uint8_t t = (uint8_t)PyBytes_AS_STRING(kb)[x];
                int at = -1;
                for (int y = 0; y < npool && at < 0; y++)
                    if (pool[y] == t)
                        at = y;
                if (at < 0) {
                    PyErr_SetString(PyExc_ValueError, "simulate: a known tile is not among the unseen");
                    Py_CLEAR(result);
                    goto out;
                }
                memmove(pool + at, pool + at + 1, (size_t)(npool - at - 1));
                npool--;
                held[nheld++] = t;
            }
        }
        pymt_shuffle(&rng, pool, npool);
        PyObject *row = PyList_New(nc);
        if (!row || PyList_Append(result, row) < 0) {
            Py_XDECREF(row);
            Py_CLEAR(result);
            goto out;
        }
        Py_DECREF(row);
        for (Py_ssize_t j = 0; j < nc; j++) {
            Gen *g = base->g;
            memcpy(po, base, sizeof(PlayOut));
            po->g = g;
            int made = cboards && cs[j].kind == 0; /* the board after the candidate is kept */
            if (!made || j == 0)
                memcpy(board, base->board, sizeof(Gen));
            po->board = board;
            po->last_turn = plies == 0;
            for (Py_ssize_t i = 0; i < rack.len; i++) {
                po->rack[0][rb[i]]++;
                po->rack_n[0]++;
            }
            int k = 0;
            for (int x = 0; x < nheld; x++) {
                po->rack[1][held[x]]++;
                po->rack_n[1]++;
            }
            for (int q = 0; q < (int)opp.len; q++)
                for (int x = q ? 0 : nheld; x < ob[q]; x++) {
                    po->rack[q + 1][pool[k++]]++;
                    po->rack_n[q + 1]++;
                }
            po->nb = npool - k;
            memcpy(po->bag, pool + k, (size_t)po->nb);
            po->turn = 0;
            po->scoreless_run = scoreless_run;
            for (int p = 0; p < PO_MAXP; p++)
                po->kept_bag[p] = -1;
            if (j == 0 && po->base_best)
                for (int q = 1; q < np && q <= plies; q++)
                    if (po_fill_base_best(po, q) < 0) {
                        PyErr_NoMemory();
                        Py_CLEAR(result);
                        goto out;
                    }
            /* seeded only if a turn shuffles the bag (an exchange): seeding costs more than
             * most play-outs' other bookkeeping */
            po->rng_key = u128_add(u128_add(seed0, (uint64_t)it), 7919ULL * (uint64_t)(cs[j].id + 1));
            po->rng_lazy = 1;
            /* the candidate, then the static turns */
            const SimCand *c = &cs[j];
            int ok = 1;
            if (c->kind == 0) {
                uint8_t need[64] = {0};
                for (int x = 0; x < c->m.len; x++) {
                    uint8_t t = c->m.tiles[x];
                    if (t) {
                        int at = (int)(c->m.down ? c->m.row + x : c->m.row) * size + (c->m.down ? c->m.col : c->m.col + x);
                        if (po->cells[at])
                            ok = 0;
                        need[t & BLANK_FLAG ? 0 : t & LETTER_MASK]++;
                    }
                }
                for (int t = 0; t < 64; t++)
                    if (need[t] > po->rack[0][t])
                        ok = 0;
            } else if (c->kind == 1) {
                uint8_t need[64] = {0};
                for (int x = 0; x < c->nex; x++)
                    if (c->ex[x] >= 64 || ++need[c->ex[x]] > po->rack[0][c->ex[x]])
                        ok = 0;
            }
            if (!ok) {
                PyErr_SetString(PyExc_ValueError, "simulate: a candidate needs tiles the rack or board does not allow");
                Py_CLEAR(result);
                goto out;
            }
            if (made && !cready[j]) { /* its first play-out makes it */
                memcpy(&cboards[j], base->board, sizeof(Gen));
                po->board = &cboards[j];
            } else if (made) {
                po->board = NULL;
            }
            if (po_apply(po, c->kind, &c->m, c->ex, c->nex, NULL) < 0) {
                Py_CLEAR(result);
                goto out;
            }
            if (made) {
                if (!cready[j]) {
                    memcpy(ctouched[j], po->touched, sizeof po->touched);
                    cready[j] = 1;
                }
                memcpy(board, &cboards[j], sizeof(Gen));
                memcpy(po->touched, ctouched[j], sizeof po->touched);
                po->board = board;
            }
            for (int ply = 0; ply < plies && !po->over; ply++) {
                po->last_turn = ply == plies - 1;
                if (po_turn(po, NULL) < 0) {
                    Py_CLEAR(result);
                    goto out;
                }
            }
            /* the value and win estimate, as lexiko.bots.simulation computes them */
            long long others = 0, top = 0;
            for (int q = 1; q < np; q++) {
                others += po->scores[q];
                long long f = init_scores[q] + po->scores[q];
                if (q == 1 || f > top)
                    top = f;
            }
            double others_mean = np > 1 ? (double)others / (double)(np - 1) : 0.0;
            double value = (double)po->scores[0] - others_mean;
            double leave_value = 0.0;
            if (!po->over) {
                if (po->kept_bag[0] > 0)
                    leave_value = leave_map_counts(lmh, po->kept[0]);
                /* less the mean value of what the opponents kept (0 for one who has not moved) */
                double opp = 0.0;
                for (int q = 1; q < np; q++)
                    if (po->kept_bag[q] > 0)
                        opp += leave_map_counts(lmh, po->kept[q]);
                if (np > 1)
                    leave_value -= opp / (double)(np - 1);
            }
            value += leave_value;
            long long spread = init_scores[0] + po->scores[0] - (np > 1 ? top : 0);
            double win;
            if (po->over) {
                win = spread > 0 ? 1.0 : spread == 0 ? 0.5 : 0.0;
            } else {
                int left = po->nb;
                for (int q = 0; q < np; q++)
                    left += po->rack_n[q];
                double width = 4.2 * sqrt((double)(po->nb + (left < 7 ? left : 7)));
                double x = ((double)spread + leave_value) / width;
                x = x < 60.0 ? x : 60.0;
                x = x > -60.0 ? x : -60.0;
                win = 1.0 / (1.0 + exp(-x));
            }
            PyObject *pair = Py_BuildValue("(dd)", value, win);
            if (!pair) {
                Py_CLEAR(result);
                goto out;
            }
            PyList_SET_ITEM(row, j, pair);
        }
    }
out:
    if (base) {
        free(base->g);
        free(base->board);
    }
    free(base);
    free(po);
    free(board);
    if (cache)
        for (int p = 0; p < PO_MAXP; p++)
            rack_cache_free(&cache[p]);
    free(cache);
    free(base_best);
    free(cboards);
    free(ctouched);
    free(cready);
    free(cs);
    if (have_wmp)
        PyBuffer_Release(&wmps);
    if (have_depths)
        PyBuffer_Release(&depths);
    if (have_anas)
        PyBuffer_Release(&anas);
    PyBuffer_Release(&kwg);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&lmult);
    PyBuffer_Release(&wmult);
    PyBuffer_Release(&values);
    PyBuffer_Release(&bonuses);
    PyBuffer_Release(&map);
    PyBuffer_Release(&rack);
    PyBuffer_Release(&unseen);
    PyBuffer_Release(&opp);
    PyBuffer_Release(&seedb);
    return result;
}

/* -- endgame: the two-player game with the bag empty, solved in the kernel ------------
 *
 * What lexiko.bots.endgame's solver does, compiled: negamax with alpha-beta and
 * principal variation search, a transposition table (Zobrist keys of the board, both
 * racks and the scoreless run), iterative deepening for EG_DEEPEN plies (stopped at
 * EG_DEEPEN_NODES) and then a search to the end of every line; below the depth limit
 * a position is valued by a greedy play-out (each side plays its highest-scoring
 * placement).
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
typedef struct {
    uint64_t xc[2];
    int32_t xs[2];
    uint8_t r, c, cell, anchor;
} EgUndo;
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

static uint64_t eg_rack_key(const uint8_t *rack, uint64_t salt)
{
    uint64_t h = 0;
    for (int w = 0; w < 8; w++)
        for (uint64_t x = eg_word(rack, w); x; x &= ~((uint64_t)0xFF << (__builtin_ctzll(x) & ~7))) {
            int c = 8 * w + (__builtin_ctzll(x) >> 3);
            h += mix64(salt + (uint64_t)c * 17 + rack[c]);
        }
    return h;
}

static uint64_t eg_move_hash(const Move *m)
{
    uint64_t h = mix64((uint64_t)m->row << 16 | (uint64_t)m->col << 8 | m->down) ^ m->len;
    for (int j = 0; j < m->len; j++)
        h = mix64(h + m->tiles[j]);
    return h | 1; /* 0: the pass */
}

static double eg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int eg_value(const Eg *eg, const uint8_t *rack)
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

static int eg_tiles(const uint8_t *rack)
{
    int k = 0;
    for (int w = 0; w < 8; w++)
        k += (int)((eg_word(rack, w) * 0x0101010101010101ULL) >> 56); /* a word's counts sum below 256 */
    return k;
}

static inline void eg_save(Eg *eg, int r, int c)
{
    Gen *g = eg->po->g;
    int ia = r * MAXN + c, id = c * MAXN + r;
    EgUndo *u = &eg->undo[eg->nundo++];
    u->r = (uint8_t)r;
    u->c = (uint8_t)c;
    u->cell = g->cell[0][ia];
    u->anchor = g->anchor[0][ia];
    u->xc[0] = g->xcheck[0][ia];
    u->xc[1] = g->xcheck[1][id];
    u->xs[0] = g->xscore[0][ia];
    u->xs[1] = g->xscore[1][id];
}

/* g holds prepare()'s arrays for the board before m; cells is that board with the tiles
 * of m added: bring the arrays up to date (keeping what they held on eg's undo stack
 * when eg is given: eg_unmake goes back). Only the squares of the new tiles and the
 * empty squares met first from a new tile in each direction (over the tiles in
 * between) change: those become anchors, and their cross words changed. */
static void gen_make(Gen *g, const uint8_t *cells, const Move *m, Eg *eg, uint32_t *touched)
{
    int n = g->n;
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int j = 0; j < m->len; j++) {
        uint8_t t = m->tiles[j];
        if (!t)
            continue;
        int r = m->down ? m->row + j : m->row, c = m->down ? m->col : m->col + j;
        int ia = r * MAXN + c, id = c * MAXN + r;
        if (eg)
            eg_save(eg, r, c);
        if (touched) {
            touched[0] |= 1u << r;
            touched[1] |= 1u << c;
        }
        g->cell[0][ia] = g->cell[1][id] = t;
        g->anchor[0][ia] = g->anchor[1][id] = 0;
    }
    for (int j = 0; j < m->len; j++) {
        if (!m->tiles[j])
            continue;
        int r0 = m->down ? m->row + j : m->row, c0 = m->down ? m->col : m->col + j;
        for (int k = 0; k < 4; k++) {
            int r = r0 + dr[k], c = c0 + dc[k];
            while (r >= 0 && c >= 0 && r < n && c < n && cells[r * n + c]) {
                r += dr[k];
                c += dc[k];
            }
            if (r < 0 || c < 0 || r >= n || c >= n)
                continue;
            int ia = r * MAXN + c, id = c * MAXN + r;
            if (eg)
                eg_save(eg, r, c);
            if (touched) {
                touched[0] |= 1u << r;
                touched[1] |= 1u << c;
            }
            g->anchor[0][ia] = g->anchor[1][id] = 1;
            g->xcheck[0][ia] = cross_set(g, cells, r, c, 1, 0, &g->xscore[0][ia]);
            g->xcheck[1][id] = cross_set(g, cells, r, c, 0, 1, &g->xscore[1][id]);
        }
    }
}

/* The search's Gen holds prepare()'s arrays for the board before m: gen_make, kept on
 * the undo stack. Returns the mark to give eg_unmake. */
static size_t eg_make(Eg *eg, const uint8_t *cells, const Move *m)
{
    size_t mark = eg->nundo;
    gen_make(eg->po->g, cells, m, eg, NULL);
    return mark;
}

/* Back to the board of the mark eg_make returned. */
static void eg_unmake(Eg *eg, size_t mark)
{
    Gen *g = eg->po->g;
    while (eg->nundo > mark) {
        const EgUndo *u = &eg->undo[--eg->nundo];
        int ia = u->r * MAXN + u->c, id = u->c * MAXN + u->r;
        g->cell[0][ia] = g->cell[1][id] = u->cell;
        g->anchor[0][ia] = g->anchor[1][id] = u->anchor;
        g->xcheck[0][ia] = u->xc[0];
        g->xcheck[1][id] = u->xc[1];
        g->xscore[0][ia] = u->xs[0];
        g->xscore[1][id] = u->xs[1];
    }
}

/* The one tile of a rack (blank: it is a blank; else code, its letter) on square (r, c)
 * of g: the most it scores there, the tile it puts down in *t; -1: it has no place there. */
static inline int eg_single_at(const Gen *g, int blank, int code, int r, int c, uint8_t *t)
{
    int ia = r * MAXN + c, id = c * MAXN + r;
    if (!g->anchor[0][ia])
        return -1;
    uint64_t ok = g->xcheck[0][ia] & g->xcheck[1][id];
    if (blank) {
        if (!(ok & ALL_LETTERS))
            return -1;
        *t = (uint8_t)(__builtin_ctzll(ok & ALL_LETTERS) | BLANK_FLAG);
    } else {
        if (!((ok >> code) & 1))
            return -1;
        *t = (uint8_t)code;
    }
    int xd = g->xscore[0][ia], xa = g->xscore[1][id];
    if (xd < 0 && xa < 0)
        return -1;
    int v = g->values[*t] * g->lm[0][ia], wm = g->wm[0][ia];
    return (xd >= 0 ? (xd + v) * wm : 0) + (xa >= 0 ? (xa + v) * wm : 0) + g->bonus[1];
}

/* The letter of a one-tile rack (0 for a blank, *blank then 1). */
static inline int eg_single_code(const uint8_t *rack, int *blank)
{
    int code = 0;
    *blank = rack[0] > 0;
    for (int t = 1; t < 64 && !*blank; t++)
        if (rack[t])
            code = t;
    return code;
}

/* The highest-scoring placement of rack's one tile (g prepared for a board with tiles)
 * in *m, recorded as the generator records it: across when it makes an across word,
 * else down, the main word's board tiles as 0. A blank is tried as every letter; the
 * first of the best is kept. 0: the tile has no place. */
static int eg_single_best(const Gen *g, const uint8_t *rack, Move *m)
{
    int n = g->n, blank, code = eg_single_code(rack, &blank);
    int best = -1, br = 0, bc = 0, bd = 0, bs = 0, be = 0;
    uint8_t bt = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            uint8_t t;
            int score = eg_single_at(g, blank, code, r, c, &t);
            if (score <= best)
                continue;
            best = score;
            bt = t;
            if (g->xscore[1][c * MAXN + r] >= 0) { /* across: the main word is the across run through (r, c) */
                int s0 = c, e0 = c;
                while (s0 > 0 && g->cell[0][r * MAXN + s0 - 1])
                    s0--;
                while (e0 + 1 < n && g->cell[0][r * MAXN + e0 + 1])
                    e0++;
                br = r, bc = c, bd = 0, bs = s0, be = e0;
            } else {
                int s0 = r, e0 = r;
                while (s0 > 0 && g->cell[1][c * MAXN + s0 - 1])
                    s0--;
                while (e0 + 1 < n && g->cell[1][c * MAXN + e0 + 1])
                    e0++;
                br = r, bc = c, bd = 1, bs = s0, be = e0;
            }
        }
    if (best < 0)
        return 0;
    memset(m, 0, sizeof *m);
    m->score = best;
    m->equity = best;
    m->down = (uint8_t)bd;
    m->row = (uint8_t)(bd ? bs : br);
    m->col = (uint8_t)(bd ? bc : bs);
    m->len = (uint8_t)(be - bs + 1);
    m->tiles[(bd ? br : bc) - bs] = bt;
    return 1;
}

/* eg_single_best for the Gen's rack, as the generator's one move (none when none). */
static void eg_single(Gen *g)
{
    Move best;
    if (!eg_single_best(g, g->rack, &best))
        return;
    Move *m = (Move *)malloc(sizeof(Move));
    if (!m) {
        g->oom = 1;
        return;
    }
    *m = best;
    g->moves = m;
    g->nmoves = 1;
    g->cap = 1;
}

/* Whether m, a play the generator made on another board, is a play of rack (the whole
 * of it) on the board the Gen is prepared for (not empty): the squares of its tiles
 * empty and those it plays through filled, nothing just before or after it, every
 * cross word and the main word in the lexicon, and it touches a tile. Then its score
 * is in *score, and m is exactly the move the generator makes for it. */
static int eg_check_out(const Gen *g, const Move *m, const uint8_t *rack, int *score)
{
    int dir = m->down, line = dir ? m->col : m->row, start = dir ? m->row : m->col, n = g->n;
    int end = start + m->len - 1;
    if (end >= n)
        return 0;
    size_t base = (size_t)line * MAXN;
    const uint8_t *lc = g->cell[dir] + base, *llm = g->lm[dir] + base, *lwm = g->wm[dir] + base;
    const uint64_t *lx = g->xcheck[dir] + base;
    const int32_t *lxs = g->xscore[dir] + base;
    if ((start > 0 && lc[start - 1]) || (end + 1 < n && lc[end + 1]))
        return 0;
    uint8_t used[64] = {0}, word[MAXN];
    int main = 0, mult = 1, cross = 0, placed = 0, touches = 0;
    for (int j = 0; j < m->len; j++) {
        int pos = start + j;
        uint8_t c = lc[pos], t = m->tiles[j];
        if (!t) {
            if (!c)
                return 0;
            word[j] = c & LETTER_MASK;
            main += g->values[c];
            touches = 1;
            continue;
        }
        if (c)
            return 0;
        uint8_t letter = t & LETTER_MASK;
        if (!((lx[pos] >> letter) & 1))
            return 0;
        used[t & BLANK_FLAG ? 0 : letter]++;
        int v = g->values[t] * llm[pos];
        main += v;
        mult *= lwm[pos];
        if (lxs[pos] >= 0) {
            cross += (lxs[pos] + v) * lwm[pos];
            touches = 1;
        }
        placed++;
        word[j] = letter;
    }
    if (!touches || memcmp(used, rack, 64))
        return 0;
    /* the main word: its GADDAG path from the last letter back to the first */
    uint32_t node = g->nk > 1 ? child_of(g, g->kwg[1]) : 0;
    for (int j = m->len - 1; j >= 0; j--) {
        uint32_t i = find_arc(g, node, word[j]);
        if (!i)
            return 0;
        if (!j) {
            if (!(g->kwg[i] & ACC_BIT))
                return 0;
            break;
        }
        node = child_of(g, g->kwg[i]);
    }
    *score = main * mult + cross + g->bonus[placed];
    return 1;
}

/* Whether the letters word[0..len) (codes, blank flags cleared) spell a word: its GADDAG
 * path from the last letter back to the first, which ends on an accepting arc. */
static int eg_is_word(const Gen *g, const uint8_t *word, int len)
{
    uint32_t node = g->nk > 1 ? child_of(g, g->kwg[1]) : 0;
    for (int j = len - 1; j >= 0; j--) {
        uint32_t i = find_arc(g, node, word[j]);
        if (!i)
            return 0;
        if (!j)
            return (g->kwg[i] & ACC_BIT) != 0;
        node = child_of(g, g->kwg[i]);
    }
    return 0;
}

static int eg_is_word_kept(const Gen *g, const uint8_t *word, int len, EgWord *wc, uint64_t mask)
{
    if (!wc || len > 19)
        return eg_is_word(g, word, len);
    uint64_t k1 = 0, k2 = (uint64_t)len << 56;
    for (int j = 0; j < len && j < 10; j++)
        k1 |= (uint64_t)word[j] << (6 * j);
    for (int j = 10; j < len; j++)
        k2 |= (uint64_t)word[j] << (6 * (j - 10));
    EgWord *e = &wc[mix64(k1 ^ mix64(k2)) & mask];
    if (e->k1 == k1 && (e->k2 & ~((uint64_t)1 << 63)) == k2)
        return (int)(e->k2 >> 63);
    int ok = eg_is_word(g, word, len);
    e->k1 = k1;
    e->k2 = k2 | ((uint64_t)ok << 63);
    return ok;
}

/* What run() lists for a rack of two tiles, neither a blank, on a board with tiles (the
 * Gen prepared for it; rack, radix, full_leave and mode set), found square by square
 * rather than by the GADDAG walk from each anchor: a play of one tile on an anchor
 * (across when it makes an across word, else down, as the walk records it), and of two
 * on two empty squares of a line with only tiles between them. A square takes a tile its
 * cross-check allows, the main word is looked up, and the play must touch a tile. */
static void eg_two(Gen *g, EgWord *wc, uint64_t wc_mask)
{
    int n = g->n, codes[2], nc = 0;
    for (int t = 1; t < 64; t++)
        for (int j = 0; j < g->rack[t]; j++)
            codes[nc++] = t;
    uint8_t letters[MAXN];
    /* one tile */
    for (int d = 0; d < 2 && !g->oom; d++)
        for (int line = 0; line < n && !g->oom; line++) {
            size_t base = (size_t)line * MAXN;
            const uint8_t *lc = g->cell[d] + base;
            for (int pos = 0; pos < n; pos++) {
                int ia = d ? pos * MAXN + line : line * MAXN + pos, id = d ? line * MAXN + pos : pos * MAXN + line;
                if (!g->anchor[d][base + pos])
                    continue;
                int s0 = pos, e0 = pos;
                while (s0 > 0 && lc[s0 - 1])
                    s0--;
                while (e0 + 1 < n && lc[e0 + 1])
                    e0++;
                if (s0 == e0) /* no word along the line: the other direction lists it, if any */
                    continue;
                /* across (d 0): listed here; down: only when it makes no across word */
                if (d == 1 && g->xscore[1][base + pos] >= 0)
                    continue;
                uint64_t ok = g->xcheck[d][base + pos] & g->xcheck[1 - d][d ? ia : id];
                int sum = 0;
                for (int k = s0; k <= e0; k++)
                    if (k != pos) {
                        sum += g->values[lc[k]];
                        g->word[k] = 0;
                    }
                int xs = g->xscore[d][base + pos], lm = g->lm[d][base + pos], wm = g->wm[d][base + pos];
                for (int i = 0; i < nc; i++) {
                    int t = codes[i];
                    if (i && t == codes[0])
                        continue;
                    if (!((ok >> t) & 1))
                        continue;
                    int v = g->values[t] * lm;
                    g->dir = d;
                    g->line = line;
                    g->word[pos] = (uint8_t)t;
                    g->placed = 1;
                    g->leave = g->full_leave - g->radix[t];
                    record(g, s0, e0, (sum + v) * wm + (xs >= 0 ? (xs + v) * wm : 0));
                }
            }
        }
    if (nc < 2)
        return;
    /* two tiles, in the line: p, then q the next empty square */
    for (int d = 0; d < 2 && !g->oom; d++)
        for (int line = 0; line < n && !g->oom; line++) {
            size_t base = (size_t)line * MAXN;
            const uint8_t *lc = g->cell[d] + base;
            const uint64_t *lx = g->xcheck[d] + base;
            const int32_t *lxs = g->xscore[d] + base;
            const uint8_t *llm = g->lm[d] + base, *lwm = g->wm[d] + base;
            for (int p = 0; p < n; p++) {
                if (lc[p])
                    continue;
                int q = p + 1;
                while (q < n && lc[q])
                    q++;
                if (q >= n)
                    break;
                uint64_t xp = lx[p], xq = lx[q];
                if (!((xp >> codes[0] & 1) && (xq >> codes[1] & 1)) && !((xp >> codes[1] & 1) && (xq >> codes[0] & 1)))
                    continue; /* the cross-checks take neither order */
                int s0 = p, e0 = q;
                while (s0 > 0 && lc[s0 - 1])
                    s0--;
                while (e0 + 1 < n && lc[e0 + 1])
                    e0++;
                if (s0 == p && e0 == q && q == p + 1 && lxs[p] < 0 && lxs[q] < 0)
                    continue; /* touches no tile */
                int sum = 0;
                for (int k = s0; k <= e0; k++)
                    if (lc[k]) {
                        sum += g->values[lc[k]];
                        letters[k - s0] = lc[k] & LETTER_MASK;
                        g->word[k] = 0;
                    }
                for (int i = 0; i < 2; i++) {
                    int a = codes[i], b = codes[1 - i];
                    if (i && a == b)
                        break;
                    if (!((lx[p] >> a) & 1) || !((lx[q] >> b) & 1))
                        continue;
                    letters[p - s0] = (uint8_t)a;
                    letters[q - s0] = (uint8_t)b;
                    if (!eg_is_word_kept(g, letters, e0 - s0 + 1, wc, wc_mask))
                        continue;
                    int va = g->values[a] * llm[p], vb = g->values[b] * llm[q];
                    int score = (sum + va + vb) * lwm[p] * lwm[q];
                    if (lxs[p] >= 0)
                        score += (lxs[p] + va) * lwm[p];
                    if (lxs[q] >= 0)
                        score += (lxs[q] + vb) * lwm[q];
                    g->dir = d;
                    g->line = line;
                    g->word[p] = (uint8_t)a;
                    g->word[q] = (uint8_t)b;
                    g->placed = 2;
                    g->leave = g->full_leave - g->radix[a] - g->radix[b];
                    record(g, s0, e0, score);
                }
            }
        }
}

enum { EG_ALL = 0, EG_BEST = 1, EG_SINGLE = 2 };

/* Placements of rack on the board the search's Gen is prepared for: every one (EG_ALL)
 * in no order (eg_node orders them by keys, ties by move_cmp: sorting the moves
 * themselves cost more), the highest-scoring (EG_BEST), or, for a rack of one
 * tile, the highest-scoring placement of it (EG_SINGLE). The caller frees *out. -1: no
 * memory. */
static int eg_generate(Eg *eg, const uint8_t *rack, int mode, Move **out, size_t *count)
{
    Gen *g = eg->po->g;
    memcpy(g->rack, rack, 64);
    uint64_t nl = 1;
    g->rack_left = 0;
    for (int c = 0; c < 64; c++) {
        g->radix[c] = (uint32_t)nl;
        g->rack_left += rack[c];
        if (rack[c])
            nl *= (uint64_t)rack[c] + 1;
    }
    g->full_leave = (uint32_t)(nl - 1);
    g->mode = mode == EG_BEST ? MODE_BEST : MODE_ALL;
    g->best_n = mode == EG_BEST ? 1 : 0;
    g->moves = NULL;
    g->nmoves = g->cap = 0;
    g->count = 0;
    g->oom = 0;
    /* no bounds (prune 0): with an endgame's few tiles the plain walk finds the best play sooner */
    g->empty_board = eg->root_empty && !eg->nundo; /* only the first play can be on an empty board */
    g->min_tiles = g->empty_board ? eg->po->first_min : 1;
    g->dirs = 2;
    if (mode == EG_SINGLE && !g->empty_board)
        eg_single(g);
    else if (g->rack_left == 2 && !rack[0] && !g->empty_board && g->nk > 1)
        eg_two(g, eg->wc, eg->wc_mask);
    else
        run(g);
    if (g->oom) {
        free(g->moves);
        g->moves = NULL;
        return -1;
    }
    *out = g->moves;
    *count = g->nmoves;
    g->moves = NULL;
    return 0;
}

static int eg_placed(const Move *m)
{
    int k = 0;
    for (int j = 0; j < m->len; j++)
        k += m->tiles[j] != 0;
    return k;
}

static void eg_place(uint8_t *cells, int n, const Move *m, uint8_t *rack)
{
    for (int j = 0; j < m->len; j++) {
        uint8_t t = m->tiles[j];
        if (!t)
            continue;
        int r = m->down ? m->row + j : m->row, c = m->down ? m->col : m->col + j;
        cells[r * n + c] = t;
        rack[t & BLANK_FLAG ? 0 : t]--;
    }
}

static uint64_t eg_place_key(int n, const Move *m)
{
    uint64_t h = 0;
    for (int j = 0; j < m->len; j++) {
        uint8_t t = m->tiles[j];
        if (!t)
            continue;
        int r = m->down ? m->row + j : m->row, c = m->down ? m->col : m->col + j;
        h += eg_square_key(r * n + c, t);
    }
    return h;
}

static int eg_scoreless_end(const Eg *eg, const uint8_t *own, const uint8_t *opp)
{
    return eg->penalties ? eg_value(eg, opp) - eg_value(eg, own) : 0;
}

static int eg_check_time(Eg *eg)
{
    if (eg->deadline > 0 && !(eg->nodes & 255) && eg_now() > eg->deadline)
        eg->timed_out = 1;
    if (eg->node_cap && eg->nodes > eg->node_cap)
        eg->timed_out = 1;
    return eg->timed_out;
}

/* The greedy play-out from here (cells, whose key is bkey, the board the Gen is
 * prepared for): the spread the side on turn gains. -1 in *err: no memory. */
static int eg_playout(Eg *eg, const uint8_t *cells0, uint64_t bkey, const uint8_t *me0, const uint8_t *opp0,
                      int scoreless, int *err)
{
    uint64_t key = mix64(bkey ^ eg_rack_key(me0, 0x1234) ^ (uint64_t)scoreless * 0x51ED27) | 1;
    EgPlay *slot = &eg->pc[key & eg->pc_mask];
    if (slot->key == key)
        return slot->value;
    int n = eg->po->n;
    uint8_t cells[MAXN * MAXN], me[64], opp[64];
    memcpy(cells, cells0, (size_t)n * n);
    memcpy(me, me0, 64);
    memcpy(opp, opp0, 64);
    int sign = 1, total = 0, result;
    size_t mark = eg->nundo;
    for (int steps = 0;; steps++) {
        Move *mv = NULL;
        size_t cnt = 0;
        if (eg_generate(eg, me, EG_BEST, &mv, &cnt) < 0) {
            eg_unmake(eg, mark);
            *err = 1;
            return 0;
        }
        if (cnt) {
            Move m = mv[0];
            free(mv);
            eg_place(cells, n, &m, me);
            total += sign * m.score;
            if (!eg_tiles(me)) {
                result = total + sign * 2 * eg_value(eg, opp);
                break;
            }
            eg_make(eg, cells, &m);
            scoreless = m.score > 0 ? 0 : scoreless + 1;
        } else {
            free(mv);
            scoreless++;
        }
        if (scoreless >= eg->limit || steps > 1000) {
            result = total + sign * eg_scoreless_end(eg, me, opp);
            break;
        }
        uint8_t t[64];
        memcpy(t, me, 64);
        memcpy(me, opp, 64);
        memcpy(opp, t, 64);
        sign = -sign;
    }
    eg_unmake(eg, mark);
    slot->key = key;
    slot->value = result;
    return result;
}

/* The search's Gen: the lexicon and the board's constants, prepared for the board
 * searched from (eg_make and eg_unmake keep it for the board of the node searched). */
static void eg_init_gen(Eg *eg)
{
    PlayOut *po = eg->po;
    Gen *g = po->g;
    memset(g, 0, sizeof(Gen));
    g->kwg = po->kwg;
    g->nk = po->nk;
    g->n = po->n;
    memcpy(g->values, po->values, 128);
    g->depth = po->depth;
    if (po->ana) {
        g->alphabet = po->alphabet;
        g->ana = po->ana;
        g->ana_mask = po->ana_mask;
    }
    g->bingo_tiles = po->bingo_tiles;
    memcpy(g->bonus, po->bonus, sizeof g->bonus);
    g->min_tiles = po->first_min;
    g->dirs = 2;
    prepare(g, po->cells, po->lmult, po->wmult, po->start_r, po->start_c);
    eg->root_empty = g->empty_board;
    eg->nundo = 0;
}

static int eg_node(Eg *eg, int ply, const uint8_t *cells, uint64_t bkey, const uint8_t *me, const uint8_t *opp,
                   int scoreless, int depth, int alpha, int beta, EgEntry *e, uint64_t key, int have_tt,
                   uint64_t tt_move, int *complete, int *err);

/* Both sides hold one tile (the Gen prepared for a board with tiles): every play goes
 * out, so passes are the only moves that do not end the game, and the value follows
 * from each side's best play of its tile on this board and the run of scoreless turns,
 * with no search. Backwards from the last turn of the run: the side on turn at run k
 * goes out, or passes (ending the game when the run reaches the limit, else handing the
 * turn at run k + 1), whichever is worth more, going out on a tie (the search's order). */
static int eg_last_tiles(Eg *eg, int ply, const uint8_t *me, const uint8_t *opp, int scoreless, uint64_t *mhash)
{
    Gen *g = eg->po->g;
    Move mv[2];
    int has[2], out[2], endv[2];
    int va = eg_value(eg, me), vb = eg_value(eg, opp);
    has[0] = eg_single_best(g, me, &mv[0]);
    has[1] = eg_single_best(g, opp, &mv[1]);
    out[0] = has[0] ? mv[0].score + 2 * vb : -EG_INF;
    out[1] = has[1] ? mv[1].score + 2 * va : -EG_INF;
    endv[0] = eg->penalties ? vb - va : 0; /* for the side whose pass ends the game */
    endv[1] = -endv[0];
    int top = scoreless > eg->limit - 1 ? scoreless : eg->limit - 1;
    int w[EG_MAXPLY + 2];
    uint8_t goes_out[EG_MAXPLY + 2];
    if (top - scoreless > EG_MAXPLY)
        top = scoreless + EG_MAXPLY;
    for (int k = top; k >= scoreless; k--) {
        int side = (k - scoreless) & 1;
        int pass = k + 1 >= eg->limit || k == top ? endv[side] : -w[k + 1 - scoreless];
        goes_out[k - scoreless] = has[side] && out[side] >= pass;
        w[k - scoreless] = goes_out[k - scoreless] ? out[side] : pass;
    }
    int len = 0;
    for (int k = scoreless; len < EG_MAXPLY - ply; k++) {
        int side = (k - scoreless) & 1;
        if (goes_out[k - scoreless]) {
            eg->pv[ply][len] = mv[side];
            eg->pvpass[ply][len++] = 0;
            break;
        }
        int ends = k + 1 >= eg->limit || k == top;
        eg->pvpass[ply][len++] = (uint8_t)(ends ? 2 : 1);
        if (ends)
            break;
    }
    eg->pvlen[ply] = len;
    if (ply + len > eg->seldepth)
        eg->seldepth = ply + len;
    *mhash = goes_out[0] ? eg_move_hash(&mv[0]) : 0;
    return w[0];
}

/* The tiles worth no points (blanks) on the rack. */
static int eg_zero_tiles(const Eg *eg, const uint8_t *rack)
{
    int k = 0;
    for (int c = 0; c < 64; c++)
        if (!eg->po->values[c])
            k += rack[c];
    return k;
}

/* Store entry x (its search took nodes nodes) in bucket: in the first entry when that
 * holds the same position or a search no dearer, the first's entry moving to the second;
 * else in the second. With tens of millions of nodes the table is full: always replacing
 * would let the many cheap nodes near the ends of lines push out the few dear ones near
 * the root. */
static void eg_store(Eg *eg, EgEntry *bucket, EgEntry *x, long long nodes)
{
    (void)eg;
    int w = 0;
    while (w < 63 && nodes > 1) {
        nodes >>= 1;
        w++;
    }
    x->work = (uint8_t)w;
    if (bucket[0].key == x->key || bucket[0].work <= w) {
        if (bucket[0].key != x->key && bucket[0].key)
            bucket[1] = bucket[0];
        bucket[0] = *x;
    } else {
        bucket[1] = *x;
    }
}

/* negamax: the value for the side on turn; *complete: exact whatever the depth. cells
 * (key bkey) is the board; the Gen is prepared for it, or, when pend is given, for it
 * without the tiles of pend (made here only once the table has not answered). */
static int eg_search(Eg *eg, int ply, const uint8_t *cells, uint64_t bkey, const Move *pend, const uint8_t *me,
                     const uint8_t *opp, int scoreless, int depth, int alpha, int beta, int *complete, int *err)
{
    eg->nodes++;
    eg->pvlen[ply] = 0;
    if (eg_check_time(eg) || *err) {
        *complete = 0;
        return 0;
    }
    /* When neither side can make a scoreless play, a run of scoreless turns short of
     * the last two does not change the value (a pass answered by a pass comes back to
     * the same choices, and max(a, min(c, v)) taken twice is taken once), so below
     * the root it is searched as limit - 2: pass chains end sooner, and the positions
     * they reach meet in the table. A scoreless play puts down only tiles worth no
     * points and makes words of such tiles alone, one of them on the board (a play
     * touches the board): so none is possible when the racks hold no such tile, or the
     * board none (none of the racks' own played yet). */
    if (ply > 0 && scoreless < eg->limit - 2 && !eg->root_empty) {
        int z = eg_zero_tiles(eg, me) + eg_zero_tiles(eg, opp);
        if (!z || (!eg->board_zero && z == eg->zero_tiles))
            scoreless = eg->limit - 2;
    }
    uint64_t key = mix64(bkey ^ eg_rack_key(me, 0x9E37) ^ eg_rack_key(opp, 0x7F4A) ^ (uint64_t)scoreless * 0xC2B2AE35);
    /* the table's buckets hold two entries: the first keeps the dearer search, the
     * second the latest (see eg_store) */
    EgEntry *bucket = &eg->tt[key & eg->tt_mask & ~(uint64_t)1];
    EgEntry *e = bucket[0].key == key ? &bucket[0] : &bucket[1];
    uint64_t tt_move = 0;
    int have_tt = 0;
    if (e->key == key) {
        /* an exact value answers only on a null window: on the principal variation the
         * node is searched again (its line is wanted; its children answer from here) */
        if (ply > 0 && e->depth >= depth) {
            int c = e->depth == EG_COMPLETE;
            if ((e->flag == EG_EXACT && (beta - alpha <= 1 || e->value <= alpha || e->value >= beta)) ||
                (e->flag == EG_LOWER && e->value >= beta) || (e->flag == EG_UPPER && e->value <= alpha)) {
                *complete = c;
                return e->value;
            }
        }
        if (e->has_move) {
            tt_move = e->mhash;
            have_tt = 1;
        }
    }
    size_t mark = eg->nundo;
    if (pend)
        eg_make(eg, cells, pend);
    int v;
    long long nodes0 = eg->nodes;
    EgEntry ne;
    ne.key = 0;
    e = &ne; /* what the search finds, stored below */
    if (!(eg->root_empty && !eg->nundo) && eg_tiles(me) == 1 && eg_tiles(opp) == 1) {
        uint64_t mh;
        v = eg_last_tiles(eg, ply, me, opp, scoreless, &mh);
        *complete = 1;
        e->key = key;
        e->value = v;
        e->depth = EG_COMPLETE;
        e->flag = EG_EXACT;
        e->has_move = 1;
        e->mhash = mh;
    } else if (depth <= 0 || ply >= EG_MAXPLY) {
        *complete = 0;
        v = eg_playout(eg, cells, bkey, me, opp, scoreless, err);
    } else {
        v = eg_node(eg, ply, cells, bkey, me, opp, scoreless, depth, alpha, beta, e, key, have_tt, tt_move, complete,
                    err);
    }
    eg_unmake(eg, mark);
    if (ne.key == key)
        eg_store(eg, bucket, &ne, eg->nodes - nodes0);
    return v;
}

#define EG_TILE_WEIGHT 6 /* points a tile played adds to a play's place in the search order */

typedef struct {
    int32_t key, idx;
    const Move *m; /* NULL: ties go by idx */
    int32_t key2;  /* eg_order2_cmp: the order's key (score and tiles) */
    uint8_t tt, pass;
} EgOrder;

/* key descending, then move_cmp (the generator's order: by score) or index ascending */
static int eg_order_cmp(const void *x, const void *y)
{
    const EgOrder *a = (const EgOrder *)x, *b = (const EgOrder *)y;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    if (a->m && b->m)
        return move_cmp(a->m, b->m);
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* An anchor square and the most the opponent's one tile scores there. */
typedef struct {
    int32_t score;
    int32_t sq; /* r * MAXN + c */
} EgSq;

static int eg_sq_cmp(const void *x, const void *y)
{
    const EgSq *a = (const EgSq *)x, *b = (const EgSq *)y;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return (a->sq > b->sq) - (a->sq < b->sq);
}

/* The squares where rack's one tile has a placement on the board the Gen is prepared
 * for (not empty), with the most it scores there (eg_single_best's scores), highest
 * first, in out (room for n * n): how many. */
static int eg_single_squares(const Gen *g, const uint8_t *rack, EgSq *out)
{
    int n = g->n, blank, code = eg_single_code(rack, &blank), k = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            uint8_t t;
            int score = eg_single_at(g, blank, code, r, c, &t);
            if (score < 0)
                continue;
            out[k].score = score;
            out[k++].sq = r * MAXN + c;
        }
    qsort(out, (size_t)k, sizeof(EgSq), eg_sq_cmp);
    return k;
}

/* The squares whose state in the Gen a play changes (what gen_make saves): those of its
 * tiles and the empty squares met first from each of them in the four directions, on
 * after (the board with the play). In sq (room for 5 * MAXN): how many. */
static int eg_changed_squares(int n, const uint8_t *after, const Move *m, int32_t *sq)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int k = 0;
    for (int j = 0; j < m->len; j++) {
        if (!m->tiles[j])
            continue;
        int r0 = m->down ? m->row + j : m->row, c0 = m->down ? m->col : m->col + j;
        sq[k++] = r0 * MAXN + c0;
        for (int d = 0; d < 4; d++) {
            int r = r0 + dr[d], c = c0 + dc[d];
            while (r >= 0 && c >= 0 && r < n && c < n && after[r * n + c]) {
                r += dr[d];
                c += dc[d];
            }
            if (r >= 0 && c >= 0 && r < n && c < n)
                sq[k++] = r * MAXN + c;
        }
    }
    return k;
}

/* The most the opponent's tile scores on a square of list (eg_single_squares) that the
 * changed squares sq do not hold: what it scores on the board after the play at least
 * (the other squares keep their state). -1: every square of list changed. */
static int eg_unchanged_best(const EgSq *list, int nl, const int32_t *sq, int ns)
{
    for (int i = 0; i < nl; i++) {
        int hit = 0;
        for (int j = 0; j < ns && !hit; j++)
            hit = sq[j] == list[i].sq;
        if (!hit)
            return list[i].score;
    }
    return -1;
}

/* At most what one tile of value v scores on the empty square sq (r * MAXN + c) of
 * after, whatever letter it is and whether its words are in the lexicon: the points of
 * the tiles next to it in each direction, its own, the square's premiums. */
static int eg_square_most(const Gen *g, const uint8_t *after, int sq, int v)
{
    int n = g->n, r0 = sq / MAXN, c0 = sq % MAXN, total = 0, words = 0;
    for (int d = 0; d < 2; d++) {
        int dr = d ? 1 : 0, dc = d ? 0 : 1, sum = 0, any = 0;
        for (int s = -1; s <= 1; s += 2) {
            int r = r0 + s * dr, c = c0 + s * dc;
            while (r >= 0 && c >= 0 && r < n && c < n && after[r * n + c]) {
                sum += g->values[after[r * n + c]];
                any = 1;
                r += s * dr;
                c += s * dc;
            }
        }
        if (any) {
            total += (sum + v * g->lm[0][sq]) * g->wm[0][sq];
            words++;
        }
    }
    return words ? total + g->bonus[1] : -1;
}

/* The most the one tile of rack1 scores on after, the board after m (the Gen still
 * prepared for the board before it; list and nl: eg_single_squares there). On a square
 * m does not change, what list says; on one it changes (met first from one of m's
 * tiles in a direction: along the play's line its ends, across it the squares beside
 * its tiles, so each such square changes in one direction only), what the tile scores
 * with the cross word along that direction looked up again (the other direction's word
 * there is unchanged). -1: the tile has no place. */
static int eg_one_after(const Gen *g, const uint8_t *after, const Move *m, const uint8_t *rack1, const EgSq *list,
                        int nl)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int n = g->n, code = 0, blank = rack1[0] > 0;
    for (int t = 1; t < 64 && !blank; t++)
        if (rack1[t])
            code = t;
    int32_t sq[5 * MAXN];
    uint8_t vert[5 * MAXN]; /* the changed direction: 1 down, 0 across; 2: a tile of m */
    int ns = 0;
    for (int j = 0; j < m->len; j++) {
        if (!m->tiles[j])
            continue;
        int r0 = m->down ? m->row + j : m->row, c0 = m->down ? m->col : m->col + j;
        vert[ns] = 2;
        sq[ns++] = r0 * MAXN + c0;
        for (int d = 0; d < 4; d++) {
            int r = r0 + dr[d], c = c0 + dc[d];
            while (r >= 0 && c >= 0 && r < n && c < n && after[r * n + c]) {
                r += dr[d];
                c += dc[d];
            }
            if (r < 0 || c < 0 || r >= n || c >= n)
                continue;
            int x = r * MAXN + c, dup = 0;
            for (int k = 0; k < ns && !dup; k++)
                dup = sq[k] == x;
            if (dup)
                continue;
            vert[ns] = d < 2;
            sq[ns++] = x;
        }
    }
    int best = eg_unchanged_best(list, nl, sq, ns);
    for (int k = 0; k < ns; k++) {
        if (vert[k] == 2)
            continue;
        int r = sq[k] / MAXN, c = sq[k] % MAXN;
        int ia = r * MAXN + c, id = c * MAXN + r;
        uint64_t x0, x1;
        int32_t xd, xa;
        if (vert[k]) { /* the word down through the square changed */
            x0 = cross_set(g, after, r, c, 1, 0, &xd);
            x1 = g->xcheck[1][id];
            xa = g->xscore[1][id];
        } else {
            x1 = cross_set(g, after, r, c, 0, 1, &xa);
            x0 = g->xcheck[0][ia];
            xd = g->xscore[0][ia];
        }
        uint64_t ok = x0 & x1;
        uint8_t t;
        if (blank) {
            if (!(ok & ALL_LETTERS))
                continue;
            t = (uint8_t)(__builtin_ctzll(ok & ALL_LETTERS) | BLANK_FLAG);
        } else {
            if (!((ok >> code) & 1))
                continue;
            t = (uint8_t)code;
        }
        if (xd < 0 && xa < 0)
            continue;
        int v = g->values[t] * g->lm[0][ia], wm = g->wm[0][ia];
        int score = (xd >= 0 ? (xd + v) * wm : 0) + (xa >= 0 ? (xa + v) * wm : 0) + g->bonus[1];
        if (score > best)
            best = score;
    }
    return best;
}

/* The squares of eg_single_squares for one tile of code c, made when first asked for
 * (ul, nul, ulc: up to 8 codes; -1: no room or memory). */
static int eg_u_list(const Gen *g, int c, EgSq **ul, int *nul, int *ulc, int *nlists)
{
    for (int k = 0; k < *nlists; k++)
        if (ulc[k] == c)
            return k;
    if (*nlists >= 8)
        return -1;
    int k = *nlists;
    ul[k] = (EgSq *)malloc(sizeof(EgSq) * (size_t)(g->n * g->n));
    if (!ul[k])
        return -1;
    uint8_t one[64] = {0};
    one[c] = 1;
    nul[k] = eg_single_squares(g, one, ul[k]);
    ulc[k] = c;
    (*nlists)++;
    return k;
}

/* key descending, then as the order without it: the table's move first, the pass last,
 * key2 descending, move_cmp */
static int eg_order2_cmp(const void *x, const void *y)
{
    const EgOrder *a = (const EgOrder *)x, *b = (const EgOrder *)y;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    if (a->tt != b->tt)
        return a->tt ? -1 : 1;
    if (a->pass != b->pass)
        return a->pass ? 1 : -1;
    if (a->key2 != b->key2)
        return a->key2 > b->key2 ? -1 : 1;
    if (a->m && b->m)
        return move_cmp(a->m, b->m);
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* eg_search past the table, with the Gen prepared for cells. */
static int eg_node(Eg *eg, int ply, const uint8_t *cells, uint64_t bkey, const uint8_t *me, const uint8_t *opp,
                   int scoreless, int depth, int alpha, int beta, EgEntry *e, uint64_t key, int have_tt,
                   uint64_t tt_move, int *complete, int *err)
{
    if (ply + 1 > eg->seldepth)
        eg->seldepth = ply + 1;
    Move *mv = NULL;
    size_t cnt = 0;
    int ntiles = eg_tiles(me);
    /* The best play going out first: it is worth more than every other play going out
     * (those are not searched), and often enough to cut off. With one tile every play
     * goes out: the best is found by a look at each anchor, and the pass is the only
     * other move, so no list is made. */
    Move out;
    int have_out = 0, out_value = -EG_INF;
    Gen *g = eg->po->g;
    if (ntiles > 1 && eg->has_killer[ply] && !g->empty_board && eg_placed(&eg->killer[ply]) == ntiles) {
        /* the play going out that cut off last at this ply (the same side, most often
         * the same rack): when it is legal here and cuts off again, no list is made */
        int sc;
        if (eg_check_out(g, &eg->killer[ply], me, &sc) && sc + 2 * eg_value(eg, opp) >= beta) {
            out = eg->killer[ply];
            out.score = sc;
            out.equity = sc;
            out_value = sc + 2 * eg_value(eg, opp);
            goto cut_by_out;
        }
    }
    if (eg_generate(eg, me, ntiles == 1 ? EG_SINGLE : EG_ALL, &mv, &cnt) < 0) {
        *err = 1;
        *complete = 0;
        return 0;
    }
    for (size_t i = 0; i < cnt; i++)
        if (eg_placed(&mv[i]) == ntiles &&
            (!have_out || mv[i].score > out.score || (mv[i].score == out.score && move_cmp(&mv[i], &out) < 0))) {
            out = mv[i];
            have_out = 1;
        }
    if (have_out)
        out_value = out.score + 2 * eg_value(eg, opp);
    /* With one tile, going out is worth at least the pass: against the opponent's
     * passing back until the game ends (the board then never changes) the pass is worth
     * at most going out on this board, or the scoreless end, which is less (the out
     * gains twice the opponent's rack, the end at most once it, less the tile). So the
     * best play going out is the exact value, and the pass is not searched. */
    if (have_out && (out_value >= beta || ntiles == 1)) {
        free(mv);
        if (ntiles > 1) {
            eg->killer[ply] = out;
            eg->has_killer[ply] = 1;
        }
    cut_by_out:
        eg->pv[ply][0] = out;
        eg->pvpass[ply][0] = 0;
        eg->pvlen[ply] = 1;
        *complete = 1;
        e->key = key;
        e->value = out_value;
        e->depth = EG_COMPLETE;
        e->flag = ntiles == 1 ? EG_EXACT : EG_LOWER;
        e->has_move = 1;
        e->mhash = eg_move_hash(&out);
        return out_value;
    }
    /* No play on this board: against the opponent's passing back the board never
     * changes, and the game ends in the scoreless end, so that is the most this side
     * can make (whatever the opponent does instead is its choice). */
    if (!cnt) {
        int endv = eg_scoreless_end(eg, me, opp);
        if (endv <= alpha) {
            free(mv);
            eg->pvpass[ply][0] = 1;
            eg->pvlen[ply] = 1;
            *complete = 1;
            e->key = key;
            e->value = endv;
            e->depth = EG_COMPLETE;
            e->flag = EG_UPPER;
            e->has_move = 1;
            e->mhash = 0;
            return endv;
        }
    }
    /* order: the best play going out, the table's move, the others by score, the pass
     * (every other play going out is worth less than the best one: not searched) */
    size_t total = cnt + 1;
    int32_t *order = (int32_t *)malloc(total * sizeof(int32_t)); /* index into mv; -1: the pass */
    if (!order) {
        free(mv);
        *err = 1;
        *complete = 0;
        return 0;
    }
    size_t k = 0;
    for (size_t i = 0; i < cnt; i++)
        if (!have_out || eg_placed(&mv[i]) != ntiles)
            order[k++] = (int32_t)i;
    int one_opp = eg_tiles(opp) == 1 && !g->empty_board; /* sorted below, by the bounds first */
    if (!one_opp) {
        /* the others by score plus EG_TILE_WEIGHT points a tile played (ties: by score):
         * a play that puts down more tiles brings its side nearer going out.
         * Measured on the 30 first bag-empty positions of the shared games solved in
         * 0.1-30 s: 31% fewer nodes than by score alone (3 points a tile: 19% fewer). */
        EgOrder *ord = (EgOrder *)malloc((k ? k : 1) * sizeof(EgOrder));
        if (ord) {
            for (size_t i = 0; i < k; i++) {
                ord[i].key = mv[order[i]].score + EG_TILE_WEIGHT * eg_placed(&mv[order[i]]);
                ord[i].idx = order[i];
                ord[i].m = &mv[order[i]];
            }
            qsort(ord, k, sizeof(EgOrder), eg_order_cmp);
            for (size_t i = 0; i < k; i++)
                order[i] = ord[i].idx;
            free(ord);
        }
    }
    order[k++] = -1;
    total = k;
    if (have_tt) {
        for (size_t i = 0; i < total; i++) {
            uint64_t h = order[i] < 0 ? 0 : eg_move_hash(&mv[order[i]]);
            if (h == tt_move) {
                int32_t x = order[i];
                memmove(order + 1, order, i * sizeof(int32_t));
                order[0] = x;
                break;
            }
        }
    }
    int n = eg->po->n;
    /* The opponent holding one tile: after a play (or the pass) that does not end the
     * game, it can go out on the next turn, which makes its value at least its best
     * placement there plus twice what this side has left; a square the play does not
     * change keeps what the tile scores on it. So the play's value is at most its score,
     * less twice this side's tiles left, less the opponent's best on an unchanged
     * square: the moves go by that bound, best first, and once it is no more than alpha,
     * no move left can raise it (the bound stands for their value: the answer is then an
     * upper bound, exact as such). */
    int32_t *ub = NULL;
    EgSq *zl = NULL, *ul[8];
    int nz = 0, nu[8], ucode[8], nlists = 0, vz = eg_value(eg, opp);
    if (one_opp) {
        zl = (EgSq *)malloc(sizeof(EgSq) * (size_t)(n * n));
        ub = (int32_t *)malloc(sizeof(int32_t) * total);
        EgOrder *ord = (EgOrder *)malloc(sizeof(EgOrder) * total);
        /* A play leaving this side one tile, u: once the opponent has answered (gone
         * out, or passed and the board unchanged), this side makes at most u's best on
         * the board after the play (or nothing) plus twice the opponent's tile. u scores
         * on an unchanged square what it scores there now, and on a changed one at most
         * eg_square_most: a second bound, taken when lower. */
        nz = zl ? eg_single_squares(g, opp, zl) : 0;
        if (zl && ub && ord) {
            uint8_t board2[MAXN * MAXN], left[64];
            memcpy(board2, cells, (size_t)n * n);
            int32_t sq[5 * MAXN];
            for (size_t i = 0; i < total; i++) {
                int idx = order[i], b = EG_INF;
                if (nz && idx < 0) {
                    if (scoreless + 1 < eg->limit) /* the pass: the opponent's best on this board */
                        b = -(zl[0].score + 2 * eg_value(eg, me));
                } else if (idx >= 0) {
                    const Move *m = &mv[idx];
                    memcpy(left, me, 64);
                    eg_place(board2, n, m, left);
                    int s2 = m->score > 0 ? 0 : scoreless + 1;
                    if (eg_tiles(left) && s2 < eg->limit) {
                        int ns = eg_changed_squares(n, board2, m, sq);
                        int zb = nz ? eg_unchanged_best(zl, nz, sq, ns) : -1;
                        if (zb >= 0)
                            b = m->score - zb - 2 * eg_value(eg, left);
                        if (eg_tiles(left) == 1) {
                            int u = -1;
                            for (int c = 0; c < 64 && u < 0; c++)
                                if (left[c])
                                    u = c;
                            int k2 = eg_u_list(g, u, ul, nu, ucode, &nlists);
                            if (k2 >= 0) {
                                int most = eg_unchanged_best(ul[k2], nu[k2], sq, ns);
                                for (int j = 0; j < ns; j++)
                                    if (!board2[(sq[j] / MAXN) * n + sq[j] % MAXN]) {
                                        int x = eg_square_most(g, board2, sq[j], g->values[u]);
                                        if (x > most)
                                            most = x;
                                    }
                                int b2 = m->score + 2 * vz + (most > 0 ? most : 0);
                                if (b2 < b)
                                    b = b2;
                            }
                        }
                    }
                    for (int j = 0; j < m->len; j++) /* board2 back to cells */
                        if (m->tiles[j])
                            board2[m->down ? (m->row + j) * n + m->col : m->row * n + m->col + j] = 0;
                }
                ord[i].key = b;
                ord[i].idx = (int32_t)i;
                ord[i].m = idx >= 0 ? &mv[idx] : NULL;
                ord[i].key2 = idx >= 0 ? mv[idx].score + EG_TILE_WEIGHT * eg_placed(&mv[idx]) : 0;
                ord[i].pass = idx < 0;
                ord[i].tt = have_tt && i == 0 && (idx < 0 ? 0 : eg_move_hash(&mv[idx])) == tt_move;
            }
            qsort(ord, total, sizeof(EgOrder), eg_order2_cmp); /* ties: as the order without the bounds */
            for (size_t i = 0; i < total; i++) {
                ub[i] = order[ord[i].idx]; /* ub holds the new order for a moment */
                ord[i].idx = ord[i].key;
            }
            memcpy(order, ub, total * sizeof(int32_t));
            for (size_t i = 0; i < total; i++)
                ub[i] = ord[i].idx;
        } else {
            free(ub);
            ub = NULL;
        }
        free(ord);
    }
    int alpha0 = alpha, best = -EG_INF, all_complete = 1, first = 1;
    uint64_t best_hash = 0;
    if (have_out) {
        best = out_value;
        best_hash = eg_move_hash(&out);
        eg->pv[ply][0] = out;
        eg->pvpass[ply][0] = 0;
        eg->pvlen[ply] = 1;
        if (best > alpha)
            alpha = best;
        first = 0;
    }
    uint8_t after[MAXN * MAXN], rest[64];
    for (size_t i = 0; i < total; i++) {
        int idx = order[i];
        int sc, s2, end_set = 0, endv = 0, v, cc = 1;
        if (ub && ub[i] <= alpha) {
            if (ub[i] > best)
                best = ub[i];
            break;
        }
        const Move *m = idx >= 0 ? &mv[idx] : NULL;
        memcpy(rest, me, 64);
        if (!m) {
            sc = 0;
            s2 = scoreless + 1;
            if (s2 >= eg->limit) {
                end_set = 1;
                endv = eg_scoreless_end(eg, me, opp);
            }
        } else {
            sc = m->score;
            memcpy(after, cells, (size_t)n * n);
            eg_place(after, n, m, rest);
            s2 = sc > 0 ? 0 : scoreless + 1;
            if (!eg_tiles(rest)) {
                end_set = 1;
                endv = sc + 2 * eg_value(eg, opp);
            } else if (s2 >= eg->limit) {
                end_set = 1;
                endv = sc + eg_scoreless_end(eg, rest, opp);
            }
        }
        if (!end_set && ub && m && eg_tiles(rest) == 1) {
            /* a play leaving one tile u whose bound was above alpha: the bounds again,
             * with the squares it changes looked at on the board after it (for u and
             * for the opponent's tile) */
            int u = -1;
            for (int c = 0; c < 64 && u < 0; c++)
                if (rest[c])
                    u = c;
            int k2 = eg_u_list(g, u, ul, nu, ucode, &nlists);
            if (k2 >= 0) {
                int su = eg_one_after(g, after, m, rest, ul[k2], nu[k2]);
                int sz = eg_one_after(g, after, m, opp, zl, nz);
                int r = sc + 2 * vz + (su > 0 ? su : 0);
                if (sz >= 0 && sc - sz - 2 * eg_value(eg, rest) < r)
                    r = sc - sz - 2 * eg_value(eg, rest);
                if (r <= alpha) {
                    if (r > best)
                        best = r;
                    continue;
                }
            }
        }
        if (end_set) {
            v = endv;
            eg->pvlen[ply + 1] = 0;
        } else {
            const uint8_t *bc = m ? after : cells;
            uint64_t bk = m ? bkey + eg_place_key(n, m) : bkey;
            if (first || beta - alpha <= 1) {
                v = sc - eg_search(eg, ply + 1, bc, bk, m, opp, rest, s2, depth - 1, sc - beta, sc - alpha, &cc, err);
            } else {
                v = sc - eg_search(eg, ply + 1, bc, bk, m, opp, rest, s2, depth - 1, sc - alpha - 1, sc - alpha, &cc,
                                   err);
                if (alpha < v && v < beta && !eg->timed_out && !*err)
                    v = sc - eg_search(eg, ply + 1, bc, bk, m, opp, rest, s2, depth - 1, sc - beta, sc - alpha, &cc,
                                       err);
            }
        }
        if (eg->timed_out || *err)
            break;
        first = 0;
        all_complete = all_complete && cc;
        if (v > best) {
            best = v;
            best_hash = m ? eg_move_hash(m) : 0;
            eg->pvpass[ply][0] = m ? 0 : end_set ? 2 : 1; /* 2: the pass ending the game */
            if (m)
                eg->pv[ply][0] = *m;
            int cl = eg->pvlen[ply + 1];
            if (end_set)
                cl = 0;
            for (int j = 0; j < cl && j + 1 < EG_MAXPLY; j++) {
                eg->pv[ply][j + 1] = eg->pv[ply + 1][j];
                eg->pvpass[ply][j + 1] = eg->pvpass[ply + 1][j];
            }
            eg->pvlen[ply] = 1 + (cl < EG_MAXPLY - 1 ? cl : EG_MAXPLY - 1);
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) {
                    break;
                }
            }
        }
    }
    free(order);
    free(ub);
    for (int k = 0; k < nlists; k++)
        free(ul[k]);
    free(zl);
    free(mv);
    if (eg->timed_out || *err) {
        *complete = 0;
        return 0;
    }
    *complete = all_complete;
    e->key = key;
    e->value = best;
    e->depth = (int16_t)(all_complete ? EG_COMPLETE : depth);
    e->flag = best <= alpha0 ? EG_UPPER : best >= beta ? EG_LOWER : EG_EXACT;
    e->has_move = 1;
    e->mhash = best_hash;
    return best;
}

/* -- endgame: the lexicon cut down to the words the endgame can make ------------------
 *
 * Every word an endgame makes lies along one line of the board (a row or a column) and
 * is made of letters that line holds now and tiles of the two racks (a blank for any
 * letter): the tiles put down in that line later come from the racks too. So a word
 * whose letters no line can supply so (more letters missing from the line and the
 * racks' letters together than the racks hold blanks) is never made, nor asked for as a
 * cross word of a letter a rack can put down. The search's generator walks a GADDAG of
 * the others, made here from the lexicon's by one walk that keeps an arc only while the
 * letters read so far fit some line and it leads to a word: the same plays, the same
 * cross-checks, with sibling lists a fraction as long. The cut graph is a tree (no
 * sharing of suffixes), built in one array laid out as a KWG; arc 0 and 1 are the roots
 * (the DAWG root points nowhere: the search never reads it). */
typedef struct {
    const uint32_t *kwg;
    uint32_t nk;
    uint32_t *out;
    size_t nout, cap;
    int nlines, blanks;
    uint8_t avail[2 * MAXN][64]; /* by line: its letters plus the racks' letters */
    uint8_t used[64];            /* letters read on the path so far */
    int miss[2 * MAXN];          /* by line: letters of the path it cannot supply */
    int oom;
} EgCut;

/* Add (d 1) or take back (d -1) letter t on the path; whether some line still fits. */
static int eg_cut_letter(EgCut *x, int t, int d)
{
    int fits = 0;
    if (d > 0)
        x->used[t]++;
    for (int l = 0; l < x->nlines; l++) {
        if (x->used[t] > x->avail[l][t])
            x->miss[l] += d;
        fits |= x->miss[l] <= x->blanks;
    }
    if (d < 0)
        x->used[t]--;
    return fits;
}

/* The cut copy of the node at index node of the full graph: the index of its first arc
 * in x->out, or 0 when no arc of it is kept. */
static uint32_t eg_cut_node(EgCut *x, uint32_t node, int depth)
{
    uint32_t keep[64];
    int nkeep = 0;
    if (depth > MAXN + 1)
        return 0;
    for (uint32_t i = node; i < x->nk && !x->oom; i++) {
        uint32_t a = x->kwg[i];
        uint32_t t = a >> 24;
        int ok = 1;
        if (t)
            ok = eg_cut_letter(x, (int)t, 1);
        if (ok) {
            uint32_t c = a & CHILD_MASK, nc = 0;
            if (c && c < x->nk)
                nc = eg_cut_node(x, c, depth + 1);
            if ((nc || (a & ACC_BIT)) && nkeep < 64)
                keep[nkeep++] = (t << 24) | (a & ACC_BIT) | nc;
        }
        if (t)
            eg_cut_letter(x, (int)t, -1);
        if (a & END_BIT)
            break;
    }
    if (!nkeep || x->oom)
        return 0;
    if (x->nout + (size_t)nkeep > CHILD_MASK) {
        x->oom = 1;
        return 0;
    }
    if (x->nout + (size_t)nkeep > x->cap) {
        size_t cap = x->cap * 2 + (size_t)nkeep;
        uint32_t *o = (uint32_t *)realloc(x->out, cap * sizeof(uint32_t));
        if (!o) {
            x->oom = 1;
            return 0;
        }
        x->out = o;
        x->cap = cap;
    }
    uint32_t at = (uint32_t)x->nout;
    keep[nkeep - 1] |= END_BIT;
    memcpy(x->out + at, keep, (size_t)nkeep * sizeof(uint32_t));
    x->nout += (size_t)nkeep;
    return at;
}

/* The GADDAG of kwg cut for an endgame of racks a and b (counts; [0] blanks) on cells
 * (size n): a malloc'ed KWG (arcs in *nk), or NULL (no memory, or a graph too large:
 * the search keeps the full one). */
static uint32_t *eg_cut_lexicon(const uint32_t *kwg, uint32_t nk, const uint8_t *cells, int n, const uint8_t *a,
                                const uint8_t *b, uint32_t *nk_out)
{
    if (nk < 2)
        return NULL;
    EgCut *x = (EgCut *)calloc(1, sizeof(EgCut));
    if (!x)
        return NULL;
    x->kwg = kwg;
    x->nk = nk;
    x->blanks = a[0] + b[0];
    x->nlines = 2 * n;
    for (int l = 0; l < 2 * n; l++) {
        for (int t = 1; t < 64; t++)
            x->avail[l][t] = (uint8_t)(a[t] + b[t]);
        for (int k = 0; k < n; k++) {
            uint8_t c = l < n ? cells[l * n + k] : cells[k * n + (l - n)];
            if (c)
                x->avail[l][c & LETTER_MASK]++;
        }
    }
    x->cap = 1 << 16;
    x->out = (uint32_t *)malloc(x->cap * sizeof(uint32_t));
    uint32_t *res = NULL;
    if (x->out) {
        x->out[0] = 0;
        x->out[1] = 0;
        x->nout = 2;
        uint32_t root = kwg[1] & CHILD_MASK;
        uint32_t r = root && root < nk ? eg_cut_node(x, root, 0) : 0;
        if (!x->oom) {
            x->out[1] = r; /* the GADDAG root: tile 0, no flags, its arcs */
            res = x->out;
            *nk_out = (uint32_t)x->nout;
            x->out = NULL;
        }
    }
    free(x->out);
    free(x);
    return res;
}

static PyObject *eg_move_tuple(const Move *m, int pass)
{
    if (pass)
        return Py_BuildValue("(iiiiy#i)", 2, 0, 0, 0, "", (Py_ssize_t)0, 0);
    return Py_BuildValue("(iiiiy#i)", 0, m->row, m->col, m->down, (const char *)m->tiles, (Py_ssize_t)m->len, m->score);
}

/* The line as a list of eg_move_tuple's. A pass marked 2 ends the game by the run of
 * scoreless turns, which the search may have taken as limit - 2 (see eg_search): it
 * stands for the passes that end the game from the run the line has really reached. */
static PyObject *eg_line_list(const Move *line, const uint8_t *pass, int len, int scoreless, int limit)
{
    PyObject *pl = PyList_New(0);
    if (!pl)
        return NULL;
    for (int i = 0; i < len; i++) {
        int reps = 1;
        if (pass[i] == 2 && limit - scoreless > 1)
            reps = limit - scoreless;
        for (int r = 0; r < reps; r++) {
            PyObject *t = eg_move_tuple(&line[i], pass[i]);
            if (!t || PyList_Append(pl, t) < 0) {
                Py_XDECREF(t);
                Py_DECREF(pl);
                return NULL;
            }
            Py_DECREF(t);
        }
        scoreless = pass[i] || line[i].score <= 0 ? scoreless + reps : 0;
    }
    return pl;
}

/*
 * endgame(kwg, depths, anagrams, size, cells, letter_mult, word_mult, values, bingo_tiles,
 *         bonuses, start_row, start_col, me, opp, scoreless_run, scoreless_limit,
 *         max_depth, time_limit)
 *   -> (value, complete, depth, nodes, line)
 *
 * me, opp: the racks (bytes of codes) of the player on turn and of the other;
 * scoreless_limit: rules.scoreless_turn_limit (0: none); max_depth: plies (-1: no
 * limit); time_limit: seconds (<= 0: none; the first ply is always searched). line: the
 * principal variation as (kind 0 play / 2 pass, row, col, down, tiles, score). progress:
 * None, or called with (value, complete, depth, nodes, line) after each depth. The
 * depths are 1..EG_DEEPEN, then max_depth or the search to the end, whose depth is the
 * most moves of a line it searched.
 */
static PyObject *k_endgame(PyObject *self, PyObject *args)
{
    Py_buffer kwg, cells, lmult, wmult, values, bonuses, me, opp;
    PyObject *depth_obj, *ana_obj, *progress = Py_None;
    int size, bingo_tiles, start_r, start_c, scoreless, limit, max_depth, cut = 1;
    uint32_t *cut_kwg = NULL;
    double time_limit;
    Py_buffer depths, anas;
    int have_depths = 0, have_anas = 0;
    PyObject *result = NULL;
    Eg *eg = NULL;
    memset(&depths, 0, sizeof depths);
    memset(&anas, 0, sizeof anas);
    if (!PyArg_ParseTuple(args, "y*OOiy*y*y*y*iy*iiy*y*iiid|Op:endgame", &kwg, &depth_obj, &ana_obj, &size, &cells,
                          &lmult, &wmult, &values, &bingo_tiles, &bonuses, &start_r, &start_c, &me, &opp, &scoreless,
                          &limit, &max_depth, &time_limit, &progress, &cut))
        return NULL;
    if (size < 1 || size > MAXN || cells.len != (Py_ssize_t)size * size || lmult.len != cells.len ||
        wmult.len != cells.len || values.len != 128 || kwg.len % 4 || bonuses.len < 4 || bonuses.len % 4 ||
        me.len > PRUNE_MAX_RACK || opp.len > PRUNE_MAX_RACK) {
        PyErr_SetString(PyExc_ValueError, "endgame: bad arguments");
        goto out;
    }
    if (!cells_valid(&cells))
        goto out;
    eg = (Eg *)calloc(1, sizeof(Eg));
    if (eg)
        eg->po = (PlayOut *)calloc(1, sizeof(PlayOut));
    if (eg && eg->po)
        eg->po->g = (Gen *)calloc(1, sizeof(Gen));
    if (eg && eg->po && eg->po->g) {
        /* 8M entries (192 MB, zeroed pages touched as used): josh_nationals_round_27 takes 20.0M
         * nodes (20.3M with 4M entries); noah_vs_peter took 39M with 4M, 66M with 1M, before the
         * bounds against one tile */
        eg->tt_mask = ((uint64_t)1 << 23) - 1;
        eg->pc_mask = ((uint64_t)1 << 18) - 1;
        eg->tt = (EgEntry *)calloc(eg->tt_mask + 1, sizeof(EgEntry));
        eg->pc = (EgPlay *)calloc(eg->pc_mask + 1, sizeof(EgPlay));
        eg->wc_mask = ((uint64_t)1 << 16) - 1;
        eg->wc = (EgWord *)calloc(eg->wc_mask + 1, sizeof(EgWord)); /* NULL: words looked up each time */
    }
    if (!eg || !eg->po || !eg->po->g || !eg->tt || !eg->pc) {
        PyErr_NoMemory();
        goto out;
    }
    PlayOut *po = eg->po;
    if (po_lexicon(po, &kwg, depth_obj, ana_obj, &depths, &have_depths, &anas, &have_anas) < 0)
        goto out;
    uint8_t rme[64] = {0}, ropp[64] = {0};
    for (Py_ssize_t i = 0; i < me.len; i++) {
        uint8_t t = ((const uint8_t *)me.buf)[i];
        if (t >= 64) {
            PyErr_SetString(PyExc_ValueError, "endgame: a rack code above 63");
            goto out;
        }
        rme[t]++;
    }
    for (Py_ssize_t i = 0; i < opp.len; i++) {
        uint8_t t = ((const uint8_t *)opp.buf)[i];
        if (t >= 64) {
            PyErr_SetString(PyExc_ValueError, "endgame: a rack code above 63");
            goto out;
        }
        ropp[t]++;
    }
    if (cut) {
        /* the generator walks the lexicon cut to this endgame's words (its depths and
         * anagram index belong to the full one: the search's walk uses neither) */
        uint32_t cnk = 0;
        cut_kwg = eg_cut_lexicon(po->kwg, po->nk, (const uint8_t *)cells.buf, size, rme, ropp, &cnk);
        if (cut_kwg) {
            po->kwg = cut_kwg;
            po->nk = cnk;
            po->depth = NULL;
            po->ana = NULL;
        }
    }
    po_board(po, size, &cells, &lmult, &wmult, &values, bingo_tiles, &bonuses, 1, start_r, start_c, 2);
    eg_init_gen(eg);
    eg->limit = limit > 0 ? limit : 2;
    eg->penalties = limit > 0;
    const uint8_t *cb = (const uint8_t *)cells.buf;
    uint64_t bkey = 0;
    for (int i = 0; i < size * size; i++)
        if (cb[i]) {
            bkey += eg_square_key(i, cb[i]);
            eg->board_zero |= !po->values[cb[i]];
        }
    eg->zero_tiles = eg_zero_tiles(eg, rme) + eg_zero_tiles(eg, ropp);
    int value = 0, complete = 0, done = 0, err = 0;
    Move line[EG_MAXPLY + 1];
    uint8_t line_pass[EG_MAXPLY + 1];
    int line_len = 0;
    double start = eg_now();
    for (int depth = 1, next; max_depth < 0 || depth <= max_depth; depth = next) {
        /* EG_DEEPEN plies by iterative deepening (their lines order the moves), then
         * to the end (or max_depth) at once: an exact answer needs every line searched
         * to its end anyway, and the depths in between cost more than they save */
        int final = max_depth < 0 ? EG_MAXPLY : max_depth;
        next = depth < EG_DEEPEN && eg->nodes < EG_DEEPEN_NODES ? depth + 1 : final;
        if (next <= depth)
            next = depth + 1;
        eg->deadline = depth > 1 && time_limit > 0 ? start + time_limit : 0;
        /* iterative deepening (not the last search) stops at EG_DEEPEN_NODES nodes: with
         * blanks its play-outs can cost many times the search to the end (quackle__logan:
         * 8 s for three plies, then 0.4 s to the end). A count of nodes, not a time, so
         * that the search is the same on a busy machine. */
        int capped = depth > 1 && depth < final;
        eg->node_cap = capped ? EG_DEEPEN_NODES : 0;
        eg->seldepth = 0;
        int c = 0, v;
        Py_BEGIN_ALLOW_THREADS
        v = eg_search(eg, 0, cb, bkey, NULL, rme, ropp, scoreless, depth, -EG_INF, EG_INF, &c, &err);
        Py_END_ALLOW_THREADS
        if (eg->timed_out && capped && !err) {
            eg->timed_out = 0; /* on to the search to the end, ordered by the plies finished */
            next = final > depth ? final : depth + 1;
            continue;
        }
        if (eg->timed_out || err)
            break;
        value = v;
        complete = c;
        done = depth < EG_MAXPLY ? depth : eg->seldepth; /* to the end: the longest line searched */
        line_len = eg->pvlen[0];
        memcpy(line, eg->pv[0], sizeof(Move) * (size_t)line_len);
        memcpy(line_pass, eg->pvpass[0], (size_t)line_len);
        if (progress != Py_None) {
            PyObject *pl = eg_line_list(line, line_pass, line_len, scoreless, eg->limit);
            if (!pl)
                goto out;
            PyObject *r = PyObject_CallFunction(progress, "iiiLN", value, complete, done, eg->nodes, pl);
            if (!r)
                goto out;
            Py_DECREF(r);
        }
        if (c || depth >= EG_MAXPLY)
            break;
        if (time_limit > 0 && eg_now() > start + time_limit)
            break;
    }
    if (err) {
        PyErr_NoMemory();
        goto out;
    }
    PyObject *pl = eg_line_list(line, line_pass, line_len, scoreless, eg->limit);
    if (!pl)
        goto out;
    result = Py_BuildValue("(iiiLN)", value, complete, done, eg->nodes, pl);
out:
    free(cut_kwg);
    if (eg) {
        if (eg->po)
            free(eg->po->g);
        free(eg->po);
        free(eg->tt);
        free(eg->pc);
        free(eg->wc);
        free(eg);
    }
    if (have_depths)
        PyBuffer_Release(&depths);
    if (have_anas)
        PyBuffer_Release(&anas);
    PyBuffer_Release(&kwg);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&lmult);
    PyBuffer_Release(&wmult);
    PyBuffer_Release(&values);
    PyBuffer_Release(&bonuses);
    PyBuffer_Release(&me);
    PyBuffer_Release(&opp);
    return result;
}

/* -- the reinforcement-learning environment's core --------------------------------- */

/*
 * lexiko.rl's environments step a game one agent's move at a time, and after each move
 * the next player's candidate moves are needed: the best K by equity (placements, the
 * exchanges and the pass merged in the order of movegen.sort_key, the pass always among
 * them), with their features, and the observation as arrays. The core keeps the game in
 * a PlayOut (the board, racks, bag and random generator the play-outs use, the same
 * draws and shuffles as lexiko.game.Game), makes the chosen candidate, lists the next
 * ones and fills the observation's arrays, with no Python object per move. It keeps a
 * log of the moves so the Python side can bring a Game up to date when it is asked for.
 * The lists are those of lexiko.rl.Observer.candidates, candidate for candidate (tested).
 */

typedef struct {
    Move m;          /* a placement's move; equity and score for every kind */
    uint8_t kind;    /* 0 placement, 1 exchange, 2 pass */
    uint8_t nex;     /* an exchange's tiles (rack order: letters by code, then blanks) */
    uint8_t ex[PRUNE_MAX_RACK];
} RLCand;

typedef struct {
    PlayOut po;
    Gen gen;
    Gen board; /* po.board: prepare()'s arrays for po.cells, kept up to date by po_apply */
    Py_buffer kwg, depths, anas, lmult, wmult, map, wmap;
    int have[7];
    int first_min0, dirs0;
    int k, letters, started;
    RLCand *cands, *extra;
    int ncand;
    size_t extra_cap;
    double *vals;
    size_t vals_cap;
    uint8_t prem[MAXN * MAXN]; /* 1..6: the square's premium plane ("dtqDTQ"), 0 none */
    RLCand *log;
    size_t nlog, log_cap;
} RLCore;

#define RL_CAPSULE "lexiko._kernel.RLCore"

static void rl_destroy(RLCore *c)
{
    Py_buffer *bufs[7] = {&c->kwg, &c->depths, &c->anas, &c->lmult, &c->wmult, &c->map, &c->wmap};
    for (int i = 0; i < 7; i++)
        if (c->have[i])
            PyBuffer_Release(bufs[i]);
    free(c->cands);
    free(c->extra);
    free(c->vals);
    free(c->log);
    gen_free(&c->gen);
    free(c);
}

static void rl_free(PyObject *cap)
{
    RLCore *c = (RLCore *)PyCapsule_GetPointer(cap, RL_CAPSULE);
    if (c)
        rl_destroy(c);
}

/* Python's order of two tile tuples (element by element, then the shorter first). */
static int rl_tiles_cmp(const uint8_t *a, int na, const uint8_t *b, int nb)
{
    int m = na < nb ? na : nb;
    for (int i = 0; i < m; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return (na > nb) - (na < nb);
}

/* movegen.sort_key's order: equity and score descending, placements (by move_cmp),
 * then exchanges by tiles, then the pass. */
static int rl_cmp(const RLCand *a, const RLCand *b)
{
    if (a->m.equity != b->m.equity)
        return a->m.equity > b->m.equity ? -1 : 1;
    if (a->m.score != b->m.score)
        return a->m.score > b->m.score ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->kind == 0)
        return move_cmp(&a->m, &b->m);
    if (a->kind == 1)
        return rl_tiles_cmp(a->ex, a->nex, b->ex, b->nex);
    return 0;
}

static int rl_vcmp(const void *a, const void *b)
{
    return rl_cmp((const RLCand *)a, (const RLCand *)b);
}

static int rl_dcmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* The k-th highest (from 0) of a[0..n), NaN-free (a is reordered): what a[k] is once a
 * is sorted highest first, found without sorting (quickselect; the K-th best leave for
 * the exchanges' floor, every step the bag allows one). */
static double rl_kth_highest(double *a, long n, long k)
{
    long lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = a[lo + (hi - lo) / 2];
        long i = lo, j = hi;
        while (i <= j) {
            while (a[i] > pivot)
                i++;
            while (a[j] < pivot)
                j--;
            if (i <= j) {
                double t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return a[k];
    }
    return a[k];
}

/* Whether placement m comes before exchange or pass e (at equal equity and score it does). */
static int rl_place_first(const Move *m, const RLCand *e)
{
    if (m->equity != e->m.equity)
        return m->equity > e->m.equity;
    if (m->score != e->m.score)
        return m->score > e->m.score;
    return 1;
}

/* List the candidates of the player on turn. 0, or -1: no memory. */
static int rl_candidates(RLCore *c)
{
    PlayOut *po = &c->po;
    int p = po->turn, K = c->k;
    const uint8_t *full = po->rack[p];
    uint64_t nleaves = 1;
    for (int t = 0; t < 64; t++)
        nleaves *= (uint64_t)full[t] + 1;
    if (nleaves > (1u << 16))
        return -1;
    if (c->vals_cap < 2 * nleaves) {
        free(c->vals);
        c->vals = (double *)malloc(2 * nleaves * sizeof(double));
        c->vals_cap = c->vals ? 2 * nleaves : 0;
        if (!c->vals)
            return -1;
    }
    if (c->extra_cap < nleaves + 1) {
        free(c->extra);
        c->extra = (RLCand *)malloc((nleaves + 1) * sizeof(RLCand));
        c->extra_cap = c->extra ? nleaves + 1 : 0;
        if (!c->extra)
            return -1;
    }
    const double *vals = NULL; /* no leave values once the bag is empty: equity is the score */
    if (po->nb > 0 && c->have[5]) {
        leave_map_fill(po->maps[p], full, c->vals, nleaves);
        vals = c->vals;
    }
    uint32_t fullidx = (uint32_t)(nleaves - 1);
    /* an equity K exchanges or passes reach (movegen._others_floor) */
    double others = NAN;
    if (vals) {
        if (po->nb >= po->exchange_min_bag && po->nb >= po->rack_n[p]) {
            if ((uint64_t)K <= nleaves) {
                double *s = c->vals + nleaves;
                int nan = 0;
                for (uint64_t i = 0; i < nleaves; i++)
                    nan |= vals[i] != vals[i];
                memcpy(s, vals, nleaves * sizeof(double));
                if (nan) { /* no order: as the sort leaves them */
                    qsort(s, nleaves, sizeof(double), rl_dcmp_desc);
                    others = s[K - 1];
                } else {
                    others = rl_kth_highest(s, (long)nleaves, K - 1);
                }
            }
        } else if (K == 1) {
            others = vals[fullidx];
        }
    }
    /* the best K placements */
    Gen *g = &c->gen;
    gen_free(g);
    po_search_gen(po, g);
    po_gen_best(g, po, full, vals, (size_t)K, others, NULL);
    run(g);
    if (g->oom)
        return -1;
    size_t np_ = g->nmoves;
    qsort(g->moves, np_, sizeof(Move), move_vcmp);
    /* the equity a move needs to make the list */
    int has_floor = 0;
    double floor = 0.0;
    if (np_ >= (size_t)K) {
        floor = g->moves[K - 1].equity;
        has_floor = 1;
    } else if (others == others) {
        floor = others;
        has_floor = 1;
    }
    /* the exchanges allowed and the pass that reach it (movegen._other_moves) */
    int ne = 0;
    if (po->nb >= po->exchange_min_bag && (!has_floor || vals || floor <= 0.0)) {
        int codes[64], digit[64], nc = 0, kept = 0;
        for (int t = 0; t < 64; t++)
            if (full[t]) {
                codes[nc] = t;
                digit[nc++] = 0;
            }
        for (uint32_t idx = 0; idx < fullidx; idx++) {
            double eq = 0.0 + (vals ? vals[idx] : 0.0);
            int nx = po->rack_n[p] - kept;
            if ((!has_floor || eq >= floor) && nx <= po->nb) {
                RLCand *e = &c->extra[ne++];
                memset(&e->m, 0, sizeof(Move));
                e->m.equity = eq;
                e->m.leave = idx;
                e->kind = 1;
                e->nex = (uint8_t)exchanged_tiles(full, codes, digit, nc, e->ex);
            }
            for (int j = 0; j < nc; j++) { /* next index */
                if (digit[j] < full[codes[j]]) {
                    digit[j]++;
                    kept++;
                    break;
                }
                kept -= digit[j];
                digit[j] = 0;
            }
        }
    }
    double pass_eq = 0.0 + (vals ? vals[fullidx] : 0.0);
    if (!has_floor || pass_eq >= floor) {
        RLCand *e = &c->extra[ne++];
        memset(e, 0, sizeof(RLCand));
        e->m.equity = pass_eq;
        e->m.leave = fullidx;
        e->kind = 2;
    }
    qsort(c->extra, (size_t)ne, sizeof(RLCand), rl_vcmp);
    /* merge, keep K, and the pass among them */
    size_t i = 0;
    int j = 0, n = 0, has_pass = 0;
    while (n < K && (i < np_ || j < ne)) {
        RLCand *out = &c->cands[n++];
        if (j >= ne || (i < np_ && rl_place_first(&g->moves[i], &c->extra[j]))) {
            memset(out, 0, sizeof(RLCand));
            out->m = g->moves[i++];
        } else {
            *out = c->extra[j++];
            has_pass |= out->kind == 2;
        }
    }
    if (!has_pass) {
        if (n == K)
            n--;
        RLCand *out = &c->cands[n++];
        memset(out, 0, sizeof(RLCand));
        out->kind = 2;
        out->m.equity = vals ? vals[fullidx] : 0.0;
        out->m.leave = fullidx;
    }
    c->ncand = n;
    gen_free(g); /* copied: po_choose uses the same Gen */
    return 0;
}

/* Append e to the core's log of moves: 0, or -1 when out of memory. */
static int rl_log_push(RLCore *c, const RLCand *e)
{
    if (c->nlog == c->log_cap) {
        size_t cap2 = c->log_cap ? 2 * c->log_cap : 64;
        RLCand *nl = (RLCand *)realloc(c->log, cap2 * sizeof(RLCand));
        if (!nl)
            return -1;
        c->log = nl;
        c->log_cap = cap2;
    }
    c->log[c->nlog++] = *e;
    return 0;
}

/* A game starts from the position set in po (board, racks, bag, generator, scores, turn,
 * scoreless run): nothing played or logged yet, the board prepared, the candidates of the
 * player on turn listed. 0, or -1 with a Python error set. */
static int rl_begin(RLCore *c)
{
    PlayOut *po = &c->po;
    int empty = 1;
    for (int i = 0; i < po->n * po->n && empty; i++)
        empty = !po->cells[i];
    po->over = 0;
    po->end_reason = NULL;
    po->turns = 0;
    po->first_min = empty ? c->first_min0 : 1;
    po->sym_dirs = empty ? c->dirs0 : 2;
    c->nlog = 0;
    c->ncand = 0;
    c->started = 1;
    po_board_prepare(po);
    if (rl_candidates(c) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static RLCore *rl_core(PyObject *cap)
{
    return (RLCore *)PyCapsule_GetPointer(cap, RL_CAPSULE);
}

/*
 * rl_new(kwg, depths, anagrams, size, letter_mult, word_mult, values, bingo_tiles,
 *        bonuses, first_min, start_row, start_col, first_dirs, rules, leave_map, k,
 *        premiums, letters, wordmap=None) -> core
 *
 * The board and lexicon as playout() takes them; leave_map: a packed leave table, or
 * None (equity is the score); k: candidate slots; premiums: size*size bytes, 1-6 the
 * premium plane of the square, 0 none; letters: the tile set's letters; wordmap: what
 * wordmap() returns, searched for the best moves (None: the GADDAG walk).
 */
static PyObject *k_rl_new(PyObject *self, PyObject *args)
{
    PyObject *kwg_obj, *depth_obj, *ana_obj, *lm_obj, *wm_obj, *rules, *map_obj, *wmap_obj = Py_None;
    Py_buffer values, bonuses, prem;
    int size, bingo_tiles, first_min, start_r, start_c, first_dirs, k, letters;
    if (!PyArg_ParseTuple(args, "OOOiOOy*iy*iiiiOOiy*i|O:rl_new", &kwg_obj, &depth_obj, &ana_obj, &size, &lm_obj,
                          &wm_obj, &values, &bingo_tiles, &bonuses, &first_min, &start_r, &start_c, &first_dirs,
                          &rules, &map_obj, &k, &prem, &letters, &wmap_obj))
        return NULL;
    PyObject *result = NULL;
    RLCore *c = NULL;
    if (size < 1 || size > MAXN || values.len != 128 || bonuses.len < 4 || bonuses.len % 4 ||
        prem.len != (Py_ssize_t)size * size || k < 1 || k > 4096 || letters < 1 || letters > 62) {
        PyErr_SetString(PyExc_ValueError, "rl_new: bad size, values, bonuses, premiums, k or letters");
        goto out;
    }
    c = (RLCore *)calloc(1, sizeof(RLCore));
    if (!c || !(c->cands = (RLCand *)calloc((size_t)k, sizeof(RLCand)))) {
        PyErr_NoMemory();
        goto out;
    }
    c->po.g = &c->gen;
    c->po.board = &c->board;
    if (PyObject_GetBuffer(kwg_obj, &c->kwg, PyBUF_SIMPLE) < 0)
        goto out;
    c->have[0] = 1;
    if (PyObject_GetBuffer(lm_obj, &c->lmult, PyBUF_SIMPLE) < 0)
        goto out;
    c->have[3] = 1;
    if (PyObject_GetBuffer(wm_obj, &c->wmult, PyBUF_SIMPLE) < 0)
        goto out;
    c->have[4] = 1;
    if (c->kwg.len % 4 || c->lmult.len != prem.len || c->wmult.len != prem.len) {
        PyErr_SetString(PyExc_ValueError, "rl_new: bad kwg or multipliers");
        goto out;
    }
    if (po_lexicon(&c->po, &c->kwg, depth_obj, ana_obj, &c->depths, &c->have[1], &c->anas, &c->have[2]) < 0)
        goto out;
    if (po_wordmap(&c->po, wmap_obj, &c->wmap, &c->have[6]) < 0)
        goto out;
    if (map_obj != Py_None) {
        if (PyObject_GetBuffer(map_obj, &c->map, PyBUF_SIMPLE) < 0)
            goto out;
        c->have[5] = 1;
        const LeaveMapHead *h = leave_map_of(&c->map);
        if (!h)
            goto out;
        for (int p = 0; p < PO_MAXP; p++)
            c->po.maps[p] = h;
    }
    {
        PlayOut *po = &c->po;
        po->n = size;
        po->lmult = (const uint8_t *)c->lmult.buf;
        po->wmult = (const uint8_t *)c->wmult.buf;
        memcpy(po->values, values.buf, 128);
        po->bingo_tiles = bingo_tiles;
        const int32_t *b = (const int32_t *)bonuses.buf;
        Py_ssize_t nb = bonuses.len / 4;
        for (int q = 0; q <= MAXN; q++)
            po->bonus[q] = b[q < nb ? q : nb - 1];
        po->start_r = start_r;
        po->start_c = start_c;
        c->first_min0 = first_min;
        c->dirs0 = first_dirs == 1 ? 1 : 2;
        if (po_rules(po, rules) < 0)
            goto out;
        if (po->rack_size > PRUNE_MAX_RACK) {
            PyErr_SetString(PyExc_ValueError, "rl_new: racks of more than 15 tiles");
            goto out;
        }
    }
    c->k = k;
    c->letters = letters;
    memcpy(c->prem, prem.buf, (size_t)prem.len);
    result = PyCapsule_New(c, RL_CAPSULE, rl_free);
    if (result)
        c = NULL;
out:
    if (c)
        rl_destroy(c);
    PyBuffer_Release(&values);
    PyBuffer_Release(&bonuses);
    PyBuffer_Release(&prem);
    return result;
}

/* rl_reset(core, cells, racks, bag, scores, turn, scoreless_run, rng_state): a position
 * (racks: bytes per seat; bag drawn from its end; rng_state: random.getstate()[1]); then
 * the candidates of the player on turn. */
static PyObject *k_rl_reset(PyObject *self, PyObject *args)
{
    PyObject *cap, *racks, *scores, *rng_state;
    Py_buffer cells, bag;
    int turn, scoreless_run;
    if (!PyArg_ParseTuple(args, "Oy*Oy*OiiO:rl_reset", &cap, &cells, &racks, &bag, &scores, &turn, &scoreless_run,
                          &rng_state))
        return NULL;
    PyObject *result = NULL;
    RLCore *c = rl_core(cap);
    if (!c)
        goto out;
    PlayOut *po = &c->po;
    int n = po->n;
    if (cells.len != (Py_ssize_t)n * n || !cells_valid(&cells)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "rl_reset: cells need size*size bytes");
        goto out;
    }
    if (!PyList_Check(racks) || !PyList_Check(scores) || PyList_GET_SIZE(racks) < 1 ||
        PyList_GET_SIZE(racks) > PO_MAXP || PyList_GET_SIZE(scores) != PyList_GET_SIZE(racks) ||
        bag.len > PO_MAXBAG || !PyTuple_Check(rng_state) || PyTuple_GET_SIZE(rng_state) != 625) {
        PyErr_SetString(PyExc_ValueError, "rl_reset: racks and scores per seat, a bag, random.getstate()[1]");
        goto out;
    }
    int np = (int)PyList_GET_SIZE(racks);
    if (turn < 0 || turn >= np) {
        PyErr_SetString(PyExc_ValueError, "rl_reset: turn is a seat");
        goto out;
    }
    /* check everything before changing anything */
    for (int p = 0; p < np; p++) {
        PyObject *r = PyList_GET_ITEM(racks, p);
        if (!PyBytes_Check(r) || PyBytes_GET_SIZE(r) > PRUNE_MAX_RACK) {
            PyErr_SetString(PyExc_ValueError, "rl_reset: racks are bytes of at most 15 tiles");
            goto out;
        }
        for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(r); i++)
            if ((uint8_t)PyBytes_AS_STRING(r)[i] > (uint8_t)c->letters) {
                PyErr_SetString(PyExc_ValueError, "rl_reset: a rack code is not a tile");
                goto out;
            }
    }
    for (Py_ssize_t i = 0; i < bag.len; i++)
        if (((const uint8_t *)bag.buf)[i] > (uint8_t)c->letters) {
            PyErr_SetString(PyExc_ValueError, "rl_reset: a bag code is not a tile");
            goto out;
        }
    long long sc[PO_MAXP];
    for (int p = 0; p < np; p++) {
        sc[p] = PyLong_AsLongLong(PyList_GET_ITEM(scores, p));
        if (PyErr_Occurred())
            goto out;
    }
    uint32_t mt[625];
    for (int i = 0; i < 625; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(rng_state, i));
        if (PyErr_Occurred())
            goto out;
        mt[i] = (uint32_t)v;
    }
    memcpy(po->cells, cells.buf, (size_t)cells.len);
    memset(po->rack, 0, sizeof po->rack);
    memset(po->rack_n, 0, sizeof po->rack_n);
    for (int p = 0; p < np; p++) {
        PyObject *r = PyList_GET_ITEM(racks, p);
        for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(r); i++) {
            po->rack[p][(uint8_t)PyBytes_AS_STRING(r)[i]]++;
            po->rack_n[p]++;
        }
        po->scores[p] = sc[p];
        po->before[p] = sc[p];
    }
    po->np = np;
    po->nb = (int)bag.len;
    memcpy(po->bag, bag.buf, (size_t)bag.len);
    memcpy(po->rng.mt, mt, 624 * sizeof(uint32_t));
    po->rng.index = mt[624];
    po->turn = turn;
    po->scoreless_run = scoreless_run;
    if (rl_begin(c) < 0)
        goto out;
    result = Py_NewRef(Py_None);
out:
    PyBuffer_Release(&cells);
    PyBuffer_Release(&bag);
    return result;
}

/* rl_deal(core, seed, bag, players, draw_for_first): a new game as lexiko.game.Game(seed=...)
 * deals it, without a Game: random.Random(seed) (seed: 16 bytes, little-endian, the
 * absolute value of the Game's seed), the players drawing a tile each for first (blank
 * first, then the lowest letter; tied players draw again, from a new pool when too few
 * are left) when draw_for_first, the bag (bag: Game's order, tiles.bag()) shuffled, and
 * full racks drawn from its end from the first player on. Then that player's candidates. */
static PyObject *k_rl_deal(PyObject *self, PyObject *args)
{
    PyObject *cap;
    Py_buffer seedb, bagb;
    int np, draw_first;
    if (!PyArg_ParseTuple(args, "Oy*y*ip:rl_deal", &cap, &seedb, &bagb, &np, &draw_first))
        return NULL;
    PyObject *result = NULL;
    RLCore *c = rl_core(cap);
    if (!c)
        goto out;
    PlayOut *po = &c->po;
    if (seedb.len != 16 || bagb.len < 1 || bagb.len > PO_MAXBAG || np < 1 || np > PO_MAXP ||
        np * po->rack_size > bagb.len) {
        PyErr_SetString(PyExc_ValueError, "rl_deal: a 16-byte seed, a bag, and 1 to 8 players it can serve");
        goto out;
    }
    const uint8_t *ib = (const uint8_t *)bagb.buf;
    for (Py_ssize_t i = 0; i < bagb.len; i++)
        if (ib[i] > (uint8_t)c->letters) {
            PyErr_SetString(PyExc_ValueError, "rl_deal: a bag code is not a tile");
            goto out;
        }
    PyMT rng;
    pymt_seed(&rng, u128_le((const uint8_t *)seedb.buf));
    int n = (int)bagb.len, first = 0;
    if (draw_first && np > 1) {
        uint8_t pool[PO_MAXBAG];
        int contenders[PO_MAXP], nc = np, npool = n;
        for (int p = 0; p < np; p++)
            contenders[p] = p;
        memcpy(pool, ib, (size_t)n);
        pymt_shuffle(&rng, pool, npool);
        for (;;) {
            uint8_t drawn[PO_MAXP], best = 255;
            for (int q = 0; q < nc; q++) {
                drawn[q] = pool[--npool];
                if (drawn[q] < best)
                    best = drawn[q];
            }
            int k = 0;
            for (int q = 0; q < nc; q++)
                if (drawn[q] == best)
                    contenders[k++] = contenders[q];
            nc = k;
            if (nc == 1)
                break;
            if (npool < nc) {
                memcpy(pool, ib, (size_t)n);
                npool = n;
                pymt_shuffle(&rng, pool, npool);
            }
        }
        first = contenders[0];
    }
    memcpy(po->bag, ib, (size_t)n);
    po->nb = n;
    pymt_shuffle(&rng, po->bag, n);
    memset(po->cells, 0, sizeof po->cells);
    memset(po->rack, 0, sizeof po->rack);
    memset(po->rack_n, 0, sizeof po->rack_n);
    po->np = np;
    for (int i = 0; i < np; i++) {
        int p = (first + i) % np;
        po->scores[p] = po->before[p] = 0;
        po_draw(po, p, po->rack_size);
    }
    po->rng = rng;
    po->turn = first;
    po->scoreless_run = 0;
    if (rl_begin(c) < 0)
        goto out;
    result = PyLong_FromLong(first);
out:
    PyBuffer_Release(&seedb);
    PyBuffer_Release(&bagb);
    return result;
}

/* rl_step(core, i) -> bool: make candidate i, list the next player's (none once the
 * game is over); whether the game is over. */
static PyObject *k_rl_step(PyObject *self, PyObject *args)
{
    PyObject *cap;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "On:rl_step", &cap, &i))
        return NULL;
    RLCore *c = rl_core(cap);
    if (!c)
        return NULL;
    if (!c->started || c->po.over) {
        PyErr_SetString(PyExc_ValueError, "the game is over: reset it");
        return NULL;
    }
    if (i < 0 || i >= c->ncand) {
        PyErr_Format(PyExc_ValueError, "action %zd is masked out: %d moves are open", i, c->ncand);
        return NULL;
    }
    RLCand cand = c->cands[i];
    if (rl_log_push(c, &cand) < 0)
        return PyErr_NoMemory();
    if (po_apply(&c->po, cand.kind, &cand.m, cand.ex, cand.nex, NULL) < 0)
        return NULL;
    c->ncand = 0;
    if (!c->po.over && rl_candidates(c) < 0)
        return PyErr_NoMemory();
    return PyBool_FromLong(c->po.over);
}

/* rl_static_turns(core, seat) -> bool: the other seats play as the static player
 * (lexiko.bots.StaticBot, as in play-outs) until seat is on turn; its candidates are
 * listed. Whether the game is over. */
static PyObject *k_rl_static_turns(PyObject *self, PyObject *args)
{
    PyObject *cap;
    int seat;
    if (!PyArg_ParseTuple(args, "Oi:rl_static_turns", &cap, &seat))
        return NULL;
    RLCore *c = rl_core(cap);
    if (!c)
        return NULL;
    PlayOut *po = &c->po;
    if (!c->started || seat < 0 || seat >= po->np || !c->have[5]) {
        PyErr_SetString(PyExc_ValueError, "rl_static_turns: a started game with a leave table, and a seat");
        return NULL;
    }
    int moved = 0;
    while (!po->over && po->turn != seat) {
        RLCand e;
        memset(&e, 0, sizeof e);
        uint8_t ex[64];
        int nex = 0;
        int kind = po_choose(po, &e.m, ex, &nex);
        if (kind < 0)
            return PyErr_NoMemory();
        e.kind = (uint8_t)kind;
        e.nex = (uint8_t)nex;
        memcpy(e.ex, ex, (size_t)nex);
        if (kind != 0) {
            e.m.score = 0;
            e.m.equity = 0.0;
        }
        if (rl_log_push(c, &e) < 0)
            return PyErr_NoMemory();
        if (po_apply(po, kind, &e.m, ex, nex, NULL) < 0)
            return NULL;
        moved = 1;
    }
    if (moved) {
        c->ncand = 0;
        if (!po->over && rl_candidates(c) < 0)
            return PyErr_NoMemory();
    }
    return PyBool_FromLong(po->over);
}

static int rl_buffer(PyObject *obj, Py_buffer *b, Py_ssize_t len, const char *what)
{
    if (PyObject_GetBuffer(obj, b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (b->len != len) {
        PyErr_Format(PyExc_ValueError, "rl_observe: %s needs %zd bytes, not %zd", what, len, b->len);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

/* rl_observe(core, seat, on_turn, board, rack, unseen, scores, bag, candidates, mask):
 * fill the arrays of lexiko.rl.Observer.observe (float32; mask int8), the candidates'
 * features and mask only when on_turn (else zeros). */
static PyObject *k_rl_observe(PyObject *self, PyObject *args)
{
    PyObject *cap, *objs[7];
    int seat, on_turn;
    if (!PyArg_ParseTuple(args, "OipOOOOOOO:rl_observe", &cap, &seat, &on_turn, &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6]))
        return NULL;
    RLCore *c = rl_core(cap);
    if (!c)
        return NULL;
    PlayOut *po = &c->po;
    if (seat < 0 || seat >= po->np) {
        PyErr_SetString(PyExc_ValueError, "rl_observe: seat is not a seat");
        return NULL;
    }
    int n = po->n, L = c->letters, planes = L + 1 + 6;
    Py_ssize_t sizes[7] = {(Py_ssize_t)planes * n * n * 4, (L + 1) * 4, (L + 1) * 4, po->np * 4, 4,
                           (Py_ssize_t)c->k * 8 * 4, c->k};
    const char *names[7] = {"board", "rack", "unseen", "scores", "bag", "candidates", "action_mask"};
    Py_buffer b[7];
    int got = 0;
    for (; got < 7; got++)
        if (rl_buffer(objs[got], &b[got], sizes[got], names[got]) < 0)
            break;
    if (got == 7) {
        float *board = (float *)b[0].buf;
        memset(board, 0, (size_t)sizes[0]);
        size_t nn = (size_t)n * n;
        for (size_t q = 0; q < nn; q++) {
            uint8_t t = po->cells[q];
            if (t) {
                board[(size_t)(t & LETTER_MASK) * nn + q] = 1.0f;
                if (t & BLANK_FLAG)
                    board[q] = 1.0f;
            } else if (c->prem[q]) {
                board[(size_t)(L + c->prem[q]) * nn + q] = 1.0f;
            }
        }
        float *rack = (float *)b[1].buf, *unseen = (float *)b[2].buf;
        for (int t = 0; t <= L; t++) {
            rack[t] = (float)po->rack[seat][t];
            int u = 0;
            for (int q = 0; q < po->np; q++)
                if (q != seat)
                    u += po->rack[q][t];
            unseen[t] = (float)u;
        }
        for (int q = 0; q < po->nb; q++)
            unseen[po->bag[q]] += 1.0f;
        float *sc = (float *)b[3].buf;
        for (int q = 0; q < po->np; q++)
            sc[q] = (float)po->scores[(seat + q) % po->np];
        ((float *)b[4].buf)[0] = (float)po->nb;
        float *f = (float *)b[5].buf;
        int8_t *mask = (int8_t *)b[6].buf;
        memset(f, 0, (size_t)sizes[5]);
        memset(mask, 0, (size_t)sizes[6]);
        for (int i = 0; on_turn && i < c->ncand; i++) {
            const RLCand *e = &c->cands[i];
            int tiles = 0, prem = 0;
            if (e->kind == 0)
                for (int j = 0; j < e->m.len; j++) {
                    if (!e->m.tiles[j])
                        continue;
                    tiles++;
                    int r = e->m.down ? e->m.row + j : e->m.row, col = e->m.down ? e->m.col : e->m.col + j;
                    prem += c->prem[r * n + col] != 0;
                }
            double score = (double)e->m.score, eq = e->m.equity;
            float *row = f + (size_t)i * 8;
            row[0] = (float)(score / 100.0);
            row[1] = (float)((eq - score) / 50.0);
            row[2] = (float)(eq / 100.0);
            row[3] = (float)((double)tiles / (double)po->rack_size);
            row[4] = tiles >= po->bingo_tiles ? 1.0f : 0.0f;
            row[5] = (float)((double)prem / 4.0);
            row[6] = e->kind == 1 ? 1.0f : 0.0f;
            row[7] = e->kind == 2 ? 1.0f : 0.0f;
            mask[i] = 1;
        }
    }
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&b[i]);
    if (got < 7)
        return NULL;
    Py_RETURN_NONE;
}

/* rl_info(core) -> (turn, over, scores, scores_before_end, bag, end_reason, open) */
static PyObject *k_rl_info(PyObject *self, PyObject *args)
{
    PyObject *cap;
    if (!PyArg_ParseTuple(args, "O:rl_info", &cap))
        return NULL;
    RLCore *c = rl_core(cap);
    if (!c)
        return NULL;
    PlayOut *po = &c->po;
    PyObject *sc = PyTuple_New(po->np), *bf = PyTuple_New(po->np);
    if (!sc || !bf) {
        Py_XDECREF(sc);
        Py_XDECREF(bf);
        return NULL;
    }
    for (int p = 0; p < po->np; p++) {
        PyTuple_SET_ITEM(sc, p, PyLong_FromLongLong(po->scores[p]));
        PyTuple_SET_ITEM(bf, p, PyLong_FromLongLong(po->over ? po->before[p] : po->scores[p]));
    }
    return Py_BuildValue("(iNNNizi)", po->turn, PyBool_FromLong(po->over), sc, bf, po->nb, po->end_reason, c->ncand);
}

static PyObject *rl_move_tuple(const RLCand *e)
{
    if (e->kind == 0)
        return Py_BuildValue("(iiiiy#id)", 0, e->m.row, e->m.col, e->m.down, (const char *)e->m.tiles,
                             (Py_ssize_t)e->m.len, e->m.score, e->m.equity);
    return Py_BuildValue("(iiiiy#id)", e->kind, 0, 0, 0, (const char *)e->ex, (Py_ssize_t)(e->kind == 1 ? e->nex : 0),
                         0, e->m.equity);
}

/* rl_log(core, start) -> the moves made from move `start` on, as (kind 0 placement / 1
 * exchange / 2 pass, row, col, down, tiles, score, equity); rl_candidates(core) -> the
 * candidates of the player on turn, the same with the tiles kept (rack order) added. */
static PyObject *k_rl_log(PyObject *self, PyObject *args)
{
    PyObject *cap;
    Py_ssize_t start;
    if (!PyArg_ParseTuple(args, "On:rl_log", &cap, &start))
        return NULL;
    RLCore *c = rl_core(cap);
    if (!c)
        return NULL;
    if (start < 0 || (size_t)start > c->nlog)
        start = (Py_ssize_t)c->nlog;
    PyObject *out = PyList_New((Py_ssize_t)c->nlog - start);
    for (Py_ssize_t i = start; out && (size_t)i < c->nlog; i++) {
        PyObject *t = rl_move_tuple(&c->log[i]);
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i - start, t);
    }
    return out;
}

static PyObject *k_rl_candidates(PyObject *self, PyObject *args)
{
    PyObject *cap;
    if (!PyArg_ParseTuple(args, "O:rl_candidates", &cap))
        return NULL;
    RLCore *c = rl_core(cap);
    if (!c)
        return NULL;
    const uint8_t *full = c->po.rack[c->po.turn];
    uint32_t radix[64], r = 1;
    for (int t = 0; t < 64; t++) {
        radix[t] = r;
        if (full[t])
            r *= (uint32_t)full[t] + 1;
    }
    PyObject *out = PyList_New(c->ncand);
    for (int i = 0; out && i < c->ncand; i++) {
        const RLCand *e = &c->cands[i];
        uint8_t kept[64 * 4];
        int nk = 0;
        for (int u = 1; u <= 64; u++) { /* letters by code, then blanks (64: code 0) */
            int t = u & 63;
            if (!full[t])
                continue;
            int q = (int)((e->m.leave / radix[t]) % ((uint32_t)full[t] + 1));
            while (q--)
                kept[nk++] = (uint8_t)t;
        }
        PyObject *m = rl_move_tuple(e);
        PyObject *item = m ? Py_BuildValue("(Ny#)", m, (const char *)kept, (Py_ssize_t)nk) : NULL;
        if (!item) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"rl_new", k_rl_new, METH_VARARGS, "rl_new(...) -> core: the core of lexiko.rl's environments (see lexiko.rl.core)."},
    {"rl_reset", k_rl_reset, METH_VARARGS, "rl_reset(core, cells, racks, bag, scores, turn, scoreless_run, rng_state)."},
    {"rl_deal", k_rl_deal, METH_VARARGS,
     "rl_deal(core, seed, bag, players, draw_for_first) -> first player: a new game dealt as Game deals it."},
    {"rl_static_turns", k_rl_static_turns, METH_VARARGS,
     "rl_static_turns(core, seat) -> bool: the other seats play as the static player until seat is on turn."},
    {"rl_step", k_rl_step, METH_VARARGS, "rl_step(core, i) -> bool: make candidate i; whether the game is over."},
    {"rl_observe", k_rl_observe, METH_VARARGS,
     "rl_observe(core, seat, on_turn, board, rack, unseen, scores, bag, candidates, mask): fill the arrays."},
    {"rl_info", k_rl_info, METH_VARARGS, "rl_info(core) -> (turn, over, scores, before, bag, end_reason, open)."},
    {"rl_log", k_rl_log, METH_VARARGS, "rl_log(core, start) -> the moves made from move start on."},
    {"rl_candidates", k_rl_candidates, METH_VARARGS, "rl_candidates(core) -> the candidates of the player on turn."},
    {"endgame", k_endgame, METH_VARARGS,
     "endgame(...) -> (value, complete, depth, nodes, line): a two-player endgame solved in the kernel."},
    {"simulate", k_simulate, METH_VARARGS,
     "simulate(...) -> list: the simulation's play-outs of iterations start..stop (see lexiko.bots.simulation)."},
    {"playout", k_playout, METH_VARARGS,
     "playout(...) -> tuple: the static player's turns from a position, in the kernel (see lexiko.bots.playout)."},
    {"static_games", k_static_games, METH_VARARGS,
     "static_games(...) -> list: whole games of the static player from their seeds (see lexiko.bots.playout)."},
    {"leave_map", k_leave_map, METH_VARARGS,
     "leave_map(keys, values, bits, offset, vowels, terms, balance) -> bytes: a packed leave table."},
    {"rack_leaves", k_rack_leaves, METH_VARARGS,
     "rack_leaves(racks, sums, counts, dist, size) -> (keys, weighted, weights, seen): leaves valued by racks."},
    {"leave_values", k_leave_values, METH_VARARGS,
     "leave_values(counts, map) -> bytes: the value of every sub-rack by a packed leave table, as doubles."},
    {"setup", k_setup, METH_VARARGS, "setup(Place, Candidate): the classes generate() builds."},
    {"leave_table", k_leave_table, METH_VARARGS,
     "leave_table(counts, leaves) -> bytes: float(leaves(t)) of every sub-rack t, as doubles (for generate)."},
    {"wordmap", k_wordmap, METH_VARARGS,
     "wordmap(kwg) -> bytes: the words by letter multiset, and the letters a blank may complete (for generate)."},
    {"anagrams", k_anagrams, METH_VARARGS,
     "anagrams(kwg) -> bytes: a hash set of the words' letter multisets (for generate)."},
    {"depths", k_depths, METH_VARARGS,
     "depths(kwg) -> bytes: per arc index, the most letters left on a path to a word's end (for generate)."},
    {"generate", k_generate, METH_VARARGS,
     "generate(kwg, cells, size, letter_mult, word_mult, values, rack, bingo_tiles, bingo_bonus,\n"
     "         first_min, start_row, start_col, first_dirs, mode, best_n, leave_values, depths, anagrams,\n"
     "         floor, bonuses=None, wordmap=None)\n\n"
     "Mode 0: number of placements; 1: every placement; 2: the best best_n (Candidates,\n"
     "best first). See lexiko.movegen."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "lexiko._kernel", "Compiled move generator of lexiko (see lexiko.movegen).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernel(void)
{
    init_letter_hash();
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddIntConstant(m, "MAX_SIZE", MAXN) < 0 || PyModule_AddIntConstant(m, "ABI", 9) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
