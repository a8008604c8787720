/*
 * Fuzz target: runs of GX commands (vfetch_gx_state_run_commands). The input builds a state
 * (packed layout with RGBA8 colours, or vec4 with float colours), its index options and index
 * policy, guest memory (the input's last bytes, so that indexed attributes read real arrays),
 * a batch whose two buffers end at guard pages, and a command stream: CP writes (VCD, VAT words
 * of formats 0-7, array bases near the memory and strides, registers the state does not hold),
 * draws 0x80-0xBF with their vertices, NOPs, foreign commands, raw bytes, and a cut end. The
 * stream is consumed run after run as an emulator does: one byte (or the whole command) skipped
 * at a foreign command, the batch flushed at a full one, a failing draw stepped over; the end
 * at a command cut short, a draw that fits no batch, or a failing draw of a format that cannot
 * be sized.
 *
 * Each run is checked against its contract (the code, consumed, the stop, the batch's figures
 * within their capacities and grown by what the result says, the buffers' bytes past them
 * untouched, those before them unchanged) and against a model: a second state and batch given
 * the same commands one by one (vfetch_gx_load_cp_reg, vfetch_gx_state_draw_batch), which must
 * consume exactly the bytes the run consumed, agree on why it stopped (and on the code), and
 * hold the same registers and the same bytes.
 *
 * Input, in read order (fuzz_input.h; tests/fuzz/make_seeds.py writes seeds in it):
 *   u8  CPU levels (fuzz_level_mask)
 *   u8  output: bit 0 vec4 layout with float colours, else packed with RGBA8
 *   u8  options: bit 0 32-bit indices, 1 primitive restart, 2 lines/points expanded,
 *       3 incomplete primitives dropped, 4 index policy CLAMP, 5 a foreign command skipped by
 *       its length (else one byte), 6 the batch starts with the used figures below
 *   u16 vertex buffer bytes, u16 index buffer indices (the capacities)
 *   u16 vertices_used, u16 vertex_count, u16 indices_used at the start (bit 6; the two used
 *       figures reduced to their capacities)
 *   u8  preset formats in VATs 0-2 (0 none, 1 direct position and colour, 2 indexed position
 *       and colour with a direct texcoord, 3 the captures' position and texcoord)
 *   u32 guest address of the memory, u16 its bytes (taken from the input's end)
 *   u8  bytes cut from the stream's end
 *   u32 seed of the generator for vertex and payload bytes
 *   then steps until the input (before the memory) ends: a kind byte and its values.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "vfetch/gx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define STREAM_MAX ((size_t)1 << 16)
#define MAX_STEPS 256
#define CAPACITY_MAX 65535u

/* ---- the stream ----------------------------------------------------------------------------- */

/* The registers the generator wrote, so that a draw gets as many vertex bytes as its format
   takes (raw bytes and a foreign command's payload may change them behind its back: the
   draws after are then cut differently, which is a case too). */
struct gen {
    uint8_t *s;
    size_t n;
    uint32_t reg[256];
    uint32_t guest;
    struct fuzz_rng rng;
};

static void put(struct gen *g, uint8_t b)
{
    if (g->n < STREAM_MAX)
        g->s[g->n++] = b;
}

