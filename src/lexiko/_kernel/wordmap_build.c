/*
 * lexiko._kernel, wordmap_build.c: the word map's build from a kwg's DAWG (wmp_build_*;
 * the bindings' wordmap() returns it as bytes) and the check of a map handed back
 * (wmp_check). What the map holds and how best mode searches it: wordmap.h, wordmap.c.
 */
#include "wordmap.h"

#include "anagram.h"

/* -- word map: the build ---------------------------------------------------------- */


static void wmp_dfs(WmpBuild *b, uint32_t node, int len, uint64_t h)
{
    for (uint32_t i = node; i < b->nk && !b->err; i++) {
        uint32_t a = b->kwg[i], t = ARC_TILE(a) & LETTER_MASK, child = ARC_CHILD(a);
        if (++b->steps > (1LL << 28) || len >= 63) {
            b->err = -2;
            return;
        }
        uint64_t h2 = h + letter_hash[t];
        b->path[len] = (uint8_t)t;
        b->alphabet |= (uint64_t)1 << t;
        if (a & ACC_BIT) {
            if (b->nw == b->capw) {
                size_t cap = b->capw ? 2 * b->capw : 4096;
                WmpWord *nw = (WmpWord *)realloc(b->w, cap * sizeof(WmpWord));
                if (!nw) {
                    b->err = -1;
                    return;
                }
                b->w = nw;
                b->capw = cap;
            }
            if (b->nl + (size_t)len + 1 > b->capl) {
                size_t cap = b->capl ? 2 * b->capl : 65536;
                uint8_t *nl = (uint8_t *)realloc(b->let, cap);
                if (!nl) {
                    b->err = -1;
                    return;
                }
                b->let = nl;
                b->capl = cap;
            }
            if (b->nl > 0xFFFFFF00u) {
                b->err = -2;
                return;
            }
            memcpy(b->let + b->nl, b->path, (size_t)len + 1);
            b->w[b->nw++] = (WmpWord){h2, (uint32_t)b->nl, (uint8_t)(len + 1)};
            b->nl += (size_t)len + 1;
        }
        if (child && child < b->nk)
            wmp_dfs(b, child, len + 1, h2);
        if (a & END_BIT)
            break;
    }
}

static int wmp_word_cmp(const void *x, const void *y)
{
    const WmpWord *a = (const WmpWord *)x, *b = (const WmpWord *)y;
    uint64_t ka = ana_key(a->h, a->len), kb = ana_key(b->h, b->len);
    if (ka != kb)
        return ka < kb ? -1 : 1;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return (a->off > b->off) - (a->off < b->off);
}

static int u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

int wmp_build_scan(WmpBuild *b, const uint32_t *kwg, uint32_t nk)
{
    memset(b, 0, sizeof *b);
    b->kwg = kwg;
    b->nk = nk;
    if (b->nk >= 1) {
        uint32_t root = ARC_CHILD(b->kwg[0]);
        if (root && root < b->nk)
            wmp_dfs(b, root, 0, 0);
    }
    if (!b->err && b->nw) {
        qsort(b->w, b->nw, sizeof(WmpWord), wmp_word_cmp);
        /* groups of one key and length, and the blank entries of each: (key of the
         * multiset less one letter, the letter) pairs, sorted by key */
        uint64_t *bk = b->bk = (uint64_t *)malloc(2 * sizeof(uint64_t) * (b->nl + 1));
        if (!bk)
            b->err = -1;
        for (size_t i = 0; i < b->nw && !b->err; i++) {
            if (i && ana_key(b->w[i].h, b->w[i].len) == ana_key(b->w[i - 1].h, b->w[i - 1].len) &&
                b->w[i].len == b->w[i - 1].len)
                continue;
            b->ngroups++;
            const uint8_t *l = b->let + b->w[i].off;
            uint64_t seen = 0;
            for (int j = 0; j < b->w[i].len; j++) {
                if ((seen >> l[j]) & 1)
                    continue;
                seen |= (uint64_t)1 << l[j];
                bk[2 * b->nb] = ana_key(b->w[i].h - letter_hash[l[j]], b->w[i].len - 1);
                bk[2 * b->nb + 1] = l[j];
                b->nb++;
            }
        }
        if (!b->err)
            qsort(bk, b->nb, 2 * sizeof(uint64_t), u64_cmp);
        for (size_t i = 0; i < b->nb && !b->err; i++)
            if (!i || bk[2 * i] != bk[2 * i - 2])
                b->nbd++;
    }
    if (b->err)
        return b->err;
    uint64_t wslots = 1024, bslots = 1024;
    while (wslots < 2 * (uint64_t)b->ngroups)
        wslots *= 2;
    while (bslots * 7 < 10 * (uint64_t)b->nbd)
        bslots *= 2;
    uint64_t wfbits = 12, bfbits = 12; /* about 16 bits a key, 8 for the blank table's */
    while (wfbits < 24 && (1ULL << wfbits) < 16 * (uint64_t)b->ngroups)
        wfbits++;
    while (bfbits < 23 && (1ULL << bfbits) < 8 * (uint64_t)b->nbd)
        bfbits++;
    b->wslots = wslots;
    b->bslots = bslots;
    b->wfbits = wfbits;
    b->bfbits = bfbits;
    b->total = sizeof(WmpHead) + wslots * sizeof(WmpSlot) + bslots * sizeof(WmpBSlot) + ((1ULL << wfbits) >> 3) +
               ((1ULL << bfbits) >> 3) + b->nl;
    return 0;
}

