/*
 * lexiko._kernel, endgame_cut.c: the lexicon cut down to the words an endgame can make
 * (eg_cut_lexicon), which the endgame's generator walks instead of the full GADDAG.
 */
#include "endgame.h"

/* -- endgame: the lexicon cut down to the words the endgame can make ------------------
 *
 * Every word an endgame makes lies along one line of the board (a row or a column) and
 * is made of letters that line holds now and tiles of the two racks (a blank for any
 * letter): the tiles put down in that line later come from the racks too. So a word
 * whose letters no line can supply so (more letters missing from the line and the
 * racks' letters together than the racks hold blanks) is never made, nor asked for as a
 * cross word of a letter a rack can put down. The search's generator walks a GADDAG of
 * the others, made here from the lexicon's by one walk that keeps an arc only while the
 * letters read so far fit some line and it leads to a word: the same plays, the same
 * cross-checks, with sibling lists a fraction as long. The cut graph is a tree (no
 * sharing of suffixes), built in one array laid out as a KWG; arc 0 and 1 are the roots
 * (the DAWG root points nowhere: the search never reads it). */
typedef struct {
    const uint32_t *kwg;
    uint32_t nk;
    uint32_t *out;
    size_t nout, cap;
    int nlines, blanks;
    uint8_t avail[2 * MAXN][64]; /* by line: its letters plus the racks' letters */
    uint8_t used[64];            /* letters read on the path so far */
    int miss[2 * MAXN];          /* by line: letters of the path it cannot supply */
    int oom;           /* out of memory, or of time: the full graph is kept */
    double deadline;   /* CLOCK_MONOTONIC seconds; 0: none */
    unsigned long visits;
} EgCut;

/* Add (d 1) or take back (d -1) letter t on the path; whether some line still fits. */
static int eg_cut_letter(EgCut *x, int t, int d)
{
    int fits = 0;
    if (d > 0)
        x->used[t]++;
    for (int l = 0; l < x->nlines; l++) {
        if (x->used[t] > x->avail[l][t])
            x->miss[l] += d;
        fits |= x->miss[l] <= x->blanks;
    }
    if (d < 0)
        x->used[t]--;
    return fits;
}

/* The cut copy of the node at index node of the full graph: the index of its first arc
 * in x->out, or 0 when no arc of it is kept. */
static uint32_t eg_cut_node(EgCut *x, uint32_t node, int depth)
{
    uint32_t keep[64];
    int nkeep = 0;
    if (depth > MAXN + 1)
        return 0;
    /* with blanks on the racks nearly every word fits: the walk is the whole graph */
    if (x->deadline > 0 && !(++x->visits % 4096) && eg_now() > x->deadline)
        x->oom = 1;
    for (uint32_t i = node; i < x->nk && !x->oom; i++) {
        uint32_t a = x->kwg[i];
        uint32_t t = ARC_TILE(a);
        int ok = 1;
        if (t)
            ok = eg_cut_letter(x, (int)t, 1);
        if (ok) {
            uint32_t c = ARC_CHILD(a), nc = 0;
            if (c && c < x->nk)
                nc = eg_cut_node(x, c, depth + 1);
            if ((nc || (a & ACC_BIT)) && nkeep < 64)
                keep[nkeep++] = (t << 24) | (a & ACC_BIT) | CHILD_BITS(nc);
        }
        if (t)
            eg_cut_letter(x, (int)t, -1);
        if (a & END_BIT)
            break;
    }
    if (!nkeep || x->oom)
        return 0;
    if (x->nout + (size_t)nkeep > MAX_ARCS) {
        x->oom = 1;
        return 0;
    }
    if (x->nout + (size_t)nkeep > x->cap) {
        size_t cap = x->cap * 2 + (size_t)nkeep;
        uint32_t *o = (uint32_t *)realloc(x->out, cap * sizeof(uint32_t));
        if (!o) {
            x->oom = 1;
            return 0;
        }
        x->out = o;
        x->cap = cap;
    }
    uint32_t at = (uint32_t)x->nout;
    keep[nkeep - 1] |= END_BIT;
    memcpy(x->out + at, keep, (size_t)nkeep * sizeof(uint32_t));
    x->nout += (size_t)nkeep;
    return at;
}

/* The GADDAG of kwg cut for an endgame of racks a and b (counts; [0] blanks) on cells
 * (size n): a malloc'ed KWG (arcs in *nk), or NULL (no memory, a graph too large, or
 * past deadline, CLOCK_MONOTONIC seconds, 0: none: the search keeps the full one). */
uint32_t *eg_cut_lexicon(const uint32_t *kwg, uint32_t nk, const uint8_t *cells, int n, const uint8_t *a,
                         const uint8_t *b, double deadline, uint32_t *nk_out)
{
    if (nk < 2)
        return NULL;
    EgCut *x = (EgCut *)calloc(1, sizeof(EgCut));
    if (!x)
        return NULL;
    x->kwg = kwg;
    x->nk = nk;
    x->deadline = deadline;
    x->blanks = a[0] + b[0];
    x->nlines = 2 * n;
    for (int l = 0; l < 2 * n; l++) {
        for (int t = 1; t < 64; t++)
            x->avail[l][t] = (uint8_t)(a[t] + b[t]);
        for (int k = 0; k < n; k++) {
            uint8_t c = l < n ? cells[l * n + k] : cells[k * n + (l - n)];
            if (c)
                x->avail[l][c & LETTER_MASK]++;
        }
    }
    x->cap = 1 << 16;
    x->out = (uint32_t *)malloc(x->cap * sizeof(uint32_t));
    uint32_t *res = NULL;
    if (x->out) {
        x->out[0] = 0;
        x->out[1] = 0;
        x->nout = 2;
        uint32_t root = ARC_CHILD(kwg[1]);
        uint32_t r = root && root < nk ? eg_cut_node(x, root, 0) : 0;
        if (!x->oom) {
            x->out[1] = CHILD_BITS(r); /* the GADDAG root: tile 0, no flags, its arcs */
            res = x->out;
            *nk_out = (uint32_t)x->nout;
            x->out = NULL;
        }
    }
    free(x->out);
    free(x);
    return res;
}

