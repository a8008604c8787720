/*
 * Minimal test helpers shared by every test program: checks that count failures and report
 * file:line, and a float comparison that is bitwise (no tolerance anywhere in vfetch).
 */
#ifndef VFETCH_TESTUTIL_H
#define VFETCH_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static unsigned test_checks;
static unsigned test_failures;

static inline uint32_t test_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float test_bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/** A condition that must hold. */
#define CHECK(cond)                                                                         \
    do {                                                                                    \
        test_checks++;                                                                      \
        if (!(cond)) {                                                                      \
            test_failures++;                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);       \
        }                                                                                   \
    } while (0)

/** Two integers that must be equal (printed on failure). */
#define CHECK_EQ(got, want)                                                                 \
    do {                                                                                    \
        long long got_ = (long long)(got), want_ = (long long)(want);                       \
        test_checks++;                                                                      \
        if (got_ != want_) {                                                                \
            test_failures++;                                                                \
            fprintf(stderr, "%s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, #got, got_,\
                    want_);                                                                 \
        }                                                                                   \
    } while (0)

/** Two floats that must be bit-identical (printed with their bits on failure). */
#define CHECK_FLOAT(got, want)                                                              \
    do {                                                                                    \
        float gotf_ = (got), wantf_ = (want);                                               \
        test_checks++;                                                                      \
        if (test_float_bits(gotf_) != test_float_bits(wantf_)) {                            \
            test_failures++;                                                                \
            fprintf(stderr, "%s:%d: %s = %.9g (0x%08x), want %.9g (0x%08x)\n", __FILE__,    \
                    __LINE__, #got, (double)gotf_, test_float_bits(gotf_), (double)wantf_,  \
                    test_float_bits(wantf_));                                               \
        }                                                                                   \
    } while (0)

/** End of main: print the tally and return the exit status. */
/* A test's own random numbers (xorshift64): *state a nonzero seed, so that a failure replays. */
static inline uint32_t test_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (uint32_t)(*state >> 16);
}

static inline int test_summary(const char *name)
{
    printf("%s: %u checks, %u failed\n", name, test_checks, test_failures);
    return test_failures ? 1 : 0;
}

#endif
