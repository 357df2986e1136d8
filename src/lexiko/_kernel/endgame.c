/*
 * lexiko._kernel, endgame.c: the endgame solver's search: negamax with alpha-beta, the
 * transposition table, the greedy play-out below the depth limit, the exact answer when
 * both sides hold one tile, the node's move order and bounds (eg_node), and the
 * iterative deepening the bindings' endgame() drives. See the comment in endgame.h.
 */
#include <time.h>

#include "endgame.h"

double eg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int eg_scoreless_end(const Eg *eg, const uint8_t *own, const uint8_t *opp)
{
    return eg->penalties ? eg_value(eg, opp) - eg_value(eg, own) : 0;
}

/* Nodes and play-out steps between looks at the clock: a step of a play-out with blanks
 * on the racks generates thousands of plays, so the clock is read often enough for a
 * time limit to hold within milliseconds, and seldom enough to cost nothing. */
#define EG_CLOCK_EVERY 8

static int eg_check_time(Eg *eg)
{
    if (eg->deadline > 0 && !(++eg->ticks % EG_CLOCK_EVERY) && eg_now() > eg->deadline)
        eg->timed_out = 1;
    if (eg->node_cap && eg->nodes > eg->node_cap)
        eg->timed_out = 1;
    return eg->timed_out;
}

/* The greedy play-out from here (cells, whose key is bkey, the board the Gen is
 * prepared for): the spread the side on turn gains. -1 in *err: no memory. */
static int eg_playout(Eg *eg, const uint8_t *cells0, uint64_t bkey, const uint8_t *me0, const uint8_t *opp0,
                      int scoreless, int *err)
{
    uint64_t key = mix64(bkey ^ eg_rack_key(me0, 0x1234) ^ (uint64_t)scoreless * 0x51ED27) | 1;
    EgPlay *slot = &eg->pc[key & eg->pc_mask];
    if (slot->key == key)
        return slot->value;
    int n = eg->po->n;
    uint8_t cells[MAXN * MAXN], me[64], opp[64];
    memcpy(cells, cells0, (size_t)n * n);
    memcpy(me, me0, 64);
    memcpy(opp, opp0, 64);
    int sign = 1, total = 0, result;
    size_t mark = eg->nundo;
    for (int steps = 0;; steps++) {
        Move *mv = NULL;
        size_t cnt = 0;
        if (steps && eg_check_time(eg)) { /* out of time: the value is not kept */
            eg_unmake(eg, mark);
            return 0;
        }
        if (eg_generate(eg, me, EG_BEST, &mv, &cnt) < 0) {
            eg_unmake(eg, mark);
            *err = 1;
            return 0;
        }
        if (cnt) {
            Move m = mv[0];
            free(mv);
            eg_place(cells, n, &m, me);
            total += sign * m.score;
            if (!eg_tiles(me)) {
                result = total + sign * 2 * eg_value(eg, opp);
                break;
            }
            eg_make(eg, cells, &m);
            scoreless = m.score > 0 ? 0 : scoreless + 1;
        } else {
            free(mv);
            scoreless++;
        }
        if (scoreless >= eg->limit || steps > 1000) {
            result = total + sign * eg_scoreless_end(eg, me, opp);
            break;
        }
        uint8_t t[64];
        memcpy(t, me, 64);
        memcpy(me, opp, 64);
        memcpy(opp, t, 64);
        sign = -sign;
    }
    eg_unmake(eg, mark);
    slot->key = key;
    slot->value = result;
    return result;
}

/* The search's Gen: the lexicon and the board's constants, prepared for the board
 * searched from (eg_make and eg_unmake keep it for the board of the node searched). */
void eg_init_gen(Eg *eg)
{
    PlayOut *po = eg->po;
    Gen *g = po->g;
    memset(g, 0, sizeof(Gen));
    g->kwg = po->kwg;
    g->nk = po->nk;
    g->n = po->n;
    memcpy(g->values, po->values, 128);
    g->depth = po->depth;
    if (po->ana) {
        g->alphabet = po->alphabet;
        g->ana = po->ana;
        g->ana_mask = po->ana_mask;
    }
    g->bingo_tiles = po->bingo_tiles;
    memcpy(g->bonus, po->bonus, sizeof g->bonus);
    g->min_tiles = po->first_min;
    g->dirs = 2;
    prepare(g, po->cells, po->lmult, po->wmult, po->start_r, po->start_c);
    eg->root_empty = g->empty_board;
    eg->nundo = 0;
}

static int eg_node(Eg *eg, int ply, const uint8_t *cells, uint64_t bkey, const uint8_t *me, const uint8_t *opp,
                   int scoreless, int depth, int alpha, int beta, EgEntry *e, uint64_t key, int have_tt,
                   uint64_t tt_move, int *complete, int *err);

/* Both sides hold one tile (the Gen prepared for a board with tiles): every play goes
 * out, so passes are the only moves that do not end the game, and the value follows
 * from each side's best play of its tile on this board and the run of scoreless turns,
 * with no search. Backwards from the last turn of the run: the side on turn at run k
 * goes out, or passes (ending the game when the run reaches the limit, else handing the
 * turn at run k + 1), whichever is worth more, going out on a tie (the search's order). */
