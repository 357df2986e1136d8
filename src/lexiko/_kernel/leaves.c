/*
 * lexiko._kernel, leaves.c: leave values: the packed leave map (a LeaveTable the kernel
 * reads with no Python call: its layout in leaves.h), its values for every sub-rack of a
 * rack (leave_map_fill) or for one leave (leave_map_counts), its build, and the values
 * of leaves from the racks they are part of (rack_leaves_count, for training).
 */
#include "leaves.h"


const LeaveMapHead *leave_map_check(const void *buf, size_t len)
{
    const LeaveMapHead *h = (const LeaveMapHead *)buf;
    if (len < sizeof(LeaveMapHead) || h->magic != LM_MAGIC || h->bits < 1 || h->bits > 40 ||
        len != sizeof(LeaveMapHead) + ((size_t)1 << h->bits) * sizeof(LeaveSlot))
        return NULL;
    return h;
}

double leave_map_value(const LeaveMapHead *h, const int *codes, const int *digit, int nc, int size)
{
    const LeaveSlot *slots = (const LeaveSlot *)(h + 1);
    if (size <= LM_MAXLEN) {
        uint64_t key = 1;
        for (int j = 0; j < nc; j++) /* codes ascending, the blank (0) first */
            for (int k = 0; k < digit[j]; k++)
                key = key << 6 | (uint64_t)codes[j];
        uint64_t mask = ((uint64_t)1 << h->bits) - 1;
        /* at most one probe a slot: a map read from disk may have no empty slot */
        for (uint64_t i = LM_HASH(key, h->bits), probes = 0; probes <= mask; i = (i + 1) & mask, probes++) {
            if (slots[i].key == key)
                return slots[i].value;
            if (!slots[i].key)
                break;
        }
    }
    double total = h->offset;
    int vowels = 0, consonants = 0;
    int first = nc && codes[0] == 0;
    for (int j = first; j <= nc; j++) { /* letters by code, then the blanks */
        int at = j < nc ? j : 0;
        if (j == nc && !first)
            break;
        int k = digit[at], c = codes[at];
        if (!k)
            continue;
        if (c) {
            if (h->vowel[c])
                vowels += k;
            else
                consonants += k;
        }
        if (k > LM_K)
            k = LM_K;
        total += h->terms[c][k][0];
        total += h->terms[c][k][1];
    }
    if (vowels < LM_B && consonants < LM_B)
        total += h->balance[vowels][consonants];
    return total;
}

size_t leave_map_bytes(int bits)
{
    return sizeof(LeaveMapHead) + ((size_t)1 << bits) * sizeof(LeaveSlot);
}

int leave_map_write(void *buf, int bits, double offset, const uint8_t *vowels, const void *terms, const void *balance,
                    const uint64_t *kb, const double *vb, size_t n)
{
    size_t nslots = (size_t)1 << bits;
    LeaveMapHead *h = (LeaveMapHead *)buf;
    memset(h, 0, sizeof(LeaveMapHead) + nslots * sizeof(LeaveSlot));
    h->magic = LM_MAGIC;
    h->bits = (uint64_t)bits;
    h->offset = offset;
    memcpy(h->vowel, vowels, 64);
    memcpy(h->terms, terms, sizeof h->terms);
    memcpy(h->balance, balance, sizeof h->balance);
    LeaveSlot *slots = (LeaveSlot *)(h + 1);
    for (size_t j = 0; j < n; j++) {
        if (!kb[j])
            return -1;
        for (uint64_t i = LM_HASH(kb[j], bits);; i = (i + 1) & (nslots - 1)) {
            if (!slots[i].key || slots[i].key == kb[j]) {
                slots[i].key = kb[j];
                slots[i].value = vb[j];
                break;
            }
        }
    }
    return 0;
}

/* Fill vals[idx] for every sub-rack of the rack with counts full[] (the index order of
 * generate()). */
void leave_map_fill(const LeaveMapHead *h, const uint8_t *full, double *vals, uint64_t nleaves)
{
    static const uint64_t rep6[LM_MAXLEN + 1] = {0,        1,         0x41,        0x1041,        0x41041,
                                                 0x1041041, 0x41041041, 0x1041041041, 0x41041041041, 0x1041041041041,
                                                 0x41041041041041};
    int codes[64], digit[64], nc = 0, size = 0;
    for (int c = 0; c < 64; c++)
        if (full[c]) {
            codes[nc] = c;
            digit[nc++] = 0;
        }
    if (nleaves <= LM_BATCH) {
        /* A rack's sub-racks at once: every key first, its slot fetched ahead (a table of
         * a million leaves does not fit in the caches), then the look-ups, the model for
         * the leaves not stored. The same values as one leave_map_value at a time. */
        const LeaveSlot *slots = (const LeaveSlot *)(h + 1);
        uint64_t keys[LM_BATCH], mask = ((uint64_t)1 << h->bits) - 1;
        for (uint64_t idx = 0; idx < nleaves; idx++) {
            uint64_t key = 0; /* 0: longer than any stored leave */
            if (size <= LM_MAXLEN) {
                /* codes ascending, the blank (0) first, 6 bits each: a code's copies at
                 * once (rep6[d]: d ones 6 bits apart), no loop of a varying length */
                key = 1;
                for (int j = 0; j < nc; j++)
                    key = key << (6 * digit[j]) | (uint64_t)codes[j] * rep6[digit[j]];
                __builtin_prefetch(&slots[LM_HASH(key, h->bits)]);
            }
            keys[idx] = key;
            for (int j = 0; j < nc; j++) { /* next index */
                if (digit[j] < full[codes[j]]) {
                    digit[j]++;
                    size++;
                    break;
                }
                size -= digit[j];
                digit[j] = 0;
            }
        }
        for (uint64_t idx = 0; idx < nleaves; idx++) {
            uint64_t key = keys[idx];
            int found = 0;
            for (uint64_t i = LM_HASH(key, h->bits), probes = 0; key && probes <= mask; i = (i + 1) & mask, probes++) {
                if (slots[i].key == key) {
                    vals[idx] = slots[i].value;
                    found = 1;
                    break;
                }
                if (!slots[i].key)
                    break;
            }
            if (!found)
                vals[idx] = leave_map_value(h, codes, digit, nc, LM_MAXLEN + 1); /* the model */
            for (int j = 0; j < nc; j++) { /* next index (size is not needed here) */
                if (digit[j] < full[codes[j]]) {
                    digit[j]++;
                    break;
                }
                digit[j] = 0;
            }
        }
        return;
    }
    for (uint64_t idx = 0; idx < nleaves; idx++) {
        vals[idx] = leave_map_value(h, codes, digit, nc, size);
        for (int j = 0; j < nc; j++) { /* next index */
            if (digit[j] < full[codes[j]]) {
                digit[j]++;
                size++;
                break;
            }
            size -= digit[j];
            digit[j] = 0;
        }
    }
}

