/* Contract-check helpers shared by the fuzz targets (see fuzz_check.h). */
#include "fuzz_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "vfetch/vfetch.h"

void fuzz_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "\nFUZZ CONTRACT VIOLATION at %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    abort();
}

void fuzz_trace(const char *fmt, ...)
{
    static int enabled = -1;
    if (enabled < 0)
        enabled = getenv("VFETCH_FUZZ_TRACE") != NULL;
    if (!enabled)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

uint8_t *fuzz_buf_alloc(size_t n)
{
    uint8_t *p = guard_alloc_tail(n);
    if (!p) {
        fprintf(stderr, "fuzz: cannot map a guarded buffer of %zu bytes\n", n);
        abort();
    }
    return p;
}

void fuzz_buf_free(void *p)
{
    guard_free(p);
}

void fuzz_canary_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = fuzz_canary(i);
}

size_t fuzz_canary_first_change(const uint8_t *p, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (p[i] != fuzz_canary(i))
            return i;
    return SIZE_MAX;
}

void fuzz_require_canary(const uint8_t *p, size_t from, size_t to, const char *what)
{
    const size_t at = fuzz_canary_first_change(p, from, to);
    FUZZ_REQUIRE(at == SIZE_MAX, "%s: byte %zu of [%zu, %zu) was written (0x%02x, canary 0x%02x)",
                 what, at, from, to, at == SIZE_MAX ? 0u : p[at], fuzz_canary(at));
}

/* The levels in effect before any target changed the mask: read once, so that a run under
   VFETCH_CPU_MASK=sse41 fuzzes sse41 against the reference. */
static unsigned fuzz_best_mask(void)
{
    static int known;
    static unsigned best;
    if (!known) {
        best = vfetch_cpu_flags();
        known = 1;
    }
    return best;
}

unsigned fuzz_level_mask(uint8_t choice)
{
    const unsigned best = fuzz_best_mask();
    if (choice < 128)
        return best;
    /* Keep the lowest (choice % 8) levels the CPU has: every level below the best one. */
    unsigned mask = 0, kept = 0;
    for (unsigned bit = 0; bit < 32 && kept < (choice & 7u); bit++) {
        if (best >> bit & 1) {
            mask |= 1u << bit;
            kept++;
        }
    }
    return mask;
}

void fuzz_use_levels(unsigned mask)
{
    fuzz_best_mask(); /* remember the original levels before changing them */
    vfetch_set_cpu_mask(mask);
}

void fuzz_use_best_levels(void)
{
    vfetch_set_cpu_mask(fuzz_best_mask());
}

void fuzz_require_same(const uint8_t *a, const uint8_t *b, size_t n, const char *what_a,
                       const char *what_b)
{
    if (memcmp(a, b, n) == 0)
        return;
    size_t i = 0;
    while (a[i] == b[i])
        i++;
    const size_t from = i & ~(size_t)15;
    fprintf(stderr, "outputs differ first at byte %zu of %zu\n", i, n);
    for (size_t k = from; k < n && k < from + 32; k += 16) {
        fprintf(stderr, "  %6zu %-10s", k, what_a);
        for (size_t j = k; j < k + 16 && j < n; j++)
            fprintf(stderr, " %02x", a[j]);
        fprintf(stderr, "\n  %6zu %-10s", k, what_b);
        for (size_t j = k; j < k + 16 && j < n; j++)
            fprintf(stderr, " %02x", b[j]);
        fputc('\n', stderr);
    }
    fuzz_fail(__FILE__, __LINE__, "%s and %s outputs differ", what_a, what_b);
}
