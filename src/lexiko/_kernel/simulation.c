/*
 * lexiko._kernel, simulation.c: the simulation's play-outs of many iterations in one
 * call: iteration i shuffles the unseen tiles with lexiko.rng.Rng(seed_base + i), deals
 * the opponents' racks and leaves the rest as the bag; each candidate is made, then the
 * static player's turns follow (plies), and the play-out is valued as
 * lexiko.bots.simulation values it. A candidate's board and the opponents' best on the
 * board before the candidates are made once and shared by the play-outs.
 */
#include "simulation.h"

#include "leaves.h"
#include "rng.h"

Sim *sim_new(long nc)
{
    Sim *s = (Sim *)calloc(1, sizeof(Sim));
    if (!s)
        return NULL;
    s->nc = nc;
    s->base = (PlayOut *)calloc(1, sizeof(PlayOut));
    s->po = (PlayOut *)calloc(1, sizeof(PlayOut));
    s->cs = (SimCand *)calloc(nc ? (size_t)nc : 1, sizeof(SimCand));
    s->board = (Gen *)calloc(1, sizeof(Gen));
    s->cache = (RackCache *)calloc(PO_MAXP, sizeof(RackCache));
    s->base_best = (BaseBest *)calloc(PO_MAXP, sizeof(BaseBest));
    s->values = (double *)calloc(nc ? 2 * (size_t)nc : 2, sizeof(double));
    if (!s->base || !s->po || !s->cs || !s->board || !s->cache || !s->base_best || !s->values ||
        !(s->base->g = (Gen *)calloc(1, sizeof(Gen))) || !(s->base->board = (Gen *)calloc(1, sizeof(Gen)))) {
        sim_free(s);
        return NULL;
    }
    return s;
}

void sim_free(Sim *s)
{
    if (!s)
        return;
    if (s->base) {
        free(s->base->g);
        free(s->base->board);
    }
    free(s->base);
    free(s->po);
    free(s->board);
    if (s->cache)
        for (int p = 0; p < PO_MAXP; p++)
            rack_cache_free(&s->cache[p]);
    free(s->cache);
    free(s->base_best);
    free(s->cboards);
    free(s->ctouched);
    free(s->cready);
    free(s->cs);
    free(s->values);
    free(s);
}

int sim_prepare(Sim *s, const LeaveMapHead *lmh, int np, int plies)
{
    PlayOut *base = s->base;
    s->lmh = lmh;
    s->np = np;
    s->plies = plies;
    base->np = np;
    for (int p = 0; p < np; p++)
        base->maps[p] = lmh;
    /* the board's generator arrays, prepared once: each play-out starts from a copy and
     * keeps it up to date move by move (its last turn needs no update) */
    po_board_prepare(base);
    base->cache = s->cache;
    /* with several candidates, the opponents' best on this board with the racks an
     * iteration deals them, found once: each play-out searches only the lines its moves
     * touched (po_choose) */
    if (s->nc >= 3) {
        base->base_best = s->base_best;
        base->base_board = base->board;
    }
    /* a candidate's board is the same in every iteration: made once (with few candidates;
     * the copies must stay in the caches) */
    if (plies > 0 && s->nc <= 16 && !base->board->empty_board) {
        s->cboards = (Gen *)malloc((size_t)s->nc * sizeof(Gen));
        s->ctouched = (uint32_t(*)[2])calloc((size_t)s->nc, sizeof *s->ctouched);
        s->cready = (uint8_t *)calloc((size_t)s->nc, 1);
        if (!s->cboards || !s->ctouched || !s->cready)
            return SIM_NO_MEMORY;
    }
    return SIM_OK;
}

/* The pool of iteration it: the unseen tiles less those the first opponent holds for sure
 * (known: each its first copy, into held), shuffled by lexiko.rng.Rng(seed_base + it). */
static int sim_deal(const Sim *s, long long it, const uint8_t *known, int nknown, uint8_t *pool, int *npool,
                    uint8_t *held)
{
    Rng rng;
    rng_seed(&rng, s->seed0 + (uint64_t)it);
    int n = s->nunseen;
    memcpy(pool, s->unseen, (size_t)n);
    for (int x = 0; x < nknown; x++) {
        uint8_t t = known[x];
        int at = -1;
        for (int y = 0; y < n && at < 0; y++)
            if (pool[y] == t)
                at = y;
        if (at < 0)
            return SIM_KNOWN_NOT_UNSEEN;
        memmove(pool + at, pool + at + 1, (size_t)(n - at - 1));
        n--;
        held[x] = t;
    }
    rng_shuffle(&rng, pool, n);
    *npool = n;
    return SIM_OK;
}

/* s->po: the base's position with the racks of iteration it dealt from pool (the player's
 * rack, the first opponent's held tiles then the pool's first), the rest the bag. */
static void sim_start(Sim *s, const uint8_t *pool, int npool, const uint8_t *held, int nheld)
{
    PlayOut *po = s->po;
    Gen *g = s->base->g;
    memcpy(po, s->base, sizeof(PlayOut));
    po->g = g;
    for (int i = 0; i < s->nrack; i++) {
        po->rack[0][s->rack[i]]++;
        po->rack_n[0]++;
    }
    int k = 0;
    for (int x = 0; x < nheld; x++) {
        po->rack[1][held[x]]++;
        po->rack_n[1]++;
    }
    for (int q = 0; q < s->nopp; q++)
        for (int x = q ? 0 : nheld; x < s->opp[q]; x++) {
            po->rack[q + 1][pool[k++]]++;
            po->rack_n[q + 1]++;
        }
    po->nb = npool - k;
    memcpy(po->bag, pool + k, (size_t)po->nb);
    po->turn = 0;
    po->scoreless_run = s->scoreless_run;
    for (int p = 0; p < PO_MAXP; p++)
        po->kept_bag[p] = -1;
}

