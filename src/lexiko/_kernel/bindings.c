/*
 * lexiko._kernel, bindings.c: the Python module lexiko._kernel: its method table and
 * PyInit, the helpers the bindings share (bindings.h), and the bindings of the
 * lexicon's automaton and indexes: build_kwg(), depths(), anagrams(), wordmap(). The other functions' bindings are
 * in bindings_movegen.c, bindings_leaves.c, bindings_playout.c, bindings_endgame.c and
 * bindings_rl.c.
 */
#include "bindings.h"

#include "anagram.h"
#include "depths.h"
#include "kwg_build.h"
#include "leaves.h"
#include "wordmap.h"

/* build_kwg(words, dawg_only) -> bytes: the automaton of the words (letter codes 1..63,
 * each word followed by a 0 byte) as native uint32 arcs, as lexiko.kwg.build_kwg (or,
 * with dawg_only, build_dawg) builds it. ValueError for a code above 63 or a last word
 * without its 0 byte, OverflowError past the format's 2**24 arcs (the message gives the
 * count needed). The GIL is held: the sort's comparators share the words' buffer. */
PyObject *k_build_kwg(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer words;
    int dawg_only;
    if (!PyArg_ParseTuple(args, "y*p:build_kwg", &words, &dawg_only))
        return NULL;
    uint32_t *arcs = NULL;
    size_t n = 0;
    PyObject *result = NULL;
    int err = kwg_build((const uint8_t *)words.buf, (size_t)words.len, dawg_only, &arcs, &n);
    if (err == 0)
        result = PyBytes_FromStringAndSize((const char *)arcs, (Py_ssize_t)(n * sizeof *arcs));
    else if (err == -1)
        PyErr_NoMemory();
    else if (err == -2)
        PyErr_Format(PyExc_OverflowError, "%zu", n);
    else if (n < (size_t)words.len)
        PyErr_Format(PyExc_ValueError, "letter codes are 1..63, not %d (at byte %zu)",
                     ((const uint8_t *)words.buf)[n], n);
    else
        PyErr_SetString(PyExc_ValueError, "the last word does not end with a 0 byte");
    free(arcs);
    PyBuffer_Release(&words);
    return result;
}

/* depths(kwg) -> bytes: for every arc index i, in the low 4 bits the most letters on a
 * path from the arcs of index i onwards (to the end of their node) to a word's end, in
 * the high 4 bits the most letters such a path has before the separator; 0 when no word
 * ends below, DEPTH_MAX (15) for 15 or more. One byte an arc keeps the array small enough
 * to stay in cache. generate() takes it to stop branches that cannot place enough tiles. */
PyObject *k_depths(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer kwg;
    if (!PyArg_ParseTuple(args, "y*:depths", &kwg))
        return NULL;
    PyObject *result = NULL;
    if (kwg.len % 4 || kwg.len / 4 > 0xFFFFFFFFLL) {
        PyErr_SetString(PyExc_ValueError, "bad kwg buffer");
        goto out;
    }
    uint32_t nk = (uint32_t)(kwg.len / 4);
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)nk);
    if (!result)
        goto out;
    const uint32_t *arcs = (const uint32_t *)kwg.buf;
    uint8_t *outp = (uint8_t *)PyBytes_AS_STRING(result);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = depths_fill(arcs, nk, outp) < 0;
    Py_END_ALLOW_THREADS
    if (failed) {
        Py_CLEAR(result);
        PyErr_NoMemory();
    }
out:
    PyBuffer_Release(&kwg);
    return result;
}

/* anagrams(kwg) -> bytes: the letter multisets of the DAWG's words, for generate(): a
 * uint64 of the letters used, then an open-addressing hash set of uint64 keys (0: empty
 * slot), its size a power of two at least twice the number of words. */
