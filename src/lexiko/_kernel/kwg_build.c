/*
 * lexiko._kernel, kwg_build.c: the lexicon automaton built in C (contract in
 * kwg_build.h). It follows kwg.py's builder step by step, so both give the same array:
 *
 * 1. The words are sorted and deduplicated; their minimal DAWG is built in one pass
 *    (a node is finished when the next word leaves it, then looked up in a register of
 *    finished nodes by content: an equal node is shared, a new one appended).
 * 2. Finishing the node of each prefix p of a word records (p, its node, whether p is a
 *    word). The GADDAG is the minimal automaton of the reversed prefixes, sorted: the key
 *    reverse(p) accepts when p is a word, and its node starts with a separator arc to
 *    the DAWG node of p (when p has one). It is built by the same pass.
 *
 * Memory: the words, the arcs, the register (a hash set of node offsets, at most half
 * full) and one record of 12 bytes per prefix: for Polish's 3.3 million words (40 MB of
 * codes) some 140 MB more at the peak, and 11 seconds of processor time.
 */
#include "kwg_build.h"

#include <stdint.h>

#define KEY_MAX 24 /* the longest key handled (words have at most 21 letters) */
#define WORD_MIN 2
#define WORD_MAX 21

typedef struct {
    uint32_t *out; /* the arcs so far (the two pointer arcs first) */
    size_t n, cap;
    uint32_t *reg; /* open addressing: offsets of finished nodes; 0 empty */
    size_t reg_cap, reg_used;
    uint32_t arcs[KEY_MAX + 2][65]; /* the open nodes, by depth */
    int count[KEY_MAX + 2];
    int too_big;
} Packer;

/* A prefix of a word as the DAWG pass finishes it: the word (offset in the buffer), its
 * length, whether it is a word, and its DAWG node. */
typedef struct {
    uint32_t word;
    uint32_t node;
    uint8_t len, accepts, pad[2];
} Prefix;

typedef struct {
    Prefix *items;
    size_t n, cap;
} Prefixes;

static const uint8_t *sort_base; /* the words' buffer, for the comparators below */

static uint64_t node_hash(const uint32_t *arcs, int k)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < k; i++)
        h = (h ^ arcs[i]) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}

static int reg_grow(Packer *p)
{
    size_t cap = p->reg_cap ? p->reg_cap * 2 : 1u << 16;
    uint32_t *reg = calloc(cap, sizeof *reg);
    if (!reg)
        return -1;
    for (size_t i = 0; i < p->reg_cap; i++) {
        uint32_t off = p->reg[i];
        if (!off)
            continue;
        int k = 1;
        while (!(p->out[off + (uint32_t)k - 1] & END_BIT))
            k++;
        size_t s = (size_t)node_hash(p->out + off, k) & (cap - 1);
        while (reg[s])
            s = (s + 1) & (cap - 1);
        reg[s] = off;
    }
    free(p->reg);
    p->reg = reg;
    p->reg_cap = cap;
    return 0;
}

/* The offset of the node of arcs (k of them, END set on the last): an equal node
 * finished before, or these arcs appended. 0 when out of memory (no node is at 0). */
static uint32_t finish_arcs(Packer *p, const uint32_t *arcs, int k)
{
    if (2 * (p->reg_used + 1) > p->reg_cap && reg_grow(p) < 0)
        return 0;
    size_t mask = p->reg_cap - 1, s = (size_t)node_hash(arcs, k) & mask;
    for (; p->reg[s]; s = (s + 1) & mask) {
        uint32_t off = p->reg[s];
        if (off + (size_t)k <= p->n && !memcmp(p->out + off, arcs, (size_t)k * sizeof *arcs))
            return off;
    }
    if (p->n + (size_t)k > MAX_ARCS) { /* count on, so the message says how many are needed */
        p->too_big = 1;
        p->n += (size_t)k;
        return 1;
    }
    if (p->n + (size_t)k > p->cap) {
        size_t cap = p->cap * 2 > p->n + (size_t)k ? p->cap * 2 : p->n + (size_t)k;
        uint32_t *out = realloc(p->out, cap * sizeof *out);
        if (!out)
            return 0;
        p->out = out;
        p->cap = cap;
    }
    uint32_t off = (uint32_t)p->n;
    memcpy(p->out + off, arcs, (size_t)k * sizeof *arcs);
    p->n += (size_t)k;
    p->reg[s] = off;
    p->reg_used++;
    return off;
}

