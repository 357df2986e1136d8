/*
 * lexiko._kernel, wordmap.c: best mode by the word map (run_wmp): look-ups of words and
 * blank letters by multiset, the rack's sub-racks, the groups of an anchor by first
 * square and tiles taken best bound first, each span's words checked square by square.
 * See "word map" in wordmap.h.
 */
#include "wordmap.h"

#include "anagram.h"
#include "movegen.h"

/* The words of `len` letters with the multiset of hash h (NULL: none). */
static const WmpSlot *wmp_find(Gen *g, uint64_t h, int len)
{
    uint64_t key = ana_key(h, len);
    unsigned c = (unsigned)((key ^ (key >> 31)) & 511);
    if (g->wc_key[c] == key)
        return g->wc_val[c];
    const WmpHead *wh = g->wmp;
    const WmpSlot *t = wmp_wt(wh), *r = NULL;
    uint64_t mask = wh->wslots - 1;
    if (!wmp_test(wmp_wf(wh), wh->wfbits, key))
        return NULL;
    for (uint64_t i = wmp_home(key) & mask, probes = 0; probes <= mask; i = (i + 1) & mask, probes++) {
        if (t[i].key == key && t[i].len == len) {
            r = &t[i];
            break;
        }
        if (!t[i].key)
            break;
    }
    if (r && (uint64_t)r->off + (uint64_t)r->cnt * r->len > wh->nletters)
        r = NULL; /* not a map wordmap() made */
    g->wc_key[c] = key;
    g->wc_val[c] = r;
    return r;
}

/* The letters x such that some word of len + 1 letters has the multiset of hash h + x. */
static uint64_t wmp_blank_mask(Gen *g, uint64_t h, int len)
{
    uint64_t key = ana_key(h, len);
    unsigned c = (unsigned)((key ^ (key >> 31)) & 255);
    if (g->bc_key[c] == key)
        return g->bc_val[c];
    const WmpHead *wh = g->wmp;
    const WmpBSlot *t = wmp_bt(wh);
    uint64_t mask = wh->bslots - 1, r = 0;
    if (!wmp_test(wmp_bf(wh), wh->bfbits, key))
        return 0;
    for (uint64_t i = wmp_home(key) & mask, probes = 0; probes <= mask; i = (i + 1) & mask, probes++) {
        if (t[i].key == key) {
            r = t[i].mask;
            break;
        }
        if (!t[i].key)
            break;
    }
    g->bc_key[c] = key;
    g->bc_val[c] = r;
    return r;
}

/* Whether some word of len letters may hold the letters of hash h and the rack's blanks:
 * anchor_bounds' test of the plays putting down the whole rack, by the word map's filters
 * when run_wmp searches (bits of a table far smaller than the anagram index's slots, and
 * one test for a blank where the index takes one per letter). A filter can only say yes
 * too often, and run_wmp finds no play where no word is: the same plays. */
int wmp_rack_word(const Gen *g, int len, uint64_t h)
{
    const WmpHead *wh = g->wmp;
    if (g->blanks0 == 0)
        return wmp_test(wmp_wf(wh), wh->wfbits, ana_key(h, len));
    if (g->blanks0 == 1)
        return wmp_test(wmp_bf(wh), wh->bfbits, ana_key(h, len - 1));
    for (uint64_t a = wh->alphabet; a; a &= a - 1) /* two blanks (wmp_fits) */
        if (wmp_test(wmp_bf(wh), wh->bfbits, ana_key(h + letter_hash[__builtin_ctzll(a)], len - 1)))
            return 1;
    return 0;
}

/* Whether run_wmp takes this rack: at most two blanks (the blank table answers for one
 * letter, a loop over the alphabet for a second) and WMP_MAX_SUBS sub-racks. */
int wmp_fits(const uint8_t *full)
{
    uint32_t total = 1;
    int nc = 0;
    if (full[0] > 2)
        return 0;
    for (int c = 0; c < 64; c++)
        if (full[c]) {
            total *= (uint32_t)full[c] + 1;
            if (++nc > PRUNE_MAX_RACK || total > WMP_MAX_SUBS)
                return 0;
        }
    return 1;
}

/* The rack's codes by value, highest first (byv: indexes into g->codes), their values
 * and how many of each the rack holds (in byv's order; g->rack the whole rack). */
