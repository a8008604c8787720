/*
 * Which tier runs a plan's long draws, measured on the machine at hand (docs/jit.md, "Which
 * tier runs a draw"): for classes of formats whose members went both ways on the CPUs measured,
 * a compile times one draw of synthetic records through the generated code and through the
 * portable tier, alternately, and keeps the faster. Both tiers write the same bytes (the
 * conformance tests prove it), so the choice moves speed only.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jit/jit.h"

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

enum vfetch_jit_measure vfetch_jit_measure_mode(void)
{
    /* read on every compile, as VFETCH_JIT_CROSSOVER is: a test or a benchmark sets it */
    const char *env = getenv("VFETCH_JIT_MEASURE");
    if (!env || !*env)
        return VFETCH_JIT_MEASURE_TIME;
    if (!strcmp(env, "0") || !strcmp(env, "off"))
        return VFETCH_JIT_MEASURE_OFF;
    if (!strcmp(env, "portable"))
        return VFETCH_JIT_MEASURE_PORTABLE;
    if (!strcmp(env, "generated"))
        return VFETCH_JIT_MEASURE_GENERATED;
    return VFETCH_JIT_MEASURE_TIME;
}

int vfetch_jit_portable_faster(void (*run)(void *ctx, int portable), void *ctx,
                                int portable_default)
{
    switch (vfetch_jit_measure_mode()) {
    case VFETCH_JIT_MEASURE_OFF: return portable_default > 0;
    case VFETCH_JIT_MEASURE_GENERATED: return 0;
    case VFETCH_JIT_MEASURE_PORTABLE: return 1;
    case VFETCH_JIT_MEASURE_TIME: break;
    }
    /* The fastest of several runs each, alternately, the first of each a warm-up: an interrupt
       or a descheduled slice only adds time, so the minimum is the draw's own cost. */
    uint64_t best[2] = { UINT64_MAX, UINT64_MAX };
    for (unsigned r = 0; r < 2 * VFETCH_JIT_MEASURE_ROUNDS; r++) {
        const int portable = (int)(r & 1);
        const uint64_t t0 = now_ns();
        run(ctx, portable);
        const uint64_t t = now_ns() - t0;
        if (r >= 2 && t < best[portable])
            best[portable] = t;
    }
    /* the class's default unless the other tier is clearly faster */
    if (portable_default < 0)
        return best[1] < best[0];
    return portable_default ? !(best[0] * 10 < best[1] * 9) : best[1] * 10 < best[0] * 9;
}
