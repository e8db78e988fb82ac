/* fuzz_learn.c — the learner core's API (valley_farm_learn.h) driven by arbitrary bytes: a
 * layout of any sizes and kinds (a recurrent layer anywhere, several, or none; most layouts
 * refused: the sizes it must refuse without overflowing), then calls in any order with rows,
 * counts, strides, indices, masks, steps, sequences, episode starts and states of any value.
 * What must hold: no call reads or writes outside what it was given (ASan), no undefined
 * behaviour (UBSan), a refused call changes nothing, a call a network cannot make (a sequence
 * of a network without a recurrent layer, a backward of another forward) is refused, and a
 * network's outputs stay finite from finite weights and inputs, its recurrent states within
 * ±1, an LSTM's c within ±(1 + steps) (until an optimiser's huge step makes them infinite:
 * then only that is allowed). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "reader.h"
#include "valley_farm_learn.h"

enum { SAMPLES = 24, STRIDE = 12, PAIRS = SAMPLES * STRIDE, MAX_OUT = VFL_MAX_OUTPUTS };

static int32_t i32(reader *r) {
    return (int32_t)(uint32_t)u64(r);
}

/* A small value most of the time, any value now and then: sizes near the edges get tried. */
static int32_t size_of(reader *r, int32_t small) {
    uint8_t how = u8(r);
    if (how < 200) return 1 + how % small;
    if (how < 230) return (int32_t)(how - 240); /* zero and negatives */
    return i32(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader in = {data, data + size};
    reader *r = &in;
    vfl_layout l;
    memset(&l, 0, sizeof l);
    l.inputs = size_of(r, 40);
    l.layers = size_of(r, 3);
    for (int k = 0; k < VFL_MAX_LAYERS; k++) {
        l.units[k] = size_of(r, 24);
        l.kinds[k] = u8(r) % 5; /* 4: not a kind */
    }
    l.heads = size_of(r, 3);
    for (int h = 0; h < VFL_MAX_HEADS; h++) {
        l.head_units[h] = size_of(r, 12);
        l.head_init[h] = (float)(u8(r) % 5) * 0.01f;
    }
    const char *problem = vfl_layout_problem(&l);
    vfl_net *net = vfl_create(&l);
    REQUIRE(!problem || !net); /* a named problem is never built */
    if (!net) return 0;
    if (vfl_param_count(net) >
        100000) { /* built as it should be: too slow to drive thousands a second */
        vfl_destroy(net);
        return 0;
    }
    vfl_net *twin = vfl_create(&l);
    vfl_init(net, u64(r));
    if (twin) vfl_copy_params(twin, net);
    int count = vfl_param_count(net), outputs = vfl_outputs(net), units = vfl_state_size(net);
    REQUIRE(count > 0 && outputs > 0 && outputs <= MAX_OUT && units >= 0 &&
            units <= 2 * VFL_MAX_UNITS);
    int lstm = 0; /* an LSTM's state is [h c]: its c is not within ±1 */
    for (int k = 0; k < l.layers; k++) lstm |= l.kinds[k] == VFL_LSTM;

    /* samples: indices and counts of any value, rows of any value */
    static int32_t idx[PAIRS], nnz[SAMPLES], rows[SAMPLES];
    static float val[PAIRS], out[SAMPLES * MAX_OUT], dout[SAMPLES * MAX_OUT],
        logp[SAMPLES * MAX_OUT], prob[SAMPLES * MAX_OUT], entropy[SAMPLES];
    static uint32_t start[SAMPLES];
    static uint8_t masks[SAMPLES * MAX_OUT], starts[SAMPLES];
    static float h0[SAMPLES * VFL_MAX_UNITS], h_final[SAMPLES * VFL_MAX_UNITS];
    for (int k = 0; k < PAIRS; k++) {
        idx[k] = u8(r) < 250 ? u8(r) % l.inputs : i32(r);
        val[k] = (float)(int8_t)u8(r) / 16.0f;
    }
    for (int s = 0; s < SAMPLES; s++) {
        nnz[s] = u8(r) < 250 ? u8(r) % (STRIDE + 1) : i32(r);
        start[s] = u8(r) < 250 ? (uint32_t)(u8(r) % (PAIRS - STRIDE)) : (uint32_t)i32(r);
        rows[s] = u8(r) < 250 ? u8(r) % SAMPLES : i32(r);
    }
    for (int k = 0; k < SAMPLES * MAX_OUT; k++) masks[k] = u8(r) & 1;
    for (int s = 0; s < SAMPLES; s++) starts[s] = u8(r) < 200 ? 0 : u8(r);
    for (int k = 0; k < SAMPLES * units; k++) h0[k] = (float)(int8_t)u8(r) / 128.0f; /* within ±1 */
    vfl_inputs at = {idx, val, nnz, STRIDE, u8(r) & 1 ? start : NULL, SAMPLES, PAIRS, masks};
    if (u8(r) == 7) at.stride = i32(r);
    if (u8(r) == 7) at.count = i32(r);
    /* a count or pairs beyond the arrays would be the caller's lie about its own buffers, which
     * no callee can see: forged ones stay within them (smaller ones are the refusals to test) */
    if (u8(r) == 7) at.pairs = (uint32_t)i32(r) % (PAIRS + 1);
    if (u8(r) == 7) at.masks = NULL;
    int last = 0;    /* the samples of the last forward that succeeded (none yet: 0) */
    int last_t = -1; /* its steps, if it was of sequences (-1: vfl_forward, or none) */
    int stepped = 0; /* an optimiser stepped: its outputs may no longer be finite */

    for (int op = 0; op < 40 && r->p < r->end; op++) {
        /* rows index the caller's arrays: given only while its count is theirs at most */
        const int32_t *use_rows = (u8(r) & 1) && at.count <= SAMPLES ? rows : NULL;
        int n = u8(r) < 240 ? u8(r) % (SAMPLES + 1) : i32(r);
        /* the caller's buffers (rows, outputs) hold SAMPLES samples: a larger n is the caller's
         * bug, not the core's; without rows, any n is checked against the inputs' count */
        if ((use_rows || (at.count > SAMPLES)) && n > SAMPLES) n = SAMPLES;
        switch (u8(r) % 12) {
        case 0: {
            float before = out[0];
            int code = vfl_forward(net, n, use_rows, &at, out);
            REQUIRE(code == VFL_OK || code == VFL_ERR_ARGUMENT || code == VFL_ERR_MEMORY);
            if (units) REQUIRE(code == VFL_ERR_ARGUMENT); /* its samples are steps */
            if (code != VFL_OK) {
                REQUIRE(out[0] == before || isnan(before)); /* a refused call wrote nothing */
                break;
            }
            last = n;
            last_t = -1;
            if (!stepped)
                for (int k = 0; k < n * outputs; k++) REQUIRE(isfinite(out[k]));
            break;
        }
        case 1: {
            for (int k = 0; k < SAMPLES * outputs; k++) dout[k] = (float)(int8_t)u8(r) / 64.0f;
            int code = vfl_backward(net, n, use_rows, &at, u8(r) == 3 ? NULL : dout);
            REQUIRE(code == VFL_OK || code == VFL_ERR_ARGUMENT);
            if (n != last || last_t != -1) REQUIRE(code == VFL_ERR_ARGUMENT);
            break;
        }
        case 10: { /* T steps of B sequences: small, zero, negative, now and then any */
            int T = size_of(r, 6) - 1, B = size_of(r, 5) - 1;
            int64_t steps = (int64_t)T * B;
            int sound = T >= 0 && B >= 0 && steps <= VFL_MAX_BATCH;
            /* the caller's buffers hold SAMPLES samples and states: more is the caller's bug */
            if (sound && B > SAMPLES) B = SAMPLES;
            if (sound && (int64_t)T * B > SAMPLES && (use_rows || at.count > SAMPLES))
                T = SAMPLES / (B > 0 ? B : 1);
            const uint8_t how = u8(r);
            float before = out[0], before_h = h_final[0];
            int code = vfl_forward_seq(net, T, B, use_rows, &at, how & 1 ? starts : NULL,
                                       how & 2 ? h0 : NULL, out, how & 4 ? h_final : NULL);
            REQUIRE(code == VFL_OK || code == VFL_ERR_ARGUMENT || code == VFL_ERR_MEMORY);
            if (!units || !sound) REQUIRE(code == VFL_ERR_ARGUMENT);
            if (code != VFL_OK) {
                REQUIRE(out[0] == before || isnan(before));
                REQUIRE(h_final[0] == before_h || isnan(before_h));
                break;
            }
            last = T * B;
            last_t = T;
            if (!stepped) {
                for (int k = 0; k < last * outputs; k++) REQUIRE(isfinite(out[k]));
                if (how & 4)
                    for (int k = 0; k < B * units; k++) {
                        /* c moves by at most 1 a step (|f c| <= |c|, |i g| <= 1) from ±1 */
                        float bound = lstm && k % units >= units / 2 ? 1.0001f + (float)T : 1.0001f;
                        REQUIRE(fabsf(h_final[k]) <= bound);
                    }
            }
            break;
        }
        case 11: { /* backward through time: the last forward's steps and sequences, or others */
            int T = u8(r) < 200 ? last_t : size_of(r, 6) - 1;
            int B = T > 0 && u8(r) < 200 ? last / T : size_of(r, 5) - 1;
            for (int k = 0; k < SAMPLES * outputs; k++) dout[k] = (float)(int8_t)u8(r) / 64.0f;
            int code = vfl_backward_seq(net, T, B, use_rows, &at, u8(r) == 3 ? NULL : dout);
            REQUIRE(code == VFL_OK || code == VFL_ERR_ARGUMENT);
            if (T != last_t || (int64_t)T * B != last || T < 0 || B < 0)
                REQUIRE(code == VFL_ERR_ARGUMENT);
            break;
        }
        case 2: {
            int code = vfl_masked_softmax(net, n, use_rows, &at, out, logp, prob,
                                          u8(r) & 1 ? entropy : NULL);
            REQUIRE(code == VFL_OK || code == VFL_ERR_ARGUMENT);
            break;
        }
        case 3: vfl_zero_grad(net); break;
        case 4:
            vfl_adam(net, (float)u8(r) / 1024.0f);
            stepped = 1;
            break;
        case 5:
            vfl_sgd(net, (float)u8(r) / 1024.0f);
            stepped = 1;
            break;
        case 6: {
            double norm = vfl_grad_norm(net);
            REQUIRE(norm >= 0 || isnan(norm));
            vfl_scale_grads(net, (float)u8(r) / 128.0f);
            break;
        }
        case 7:
            vfl_set_adam_steps(net, i32(r));
            REQUIRE(vfl_adam_steps(net) >= 0);
            break;
        case 8:
            if (twin) {
                vfl_add_grads(twin, vfl_grads(net));
                REQUIRE(vfl_copy_params(net, twin) == VFL_OK);
            }
            break;
        default: vfl_add_floats(vfl_grads(net), vfl_params(net), count); break;
        }
    }
    vfl_destroy(twin);
    vfl_destroy(net);
    return 0;
}
