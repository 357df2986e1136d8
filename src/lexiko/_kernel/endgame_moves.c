/*
 * lexiko._kernel, endgame_moves.c: the endgame's moves: the search's Gen kept for the
 * board of the node (eg_make / eg_unmake), the placements of a rack (eg_generate, with
 * the shortcuts for one and two tiles), the check of a play going out found elsewhere,
 * and the squares and scores the bounds against an opponent holding one tile use.
 */
#include "endgame.h"

/* The search's Gen holds prepare()'s arrays for the board before m: gen_make, kept on
 * the undo stack. Returns the mark to give eg_unmake. */
size_t eg_make(Eg *eg, const uint8_t *cells, const Move *m)
{
    size_t mark = eg->nundo;
    gen_make(eg->po->g, cells, m, eg->undo, &eg->nundo, NULL);
    return mark;
}

/* Back to the board of the mark eg_make returned. */
void eg_unmake(Eg *eg, size_t mark)
{
    Gen *g = eg->po->g;
    while (eg->nundo > mark) {
        const EgUndo *u = &eg->undo[--eg->nundo];
        int ia = u->r * MAXN + u->c, id = u->c * MAXN + u->r;
        g->cell[0][ia] = g->cell[1][id] = u->cell;
        g->anchor[0][ia] = g->anchor[1][id] = u->anchor;
        g->xcheck[0][ia] = u->xc[0];
        g->xcheck[1][id] = u->xc[1];
        g->xscore[0][ia] = u->xs[0];
        g->xscore[1][id] = u->xs[1];
    }
}

/* The one tile of a rack (blank: it is a blank; else code, its letter) on square (r, c)
 * of g: the most it scores there, the tile it puts down in *t; -1: it has no place there. */
static inline int eg_single_at(const Gen *g, int blank, int code, int r, int c, uint8_t *t)
{
    int ia = r * MAXN + c, id = c * MAXN + r;
    if (!g->anchor[0][ia])
        return -1;
    uint64_t ok = g->xcheck[0][ia] & g->xcheck[1][id];
    if (blank) {
        if (!(ok & ALL_LETTERS))
            return -1;
        *t = (uint8_t)(__builtin_ctzll(ok & ALL_LETTERS) | BLANK_FLAG);
    } else {
        if (!((ok >> code) & 1))
            return -1;
        *t = (uint8_t)code;
    }
    int xd = g->xscore[0][ia], xa = g->xscore[1][id];
    if (xd < 0 && xa < 0)
        return -1;
    int v = g->values[*t] * g->lm[0][ia], wm = g->wm[0][ia];
    return (xd >= 0 ? (xd + v) * wm : 0) + (xa >= 0 ? (xa + v) * wm : 0) + g->bonus[1];
}

/* The letter of a one-tile rack (0 for a blank, *blank then 1). */
static inline int eg_single_code(const uint8_t *rack, int *blank)
{
    int code = 0;
    *blank = rack[0] > 0;
    for (int t = 1; t < 64 && !*blank; t++)
        if (rack[t])
            code = t;
    return code;
}

/* The highest-scoring placement of rack's one tile (g prepared for a board with tiles)
 * in *m, recorded as the generator records it: across when it makes an across word,
 * else down, the main word's board tiles as 0. A blank is tried as every letter; the
 * first of the best is kept. 0: the tile has no place. */
int eg_single_best(const Gen *g, const uint8_t *rack, Move *m)
{
    int n = g->n, blank, code = eg_single_code(rack, &blank);
    int best = -1, br = 0, bc = 0, bd = 0, bs = 0, be = 0;
    uint8_t bt = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            uint8_t t;
            int score = eg_single_at(g, blank, code, r, c, &t);
            if (score <= best)
                continue;
            best = score;
            bt = t;
            if (g->xscore[1][c * MAXN + r] >= 0) { /* across: the main word is the across run through (r, c) */
                int s0 = c, e0 = c;
                while (s0 > 0 && g->cell[0][r * MAXN + s0 - 1])
                    s0--;
                while (e0 + 1 < n && g->cell[0][r * MAXN + e0 + 1])
                    e0++;
                br = r, bc = c, bd = 0, bs = s0, be = e0;
            } else {
                int s0 = r, e0 = r;
                while (s0 > 0 && g->cell[1][c * MAXN + s0 - 1])
                    s0--;
                while (e0 + 1 < n && g->cell[1][c * MAXN + e0 + 1])
                    e0++;
                br = r, bc = c, bd = 1, bs = s0, be = e0;
            }
        }
    if (best < 0)
        return 0;
    memset(m, 0, sizeof *m);
    m->score = best;
    m->equity = best;
    m->down = (uint8_t)bd;
    m->row = (uint8_t)(bd ? bs : br);
    m->col = (uint8_t)(bd ? bc : bs);
    m->len = (uint8_t)(be - bs + 1);
    m->tiles[(bd ? br : bc) - bs] = bt;
    return 1;
}

