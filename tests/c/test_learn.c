/* test_learn.c — the learners' numeric core (valley_farm_learn.h): backward against finite
 * differences of the outputs for every layer kind and head layout, odd sizes, and through
 * time for the recurrent layer, with episodes starting inside the sequences; the sums of
 * shards; the boundary (sizes, rows, indices) refused without a change; Adam against a hand
 * computation. (tests/js/learn_core.test.js checks the learners' losses on top of it.) */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "valley_farm_learn.h"

enum { INPUTS = 11, SAMPLES = 9, STRIDE = 4, MAX_OUT = 16 };

typedef struct {
    int32_t idx[SAMPLES * STRIDE];
    float val[SAMPLES * STRIDE];
    int32_t nnz[SAMPLES];
} data;

/* One-hot and scaled inputs, 1 to STRIDE of them a sample. */
static void make_data(data *d) {
    for (int s = 0; s < SAMPLES; s++) {
        d->nnz[s] = 1 + s % STRIDE;
        for (int j = 0; j < d->nnz[s]; j++) {
            d->idx[s * STRIDE + j] = (s * 3 + j * 4) % INPUTS;
            d->val[s * STRIDE + j] = j == 0 ? 1.0f : 0.25f * (float)(j + s % 3);
        }
    }
}

static vfl_inputs strided(const data *d) {
    return (vfl_inputs){d->idx, d->val, d->nnz, STRIDE, NULL, SAMPLES, SAMPLES * STRIDE, NULL};
}

/* A layout of `layers` hidden layers of these units, all of one kind, and heads of these units
 * (the first one's kernel drawn normal, as a policy's logits are). */
static vfl_layout layout_of(int layers, const int32_t *units, int kind, int heads,
                            const int32_t *head_units) {
    vfl_layout l = {.inputs = INPUTS, .layers = layers, .heads = heads};
    for (int k = 0; k < layers; k++) {
        l.units[k] = units[k];
        l.kinds[k] = kind;
    }
    for (int h = 0; h < heads; h++) l.head_units[h] = head_units[h];
    l.head_init[0] = 0.01f;
    return l;
}

/* A loss of the outputs, quadratic so that its gradient depends on them:
 * Σ w[s, o] out[s, o] + 0.5 c[s, o] out[s, o]², and that gradient (w + c out) into dout. */
static double loss_of(vfl_net *net, const vfl_inputs *in, float *dout) {
    int O = vfl_outputs(net);
    float out[SAMPLES * MAX_OUT];
    CHECK(vfl_forward(net, SAMPLES, NULL, in, out) == VFL_OK);
    double loss = 0;
    for (int s = 0; s < SAMPLES; s++)
        for (int o = 0; o < O; o++) {
            double w = sin(1.7 * s + 0.9 * o), c = 0.5 + 0.1 * ((s + o) % 4);
            double y = out[s * O + o];
            loss += w * y + 0.5 * c * y * y;
            if (dout) dout[s * O + o] = (float)(w + c * y);
        }
    return loss;
}

/* The gradients backward left in net against a central difference of loss(net, ctx) in each
 * parameter: within 2e-3 + 2 % of the difference, and some gradient large enough that the
 * check compared something. */
static void gradients_match_differences(vfl_net *net, double (*loss)(vfl_net *, const void *),
                                        const void *ctx) {
    float *p = vfl_params(net);
    int count = vfl_param_count(net);
    float *grad = malloc((size_t)count * sizeof(float));
    CHECK(grad != NULL);
    if (!grad) return;
    for (int k = 0; k < count; k++) grad[k] = vfl_grads(net)[k];
    int bad = 0;
    double largest = 0;
    for (int k = 0; k < count; k++) {
        float keep = p[k];
        const float h = 1e-3f;
        p[k] = keep + h;
        double up = loss(net, ctx);
        p[k] = keep - h;
        double down = loss(net, ctx);
        p[k] = keep;
        double fd = (up - down) / (2 * (double)h);
        if (fabs(fd - grad[k]) > 2e-3 + 0.02 * fabs(fd)) {
            if (bad++ < 5)
                printf("  parameter %d: gradient %g, difference %g\n", k, (double)grad[k], fd);
        }
        if (fabs(grad[k]) > largest) largest = fabs(grad[k]);
    }
    CHECK(bad == 0);
    CHECK(largest > 1e-2); /* the check compared something */
    free(grad);
}

static double loss_at(vfl_net *net, const void *in) {
    return loss_of(net, in, NULL);
}

/* Every parameter's gradient (backward from the loss's gradient at the outputs) against a
 * central difference of the loss. */
static void backward_matches_differences(vfl_layout layout) {
    vfl_net *net = vfl_create(&layout);
    CHECK(net != NULL);
    if (!net) return;
    vfl_init(net, 7);
    float *p = vfl_params(net);
    int count = vfl_param_count(net);
    for (int k = 0; k < count; k++) p[k] += 0.05f * sinf((float)k); /* biases too */
    data d;
    make_data(&d);
    vfl_inputs in = strided(&d);
    float dout[SAMPLES * MAX_OUT];
    vfl_zero_grad(net);
    loss_of(net, &in, dout);
    CHECK(vfl_backward(net, SAMPLES, NULL, &in, dout) == VFL_OK);
    gradients_match_differences(net, loss_at, &in);
    vfl_destroy(net);
}

TEST(backward_matches_finite_differences_tanh_one_layer_actor_critic_heads) {
    backward_matches_differences(layout_of(1, (int32_t[]){6}, VFL_TANH, 2, (int32_t[]){5, 1}));
}

TEST(backward_matches_finite_differences_tanh_three_layers_of_odd_widths) {
    backward_matches_differences(
        layout_of(3, (int32_t[]){9, 5, 13}, VFL_TANH, 2, (int32_t[]){7, 1}));
}

