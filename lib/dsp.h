/*
 * The kernel table: one entry per format x conversion, filled once per CPU level by climbing
 * the ISA ladder (reference first, then sse2, sse41, avx2, avx512 or neon), dav1d-style.
 */
#ifndef VFETCH_DSP_H
#define VFETCH_DSP_H

#include "kernel.h"
#include "ladder.h"

struct vfetch_dsp {
    vfetch_convert_fn *convert[VFETCH_FORMAT_COUNT][VFETCH_CONV_COUNT];
    /** Name of the best level applied ("c" for the reference only). */
    const char *name;
    /** Its vfetch_cpu_flag bit (0 for the reference). */
    unsigned level;
    /** The record-program executor of the best level that has one, or NULL. */
    vfetch_record_fn *record;
    /** Lanes per vector of that executor, and whether it takes 32/64/128-byte windows. */
    unsigned record_lanes;
    int record_wide_windows;
    /** The next-narrower level's executor (avx2 under avx512), or NULL: a plan whose vectors
        would mix many lane kinds may run cheaper on narrower vectors (vfetch_record_cost). */
    vfetch_record_fn *record_narrow;
    unsigned record_narrow_lanes;
    /** The byte-reversing copy of word-copy plans (lib/word_copy.c; the copy as stored is
        vfetch_word_copy_c, memcpy, at every level). */
    vfetch_word_copy_fn *bswap32_copy;
};

/** Fill a table for the levels in allowed (vfetch_cpu_flag bits). */
void vfetch_dsp_init(struct vfetch_dsp *dsp, unsigned allowed);

/** The table for the current CPU and mask (computed on each call; cheap, no global state). */
void vfetch_dsp_current(struct vfetch_dsp *dsp);

/* Per-level initialisers, each defined in its level's compilation of the lib/simd templates (and
   the reference one in lib/ref/). A level only overwrites the entries it implements. */
void vfetch_dsp_init_c(struct vfetch_dsp *dsp);
VFETCH_LADDER_DECLARE(vfetch_dsp_init, struct vfetch_dsp);
VFETCH_LADDER_DECLARE(vfetch_record_init, struct vfetch_dsp);
VFETCH_LADDER_DECLARE(vfetch_copy_init, struct vfetch_dsp);
/** The reference word copies (lib/word_copy.c). */
void vfetch_word_copy_c(const uint8_t *src, uint8_t *dst, size_t bytes);
void vfetch_word_copy_bswap32_c(const uint8_t *src, uint8_t *dst, size_t bytes);

#endif
