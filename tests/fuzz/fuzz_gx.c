/*
 * Fuzz target: GX register words through vfetch_gx_parse, vfetch_gx_vertex_size and
 * vfetch_gx_compile (each checked against the format model of fuzz_gx_model.c, and for the
 * out-pointer and out-struct contracts on error), then one draw (fuzz_gx_draw.c).
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_gx_draw.h"
#include "fuzz_gx_model.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char gx_untouched_marker;
#define GX_UNTOUCHED ((vfetch_gx_plan *)(void *)&gx_untouched_marker)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = fuzz_input_make(data, size);
    const unsigned levels = fuzz_level_mask(fuzz_u8(&in));
    struct vfetch_gx_desc cp;
    memset(&cp, 0, sizeof cp);
    cp.regs.vcd_lo = fuzz_u32(&in);
    cp.regs.vcd_hi = fuzz_u32(&in);
    cp.regs.vat_a = fuzz_u32(&in);
    cp.regs.vat_b = fuzz_u32(&in);
    cp.regs.vat_c = fuzz_u32(&in);
    fuzz_bytes(&in, cp.array_stride, sizeof cp.array_stride);
    cp.layout = (enum vfetch_gx_layout)fuzz_below(&in, 6);
    cp.color_output = (enum vfetch_gx_color_output)fuzz_below(&in, 3);
    cp.path = (enum vfetch_path)fuzz_below(&in, 3);

    struct fuzz_gx_model m;
    fuzz_gx_model_parse(&cp.regs, &m);

    /* parse and vertex_size: the model's answer, and nothing written on error. */
    struct vfetch_gx_format f, untouched;
    memset(&f, 0x5A, sizeof f);
    memcpy(&untouched, &f, sizeof f);
    const int err = vfetch_gx_parse(&cp.regs, &f);
    FUZZ_REQUIRE(err == m.err, "vfetch_gx_parse returned %d, the model says %d", err, m.err);
    if (err)
        FUZZ_REQUIRE(memcmp(&f, &untouched, sizeof f) == 0, "parse wrote its output on error");
    else
        fuzz_gx_require_format(&m, &f);
    uint32_t vsize = 0xDEADBEEFu;
    FUZZ_REQUIRE(vfetch_gx_vertex_size(&cp.regs, &vsize) == m.err, "vertex_size disagrees with parse");
    FUZZ_REQUIRE(m.err ? vsize == 0xDEADBEEFu : vsize == m.vertex_size, "vertex size %u, model %u",
                 vsize, m.vertex_size);
    FUZZ_REQUIRE(vfetch_gx_parse(NULL, &f) == VFETCH_EINVAL &&
                     vfetch_gx_vertex_size(&cp.regs, NULL) == VFETCH_EINVAL,
                 "NULL pointers accepted");

    /* compile: options out of range are EINVAL before the registers are looked at. */
    const int bad_options = (unsigned)cp.layout > VFETCH_GX_LAYOUT_ISBE_FULL ||
                            (unsigned)cp.color_output > VFETCH_GX_COLOR_RGBA8 ||
                            (unsigned)cp.path > VFETCH_PATH_PER_OP;
    const int want = bad_options ? VFETCH_EINVAL : m.err;
    vfetch_gx_plan *plan = GX_UNTOUCHED;
    fuzz_use_levels(levels);
    const int got = vfetch_gx_compile(&cp, &plan);
    fuzz_use_best_levels();
    fuzz_trace("gx compile vcd %08x %08x vat %08x %08x %08x -> %d (model %d) vertex %u\n",
               cp.regs.vcd_lo, cp.regs.vcd_hi, cp.regs.vat_a, cp.regs.vat_b, cp.regs.vat_c, got,
               want, m.vertex_size);
    FUZZ_REQUIRE(got == want, "vfetch_gx_compile returned %d, the model says %d", got, want);
    if (got) {
        FUZZ_REQUIRE(plan == GX_UNTOUCHED, "vfetch_gx_compile failed but set *out_plan");
        return 0;
    }
    const struct vfetch_gx_format *pf = vfetch_gx_plan_format(plan);
    FUZZ_REQUIRE(pf != NULL, "compiled format without a parsed format");
    fuzz_gx_require_format(&m, pf);
    FUZZ_REQUIRE((vfetch_gx_plan_converter(plan) == NULL) == (m.vertex_size == 0),
                 "a converter exists iff the vertex has bytes");
    fuzz_gx_draw(&in, plan, &cp, levels);
    vfetch_gx_plan_free(plan);
    return 0;
}
