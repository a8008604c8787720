/*
 * Runs of GX commands (vfetch_gx_state_run_commands, docs/gx.md, "Runs of commands"): random
 * streams of NOPs, LOAD_CP_REG writes (VAT words changed mid-stream, registers the state does
 * not hold), draws of three VAT formats and every primitive, and foreign commands (BP, XF,
 * indexed XF loads, CALL_DL, metrics, cache invalidation), consumed run after run (the test
 * steps over each foreign command, and flushes the batch where a run stops at a full one),
 * must leave the same batches, byte for byte, as the same commands applied one by one
 * (vfetch_gx_load_cp_reg, vfetch_gx_state_draw_batch); every prefix of a stream, ending at a
 * guard page, stops at the first command it cuts short; a failing draw stops the run with its
 * code, the draws before it kept; the call's own errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "gx_testutil.h"
#include "testutil.h"
#include "vfetch/gx.h"

static uint64_t rng_state = 0x13198a2e03707344u;

static uint32_t rnd(void)
{
    return test_random(&rng_state);
}

/* Every attribute direct: position, normal, colour 0, texcoord 0 (the VCD all VATs share). */
#define VCD_LO (1u << 9 | 1u << 11 | 1u << 13)
#define VCD_HI 1u

/* VAT_A words for that VCD: the peer kit's config a, and two others. */
static const uint32_t vat_words[] = {
    1 | 3u << 1 | 8u << 4 | 1u << 10 | 1u << 13 | 5u << 14 | 1u << 21 | 3u << 22 | 10u << 25 | 1u << 30,
    1 | 4u << 1 | 4u << 10 | 1u << 13 | 0u << 14 | 1u << 21 | 0u << 22 | 7u << 25 | 1u << 30,
    2u << 1 | 5u << 4 | 1u << 10 | 3u << 14 | 4u << 22 | 1u << 30,
};
#define VATS 3 /* formats 0, 1, 2 */

/* The VAT_A word each format has at a point of the stream. */
struct regs {
    uint32_t vat_a[VATS];
};

static uint32_t vertex_size(uint32_t vat_a)
{
    const struct vfetch_gx_regs r = { VCD_LO, VCD_HI, vat_a, 1u << 31, 0 };
    uint32_t size = 0;
    CHECK_EQ(vfetch_gx_vertex_size(&r, &size), 0);
    return size;
}

static size_t put_cp(uint8_t *p, uint8_t reg, uint32_t v)
{
    p[0] = 0x08;
    p[1] = reg;
    p[2] = (uint8_t)(v >> 24);
    p[3] = (uint8_t)(v >> 16);
    p[4] = (uint8_t)(v >> 8);
    p[5] = (uint8_t)v;
    return 6;
}

/* The length of a foreign command at p, `left` bytes there (the test's own table, as an
   emulator has one); SIZE_MAX where too few bytes are there to tell. */
static size_t foreign_length(const uint8_t *p, size_t left)
{
    switch (p[0]) {
    case 0x10: /* XF: its words' count less one in the header word's bits 19:16 */
        return left < 3 ? SIZE_MAX : 5 + 4 * (size_t)((p[2] & 0xf) + 1);
    case 0x40: return 9;
    case 0x44: case 0x48: return 1;
    case 0x08: return 6; /* a register the state does not hold */
    default: return 5; /* BP, indexed XF loads */
    }
}

/* A random stream of `commands` commands at p (room enough); its length. regs: the VAT words
   in force as the stream starts, updated as it writes them. */
