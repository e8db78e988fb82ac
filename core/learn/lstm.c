/* lstm.c — the other recurrent layer (VFL_LSTM): a long short-term memory as Keras's LSTM
 * computes it (its defaults), so that its weights are a Keras layer's:
 *
 *     i  = σ(x W_i + h U_i + b_i)                                input gate
 *     f  = σ(x W_f + h U_f + b_f)                                forget gate
 *     g  = tanh(x W_c + h U_c + b_c)                             the cell's candidate
 *     o  = σ(x W_o + h U_o + b_o)                                output gate
 *     c' = f ⊙ c + i ⊙ g
 *     h' = o ⊙ tanh(c')
 *
 * with x the layer's input at a step, h and c its state before the step (both zero where an
 * episode starts). A sequence's state is the two side by side, [h c]: 2U floats where a GRU's
 * is U. Its parameters: the kernel [in x 4U] = [W_i W_f W_c W_o], the recurrent kernel
 * [U x 4U] = [U_i U_f U_c U_o], the bias [4U] (one, where Keras's GRU has two).
 *
 * It runs as gru.c does: the input's part of every gate for every step in one product, then
 * step by step the state's part (a product of the B states) and the gates; backward through
 * time in reverse, the gradient at each step's h carried back through the recurrent kernel and
 * the gradient at its c through the forget gate. What a step keeps (per sample, in units;
 * its row's per_sample):
 *
 *     xw  4  the input's part of the gates, with b (forward); backward: d/d the gates' sums
 *     g   4  i, f, g, o
 *     hp  1  h before the step
 *     cp  1  c before the step
 *     cn  1  c after the step
 *     tc  1  tanh(c after)
 *     dh  1  backward: the gradient carried to h before (B rows of it)
 *     dc  1  backward: the gradient carried to c before (B rows of it)
 */
#include "internal.h"

static int64_t param_count(int64_t in, int64_t units) {
    return in * 4 * units + units * 4 * units + 4 * units;
}

/* The parts of the kept scratch, each capacity x (its units x U). */
typedef struct parts {
    float *xw, *g, *hp, *cp, *cn, *tc, *dh, *dc;
} parts;

static parts parts_of(const vfl_net *net, int U) {
    size_t c = (size_t)net->capacity * (size_t)U;
    float *p = net->seq;
    return (parts){p,          p + 4 * c,  p + 8 * c,  p + 9 * c,
                   p + 10 * c, p + 11 * c, p + 12 * c, p + 13 * c};
}

static void forward(vfl_net *net, int l, int T, int B, const uint8_t *starts, const float *h0,
                    float *h_final) {
    int in = net->width[l - 1], U = net->width[l], U4 = 4 * U;
    size_t n = (size_t)T * (size_t)B, row = (size_t)U * sizeof(float);
    const float *x = vfln_layer(net, net->act, l - 1);
    float *h = vfln_layer(net, net->act, l);
    const float *kernel = net->params + net->kernel[l - 1];
    const float *rec = kernel + (size_t)in * U4;
    const float *bias = rec + (size_t)U * U4;
    parts k = parts_of(net, U);
    for (size_t s = 0; s < n; s++) memcpy(k.xw + s * U4, bias, (size_t)U4 * sizeof(float));
    vfln_gemm((int)n, in, U4, x, in, 1, kernel, U4, k.xw, U4);
    for (int t = 0; t < T; t++) {
        size_t first = (size_t)t * B;
        for (int b = 0; b < B; b++) {
            size_t s = first + (size_t)b;
            net->starts[s] = starts && starts[s];
            float *hp = k.hp + s * U, *cp = k.cp + s * U;
            if (net->starts[s] || (t == 0 && !h0)) {
                memset(hp, 0, row);
                memset(cp, 0, row);
            } else if (t == 0) {
                memcpy(hp, h0 + (size_t)b * 2 * U, row);
                memcpy(cp, h0 + (size_t)b * 2 * U + U, row);
            } else {
                memcpy(hp, h + (s - (size_t)B) * U, row);
                memcpy(cp, k.cn + (s - (size_t)B) * U, row);
            }
            memcpy(k.g + s * U4, k.xw + s * U4, (size_t)U4 * sizeof(float));
        }
        vfln_gemm(B, U, U4, k.hp + first * U, U, 1, rec, U4, k.g + first * U4, U4);
        for (int b = 0; b < B; b++) {
            size_t s = first + (size_t)b;
            float *g = k.g + s * U4, *cn = k.cn + s * U, *tc = k.tc + s * U, *out = h + s * U;
            const float *cp = k.cp + s * U;
            vfln_sigmoid_all(g, 2 * (size_t)U);     /* i, f */
            vfln_tanh_all(g + 2 * U, (size_t)U);    /* g */
            vfln_sigmoid_all(g + 3 * U, (size_t)U); /* o */
            for (int u = 0; u < U; u++) tc[u] = cn[u] = g[U + u] * cp[u] + g[u] * g[2 * U + u];
            vfln_tanh_all(tc, (size_t)U);
            for (int u = 0; u < U; u++) out[u] = g[3 * U + u] * tc[u];
        }
    }
    /* after the steps: h0 is read (copies in hp and cp) before this, so h_final may be h0 */
    if (h_final)
        for (int b = 0; b < B; b++) {
            size_t s = n - (size_t)B + (size_t)b;
            memcpy(h_final + (size_t)b * 2 * U, h + s * U, row);
            memcpy(h_final + (size_t)b * 2 * U + U, k.cn + s * U, row);
        }
}

