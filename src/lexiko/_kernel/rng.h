/*
 * lexiko._kernel, rng.h: lexiko's own random generator, the C twin of lexiko/rng.py (see
 * its docstring for the definition): xoshiro256** (Blackman and Vigna) seeded by
 * SplitMix64 from the seed modulo 2**64, unbiased bounded integers by rejection on the
 * top bits of each output, and a Fisher-Yates shuffle from the last item down. A seeded
 * game shuffles alike in Python and here; tests/test_rng.py checks both give the
 * documented outputs. Header only (static inline); it needs no other header.
 */
#ifndef LEXIKO_KERNEL_RNG_H
#define LEXIKO_KERNEL_RNG_H

#include <stdint.h>

/* The state: four 64-bit words, never all zero (rng.py's Rng.getstate()). */
typedef struct {
    uint64_t s[4];
} Rng;

static inline uint64_t rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* A seed given as 8 bytes, little-endian (the Python seed modulo 2**64). */
static inline uint64_t rng_seed_le(const uint8_t *b)
{
    uint64_t x = 0;
    for (int k = 7; k >= 0; k--)
        x = x << 8 | b[k];
    return x;
}

/* Rng(seed): four SplitMix64 outputs from the seed (the Python int modulo 2**64). */
static inline void rng_seed(Rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) {
        uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        r->s[i] = z ^ (z >> 31);
    }
}

/* Rng.next64(): the next output, then the state's step. */
static inline uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return out;
}

/* Rng.below(n), 1 <= n: 0 without a draw for n == 1; else the top k bits of each output
 * (k the bit length of n - 1) until they are below n. */
static inline uint64_t rng_below(Rng *r, uint64_t n)
{
    if (n <= 1)
        return 0;
    int k = 0;
    while (k < 64 && ((n - 1) >> k))
        k++;
    uint64_t x;
    do
        x = rng_next(r) >> (64 - k);
    while (x >= n);
    return x;
}

/* Rng.shuffle(x) for n bytes: swap x[i] with x[below(i + 1)] for i from n - 1 down to 1. */
static inline void rng_shuffle(Rng *r, uint8_t *x, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint64_t)i + 1);
        uint8_t t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

#endif
