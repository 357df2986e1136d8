/*
 * lexiko._kernel, clabbers.c: Clabbers, where a word is valid when its letters are an
 * anagram of a word (the kwg is then the alphagram automaton of lexiko/clabbers.py, a
 * DAWG of every word's letters sorted): the cross-checks by anagram (alpha_cross_set,
 * called by prepare) and generation by span rather than by anchor (run_clabbers, called
 * by run), best mode walking the spans best bound first.
 */
#include "clabbers.h"

#include "movegen.h"

/* -- Clabbers: cross-checks ----------------------------------------------------- */

/*
 * In Clabbers a word is valid when its letters, sorted, are a key of the alphagram
 * automaton (a DAWG of every word's letters sorted by code, lexiko.clabbers). A letter
 * L may go on a square when the cross word's letters m (sorted) plus L form a key: one
 * walk merging m with one inserted letter, the letters t of the arcs where it may be
 * inserted collected as it goes (an L equal to a letter of m is met twice: a mask
 * does not mind).
 */
static void alpha_cross_walk(const Gen *g, uint32_t node, const uint8_t *m, int nm, int i, uint32_t ins,
                             uint64_t *out)
{
    for (uint32_t j = node; node && j < g->nk; j++) {
        uint32_t a = g->kwg[j];
        uint32_t t = ARC_TILE(a);
        if (i < nm && t > m[i])
            break; /* m[i] can no longer come */
        if (t) {
            uint32_t child = child_of(g, a);
            if (i < nm && t == m[i]) {
                if (i + 1 == nm) {
                    if (ins && (a & ACC_BIT))
                        *out |= (uint64_t)1 << ins;
                    else if (!ins)
                        alpha_cross_walk(g, child, m, nm, i + 1, 0, out);
                } else {
                    alpha_cross_walk(g, child, m, nm, i + 1, ins, out);
                }
            }
            if (!ins && (i == nm || t <= m[i])) {
                if (i == nm) {
                    if (a & ACC_BIT) /* ARC_TILE has 6 bits: t is a letter */
                        *out |= (uint64_t)1 << t;
                } else {
                    alpha_cross_walk(g, child, m, nm, i, t, out);
                }
            }
        }
        if (a & END_BIT)
            break;
    }
}

static void sort_letters(uint8_t *x, int n)
{
    for (int i = 1; i < n; i++) {
        uint8_t v = x[i];
        int j = i;
        while (j > 0 && x[j - 1] > v) {
            x[j] = x[j - 1];
            j--;
        }
        x[j] = v;
    }
}

/* Letters that may go on (r, c) in Clabbers given the tiles before and after it along (dr, dc). */
uint64_t alpha_cross_set(const Gen *g, const uint8_t *cells, int r, int c, int dr, int dc, int32_t *score)
{
    int n = g->n;
    uint8_t m[MAXN];
    int nm = 0, sum = 0;
    for (int dir = -1; dir <= 1; dir += 2) {
        int rr = r + dir * dr, cc = c + dir * dc;
        while (rr >= 0 && cc >= 0 && rr < n && cc < n && cells[rr * n + cc] && nm < MAXN) {
            uint8_t x = cells[rr * n + cc];
            m[nm++] = x & LETTER_MASK;
            sum += g->values[x];
            rr += dir * dr;
            cc += dir * dc;
        }
    }
    if (!nm) {
        *score = -1;
        return ALL_LETTERS;
    }
    *score = sum;
    sort_letters(m, nm);
    uint64_t out = 0;
    uint32_t root = g->nk ? child_of(g, g->kwg[0]) : 0;
    alpha_cross_walk(g, root, m, nm, 0, 0, &out);
    return out & ALL_LETTERS;
}

/* -- Clabbers: generation ------------------------------------------------------- */

/*
 * For every span of a line a play can cover (from a square after an empty square or
 * the edge to one before an empty square or the edge, holding an empty square, and a
 * tile or an anchor), the multisets of rack tiles that with the span's board letters
 * spell an alphagram are found in one walk of the automaton in letter order: at each
 * arc the next board letter is consumed when it is the arc's letter (board copies of a
 * letter before rack copies, so each multiset is met once), else a rack tile of the
 * arc's letter (a real tile, or a blank; real copies of a letter before blank copies).
 * Each multiset found is then put down in every distinct order the cross-checks allow
 * (clab_assign), each order a move. The leave is the same for all orders.
 */
