/*
 * valley_farm_learn.h — the numeric core of valley-farm's neural learners: a network's forward
 * pass, its backward pass from the gradient at its outputs, and the optimisers. It knows no
 * algorithm: what the outputs mean (the logits of the actions and a value, or one Q-value per
 * action) and which loss they serve are the learner's. A learner (wasm/learn/ppo.js, dqn.js,
 * reinforce.js) runs forward, computes d loss / d outputs itself, in its own file beside the
 * advantages or targets that feed it, and hands that back to backward, which adds d loss /
 * d parameters to the gradient. Then an optimiser step.
 *
 * It builds natively and into its own WebAssembly module (wasm/learn/learner.wasm, which the
 * game page never loads), with no dependency on the engine.
 *
 * The network: sparse inputs -> hidden layers (dense, each tanh or ReLU; and at most one
 * recurrent layer, VFL_GRU or VFL_LSTM, anywhere but first) -> heads (linear), side by side on
 * the last hidden layer. Its parameters are one float array in the order and shapes a stack of
 * Keras (or TensorFlow.js) layers has, so saved policies stay interchangeable: for each dense
 * hidden layer its kernel [in x out] (row-major) and bias [out]; for a GRU of U units its
 * kernel [in x 3U], recurrent kernel [U x 3U] and biases [2 x 3U] (Keras's GRU with
 * reset_after: the gates z, r, n side by side; core/learn/gru.c has the equations), for an
 * LSTM its kernel [in x 4U], recurrent kernel [U x 4U] and bias [4U] (Keras's LSTM: the gates
 * i, f, c, o side by side; core/learn/lstm.c); then for each head its kernel [last x units]
 * and bias [units]. A forward pass writes, for each sample, the heads' outputs side by side:
 * an actor-critic's row is its logits then its value (heads {actions, 1}).
 *
 * Inputs are sparse. An observation's features are mostly one-hot zeros (about 30 of 365 are
 * not, on ValleyFarm-v0), so a sample is a list of (index, value) pairs: sample s has nnz[s]
 * pairs at idx/val + s * stride, or packed, at idx/val + start[s] (vfl_inputs). The first
 * layer then costs nnz x units instead of inputs x units, forward and backward.
 *
 *     vfl_layout shape = {.inputs = 365, .layers = 2, .units = {64, 64},
 *                         .kinds = {VFL_TANH, VFL_TANH}, .heads = 2, .head_units = {12, 1},
 *                         .head_init = {0.01f, 0}};
 *     vfl_net *net = vfl_create(&shape);                 // NULL: vfl_layout_problem says why
 *     vfl_init(net, seed);                               // or write vfl_params(net)
 *     vfl_forward(net, n, rows, &in, out);               // out: n x vfl_outputs(net)
 *     ...                                                // the learner: dout = d loss / d out
 *     vfl_zero_grad(net);
 *     vfl_backward(net, n, rows, &in, dout);             // adds d loss / d params
 *     vfl_adam(net, learning_rate);                      // one step from the gradient
 *     vfl_destroy(net);
 *
 * A network with a recurrent layer reads its samples as steps of sequences, each sequence
 * with a state (a GRU's U floats, an LSTM's 2U: its h and c) that a step takes and gives to
 * the next: vfl_forward_seq and vfl_backward_seq instead of vfl_forward and vfl_backward
 * (which refuse it), over T steps of B sequences, time-major (sample t * B + b is step t of
 * sequence b).
 *
 *     sparse inputs -> dense (tanh) -> ... -> GRU or LSTM (U) -> ... -> heads
 *     vfl_forward_seq(net, T, B, rows, &in, starts, h0, out, h_final);
 *     vfl_backward_seq(net, T, B, rows, &in, dout);      // through time, within the chunk
 *
 * Data-parallel training (several shards of a minibatch, on any number of threads): each
 * shard's gradient is computed alone (zero, forward, backward) and the shards' gradients are
 * added in a fixed order (vfl_add_grads), so the sum, and every copy's Adam step, does not
 * depend on which thread computed what or when.
 *
 * Deterministic: the same calls on the same data give the same bits, natively and in
 * WebAssembly, for a given build; a sample's outputs do not depend on the other rows of its
 * batch. Every call checks what it is given and refuses, changing nothing, what is out of
 * range (an error below); none allocates but vfl_create and the first call to meet a larger
 * batch than any before (its scratch space grows once).
 */
