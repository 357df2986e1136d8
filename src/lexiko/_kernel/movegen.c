/*
 * lexiko._kernel, movegen.c: the GADDAG walk: move generation, cross-checks, scoring,
 * the best-N heap and the pruning bounds of best mode; run() dispatches a search (the
 * word map's in wordmap.c, Clabbers' in clabbers.c). gen_make brings the Gen's arrays up
 * to date after a move.
 *
 * The inner loop of lexiko.movegen: GADDAG-based generation of every legal placement
 * over the flat arc array of lexiko.kwg, with cross-checks as 64-bit letter masks per
 * square, incremental scoring, blanks, an optional leave-value table, a bounded heap
 * for the best N moves and Python objects built only for the moves returned.
 *
 * The behaviour is that of the pure-Python reference in lexiko/movegen.py; the tests
 * compare the two. The Python side validates arguments; the bindings check sizes again
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
 * does not take (more than two blanks or 2,048 sub-racks) and for every other mode but
 * one: every move of an opening (mode all on an empty board, no floor) is listed by the
 * map too, run_wmp with no floor taking every group (the whole call 2.9 times faster
 * than by the walk on AEINRST, 2.3 on DEGORV?: each sub-rack's words are found at once,
 * not letter by letter).
 *
 * Clabbers (mode flag MODE_CLABBERS; the kwg is then the alphagram automaton of
 * lexiko/clabbers.py, a DAWG of every word's letters sorted): a word is valid when its
 * letters are an anagram of a word. Generation goes by span rather than by anchor (see
 * "Clabbers" below): the multisets of rack tiles that complete the span's board letters
 * to an alphagram, then every order of each that the anagram cross-checks allow. Best
 * mode walks the spans best bound first and skips multisets by a bound; the same rule
 * (cut only what compares worse than the N-th best) keeps the result exact.
 */

#include "movegen.h"

#include "anagram.h"
#include "clabbers.h"
#include "wordmap.h"

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

/* Free what a search left in g (its moves too: take them first when they are wanted). */
void gen_free(Gen *g)
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

