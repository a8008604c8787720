/*
 * Guard-page buffers: memory placed against PROT_NONE pages, so that any read or write one
 * byte outside the buffer crashes the test instead of passing silently.
 */
#ifndef VFETCH_TEST_GUARD_H
#define VFETCH_TEST_GUARD_H

#include <stddef.h>

/** n bytes (n may be 0) whose end is exactly the start of a PROT_NONE page, zeroed. NULL on
    failure. Pages take memory only once touched, so n may be many GiB where the address space
    allows. (A freed mapping of up to 4 MiB is kept and given out again, zeroed: the same
    guards, without the system calls and page faults of a fresh one.) */
void *guard_alloc_tail(size_t n);

/** n bytes (n may be 0) that start right after a PROT_NONE page. NULL on failure. */
void *guard_alloc_head(size_t n);

/** The largest buffer a test should map only to touch its ends (a "sparse" mapping: a huge
    surface of which a test reads a few blocks): SIZE_MAX natively; smaller where the tests run
    under an emulator that backs every mapped page with memory (tests/meson.build). */
size_t guard_sparse_limit(void);

/** Free a buffer from guard_alloc_tail/head. NULL is allowed. */
void guard_free(void *p);

#endif
