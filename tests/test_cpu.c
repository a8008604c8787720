/*
 * The CPU mask's one meaning (include/vfetch/vfetch.h): a flag bit allows its level and the
 * levels it implies; vfetch_get_cpu_mask() reads back what is in force; VFETCH_CPU_MASK takes
 * level names in any case or numbers, and anything else is reported on stderr and ignored.
 *
 * Run once without arguments (the calls), and by meson once per environment case with
 * `--env EXPECTED [MESSAGE]`: the mask the environment must give (hex), and whether stderr
 * must carry the rejection ("rejected") or nothing ("quiet").
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, pread, dup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vfetch/vfetch.h>

#include "testutil.h"

#define X86_LEVELS (VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2 | VFETCH_CPU_AVX512)

/* Each flag bit alone allows the levels below it; the flags in force follow the mask. */
static void test_implied_levels(void)
{
    const unsigned saved = vfetch_get_cpu_mask();
    static const struct {
        unsigned set, get;
    } cases[] = {
        { 0, 0 },
        { VFETCH_CPU_SSE2, VFETCH_CPU_SSE2 },
        { VFETCH_CPU_SSE41, VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 },
        { VFETCH_CPU_AVX2, VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2 },
        { VFETCH_CPU_AVX512, X86_LEVELS },
        { VFETCH_CPU_AVX2 | VFETCH_CPU_SSE2, VFETCH_CPU_SSE2 | VFETCH_CPU_SSE41 | VFETCH_CPU_AVX2 },
        { VFETCH_CPU_NEON, VFETCH_CPU_NEON },
        { ~0u, ~0u },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vfetch_set_cpu_mask(cases[i].set);
        CHECK_EQ(vfetch_get_cpu_mask(), cases[i].get);
        /* nothing outside the mask is used, and a level the mask allows is used if present */
        const unsigned flags = vfetch_cpu_flags();
        CHECK_EQ(flags & ~cases[i].get, 0u);
        vfetch_set_cpu_mask(~0u);
        const unsigned all = vfetch_cpu_flags();
        CHECK_EQ(flags, all & cases[i].get);
    }
    /* AVX2 alone picks avx2 where the CPU has it (before: the scalar path) */
    vfetch_set_cpu_mask(~0u);
    if (vfetch_cpu_flags() & VFETCH_CPU_AVX2) {
        vfetch_set_cpu_mask(VFETCH_CPU_AVX2);
        CHECK(strcmp(vfetch_cpu_name(), "avx2") == 0);
    }
    vfetch_set_cpu_mask(0);
    CHECK(strcmp(vfetch_cpu_name(), "c") == 0);
    /* restoring what was read */
    vfetch_set_cpu_mask(saved);
    CHECK_EQ(vfetch_get_cpu_mask(), saved);
}

/* The environment's mask, read at the first use, with stderr captured around it. */
static void test_environment(unsigned expected, const char *message)
{
    char path[] = "/tmp/vfetch-test-cpu-XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    fflush(stderr);
    const int saved = dup(2);
    dup2(fd, 2);
    const unsigned got = vfetch_get_cpu_mask(); /* the first use: reads VFETCH_CPU_MASK */
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[512] = "";
    const ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    const char *env = getenv("VFETCH_CPU_MASK");
    printf("cpu: VFETCH_CPU_MASK=\"%s\" -> mask 0x%x, stderr \"%.*s\"\n", env ? env : "(unset)",
           got, (int)strcspn(text, "\n"), text);
    CHECK_EQ(got, expected);
    if (strcmp(message, "rejected") == 0) {
        CHECK(strstr(text, "vfetch: VFETCH_CPU_MASK=") != NULL);
        CHECK(strstr(text, "ignored") != NULL);
    } else {
        CHECK_EQ(n, 0);
    }
    /* and what it read stays in force for every plan until set */
    CHECK_EQ(vfetch_get_cpu_mask(), expected);
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--env") == 0)
        test_environment((unsigned)strtoul(argv[2], NULL, 16), argv[3]);
    else
        test_implied_levels();
    return test_summary("cpu");
}
