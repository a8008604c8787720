/*
 * Fuzz target: a GX CP state fed a sequence of register writes and plan requests, checked
 * against a model of the state written from gx.h and docs/gx.md (which addresses it holds,
 * what each write makes dirty, when it compiles, which formats its cache of 32 keeps, that a
 * cached plan is the same pointer and a handed-out plan stays usable until its format changes), each plan against an
 * independent vfetch_gx_compile of the modelled registers; then one draw (fuzz_gx_draw.c).
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_gx_draw.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define STATE_FORMATS 8
#define STATE_MAX_STEPS 96

/* gx.h: the state keeps the last 32 formats it compiled (first in, first out). */
#define STATE_CACHE 32

struct state_model {
    uint32_t reg[256];
    uint8_t dirty[STATE_FORMATS];
    const vfetch_gx_plan *held[STATE_FORMATS]; /* last plan handed out, NULL once invalid */
    struct vfetch_gx_desc held_params[STATE_FORMATS];
    uint64_t compiles;
    /* the cache: registers (compile params) of each kept format and the plan handed out */
    struct vfetch_gx_desc cache_params[STATE_CACHE];
    const vfetch_gx_plan *cache_plan[STATE_CACHE];
    unsigned cache_used, cache_next;
};

static int state_model_cached(const struct state_model *sm, const struct vfetch_gx_desc *cp)
{
    for (unsigned e = 0; e < sm->cache_used; e++)
        if (!memcmp(&sm->cache_params[e].regs, &cp->regs, sizeof cp->regs) &&
            !memcmp(sm->cache_params[e].array_stride, cp->array_stride, sizeof cp->array_stride))
            return (int)e;
    return -1;
}

/* gx.h: 0x30, 0x40, 0x50, 0x60, VAT 0x70+f/0x80+f/0x90+f (f 0..7), 0xA0+n and 0xB0+n. */
static int state_model_holds(uint8_t addr)
{
    const unsigned hi = addr >> 4, lo = addr & 0xf;
    if (hi >= 0x3 && hi <= 0x6)
        return lo == 0;
    if (hi >= 0x7 && hi <= 0x9)
        return lo < STATE_FORMATS;
    return hi == 0xa || hi == 0xb;
}

/* gx.h: a write that changes a value marks formats: VCD and strides 0..11 all eight (a
   stride only when its bits 7:0 change), a VAT word its own format; matrix indices, array
   bases and strides 12..15 none. */
static void state_model_write(struct state_model *sm, uint8_t addr, uint32_t value)
{
    const uint32_t old = sm->reg[addr];
    sm->reg[addr] = value;
    const unsigned hi = addr >> 4, lo = addr & 0xf;
    if (old == value)
        return;
    if (hi == 0x5 || hi == 0x6 || (hi == 0xb && lo < VFETCH_GX_NUM_ATTRS && ((old ^ value) & 0xff)))
        memset(sm->dirty, 1, sizeof sm->dirty);
    else if (hi >= 0x7 && hi <= 0x9)
        sm->dirty[lo] = 1;
}

static void state_model_params(const struct state_model *sm, const struct vfetch_gx_state_params *sp,
                               unsigned vat, struct vfetch_gx_desc *cp)
{
    memset(cp, 0, sizeof *cp);
    cp->regs = (struct vfetch_gx_regs){ sm->reg[0x50], sm->reg[0x60], sm->reg[0x70 + vat],
                                        sm->reg[0x80 + vat], sm->reg[0x90 + vat] };
    for (unsigned a = 0; a < VFETCH_GX_NUM_ATTRS; a++)
        cp->array_stride[a] = (uint8_t)sm->reg[0xb0 + a]; /* ARRAY_STRIDE is 8 bits */
    cp->layout = sp->layout;
    cp->color_output = sp->color_output;
    cp->path = sp->path;
}

static char state_untouched_marker;
#define STATE_UNTOUCHED ((const vfetch_gx_plan *)(const void *)&state_untouched_marker)

