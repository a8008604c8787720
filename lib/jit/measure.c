/*
 * Which tier runs a plan's long draws, measured on the machine at hand (docs/jit.md, "Which
 * tier runs a draw"): for classes of formats whose members went both ways on the CPUs measured,
 * a compile times one draw of synthetic records through the generated code and through the
 * portable tier, alternately, and keeps the faster; where the portable tier wins, a short draw
 * through both places the crossover between them. Both tiers write the same bytes (the
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

/* The fastest of several runs of a draw of `count` records through each tier (best[portable],
   ns a draw), alternately, the first of each a warm-up: an interrupt or a descheduled slice
   only adds time, so the minimum is the draw's own cost. A run of the short draw is four of
   them, so that the clock's own cost weighs less. */
static void fastest_runs(vfetch_jit_measure_fn *run, void *ctx, uint32_t count, uint64_t best[2])
{
    const uint32_t draws = count < VFETCH_JIT_MEASURE_RECORDS ? 4 : 1;
    best[0] = best[1] = UINT64_MAX;
    for (unsigned r = 0; r < 2 * VFETCH_JIT_MEASURE_ROUNDS; r++) {
        const int portable = (int)(r & 1);
        const uint64_t t0 = now_ns();
        for (uint32_t d = 0; d < draws; d++)
            run(ctx, portable, count);
        const uint64_t t = (now_ns() - t0) / draws;
        if (r >= 2 && t < best[portable])
            best[portable] = t;
    }
}

/* Whether a time (ns) is at least `percent` % below another's: clearly faster. */
static int leads_by(uint64_t t, uint64_t other, unsigned percent)
{
    return t * 100 < other * (100 - percent);
}

uint32_t vfetch_jit_measured_crossover(vfetch_jit_measure_fn *run, void *ctx,
                                       int portable_default, uint32_t fixed, uint64_t at_long[2])
{
    at_long[0] = at_long[1] = 0;
    switch (vfetch_jit_measure_mode()) {
    case VFETCH_JIT_MEASURE_OFF: return portable_default > 0 ? fixed : UINT32_MAX;
    case VFETCH_JIT_MEASURE_GENERATED: return UINT32_MAX;
    case VFETCH_JIT_MEASURE_PORTABLE: return fixed;
    case VFETCH_JIT_MEASURE_TIME: break;
    }
    uint64_t at_short[2];
    fastest_runs(run, ctx, VFETCH_JIT_MEASURE_RECORDS, at_long);
    /* the class's default unless the other tier is clearly faster; with none, the faster */
    const int portable_leads = leads_by(at_long[1], at_long[0], 10);
    const int portable = portable_default < 0 ? at_long[1] < at_long[0]
                         : portable_default  ? !leads_by(at_long[0], at_long[1], 10)
                                             : portable_leads;
    if (!portable)
        return UINT32_MAX;
    /* kept by default, not clearly faster: from the long draw on. Within 10 % the line
       through the two draws' differences crosses 0 where the noise puts it (the kit's e at
       avx512, Intel Xeon: 91 to 1,024 in ten compiles, and its 256-vertex draws through the
       program 0.85x) */
    if (portable_default > 0 && !portable_leads)
        return VFETCH_JIT_MEASURE_RECORDS;
    fastest_runs(run, ctx, VFETCH_JIT_MEASURE_SHORT, at_short);
    return vfetch_jit_crossover_fit(at_short, at_long);
}

int vfetch_jit_measured_second(vfetch_jit_measure_fn *run, void *ctx, uint32_t count,
                               unsigned lead_percent)
{
    uint64_t best[2];
    fastest_runs(run, ctx, count, best);
    return leads_by(best[1], best[0], lead_percent);
}

int vfetch_jit_past_l1_wanted(uint32_t crossover, const uint64_t at_long[2])
{
    return crossover != UINT32_MAX ||
           !leads_by(at_long[0], at_long[1], VFETCH_JIT_MEASURE_PAST_L1_LEAD);
}

