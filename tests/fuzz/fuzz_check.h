/*
 * What every fuzz target needs to check contracts: a failure report that aborts (so libFuzzer
 * keeps the input as a crash), output buffers filled with a canary and placed against guard
 * pages, and the CPU levels to compare.
 */
#ifndef VFETCH_FUZZ_CHECK_H
#define VFETCH_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>

/** Report a broken contract and abort. */
#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 3, 4)))
#endif
void fuzz_fail(const char *file, int line, const char *fmt, ...);

#define FUZZ_REQUIRE(cond, ...)                                                              \
    do {                                                                                     \
        if (!(cond))                                                                         \
            fuzz_fail(__FILE__, __LINE__, __VA_ARGS__);                                      \
    } while (0)

/** With VFETCH_FUZZ_TRACE set in the environment, print what an input did (for checking
    that seeds reach what they are meant to); otherwise nothing. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void fuzz_trace(const char *fmt, ...);

/** The canary byte expected at offset i of a buffer: position dependent, so that a misplaced
    copy of canary bytes is caught too. */
static inline uint8_t fuzz_canary(size_t i)
{
    return (uint8_t)(0xA5u ^ (uint8_t)(i * 29u));
}

/** A buffer of n bytes (n may be 0) whose end touches a PROT_NONE page, so that a byte read
    or written past it crashes; aborts if the mapping fails. */
uint8_t *fuzz_buf_alloc(size_t n);
void fuzz_buf_free(void *p);

/** Fill with the canary pattern. */
void fuzz_canary_fill(uint8_t *p, size_t n);

/** Offset of the first byte in [from, to) that no longer holds the canary, or SIZE_MAX. */
size_t fuzz_canary_first_change(const uint8_t *p, size_t from, size_t to);

/** Abort unless [from, to) still holds the canary; what names the buffer. */
void fuzz_require_canary(const uint8_t *p, size_t from, size_t to, const char *what);

/** The CPU level mask to test with: the best level this process may use (the environment's
    VFETCH_CPU_MASK respected) when choice < 128, else a lower one chosen by the low bits. */
unsigned fuzz_level_mask(uint8_t choice);

/** Make plans created from now on use mask (0: the scalar reference). */
void fuzz_use_levels(unsigned mask);

/** Back to the best level (what fuzz_level_mask(0) returns). */
void fuzz_use_best_levels(void);

/** Abort unless two outputs of the same run agree byte for byte; names the two sides. */
void fuzz_require_same(const uint8_t *a, const uint8_t *b, size_t n, const char *what_a,
                       const char *what_b);

#endif
