/* test_learn.c — the learners' numeric core (valley_farm_learn.h): its gradients against
 * finite differences of its own loss, on small networks; Adam against a hand computation.
 * (tests/js/learn_core.test.js checks the same gradients against TensorFlow.js.) */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "valley_farm_learn.h"

enum { INPUTS = 11, ACTIONS = 5, SAMPLES = 9, STRIDE = 4 };

typedef struct {
    int32_t idx[SAMPLES * STRIDE];
    float val[SAMPLES * STRIDE];
    int32_t nnz[SAMPLES];
    uint8_t masks[SAMPLES * ACTIONS];
    int32_t actions[SAMPLES];
    float old_logp[SAMPLES], adv[SAMPLES], ret[SAMPLES];
} data;

/* A batch with one-hot and scaled inputs, some illegal actions, and old log-probabilities set
 * so that some ratios are clipped and some are not. */
static void make_data(vfl_net *net, data *d) {
    for (int s = 0; s < SAMPLES; s++) {
        d->nnz[s] = 1 + s % STRIDE;
        for (int j = 0; j < d->nnz[s]; j++) {
            d->idx[s * STRIDE + j] = (s * 3 + j * 4) % INPUTS;
            d->val[s * STRIDE + j] = j == 0 ? 1.0f : 0.25f * (float)(j + s % 3);
        }
        for (int a = 0; a < ACTIONS; a++)
            d->masks[s * ACTIONS + a] = (a + s) % 3 != 0 || a == s % ACTIONS;
        int act = s % ACTIONS;
        d->actions[s] = act;
        d->adv[s] = (s % 2 ? 1.0f : -0.7f) * (float)(1 + s % 3);
        d->ret[s] = 0.3f * (float)s - 1;
    }
    vfl_inputs in = {d->idx, d->val, d->nnz, STRIDE, NULL};
    float logits[SAMPLES * ACTIONS], values[SAMPLES];
    vfl_forward(net, SAMPLES, NULL, &in, logits, values);
    static const float shift[] = {0.05f, -0.05f, 0.6f, -0.6f, 0.1f, 0.0f, -0.3f, 0.3f, 0.02f};
    for (int s = 0; s < SAMPLES; s++) {
        const float *z = logits + s * ACTIONS;
        float max = -INFINITY, sum = 0;
        for (int a = 0; a < ACTIONS; a++)
            if (d->masks[s * ACTIONS + a] && z[a] > max) max = z[a];
        for (int a = 0; a < ACTIONS; a++)
            if (d->masks[s * ACTIONS + a]) sum += expf(z[a] - max);
        d->old_logp[s] = z[d->actions[s]] - max - logf(sum) + shift[s];
    }
}

static double loss_of(vfl_net *net, data *d, int cloning, const vfl_loss *loss) {
    vfl_inputs in = {d->idx, d->val, d->nnz, STRIDE, NULL};
    vfl_batch b = {d->masks, d->actions, d->old_logp, d->adv, d->ret};
    double sums[3] = {0, 0, 0};
    if (cloning)
        vfl_clone_grad(net, SAMPLES, NULL, &in, &b, loss, sums);
    else
        vfl_ppo_grad(net, SAMPLES, NULL, &in, &b, loss, sums);
    return loss->scale *
           (sums[0] + loss->value_coef * sums[1] - (cloning ? 0 : loss->entropy_coef * sums[2]));
}

/* Every parameter's gradient against a central difference of the loss. */
static void gradient_matches_differences(int layers, const int32_t *hidden, int cloning) {
    vfl_net *net = vfl_create(INPUTS, layers, hidden, ACTIONS);
    CHECK(net != NULL);
    if (!net) return;
    vfl_init(net, 7);
    float *p = vfl_params(net);
    for (int k = 0; k < vfl_param_count(net); k++) p[k] += 0.05f * sinf((float)k); /* biases too */
    data d;
    make_data(net, &d);
    vfl_loss loss = {0.2f, 0.5f, 0.05f, 1.0f / SAMPLES};
    vfl_zero_grad(net);
    loss_of(net, &d, cloning, &loss);
    int count = vfl_param_count(net);
    float *grad = malloc((size_t)count * sizeof(float));
    for (int k = 0; k < count; k++) grad[k] = vfl_grads(net)[k];
    int bad = 0;
    double largest = 0;
    for (int k = 0; k < count; k++) {
        float keep = p[k];
        const float h = 2e-3f;
        p[k] = keep + h;
        double up = loss_of(net, &d, cloning, &loss);
        p[k] = keep - h;
        double down = loss_of(net, &d, cloning, &loss);
        p[k] = keep;
        double fd = (up - down) / (2 * (double)h);
        if (fabs(fd - grad[k]) > 2e-3 + 0.02 * fabs(fd)) {
            if (bad++ < 5)
                printf("  parameter %d: gradient %g, difference %g\n", k, (double)grad[k], fd);
        }
        if (fabs(grad[k]) > largest) largest = fabs(grad[k]);
    }
    CHECK(bad == 0);
    CHECK(largest > 1e-3); /* the check compared something */
    free(grad);
    vfl_destroy(net);
}