PyObject *k_anagrams(PyObject *self, PyObject *args)
{
    (void)self;
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

/* wordmap(kwg) -> bytes: the word map of the kwg's DAWG (see "word map" in wordmap.h). */
PyObject *k_wordmap(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer kwg;
    if (!PyArg_ParseTuple(args, "y*:wordmap", &kwg))
        return NULL;
    PyObject *result = NULL;
    WmpBuild b;
    memset(&b, 0, sizeof b);
    if (kwg.len % 4 || kwg.len / 4 > 0xFFFFFFFFLL) {
        PyErr_SetString(PyExc_ValueError, "bad kwg buffer");
        goto out;
    }
    int err;
    Py_BEGIN_ALLOW_THREADS
    err = wmp_build_scan(&b, (const uint32_t *)kwg.buf, (uint32_t)(kwg.len / 4));
    Py_END_ALLOW_THREADS
    if (err) {
        if (err == -1)
            PyErr_NoMemory();
        else
            PyErr_SetString(PyExc_ValueError, "malformed kwg");
        goto out;
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)b.total);
    if (!result)
        goto out;
    char *buf = PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    err = wmp_build_write(&b, buf);
    Py_END_ALLOW_THREADS
    if (err) {
        Py_CLEAR(result);
        PyErr_SetString(PyExc_ValueError, "malformed kwg");
    }
out:
    wmp_build_free(&b);
    PyBuffer_Release(&kwg);
    return result;
}


/* 1 when every cell holds 0 or a tile code below 128 (values[] has 128 entries), else
 * 0 with a Python error set. */
int cells_valid(const Py_buffer *cells)
{
    const uint8_t *c = (const uint8_t *)cells->buf;
    uint64_t high = 0; /* the top bits of every byte, eight at a time (no branch a byte) */
    Py_ssize_t i = 0;
    for (; i + 8 <= cells->len; i += 8) {
        uint64_t w;
        memcpy(&w, c + i, 8);
        high |= w;
    }
    for (; i < cells->len; i++)
        high |= c[i];
    if (high & 0x8080808080808080ULL) {
        PyErr_SetString(PyExc_ValueError, "a board cell holds a code of 128 or more");
        return 0;
    }
    return 1;
}

/* The lexicon's buffers of a play-out (kwg, and what depths() and anagrams() return, or
 * None): 0, or -1 with a Python error set; the buffers got are flagged for release. */
