/*
 * lexiko._kernel, bindings_endgame.c: the binding of endgame(), the two-player endgame
 * solved in the kernel (endgame.c and the units it names), and its lines as Python
 * tuples.
 */
#include "bindings.h"

#include "endgame.h"

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
 * limit); time_limit: seconds (<= 0: none; when it stops the first ply, the best move valued
 * so far, or the first in the order, with depth 0). line: the
 * principal variation as (kind 0 play / 2 pass, row, col, down, tiles, score). progress:
 * None, or called with (value, complete, depth, nodes, line) after each depth. The
 * depths are 1..EG_DEEPEN, then max_depth or the search to the end, whose depth is the
 * most moves of a line it searched.
 */
PyObject *k_endgame(PyObject *self, PyObject *args)
{
    (void)self;
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
    double t0 = eg_now();
    if (!(eg = eg_new())) {
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
        /* at most a quarter of the time: the full graph gives the same search */
        double cut_deadline = time_limit > 0 ? t0 + time_limit / 4 : 0;
        cut_kwg = eg_cut_lexicon(po->kwg, po->nk, (const uint8_t *)cells.buf, size, rme, ropp, cut_deadline, &cnk);
        if (cut_kwg) {
            po->kwg = cut_kwg;
            po->nk = cnk;
            po->depth = NULL;
            po->ana = NULL;
        }
    }
    po_board_buffers(po, size, &cells, &lmult, &wmult, &values, bingo_tiles, &bonuses, 1, start_r, start_c, 2);
    const uint8_t *cb = (const uint8_t *)cells.buf;
    uint64_t bkey = eg_position(eg, cb, rme, ropp, limit);
    EgDeepen d;
    eg_deepen_init(&d, max_depth, time_limit);
    d.start = t0; /* the time limit counts the lexicon's cut */
    while (eg_deepen_next(eg, &d)) {
        Py_BEGIN_ALLOW_THREADS
        eg_deepen_search(eg, &d, cb, bkey, rme, ropp, scoreless);
        Py_END_ALLOW_THREADS
        int r = eg_deepen_result(eg, &d);
        if (r == EG_AGAIN)
            continue;
        if (r == EG_STOP)
            break;
        if (progress != Py_None) {
            PyObject *pl = eg_line_list(d.line, d.line_pass, d.line_len, scoreless, eg->limit);
            if (!pl)
                goto out;
            PyObject *res = PyObject_CallFunction(progress, "iiiLN", d.value, d.complete, d.done, eg->nodes, pl);
            if (!res)
                goto out;
            Py_DECREF(res);
        }
        if (eg_deepen_finished(eg, &d))
            break;
    }
    int err = d.err;
    if (err) {
        PyErr_NoMemory();
        goto out;
    }
    PyObject *pl = eg_line_list(d.line, d.line_pass, d.line_len, scoreless, eg->limit);
    if (!pl)
        goto out;
    result = Py_BuildValue("(iiiLN)", d.value, d.complete, d.done, eg->nodes, pl);
out:
    free(cut_kwg);
    eg_free(eg);
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

