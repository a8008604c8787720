/* Filling the kernel table: reference first, then climb the ladder while the CPU allows. */
#include "dsp.h"

void vfetch_dsp_init(struct vfetch_dsp *dsp, unsigned allowed)
{
    memset(dsp, 0, sizeof *dsp);
    vfetch_dsp_init_c(dsp);
    vfetch_gx_index_init_c(dsp);
    dsp->bswap32_copy = vfetch_word_copy_bswap32_c;
    dsp->name = "c";
#if defined(__x86_64__) || defined(__i386__)
    if (!(allowed & VFETCH_CPU_SSE2))
        return;
#if VFETCH_BUILT_SSE2
    vfetch_dsp_init_sse2(dsp);
    vfetch_record_init_sse2(dsp);
    vfetch_gx_index_init_sse2(dsp);
    vfetch_copy_init_sse2(dsp);
    dsp->name = "sse2";
    dsp->level = VFETCH_CPU_SSE2;
#endif
    if (!(allowed & VFETCH_CPU_SSE41))
        return;
#if VFETCH_BUILT_SSE41
    vfetch_dsp_init_sse41(dsp);
    vfetch_record_init_sse41(dsp);
    vfetch_gx_index_init_sse41(dsp);
    vfetch_copy_init_sse41(dsp);
    dsp->name = "sse41";
    dsp->level = VFETCH_CPU_SSE41;
#endif
    if (!(allowed & VFETCH_CPU_AVX2))
        return;
#if VFETCH_BUILT_AVX2
    vfetch_dsp_init_avx2(dsp);
    vfetch_record_init_avx2(dsp);
    vfetch_gx_index_init_avx2(dsp);
    vfetch_copy_init_avx2(dsp);
    dsp->name = "avx2";
    dsp->level = VFETCH_CPU_AVX2;
#endif
    if (!(allowed & VFETCH_CPU_AVX512))
        return;
#if VFETCH_BUILT_AVX512
    vfetch_dsp_init_avx512(dsp);
    vfetch_record_init_avx512(dsp);
    vfetch_gx_index_init_avx512(dsp);
    vfetch_copy_init_avx512(dsp);
    dsp->name = "avx512";
    dsp->level = VFETCH_CPU_AVX512;
#endif
#elif defined(__aarch64__)
    if (!(allowed & VFETCH_CPU_NEON))
        return;
#if VFETCH_BUILT_NEON
    vfetch_dsp_init_neon(dsp);
    vfetch_record_init_neon(dsp);
    vfetch_gx_index_init_neon(dsp);
    vfetch_copy_init_neon(dsp);
    dsp->name = "neon";
    dsp->level = VFETCH_CPU_NEON;
#endif
#else
    (void)allowed;
#endif
}

void vfetch_dsp_current(struct vfetch_dsp *dsp)
{
    vfetch_dsp_init(dsp, vfetch_cpu_allowed());
}

const char *vfetch_cpu_name(void)
{
    struct vfetch_dsp dsp;
    vfetch_dsp_current(&dsp);
    return dsp.name;
}