/* Whether candidate c can be made: its squares empty, its tiles on the player's rack. */
static int sim_candidate_ok(const PlayOut *po, const SimCand *c)
{
    int ok = 1, size = po->n;
    if (c->kind == 0) {
        uint8_t need[64] = {0};
        for (int x = 0; x < c->m.len; x++) {
            uint8_t t = c->m.tiles[x];
            if (t) {
                int at = (int)(c->m.down ? c->m.row + x : c->m.row) * size + (c->m.down ? c->m.col : c->m.col + x);
                if (po->cells[at])
                    ok = 0;
                need[t & BLANK_FLAG ? 0 : t & LETTER_MASK]++;
            }
        }
        for (int t = 0; t < 64; t++)
            if (need[t] > po->rack[0][t])
                ok = 0;
    } else if (c->kind == 1) {
        uint8_t need[64] = {0};
        for (int x = 0; x < c->nex; x++)
            if (c->ex[x] >= 64 || ++need[c->ex[x]] > po->rack[0][c->ex[x]])
                ok = 0;
    }
    return ok;
}

/* Make candidate j in s->po (its board kept, or taken from the first play-out that made
 * it), then the static turns. SIM_OK or SIM_NO_MEMORY. */
static int sim_play(Sim *s, long j)
{
    PlayOut *po = s->po;
    const SimCand *c = &s->cs[j];
    int made = s->cboards && c->kind == 0;
    if (made && !s->cready[j]) { /* its first play-out makes it */
        memcpy(&s->cboards[j], s->base->board, sizeof(Gen));
        po->board = &s->cboards[j];
    } else if (made) {
        po->board = NULL;
    }
    po_apply(po, c->kind, &c->m, c->ex, c->nex, NULL);
    if (made) {
        if (!s->cready[j]) {
            memcpy(s->ctouched[j], po->touched, sizeof po->touched);
            s->cready[j] = 1;
        }
        memcpy(s->board, &s->cboards[j], sizeof(Gen));
        memcpy(po->touched, s->ctouched[j], sizeof po->touched);
        po->board = s->board;
    }
    for (int ply = 0; ply < s->plies && !po->over; ply++) {
        po->last_turn = ply == s->plies - 1;
        if (po_turn(po, NULL) < 0)
            return SIM_NO_MEMORY;
    }
    return SIM_OK;
}

/* The value and win estimate of the play-out just played, as lexiko.bots.simulation
 * computes them. */
static void sim_value(const Sim *s, double *value_out, double *win_out)
{
    const PlayOut *po = s->po;
    int np = s->np;
    long long others = 0, top = 0;
    for (int q = 1; q < np; q++) {
        others += po->scores[q];
        long long f = s->init_scores[q] + po->scores[q];
        if (q == 1 || f > top)
            top = f;
    }
    double others_mean = np > 1 ? (double)others / (double)(np - 1) : 0.0;
    double value = (double)po->scores[0] - others_mean;
    double leave_value = 0.0;
    if (!po->over) {
        if (po->kept_bag[0] > 0)
            leave_value = leave_map_counts(s->lmh, po->kept[0]);
        /* less the mean value of what the opponents kept (0 for one who has not moved) */
        double opp = 0.0;
        for (int q = 1; q < np; q++)
            if (po->kept_bag[q] > 0)
                opp += leave_map_counts(s->lmh, po->kept[q]);
        if (np > 1)
            leave_value -= opp / (double)(np - 1);
    }
    value += leave_value;
    long long spread = s->init_scores[0] + po->scores[0] - (np > 1 ? top : 0);
    double win;
    if (po->over) {
        win = spread > 0 ? 1.0 : spread == 0 ? 0.5 : 0.0;
    } else {
        int left = po->nb;
        for (int q = 0; q < np; q++)
            left += po->rack_n[q];
        double width = 4.2 * sqrt((double)(po->nb + (left < 7 ? left : 7)));
        double x = ((double)spread + leave_value) / width;
        x = x < 60.0 ? x : 60.0;
        x = x > -60.0 ? x : -60.0;
        win = 1.0 / (1.0 + exp(-x));
    }
    *value_out = value;
    *win_out = win;
}

int sim_iteration(Sim *s, long long it, const uint8_t *known, int nknown, double *out)
{
    uint8_t pool[PO_MAXBAG], held[256]; /* known: at most the first opponent's rack, under 256 tiles */
    int npool;
    int r = sim_deal(s, it, known, nknown, pool, &npool, held);
    if (r != SIM_OK)
        return r;
    for (long j = 0; j < s->nc; j++) {
        PlayOut *po = s->po;
        int made = s->cboards && s->cs[j].kind == 0; /* the board after the candidate is kept */
        sim_start(s, pool, npool, held, nknown);
        if (!made || j == 0)
            memcpy(s->board, s->base->board, sizeof(Gen));
        po->board = s->board;
        po->last_turn = s->plies == 0;
        if (j == 0 && po->base_best)
            for (int q = 1; q < s->np && q <= s->plies; q++)
                if (po_fill_base_best(po, q) < 0)
                    return SIM_NO_MEMORY;
        rng_seed(&po->rng, s->seed0 + (uint64_t)it + 7919ULL * (uint64_t)(s->cs[j].id + 1));
        /* the candidate, then the static turns */
        if (!sim_candidate_ok(po, &s->cs[j]))
            return SIM_BAD_CANDIDATE;
        if ((r = sim_play(s, j)) != SIM_OK)
            return r;
        sim_value(s, &out[2 * j], &out[2 * j + 1]);
    }
    return SIM_OK;
}
