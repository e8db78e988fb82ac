/* net.c — the learners' network (valley_farm_learn.h): forward, backward from the gradient at
 * the outputs, the optimisers.
 *
 * A minibatch goes through layer by layer, as matrices of one sample a row, so that every
 * dense product is one kernel (gemm below) that keeps a 4 x 8 block of its result in
 * registers: written in plain C with GCC/Clang vector types, it becomes SSE natively and
 * WebAssembly SIMD under Emscripten. The first layer is sparse (see the header). The heads run
 * as one product with a [last x padded] kernel: every head's columns side by side, then zeros
 * up to a multiple of 8. A recurrent layer (gru.c, lstm.c) runs its steps in time order between the
 * layers below it and those above it, which see every sample at once. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

/* ---- the layout ------------------------------------------------------------------------ */

const char *vfl_layout_problem(const vfl_layout *l) {
    if (!l) return "no layout";
    if (l->inputs < 1 || l->inputs > VFL_MAX_INPUTS) return "inputs must be from 1 to 2^20";
    if (l->layers < 1 || l->layers > VFL_MAX_LAYERS) return "hidden layers must be from 1 to 8";
    int recurrent = 0;
    for (int k = 0; k < l->layers; k++) {
        int kind = l->kinds[k];
        if (l->units[k] < 1 || l->units[k] > VFL_MAX_UNITS)
            return "a hidden layer's units must be from 1 to 4096";
        if (kind != VFL_TANH && kind != VFL_RELU && !vfln_is_recurrent(kind))
            return "a hidden layer's kind must be VFL_TANH, VFL_RELU, VFL_GRU or VFL_LSTM";
        if (vfln_is_recurrent(kind) && k == 0)
            return "the first hidden layer (the sparse one) cannot be recurrent";
        if (vfln_is_recurrent(kind) && recurrent++)
            return "a network may have at most one recurrent layer";
    }
    if (l->heads < 1 || l->heads > VFL_MAX_HEADS) return "heads must be from 1 to 4";
    int64_t outputs = 0;
    for (int h = 0; h < l->heads; h++) {
        if (l->head_units[h] < 1) return "a head's units must be at least 1";
        if (!(l->head_init[h] >= 0 && l->head_init[h] <= 1))
            return "a head's initial deviation must be from 0 (Glorot) to 1";
        outputs += l->head_units[h];
    }
    if (outputs > VFL_MAX_OUTPUTS) return "the heads' units together must be at most 64";
    int64_t count = 0, from = l->inputs;
    for (int k = 0; k < l->layers; k++) {
        const vfln_cell *cell = vfln_cell_of(l->kinds[k]);
        count += cell ? cell->param_count(from, l->units[k]) : from * l->units[k] + l->units[k];
        from = l->units[k];
    }
    count += from * outputs + outputs;
    if (count > VFL_MAX_PARAMS) return "the network would have more than 2^26 parameters";
    return NULL;
}

vfl_net *vfl_create(const vfl_layout *layout) {
    if (vfl_layout_problem(layout)) return NULL;
    vfl_net *net = calloc(1, sizeof *net);
    if (!net) return NULL;
    net->layout = *layout; /* the slots past its layers and heads zeroed, so layouts compare */
    int L = layout->layers;
    for (int l = L; l < VFL_MAX_LAYERS; l++) net->layout.units[l] = net->layout.kinds[l] = 0;
    for (int h = layout->heads; h < VFL_MAX_HEADS; h++) {
        net->layout.head_units[h] = 0;
        net->layout.head_init[h] = 0;
    }
    net->layers = L;
    net->width[0] = layout->inputs;
    int at = 0; /* fits: vfl_layout_problem bounds the count */
    for (int l = 0; l < L; l++) {
        net->width[l + 1] = layout->units[l];
        net->kernel[l] = at;
        const vfln_cell *cell = vfln_cell_of(layout->kinds[l]);
        if (cell) {
            net->recurrent = l + 1;
            net->cell = cell;
            at += (int)cell->param_count(net->width[l], layout->units[l]);
        } else
            at += net->width[l] * layout->units[l] + layout->units[l];
    }
    int last = net->width[L];
    for (int h = 0; h < layout->heads; h++) {
        net->head_kernel[h] = at;
        net->head_column[h] = net->outputs;
        at += last * layout->head_units[h] + layout->head_units[h];
        net->outputs += layout->head_units[h];
    }
    net->padded = (net->outputs + 7) / 8 * 8;
    net->count = at;
    net->params = calloc((size_t)at, sizeof(float));
    net->grads = calloc((size_t)at, sizeof(float));
    net->moments = calloc(2 * (size_t)at, sizeof(float));
    size_t heads = (size_t)last * (size_t)net->padded;
    net->heads_kernel = calloc(heads, sizeof(float));
    net->heads_kernel_t = calloc(heads, sizeof(float));
    net->heads_grad = calloc(heads, sizeof(float));
    int widest = net->padded;
    for (int l = 1; l <= L; l++)
        if (net->width[l] > widest) widest = net->width[l];
    net->kernel_t = calloc((size_t)widest * (size_t)widest, sizeof(float));
    int below = 1; /* the recurrent layer's kernels' transposes: its gates x max(in, units) */
    if (net->recurrent) {
        int in = net->width[net->recurrent - 1], units = net->width[net->recurrent];
        below = net->cell->gates * units * (in > units ? in : units);
    }
    net->seq_t = calloc((size_t)below, sizeof(float));
    net->last_t = -1;
    net->acc_beta1 = 0.9f;
    net->acc_beta2 = 0.999f;
    if (!net->params || !net->grads || !net->moments || !net->heads_kernel ||
        !net->heads_kernel_t || !net->heads_grad || !net->kernel_t || !net->seq_t) {
        vfl_destroy(net);
        return NULL;
    }
    return net;
}

