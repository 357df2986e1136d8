/*
 * lexiko._kernel, bindings_movegen.c: the binding of move generation: generate(), the
 * kernel's lexiko.movegen, with the exchanges and the pass it lists besides the
 * placements (its result is a MoveList, bindings_movelist.c).
 */
#include "bindings.h"

#include "leaves.h"
#include "movegen.h"
#include "wordmap.h"

/* -- the board's arrays, kept between calls -------------------------------------------
 *
 * prepare() works out every square's cross-checks and anchors: on a mid-game board most
 * of a best-move call's time. A program asks about the same board again and again (each
 * rack of a simulation, a bot's turn after an analysis, a script's loop), so the arrays
 * of the last few boards are kept, by everything they depend on: the automaton (its
 * object, held so that its address is not reused), the board, its multipliers, the
 * letter values, the start square and Clabbers. */

#define BOARDS_KEPT 4

typedef struct {
    PyObject *kwg_obj;
    const void *kwg;
    Py_ssize_t kwg_len;
    int clabbers, n, start_r, start_c;
    const uint8_t *values;
    const void *cells, *lmult, *wmult; /* n * n bytes each */
} BoardKey;

typedef struct {
    PyObject *kwg_obj; /* a reference */
    const void *kwg;
    Py_ssize_t kwg_len;
    int clabbers, n, start_r, start_c, empty;
    uint8_t values[128];
    uint8_t cells[MAXN * MAXN], lmult[MAXN * MAXN], wmult[MAXN * MAXN];
    uint8_t cell[2][MAXN * MAXN], anchor[2][MAXN * MAXN], lm[2][MAXN * MAXN], wm[2][MAXN * MAXN];
    uint64_t xcheck[2][MAXN * MAXN];
    int32_t xscore[2][MAXN * MAXN];
} KeptBoard;

static KeptBoard *boards_kept[BOARDS_KEPT];
static int boards_next;

/* The same but for the tiles: -1 no; else how many tiles the key's board has that b's
 * lacks (b's tiles all there), most BOARD_STEP_MAX; 0 the same board. */
#define BOARD_STEP_MAX 16
static int board_matches(const KeptBoard *b, const BoardKey *k)
{
    size_t sq = (size_t)k->n * (size_t)k->n;
    if (!(b && b->kwg_obj == k->kwg_obj && b->kwg == k->kwg && b->kwg_len == k->kwg_len &&
          b->clabbers == k->clabbers && b->n == k->n && b->start_r == k->start_r && b->start_c == k->start_c &&
          !memcmp(b->values, k->values, 128) && !memcmp(b->lmult, k->lmult, sq) && !memcmp(b->wmult, k->wmult, sq)))
        return -1;
    if (!memcmp(b->cells, k->cells, sq))
        return 0;
    if (b->empty || b->clabbers)
        return -1; /* an opening's start square, Clabbers' cross-checks: prepared afresh */
    const uint8_t *cells = (const uint8_t *)k->cells;
    int added = 0;
    for (size_t i = 0; i < sq; i++) {
        if (b->cells[i] == cells[i])
            continue;
        if (b->cells[i] || ++added > BOARD_STEP_MAX)
            return -1;
    }
    return added;
}

/* Copy b's board arrays into g's: the lines of a board of side n only (every square is
 * line * MAXN + pos with line and pos below n; the rest of an array is never read), less
 * than half of the arrays on a 15-square board. */
static void board_copy(Gen *g, const KeptBoard *b, int n)
{
    size_t sq = (size_t)n * MAXN;
    for (int d = 0; d < 2; d++) {
        memcpy(g->cell[d], b->cell[d], sq);
        memcpy(g->anchor[d], b->anchor[d], sq);
        memcpy(g->lm[d], b->lm[d], sq);
        memcpy(g->wm[d], b->wm[d], sq);
        memcpy(g->xcheck[d], b->xcheck[d], sq * sizeof(uint64_t));
        memcpy(g->xscore[d], b->xscore[d], sq * sizeof(int32_t));
    }
}

/* Set g's board arrays from a kept board, as prepare() would: from the same board (1), or
 * from one the key's board adds a few tiles to (2: then brought up to date tile by tile,
 * as play-outs do after a move), or 0 when none is kept for this key (g untouched). With
 * the GIL held. */