static int eg_last_tiles(Eg *eg, int ply, const uint8_t *me, const uint8_t *opp, int scoreless, uint64_t *mhash)
{
    Gen *g = eg->po->g;
    Move mv[2];
    int has[2], out[2], endv[2];
    int va = eg_value(eg, me), vb = eg_value(eg, opp);
    has[0] = eg_single_best(g, me, &mv[0]);
    has[1] = eg_single_best(g, opp, &mv[1]);
    out[0] = has[0] ? mv[0].score + 2 * vb : -EG_INF;
    out[1] = has[1] ? mv[1].score + 2 * va : -EG_INF;
    endv[0] = eg->penalties ? vb - va : 0; /* for the side whose pass ends the game */
    endv[1] = -endv[0];
    int top = scoreless > eg->limit - 1 ? scoreless : eg->limit - 1;
    int w[EG_MAXPLY + 2];
    uint8_t goes_out[EG_MAXPLY + 2];
    if (top - scoreless > EG_MAXPLY)
        top = scoreless + EG_MAXPLY;
    for (int k = top; k >= scoreless; k--) {
        int side = (k - scoreless) & 1;
        int pass = k + 1 >= eg->limit || k == top ? endv[side] : -w[k + 1 - scoreless];
        goes_out[k - scoreless] = has[side] && out[side] >= pass;
        w[k - scoreless] = goes_out[k - scoreless] ? out[side] : pass;
    }
    int len = 0;
    for (int k = scoreless; len < EG_MAXPLY - ply; k++) {
        int side = (k - scoreless) & 1;
        if (goes_out[k - scoreless]) {
            eg->pv[ply][len] = mv[side];
            eg->pvpass[ply][len++] = 0;
            break;
        }
        int ends = k + 1 >= eg->limit || k == top;
        eg->pvpass[ply][len++] = (uint8_t)(ends ? 2 : 1);
        if (ends)
            break;
    }
    eg->pvlen[ply] = len;
    if (ply + len > eg->seldepth)
        eg->seldepth = ply + len;
    *mhash = goes_out[0] ? eg_move_hash(&mv[0]) : 0;
    return w[0];
}

int eg_zero_tiles(const Eg *eg, const uint8_t *rack)
{
    int k = 0;
    for (int c = 0; c < 64; c++)
        if (!eg->po->values[c])
            k += rack[c];
    return k;
}

/* Store entry x (its search took nodes nodes) in bucket: in the first entry when that
 * holds the same position or a search no dearer, the first's entry moving to the second;
 * else in the second. With tens of millions of nodes the table is full: always replacing
 * would let the many cheap nodes near the ends of lines push out the few dear ones near
 * the root. */
static void eg_store(Eg *eg, EgEntry *bucket, EgEntry *x, long long nodes)
{
    (void)eg;
    int w = 0;
    while (w < 63 && nodes > 1) {
        nodes >>= 1;
        w++;
    }
    x->work = (uint8_t)w;
    if (bucket[0].key == x->key || bucket[0].work <= w) {
        if (bucket[0].key != x->key && bucket[0].key)
            bucket[1] = bucket[0];
        bucket[0] = *x;
    } else {
        bucket[1] = *x;
    }
}

/* negamax: the value for the side on turn; *complete: exact whatever the depth. cells
 * (key bkey) is the board; the Gen is prepared for it, or, when pend is given, for it
 * without the tiles of pend (made here only once the table has not answered). */
static int eg_search(Eg *eg, int ply, const uint8_t *cells, uint64_t bkey, const Move *pend, const uint8_t *me,
                     const uint8_t *opp, int scoreless, int depth, int alpha, int beta, int *complete, int *err)
{
    eg->nodes++;
    eg->pvlen[ply] = 0;
    /* the root is not stopped before its first move: it answers with the best so far */
    if ((ply && eg_check_time(eg)) || *err) {
        *complete = 0;
        return 0;
    }
    /* When neither side can make a scoreless play, a run of scoreless turns short of
     * the last two does not change the value (a pass answered by a pass comes back to
     * the same choices, and max(a, min(c, v)) taken twice is taken once), so below
     * the root it is searched as limit - 2: pass chains end sooner, and the positions
     * they reach meet in the table. A scoreless play puts down only tiles worth no
     * points and makes words of such tiles alone, one of them on the board (a play
     * touches the board): so none is possible when the racks hold no such tile, or the
     * board none (none of the racks' own played yet). */
    if (ply > 0 && scoreless < eg->limit - 2 && !eg->root_empty) {
        int z = eg_zero_tiles(eg, me) + eg_zero_tiles(eg, opp);
        if (!z || (!eg->board_zero && z == eg->zero_tiles))
            scoreless = eg->limit - 2;
    }
    uint64_t key = mix64(bkey ^ eg_rack_key(me, 0x9E37) ^ eg_rack_key(opp, 0x7F4A) ^ (uint64_t)scoreless * 0xC2B2AE35);
    /* the table's buckets hold two entries: the first keeps the dearer search, the
     * second the latest (see eg_store) */
    EgEntry *bucket = &eg->tt[key & eg->tt_mask & ~(uint64_t)1];
    EgEntry *e = bucket[0].key == key ? &bucket[0] : &bucket[1];
    uint64_t tt_move = 0;
    int have_tt = 0;
    if (e->key == key) {
        /* an exact value answers only on a null window: on the principal variation the
         * node is searched again (its line is wanted; its children answer from here) */
        if (ply > 0 && e->depth >= depth) {
            int c = e->depth == EG_COMPLETE;
            if ((e->flag == EG_EXACT && (beta - alpha <= 1 || e->value <= alpha || e->value >= beta)) ||
                (e->flag == EG_LOWER && e->value >= beta) || (e->flag == EG_UPPER && e->value <= alpha)) {
                *complete = c;
                return e->value;
            }
        }
        if (e->has_move) {
            tt_move = e->mhash;
            have_tt = 1;
        }
    }
    size_t mark = eg->nundo;
    if (pend)
        eg_make(eg, cells, pend);
    int v;
    long long nodes0 = eg->nodes;
    EgEntry ne;
    ne.key = 0;
    e = &ne; /* what the search finds, stored below */
    if (!(eg->root_empty && !eg->nundo) && eg_tiles(me) == 1 && eg_tiles(opp) == 1) {
        uint64_t mh;
        v = eg_last_tiles(eg, ply, me, opp, scoreless, &mh);
        *complete = 1;
        e->key = key;
        e->value = v;
        e->depth = EG_COMPLETE;
        e->flag = EG_EXACT;
        e->has_move = 1;
        e->mhash = mh;
    } else if (depth <= 0 || ply >= EG_MAXPLY) {
        *complete = 0;
        v = eg_playout(eg, cells, bkey, me, opp, scoreless, err);
    } else {
        v = eg_node(eg, ply, cells, bkey, me, opp, scoreless, depth, alpha, beta, e, key, have_tt, tt_move, complete,
                    err);
    }
    eg_unmake(eg, mark);
    if (ne.key == key)
        eg_store(eg, bucket, &ne, eg->nodes - nodes0);
    return v;
}

