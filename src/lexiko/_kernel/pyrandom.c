/*
 * lexiko._kernel, pyrandom.c: Python's own random generator, reimplemented so that the
 * kernel's games draw and shuffle as lexiko.game.Game does: MT19937 (random.Random's
 * state, as random.getstate() gives it), random.Random(n)'s seeding by init_by_array,
 * _randbelow and random.shuffle.
 */
#include "pyrandom.h"

static uint32_t pymt_next(PyMT *r)
{
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (r->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < 623; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (r->mt[623] & 0x80000000U) | (r->mt[0] & 0x7fffffffU);
        r->mt[623] = r->mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = r->mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random._randbelow_with_getrandbits(n), n < 2**32 */
static uint32_t pymt_below(PyMT *r, uint32_t n)
{
    int k = 0;
    while (k < 32 && (n >> k))
        k++;
    uint32_t x;
    do
        x = pymt_next(r) >> (32 - k);
    while (x >= n);
    return x;
}

/* random.shuffle */
void pymt_shuffle(PyMT *r, uint8_t *x, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)pymt_below(r, (uint32_t)i + 1);
        uint8_t t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

/* The number in 16 bytes, little-endian. */
U128 u128_le(const uint8_t *b)
{
    U128 x = {0, 0};
    for (int k = 7; k >= 0; k--) {
        x.lo = x.lo << 8 | b[k];
        x.hi = x.hi << 8 | b[k + 8];
    }
    return x;
}

U128 u128_add(U128 a, uint64_t b)
{
    U128 r = {a.lo + b, a.hi};
    if (r.lo < a.lo)
        r.hi++;
    return r;
}

/* random.Random(n) for an integer 0 <= n < 2**128: init_by_array on n's 32-bit words. */
void pymt_seed(PyMT *r, U128 n)
{
    uint32_t key[4] = {(uint32_t)n.lo, (uint32_t)(n.lo >> 32), (uint32_t)n.hi, (uint32_t)(n.hi >> 32)};
    int len = 4;
    while (len > 1 && !key[len - 1])
        len--;
    uint32_t *mt = r->mt;
    mt[0] = 19650218U;
    for (int i = 1; i < 624; i++)
        mt[i] = (1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i);
    int i = 1, j = 0;
    for (int k = 624 > len ? 624 : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
        if (j >= len)
            j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    r->index = 624;
}