void vfl_destroy(vfl_net *net) {
    if (!net) return;
    free(net->params);
    free(net->grads);
    free(net->moments);
    free(net->act);
    free(net->delta);
    free(net->heads_kernel);
    free(net->heads_kernel_t);
    free(net->kernel_t);
    free(net->heads_grad);
    free(net->seq);
    free(net->seq_t);
    free(net->starts);
    free(net);
}

float *vfl_params(vfl_net *net) {
    return net->params;
}

float *vfl_grads(vfl_net *net) {
    return net->grads;
}

int vfl_param_count(const vfl_net *net) {
    return net->count;
}

int vfl_outputs(const vfl_net *net) {
    return net->outputs;
}

float *vfl_adam_moments(vfl_net *net) {
    return net->moments;
}

int vfl_adam_steps(const vfl_net *net) {
    return net->adam_steps;
}

void vfl_set_adam_steps(vfl_net *net, int steps) {
    if (steps < 0) steps = 0;
    net->adam_steps = steps;
    net->acc_beta1 = 0.9f;
    net->acc_beta2 = 0.999f;
    /* β^t in float falls to the smallest subnormal and stays there (β times it rounds back to
     * it): within about 10^5 steps both products stop changing, and more steps change nothing */
    for (int t = 0; t < steps; t++) {
        float b1 = net->acc_beta1 * 0.9f, b2 = net->acc_beta2 * 0.999f;
        if (b1 == net->acc_beta1 && b2 == net->acc_beta2) break;
        net->acc_beta1 = b1;
        net->acc_beta2 = b2;
    }
}

/* ---- initial weights ------------------------------------------------------------------ */

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double uniform01(uint64_t *s) {
    return (double)(splitmix(s) >> 11) * (1.0 / 9007199254740992.0);
}

void vfln_glorot(float *w, int in, int out, uint64_t *s) {
    double limit = sqrt(6.0 / (in + out));
    for (int k = 0; k < in * out; k++) w[k] = (float)((2 * uniform01(s) - 1) * limit);
}

void vfln_normal(float *w, int count, double deviation, uint64_t *s) {
    for (int k = 0; k < count; k += 2) { /* Box-Muller */
        double u1 = uniform01(s), u2 = uniform01(s);
        double r = sqrt(-2 * log(1 - u1)) * deviation;
        w[k] = (float)(r * cos(6.283185307179586 * u2));
        if (k + 1 < count) w[k + 1] = (float)(r * sin(6.283185307179586 * u2));
    }
}

/* Rows of w (rows x cols, rows <= cols) made orthonormal in order (Gram-Schmidt, twice over:
 * its products in double), as Keras's orthogonal initializer makes them from a normal draw. */
void vfln_orthonormal_rows(float *w, int rows, int cols) {
    for (int i = 0; i < rows; i++) {
        float *v = w + (size_t)i * cols;
        for (int pass = 0; pass < 2; pass++)
            for (int j = 0; j < i; j++) {
                const float *q = w + (size_t)j * cols;
                double dot = 0;
                for (int c = 0; c < cols; c++) dot += (double)v[c] * q[c];
                for (int c = 0; c < cols; c++) v[c] = (float)(v[c] - dot * q[c]);
            }
        double norm = 0;
        for (int c = 0; c < cols; c++) norm += (double)v[c] * v[c];
        norm = sqrt(norm);
        if (norm > 0)
            for (int c = 0; c < cols; c++) v[c] = (float)(v[c] / norm);
    }
}

