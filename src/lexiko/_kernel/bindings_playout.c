/*
 * lexiko._kernel, bindings_playout.c: the bindings of the kernel's games: playout() (the
 * static player's turns from a position), static_games() (whole games from seeds) and
 * simulate() (the simulation's play-outs); the games are played by playout.c, rules.c
 * and simulation.c.
 */
#include "bindings.h"

#include "leaves.h"
#include "playout.h"
#include "rng.h"
#include "simulation.h"

/* Append a move po_apply logged to log, as (player, kind, row, col, down, tiles, score,
 * kept, bag): 0, or -1 with a Python error set. */
static int po_log_append(PyObject *log, const PoLog *e)
{
    PyObject *item = Py_BuildValue("(iiiiiy#iy#i)", e->player, e->kind, e->row, e->col, e->down,
                                   (const char *)e->tiles, (Py_ssize_t)e->ntiles, e->score, (const char *)e->kept,
                                   (Py_ssize_t)e->nkept, e->bag);
    if (!item || PyList_Append(log, item) < 0) {
        Py_XDECREF(item);
        return -1;
    }
    Py_DECREF(item);
    return 0;
}

/* playout()'s seats: racks (bytes), scores, leave maps (their buffers got into mapbuf,
 * *nmaps of them) and penalties (None: the default) into po: 0, or -1 with a Python
 * error set. */
static int playout_seats(PlayOut *po, PyObject *racks, PyObject *scores, PyObject *maps, PyObject *penalties,
                         Py_buffer *mapbuf, int *nmaps)
{
    for (int p = 0; p < po->np; p++) {
        PyObject *r = PyList_GET_ITEM(racks, p);
        if (!PyBytes_Check(r)) {
            PyErr_SetString(PyExc_TypeError, "playout: racks are bytes");
            return -1;
        }
        const uint8_t *t = (const uint8_t *)PyBytes_AS_STRING(r);
        for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(r); i++) {
            if (t[i] >= 64) {
                PyErr_SetString(PyExc_ValueError, "playout: a rack code above 63");
                return -1;
            }
            po->rack[p][t[i]]++;
            po->rack_n[p]++;
        }
        if (po->rack_n[p] > PRUNE_MAX_RACK) {
            PyErr_SetString(PyExc_ValueError, "playout: a rack of more than 15 tiles");
            return -1;
        }
        po->scores[p] = PyLong_AsLongLong(PyList_GET_ITEM(scores, p));
        if (PyErr_Occurred())
            return -1;
        if (PyObject_GetBuffer(PyList_GET_ITEM(maps, p), &mapbuf[p], PyBUF_SIMPLE) < 0)
            return -1;
        (*nmaps)++;
        po->maps[p] = leave_map_of(&mapbuf[p]);
        if (!po->maps[p])
            return -1;
        if (penalties != Py_None) {
            if (!PyList_Check(penalties) || PyList_GET_SIZE(penalties) != po->np) {
                PyErr_SetString(PyExc_ValueError, "playout: penalties is a list of a number per seat");
                return -1;
            }
            po->penalty[p] = PyFloat_AsDouble(PyList_GET_ITEM(penalties, p));
            if (PyErr_Occurred())
                return -1;
        }
    }
    return 0;
}

/* Rng.getstate() into po->rng: 0, or -1 with a Python error set. */
static int playout_rng(PlayOut *po, PyObject *rng_state)
{
    return rng_from_tuple(&po->rng, rng_state, "playout");
}

