/*
 * lexiko._kernel, anagram.h: the anagram index's contract (see anagram.c): the letters'
 * random numbers, the multiset key, the look-up and the build's walk of a DAWG.
 */
#ifndef LEXIKO_KERNEL_ANAGRAM_H
#define LEXIKO_KERNEL_ANAGRAM_H

#include "common.h"

/* One random 64-bit number per letter code (odd); [0] also counts a multiset's length. */
extern uint64_t letter_hash[64];

/* Fill letter_hash (from a fixed seed: the same numbers every time); once, at import. */
void init_letter_hash(void);

/* The slot key of a multiset hash h of `len` letters (never 0, the empty slot). */
static inline uint64_t ana_key(uint64_t h, int len)
{
    uint64_t k = h + (uint64_t)len * letter_hash[0];
    return k ? k : 1;
}

/* Whether some word of len letters holds the letters of hash h and `blanks` more (g->ana
 * the index; the answers are kept in g->ana_ck / ana_cv). */
int anagram_exists(Gen *g, int len, uint64_t h, int blanks);

/* Visit every word of the DAWG: its key into table (mask: slots - 1; table NULL: count),
 * the letters met into *alphabet. The number of words, -1 when out of memory, -2 on a
 * malformed array. */
long long dawg_words(const uint32_t *kwg, uint32_t nk, uint64_t *table, uint64_t mask, uint64_t *alphabet);

#endif
