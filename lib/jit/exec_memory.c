/*
 * Memory for generated code, never writable and executable at once, in one of two ways,
 * probed once per process:
 *
 *  - arena (the default): chunks of a memfd, each mapped twice, a read-write view the code is
 *    written through and a read-execute view it runs at (the code is generated for the execute
 *    view's address). A plan's code takes 64-byte blocks of a chunk and gives them back when
 *    the plan is freed: no system call per plan while a chunk has room, where a mapping of its
 *    own costs more in mmap, first-touch faults, mprotect and munmap than compiling the whole
 *    plan does (docs/decisions.md, "Measured choices"). The chunk list grows as plans need it;
 *    a chunk whose last plan is freed is unmapped, except one kept empty as a spare; a plan
 *    larger than a chunk gets a chunk of its own, sized to it. Refused where memfds may not be
 *    executable (vm.memfd_noexec, SELinux);
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

#if VFETCH_HAVE_VALGRIND_H
#include <valgrind/valgrind.h>
/* valgrind runs its own translations of code it has seen: new bytes at an address it ran
   before (blocks reused, a format regenerated) would run as the old ones */
#define discard_translations(at, bytes) VALGRIND_DISCARD_TRANSLATIONS(at, bytes)
#else
#define discard_translations(at, bytes) ((void)(at), (void)(bytes))
#endif

enum { METHOD_UNKNOWN = 0, METHOD_ARENA = 1, METHOD_MPROTECT = 2, METHOD_NONE = 3 };

static atomic_int memory_method = METHOD_UNKNOWN;

/* Shared chunks: 256 KiB in blocks of 64 bytes (a bit each), so that a plan occupies about
   what it asks for and its code starts on a cache line. */
#define CHUNK_BYTES (256u << 10)
#define BLOCK_BYTES 64u
#define CHUNK_BLOCKS (CHUNK_BYTES / BLOCK_BYTES)
#define CHUNK_WORDS (CHUNK_BLOCKS / 64)

struct chunk {
    uint8_t *rw, *rx;      /* the two views of the memfd */
    size_t bytes;          /* CHUNK_BYTES, or a large plan's own pages */
    int own;               /* holds one plan larger than a chunk, and nothing else */
    unsigned free_blocks;  /* of a shared chunk: full ones are skipped without a search */
    uint64_t used[CHUNK_WORDS];
};

/* The chunks in the order they were mapped (first fit searches them in it, so that plans
   gather in the older chunks and the newer ones empty first), and what the usage query
   reports; all under arena_lock. */
static struct chunk **chunks;
static unsigned num_chunks, chunk_capacity;
static unsigned empty_chunks; /* shared chunks without a plan: at most one, the spare */
static uint64_t mapped_chunk_bytes, live_bytes, own_bytes;
static uint32_t live_plans, live_blocks, own_mappings;
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

/* A chunk record with its memfd mapped (`bytes`, every block free), or NULL. Not yet listed. */
static struct chunk *chunk_map(size_t bytes, int own)
{
    struct chunk *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (memfd_open(bytes, &c->rw, &c->rx)) {
        free(c);
        return NULL;
    }
    c->bytes = bytes;
    c->own = own;
    c->free_blocks = own ? 0 : CHUNK_BLOCKS;
    return c;
}

static void chunk_unmap(struct chunk *c)
{
    munmap(c->rx, c->bytes);
    munmap(c->rw, c->bytes);
    free(c);
}

/* Add a mapped chunk to the list (under the lock). -1 where the list cannot grow. */
static int chunk_list_add(struct chunk *c)
{
    if (num_chunks == chunk_capacity) {
        const unsigned capacity = chunk_capacity ? 2 * chunk_capacity : 16;
        struct chunk **grown = realloc(chunks, capacity * sizeof *grown);
        if (!grown)
            return -1;
        chunks = grown;
        chunk_capacity = capacity;
    }
    chunks[num_chunks++] = c;
    mapped_chunk_bytes += c->bytes;
    if (!c->own && c->free_blocks == CHUNK_BLOCKS)
        empty_chunks++;
    return 0;
}

/* Take chunk i off the list (under the lock), keeping the others' order; the caller unmaps it
   once the lock is released. */
static struct chunk *chunk_list_remove(unsigned i)
{
    struct chunk *c = chunks[i];
    memmove(&chunks[i], &chunks[i + 1], (num_chunks - i - 1) * sizeof *chunks);
    num_chunks--;
    mapped_chunk_bytes -= c->bytes;
    if (!c->own && c->free_blocks == CHUNK_BLOCKS)
        empty_chunks--;
    return c;
}

/* The listed chunk whose execute view holds `at`, or num_chunks (under the lock). */
static unsigned chunk_index_of(const uint8_t *at)
{
    unsigned i = 0;
    while (i < num_chunks && !(at >= chunks[i]->rx && at < chunks[i]->rx + chunks[i]->bytes))
        i++;
    return i;
}

