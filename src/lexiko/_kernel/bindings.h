/*
 * lexiko._kernel, bindings.h: the Python side of the kernel, shared by the bindings
 * units (bindings*.c, the only ones to include Python.h): the module's functions (each
 * argument list checked, then the plain-C units called) and the helpers that read the
 * arguments common to several of them.
 */
#ifndef LEXIKO_KERNEL_BINDINGS_H
#define LEXIKO_KERNEL_BINDINGS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "common.h"
#include "rules.h"

/* 1 when every cell holds 0 or a tile code below 128 (values[] has 128 entries), else
 * 0 with a Python error set. */
int cells_valid(const Py_buffer *cells);

/* The word map of a Python buffer, checked (NULL with a Python error set). */
const WmpHead *wmp_of(const Py_buffer *b);

/* The packed leave map in a buffer, or NULL with a Python error set. */
const LeaveMapHead *leave_map_of(const Py_buffer *b);

/* The generator's state from lexiko.rng.Rng.getstate() (four ints below 2**64, not all
 * zero): 0, or -1 with a ValueError naming the entry. */
int rng_from_tuple(Rng *r, PyObject *state, const char *entry);

/* Rng.getstate() of the generator, a new reference (NULL with an error set). */
PyObject *rng_to_tuple(const Rng *r);

/* The lexicon's buffers of a play-out (kwg, and what depths() and anagrams() return, or
 * None): 0, or -1 with a Python error set; the buffers got are flagged for release. */
int po_lexicon(PlayOut *po, const Py_buffer *kwg, PyObject *depth_obj, PyObject *ana_obj, Py_buffer *depths,
               int *have_depths, Py_buffer *anas, int *have_anas);

/* The word map of a play-out (None: none): 0, or -1 with a Python error set. */
int po_wordmap(PlayOut *po, PyObject *obj, Py_buffer *buf, int *have);

/* The rules tuple lexiko.bots.playout passes (_rules_args) read into po: 0, or -1 with a
 * Python error set. */
int po_rules(PlayOut *po, PyObject *rules);

/* A zeroed PlayOut with its two generators (g, board), its lexicon and word map in *out:
 * 0, or -1 with a Python error set (the caller frees what *out holds, as it frees a
 * PlayOut). */
int po_new(PlayOut **out, const Py_buffer *kwg, PyObject *depth_obj, PyObject *ana_obj, Py_buffer *depths,
           int *have_depths, Py_buffer *anas, int *have_anas, PyObject *wmp_obj, Py_buffer *wmps, int *have_wmp);

/* po_board from the buffers generate() and playout() take (sizes checked). */
void po_board_buffers(PlayOut *po, int size, const Py_buffer *cells, const Py_buffer *lmult, const Py_buffer *wmult,
                      const Py_buffer *values, int bingo_tiles, const Py_buffer *bonuses, int first_min, int start_r,
                      int start_c, int first_dirs);

/* The module's functions, by unit. */
PyObject *k_build_kwg(PyObject *self, PyObject *args);
PyObject *k_depths(PyObject *self, PyObject *args);
PyObject *k_anagrams(PyObject *self, PyObject *args);
PyObject *k_wordmap(PyObject *self, PyObject *args);

PyObject *k_generate(PyObject *self, PyObject *args); /* bindings_movegen.c */
PyObject *k_forget_boards(PyObject *self, PyObject *unused);

/* bindings_movelist.c: the moves generate() returns. A Move of a MoveList is an exchange
 * (its tiles those put back) or the pass when its row is one of these (after every
 * placement in move_cmp's order, as lexiko.movegen.sort_key ranks them). */
#define ML_EXCHANGE 254
#define ML_PASS 255
PyObject *k_setup(PyObject *self, PyObject *args);
/* A MoveList of g's moves (taken from g: g->moves is left NULL) for the rack full with
 * nleaves sub-racks; NULL with a Python error set. */
PyObject *movelist_new(Gen *g, const uint8_t *full, uint32_t nleaves);
/* Add the MoveList type to the module: 0, or -1 with a Python error set. */
int movelist_ready(PyObject *module);

PyObject *k_leave_table(PyObject *self, PyObject *args); /* bindings_leaves.c */
PyObject *k_leave_map(PyObject *self, PyObject *args);
PyObject *k_leave_values(PyObject *self, PyObject *args);
PyObject *k_rack_leaves(PyObject *self, PyObject *args);

PyObject *k_playout(PyObject *self, PyObject *args); /* bindings_playout.c */
PyObject *k_static_games(PyObject *self, PyObject *args);
PyObject *k_rng_shuffle(PyObject *self, PyObject *args);
PyObject *k_simulate(PyObject *self, PyObject *args);

PyObject *k_endgame(PyObject *self, PyObject *args); /* bindings_endgame.c */

PyObject *k_rl_new(PyObject *self, PyObject *args); /* bindings_rl.c */
PyObject *k_rl_reset(PyObject *self, PyObject *args);
PyObject *k_rl_deal(PyObject *self, PyObject *args);
PyObject *k_rl_step(PyObject *self, PyObject *args);
PyObject *k_rl_static_turns(PyObject *self, PyObject *args);
PyObject *k_rl_observe(PyObject *self, PyObject *args);
PyObject *k_rl_info(PyObject *self, PyObject *args);
PyObject *k_rl_log(PyObject *self, PyObject *args);
PyObject *k_rl_candidates(PyObject *self, PyObject *args);

#endif