/* playout()'s result tuple from the position po reached (NULL with a Python error set). */
static PyObject *playout_result(const PlayOut *po, int size)
{
    PyObject *rk = PyList_New(po->np), *sc = PyList_New(po->np), *bg = PyList_New(po->np),
             *exs = PyList_New(po->np), *st = rng_to_tuple(&po->rng), *bf = PyList_New(po->np),
             *kp = PyList_New(po->np);
    if (!rk || !sc || !bg || !exs || !st || !bf || !kp) {
        Py_XDECREF(kp);
        Py_XDECREF(bf);
        Py_XDECREF(rk);
        Py_XDECREF(sc);
        Py_XDECREF(bg);
        Py_XDECREF(exs);
        Py_XDECREF(st);
        return NULL;
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
    return Py_BuildValue("(y#Ny#NiizNiNNNN)", (const char *)po->cells, (Py_ssize_t)(size * size), rk,
                           (const char *)po->bag, (Py_ssize_t)po->nb, sc, po->turn, po->scoreless_run,
                           po->end_reason, st, po->turns, bg, exs, bf, kp);
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
 * per seat; rng_state: lexiko.rng.Rng.getstate(), four ints; max_turns: stop after so
 * many turns (-1: at the end of the game); penalties (optional): per seat, the points taken
 * off every play that does not go out once the bag is empty; log: None or a list to append each turn to,
 * as (player, kind 0 play / 1 exchange / 2 pass, row, col, down, tiles, score, kept,
 * bag): kept the tiles kept (rack order), bag the tiles in the bag after the move.
 * end_reason is None while the game goes on; kept: per seat, the tiles it kept on its
 * last move (rack order) and the tiles in the bag after that move, or (None, -1).
 */
PyObject *k_playout(PyObject *self, PyObject *args)
{
    (void)self;
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
    po_board_buffers(po, size, &cells, &lmult, &wmult, &values, bingo_tiles, &bonuses, first_min, start_r, start_c,
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
    if (playout_seats(po, racks, scores, maps, penalties, mapbuf, &nmaps) < 0)
        goto out;
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
    if (playout_rng(po, rng_state) < 0)
        goto out;
    {
        int done = 0;
        while (!po->over && (max_turns < 0 || done < max_turns)) {
            if (po->turns > 100000) {
                PyErr_SetString(PyExc_RuntimeError, "playout: the game did not end");
                goto out;
            }
            PoLog item;
            if (po_turn(po, log == Py_None ? NULL : &item) < 0) {
                PyErr_NoMemory();
                goto out;
            }
            if (log != Py_None && po_log_append(log, &item) < 0)
                goto out;
            done++;
        }
    }
    result = playout_result(po, size);
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
 * (the bag, a full bag as TileSet.bag() lists it, shuffled by lexiko.rng.Rng(seed), each
 * seat from the first player on drawing its rack from the bag's end), without a Python
 * call, a Game or a generator object per game (self-play's cost outside the turns). The
 * arguments are playout()'s, but: bag the unshuffled full bag; seeds bytes, 16 per game
 * (the seed, 0 <= seed < 2**128, little-endian); first_players bytes, one per game.
 */
PyObject *k_static_games(PyObject *self, PyObject *args)
{
    (void)self;
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
        seeds.len != 8 * ngames) {
        PyErr_SetString(PyExc_ValueError, "static_games: bad board, values, bonuses, kwg, bag or seeds");
        goto out;
    }
    if (po_new(&po, &kwg, depth_obj, ana_obj, &depths, &have_depths, &anas, &have_anas, wmp_obj, &wmps,
               &have_wmp) < 0)
        goto out;
    {
        /* po_board's empty board: the cells of a game's start */
        static const uint8_t zeros[MAXN * MAXN];
        po_board(po, size, zeros, (const uint8_t *)lmult.buf, (const uint8_t *)wmult.buf, (const uint8_t *)values.buf,
                 bingo_tiles, (const int32_t *)bonuses.buf, (size_t)(bonuses.len / 4), first_min, start_r, start_c,
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
        int r = po_static_game(po, rng_seed_le((const uint8_t *)seeds.buf + 8 * gi), bag0, (int)bagb.len, fp[gi],
                               first_min0, dirs0);
        if (r == -2) {
            PyErr_SetString(PyExc_RuntimeError, "static_games: a game did not end");
            goto out;
        }
        if (r < 0) {
            PyErr_NoMemory();
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

/*
 * simulate(kwg, depths, anagrams, size, cells, letter_mult, word_mult, values, bingo_tiles,
 *          bonuses, first_min, start_row, start_col, first_dirs, rules, map, rack, unseen,
 *          opp_sizes, scores, scoreless_run, candidates, plies, seed_base, start, stop)
 *   -> [[(value, win) per candidate] per iteration start..stop-1]
 *
 * What lexiko.bots.simulation's play-outs compute, iteration for iteration: iteration
 * i shuffles unseen with lexiko.rng.Rng(seed_base + i), deals the opponents' racks
 * (opp_sizes, bytes) from its start and leaves the rest as the bag; candidate j is made
 * (candidates: (kind, row, col, down, tiles, score[, id])) with lexiko.rng.Rng(seed_base +
 * i + 7919 * (id + 1)) for any shuffle (id: j unless given), then plies static turns
 * follow. seed_base: 16 bytes,
 * little-endian. scores: the player's first, then the opponents' in turn order.
 * known (optional, after the word map): per iteration, bytes of tiles the first opponent
 * holds for sure; they leave the pool (each its first copy) before the shuffle and that
 * opponent is dealt them, then the first tiles of the pool.
 */
/* simulate()'s candidates, (kind, row, col, down, tiles, score[, id]), into s->cs: 0, or
 * -1 with a Python error set. */
static int sim_candidates(Sim *s, PyObject *cands, int size)
{
    for (Py_ssize_t j = 0; j < s->nc; j++) {
        SimCand *cs = &s->cs[j];
        PyObject *c = PyList_GET_ITEM(cands, j);
        int kind, row, col, down, score;
        long long id = (long long)j;
        const char *t;
        Py_ssize_t tl;
        if (!PyArg_ParseTuple(c, "iiiiy#i|L:candidate", &kind, &row, &col, &down, &t, &tl, &score, &id))
            return -1;
        if (id < 0 || id > 1000000) {
            PyErr_SetString(PyExc_ValueError, "simulate: a candidate number out of range");
            return -1;
        }
        cs->id = id;
        if (kind < 0 || kind > 2 || tl > (kind == 0 ? MAXN : 63) || row < 0 || col < 0 || row >= size || col >= size ||
            (kind == 0 && (down ? row : col) + tl > size)) {
            PyErr_SetString(PyExc_ValueError, "simulate: a bad candidate");
            return -1;
        }
        cs->kind = kind;
        if (kind == 0) {
            cs->m.row = (uint8_t)row;
            cs->m.col = (uint8_t)col;
            cs->m.down = (uint8_t)(down != 0);
            cs->m.len = (uint8_t)tl;
            cs->m.score = score;
            memcpy(cs->m.tiles, t, (size_t)tl);
        } else if (kind == 1) {
            memcpy(cs->ex, t, (size_t)tl);
            cs->nex = (int)tl;
        }
    }
    return 0;
}

/* The scores, racks and unseen tiles of simulate() into s: 0, or -1 with a Python error
 * set. */
static int sim_position(Sim *s, PyObject *scores, const Py_buffer *rack, const Py_buffer *unseen, const Py_buffer *opp)
{
    for (int p = 0; p < s->np; p++) {
        s->init_scores[p] = PyLong_AsLongLong(PyList_GET_ITEM(scores, p));
        if (PyErr_Occurred())
            return -1;
    }
    const uint8_t *ub = (const uint8_t *)unseen->buf, *rb = (const uint8_t *)rack->buf, *ob = (const uint8_t *)opp->buf;
    int dealt = 0;
    for (int q = 0; q < (int)opp->len; q++)
        dealt += ob[q];
    for (Py_ssize_t i = 0; i < unseen->len; i++)
        if (ub[i] >= 64)
            dealt = INT32_MAX;
    for (Py_ssize_t i = 0; i < rack->len; i++)
        if (rb[i] >= 64)
            dealt = INT32_MAX;
    if (dealt > unseen->len) {
        PyErr_SetString(PyExc_ValueError, "simulate: more tiles dealt than unseen, or a code above 63");
        return -1;
    }
    s->unseen = ub;
    s->nunseen = (int)unseen->len;
    s->rack = rb;
    s->nrack = (int)rack->len;
    s->opp = ob;
    s->nopp = (int)opp->len;
    return 0;
}

/* The iterations start..stop of simulate() into result (a list): 0, or -1 with a Python
 * error set. */
static int sim_iterations(Sim *s, PyObject *result, Py_ssize_t start, Py_ssize_t stop, PyObject *known)
{
    for (Py_ssize_t it = start; it < stop; it++) {
        const uint8_t *kt = NULL;
        int nk = 0;
        if (known != Py_None) {
            PyObject *kb = PyList_GET_ITEM(known, it - start);
            if (!PyBytes_Check(kb) || PyBytes_GET_SIZE(kb) > s->opp[0]) {
                PyErr_SetString(PyExc_ValueError, "simulate: known holds bytes of at most the first opponent's rack");
                return -1;
            }
            kt = (const uint8_t *)PyBytes_AS_STRING(kb);
            nk = (int)PyBytes_GET_SIZE(kb);
        }
        switch (sim_iteration(s, (long long)it, kt, nk, s->values)) {
        case SIM_OK:
            break;
        case SIM_KNOWN_NOT_UNSEEN:
            PyErr_SetString(PyExc_ValueError, "simulate: a known tile is not among the unseen");
            return -1;
        case SIM_BAD_CANDIDATE:
            PyErr_SetString(PyExc_ValueError, "simulate: a candidate needs tiles the rack or board does not allow");
            return -1;
        default:
            PyErr_NoMemory();
            return -1;
        }
        PyObject *row = PyList_New(s->nc);
        if (!row || PyList_Append(result, row) < 0) {
            Py_XDECREF(row);
            return -1;
        }
        Py_DECREF(row);
        for (Py_ssize_t j = 0; j < s->nc; j++) {
            PyObject *pair = Py_BuildValue("(dd)", s->values[2 * j], s->values[2 * j + 1]);
            if (!pair)
                return -1;
            PyList_SET_ITEM(row, j, pair);
        }
    }
    return 0;
}

PyObject *k_simulate(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer kwg, cells, lmult, wmult, values, bonuses, map, rack, unseen, opp, seedb;
    PyObject *depth_obj, *ana_obj, *rules, *scores, *cands;
    int size, bingo_tiles, first_min, start_r, start_c, first_dirs, scoreless_run, plies;
    Py_ssize_t start, stop;
    Py_buffer depths, anas;
    int have_depths = 0, have_anas = 0;
    PyObject *result = NULL;
    Sim *s = NULL;
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
        seedb.len != 8 || np > PO_MAXP || !PyList_Check(scores) || PyList_GET_SIZE(scores) != np ||
        !PyList_Check(cands) || unseen.len > PO_MAXBAG || rack.len > PRUNE_MAX_RACK || start < 0 || stop < start ||
        (known != Py_None && (!PyList_Check(known) || PyList_GET_SIZE(known) != stop - start || opp.len < 1))) {
        PyErr_SetString(PyExc_ValueError, "simulate: bad arguments");
        goto out;
    }
    if (!cells_valid(&cells))
        goto out;
    if (!(s = sim_new((long)PyList_GET_SIZE(cands)))) {
        PyErr_NoMemory();
        goto out;
    }
    if (po_lexicon(s->base, &kwg, depth_obj, ana_obj, &depths, &have_depths, &anas, &have_anas) < 0)
        goto out;
    if (po_wordmap(s->base, wmp_obj, &wmps, &have_wmp) < 0)
        goto out;
    po_board_buffers(s->base, size, &cells, &lmult, &wmult, &values, bingo_tiles, &bonuses, first_min, start_r, start_c,
                     first_dirs);
    if (po_rules(s->base, rules) < 0)
        goto out;
    if (sim_prepare(s, lmh, np, plies) != SIM_OK) {
        PyErr_NoMemory();
        goto out;
    }
    s->scoreless_run = scoreless_run;
    if (sim_position(s, scores, &rack, &unseen, &opp) < 0 || sim_candidates(s, cands, size) < 0)
        goto out;
    s->seed0 = rng_seed_le((const uint8_t *)seedb.buf);
    result = PyList_New(0);
    if (result && sim_iterations(s, result, start, stop, known) < 0)
        Py_CLEAR(result);
out:
    sim_free(s);
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

/* rng_shuffle(seed, items) -> (shuffled, state): items (bytes) shuffled by
 * lexiko.rng.Rng(seed) (seed: 8 bytes, little-endian), and the generator's state after;
 * for the tests that check the kernel's generator is rng.py's. */
PyObject *k_rng_shuffle(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer seedb, items;
    if (!PyArg_ParseTuple(args, "y*y*:rng_shuffle", &seedb, &items))
        return NULL;
    PyObject *result = NULL, *out = NULL;
    if (seedb.len != 8 || items.len > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "rng_shuffle: an 8-byte seed and at most INT_MAX items");
        goto done;
    }
    out = PyBytes_FromStringAndSize((const char *)items.buf, items.len);
    if (!out)
        goto done;
    Rng r;
    rng_seed(&r, rng_seed_le((const uint8_t *)seedb.buf));
    rng_shuffle(&r, (uint8_t *)PyBytes_AS_STRING(out), (int)items.len);
    result = Py_BuildValue("(ON)", out, rng_to_tuple(&r));
done:
    Py_XDECREF(out);
    PyBuffer_Release(&seedb);
    PyBuffer_Release(&items);
    return result;
}