/* key descending, then move_cmp (the generator's order: by score) or index ascending */
static int eg_order_cmp(const void *x, const void *y)
{
    const EgOrder *a = (const EgOrder *)x, *b = (const EgOrder *)y;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    if (a->m && b->m)
        return move_cmp(a->m, b->m);
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* key descending, then as the order without it: the table's move first, the pass last,
 * key2 descending, move_cmp */
static int eg_order2_cmp(const void *x, const void *y)
{
    const EgOrder *a = (const EgOrder *)x, *b = (const EgOrder *)y;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    if (a->tt != b->tt)
        return a->tt ? -1 : 1;
    if (a->pass != b->pass)
        return a->pass ? 1 : -1;
    if (a->key2 != b->key2)
        return a->key2 > b->key2 ? -1 : 1;
    if (a->m && b->m)
        return move_cmp(a->m, b->m);
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The state of a node eg_node searches: its moves in the order they are tried, the
 * bounds of the window, and the best found so far. */
typedef struct {
    int ply, scoreless, depth, alpha, beta, ntiles;
    const uint8_t *cells, *me, *opp;
    uint64_t bkey;
    Move *mv; /* the placements (eg_generate's list) */
    size_t cnt;
    Move out; /* the best play going out, when have_out */
    int have_out, out_value;
    int32_t *order; /* the moves in the order tried: index into mv; -1: the pass */
    size_t total;
    int one_opp;                /* the opponent holds one tile: the moves go by the bounds ub */
    int32_t *ub;                /* NULL, or by the order's index: the bound of the move's value */
    EgSq *zl, *ul[8];           /* eg_single_squares of the opponent's tile; of this side's last tile */
    int nz, nu[8], ucode[8], nlists, vz;
    int best, all_complete, first;
    uint64_t best_hash;
    uint8_t after[MAXN * MAXN], rest[64]; /* the board and this side's rack after the move tried */
} EgNode;

/* The node's answer when its best play going out (nd->out) decides it: the line, and the
 * table's entry e. */
static int eg_node_out_answer(Eg *eg, const EgNode *nd, EgEntry *e, uint64_t key, int *complete)
{
    int ply = nd->ply;
    eg->pv[ply][0] = nd->out;
    eg->pvpass[ply][0] = 0;
    eg->pvlen[ply] = 1;
    *complete = 1;
    e->key = key;
    e->value = nd->out_value;
    e->depth = EG_COMPLETE;
    e->flag = nd->ntiles == 1 ? EG_EXACT : EG_LOWER;
    e->has_move = 1;
    e->mhash = eg_move_hash(&nd->out);
    return nd->out_value;
}

/* The best play going out first: it is worth more than every other play going out
 * (those are not searched), and often enough to cut off. With one tile every play goes
 * out: the best is found by a look at each anchor, and the pass is the only other move,
 * so no list is made. 1: the best play going out decides the node (eg_node_out_answer);
 * 0: the node is searched, its placements listed in nd->mv; -1: no memory. */
static int eg_node_out(Eg *eg, EgNode *nd)
{
    int ply = nd->ply, ntiles = nd->ntiles;
    const uint8_t *me = nd->me, *opp = nd->opp;
    Gen *g = eg->po->g;
    if (ntiles > 1 && eg->has_killer[ply] && !g->empty_board && eg_placed(&eg->killer[ply]) == ntiles) {
        /* the play going out that cut off last at this ply (the same side, most often
         * the same rack): when it is legal here and cuts off again, no list is made */
        int sc;
        if (eg_check_out(g, &eg->killer[ply], me, &sc) && sc + 2 * eg_value(eg, opp) >= nd->beta) {
            nd->out = eg->killer[ply];
            nd->out.score = sc;
            nd->out.equity = sc;
            nd->out_value = sc + 2 * eg_value(eg, opp);
            return 1;
        }
    }
    if (eg_generate(eg, me, ntiles == 1 ? EG_SINGLE : EG_ALL, &nd->mv, &nd->cnt) < 0)
        return -1;
    const Move *mv = nd->mv;
    for (size_t i = 0; i < nd->cnt; i++)
        if (eg_placed(&mv[i]) == ntiles && (!nd->have_out || mv[i].score > nd->out.score ||
                                            (mv[i].score == nd->out.score && move_cmp(&mv[i], &nd->out) < 0))) {
            nd->out = mv[i];
            nd->have_out = 1;
        }
    if (nd->have_out)
        nd->out_value = nd->out.score + 2 * eg_value(eg, opp);
    /* With one tile, going out is worth at least the pass: against the opponent's
     * passing back until the game ends (the board then never changes) the pass is worth
     * at most going out on this board, or the scoreless end, which is less (the out
     * gains twice the opponent's rack, the end at most once it, less the tile). So the
     * best play going out is the exact value, and the pass is not searched. */
    if (nd->have_out && (nd->out_value >= nd->beta || ntiles == 1)) {
        free(nd->mv);
        nd->mv = NULL;
        if (ntiles > 1) {
            eg->killer[ply] = nd->out;
            eg->has_killer[ply] = 1;
        }
        return 1;
    }
    return 0;
}

/* The order the moves are tried in (nd->order): the best play going out (tried first,
 * apart), the table's move, the others by score, the pass (every other play going out is
 * worth less than the best one: not searched). 0, or -1: no memory. */
static int eg_node_order(Eg *eg, EgNode *nd, int have_tt, uint64_t tt_move)
{
    const Move *mv = nd->mv;
    size_t total = nd->cnt + 1;
    int32_t *order = nd->order = (int32_t *)malloc(total * sizeof(int32_t));
    if (!order)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < nd->cnt; i++)
        if (!nd->have_out || eg_placed(&mv[i]) != nd->ntiles)
            order[k++] = (int32_t)i;
    nd->one_opp = eg_tiles(nd->opp) == 1 && !eg->po->g->empty_board; /* sorted by the bounds first */
    if (!nd->one_opp) {
        /* the others by score plus EG_TILE_WEIGHT points a tile played (ties: by score):
         * a play that puts down more tiles brings its side nearer going out.
         * Measured on the 30 first bag-empty positions of the shared games solved in
         * 0.1-30 s: 31% fewer nodes than by score alone (3 points a tile: 19% fewer). */
        EgOrder *ord = (EgOrder *)malloc((k ? k : 1) * sizeof(EgOrder));
        if (ord) {
            for (size_t i = 0; i < k; i++) {
                ord[i].key = mv[order[i]].score + EG_TILE_WEIGHT * eg_placed(&mv[order[i]]);
                ord[i].idx = order[i];
                ord[i].m = &mv[order[i]];
            }
            qsort(ord, k, sizeof(EgOrder), eg_order_cmp);
            for (size_t i = 0; i < k; i++)
                order[i] = ord[i].idx;
            free(ord);
        }
    }
    order[k++] = -1;
    total = k;
    if (have_tt) {
        for (size_t i = 0; i < total; i++) {
            uint64_t h = order[i] < 0 ? 0 : eg_move_hash(&mv[order[i]]);
            if (h == tt_move) {
                int32_t x = order[i];
                memmove(order + 1, order, i * sizeof(int32_t));
                order[0] = x;
                break;
            }
        }
    }
    nd->total = total;
    return 0;
}

/* The bound of move m's value (the opponent holding one tile; see eg_node_bounds) on
 * board2, the board before it, which it leaves as it was. */
static int eg_node_move_bound(Eg *eg, EgNode *nd, const Move *m, uint8_t *board2)
{
    Gen *g = eg->po->g;
    int n = eg->po->n, b = EG_INF;
    uint8_t left[64];
    int32_t sq[5 * MAXN];
    memcpy(left, nd->me, 64);
    eg_place(board2, n, m, left);
    int s2 = m->score > 0 ? 0 : nd->scoreless + 1;
    if (eg_tiles(left) && s2 < eg->limit) {
        int ns = eg_changed_squares(n, board2, m, sq);
        int zb = nd->nz ? eg_unchanged_best(nd->zl, nd->nz, sq, ns) : -1;
        if (zb >= 0)
            b = m->score - zb - 2 * eg_value(eg, left);
        if (eg_tiles(left) == 1) {
            int u = -1;
            for (int c = 0; c < 64 && u < 0; c++)
                if (left[c])
                    u = c;
            int k2 = eg_u_list(g, u, nd->ul, nd->nu, nd->ucode, &nd->nlists);
            if (k2 >= 0) {
                int most = eg_unchanged_best(nd->ul[k2], nd->nu[k2], sq, ns);
                for (int j = 0; j < ns; j++)
                    if (!board2[(sq[j] / MAXN) * n + sq[j] % MAXN]) {
                        int x = eg_square_most(g, board2, sq[j], g->values[u]);
                        if (x > most)
                            most = x;
                    }
                int b2 = m->score + 2 * nd->vz + (most > 0 ? most : 0);
                if (b2 < b)
                    b = b2;
            }
        }
    }
    for (int j = 0; j < m->len; j++) /* board2 back to cells */
        if (m->tiles[j])
            board2[m->down ? (m->row + j) * n + m->col : m->row * n + m->col + j] = 0;
    return b;
}

/* The opponent holding one tile: after a play (or the pass) that does not end the game,
 * it can go out on the next turn, which makes its value at least its best placement
 * there plus twice what this side has left; a square the play does not change keeps what
 * the tile scores on it. So the play's value is at most its score, less twice this side's
 * tiles left, less the opponent's best on an unchanged square: the moves go by that bound
 * (nd->ub), best first, and once it is no more than alpha, no move left can raise it (the
 * bound stands for their value: the answer is then an upper bound, exact as such).
 *
 * A play leaving this side one tile, u: once the opponent has answered (gone out, or
 * passed and the board unchanged), this side makes at most u's best on the board after
 * the play (or nothing) plus twice the opponent's tile. u scores on an unchanged square
 * what it scores there now, and on a changed one at most eg_square_most: a second bound,
 * taken when lower. */
static void eg_node_bounds(Eg *eg, EgNode *nd, int have_tt, uint64_t tt_move)
{
    Gen *g = eg->po->g;
    int n = eg->po->n;
    size_t total = nd->total;
    const Move *mv = nd->mv;
    int32_t *order = nd->order;
    nd->zl = (EgSq *)malloc(sizeof(EgSq) * (size_t)(n * n));
    int32_t *ub = nd->ub = (int32_t *)malloc(sizeof(int32_t) * total);
    EgOrder *ord = (EgOrder *)malloc(sizeof(EgOrder) * total);
    nd->nz = nd->zl ? eg_single_squares(g, nd->opp, nd->zl) : 0;
    if (!nd->zl || !ub || !ord) {
        free(ub);
        nd->ub = NULL;
        free(ord);
        return;
    }
    uint8_t board2[MAXN * MAXN];
    memcpy(board2, nd->cells, (size_t)n * n);
    for (size_t i = 0; i < total; i++) {
        int idx = order[i], b = EG_INF;
        if (nd->nz && idx < 0) {
            if (nd->scoreless + 1 < eg->limit) /* the pass: the opponent's best on this board */
                b = -(nd->zl[0].score + 2 * eg_value(eg, nd->me));
        } else if (idx >= 0) {
            b = eg_node_move_bound(eg, nd, &mv[idx], board2);
        }
        ord[i].key = b;
        ord[i].idx = (int32_t)i;
        ord[i].m = idx >= 0 ? &mv[idx] : NULL;
        ord[i].key2 = idx >= 0 ? mv[idx].score + EG_TILE_WEIGHT * eg_placed(&mv[idx]) : 0;
        ord[i].pass = idx < 0;
        ord[i].tt = have_tt && i == 0 && (idx < 0 ? 0 : eg_move_hash(&mv[idx])) == tt_move;
    }
    qsort(ord, total, sizeof(EgOrder), eg_order2_cmp); /* ties: as the order without the bounds */
    for (size_t i = 0; i < total; i++) {
        ub[i] = order[ord[i].idx]; /* ub holds the new order for a moment */
        ord[i].idx = ord[i].key;
    }
    memcpy(order, ub, total * sizeof(int32_t));
    for (size_t i = 0; i < total; i++)
        ub[i] = ord[i].idx;
    free(ord);
}

/* A play m leaving one tile u whose bound was above alpha: the bounds again, with the
 * squares it changes looked at on the board after it (nd->after; for u and for the
 * opponent's tile). 1 when the bound, in *bound, is at most alpha (the play need not be
 * searched). */
static int eg_node_bound_after(Eg *eg, EgNode *nd, const Move *m, int *bound)
{
    Gen *g = eg->po->g;
    int u = -1, sc = m->score;
    for (int c = 0; c < 64 && u < 0; c++)
        if (nd->rest[c])
            u = c;
    int k2 = eg_u_list(g, u, nd->ul, nd->nu, nd->ucode, &nd->nlists);
    if (k2 < 0)
        return 0;
    int su = eg_one_after(g, nd->after, m, nd->rest, nd->ul[k2], nd->nu[k2]);
    int sz = eg_one_after(g, nd->after, m, nd->opp, nd->zl, nd->nz);
    int r = sc + 2 * nd->vz + (su > 0 ? su : 0);
    if (sz >= 0 && sc - sz - 2 * eg_value(eg, nd->rest) < r)
        r = sc - sz - 2 * eg_value(eg, nd->rest);
    *bound = r;
    return r <= nd->alpha;
}

/* The value of move m (NULL: the pass) for the side on turn: the end of the game it
 * makes (*end_set), or its search below (*cc: exact whatever the depth). 1 when its bound
 * is at most alpha instead (in *v: the move is not searched). */
static int eg_node_child(Eg *eg, EgNode *nd, const Move *m, int *v, int *cc, int *end_set, int *err)
{
    int n = eg->po->n, sc, s2, endv = 0, alpha = nd->alpha, beta = nd->beta;
    const uint8_t *me = nd->me, *opp = nd->opp;
    uint8_t *rest = nd->rest;
    *end_set = 0;
    memcpy(rest, me, 64);
    if (!m) {
        sc = 0;
        s2 = nd->scoreless + 1;
        if (s2 >= eg->limit) {
            *end_set = 1;
            endv = eg_scoreless_end(eg, me, opp);
        }
    } else {
        sc = m->score;
        memcpy(nd->after, nd->cells, (size_t)n * n);
        eg_place(nd->after, n, m, rest);
        s2 = sc > 0 ? 0 : nd->scoreless + 1;
        if (!eg_tiles(rest)) {
            *end_set = 1;
            endv = sc + 2 * eg_value(eg, opp);
        } else if (s2 >= eg->limit) {
            *end_set = 1;
            endv = sc + eg_scoreless_end(eg, rest, opp);
        }
    }
    if (!*end_set && nd->ub && m && eg_tiles(rest) == 1 && eg_node_bound_after(eg, nd, m, v))
        return 1;
    if (*end_set) {
        *v = endv;
        eg->pvlen[nd->ply + 1] = 0;
        return 0;
    }
    int ply = nd->ply, depth = nd->depth;
    const uint8_t *bc = m ? nd->after : nd->cells;
    uint64_t bk = m ? nd->bkey + eg_place_key(n, m) : nd->bkey;
    if (nd->first || beta - alpha <= 1) {
        *v = sc - eg_search(eg, ply + 1, bc, bk, m, opp, rest, s2, depth - 1, sc - beta, sc - alpha, cc, err);
    } else {
        *v = sc - eg_search(eg, ply + 1, bc, bk, m, opp, rest, s2, depth - 1, sc - alpha - 1, sc - alpha, cc, err);
        if (alpha < *v && *v < beta && !eg->timed_out && !*err)
            *v = sc - eg_search(eg, ply + 1, bc, bk, m, opp, rest, s2, depth - 1, sc - beta, sc - alpha, cc, err);
    }
    return 0;
}

/* Move m (NULL: the pass; end_set: ending the game) is the best so far: its line. */
static void eg_node_line(Eg *eg, int ply, const Move *m, int end_set)
{
    eg->pvpass[ply][0] = m ? 0 : end_set ? 2 : 1; /* 2: the pass ending the game */
    if (m)
        eg->pv[ply][0] = *m;
    int cl = eg->pvlen[ply + 1];
    if (end_set)
        cl = 0;
    for (int j = 0; j < cl && j + 1 < EG_MAXPLY; j++) {
        eg->pv[ply][j + 1] = eg->pv[ply + 1][j];
        eg->pvpass[ply][j + 1] = eg->pvpass[ply + 1][j];
    }
    eg->pvlen[ply] = 1 + (cl < EG_MAXPLY - 1 ? cl : EG_MAXPLY - 1);
}

/* Try the moves in order, best value so far in nd->best, until one cuts off (alpha >=
 * beta), the bound of the rest is at most alpha, or the search stops (time, memory). */
static void eg_node_moves(Eg *eg, EgNode *nd, int *err)
{
    for (size_t i = 0; i < nd->total; i++) {
        int idx = nd->order[i];
        int end_set, v, cc = 1;
        if (nd->ub && nd->ub[i] <= nd->alpha) {
            if (nd->ub[i] > nd->best)
                nd->best = nd->ub[i];
            break;
        }
        const Move *m = idx >= 0 ? &nd->mv[idx] : NULL;
        if (eg_node_child(eg, nd, m, &v, &cc, &end_set, err)) {
            if (v > nd->best)
                nd->best = v;
            continue;
        }
        if (eg->timed_out || *err)
            break;
        nd->first = 0;
        nd->all_complete = nd->all_complete && cc;
        if (v > nd->best) {
            nd->best = v;
            nd->best_hash = m ? eg_move_hash(m) : 0;
            eg_node_line(eg, nd->ply, m, end_set);
            if (v > nd->alpha) {
                nd->alpha = v;
                if (nd->alpha >= nd->beta)
                    break;
            }
        }
    }
}

/* The root stopped by the clock: the best move valued so far, else the first in the
 * order (valued at its score), as the answer of a search that finished no depth. */
static void eg_root_partial(Eg *eg, const EgNode *nd)
{
    eg->root_partial = 1;
    if (nd->best > -EG_INF && eg->pvlen[0] > 0) {
        eg->root_value = nd->best;
        return;
    }
    int idx = nd->total ? nd->order[0] : -1;
    eg->pvlen[0] = 1;
    eg->pvpass[0][0] = idx < 0;
    eg->root_value = 0;
    if (idx >= 0) {
        eg->pv[0][0] = nd->mv[idx];
        eg->root_value = nd->mv[idx].score;
    }
}

/* The root chose the pass, worth nd->best: a play worth as much is kept instead (a pass
 * that gains nothing, as when the opponent is stuck, reads as stalling). Each play is
 * searched on the null window just below the pass's value; the first to reach it is
 * the answer. The table's pass is tried first (the deepening's earlier depths often
 * rank it first: trying it last costs more), so a tie is only found so. */
static void eg_root_tie(Eg *eg, EgNode *nd, int *err)
{
    int v0 = nd->best;
    nd->first = 0;
    for (size_t i = 0; i < nd->total; i++) {
        int idx = nd->order[i];
        if (idx < 0)
            continue;
        const Move *m = &nd->mv[idx];
        int end_set, v, cc = 1;
        nd->alpha = v0 - 1;
        nd->beta = v0;
        if (eg_node_child(eg, nd, m, &v, &cc, &end_set, err))
            continue;
        if (eg->timed_out || *err)
            return;
        if (v >= v0) { /* again on a window holding v0, for its line */
            nd->alpha = v0 - 1;
            nd->beta = v0 + 1;
            nd->first = 1;
            if (eg_node_child(eg, nd, m, &v, &cc, &end_set, err) || eg->timed_out || *err || v < v0)
                return;
            nd->best = v;
            nd->best_hash = eg_move_hash(m);
            eg_node_line(eg, nd->ply, m, end_set);
            return;
        }
    }
}

static void eg_node_free(EgNode *nd)
{
    free(nd->order);
    free(nd->ub);
    for (int li = 0; li < nd->nlists; li++)
        free(nd->ul[li]);
    free(nd->zl);
    free(nd->mv);
}

/* eg_search past the table, with the Gen prepared for cells: the best play going out,
 * the moves' order (by the bounds against an opponent holding one tile), then each move
 * searched. */
static int eg_node(Eg *eg, int ply, const uint8_t *cells, uint64_t bkey, const uint8_t *me, const uint8_t *opp,
                   int scoreless, int depth, int alpha, int beta, EgEntry *e, uint64_t key, int have_tt,
                   uint64_t tt_move, int *complete, int *err)
{
    if (ply + 1 > eg->seldepth)
        eg->seldepth = ply + 1;
    EgNode nd;
    memset(&nd, 0, offsetof(EgNode, after));
    nd.ply = ply;
    nd.scoreless = scoreless;
    nd.depth = depth;
    nd.alpha = alpha;
    nd.beta = beta;
    nd.cells = cells;
    nd.bkey = bkey;
    nd.me = me;
    nd.opp = opp;
    nd.ntiles = eg_tiles(me);
    nd.out_value = -EG_INF;
    int r = eg_node_out(eg, &nd);
    if (r > 0)
        return eg_node_out_answer(eg, &nd, e, key, complete);
    if (r < 0) {
        *err = 1;
        *complete = 0;
        return 0;
    }
    /* No play on this board: against the opponent's passing back the board never
     * changes, and the game ends in the scoreless end, so that is the most this side
     * can make (whatever the opponent does instead is its choice). */
    if (!nd.cnt) {
        int endv = eg_scoreless_end(eg, me, opp);
        if (endv <= alpha) {
            free(nd.mv);
            eg->pvpass[ply][0] = 1;
            eg->pvlen[ply] = 1;
            *complete = 1;
            e->key = key;
            e->value = endv;
            e->depth = EG_COMPLETE;
            e->flag = EG_UPPER;
            e->has_move = 1;
            e->mhash = 0;
            return endv;
        }
    }
    if (eg_node_order(eg, &nd, have_tt, tt_move) < 0) {
        free(nd.mv);
        *err = 1;
        *complete = 0;
        return 0;
    }
    nd.vz = eg_value(eg, opp);
    if (nd.one_opp)
        eg_node_bounds(eg, &nd, have_tt, tt_move);
    nd.best = -EG_INF;
    nd.all_complete = 1;
    nd.first = 1;
    if (nd.have_out) {
        nd.best = nd.out_value;
        nd.best_hash = eg_move_hash(&nd.out);
        eg->pv[ply][0] = nd.out;
        eg->pvpass[ply][0] = 0;
        eg->pvlen[ply] = 1;
        if (nd.best > nd.alpha)
            nd.alpha = nd.best;
        nd.first = 0;
    }
    eg_node_moves(eg, &nd, err);
    if (!ply && !eg->timed_out && !*err && nd.best > -EG_INF && !nd.best_hash && eg->pvlen[0] && eg->pvpass[0][0])
        eg_root_tie(eg, &nd, err);
    if (!ply && eg->timed_out && !*err)
        eg_root_partial(eg, &nd);
    eg_node_free(&nd);
    if (eg->timed_out || *err) {
        *complete = 0;
        return 0;
    }
    int best = nd.best;
    *complete = nd.all_complete;
    e->key = key;
    e->value = best;
    e->depth = (int16_t)(nd.all_complete ? EG_COMPLETE : depth);
    e->flag = best <= alpha ? EG_UPPER : best >= beta ? EG_LOWER : EG_EXACT;
    e->has_move = 1;
    e->mhash = nd.best_hash;
    return best;
}

Eg *eg_new(void)
{
    Eg *eg = (Eg *)calloc(1, sizeof(Eg));
    if (eg)
        eg->po = (PlayOut *)calloc(1, sizeof(PlayOut));
    if (eg && eg->po)
        eg->po->g = (Gen *)calloc(1, sizeof(Gen));
    if (eg && eg->po && eg->po->g) {
        /* 8M entries (192 MB, zeroed pages touched as used): josh_nationals_round_27 takes 20.0M
         * nodes (20.3M with 4M entries); noah_vs_peter took 39M with 4M, 66M with 1M, before the
         * bounds against one tile */
        eg->tt_mask = ((uint64_t)1 << 23) - 1;
        eg->pc_mask = ((uint64_t)1 << 18) - 1;
        eg->tt = (EgEntry *)calloc(eg->tt_mask + 1, sizeof(EgEntry));
        eg->pc = (EgPlay *)calloc(eg->pc_mask + 1, sizeof(EgPlay));
        eg->wc_mask = ((uint64_t)1 << 16) - 1;
        eg->wc = (EgWord *)calloc(eg->wc_mask + 1, sizeof(EgWord)); /* NULL: words looked up each time */
    }
    if (!eg || !eg->po || !eg->po->g || !eg->tt || !eg->pc) {
        eg_free(eg);
        return NULL;
    }
    return eg;
}

void eg_free(Eg *eg)
{
    if (!eg)
        return;
    if (eg->po)
        free(eg->po->g);
    free(eg->po);
    free(eg->tt);
    free(eg->pc);
    free(eg->wc);
    free(eg);
}

uint64_t eg_position(Eg *eg, const uint8_t *cells, const uint8_t *me, const uint8_t *opp, int limit)
{
    PlayOut *po = eg->po;
    eg_init_gen(eg);
    eg->limit = limit > 0 ? limit : 2;
    eg->penalties = limit > 0;
    uint64_t bkey = 0;
    for (int i = 0; i < po->n * po->n; i++)
        if (cells[i]) {
            bkey += eg_square_key(i, cells[i]);
            eg->board_zero |= !po->values[cells[i]];
        }
    eg->zero_tiles = eg_zero_tiles(eg, me) + eg_zero_tiles(eg, opp);
    return bkey;
}

void eg_deepen_init(EgDeepen *d, int max_depth, double time_limit)
{
    memset(d, 0, sizeof *d);
    d->max_depth = max_depth;
    d->time_limit = time_limit;
    d->depth = 1;
    d->start = eg_now();
}

/* The nodes iterative deepening may take: fewer when a rack holds a tile worth no
 * points (a blank). A play-out step with a blank on the rack lists every letter the blank
 * can be, so there the plies before the search to the end cost many times more a node
 * and order it little better: with 20,000 nodes instead of 200,000 josh_nationals_round_30
 * (EEFIMT?/FGMOST) is exact in 27 processor-seconds instead of not within 60 s, quackle__logan
 * takes 4.3 s instead of 13, phonies_formed 6.1 s instead of 11.2. Without a blank the
 * plies pay for themselves: r11_wiegand takes 0.12M nodes with 200,000, 4M (not exact in
 * 60 s) with 20,000. */
static long long eg_deepen_nodes(const Eg *eg)
{
    return eg->zero_tiles ? EG_DEEPEN_NODES_BLANK : EG_DEEPEN_NODES;
}

/* The next depth, set up in eg (0: none is left). EG_DEEPEN plies by iterative deepening
 * (their lines order the moves), then to the end (or max_depth) at once: an exact answer
 * needs every line searched to its end anyway, and the depths in between cost more than
 * they save. */
int eg_deepen_next(Eg *eg, EgDeepen *d)
{
    if (d->started)
        d->depth = d->next;
    d->started = 1;
    int depth = d->depth;
    if (!(d->max_depth < 0 || depth <= d->max_depth))
        return 0;
    d->final = d->max_depth < 0 ? EG_MAXPLY : d->max_depth;
    d->next = depth < EG_DEEPEN && eg->nodes < eg_deepen_nodes(eg) ? depth + 1 : d->final;
    if (d->next <= depth)
        d->next = depth + 1;
    eg->deadline = d->time_limit > 0 ? d->start + d->time_limit : 0;
    eg->root_partial = 0;
    /* iterative deepening (not the last search) stops at eg_deepen_nodes nodes: with
     * blanks its play-outs can cost many times the search to the end (quackle__logan:
     * 8 s for three plies, then 0.4 s to the end). A count of nodes, not a time, so
     * that the search is the same on a busy machine. */
    d->capped = depth > 1 && depth < d->final;
    eg->node_cap = d->capped ? eg_deepen_nodes(eg) : 0;
    eg->seldepth = 0;
    d->c = 0;
    return 1;
}

void eg_deepen_search(Eg *eg, EgDeepen *d, const uint8_t *cells, uint64_t bkey, const uint8_t *me, const uint8_t *opp,
                      int scoreless)
{
    d->v = eg_search(eg, 0, cells, bkey, NULL, me, opp, scoreless, d->depth, -EG_INF, EG_INF, &d->c, &d->err);
}

/* EG_AGAIN: the capped deepening ran out of nodes, on to the search to the end (ordered
 * by the plies finished); EG_STOP: out of time or memory; EG_FOUND: the depth's value
 * and line are kept in d. */
int eg_deepen_result(Eg *eg, EgDeepen *d)
{
    if (eg->timed_out && d->capped && !d->err) {
        eg->timed_out = 0;
        d->next = d->final > d->depth ? d->final : d->depth + 1;
        return EG_AGAIN;
    }
    if (eg->timed_out && !d->err && !d->line_len && eg->root_partial) {
        /* no depth finished: the first ply's best so far, complete at no depth */
        d->value = eg->root_value;
        d->complete = 0;
        d->done = 0;
        d->line_len = eg->pvlen[0];
        memcpy(d->line, eg->pv[0], sizeof(Move) * (size_t)d->line_len);
        memcpy(d->line_pass, eg->pvpass[0], (size_t)d->line_len);
    }
    if (eg->timed_out || d->err)
        return EG_STOP;
    d->value = d->v;
    d->complete = d->c;
    d->done = d->depth < EG_MAXPLY ? d->depth : eg->seldepth; /* to the end: the longest line searched */
    d->line_len = eg->pvlen[0];
    memcpy(d->line, eg->pv[0], sizeof(Move) * (size_t)d->line_len);
    memcpy(d->line_pass, eg->pvpass[0], (size_t)d->line_len);
    return EG_FOUND;
}

/* Whether the search is over after a depth found: exact, as deep as it goes, or out of
 * time. */
int eg_deepen_finished(const Eg *eg, const EgDeepen *d)
{
    (void)eg;
    if (d->c || d->depth >= EG_MAXPLY)
        return 1;
    return d->time_limit > 0 && eg_now() > d->start + d->time_limit;
}