int po_lexicon(PlayOut *po, const Py_buffer *kwg, PyObject *depth_obj, PyObject *ana_obj, Py_buffer *depths,
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
int po_wordmap(PlayOut *po, PyObject *obj, Py_buffer *buf, int *have)
{
    if (obj == Py_None)
        return 0;
    if (PyObject_GetBuffer(obj, buf, PyBUF_SIMPLE) < 0)
        return -1;
    *have = 1;
    po->wmp = wmp_of(buf);
    return po->wmp ? 0 : -1;
}

/* The rules tuple lexiko.bots.playout passes (_rules_args) read into po: 0, or -1 with a
 * Python error set. */
int po_rules(PlayOut *po, PyObject *rules)
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
int po_new(PlayOut **out, const Py_buffer *kwg, PyObject *depth_obj, PyObject *ana_obj, Py_buffer *depths,
           int *have_depths, Py_buffer *anas, int *have_anas, PyObject *wmp_obj, Py_buffer *wmps, int *have_wmp)
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

const WmpHead *wmp_of(const Py_buffer *b)
{
    const WmpHead *h = wmp_check(b->buf, (size_t)b->len);
    if (!h)
        PyErr_SetString(PyExc_ValueError, "wordmap needs what wordmap() returns");
    return h;
}

const LeaveMapHead *leave_map_of(const Py_buffer *b)
{
    const LeaveMapHead *h = leave_map_check(b->buf, (size_t)b->len);
    if (!h)
        PyErr_SetString(PyExc_ValueError, "not a packed leave map (lexiko.leaves.LeaveTable.packed)");
    return h;
}

void po_board_buffers(PlayOut *po, int size, const Py_buffer *cells, const Py_buffer *lmult, const Py_buffer *wmult,
                      const Py_buffer *values, int bingo_tiles, const Py_buffer *bonuses, int first_min, int start_r,
                      int start_c, int first_dirs)
{
    po_board(po, size, (const uint8_t *)cells->buf, (const uint8_t *)lmult->buf, (const uint8_t *)wmult->buf,
             (const uint8_t *)values->buf, bingo_tiles, (const int32_t *)bonuses->buf, (size_t)(bonuses->len / 4),
             first_min, start_r, start_c, first_dirs);
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
    {"rng_shuffle", k_rng_shuffle, METH_VARARGS,
     "rng_shuffle(seed, items) -> (shuffled, state): items shuffled by lexiko.rng.Rng(seed), for the tests."},
    {"static_games", k_static_games, METH_VARARGS,
     "static_games(...) -> list: whole games of the static player from their seeds (see lexiko.bots.playout)."},
    {"leave_map", k_leave_map, METH_VARARGS,
     "leave_map(keys, values, bits, offset, vowels, terms, balance) -> bytes: a packed leave table."},
    {"rack_leaves", k_rack_leaves, METH_VARARGS,
     "rack_leaves(racks, sums, counts, dist, size) -> (keys, weighted, weights, seen): leaves valued by racks."},
    {"leave_values", k_leave_values, METH_VARARGS,
     "leave_values(counts, map) -> bytes: the value of every sub-rack by a packed leave table, as doubles."},
    {"setup", k_setup, METH_VARARGS, "setup(Place, Candidate, Exchange, Pass): the classes generate() builds."},
    {"leave_table", k_leave_table, METH_VARARGS,
     "leave_table(counts, leaves) -> bytes: float(leaves(t)) of every sub-rack t, as doubles (for generate)."},
    {"wordmap", k_wordmap, METH_VARARGS,
     "wordmap(kwg) -> bytes: the words by letter multiset, and the letters a blank may complete (for generate)."},
    {"anagrams", k_anagrams, METH_VARARGS,
     "anagrams(kwg) -> bytes: a hash set of the words' letter multisets (for generate)."},
    {"build_kwg", k_build_kwg, METH_VARARGS,
     "build_kwg(words, dawg_only) -> bytes: the automaton of words (codes, each word ended by 0), uint32 arcs."},
    {"depths", k_depths, METH_VARARGS,
     "depths(kwg) -> bytes: per arc index, the most letters left on a path to a word's end (for generate)."},
    {"forget_boards", k_forget_boards, METH_NOARGS,
     "forget_boards(): drop the boards generate() keeps between calls (their cross-checks and anchors)."},
    {"generate", k_generate, METH_VARARGS,
     "generate(kwg, cells, size, letter_mult, word_mult, values, rack, bingo_tiles, bingo_bonus,\n"
     "         first_min, start_row, start_col, first_dirs, mode, best_n, leave_values, depths, anagrams,\n"
     "         floor, bonuses=None, wordmap=None, others=-2, leave_map=None)\n\n"
     "Mode 0: number of placements; 1: every move; 2: the best best_n (a MoveList of\n"
     "Candidates, best first; others: -2 placements only, -1 and the pass, k >= 0 and the\n"
     "exchanges of at most k tiles; leave_map: a packed leave table, read when leave_values\n"
     "is None). See lexiko.movegen."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "lexiko._kernel",
    .m_doc = "Compiled move generator of lexiko (see lexiko.movegen).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__kernel(void)
{
    init_letter_hash();
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddIntConstant(m, "MAX_SIZE", MAXN) < 0 || PyModule_AddIntConstant(m, "ABI", 12) < 0 ||
        movelist_ready(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

int rng_from_tuple(Rng *r, PyObject *state, const char *entry)
{
    uint64_t any = 0;
    if (PyTuple_Check(state) && PyTuple_GET_SIZE(state) == 4) {
        for (int i = 0; i < 4; i++) {
            r->s[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(state, i));
            if (PyErr_Occurred()) {
                PyErr_Clear();
                any = 0;
                break;
            }
            any |= r->s[i];
        }
        if (any)
            return 0;
    }
    PyErr_Format(PyExc_ValueError, "%s: rng_state is lexiko.rng.Rng.getstate(), four ints below 2**64, not all zero",
                 entry);
    return -1;
}

PyObject *rng_to_tuple(const Rng *r)
{
    return Py_BuildValue("(KKKK)", (unsigned long long)r->s[0], (unsigned long long)r->s[1],
                         (unsigned long long)r->s[2], (unsigned long long)r->s[3]);
}
