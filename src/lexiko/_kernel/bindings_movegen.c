/*
 * lexiko._kernel, bindings_movegen.c: the bindings of move generation: setup() (the
 * classes generate() builds, written slot by slot) and generate(), the kernel's
 * lexiko.movegen.
 */
#include "bindings.h"

#include <structmember.h>

#include "movegen.h"
#include "wordmap.h"

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

PyObject *k_setup(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *place, *cand;
    static const char *const pn[4] = {"row", "col", "down", "tiles"};
    static const char *const cn[4] = {"move", "score", "equity", "leave"};
    if (!PyArg_ParseTuple(args, "OO:setup", &place, &cand))
        return NULL;
    if (slot_setup(&place_t, place, pn) < 0 || slot_setup(&cand_t, cand, cn) < 0)
        return NULL;
    Py_RETURN_NONE;
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
    if (generate_indexes(g, depth_obj, &depths, &have_depths, ana_obj, &anas, &have_anas, wmp_obj, &wmps, &have_wmp) <
        0)
        goto out;
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