TEST(ppo_gradient_matches_finite_differences_one_layer) {
    gradient_matches_differences(1, (int32_t[]){6}, 0);
}

TEST(ppo_gradient_matches_finite_differences_three_layers_of_odd_widths) {
    gradient_matches_differences(3, (int32_t[]){9, 5, 13}, 0);
}

TEST(cloning_gradient_matches_finite_differences) {
    gradient_matches_differences(2, (int32_t[]){8, 8}, 1);
}

TEST(forward_of_rows_equals_forward_of_those_samples_alone) {
    vfl_net *net = vfl_create(INPUTS, 2, (int32_t[]){12, 8}, ACTIONS);
    vfl_init(net, 3);
    data d;
    make_data(net, &d);
    vfl_inputs in = {d.idx, d.val, d.nnz, STRIDE, NULL};
    float all[SAMPLES * ACTIONS], values[SAMPLES];
    vfl_forward(net, SAMPLES, NULL, &in, all, values);
    int32_t rows[3] = {7, 2, 7};
    float some[3 * ACTIONS], some_values[3];
    vfl_forward(net, 3, rows, &in, some, some_values);
    for (int r = 0; r < 3; r++) {
        for (int a = 0; a < ACTIONS; a++)
            CHECK(fabsf(some[r * ACTIONS + a] - all[rows[r] * ACTIONS + a]) < 1e-6f);
        CHECK(fabsf(some_values[r] - values[rows[r]]) < 1e-6f);
    }
    vfl_destroy(net);
}

TEST(gradients_of_two_shares_add_up_to_the_whole_batch) {
    vfl_net *net = vfl_create(INPUTS, 2, (int32_t[]){8, 8}, ACTIONS);
    vfl_init(net, 5);
    data d;
    make_data(net, &d);
    vfl_inputs in = {d.idx, d.val, d.nnz, STRIDE, NULL};
    vfl_batch b = {d.masks, d.actions, d.old_logp, d.adv, d.ret};
    vfl_loss loss = {0.2f, 0.5f, 0.01f, 1.0f / SAMPLES};
    double sums[3] = {0, 0, 0};
    vfl_zero_grad(net);
    vfl_ppo_grad(net, SAMPLES, NULL, &in, &b, &loss, sums);
    int count = vfl_param_count(net);
    float *whole = malloc((size_t)count * sizeof(float));
    for (int k = 0; k < count; k++) whole[k] = vfl_grads(net)[k];
    vfl_zero_grad(net);
    int32_t first[4] = {0, 1, 2, 3}, second[5] = {4, 5, 6, 7, 8};
    vfl_ppo_grad(net, 4, first, &in, &b, &loss, sums);
    vfl_ppo_grad(net, 5, second, &in, &b, &loss, sums);
    int bad = 0;
    for (int k = 0; k < count; k++)
        bad += fabsf(vfl_grads(net)[k] - whole[k]) > 1e-6f + 1e-5f * fabsf(whole[k]);
    CHECK(bad == 0);
    free(whole);
    vfl_destroy(net);
}

/* Two workers, one network each, each the gradient of its share; each adds the other's
 * (vfl_add_grads): both then hold the whole batch's gradient, and the same bits (which PPO's
 * workers rely on: shards 0 and 1 each add the other's gradient to their own). */
