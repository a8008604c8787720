/* Guard-page buffers (see guard.h): one mapping per buffer, with a registry to unmap it, and the
   small ones kept for reuse. */
#define _DEFAULT_SOURCE
#include "guard.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct guard_map {
    void *user;
    void *base;
    size_t len;
};

#define GUARD_MAX_MAPS 4096
static struct guard_map guard_maps[GUARD_MAX_MAPS];

static size_t guard_page(void)
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

/* Freed small mappings kept for reuse: checkasm maps and unmaps a buffer or two per case,
   hundreds of thousands of times, and the system calls (and, under qemu, their emulation) were
   most of its time. A reused mapping is zeroed again, so it reads as a fresh one. */
#define GUARD_CACHE_MAX_LEN ((size_t)4 << 20)
#define GUARD_CACHE_SLOTS 64
static struct guard_map guard_cache[GUARD_CACHE_SLOTS];
/* The slot a freed mapping replaces when every slot is taken (round robin): the cache follows
   the sizes now in use, instead of keeping the first 64 sizes a test freed, which a later test
   never asks for (its every buffer then a fresh mapping, each page faulted in again). */
static size_t guard_cache_next;

/* Layout: [guard page][data pages][guard page]; the user buffer is placed at one end. */
static void *guard_alloc(size_t n, int at_tail)
{
    const size_t page = guard_page();
    if (n > SIZE_MAX - 3 * page)
        return NULL;
    const size_t data = (n + page - 1) / page * page;
    const size_t len = data + 2 * page;
    uint8_t *base = NULL;
    for (size_t i = 0; i < GUARD_CACHE_SLOTS && !base; i++) {
        if (guard_cache[i].base && guard_cache[i].len == len) {
            base = guard_cache[i].base;
            guard_cache[i].base = NULL;
            memset(base + page, 0, data);
        }
    }
    if (!base) {
        /* MAP_NORESERVE: a page costs memory only once touched (tests map many-GiB surfaces
           and use only their ends) */
        base = mmap(NULL, len, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED)
            return NULL;
        if (mprotect(base, page, PROT_NONE) || mprotect(base + page + data, page, PROT_NONE)) {
            munmap(base, len);
            return NULL;
        }
    }
    void *user = at_tail ? base + page + data - n : base + page;
    for (size_t i = 0; i < GUARD_MAX_MAPS; i++) {
        if (!guard_maps[i].base) {
            guard_maps[i] = (struct guard_map){ user, base, len };
            return user;
        }
    }
    munmap(base, len);
    return NULL;
}

void *guard_alloc_tail(size_t n)
{
    return guard_alloc(n, 1);
}

void *guard_alloc_head(size_t n)
{
    return guard_alloc(n, 0);
}

#ifndef GUARD_SPARSE_LIMIT
#define GUARD_SPARSE_LIMIT SIZE_MAX
#endif

size_t guard_sparse_limit(void)
{
    return GUARD_SPARSE_LIMIT;
}

void guard_free(void *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < GUARD_MAX_MAPS; i++) {
        if (guard_maps[i].base && guard_maps[i].user == p) {
            if (guard_maps[i].len > GUARD_CACHE_MAX_LEN) {
                munmap(guard_maps[i].base, guard_maps[i].len);
            } else {
                size_t slot = 0;
                while (slot < GUARD_CACHE_SLOTS && guard_cache[slot].base)
                    slot++;
                if (slot == GUARD_CACHE_SLOTS) { /* full: the oldest replaced goes */
                    slot = guard_cache_next;
                    guard_cache_next = (guard_cache_next + 1) % GUARD_CACHE_SLOTS;
                    munmap(guard_cache[slot].base, guard_cache[slot].len);
                }
                guard_cache[slot] = guard_maps[i];
            }
            guard_maps[i].base = NULL;
            return;
        }
    }
    abort(); /* not ours: a test bug */
}
