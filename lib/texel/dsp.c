/* Filling the texel kernel table: the reference everywhere, then climb the ISA ladder. */
#include <string.h>

#include "dsp.h"
#include "texel/texel_internal.h"

void vfetch_texel_dsp_init(struct vfetch_texel_dsp *dsp, unsigned allowed)
{
    memset(dsp, 0, sizeof *dsp);
    dsp->name = "c";
#if defined(__x86_64__) || defined(__i386__)
    if (!(allowed & VFETCH_CPU_SSE2))
        return;
#if VFETCH_BUILT_SSE2
    vfetch_texel_packed_init_sse2(dsp);
    vfetch_texel_block_init_sse2(dsp);
    dsp->name = "sse2";
#endif
    if (!(allowed & VFETCH_CPU_SSE41))
        return;
#if VFETCH_BUILT_SSE41
    vfetch_texel_packed_init_sse41(dsp);
    vfetch_texel_block_init_sse41(dsp);
    dsp->name = "sse41";
#endif
    if (!(allowed & VFETCH_CPU_AVX2))
        return;
#if VFETCH_BUILT_AVX2
    vfetch_texel_packed_init_avx2(dsp);
    vfetch_texel_block_init_avx2(dsp);
    dsp->name = "avx2";
#endif
    if (!(allowed & VFETCH_CPU_AVX512))
        return;
#if VFETCH_BUILT_AVX512
    vfetch_texel_packed_init_avx512(dsp);
    vfetch_texel_block_init_avx512(dsp);
    dsp->name = "avx512";
#endif
#elif defined(__aarch64__)
    if (!(allowed & VFETCH_CPU_NEON))
        return;
#if VFETCH_BUILT_NEON
    vfetch_texel_packed_init_neon(dsp);
    vfetch_texel_block_init_neon(dsp);
    dsp->name = "neon";
#endif
#else
    (void)allowed;
#endif
}
