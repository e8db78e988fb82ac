/*
 * internal.h — what the learner core's files share, and nothing public.
 *
 *   net.c   vfl_    the public API (valley_farm_learn.h): layouts, forward and backward layer
 *                   by layer, the optimisers; and vfln_, the kernels every file runs on (the
 *                   dense product, tanh, σ, the initialisers)
 *   gru.c   vfln_gru   the recurrent layer VFL_GRU: its row of the table of recurrent kinds
 *                      (vfln_cell): its steps forward over a sequence, backward through them,
 *                      its initial weights
 *   lstm.c  vfln_lstm  the recurrent layer VFL_LSTM: the same row
 */
#ifndef VFL_INTERNAL_H
#define VFL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "valley_farm_learn.h"

typedef struct vfln_cell vfln_cell; /* a recurrent layer kind (below) */

/* Four floats as one value: plain C that GCC and Clang make SSE natively and WebAssembly SIMD
 * under Emscripten (-msimd128). */
typedef float v4 __attribute__((vector_size(16)));

static inline v4 load4(const float *p) {
    v4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void store4(float *p, v4 v) {
    memcpy(p, &v, sizeof v);
}

static inline v4 splat(float x) {
    return (v4){x, x, x, x};
}

struct vfl_net {
    vfl_layout layout;
    int layers, outputs, padded;     /* padded: outputs rounded up to a multiple of 8 */
    int width[VFL_MAX_LAYERS + 1];   /* width[0] = inputs, width[l] = hidden layer l */
    int kernel[VFL_MAX_LAYERS];      /* offset of each hidden layer's kernel in params */
    int head_kernel[VFL_MAX_HEADS];  /* offset of each head's kernel in params */
    int head_column[VFL_MAX_HEADS];  /* where each head's outputs start in a sample's row */
    int recurrent;                   /* the recurrent layer's l (1 .. layers), 0: none */
    const vfln_cell *cell;           /* its kind's row (NULL: none) */
    int count;                       /* parameters */
    float *params, *grads, *moments; /* moments: Adam's first, then second */
    int adam_steps;
    float acc_beta1, acc_beta2; /* β^t, kept as TensorFlow.js keeps them */
    /* scratch for a batch of up to `capacity` samples */
    int capacity;
    int last_n;      /* samples of the last forward (backward's check) */
    int last_t;      /* the last forward's steps (vfl_forward_seq), -1: it was vfl_forward */
    float *act;      /* per layer l >= 1: capacity x width[l] activations, then the heads' */
    float *delta;    /* the same shapes: the loss's gradient by each layer's pre-activation */
    float *kernel_t; /* a dense kernel's transpose (backward) */
    float *heads_kernel, *heads_kernel_t; /* [last x padded], its transpose */
    float *heads_grad;                    /* [last x padded] */
    float *seq;      /* the recurrent layer's: capacity x cell->per_sample units */
    float *seq_t;    /* its kernels' transposes: its gates' units x max(its inputs, units) */
    uint8_t *starts; /* the last forward's episode starts, a byte a sample */
};

/* C[M x N] += op(A) B, row-major. op(A)[m][k] = A[m * am + k * ak]: (am, ak) = (lda, 1) for A,
 * (1, lda) for A transposed. B is [K x N] with row stride ldb, C has row stride ldc. Each
 * element of C adds its products in the order of k, whatever M: a row's result does not
 * depend on the rows beside it. */
void vfln_gemm(int M, int K, int N, const float *A, int am, int ak, const float *B, int ldb,
               float *C, int ldc);
void vfln_transpose(const float *src, int rows, int cols, float *dst);
void vfln_tanh_all(float *x, size_t n);
void vfln_glorot(float *w, int in, int out, uint64_t *s);
void vfln_normal(float *w, int count, double deviation, uint64_t *s);
/* Rows of w [rows x cols], rows <= cols, made orthonormal (Keras's orthogonal initializer). */
void vfln_orthonormal_rows(float *w, int rows, int cols);
/* x = σ(x), through vfln_tanh_all. */
void vfln_sigmoid_all(float *x, size_t n);
/* The end of recurrent layer l's backward through time, the same for both kinds: from the
 * gradient at the input's part of its gates (dgx) and at the state's part (dgh), n x G each (G
 * its gates' width; an LSTM's are one array), and hp, the states before each step (n x its
 * units), adds d/d its kernel [in x G] and recurrent kernel [U x G] and writes d/d its input,
 * layer l - 1's delta (before that layer's activation's derivative). Its biases are its own. */
void vfln_recurrent_grads(vfl_net *net, int l, int G, const float *dgx, const float *dgh,
                          const float *hp);

/* A recurrent layer kind: everything net.c asks of one, so that it asks once. gru.c defines
 * vfln_gru's row, lstm.c vfln_lstm's, each beside the code the row describes. */
struct vfln_cell {
    int gates;      /* G / U: its kernels are [in x G] and [U x G] */
    int per_sample; /* floats it keeps per sample for backward, in units (net->seq) */
    int state;      /* a sequence's state, in units: h (GRU); h, then c (LSTM) */
    /* Its parameters, from its input's width and its units. */
    int64_t (*param_count)(int64_t in, int64_t units);
    /* Layer l's initial weights, from the generator s. */
    void (*init)(vfl_net *net, int l, uint64_t *s);
    /* Layer l over n = T x B samples (time-major: sample t * B + b is step t of sequence b),
     * from layer l - 1's activations into its own, each sequence from h0 (B x its state; NULL:
     * zeros) and from zero where starts[s] is set (NULL: nowhere); h_final (NULL: not written)
     * gets each sequence's last state. Keeps what backward needs. */
    void (*forward)(vfl_net *net, int l, int T, int B, const uint8_t *starts, const float *h0,
                    float *h_final);
    /* Backward through the last forward's steps: from the gradient at layer l's outputs (its
     * delta) to its parameters' gradient and layer l - 1's delta (before that layer's
     * activation's derivative), truncated at the first step and at every episode start. */
    void (*backward)(vfl_net *net, int l);
};

extern const vfln_cell vfln_gru, vfln_lstm;

/* The row of a layer kind, NULL for a dense one (VFL_TANH, VFL_RELU). */
static inline const vfln_cell *vfln_cell_of(int kind) {
    return kind == VFL_GRU ? &vfln_gru : kind == VFL_LSTM ? &vfln_lstm : NULL;
}

static inline int vfln_is_recurrent(int kind) {
    return vfln_cell_of(kind) != NULL;
}

/* Layer l's activations (l = 1 .. layers; layers + 1: the heads) in act or delta. */
float *vfln_layer(const vfl_net *net, float *base, int l);

#endif
