/*
 * Memory for generated code, never writable and executable at once, in one of two ways,
 * probed once per process:
 *
 *  - arena (the default): chunks of a memfd, each mapped twice, a read-write view the code is
 *    written through and a read-execute view it runs at (the code is generated for the execute
 *    view's address). A plan's code takes a block of a chunk and gives it back when the plan
 *    is freed: no system call per plan, where a mapping of its own costs more in mmap,
 *    first-touch faults, mprotect and munmap than compiling the whole plan does
 *    (docs/decisions.md, "Measured choices"). Refused where memfds may not be executable
 *    (vm.memfd_noexec, SELinux);
 *  - mprotect: each plan's code in pages of its own, written read-write, then mprotect'ed
 *    read-execute; refused under SELinux execmem and PaX MPROTECT.
 *
 * Where neither works plans keep the record program (vfetch_plan_info says so).
 * VFETCH_JIT_MEMORY=mprotect in the environment forces the second way (its tests).
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jit/jit.h"

enum { METHOD_UNKNOWN = 0, METHOD_ARENA = 1, METHOD_MPROTECT = 2, METHOD_NONE = 3 };

static atomic_int memory_method = METHOD_UNKNOWN;

/* Arena chunks: 256 KiB, in blocks of 256 bytes (a bit each). A plan whose code needs more
   than half a chunk gets pages of its own, the mprotect way, or none. */
#define CHUNK_BYTES (256u << 10)
#define BLOCK_BYTES 256u
#define CHUNK_BLOCKS (CHUNK_BYTES / BLOCK_BYTES)
#define MAX_CHUNKS 64

struct chunk {
    uint8_t *rw, *rx;
    uint64_t used[CHUNK_BLOCKS / 64];
};

static struct chunk chunks[MAX_CHUNKS];
static unsigned num_chunks;
static atomic_flag arena_lock = ATOMIC_FLAG_INIT;

static void lock(void)
{
    while (atomic_flag_test_and_set_explicit(&arena_lock, memory_order_acquire))
        ;
}

static void unlock(void)
{
    atomic_flag_clear_explicit(&arena_lock, memory_order_release);
}

static size_t page_round(size_t bytes)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (bytes + page - 1) / page * page;
}

