/* net.c — the learners' network (valley_farm_learn.h): forward, the gradients of PPO's loss
 * and of cloning, Adam.
 *
 * A minibatch goes through layer by layer, as matrices of one sample a row, so that every
 * dense product is one kernel (gemm below) that keeps a 4 x 8 block of its result in
 * registers: written in plain C with GCC/Clang vector types, it becomes SSE natively and
 * WebAssembly SIMD under Emscripten. The first layer is sparse (see the header). The two
 * heads run as one product with a [last x heads] kernel: the logits' columns, the value's,
 * then zeros up to a multiple of 8. */
#include "valley_farm_learn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef float v4 __attribute__((vector_size(16)));

static v4 load4(const float *p) {
    v4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static void store4(float *p, v4 v) {
    memcpy(p, &v, sizeof v);
}

static v4 splat(float x) {
    return (v4){x, x, x, x};
}

struct vfl_net {
    int inputs, layers, actions, heads; /* heads: actions + 1 rounded up to a multiple of 8 */
    int width[VFL_MAX_LAYERS + 1];      /* width[0] = inputs, width[l] = hidden layer l */
    int kernel[VFL_MAX_LAYERS + 2];     /* offset of each layer's kernel in params; then
                                           [layers] the logits', [layers + 1] the value's */
    int count;                          /* parameters */
    float *params, *grads, *moments;    /* moments: Adam's first, then second */
    int adam_steps;
    float acc_beta1, acc_beta2; /* β^t, kept as TensorFlow.js keeps them */
    /* scratch for a batch of up to `capacity` samples */
    int capacity;
    float *act;   /* per layer l >= 1: capacity x width[l] activations, then the heads' */
    float *delta; /* the same shapes: the loss's gradient by each layer's pre-activation */
    float *head_kernel, *head_kernel_t, *kernel_t; /* [last x heads], its transpose, scratch */
    float *head_grad;                              /* [last x heads] */
};

static int bias_of(const vfl_net *net, int l) {
    return net->kernel[l] + (l < net->layers
                                 ? net->width[l] * net->width[l + 1]
                                 : net->width[net->layers] * (l == net->layers ? net->actions : 1));
}

vfl_net *vfl_create(int inputs, int layers, const int32_t *hidden, int actions) {
    if (inputs < 1 || inputs > VFL_MAX_INPUTS || layers < 1 || layers > VFL_MAX_LAYERS ||
        actions < 1 || actions > VFL_MAX_ACTIONS || !hidden)
        return NULL;
    for (int l = 0; l < layers; l++)
        if (hidden[l] < 1 || hidden[l] > VFL_MAX_UNITS) return NULL;
    vfl_net *net = calloc(1, sizeof *net);
    if (!net) return NULL;
    net->inputs = inputs;
    net->layers = layers;
    net->actions = actions;
    net->heads = (actions + 1 + 7) / 8 * 8;
    net->width[0] = inputs;
    int at = 0;
    for (int l = 0; l < layers; l++) {
        net->width[l + 1] = hidden[l];
        net->kernel[l] = at;
        at += net->width[l] * hidden[l] + hidden[l];
    }
    int last = hidden[layers - 1];
    net->kernel[layers] = at;
    at += last * actions + actions;
    net->kernel[layers + 1] = at;
    at += last + 1;
    net->count = at;
    net->params = calloc((size_t)at, sizeof(float));
    net->grads = calloc((size_t)at, sizeof(float));
    net->moments = calloc(2 * (size_t)at, sizeof(float));
    net->head_kernel = calloc((size_t)last * (size_t)net->heads, sizeof(float));
    net->head_kernel_t = calloc((size_t)last * (size_t)net->heads, sizeof(float));
    net->head_grad = calloc((size_t)last * (size_t)net->heads, sizeof(float));
    int widest = 0;
    for (int l = 1; l <= layers; l++)
        if (net->width[l] > widest) widest = net->width[l];
    if (net->heads > widest) widest = net->heads;
    net->kernel_t = calloc((size_t)widest * (size_t)widest, sizeof(float));
    net->acc_beta1 = 0.9f;
    net->acc_beta2 = 0.999f;
    if (!net->params || !net->grads || !net->moments || !net->head_kernel || !net->head_kernel_t ||
        !net->head_grad || !net->kernel_t) {
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
    free(net->head_kernel);
    free(net->head_kernel_t);
    free(net->kernel_t);
    free(net->head_grad);
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

float *vfl_adam_moments(vfl_net *net) {
    return net->moments;
}

int vfl_adam_steps(const vfl_net *net) {
    return net->adam_steps;
}

void vfl_set_adam_steps(vfl_net *net, int steps) {
    net->adam_steps = steps;
    net->acc_beta1 = 0.9f;
    net->acc_beta2 = 0.999f;
    for (int t = 0; t < steps; t++) {
        net->acc_beta1 *= 0.9f;
        net->acc_beta2 *= 0.999f;
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

static void glorot(float *w, int in, int out, uint64_t *s) {
    double limit = sqrt(6.0 / (in + out));
    for (int k = 0; k < in * out; k++) w[k] = (float)((2 * uniform01(s) - 1) * limit);
}

void vfl_init(vfl_net *net, uint64_t seed) {
    uint64_t s = seed;
    memset(net->params, 0, (size_t)net->count * sizeof(float));
    for (int l = 0; l < net->layers; l++)
        glorot(net->params + net->kernel[l], net->width[l], net->width[l + 1], &s);
    int last = net->width[net->layers];
    float *logits = net->params + net->kernel[net->layers];
    for (int k = 0; k < last * net->actions; k += 2) { /* Box-Muller, deviation 0.01 */
        double u1 = uniform01(&s), u2 = uniform01(&s);
        double r = sqrt(-2 * log(1 - u1)) * 0.01;
        logits[k] = (float)(r * cos(6.283185307179586 * u2));
        if (k + 1 < last * net->actions) logits[k + 1] = (float)(r * sin(6.283185307179586 * u2));
    }
    glorot(net->params + net->kernel[net->layers + 1], last, 1, &s);
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

static void tanh_all(float *x, size_t n) {
    size_t k = 0;
    for (; k + 4 <= n; k += 4) store4(x + k, tanh4(load4(x + k)));
    if (k < n) { /* the last few, through a padded vector */
        float tail[4] = {0, 0, 0, 0};
        memcpy(tail, x + k, (n - k) * sizeof(float));
        store4(tail, tanh4(load4(tail)));
        memcpy(x + k, tail, (n - k) * sizeof(float));
    }
}

/* ---- the dense product --------------------------------------------------------------- */

/* C[M x N] += op(A) B, row-major. op(A)[m][k] = A[m * am + k * ak]: (am, ak) = (lda, 1) for A,
 * (1, lda) for A transposed. B is [K x N] with row stride ldb, C has row stride ldc. */
static void gemm(int M, int K, int N, const float *A, int am, int ak, const float *B, int ldb,
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
    for (; m < M; m++) { /* the rows past the last 4 */
        const float *a = A + (size_t)m * am;
        float *c = C + (size_t)m * ldc;
        for (int k = 0; k < K; k++) {
            float x = a[(size_t)k * ak];
            const float *b = B + (size_t)k * ldb;
            for (int n = 0; n < N; n++) c[n] += x * b[n];
        }
    }
}

static void transpose(const float *src, int rows, int cols, float *dst) {
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) dst[(size_t)c * rows + r] = src[(size_t)r * cols + c];
}

/* ---- forward --------------------------------------------------------------------------- */

static int reserve(vfl_net *net, int n) {
    if (n <= net->capacity) return 0;
    size_t per = 0;
    for (int l = 1; l <= net->layers; l++) per += (size_t)net->width[l];
    per += (size_t)net->heads;
    float *act = realloc(net->act, (size_t)n * per * sizeof(float));
    if (!act) return -1;
    net->act = act;
    float *delta = realloc(net->delta, (size_t)n * per * sizeof(float));
    if (!delta) return -1;
    net->delta = delta;
    net->capacity = n;
    return 0;
}

/* Layer l's activations (l = 1 .. layers; layers + 1: the heads) in act or delta. */
static float *layer(const vfl_net *net, float *base, int l) {
    size_t at = 0;
    for (int k = 1; k < l; k++) at += (size_t)net->width[k];
    return base + at * (size_t)net->capacity;
}

static void fill_head_kernel(vfl_net *net) {
    int last = net->width[net->layers], A = net->actions, H = net->heads;
    const float *logits = net->params + net->kernel[net->layers];
    const float *value = net->params + net->kernel[net->layers + 1];
    for (int i = 0; i < last; i++) {
        float *row = net->head_kernel + (size_t)i * H;
        memcpy(row, logits + (size_t)i * A, (size_t)A * sizeof(float));
        row[A] = value[i];
        for (int h = A + 1; h < H; h++) row[h] = 0;
    }
}

/* Where sample `row`'s nonzero features begin in idx and val (vfl_inputs). */
static size_t first_feature(const vfl_inputs *in, int row) {
    return in->start ? in->start[row] : (size_t)row * (size_t)in->stride;
}

/* Every layer's activations for samples rows[0 .. n), and the heads' outputs (logits, value,
 * padding) in layer layers + 1. */
static int forward(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in) {
    if (reserve(net, n)) return -1;
    const float *p = net->params;
    /* the sparse first layer: bias plus the kernel's rows of the nonzero inputs */
    int w1 = net->width[1];
    float *h = layer(net, net->act, 1);
    const float *k1 = p + net->kernel[0], *b1 = p + bias_of(net, 0);
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
    tanh_all(h, (size_t)n * w1);
    for (int l = 2; l <= net->layers + 1; l++) {
        int from = net->width[l - 1];
        int to = l <= net->layers ? net->width[l] : net->heads;
        const float *prev = layer(net, net->act, l - 1);
        float *out = layer(net, net->act, l);
        const float *kernel, *bias;
        float head_bias[VFL_MAX_ACTIONS + 8];
        if (l <= net->layers) {
            kernel = p + net->kernel[l - 1];
            bias = p + bias_of(net, l - 1);
        } else {
            fill_head_kernel(net);
            kernel = net->head_kernel;
            memcpy(head_bias, p + bias_of(net, net->layers), (size_t)net->actions * sizeof(float));
            head_bias[net->actions] = p[bias_of(net, net->layers + 1)];
            for (int k = net->actions + 1; k < to; k++) head_bias[k] = 0;
            bias = head_bias;
        }
        for (int s = 0; s < n; s++) memcpy(out + (size_t)s * to, bias, (size_t)to * sizeof(float));
        gemm(n, from, to, prev, from, 1, kernel, to, out, to);
        if (l <= net->layers) tanh_all(out, (size_t)n * to);
    }
    return 0;
}

int vfl_forward(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in, float *logits,
                float *values) {
    if (forward(net, n, rows, in)) return -1;
    const float *heads = layer(net, net->act, net->layers + 1);
    for (int s = 0; s < n; s++) {
        const float *o = heads + (size_t)s * net->heads;
        if (logits)
            memcpy(logits + (size_t)s * net->actions, o, (size_t)net->actions * sizeof(float));
        if (values) values[s] = o[net->actions];
    }
    return 0;
}

/* ---- backward ---------------------------------------------------------------------------- */

/* From the heads' gradient (delta of layer layers + 1, filled by the loss) down to the first
 * layer's kernel: adds every parameter's gradient. */
static void backward(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in) {
    const float *p = net->params;
    float *g = net->grads;
    int L = net->layers;
    for (int l = L + 1; l >= 2; l--) {
        int from = net->width[l - 1];
        int to = l <= L ? net->width[l] : net->heads;
        const float *prev = layer(net, net->act, l - 1);
        const float *d = layer(net, net->delta, l);
        /* bias: the column sums of d; kernel: prevᵀ d */
        float *kgrad = l <= L ? g + net->kernel[l - 1] : net->head_grad;
        if (l > L) memset(net->head_grad, 0, (size_t)from * to * sizeof(float));
        gemm(from, n, to, prev, 1, from, d, to, kgrad, to);
        if (l <= L) {
            float *bgrad = g + bias_of(net, l - 1);
            for (int s = 0; s < n; s++)
                for (int u = 0; u < to; u++) bgrad[u] += d[(size_t)s * to + u];
        } else {
            int A = net->actions;
            float *lk = g + net->kernel[L], *lb = g + bias_of(net, L);
            float *vk = g + net->kernel[L + 1], *vb = g + bias_of(net, L + 1);
            for (int i = 0; i < from; i++) {
                for (int a = 0; a < A; a++)
                    lk[(size_t)i * A + a] += net->head_grad[(size_t)i * to + a];
                vk[i] += net->head_grad[(size_t)i * to + A];
            }
            for (int s = 0; s < n; s++) {
                for (int a = 0; a < A; a++) lb[a] += d[(size_t)s * to + a];
                vb[0] += d[(size_t)s * to + A];
            }
        }
        /* the previous layer's delta: (d kernelᵀ) ⊙ tanh' */
        float *dprev = layer(net, net->delta, l - 1);
        const float *kernel = l <= L ? p + net->kernel[l - 1] : net->head_kernel;
        float *kt = l <= L ? net->kernel_t : net->head_kernel_t;
        transpose(kernel, from, to, kt);
        memset(dprev, 0, (size_t)n * from * sizeof(float));
        gemm(n, to, from, d, to, 1, kt, from, dprev, from);
        for (size_t k = 0; k < (size_t)n * from; k++) dprev[k] *= 1 - prev[k] * prev[k];
    }
    /* the sparse first layer's kernel and bias */
    int w1 = net->width[1];
    const float *d1 = layer(net, net->delta, 1);
    float *k1 = g + net->kernel[0], *b1 = g + bias_of(net, 0);
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

/* ---- the losses -------------------------------------------------------------------------- */

/* log π over the legal actions of one sample: logp[a] (illegal: -INFINITY), p[a] (0). */
static void masked_log_softmax(const float *z, const uint8_t *mask, int A, float *logp,
                               float *prob) {
    float max = -INFINITY;
    for (int a = 0; a < A; a++)
        if (mask[a] && z[a] > max) max = z[a];
    float sum = 0;
    for (int a = 0; a < A; a++) sum += mask[a] ? expf(z[a] - max) : 0;
    float lse = max + logf(sum);
    for (int a = 0; a < A; a++) {
        logp[a] = mask[a] ? z[a] - lse : -INFINITY;
        prob[a] = mask[a] ? expf(logp[a]) : 0;
    }
}

static int loss_grad(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in,
                     const vfl_batch *b, const vfl_loss *loss, double *sums, int cloning) {
    if (forward(net, n, rows, in)) return -1;
    int A = net->actions, H = net->heads;
    const float *heads = layer(net, net->act, net->layers + 1);
    float *d = layer(net, net->delta, net->layers + 1);
    float logp[VFL_MAX_ACTIONS], prob[VFL_MAX_ACTIONS];
    float scale = loss->scale;
    for (int s = 0; s < n; s++) {
        int row = rows ? rows[s] : s;
        const float *z = heads + (size_t)s * H;
        float *dz = d + (size_t)s * H;
        const uint8_t *mask = b->masks + (size_t)row * A;
        int act = b->actions[row];
        masked_log_softmax(z, mask, A, logp, prob);
        float g; /* d loss / d log π(act) */
        if (cloning) {
            sums[0] += -logp[act];
            g = -scale;
            for (int a = 0; a < A; a++) dz[a] = 0;
        } else {
            float adv = b->advantages[row];
            float ratio = expf(logp[act] - b->old_logp[row]);
            float clipped = fminf(fmaxf(ratio, 1 - loss->clip), 1 + loss->clip);
            float s1 = ratio * adv, s2 = clipped * adv;
            sums[0] += -fminf(s1, s2);
            /* min takes the unclipped term where it is the smaller (ties included), and the
             * clipped one is flat outside [1 − ε, 1 + ε] */
            g = s1 <= s2 ? -adv * ratio * scale : 0;
            float entropy = 0;
            for (int a = 0; a < A; a++)
                if (mask[a]) entropy -= prob[a] * logp[a];
            sums[2] += entropy;
            /* − entropy_coef H: dH/dz_a = −π(a) (log π(a) + H) */
            float e = loss->entropy_coef * scale;
            for (int a = 0; a < A; a++) dz[a] = mask[a] ? e * prob[a] * (logp[a] + entropy) : 0;
        }
        /* through the log-softmax: d log π(act) / dz_a = [a = act] − π(a) */
        for (int a = 0; a < A; a++)
            if (mask[a]) dz[a] += g * ((a == act) - prob[a]);
        float err = z[A] - b->returns[row];
        sums[1] += err * err;
        dz[A] = 2 * loss->value_coef * scale * err;
        for (int h = A + 1; h < H; h++) dz[h] = 0;
    }
    backward(net, n, rows, in);
    return 0;
}

int vfl_ppo_grad(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in,
                 const vfl_batch *batch, const vfl_loss *loss, double *sums) {
    return loss_grad(net, n, rows, in, batch, loss, sums, 0);
}

int vfl_clone_grad(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in,
                   const vfl_batch *batch, const vfl_loss *loss, double *sums) {
    return loss_grad(net, n, rows, in, batch, loss, sums, 1);
}

void vfl_zero_grad(vfl_net *net) {
    memset(net->grads, 0, (size_t)net->count * sizeof(float));
}

void vfl_add_grads(vfl_net *net, const float *other) {
    for (int k = 0; k < net->count; k++) net->grads[k] += other[k];
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
    net->adam_steps++;
    net->acc_beta1 *= beta1;
    net->acc_beta2 *= beta2;
}
