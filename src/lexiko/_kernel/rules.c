/*
 * lexiko._kernel, rules.c: the rules of the kernel's games (see rules.h): the board of a
 * play-out and its generator arrays kept move by move, making a move (placement,
 * exchange, pass), the draw, the run of scoreless turns and the end of the game.
 */
#include "rules.h"

#include "rng.h"

void po_board(PlayOut *po, int size, const uint8_t *cells, const uint8_t *lmult, const uint8_t *wmult,
              const uint8_t *values, int bingo_tiles, const int32_t *bonuses, size_t nbonus, int first_min, int start_r,
              int start_c, int first_dirs)
{
    po->n = size;
    memcpy(po->cells, cells, (size_t)size * (size_t)size);
    po->lmult = lmult;
    po->wmult = wmult;
    memcpy(po->values, values, 128);
    po->bingo_tiles = bingo_tiles;
    const int32_t *b = bonuses;
    size_t nb = nbonus;
    for (size_t k = 0; k <= MAXN; k++)
        po->bonus[k] = b[k < nb ? k : nb - 1];
    po->first_min = first_min;
    po->start_r = start_r;
    po->start_c = start_c;
    po->sym_dirs = first_dirs == 1 ? 1 : 2;
}

/* Prepare po->board for po->cells from scratch (a new position). */
void po_board_prepare(PlayOut *po)
{
    Gen *b = po->board;
    memset(b, 0, sizeof(Gen));
    b->kwg = po->kwg;
    b->nk = po->nk;
    b->n = po->n;
    memcpy(b->values, po->values, 128);
    prepare(b, po->cells, po->lmult, po->wmult, po->start_r, po->start_c);
}

/* po->board after placement m (po->cells already holds it): the squares it changed, or
 * everything after the first play (the start square stops being the only anchor). */
static void po_board_make(PlayOut *po, const Move *m)
{
    if (po->board->empty_board) {
        po_board_prepare(po);
        po->touched[0] = po->touched[1] = ~(uint32_t)0;
    } else {
        gen_make(po->board, po->cells, m, NULL, NULL, po->touched);
    }
}

static int po_rack_value(const PlayOut *po, int p)
{
    int v = 0;
    for (int c = 1; c < 64; c++)
        v += po->rack[p][c] * po->values[c];
    return v;
}

void po_draw(PlayOut *po, int p, int k)
{
    for (int i = 0; i < k && po->nb > 0; i++) {
        po->rack[p][po->bag[--po->nb]]++;
        po->rack_n[p]++;
    }
}

static void po_count(PlayOut *po, int scoreless, int is_pass)
{
    int counts = po->passes_only ? is_pass : scoreless;
    po->scoreless_run = counts ? po->scoreless_run + 1 : 0;
}

static void po_finish(PlayOut *po, const char *reason, int out_player)
{
    po->over = 1;
    po->end_reason = reason;
    memcpy(po->before, po->scores, sizeof po->before);
    if (out_player >= 0) {
        int left = 0;
        for (int q = 0; q < po->np; q++)
            if (q != out_player)
                left += po_rack_value(po, q);
        if (po->end_double && po->np == 2) {
            po->scores[out_player] += 2 * left;
        } else {
            po->scores[out_player] += left;
            for (int q = 0; q < po->np; q++)
                if (q != out_player)
                    po->scores[q] -= po_rack_value(po, q);
        }
    } else {
        for (int q = 0; q < po->np; q++)
            po->scores[q] -= po_rack_value(po, q);
    }
}

/* Make the move of the player on turn: kind 0 the placement *mp, 1 the exchange of ex
 * (returned to the bag in that order), 2 a pass; then the draw, the end of the game or
 * the next player. The tiles must be on the rack. The move goes to log when given:
 * (player, kind, row, col, down, tiles, score, kept, bag) (kept: the tiles kept, rack
 * order; bag: tiles in the bag after the move). */
void po_apply(PlayOut *po, int kind, const Move *mp, const uint8_t *ex, int nex, PoLog *log)
{
    Move m = *mp;
    int p = po->turn, out = 0;
    po->turns++;
    if (kind == 0) {
        int placed = 0, n = po->n;
        for (int j = 0; j < m.len; j++) {
            uint8_t t = m.tiles[j];
            if (!t)
                continue;
            int r = m.down ? m.row + j : m.row, c = m.down ? m.col : m.col + j;
            po->cells[r * n + c] = t;
            if (t & BLANK_FLAG)
                po->rack[p][0]--;
            else
                po->rack[p][t]--;
            po->rack_n[p]--;
            placed++;
        }
        if (po->board && !po->last_turn)
            po_board_make(po, &m);
        po->scores[p] += m.score;
        if (placed >= po->bingo_tiles)
            po->bingos[p]++;
        po->first_min = 1;
        po->sym_dirs = 2;
        po_count(po, m.score == 0, 0);
        memcpy(po->kept[p], po->rack[p], 64);
        po_draw(po, p, po->rack_size - po->rack_n[p]);
        po->kept_bag[p] = po->nb;
        out = !po->rack_n[p] && !po->nb;
    } else if (kind == 1) {
        for (int j = 0; j < nex; j++) {
            po->rack[p][ex[j]]--;
            po->rack_n[p]--;
        }
        memcpy(po->kept[p], po->rack[p], 64);
        po_draw(po, p, nex);
        for (int j = 0; j < nex; j++)
            po->bag[po->nb++] = ex[j];
        rng_shuffle(&po->rng, po->bag, po->nb);
        po->kept_bag[p] = po->nb;
        po->exchanges[p]++;
        po_count(po, po->exchange_scoreless, 0);
    } else {
        memcpy(po->kept[p], po->rack[p], 64);
        po->kept_bag[p] = po->nb;
        po_count(po, 1, 1);
    }
    if (log) {
        uint8_t *u = log->kept;
        int k = 0;
        for (int c = 1; c < 64; c++)
            for (int j = 0; j < po->kept[p][c]; j++)
                u[k++] = (uint8_t)c;
        for (int j = 0; j < po->kept[p][0]; j++)
            u[k++] = 0;
        log->nkept = k;
        log->player = p;
        log->kind = kind;
        log->bag = po->nb;
        if (kind == 0) {
            log->row = m.row;
            log->col = m.col;
            log->down = m.down;
            log->score = m.score;
            log->ntiles = m.len;
            memcpy(log->tiles, m.tiles, m.len);
        } else {
            log->row = log->col = log->down = log->score = 0;
            log->ntiles = kind == 1 ? nex : 0;
            memcpy(log->tiles, ex, (size_t)log->ntiles);
        }
    }
    if (out) {
        po_finish(po, "out", p);
        return;
    }
    if (po->scoreless_limit && po->scoreless_run >= po->scoreless_limit) {
        po_finish(po, "scoreless", -1);
        return;
    }
    po->turn = (p + 1) % po->np;
}