static int board_kept(Gen *g, const BoardKey *k)
{
    int at = -1, fewest = BOARD_STEP_MAX + 1;
    for (int i = 0; i < BOARDS_KEPT && fewest; i++) {
        int d = board_matches(boards_kept[i], k);
        if (d >= 0 && d < fewest) {
            fewest = d;
            at = i;
        }
    }
    if (at >= 0) {
        const KeptBoard *b = boards_kept[at];
        board_copy(g, b, k->n);
        /* what prepare() sets besides */
        g->min_tiles = b->empty ? g->min_tiles : 1;
        g->empty_board = b->empty;
        if (!b->empty)
            g->dirs = 2;
        if (!fewest)
            return 1;
        const uint8_t *cells = (const uint8_t *)k->cells;
        for (int i = 0; i < k->n * k->n; i++) {
            if (b->cells[i] == cells[i])
                continue;
            Move m; /* the tile as a one-tile move: gen_make reads cells for the rest */
            memset(&m, 0, sizeof m);
            m.row = (uint8_t)(i / k->n);
            m.col = (uint8_t)(i % k->n);
            m.len = 1;
            m.tiles[0] = cells[i];
            gen_make(g, cells, &m, NULL, NULL, NULL);
            int ia = m.row * MAXN + m.col, id = m.col * MAXN + m.row; /* a tile's square, as prepare() leaves it */
            g->xcheck[0][ia] = g->xcheck[1][id] = ALL_LETTERS;
            g->xscore[0][ia] = g->xscore[1][id] = -1;
        }
        return 2;
    }
    return 0;
}

PyObject *k_forget_boards(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    for (int i = 0; i < BOARDS_KEPT; i++) {
        if (boards_kept[i])
            Py_CLEAR(boards_kept[i]->kwg_obj);
        free(boards_kept[i]);
        boards_kept[i] = NULL;
    }
    boards_next = 0;
    Py_RETURN_NONE;
}

/* Keep g's board arrays (just prepared) for the key, in place of the oldest kept. With
 * the GIL held; nothing when out of memory. */
static void board_keep(const Gen *g, const BoardKey *k)
{
    KeptBoard *b = boards_kept[boards_next];
    if (!b && !(b = (KeptBoard *)calloc(1, sizeof(KeptBoard))))
        return;
    boards_kept[boards_next] = b;
    boards_next = (boards_next + 1) % BOARDS_KEPT;
    size_t sq = (size_t)k->n * (size_t)k->n;
    Py_XINCREF(k->kwg_obj);
    Py_XSETREF(b->kwg_obj, k->kwg_obj);
    b->kwg = k->kwg;
    b->kwg_len = k->kwg_len;
    b->clabbers = k->clabbers;
    b->n = k->n;
    b->start_r = k->start_r;
    b->start_c = k->start_c;
    b->empty = g->empty_board;
    memcpy(b->values, k->values, 128);
    memcpy(b->cells, k->cells, sq);
    memcpy(b->lmult, k->lmult, sq);
    memcpy(b->wmult, k->wmult, sq);
    memcpy(b->cell, g->cell, sizeof g->cell);
    memcpy(b->anchor, g->anchor, sizeof g->anchor);
    memcpy(b->lm, g->lm, sizeof g->lm);
    memcpy(b->wm, g->wm, sizeof g->wm);
    memcpy(b->xcheck, g->xcheck, sizeof g->xcheck);
    memcpy(b->xscore, g->xscore, sizeof g->xscore);
}

/* Set g's board arrays (kept, or prepared and kept) and search. */
static void search(Gen *g, const BoardKey *k)
{
    int kept = board_kept(g, k);
    if (!kept) /* prepare() writes the board's lines only: the rest reads as none */
        memset((char *)g + offsetof(Gen, cell), 0, offsetof(Gen, values) - offsetof(Gen, cell));
    Py_BEGIN_ALLOW_THREADS
    if (!kept)
        prepare(g, (const uint8_t *)k->cells, (const uint8_t *)k->lmult, (const uint8_t *)k->wmult, k->start_r,
                k->start_c);
    run(g);
    Py_END_ALLOW_THREADS
    if (kept != 1)
        board_keep(g, k);
}

/* Whether the board's cells are all empty. */
static int board_empty(const Py_buffer *cells)
{
    const uint8_t *c = (const uint8_t *)cells->buf;
    for (Py_ssize_t i = 0; i < cells->len; i++)
        if (c[i])
            return 0;
    return 1;
}

