/*
 * lexiko._kernel, depths.c: per arc of a kwg, the most letters left on a path to a word's
 * end, and before its separator (depths_fill; the bindings' depths() returns them): best
 * mode's walk stops a branch that cannot place enough tiles.
 */
#include "depths.h"

/* -- depths: the most letters left on the way to a word's end ------------------------ */

#define DEPTH_UNKNOWN (-2)
#define DEPTH_BUSY (-3)
#define DEPTH_NONE (-1000) /* no word ends below */

typedef struct {
    uint32_t i, j;    /* the node's arcs from i, and the next to do (downwards) */
    int left;         /* arcs still to do */
    int after, lafter; /* the values of the arcs after j */
} DepthFrame;

/*
 * memo[i] becomes, for the arcs from index i to the end of their node, the most letters
 * (tiles other than the separator) on a path that starts with one of them and ends with
 * an accepting arc (DEPTH_NONE when there is no such path), and lmemo[i] the most letters
 * such a path has before its separator (or in all, without one). Depth-first with an explicit
 * stack (a long chain in a malformed array cannot overflow the C stack); the arcs of a
 * node are done last to first, so that a node sharing the tail of another's arcs finds
 * them done. A cycle (not a valid kwg) counts as 255 letters, which keeps bounds safe.
 */
static int depth_fill(const uint32_t *kwg, uint32_t nk, int16_t *memo, int16_t *lmemo, uint32_t start)
{
    size_t cap = 64, sp = 0;
    DepthFrame *st = (DepthFrame *)malloc(cap * sizeof(DepthFrame));
    if (!st)
        return -1;
    uint32_t push = start;
    for (;;) {
        if (push != UINT32_MAX) {
            if (sp == cap) {
                DepthFrame *ns = (DepthFrame *)realloc(st, 2 * cap * sizeof(DepthFrame));
                if (!ns) {
                    free(st);
                    return -1;
                }
                st = ns;
                cap *= 2;
            }
            uint32_t e = push;
            while (e + 1 < nk && !(kwg[e] & END_BIT))
                e++;
            for (uint32_t j = push; j <= e; j++)
                if (memo[j] == DEPTH_UNKNOWN)
                    memo[j] = DEPTH_BUSY;
            st[sp].i = push;
            st[sp].j = e;
            st[sp].left = (int)(e - push + 1);
            st[sp].after = st[sp].lafter = DEPTH_NONE;
            sp++;
            push = UINT32_MAX;
        }
        if (!sp)
            break;
        DepthFrame *f = &st[sp - 1];
        if (!f->left) {
            sp--;
            continue;
        }
        uint32_t j = f->j;
        if (memo[j] != DEPTH_BUSY) { /* done before (the tail of another node) */
            f->after = memo[j];
            f->lafter = lmemo[j];
        } else {
            uint32_t a = kwg[j], child = ARC_CHILD(a);
            if (child && child < nk && memo[child] == DEPTH_UNKNOWN) {
                push = child; /* do the child first, then come back to this arc */
                continue;
            }
            int letters = ARC_TILE(a) ? 1 : 0;
            int best = (a & ACC_BIT) ? letters : DEPTH_NONE;
            int lbest = best; /* a separator ends the letters before it */
            if (child && child < nk) {
                int busy = memo[child] == DEPTH_BUSY;
                int below = busy ? 255 : memo[child];
                int lbelow = busy ? 255 : lmemo[child];
                if (below != DEPTH_NONE && letters + below > best)
                    best = letters + below;
                if (!letters && below != DEPTH_NONE && lbest < 0)
                    lbest = 0;
                if (letters && lbelow != DEPTH_NONE && 1 + lbelow > lbest)
                    lbest = 1 + lbelow;
            }
            if (best > 255)
                best = 255;
            if (lbest > 255)
                lbest = 255;
            if (f->after > best)
                best = f->after;
            if (f->lafter > lbest)
                lbest = f->lafter;
            memo[j] = (int16_t)best;
            lmemo[j] = (int16_t)lbest;
            f->after = best;
            f->lafter = lbest;
        }
        f->j--;
        f->left--;
    }
    free(st);
    return 0;
}

int depths_fill(const uint32_t *arcs, uint32_t nk, uint8_t *outp)
{
    int16_t *memo = (int16_t *)malloc((nk ? 2 * (size_t)nk : 1) * sizeof(int16_t));
    if (!memo)
        return -1;
    int16_t *lmemo = memo + nk;
    int failed = 0;
    for (uint32_t i = 0; i < nk; i++)
        memo[i] = lmemo[i] = DEPTH_UNKNOWN;
    for (uint32_t i = 0; i < nk && !failed; i++) {
        if (memo[i] == DEPTH_UNKNOWN && depth_fill(arcs, nk, memo, lmemo, i) < 0)
            failed = 1;
        int d = memo[i], l = lmemo[i];
        d = d < 0 ? 0 : d > DEPTH_MAX ? DEPTH_MAX : d;
        l = l < 0 ? 0 : l > DEPTH_MAX ? DEPTH_MAX : l;
        outp[i] = (uint8_t)(d | l << 4);
    }
    free(memo);
    return failed ? -1 : 0;
}