static void wmp_by_value(const Gen *g, int *byv, int *val, int *fullv)
{
    int nc = g->ncodes;
    for (int j = 0; j < nc; j++) {
        val[j] = g->codes[j] ? g->values[g->codes[j]] : 0;
        int i = j;
        for (; i > 0 && val[byv[i - 1]] < val[j]; i--)
            byv[i] = byv[i - 1];
        byv[i] = j;
    }
    for (int i = 0; i < nc; i++)
        fullv[i] = g->rack[g->codes[byv[i]]];
}

/* The rack's sub-racks: g->subs by size, their places only (each size written, sorted and
 * its values filled by wmp_size_ready when first looked at: an opening's best move looks
 * at one or two sizes); 0 when out of memory. */
int wmp_setup(Gen *g, const uint8_t *full)
{
    int nc = 0, R = g->rack_left;
    uint32_t total = 1;
    if (!wmp_fits(full))
        return 0;
    for (int c = 0; c < 64; c++)
        if (full[c]) {
            g->codes[nc++] = (uint8_t)c;
            total *= (uint32_t)full[c] + 1;
        }
    g->ncodes = nc;
    SubRack *subs = (SubRack *)malloc(sizeof(SubRack) * total);
    g->cand = (const SubRack **)malloc(sizeof(SubRack *) * total);
    g->cand_e = (double *)malloc(sizeof(double) * total);
    if (!subs || !g->cand || !g->cand_e) {
        free(subs);
        free(g->cand);
        free(g->cand_e);
        g->cand = NULL;
        g->cand_e = NULL;
        return 0;
    }
    /* the number of sub-racks of each size, from the rack's counts (a product of
     * polynomials), so that each is written once, straight into its size's place */
    uint32_t count[PRUNE_MAX_RACK + 2] = {1};
    for (int j = 0; j < nc; j++) {
        int f = full[g->codes[j]];
        for (int k = R; k >= 1; k--)
            for (int d = 1; d <= f && d <= k; d++)
                count[k] += count[k - d];
    }
    int at[PRUNE_MAX_RACK + 2] = {0}; /* zeroed: gcc cannot tell every read is of one written */
    at[0] = 0; /* the empty sub-rack is not listed */
    for (int k = 1; k <= R + 1; k++)
        at[k] = at[k - 1] + (int)(k - 1 >= 1 ? count[k - 1] : 0);
    for (int k = 0; k <= R + 1; k++)
        g->sub_at[k] = at[k];
    for (int k = 1; k <= R; k++) /* no size built yet (wmp_size_ready builds them) */
        if (at[k] < at[k + 1])
            subs[at[k]].ready = 0;
    g->subs = subs;
    return 1;
}

/* Write the rack's sub-racks of k tiles (g->rack the whole rack) in index order at their
 * place in g->subs: an odometer over the codes on the rack, the lowest turning fastest. */
static void wmp_build_size(Gen *g, int k)
{
    const uint8_t *full = g->rack;
    SubRack *subs = g->subs;
    int nc = g->ncodes, at = g->sub_at[k];
    uint32_t total = 1;
    for (int j = 0; j < nc; j++)
        total *= (uint32_t)full[g->codes[j]] + 1;
    uint8_t dig[PRUNE_MAX_RACK] = {0};
    /* the sub-rack being built in scalars, not a struct copied whole: a wide load of
     * fields just stored one by one stalls (a store forwarded to a wider load) */
    uint64_t ch = 0, cnat = 0;
    uint32_t cleave = g->full_leave;
    int ck = 0, cb = 0;
    for (uint32_t idx = 1; idx < total; idx++) {
        for (int j = 0; j < nc; j++) { /* next sub-rack: one more of code j, none of those before */
            int c = g->codes[j];
            if (dig[j] < full[c]) {
                dig[j]++;
                ck++;
                cleave -= g->radix[c];
                if (c) {
                    ch += letter_hash[c];
                    cnat |= (uint64_t)1 << c;
                } else {
                    cb++;
                }
                break;
            }
            ck -= dig[j];
            cleave += dig[j] * g->radix[c];
            if (c) {
                ch -= dig[j] * letter_hash[c];
                cnat &= ~((uint64_t)1 << c);
            } else {
                cb = 0;
            }
            dig[j] = 0;
        }
        if (ck != k)
            continue;
        SubRack *s = &subs[at++];
        s->h = ch;
        s->nat = cnat;
        s->leave_idx = cleave;
        s->k = (uint8_t)ck;
        s->b = (uint8_t)cb;
        s->ready = 0;
        for (int j = 0; j < PRUNE_MAX_RACK; j++) /* bytes too: dig's were just stored one by one */
            s->dig[j] = j < nc ? dig[j] : 0;
        s->leave = g->leave_values ? g->leave_values[cleave] : 0.0;
    }
}

