/*
 * Memory for generated code, never writable and executable at once. The code is written into a
 * private read-write mapping that mprotect then turns read-execute. Where the system refuses
 * that change (SELinux's execmem, PaX MPROTECT), the pages come from a memfd mapped twice: a
 * read-write view written and unmapped, and a read-execute view run; the two addresses differ,
 * so code is generated for the execute view's address. Which way works is probed once per
 * process; where neither does, plans keep the record program (vfetch_plan_info says so).
 * VFETCH_JIT_MEMFD=1 in the environment forces the memfd way (its tests).
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jit/jit.h"

enum { METHOD_UNKNOWN = 0, METHOD_MPROTECT = 1, METHOD_MEMFD = 2, METHOD_NONE = 3 };

static atomic_int memory_method = METHOD_UNKNOWN;

static size_t page_round(size_t bytes)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (bytes + page - 1) / page * page;
}

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

/* Which method this process can use: a page written, sealed and run (a `ret`). */
static int probe_method(void)
{
    int m = atomic_load(&memory_method);
    if (m != METHOD_UNKNOWN)
        return m;
    const size_t bytes = page_round(1);
    m = METHOD_NONE;
    /* Tests force the second way, as a system that refuses mprotect to executable would. */
    const char *force = getenv("VFETCH_JIT_MEMFD");
    if (force && force[0] == '1') {
        uint8_t *rw, *rx;
        if (memfd_open(bytes, &rw, &rx) == 0) {
            m = METHOD_MEMFD;
            munmap(rw, bytes);
            munmap(rx, bytes);
        }
        atomic_store(&memory_method, m);
        return m;
    }
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
        if (mprotect(p, bytes, PROT_READ | PROT_EXEC) == 0)
            m = METHOD_MPROTECT;
        munmap(p, bytes);
    }
    if (m == METHOD_NONE) {
        uint8_t *rw, *rx;
        if (memfd_open(bytes, &rw, &rx) == 0) {
            m = METHOD_MEMFD;
            munmap(rw, bytes);
            munmap(rx, bytes);
        }
    }
    atomic_store(&memory_method, m);
    return m;
}

const char *vfetch_jit_memory_method(void)
{
    switch (probe_method()) {
    case METHOD_MPROTECT: return "mprotect";
    case METHOD_MEMFD: return "memfd";
    default: return "none";
    }
}

int vfetch_jit_memory_open(size_t bytes, uint8_t **rw, uint8_t **rx, struct vfetch_jit_code *code)
{
    memset(code, 0, sizeof *code);
    const size_t total = page_round(bytes);
    switch (probe_method()) {
    case METHOD_MPROTECT: {
        void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return VFETCH_ENOMEM;
        *rw = *rx = p;
        code->mapping = p;
        code->mapping_bytes = total;
        return VFETCH_OK;
    }
    case METHOD_MEMFD:
        if (memfd_open(total, rw, rx))
            return VFETCH_ENOMEM;
        code->mapping = *rx;
        code->mapping_bytes = total;
        code->writable = *rw;
        return VFETCH_OK;
    default: return VFETCH_ENOMEM;
    }
}

int vfetch_jit_memory_seal(struct vfetch_jit_code *code, size_t used)
{
    const size_t keep = page_round(used ? used : 1);
    if (code->writable) { /* memfd: the writable view goes, the executable one stays */
        munmap(code->writable, code->mapping_bytes);
        code->writable = NULL;
        code->code_bytes = used;
        return VFETCH_OK;
    }
    uint8_t *base = code->mapping;
    if (keep < code->mapping_bytes) { /* pages never written go back */
        munmap(base + keep, code->mapping_bytes - keep);
        code->mapping_bytes = keep;
    }
    if (mprotect(base, keep, PROT_READ | PROT_EXEC)) {
        vfetch_jit_memory_free(code);
        return VFETCH_ENOMEM;
    }
    code->code_bytes = used;
    return VFETCH_OK;
}

void vfetch_jit_memory_free(struct vfetch_jit_code *code)
{
    if (!code || !code->mapping)
        return;
    if (code->writable)
        munmap(code->writable, code->mapping_bytes); /* an unsealed memfd's writable view */
    munmap(code->mapping, code->mapping_bytes);
    memset(code, 0, sizeof *code);
}