static size_t make_stream(uint8_t *p, unsigned commands, struct regs *regs)
{
    size_t n = 0;
    for (unsigned c = 0; c < commands; c++) {
        const unsigned kind = rnd() % 16;
        if (kind == 0)
            p[n++] = 0x00;
        else if (kind == 1) { /* a VAT word changed */
            const unsigned f = rnd() % VATS;
            regs->vat_a[f] = vat_words[rnd() % 3];
            n += put_cp(p + n, (uint8_t)(0x70 + f), regs->vat_a[f]);
        } else if (kind == 2) { /* foreign */
            static const uint8_t ops[] = { 0x61, 0x10, 0x20, 0x28, 0x30, 0x38, 0x40, 0x44, 0x48, 0x08 };
            const uint8_t op = ops[rnd() % sizeof ops];
            p[n] = op;
            for (size_t i = 1; i < 9; i++)
                p[n + i] = (uint8_t)rnd();
            if (op == 0x10)
                p[n + 2] = (uint8_t)(rnd() % 4);
            if (op == 0x08)
                p[n + 1] = 0x20; /* not a register the state holds */
            const size_t len = foreign_length(p + n, 9);
            for (size_t i = 9; i < len; i++)
                p[n + i] = (uint8_t)rnd();
            n += len;
        } else { /* a draw */
            const unsigned f = rnd() % VATS;
            static const uint8_t prims[] = { 0x80, 0x88, 0x90, 0x98, 0xa0, 0xa8, 0xb0, 0xb8 };
            const uint32_t count = rnd() % 5 == 0 ? rnd() % 3 : rnd() % 40;
            p[n] = (uint8_t)(prims[rnd() % 8] | f);
            p[n + 1] = (uint8_t)(count >> 8);
            p[n + 2] = (uint8_t)count;
            n += 3;
            const size_t bytes = (size_t)count * vertex_size(regs->vat_a[f]);
            for (size_t i = 0; i < bytes; i++)
                p[n + i] = (uint8_t)rnd();
            n += bytes;
        }
    }
    return n;
}

static vfetch_gx_state *make_state(void)
{
    vfetch_gx_state *st = gx_packed_state();
    CHECK(st != NULL);
    if (!st)
        return NULL;
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x50, VCD_LO), 0);
    CHECK_EQ(vfetch_gx_load_cp_reg(st, 0x60, VCD_HI), 0);
    for (unsigned f = 0; f < VATS; f++) {
        CHECK_EQ(vfetch_gx_load_cp_reg(st, (uint8_t)(0x70 + f), vat_words[f]), 0);
        CHECK_EQ(vfetch_gx_load_cp_reg(st, (uint8_t)(0x80 + f), 1u << 31), 0);
    }
    const struct vfetch_gx_index_options o = { VFETCH_INDEX_U16, 1, 1, 0 };
    CHECK_EQ(vfetch_gx_state_set_index_options(st, &o), 0);
    return st;
}

#define VBYTES (48u << 10)
#define ICOUNT 6000u

struct sink {
    vfetch_gx_state *state;
    struct vfetch_batch batch;
    uint8_t *vertices;
    uint16_t *indices;
    unsigned flushes;
};

static void sink_open(struct sink *s, int guarded)
{
    s->state = make_state();
    s->vertices = guarded ? guard_alloc_tail(VBYTES) : calloc(1, VBYTES);
    s->indices = guarded ? guard_alloc_tail(ICOUNT * 2) : calloc(ICOUNT, 2);
    s->batch = (struct vfetch_batch){ s->vertices, VBYTES, 0, 0, 0, s->indices, ICOUNT, 0 };
    s->flushes = 0;
}

static void sink_flush(struct sink *s)
{
    s->batch.vertices_used = s->batch.indices_used = 0;
    s->batch.vertex_count = 0;
    s->flushes++;
}

static void sink_close(struct sink *s, int guarded)
{
    vfetch_gx_state_free(s->state);
    if (guarded) {
        guard_free(s->vertices);
        guard_free(s->indices);
    } else {
        free(s->vertices);
        free(s->indices);
    }
}

static int same(const struct sink *a, const struct sink *b)
{
    return a->batch.vertices_used == b->batch.vertices_used &&
           a->batch.indices_used == b->batch.indices_used &&
           a->batch.vertex_count == b->batch.vertex_count &&
           !memcmp(a->vertices, b->vertices, VBYTES) && !memcmp(a->indices, b->indices, ICOUNT * 2);
}

/* The commands one by one, as an emulator without the run call applies them; a full batch is
   flushed and the draw made again. Stops before the first command cut short by `size`. Returns
   the bytes it went through. */
