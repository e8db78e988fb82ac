/* demo.c — play either farm in a terminal.
 *
 *   valley-farm-demo [valley|backwards] [seed]            type actions (names or ids), one
 *                                                         per line; empty line = wait
 *   valley-farm-demo [valley|backwards] [seed] --random   a random agent plays one episode
 *
 * After every step it prints the map, the reward and whether the action was legal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "valley_farm.h"

static int parse_action(int kind, const char *word) {
    char *end;
    long id = strtol(word, &end, 10);
    if (end != word && *end == '\0') return id >= 0 && id < vf_num_actions(kind) ? (int)id : -1;
    for (int a = 0; a < vf_num_actions(kind); a++)
        if (strcmp(word, vf_action_name(kind, a)) == 0) return a;
    return -1;
}

static void print_actions(int kind) {
    printf("actions:");
    for (int a = 0; a < vf_num_actions(kind); a++) printf(" %d=%s", a, vf_action_name(kind, a));
    printf("\n");
}

int main(int argc, char **argv) {
    int kind = VF_VALLEY;
    uint64_t seed = 1;
    int random_agent = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "valley") == 0)
            kind = VF_VALLEY;
        else if (strcmp(argv[i], "backwards") == 0)
            kind = VF_BACKWARDS;
        else if (strcmp(argv[i], "--random") == 0)
            random_agent = 1;
        else if (argv[i][0] >= '0' && argv[i][0] <= '9')
            seed = strtoull(argv[i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [valley|backwards] [seed] [--random]\n", argv[0]);
            return 2;
        }
    }

    vf_env env;
    char text[VF_TEXT_MAX];
    vf_reset(&env, kind, seed, NULL);
    vf_rng rng = vf_rng_seeded(seed ^ 0x5eedull);
    printf("%s, seed %llu\n", vf_kind_name(kind), (unsigned long long)seed);
    vf_render(&env, text, sizeof text);
    fputs(text, stdout);
    if (!random_agent) print_actions(kind);

    double total = 0;
    char line[64];
    while (!vf_terminated(&env)) {
        int action;
        if (random_agent) {
            action = (int)vf_rng_below(&rng, (uint32_t)vf_num_actions(kind));
        } else {
            printf("> ");
            fflush(stdout);
            if (!fgets(line, sizeof line, stdin)) break;
            line[strcspn(line, "\r\n")] = '\0';
            action =
                line[0] ? parse_action(kind, line) : (kind == VF_VALLEY ? VF_VA_WAIT : VF_BA_WAIT);
            if (action < 0) {
                printf("unknown action '%s'\n", line);
                print_actions(kind);
                continue;
            }
        }
        vf_step_result r = vf_step(&env, action, NULL);
        total += r.reward;
        printf("\n%s%s: reward %g, return %g\n", vf_action_name(kind, action),
               r.action_was_legal ? "" : " (illegal: played as a wait)", r.reward, total);
        vf_render(&env, text, sizeof text);
        fputs(text, stdout);
    }
    printf("episode over after %d steps: return %g\n", vf_step_count(&env), vf_total_reward(&env));
    return 0;
}