void vfl_init(vfl_net *net, uint64_t seed) {
    uint64_t s = seed;
    memset(net->params, 0, (size_t)net->count * sizeof(float));
    for (int l = 0; l < net->layers; l++) {
        if (l + 1 == net->recurrent)
            net->cell->init(net, l + 1, &s);
        else
            vfln_glorot(net->params + net->kernel[l], net->width[l], net->width[l + 1], &s);
    }
    int last = net->width[net->layers];
    for (int h = 0; h < net->layout.heads; h++) {
        int units = net->layout.head_units[h];
        float *w = net->params + net->head_kernel[h];
        if (net->layout.head_init[h] > 0)
            vfln_normal(w, last * units, net->layout.head_init[h], &s);
        else
            vfln_glorot(w, last, units, &s);
    }
    memset(net->moments, 0, 2 * (size_t)net->count * sizeof(float));
    vfl_set_adam_steps(net, 0);
}

/* tanh as a rational function (the approximation Eigen, and so TensorFlow, use natively): a
 * few float ulps from tanhf, four at a time, where the library's tanhf is a call per unit
 * that cost more than the products around it. */
typedef int32_t v4i __attribute__((vector_size(16)));

static v4 select4(v4i mask, v4 yes, v4 no) {
    return (v4)(((v4i)yes & mask) | ((v4i)no & ~mask));
}

static v4 tanh4(v4 x) {
    v4 v = select4(x > splat(9.f), splat(9.f), x);
    v = select4(v < splat(-9.f), splat(-9.f), v);
    v4 v2 = v * v;
    v4 p = splat(-2.76076847742355e-16f);
    p = p * v2 + splat(2.00018790482477e-13f);
    p = p * v2 + splat(-8.60467152213735e-11f);
    p = p * v2 + splat(5.12229709037114e-08f);
    p = p * v2 + splat(1.48572235717979e-05f);
    p = p * v2 + splat(6.37261928875436e-04f);
    p = p * v2 + splat(4.89352455891786e-03f);
    v4 q = splat(1.19825839466702e-06f);
    q = q * v2 + splat(1.18534705686654e-04f);
    q = q * v2 + splat(2.26843463243900e-03f);
    q = q * v2 + splat(4.89352518554385e-03f);
    return v * p / q;
}

void vfln_tanh_all(float *x, size_t n) {
    size_t k = 0;
    for (; k + 4 <= n; k += 4) store4(x + k, tanh4(load4(x + k)));
    if (k < n) { /* the last few, through a padded vector */
        float tail[4] = {0, 0, 0, 0};
        memcpy(tail, x + k, (n - k) * sizeof(float));
        store4(tail, tanh4(load4(tail)));
        memcpy(x + k, tail, (n - k) * sizeof(float));
    }
}

/* σ(x) = (1 + tanh(x / 2)) / 2: the same tanh as every other unit, four at a time. */
void vfln_sigmoid_all(float *x, size_t n) {
    for (size_t k = 0; k < n; k++) x[k] *= 0.5f;
    vfln_tanh_all(x, n);
    for (size_t k = 0; k < n; k++) x[k] = 0.5f + 0.5f * x[k];
}

/* internal.h: the kernels' products at the end of a recurrent layer's backward. */
void vfln_recurrent_grads(vfl_net *net, int l, int G, const float *dgx, const float *dgh,
                          const float *hp) {
    int in = net->width[l - 1], U = net->width[l];
    int n = net->last_n;
    const float *x = vfln_layer(net, net->act, l - 1);
    float *dx_below = vfln_layer(net, net->delta, l - 1);
    const float *kernel = net->params + net->kernel[l - 1];
    float *g_kernel = net->grads + net->kernel[l - 1], *g_rec = g_kernel + (size_t)in * G;
    vfln_gemm(in, n, G, x, 1, in, dgx, G, g_kernel, G);
    vfln_gemm(U, n, G, hp, 1, U, dgh, G, g_rec, G);
    vfln_transpose(kernel, in, G, net->seq_t);
    memset(dx_below, 0, (size_t)n * (size_t)in * sizeof(float));
    vfln_gemm(n, G, in, dgx, G, 1, net->seq_t, in, dx_below, in);
}

/* ---- the dense product --------------------------------------------------------------- */

