/* gru.c — the recurrent layer (VFL_GRU): a gated recurrent unit as Keras's GRU computes it
 * with reset_after (its default), so that its weights are a Keras layer's:
 *
 *     z  = σ(x W_z + b_z + h U_z + c_z)                          update gate
 *     r  = σ(x W_r + b_r + h U_r + c_r)                          reset gate
 *     n  = tanh(x W_n + b_n + r ⊙ (h U_n + c_n))                 the new state's candidate
 *     h' = (1 − z) ⊙ n + z ⊙ h
 *
 * with x the layer's input at a step and h its state before the step (zero where an episode
 * starts). Its parameters: the kernel [in x 3U] = [W_z W_r W_n], the recurrent kernel
 * [U x 3U] = [U_z U_r U_n], the biases [2 x 3U] = [b_z b_r b_n], [c_z c_r c_n].
 *
 * Forward: the input's part of every gate for every step at once (one product of all T x B
 * samples), then, step by step, the state's part (a product of the B states), the gates, the
 * new states. Backward through time runs the steps in reverse: each step's gradient at its
 * states is what the layer above sends plus what the next step sends back through the
 * recurrent kernel (a product of B rows again); the kernels' gradients are then one product
 * each over every step. What a step keeps (per sample, in units; its row's per_sample):
 *
 *     xw  3  the input's part of the gates, with b (forward); backward: d/d of it (dx)
 *     g   3  z, r, n
 *     mh  1  h U_n + c_n
 *     hp  1  the state before the step
 *     m   3  the state's part of the gates (forward); backward: d/d of it (dm)
 *     dh  1  backward: the gradient carried to the step before (B rows of it)
 */
#include "internal.h"

static int64_t param_count(int64_t in, int64_t units) {
    return in * 3 * units + units * 3 * units + 2 * 3 * units;
}

/* The parts of the kept scratch, each capacity x (its units x U). */
typedef struct parts {
    float *xw, *g, *mh, *hp, *m, *dh;
} parts;

static parts parts_of(const vfl_net *net, int U) {
    size_t c = (size_t)net->capacity * (size_t)U;
    float *p = net->seq;
    return (parts){p, p + 3 * c, p + 6 * c, p + 7 * c, p + 8 * c, p + 11 * c};
}

static void forward(vfl_net *net, int l, int T, int B, const uint8_t *starts, const float *h0,
                    float *h_final) {
    int in = net->width[l - 1], U = net->width[l], U3 = 3 * U;
    size_t n = (size_t)T * (size_t)B, row = (size_t)U * sizeof(float);
    const float *x = vfln_layer(net, net->act, l - 1);
    float *h = vfln_layer(net, net->act, l);
    const float *kernel = net->params + net->kernel[l - 1];
    const float *rec = kernel + (size_t)in * U3;
    const float *bias = rec + (size_t)U * U3, *rec_bias = bias + U3;
    parts k = parts_of(net, U);
    for (size_t s = 0; s < n; s++) memcpy(k.xw + s * U3, bias, (size_t)U3 * sizeof(float));
    vfln_gemm((int)n, in, U3, x, in, 1, kernel, U3, k.xw, U3);
    for (int t = 0; t < T; t++) {
        size_t first = (size_t)t * B;
        for (int b = 0; b < B; b++) {
            size_t s = first + (size_t)b;
            net->starts[s] = starts && starts[s];
            float *hp = k.hp + s * U;
            if (net->starts[s] || (t == 0 && !h0))
                memset(hp, 0, row);
            else
                memcpy(hp, t == 0 ? h0 + (size_t)b * U : h + (s - (size_t)B) * U, row);
            memcpy(k.m + s * U3, rec_bias, (size_t)U3 * sizeof(float));
        }
        vfln_gemm(B, U, U3, k.hp + first * U, U, 1, rec, U3, k.m + first * U3, U3);
        for (int b = 0; b < B; b++) {
            size_t s = first + (size_t)b;
            const float *xw = k.xw + s * U3, *m = k.m + s * U3, *hp = k.hp + s * U;
            float *g = k.g + s * U3, *mh = k.mh + s * U, *out = h + s * U;
            for (int u = 0; u < 2 * U; u++) g[u] = xw[u] + m[u];
            vfln_sigmoid_all(g, 2 * (size_t)U); /* z, r */
            for (int u = 0; u < U; u++) {
                mh[u] = m[2 * U + u];
                g[2 * U + u] = xw[2 * U + u] + g[U + u] * mh[u];
            }
            vfln_tanh_all(g + 2 * U, (size_t)U); /* n */
            for (int u = 0; u < U; u++) out[u] = g[2 * U + u] + g[u] * (hp[u] - g[2 * U + u]);
        }
    }
    /* after the steps: h0 is read (a copy in hp) before this, so h_final may be h0 */
    if (h_final) memcpy(h_final, h + (n - (size_t)B) * U, (size_t)B * row);
}