/* eg_single_best for the Gen's rack, as the generator's one move (none when none). */
static void eg_single(Gen *g)
{
    Move best;
    if (!eg_single_best(g, g->rack, &best))
        return;
    Move *m = (Move *)malloc(sizeof(Move));
    if (!m) {
        g->oom = 1;
        return;
    }
    *m = best;
    g->moves = m;
    g->nmoves = 1;
    g->cap = 1;
}

/* Whether m, a play the generator made on another board, is a play of rack (the whole
 * of it) on the board the Gen is prepared for (not empty): the squares of its tiles
 * empty and those it plays through filled, nothing just before or after it, every
 * cross word and the main word in the lexicon, and it touches a tile. Then its score
 * is in *score, and m is exactly the move the generator makes for it. */
int eg_check_out(const Gen *g, const Move *m, const uint8_t *rack, int *score)
{
    int dir = m->down, line = dir ? m->col : m->row, start = dir ? m->row : m->col, n = g->n;
    int end = start + m->len - 1;
    if (end >= n)
        return 0;
    size_t base = (size_t)line * MAXN;
    const uint8_t *lc = g->cell[dir] + base, *llm = g->lm[dir] + base, *lwm = g->wm[dir] + base;
    const uint64_t *lx = g->xcheck[dir] + base;
    const int32_t *lxs = g->xscore[dir] + base;
    if ((start > 0 && lc[start - 1]) || (end + 1 < n && lc[end + 1]))
        return 0;
    uint8_t used[64] = {0}, word[MAXN];
    int main = 0, mult = 1, cross = 0, placed = 0, touches = 0;
    for (int j = 0; j < m->len; j++) {
        int pos = start + j;
        uint8_t c = lc[pos], t = m->tiles[j];
        if (!t) {
            if (!c)
                return 0;
            word[j] = c & LETTER_MASK;
            main += g->values[c];
            touches = 1;
            continue;
        }
        if (c)
            return 0;
        uint8_t letter = t & LETTER_MASK;
        if (!((lx[pos] >> letter) & 1))
            return 0;
        used[t & BLANK_FLAG ? 0 : letter]++;
        int v = g->values[t] * llm[pos];
        main += v;
        mult *= lwm[pos];
        if (lxs[pos] >= 0) {
            cross += (lxs[pos] + v) * lwm[pos];
            touches = 1;
        }
        placed++;
        word[j] = letter;
    }
    if (!touches || memcmp(used, rack, 64))
        return 0;
    /* the main word: its GADDAG path from the last letter back to the first */
    uint32_t node = g->nk > 1 ? child_of(g, g->kwg[1]) : 0;
    for (int j = m->len - 1; j >= 0; j--) {
        uint32_t i = find_arc(g, node, word[j]);
        if (!i)
            return 0;
        if (!j) {
            if (!(g->kwg[i] & ACC_BIT))
                return 0;
            break;
        }
        node = child_of(g, g->kwg[i]);
    }
    *score = main * mult + cross + g->bonus[placed];
    return 1;
}

/* Whether the letters word[0..len) (codes, blank flags cleared) spell a word: its GADDAG
 * path from the last letter back to the first, which ends on an accepting arc. */
static int eg_is_word(const Gen *g, const uint8_t *word, int len)
{
    uint32_t node = g->nk > 1 ? child_of(g, g->kwg[1]) : 0;
    for (int j = len - 1; j >= 0; j--) {
        uint32_t i = find_arc(g, node, word[j]);
        if (!i)
            return 0;
        if (!j)
            return (g->kwg[i] & ACC_BIT) != 0;
        node = child_of(g, g->kwg[i]);
    }
    return 0;
}