/* Finish the open node at depth d: its offset (0 if it has no arc), 1u<<31 on failure. */
static uint32_t finish(Packer *p, int d)
{
    int k = p->count[d];
    if (!k)
        return 0;
    p->arcs[d][k - 1] |= END_BIT;
    uint32_t off = finish_arcs(p, p->arcs[d], k);
    return off ? off : 1u << 31;
}

/* The keys of one pass: key i into buf (its length returned), whether it accepts, the
 * child of a separator arc first in its node (0: none). */
typedef struct {
    const uint8_t *words;
    const uint32_t *order; /* DAWG pass: word offsets, sorted */
    const Prefix *prefixes; /* GADDAG pass: the prefixes, sorted by reversed key */
    size_t count;
    Prefixes *record; /* DAWG pass: receives every prefix with its node */
} Keys;

static int key_at(const Keys *ks, size_t i, uint8_t *buf, int *accepts, uint32_t *tail)
{
    if (ks->order) {
        const uint8_t *w = ks->words + ks->order[i];
        int n = 0;
        while (w[n])
            buf[n] = w[n], n++;
        *accepts = 1;
        *tail = 0;
        return n;
    }
    const Prefix *q = &ks->prefixes[i];
    const uint8_t *w = ks->words + q->word;
    for (int j = 0; j < q->len; j++)
        buf[j] = w[q->len - 1 - j];
    *accepts = q->accepts;
    *tail = q->node;
    return q->len;
}

static int record_prefix(Prefixes *r, uint32_t word, int len, int accepts, uint32_t node)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 1u << 16;
        Prefix *items = realloc(r->items, cap * sizeof *items);
        if (!items)
            return -1;
        r->items = items;
        r->cap = cap;
    }
    Prefix *q = &r->items[r->n++];
    q->word = word;
    q->node = node;
    q->len = (uint8_t)len;
    q->accepts = (uint8_t)accepts;
    q->pad[0] = q->pad[1] = 0;
    return 0;
}

/* Close the open nodes of the previous key (plen letters, from the word at offset word)
 * down to depth k, linking each to its parent's last arc: 0, or -1 out of memory. */
static int close_to(Packer *p, const Keys *ks, int plen, uint32_t word, int k)
{
    for (int d = plen; d > k; d--) {
        uint32_t off = finish(p, d);
        if (off == 1u << 31)
            return -1;
        uint32_t *into = &p->arcs[d - 1][p->count[d - 1] - 1];
        if (ks->record && record_prefix(ks->record, word, d, (*into & ACC_BIT) != 0, off) < 0)
            return -1;
        *into |= CHILD_BITS(off);
    }
    return 0;
}

/* Add the minimal automaton of the sorted, distinct keys; its root in *root. */
static int minimize(Packer *p, const Keys *ks, uint32_t *root)
{
    uint8_t prev[KEY_MAX + 1], key[KEY_MAX + 1];
    int plen = 0;
    uint32_t prev_word = 0;
    p->count[0] = 0;
    for (size_t i = 0; i < ks->count; i++) {
        int accepts;
        uint32_t tail;
        int n = key_at(ks, i, key, &accepts, &tail);
        int k = 0;
        while (k < n && k < plen && key[k] == prev[k])
            k++;
        if (close_to(p, ks, plen, prev_word, k) < 0)
            return -1;
        for (int d = k; d < n; d++) {
            p->arcs[d][p->count[d]++] = (uint32_t)key[d] << 24;
            p->count[d + 1] = 0;
        }
        if (accepts)
            p->arcs[n - 1][p->count[n - 1] - 1] |= ACC_BIT;
        if (tail)
            p->arcs[n][p->count[n]++] = CHILD_BITS(tail);
        memcpy(prev, key, (size_t)n);
        plen = n;
        prev_word = ks->order ? ks->order[i] : 0;
    }
    if (close_to(p, ks, plen, prev_word, 0) < 0)
        return -1;
    uint32_t off = finish(p, 0);
    if (off == 1u << 31)
        return -1;
    *root = off;
    return 0;
}