#ifndef VALLEY_FARM_LEARN_H
#define VALLEY_FARM_LEARN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a network may have (vfl_layout_problem refuses more; a learner's settings and a saved
 * policy are checked against tighter limits in JS before a network is built). */
#define VFL_MAX_LAYERS  8
#define VFL_MAX_UNITS   4096
#define VFL_MAX_INPUTS  (1 << 20)
#define VFL_MAX_HEADS   4
#define VFL_MAX_OUTPUTS 64        /* the heads' units together */
#define VFL_MAX_PARAMS  (1 << 26) /* 256 MB of floats */
#define VFL_MAX_BATCH   (1 << 20) /* samples in one call */

/* What a hidden layer does: its weighted sum through tanh or ReLU, or a recurrent layer of
 * `units`, VFL_GRU (a gated recurrent unit) or VFL_LSTM (a long short-term memory); at most
 * one recurrent layer a network, and not the first layer. */
enum { VFL_TANH = 0, VFL_RELU = 1, VFL_GRU = 2, VFL_LSTM = 3 };

/* The results of the calls that can fail (0: done). */
enum {
    VFL_OK = 0,
    VFL_ERR_MEMORY = -1,   /* scratch space could not grow */
    VFL_ERR_ARGUMENT = -2, /* a size, a row or an index out of range: nothing was changed */
};

/* A network's shape. head_init[h]: 0 draws head h's kernel Glorot-uniform; d > 0 draws it
 * normal with deviation d (a policy's logits start near uniform with 0.01). */
typedef struct vfl_layout {
    int32_t inputs;
    int32_t layers;
    int32_t units[VFL_MAX_LAYERS];
    int32_t kinds[VFL_MAX_LAYERS]; /* VFL_TANH, VFL_RELU, VFL_GRU or VFL_LSTM */
    int32_t heads;
    int32_t head_units[VFL_MAX_HEADS];
    float head_init[VFL_MAX_HEADS];
} vfl_layout;

typedef struct vfl_net vfl_net;

/* NULL if the layout can be built, else what is wrong with it, in words. */
const char *vfl_layout_problem(const vfl_layout *layout);

/* A network of this layout, its parameters zero; NULL if vfl_layout_problem names a problem
 * or memory ran out. */
vfl_net *vfl_create(const vfl_layout *layout);
void vfl_destroy(vfl_net *net);

/* The parameters (read and write), their count, the outputs a sample has (the heads' units
 * together), and the gradient backward adds up. */
float *vfl_params(vfl_net *net);
float *vfl_grads(vfl_net *net);
int vfl_param_count(const vfl_net *net);
int vfl_outputs(const vfl_net *net);

/* Glorot-uniform hidden kernels (a recurrent layer's recurrent kernel orthogonal, as Keras
 * draws it), each head's kernel as its head_init says, zero biases; drawn from `seed`
 * (SplitMix64), layer by layer then head by head. Resets Adam's state. */
void vfl_init(vfl_net *net, uint64_t seed);

/* Where the samples are: sample s's nonzero features are idx/val[at .. at + nnz[s]) (indices
 * below the network's inputs, each at most once), at = s * stride, or with `start` (not NULL)
 * start[s]. A stride gives every sample the same room, which a rollout refills each time;
 * start packs samples of different sizes end to end, as demonstrations written once are kept.
 * count and pairs say how many samples and (index, value) pairs there are, so that a row, a
 * count or an index from the caller is checked before it is read. masks, where a learner reads
 * a policy (vfl_masked_softmax), holds each sample's legal actions. */
typedef struct vfl_inputs {
    const int32_t *idx;
    const float *val;
    const int32_t *nnz;
    int32_t stride;
    const uint32_t *start; /* NULL: the stride */
    int32_t count;         /* samples: rows are below it */
    uint32_t pairs;        /* (index, value) pairs in idx and val */
    const uint8_t *masks;  /* NULL, or the first head's units a sample: 1 legal, 0 not */
} vfl_inputs;

/* The outputs (n x vfl_outputs) of samples rows[0 .. n) (rows NULL: 0 .. n) into out (NULL:
 * not written), and what backward needs kept in the network until the next forward.
 * VFL_ERR_ARGUMENT for a network with a recurrent layer (vfl_forward_seq). */
int vfl_forward(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in, float *out);