static int eg_is_word_kept(const Gen *g, const uint8_t *word, int len, EgWord *wc, uint64_t mask)
{
    if (!wc || len > 19)
        return eg_is_word(g, word, len);
    uint64_t k1 = 0, k2 = (uint64_t)len << 56;
    for (int j = 0; j < len && j < 10; j++)
        k1 |= (uint64_t)word[j] << (6 * j);
    for (int j = 10; j < len; j++)
        k2 |= (uint64_t)word[j] << (6 * (j - 10));
    EgWord *e = &wc[mix64(k1 ^ mix64(k2)) & mask];
    if (e->k1 == k1 && (e->k2 & ~((uint64_t)1 << 63)) == k2)
        return (int)(e->k2 >> 63);
    int ok = eg_is_word(g, word, len);
    e->k1 = k1;
    e->k2 = k2 | ((uint64_t)ok << 63);
    return ok;
}

/* What run() lists for a rack of two tiles, neither a blank, on a board with tiles (the
 * Gen prepared for it; rack, radix, full_leave and mode set), found square by square
 * rather than by the GADDAG walk from each anchor: a play of one tile on an anchor
 * (across when it makes an across word, else down, as the walk records it), and of two
 * on two empty squares of a line with only tiles between them. A square takes a tile its
 * cross-check allows, the main word is looked up, and the play must touch a tile. */
static void eg_two(Gen *g, EgWord *wc, uint64_t wc_mask)
{
    int n = g->n, codes[2], nc = 0;
    for (int t = 1; t < 64; t++)
        for (int j = 0; j < g->rack[t]; j++)
            codes[nc++] = t;
    uint8_t letters[MAXN];
    /* one tile */
    for (int d = 0; d < 2 && !g->oom; d++)
        for (int line = 0; line < n && !g->oom; line++) {
            size_t base = (size_t)line * MAXN;
            const uint8_t *lc = g->cell[d] + base;
            for (int pos = 0; pos < n; pos++) {
                int ia = d ? pos * MAXN + line : line * MAXN + pos, id = d ? line * MAXN + pos : pos * MAXN + line;
                if (!g->anchor[d][base + pos])
                    continue;
                int s0 = pos, e0 = pos;
                while (s0 > 0 && lc[s0 - 1])
                    s0--;
                while (e0 + 1 < n && lc[e0 + 1])
                    e0++;
                if (s0 == e0) /* no word along the line: the other direction lists it, if any */
                    continue;
                /* across (d 0): listed here; down: only when it makes no across word */
                if (d == 1 && g->xscore[1][base + pos] >= 0)
                    continue;
                uint64_t ok = g->xcheck[d][base + pos] & g->xcheck[1 - d][d ? ia : id];
                int sum = 0;
                for (int k = s0; k <= e0; k++)
                    if (k != pos) {
                        sum += g->values[lc[k]];
                        g->word[k] = 0;
                    }
                int xs = g->xscore[d][base + pos], lm = g->lm[d][base + pos], wm = g->wm[d][base + pos];
                for (int i = 0; i < nc; i++) {
                    int t = codes[i];
                    if (i && t == codes[0])
                        continue;
                    if (!((ok >> t) & 1))
                        continue;
                    int v = g->values[t] * lm;
                    g->dir = d;
                    g->line = line;
                    g->word[pos] = (uint8_t)t;
                    g->placed = 1;
                    g->leave = g->full_leave - g->radix[t];
                    record(g, s0, e0, (sum + v) * wm + (xs >= 0 ? (xs + v) * wm : 0));
                }
            }
        }
    if (nc < 2)
        return;
    /* two tiles, in the line: p, then q the next empty square */
    for (int d = 0; d < 2 && !g->oom; d++)
        for (int line = 0; line < n && !g->oom; line++) {
            size_t base = (size_t)line * MAXN;
            const uint8_t *lc = g->cell[d] + base;
            const uint64_t *lx = g->xcheck[d] + base;
            const int32_t *lxs = g->xscore[d] + base;
            const uint8_t *llm = g->lm[d] + base, *lwm = g->wm[d] + base;
            for (int p = 0; p < n; p++) {
                if (lc[p])
                    continue;
                int q = p + 1;
                while (q < n && lc[q])
                    q++;
                if (q >= n)
                    break;
                uint64_t xp = lx[p], xq = lx[q];
                if (!((xp >> codes[0] & 1) && (xq >> codes[1] & 1)) && !((xp >> codes[1] & 1) && (xq >> codes[0] & 1)))
                    continue; /* the cross-checks take neither order */
                int s0 = p, e0 = q;
                while (s0 > 0 && lc[s0 - 1])
                    s0--;
                while (e0 + 1 < n && lc[e0 + 1])
                    e0++;
                if (s0 == p && e0 == q && q == p + 1 && lxs[p] < 0 && lxs[q] < 0)
                    continue; /* touches no tile */
                int sum = 0;
                for (int k = s0; k <= e0; k++)
                    if (lc[k]) {
                        sum += g->values[lc[k]];
                        letters[k - s0] = lc[k] & LETTER_MASK;
                        g->word[k] = 0;
                    }
                for (int i = 0; i < 2; i++) {
                    int a = codes[i], b = codes[1 - i];
                    if (i && a == b)
                        break;
                    if (!((lx[p] >> a) & 1) || !((lx[q] >> b) & 1))
                        continue;
                    letters[p - s0] = (uint8_t)a;
                    letters[q - s0] = (uint8_t)b;
                    if (!eg_is_word_kept(g, letters, e0 - s0 + 1, wc, wc_mask))
                        continue;
                    int va = g->values[a] * llm[p], vb = g->values[b] * llm[q];
                    int score = (sum + va + vb) * lwm[p] * lwm[q];
                    if (lxs[p] >= 0)
                        score += (lxs[p] + va) * lwm[p];
                    if (lxs[q] >= 0)
                        score += (lxs[q] + vb) * lwm[q];
                    g->dir = d;
                    g->line = line;
                    g->word[p] = (uint8_t)a;
                    g->word[q] = (uint8_t)b;
                    g->placed = 2;
                    g->leave = g->full_leave - g->radix[a] - g->radix[b];
                    record(g, s0, e0, score);
                }
            }
        }
}

