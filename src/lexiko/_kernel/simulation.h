/*
 * lexiko._kernel, simulation.h: the simulation's play-outs of many iterations in one
 * call (simulation.c): what lexiko.bots.simulation's play-outs compute, iteration for
 * iteration (see simulate() in bindings_playout.c for the arguments).
 */
#ifndef LEXIKO_KERNEL_SIMULATION_H
#define LEXIKO_KERNEL_SIMULATION_H

#include "playout.h"

typedef struct {
    int kind; /* 0 placement, 1 exchange, 2 pass */
    Move m;
    uint8_t ex[64];
    int nex;
    long long id; /* its number among the candidates: the seed of its shuffles */
} SimCand;

/* A simulation: the position before the candidates (base), the play-out being played
 * (po), and what the play-outs of every iteration share. */
typedef struct {
    PlayOut *base, *po;
    Gen *board;          /* the play-out's board arrays */
    RackCache *cache;    /* per seat */
    BaseBest *base_best; /* per seat */
    Gen *cboards;        /* per placement candidate: the board's arrays after it (NULL: none kept) */
    uint32_t (*ctouched)[2]; /* and the lines it touched */
    uint8_t *cready;
    SimCand *cs;         /* the candidates */
    double *values;      /* room for an iteration's results: value and win per candidate */
    long nc;
    const LeaveMapHead *lmh;
    int np, plies, scoreless_run;
    long long init_scores[PO_MAXP];
    const uint8_t *unseen, *rack, *opp; /* tile codes; opp: the opponents' rack sizes */
    int nunseen, nrack, nopp;
    uint64_t seed0; /* seed_base modulo 2**64 */
} Sim;

enum { SIM_OK = 0, SIM_NO_MEMORY = -1, SIM_KNOWN_NOT_UNSEEN = -2, SIM_BAD_CANDIDATE = -3 };

/* A Sim for nc candidates (zeroed, its base's generators allocated), or NULL when out of
 * memory. The caller sets the base's lexicon, board and rules, then calls sim_prepare. */
Sim *sim_new(long nc);

/* Set the base up for np seats valued by map lmh, plies static turns after each
 * candidate: its board prepared, what the play-outs share. SIM_OK or SIM_NO_MEMORY. */
int sim_prepare(Sim *s, const LeaveMapHead *lmh, int np, int plies);

/* Iteration it (known: the nknown tiles the first opponent holds for sure): the play-out
 * of every candidate, its value and win estimate in out[2 * j], out[2 * j + 1]. SIM_OK,
 * or an error (SIM_*). */
int sim_iteration(Sim *s, long long it, const uint8_t *known, int nknown, double *out);

void sim_free(Sim *s);

#endif