/* internal.h: C[M x N] += op(A) B. It keeps a 4 x 8 block of C in registers while k runs. */
void vfln_gemm(int M, int K, int N, const float *A, int am, int ak, const float *B, int ldb,
               float *C, int ldc) {
    int n8 = N / 8 * 8;
    int m = 0;
    for (; m + 4 <= M; m += 4) {
        const float *a0 = A + (size_t)m * am, *a1 = a0 + am, *a2 = a1 + am, *a3 = a2 + am;
        for (int n = 0; n < n8; n += 8) {
            float *c = C + (size_t)m * ldc + n;
            v4 c00 = load4(c), c01 = load4(c + 4);
            v4 c10 = load4(c + ldc), c11 = load4(c + ldc + 4);
            v4 c20 = load4(c + 2 * ldc), c21 = load4(c + 2 * ldc + 4);
            v4 c30 = load4(c + 3 * ldc), c31 = load4(c + 3 * ldc + 4);
            const float *b = B + n;
            for (int k = 0; k < K; k++, b += ldb) {
                v4 b0 = load4(b), b1 = load4(b + 4);
                size_t o = (size_t)k * ak;
                v4 x0 = splat(a0[o]), x1 = splat(a1[o]), x2 = splat(a2[o]), x3 = splat(a3[o]);
                c00 += x0 * b0;
                c01 += x0 * b1;
                c10 += x1 * b0;
                c11 += x1 * b1;
                c20 += x2 * b0;
                c21 += x2 * b1;
                c30 += x3 * b0;
                c31 += x3 * b1;
            }
            store4(c, c00);
            store4(c + 4, c01);
            store4(c + ldc, c10);
            store4(c + ldc + 4, c11);
            store4(c + 2 * ldc, c20);
            store4(c + 2 * ldc + 4, c21);
            store4(c + 3 * ldc, c30);
            store4(c + 3 * ldc + 4, c31);
        }
        for (int r = 0; r < 4; r++) /* the columns past the last 8 */
            for (int n = n8; n < N; n++) {
                const float *a = A + (size_t)(m + r) * am;
                float sum = C[(size_t)(m + r) * ldc + n];
                for (int k = 0; k < K; k++) sum += a[(size_t)k * ak] * B[(size_t)k * ldb + n];
                C[(size_t)(m + r) * ldc + n] = sum;
            }
    }
    /* the rows past the last 4 (a recurrent layer's step of one to three sequences), one at a
     * time: 16 columns of C, then 4, in registers while k runs, then the rest one by one */
    for (; m < M; m++) {
        const float *a = A + (size_t)m * am;
        float *c = C + (size_t)m * ldc;
        int n = 0;
        for (; n + 16 <= N; n += 16) {
            v4 c0 = load4(c + n), c1 = load4(c + n + 4), c2 = load4(c + n + 8),
               c3 = load4(c + n + 12);
            const float *b = B + n;
            for (int k = 0; k < K; k++, b += ldb) {
                v4 x = splat(a[(size_t)k * ak]);
                c0 += x * load4(b);
                c1 += x * load4(b + 4);
                c2 += x * load4(b + 8);
                c3 += x * load4(b + 12);
            }
            store4(c + n, c0);
            store4(c + n + 4, c1);
            store4(c + n + 8, c2);
            store4(c + n + 12, c3);
        }
        for (; n + 4 <= N; n += 4) {
            v4 c0 = load4(c + n);
            const float *b = B + n;
            for (int k = 0; k < K; k++, b += ldb) c0 += splat(a[(size_t)k * ak]) * load4(b);
            store4(c + n, c0);
        }
        for (; n < N; n++) {
            float sum = c[n];
            for (int k = 0; k < K; k++) sum += a[(size_t)k * ak] * B[(size_t)k * ldb + n];
            c[n] = sum;
        }
    }
}

void vfln_transpose(const float *src, int rows, int cols, float *dst) {
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) dst[(size_t)c * rows + r] = src[(size_t)r * cols + c];
}

/* ---- forward --------------------------------------------------------------------------- */

/* Room for n samples in the scratch space (sized in 64 bits: a batch too large for memory is
 * refused, never wrapped around). */
static int reserve(vfl_net *net, int n) {
    if (n <= net->capacity) return VFL_OK;
    uint64_t per = (uint64_t)net->padded;
    for (int l = 1; l <= net->layers; l++) per += (uint64_t)net->width[l];
    uint64_t bytes = (uint64_t)n * per * sizeof(float);
    if (bytes > SIZE_MAX / 2) return VFL_ERR_MEMORY;
    float *act = realloc(net->act, (size_t)bytes);
    if (!act) return VFL_ERR_MEMORY;
    net->act = act;
    float *delta = realloc(net->delta, (size_t)bytes);
    if (!delta) return VFL_ERR_MEMORY;
    net->delta = delta;
    if (net->recurrent) {
        uint64_t seq = (uint64_t)n * net->cell->per_sample * (uint64_t)net->width[net->recurrent];
        if (seq * sizeof(float) > SIZE_MAX / 2) return VFL_ERR_MEMORY;
        float *kept = realloc(net->seq, (size_t)seq * sizeof(float));
        if (!kept) return VFL_ERR_MEMORY;
        net->seq = kept;
        uint8_t *starts = realloc(net->starts, (size_t)n);
        if (!starts) return VFL_ERR_MEMORY;
        net->starts = starts;
    }
    net->capacity = n;
    return VFL_OK;
}