/* Placements of rack on the board the search's Gen is prepared for: every one (EG_ALL)
 * in no order (eg_node orders them by keys, ties by move_cmp: sorting the moves
 * themselves cost more), the highest-scoring (EG_BEST), or, for a rack of one
 * tile, the highest-scoring placement of it (EG_SINGLE). The caller frees *out. -1: no
 * memory. */
int eg_generate(Eg *eg, const uint8_t *rack, int mode, Move **out, size_t *count)
{
    Gen *g = eg->po->g;
    memcpy(g->rack, rack, 64);
    uint64_t nl = 1;
    g->rack_left = 0;
    for (int c = 0; c < 64; c++) {
        g->radix[c] = (uint32_t)nl;
        g->rack_left += rack[c];
        if (rack[c])
            nl *= (uint64_t)rack[c] + 1;
    }
    g->full_leave = (uint32_t)(nl - 1);
    g->mode = mode == EG_BEST ? MODE_BEST : MODE_ALL;
    g->best_n = mode == EG_BEST ? 1 : 0;
    g->moves = NULL;
    g->nmoves = g->cap = 0;
    g->count = 0;
    g->oom = 0;
    /* no bounds (prune 0): with an endgame's few tiles the plain walk finds the best play sooner */
    g->empty_board = eg->root_empty && !eg->nundo; /* only the first play can be on an empty board */
    g->min_tiles = g->empty_board ? eg->po->first_min : 1;
    g->dirs = 2;
    if (mode == EG_SINGLE && !g->empty_board)
        eg_single(g);
    else if (g->rack_left == 2 && !rack[0] && !g->empty_board && g->nk > 1)
        eg_two(g, eg->wc, eg->wc_mask);
    else
        run(g);
    if (g->oom) {
        free(g->moves);
        g->moves = NULL;
        return -1;
    }
    *out = g->moves;
    *count = g->nmoves;
    g->moves = NULL;
    return 0;
}