/* The search g->mode takes (not Clabbers'): best mode prunes, by the word map when the
 * rack fits it; every play of an opening comes from the word map too when the rack fits
 * (the words of the rack's sub-racks, each placed at every first square of a span
 * through the start square: run_wmp without a floor), rather than from the walk (which
 * reaches the same words letter by letter); else the walk. */
static void search_setup(Gen *g, const uint8_t *full, uint32_t nleaves, const Py_buffer *cells)
{
    if (g->mode == MODE_BEST) {
        g->no_maxsub = g->wmp && wmp_fits(full);
        g->prune = prune_setup(g, full, nleaves);
        if (g->prune && g->no_maxsub)
            g->use_wmp = wmp_setup(g, full);
    } else if (g->mode == MODE_ALL && g->wmp && !g->has_ext && board_empty(cells) && wmp_fits(full)) {
        g->no_maxsub = 1;
        g->prune = prune_setup(g, full, nleaves);
        if (g->prune)
            g->use_wmp = wmp_setup(g, full);
        g->prune = g->use_wmp;
    }
}

/* -- the other moves: exchanges and the pass ---------------------------------------- */

static int push_move(Gen *g, const Move *m)
{
    if (g->nmoves == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        Move *nm = (Move *)realloc(g->moves, cap * sizeof(Move));
        if (!nm)
            return -1;
        g->moves = nm;
        g->cap = cap;
    }
    g->moves[g->nmoves++] = *m;
    return 0;
}

/* Best mode: an equity at least best_n exchanges or passes reach (NaN: none known), so
 * that the search may leave out placements below it (at equal equity placements rank
 * first). Only with leave values: without, every such move is worth 0. */
static double others_floor(const Gen *g, int others, uint32_t nleaves)
{
    const double *t = g->leave_values;
    if (!t || others < -1)
        return NAN;
    if (others >= g->rack_left) { /* every exchange is open */
        if (g->best_n > nleaves)
            return NAN;
        if (g->best_n == 1) {
            double top = t[0];
            for (uint32_t i = 1; i < nleaves; i++)
                if (t[i] > top)
                    top = t[i];
            return top;
        }
        double *v = (double *)malloc(nleaves * sizeof(double));
        if (!v)
            return NAN;
        memcpy(v, t, nleaves * sizeof(double));
        /* the best_n-th highest: a partial selection, best_n passes at most */
        for (size_t k = 0; k < g->best_n; k++) {
            size_t at = k;
            for (size_t i = k + 1; i < nleaves; i++)
                if (v[i] > v[at])
                    at = i;
            double x = v[k];
            v[k] = v[at];
            v[at] = x;
        }
        double r = v[g->best_n - 1];
        free(v);
        return r;
    }
    return g->best_n == 1 ? t[g->full_leave] : NAN;
}

/* Add the exchanges (others >= 0: those of at most others tiles) and the pass (others
 * >= -1) of equity at least floor (when has_floor): 0, or -1 out of memory. An exchange
 * is kept by the sub-rack it keeps, its tiles those put back, letters by code then
 * blanks (as lexiko.movegen lists them). */
static int add_others(Gen *g, const uint8_t *full, int others, int has_floor, double floor)
{
    const double *t = g->leave_values;
    for (uint32_t i = 0; i <= g->full_leave; i++) {
        int pass = i == g->full_leave;
        if (!pass && others < 0)
            continue;
        double eq = t ? 0.0 + t[i] : 0.0;
        if (has_floor && eq < floor)
            continue;
        Move m;
        memset(&m, 0, sizeof m);
        m.equity = eq;
        m.leave = i;
        if (pass) {
            m.row = ML_PASS;
        } else {
            int n = 0;
            for (int j = 1; j <= 64; j++) {
                int c = j & 63; /* 1..63, then 0: blanks last */
                if (!full[c])
                    continue;
                int k = full[c] - (int)((i / g->radix[c]) % (uint32_t)(full[c] + 1));
                while (k-- > 0 && n < MAXN)
                    m.tiles[n++] = (uint8_t)c;
            }
            if (n > others)
                continue;
            m.row = ML_EXCHANGE;
            m.len = (uint8_t)n;
        }
        if (push_move(g, &m) < 0)
            return -1;
    }
    return 0;
}