void record(Gen *g, int start, int end, int score)
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
        for (int wd = 1; wd <= g->wcap; wd++) {
            int f = pos - wd + 1; /* first squares f..pos: the walk reaches no further left */
            if (g->run_left)
                acc = g->alive_r[0];
            else if (f >= g->f0 && f <= A && f - g->f0 < g->nf)
                acc |= g->alive_r[f - g->f0];
            g->alive_l[pos][wd] = acc;
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

/* The walk comes in four copies, by the constants prune (best mode's pruning) and wide
 * (the automaton's layout, common.h): a narrow automaton's arcs are read as they were
 * before the wide layout, without the two operations that gather a wide child's high
 * bits, so TWL06 loses no speed to Polish. */
static void gen_left(Gen *g, int pos, uint32_t node, WALK_ARGS);
static void gen_right(Gen *g, int pos, uint32_t node, WALK_ARGS);
static void gen_left_p(Gen *g, int pos, uint32_t node, WALK_ARGS);
static void gen_right_p(Gen *g, int pos, uint32_t node, WALK_ARGS);
static void gen_left_w(Gen *g, int pos, uint32_t node, WALK_ARGS);
static void gen_right_w(Gen *g, int pos, uint32_t node, WALK_ARGS);
static void gen_left_pw(Gen *g, int pos, uint32_t node, WALK_ARGS);
static void gen_right_pw(Gen *g, int pos, uint32_t node, WALK_ARGS);

/* An arc's child and tile in layout wide (a constant where used: the branch folds). */
#define WALK_CHILD(a, wide) ((wide) ? ARC_CHILD(a) : ((a) & CHILD_MASK))
#define WALK_TILE(a, wide) ((wide) ? ARC_TILE(a) : ((a) >> 24))
#define GEN_LEFT(prune, wide, ...)                                                                                     \
    ((prune) ? ((wide) ? gen_left_pw(__VA_ARGS__) : gen_left_p(__VA_ARGS__))                                           \
             : ((wide) ? gen_left_w(__VA_ARGS__) : gen_left(__VA_ARGS__)))
#define GEN_RIGHT(prune, wide, ...)                                                                                    \
    ((prune) ? ((wide) ? gen_right_pw(__VA_ARGS__) : gen_right_p(__VA_ARGS__))                                         \
             : ((wide) ? gen_right_w(__VA_ARGS__) : gen_right(__VA_ARGS__)))

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
static inline __attribute__((always_inline)) void after_left(Gen *g, int pos, uint32_t a, int prune, int wide,
                                                             WALK_ARGS)
{
    uint32_t child = WALK_CHILD(a, wide);
    int left_empty = pos <= g->walk_anchor && (pos == 0 || !g->lc[pos - 1]);
    if ((a & ACC_BIT) && left_empty && (!prune || ((g->kmask >> placed) & 1 && g->turn >= g->anchor_pos)))
        store(g, pos, g->turn, main, mult, cross, placed, leave);
    if (!child || child >= g->nk)
        return;
    if (pos - 1 > g->left_limit)
        GEN_LEFT(prune, wide, g, pos - 1, child, WALK_PASS);
    if (left_empty && g->turn + 1 < g->n) {
        uint32_t s = g->kwg[child];
        if (WALK_TILE(s, wide) == 0) {
            uint32_t sc = WALK_CHILD(s, wide);
            if (sc && sc < g->nk) {
                g->start = pos;
                if (prune)
                    g->cur_fi = g->run_left ? 0 : pos - g->f0;
                GEN_RIGHT(prune, wide, g, g->turn + 1, sc, WALK_PASS);
            }
        }
    }
}

/* After the tile at pos, read through arc a going right: record, go on right. */
static inline __attribute__((always_inline)) void after_right(Gen *g, int pos, uint32_t a, int prune, int wide,
                                                              WALK_ARGS)
{
    uint32_t child = WALK_CHILD(a, wide);
    int right_empty = pos == g->n - 1 || !g->lc[pos + 1];
    if ((a & ACC_BIT) && right_empty && (!prune || ((g->kmask >> placed) & 1 && pos >= g->anchor_pos)))
        store(g, g->start, pos, main, mult, cross, placed, leave);
    if (child && child < g->nk && pos + 1 < g->n)
        GEN_RIGHT(prune, wide, g, pos + 1, child, WALK_PASS);
}

#define AFTER(pos_, a_, ...)                                                                                           \
    do {                                                                                                               \
        if (left)                                                                                                      \
            after_left(g, pos_, a_, prune, wide, __VA_ARGS__);                                                               \
        else                                                                                                           \
            after_right(g, pos_, a_, prune, wide, __VA_ARGS__);                                                              \
    } while (0)

/* The tile at pos from node: the one on the board, or each one the rack allows. */
static inline __attribute__((always_inline)) void gen_at(Gen *g, int pos, uint32_t node, int left, int prune,
                                                         int wide, WALK_ARGS)
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
            uint32_t t = WALK_TILE(a, wide);
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
        uint32_t t = WALK_TILE(a, wide);
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
    gen_at(g, pos, node, 1, 0, 0, WALK_PASS);
}

static void gen_left_w(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 1, 0, 1, WALK_PASS);
}

static void gen_right(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 0, 0, 0, WALK_PASS);
}

static void gen_right_w(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 0, 0, 1, WALK_PASS);
}

static void gen_left_p(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 1, 1, 0, WALK_PASS);
}

static void gen_left_pw(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 1, 1, 1, WALK_PASS);
}

static void gen_right_p(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 0, 1, 0, WALK_PASS);
}

static void gen_right_pw(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 0, 1, 1, WALK_PASS);
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

/* Letters that may go on (r, c) given the tiles before and after it along (dr, dc). */
uint64_t cross_set(const Gen *g, const uint8_t *cells, int r, int c, int dr, int dc, int32_t *score)
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
            uint32_t t = ARC_TILE(a);
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
                if (ok && (b & ACC_BIT)) /* ARC_TILE has 6 bits: t is a letter */
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
            uint32_t t = ARC_TILE(a);
            if (t && (a & ACC_BIT))
                out |= (uint64_t)1 << t;
            if (a & END_BIT)
                break;
        }
    }
    return out;
}

void prepare(Gen *g, const uint8_t *cells, const uint8_t *lmult, const uint8_t *wmult, int start_r, int start_c)
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
void anchor_bounds(Gen *g, uint64_t have, int *any)
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
        GEN_LEFT(1, g->nk > (1u << 22), g, g->turn, root, 0, 1, 0, 0, g->full_leave, have);
    }
    free(list);
    free(wbs);
    free(ths);
    free(tns);
}

/* Per-call data of the bounds: the rack's values, the best leave of each size. */
int prune_setup(Gen *g, const uint8_t *full, uint32_t nleaves)
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

void run(Gen *g)
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
                GEN_LEFT(0, g->nk > (1u << 22), g, g->turn, root, 0, 1, 0, 0, g->full_leave, have);
                prev = pos;
            }
        }
    }
}

