/*
 * The gathered-program executor (gx/gx_dsp.h), compiled per ISA level: each vector's 16-byte
 * pieces loaded from the addresses the columns hold, shuffled into the bytes the program's
 * window and ctrl would give, then the program's own passes (simd/record_passes.h).
 */
#include "gx/gx_dsp.h"
#include "simd/vec.h"

#if defined(VFETCH_ISA_SSE41) || defined(VFETCH_ISA_NEON) || defined(VFETCH_ISA_AVX2) ||  \
    defined(VFETCH_ISA_AVX512)

#include "simd/record_passes.h"

/* One register of 16-byte pieces, a piece per 128-bit lane: lane q's from c[off[q]]. */
VEC_INLINE vi rp_pieces(const uintptr_t *c, const size_t off[4])
{
#if VEC_BITS == 128
    return simde_mm_loadu_si128((const void *)c[off[0]]);
#elif VEC_BITS == 256
    return simde_mm256_loadu2_m128i((const simde__m128i *)c[off[1]],
                                    (const simde__m128i *)c[off[0]]);
#else
    vi a = simde_mm512_castsi128_si512(simde_mm_loadu_si128((const void *)c[off[0]]));
    a = simde_mm512_inserti32x4(a, simde_mm_loadu_si128((const void *)c[off[1]]), 1);
    a = simde_mm512_inserti32x4(a, simde_mm_loadu_si128((const void *)c[off[2]]), 2);
    return simde_mm512_inserti32x4(a, simde_mm_loadu_si128((const void *)c[off[3]]), 3);
#endif
}

/*
 * One vector of a gathered program over `groups` groups (record.h): its pieces loaded from
 * the addresses the columns hold, shuffled into the bytes the program's window and ctrl
 * would give, then the program's own passes.
 */
VEC_INLINE void rp_gather_loop(const struct vfetch_rp_vector *v,
                               const struct vfetch_rp_gather_vector *gv, const uintptr_t *col,
                               size_t col_stride, size_t group, size_t groups, uintptr_t gdst,
                               size_t dst_step, const unsigned passes)
{
    const struct rp_regs r = rp_regs_load(v);
    const unsigned regs = gv->regs;
    size_t off[VFETCH_RP_GATHER_REGS][4];
    vi ctrl[VFETCH_RP_GATHER_REGS];
    for (unsigned j = 0; j < VFETCH_RP_GATHER_REGS; j++) {
        /* the 128-bit lanes this level has (rp_pieces reads no other): a constant bound, so
           that the offsets stay in registers (a bound of `regs` put them on the stack) */
        for (unsigned q = 0; q < 4 && q < VEC_LANES / 4; q++)
            off[j][q] = gv->move[j][q] * col_stride + gv->vertex[j][q];
        ctrl[j] = vi_loadu(gv->ctrl[j]);
    }
    const uint64_t zmask = gv->zmask;
    (void)zmask;
    const struct rp_window none = { vi_set1(0), vi_set1(0) };
    uintptr_t at = gdst + v->dst_off;
    for (size_t g = 0; g < groups; g++) {
        vi perm = vi_set1(0);
        if (passes & VFETCH_RP_LOAD) {
            const uintptr_t *c = col + g * group;
#if VEC_BITS == 512
            const vi a = rp_pieces(c, off[0]);
            perm = regs > 1 ? simde_mm512_maskz_permutex2var_epi8(zmask, a, ctrl[0],
                                                                  rp_pieces(c, off[1]))
                            : simde_mm512_maskz_permutexvar_epi8(zmask, ctrl[0], a);
#else
            perm = rp_shuffle(rp_pieces(c, off[0]), ctrl[0]);
            for (unsigned j = 1; j < regs; j++)
                perm = vi_or(perm, rp_shuffle(rp_pieces(c, off[j]), ctrl[j]));
#endif
        }
        rp_store((uint8_t *)at, rp_convert(v, &r, perm, none, v->window, 0, passes),
                 passes, r.store_sel, v);
        at += dst_step;
    }
}

/* The same for a gathered program (gv: the run's gathered vectors). Only the variants that
   load are compiled: a vector that reads no source runs the generic loop. */
static void rp_gather_vector_run(const struct vfetch_rp_vector *v,
                                 const struct vfetch_rp_gather_vector *gv, unsigned n,
                                 const uintptr_t *col, size_t col_stride, size_t group,
                                 size_t groups, uintptr_t gdst, size_t dst_step)
{
#define RP_LOOP(k, P)                                                                       \
    rp_gather_loop(&v[k], &gv[k], col, col_stride, group, groups, gdst, dst_step, (P))
#define RP_NEXT return
    RP_DISPATCH(RP_VARIANTS32(VFETCH_RP_LOAD) RP_VARIANTS32(VFETCH_RP_LOAD | VFETCH_RP_WIDEN))
#undef RP_NEXT
#undef RP_LOOP
}

/* The gathered program's executor: the vectors in blocks of groups, as record_run. */
static VFETCH_RECORD_GATHER_FN(NAME(record_gather_run))
{
    const struct vfetch_record_prog *prog = gp->prog;
    const size_t group = prog->group, dst_step = prog->dst_step;
    uintptr_t gdst = (uintptr_t)dst;
    const size_t block = prog->block;
    for (size_t g0 = 0; g0 < groups; g0 += block) {
        const size_t nb = groups - g0 < block ? groups - g0 : block;
        for (unsigned k = 0; k < prog->num_vectors; k += prog->vec[k].run)
            rp_gather_vector_run(&prog->vec[k], &gp->vec[k], prog->vec[k].run, col + g0 * group,
                                 col_stride, group, nb, gdst, dst_step);
        gdst += nb * dst_step;
    }
}

void NAME(vfetch_gx_gather_init)(struct vfetch_gx_dsp *dsp)
{
#if VEC_BITS == 512
    /* Zen 4 splits 512-bit ops: a plan may keep its 256-bit program (lib/plan.c) */
    dsp->gather_narrow = dsp->gather;
    dsp->gather_narrow_lanes = dsp->gather_lanes;
#else
    dsp->gather_narrow = NULL;
    dsp->gather_narrow_lanes = 0;
#endif
    dsp->gather = NAME(record_gather_run);
    dsp->gather_lanes = VEC_LANES;
}

#else

void NAME(vfetch_gx_gather_init)(struct vfetch_gx_dsp *dsp)
{
    (void)dsp; /* no byte shuffle at this level: no record programs to gather */
}

#endif
