/*
 * lexiko._kernel, playout.c: the static player in the kernel (see playout.h and the
 * comment on play-outs there): its leave values, the best exchange and pass, the best
 * placement (with what a play-out keeps between searches: RackCache, BaseBest), a turn,
 * and a whole game dealt from a seed.
 */
#include "playout.h"

#include "leaves.h"
#include "movegen.h"
#include "rng.h"
#include "wordmap.h"

void rack_cache_free(RackCache *rc)
{
    free(rc->vals);
    free(rc->subs);
    free(rc->cand);
    free(rc->cand_e);
    memset(rc, 0, sizeof *rc);
}

/* Set g (the lexicon, board and first-play fields already set) to list the best_n
 * placements of rack full by equity with leave values vals (NULL: the score alone),
 * those below floor (NaN: none) left out: the pruned search, by the play-out's word map
 * when it has one. */
void po_gen_best(Gen *g, const PlayOut *po, const uint8_t *full, const double *vals, size_t best_n,
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

/* Set g to the lexicon and the board of po->cells for a search: copied from po->board
 * when kept (a copy costs less than the cross-sets of every anchor), else prepared. */
void po_search_gen(PlayOut *po, Gen *g)
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
int exchanged_tiles(const uint8_t *full, const int *codes, const int *digit, int nc, uint8_t *out)
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

/* The leave values of seat p's sub-racks (nleaves) once the bag is empty: going out
 * earns twice the other racks' value; a tile kept costs twice its own, with the seat's
 * penalty on top. */
static void po_end_vals(const PlayOut *po, int p, double *vals, uint64_t nleaves)
{
    const uint8_t *full = po->rack[p];
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

/* The best exchange of seat p's rack (leave values vals; fullidx: the whole rack's index)
 * against *best_eq (the pass's, *best_kind 2): better, or equal and first by tiles, it
 * replaces the best (*best_kind 1, its tiles in best_ex). */
static void po_best_exchange(const PlayOut *po, int p, const double *vals, uint32_t fullidx, double *best_eq,
                             int *best_kind, uint8_t *best_ex, int *best_nex)
{
    const uint8_t *full = po->rack[p];
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
            int nn = eq >= *best_eq ? exchanged_tiles(full, codes, digit, nc, cur) : 0;
            if (eq > *best_eq || (eq == *best_eq && *best_kind == 2)) {
                *best_eq = eq;
                *best_kind = 1;
                memcpy(best_ex, cur, (size_t)nn);
                *best_nex = nn;
            } else if (eq == *best_eq) {
                int mn = nn < *best_nex ? nn : *best_nex;
                int cmp = memcmp(cur, best_ex, (size_t)mn);
                if (cmp < 0 || (cmp == 0 && nn < *best_nex)) {
                    memcpy(best_ex, cur, (size_t)nn);
                    *best_nex = nn;
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

/* One placement, exchange or pass of the player on turn, as generate() and the static
 * player choose it. kind: 0 placement (m), 1 exchange (ex, nex), 2 pass. -1: no memory. */
int po_choose(PlayOut *po, Move *m, uint8_t *ex, int *nex)
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
        po_end_vals(po, p, vals, nleaves);
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
        po_best_exchange(po, p, vals, fullidx, &best_eq, &best_kind, best_ex, &best_nex);
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
int po_fill_base_best(PlayOut *po, int p)
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

int po_turn(PlayOut *po, PoLog *log)
{
    Move m;
    memset(&m, 0, sizeof m);
    uint8_t ex[64];
    int nex = 0;
    int kind = po_choose(po, &m, ex, &nex);
    if (kind < 0)
        return -1;
    po_apply(po, kind, &m, ex, nex, log);
    return 0;
}

int po_static_game(PlayOut *po, uint64_t seed, const uint8_t *bag0, int nbag, int first, int first_min0, int dirs0)
{
    /* the start Game deals: its generator seeded, the bag shuffled, the racks drawn */
    rng_seed(&po->rng, seed);
    po->nb = nbag;
    memcpy(po->bag, bag0, (size_t)po->nb);
    rng_shuffle(&po->rng, po->bag, po->nb);
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
        if (po->turns > 100000)
            return -2;
        if (po_turn(po, NULL) < 0)
            return -1;
    }
    return 0;
}
