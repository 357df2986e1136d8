/*
 * lexiko._kernel, rl.h: the contract of rl.c, the core of lexiko.rl's environments.
 */
#ifndef LEXIKO_KERNEL_RL_H
#define LEXIKO_KERNEL_RL_H

#include "playout.h"

/* -- the reinforcement-learning environment's core --------------------------------- */

/*
 * lexiko.rl's environments step a game one agent's move at a time, and after each move
 * the next player's candidate moves are needed: the best K by equity (placements, the
 * exchanges and the pass merged in the order of movegen.sort_key, the pass always among
 * them), with their features, and the observation as arrays. The core keeps the game in
 * a PlayOut (the board, racks, bag and random generator the play-outs use, the same
 * draws and shuffles as lexiko.game.Game), makes the chosen candidate, lists the next
 * ones and fills the observation's arrays, with no Python object per move. It keeps a
 * log of the moves so the Python side can bring a Game up to date when it is asked for.
 * The lists are those of lexiko.rl.Observer.candidates, candidate for candidate (tested).
 */

typedef struct {
    Move m;          /* a placement's move; equity and score for every kind */
    uint8_t kind;    /* 0 placement, 1 exchange, 2 pass */
    uint8_t nex;     /* an exchange's tiles (rack order: letters by code, then blanks) */
    uint8_t ex[PRUNE_MAX_RACK];
} RLCand;

typedef struct RLCore {
    PlayOut po;
    Gen gen;
    Gen board; /* po.board: prepare()'s arrays for po.cells, kept up to date by po_apply */
    int has_map; /* po.maps hold a leave map (else equity is the score) */
    int first_min0, dirs0;
    int k, letters, started;
    RLCand *cands, *extra;
    int ncand;
    size_t extra_cap;
    double *vals;
    size_t vals_cap;
    uint8_t prem[MAXN * MAXN]; /* 1..6: the square's premium plane ("dtqDTQ"), 0 none */
    RLCand *log;
    size_t nlog, log_cap;
} RLCore;

/* A game starts from the position set in c->po: the board prepared, the candidates of
 * the player on turn listed. 0, or -1 when out of memory. */
int rl_begin(RLCore *c);

/* Append e to the core's log of moves: 0, or -1 when out of memory. */
int rl_log_push(RLCore *c, const RLCand *e);

/* Make candidate i (0 <= i < c->ncand), list the next player's: 0, or -1 (no memory). */
int rl_step_play(RLCore *c, int i);

/* The other seats play as the static player until seat is on turn, whose candidates are
 * then listed: 0, or -1 (no memory). */
int rl_static_turns_play(RLCore *c, int seat);

/* A new game as lexiko.game.Game(seed=...) deals it (seed8: 8 bytes, little-endian, the seed modulo 2**64; the
 * bag, n tiles, in Game's order; np players; draw_first: draw for the first player):
 * the first player, or -1 when out of memory. */
int rl_deal_game(RLCore *c, const uint8_t *seed8, const uint8_t *bag, int n, int np, int draw_first);

/* Fill the arrays of lexiko.rl.Observer.observe for seat (sizes as rl_observe checks
 * them), the candidates' features and mask only when on_turn (else zeros). */
void rl_observe_fill(const RLCore *c, int seat, int on_turn, float *board, float *rack, float *unseen, float *scores,
                     float *bag, float *cands, int8_t *mask);

/* Free what the core holds (not the core). */
void rl_core_free(RLCore *c);

#endif
