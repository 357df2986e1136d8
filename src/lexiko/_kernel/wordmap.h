/*
 * lexiko._kernel, wordmap.h: the word map's contract: its layout (a WmpHead, the word
 * table, the blank table, their filters, the words' letters), the inline look-ups of
 * its parts, best mode's search by it (wordmap.c) and its build (wordmap_build.c).
 */
#ifndef LEXIKO_KERNEL_WORDMAP_H
#define LEXIKO_KERNEL_WORDMAP_H

#include "common.h"

/* -- word map: best mode by letter multiset ------------------------------------------ */

/*
 * The word map (wordmap() builds it from the kwg's DAWG, once per lexicon) indexes the
 * words by letter multiset: a hash table from the key of a multiset (ana_key: the sum of
 * the letters' random numbers and the length) to the words with those letters, stored
 * one after the other; and for the blanks, a table from the key of a multiset M to a
 * mask of the letters x such that M + x is the multiset of a word.
 *
 * A key is a 64-bit hash, so two multisets may share one (never seen; with about a
 * million keys the odds are ~1e-7): a look-up may then give words of another multiset,
 * and a blank mask letters of another. Neither is trusted: every word found is checked
 * square by square (its letters on the board's tiles, and on the empty squares letters
 * the cross-checks allow, drawn from the sub-rack's tiles exactly, with the blanks for
 * exactly the letters looked up for them), so a collision can cost a look-up, never add
 * or repeat a play. A play can never be missed: its word has the key looked up.
 *
 * Best mode with the map (run_wmp): anchor_bounds gives, for every anchor, first square
 * f and number of tiles k (which fix the squares the main word covers), a bound of the
 * equity of the plays; these groups are taken best bound first, until the best left
 * is below the floor (the N-th best kept, or ext_floor). A group taken from it bounds
 * each of the rack's sub-racks of k tiles (its own tile values sorted against the
 * squares' weights, its own leave; sub-racks go best leave first, so the first whose
 * leave cannot make up for the group's score bound ends the group), and those that
 * reach the floor are looked up: the words of the span's length with the span's board
 * letters and the sub-rack's, each checked and scored as the walk scores it, once for
 * every distinct placement of the blanks. (Putting a group back in the heap with the
 * bound of its best sub-rack was tried: the bounds cost more than the order gained.)
 * Nothing is cut that could rank before the N-th best, so the result is that of
 * run_best (the tests compare them).
 */
#define WMP_MAGIC 0x3170616d64726f77ULL /* "wordmap1" */
#define WMP_MAX_SUBS 2048               /* more sub-racks: run_best */

typedef struct WmpHead {
    uint64_t magic;
    uint64_t wslots, bslots; /* powers of two */
    uint64_t nletters, nwords;
    uint64_t alphabet;
    uint64_t wfbits, bfbits; /* log2 of the bits of the word and blank filters */
} WmpHead;

typedef struct WmpSlot {
    uint64_t key; /* ana_key of the words' multiset; 0: an empty slot */
    uint32_t off; /* the first word's letters in the letter array; the others follow */
    uint16_t cnt; /* words */
    uint8_t len, pad;
} WmpSlot;

typedef struct {
    uint64_t key;  /* ana_key of a multiset M; 0: an empty slot */
    uint64_t mask; /* letters x such that M + x is (or shares its key with) a word's multiset */
} WmpBSlot;

typedef struct SubRack {
    uint64_t h;         /* hash of its letters (not its blanks) */
    uint64_t nat;       /* its letters, as a mask */
    double leave;       /* value of the tiles kept (0 without a table) */
    uint32_t leave_idx; /* index of the tiles kept */
    uint8_t k, b;       /* tiles, blanks */
    uint8_t ready;      /* vd filled and the sub-racks of its size sorted (wmp_size_ready) */
    uint8_t vd[PRUNE_MAX_RACK];  /* its tiles' values, highest first (blanks 0) */
    uint8_t dig[PRUNE_MAX_RACK]; /* how many of each of g->codes */
} SubRack;

