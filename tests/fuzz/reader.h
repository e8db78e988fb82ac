/* reader.h — what both fuzz harnesses share: a fuzzer input read as a stream of argument
 * bytes (zeros once it runs out), and REQUIRE, which aborts (libFuzzer reports the input). */
#ifndef VF_FUZZ_READER_H
#define VF_FUZZ_READER_H

#include <stdint.h>
#include <stdlib.h>

#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond)) abort();                                                                      \
    } while (0)

typedef struct reader {
    const uint8_t *p, *end;
} reader;

static inline uint8_t u8(reader *r) {
    return r->p < r->end ? *r->p++ : 0;
}

static inline uint64_t u64(reader *r) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)u8(r) << (8 * i);
    return v;
}

#endif
