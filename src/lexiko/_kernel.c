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
 * Each play is so generated once per direction; a one-tile play that forms a word in
 * both directions is kept only across (lexiko.move.Place.normalized).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 32 /* largest board side handled */
#define CHILD_MASK 0x3FFFFFu
#define END_BIT (1u << 22)
#define ACC_BIT (1u << 23)
#define BLANK_FLAG 0x40
#define LETTER_MASK 0x3F
#define ALL_LETTERS (~(uint64_t)1) /* letter codes 1..63 */
#define MAX_LEAVES (1u << 24)

enum { MODE_COUNT = 0, MODE_ALL = 1, MODE_BEST = 2 };

typedef struct {
    double equity;
    int32_t score;
    uint32_t leave; /* mixed-radix index of the tiles kept */
    uint8_t row, col, down, len;
    uint8_t tiles[MAXN]; /* codes of the main word, 0 where played through */
} Move;

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
    int bingo_tiles, bingo_bonus, min_tiles, dirs;
    const double *leave_values;
    /* walk state */
    int dir, line, anchor_pos, left_limit, start, anchor_right_ok, single_skip;
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
} Gen;

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

static void record(Gen *g, int start, int end, int score)
{
    if (g->placed >= g->bingo_tiles)
        score += g->bingo_bonus;
    if (g->mode == MODE_COUNT) {
        g->count++;
        return;
    }
    double eq = g->leave_values ? (double)score + g->leave_values[g->leave] : (double)score;
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
    if (g->mode == MODE_BEST)
        heap_up(g->moves, g->nmoves - 1);
}

/* -- the GADDAG walk ------------------------------------------------------------- */

/*
 * The score so far travels in the arguments: main (points of the main word's tiles,
 * letter premiums applied), mult (word multiplier), cross (points of the cross words
 * of the tiles placed), placed (tiles placed), leave (index of the tiles kept) and
 * have (bit t set while the rack holds letter t).
 */
#define WALK_ARGS int main, int mult, int cross, int placed, uint32_t leave, uint64_t have
#define WALK_PASS main, mult, cross, placed, leave, have

static void gen_left(Gen *g, int pos, uint32_t node, WALK_ARGS);
static void gen_right(Gen *g, int pos, uint32_t node, WALK_ARGS);

static inline void store(Gen *g, int start, int end, int main, int mult, int cross, int placed, uint32_t leave)
{
    if (placed < g->min_tiles || (placed == 1 && g->single_skip))
        return;
    g->placed = placed;
    g->leave = leave;
    record(g, start, end, main * mult + cross);
}

/* After the tile at pos, read through arc a going left: record, go on left, turn right. */
static inline __attribute__((always_inline)) void after_left(Gen *g, int pos, uint32_t a, WALK_ARGS)
{
    uint32_t child = a & CHILD_MASK;
    int left_empty = pos == 0 || !g->lc[pos - 1];
    if ((a & ACC_BIT) && left_empty && g->anchor_right_ok)
        store(g, pos, g->anchor_pos, main, mult, cross, placed, leave);
    if (!child || child >= g->nk)
        return;
    if (pos - 1 > g->left_limit)
        gen_left(g, pos - 1, child, WALK_PASS);
    if (left_empty && g->anchor_pos + 1 < g->n) {
        uint32_t s = g->kwg[child];
        if ((s >> 24) == 0) {
            uint32_t sc = s & CHILD_MASK;
            if (sc && sc < g->nk) {
                g->start = pos;
                gen_right(g, g->anchor_pos + 1, sc, WALK_PASS);
            }
        }
    }
}

/* After the tile at pos, read through arc a going right: record, go on right. */
static inline __attribute__((always_inline)) void after_right(Gen *g, int pos, uint32_t a, WALK_ARGS)
{
    uint32_t child = a & CHILD_MASK;
    int right_empty = pos == g->n - 1 || !g->lc[pos + 1];
    if ((a & ACC_BIT) && right_empty)
        store(g, g->start, pos, main, mult, cross, placed, leave);
    if (child && child < g->nk && pos + 1 < g->n)
        gen_right(g, pos + 1, child, WALK_PASS);
}

/* The tile at pos from node: the one on the board, or each one the rack allows. */
static inline __attribute__((always_inline)) void gen_at(Gen *g, int pos, uint32_t node, int left, WALK_ARGS)
{
    const uint32_t *kwg = g->kwg;
    uint32_t nk = g->nk;
    uint8_t c = g->lc[pos];
    if (g->oom)
        return;
    if (c) {
        uint32_t want = c & LETTER_MASK;
        for (uint32_t i = node; i < nk; i++) {
            uint32_t a = kwg[i];
            uint32_t t = a >> 24;
            if (t == want) {
                int v = g->values[c];
                g->word[pos] = 0;
                if (left)
                    after_left(g, pos, a, main + v, mult, cross, placed, leave, have);
                else
                    after_right(g, pos, a, main + v, mult, cross, placed, leave, have);
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
                if (left)
                    after_left(g, pos, a, main + v, mult * wm, x, placed + 1, leave - g->radix[t], h);
                else
                    after_right(g, pos, a, main + v, mult * wm, x, placed + 1, leave - g->radix[t], h);
                g->rack[t]++;
            }
            if (blanks) {
                int x = xs >= 0 ? cross + xs * wm : cross;
                g->rack[0]--;
                g->word[pos] = (uint8_t)(t | BLANK_FLAG);
                if (left)
                    after_left(g, pos, a, main, mult * wm, x, placed + 1, leave - g->radix[0], have);
                else
                    after_right(g, pos, a, main, mult * wm, x, placed + 1, leave - g->radix[0], have);
                g->rack[0]++;
            }
        }
        if (a & END_BIT)
            break;
    }
}

