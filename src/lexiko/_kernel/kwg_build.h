/*
 * lexiko._kernel, kwg_build.h: building the lexicon automaton (the DAWG and GADDAG of
 * lexiko/kwg.py, its format and its node order) from a word list, in C: the same arcs
 * as kwg.py's build_kwg, the readable reference, in seconds and bounded memory.
 *
 * The words come as one buffer of letter codes 1..63, each word followed by a 0 byte;
 * words of fewer than 2 or more than 21 letters are left out, duplicates collapse.
 */
#ifndef LEXIKO_KERNEL_KWG_BUILD_H
#define LEXIKO_KERNEL_KWG_BUILD_H

#include "common.h"

/* Build the automaton of the words in buf (len bytes; see above). dawg_only: no GADDAG
 * (index 1 points nowhere), as kwg.py's build_dawg. On success *out is a malloc'ed array
 * of *n arcs (free it) and the result is 0; -1: out of memory; -2: more arcs than the
 * format addresses (*n: the arcs needed so far); -3: a code above 63 (*n: its offset) or
 * a last word without its 0 byte (*n: len). */
int kwg_build(const uint8_t *buf, size_t len, int dawg_only, uint32_t **out, size_t *n);

#endif
