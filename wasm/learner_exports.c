/* learner_exports.c — the learner module's WebAssembly face (wasm/learn/learner.wasm): the calls
 * of valley_farm_learn.h that need plain 32-bit arguments. Seeds travel as two 32-bit halves;
 * every other call is exported as the header declares it (learner_exported_functions.json),
 * its structs laid out in the module's memory by wasm/learn/core.js. */
#include "valley_farm_learn.h"

void vflw_init(vfl_net *net, uint32_t seed_lo, uint32_t seed_hi) {
    vfl_init(net, ((uint64_t)seed_hi << 32) | seed_lo);
}

/* The layout struct's size and its fields' offsets, which core.js checks against its own. */
int vflw_layout_size(void) {
    return (int)sizeof(vfl_layout);
}

int vflw_inputs_size(void) {
    return (int)sizeof(vfl_inputs);
}