TEST(two_workers_adding_each_others_gradients_hold_the_same_sum_of_the_whole_batch) {
    vfl_net *net[2] = {vfl_create(INPUTS, 2, (int32_t[]){8, 8}, ACTIONS),
                       vfl_create(INPUTS, 2, (int32_t[]){8, 8}, ACTIONS)};
    vfl_init(net[0], 5);
    vfl_init(net[1], 5);
    data d;
    make_data(net[0], &d);
    vfl_inputs in = {d.idx, d.val, d.nnz, STRIDE, NULL};
    vfl_batch b = {d.masks, d.actions, d.old_logp, d.adv, d.ret};
    vfl_loss loss = {0.2f, 0.5f, 0.01f, 1.0f / SAMPLES};
    double sums[3] = {0, 0, 0};
    int count = vfl_param_count(net[0]);
    float *whole = malloc((size_t)count * sizeof(float));
    float *share[2] = {malloc((size_t)count * sizeof(float)),
                       malloc((size_t)count * sizeof(float))};
    vfl_zero_grad(net[0]);
    vfl_ppo_grad(net[0], SAMPLES, NULL, &in, &b, &loss, sums);
    for (int k = 0; k < count; k++) whole[k] = vfl_grads(net[0])[k];
    int32_t first[4] = {0, 1, 2, 3}, second[5] = {4, 5, 6, 7, 8};
    for (int w = 0; w < 2; w++) {
        vfl_zero_grad(net[w]);
        vfl_ppo_grad(net[w], w ? 5 : 4, w ? second : first, &in, &b, &loss, sums);
        for (int k = 0; k < count; k++) share[w][k] = vfl_grads(net[w])[k];
    }
    vfl_add_grads(net[0], share[1]);
    vfl_add_grads(net[1], share[0]);
    int differ = 0, far = 0, nonzero = 0;
    for (int k = 0; k < count; k++) {
        float g = vfl_grads(net[0])[k];
        differ += g != vfl_grads(net[1])[k] || g != share[0][k] + share[1][k];
        far += fabsf(g - whole[k]) > 1e-6f + 1e-5f * fabsf(whole[k]);
        nonzero += share[0][k] != 0 && share[1][k] != 0;
    }
    CHECK(differ == 0);
    CHECK(far == 0);
    CHECK(nonzero > count / 4); /* both shares reach most parameters: the sum is a real one */
    free(whole);
    free(share[0]);
    free(share[1]);
    vfl_destroy(net[0]);
    vfl_destroy(net[1]);
}

TEST(packed_inputs_give_the_same_bits_as_the_same_inputs_at_a_stride) {
    /* 20 units: the first layer's 16 at a time and the rest one by one both read the inputs */
    vfl_net *net = vfl_create(INPUTS, 2, (int32_t[]){20, 8}, ACTIONS);
    vfl_init(net, 9);
    data d;
    make_data(net, &d);
    /* the same samples end to end, in reverse order, so no sample is where its stride puts it */
    int32_t idx[SAMPLES * STRIDE];
    float val[SAMPLES * STRIDE];
    uint32_t start[SAMPLES];
    uint32_t at = 0;
    for (int s = SAMPLES - 1; s >= 0; s--) {
        start[s] = at;
        for (int j = 0; j < d.nnz[s]; j++, at++) {
            idx[at] = d.idx[s * STRIDE + j];
            val[at] = d.val[s * STRIDE + j];
        }
    }
    CHECK(at < SAMPLES * STRIDE);
    vfl_inputs strided = {d.idx, d.val, d.nnz, STRIDE, NULL}, packed = {idx, val, d.nnz, 0, start};
    float logits[2][SAMPLES * ACTIONS], values[2][SAMPLES];
    vfl_forward(net, SAMPLES, NULL, &strided, logits[0], values[0]);
    vfl_forward(net, SAMPLES, NULL, &packed, logits[1], values[1]);
    int differ = 0;
    for (int k = 0; k < SAMPLES * ACTIONS; k++) differ += logits[0][k] != logits[1][k];
    for (int s = 0; s < SAMPLES; s++) differ += values[0][s] != values[1][s];
    vfl_batch b = {d.masks, d.actions, d.old_logp, d.adv, d.ret};
    vfl_loss loss = {0.2f, 0.5f, 0.01f, 1.0f / SAMPLES};
    int count = vfl_param_count(net);
    float *grads = malloc((size_t)count * sizeof(float));
    int32_t rows[4] = {8, 0, 3, 3};
    for (int cloning = 0; cloning < 2; cloning++) {
        double sums[2][3] = {{0, 0, 0}, {0, 0, 0}};
        vfl_zero_grad(net);
        (cloning ? vfl_clone_grad : vfl_ppo_grad)(net, 4, rows, &strided, &b, &loss, sums[0]);
        for (int k = 0; k < count; k++) grads[k] = vfl_grads(net)[k];
        vfl_zero_grad(net);
        (cloning ? vfl_clone_grad : vfl_ppo_grad)(net, 4, rows, &packed, &b, &loss, sums[1]);
        for (int k = 0; k < count; k++) differ += grads[k] != vfl_grads(net)[k];
        for (int j = 0; j < 3; j++) differ += sums[0][j] != sums[1][j];
    }
    CHECK(differ == 0);
    free(grads);
    vfl_destroy(net);
}