static void put_cp(struct gen *g, uint8_t addr, uint32_t value)
{
    if (STREAM_MAX - g->n < 6)
        return;
    put(g, 0x08);
    put(g, addr);
    for (int shift = 24; shift >= 0; shift -= 8)
        put(g, (uint8_t)(value >> shift));
    g->reg[addr] = value;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Bytes of one vertex of VAT format vat under registers reg; 0 with *err set when the format
   is refused. */
static uint32_t vertex_size_of(const uint32_t *reg, unsigned vat, int *err)
{
    const struct vfetch_gx_regs r = { reg[0x50], reg[0x60], reg[0x70 + vat], reg[0x80 + vat],
                                      reg[0x90 + vat] };
    uint32_t size = 0;
    *err = vfetch_gx_vertex_size(&r, &size);
    return *err ? 0 : size;
}

/* The length of a command the run does not own, as an emulator's table has it (the gx-fifo
   walker's); 1 for an unknown opcode, SIZE_MAX when too few bytes are left to tell. */
static size_t foreign_length(const uint8_t *p, size_t left)
{
    switch (p[0]) {
    case 0x08: return 6;
    case 0x10: return left < 5 ? SIZE_MAX : 5 + 4 * (size_t)(((be32(p + 1) >> 16) & 0xf) + 1);
    case 0x20: case 0x28: case 0x30: case 0x38: case 0x61: return 5;
    case 0x40: return 9;
    default: return 1; /* 0x44, 0x48, unknown */
    }
}

static const uint32_t vcd_preset[4][2] = {
    { 0, 0 },
    { 0x2200, 0 },                      /* position direct, colour 0 direct */
    { 3u << 9 | 2u << 13, 1 },          /* position index16, colour 0 index8, texcoord 0 direct */
    { 0x200, 1 },                       /* position direct, texcoord 0 direct */
};

static const uint32_t vat_a_preset[4][3] = {
    { 0, 0, 0 },
    /* f32 XYZ + RGBA8888; s16 XY shifted 8 + RGB565; u8 XYZ + RGBA6666 */
    { 1 | 4u << 1 | 1u << 13 | 5u << 14, 3u << 1 | 8u << 4 | 1u << 13, 1 | 1u << 13 | 4u << 14 },
    /* s16 XYZ shift 4, RGBA8888, u16 ST shift 8; f32 XY, RGB565, s8 S; u8 XYZ, RGBA4444, f32 ST */
    { 1 | 3u << 1 | 4u << 4 | 1u << 13 | 5u << 14 | 1u << 21 | 2u << 22 | 8u << 25,
      4u << 1 | 1u << 13 | 1u << 22, 1 | 1u << 13 | 3u << 14 | 1u << 21 | 4u << 22 },
    /* the captures' f32 XY + f32 ST (BYTEDEQUANT set), and two more */
    { 0x41200008u, 0x40000008u, 1 | 3u << 1 | 1u << 21 | 3u << 22 },
};

/* The preset's writes, in the order a game makes them: the VCD, each VAT's words, and for the
   indexed one the arrays (position s16 XYZ, 6 bytes, at the memory's start; colour RGBA8888,
   4 bytes, 0x100 in). */
static unsigned preset_writes(unsigned preset, uint32_t guest, uint8_t addr[16], uint32_t value[16])
{
    unsigned n = 0;
    if (preset == 0)
        return 0;
    addr[n] = 0x50, value[n++] = vcd_preset[preset][0];
    addr[n] = 0x60, value[n++] = vcd_preset[preset][1];
    for (unsigned f = 0; f < 3; f++) {
        addr[n] = (uint8_t)(0x70 + f), value[n++] = vat_a_preset[preset][f];
        addr[n] = (uint8_t)(0x80 + f), value[n++] = 1u << 31;
    }
    if (preset == 2) {
        addr[n] = 0xa0, value[n++] = guest;
        addr[n] = 0xb0, value[n++] = 6;
        addr[n] = 0xa2, value[n++] = guest + 0x100;
        addr[n] = 0xb2, value[n++] = 4;
    }
    return n;
}

static const uint8_t foreign_ops[] = { 0x10, 0x20, 0x28, 0x30, 0x38, 0x40, 0x44, 0x48, 0x61,
                                       0x01, 0x07, 0x09, 0x18, 0x50, 0x7f, 0xc0, 0xff };

/* One step of the stream. */
static void gen_step(struct gen *g, struct fuzz_input *in)
{
    const uint8_t kind = fuzz_u8(in);
    if (kind < 110 || kind >= 200) { /* a draw (most steps) */
        const uint8_t op = (uint8_t)(0x80 | (fuzz_u8(in) & 0x3f));
        const uint8_t c = fuzz_u8(in);
        uint32_t count = c < 0xf0 ? c % 48u : fuzz_u16(in);
        const uint8_t fill = fuzz_u8(in);
        int err;
        const uint32_t vsize = vertex_size_of(g->reg, op & 7u, &err);
        if (STREAM_MAX - g->n < 3)
            return;
        const size_t room = STREAM_MAX - g->n - 3;
        if (vsize && (uint64_t)count * vsize > room)
            count = (uint32_t)(room / vsize);
        put(g, op);
        put(g, (uint8_t)(count >> 8));
        put(g, (uint8_t)count);
        /* a refused format: a few bytes, as the stream has no way to size it */
        const size_t bytes = err ? (fill % 8u < room ? fill % 8u : room) : (size_t)count * vsize;
        uint8_t *v = g->s + g->n;
        g->n += bytes;
        switch (fill % 5) {
        case 0: /* the generator's bytes */
            for (size_t i = 0; i < bytes; i++)
                v[i] = (uint8_t)fuzz_rng_next(&g->rng);
            break;
        case 1: fuzz_fill(in, &g->rng, v, bytes); break; /* the input's, then the generator's */
        case 2: /* small: array indices mostly in range */
            for (size_t i = 0; i < bytes; i++) {
                const uint32_t x = fuzz_rng_next(&g->rng);
                v[i] = (uint8_t)(x & 1 ? x >> 8 & 7u : 0);
            }
            break;
        case 3: /* index 0, or the skip value */
            for (size_t i = 0; i < bytes; i++)
                v[i] = fuzz_rng_next(&g->rng) % 4 ? 0 : 0xff;
            break;
        default: memset(v, 0, bytes); break;
        }
    } else if (kind < 150) { /* a write of a register the state holds */
        const uint8_t which = fuzz_u8(in);
        const uint8_t sub = fuzz_u8(in);
        uint8_t addr;
        uint32_t value;
        switch (which % 8) {
        case 0: addr = 0x50, value = fuzz_u32(in) & 0x1ffffu; break;
        case 1: addr = 0x60, value = fuzz_u32(in) & 0xffffu; break;
        case 2: addr = (uint8_t)(0x70 + sub % 8), value = fuzz_u32(in); break;
        case 3: addr = (uint8_t)(0x80 + sub % 8), value = fuzz_u32(in); break;
        case 4: addr = (uint8_t)(0x90 + sub % 8), value = fuzz_u32(in); break;
        case 5: /* an array base: in the memory, unless the input says raw */
            addr = (uint8_t)(0xa0 + sub % 16);
            value = which >= 0x80 ? fuzz_u32(in) : g->guest + fuzz_u16(in);
            break;
        case 6: addr = (uint8_t)(0xb0 + sub % 16), value = which >= 0x80 ? fuzz_u32(in) : fuzz_u8(in); break;
        default: addr = sub & 1 ? 0x40 : 0x30, value = fuzz_u32(in); break;
        }
        put_cp(g, addr, value);
    } else if (kind < 160) { /* a write of any address: most are not held */
        const uint8_t addr = fuzz_u8(in);
        put_cp(g, addr, fuzz_u32(in));
    } else if (kind < 170) { /* NOPs */
        for (unsigned i = 0; i <= kind % 4u; i++)
            put(g, 0x00);
    } else if (kind < 190) { /* a foreign command with its payload */
        const uint8_t op = foreign_ops[fuzz_u8(in) % sizeof foreign_ops];
        uint8_t cmd[5 + 4 * 16] = { op };
        for (size_t i = 1; i < sizeof cmd; i++)
            cmd[i] = (uint8_t)fuzz_rng_next(&g->rng);
        if (op == 0x10)
            cmd[2] &= 0x03; /* at most four XF words */
        const size_t len = foreign_length(cmd, sizeof cmd);
        for (size_t i = 0; i < len; i++)
            put(g, cmd[i]);
    } else { /* raw bytes of the input */
        const unsigned n = fuzz_u8(in) % 16u;
        for (unsigned i = 0; i < n; i++)
            put(g, fuzz_u8(in));
    }
}

/* ---- a state and its batch ------------------------------------------------------------------ */

struct side {
    vfetch_gx_state *state;
    struct vfetch_batch batch;
    uint8_t *vertices, *indices;
    size_t vertex_bytes, index_bytes; /* the buffers' sizes */
    unsigned width;                   /* bytes of one index */
};

/* Position-dependent canary bytes of the largest buffer, compared with memcmp. */
static uint8_t canary_bytes[(size_t)CAPACITY_MAX * 4];

static void canary_init(void)
{
    static int done;
    if (!done) {
        fuzz_canary_fill(canary_bytes, sizeof canary_bytes);
        done = 1;
    }
}

static size_t index_bytes_used(const struct side *s)
{
    return s->batch.indices_used * s->width;
}

/* The bytes past the used figures are untouched (they hold the canary since the last flush). */
static void require_canaries(const struct side *s, const char *who)
{
    const size_t v = s->batch.vertices_used, i = index_bytes_used(s);
    FUZZ_REQUIRE(!memcmp(s->vertices + v, canary_bytes + v, s->vertex_bytes - v),
                 "%s: the vertex buffer was written past vertices_used %zu", who, v);
    FUZZ_REQUIRE(!memcmp(s->indices + i, canary_bytes + i, s->index_bytes - i),
                 "%s: the index buffer was written past indices_used %zu", who,
                 s->batch.indices_used);
}

static int batch_empty(const struct vfetch_batch *b)
{
    return !b->vertices_used && !b->vertex_count && !b->indices_used;
}

/* What the emulator does with a full batch: draws it, and the used bytes become free again. */
static void flush(struct side *s)
{
    memcpy(s->vertices, canary_bytes, s->batch.vertices_used);
    memcpy(s->indices, canary_bytes, index_bytes_used(s));
    s->batch.vertices_used = s->batch.indices_used = 0;
    s->batch.vertex_count = 0;
}

struct setup {
    struct vfetch_gx_state_params params;
    struct vfetch_gx_index_options options;
    enum vfetch_gx_index_policy policy;
    size_t vertex_capacity, index_capacity;
    struct vfetch_batch start;
    uint8_t preset_addr[16];
    uint32_t preset_value[16];
    unsigned presets;
    const uint8_t *memory;
    size_t memory_size;
    uint32_t guest;
};

static void side_open(struct side *s, const struct setup *u)
{
    int err = vfetch_gx_state_create(&u->params, &s->state);
    FUZZ_REQUIRE(err == VFETCH_OK, "state create %d", err);
    err = vfetch_gx_state_set_index_options(s->state, &u->options);
    FUZZ_REQUIRE(err == VFETCH_OK, "set_index_options %d", err);
    err = vfetch_gx_state_set_index_policy(s->state, u->policy);
    FUZZ_REQUIRE(err == VFETCH_OK, "set_index_policy %d", err);
    err = vfetch_gx_state_map_memory(s->state, 0, u->guest, u->memory, u->memory_size);
    const int past = (uint64_t)u->guest + u->memory_size > (uint64_t)1 << 32;
    FUZZ_REQUIRE(err == (past ? VFETCH_EINVAL : VFETCH_OK), "map_memory of %zu bytes at 0x%x: %d",
                 u->memory_size, u->guest, err);
    for (unsigned i = 0; i < u->presets; i++) {
        err = vfetch_gx_load_cp_reg(s->state, u->preset_addr[i], u->preset_value[i]);
        FUZZ_REQUIRE(err == VFETCH_OK, "preset write of 0x%02x: %d", u->preset_addr[i], err);
    }
    s->width = u->options.index_type == VFETCH_INDEX_U32 ? 4 : 2;
    s->vertex_bytes = u->vertex_capacity;
    s->index_bytes = u->index_capacity * s->width;
    s->vertices = fuzz_buf_alloc(s->vertex_bytes);
    s->indices = fuzz_buf_alloc(s->index_bytes);
    memcpy(s->vertices, canary_bytes, s->vertex_bytes);
    memcpy(s->indices, canary_bytes, s->index_bytes);
    s->batch = u->start;
    s->batch.vertices = s->vertices;
    s->batch.indices = s->indices;
}

static void side_close(struct side *s)
{
    vfetch_gx_state_free(s->state);
    fuzz_buf_free(s->vertices);
    fuzz_buf_free(s->indices);
}

/* The run's side and the model's hold the same figures, registers and used bytes. */
static void require_same(const struct side *a, const struct side *m, size_t at)
{
    const struct vfetch_batch *x = &a->batch, *y = &m->batch;
    FUZZ_REQUIRE(x->vertices_used == y->vertices_used && x->vertex_count == y->vertex_count &&
                     x->indices_used == y->indices_used,
                 "at byte %zu the run's batch (%zu bytes, %u records, %zu indices) differs from "
                 "the commands one by one (%zu, %u, %zu)", at, x->vertices_used, x->vertex_count,
                 x->indices_used, y->vertices_used, y->vertex_count, y->indices_used);
    fuzz_require_same(a->vertices, m->vertices, x->vertices_used, "run", "one-by-one");
    fuzz_require_same(a->indices, m->indices, index_bytes_used(a), "run", "one-by-one");
    for (unsigned addr = 0; addr < 256; addr++)
        FUZZ_REQUIRE(vfetch_gx_state_reg(a->state, (uint8_t)addr) ==
                         vfetch_gx_state_reg(m->state, (uint8_t)addr),
                     "at byte %zu register 0x%02x: run 0x%08x, one by one 0x%08x", at, addr,
                     vfetch_gx_state_reg(a->state, (uint8_t)addr),
                     vfetch_gx_state_reg(m->state, (uint8_t)addr));
}

/* ---- the model: the commands one by one ----------------------------------------------------- */

static uint32_t model_vertex_size(const struct side *m, unsigned vat, int *err)
{
    uint32_t reg[256];
    for (unsigned a = 0; a < 256; a++)
        reg[a] = 0;
    reg[0x50] = vfetch_gx_state_reg(m->state, 0x50);
    reg[0x60] = vfetch_gx_state_reg(m->state, 0x60);
    for (unsigned w = 0x70; w <= 0x90; w += 0x10)
        reg[w + vat] = vfetch_gx_state_reg(m->state, (uint8_t)(w + vat));
    return vertex_size_of(reg, vat, err);
}

/* What the run appended, added up draw by draw. */
struct totals {
    uint32_t draws, cp_writes, vertices, skipped, clamped;
    size_t indices, record_bytes;
};

/* One draw one by one; its code. Checks that a success grew the batch by what its result says
   and a failure changed nothing. */
static int model_draw(struct side *m, uint8_t op, const uint8_t *vertices, size_t bytes,
                      uint32_t count, struct totals *t)
{
    const struct vfetch_batch before = m->batch;
    struct vfetch_gx_batch_result r, untouched;
    memset(&r, 0x5a, sizeof r);
    untouched = r;
    const int err = vfetch_gx_state_draw_batch(m->state, op, vertices, bytes, count, &m->batch, &r);
    if (err) {
        FUZZ_REQUIRE(!memcmp(&before, &m->batch, sizeof before) && !memcmp(&r, &untouched, sizeof r),
                     "draw_batch failed (%d) but changed the batch or the result", err);
        return err;
    }
    const vfetch_gx_plan *plan = NULL;
    const int plan_err = vfetch_gx_state_plan(m->state, op & 7u, &plan);
    FUZZ_REQUIRE(plan_err == VFETCH_OK, "a draw succeeded, its format's plan failed (%d)", plan_err);
    const size_t record_bytes = (size_t)r.vertices * vfetch_gx_plan_out_stride(plan);
    FUZZ_REQUIRE(r.vertices + r.skipped == count,
                 "draw of %u: %u records, %u skipped", count, r.vertices, r.skipped);
    FUZZ_REQUIRE(m->batch.vertices_used == before.vertices_used + record_bytes &&
                     m->batch.vertex_count == before.vertex_count + r.vertices &&
                     m->batch.indices_used == before.indices_used + r.indices,
                 "draw_batch's figures grew by other than its result");
    t->draws++;
    t->vertices += r.vertices;
    t->skipped += r.skipped;
    t->clamped += r.clamped;
    t->indices += r.indices;
    t->record_bytes += record_bytes;
    return VFETCH_OK;
}

/* The commands s[pos, end) one by one: the run consumed them, so each is a NOP, a LOAD_CP_REG
   of a held register or a draw that succeeds, and they end at end exactly. */
static void model_replay(struct side *m, const uint8_t *s, size_t pos, size_t end, struct totals *t)
{
    while (pos < end) {
        const uint8_t op = s[pos];
        if (op == 0x00) {
            pos++;
            continue;
        }
        if (op == 0x08) {
            FUZZ_REQUIRE(end - pos >= 6, "the run consumed a LOAD_CP_REG cut short at %zu", pos);
            const int err = vfetch_gx_load_cp_reg(m->state, s[pos + 1], be32(s + pos + 2));
            FUZZ_REQUIRE(err == VFETCH_OK, "the run consumed a write of 0x%02x that the state "
                         "refuses (%d)", s[pos + 1], err);
            t->cp_writes++;
            pos += 6;
            continue;
        }
        FUZZ_REQUIRE(op >= 0x80 && op <= 0xbf, "the run consumed 0x%02x at %zu, not its command", op, pos);
        FUZZ_REQUIRE(end - pos >= 3, "the run consumed a draw cut short at %zu", pos);
        const uint32_t count = (uint32_t)s[pos + 1] << 8 | s[pos + 2];
        int err;
        const uint64_t bytes = (uint64_t)count * model_vertex_size(m, op & 7u, &err);
        FUZZ_REQUIRE(!err, "the run consumed a draw of a refused format (%d)", err);
        FUZZ_REQUIRE(bytes <= end - pos - 3, "the run consumed a draw cut short at %zu", pos);
        err = model_draw(m, op, s + pos + 3, (size_t)bytes, count, t);
        FUZZ_REQUIRE(!err, "the run consumed a draw at %zu that fails one by one (%d)", pos, err);
        pos += 3 + (size_t)bytes;
    }
}

/* The command at s[pos] (size bytes in all) stops a run for `stop` with code err: check it one
   by one. Returns where the emulator goes on, or SIZE_MAX where it stops. */
static size_t model_stop(struct side *m, const uint8_t *s, size_t pos, size_t size,
                         enum vfetch_gx_stop stop, int err, int skip_by_length)
{
    const size_t left = size - pos;
    const uint8_t op = left ? s[pos] : 0;
    const int draw = op >= 0x80 && op <= 0xbf;
    uint32_t count = 0;
    uint64_t bytes = 0;
    int format_err = 0;
    if (draw && left >= 3) {
        count = (uint32_t)s[pos + 1] << 8 | s[pos + 2];
        bytes = (uint64_t)count * model_vertex_size(m, op & 7u, &format_err);
    }
    const int complete = draw && left >= 3 && !format_err && bytes <= left - 3;
    struct totals none = { 0 };
    switch (stop) {
    case VFETCH_GX_STOP_END:
        FUZZ_REQUIRE(left == 0, "stop END with %zu bytes left", left);
        return SIZE_MAX;
    case VFETCH_GX_STOP_TRUNCATED:
        FUZZ_REQUIRE(left && ((op == 0x08 && left < 6) ||
                              (draw && (left < 3 || (!format_err && bytes > left - 3)))),
                     "stop TRUNCATED at 0x%02x with %zu bytes left, a whole command", op, left);
        return SIZE_MAX;
    case VFETCH_GX_STOP_FOREIGN: {
        FUZZ_REQUIRE(left, "stop FOREIGN at the end");
        if (op == 0x08) {
            FUZZ_REQUIRE(left >= 6, "stop FOREIGN at a LOAD_CP_REG cut short");
            const int got = vfetch_gx_load_cp_reg(m->state, s[pos + 1], be32(s + pos + 2));
            FUZZ_REQUIRE(got == VFETCH_EREGISTER, "stop FOREIGN at a write of 0x%02x the state "
                         "takes (%d)", s[pos + 1], got);
        } else {
            FUZZ_REQUIRE(op != 0x00 && !draw, "stop FOREIGN at 0x%02x, a command of the run's", op);
        }
        const size_t len = skip_by_length ? foreign_length(s + pos, left) : 1;
        return len > left ? SIZE_MAX : pos + len;
    }
    case VFETCH_GX_STOP_BATCH_FULL:
        FUZZ_REQUIRE(complete, "stop BATCH_FULL at 0x%02x, not a whole draw", op);
        err = model_draw(m, op, s + pos + 3, (size_t)bytes, count, &none);
        FUZZ_REQUIRE(err == VFETCH_EBATCH_FULL, "stop BATCH_FULL at a draw that gives %d one by one", err);
        if (batch_empty(&m->batch))
            return SIZE_MAX; /* it fits no batch of these capacities */
        return pos;
    case VFETCH_GX_STOP_ERROR:
        FUZZ_REQUIRE(draw && left >= 3 && (format_err || complete),
                     "stop ERROR at 0x%02x with %zu bytes left, not a whole draw", op, left);
        if (format_err) {
            FUZZ_REQUIRE(err == format_err, "stop ERROR with %d, the format's error is %d", err, format_err);
            return SIZE_MAX; /* its length is unknown: the emulator cannot go on */
        }
        {
            const int got = model_draw(m, op, s + pos + 3, (size_t)bytes, count, &none);
            FUZZ_REQUIRE(got == err, "stop ERROR with %d, the draw one by one gives %d", err, got);
        }
        return pos + 3 + (size_t)bytes; /* the emulator drops the draw */
    }
    FUZZ_REQUIRE(0, "stop %d is none of the enum's", (int)stop);
    return SIZE_MAX;
}

/* ---- the target ----------------------------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    canary_init();
    struct fuzz_input in = fuzz_input_make(data, size);
    const unsigned levels = fuzz_level_mask(fuzz_u8(&in));
    struct setup u;
    memset(&u, 0, sizeof u);
    const uint8_t output = fuzz_u8(&in);
    u.params.layout = output & 1 ? VFETCH_GX_LAYOUT_VEC4 : VFETCH_GX_LAYOUT_PACKED;
    u.params.color_output = output & 1 ? VFETCH_GX_COLOR_FLOAT : VFETCH_GX_COLOR_RGBA8;
    const uint8_t opt = fuzz_u8(&in);
    u.options.index_type = opt & 1 ? VFETCH_INDEX_U32 : VFETCH_INDEX_U16;
    u.options.restart = opt >> 1 & 1;
    u.options.expand_lines_points = opt >> 2 & 1;
    u.options.drop_incomplete = opt >> 3 & 1;
    u.policy = opt & 16 ? VFETCH_GX_INDEX_CLAMP : VFETCH_GX_INDEX_ERROR;
    const int skip_by_length = opt >> 5 & 1;
    u.vertex_capacity = fuzz_u16(&in);
    u.index_capacity = fuzz_u16(&in);
    const uint16_t start_vertices = fuzz_u16(&in), start_count = fuzz_u16(&in),
                   start_indices = fuzz_u16(&in);
    if (opt & 64) {
        u.start.vertices_used = start_vertices % (u.vertex_capacity + 1);
        u.start.vertex_count = start_count;
        u.start.indices_used = start_indices % (u.index_capacity + 1);
    }
    u.start.vertices_capacity = u.vertex_capacity;
    u.start.indices_capacity = u.index_capacity;
    const unsigned preset = fuzz_u8(&in) % 4u;
    u.guest = fuzz_u32(&in);
    const uint16_t memory_wanted = fuzz_u16(&in);
    const uint8_t cut = fuzz_u8(&in);
    const uint32_t seed = fuzz_u32(&in);

    /* the memory: the input's last bytes, copied to the end of a guarded buffer */
    u.memory_size = memory_wanted < fuzz_left(&in) ? memory_wanted : fuzz_left(&in);
    uint8_t *memory = fuzz_buf_alloc(u.memory_size);
    memcpy(memory, data + size - u.memory_size, u.memory_size);
    u.memory = memory;
    in.size -= u.memory_size;
    u.presets = preset_writes(preset, u.guest, u.preset_addr, u.preset_value);

    /* the stream */
    static uint8_t built[STREAM_MAX];
    struct gen g;
    memset(&g, 0, sizeof g);
    g.s = built;
    g.guest = u.guest;
    g.rng = fuzz_rng_make(seed);
    for (unsigned i = 0; i < u.presets; i++)
        g.reg[u.preset_addr[i]] = u.preset_value[i];
    for (unsigned step = 0; step < MAX_STEPS && fuzz_left(&in) && g.n < STREAM_MAX; step++)
        gen_step(&g, &in);
    const size_t stream_size = g.n - (cut < g.n ? cut : g.n);
    uint8_t *stream = fuzz_buf_alloc(stream_size);
    memcpy(stream, built, stream_size);

    fuzz_use_levels(levels);
    struct side a, m;
    side_open(&a, &u);
    side_open(&m, &u);
    fuzz_trace("gx commands: %zu stream bytes, %s, u%u%s%s%s%s, batch %zu bytes %zu indices, "
               "memory %zu at 0x%x, preset %u\n", stream_size, output & 1 ? "vec4" : "packed",
               a.width * 8, u.options.restart ? " restart" : "",
               u.options.expand_lines_points ? " expand" : "", u.options.drop_incomplete ? " drop" : "",
               u.policy ? " clamp" : "", u.vertex_capacity, u.index_capacity, u.memory_size, u.guest,
               preset);

    size_t at = 0;
    unsigned calls = 0;
    for (;;) {
        FUZZ_REQUIRE(++calls <= 2 * stream_size + 4, "the runs make no progress at byte %zu", at);
        const struct vfetch_batch before = a.batch;
        struct vfetch_gx_commands_result r;
        memset(&r, 0x5a, sizeof r);
        const int err = vfetch_gx_state_run_commands(a.state, stream + at, stream_size - at, &a.batch, &r);
        fuzz_trace("  run at %zu: %d, stop %d, consumed %zu, draws %u, writes %u, vertices %u, "
                   "indices %zu\n", at, err, (int)r.stop, r.consumed, r.draws, r.cp_writes,
                   r.vertices, r.indices);
        /* the contract, from the run's side alone */
        FUZZ_REQUIRE(err == VFETCH_OK || (err < 0 && err > VFETCH_ECOUNT), "code %d", err);
        FUZZ_REQUIRE((unsigned)r.stop <= VFETCH_GX_STOP_ERROR, "stop %d", (int)r.stop);
        FUZZ_REQUIRE(r.consumed <= stream_size - at, "consumed %zu of %zu", r.consumed, stream_size - at);
        FUZZ_REQUIRE(r.stop != VFETCH_GX_STOP_END || r.consumed == stream_size - at,
                     "stop END after %zu of %zu bytes", r.consumed, stream_size - at);
        FUZZ_REQUIRE((r.stop == VFETCH_GX_STOP_ERROR) == (err != VFETCH_OK),
                     "stop %d with code %d", (int)r.stop, err);
        FUZZ_REQUIRE(a.batch.vertices == before.vertices && a.batch.indices == before.indices &&
                         a.batch.vertices_capacity == before.vertices_capacity &&
                         a.batch.indices_capacity == before.indices_capacity,
                     "the run changed the batch's buffers or capacities");
        FUZZ_REQUIRE(a.batch.vertices_used <= a.batch.vertices_capacity &&
                         a.batch.indices_used <= a.batch.indices_capacity,
                     "used figures past the capacities");
        FUZZ_REQUIRE(a.batch.vertex_count == before.vertex_count + r.vertices &&
                         a.batch.indices_used == before.indices_used + r.indices &&
                         a.batch.vertices_used >= before.vertices_used,
                     "the batch grew by other than the result");
        FUZZ_REQUIRE(r.draws || (!r.vertices && !r.indices && !r.skipped && !r.clamped &&
                                 a.batch.vertices_used == before.vertices_used),
                     "no draw, but records or indices appended");
        require_canaries(&a, "run");
        /* the bytes already in the batch are as they were: the model's side still holds them */
        fuzz_require_same(a.vertices, m.vertices, before.vertices_used, "run", "before the run");
        fuzz_require_same(a.indices, m.indices, before.indices_used * a.width, "run", "before the run");

        /* the same commands one by one */
        struct totals t = { 0 };
        model_replay(&m, stream, at, at + r.consumed, &t);
        FUZZ_REQUIRE(t.draws == r.draws && t.cp_writes == r.cp_writes && t.vertices == r.vertices &&
                         t.skipped == r.skipped && t.clamped == r.clamped && t.indices == r.indices,
                     "the run counts %u draws, %u writes, %u records, %u skipped, %u clamped, %zu "
                     "indices; one by one %u, %u, %u, %u, %u, %zu", r.draws, r.cp_writes,
                     r.vertices, r.skipped, r.clamped, r.indices, t.draws, t.cp_writes, t.vertices,
                     t.skipped, t.clamped, t.indices);
        FUZZ_REQUIRE(a.batch.vertices_used - before.vertices_used == t.record_bytes,
                     "vertices_used grew by %zu, the records appended take %zu",
                     a.batch.vertices_used - before.vertices_used, t.record_bytes);
        at += r.consumed;
        const size_t next = model_stop(&m, stream, at, stream_size, r.stop, err, skip_by_length);
        require_same(&a, &m, at);
        require_canaries(&m, "one by one");
        if (next == SIZE_MAX)
            break;
        if (r.stop == VFETCH_GX_STOP_BATCH_FULL) {
            flush(&a);
            flush(&m);
        }
        at = next;
    }

    /* the call's own errors: nothing consumed, the batch untouched */
    struct vfetch_gx_commands_result r;
    FUZZ_REQUIRE(vfetch_gx_state_run_commands(NULL, stream, stream_size, &a.batch, &r) == VFETCH_EINVAL &&
                     vfetch_gx_state_run_commands(a.state, stream, stream_size, NULL, &r) == VFETCH_EINVAL &&
                     vfetch_gx_state_run_commands(a.state, stream, stream_size, &a.batch, NULL) == VFETCH_EINVAL &&
                     vfetch_gx_state_run_commands(a.state, NULL, 1, &a.batch, &r) == VFETCH_EINVAL,
                 "a NULL argument accepted");
    require_canaries(&a, "run with a NULL argument");
    fuzz_use_best_levels();
    side_close(&a);
    side_close(&m);
    fuzz_buf_free(stream);
    fuzz_buf_free(memory);
    return 0;
}