TEST(backward_matches_finite_differences_relu_odd_widths_one_q_head) {
    backward_matches_differences(layout_of(2, (int32_t[]){17, 7}, VFL_RELU, 1, (int32_t[]){5}));
}

TEST(backward_matches_finite_differences_three_heads_past_a_multiple_of_eight) {
    /* 9 + 1 + 3 outputs: the heads' product pads them to 16 */
    backward_matches_differences(
        layout_of(2, (int32_t[]){16, 3}, VFL_RELU, 3, (int32_t[]){9, 1, 3}));
}

TEST(forward_of_rows_equals_forward_of_those_samples_alone_to_the_bit) {
    vfl_layout l = layout_of(2, (int32_t[]){12, 8}, VFL_TANH, 2, (int32_t[]){5, 1});
    vfl_net *net = vfl_create(&l);
    vfl_init(net, 3);
    data d;
    make_data(&d);
    vfl_inputs in = strided(&d);
    float all[SAMPLES * 6];
    vfl_forward(net, SAMPLES, NULL, &in, all);
    int32_t rows[3] = {7, 2, 7};
    float some[3 * 6];
    vfl_forward(net, 3, rows, &in, some);
    int differ = 0;
    for (int r = 0; r < 3; r++)
        for (int o = 0; o < 6; o++) differ += some[r * 6 + o] != all[rows[r] * 6 + o];
    CHECK(differ == 0);
    vfl_destroy(net);
}

/* The gradient of a loss over the outputs of rows[0 .. n), added to the net's. */
static void add_gradient(vfl_net *net, int n, const int32_t *rows, const vfl_inputs *in) {
    int O = vfl_outputs(net);
    float out[SAMPLES * MAX_OUT], dout[SAMPLES * MAX_OUT];
    vfl_forward(net, n, rows, in, out);
    for (int s = 0; s < n; s++)
        for (int o = 0; o < O; o++)
            dout[s * O + o] = out[s * O + o] - 0.1f * (float)(o + (rows ? rows[s] : s));
    vfl_backward(net, n, rows, in, dout);
}

TEST(gradients_of_two_shares_add_up_to_the_whole_batch) {
    vfl_layout l = layout_of(2, (int32_t[]){8, 8}, VFL_TANH, 2, (int32_t[]){5, 1});
    vfl_net *net = vfl_create(&l);
    vfl_init(net, 5);
    data d;
    make_data(&d);
    vfl_inputs in = strided(&d);
    int32_t all[SAMPLES] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    vfl_zero_grad(net);
    add_gradient(net, SAMPLES, all, &in);
    int count = vfl_param_count(net);
    float *whole = malloc((size_t)count * sizeof(float));
    for (int k = 0; k < count; k++) whole[k] = vfl_grads(net)[k];
    vfl_zero_grad(net);
    add_gradient(net, 4, all, &in);
    add_gradient(net, 5, all + 4, &in);
    int bad = 0;
    for (int k = 0; k < count; k++)
        bad += fabsf(vfl_grads(net)[k] - whole[k]) > 1e-6f + 1e-5f * fabsf(whole[k]);
    CHECK(bad == 0);
    free(whole);
    vfl_destroy(net);
}

TEST(packed_inputs_give_the_same_bits_as_the_same_inputs_at_a_stride) {
    /* 20 units: the first layer's 16 at a time and the rest one by one both read the inputs */
    vfl_layout l = layout_of(2, (int32_t[]){20, 8}, VFL_TANH, 2, (int32_t[]){5, 1});
    vfl_net *net = vfl_create(&l);
    vfl_init(net, 9);
    data d;
    make_data(&d);
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
    vfl_inputs by_stride = strided(&d), packed = {idx, val, d.nnz, 0, start, SAMPLES, at, NULL};
    int count = vfl_param_count(net);
    float *grads = malloc((size_t)count * sizeof(float));
    int32_t rows[4] = {8, 0, 3, 3};
    vfl_zero_grad(net);
    add_gradient(net, 4, rows, &by_stride);
    for (int k = 0; k < count; k++) grads[k] = vfl_grads(net)[k];
    vfl_zero_grad(net);
    add_gradient(net, 4, rows, &packed);
    int differ = 0;
    for (int k = 0; k < count; k++) differ += grads[k] != vfl_grads(net)[k];
    CHECK(differ == 0);
    free(grads);
    vfl_destroy(net);
}

TEST(masked_softmax_gives_illegal_actions_exactly_zero_and_refuses_rows_it_cannot_read) {
    vfl_layout l = layout_of(1, (int32_t[]){6}, VFL_TANH, 2, (int32_t[]){4, 1});
    vfl_net *net = vfl_create(&l);
    vfl_init(net, 2);
    data d;
    make_data(&d);
    uint8_t masks[SAMPLES * 4];
    for (int k = 0; k < SAMPLES * 4; k++) masks[k] = (k % 3) != 0 || k % 4 == 1;
    vfl_inputs in = strided(&d);
    in.masks = masks;
    float out[SAMPLES * 5], logp[SAMPLES * 4], p[SAMPLES * 4], entropy[SAMPLES];
    vfl_forward(net, SAMPLES, NULL, &in, out);
    CHECK(vfl_masked_softmax(net, SAMPLES, NULL, &in, out, logp, p, entropy) == VFL_OK);
    int bad = 0;
    for (int s = 0; s < SAMPLES; s++) {
        double sum = 0, h = 0;
        for (int a = 0; a < 4; a++) {
            if (!masks[s * 4 + a]) {
                bad += p[s * 4 + a] != 0 || logp[s * 4 + a] != -INFINITY;
                continue;
            }
            sum += p[s * 4 + a];
            h -= p[s * 4 + a] * logp[s * 4 + a];
            bad += fabsf(expf(logp[s * 4 + a]) - p[s * 4 + a]) > 1e-6f;
        }
        bad += fabs(sum - 1) > 1e-5 || fabs(h - entropy[s]) > 1e-5;
    }
    CHECK(bad == 0);
    p[0] = 42;
    int32_t beyond[1] = {SAMPLES};
    CHECK(vfl_masked_softmax(net, 1, beyond, &in, out, logp, p, entropy) == VFL_ERR_ARGUMENT);
    masks[0] = masks[1] = masks[2] = masks[3] = 0; /* sample 0: no legal action */
    CHECK(vfl_masked_softmax(net, 2, NULL, &in, out, logp, p, entropy) == VFL_ERR_ARGUMENT);
    in.masks = NULL;
    CHECK(vfl_masked_softmax(net, 1, NULL, &in, out, logp, p, entropy) == VFL_ERR_ARGUMENT);
    CHECK(p[0] == 42); /* nothing written */
    vfl_destroy(net);
}

