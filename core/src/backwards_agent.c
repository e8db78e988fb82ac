/* backwards_agent.c — the BackwardsValleyFarm-v0 heuristic: a sensible player from the
 * observation alone (position, facing, the 5 x 5 window of terrain and status). It remembers
 * the map it has seen and follows the inverted rules:
 *  - crops ripen when left alone: never water or fertilize, walk onto fields (a field at
 *    Harvest-Ready under the agent is harvested);
 *  - an animal pays its bonus when it becomes Thriving in view: feed it (-> Weak), then stay
 *    in view for the two ticks it needs to grow back;
 *  - a villager pays when insulted up to Friendly: insult until Friendly (one that starts
 *    Friendly is complimented once first).
 * Between tasks it walks to the nearest field, pen or house it has not finished, else
 * explores, else waits.
 *
 * It plays exactly as the JS package's heuristic did before it moved here (its returns on
 * the evaluation seeds are wasm/data/baselines.json's; tests/c/test_agents.c holds them). */
#include "backwards_rules.h"

#define SIDE VFA_BACKWARDS_SIDE
#define OFF                                                                                        \
    3 /* the map holds x and y from -3: the views reach 2 off the farm, their neighbours 3 */
#define CELL(x, y) (((y) + OFF) * SIDE + (x) + OFF)
_Static_assert(W + 2 * OFF <= SIDE && H + 2 * OFF <= SIDE, "the map holds the farm and 3 round it");

static const int step_x[4] = {0, 0, 1, -1}, step_y[4] = {-1, 1, 0, 0};

static int abs_int(int v) {
    return v < 0 ? -v : v;
}

void vfa_backwards_reset(vfa_backwards *a) {
    memset(a->code, -1, sizeof a->code);
    memset(a->status, 0, sizeof a->status);
    memset(a->done, 0, sizeof a->done);
    a->watching = -1;
}

/* A pen or house next to the agent that still pays: its direction (-1: none) and cell. */
typedef struct chore {
    int dir, at, x, y;
} chore;

static chore chore_at(const vfa_backwards *a, int x0, int y0, int step) {
    for (int d = 0; d < 4; d++) {
        int x = x0 + step_x[d], y = y0 + step_y[d], c = CELL(x, y);
        if (a->code[c] < 0 || a->done[c]) continue;
        if (a->code[c] == VF_BT_HOUSE) return (chore){d, c, x, y};
        if (a->code[c] == VF_BT_PEN && a->watching < 0 && VF_BW_HORIZON - step >= 4)
            return (chore){d, c, x, y};
    }
    return (chore){-1, -1, 0, 0};
}

/* The house chore: turn to it, then insult it up to Friendly (complimented first if it is
 * Friendly already, so that the insult can pay). */
static int house(vfa_backwards *a, chore c, int facing) {
    if (facing != c.dir) return c.dir;
    if (a->status[c.at] < FRIENDLY) {
        if (a->status[c.at] == FRIENDLY - 1)
            a->done[c.at] = 1; /* this insult makes it Friendly: paid */
        return VF_BA_INSULT;
    }
    return VF_BA_COMPLIMENT;
}

static bool walkable(const vfa_backwards *a, int x, int y) {
    int code = a->code[CELL(x, y)];
    return code == VF_BT_GROUND || code == VF_BT_FIELD;
}

int vfa_backwards_act(vfa_backwards *a, const int32_t *obs) {
    const int x0 = obs[VF_BO_X], y0 = obs[VF_BO_Y], facing = obs[VF_BO_FACING];
    const int left = obs[VF_BO_STEPS_LEFT], step = VF_BW_HORIZON - left;
    if (left == VF_BW_HORIZON) vfa_backwards_reset(a);
    for (int i = 0; i < 25; i++) {
        int c = CELL(x0 + i % 5 - 2, y0 + i / 5 - 2);
        a->code[c] = (int8_t)obs[VF_BO_TERRAIN + i];
        a->status[c] = (uint8_t)obs[VF_BO_STATUS + i];
    }

    if (a->watching >= 0) {
        if (a->status[a->watching] == THRIVING || step > a->watch_until) {
            a->done[a->watching] = 1;
            a->watching = -1;
        } else if (abs_int(a->watch_x - x0) <= 1 && abs_int(a->watch_y - y0) <= 1) {
            /* stay in view: only a house chore right here, never a move away */
            chore c = chore_at(a, x0, y0, step);
            if (c.dir < 0 || a->code[c.at] != VF_BT_HOUSE) return VF_BA_WAIT;
            return house(a, c, facing);
        }
    }

    chore c = chore_at(a, x0, y0, step);
    if (c.dir >= 0) {
        if (a->code[c.at] == VF_BT_PEN) {
            if (facing != c.dir) return c.dir; /* turn to face it (a pen blocks the move) */
            a->watching = c.at;
            a->watch_x = c.x;
            a->watch_y = c.y;
            a->watch_until = step + 3;
            return VF_BA_FEED;
        }
        return house(a, c, facing);
    }

    /* walk: the nearest unfinished field, pen or house, else the nearest unexplored edge; a
     * breadth-first search over remembered walkable cells, in the order cells are reached */
    int qx[SIDE * SIDE], qy[SIDE * SIDE], qd[SIDE * SIDE], qf[SIDE * SIDE];
    uint8_t seen[SIDE * SIDE] = {0};
    int n = 1;
    qx[0] = x0, qy[0] = y0, qd[0] = 0, qf[0] = -1;
    seen[CELL(x0, y0)] = 1;
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < 4; d++) {
            int nx = qx[i] + step_x[d], ny = qy[i] + step_y[d];
            if (seen[CELL(nx, ny)] || !walkable(a, nx, ny)) continue;
            seen[CELL(nx, ny)] = 1;
            qx[n] = nx, qy[n] = ny, qd[n] = qd[i] + 1, qf[n] = qf[i] < 0 ? d : qf[i];
            n++;
        }
    }
    double best = 0;
    int first = -1;
    for (int i = 1; i < n; i++) {
        double worth = a->code[CELL(qx[i], qy[i])] == VF_BT_FIELD ? 1 : 0;
        for (int d = 0; d < 4; d++) {
            int k = CELL(qx[i] + step_x[d], qy[i] + step_y[d]);
            if (a->code[k] < 0)
                worth = worth > 0.3 ? worth : 0.3;
            else if ((a->code[k] == VF_BT_HOUSE || a->code[k] == VF_BT_PEN) && !a->done[k])
                worth = worth > 1.5 ? worth : 1.5;
        }
        if (worth == 0 || qd[i] > left) continue;
        double score = worth / qd[i];
        if (first < 0 || score > best) best = score, first = qf[i];
    }
    return first >= 0 ? first : VF_BA_WAIT;
}