static size_t one_by_one(struct sink *s, const uint8_t *p, size_t size, struct regs *regs)
{
    size_t at = 0;
    while (at < size) {
        const uint8_t op = p[at];
        if (op == 0x00) {
            at++;
            continue;
        }
        if (op == 0x08 && at + 6 <= size && p[at + 1] != 0x20) {
            const uint32_t v = (uint32_t)p[at + 2] << 24 | (uint32_t)p[at + 3] << 16 |
                               (uint32_t)p[at + 4] << 8 | p[at + 5];
            CHECK_EQ(vfetch_gx_load_cp_reg(s->state, p[at + 1], v), 0);
            regs->vat_a[p[at + 1] - 0x70] = v;
            at += 6;
            continue;
        }
        if (op >= 0x80 && op <= 0xbf) {
            if (at + 3 > size)
                break;
            const uint32_t count = (uint32_t)p[at + 1] << 8 | p[at + 2];
            const size_t bytes = (size_t)count * vertex_size(regs->vat_a[op & 7]);
            if (bytes > size - at - 3)
                break;
            int err = vfetch_gx_state_draw_batch(s->state, op, p + at + 3, bytes, count, &s->batch,
                                                 NULL);
            if (err == VFETCH_EBATCH_FULL && (s->batch.vertex_count || s->batch.indices_used)) {
                sink_flush(s);
                err = vfetch_gx_state_draw_batch(s->state, op, p + at + 3, bytes, count, &s->batch,
                                                 NULL);
            }
            CHECK_EQ(err, 0);
            at += 3 + bytes;
            continue;
        }
        const size_t len = foreign_length(p + at, size - at);
        if (len > size - at)
            break;
        at += len;
    }
    return at;
}

/* The same commands through run after run: the test steps over each foreign command, flushes
   where a run stops at a full batch, and stops where one is cut short. Returns the bytes gone
   through. */
static size_t in_runs(struct sink *s, const uint8_t *p, size_t size, unsigned *runs)
{
    size_t at = 0;
    for (;;) {
        struct vfetch_gx_commands_result r;
        const int err = vfetch_gx_state_run_commands(s->state, p + at, size - at, &s->batch, &r);
        (*runs)++;
        CHECK_EQ(err, 0);
        CHECK(r.consumed <= size - at);
        at += r.consumed;
        switch (r.stop) {
        case VFETCH_GX_STOP_END: CHECK_EQ(at, size); return at;
        case VFETCH_GX_STOP_TRUNCATED: return at;
        case VFETCH_GX_STOP_BATCH_FULL:
            CHECK(p[at] >= 0x80 && p[at] <= 0xbf);
            if (!s->batch.vertex_count && !s->batch.indices_used) { /* fits no batch */
                CHECK(0);
                return at;
            }
            sink_flush(s);
            break;
        case VFETCH_GX_STOP_FOREIGN: {
            const size_t len = foreign_length(p + at, size - at);
            if (len > size - at) /* cut short too: the emulator waits for the rest */
                return at;
            at += len;
            break;
        }
        default: CHECK(0); return at;
        }
    }
}

static void test_streams(void)
{
    uint8_t *stream = malloc(1 << 20);
    if (!stream)
        return;
    unsigned runs = 0, flushes = 0;
    for (unsigned t = 0; t < 40; t++) {
        struct regs start = { { vat_words[0], vat_words[1], vat_words[2] } };
        struct regs gen = start;
        const size_t size = make_stream(stream, 200, &gen);
        struct sink a, b;
        sink_open(&a, 0);
        sink_open(&b, 1);
        struct regs walk = start;
        CHECK_EQ(one_by_one(&a, stream, size, &walk), size);
        CHECK_EQ(in_runs(&b, stream, size, &runs), size);
        CHECK_EQ(a.flushes, b.flushes);
        flushes += b.flushes;
        if (!same(&a, &b)) {
            fprintf(stderr, "gx-commands: stream %u: the runs differ from the commands one by one\n", t);
            CHECK(0);
        }
        sink_close(&a, 0);
        sink_close(&b, 1);
    }
    CHECK(flushes > 0);
    CHECK(runs > 40);
    free(stream);
}

/* Every prefix of a stream, its end at a guard page: the runs stop at the first command it
   cuts short, having done what the complete commands before it do. */