static void backward(vfl_net *net, int l) {
    int T = net->last_t, B = net->last_n / T;
    int in = net->width[l - 1], U = net->width[l], U4 = 4 * U;
    size_t n = (size_t)net->last_n;
    const float *d = vfln_layer(net, net->delta, l);
    const float *rec = net->params + net->kernel[l - 1] + (size_t)in * U4;
    float *g_bias = net->grads + net->kernel[l - 1] + (size_t)(in + U) * U4;
    parts k = parts_of(net, U);
    float *dz = k.xw; /* its forward values are spent */
    vfln_transpose(rec, U, U4, net->seq_t);
    memset(k.dh, 0, (size_t)B * U * sizeof(float));
    memset(k.dc, 0, (size_t)B * U * sizeof(float));
    for (int t = T - 1; t >= 0; t--) {
        size_t first = (size_t)t * B;
        for (int b = 0; b < B; b++) {
            size_t s = first + (size_t)b;
            const float *g = k.g + s * U4, *cp = k.cp + s * U, *tc = k.tc + s * U;
            const float *up = d + s * U;
            float *carry_h = k.dh + (size_t)b * U, *carry_c = k.dc + (size_t)b * U;
            float *gz = dz + s * U4;
            for (int u = 0; u < U; u++) {
                float i = g[u], f = g[U + u], gg = g[2 * U + u], o = g[3 * U + u];
                float dh = up[u] + carry_h[u];
                float dc = carry_c[u] + dh * o * (1 - tc[u] * tc[u]);
                gz[u] = dc * gg * i * (1 - i);
                gz[U + u] = dc * cp[u] * f * (1 - f);
                gz[2 * U + u] = dc * i * (1 - gg * gg);
                gz[3 * U + u] = dh * tc[u] * o * (1 - o);
                carry_c[u] = dc * f; /* to c before, directly; h before gets the gates' part */
            }
        }
        if (t == 0) break; /* truncated: the chunk's first states are given */
        memset(k.dh, 0, (size_t)B * U * sizeof(float));
        vfln_gemm(B, U4, U, dz + first * U4, U4, 1, net->seq_t, U, k.dh, U);
        for (int b = 0; b < B; b++) /* an episode starts: its state before was 0, not learned */
            if (net->starts[first + (size_t)b]) {
                memset(k.dh + (size_t)b * U, 0, U * sizeof(float));
                memset(k.dc + (size_t)b * U, 0, U * sizeof(float));
            }
    }
    for (size_t s = 0; s < n; s++)
        for (int u = 0; u < U4; u++) g_bias[u] += dz[s * U4 + u];
    vfln_recurrent_grads(net, l, U4, dz, dz, k.hp);
}

/* As Keras's LSTM: the kernel Glorot-uniform, the recurrent kernel orthogonal, the bias zero
 * but the forget gate's, 1 (unit_forget_bias: a new layer keeps its cell until it learns not
 * to). */
static void init(vfl_net *net, int l, uint64_t *s) {
    int in = net->width[l - 1], U = net->width[l];
    float *kernel = net->params + net->kernel[l - 1], *rec = kernel + (size_t)in * 4 * U;
    float *bias = rec + (size_t)U * 4 * U;
    vfln_glorot(kernel, in, 4 * U, s);
    vfln_normal(rec, U * 4 * U, 1.0, s);
    vfln_orthonormal_rows(rec, U, 4 * U);
    for (int u = 0; u < U; u++) bias[U + u] = 1;
}

/* This kind's row of the table net.c asks (internal.h's vfln_cell). */
const vfln_cell vfln_lstm = {
    .gates = 4,
    .per_sample = 14,
    .state = 2,
    .param_count = param_count,
    .init = init,
    .forward = forward,
    .backward = backward,
};