/* A memfd of `bytes` mapped twice: *rw read-write, *rx read-execute. */
static int memfd_open(size_t bytes, uint8_t **rw, uint8_t **rx)
{
    const int fd = memfd_create("vfetch-jit", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    void *x = MAP_FAILED, *w = MAP_FAILED;
    if (ftruncate(fd, (off_t)bytes) == 0) {
        x = mmap(NULL, bytes, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
        if (x != MAP_FAILED)
            w = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    close(fd);
    if (w == MAP_FAILED) {
        if (x != MAP_FAILED)
            munmap(x, bytes);
        return -1;
    }
    *rw = w;
    *rx = x;
    return 0;
}

/* Which way this process can use: the arena's first chunk mapped, else a page sealed. */
static int probe_method(void)
{
    int m = atomic_load(&memory_method);
    if (m != METHOD_UNKNOWN)
        return m;
    lock();
    m = atomic_load(&memory_method);
    if (m == METHOD_UNKNOWN) {
        const char *force = getenv("VFETCH_JIT_MEMORY");
        const int mprotect_only = force && !strcmp(force, "mprotect");
        m = METHOD_NONE;
        if (!mprotect_only && memfd_open(CHUNK_BYTES, &chunks[0].rw, &chunks[0].rx) == 0) {
            num_chunks = 1;
            m = METHOD_ARENA;
        } else {
            const size_t bytes = page_round(1);
            void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p != MAP_FAILED) {
                if (mprotect(p, bytes, PROT_READ | PROT_EXEC) == 0)
                    m = METHOD_MPROTECT;
                munmap(p, bytes);
            }
        }
        atomic_store(&memory_method, m);
    }
    unlock();
    return m;
}

const char *vfetch_jit_memory_method(void)
{
    switch (probe_method()) {
    case METHOD_ARENA: return "arena";
    case METHOD_MPROTECT: return "mprotect";
    default: return "none";
    }
}

/* n free blocks in a row in chunk c: the first, or -1. */
static int chunk_find(const struct chunk *c, unsigned n)
{
    unsigned run = 0;
    for (unsigned b = 0; b < CHUNK_BLOCKS; b++) {
        run = c->used[b / 64] >> (b % 64) & 1 ? 0 : run + 1;
        if (run == n)
            return (int)(b + 1 - n);
    }
    return -1;
}

static void chunk_mark(struct chunk *c, unsigned first, unsigned n, int used)
{
    for (unsigned b = first; b < first + n; b++) {
        const uint64_t bit = (uint64_t)1 << (b % 64);
        c->used[b / 64] = used ? c->used[b / 64] | bit : c->used[b / 64] & ~bit;
    }
}

/* A block of the arena: 0, or -1 (no room, and no new chunk). */
static int arena_open(size_t bytes, uint8_t **rw, uint8_t **rx, struct vfetch_jit_code *code)
{
    const unsigned n = (unsigned)((bytes + BLOCK_BYTES - 1) / BLOCK_BYTES);
    lock();
    int at = -1;
    unsigned c = 0;
    for (; c < num_chunks && at < 0; c++)
        at = chunk_find(&chunks[c], n);
    if (at < 0 && num_chunks < MAX_CHUNKS &&
        memfd_open(CHUNK_BYTES, &chunks[num_chunks].rw, &chunks[num_chunks].rx) == 0) {
        c = ++num_chunks;
        at = 0;
    }
    if (at >= 0) {
        struct chunk *ch = &chunks[c - 1];
        chunk_mark(ch, (unsigned)at, n, 1);
        *rw = ch->rw + (size_t)at * BLOCK_BYTES;
        *rx = ch->rx + (size_t)at * BLOCK_BYTES;
        code->mapping = *rx;
        code->mapping_bytes = (size_t)n * BLOCK_BYTES;
        code->writable = *rw; /* a block of the arena: freed into it */
    }
    unlock();
    return at < 0 ? -1 : 0;
}

int vfetch_jit_memory_open(size_t bytes, uint8_t **rw, uint8_t **rx, struct vfetch_jit_code *code)
{
    memset(code, 0, sizeof *code);
    const int m = probe_method();
    if (m == METHOD_ARENA && bytes <= CHUNK_BYTES / 2 && arena_open(bytes, rw, rx, code) == 0)
        return VFETCH_OK;
    if (m == METHOD_NONE)
        return VFETCH_ENOMEM;
    /* pages of its own, sealed by mprotect (possible where the arena's memfds were, too) */
    const size_t total = page_round(bytes);
    void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return VFETCH_ENOMEM;
    *rw = *rx = p;
    code->mapping = p;
    code->mapping_bytes = total;
    return VFETCH_OK;
}

int vfetch_jit_memory_seal(struct vfetch_jit_code *code, size_t used)
{
    code->code_bytes = used;
    if (code->writable) /* the arena: executable already, through its other view */
        return VFETCH_OK;
    const size_t keep = page_round(used ? used : 1);
    uint8_t *base = code->mapping;
    if (keep < code->mapping_bytes) { /* pages never written go back */
        munmap(base + keep, code->mapping_bytes - keep);
        code->mapping_bytes = keep;
    }
    if (mprotect(base, keep, PROT_READ | PROT_EXEC)) {
        vfetch_jit_memory_free(code);
        return VFETCH_ENOMEM;
    }
    return VFETCH_OK;
}

void vfetch_jit_memory_free(struct vfetch_jit_code *code)
{
    if (!code || !code->mapping)
        return;
    if (code->writable) {
        lock();
        for (unsigned c = 0; c < num_chunks; c++) {
            const uint8_t *rx = chunks[c].rx, *at = code->mapping;
            if (at >= rx && at < rx + CHUNK_BYTES)
                chunk_mark(&chunks[c], (unsigned)((size_t)(at - rx) / BLOCK_BYTES),
                           (unsigned)(code->mapping_bytes / BLOCK_BYTES), 0);
        }
        unlock();
    } else
        munmap(code->mapping, code->mapping_bytes);
    memset(code, 0, sizeof *code);
}