/* Layer l's activations (l = 1 .. layers; layers + 1: the heads) in act or delta. */
float *vfln_layer(const vfl_net *net, float *base, int l) {
    size_t at = 0;
    for (int k = 1; k < l; k++) at += (size_t)net->width[k];
    return base + at * (size_t)net->capacity;
}

/* Where sample `row`'s nonzero features begin in idx and val (vfl_inputs). */
static size_t first_feature(const vfl_inputs *in, int row) {
    return in->start ? in->start[row] : (size_t)row * (size_t)in->stride;
}

/* VFL_OK if samples rows[0 .. n) can be read: each row below the inputs' count, its pairs
 * within the inputs' pairs (and its stride), each index below the network's inputs. */
static int check_inputs(const vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in) {
    if (n < 0 || n > VFL_MAX_BATCH || !in) return VFL_ERR_ARGUMENT;
    if (n == 0) return VFL_OK;
    if (!in->idx || !in->val || !in->nnz || in->count < 0 || (!in->start && in->stride < 0))
        return VFL_ERR_ARGUMENT;
    for (int s = 0; s < n; s++) {
        int row = rows ? rows[s] : s;
        if (row < 0 || row >= in->count) return VFL_ERR_ARGUMENT;
        int nnz = in->nnz[row];
        if (nnz < 0 || (!in->start && nnz > in->stride)) return VFL_ERR_ARGUMENT;
        uint64_t at = first_feature(in, row);
        if (at + (uint64_t)nnz > in->pairs) return VFL_ERR_ARGUMENT;
        for (int j = 0; j < nnz; j++)
            if ((uint32_t)in->idx[at + (size_t)j] >= (uint32_t)net->width[0])
                return VFL_ERR_ARGUMENT;
    }
    return VFL_OK;
}

/* The heads' kernels side by side in one [last x padded] matrix, zeros past the outputs. */
static void fill_heads_kernel(vfl_net *net) {
    int last = net->width[net->layers], P = net->padded;
    memset(net->heads_kernel, 0, (size_t)last * (size_t)P * sizeof(float));
    for (int h = 0; h < net->layout.heads; h++) {
        int units = net->layout.head_units[h], col = net->head_column[h];
        const float *w = net->params + net->head_kernel[h];
        for (int i = 0; i < last; i++)
            memcpy(net->heads_kernel + (size_t)i * P + col, w + (size_t)i * units,
                   (size_t)units * sizeof(float));
    }
}

static void activate(int kind, float *x, size_t n) {
    if (kind == VFL_TANH)
        vfln_tanh_all(x, n);
    else
        for (size_t k = 0; k < n; k++) x[k] = x[k] > 0 ? x[k] : 0;
}

/* A forward over sequences (vfl_forward_seq): n = T x B samples, time-major. */
typedef struct seq_args {
    int T, B;
    const uint8_t *starts;
    const float *h0;
    float *h_final;
} seq_args;

/* Every layer's activations for samples rows[0 .. n), and the heads' outputs (then zeros) in
 * layer layers + 1; a recurrent layer's steps as `seq` says. */