/* The search's placements and the other moves, best first (best mode: the best best_n
 * of them all), as lexiko.movegen.generate lists them: 0, or -1 out of memory. */
static int finish_moves(Gen *g, const uint8_t *full, int others)
{
    if (g->mode == MODE_ALL && others >= -1) /* sorted once, with the others */
        return add_others(g, full, others, 0, 0.0) < 0 ? -1 : (sort_moves(g), 0);
    sort_moves(g);
    if (others < -1)
        return 0;
    /* the equity a move needs to make the list */
    int has_floor = 0;
    double floor = 0.0;
    if (g->nmoves >= g->best_n) {
        has_floor = 1;
        floor = g->moves[g->best_n - 1].equity;
    } else if (g->has_ext) {
        has_floor = 1;
        floor = g->ext_floor;
    }
    size_t before = g->nmoves;
    if (add_others(g, full, others, has_floor, floor) < 0)
        return -1;
    if (g->nmoves > before)
        sort_moves(g);
    if (g->nmoves > g->best_n)
        g->nmoves = g->best_n;
    return 0;
}

/* generate()'s lexicon indexes (depths, anagrams, word map: None or a buffer) into g,
 * the buffers got flagged for release: 0, or -1 with a Python error set. */
static int generate_indexes(Gen *g, PyObject *depth_obj, Py_buffer *depths, int *have_depths, PyObject *ana_obj,
                            Py_buffer *anas, int *have_anas, PyObject *wmp_obj, Py_buffer *wmps, int *have_wmp)
{
    if (depth_obj != Py_None) {
        if (PyObject_GetBuffer(depth_obj, depths, PyBUF_SIMPLE) < 0)
            return -1;
        *have_depths = 1;
        if ((size_t)depths->len != (size_t)g->nk) {
            PyErr_SetString(PyExc_ValueError, "depths needs one byte per arc");
            return -1;
        }
        g->depth = (const uint8_t *)depths->buf;
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
        g->alphabet = ab[0] & ~(uint64_t)1;
        g->ana = ab + 1;
        g->ana_mask = slots - 2;
    }
    if (wmp_obj != Py_None) {
        if (PyObject_GetBuffer(wmp_obj, wmps, PyBUF_SIMPLE) < 0)
            return -1;
        *have_wmp = 1;
        if (!(g->wmp = wmp_of(wmps)))
            return -1;
    }
    return 0;
}

/* generate()'s leave values into g->leave_values: a buffer of doubles by sub-rack
 * (leave_obj), else read from a packed leave table (map_obj) into *vals (the caller
 * frees it), else none. The buffers got are flagged for release. 0, or -1 with a Python
 * error set. */
static int generate_leaves(Gen *g, const uint8_t *full, uint64_t nleaves, PyObject *leave_obj, Py_buffer *leaves,
                           int *have_leaves, PyObject *map_obj, Py_buffer *map, int *have_map, double **vals)
{
    if (leave_obj != Py_None) {
        if (PyObject_GetBuffer(leave_obj, leaves, PyBUF_SIMPLE) < 0)
            return -1;
        *have_leaves = 1;
        if ((size_t)leaves->len != nleaves * sizeof(double)) {
            PyErr_SetString(PyExc_ValueError, "leave_values needs one double per sub-rack");
            return -1;
        }
        g->leave_values = (const double *)leaves->buf;
    } else if (map_obj != Py_None) {
        if (PyObject_GetBuffer(map_obj, map, PyBUF_SIMPLE) < 0)
            return -1;
        *have_map = 1;
        const LeaveMapHead *h = leave_map_of(map);
        if (!h)
            return -1;
        *vals = (double *)malloc(nleaves * sizeof(double));
        if (!*vals) {
            PyErr_NoMemory();
            return -1;
        }
        leave_map_fill(h, full, *vals, nleaves);
        g->leave_values = *vals;
    }
    return 0;
}

/* generate()'s bonuses (None, or int32s by number of tiles) into g->bonus: 0, or -1 with
 * a Python error set. */
