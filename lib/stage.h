/*
 * Stages: scratch memory a run copies source bytes into before converting them (the record
 * program's staged groups, the per-op path's staged records, GX's staged vertices).
 *
 * A stage is the caller's stack array when the bytes fit it, else one heap block. Builds
 * configured with -Dguard_stages=true (the test builds) put every stage in a mapping of its
 * own instead (fresh, or one the thread released, zeroed again), whose last byte is followed
 * by a PROT_NONE page (and whose first byte follows one when the size is a multiple of the page
 * size): a copy past the stage's end is then a crash in the tests, not a silent overwrite of
 * the stack.
 */
#ifndef VFETCH_STAGE_H
#define VFETCH_STAGE_H

#include <stddef.h>
#include <stdint.h>

struct vfetch_stage {
    uint8_t *data; /**< size bytes (16-byte aligned where size is a multiple of 16) */
    size_t size;
    void *owned;       /**< heap block or mapping to release, or NULL (the stack array) */
    size_t owned_size; /**< bytes of the mapping (guard builds) */
};

/** vfetch_stage_open() where the stack array does not do (need > stack_size), or any stage of
    a guard build: a heap block or a guarded mapping. */
int vfetch_stage_open_owned(struct vfetch_stage *stage, uint8_t *stack, size_t stack_size,
                            size_t need);

/** vfetch_stage_close() of an owned stage. */
void vfetch_stage_release(struct vfetch_stage *stage);

/**
 * Open a stage of at least `need` bytes (at least stack_size: the stage is then used whole).
 * Returns 0, or VFETCH_ENOMEM with nothing to close. Inline: a small draw's stage is the
 * stack array, which costs a call no more.
 */
static inline int vfetch_stage_open(struct vfetch_stage *stage, uint8_t *stack, size_t stack_size,
                                    size_t need)
{
#if !VFETCH_GUARD_STAGES
    if (need <= stack_size) {
        stage->data = stack;
        stage->size = stack_size;
        stage->owned = NULL;
        stage->owned_size = 0;
        return 0;
    }
#endif
    return vfetch_stage_open_owned(stage, stack, stack_size, need);
}

/** Release what vfetch_stage_open took. */
static inline void vfetch_stage_close(struct vfetch_stage *stage)
{
    if (stage->owned)
        vfetch_stage_release(stage);
}

#endif