static int forward(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in,
                   const seq_args *seq) {
    if (reserve(net, n)) return VFL_ERR_MEMORY;
    const float *p = net->params;
    /* the sparse first layer: bias plus the kernel's rows of the nonzero inputs */
    int w1 = net->width[1];
    float *h = vfln_layer(net, net->act, 1);
    const float *k1 = p + net->kernel[0], *b1 = k1 + (size_t)net->width[0] * w1;
    int w16 = w1 / 16 * 16;
    for (int s = 0; s < n; s++) {
        int row = rows ? rows[s] : s;
        size_t at = first_feature(in, row);
        const int32_t *idx = in->idx + at;
        const float *val = in->val + at;
        int nnz = in->nnz[row];
        float *out = h + (size_t)s * w1;
        /* 16 units at a time stay in registers while the rows of the nonzero inputs add up */
        for (int u = 0; u < w16; u += 16) {
            v4 a0 = load4(b1 + u), a1 = load4(b1 + u + 4), a2 = load4(b1 + u + 8),
               a3 = load4(b1 + u + 12);
            for (int j = 0; j < nnz; j++) {
                const float *krow = k1 + (size_t)idx[j] * w1 + u;
                v4 x = splat(val[j]);
                a0 += x * load4(krow);
                a1 += x * load4(krow + 4);
                a2 += x * load4(krow + 8);
                a3 += x * load4(krow + 12);
            }
            store4(out + u, a0);
            store4(out + u + 4, a1);
            store4(out + u + 8, a2);
            store4(out + u + 12, a3);
        }
        for (int u = w16; u < w1; u++) {
            float a = b1[u];
            for (int j = 0; j < nnz; j++) a += val[j] * k1[(size_t)idx[j] * w1 + u];
            out[u] = a;
        }
    }
    activate(net->layout.kinds[0], h, (size_t)n * w1);
    for (int l = 2; l <= net->layers + 1; l++) {
        int from = net->width[l - 1];
        int heads = l > net->layers;
        int to = heads ? net->padded : net->width[l];
        if (l == net->recurrent) {
            net->cell->forward(net, l, seq->T, seq->B, seq->starts, seq->h0, seq->h_final);
            continue;
        }
        const float *prev = vfln_layer(net, net->act, l - 1);
        float *out = vfln_layer(net, net->act, l);
        const float *kernel, *bias;
        float heads_bias[VFL_MAX_OUTPUTS + 8];
        if (!heads) {
            kernel = p + net->kernel[l - 1];
            bias = kernel + (size_t)from * to;
        } else {
            fill_heads_kernel(net);
            kernel = net->heads_kernel;
            memset(heads_bias, 0, sizeof heads_bias);
            for (int hd = 0; hd < net->layout.heads; hd++) {
                int units = net->layout.head_units[hd];
                memcpy(heads_bias + net->head_column[hd],
                       p + net->head_kernel[hd] + (size_t)from * units,
                       (size_t)units * sizeof(float));
            }
            bias = heads_bias;
        }
        for (int s = 0; s < n; s++) memcpy(out + (size_t)s * to, bias, (size_t)to * sizeof(float));
        vfln_gemm(n, from, to, prev, from, 1, kernel, to, out, to);
        if (!heads) activate(net->layout.kinds[l - 1], out, (size_t)n * to);
    }
    net->last_n = n;
    return VFL_OK;
}

/* The heads' outputs of the last forward's n samples into out (n x outputs). */
static void write_outputs(const vfl_net *net, int n, float *out) {
    const float *heads = vfln_layer(net, net->act, net->layers + 1);
    for (int s = 0; s < n; s++)
        memcpy(out + (size_t)s * net->outputs, heads + (size_t)s * net->padded,
               (size_t)net->outputs * sizeof(float));
}

int vfl_forward(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in, float *out) {
    if (net->recurrent) return VFL_ERR_ARGUMENT; /* its samples are steps: vfl_forward_seq */
    int problem = check_inputs(net, n, rows, in);
    if (problem) return problem;
    if (n > 0 && forward(net, n, rows, in, NULL)) return VFL_ERR_MEMORY;
    net->last_n = n;
    net->last_t = -1;
    if (out && n > 0) write_outputs(net, n, out);
    return VFL_OK;
}

int vfl_forward_seq(vfl_net *net, int T, int B, const int32_t *rows, const vfl_inputs *in,
                    const uint8_t *starts, const float *h0, float *out, float *h_final) {
    if (!net->recurrent || T < 0 || B < 0 || (int64_t)T * B > VFL_MAX_BATCH)
        return VFL_ERR_ARGUMENT;
    int n = T * B;
    int problem = check_inputs(net, n, rows, in);
    if (problem) return problem;
    if (n == 0) { /* no step: each sequence's state is where it began */
        size_t state = (size_t)B * (size_t)vfl_state_size(net) * sizeof(float);
        if (h_final && state > 0) h0 ? memmove(h_final, h0, state) : memset(h_final, 0, state);
    } else {
        seq_args seq = {T, B, starts, h0, h_final};
        if (forward(net, n, rows, in, &seq)) return VFL_ERR_MEMORY;
    }
    net->last_n = n;
    net->last_t = T;
    if (out && n > 0) write_outputs(net, n, out);
    return VFL_OK;
}

int vfl_state_size(const vfl_net *net) {
    if (!net->recurrent) return 0;
    return net->cell->state * net->width[net->recurrent];
}

/* ---- backward ---------------------------------------------------------------------------- */

/* d activation / d pre-activation, from the activation y. */
static void derive(int kind, const float *y, float *d, size_t n) {
    if (kind == VFL_TANH)
        for (size_t k = 0; k < n; k++) d[k] *= 1 - y[k] * y[k];
    else
        for (size_t k = 0; k < n; k++) d[k] = y[k] > 0 ? d[k] : 0;
}

/* Dense layer l (layers + 1: the heads), from its delta: adds its kernel's and bias's
 * gradient, and writes layer l - 1's delta before that layer's activation's derivative. */