void eg_place(uint8_t *cells, int n, const Move *m, uint8_t *rack)
{
    for (int j = 0; j < m->len; j++) {
        uint8_t t = m->tiles[j];
        if (!t)
            continue;
        int r = m->down ? m->row + j : m->row, c = m->down ? m->col : m->col + j;
        cells[r * n + c] = t;
        rack[t & BLANK_FLAG ? 0 : t]--;
    }
}

uint64_t eg_place_key(int n, const Move *m)
{
    uint64_t h = 0;
    for (int j = 0; j < m->len; j++) {
        uint8_t t = m->tiles[j];
        if (!t)
            continue;
        int r = m->down ? m->row + j : m->row, c = m->down ? m->col : m->col + j;
        h += eg_square_key(r * n + c, t);
    }
    return h;
}


static int eg_sq_cmp(const void *x, const void *y)
{
    const EgSq *a = (const EgSq *)x, *b = (const EgSq *)y;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return (a->sq > b->sq) - (a->sq < b->sq);
}

/* The squares where rack's one tile has a placement on the board the Gen is prepared
 * for (not empty), with the most it scores there (eg_single_best's scores), highest
 * first, in out (room for n * n): how many. */
int eg_single_squares(const Gen *g, const uint8_t *rack, EgSq *out)
{
    int n = g->n, blank, code = eg_single_code(rack, &blank), k = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            uint8_t t;
            int score = eg_single_at(g, blank, code, r, c, &t);
            if (score < 0)
                continue;
            out[k].score = score;
            out[k++].sq = r * MAXN + c;
        }
    qsort(out, (size_t)k, sizeof(EgSq), eg_sq_cmp);
    return k;
}

/* The squares whose state in the Gen a play changes (what gen_make saves): those of its
 * tiles and the empty squares met first from each of them in the four directions, on
 * after (the board with the play). In sq (room for 5 * MAXN): how many. */
int eg_changed_squares(int n, const uint8_t *after, const Move *m, int32_t *sq)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int k = 0;
    for (int j = 0; j < m->len; j++) {
        if (!m->tiles[j])
            continue;
        int r0 = m->down ? m->row + j : m->row, c0 = m->down ? m->col : m->col + j;
        sq[k++] = r0 * MAXN + c0;
        for (int d = 0; d < 4; d++) {
            int r = r0 + dr[d], c = c0 + dc[d];
            while (r >= 0 && c >= 0 && r < n && c < n && after[r * n + c]) {
                r += dr[d];
                c += dc[d];
            }
            if (r >= 0 && c >= 0 && r < n && c < n)
                sq[k++] = r * MAXN + c;
        }
    }
    return k;
}

/* The most the opponent's tile scores on a square of list (eg_single_squares) that the
 * changed squares sq do not hold: what it scores on the board after the play at least
 * (the other squares keep their state). -1: every square of list changed. */
int eg_unchanged_best(const EgSq *list, int nl, const int32_t *sq, int ns)
{
    for (int i = 0; i < nl; i++) {
        int hit = 0;
        for (int j = 0; j < ns && !hit; j++)
            hit = sq[j] == list[i].sq;
        if (!hit)
            return list[i].score;
    }
    return -1;
}

/* At most what one tile of value v scores on the empty square sq (r * MAXN + c) of
 * after, whatever letter it is and whether its words are in the lexicon: the points of
 * the tiles next to it in each direction, its own, the square's premiums. */
int eg_square_most(const Gen *g, const uint8_t *after, int sq, int v)
{
    int n = g->n, r0 = sq / MAXN, c0 = sq % MAXN, total = 0, words = 0;
    for (int d = 0; d < 2; d++) {
        int dr = d ? 1 : 0, dc = d ? 0 : 1, sum = 0, any = 0;
        for (int s = -1; s <= 1; s += 2) {
            int r = r0 + s * dr, c = c0 + s * dc;
            while (r >= 0 && c >= 0 && r < n && c < n && after[r * n + c]) {
                sum += g->values[after[r * n + c]];
                any = 1;
                r += s * dr;
                c += s * dc;
            }
        }
        if (any) {
            total += (sum + v * g->lm[0][sq]) * g->wm[0][sq];
            words++;
        }
    }
    return words ? total + g->bonus[1] : -1;
}

