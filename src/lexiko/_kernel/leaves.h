/*
 * lexiko._kernel, leaves.h: the contract of leaves.c: the packed leave map's layout, its
 * values by sub-rack, its build and check, and the leaves valued by racks.
 */
#ifndef LEXIKO_KERNEL_LEAVES_H
#define LEXIKO_KERNEL_LEAVES_H

#include "common.h"

/* -- packed leave maps --------------------------------------------------------------
 *
 * A lexiko.leaves.LeaveTable the kernel reads directly (no Python call per sub-rack):
 * a LeaveMapHead (the fallback model: a constant, terms per code and number of copies,
 * a term per count of vowels and consonants) followed by an open-addressing hash table
 * of the stored leaves. A leave's key is 1, then 6 bits per tile, codes ascending
 * (blanks, code 0, first): leaves of up to LM_MAXLEN tiles. The value of a leave is the
 * stored one, else offset + the terms of each code present (letters by code, then the
 * blanks: the order lexiko.leaves adds them in, so the sum is the same double) + the
 * balance term.
 */
#define LM_MAGIC 0x31304D4C4B584CULL /* "LXKLM01" */
#define LM_K 32                     /* copies with terms: a rack's tiles at most */
#define LM_B 33                     /* balance table side: vowels, consonants 0..32 */
#define LM_MAXLEN 10                /* longest stored leave */
#define LM_BATCH 256                /* racks of at most so many sub-racks are looked up at once */
#define LM_HASH(key, bits) ((uint64_t)((key) * 0x9E3779B97F4A7C15ULL) >> (64 - (bits)))

typedef struct {
    uint64_t magic, bits;
    double offset;
    uint8_t vowel[64];
    double terms[64][LM_K + 1][2];
    double balance[LM_B][LM_B];
} LeaveMapHead;

typedef struct {
    uint64_t key;
    double value;
} LeaveSlot;

/* The map in buf (len bytes), checked: a packed leave map, or NULL. */
const LeaveMapHead *leave_map_check(const void *buf, size_t len);

/* The value of the leave with digit[j] copies of codes[j] (nc codes ascending; size
 * tiles in all): the stored one, else the model's. */
double leave_map_value(const LeaveMapHead *h, const int *codes, const int *digit, int nc, int size);

/* Fill vals[idx] for every sub-rack of the rack with counts full[] (the index order of
 * generate(): mixed radix, the lowest code on the rack the least significant digit). */
void leave_map_fill(const LeaveMapHead *h, const uint8_t *full, double *vals, uint64_t nleaves);

/* The value of the leave with counts kept[] by the map. */
double leave_map_counts(const LeaveMapHead *h, const uint8_t *kept);

/* The bytes of a map of 2**bits slots. */
size_t leave_map_bytes(int bits);

/* Lay a map out in buf (leave_map_bytes(bits)): the model (offset, vowels: 64 bytes,
 * terms and balance: the doubles of LeaveMapHead's arrays) and the n stored leaves (keys
 * kb, distinct, values vb). 0, or -1 for a key 0. */
int leave_map_write(void *buf, int bits, double offset, const uint8_t *vowels, const void *terms, const void *balance,
                    const uint64_t *kb, const double *vb, size_t n);

/*
 * rack_leaves(racks, sums, counts, dist, size) -> (keys, weighted, weights, seen): what
 * each leave is worth from the full racks it is part of (lexiko.training's rack-equity
 * method). racks: size codes per rack (any order, 0 the blank), each rack once; sums and
 * counts (doubles, one per rack): the equity of the moves made from it, summed, and how
 * many; dist: 64 bytes, the copies of each code in the tile set. For every leave L of 1
 * to size - 1 tiles that some rack R holds, with w the number of ways of drawing R - L
 * from the tile set less L (a product of binomials):
 *   keys: L as the leave map keys it (1, then 6 bits per tile, codes ascending);
 *   weighted: the sum over R of w * sums[R] / counts[R]; weights: the sum of w;
 *   seen: the sum of counts[R] (how many moves the value rests on).
 */
typedef struct {
    uint64_t key;
    double weighted, weight, seen;
} RackLeaveSlot;

typedef struct {
    RackLeaveSlot *slots; /* 2**bits of them (key 0: empty), the caller frees */
    int bits;
    size_t used;
} RackLeaves;

/* What rack_leaves() computes (see above), into out: n racks of size tiles (rb), sums
 * sb and counts cb per rack, the tile set's copies db (64 bytes). 0, -1 out of memory,
 * -2 a tile code past 63. out->slots is to be freed in every case. */
int rack_leaves_count(RackLeaves *out, const uint8_t *rb, size_t n, int size, const double *sb, const double *cb,
                      const uint8_t *db);

#endif