/* Make the sub-racks of k tiles ready to be looked at: best leave first (run_wmp stops at
 * the first leave too low; equal leaves in index order) and their tiles' values filled.
 * Done for a size only when one of its groups is looked at (an opening looks at few);
 * 0 when out of memory (they stay unsorted, which run_wmp cannot search: the call fails). */
int wmp_size_ready(Gen *g, int k)
{
    SubRack *s0 = g->subs + g->sub_at[k];
    int n = g->sub_at[k + 1] - g->sub_at[k];
    if (n <= 0 || s0->ready)
        return 1;
    wmp_build_size(g, k);
    /* a 7-tile rack has at most 35 sub-racks of a size: on the stack */
    SubRack sorted_small[64];
    uint16_t order_small[64];
    SubRack *sorted = sorted_small;
    uint16_t *order = order_small;
    if (n > 64) {
        sorted = (SubRack *)malloc(sizeof(SubRack) * (size_t)n);
        order = (uint16_t *)malloc(sizeof(uint16_t) * (size_t)n);
        if (!sorted || !order) {
            free(sorted);
            free(order);
            return 0;
        }
    }
    for (int i = 0; i < n; i++) {
        int a = i;
        for (; a > 0 && s0[order[a - 1]].leave < s0[i].leave; a--)
            order[a] = order[a - 1];
        order[a] = (uint16_t)i;
    }
    int byv[PRUNE_MAX_RACK], val[PRUNE_MAX_RACK], fullv[PRUNE_MAX_RACK];
    wmp_by_value(g, byv, val, fullv);
    for (int i = 0; i < n; i++) {
        SubRack *s = &sorted[i];
        *s = s0[order[i]];
        /* the values, highest first: every copy of each code's value on the rack
         * written (loops of the same length for every sub-rack: no branch to mispredict),
         * moved past by the copies taken; only the first k are read (wmp_sub_bound) */
        memset(s->vd, 0, sizeof s->vd);
        int nv = 0;
        for (int j = 0; j < g->ncodes; j++) {
            for (int d = 0; d < fullv[j]; d++)
                s->vd[nv + d] = (uint8_t)val[byv[j]];
            nv += s->dig[byv[j]];
        }
        s->ready = 1;
    }
    memcpy(s0, sorted, sizeof(SubRack) * (size_t)n);
    if (n > 64) {
        free(sorted);
        free(order);
    }
    return 1;
}

/* A group: the plays of an anchor's line and direction with first tile on square f and
 * k tiles; bound: of their equity. */
typedef struct {
    double bound;
    int64_t score; /* bound of the score (anchor_bounds') */
    uint64_t bh;   /* hash of the board's letters in the span (wmp_span's bh) */
    uint8_t dir, line, f, k;
    uint8_t L; /* letters in the span (wmp_span's L) */
    uint16_t bucket;
} WGroup;

/* Which sub-racks of k tiles pass the word map's filters (bit: index from the first of
 * k tiles) with a span's board letters bh and length L (0: an empty entry). */
typedef struct {
    uint64_t bh, mask;
    uint8_t L, k;
} WMemo;

/* The equity below which a play cannot rank (-inf: none yet). */
static inline double wmp_floor(const Gen *g)
{
    double f = g->has_ext ? g->ext_floor : -INFINITY;
    if (g->mode == MODE_BEST && g->nmoves == g->best_n && g->moves[0].equity > f)
        f = g->moves[0].equity;
    return f;
}

