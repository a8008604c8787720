/*
 * The record-program executor (see lib/record.h), one generic loop for every vertex format,
 * compiled per ISA level: load window, then the passes (simd/record_passes.h: permute, shift,
 * convert, scale, blend, store). Levels without a byte shuffle (sse2) have none; the per-op
 * kernels run their plans.
 */
#include "record.h"
#include "dsp.h"
#include "simd/vec.h"

#if defined(VFETCH_ISA_SSE41) || defined(VFETCH_ISA_NEON) || defined(VFETCH_ISA_AVX2) ||  \
    defined(VFETCH_ISA_AVX512)

#include "simd/record_passes.h"

/*
 * One vector of the program over `groups` consecutive groups: the tables stay in registers,
 * only the window loads, the arithmetic and the store run per group. The cursors are
 * addresses held as integers: after the last group they step past the caller's buffers,
 * which a pointer may not (they are turned into pointers only for groups that exist).
 */
VEC_INLINE void rp_vector_loop(const struct vfetch_rp_vector *v, const uintptr_t *gbase,
                               const size_t *gstep, size_t groups, uintptr_t gdst, size_t dst_step,
                               const unsigned passes)
{
    const struct rp_regs r = rp_regs_load(v);
    const unsigned window = v->window;
    const uint64_t zmask = v->zmask, hzmask = v->hzmask;
    uintptr_t src[4] = { 0, 0, 0, 0 };
    size_t step[4] = { 0, 0, 0, 0 };
    if (passes & VFETCH_RP_LOAD)
        for (unsigned q = 0; q < 4 && q < VEC_LANES / 4; q++) {
            src[q] = gbase[v->stream[q]] + v->src_off[q];
            step[q] = gstep[v->stream[q]];
        }
    uintptr_t at = gdst + v->dst_off;
    for (size_t g = 0; g < groups; g++) {
        struct rp_window w = { vi_set1(0), vi_set1(0) };
        vi perm = vi_set1(0);
        if (passes & VFETCH_RP_LOAD) {
            const uint8_t *const p[4] = { (const uint8_t *)src[0], (const uint8_t *)src[1],
                                          (const uint8_t *)src[2], (const uint8_t *)src[3] };
            w = rp_load_window(window, p);
            perm = rp_permute(window, w, r.ctrl, zmask);
            for (unsigned q = 0; q < 4 && q < VEC_LANES / 4; q++)
                src[q] += step[q];
        }
        rp_store((uint8_t *)at, rp_convert(v, &r, perm, w, window, hzmask, passes), passes,
                 r.store_sel, v);
        at += dst_step;
    }
}

/* Every vector of a program over `groups` groups, a run of vectors with the same passes
   (record.h) at a time, one dispatch per run. One frame for the whole program: a call per run
   would cost its frame and arguments again, which short draws feel. */
static void rp_program_run(const struct vfetch_rp_vector *v, const struct vfetch_rp_vector *vend,
                           const uintptr_t *gbase, const size_t *gstep, size_t groups,
                           uintptr_t gdst, size_t dst_step)
{
    for (; v < vend; v += v->run) {
        const unsigned n = v->run;
#define RP_LOOP(k, P) rp_vector_loop(&v[k], gbase, gstep, groups, gdst, dst_step, (P))
#define RP_NEXT continue
        RP_DISPATCH(RP_VARIANTS128(0))
#undef RP_NEXT
#undef RP_LOOP
    }
}

/* Groups per block: prog->block (record.h), chosen at lowering. */

static VFETCH_RECORD_FN(NAME(record_run))
{
    /* A draw shorter than a group is all tail (groups 0: nothing here). */
    const size_t block = prog->block, dst_step = prog->dst_step;
    const unsigned num_read = prog->num_streams_read;
    uintptr_t gbase[VFETCH_MAX_STREAMS];
    for (unsigned i = 0; i < num_read; i++) {
        const unsigned s = prog->streams_read[i];
        gbase[s] = (uintptr_t)base[s];
    }
    const size_t *const gstep = prog->group_step;
    const struct vfetch_rp_vector *const vec = prog->vec, *const vend = vec + prog->num_vectors;
    uintptr_t gdst = (uintptr_t)dst;
    while (groups) {
        const size_t nb = groups < block ? groups : block;
        rp_program_run(vec, vend, gbase, gstep, nb, gdst, dst_step);
        groups -= nb;
        if (!groups)
            break; /* (most draws are one block: no cursor to move) */
        for (unsigned i = 0; i < num_read; i++) {
            const unsigned s = prog->streams_read[i];
            gbase[s] += nb * gstep[s];
        }
        gdst += nb * dst_step;
    }
}

void NAME(vfetch_record_init)(struct vfetch_dsp *dsp)
{
#if VEC_BITS == 512
    /* Zen 4 splits 512-bit ops: keep the 256-bit executor as the alternative. */
    dsp->record_narrow = dsp->record;
    dsp->record_narrow_lanes = dsp->record_lanes;
#else
    dsp->record_narrow = NULL;
#endif
    dsp->record = NAME(record_run);
    dsp->record_lanes = VEC_LANES;
    dsp->record_wide_windows = VEC_BITS == 512;
}

#else

void NAME(vfetch_record_init)(struct vfetch_dsp *dsp)
{
    (void)dsp; /* no byte shuffle at this level: plans use the per-op kernels */
}

#endif
