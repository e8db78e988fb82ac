/*
 * check.h — the native tests' tiny harness. A test file defines TEST(name) functions and a
 * main that lists them with RUN(name); CHECK records a failure with file, line and the
 * failed expression and lets the test go on, so one run shows every broken rule.
 *
 *     TEST(plant_on_empty_soil_uses_a_seed) { ... CHECK_EQ(v->inventory[VF_SEEDS], 4); }
 *     int main(void) { RUN(plant_on_empty_soil_uses_a_seed); return check_summary(); }
 */
#ifndef VF_CHECK_H
#define VF_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures_ = 0;
static int check_tests_failed_ = 0;
static int check_tests_run_ = 0;

#define TEST(name) static void name(void)

#define RUN(name)                                                                                  \
    do {                                                                                           \
        int before_ = check_failures_;                                                             \
        name();                                                                                    \
        check_tests_run_++;                                                                        \
        if (check_failures_ != before_) {                                                          \
            check_tests_failed_++;                                                                 \
            printf("FAIL %s\n", #name);                                                            \
        } else {                                                                                   \
            printf("ok   %s\n", #name);                                                            \
        }                                                                                          \
    } while (0)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            check_failures_++;                                                                     \
            printf("  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);                      \
        }                                                                                          \
    } while (0)

/* In a loop: report only the first failure of this check, not a million of them. */
#define CHECK_FIRST(cond)                                                                          \
    do {                                                                                           \
        static int shown_;                                                                         \
        if (!(cond) && !shown_) {                                                                  \
            shown_ = 1;                                                                            \
            CHECK(cond);                                                                           \
        }                                                                                          \
    } while (0)

/* Integer equality that prints both sides. */
#define CHECK_EQ(actual, expected)                                                                 \
    do {                                                                                           \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                            \
        if (a_ != e_) {                                                                            \
            check_failures_++;                                                                     \
            printf("  %s:%d: %s is %lld, expected %s = %lld\n", __FILE__, __LINE__, #actual, a_,   \
                   #expected, e_);                                                                 \
        }                                                                                          \
    } while (0)

/* Exact double equality (the engine's rewards are exact; no tolerance is needed). */
#define CHECK_REWARD(actual, expected)                                                             \
    do {                                                                                           \
        double a_ = (actual), e_ = (expected);                                                     \
        if (a_ != e_) {                                                                            \
            check_failures_++;                                                                     \
            printf("  %s:%d: %s is %.17g, expected %.17g\n", __FILE__, __LINE__, #actual, a_, e_); \
        }                                                                                          \
    } while (0)

/* Prints the closing line ("N passed, N failed") and returns main's exit code. */
static inline int check_summary(void) {
    printf("%d passed, %d failed\n", check_tests_run_ - check_tests_failed_, check_tests_failed_);
    return check_tests_failed_ ? 1 : 0;
}

#endif /* VF_CHECK_H */