/* The answer of one draw past the L1 through ctx (vfetch_jit_past_l1_crossover). */
static uint32_t past_l1_answer(vfetch_jit_measure_fn *run, void *ctx, uint32_t crossover)
{
    uint64_t best[2], again[2];
    fastest_runs(run, ctx, VFETCH_JIT_MEASURE_PAST_L1, best);
    /* within 10 points of the lead asked for, timed again and the fastest of both kept, so
       that a slow phase of the machine under one tier's runs does not decide (r300-r2's lead
       there, 25-30 % on an Intel Xeon, measured 25 % in some processes) */
    const unsigned lead = VFETCH_JIT_MEASURE_PAST_L1_LEAD;
    if (crossover != UINT32_MAX && leads_by(best[0], best[1], lead - 10) &&
        !leads_by(best[0], best[1], lead + 10)) {
        fastest_runs(run, ctx, VFETCH_JIT_MEASURE_PAST_L1, again);
        for (unsigned k = 0; k < 2; k++)
            best[k] = again[k] < best[k] ? again[k] : best[k];
    }
    return vfetch_jit_past_l1_crossover(best, crossover);
}

int vfetch_jit_past_l1_again(uint32_t kept, uint32_t answer)
{
    return kept != UINT32_MAX && answer != UINT32_MAX;
}

uint32_t vfetch_jit_measured_past_l1(vfetch_jit_measure_fn *run,
                                     vfetch_jit_past_l1_setup_fn *setup, const void *owner,
                                     void *ctx, void *again, uint32_t crossover,
                                     const uint64_t at_long[2])
{
    if (vfetch_jit_measure_mode() != VFETCH_JIT_MEASURE_TIME ||
        !vfetch_jit_past_l1_wanted(crossover, at_long))
        return crossover;
    uint8_t *buf = setup(owner, ctx);
    if (!buf)
        return crossover;
    uint32_t answer = past_l1_answer(run, ctx, crossover);
    uint8_t *other; /* set up while buf is held: at another address */
    if (vfetch_jit_past_l1_again(crossover, answer) && (other = setup(owner, again))) {
        if (past_l1_answer(run, again, crossover) == UINT32_MAX)
            answer = UINT32_MAX;
        free(other);
    }
    free(buf);
    return answer;
}

uint32_t vfetch_jit_past_l1_crossover(const uint64_t past_l1[2], uint32_t crossover)
{
    /* the program kept at 1,024: the generated code takes every count where it clearly leads
       past the L1 */
    if (crossover != UINT32_MAX)
        return leads_by(past_l1[0], past_l1[1], VFETCH_JIT_MEASURE_PAST_L1_LEAD) ? UINT32_MAX
                                                                                 : crossover;
    /* the generated code 10 % faster at 1,024: the program keeps the draws from there where it
       is the faster past the L1 */
    return past_l1[1] < past_l1[0] ? VFETCH_JIT_MEASURE_RECORDS : UINT32_MAX;
}

uint32_t vfetch_jit_crossover_fit(const uint64_t at_short[2], const uint64_t at_long[2])
{
    /* the generated code's lead (its time less the portable tier's) as a straight line through
       the short and the long draw, crossing 0 at the crossover; a draw's fixed part favours
       the generated code, so the line falls with the count */
    const double lo = VFETCH_JIT_MEASURE_SHORT, hi = VFETCH_JIT_MEASURE_RECORDS;
    const double d_short = (double)at_short[0] - (double)at_short[1],
                 d_long = (double)at_long[0] - (double)at_long[1];
    double n = hi; /* the default's choice, the long draw no faster through the portable tier */
    if (d_long > 0)
        n = d_short >= d_long ? VFETCH_JIT_MEASURE_LEAST
                              : lo + (hi - lo) * -d_short / (d_long - d_short);
    if (n < VFETCH_JIT_MEASURE_LEAST)
        n = VFETCH_JIT_MEASURE_LEAST;
    return n > hi ? (uint32_t)hi : (uint32_t)n;
}