/* The span of a group, as its words are checked and scored. */
typedef struct {
    int ws, we, L, k, nbl;
    uint8_t bpos[MAXN], blet[MAXN]; /* the board's tiles: index in the word, letter */
    uint8_t epos[PRUNE_MAX_RACK];   /* the empty squares: index in the word */
    uint64_t emask[PRUNE_MAX_RACK]; /* and their cross-checks */
    int64_t cw[PRUNE_MAX_RACK];     /* points a tile's value is worth there (letter premium, word
                                       multipliers of the main and the cross word) */
    int64_t cs[PRUNE_MAX_RACK];     /* the same, highest first */
    int64_t base;                   /* the score without the tiles' values: board tiles, cross words */
    uint64_t bh;                    /* hash of the board's letters in the span */
    uint64_t hooks[PRUNE_MAX_RACK]; /* cross-checks of the hooked squares */
    int nhooks;
    uint64_t any;                   /* letters some empty square allows */
    uint8_t cnt[64];                /* the sub-rack being looked up: its letters */
    const SubRack *s;
} WSpan;

static int wmp_span(Gen *g, const WGroup *gr, WSpan *sp)
{
    set_line(g, gr->dir, gr->line);
    const uint8_t *lc = g->lc;
    int n = g->n, k = gr->k, ws = gr->f;
    while (ws > 0 && lc[ws - 1])
        ws--;
    int64_t W = 1, B = 0, X = 0;
    int p = ws, ne = 0;
    sp->nbl = 0;
    sp->bh = 0;
    sp->nhooks = 0;
    sp->any = 0;
    while (ne < k || (p < n && lc[p])) {
        if (p >= n)
            return 0;
        if (lc[p]) {
            B += g->values[lc[p]];
            sp->bh += letter_hash[lc[p] & LETTER_MASK];
            sp->bpos[sp->nbl] = (uint8_t)(p - ws);
            sp->blet[sp->nbl++] = lc[p] & LETTER_MASK;
        } else {
            sp->epos[ne] = (uint8_t)(p - ws);
            sp->emask[ne] = g->lx[p];
            sp->any |= g->lx[p];
            if (g->lx[p] != ALL_LETTERS)
                sp->hooks[sp->nhooks++] = g->lx[p];
            W *= g->lwm[p];
            if (g->lxs[p] >= 0)
                X += (int64_t)g->lxs[p] * g->lwm[p];
            ne++;
        }
        p++;
    }
    sp->ws = ws;
    sp->we = p - 1;
    sp->L = p - ws;
    sp->k = k;
    for (int j = 0; j < k; j++) {
        int q = ws + sp->epos[j];
        int64_t c = (int64_t)g->llm[q] * (W + (g->lxs[q] >= 0 ? g->lwm[q] : 0));
        sp->cw[j] = c;
        int i = j;
        for (; i > 0 && sp->cs[i - 1] < c; i--)
            sp->cs[i] = sp->cs[i - 1];
        sp->cs[i] = c;
    }
    sp->base = W * B + X;
    return 1;
}

/* The bound of the sub-rack's plays in the span (-inf: its tiles fit no hooked square). */
static inline double wmp_sub_bound(const Gen *g, const WSpan *sp, const SubRack *s)
{
    if (!s->b)
        for (int i = 0; i < sp->nhooks; i++)
            if (!(sp->hooks[i] & s->nat))
                return -INFINITY;
    int64_t v = sp->base + g->bonus[sp->k];
    for (int j = 0; j < sp->k; j++)
        v += sp->cs[j] * s->vd[j];
    return (double)v + s->leave;
}

/* Record the play of word w in the span with the blanks on the squares in bmask (bits:
 * empty-square indexes). */
static void wmp_emit(Gen *g, const WSpan *sp, const uint8_t *w, int64_t score, uint32_t bmask)
{
    for (int i = 0; i < sp->nbl; i++)
        g->word[sp->ws + sp->bpos[i]] = 0;
    for (int j = 0; j < sp->k; j++) {
        uint8_t t = w[sp->epos[j]];
        if ((bmask >> j) & 1) {
            score -= (int64_t)g->values[t] * sp->cw[j];
            t |= BLANK_FLAG;
        }
        g->word[sp->ws + sp->epos[j]] = t;
    }
    g->placed = sp->k;
    g->leave = sp->s->leave_idx;
    record(g, sp->ws, sp->we, (int)score);
}

