/* stale_derived.c — a hand edit that skips vf_rederive: a crop set to Harvest-Ready by hand
 * (or back to Seed) while `growing` still says otherwise. A checked build (VF_CHECK_DERIVED,
 * the sanitizer suite) must abort at the next step: the abort is caught here and is the
 * pass (exit 0); a step that returns means the check let the stale state through (exit 1).
 * Builds without the check skip this program (exit 77). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "valley_farm.h"

#ifdef VF_CHECK_DERIVED
static void on_abort(int sig) {
    (void)sig;
    _exit(0);
}
#endif

int main(void) {
#ifndef VF_CHECK_DERIVED
    puts("skipped: this build does not check derived fields");
    return 77;
#else
    signal(SIGABRT, on_abort);
    vf_env env;
    int32_t obs[VF_OBS_MAX];
    vf_reset(&env, VF_BACKWARDS, 7, obs);
    vf_backwards *b = &env.u.backwards;
    const vf_bw_entity *c = &b->crops[0];
    uint8_t *stage = &b->status[c->y + VF_BORDER][c->x + VF_BORDER];
    *stage = *stage == 3 ? 0 : 3; /* to or from Harvest-Ready; growing not rederived */
    vf_step(&env, VF_BA_WAIT, obs);
    puts("the stale growing mask was not caught");
    return 1;
#endif
}