/* Which way this process can use: the arena's first chunk mapped (kept as the spare), else a
   page sealed. */
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
        struct chunk *first = mprotect_only ? NULL : chunk_map(CHUNK_BYTES, 0);
        if (first && chunk_list_add(first) == 0) {
            m = METHOD_ARENA;
        } else {
            if (first)
                chunk_unmap(first);
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

/* The first run of n free blocks (1 <= n <= CHUNK_BLOCKS) in a shared chunk, searched a word
   of 64 blocks at a time: its first block, or -1. */
static int chunk_find(const struct chunk *c, unsigned n)
{
    unsigned run = 0; /* free blocks at the top of the words before this one */
    for (unsigned w = 0; w < CHUNK_WORDS; w++) {
        const uint64_t used = c->used[w];
        if (!used) {
            run += 64;
            if (run >= n)
                return (int)((w + 1) * 64 - run);
            continue;
        }
        if (run + (unsigned)__builtin_ctzll(used) >= n) /* the run goes on into this word */
            return (int)(w * 64 - run);
        if (n < 64) {
            /* runs inside the word: bit i of `starts` stays set while blocks i..i+len-1 are
               all free (the shifts bring in used blocks past the word's end) */
            uint64_t starts = ~used;
            for (unsigned len = 1; len < n && starts;) {
                const unsigned shift = len < n - len ? len : n - len;
                starts &= starts >> shift;
                len += shift;
            }
            if (starts)
                return (int)(w * 64 + (unsigned)__builtin_ctzll(starts));
        }
        run = (unsigned)__builtin_clzll(used);
    }
    return -1;
}

/* Mark blocks first..first+n-1 of a shared chunk used or free, a word at a time. */
static void chunk_mark(struct chunk *c, unsigned first, unsigned n, int used)
{
    while (n) {
        const unsigned bit = first % 64, take = n < 64 - bit ? n : 64 - bit;
        const uint64_t mask = (take == 64 ? ~(uint64_t)0 : ((uint64_t)1 << take) - 1) << bit;
        uint64_t *word = &c->used[first / 64];
        *word = used ? *word | mask : *word & ~mask;
        first += take;
        n -= take;
    }
}

/* A code of `bytes` opened at rw/rx, `mapping_bytes` long, counted live (under the lock, so
   that the usage query sees it whole). */
static void count_open(struct vfetch_jit_code *code, size_t bytes, uint8_t *rw, uint8_t *rx,
                       size_t mapping_bytes, int arena)
{
    code->mapping = rx;
    code->mapping_bytes = mapping_bytes;
    code->writable = arena ? rw : NULL; /* of the arena: freed into it */
    code->counted_bytes = bytes;
    live_plans++;
    live_bytes += bytes;
    if (!arena) {
        own_mappings++;
        own_bytes += mapping_bytes;
    }
}

/* n blocks taken from shared chunk c at block `at` for a code of `bytes` (under the lock). */
static void chunk_take(struct chunk *c, unsigned at, unsigned n, size_t bytes, uint8_t **rw,
                       uint8_t **rx, struct vfetch_jit_code *code)
{
    if (c->free_blocks == CHUNK_BLOCKS)
        empty_chunks--;
    chunk_mark(c, at, n, 1);
    c->free_blocks -= n;
    live_blocks += n;
    *rw = c->rw + (size_t)at * BLOCK_BYTES;
    *rx = c->rx + (size_t)at * BLOCK_BYTES;
    count_open(code, bytes, *rw, *rx, (size_t)n * BLOCK_BYTES, 1);
}

/* Blocks of a shared chunk, or a chunk of its own for a plan larger than a chunk: 0, or -1
   where no chunk could be mapped or listed. */
static int arena_open(size_t bytes, uint8_t **rw, uint8_t **rx, struct vfetch_jit_code *code)
{
    if (bytes > CHUNK_BYTES) {
        struct chunk *c = chunk_map(page_round(bytes), 1);
        if (!c)
            return -1;
        lock();
        const int listed = chunk_list_add(c) == 0;
        if (listed) {
            *rw = c->rw;
            *rx = c->rx;
            count_open(code, bytes, c->rw, c->rx, c->bytes, 1);
        }
        unlock();
        if (!listed) {
            chunk_unmap(c);
            return -1;
        }
        return 0;
    }
    const unsigned n = bytes ? (unsigned)((bytes + BLOCK_BYTES - 1) / BLOCK_BYTES) : 1;
    lock();
    for (unsigned i = 0; i < num_chunks; i++) {
        struct chunk *c = chunks[i];
        if (c->own || c->free_blocks < n)
            continue;
        const int at = chunk_find(c, n);
        if (at >= 0) {
            chunk_take(c, (unsigned)at, n, bytes, rw, rx, code);
            unlock();
            return 0;
        }
    }
    unlock();
    /* every chunk full: a new one, mapped outside the lock (another thread's plans go on
       taking blocks meanwhile) */
    struct chunk *c = chunk_map(CHUNK_BYTES, 0);
    if (!c)
        return -1;
    lock();
    const int listed = chunk_list_add(c) == 0;
    if (listed)
        chunk_take(c, 0, n, bytes, rw, rx, code);
    unlock();
    if (!listed) {
        chunk_unmap(c);
        return -1;
    }
    return 0;
}

int vfetch_jit_memory_open(size_t bytes, uint8_t **rw, uint8_t **rx, struct vfetch_jit_code *code)
{
    memset(code, 0, sizeof *code);
    const int m = probe_method();
    if (m == METHOD_NONE)
        return VFETCH_ENOMEM;
    if (m == METHOD_ARENA && arena_open(bytes, rw, rx, code) == 0)
        return VFETCH_OK;
    /* pages of its own, sealed by mprotect: that way's every plan, and the arena's where no
       chunk could be mapped (possible where the arena's memfds were, too) */
    const size_t total = page_round(bytes ? bytes : 1);
    uint8_t *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return VFETCH_ENOMEM;
    *rw = *rx = p;
    lock();
    count_open(code, bytes, p, p, total, 0);
    unlock();
    return VFETCH_OK;
}

/* An arena code sealed with `used` bytes: counted so, and its blocks or pages past them given
   back (where the generator asked for more than it wrote). */
static void arena_seal(struct vfetch_jit_code *code, size_t used)
{
    struct chunk *cut = NULL;
    size_t cut_at = 0, cut_bytes = 0;
    lock();
    live_bytes = live_bytes - code->counted_bytes + used;
    code->counted_bytes = used;
    const unsigned i = chunk_index_of(code->mapping);
    if (i < num_chunks) {
        struct chunk *c = chunks[i];
        if (c->own) {
            const size_t pages = page_round(used ? used : 1);
            if (pages < c->bytes) {
                cut = c;
                cut_at = pages;
                cut_bytes = c->bytes - pages;
                mapped_chunk_bytes -= cut_bytes;
                c->bytes = pages;
                code->mapping_bytes = pages;
            }
        } else {
            const unsigned had = (unsigned)(code->mapping_bytes / BLOCK_BYTES);
            const unsigned need = used ? (unsigned)((used + BLOCK_BYTES - 1) / BLOCK_BYTES) : 1;
            if (need < had) {
                const unsigned first = (unsigned)((size_t)((uint8_t *)code->mapping - c->rx) /
                                                  BLOCK_BYTES);
                chunk_mark(c, first + need, had - need, 0);
                c->free_blocks += had - need;
                live_blocks -= had - need;
                code->mapping_bytes = (size_t)need * BLOCK_BYTES;
            }
        }
    }
    unlock();
    if (cut) { /* the same pages in both views */
        munmap(cut->rx + cut_at, cut_bytes);
        munmap(cut->rw + cut_at, cut_bytes);
    }
}

int vfetch_jit_memory_seal(struct vfetch_jit_code *code, size_t used)
{
    code->code_bytes = used;
    discard_translations(code->mapping, used);
    if (code->writable) { /* the arena: executable already, through its other view */
        arena_seal(code, used);
        return VFETCH_OK;
    }
    const size_t keep = page_round(used ? used : 1);
    uint8_t *base = code->mapping;
    if (keep < code->mapping_bytes) /* pages never written go back */
        munmap(base + keep, code->mapping_bytes - keep);
    lock();
    live_bytes = live_bytes - code->counted_bytes + used;
    code->counted_bytes = used;
    if (keep < code->mapping_bytes) {
        own_bytes -= code->mapping_bytes - keep;
        code->mapping_bytes = keep;
    }
    unlock();
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
    struct chunk *unmap = NULL;
    lock();
    live_plans--;
    live_bytes -= code->counted_bytes;
    if (code->writable) {
        const unsigned i = chunk_index_of(code->mapping);
        if (i < num_chunks) {
            struct chunk *c = chunks[i];
            if (c->own) {
                unmap = chunk_list_remove(i);
            } else {
                const unsigned n = (unsigned)(code->mapping_bytes / BLOCK_BYTES);
                chunk_mark(c, (unsigned)((size_t)((uint8_t *)code->mapping - c->rx) / BLOCK_BYTES),
                           n, 0);
                c->free_blocks += n;
                live_blocks -= n;
                if (c->free_blocks == CHUNK_BLOCKS && ++empty_chunks > 1)
                    unmap = chunk_list_remove(i); /* empty, and a spare is kept already */
            }
        }
    } else {
        own_mappings--;
        own_bytes -= code->mapping_bytes;
    }
    unlock();
    if (unmap)
        chunk_unmap(unmap);
    else if (!code->writable)
        munmap(code->mapping, code->mapping_bytes);
    memset(code, 0, sizeof *code);
}

int vfetch_jit_memory_usage(struct vfetch_jit_memory_usage *usage)
{
    if (!usage)
        return VFETCH_EINVAL;
    const char *method = vfetch_jit_memory_method();
    lock();
    *usage = (struct vfetch_jit_memory_usage){
        .method = method,
        .mapped_bytes = mapped_chunk_bytes + own_bytes,
        .live_bytes = live_bytes,
        .live_plans = live_plans,
        .chunks = num_chunks,
        .spare_chunks = empty_chunks,
        .live_blocks = live_blocks,
        .own_mappings = own_mappings,
    };
    unlock();
    return VFETCH_OK;
}