TEST(adam_takes_tensorflow_js_step) {
    /* two steps by hand: m = 0.1 g, v = 0.001 g², step lr m/(1-0.9) / (sqrt(v/(1-0.999)) + 1e-7) */
    vfl_net *net = vfl_create(1, 1, (int32_t[]){1}, 1);
    int count = vfl_param_count(net);
    CHECK(count == 6); /* kernel, bias, logits kernel and bias, value kernel and bias */
    float *p = vfl_params(net);
    for (int k = 0; k < count; k++) p[k] = 1;
    vfl_zero_grad(net);
    vfl_grads(net)[0] = 0.5f;
    vfl_grads(net)[1] = -2.0f;
    vfl_adam(net, 0.1f);
    CHECK(fabsf(p[0] - (1 - 0.1f)) < 1e-5f); /* the first step is lr sign(g) */
    CHECK(fabsf(p[1] - (1 + 0.1f)) < 1e-5f);
    CHECK(p[2] == 1);
    vfl_grads(net)[0] = 0.25f;
    vfl_adam(net, 0.1f);
    double m = 0.9 * 0.05 + 0.1 * 0.25, v = 0.999 * 0.00025 + 0.001 * 0.0625;
    double step = 0.1 * (m / (1 - 0.81)) / (sqrt(v / (1 - 0.999 * 0.999)) + 1e-7);
    CHECK(fabs(p[0] - (0.9 - step)) < 1e-5);
    CHECK(vfl_adam_steps(net) == 2);
    vfl_destroy(net);
}

TEST(create_refuses_sizes_out_of_range) {
    CHECK(vfl_create(0, 1, (int32_t[]){4}, 3) == NULL);
    CHECK(vfl_create(4, 0, (int32_t[]){4}, 3) == NULL);
    CHECK(vfl_create(4, 1, (int32_t[]){VFL_MAX_UNITS + 1}, 3) == NULL);
    CHECK(vfl_create(4, 1, (int32_t[]){0}, 3) == NULL);
    CHECK(vfl_create(4, 1, (int32_t[]){4}, VFL_MAX_ACTIONS + 1) == NULL);
    CHECK(vfl_create(4, VFL_MAX_LAYERS + 1, (int32_t[]){4, 4, 4, 4, 4, 4, 4, 4, 4}, 3) == NULL);
}

TEST(init_is_the_same_for_the_same_seed_and_differs_for_another) {
    vfl_net *a = vfl_create(20, 2, (int32_t[]){16, 16}, 6),
            *b = vfl_create(20, 2, (int32_t[]){16, 16}, 6);
    vfl_init(a, 11);
    vfl_init(b, 11);
    int n = vfl_param_count(a), same = 1;
    for (int k = 0; k < n; k++) same &= vfl_params(a)[k] == vfl_params(b)[k];
    CHECK(same);
    vfl_init(b, 12);
    int differ = 0;
    for (int k = 0; k < n; k++) differ += vfl_params(a)[k] != vfl_params(b)[k];
    CHECK(differ > n / 2);
    /* Glorot: the first kernel within sqrt(6 / (in + out)) */
    float limit = sqrtf(6.0f / 36), largest = 0;
    for (int k = 0; k < 20 * 16; k++) largest = fmaxf(largest, fabsf(vfl_params(a)[k]));
    CHECK(largest <= limit && largest > 0.8f * limit);
    vfl_destroy(a);
    vfl_destroy(b);
}

int main(void) {
    RUN(ppo_gradient_matches_finite_differences_one_layer);
    RUN(ppo_gradient_matches_finite_differences_three_layers_of_odd_widths);
    RUN(cloning_gradient_matches_finite_differences);
    RUN(forward_of_rows_equals_forward_of_those_samples_alone);
    RUN(gradients_of_two_shares_add_up_to_the_whole_batch);
    RUN(two_workers_adding_each_others_gradients_hold_the_same_sum_of_the_whole_batch);
    RUN(packed_inputs_give_the_same_bits_as_the_same_inputs_at_a_stride);
    RUN(adam_takes_tensorflow_js_step);
    RUN(create_refuses_sizes_out_of_range);
    RUN(init_is_the_same_for_the_same_seed_and_differs_for_another);
    return check_summary();
}