static void clab_assign(Gen *g, int i, int main, int mult, int cross)
{
    if (i == g->cl_ne) {
        record(g, g->cl_s, g->cl_e, (main + g->cl_bsum) * mult + cross);
        return;
    }
    int p = g->cl_sq[i];
    uint64_t x = g->lx[p];
    int lm = g->llm[p], wm = g->lwm[p], xs = g->lxs[p];
    for (int d = 0; d < g->cl_ndc; d++) {
        if (!g->cl_dn[d])
            continue;
        uint8_t code = g->cl_dc[d];
        if (!(x >> (code & LETTER_MASK) & 1))
            continue;
        int v = g->values[code] * lm;
        g->cl_dn[d]--;
        g->word[p] = code;
        clab_assign(g, i + 1, main + v, mult * wm, xs >= 0 ? cross + (xs + v) * wm : cross);
        g->cl_dn[d]++;
    }
}

/* Best mode: whether no order of the multiset chosen can rank among the best N. A
 * play's score is cl_const (board letters, cross words' other tiles, bingo) plus the sum
 * of each tile's value times its square's weight; no order beats the highest values on
 * the highest weights. */
static int clab_cut(Gen *g, uint32_t leave)
{
    if (g->mode != MODE_BEST || g->nmoves < g->best_n || !g->best_n)
        return 0;
    int v[MAXN];
    int ne = g->cl_ne;
    for (int k = 0; k < ne; k++) {
        int x = g->values[g->cl_ch[k]];
        int j = k;
        while (j > 0 && v[j - 1] < x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
    int64_t bound = g->cl_const;
    for (int k = 0; k < ne; k++)
        bound += (int64_t)v[k] * g->cl_w[k];
    double eq = g->leave_values ? (double)bound + g->leave_values[leave] : (double)bound;
    return eq < g->moves[0].equity;
}

static void clab_found(Gen *g)
{
    uint32_t leave = g->full_leave;
    int nd = 0;
    for (int k = 0; k < g->cl_ne; k++) {
        uint8_t code = g->cl_ch[k];
        leave -= g->radix[code & BLANK_FLAG ? 0 : code];
        if (nd && g->cl_dc[nd - 1] == code) {
            g->cl_dn[nd - 1]++;
        } else {
            g->cl_dc[nd] = code;
            g->cl_dn[nd++] = 1;
        }
    }
    if (clab_cut(g, leave))
        return;
    g->cl_ndc = nd;
    g->leave = leave;
    g->placed = g->cl_ne;
    clab_assign(g, 0, 0, 1, 0);
}

/* Walk from node with board letters bi.. and k rack tiles chosen; prev: the code of
 * the last rack tile chosen (0 after a board letter). */
static void clab_walk(Gen *g, uint32_t node, int bi, int k, uint8_t prev)
{
    int nbl = g->cl_nbl, ne = g->cl_ne;
    for (uint32_t j = node; node && j < g->nk && !g->oom; j++) {
        uint32_t a = g->kwg[j];
        uint32_t t = ARC_TILE(a);
        if (bi < nbl && t > g->cl_bl[bi])
            break;
        uint32_t child = child_of(g, a);
        if (bi < nbl && t == g->cl_bl[bi]) {
            if (bi + 1 == nbl && k == ne) {
                if (a & ACC_BIT)
                    clab_found(g);
            } else if (child) {
                clab_walk(g, child, bi + 1, k, 0);
            }
        } else if (t && k < ne && (g->cl_allow >> t & 1)) {
            int last = k + 1 == ne && bi == nbl;
            /* a real tile, unless a blank already stands for this letter (blanks after) */
            if (g->rack[t] && prev != (t | BLANK_FLAG)) {
                g->rack[t]--;
                g->cl_ch[k] = (uint8_t)t;
                if (last) {
                    if (a & ACC_BIT)
                        clab_found(g);
                } else if (child) {
                    clab_walk(g, child, bi, k + 1, (uint8_t)t);
                }
                g->rack[t]++;
            }
            if (g->rack[0]) {
                g->rack[0]--;
                g->cl_ch[k] = (uint8_t)(t | BLANK_FLAG);
                if (last) {
                    if (a & ACC_BIT)
                        clab_found(g);
                } else if (child) {
                    clab_walk(g, child, bi, k + 1, (uint8_t)(t | BLANK_FLAG));
                }
                g->rack[0]++;
            }
        }
        if (a & END_BIT)
            break;
    }
}

/* Best mode: cl_const and cl_w of the span (see clab_cut). */
static void clab_weights(Gen *g)
{
    int64_t mult = 1, cross = 0;
    for (int k = 0; k < g->cl_ne; k++)
        mult *= g->lwm[g->cl_sq[k]];
    for (int k = 0; k < g->cl_ne; k++) {
        int p = g->cl_sq[k];
        int64_t w = (int64_t)g->llm[p] * mult;
        if (g->lxs[p] >= 0) {
            w += (int64_t)g->llm[p] * g->lwm[p];
            cross += (int64_t)g->lxs[p] * g->lwm[p];
        }
        int j = k;
        while (j > 0 && g->cl_w[j - 1] < w) {
            g->cl_w[j] = g->cl_w[j - 1];
            j--;
        }
        g->cl_w[j] = w;
    }
    g->cl_const = (int64_t)g->cl_bsum * mult + cross + g->bonus[g->cl_ne];
}

static void clab_line(Gen *g, int dir, int line)
{
    int base = line * MAXN;
    g->dir = dir;
    g->line = line;
    g->lc = g->cell[dir] + base;
    g->lx = g->xcheck[dir] + base;
    g->lxs = g->xscore[dir] + base;
    g->llm = g->lm[dir] + base;
    g->lwm = g->wm[dir] + base;
}

/* Set up the span s..e of the current line (cl_*, and the weights in best mode). */
static void clab_span_setup(Gen *g, int s, int e)
{
    const uint8_t *lc = g->lc;
    int ne = 0, nbl = 0, bsum = 0;
    uint64_t allow = 0;
    for (int p = s; p <= e; p++) {
        g->word[p] = 0;
        if (lc[p]) {
            g->cl_bl[nbl++] = lc[p] & LETTER_MASK;
            bsum += g->values[lc[p]];
        } else {
            g->cl_sq[ne++] = (uint8_t)p;
            allow |= g->lx[p];
        }
    }
    sort_letters(g->cl_bl, nbl);
    g->cl_s = s;
    g->cl_e = e;
    g->cl_ne = ne;
    g->cl_nbl = nbl;
    g->cl_bsum = bsum;
    g->cl_allow = allow;
    if (g->mode == MODE_BEST)
        clab_weights(g);
}

/* Calls fn(g, s, e, arg) for every span of the current line a play can cover. */
static void clab_spans(Gen *g, void (*fn)(Gen *, int, int, void *), void *arg)
{
    int n = g->n, dir = g->dir;
    const uint8_t *lc = g->lc;
    const uint8_t *anc = g->anchor[dir] + g->line * MAXN;
    for (int s = 0; s < n && !g->oom; s++) {
        if (s && lc[s - 1])
            continue;
        int ne = 0, conn = 0, first = -1;
        for (int e = s; e < n; e++) {
            if (lc[e]) {
                conn = 1;
            } else {
                if (ne == g->rack_left)
                    break;
                if (!ne)
                    first = e;
                ne++;
                conn |= anc[e];
            }
            if (e + 1 < n && lc[e + 1])
                continue;
            if (e == s || !ne || !conn || ne < g->min_tiles)
                continue;
            if (dir == 1 && ne == 1 && g->lxs[first] >= 0)
                continue; /* a one-tile play forming a word across is listed across */
            fn(g, s, e, arg);
            if (g->oom)
                return;
        }
    }
}

static void clab_do_span(Gen *g, int s, int e, void *arg)
{
    (void)arg;
    clab_span_setup(g, s, e);
    clab_walk(g, child_of(g, g->kwg[0]), 0, 0, 0);
    for (int p = s; p <= e; p++)
        g->word[p] = 0;
}

/* Best mode: the spans, by an upper bound of the equity of their plays, walked best
 * bound first until the N-th best kept beats the bound of every span left. The bound:
 * the rack's highest values on the span's highest weights (clab_cut), plus the best
 * leave value of the tiles a play of the span keeps. */
typedef struct {
    double bound;
    uint8_t dir, line, s, e;
} ClSpan;

typedef struct {
    ClSpan *spans;
    size_t n, cap;
    int rv[MAXN];       /* the rack's tile values, highest first */
    double lmax[MAXN + 1]; /* best leave value keeping m tiles */
} ClBest;

static void clab_collect(Gen *g, int s, int e, void *arg)
{
    ClBest *b = (ClBest *)arg;
    clab_span_setup(g, s, e);
    int64_t score = g->cl_const;
    for (int k = 0; k < g->cl_ne; k++)
        score += (int64_t)b->rv[k] * g->cl_w[k];
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        ClSpan *ns = (ClSpan *)realloc(b->spans, cap * sizeof(ClSpan));
        if (!ns) {
            g->oom = 1;
            return;
        }
        b->spans = ns;
        b->cap = cap;
    }
    ClSpan *c = &b->spans[b->n++];
    c->bound = (double)score + b->lmax[g->rack_left - g->cl_ne];
    c->dir = (uint8_t)g->dir;
    c->line = (uint8_t)g->line;
    c->s = (uint8_t)s;
    c->e = (uint8_t)e;
}

static int clspan_cmp(const void *x, const void *y)
{
    const ClSpan *a = (const ClSpan *)x, *b = (const ClSpan *)y;
    if (a->bound != b->bound)
        return a->bound > b->bound ? -1 : 1;
    int ka = ((a->dir * MAXN + a->line) * MAXN + a->s) * MAXN + a->e;
    int kb = ((b->dir * MAXN + b->line) * MAXN + b->s) * MAXN + b->e;
    return ka < kb ? -1 : ka > kb;
}

static void run_clabbers_best(Gen *g)
{
    ClBest b;
    memset(&b, 0, sizeof b);
    int nv = 0;
    for (int c = 0; c < 64; c++)
        for (int k = 0; k < g->rack[c] && nv < MAXN; k++) {
            int x = g->values[c], j = nv++;
            while (j > 0 && b.rv[j - 1] < x) {
                b.rv[j] = b.rv[j - 1];
                j--;
            }
            b.rv[j] = x;
        }
    uint32_t nleaves = g->full_leave + 1;
    for (int m = 0; m <= MAXN; m++)
        b.lmax[m] = g->leave_values ? -INFINITY : 0.0;
    if (g->leave_values && nleaves > (1u << 20)) {
        for (int m = 0; m <= MAXN; m++)
            b.lmax[m] = INFINITY; /* not worth it: no span is cut */
    } else if (g->leave_values) {
        for (uint32_t i = 0; i < nleaves; i++) {
            int kept = 0;
            for (int c = 0; c < 64; c++)
                if (g->rack[c])
                    kept += (int)((i / g->radix[c]) % (uint32_t)(g->rack[c] + 1));
            if (kept <= MAXN && g->leave_values[i] > b.lmax[kept])
                b.lmax[kept] = g->leave_values[i];
        }
    }
    for (int dir = 0; dir < g->dirs && !g->oom; dir++)
        for (int line = 0; line < g->n && !g->oom; line++) {
            clab_line(g, dir, line);
            clab_spans(g, clab_collect, &b);
        }
    if (!g->oom) {
        qsort(b.spans, b.n, sizeof(ClSpan), clspan_cmp);
        for (size_t i = 0; i < b.n && !g->oom; i++) {
            const ClSpan *c = &b.spans[i];
            if (g->nmoves == g->best_n && c->bound < g->moves[0].equity)
                break;
            clab_line(g, c->dir, c->line);
            clab_do_span(g, c->s, c->e, NULL);
        }
    }
    free(b.spans);
}

void run_clabbers(Gen *g)
{
    uint32_t root = g->nk ? child_of(g, g->kwg[0]) : 0;
    if (!root || !g->rack_left)
        return;
    if (g->mode == MODE_BEST) {
        run_clabbers_best(g);
        return;
    }
    for (int dir = 0; dir < g->dirs && !g->oom; dir++)
        for (int line = 0; line < g->n && !g->oom; line++) {
            clab_line(g, dir, line);
            clab_spans(g, clab_do_span, NULL);
        }
}