static int cmp_words(const void *a, const void *b)
{
    const uint8_t *x = sort_base + *(const uint32_t *)a, *y = sort_base + *(const uint32_t *)b;
    while (*x && *x == *y)
        x++, y++;
    return (int)*x - (int)*y;
}

static int cmp_reversed(const void *a, const void *b)
{
    const Prefix *p = a, *q = b;
    const uint8_t *x = sort_base + p->word + p->len, *y = sort_base + q->word + q->len;
    int n = p->len < q->len ? p->len : q->len;
    for (int i = 1; i <= n; i++)
        if (x[-i] != y[-i])
            return (int)x[-i] - (int)y[-i];
    return (int)p->len - (int)q->len;
}

/* The offsets of the words to keep (2..21 letters), sorted, duplicates dropped: their
 * count, -1 out of memory, -3 a code above 63 in a word kept (*bad: its offset). */
static long long sorted_words(const uint8_t *buf, size_t len, uint32_t **order, size_t *bad)
{
    size_t cap = 1024, n = 0, start = 0, high = SIZE_MAX; /* high: a code above 63 in this word */
    uint32_t *o = malloc(cap * sizeof *o);
    if (!o)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] > 63 && high == SIZE_MAX)
            high = i;
        if (buf[i])
            continue;
        size_t wl = i - start;
        if (wl >= WORD_MIN && wl <= WORD_MAX && high != SIZE_MAX) {
            free(o);
            *bad = high;
            return -3;
        }
        high = SIZE_MAX;
        if (wl >= WORD_MIN && wl <= WORD_MAX) {
            if (n == cap) {
                uint32_t *grown = realloc(o, (cap *= 2) * sizeof *o);
                if (!grown) {
                    free(o);
                    return -1;
                }
                o = grown;
            }
            o[n++] = (uint32_t)start;
        }
        start = i + 1;
    }
    sort_base = buf;
    if (n)
        qsort(o, n, sizeof *o, cmp_words);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (!kept || cmp_words(&o[kept - 1], &o[i]))
            o[kept++] = o[i];
    *order = o;
    return (long long)kept;
}

int kwg_build(const uint8_t *buf, size_t len, int dawg_only, uint32_t **out, size_t *n)
{
    /* the words must end with a 0 byte; a buffer of 2**32 bytes or more is too big */
    if (len && buf[len - 1]) {
        *n = len;
        return -3;
    }
    if (len >= 0xFFFFFFFFu)
        return -1;
    uint32_t *order = NULL;
    size_t bad = 0;
    long long nw = sorted_words(buf, len, &order, &bad);
    if (nw < 0) {
        *n = bad;
        return (int)nw;
    }
    Packer *p = calloc(1, sizeof *p);
    Prefixes rec = {NULL, 0, 0};
    int err = -1;
    uint32_t dawg = 0, gaddag = 0;
    if (!p || !(p->out = malloc((p->cap = 1u << 16) * sizeof *p->out)))
        goto done;
    p->out[0] = p->out[1] = END_BIT;
    p->n = 2;
    Keys words = {buf, order, NULL, (size_t)nw, dawg_only ? NULL : &rec};
    if (minimize(p, &words, &dawg) < 0)
        goto done;
    free(order);
    order = NULL;
    if (!dawg_only && !p->too_big) {
        sort_base = buf;
        if (rec.n)
            qsort(rec.items, rec.n, sizeof *rec.items, cmp_reversed);
        Keys prefixes = {buf, NULL, rec.items, rec.n, NULL};
        if (minimize(p, &prefixes, &gaddag) < 0)
            goto done;
    }
    *n = p->n;
    if (p->too_big) {
        err = -2;
        goto done;
    }
    p->out[0] = END_BIT | CHILD_BITS(dawg);
    p->out[1] = END_BIT | CHILD_BITS(gaddag);
    *out = p->out;
    p->out = NULL;
    err = 0;
done:
    free(order);
    free(rec.items);
    if (p) {
        free(p->out);
        free(p->reg);
        free(p);
    }
    return err;
}
