/*
 * The error tests of the one-call draws (tests/gx/test_gx_batch.c, tests/prim/test_draw_indexed.c):
 * a batch and the bytes of its two buffers, as a failing call must leave them.
 */
#ifndef VFETCH_TESTS_BATCH_SNAPSHOT_H
#define VFETCH_TESTS_BATCH_SNAPSHOT_H

#include <stdint.h>
#include <string.h>

#include "vfetch/prim.h"

#define BATCH_SNAPSHOT_BYTES 1024

struct batch_snapshot {
    struct vfetch_batch batch;
    const void *vertices, *indices; /* the buffers, and their bytes then */
    size_t vertex_bytes, index_bytes;
    uint8_t vertex_copy[BATCH_SNAPSHOT_BYTES], index_copy[BATCH_SNAPSHOT_BYTES];
};

/* The batch's figures and the buffers' bytes (at most BATCH_SNAPSHOT_BYTES each). */
static inline void batch_snap(struct batch_snapshot *s, const struct vfetch_batch *b,
                              const void *vertices, size_t vertex_bytes, const void *indices,
                              size_t index_bytes)
{
    s->batch = *b;
    s->vertices = vertices;
    s->indices = indices;
    s->vertex_bytes = vertex_bytes < BATCH_SNAPSHOT_BYTES ? vertex_bytes : BATCH_SNAPSHOT_BYTES;
    s->index_bytes = index_bytes < BATCH_SNAPSHOT_BYTES ? index_bytes : BATCH_SNAPSHOT_BYTES;
    memcpy(s->vertex_copy, vertices, s->vertex_bytes);
    memcpy(s->index_copy, indices, s->index_bytes);
}

/* 1 where the batch and both buffers are as snapped. */
static inline int batch_unchanged(const struct batch_snapshot *s, const struct vfetch_batch *b)
{
    return !memcmp(&s->batch, b, sizeof *b) &&
           !memcmp(s->vertex_copy, s->vertices, s->vertex_bytes) &&
           !memcmp(s->index_copy, s->indices, s->index_bytes);
}

#endif
