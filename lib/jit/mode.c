/*
 * The JIT's switches: the mode a plan is created under (vfetch_set_jit_mode, VFETCH_JIT read
 * once), and whether generated code can run here. Built everywhere, so that the API is the same
 * with and without the JIT.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cpu.h"
#include "jit/jit.h"

/* The mode + MODE_SET once it holds a value (0 until the first use reads the environment, or a
   call sets it); one word, as the CPU mask (lib/cpu.c). */
#define MODE_SET 0x100
static atomic_int jit_mode_word;

static int parse_mode(const char *text, int *ok)
{
    *ok = 1;
    if (!strcasecmp(text, "0") || !strcasecmp(text, "off"))
        return VFETCH_JIT_OFF;
    if (!strcasecmp(text, "1") || !strcasecmp(text, "on"))
        return VFETCH_JIT_ON;
    if (!strcasecmp(text, "compare"))
        return VFETCH_JIT_COMPARE;
    *ok = 0;
    return VFETCH_JIT_ON;
}

enum vfetch_jit_mode vfetch_jit_mode_now(void)
{
    int word = atomic_load(&jit_mode_word);
    if (!(word & MODE_SET)) {
        const char *env = getenv("VFETCH_JIT");
        int ok = 1, want = env ? parse_mode(env, &ok) : VFETCH_JIT_ON;
        if (!ok)
            fprintf(stderr, "vfetch: VFETCH_JIT=\"%s\" is none of 0, off, 1, on, compare: ignored\n",
                    env);
        int expected = 0;
        word = atomic_compare_exchange_strong(&jit_mode_word, &expected, want | MODE_SET)
                   ? want | MODE_SET
                   : expected;
    }
    return (enum vfetch_jit_mode)(word & ~MODE_SET);
}

int vfetch_set_jit_mode(enum vfetch_jit_mode mode)
{
    if ((unsigned)mode > VFETCH_JIT_COMPARE)
        return VFETCH_EINVAL;
    atomic_store(&jit_mode_word, (int)mode | MODE_SET);
    return VFETCH_OK;
}

enum vfetch_jit_mode vfetch_get_jit_mode(void)
{
    return vfetch_jit_mode_now();
}

int vfetch_jit_available(void)
{
#if VFETCH_HAVE_JIT
    return vfetch_jit_memory_method()[0] != 'n';
#else
    return 0;
#endif
}

#if !VFETCH_HAVE_JIT
/* (with the JIT, lib/jit/exec_memory.c answers, from the arena's own figures) */
int vfetch_jit_memory_usage(struct vfetch_jit_memory_usage *usage)
{
    if (!usage)
        return VFETCH_EINVAL;
    *usage = (struct vfetch_jit_memory_usage){ .method = "none" };
    return VFETCH_OK;
}
#endif

const char *vfetch_jit_unavailable(enum vfetch_jit_mode mode)
{
    if (!VFETCH_HAVE_JIT)
        return "this build has no JIT (x86-64 with Zydis, -Djit not disabled)";
    if (mode == VFETCH_JIT_OFF)
        return "the JIT is off (VFETCH_JIT=0 or vfetch_set_jit_mode)";
    if (!(vfetch_cpu_allowed() & (VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2)))
        return "the generated code needs the sse41 level at least";
    return NULL;
}

int vfetch_jit_division_env(void)
{
    /* read on every compile, as VFETCH_JIT_CROSSOVER is */
    const char *env = getenv("VFETCH_JIT_DIVISION");
    if (!env)
        return -1;
    if (!strcmp(env, "fma"))
        return VFETCH_JIT_FMA;
    if (!strcmp(env, "divide"))
        return VFETCH_JIT_DIVIDE;
    return -1;
}

int vfetch_jit_colour_words_env(void)
{
    /* read on every compile, as VFETCH_JIT_DIVISION is */
    const char *env = getenv("VFETCH_JIT_COLOUR_WORDS");
    return !env || strcmp(env, "0") != 0;
}

/* An environment variable set to "0" or "1": that value; else -1. Read on every compile, as
   VFETCH_JIT_DIVISION is. */
static int env_switch(const char *name)
{
    const char *env = getenv(name);
    return env && !strcmp(env, "0") ? 0 : env && !strcmp(env, "1") ? 1 : -1;
}

int vfetch_jit_groups_env(void)
{
    return env_switch("VFETCH_JIT_GROUPS");
}

int vfetch_jit_gather_env(void)
{
    return env_switch("VFETCH_JIT_GATHER");
}

int vfetch_jit_held_env(void)
{
    /* read on every compile, as VFETCH_JIT_DIVISION is */
    const char *env = getenv("VFETCH_JIT_HELD");
    return env && env[0] >= '0' && env[0] <= '3' && !env[1] ? env[0] - '0' : -1;
}

int vfetch_jit_movbe_indices(void)
{
    /* The default by vendor, each measured (docs/decisions.md, "JIT: 16-bit indices by
       movbe"): one `movbe r8w` where `movzx` and `rol` were two took f's state draw from 1,583
       to 1,424 instructions at 16 vertices on a Zen 3; on an Intel Xeon the same draw ran
       1.07-1.13x faster without it (Intel's cores take a 16-bit movbe as three micro-ops, and
       each merges into r8 behind the last). */
    const int asked = env_switch("VFETCH_JIT_MOVBE");
    return asked >= 0 ? asked : vfetch_cpu_amd();
}

int vfetch_jit_store_halves(void)
{
    /* The default by vendor, each measured (docs/decisions.md, "JIT: 8-lane group stores off
       32 bytes"): an Intel Xeon ran draws of 256-4,096 records with their output 16 bytes
       past a line 1.04-1.5x faster in halves (it splits a store across a line in two); a
       Zen 4 ran the same draws 1.05-1.3x faster with whole 32-byte stores. */
    const int asked = env_switch("VFETCH_JIT_HALVES");
    return asked >= 0 ? asked : !vfetch_cpu_amd();
}

uint32_t vfetch_jit_crossover_env(void)
{
    /* read on every compile: a benchmark sets it to measure where the tiers cross */
    const char *env = getenv("VFETCH_JIT_CROSSOVER");
    const unsigned long n = env ? strtoul(env, NULL, 0) : 0;
    return n <= UINT32_MAX ? (uint32_t)n : 0;
}