static void test_prefixes(void)
{
    static uint8_t stream[64 << 10];
    struct regs start = { { vat_words[0], vat_words[1], vat_words[2] } };
    struct regs gen = start;
    size_t size = 0;
    while (size < 300 || size > 1200) { /* a short stream: every prefix is tried */
        gen = start;
        size = make_stream(stream, 12, &gen);
    }
    unsigned runs = 0;
    for (size_t n = 0; n <= size; n++) {
        uint8_t *p = guard_alloc_tail(n);
        if (!p) {
            CHECK(0);
            return;
        }
        memcpy(p, stream, n);
        struct sink a, b;
        sink_open(&a, 0);
        sink_open(&b, 0);
        struct regs walk = start;
        const size_t done = one_by_one(&a, p, n, &walk);
        CHECK_EQ(in_runs(&b, p, n, &runs), done);
        CHECK(same(&a, &b));
        sink_close(&a, 0);
        sink_close(&b, 0);
        guard_free(p);
    }
}

static void test_stops(void)
{
    struct sink s;
    sink_open(&s, 0);
    uint8_t p[256];
    size_t n = 0;
    /* a draw of 2 points in VAT 0, then one in VAT 2 after its VAT word became a reserved
       colour format: the run stops there with the compile's code, the first draw kept */
    p[n++] = 0xb8;
    p[n++] = 0;
    p[n++] = 2;
    const size_t v0 = vertex_size(vat_words[0]);
    memset(p + n, 0x11, 2 * v0);
    n += 2 * v0;
    n += put_cp(p + n, 0x72, 7u << 14 | 1u << 30); /* col0 format 7: reserved */
    const size_t bad = n;
    p[n++] = 0xba;
    p[n++] = 0;
    p[n++] = 1;
    memset(p + n, 0, 32);
    n += 32;
    struct vfetch_gx_commands_result r;
    CHECK_EQ(vfetch_gx_state_run_commands(s.state, p, n, &s.batch, &r), VFETCH_EGX_RESERVED_COLOR);
    CHECK_EQ(r.stop, VFETCH_GX_STOP_ERROR);
    CHECK_EQ(r.consumed, bad);
    CHECK_EQ(r.draws, 1u);
    CHECK_EQ(r.cp_writes, 1u);
    CHECK_EQ(r.vertices, 2u);
    CHECK_EQ(s.batch.vertex_count, 2u);
    /* a register the state does not hold stops the run before it, the state unchanged */
    n = put_cp(p, 0x20, 0x1234);
    CHECK_EQ(vfetch_gx_state_run_commands(s.state, p, n, &s.batch, &r), 0);
    CHECK_EQ(r.stop, VFETCH_GX_STOP_FOREIGN);
    CHECK_EQ(r.consumed, 0u);
    CHECK_EQ(vfetch_gx_state_reg(s.state, 0x20), 0u);
    /* a NOP, then a LOAD_CP_REG cut short */
    p[0] = 0;
    p[1] = 0x08;
    p[2] = 0x70;
    CHECK_EQ(vfetch_gx_state_run_commands(s.state, p, 3, &s.batch, &r), 0);
    CHECK_EQ(r.stop, VFETCH_GX_STOP_TRUNCATED);
    CHECK_EQ(r.consumed, 1u);
    /* nothing at all */
    CHECK_EQ(vfetch_gx_state_run_commands(s.state, NULL, 0, &s.batch, &r), 0);
    CHECK_EQ(r.stop, VFETCH_GX_STOP_END);
    CHECK_EQ(r.consumed, 0u);
    /* the call's own errors */
    CHECK_EQ(vfetch_gx_state_run_commands(NULL, p, 1, &s.batch, &r), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_run_commands(s.state, p, 1, NULL, &r), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_run_commands(s.state, p, 1, &s.batch, NULL), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_state_run_commands(s.state, NULL, 1, &s.batch, &r), VFETCH_EINVAL);
    sink_close(&s, 0);
}

int main(void)
{
    test_streams();
    test_prefixes();
    test_stops();
    return test_summary("gx-commands");
}