/* The words of the span's letters plus the sub-rack's, with blanks for x and y (0: no
 * blank); h: hash of all those letters. */
static void wmp_words(Gen *g, const WSpan *sp, uint64_t h, uint8_t x, uint8_t y)
{
    const WmpSlot *e = wmp_find(g, h, sp->L);
    if (!e)
        return;
    const uint8_t *w = wmp_letters(g->wmp) + e->off;
    int b = sp->s->b, k = sp->k;
    for (int i = 0; i < e->cnt; i++, w += sp->L) {
        int ok = 1;
        for (int q = 0; q < sp->nbl && ok; q++)
            ok = w[sp->bpos[q]] == sp->blet[q];
        if (!ok)
            continue;
        uint8_t tmp[64];
        memcpy(tmp, sp->cnt, 64);
        int nb = 0;
        uint8_t bl[2] = {0, 0};
        int64_t score = sp->base;
        for (int j = 0; j < k && ok; j++) {
            uint8_t t = w[sp->epos[j]] & LETTER_MASK;
            if (!((sp->emask[j] >> t) & 1))
                ok = 0;
            else if (tmp[t])
                tmp[t]--;
            else if (nb < b)
                bl[nb++] = t;
            else
                ok = 0;
            score += (int64_t)g->values[t] * sp->cw[j];
        }
        if (!ok || nb != b)
            continue;
        /* the score with every tile at its value bounds the blanks' placements (a blank
         * scores nothing): below the floor, none can rank (as record() would find) */
        if ((double)(score + g->bonus[k]) + sp->s->leave < wmp_floor(g))
            continue;
        if (b == 1 && bl[0] != x)
            continue;
        if (b == 2 && !((bl[0] == x && bl[1] == y) || (bl[0] == y && bl[1] == x)))
            continue;
        if (!b) {
            wmp_emit(g, sp, w, score, 0);
            continue;
        }
        /* every distinct placement of the blanks: among the squares of their letters */
        uint32_t px = 0, py = 0;
        for (int j = 0; j < k; j++) {
            uint8_t t = w[sp->epos[j]] & LETTER_MASK;
            if (t == x)
                px |= 1u << j;
            if (b == 2 && t == y)
                py |= 1u << j;
        }
        if (b == 1) {
            for (uint32_t m = px; m; m &= m - 1)
                wmp_emit(g, sp, w, score, m & -m);
        } else if (x == y) {
            for (uint32_t m = px; m; m &= m - 1)
                for (uint32_t m2 = m & (m - 1); m2; m2 &= m2 - 1)
                    wmp_emit(g, sp, w, score, (m & -m) | (m2 & -m2));
        } else {
            for (uint32_t m = px; m; m &= m - 1)
                for (uint32_t m2 = py; m2; m2 &= m2 - 1)
                    wmp_emit(g, sp, w, score, (m & -m) | (m2 & -m2));
        }
        if (g->oom)
            return;
    }
}

/* The plays of one sub-rack in the span. With blanks, the keys of every letter they may
 * stand for are made first and their table slots fetched together (most are cache
 * misses), then read. */
