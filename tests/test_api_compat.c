/*
 * The names before 0.2 (the end of each public header; docs/api.md's migration) still build
 * and mean what their new names mean: code written against 0.1, like the Dolphin peer kit's
 * harness, keeps working until 1.0. vfetch's own code is built with VFETCH_NO_DEPRECATED;
 * this file alone is not.
 */
#undef VFETCH_NO_DEPRECATED
#include <stdint.h>
#include <string.h>

#include "testutil.h"
#include "vfetch/gx.h"
#include "vfetch/maxwell.h"
#include "vfetch/texel.h"
#include "vfetch/vfetch.h"

static void test_error_names(void)
{
    CHECK_EQ(VFETCH_ERESERVED_TYPE, VFETCH_ER300_RESERVED_TYPE);
    CHECK_EQ(VFETCH_ERESERVED_TYPE, -4); /* values never change */
    CHECK_EQ(VFETCH_ERESERVED_SGN_NORM, VFETCH_ER300_RESERVED_SGN_NORM);
    CHECK_EQ(VFETCH_EFLOAT8_LOC31, VFETCH_ER300_FLOAT8_LOC31);
    CHECK_EQ(VFETCH_ENO_LAST_VEC, VFETCH_ER300_NO_LAST_VEC);
    CHECK_EQ(VFETCH_ESTREAM_UNDERRUN, VFETCH_ER300_STREAM_UNDERRUN);
    CHECK_EQ(VFETCH_ETOO_MANY_ARRAYS, VFETCH_ER300_TOO_MANY_ARRAYS);
    CHECK_EQ(VFETCH_EARRAY_LAYOUT, VFETCH_ER300_ARRAY_LAYOUT);
    CHECK_EQ(VFETCH_ERESERVED_COLOR, VFETCH_EGX_RESERVED_COLOR);
    CHECK_EQ(VFETCH_EARRAY_INDEX, VFETCH_EGX_ARRAY_INDEX);
    CHECK_EQ(VFETCH_EARRAY_INDEX, -19);
    CHECK_EQ(VFETCH_EATTRIBUTE_FORMAT, VFETCH_EMAXWELL_ATTRIBUTE_FORMAT);
    CHECK_EQ(VFETCH_ESTREAM_DISABLED, VFETCH_EMAXWELL_STREAM_DISABLED);
    CHECK_EQ(VFETCH_ERESERVED_COORD_TYPE, VFETCH_ETEXEL_RESERVED_COORD_TYPE);
    CHECK_EQ(VFETCH_ERESERVED_YUV_MODE, VFETCH_ETEXEL_RESERVED_YUV_MODE);
    CHECK_EQ(VFETCH_EPOW2FIX_FORMAT, VFETCH_ETEXEL_POW2FIX_FORMAT);
    CHECK_EQ(VFETCH_ERGBA8_INEXACT, VFETCH_ETEXEL_RGBA8_INEXACT);
    CHECK_EQ(VFETCH_ESURFACE_LAYOUT, VFETCH_ETEXEL_SURFACE_LAYOUT);
    CHECK_EQ(VFETCH_EREGION, VFETCH_ETEXEL_REGION);
    CHECK_EQ(VFETCH_ESHORT_SURFACE, VFETCH_ETEXEL_SHORT_SURFACE);
    CHECK_EQ(VFETCH_ESHORT_SURFACE, -36);
}

/* The GX calls as 0.1 code (the peer kit's harness) writes them: compile parameters with the
   register words in .regs, positional register words for vfetch_gx_decode. */
static void test_gx_names(void)
{
    const uint32_t vcd_lo = 1u << 9 | 1u << 13, vat_a = 1u | 4u << 1 | 1u << 13 | 5u << 14;
    /* 0.1's register words, written as 0.1 code wrote them: the braces now reach .regs */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-braces"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
    struct vfetch_gx_desc old_regs = { vcd_lo, 0, vat_a, 0, 0 };
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    struct vfetch_gx_format old_format, new_format;
    CHECK_EQ(vfetch_gx_decode(&old_regs, &old_format), VFETCH_OK);
    const struct vfetch_gx_regs regs = { vcd_lo, 0, vat_a, 0, 0 };
    CHECK_EQ(vfetch_gx_parse(&regs, &new_format), VFETCH_OK);
    CHECK(memcmp(&old_format, &new_format, sizeof old_format) == 0);
    CHECK_EQ(vfetch_gx_decode(NULL, &old_format), VFETCH_EINVAL);

    struct vfetch_gx_compile_params cp;
    memset(&cp, 0, sizeof cp);
    cp.regs = regs;
    cp.layout = VFETCH_GX_LAYOUT_PACKED;
    cp.color_output = VFETCH_GX_COLOR_RGBA8;
    vfetch_gx_plan *plan = NULL;
    CHECK_EQ(vfetch_gx_compile(&cp, &plan), VFETCH_OK);
    CHECK_EQ(vfetch_gx_plan_out_stride(plan), 16); /* xyz and one RGBA8 slot */
    vfetch_gx_plan_free(plan);
}

static void test_other_names(void)
{
    struct vfetch_plan_desc pd;
    vfetch_plan_desc_init(&pd);
    vfetch_plan *plan = (vfetch_plan *)(uintptr_t)1;
    CHECK_EQ(vfetch_plan_create(&pd, &plan), vfetch_plan_compile(&pd, &plan));

    struct vfetch_maxwell_attribute a, b;
    const uint32_t word = (uint32_t)VFETCH_MAXWELL_SIZE_R8_G8_B8_A8 << 21 |
                          (uint32_t)VFETCH_MAXWELL_TYPE_UNORM << 27;
    CHECK_EQ(vfetch_maxwell_attribute_decode(word, &a), VFETCH_OK);
    CHECK_EQ(vfetch_maxwell_attribute_parse(word, &b), VFETCH_OK);
    CHECK(memcmp(&a, &b, sizeof a) == 0);

    struct vfetch_texel_options o;
    struct vfetch_texel_desc d;
    memset(&o, 0xA5, sizeof o);
    vfetch_texel_options_default(&o);
    vfetch_texel_desc_init(&d);
    CHECK(memcmp(&o, &d.options, sizeof o) == 0);
    d.tx_format1 = 15;
    vfetch_texel_plan *tp = NULL;
    CHECK_EQ(vfetch_texel_compile(&d, &tp), VFETCH_OK);
    CHECK_EQ(vfetch_texel_describe(tp, NULL, 0), vfetch_texel_plan_describe(tp, NULL, 0));
    vfetch_texel_plan_free(tp);
}

int main(void)
{
    test_error_names();
    test_gx_names();
    test_other_names();
    return test_summary("api-compat");
}
