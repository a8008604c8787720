/* Stages (see stage.h): the stack array, a heap block, or in guard builds a guarded mapping. */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS under -std=c11 */
#include <stdlib.h>

#include "stage.h"
#include "vfetch/vfetch.h"

#if VFETCH_GUARD_STAGES
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Each thread's last released mappings, kept for its next stages of the same sizes: tests run
   hundreds of thousands of draws, and fresh mappings' system calls and page faults were most of
   a guard build's test time. A mapping's guard pages stay where they are and its bytes are
   zeroed again, so it is what a fresh mapping would be. */
#define STAGE_SPARES 4
static _Thread_local struct {
    uint8_t *map;
    size_t total;
} stage_spare[STAGE_SPARES];

/* size bytes ending exactly at a PROT_NONE page, with another PROT_NONE page before them. */
static int stage_map(struct vfetch_stage *stage, size_t size)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t body = (size + page - 1) / page * page;
    if (body < size || body > SIZE_MAX - 2 * page)
        return VFETCH_ENOMEM;
    const size_t total = body + 2 * page;
    uint8_t *map = NULL;
    for (unsigned i = 0; i < STAGE_SPARES && !map; i++) {
        if (stage_spare[i].map && stage_spare[i].total == total) {
            map = stage_spare[i].map;
            stage_spare[i].map = NULL;
            memset(map + page, 0, body);
        }
    }
    if (!map) {
        map = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map == MAP_FAILED)
            return VFETCH_ENOMEM;
        if (mprotect(map, page, PROT_NONE) || mprotect(map + page + body, page, PROT_NONE)) {
            munmap(map, total);
            return VFETCH_ENOMEM;
        }
    }
    stage->data = map + page + (body - size);
    stage->size = size;
    stage->owned = map;
    stage->owned_size = total;
    return VFETCH_OK;
}
#endif

int vfetch_stage_open_owned(struct vfetch_stage *stage, uint8_t *stack, size_t stack_size,
                            size_t need)
{
    const size_t size = need > stack_size ? need : stack_size;
    (void)stack; /* where the stack array does, vfetch_stage_open() took it inline */
    stage->owned = NULL;
    stage->owned_size = 0;
#if VFETCH_GUARD_STAGES
    return stage_map(stage, size);
#else
    stage->data = stage->owned = malloc(size);
    stage->size = size;
    return stage->data ? VFETCH_OK : VFETCH_ENOMEM;
#endif
}

void vfetch_stage_release(struct vfetch_stage *stage)
{
#if VFETCH_GUARD_STAGES
    if (stage->owned) {
        unsigned i = 0;
        while (i < STAGE_SPARES && stage_spare[i].map)
            i++;
        if (i < STAGE_SPARES) {
            stage_spare[i].map = stage->owned;
            stage_spare[i].total = stage->owned_size;
        } else {
            munmap(stage->owned, stage->owned_size);
        }
    }
#else
    free(stage->owned);
#endif
    stage->owned = NULL;
}
