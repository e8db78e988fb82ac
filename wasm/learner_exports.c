/* learner_exports.c — the learner module's WebAssembly face (wasm/learn/learner.wasm): the calls of
 * valley_farm_learn.h with plain 32-bit arguments, so wasm/learn/core.js passes pointers and
 * numbers instead of laying out structs in memory. Seeds travel as two 32-bit halves. */
#include "valley_farm_learn.h"

vfl_net *vflw_create(int inputs, int layers, const int32_t *hidden, int actions) {
    return vfl_create(inputs, layers, hidden, actions);
}

void vflw_init(vfl_net *net, uint32_t seed_lo, uint32_t seed_hi) {
    vfl_init(net, ((uint64_t)seed_hi << 32) | seed_lo);
}

int vflw_forward(vfl_net *net, int n, const int32_t *rows, const int32_t *idx, const float *val,
                 const int32_t *nnz, int stride, const uint32_t *start, float *logits,
                 float *values) {
    vfl_inputs in = {idx, val, nnz, stride, start};
    return vfl_forward(net, n, rows, &in, logits, values);
}

/* cloning 0: PPO's loss; 1: cloning's. */
int vflw_grad(vfl_net *net, int cloning, int n, const int32_t *rows, const int32_t *idx,
              const float *val, const int32_t *nnz, int stride, const uint32_t *start,
              const uint8_t *masks, const int32_t *actions, const float *old_logp,
              const float *advantages, const float *returns, float clip, float value_coef,
              float entropy_coef, float scale, double *sums) {
    vfl_inputs in = {idx, val, nnz, stride, start};
    vfl_batch b = {masks, actions, old_logp, advantages, returns};
    vfl_loss loss = {clip, value_coef, entropy_coef, scale};
    return cloning ? vfl_clone_grad(net, n, rows, &in, &b, &loss, sums)
                   : vfl_ppo_grad(net, n, rows, &in, &b, &loss, sums);
}