static void backward_dense(vfl_net *net, int l, int n) {
    const float *p = net->params;
    float *g = net->grads;
    int from = net->width[l - 1];
    int heads = l > net->layers;
    int to = heads ? net->padded : net->width[l];
    const float *prev = vfln_layer(net, net->act, l - 1);
    const float *d = vfln_layer(net, net->delta, l);
    /* bias: the column sums of d; kernel: prevᵀ d */
    float *kgrad = heads ? net->heads_grad : g + net->kernel[l - 1];
    if (heads) memset(net->heads_grad, 0, (size_t)from * to * sizeof(float));
    vfln_gemm(from, n, to, prev, 1, from, d, to, kgrad, to);
    if (!heads) {
        float *bgrad = kgrad + (size_t)from * to;
        for (int s = 0; s < n; s++)
            for (int u = 0; u < to; u++) bgrad[u] += d[(size_t)s * to + u];
    } else {
        for (int hd = 0; hd < net->layout.heads; hd++) {
            int units = net->layout.head_units[hd], col = net->head_column[hd];
            float *kg = g + net->head_kernel[hd], *bg = kg + (size_t)from * units;
            for (int i = 0; i < from; i++)
                for (int a = 0; a < units; a++)
                    kg[(size_t)i * units + a] += net->heads_grad[(size_t)i * to + col + a];
            for (int s = 0; s < n; s++)
                for (int a = 0; a < units; a++) bg[a] += d[(size_t)s * to + col + a];
        }
    }
    /* the previous layer's delta: d kernelᵀ */
    float *dprev = vfln_layer(net, net->delta, l - 1);
    const float *kernel = heads ? net->heads_kernel : p + net->kernel[l - 1];
    float *kt = heads ? net->heads_kernel_t : net->kernel_t;
    vfln_transpose(kernel, from, to, kt);
    memset(dprev, 0, (size_t)n * from * sizeof(float));
    vfln_gemm(n, to, from, d, to, 1, kt, from, dprev, from);
}

/* From the heads' gradient (delta of layer layers + 1) down to the first layer's kernel: adds
 * every parameter's gradient. */
static void backward(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in) {
    float *g = net->grads;
    int L = net->layers;
    for (int l = L + 1; l >= 2; l--) {
        int from = net->width[l - 1];
        const float *prev = vfln_layer(net, net->act, l - 1);
        float *dprev = vfln_layer(net, net->delta, l - 1);
        if (l == net->recurrent)
            net->cell->backward(net, l);
        else
            backward_dense(net, l, n);
        /* a recurrent layer's delta is the gradient at its outputs: its steps take it further */
        if (!vfln_is_recurrent(net->layout.kinds[l - 2]))
            derive(net->layout.kinds[l - 2], prev, dprev, (size_t)n * from);
    }
    /* the sparse first layer's kernel and bias */
    int w1 = net->width[1];
    const float *d1 = vfln_layer(net, net->delta, 1);
    float *k1 = g + net->kernel[0], *b1 = k1 + (size_t)net->width[0] * w1;
    for (int s = 0; s < n; s++) {
        int row = rows ? rows[s] : s;
        size_t at = first_feature(in, row);
        const int32_t *idx = in->idx + at;
        const float *val = in->val + at;
        const float *d = d1 + (size_t)s * w1;
        int nnz = in->nnz[row], w16 = w1 / 16 * 16;
        for (int u = 0; u < w16; u += 16) { /* 16 units of d stay in registers */
            v4 e0 = load4(d + u), e1 = load4(d + u + 4), e2 = load4(d + u + 8),
               e3 = load4(d + u + 12);
            for (int j = 0; j < nnz; j++) {
                float *krow = k1 + (size_t)idx[j] * w1 + u;
                v4 x = splat(val[j]);
                store4(krow, load4(krow) + x * e0);
                store4(krow + 4, load4(krow + 4) + x * e1);
                store4(krow + 8, load4(krow + 8) + x * e2);
                store4(krow + 12, load4(krow + 12) + x * e3);
            }
        }
        for (int j = 0; j < nnz; j++)
            for (int u = w16; u < w1; u++) k1[(size_t)idx[j] * w1 + u] += val[j] * d[u];
        for (int u = 0; u < w1; u++) b1[u] += d[u];
    }
}

/* Backward from dout, the gradient at the last forward's n outputs (checked by the caller). */
static int backward_from(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in,
                         const float *dout) {
    if (!dout) return VFL_ERR_ARGUMENT;
    int problem = check_inputs(net, n, rows, in);
    if (problem) return problem;
    if (n == 0) return VFL_OK;
    float *d = vfln_layer(net, net->delta, net->layers + 1);
    int O = net->outputs, P = net->padded;
    for (int s = 0; s < n; s++) {
        memcpy(d + (size_t)s * P, dout + (size_t)s * O, (size_t)O * sizeof(float));
        memset(d + (size_t)s * P + O, 0, (size_t)(P - O) * sizeof(float));
    }
    backward(net, n, rows, in);
    return VFL_OK;
}

