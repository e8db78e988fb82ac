/*
 * valley_farm_learn.h — the numeric core of valley-farm's neural learners: a policy and value
 * network, its gradients for PPO's loss and for cloning a teacher's actions, and Adam.
 *
 * It is the part of learning that multiplies numbers; what to multiply (rollouts, advantages,
 * minibatches, the order of updates) is the learner's, in wasm/learn/ppo.js. It builds natively
 * and into its own WebAssembly module (wasm/learn/learner.wasm, which the game page never
 * loads), with no dependency on the engine.
 *
 * The network: inputs -> hidden layers (tanh) -> two heads, the logits of the actions and
 * the value. Its parameters are one float array in the order and shapes a stack of dense
 * layers has (TensorFlow.js's, so saved policies are interchangeable): for each hidden layer
 * its kernel [in x out] (row-major) and bias [out], then the logits' kernel and bias, then
 * the value's kernel [last x 1] and bias [1].
 *
 * Inputs are sparse. An observation's features are mostly one-hot zeros (about 30 of 365 are
 * not, on ValleyFarm-v0), so a sample is a list of (index, value) pairs: sample s has nnz[s]
 * pairs at idx/val + s * stride, or packed, at idx/val + start[s] (vfl_inputs). The first
 * layer then costs nnz x units instead of inputs x units, forward and backward.
 *
 *     vfl_net *net = vfl_create(365, 2, (int32_t[]){64, 64}, 12);
 *     vfl_init(net, seed);                                  // or write vfl_params(net)
 *     vfl_forward(net, n, rows, &in, logits, values);       // acting, rollouts
 *     vfl_zero_grad(net);
 *     vfl_ppo_grad(net, b, rows, &in, &batch, &loss, sums); // accumulates d loss / d params
 *     vfl_adam(net, learning_rate);                         // one step from the gradient
 *     vfl_destroy(net);
 *
 * Data-parallel training (several workers, one network each): every worker accumulates the
 * gradient of its share of a minibatch, scaled by 1 / (the whole minibatch's size); every
 * worker adds the shares' gradients (vfl_add_grads, in worker order, so the sum does not depend
 * on timing) and takes the same Adam step, so the copies stay identical.
 *
 * Deterministic: the same calls on the same data give the same bits, natively and in
 * WebAssembly, for a given build.
 */
#ifndef VALLEY_FARM_LEARN_H
#define VALLEY_FARM_LEARN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most hidden layers and the widest layer a network may have (policies are checked
 * against these before a network is built). */
#define VFL_MAX_LAYERS  8
#define VFL_MAX_UNITS   4096
#define VFL_MAX_INPUTS  (1 << 20)
#define VFL_MAX_ACTIONS 64

typedef struct vfl_net vfl_net;

/* A network of these sizes, its parameters zero, or NULL if a size is out of range or memory
 * ran out. hidden: `layers` widths. The only functions that allocate are vfl_create and the
 * calls that meet a larger batch than any before (their scratch space grows once). */
vfl_net *vfl_create(int inputs, int layers, const int32_t *hidden, int actions);
void vfl_destroy(vfl_net *net);

/* The parameters (read and write), their count, and the gradient vfl_*_grad accumulates. */
float *vfl_params(vfl_net *net);
float *vfl_grads(vfl_net *net);
int vfl_param_count(const vfl_net *net);

/* Glorot-uniform hidden and value kernels, logits' kernel normal with deviation 0.01 (a
 * near-uniform first policy), zero biases; drawn from `seed` (SplitMix64). */
void vfl_init(vfl_net *net, uint64_t seed);

/* Where the samples are: sample s's nonzero features are idx/val[at .. at + nnz[s]) (indices
 * below `inputs`, each at most once), at = s * stride, or with `start` (not NULL) start[s].
 * A stride gives every sample the same room, which a rollout refills each time; start packs
 * samples of different sizes end to end, as demonstrations that are written once are kept
 * (the room of the most nonzero features a frame can have is 2-3 times what a frame has). */
typedef struct vfl_inputs {
    const int32_t *idx;
    const float *val;
    const int32_t *nnz;
    int stride;
    const uint32_t *start; /* NULL: the stride */
} vfl_inputs;

/* Logits (n x actions) and values (n) of samples rows[0 .. n) (rows NULL: 0 .. n). Returns 0,
 * or -1 if scratch space could not grow. */
int vfl_forward(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in, float *logits,
                float *values);

/* What each sample of a minibatch brings to the loss, indexed like the inputs (by row):
 * masks (actions per row, 1 legal / 0 illegal), the action taken, the log-probability it had
 * when taken (PPO), its advantage (PPO; already normalised) and its return. */
typedef struct vfl_batch {
    const uint8_t *masks;
    const int32_t *actions;
    const float *old_logp;
    const float *advantages;
    const float *returns;
} vfl_batch;

/* The loss's weights. scale multiplies every sample's term: 1 / (the whole minibatch's size),
 * of which a call may see only a share. */
typedef struct vfl_loss {
    float clip;         /* PPO's ratio clip ε */
    float value_coef;   /* weight of the squared error of the value */
    float entropy_coef; /* weight of the entropy bonus (PPO) */
    float scale;
} vfl_loss;

/* Adds to the gradient that of PPO's loss over samples rows[0 .. n):
 *   mean(−min(r A, clip(r, 1 ± ε) A)) + value_coef mean((v − R)²) − entropy_coef mean(H),
 * r = π(a) / π_old(a), π the softmax over the legal actions (illegal ones have probability 0).
 * sums[0..2] += the unscaled sums over these samples of the clipped objective's loss, of
 * (v − R)² and of the entropy (for reporting means). Returns 0, or -1 (no scratch space). */
int vfl_ppo_grad(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in,
                 const vfl_batch *batch, const vfl_loss *loss, double *sums);

/* The same for cloning a teacher: mean(−log π(a)) + value_coef mean((v − R)²); clip,
 * entropy_coef and old_logp, advantages are not read. sums[0] += cross-entropy,
 * sums[1] += squared error. */
int vfl_clone_grad(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in,
                   const vfl_batch *batch, const vfl_loss *loss, double *sums);

/* Sets the gradient to zero. */
void vfl_zero_grad(vfl_net *net);

/* Adds another copy's gradient (vfl_param_count floats) to this one's, element by element in
 * float: copies that add the same gradients in the same order hold the same bits. */
void vfl_add_grads(vfl_net *net, const float *other);

/* One Adam step (β1 0.9, β2 0.999, ε 1e-7: TensorFlow.js's defaults and update) from the
 * gradient; the moments and step count live in the net. */
void vfl_adam(vfl_net *net, float learning_rate);

/* Adam's state, to save and restore a run: 2 * vfl_param_count floats (first, then second
 * moments) and the number of steps taken. */
float *vfl_adam_moments(vfl_net *net);
int vfl_adam_steps(const vfl_net *net);
void vfl_set_adam_steps(vfl_net *net, int steps);

#ifdef __cplusplus
}
#endif

#endif