/* The most the one tile of rack1 scores on after, the board after m (the Gen still
 * prepared for the board before it; list and nl: eg_single_squares there). On a square
 * m does not change, what list says; on one it changes (met first from one of m's
 * tiles in a direction: along the play's line its ends, across it the squares beside
 * its tiles, so each such square changes in one direction only), what the tile scores
 * with the cross word along that direction looked up again (the other direction's word
 * there is unchanged). -1: the tile has no place. */
int eg_one_after(const Gen *g, const uint8_t *after, const Move *m, const uint8_t *rack1, const EgSq *list,
                        int nl)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int n = g->n, code = 0, blank = rack1[0] > 0;
    for (int t = 1; t < 64 && !blank; t++)
        if (rack1[t])
            code = t;
    int32_t sq[5 * MAXN];
    uint8_t vert[5 * MAXN]; /* the changed direction: 1 down, 0 across; 2: a tile of m */
    int ns = 0;
    for (int j = 0; j < m->len; j++) {
        if (!m->tiles[j])
            continue;
        int r0 = m->down ? m->row + j : m->row, c0 = m->down ? m->col : m->col + j;
        vert[ns] = 2;
        sq[ns++] = r0 * MAXN + c0;
        for (int d = 0; d < 4; d++) {
            int r = r0 + dr[d], c = c0 + dc[d];
            while (r >= 0 && c >= 0 && r < n && c < n && after[r * n + c]) {
                r += dr[d];
                c += dc[d];
            }
            if (r < 0 || c < 0 || r >= n || c >= n)
                continue;
            int x = r * MAXN + c, dup = 0;
            for (int k = 0; k < ns && !dup; k++)
                dup = sq[k] == x;
            if (dup)
                continue;
            vert[ns] = d < 2;
            sq[ns++] = x;
        }
    }
    int best = eg_unchanged_best(list, nl, sq, ns);
    for (int k = 0; k < ns; k++) {
        if (vert[k] == 2)
            continue;
        int r = sq[k] / MAXN, c = sq[k] % MAXN;
        int ia = r * MAXN + c, id = c * MAXN + r;
        uint64_t x0, x1;
        int32_t xd, xa;
        if (vert[k]) { /* the word down through the square changed */
            x0 = cross_set(g, after, r, c, 1, 0, &xd);
            x1 = g->xcheck[1][id];
            xa = g->xscore[1][id];
        } else {
            x1 = cross_set(g, after, r, c, 0, 1, &xa);
            x0 = g->xcheck[0][ia];
            xd = g->xscore[0][ia];
        }
        uint64_t ok = x0 & x1;
        uint8_t t;
        if (blank) {
            if (!(ok & ALL_LETTERS))
                continue;
            t = (uint8_t)(__builtin_ctzll(ok & ALL_LETTERS) | BLANK_FLAG);
        } else {
            if (!((ok >> code) & 1))
                continue;
            t = (uint8_t)code;
        }
        if (xd < 0 && xa < 0)
            continue;
        int v = g->values[t] * g->lm[0][ia], wm = g->wm[0][ia];
        int score = (xd >= 0 ? (xd + v) * wm : 0) + (xa >= 0 ? (xa + v) * wm : 0) + g->bonus[1];
        if (score > best)
            best = score;
    }
    return best;
}

/* The squares of eg_single_squares for one tile of code c, made when first asked for
 * (ul, nul, ulc: up to 8 codes; -1: no room or memory). */
int eg_u_list(const Gen *g, int c, EgSq **ul, int *nul, int *ulc, int *nlists)
{
    for (int k = 0; k < *nlists; k++)
        if (ulc[k] == c)
            return k;
    if (*nlists >= 8)
        return -1;
    int k = *nlists;
    ul[k] = (EgSq *)malloc(sizeof(EgSq) * (size_t)(g->n * g->n));
    if (!ul[k])
        return -1;
    uint8_t one[64] = {0};
    one[c] = 1;
    nul[k] = eg_single_squares(g, one, ul[k]);
    ulc[k] = c;
    (*nlists)++;
    return k;
}
