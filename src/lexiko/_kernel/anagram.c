/*
 * lexiko._kernel, anagram.c: the anagram index, a hash set of the lexicon's words'
 * letter multisets: the random numbers the multisets are hashed by (letter_hash), the
 * look-up best mode's bounds ask (anagram_exists), and the walk of a DAWG's words that
 * fills the set (dawg_words; the bindings' anagrams() lays it out).
 */
#include "anagram.h"

/* -- anagram index ---------------------------------------------------------------- */

/*
 * A play that puts down every tile of the rack spells a word holding exactly the rack's
 * letters (blanks: any letter) and the board's letters in its span. Whether any word of
 * the lexicon has such letters is one look-up in a hash set of the words' letter
 * multisets (26 with a blank, 351 with two), far cheaper than walking a bingo lane that
 * holds no bingo (most racks have none). The hash of a multiset is the sum of one
 * random 64-bit number per letter, plus one per letter of length: order does not count,
 * and tiles add up as they are placed. A collision can only make the test say yes.
 */
uint64_t letter_hash[64];

void init_letter_hash(void)
{
    uint64_t x = 0x6c6578696b6f2121ULL; /* splitmix64 from a fixed seed */
    for (int t = 0; t < 64; t++) {
        uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        letter_hash[t] = (z ^ (z >> 31)) | 1;
    }
}

static inline int ana_probe(const uint64_t *table, uint64_t mask, uint64_t key)
{
    /* at most one probe a slot: a set read from disk may have no empty slot */
    for (uint64_t i = (key * 0x9E3779B97F4A7C15ULL) >> 20 & mask, probes = 0; probes <= mask;
         i = (i + 1) & mask, probes++) {
        uint64_t v = table[i];
        if (v == key)
            return 1;
        if (!v)
            return 0;
    }
    return 0;
}

/* Whether some word of len letters holds the letters of hash h and `blanks` more. */
int anagram_exists(Gen *g, int len, uint64_t h, int blanks)
{
    uint64_t key = ana_key(h, len);
    unsigned slot = (unsigned)((key ^ (key >> 29)) & 255);
    if (g->ana_ck[slot] == key)
        return g->ana_cv[slot];
    int found = 0;
    uint64_t alpha = g->alphabet;
    if (blanks == 0) {
        found = ana_probe(g->ana, g->ana_mask, key);
    } else if (blanks == 1) {
        for (uint64_t a = alpha; a && !found; a &= a - 1)
            found = ana_probe(g->ana, g->ana_mask, ana_key(h + letter_hash[__builtin_ctzll(a)], len));
    } else if (blanks == 2) {
        for (uint64_t a = alpha; a && !found; a &= a - 1) {
            uint64_t h1 = h + letter_hash[__builtin_ctzll(a)];
            for (uint64_t b = a; b && !found; b &= b - 1)
                found = ana_probe(g->ana, g->ana_mask, ana_key(h1 + letter_hash[__builtin_ctzll(b)], len));
        }
    } else {
        found = 1; /* not worth the look-ups */
    }
    g->ana_ck[slot] = key;
    g->ana_cv[slot] = (uint8_t)found;
    return found;
}

/* -- anagrams: the index of the words' letter multisets ------------------------------ */

typedef struct {
    uint32_t arc;
    int len;
    uint64_t h;
} WordFrame;

/* Visit every word of the DAWG: emit(table, mask, key) for each (table NULL: count).
 * Returns the number of words, -1 when out of memory, -2 on a malformed array (a path
 * longer than any word, or too many steps). */
long long dawg_words(const uint32_t *kwg, uint32_t nk, uint64_t *table, uint64_t mask, uint64_t *alphabet)
{
    if (nk < 1)
        return 0;
    uint32_t root = ARC_CHILD(kwg[0]);
    if (!root || root >= nk)
        return 0;
    size_t cap = 256, sp = 0;
    WordFrame *st = (WordFrame *)malloc(cap * sizeof(WordFrame));
    if (!st)
        return -1;
    long long words = 0, steps = 0;
    st[sp++] = (WordFrame){root, 0, 0};
    while (sp) {
        WordFrame f = st[--sp];
        if (f.arc >= nk || f.len >= 64 || ++steps > (1LL << 28)) {
            free(st);
            return -2;
        }
        uint32_t a = kwg[f.arc];
        uint32_t t = ARC_TILE(a);
        uint64_t h = f.h + letter_hash[t & 63];
        *alphabet |= (uint64_t)1 << (t & 63);
        if (sp + 2 > cap) {
            WordFrame *ns = (WordFrame *)realloc(st, 2 * cap * sizeof(WordFrame));
            if (!ns) {
                free(st);
                return -1;
            }
            st = ns;
            cap *= 2;
        }
        if (!(a & END_BIT))
            st[sp++] = (WordFrame){f.arc + 1, f.len, f.h};
        uint32_t child = ARC_CHILD(a);
        if (child)
            st[sp++] = (WordFrame){child, f.len + 1, h};
        if (a & ACC_BIT) {
            words++;
            if (table) {
                uint64_t key = ana_key(h, f.len + 1);
                for (uint64_t i = (key * 0x9E3779B97F4A7C15ULL) >> 20 & mask;; i = (i + 1) & mask) {
                    if (table[i] == key)
                        break;
                    if (!table[i]) {
                        table[i] = key;
                        break;
                    }
                }
            }
        }
    }
    free(st);
    return words;
}