int vfl_backward(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in,
                 const float *dout) {
    if (net->last_t != -1 || n != net->last_n) return VFL_ERR_ARGUMENT;
    return backward_from(net, n, rows, in, dout);
}

int vfl_backward_seq(vfl_net *net, int T, int B, const int32_t *rows, const vfl_inputs *in,
                     const float *dout) {
    if (T < 0 || B < 0 || T != net->last_t || (int64_t)T * B != net->last_n)
        return VFL_ERR_ARGUMENT;
    return backward_from(net, T * B, rows, in, dout);
}

/* ---- the policy of the logits ------------------------------------------------------------ */

int vfl_masked_softmax(const vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in,
                       const float *out, float *logp, float *p, float *entropy) {
    if (n < 0 || n > VFL_MAX_BATCH || !in || !in->masks || !out || !logp || !p)
        return VFL_ERR_ARGUMENT;
    int A = net->layout.head_units[0], O = net->outputs;
    for (int s = 0; s < n;
         s++) { /* every row sound, and with a legal action, before any is written */
        int row = rows ? rows[s] : s;
        if (row < 0 || row >= in->count) return VFL_ERR_ARGUMENT;
        int legal = 0;
        for (int a = 0; a < A; a++) legal |= in->masks[(size_t)row * A + a];
        if (!legal) return VFL_ERR_ARGUMENT;
    }
    for (int s = 0; s < n; s++) {
        int row = rows ? rows[s] : s;
        const float *z = out + (size_t)s * O;
        const uint8_t *mask = in->masks + (size_t)row * A;
        float *lp = logp + (size_t)s * A, *pr = p + (size_t)s * A;
        float max = -INFINITY;
        for (int a = 0; a < A; a++)
            if (mask[a] && z[a] > max) max = z[a];
        float sum = 0;
        for (int a = 0; a < A; a++) sum += pr[a] = mask[a] ? expf(z[a] - max) : 0;
        float log_sum = logf(sum), h = 0;
        for (int a = 0; a < A; a++) {
            if (!mask[a]) {
                lp[a] = -INFINITY;
                continue;
            }
            lp[a] = z[a] - max - log_sum;
            pr[a] /= sum;
            h -= pr[a] * lp[a];
        }
        if (entropy) entropy[s] = h;
    }
    return VFL_OK;
}

/* ---- the gradient and the optimisers ---------------------------------------------------- */

void vfl_zero_grad(vfl_net *net) {
    memset(net->grads, 0, (size_t)net->count * sizeof(float));
}

void vfl_add_grads(vfl_net *net, const float *other) {
    vfl_add_floats(net->grads, other, net->count);
}

void vfl_add_floats(float *to, const float *from, int count) {
    for (int k = 0; k < count; k++) to[k] += from[k];
}

double vfl_grad_norm(const vfl_net *net) {
    double sum = 0;
    for (int k = 0; k < net->count; k++) sum += (double)net->grads[k] * net->grads[k];
    return sqrt(sum);
}

void vfl_scale_grads(vfl_net *net, float factor) {
    for (int k = 0; k < net->count; k++) net->grads[k] *= factor;
}

void vfl_adam(vfl_net *net, float learning_rate) {
    const float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-7f;
    float c1 = 1 - net->acc_beta1, c2 = 1 - net->acc_beta2;
    float *m = net->moments, *v = net->moments + net->count;
    for (int k = 0; k < net->count; k++) {
        float gk = net->grads[k];
        m[k] = m[k] * beta1 + gk * (1 - beta1);
        v[k] = v[k] * beta2 + gk * gk * (1 - beta2);
        net->params[k] += (m[k] / c1) / (sqrtf(v[k] / c2) + eps) * -learning_rate;
    }
    if (net->adam_steps < INT32_MAX) net->adam_steps++;
    net->acc_beta1 *= beta1;
    net->acc_beta2 *= beta2;
}

void vfl_sgd(vfl_net *net, float learning_rate) {
    for (int k = 0; k < net->count; k++) net->params[k] -= learning_rate * net->grads[k];
}

int vfl_copy_params(vfl_net *to, const vfl_net *from) {
    if (memcmp(&to->layout, &from->layout, sizeof to->layout) != 0) return VFL_ERR_ARGUMENT;
    memcpy(to->params, from->params, (size_t)to->count * sizeof(float));
    return VFL_OK;
}