TEST(adam_takes_tensorflow_js_step) {
    /* two steps by hand: m = 0.1 g, v = 0.001 g², step lr m/(1-0.9) / (sqrt(v/(1-0.999)) + 1e-7) */
    vfl_layout l = {.inputs = 1, .layers = 1, .units = {1}, .heads = 2, .head_units = {1, 1}};
    vfl_net *net = vfl_create(&l);
    int count = vfl_param_count(net);
    CHECK(count == 6); /* kernel, bias, each head's kernel and bias */
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

TEST(sgd_steps_against_the_gradient_and_the_norm_and_scale_are_the_gradients) {
    vfl_layout l = {.inputs = 2, .layers = 1, .units = {1}, .heads = 1, .head_units = {1}};
    vfl_net *net = vfl_create(&l);
    CHECK(vfl_param_count(net) == 5); /* 2 x 1 kernel, bias, 1 x 1 head, bias */
    float *p = vfl_params(net), *g = vfl_grads(net);
    for (int k = 0; k < 5; k++) {
        p[k] = 1;
        g[k] = 0;
    }
    g[0] = 3;
    g[3] = -4;
    CHECK(fabs(vfl_grad_norm(net) - 5) < 1e-12);
    vfl_scale_grads(net, 0.5f);
    CHECK(g[0] == 1.5f && g[3] == -2.0f);
    vfl_sgd(net, 0.1f);
    CHECK(fabsf(p[0] - 0.85f) < 1e-7f && fabsf(p[3] - 1.2f) < 1e-7f && p[1] == 1);
    vfl_destroy(net);
}

TEST(copy_params_makes_a_target_network_of_the_same_layout_only) {
    vfl_layout l = layout_of(2, (int32_t[]){6, 5}, VFL_RELU, 1, (int32_t[]){4});
    vfl_net *a = vfl_create(&l), *b = vfl_create(&l);
    vfl_init(a, 1);
    vfl_init(b, 2);
    CHECK(vfl_copy_params(b, a) == VFL_OK);
    int differ = 0;
    for (int k = 0; k < vfl_param_count(a); k++) differ += vfl_params(a)[k] != vfl_params(b)[k];
    CHECK(differ == 0);
    l.kinds[1] = VFL_TANH; /* the same sizes, another kind: not the same network */
    vfl_net *c = vfl_create(&l);
    CHECK(vfl_copy_params(c, a) == VFL_ERR_ARGUMENT);
    vfl_destroy(a);
    vfl_destroy(b);
    vfl_destroy(c);
}

TEST(layout_problems_are_named_and_create_refuses_them) {
    vfl_layout ok = layout_of(1, (int32_t[]){4}, VFL_TANH, 2, (int32_t[]){3, 1});
    CHECK(vfl_layout_problem(&ok) == NULL);
    vfl_layout bad[8];
    for (int k = 0; k < 8; k++) bad[k] = ok;
    bad[0].inputs = 0;
    bad[1].layers = VFL_MAX_LAYERS + 1;
    bad[2].units[0] = VFL_MAX_UNITS + 1;
    bad[3].kinds[0] = 7;
    bad[4].heads = 0;
    bad[5].head_units[0] = VFL_MAX_OUTPUTS;
    bad[6].head_init[1] = NAN;
    /* every size within its own limit, the parameters past 2^31 together (an int would wrap) */
    bad[7].inputs = VFL_MAX_INPUTS;
    bad[7].layers = 2;
    bad[7].units[0] = bad[7].units[1] = VFL_MAX_UNITS;
    for (int k = 0; k < 8; k++) {
        CHECK(vfl_layout_problem(&bad[k]) != NULL);
        CHECK(vfl_create(&bad[k]) == NULL);
    }
    CHECK(vfl_layout_problem(NULL) != NULL);
}

TEST(forward_and_backward_refuse_rows_counts_and_indices_out_of_range_changing_nothing) {
    vfl_layout l = layout_of(1, (int32_t[]){4}, VFL_TANH, 2, (int32_t[]){3, 1});
    vfl_net *net = vfl_create(&l);
    vfl_init(net, 1);
    data d;
    make_data(&d);
    vfl_inputs in = strided(&d);
    float out[SAMPLES * 4], dout[SAMPLES * 4] = {0};
    for (int k = 0; k < SAMPLES * 4; k++) out[k] = 42;
    int32_t beyond[2] = {0, SAMPLES}, negative[1] = {-1};
    CHECK(vfl_forward(net, 2, beyond, &in, out) == VFL_ERR_ARGUMENT);
    CHECK(vfl_forward(net, 1, negative, &in, out) == VFL_ERR_ARGUMENT);
    CHECK(vfl_forward(net, SAMPLES + 1, NULL, &in, out) == VFL_ERR_ARGUMENT);
    CHECK(vfl_forward(net, -1, NULL, &in, out) == VFL_ERR_ARGUMENT);
    vfl_inputs short_pairs = in;
    short_pairs.pairs = (SAMPLES - 1) * STRIDE; /* the last sample's pair lies past them */
    CHECK(vfl_forward(net, SAMPLES, NULL, &short_pairs, out) == VFL_ERR_ARGUMENT);
    data wrong = d;
    wrong.idx[5] = INPUTS; /* an index past the network's inputs */
    vfl_inputs wrong_in = strided(&wrong);
    CHECK(vfl_forward(net, SAMPLES, NULL, &wrong_in, out) == VFL_ERR_ARGUMENT);
    wrong = d;
    wrong.nnz[2] = STRIDE + 1; /* more pairs than its stride has room for */
    wrong_in = strided(&wrong);
    CHECK(vfl_forward(net, SAMPLES, NULL, &wrong_in, out) == VFL_ERR_ARGUMENT);
    int untouched = 1;
    for (int k = 0; k < SAMPLES * 4; k++) untouched &= out[k] == 42;
    CHECK(untouched);
    /* backward: only after a forward of the same count, and from a gradient */
    CHECK(vfl_forward(net, 3, NULL, &in, out) == VFL_OK);
    vfl_zero_grad(net);
    CHECK(vfl_backward(net, 4, NULL, &in, dout) == VFL_ERR_ARGUMENT);
    CHECK(vfl_backward(net, 3, NULL, &in, NULL) == VFL_ERR_ARGUMENT);
    CHECK(vfl_backward(net, 3, NULL, &wrong_in, dout) == VFL_ERR_ARGUMENT); /* row 2's nnz */
    vfl_inputs two = in;
    two.count = 2; /* row 2 is past the samples there are */
    CHECK(vfl_backward(net, 3, NULL, &two, dout) == VFL_ERR_ARGUMENT);
    CHECK(vfl_grad_norm(net) == 0);
    for (int k = 0; k < 3 * 4; k++) dout[k] = 1;
    CHECK(vfl_backward(net, 3, NULL, &in, dout) == VFL_OK); /* and the sound call adds */
    CHECK(vfl_grad_norm(net) > 0);
    vfl_destroy(net);
}

TEST(adam_steps_up_to_int32_max_are_set_at_once_and_match_steps_taken) {
    vfl_layout l = {.inputs = 1, .layers = 1, .units = {1}, .heads = 1, .head_units = {1}};
    vfl_net *a = vfl_create(&l), *b = vfl_create(&l);
    clock_t t0 = clock();
    vfl_set_adam_steps(a, INT32_MAX); /* β^t stops changing in float long before */
    CHECK(vfl_adam_steps(a) == INT32_MAX);
    /* 2^31 multiplications would take seconds; 10^5, well under a millisecond: a tenth of a
     * second (CPU time, not wall time) tells them apart on any machine */
    CHECK((double)(clock() - t0) / CLOCKS_PER_SEC < 0.1);
    vfl_set_adam_steps(a, -5);
    CHECK(vfl_adam_steps(a) == 0);
    /* setting t gives the step that t steps taken give */
    for (int k = 0; k < 4; k++) vfl_params(a)[k] = vfl_params(b)[k] = 1;
    vfl_zero_grad(a);
    vfl_zero_grad(b);
    for (int t = 0; t < 3; t++) vfl_adam(a, 0.1f);
    vfl_set_adam_steps(b, 3);
    vfl_grads(a)[0] = vfl_grads(b)[0] = 0.5f;
    vfl_adam(a, 0.1f);
    vfl_adam(b, 0.1f);
    CHECK(vfl_params(a)[0] == vfl_params(b)[0]);
    vfl_destroy(a);
    vfl_destroy(b);
}

TEST(init_is_the_same_for_the_same_seed_and_differs_for_another) {
    vfl_layout l = {.inputs = 20,
                    .layers = 2,
                    .units = {16, 16},
                    .heads = 2,
                    .head_units = {6, 1},
                    .head_init = {0.01f, 0}};
    vfl_net *a = vfl_create(&l), *b = vfl_create(&l);
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
    /* the logits' head: normal, deviation 0.01 */
    const float *logits = vfl_params(a) + 20 * 16 + 16 + 16 * 16 + 16;
    double squares = 0;
    for (int k = 0; k < 16 * 6; k++) squares += (double)logits[k] * logits[k];
    double deviation = sqrt(squares / (16 * 6));
    CHECK(deviation > 0.007 && deviation < 0.013);
    vfl_destroy(a);
    vfl_destroy(b);
}

/* ---- the recurrent layer ---------------------------------------------------------------- */

enum { STEPS = 7, SEQS = 3, SEQ_N = STEPS * SEQS, MAX_STATE = 32 };

/* A recurrent run's fixed arguments: rows (each of the SAMPLES, in no order, some twice),
 * episode starts inside the sequences and at one's first step, and nonzero first states. */
typedef struct seq_data {
    data d;
    vfl_inputs in;
    int32_t rows[SEQ_N];
    uint8_t starts[SEQ_N];
    float h0[SEQS * MAX_STATE];
} seq_data;

static void make_seq_data(seq_data *q) {
    make_data(&q->d);
    q->in = strided(&q->d);
    for (int s = 0; s < SEQ_N; s++) {
        q->rows[s] = (s * 5 + 2) % SAMPLES;
        q->starts[s] = 0;
    }
    q->starts[3 * SEQS + 1] = 1; /* sequence 1: an episode starts at step 3 */
    q->starts[0 * SEQS + 2] = 1; /* sequence 2: at its first step (h0 is then not read) */
    q->starts[5 * SEQS + 2] = 1; /* and again at step 5 */
    for (int k = 0; k < SEQS * MAX_STATE; k++) q->h0[k] = 0.6f * sinf(0.7f * (float)k + 0.3f);
}

/* loss_of's loss over the outputs of a forward_seq of q's sequences. */
static double seq_loss_of(vfl_net *net, const seq_data *q, float *dout) {
    int O = vfl_outputs(net);
    float out[SEQ_N * MAX_OUT];
    CHECK(vfl_forward_seq(net, STEPS, SEQS, q->rows, &q->in, q->starts, q->h0, out, NULL) ==
          VFL_OK);
    double loss = 0;
    for (int s = 0; s < SEQ_N; s++)
        for (int o = 0; o < O; o++) {
            double w = sin(1.3 * s + 0.9 * o), c = 0.5 + 0.1 * ((s + o) % 4);
            double y = out[s * O + o];
            loss += w * y + 0.5 * c * y * y;
            if (dout) dout[s * O + o] = (float)(w + c * y);
        }
    return loss;
}

static double seq_loss_at(vfl_net *net, const void *q) {
    return seq_loss_of(net, q, NULL);
}

/* Every parameter's gradient (backward through time from the loss's gradient at the
 * outputs) against a central difference of the loss: every step, both through a state carried
 * from step to step and where an episode starts, is differentiated exactly (no truncation
 * but at h0, which the loss takes as given). */
static void backward_seq_matches_differences(vfl_layout layout) {
    vfl_net *net = vfl_create(&layout);
    CHECK(net != NULL);
    if (!net) return;
    CHECK(vfl_state_size(net) <= MAX_STATE);
    vfl_init(net, 7);
    float *p = vfl_params(net);
    int count = vfl_param_count(net);
    for (int k = 0; k < count; k++) p[k] += 0.05f * sinf((float)k); /* biases too */
    seq_data q;
    make_seq_data(&q);
    float dout[SEQ_N * MAX_OUT];
    vfl_zero_grad(net);
    seq_loss_of(net, &q, dout);
    CHECK(vfl_backward_seq(net, STEPS, SEQS, q.rows, &q.in, dout) == VFL_OK);
    gradients_match_differences(net, seq_loss_at, &q);
    vfl_destroy(net);
}

/* A layout of these hidden layers (kinds by layer) and heads. */
static vfl_layout mixed_layout(int layers, const int32_t *units, const int32_t *kinds, int heads,
                               const int32_t *head_units) {
    vfl_layout l = layout_of(layers, units, VFL_TANH, heads, head_units);
    for (int k = 0; k < layers; k++) l.kinds[k] = kinds[k];
    return l;
}

TEST(backward_through_time_matches_finite_differences_dense_then_gru_then_heads) {
    backward_seq_matches_differences(
        mixed_layout(2, (int32_t[]){7, 5}, (int32_t[]){VFL_TANH, VFL_GRU}, 2, (int32_t[]){5, 1}));
}

TEST(backward_through_time_matches_finite_differences_gru_between_dense_layers_odd_widths) {
    /* 9 -> GRU of 13 (its gates 39 wide: past a multiple of 8) -> ReLU 3 -> three heads */
    backward_seq_matches_differences(mixed_layout(3, (int32_t[]){9, 13, 3},
                                                  (int32_t[]){VFL_RELU, VFL_GRU, VFL_RELU}, 3,
                                                  (int32_t[]){3, 1, 2}));
}

TEST(backward_through_time_matches_finite_differences_dense_then_lstm_then_heads) {
    backward_seq_matches_differences(
        mixed_layout(2, (int32_t[]){7, 5}, (int32_t[]){VFL_TANH, VFL_LSTM}, 2, (int32_t[]){5, 1}));
}

TEST(backward_through_time_matches_finite_differences_lstm_between_dense_layers_odd_widths) {
    /* 9 -> LSTM of 13 (its gates 52 wide, its state 26) -> ReLU 3 -> three heads */
    backward_seq_matches_differences(mixed_layout(3, (int32_t[]){9, 13, 3},
                                                  (int32_t[]){VFL_RELU, VFL_LSTM, VFL_RELU}, 3,
                                                  (int32_t[]){3, 1, 2}));
}

/* tanh 6 -> a recurrent layer of `kind` -> heads {4, 1}, its weights nudged off their start. */
static vfl_net *small_recurrent(int kind, int units, uint64_t seed) {
    vfl_layout l =
        mixed_layout(2, (int32_t[]){6, units}, (int32_t[]){VFL_TANH, kind}, 2, (int32_t[]){4, 1});
    vfl_net *net = vfl_create(&l);
    vfl_init(net, seed);
    float *p = vfl_params(net);
    for (int k = 0; k < vfl_param_count(net); k++) p[k] += 0.1f * sinf(0.37f * (float)k);
    return net;
}

static void steps_one_at_a_time_give_the_whole_sequence(int kind) {
    /* what a rollout does (a step of every env, its state kept) is what a minibatch of whole
     * sequences recomputes, to the bit, and a sequence's outputs are its own whatever the
     * others of its call */
    vfl_net *net = small_recurrent(kind, 10, 3);
    seq_data q;
    make_seq_data(&q);
    enum { O = 5 };
    const int U = vfl_state_size(net); /* a GRU's 10 units, an LSTM's h and c */
    float whole[SEQ_N * O], h_whole[SEQS * 20];
    CHECK(vfl_forward_seq(net, STEPS, SEQS, q.rows, &q.in, q.starts, q.h0, whole, h_whole) ==
          VFL_OK);
    float h[SEQS * 20], step[SEQS * O];
    for (int k = 0; k < SEQS * U; k++) h[k] = q.h0[k];
    int differ = 0;
    for (int t = 0; t < STEPS; t++) {
        /* h_final is h0: the state carried in place */
        CHECK(vfl_forward_seq(net, 1, SEQS, q.rows + t * SEQS, &q.in, q.starts + t * SEQS, h, step,
                              h) == VFL_OK);
        for (int k = 0; k < SEQS * O; k++) differ += step[k] != whole[t * SEQS * O + k];
    }
    for (int k = 0; k < SEQS * U; k++) differ += h[k] != h_whole[k];
    /* sequence 1 alone: its rows, starts and first state */
    int32_t rows[STEPS];
    uint8_t starts[STEPS];
    for (int t = 0; t < STEPS; t++) {
        rows[t] = q.rows[t * SEQS + 1];
        starts[t] = q.starts[t * SEQS + 1];
    }
    float alone[STEPS * O], h_alone[20];
    CHECK(vfl_forward_seq(net, STEPS, 1, rows, &q.in, starts, q.h0 + U, alone, h_alone) == VFL_OK);
    for (int t = 0; t < STEPS; t++)
        for (int o = 0; o < O; o++) differ += alone[t * O + o] != whole[(t * SEQS + 1) * O + o];
    for (int u = 0; u < U; u++) differ += h_alone[u] != h_whole[U + u];
    CHECK(differ == 0);
    vfl_destroy(net);
}

TEST(gru_steps_one_at_a_time_with_the_state_carried_give_the_bits_of_the_whole_sequence) {
    steps_one_at_a_time_give_the_whole_sequence(VFL_GRU);
}

TEST(lstm_steps_one_at_a_time_with_the_state_carried_give_the_bits_of_the_whole_sequence) {
    steps_one_at_a_time_give_the_whole_sequence(VFL_LSTM);
}

static void a_start_forgets(int kind) {
    vfl_net *net = small_recurrent(kind, 5, 4);
    seq_data q;
    make_seq_data(&q);
    enum { O = 5, U = 5 };
    float whole[SEQ_N * O];
    vfl_forward_seq(net, STEPS, SEQS, q.rows, &q.in, q.starts, q.h0, whole, NULL);
    /* sequence 1 from its start at step 3: the same outputs from a zero state (h0 NULL), to
     * the bit, though the state before the start was not zero */
    int32_t rows[STEPS - 3];
    for (int t = 3; t < STEPS; t++) rows[t - 3] = q.rows[t * SEQS + 1];
    float fresh[(STEPS - 3) * O];
    CHECK(vfl_forward_seq(net, STEPS - 3, 1, rows, &q.in, NULL, NULL, fresh, NULL) == VFL_OK);
    int differ = 0;
    for (int t = 3; t < STEPS; t++)
        for (int o = 0; o < O; o++)
            differ += fresh[(t - 3) * O + o] != whole[(t * SEQS + 1) * O + o];
    CHECK(differ == 0);
    /* and without the start the state carries on: the outputs differ */
    q.starts[3 * SEQS + 1] = 0;
    float carried[SEQ_N * O];
    vfl_forward_seq(net, STEPS, SEQS, q.rows, &q.in, q.starts, q.h0, carried, NULL);
    CHECK(carried[(3 * SEQS + 1) * O] != whole[(3 * SEQS + 1) * O]);
    vfl_destroy(net);
}

TEST(an_episode_start_forgets_the_state_before_it_gru_and_lstm) {
    a_start_forgets(VFL_GRU);
    a_start_forgets(VFL_LSTM);
}

TEST(zero_steps_hand_back_the_first_states) {
    vfl_net *net = small_recurrent(VFL_GRU, 5, 4);
    seq_data q;
    make_seq_data(&q);
    float h[SEQS * 5];
    for (int k = 0; k < SEQS * 5; k++) h[k] = 42;
    CHECK(vfl_forward_seq(net, 0, SEQS, NULL, &q.in, NULL, q.h0, NULL, h) == VFL_OK);
    int differ = 0;
    for (int k = 0; k < SEQS * 5; k++) differ += h[k] != q.h0[k];
    CHECK(differ == 0);
    CHECK(vfl_forward_seq(net, 0, SEQS, NULL, &q.in, NULL, NULL, NULL, h) == VFL_OK);
    for (int k = 0; k < SEQS * 5; k++) differ += h[k] != 0;
    CHECK(differ == 0);
    vfl_destroy(net);
}

TEST(the_recurrent_calls_refuse_what_they_cannot_do_changing_nothing) {
    vfl_net *net = small_recurrent(VFL_GRU, 5, 4), *dense = NULL;
    seq_data q;
    make_seq_data(&q);
    float out[SEQ_N * 5], dout[SEQ_N * 5] = {0}, h[SEQS * 5];
    for (int k = 0; k < SEQ_N * 5; k++) out[k] = 42;
    for (int k = 0; k < SEQS * 5; k++) h[k] = 42;
    CHECK(vfl_state_size(net) == 5);
    /* its samples are steps: the calls of sequences only */
    CHECK(vfl_forward(net, 3, NULL, &q.in, out) == VFL_ERR_ARGUMENT);
    /* sizes: negative, or T x B past the most a call takes (and past 2^31) */
    CHECK(vfl_forward_seq(net, -1, 3, NULL, &q.in, NULL, NULL, out, h) == VFL_ERR_ARGUMENT);
    CHECK(vfl_forward_seq(net, 3, -1, NULL, &q.in, NULL, NULL, out, h) == VFL_ERR_ARGUMENT);
    CHECK(vfl_forward_seq(net, 1 << 16, 1 << 16, NULL, &q.in, NULL, NULL, out, h) ==
          VFL_ERR_ARGUMENT);
    CHECK(vfl_forward_seq(net, VFL_MAX_BATCH, 2, NULL, &q.in, NULL, NULL, out, h) ==
          VFL_ERR_ARGUMENT);
    /* rows the inputs do not have: T x B rows without a list, past the inputs' count */
    CHECK(vfl_forward_seq(net, 5, 2, NULL, &q.in, NULL, NULL, out, h) == VFL_ERR_ARGUMENT);
    q.rows[SEQ_N - 1] = SAMPLES;
    CHECK(vfl_forward_seq(net, STEPS, SEQS, q.rows, &q.in, q.starts, q.h0, out, h) ==
          VFL_ERR_ARGUMENT);
    int untouched = 1;
    for (int k = 0; k < SEQ_N * 5; k++) untouched &= out[k] == 42;
    for (int k = 0; k < SEQS * 5; k++) untouched &= h[k] == 42;
    CHECK(untouched);
    make_seq_data(&q);
    /* backward: only of the last forward's steps and sequences */
    CHECK(vfl_forward_seq(net, STEPS, SEQS, q.rows, &q.in, q.starts, q.h0, out, h) == VFL_OK);
    vfl_zero_grad(net);
    CHECK(vfl_backward(net, SEQ_N, q.rows, &q.in, dout) == VFL_ERR_ARGUMENT);
    CHECK(vfl_backward_seq(net, SEQS, STEPS, q.rows, &q.in, dout) == VFL_ERR_ARGUMENT);
    CHECK(vfl_backward_seq(net, STEPS, SEQS - 1, q.rows, &q.in, dout) == VFL_ERR_ARGUMENT);
    CHECK(vfl_backward_seq(net, STEPS, SEQS, q.rows, &q.in, NULL) == VFL_ERR_ARGUMENT);
    CHECK(vfl_grad_norm(net) == 0);
    for (int k = 0; k < SEQ_N * 5; k++) dout[k] = 1;
    CHECK(vfl_backward_seq(net, STEPS, SEQS, q.rows, &q.in, dout) == VFL_OK);
    CHECK(vfl_grad_norm(net) > 0);
    /* a network without a recurrent layer has no sequences */
    vfl_layout l = layout_of(1, (int32_t[]){4}, VFL_TANH, 2, (int32_t[]){3, 1});
    dense = vfl_create(&l);
    CHECK(vfl_state_size(dense) == 0);
    CHECK(vfl_forward_seq(dense, 1, 1, NULL, &q.in, NULL, NULL, out, NULL) == VFL_ERR_ARGUMENT);
    CHECK(vfl_forward(dense, 2, NULL, &q.in, out) == VFL_OK);
    CHECK(vfl_backward_seq(dense, 1, 2, NULL, &q.in, dout) == VFL_ERR_ARGUMENT);
    vfl_destroy(dense);
    vfl_destroy(net);
}

TEST(a_gru_is_not_first_and_at_most_one) {
    vfl_layout first =
        mixed_layout(2, (int32_t[]){4, 4}, (int32_t[]){VFL_GRU, VFL_TANH}, 1, (int32_t[]){3});
    vfl_layout two = mixed_layout(3, (int32_t[]){4, 4, 4}, (int32_t[]){VFL_TANH, VFL_GRU, VFL_GRU},
                                  1, (int32_t[]){3});
    CHECK(vfl_layout_problem(&first) != NULL && vfl_create(&first) == NULL);
    CHECK(vfl_layout_problem(&two) != NULL && vfl_create(&two) == NULL);
    /* the parameters in Keras's shapes: 11 x 6 + 6, then 6 x 15 + 5 x 15 + 2 x 15, then heads */
    vfl_layout ok =
        mixed_layout(2, (int32_t[]){6, 5}, (int32_t[]){VFL_TANH, VFL_GRU}, 2, (int32_t[]){4, 1});
    vfl_net *net = vfl_create(&ok);
    CHECK_EQ(vfl_param_count(net), 11 * 6 + 6 + 6 * 15 + 5 * 15 + 2 * 15 + 5 * 4 + 4 + 5 + 1);
    CHECK_EQ(vfl_state_size(net), 5);
    vfl_destroy(net);
}

TEST(an_lstm_is_not_first_and_not_beside_a_gru_its_state_is_h_and_c) {
    vfl_layout first =
        mixed_layout(2, (int32_t[]){4, 4}, (int32_t[]){VFL_LSTM, VFL_TANH}, 1, (int32_t[]){3});
    vfl_layout two = mixed_layout(3, (int32_t[]){4, 4, 4}, (int32_t[]){VFL_TANH, VFL_GRU, VFL_LSTM},
                                  1, (int32_t[]){3});
    vfl_layout none =
        mixed_layout(2, (int32_t[]){4, 4}, (int32_t[]){VFL_TANH, 4}, 1, (int32_t[]){3});
    CHECK(vfl_layout_problem(&first) != NULL && vfl_create(&first) == NULL);
    CHECK(vfl_layout_problem(&two) != NULL && vfl_create(&two) == NULL);
    CHECK(vfl_layout_problem(&none) != NULL && vfl_create(&none) == NULL);
    /* Keras's LSTM shapes: 11 x 6 + 6, then 6 x 20 + 5 x 20 + 20 (one bias), then heads */
    vfl_layout ok =
        mixed_layout(2, (int32_t[]){6, 5}, (int32_t[]){VFL_TANH, VFL_LSTM}, 2, (int32_t[]){4, 1});
    vfl_net *net = vfl_create(&ok);
    CHECK_EQ(vfl_param_count(net), 11 * 6 + 6 + 6 * 20 + 5 * 20 + 20 + 5 * 4 + 4 + 5 + 1);
    CHECK_EQ(vfl_state_size(net), 10);
    vfl_destroy(net);
}

TEST(a_gru_draws_its_recurrent_kernel_orthogonal_and_its_kernel_glorot) {
    enum { IN = 6, U = 12 };
    vfl_layout l =
        mixed_layout(2, (int32_t[]){IN, U}, (int32_t[]){VFL_TANH, VFL_GRU}, 1, (int32_t[]){3});
    vfl_net *net = vfl_create(&l);
    vfl_init(net, 21);
    const float *kernel = vfl_params(net) + INPUTS * IN + IN, *rec = kernel + IN * 3 * U;
    float limit = sqrtf(6.0f / (IN + 3 * U)), largest = 0;
    for (int k = 0; k < IN * 3 * U; k++) largest = fmaxf(largest, fabsf(kernel[k]));
    CHECK(largest <= limit && largest > 0.8f * limit);
    double worst = 0; /* its rows orthonormal: rec recᵀ = I */
    for (int i = 0; i < U; i++)
        for (int j = 0; j < U; j++) {
            double dot = 0;
            for (int c = 0; c < 3 * U; c++) dot += (double)rec[i * 3 * U + c] * rec[j * 3 * U + c];
            worst = fmax(worst, fabs(dot - (i == j)));
        }
    CHECK(worst < 1e-5);
    int zero = 1; /* both biases */
    for (int k = 0; k < 2 * 3 * U; k++) zero &= rec[U * 3 * U + k] == 0;
    CHECK(zero);
    vfl_destroy(net);
}

TEST(an_lstm_draws_as_keras_kernel_glorot_recurrent_orthogonal_forget_bias_one) {
    enum { IN = 6, U = 12 };
    vfl_layout l =
        mixed_layout(2, (int32_t[]){IN, U}, (int32_t[]){VFL_TANH, VFL_LSTM}, 1, (int32_t[]){3});
    vfl_net *net = vfl_create(&l);
    vfl_init(net, 21);
    const float *kernel = vfl_params(net) + INPUTS * IN + IN, *rec = kernel + IN * 4 * U;
    const float *bias = rec + U * 4 * U;
    float limit = sqrtf(6.0f / (IN + 4 * U)), largest = 0;
    for (int k = 0; k < IN * 4 * U; k++) largest = fmaxf(largest, fabsf(kernel[k]));
    CHECK(largest <= limit && largest > 0.8f * limit);
    double worst = 0; /* its rows orthonormal: rec recᵀ = I */
    for (int i = 0; i < U; i++)
        for (int j = 0; j < U; j++) {
            double dot = 0;
            for (int c = 0; c < 4 * U; c++) dot += (double)rec[i * 4 * U + c] * rec[j * 4 * U + c];
            worst = fmax(worst, fabs(dot - (i == j)));
        }
    CHECK(worst < 1e-5);
    int as_keras = 1; /* the gates i, f, c, o: only f's bias is 1 */
    for (int k = 0; k < 4 * U; k++) as_keras &= bias[k] == (k >= U && k < 2 * U ? 1.0f : 0.0f);
    CHECK(as_keras);
    vfl_destroy(net);
}

int main(void) {
    RUN(backward_matches_finite_differences_tanh_one_layer_actor_critic_heads);
    RUN(backward_matches_finite_differences_tanh_three_layers_of_odd_widths);
    RUN(backward_matches_finite_differences_relu_odd_widths_one_q_head);
    RUN(backward_matches_finite_differences_three_heads_past_a_multiple_of_eight);
    RUN(forward_of_rows_equals_forward_of_those_samples_alone_to_the_bit);
    RUN(gradients_of_two_shares_add_up_to_the_whole_batch);
    RUN(packed_inputs_give_the_same_bits_as_the_same_inputs_at_a_stride);
    RUN(masked_softmax_gives_illegal_actions_exactly_zero_and_refuses_rows_it_cannot_read);
    RUN(adam_takes_tensorflow_js_step);
    RUN(sgd_steps_against_the_gradient_and_the_norm_and_scale_are_the_gradients);
    RUN(copy_params_makes_a_target_network_of_the_same_layout_only);
    RUN(layout_problems_are_named_and_create_refuses_them);
    RUN(forward_and_backward_refuse_rows_counts_and_indices_out_of_range_changing_nothing);
    RUN(adam_steps_up_to_int32_max_are_set_at_once_and_match_steps_taken);
    RUN(init_is_the_same_for_the_same_seed_and_differs_for_another);
    RUN(backward_through_time_matches_finite_differences_dense_then_gru_then_heads);
    RUN(backward_through_time_matches_finite_differences_gru_between_dense_layers_odd_widths);
    RUN(backward_through_time_matches_finite_differences_dense_then_lstm_then_heads);
    RUN(backward_through_time_matches_finite_differences_lstm_between_dense_layers_odd_widths);
    RUN(gru_steps_one_at_a_time_with_the_state_carried_give_the_bits_of_the_whole_sequence);
    RUN(lstm_steps_one_at_a_time_with_the_state_carried_give_the_bits_of_the_whole_sequence);
    RUN(an_episode_start_forgets_the_state_before_it_gru_and_lstm);
    RUN(zero_steps_hand_back_the_first_states);
    RUN(the_recurrent_calls_refuse_what_they_cannot_do_changing_nothing);
    RUN(a_gru_is_not_first_and_at_most_one);
    RUN(a_gru_draws_its_recurrent_kernel_orthogonal_and_its_kernel_glorot);
    RUN(an_lstm_is_not_first_and_not_beside_a_gru_its_state_is_h_and_c);
    RUN(an_lstm_draws_as_keras_kernel_glorot_recurrent_orthogonal_forget_bias_one);
    return check_summary();
}