static inline const WmpSlot *wmp_wt(const WmpHead *h)
{
    return (const WmpSlot *)(h + 1);
}

static inline const WmpBSlot *wmp_bt(const WmpHead *h)
{
    return (const WmpBSlot *)(wmp_wt(h) + h->wslots);
}

/* The filters: one bit per key (wmp_fbit), a bit set for every key of the table; far
 * smaller than the tables (a bit against 16 bytes), they stay in cache, and most
 * look-ups find nothing (only one sub-rack in eight spells a word in its span). */
static inline const uint64_t *wmp_wf(const WmpHead *h)
{
    return (const uint64_t *)(wmp_bt(h) + h->bslots);
}

static inline const uint64_t *wmp_bf(const WmpHead *h)
{
    return wmp_wf(h) + ((1ULL << h->wfbits) >> 6);
}

static inline const uint8_t *wmp_letters(const WmpHead *h)
{
    return (const uint8_t *)(wmp_bf(h) + ((1ULL << h->bfbits) >> 6));
}

static inline uint64_t wmp_fbit(uint64_t key, uint64_t bits)
{
    return (key * 0xD6E8FEB86659FD93ULL) >> (64 - bits);
}

static inline int wmp_test(const uint64_t *f, uint64_t bits, uint64_t key)
{
    uint64_t i = wmp_fbit(key, bits);
    return (f[i >> 6] >> (i & 63)) & 1;
}

static inline uint64_t wmp_home(uint64_t key)
{
    return (key * 0x9E3779B97F4A7C15ULL) >> 20;
}

/* Whether some word of len letters may hold the letters of hash h and the rack's blanks
 * (anchor_bounds' test of the plays putting down the whole rack, by the map's filters). */
int wmp_rack_word(const Gen *g, int len, uint64_t h);

/* Whether run_wmp takes this rack (counts by code, [0] blanks). */
int wmp_fits(const uint8_t *full);

/* The rack's sub-racks (g->subs by size, each size made ready by wmp_size_ready: best
 * leave first, values filled); 0 when out of memory. */
int wmp_setup(Gen *g, const uint8_t *full);

/* Make the rack's sub-racks of k tiles ready (see wordmap.c); 0 when out of memory. */
int wmp_size_ready(Gen *g, int k);

/* Best mode by the word map (g->wmp, set up by wmp_setup). */
void run_wmp(Gen *g, uint64_t have);

/* -- word map: the build (wordmap_build.c) ---------------------------------------- */

typedef struct {
    uint64_t h;
    uint32_t off;
    uint8_t len;
} WmpWord;

typedef struct WmpBuild {
    const uint32_t *kwg;
    uint32_t nk;
    WmpWord *w;
    size_t nw, capw;
    uint8_t *let;
    size_t nl, capl;
    long long steps;
    int err; /* -1: out of memory; -2: malformed */
    uint64_t alphabet;
    uint8_t path[64];
    /* the scan's results, for the write */
    uint64_t *bk; /* blank entries: key, then the letter in the low 6 bits of a second word */
    size_t ngroups, nb, nbd;
    uint64_t wslots, bslots, wfbits, bfbits;
    size_t total; /* bytes of the map */
} WmpBuild;

/* Walk the words of the DAWG of kwg (nk arcs) into b and size the map (b->total bytes):
 * 0, -1 out of memory, -2 a malformed kwg. wmp_build_free(b) afterwards in every case. */
int wmp_build_scan(WmpBuild *b, const uint32_t *kwg, uint32_t nk);

/* Lay the map out in buf (b->total bytes): 0, or -2 when the kwg is not a lexicon. */
int wmp_build_write(const WmpBuild *b, void *buf);

void wmp_build_free(WmpBuild *b);

/* The word map in buf (len bytes), checked: what wordmap() made, or NULL. */
const WmpHead *wmp_check(const void *buf, size_t len);

#endif
