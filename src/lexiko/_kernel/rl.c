/*
 * lexiko._kernel, rl.c: the reinforcement-learning environment's core (see rl.h): the
 * candidates of the player on turn in movegen.sort_key's order, a move made, the other
 * seats' static turns, a game dealt as lexiko.game.Game deals it, and the observation's
 * arrays filled, all without a Python object per move.
 */
#include "rl.h"

#include "leaves.h"
#include "rng.h"


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
    if (po->nb > 0 && c->has_map) {
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
    if (np_ > 1) /* no moves: g->moves may be NULL, which qsort must not get */
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
int rl_log_push(RLCore *c, const RLCand *e)
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
 * player on turn listed. 0, or -1 when out of memory. */
int rl_begin(RLCore *c)
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
    if (rl_candidates(c) < 0)
        return -1;
    return 0;
}

void rl_core_free(RLCore *c)
{
    free(c->cands);
    free(c->extra);
    free(c->vals);
    free(c->log);
    gen_free(&c->gen);
}

int rl_step_play(RLCore *c, int i)
{
    RLCand cand = c->cands[i];
    if (rl_log_push(c, &cand) < 0)
        return -1;
    po_apply(&c->po, cand.kind, &cand.m, cand.ex, cand.nex, NULL);
    c->ncand = 0;
    if (!c->po.over && rl_candidates(c) < 0)
        return -1;
    return 0;
}

int rl_static_turns_play(RLCore *c, int seat)
{
    PlayOut *po = &c->po;
    int moved = 0;
    while (!po->over && po->turn != seat) {
        RLCand e;
        memset(&e, 0, sizeof e);
        uint8_t ex[64];
        int nex = 0;
        int kind = po_choose(po, &e.m, ex, &nex);
        if (kind < 0)
            return -1;
        e.kind = (uint8_t)kind;
        e.nex = (uint8_t)nex;
        memcpy(e.ex, ex, (size_t)nex);
        if (kind != 0) {
            e.m.score = 0;
            e.m.equity = 0.0;
        }
        if (rl_log_push(c, &e) < 0)
            return -1;
        po_apply(po, kind, &e.m, ex, nex, NULL);
        moved = 1;
    }
    if (moved) {
        c->ncand = 0;
        if (!po->over && rl_candidates(c) < 0)
            return -1;
    }
    return 0;
}

/* The first player of a game dealt with rng: the players draw a tile each (blank first,
 * then the lowest letter); tied players draw again, from a new pool when too few are
 * left. */
static int rl_draw_first(Rng *rng, const uint8_t *ib, int n, int np)
{
    uint8_t pool[PO_MAXBAG];
    int contenders[PO_MAXP], nc = np, npool = n;
    for (int p = 0; p < np; p++)
        contenders[p] = p;
    memcpy(pool, ib, (size_t)n);
    rng_shuffle(rng, pool, npool);
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
            rng_shuffle(rng, pool, npool);
        }
    }
    return contenders[0];
}

int rl_deal_game(RLCore *c, const uint8_t *seed8, const uint8_t *ib, int n, int np, int draw_first)
{
    PlayOut *po = &c->po;
    Rng rng;
    rng_seed(&rng, rng_seed_le(seed8));
    int first = 0;
    if (draw_first && np > 1)
        first = rl_draw_first(&rng, ib, n, np);
    memcpy(po->bag, ib, (size_t)n);
    po->nb = n;
    rng_shuffle(&rng, po->bag, n);
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
        return -1;
    return first;
}

void rl_observe_fill(const RLCore *c, int seat, int on_turn, float *board, float *rack, float *unseen, float *sc,
                     float *bag, float *f, int8_t *mask)
{
    const PlayOut *po = &c->po;
    int n = po->n, L = c->letters, planes = L + 1 + 6;
    size_t nn = (size_t)n * n;
    memset(board, 0, (size_t)planes * nn * sizeof(float));
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
    for (int q = 0; q < po->np; q++)
        sc[q] = (float)po->scores[(seat + q) % po->np];
    bag[0] = (float)po->nb;
    memset(f, 0, (size_t)c->k * 8 * sizeof(float));
    memset(mask, 0, (size_t)c->k);
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