/* The value of the leave with counts kept[] by the map. */
double leave_map_counts(const LeaveMapHead *h, const uint8_t *kept)
{
    int codes[64], digit[64], nc = 0, size = 0;
    for (int c = 0; c < 64; c++)
        if (kept[c]) {
            codes[nc] = c;
            digit[nc++] = kept[c];
            size += kept[c];
        }
    return leave_map_value(h, codes, digit, nc, size);
}


static int rack_leaves_grow(RackLeaveSlot **slots, int *bits)
{
    size_t old = (size_t)1 << *bits, n = old * 2;
    RackLeaveSlot *fresh = calloc(n, sizeof *fresh);
    if (!fresh)
        return -1;
    for (size_t j = 0; j < old; j++) {
        RackLeaveSlot *s = &(*slots)[j];
        if (!s->key)
            continue;
        for (uint64_t i = LM_HASH(s->key, *bits + 1);; i = (i + 1) & (n - 1))
            if (!fresh[i].key) {
                fresh[i] = *s;
                break;
            }
    }
    free(*slots);
    *slots = fresh;
    (*bits)++;
    return 0;
}

int rack_leaves_count(RackLeaves *out, const uint8_t *rb, size_t n, int size, const double *sb, const double *cb,
                      const uint8_t *db)
{
    /* binomials C(a, b) for a < 256, b <= size */
    static double binom[256][LM_MAXLEN + 1];
    for (int a = 0; a < 256; a++)
        for (int b = 0; b <= LM_MAXLEN; b++)
            binom[a][b] = b == 0 ? 1.0 : a == 0 ? 0.0 : binom[a - 1][b - 1] + binom[a - 1][b];
    int bits = 16;
    size_t used = 0;
    RackLeaveSlot *slots = out->slots = calloc((size_t)1 << bits, sizeof *slots);
    out->bits = bits;
    out->used = 0;
    if (!slots)
        return -1;
    for (size_t r = 0; r < n; r++) {
        if (cb[r] <= 0)
            continue;
        double mean = sb[r] / cb[r];
        int have[64] = {0}, codes[LM_MAXLEN], full[LM_MAXLEN], digit[LM_MAXLEN] = {0}, nc = 0;
        for (int j = 0; j < size; j++) {
            if (rb[r * (size_t)size + j] >= 64)
                return -2;
            have[rb[r * (size_t)size + j]]++;
        }
        for (int c = 0; c < 64; c++)
            if (have[c]) {
                codes[nc] = c;
                full[nc++] = have[c];
            }
        for (;;) { /* every sub-multiset: an odometer over the digits */
            int j = 0;
            while (j < nc && digit[j] == full[j])
                digit[j++] = 0;
            if (j == nc)
                break;
            digit[j]++;
            int len = 0;
            double w = 1.0;
            uint64_t key = 1;
            for (int i = 0; i < nc; i++) {
                len += digit[i];
                w *= binom[db[codes[i]] >= digit[i] ? db[codes[i]] - digit[i] : 0][full[i] - digit[i]];
                for (int k = 0; k < digit[i]; k++)
                    key = key << 6 | (uint64_t)codes[i];
            }
            if (len == size || w == 0.0)
                continue;
            if (2 * (used + 1) > ((size_t)1 << bits)) {
                if (rack_leaves_grow(&out->slots, &out->bits) < 0)
                    return -1;
                slots = out->slots;
                bits = out->bits;
            }
            uint64_t mask = ((uint64_t)1 << bits) - 1;
            for (uint64_t i = LM_HASH(key, bits);; i = (i + 1) & mask) {
                RackLeaveSlot *s = &slots[i];
                if (!s->key) {
                    s->key = key;
                    used++;
                    out->used = used;
                }
                if (s->key == key) {
                    s->weighted += w * mean;
                    s->weight += w;
                    s->seen += cb[r];
                    break;
                }
            }
        }
    }
    return 0;
}