static int generate_bonuses(Gen *g, PyObject *bonus_obj)
{
    if (bonus_obj != Py_None) {
        Py_buffer bb;
        if (PyObject_GetBuffer(bonus_obj, &bb, PyBUF_SIMPLE) < 0)
            return -1;
        Py_ssize_t nb = bb.len / (Py_ssize_t)sizeof(int32_t);
        if (bb.len % (Py_ssize_t)sizeof(int32_t) || nb < 1) {
            PyBuffer_Release(&bb);
            PyErr_SetString(PyExc_ValueError, "bonuses needs one int32 per number of tiles");
            return -1;
        }
        const int32_t *b = (const int32_t *)bb.buf;
        for (int k = 0; k <= MAXN; k++)
            g->bonus[k] = b[k < nb ? k : nb - 1];
        PyBuffer_Release(&bb);
    }
    return 0;
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
PyObject *k_generate(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer kwg, cells, lmult, wmult, values, rack, leaves;
    int size, bingo_tiles, bingo_bonus, first_min, start_r, start_c, first_dirs, mode;
    Py_ssize_t best_n;
    PyObject *leave_obj, *depth_obj, *ana_obj, *bonus_obj = Py_None, *wmp_obj = Py_None;
    int others = -2;
    PyObject *map_obj = Py_None;
    Py_buffer map;
    int have_map = 0;
    double *map_vals = NULL;
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
    if (!PyArg_ParseTuple(args, "y*y*iy*y*y*y*iiiiiiinOOOd|OOiO:generate", &kwg, &cells, &size, &lmult, &wmult,
                          &values, &rack, &bingo_tiles, &bingo_bonus, &first_min, &start_r, &start_c, &first_dirs,
                          &mode, &best_n, &leave_obj, &depth_obj, &ana_obj, &floor, &bonus_obj, &wmp_obj, &others,
                          &map_obj))
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
    if (mode < MODE_COUNT || mode > MODE_BEST || best_n < 0 || others < -2) {
        PyErr_SetString(PyExc_ValueError, "bad mode");
        goto out;
    }
    /* zeroed but for the board's arrays (a good part of it), which search() sets whole */
    g = (Gen *)malloc(sizeof(Gen));
    if (!g) {
        PyErr_NoMemory();
        goto out;
    }
    memset(g, 0, offsetof(Gen, cell));
    memset((char *)g + offsetof(Gen, values), 0, SCRATCH_START - offsetof(Gen, values));
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
    if (generate_leaves(g, full, nleaves, leave_obj, &leaves, &have_leaves, map_obj, &map, &have_map, &map_vals) < 0)
        goto out;
    if (generate_indexes(g, depth_obj, &depths, &have_depths, ana_obj, &anas, &have_anas, wmp_obj, &wmps, &have_wmp) <
        0)
        goto out;
    g->best_n = (size_t)best_n;
    if (floor != floor && mode == MODE_BEST && best_n > 0)
        floor = others_floor(g, others, (uint32_t)nleaves);
    g->has_ext = floor == floor;
    g->ext_floor = floor;
    g->bingo_tiles = bingo_tiles;
    for (int k = 0; k <= MAXN; k++)
        g->bonus[k] = k >= bingo_tiles ? bingo_bonus : 0;
    if (generate_bonuses(g, bonus_obj) < 0)
        goto out;
    g->min_tiles = first_min;
    g->dirs = first_dirs == 1 ? 1 : 2;
    g->mode = mode;
    g->best_n = (size_t)best_n;
    if (mode == MODE_BEST && best_n == 0) {
        result = movelist_new(g, full, (uint32_t)nleaves);
        goto out;
    }
    g->clabbers = clabbers;
    if (!clabbers)
        search_setup(g, full, (uint32_t)nleaves, &cells);
    BoardKey key = {kwg.obj, kwg.buf, kwg.len, clabbers, size, start_r, start_c, g->values, cells.buf, lmult.buf,
                    wmult.buf};
    search(g, &key);
    if (!g->oom && mode != MODE_COUNT) {
        int oom;
        Py_BEGIN_ALLOW_THREADS
        oom = finish_moves(g, full, others);
        Py_END_ALLOW_THREADS
        g->oom |= oom < 0;
    }
    if (g->oom) {
        PyErr_NoMemory();
        goto out;
    }
    if (mode == MODE_COUNT)
        result = PyLong_FromLongLong(g->count);
    else
        result = movelist_new(g, full, (uint32_t)nleaves);
out:
    if (g) {
        gen_free(g);
        free(g);
    }
    free(map_vals);
    if (have_map)
        PyBuffer_Release(&map);
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