/* Adds to the gradient d loss / d params of the samples of the last forward, given
 * dout = d loss / d out (n x vfl_outputs, as forward wrote out). n, rows and in must be the
 * last forward's (n is checked, and that it was vfl_forward: VFL_ERR_ARGUMENT otherwise). */
int vfl_backward(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in, const float *dout);

/* A network with a recurrent layer: the floats of a sequence's state (a GRU's units; an LSTM's
 * twice its units, h then c), else 0. */
int vfl_state_size(const vfl_net *net);

/* Forward over T steps of B sequences, n = T x B samples rows[0 .. n) (rows NULL: 0 .. n),
 * time-major: sample t * B + b is step t of sequence b. Sequence b starts from state
 * h0[b * S ..] (S = vfl_state_size; h0 NULL: zeros), except that where starts[s] is not 0
 * (starts: a byte a sample, NULL: none) an episode starts at sample s and the state before it
 * is 0. Writes the outputs of every sample (n x vfl_outputs, NULL: not written) and each
 * sequence's state after its last step into h_final (B x S, NULL: not written; it may be h0;
 * with T = 0, h0 itself), and keeps what backward needs until the next forward. A sequence's
 * outputs and state do not depend on the other sequences of the call. VFL_ERR_ARGUMENT for a
 * network without a recurrent layer, T or B below 0, T x B above VFL_MAX_BATCH, or inputs
 * that vfl_forward would refuse. */
int vfl_forward_seq(vfl_net *net, int T, int B, const int32_t *rows, const vfl_inputs *in,
                    const uint8_t *starts, const float *h0, float *out, float *h_final);

/* vfl_backward for the last forward, a vfl_forward_seq of T steps of B sequences (checked),
 * through time: each step's state gets the gradient its outputs send and the next step's
 * state sends back, truncated at the chunk's first step (h0 is taken as given) and at every
 * episode start within it (the state before it was 0). */
int vfl_backward_seq(vfl_net *net, int T, int B, const int32_t *rows, const vfl_inputs *in,
                     const float *dout);

/* The policy the first head's outputs give, as every learner that reads logits reads it: for
 * samples rows[0 .. n) (rows NULL: 0 .. n) of `out` (their outputs, n x vfl_outputs, as
 * forward wrote them), the softmax over the legal actions of the first head's units (in's
 * masks, by row), log π into logp and π into p (n x units; an illegal action gets −INFINITY
 * and exactly 0), and each sample's entropy (NULL: not written). An op the losses use, not a
 * loss: it adds nothing to the gradient. VFL_ERR_ARGUMENT, writing nothing, for a row out of
 * the inputs' count, no masks, or a row with no legal action. */
int vfl_masked_softmax(const vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in,
                       const float *out, float *logp, float *p, float *entropy);

/* Sets the gradient to zero. */
void vfl_zero_grad(vfl_net *net);

/* Adds another copy's gradient (vfl_param_count floats) to this one's, element by element in
 * float: copies that add the same gradients in the same order hold the same bits. */
void vfl_add_grads(vfl_net *net, const float *other);

/* to[k] += from[k] for k < count, in float: how data-parallel training adds kept gradients
 * (shards' or their partial sums) in a fixed order. */
void vfl_add_floats(float *to, const float *from, int count);

/* The gradient's Euclidean norm (summed in double, in parameter order), and the gradient
 * times `factor` (for clipping the norm). */
double vfl_grad_norm(const vfl_net *net);
void vfl_scale_grads(vfl_net *net, float factor);

/* One step from the gradient: Adam (β1 0.9, β2 0.999, ε 1e-7: TensorFlow.js's defaults and
 * update; its moments and step count live in the net), or plain gradient descent. */
void vfl_adam(vfl_net *net, float learning_rate);
void vfl_sgd(vfl_net *net, float learning_rate);

/* Copies another network's parameters into this one (a DQN's target network); VFL_ERR_ARGUMENT
 * unless the two have the same layout. */
int vfl_copy_params(vfl_net *to, const vfl_net *from);

/* Adam's state, to save and restore a run: 2 * vfl_param_count floats (first, then second
 * moments) and the number of steps taken (from 0 to INT32_MAX; setting it takes at most about
 * 10^5 multiplications, after which β^t no longer changes in float). */
float *vfl_adam_moments(vfl_net *net);
int vfl_adam_steps(const vfl_net *net);
void vfl_set_adam_steps(vfl_net *net, int steps);

#ifdef __cplusplus
}
#endif

#endif