static void backward(vfl_net *net, int l) {
    int T = net->last_t, B = net->last_n / T;
    int in = net->width[l - 1], U = net->width[l], U3 = 3 * U;
    size_t n = (size_t)net->last_n;
    const float *d = vfln_layer(net, net->delta, l);
    const float *rec = net->params + net->kernel[l - 1] + (size_t)in * U3;
    float *g_bias = net->grads + net->kernel[l - 1] + (size_t)(in + U) * U3;
    float *g_rec_bias = g_bias + U3;
    parts k = parts_of(net, U);
    float *dx = k.xw, *dm = k.m; /* their forward values are spent */
    vfln_transpose(rec, U, U3, net->seq_t);
    memset(k.dh, 0, (size_t)B * U * sizeof(float));
    for (int t = T - 1; t >= 0; t--) {
        size_t first = (size_t)t * B;
        for (int b = 0; b < B; b++) {
            size_t s = first + (size_t)b;
            const float *g = k.g + s * U3, *mh = k.mh + s * U, *hp = k.hp + s * U;
            const float *up = d + s * U;
            float *carry = k.dh + (size_t)b * U, *gx = dx + s * U3, *gm = dm + s * U3;
            for (int u = 0; u < U; u++) {
                float z = g[u], r = g[U + u], nn = g[2 * U + u];
                float dh = up[u] + carry[u];
                float dn = dh * (1 - z) * (1 - nn * nn); /* at n's pre-activation */
                float dz = dh * (hp[u] - nn) * z * (1 - z);
                float dr = dn * mh[u] * r * (1 - r);
                gx[u] = gm[u] = dz;
                gx[U + u] = gm[U + u] = dr;
                gx[2 * U + u] = dn;
                gm[2 * U + u] = dn * r;
                carry[u] = dh * z; /* to the state before, directly; the gates' part below */
            }
        }
        if (t == 0) break; /* truncated: the chunk's first states are given */
        vfln_gemm(B, U3, U, dm + first * U3, U3, 1, net->seq_t, U, k.dh, U);
        for (int b = 0; b < B; b++) /* an episode starts: its state before was 0, not learned */
            if (net->starts[first + (size_t)b]) memset(k.dh + (size_t)b * U, 0, U * sizeof(float));
    }
    for (size_t s = 0; s < n; s++)
        for (int u = 0; u < U3; u++) {
            g_bias[u] += dx[s * U3 + u];
            g_rec_bias[u] += dm[s * U3 + u];
        }
    vfln_recurrent_grads(net, l, U3, dx, dm, k.hp);
}

/* As Keras's GRU: the kernel Glorot-uniform, the recurrent kernel orthogonal, zero biases. */
static void init(vfl_net *net, int l, uint64_t *s) {
    int in = net->width[l - 1], U = net->width[l];
    float *kernel = net->params + net->kernel[l - 1], *rec = kernel + (size_t)in * 3 * U;
    vfln_glorot(kernel, in, 3 * U, s);
    vfln_normal(rec, U * 3 * U, 1.0, s);
    vfln_orthonormal_rows(rec, U, 3 * U);
}

/* This kind's row of the table net.c asks (internal.h's vfln_cell). */
const vfln_cell vfln_gru = {
    .gates = 3,
    .per_sample = 12,
    .state = 1,
    .param_count = param_count,
    .init = init,
    .forward = forward,
    .backward = backward,
};