static void gen_left(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 1, WALK_PASS);
}

static void gen_right(Gen *g, int pos, uint32_t node, WALK_ARGS)
{
    gen_at(g, pos, node, 0, WALK_PASS);
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
            g->xcheck[0][ia] = cross_set(g, cells, r, c, 1, 0, &g->xscore[0][ia]);
            g->xcheck[1][id] = cross_set(g, cells, r, c, 0, 1, &g->xscore[1][id]);
        }
    }
    if (empty && start_r >= 0 && start_r < n && start_c >= 0 && start_c < n) {
        g->anchor[0][start_r * MAXN + start_c] = 1;
        g->anchor[1][start_c * MAXN + start_r] = 1;
    }
    g->min_tiles = empty ? g->min_tiles : 1;
    if (!empty)
        g->dirs = 2;
}

static void run(Gen *g)
{
    int n = g->n;
    uint32_t root = g->nk > 1 ? child_of(g, g->kwg[1]) : 0;
    uint64_t have = 0;
    for (int t = 1; t < 64; t++)
        if (g->rack[t])
            have |= (uint64_t)1 << t;
    if (!root || !g->rack_left)
        return;
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
                g->anchor_pos = pos;
                g->left_limit = prev;
                g->anchor_right_ok = pos == n - 1 || !g->lc[pos + 1];
                g->single_skip = dir == 1 && g->lxs[pos] >= 0;
                g->start = pos;
                gen_left(g, pos, root, 0, 1, 0, 0, g->full_leave, have);
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
 *          leave_values)
 *
 * kwg: buffer of uint32 arcs; cells, letter_mult, word_mult: size*size bytes; values:
 * 128 bytes (points of each board code); rack: 64 bytes of counts (index 0 blanks);
 * first_min: tiles a first play needs; first_dirs: 1 to list only across plays on an
 * empty board (when down plays are their mirror images), else 2; mode 0 count (returns int), 1 every placement,
 * 2 the best best_n (lists of Candidate, best first); leave_values: None or a buffer of
 * doubles indexed by the mixed-radix leave index (radix of code c: product of
 * count[d] + 1 over the codes d < c present on the rack).
 */
static PyObject *k_generate(PyObject *self, PyObject *args)
{
    Py_buffer kwg, cells, lmult, wmult, values, rack, leaves;
    int size, bingo_tiles, bingo_bonus, first_min, start_r, start_c, first_dirs, mode;
    Py_ssize_t best_n;
    PyObject *leave_obj;
    PyObject *result = NULL;
    Gen *g = NULL;
    int have_leaves = 0;
    memset(&leaves, 0, sizeof leaves);
    if (!PyArg_ParseTuple(args, "y*y*iy*y*y*y*iiiiiiinO:generate", &kwg, &cells, &size, &lmult, &wmult, &values,
                          &rack, &bingo_tiles, &bingo_bonus, &first_min, &start_r, &start_c, &first_dirs, &mode,
                          &best_n,
                          &leave_obj))
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
    g->bingo_tiles = bingo_tiles;
    g->bingo_bonus = bingo_bonus;
    g->min_tiles = first_min;
    g->dirs = first_dirs == 1 ? 1 : 2;
    g->mode = mode;
    g->best_n = (size_t)best_n;
    if (mode == MODE_BEST && best_n == 0) {
        result = PyList_New(0);
        goto out;
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
        free(g->moves);
        free(g);
    }
    if (have_leaves)
        PyBuffer_Release(&leaves);
    PyBuffer_Release(&kwg);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&lmult);
    PyBuffer_Release(&wmult);
    PyBuffer_Release(&values);
    PyBuffer_Release(&rack);
    return result;
}

static PyMethodDef methods[] = {
    {"setup", k_setup, METH_VARARGS, "setup(Place, Candidate): the classes generate() builds."},
    {"generate", k_generate, METH_VARARGS,
     "generate(kwg, cells, size, letter_mult, word_mult, values, rack, bingo_tiles, bingo_bonus,\n"
     "         first_min, start_row, start_col, first_dirs, mode, best_n, leave_values)\n\n"
     "Mode 0: number of placements; 1: every placement; 2: the best best_n (Candidates,\n"
     "best first). See lexiko.movegen."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "lexiko._kernel", "Compiled move generator of lexiko (see lexiko.movegen).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernel(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddIntConstant(m, "MAX_SIZE", MAXN) < 0 || PyModule_AddIntConstant(m, "ABI", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