static void wmp_sub(Gen *g, WSpan *sp, const SubRack *s)
{
    sp->s = s;
    memset(sp->cnt, 0, sizeof sp->cnt);
    for (int j = 0; j < g->ncodes; j++)
        if (g->codes[j])
            sp->cnt[g->codes[j]] = s->dig[j];
    uint64_t h = sp->bh + s->h;
    if (!s->b) {
        wmp_words(g, sp, h, 0, 0);
        return;
    }
    const WmpHead *wh = g->wmp;
    const WmpSlot *wt = wmp_wt(wh);
    const WmpBSlot *bt = wmp_bt(wh);
    uint8_t xs[64 * 64 / 2], ys[64 * 64 / 2];
    int n = 0;
    if (s->b == 1) {
        for (uint64_t m = wmp_blank_mask(g, h, sp->L - 1) & sp->any; m; m &= m - 1) {
            int x = __builtin_ctzll(m);
            uint64_t key = ana_key(h + letter_hash[x], sp->L);
            if (!wmp_test(wmp_wf(wh), wh->wfbits, key))
                continue;
            __builtin_prefetch(&wt[wmp_home(key) & (wh->wslots - 1)]);
            xs[n++] = (uint8_t)x;
        }
        for (int i = 0; i < n && !g->oom; i++)
            wmp_words(g, sp, h + letter_hash[xs[i]], xs[i], 0);
        return;
    }
    /* two blanks: x <= y, the blank table for the letters of the span and the sub-rack
     * and x, then the words of those and y */
    int nx = 0;
    uint8_t cx[64];
    for (uint64_t a = wh->alphabet & sp->any; a; a &= a - 1) {
        int x = __builtin_ctzll(a);
        uint64_t key = ana_key(h + letter_hash[x], sp->L - 1);
        if (!wmp_test(wmp_bf(wh), wh->bfbits, key))
            continue;
        __builtin_prefetch(&bt[wmp_home(key) & (wh->bslots - 1)]);
        cx[nx++] = (uint8_t)x;
    }
    for (int i = 0; i < nx; i++) {
        int x = cx[i];
        uint64_t hx = h + letter_hash[x];
        uint64_t m = wmp_blank_mask(g, hx, sp->L - 1) & sp->any & ~(((uint64_t)1 << x) - 1);
        for (; m; m &= m - 1) {
            int y = __builtin_ctzll(m);
            uint64_t key = ana_key(hx + letter_hash[y], sp->L);
            if (!wmp_test(wmp_wf(wh), wh->wfbits, key))
                continue;
            __builtin_prefetch(&wt[wmp_home(key) & (wh->wslots - 1)]);
            xs[n] = (uint8_t)x;
            ys[n++] = (uint8_t)y;
        }
    }
    for (int i = 0; i < n && !g->oom; i++)
        wmp_words(g, sp, h + letter_hash[xs[i]] + letter_hash[ys[i]], xs[i], ys[i]);
}

/* The groups of every anchor (see "word map" in wordmap.h) with plays that may rank:
 * into groups; how many. */
static size_t wmp_groups(Gen *g, uint64_t have, WGroup *groups)
{
    int n = g->n, R = g->rack_left;
    int64_t wb[PRUNE_MAX_RACK * (PRUNE_MAX_RACK + 1)];
    uint64_t wbh[PRUNE_MAX_RACK * (PRUNE_MAX_RACK + 1)];
    uint8_t wbl[PRUNE_MAX_RACK * (PRUNE_MAX_RACK + 1)];
    uint64_t ths[PRUNE_MAX_RACK];
    int tns[PRUNE_MAX_RACK];
    g->wstride = R + 1;
    g->wb = wb;
    g->wbh = wbh;
    g->wbl = wbl;
    g->thr_hash = ths;
    g->thr_n = tns;
    size_t ng = 0;
    for (int dir = 0; dir < g->dirs; dir++) {
        for (int line = 0; line < n; line++) {
            if (g->only_lines && !((g->line_mask[dir] >> line) & 1))
                continue;
            set_line(g, dir, line);
            const uint8_t *anc = g->anchor[dir] + line * MAXN;
            int prev = -1;
            for (int pos = 0; pos < n; pos++) {
                if (!anc[pos])
                    continue;
                g->anchor_pos = pos;
                g->left_limit = prev;
                g->single_skip = dir == 1 && g->lxs[pos] >= 0;
                int any;
                anchor_bounds(g, have, &any);
                prev = pos;
                if (!any)
                    continue;
                for (int fi = 0; fi < g->nf; fi++)
                    for (int k = 1; k <= R; k++) {
                        int64_t s = WB(g, fi, k);
                        if (s == NO_PLAY)
                            continue;
                        WGroup *gr = &groups[ng++];
                        gr->bound = (double)s + g->lmax[R - k];
                        gr->score = s;
                        gr->bh = wbh[(size_t)fi * (size_t)g->wstride + (size_t)k];
                        gr->L = wbl[(size_t)fi * (size_t)g->wstride + (size_t)k];
                        gr->dir = (uint8_t)dir;
                        gr->line = (uint8_t)line;
                        gr->f = (uint8_t)(g->f0 + fi);
                        gr->k = (uint8_t)k;
                    }
            }
        }
    }
    g->wbh = NULL;
    g->wbl = NULL;
    return ng;
}

enum { NB = 1024 };