int wmp_build_write(const WmpBuild *b, void *buf)
{
    const uint64_t wslots = b->wslots, bslots = b->bslots, wfbits = b->wfbits, bfbits = b->bfbits;
    const uint64_t *bk = b->bk;
    memset(buf, 0, b->total);
    WmpHead *head = (WmpHead *)buf;
    head->magic = WMP_MAGIC;
    head->wslots = wslots;
    head->bslots = bslots;
    head->nletters = b->nl;
    head->nwords = b->nw;
    head->alphabet = b->alphabet & ALL_LETTERS;
    head->wfbits = wfbits;
    head->bfbits = bfbits;
    WmpSlot *wt = (WmpSlot *)(head + 1);
    WmpBSlot *bt = (WmpBSlot *)(wt + wslots);
    uint64_t *wf = (uint64_t *)(bt + bslots), *bf = wf + ((1ULL << wfbits) >> 6);
    uint8_t *letters = (uint8_t *)(bf + ((1ULL << bfbits) >> 6));
    size_t at = 0;
    WmpSlot *cur = NULL;
    for (size_t i = 0; i < b->nw; i++) {
        uint64_t key = ana_key(b->w[i].h, b->w[i].len);
        if (!cur || cur->key != key || cur->len != b->w[i].len) {
            uint64_t j = wmp_home(key) & (wslots - 1);
            while (wt[j].key)
                j = (j + 1) & (wslots - 1);
            cur = &wt[j];
            cur->key = key;
            cur->len = b->w[i].len;
            cur->off = (uint32_t)at;
            uint64_t f = wmp_fbit(key, wfbits);
            wf[f >> 6] |= (uint64_t)1 << (f & 63);
        }
        if (cur->cnt == 0xFFFF)
            return -2; /* 65535 words of one multiset: not a lexicon */
        cur->cnt++;
        memcpy(letters + at, b->let + b->w[i].off, b->w[i].len);
        at += b->w[i].len;
    }
    for (size_t i = 0; i < b->nb; i++) {
        uint64_t key = bk[2 * i];
        uint64_t j = wmp_home(key) & (bslots - 1);
        while (bt[j].key && bt[j].key != key)
            j = (j + 1) & (bslots - 1);
        bt[j].key = key;
        bt[j].mask |= (uint64_t)1 << bk[2 * i + 1];
        uint64_t f = wmp_fbit(key, bfbits);
        bf[f >> 6] |= (uint64_t)1 << (f & 63);
    }
    return 0;
}

void wmp_build_free(WmpBuild *b)
{
    free(b->w);
    free(b->let);
    free(b->bk);
    b->w = NULL;
    b->let = NULL;
    b->bk = NULL;
}

const WmpHead *wmp_check(const void *buf, size_t len)
{
    const WmpHead *h = (const WmpHead *)buf;
    if (len < sizeof(WmpHead) || ((uintptr_t)buf & 7) || h->magic != WMP_MAGIC || !h->wslots ||
        !h->bslots || (h->wslots & (h->wslots - 1)) || (h->bslots & (h->bslots - 1)) || h->wslots > (1ULL << 40) ||
        h->bslots > (1ULL << 40) || h->nletters > (1ULL << 40) || h->wfbits < 6 || h->wfbits > 40 ||
        h->bfbits < 6 || h->bfbits > 40 ||
        len != sizeof(WmpHead) + h->wslots * sizeof(WmpSlot) + h->bslots * sizeof(WmpBSlot) +
                              ((1ULL << h->wfbits) >> 3) + ((1ULL << h->bfbits) >> 3) + h->nletters) {
        return NULL;
    }
    return h;
}

