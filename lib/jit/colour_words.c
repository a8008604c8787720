/*
 * The shared word tables of the per-vertex pass's RGB565 / RGBA4444 colours (x86_vertex.c):
 * the RGBA8 word of every 16-bit container, indexed by the container's two bytes as one
 * little-endian load reads them, so that a colour is one load, one table load and one store
 * where the two 256-entry byte tables take a byte split and an OR more (docs/jit.md).
 *
 * A table is 256 KiB, so it is not the code's: built once a process for each distinct pair of
 * byte tables and orientation (GX array rows: RGB565 and RGBA4444, big-endian), kept until the
 * process ends, and read by every plan's code that converts that colour. The slots
 * fill without a lock: a table is built, then published with one compare-and-swap; a racing
 * thread that loses frees its copy and takes the winner's where it is the same.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "jit/jit.h"

#define WORD_TABLES 8

struct colour_words {
    uint32_t bytes[512]; /* the byte tables it was built from: the high byte's, the low byte's */
    int first_high;      /* the byte at the lower address is the container's high byte */
    uint32_t words[65536];
};

static _Atomic(struct colour_words *) word_tables[WORD_TABLES];

static int same_key(const struct colour_words *t, const uint32_t bytes[512], int first_high)
{
    return t->first_high == first_high && !memcmp(t->bytes, bytes, sizeof t->bytes);
}

const uint32_t *vfetch_jit_colour_words(const uint32_t bytes[512], int first_high)
{
    struct colour_words *made = NULL;
    for (unsigned i = 0; i < WORD_TABLES; i++) {
        struct colour_words *t = atomic_load(&word_tables[i]);
        if (!t) {
            if (!made) {
                made = malloc(sizeof *made);
                if (!made)
                    return NULL;
                memcpy(made->bytes, bytes, sizeof made->bytes);
                made->first_high = first_high;
                /* w: the two bytes as loaded, the lower address's in bits 0-7 */
                for (uint32_t w = 0; w < 65536; w++) {
                    const uint32_t low_addr = w & 0xff, high_addr = w >> 8;
                    made->words[w] = first_high ? bytes[low_addr] | bytes[256 + high_addr]
                                                : bytes[high_addr] | bytes[256 + low_addr];
                }
            }
            struct colour_words *expected = NULL;
            if (atomic_compare_exchange_strong(&word_tables[i], &expected, made))
                return made->words;
            t = expected; /* another thread's, published first */
        }
        if (same_key(t, bytes, first_high)) {
            free(made);
            return t->words;
        }
    }
    free(made);
    return NULL; /* every slot another colour's: the caller keeps its byte tables */
}