/* The groups best bound first, near enough, into sorted: by buckets of a point of equity
 * or more (a groups cost more, and nearly every group is taken in best-32), each with its
 * highest bound (bmax, NB of them). */
static void wmp_order(WGroup *groups, size_t ng, WGroup *sorted, double *bmax)
{
    int bcount[NB + 1];
    double hi = -INFINITY, lo = INFINITY;
    for (size_t i = 0; i < ng; i++) {
        if (groups[i].bound > hi)
            hi = groups[i].bound;
        if (groups[i].bound < lo)
            lo = groups[i].bound;
    }
    double width = (hi - lo) / (NB - 1) > 1.0 ? (hi - lo) / (NB - 1) : 1.0;
    /* the buckets in use: the bounds seldom span NB points, and a search is short */
    int nbk = ng ? (int)((hi - lo) / width) + 1 : 0;
    nbk = nbk < 1 ? 1 : nbk > NB ? NB : nbk;
    memset(bcount, 0, sizeof(int) * (size_t)(nbk + 1));
    for (int b = 0; b < nbk; b++)
        bmax[b] = -INFINITY;
    for (size_t i = 0; i < ng; i++) {
        int b = (int)((hi - groups[i].bound) / width);
        b = b < 0 ? 0 : b >= nbk ? nbk - 1 : b;
        groups[i].bucket = (uint16_t)b;
        bcount[b + 1]++;
        if (groups[i].bound > bmax[b])
            bmax[b] = groups[i].bound;
    }
    for (int b = 0; b < nbk; b++)
        bcount[b + 1] += bcount[b];
    for (size_t i = 0; i < ng; i++)
        sorted[bcount[groups[i].bucket]++] = groups[i];
}

/* Which sub-racks s0..s1 (at most 64) of group gr pass the word map's filters (bit i: s0
 * + i), kept by the span's board letters, length and tiles in memo (256 entries). */
static uint64_t wmp_pass(const Gen *g, const WGroup *gr, const SubRack *s0, const SubRack *s1, WMemo *memo)
{
    static const uint64_t all_ones = ~(uint64_t)0;
    const WmpHead *wh = g->wmp;
    const uint64_t *wf = wmp_wf(wh), *bf = wmp_bf(wh);
    const uint64_t wfbits = wh->wfbits, bfbits = wh->bfbits;
    uint64_t pass;
    WMemo *mo = &memo[(gr->bh ^ (gr->bh >> 29) ^ (uint64_t)gr->L * 0x9E3779B97F4A7C15ULL) >> 56];
    if (mo->L == gr->L && mo->k == gr->k && mo->bh == gr->bh) {
        pass = mo->mask;
    } else {
        /* the filters' words fetched first, then read */
        uint64_t bit[64];
        const uint64_t *fw[64];
        pass = 0;
        for (const SubRack *s = s0; s < s1; s++) {
            uint64_t h = gr->bh + s->h;
            int si = (int)(s - s0);
            if (s->b == 0) {
                bit[si] = wmp_fbit(ana_key(h, gr->L), wfbits);
                fw[si] = wf + (bit[si] >> 6);
            } else if (s->b == 1) {
                bit[si] = wmp_fbit(ana_key(h, gr->L - 1), bfbits);
                fw[si] = bf + (bit[si] >> 6);
            } else {
                bit[si] = 0;
                fw[si] = &all_ones;
            }
            __builtin_prefetch(fw[si]);
        }
        for (int si = 0; si < (int)(s1 - s0); si++)
            pass |= ((*fw[si] >> (bit[si] & 63)) & 1) << si;
        mo->bh = gr->bh;
        mo->L = (uint8_t)gr->L;
        mo->k = gr->k;
        mo->mask = pass;
    }
    return pass;
}

/* The plays of group gr (floor: the equity below which a play cannot rank): the
 * sub-racks worth a look-up, their table slots fetched before any is read, then their
 * words. */
