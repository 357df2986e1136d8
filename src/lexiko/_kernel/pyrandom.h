/*
 * lexiko._kernel, pyrandom.h: the contract of pyrandom.c, Python's random generator
 * (MT19937 and random.shuffle) in C, and the 128-bit seeds it is seeded from.
 */
#ifndef LEXIKO_KERNEL_PYRANDOM_H
#define LEXIKO_KERNEL_PYRANDOM_H

#include <stdint.h>

/* random.Random's state: random.getstate()[1] is mt then index. */
typedef struct {
    uint32_t mt[624];
    uint32_t index;
} PyMT;

/* An unsigned 128-bit integer as two halves (portable C: no compiler extension). */
typedef struct {
    uint64_t lo, hi;
} U128;

/* The number in 16 bytes, little-endian. */
U128 u128_le(const uint8_t *b);

/* a + b, modulo 2**128. */
U128 u128_add(U128 a, uint64_t b);

/* random.Random(n) for an integer 0 <= n < 2**128. */
void pymt_seed(PyMT *r, U128 n);

/* random.shuffle of the n bytes at x. */
void pymt_shuffle(PyMT *r, uint8_t *x, int n);

#endif
