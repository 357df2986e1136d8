/*
 * lexiko._kernel, bindings_rl.c: the bindings of the reinforcement-learning core (rl.c):
 * rl_new() makes a core (a capsule holding it and the buffers it reads), the others
 * reset, deal, step, observe and read it.
 */
#include "bindings.h"

#include "rl.h"

#define RL_CAPSULE "lexiko._kernel.RLCore"

/* A core with the Python buffers it reads (kept while it lives). */
typedef struct {
    RLCore core; /* first: the capsule's pointer is the core's */
    Py_buffer kwg, depths, anas, lmult, wmult, map, wmap;
    int have[7];
} RLBox;

static void rl_destroy(RLBox *x)
{
    Py_buffer *bufs[7] = {&x->kwg, &x->depths, &x->anas, &x->lmult, &x->wmult, &x->map, &x->wmap};
    for (int i = 0; i < 7; i++)
        if (x->have[i])
            PyBuffer_Release(bufs[i]);
    rl_core_free(&x->core);
    free(x);
}

static void rl_free(PyObject *cap)
{
    RLBox *x = (RLBox *)PyCapsule_GetPointer(cap, RL_CAPSULE);
    if (x)
        rl_destroy(x);
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
PyObject *k_rl_new(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *kwg_obj, *depth_obj, *ana_obj, *lm_obj, *wm_obj, *rules, *map_obj, *wmap_obj = Py_None;
    Py_buffer values, bonuses, prem;
    int size, bingo_tiles, first_min, start_r, start_c, first_dirs, k, letters;
    if (!PyArg_ParseTuple(args, "OOOiOOy*iy*iiiiOOiy*i|O:rl_new", &kwg_obj, &depth_obj, &ana_obj, &size, &lm_obj,
                          &wm_obj, &values, &bingo_tiles, &bonuses, &first_min, &start_r, &start_c, &first_dirs,
                          &rules, &map_obj, &k, &prem, &letters, &wmap_obj))
        return NULL;
    PyObject *result = NULL;
    RLBox *x = NULL;
    RLCore *c = NULL;
    if (size < 1 || size > MAXN || values.len != 128 || bonuses.len < 4 || bonuses.len % 4 ||
        prem.len != (Py_ssize_t)size * size || k < 1 || k > 4096 || letters < 1 || letters > 62) {
        PyErr_SetString(PyExc_ValueError, "rl_new: bad size, values, bonuses, premiums, k or letters");
        goto out;
    }
    x = (RLBox *)calloc(1, sizeof(RLBox));
    c = x ? &x->core : NULL;
    if (!c || !(c->cands = (RLCand *)calloc((size_t)k, sizeof(RLCand)))) {
        PyErr_NoMemory();
        goto out;
    }
    c->po.g = &c->gen;
    c->po.board = &c->board;
    if (PyObject_GetBuffer(kwg_obj, &x->kwg, PyBUF_SIMPLE) < 0)
        goto out;
    x->have[0] = 1;
    if (PyObject_GetBuffer(lm_obj, &x->lmult, PyBUF_SIMPLE) < 0)
        goto out;
    x->have[3] = 1;
    if (PyObject_GetBuffer(wm_obj, &x->wmult, PyBUF_SIMPLE) < 0)
        goto out;
    x->have[4] = 1;
    if (x->kwg.len % 4 || x->lmult.len != prem.len || x->wmult.len != prem.len) {
        PyErr_SetString(PyExc_ValueError, "rl_new: bad kwg or multipliers");
        goto out;
    }
    if (po_lexicon(&c->po, &x->kwg, depth_obj, ana_obj, &x->depths, &x->have[1], &x->anas, &x->have[2]) < 0)
        goto out;
    if (po_wordmap(&c->po, wmap_obj, &x->wmap, &x->have[6]) < 0)
        goto out;
    if (map_obj != Py_None) {
        if (PyObject_GetBuffer(map_obj, &x->map, PyBUF_SIMPLE) < 0)
            goto out;
        x->have[5] = 1;
        c->has_map = 1;
        const LeaveMapHead *h = leave_map_of(&x->map);
        if (!h)
            goto out;
        for (int p = 0; p < PO_MAXP; p++)
            c->po.maps[p] = h;
    }
    {
        PlayOut *po = &c->po;
        po->n = size;
        po->lmult = (const uint8_t *)x->lmult.buf;
        po->wmult = (const uint8_t *)x->wmult.buf;
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
    result = PyCapsule_New(x, RL_CAPSULE, rl_free);
    if (result)
        x = NULL;
out:
    if (x)
        rl_destroy(x);
    PyBuffer_Release(&values);
    PyBuffer_Release(&bonuses);
    PyBuffer_Release(&prem);
    return result;
}

/* rl_reset(core, cells, racks, bag, scores, turn, scoreless_run, rng_state): a position
 * (racks: bytes per seat; bag drawn from its end; rng_state: lexiko.rng.Rng.getstate()); then
 * the candidates of the player on turn. */
PyObject *k_rl_reset(PyObject *self, PyObject *args)
{
    (void)self;
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
        bag.len > PO_MAXBAG) {
        PyErr_SetString(PyExc_ValueError, "rl_reset: racks and scores per seat, a bag");
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
    Rng rng;
    if (rng_from_tuple(&rng, rng_state, "rl_reset") < 0)
        goto out;
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
    po->rng = rng;
    po->turn = turn;
    po->scoreless_run = scoreless_run;
    if (rl_begin(c) < 0) {
        PyErr_NoMemory();
        goto out;
    }
    result = Py_NewRef(Py_None);
out:
    PyBuffer_Release(&cells);
    PyBuffer_Release(&bag);
    return result;
}

/* rl_deal(core, seed, bag, players, draw_for_first): a new game as lexiko.game.Game(seed=...)
 * deals it, without a Game: lexiko.rng.Rng(seed) (seed: 8 bytes, little-endian, the
 * Game's seed modulo 2**64), the players drawing a tile each for first (blank
 * first, then the lowest letter; tied players draw again, from a new pool when too few
 * are left) when draw_for_first, the bag (bag: Game's order, tiles.bag()) shuffled, and
 * full racks drawn from its end from the first player on. Then that player's candidates. */
PyObject *k_rl_deal(PyObject *self, PyObject *args)
{
    (void)self;
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
    if (seedb.len != 8 || bagb.len < 1 || bagb.len > PO_MAXBAG || np < 1 || np > PO_MAXP ||
        np * po->rack_size > bagb.len) {
        PyErr_SetString(PyExc_ValueError, "rl_deal: an 8-byte seed, a bag, and 1 to 8 players it can serve");
        goto out;
    }
    const uint8_t *ib = (const uint8_t *)bagb.buf;
    for (Py_ssize_t i = 0; i < bagb.len; i++)
        if (ib[i] > (uint8_t)c->letters) {
            PyErr_SetString(PyExc_ValueError, "rl_deal: a bag code is not a tile");
            goto out;
        }
    int first = rl_deal_game(c, (const uint8_t *)seedb.buf, ib, (int)bagb.len, np, draw_first);
    if (first < 0) {
        PyErr_NoMemory();
        goto out;
    }
    result = PyLong_FromLong(first);
out:
    PyBuffer_Release(&seedb);
    PyBuffer_Release(&bagb);
    return result;
}

/* rl_step(core, i) -> bool: make candidate i, list the next player's (none once the
 * game is over); whether the game is over. */
PyObject *k_rl_step(PyObject *self, PyObject *args)
{
    (void)self;
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
    if (rl_step_play(c, (int)i) < 0)
        return PyErr_NoMemory();
    return PyBool_FromLong(c->po.over);
}

/* rl_static_turns(core, seat) -> bool: the other seats play as the static player
 * (lexiko.bots.StaticBot, as in play-outs) until seat is on turn; its candidates are
 * listed. Whether the game is over. */
PyObject *k_rl_static_turns(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    int seat;
    if (!PyArg_ParseTuple(args, "Oi:rl_static_turns", &cap, &seat))
        return NULL;
    RLCore *c = rl_core(cap);
    if (!c)
        return NULL;
    PlayOut *po = &c->po;
    if (!c->started || seat < 0 || seat >= po->np || !c->has_map) {
        PyErr_SetString(PyExc_ValueError, "rl_static_turns: a started game with a leave table, and a seat");
        return NULL;
    }
    if (rl_static_turns_play(c, seat) < 0)
        return PyErr_NoMemory();
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
PyObject *k_rl_observe(PyObject *self, PyObject *args)
{
    (void)self;
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
    if (got == 7)
        rl_observe_fill(c, seat, on_turn, (float *)b[0].buf, (float *)b[1].buf, (float *)b[2].buf, (float *)b[3].buf,
                        (float *)b[4].buf, (float *)b[5].buf, (int8_t *)b[6].buf);
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&b[i]);
    if (got < 7)
        return NULL;
    Py_RETURN_NONE;
}

/* rl_info(core) -> (turn, over, scores, scores_before_end, bag, end_reason, open) */
PyObject *k_rl_info(PyObject *self, PyObject *args)
{
    (void)self;
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
PyObject *k_rl_log(PyObject *self, PyObject *args)
{
    (void)self;
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

PyObject *k_rl_candidates(PyObject *self, PyObject *args)
{
    (void)self;
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