/* One plan request, checked against the model and an independent compile. */
static void state_request(vfetch_gx_state *st, struct state_model *sm,
                          const struct vfetch_gx_state_params *sp, unsigned vat, unsigned levels)
{
    const vfetch_gx_plan *plan = STATE_UNTOUCHED;
    fuzz_use_levels(levels);
    const int err = vfetch_gx_state_plan(st, vat, &plan);
    fuzz_use_best_levels();
    if (vat >= STATE_FORMATS) {
        FUZZ_REQUIRE(err == VFETCH_EINVAL && plan == STATE_UNTOUCHED, "vat %u accepted", vat);
        return;
    }
    struct vfetch_gx_desc cp;
    state_model_params(sm, sp, vat, &cp);
    const int cached = !sm->dirty[vat] && sm->held[vat];
    const int entry = cached ? -1 : state_model_cached(sm, &cp);
    if (cached) {
        FUZZ_REQUIRE(err == VFETCH_OK && plan == sm->held[vat],
                     "format %u not dirty but not the cached plan (%d)", vat, err);
    } else if (entry >= 0) {
        FUZZ_REQUIRE(err == VFETCH_OK && plan == sm->cache_plan[entry],
                     "format %u: registers compiled before but not the cached plan (%d)", vat, err);
        sm->held[vat] = NULL; /* set below */
    } else {
        sm->compiles++;
        sm->held[vat] = NULL; /* recompiled: the previous plan is gone */
    }
    FUZZ_REQUIRE(vfetch_gx_state_compiles(st) == sm->compiles, "compiles %llu, model %llu",
                 (unsigned long long)vfetch_gx_state_compiles(st), (unsigned long long)sm->compiles);

    vfetch_gx_plan *twin = NULL;
    const int twin_err = vfetch_gx_compile(&cp, &twin);
    fuzz_trace("gx state plan vat %u -> %d (compile %d)%s\n", vat, err, twin_err, cached ? " cached" : "");
    FUZZ_REQUIRE(err == twin_err, "state plan %d, compile of the same registers %d", err, twin_err);
    if (err) {
        FUZZ_REQUIRE(plan == STATE_UNTOUCHED, "state plan failed but set *out_plan");
        sm->dirty[vat] = 1; /* the failed format is compiled again next time */
        return;
    }
    FUZZ_REQUIRE(plan != NULL && plan != STATE_UNTOUCHED, "no plan");
    FUZZ_REQUIRE(vfetch_plan_equal(vfetch_gx_plan_converter(plan), vfetch_gx_plan_converter(twin)) &&
                     vfetch_gx_plan_out_stride(plan) == vfetch_gx_plan_out_stride(twin) &&
                     vfetch_gx_plan_format(plan)->vertex_size == vfetch_gx_plan_format(twin)->vertex_size,
                 "the state's plan for format %u differs from a compile of its registers", vat);
    vfetch_gx_plan_free(twin);
    if (!cached) {
        sm->held[vat] = plan;
        sm->held_params[vat] = cp;
    }
    if (!cached && entry < 0) { /* compiled: into the cache, replacing the oldest */
        sm->cache_params[sm->cache_next] = cp;
        sm->cache_plan[sm->cache_next] = plan;
        if (sm->cache_used < STATE_CACHE)
            sm->cache_used++;
        sm->cache_next = (sm->cache_next + 1) % STATE_CACHE;
    }
    sm->dirty[vat] = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = fuzz_input_make(data, size);
    const unsigned levels = fuzz_level_mask(fuzz_u8(&in));
    struct vfetch_gx_state_params sp;
    sp.layout = (enum vfetch_gx_layout)fuzz_below(&in, 6);
    sp.color_output = (enum vfetch_gx_color_output)fuzz_below(&in, 3);
    sp.path = (enum vfetch_path)fuzz_below(&in, 3);

    vfetch_gx_state *st = (vfetch_gx_state *)(void *)&state_untouched_marker;
    const int err = vfetch_gx_state_create(&sp, &st);
    const int bad = (unsigned)sp.layout > VFETCH_GX_LAYOUT_ISBE_FULL ||
                    (unsigned)sp.color_output > VFETCH_GX_COLOR_RGBA8 ||
                    (unsigned)sp.path > VFETCH_PATH_PER_OP;
    FUZZ_REQUIRE(err == (bad ? VFETCH_EINVAL : VFETCH_OK), "state create %d", err);
    if (err) {
        FUZZ_REQUIRE(st == (vfetch_gx_state *)(void *)&state_untouched_marker,
                     "state create failed but set *out");
        return 0;
    }
    struct state_model sm;
    memset(&sm, 0, sizeof sm);
    memset(sm.dirty, 1, sizeof sm.dirty);

    for (unsigned step = 0; step < STATE_MAX_STEPS && fuzz_left(&in); step++) {
        const uint8_t kind = fuzz_u8(&in);
        if (kind < 0xC0) { /* a register write (most steps) */
            const uint8_t addr = fuzz_u8(&in);
            const uint32_t value = fuzz_u32(&in);
            const int held = state_model_holds(addr);
            const int got = vfetch_gx_load_cp_reg(st, addr, value);
            FUZZ_REQUIRE(got == (held ? VFETCH_OK : VFETCH_EREGISTER),
                         "write of 0x%02x returned %d", addr, got);
            if (held)
                state_model_write(&sm, addr, value);
            FUZZ_REQUIRE(vfetch_gx_state_reg(st, addr) == sm.reg[addr],
                         "register 0x%02x reads 0x%08x, model 0x%08x", addr,
                         vfetch_gx_state_reg(st, addr), sm.reg[addr]);
        } else if (kind < 0xF0) { /* a plan request */
            state_request(st, &sm, &sp, fuzz_below(&in, STATE_FORMATS + 1), levels);
        } else { /* a draw with a plan handed out earlier, which must still be usable */
            const unsigned vat = fuzz_below(&in, STATE_FORMATS);
            if (!sm.held[vat])
                state_request(st, &sm, &sp, vat, levels);
            if (sm.held[vat])
                fuzz_gx_draw(&in, sm.held[vat], &sm.held_params[vat], levels);
            break; /* a draw takes the rest of the input as its data */
        }
    }
    FUZZ_REQUIRE(vfetch_gx_load_cp_reg(NULL, 0x50, 0) == VFETCH_EINVAL, "NULL state accepted");
    vfetch_gx_state_free(st);
    return 0;
}