/* The sort key of a move: equity descending as an unsigned integer (its bits, turned
 * so that integer order is the order of the doubles; -0.0 as 0.0), score descending,
 * and the move's index, for move_cmp on ties. */
typedef struct {
    uint64_t eq;
    int32_t score;
    uint32_t i;
} SortKey;

static inline int key_before(const SortKey *a, const SortKey *b, const Move *moves)
{
    if (a->eq != b->eq)
        return a->eq < b->eq;
    if (a->score != b->score)
        return a->score > b->score;
    return move_cmp(&moves[a->i], &moves[b->i]) < 0;
}

/* Sort keys[0..n) by key_before: insertion sort of runs of 16, then merges through tmp
 * (a sort by an inlined comparison of 16-byte keys, where qsort calls move_cmp through a
 * pointer and moves 56-byte records). The result in keys. */
static void sort_keys(SortKey *keys, SortKey *tmp, size_t n, const Move *moves)
{
    enum { RUN = 16 };
    for (size_t lo = 0; lo < n; lo += RUN) {
        size_t hi = lo + RUN < n ? lo + RUN : n;
        for (size_t i = lo + 1; i < hi; i++) {
            SortKey x = keys[i];
            size_t j = i;
            for (; j > lo && key_before(&x, &keys[j - 1], moves); j--)
                keys[j] = keys[j - 1];
            keys[j] = x;
        }
    }
    SortKey *src = keys, *dst = tmp;
    for (size_t w = RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                dst[o++] = key_before(&src[b], &src[a], moves) ? src[b++] : src[a++];
            while (a < mid)
                dst[o++] = src[a++];
            while (b < hi)
                dst[o++] = src[b++];
        }
        SortKey *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys)
        memcpy(keys, src, n * sizeof(SortKey));
}

/* Sort the moves by keys into a new array (g->moves replaced): 0, or -1 when out of
 * memory or an equity is NaN (which orders nothing: then left to qsort, as before). */
static int sort_by_keys(Gen *g)
{
    size_t n = g->nmoves;
    SortKey *keys = (SortKey *)malloc(2 * n * sizeof(SortKey));
    Move *out = (Move *)malloc(n * sizeof(Move));
    if (!keys || !out) {
        free(keys);
        free(out);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        double e = g->moves[i].equity + 0.0; /* -0.0 + 0.0 is 0.0 */
        if (e != e) {
            free(keys);
            free(out);
            return -1;
        }
        uint64_t u;
        memcpy(&u, &e, sizeof u);
        u = (u >> 63) ? ~u : u | ((uint64_t)1 << 63); /* ascending with e */
        keys[i].eq = ~u;                               /* descending */
        keys[i].score = g->moves[i].score;
        keys[i].i = (uint32_t)i;
    }
    sort_keys(keys, keys + n, n, g->moves);
    for (size_t i = 0; i < n; i++)
        out[i] = g->moves[keys[i].i];
    free(keys);
    free(g->moves);
    g->moves = out;
    g->cap = n;
    return 0;
}

/* Sort g->moves, best first. Without a leave table, equity is the score: a counting
 * sort on it (moving the records, so that they are read in order afterwards) leaves
 * only runs of equal scores to sort; with one, a sort of keys (sort_by_keys; a plain
 * sort when memory is short). */
void sort_moves(Gen *g)
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
        if (n <= 8 || n > UINT32_MAX || sort_by_keys(g) < 0)
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


/* Push the state of square (r, c) in g's arrays on the undo stack. */
static inline void square_save(const Gen *g, SquareUndo *undo, size_t *nundo, int r, int c)
{
    int ia = r * MAXN + c, id = c * MAXN + r;
    SquareUndo *u = &undo[(*nundo)++];
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
 * of m added: bring the arrays up to date (keeping what they held on the undo stack
 * undo[*nundo...] when undo is given: the endgame's eg_unmake goes back). Only the squares of the new tiles and the
 * empty squares met first from a new tile in each direction (over the tiles in
 * between) change: those become anchors, and their cross words changed. */
void gen_make(Gen *g, const uint8_t *cells, const Move *m, SquareUndo *undo, size_t *nundo, uint32_t *touched)
{
    int n = g->n;
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int j = 0; j < m->len; j++) {
        uint8_t t = m->tiles[j];
        if (!t)
            continue;
        int r = m->down ? m->row + j : m->row, c = m->down ? m->col : m->col + j;
        int ia = r * MAXN + c, id = c * MAXN + r;
        if (undo)
            square_save(g, undo, nundo, r, c);
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
            if (undo)
                square_save(g, undo, nundo, r, c);
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