static void wmp_group(Gen *g, const WGroup *grp, double floor, WSpan *sp, WMemo *memo)
{
    WGroup gr = *grp;
    const WmpHead *wh = g->wmp;
    const WmpSlot *wt = wmp_wt(wh);
    const WmpBSlot *bt = wmp_bt(wh);
    const uint64_t *wf = wmp_wf(wh), *bf = wmp_bf(wh);
    const uint64_t wmask = wh->wslots - 1, bmask = wh->bslots - 1, wfbits = wh->wfbits, bfbits = wh->bfbits;
    if (!wmp_size_ready(g, gr.k)) {
        g->oom = 1;
        return;
    }
    const SubRack *s0 = g->subs + g->sub_at[gr.k], *s1 = g->subs + g->sub_at[gr.k + 1];
    int nc = 0;
    /* which sub-racks pass the filter depends on the span's board letters and length
     * only: many groups share them (the first squares of a lane around the same
     * tiles, the parallel plays of every lane), so it is kept by (bh, L, k) */
    uint64_t pass = ~(uint64_t)0;
    if (s1 - s0 <= 64) {
        pass = wmp_pass(g, &gr, s0, s1, memo);
        if (!pass)
            return;
    }
    /* the span's squares: only for a group some sub-rack may fill */
    if (!wmp_span(g, &gr, sp))
        return;
    for (const SubRack *s = s0; s < s1; s++) {
        if ((double)gr.score + s->leave < floor)
            break;
        /* the filter first: it turns away most sub-racks, at less cost than a bound */
        uint64_t h = sp->bh + s->h, key = 0;
        if (pass != ~(uint64_t)0) {
            uint64_t rest = pass >> (s - s0);
            if (!rest)
                break;
            s += __builtin_ctzll(rest);
            if ((double)gr.score + s->leave < floor)
                break;
            h = sp->bh + s->h;
            if (s->b == 0)
                key = ana_key(h, sp->L);
            else if (s->b == 1)
                key = ana_key(h, sp->L - 1);
        } else if (s->b == 0) {
            key = ana_key(h, sp->L);
            if (!wmp_test(wf, wfbits, key))
                continue;
        } else if (s->b == 1) {
            key = ana_key(h, sp->L - 1);
            if (!wmp_test(bf, bfbits, key))
                continue;
        }
        double e = wmp_sub_bound(g, sp, s);
        if (e < floor)
            continue;
        if (s->b == 0)
            __builtin_prefetch(&wt[wmp_home(key) & wmask]);
        else if (s->b == 1)
            __builtin_prefetch(&bt[wmp_home(key) & bmask]);
        g->cand[nc] = s;
        g->cand_e[nc++] = e;
    }
    /* the words of the sub-racks without blanks fetched before any is read (wmp_find
     * keeps the slots it finds) */
    for (int ci = 0; ci < nc; ci++)
        if (!g->cand[ci]->b) {
            const WmpSlot *e = wmp_find(g, sp->bh + g->cand[ci]->h, sp->L);
            if (e)
                __builtin_prefetch(wmp_letters(wh) + e->off);
        }
    for (int ci = 0; ci < nc && !g->oom; ci++)
        if (g->cand_e[ci] >= wmp_floor(g))
            wmp_sub(g, sp, g->cand[ci]);
}

/* Best mode by the word map (see "word map" in wordmap.h). */
void run_wmp(Gen *g, uint64_t have)
{
    int n = g->n, R = g->rack_left;
    size_t nanch = 0;
    for (int dir = 0; dir < g->dirs; dir++)
        for (int i = 0; i < n * MAXN; i++)
            nanch += g->anchor[dir][i];
    if (!nanch)
        return;
    size_t cap = nanch * (size_t)R * (size_t)R + 1;
    WGroup *groups = (WGroup *)malloc(sizeof(WGroup) * cap * 2);
    if (!groups) {
        g->oom = 1;
        return;
    }
    WGroup *sorted = groups + cap;
    size_t ng = wmp_groups(g, have, groups);
    double bmax[NB];
    wmp_order(groups, ng, sorted, bmax);
    WSpan sp;
    WMemo memo[256];
    memset(memo, 0, sizeof memo);
    for (size_t i = 0; i < ng && !g->oom; i++) {
        const WGroup *gr = &sorted[i];
        double floor = wmp_floor(g);
        if (bmax[gr->bucket] < floor)
            break; /* this bucket and the next are too low */
        if (gr->bound < floor)
            continue;
        wmp_group(g, gr, floor, &sp, memo);
    }
    g->wbh = NULL;
    g->wbl = NULL;
    free(groups);
}
