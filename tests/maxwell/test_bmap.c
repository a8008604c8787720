/*
 * Maxwell Bmaps: one hand-derived case (or more) per rule of docs/maxwell.md "Bmaps" (B1..B16),
 * each naming the rule it proves: the VTG truth table (LD, LD_REQ, ST, ST_REQ, ST_LAST,
 * StoreReq range, default, discard), VERTEX_INPUT_BMAP with both skip-mask pairs, the
 * CULL_BEFORE_FETCH Omap OR, the VSC input Bmap of note 19, the pixel shader's CBE and input
 * sources (notes 2, 3, 13, 14, 20-22), whole pipelines, every error with where it is reported
 * and outputs untouched on error; then Shader Program Header parsing (VTG bits 160+n / 400+n,
 * StoreReq, the pixel shader's 2-bit codes at their SPH positions, SET_SHADE_MODE flat).
 */
#include "testutil.h"
#include "vfetch/aam.h"

/* A set from a list of attribute numbers ended by -1. */
static struct vfetch_aam_map set_of(const int *list)
{
    struct vfetch_aam_map m = { { 0 } };
    for (; *list >= 0; list++)
        vfetch_aam_map_add(&m, (unsigned)*list);
    return m;
}
#define SET(...) set_of((const int[]){ __VA_ARGS__, -1 })
#define NONE set_of((const int[]){ -1 })

static int map_equal(const struct vfetch_aam_map *a, const struct vfetch_aam_map *b)
{
    return !memcmp(a, b, sizeof *a);
}

/* Two sets must be equal; the differing attributes are printed. */
#define CHECK_MAP(got, want)                                                                \
    do {                                                                                    \
        const struct vfetch_aam_map g_ = (got), w_ = (want);                                \
        CHECK(map_equal(&g_, &w_));                                                         \
        for (unsigned n_ = 0; n_ < VFETCH_AAM_ATTRIBUTES; n_++)                             \
            if (vfetch_aam_map_has(&g_, n_) != vfetch_aam_map_has(&w_, n_))                 \
                fprintf(stderr, "  attribute %u: got %d, want %d\n", n_,                    \
                        vfetch_aam_map_has(&g_, n_), vfetch_aam_map_has(&w_, n_));          \
    } while (0)

enum {
    X = VFETCH_AAM_POSITION_X,
    Y = VFETCH_AAM_POSITION_Y,
    Z = VFETCH_AAM_POSITION_Z,
    W = VFETCH_AAM_POSITION_W,
    G0 = VFETCH_AAM_GENERIC_0,
    PSIZE = VFETCH_AAM_POINT_SIZE,
    PRIM = VFETCH_AAM_PRIMITIVE_ID,
    RT = VFETCH_AAM_RT_ARRAY_INDEX,
    VPI = VFETCH_AAM_VIEWPORT_INDEX,
    CLIP0 = VFETCH_AAM_CLIP_DISTANCE_0,
    FOG = VFETCH_AAM_FOG_COORDINATE,
    TU = VFETCH_AAM_TESSELLATION_EVALUATION_POINT_U,
    TV = VFETCH_AAM_TESSELLATION_EVALUATION_POINT_V,
    IID = VFETCH_AAM_INSTANCE_ID,
    VID = VFETCH_AAM_VERTEX_ID,
    CFD = VFETCH_AAM_COLOR_FRONT_DIFFUSE,
    CBD = VFETCH_AAM_COLOR_BACK_DIFFUSE,
    FFT0 = VFETCH_AAM_FIXED_FNC_TEXTURE_0,
    VMASK = VFETCH_AAM_VIEWPORT_MASK,
    FRONT = VFETCH_AAM_IS_FRONT_FACE,
};

static struct vfetch_aam_shader shader(struct vfetch_aam_map imap, struct vfetch_aam_map omap)
{
    struct vfetch_aam_shader s;
    vfetch_aam_shader_init(&s);
    s.imap = imap;
    s.omap = omap;
    return s;
}

static struct vfetch_aam_stage_bmaps stage(enum vfetch_aam_stage st, struct vfetch_aam_shader s,
                                           bool last)
{
    struct vfetch_aam_stage_bmaps b;
    memset(&b, 0xA5, sizeof b);
    CHECK_EQ(vfetch_aam_stage_bmaps(st, &s, last, &b, NULL), 0);
    return b;
}

/* The error a stage's maps give, where it is reported, and that *out stays untouched. */
static void check_stage_error(enum vfetch_aam_stage st, struct vfetch_aam_shader s, bool last,
                              int want, int want_attribute)
{
    struct vfetch_aam_stage_bmaps b, before;
    memset(&b, 0x5A, sizeof b);
    before = b;
    struct vfetch_aam_where where = { 99, 99 };
    CHECK_EQ(vfetch_aam_stage_bmaps(st, &s, last, &b, &where), want);
    CHECK(!memcmp(&b, &before, sizeof b));
    CHECK_EQ(where.stage, want == VFETCH_EINVAL ? -1 : (int)st);
    CHECK_EQ(where.attribute, want_attribute);
}

/* ---- B1..B8: one VTG stage and one ISBE ---- */

static void test_vtg_truth_table(void)
{
    struct vfetch_aam_map out;
    /* B1 LD: GS loads generic 0 X and Y; VERTEX stores X only -> only X is present.
       B3 ST: VERTEX stores generic 0 Z (ST), nobody loads it -> absent. */
    struct vfetch_aam_stage_bmaps vs = stage(VFETCH_AAM_VERTEX, shader(NONE, SET(G0, G0 + 2, X)), false);
    struct vfetch_aam_stage_bmaps gs = stage(VFETCH_AAM_GEOMETRY, shader(SET(G0, G0 + 1), NONE), true);
    vfetch_aam_isbe_bmap(&vs, &gs, &out);
    CHECK_MAP(out, SET(G0));
    CHECK_MAP(vs.store, SET(G0, G0 + 2, X));
    CHECK_MAP(vs.store_req, NONE);
    CHECK_MAP(gs.load, SET(G0, G0 + 1));
    CHECK_MAP(gs.load_req, NONE);

    /* B2 LD_REQ: GS loads PRIMITIVE_ID (LD_REQ): present although VERTEX cannot store it. */
    gs = stage(VFETCH_AAM_GEOMETRY, shader(SET(PRIM, X), NONE), true);
    CHECK_MAP(gs.load_req, SET(PRIM));
    vfetch_aam_isbe_bmap(&vs, &gs, &out);
    CHECK_MAP(out, SET(PRIM, X));
    /* ... and in TESSELLATION_INIT and TESSELLATION too (note 13a) */
    CHECK_MAP(stage(VFETCH_AAM_TESSELLATION_INIT, shader(SET(PRIM), NONE), false).load_req, SET(PRIM));
    CHECK_MAP(stage(VFETCH_AAM_TESSELLATION, shader(SET(PRIM), NONE), false).load_req, SET(PRIM));
    /* VERTEX_ID / INSTANCE_ID are LD_REQ in VERTEX, LD in TESSELLATION_INIT */
    CHECK_MAP(stage(VFETCH_AAM_VERTEX, shader(SET(VID, IID, G0), NONE), true).load_req, SET(VID, IID));
    CHECK_MAP(stage(VFETCH_AAM_TESSELLATION_INIT, shader(SET(VID), NONE), false).load_req, NONE);

    /* B4 ST_REQ: TESSELLATION stores U, V (ST_REQ); GS after it does not load them (its Idmap
       is "default") and they are present: the "default" exception of the definitions. */
    struct vfetch_aam_stage_bmaps ts = stage(VFETCH_AAM_TESSELLATION, shader(NONE, SET(TU, TV, X)), false);
    CHECK_MAP(ts.store_req, SET(TU, TV));
    gs = stage(VFETCH_AAM_GEOMETRY, shader(SET(X), SET(RT)), true);
    vfetch_aam_isbe_bmap(&ts, &gs, &out);
    CHECK_MAP(out, SET(TU, TV, X));
    /* GS RT_ARRAY_INDEX is ST_REQ */
    CHECK_MAP(gs.store_req, SET(RT));
    CHECK_MAP(stage(VFETCH_AAM_GEOMETRY, shader(NONE, SET(RT, VPI, PRIM)), false).store_req, SET(RT, VPI));

    /* B5 ST_LAST: VERTEX POINT_SIZE, CLIP_DISTANCE_0, RT_ARRAY_INDEX, VIEWPORT_MASK: ST_REQ when
       last, ST when not; POSITION_X (ST) never forced. */
    const struct vfetch_aam_map st_last = SET(PSIZE, CLIP0, RT, VMASK, X);
    CHECK_MAP(stage(VFETCH_AAM_VERTEX, shader(NONE, st_last), true).store_req, SET(PSIZE, CLIP0, RT, VMASK));
    CHECK_MAP(stage(VFETCH_AAM_VERTEX, shader(NONE, st_last), false).store_req, NONE);
    vs = stage(VFETCH_AAM_VERTEX, shader(NONE, st_last), false);
    gs = stage(VFETCH_AAM_GEOMETRY, shader(SET(PSIZE), NONE), true);
    vfetch_aam_isbe_bmap(&vs, &gs, &out);
    CHECK_MAP(out, SET(PSIZE)); /* as ST: only what the GS loads */
    /* GS POINT_SIZE ST_LAST, RT_ARRAY_INDEX ST_REQ: last forces both */
    CHECK_MAP(stage(VFETCH_AAM_GEOMETRY, shader(NONE, SET(PSIZE, RT, FOG)), true).store_req, SET(PSIZE, RT));

    /* B6 StoreReq range: VERTEX with range 32..35 forces generic 0 X and Y (ST), not generic
       1 X (36); a range over POINT_SIZE (ST_LAST) forces it in a stage that is not last; the
       geometry shader ignores the range. */
    struct vfetch_aam_shader ranged = shader(NONE, SET(G0, G0 + 1, G0 + 4, X));
    ranged.store_req_start = G0;
    ranged.store_req_end = G0 + 3;
    CHECK_MAP(stage(VFETCH_AAM_VERTEX, ranged, false).store_req, SET(G0, G0 + 1));
    CHECK_MAP(stage(VFETCH_AAM_TESSELLATION_INIT, ranged, false).store_req, SET(G0, G0 + 1));
    CHECK_MAP(stage(VFETCH_AAM_GEOMETRY, ranged, false).store_req, NONE);
    ranged = shader(NONE, SET(PSIZE, X));
    ranged.store_req_start = PSIZE;
    ranged.store_req_end = PSIZE;
    CHECK_MAP(stage(VFETCH_AAM_TESSELLATION, ranged, false).store_req, SET(PSIZE));
    ranged.store_req_end = PSIZE - 1; /* start > end: none */
    CHECK_MAP(stage(VFETCH_AAM_TESSELLATION, ranged, false).store_req, NONE);
    /* a discard entry inside the range is still an error (B8) */
    ranged = shader(NONE, SET(PRIM));
    ranged.store_req_start = 0;
    ranged.store_req_end = 255;
    check_stage_error(VFETCH_AAM_VERTEX, ranged, false, VFETCH_EAAM_OMAP_DISCARD, PRIM);

    /* B7 default: an Imap 1 on "default" (VERTEX POSITION_X; TI TESSELLATION_EVALUATION_POINT_U;
       TS VERTEX... is LD: allowed); the lowest bad attribute is reported. */
    check_stage_error(VFETCH_AAM_VERTEX, shader(SET(G0, Z, X), NONE), true,
                      VFETCH_EAAM_IMAP_DEFAULT, X);
    check_stage_error(VFETCH_AAM_TESSELLATION_INIT, shader(SET(TU), NONE), false,
                      VFETCH_EAAM_IMAP_DEFAULT, TU);
    check_stage_error(VFETCH_AAM_CULL_BEFORE_FETCH, shader(SET(CFD), NONE), false,
                      VFETCH_EAAM_IMAP_DEFAULT, CFD);
    check_stage_error(VFETCH_AAM_GEOMETRY, shader(SET(0), NONE), true, VFETCH_EAAM_IMAP_DEFAULT, 0);
    stage(VFETCH_AAM_TESSELLATION, shader(SET(VID, X), NONE), false); /* LD there: fine */

    /* B8 discard: an Omap 1 on "discard" (VERTEX PRIMITIVE_ID; TS U is fine, GS U is not). */
    check_stage_error(VFETCH_AAM_VERTEX, shader(NONE, SET(G0, PRIM)), true,
                      VFETCH_EAAM_OMAP_DISCARD, PRIM);
    check_stage_error(VFETCH_AAM_GEOMETRY, shader(NONE, SET(TU)), true, VFETCH_EAAM_OMAP_DISCARD, TU);
    check_stage_error(VFETCH_AAM_TESSELLATION_INIT, shader(NONE, SET(PRIM)), false,
                      VFETCH_EAAM_OMAP_DISCARD, PRIM);
    check_stage_error(VFETCH_AAM_CULL_BEFORE_FETCH, shader(NONE, SET(FRONT)), false,
                      VFETCH_EAAM_OMAP_DISCARD, FRONT);
    /* B16 order: the Imap is checked before the Omap */
    check_stage_error(VFETCH_AAM_VERTEX, shader(SET(W), SET(PRIM)), true, VFETCH_EAAM_IMAP_DEFAULT, W);
    /* arguments */
    check_stage_error(VFETCH_AAM_VSC, shader(NONE, NONE), false, VFETCH_EINVAL, -1);
    check_stage_error((enum vfetch_aam_stage)9, shader(NONE, NONE), false, VFETCH_EINVAL, -1);
    struct vfetch_aam_shader s = shader(NONE, NONE);
    struct vfetch_aam_stage_bmaps b;
    CHECK_EQ(vfetch_aam_stage_bmaps(VFETCH_AAM_VERTEX, NULL, false, &b, NULL), VFETCH_EINVAL);
    CHECK_EQ(vfetch_aam_stage_bmaps(VFETCH_AAM_VERTEX, &s, false, NULL, NULL), VFETCH_EINVAL);
    vfetch_aam_isbe_bmap(NULL, &b, &out); /* NULL: nothing happens */
}

/* ---- B9: VERTEX_INPUT_BMAP ---- */

static void test_vertex_input(void)
{
    struct vfetch_aam_map out;
    const struct vfetch_aam_map vs = SET(G0, G0 + 1, G0 + 2, G0 + 3, VID);
    CHECK_EQ(vfetch_aam_vertex_input_bmap(NULL, &vs, 0, 0, &out), 0);
    CHECK_MAP(out, vs);
    /* the CULL_BEFORE_FETCH Imap is ORed in */
    const struct vfetch_aam_map cbf = SET(G0 + 4, IID);
    CHECK_EQ(vfetch_aam_vertex_input_bmap(&cbf, &vs, 0, 0, &out), 0);
    CHECK_MAP(out, SET(G0, G0 + 1, G0 + 2, G0 + 3, G0 + 4, VID, IID));
    /* skip masks: A(0) bit 4k + c is vertex attribute k component c; A(1) (bits 63:32 of
       skip_mask_a) starts at attribute 8, B(0) at 16, B(1) at 24 */
    const struct vfetch_aam_map all = SET(G0, G0 + 3, G0 + 4 * 8, G0 + 4 * 16 + 1, G0 + 4 * 31 + 3,
                                          G0 + 4 * 24, VID, IID);
    CHECK_EQ(vfetch_aam_vertex_input_bmap(NULL, &all, 1, 0, &out), 0);
    CHECK_MAP(out, SET(G0 + 3, G0 + 4 * 8, G0 + 4 * 16 + 1, G0 + 4 * 31 + 3, G0 + 4 * 24, VID, IID));
    CHECK_EQ(vfetch_aam_vertex_input_bmap(NULL, &all, 1ull << 32 | 1u << 3, 0, &out), 0);
    CHECK_MAP(out, SET(G0, G0 + 4 * 16 + 1, G0 + 4 * 31 + 3, G0 + 4 * 24, VID, IID));
    CHECK_EQ(vfetch_aam_vertex_input_bmap(NULL, &all, 0, 1u << 1, &out), 0);
    CHECK_MAP(out, SET(G0, G0 + 3, G0 + 4 * 8, G0 + 4 * 31 + 3, G0 + 4 * 24, VID, IID));
    CHECK_EQ(vfetch_aam_vertex_input_bmap(NULL, &all, 0, 1ull << 63 | 1ull << 32, &out), 0);
    CHECK_MAP(out, SET(G0, G0 + 3, G0 + 4 * 8, G0 + 4 * 16 + 1, VID, IID));
    /* everything skipped: VERTEX_ID and INSTANCE_ID (LD_REQ, not generic) stay */
    CHECK_EQ(vfetch_aam_vertex_input_bmap(&cbf, &all, ~0ull, ~0ull, &out), 0);
    CHECK_MAP(out, SET(VID, IID));
    /* B7 for both Imaps; out untouched; arguments */
    struct vfetch_aam_map keep = SET(5), bad = SET(G0, X);
    CHECK_EQ(vfetch_aam_vertex_input_bmap(NULL, &bad, 0, 0, &keep), VFETCH_EAAM_IMAP_DEFAULT);
    CHECK_MAP(keep, SET(5));
    bad = SET(FOG);
    CHECK_EQ(vfetch_aam_vertex_input_bmap(&bad, &vs, 0, 0, &keep), VFETCH_EAAM_IMAP_DEFAULT);
    CHECK_MAP(keep, SET(5));
    CHECK_EQ(vfetch_aam_vertex_input_bmap(&cbf, NULL, 0, 0, &keep), VFETCH_EINVAL);
    CHECK_EQ(vfetch_aam_vertex_input_bmap(&cbf, &vs, 0, 0, NULL), VFETCH_EINVAL);
}

/* ---- B10..B12: CULL_BEFORE_FETCH and the VSC input Bmap ---- */

static void test_vsc_input(void)
{
    struct vfetch_aam_map out;
    /* B10: every CULL_BEFORE_FETCH Omap bit is forced, ST_LAST entries too */
    CHECK_MAP(stage(VFETCH_AAM_CULL_BEFORE_FETCH, shader(NONE, SET(G0, X, RT)), false).store_req,
              SET(G0, X, RT));

    /* B11, the last stage VERTEX: stores X, Y, Z, W, generic 0 X, POINT_SIZE, CLIP_DISTANCE_0,
       FOG, COLOR_BACK_DIFFUSE_RED; the PS loads W and generic 0 X; raster on. */
    const struct vfetch_aam_stage_bmaps last =
        stage(VFETCH_AAM_VERTEX, shader(NONE, SET(X, Y, Z, W, G0, PSIZE, CLIP0, FOG, CBD)), true);
    const struct vfetch_aam_stage_bmaps ps = stage(VFETCH_AAM_PIXEL, shader(SET(W, G0), NONE), false);
    struct vfetch_aam_vsc_state vsc;
    memset(&vsc, 0, sizeof vsc);
    vsc.raster_enabled = true;
    vfetch_aam_vsc_input_bmap(&last, &ps, &vsc, &out);
    CHECK_MAP(out, SET(X, Y, Z, W, G0, PSIZE, CLIP0)); /* FOG: ST, nobody asks */
    /* raster off: X, Y, Z go (nobody asks), POINT_SIZE and the clip distance stay (forced) */
    vsc.raster_enabled = false;
    vfetch_aam_vsc_input_bmap(&last, &ps, &vsc, &out);
    CHECK_MAP(out, SET(W, G0, PSIZE, CLIP0));
    /* PS disabled, raster on: W is not in the Raster IMAP, so it goes */
    vsc.raster_enabled = true;
    vfetch_aam_vsc_input_bmap(&last, NULL, &vsc, &out);
    CHECK_MAP(out, SET(X, Y, Z, PSIZE, CLIP0));
    /* everything off (vsc NULL): only the forced bits */
    vfetch_aam_vsc_input_bmap(&last, NULL, NULL, &out);
    CHECK_MAP(out, SET(PSIZE, CLIP0));
    /* stream out of FOG and generic 0 X */
    memset(&vsc, 0, sizeof vsc);
    vsc.stream_enabled = true;
    vsc.stream_imap = SET(FOG, G0, G0 + 1);
    vfetch_aam_vsc_input_bmap(&last, NULL, &vsc, &out);
    CHECK_MAP(out, SET(FOG, G0, PSIZE, CLIP0)); /* generic 0 Y is not stored */
    vsc.stream_enabled = false;
    vfetch_aam_vsc_input_bmap(&last, NULL, &vsc, &out);
    CHECK_MAP(out, SET(PSIZE, CLIP0)); /* stream_imap without the enable */
    /* B12 two-sided light: the PS front diffuse red brings the back diffuse red */
    const struct vfetch_aam_stage_bmaps ps_color = stage(VFETCH_AAM_PIXEL, shader(SET(W, CFD), NONE), false);
    memset(&vsc, 0, sizeof vsc);
    vfetch_aam_vsc_input_bmap(&last, &ps_color, &vsc, &out);
    CHECK_MAP(out, SET(W, PSIZE, CLIP0));
    vsc.two_sided_light = true;
    vfetch_aam_vsc_input_bmap(&last, &ps_color, &vsc, &out);
    CHECK_MAP(out, SET(W, CBD, PSIZE, CLIP0));
    /* the last stage TESSELLATION: U, V (ST_REQ) are kept though the VSC Idmap is default */
    const struct vfetch_aam_stage_bmaps ts = stage(VFETCH_AAM_TESSELLATION, shader(NONE, SET(TU, TV, W)), true);
    vfetch_aam_vsc_input_bmap(&ts, NULL, NULL, &out);
    CHECK_MAP(out, SET(TU, TV));
    vfetch_aam_vsc_input_bmap(&ts, &ps, NULL, &out);
    CHECK_MAP(out, SET(TU, TV, W));
    /* the last stage GEOMETRY: RT_ARRAY_INDEX (ST_REQ), VIEWPORT_MASK (ST_LAST) forced;
       PRIMITIVE_ID (ST) when the PS asks */
    const struct vfetch_aam_stage_bmaps gs = stage(VFETCH_AAM_GEOMETRY, shader(NONE, SET(RT, VMASK, PRIM, W)), true);
    const struct vfetch_aam_stage_bmaps ps_prim = stage(VFETCH_AAM_PIXEL, shader(SET(W, PRIM), NONE), false);
    vfetch_aam_vsc_input_bmap(&gs, NULL, NULL, &out);
    CHECK_MAP(out, SET(RT, VMASK));
    vfetch_aam_vsc_input_bmap(&gs, &ps_prim, NULL, &out);
    CHECK_MAP(out, SET(RT, VMASK, PRIM, W));
    /* B13 the PS's LD acts as LD (not LD_REQ) here: a PS input the last stage does not store
       is not in the VSC input Bmap */
    vfetch_aam_vsc_input_bmap(&ts, &ps_prim, NULL, &out);
    CHECK_MAP(out, SET(TU, TV, W));
    /* B11's VSC Idmap term removes nothing with this table (docs/maxwell.md): every attribute
       whose VSC Idmap is "default" is "discard" or ST_REQ in every VTG Odmap. Checked here, so
       that a table where the term matters is noticed. */
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++) {
        const struct vfetch_aam_attribute *r = vfetch_aam_attribute(n);
        if (r->idmap[VFETCH_AAM_VSC] != VFETCH_AAM_IDMAP_DEFAULT)
            continue;
        for (unsigned s = 0; s < VFETCH_AAM_VTG_STAGES; s++)
            CHECK(r->odmap[s] == VFETCH_AAM_ODMAP_DISCARD || r->odmap[s] == VFETCH_AAM_ODMAP_ST_REQ);
    }
    /* Likewise the Raster IMAP's VIEWPORT_INDEX, RT_ARRAY_INDEX and POINT_SIZE are ST_LAST or
       ST_REQ in every VTG stage, so only X, Y and Z depend on raster_enabled. */
    static const unsigned forced_raster[] = { VPI, RT, PSIZE };
    for (unsigned i = 0; i < 3; i++)
        for (unsigned s = VFETCH_AAM_VERTEX; s < VFETCH_AAM_VTG_STAGES; s++) {
            const unsigned od = vfetch_aam_attribute(forced_raster[i])->odmap[s];
            CHECK(od == VFETCH_AAM_ODMAP_ST_LAST || od == VFETCH_AAM_ODMAP_ST_REQ);
        }
}

/* ---- B13..B15: the pixel shader ---- */

static void test_pixel(void)
{
    /* B14 POSITION_W required; B16: a "default" Imap is reported before it */
    check_stage_error(VFETCH_AAM_PIXEL, shader(SET(G0), NONE), false, VFETCH_EAAM_PS_POSITION_W, W);
    check_stage_error(VFETCH_AAM_PIXEL, shader(NONE, NONE), false, VFETCH_EAAM_PS_POSITION_W, W);
    check_stage_error(VFETCH_AAM_PIXEL, shader(SET(G0, PSIZE), NONE), false, VFETCH_EAAM_IMAP_DEFAULT, PSIZE);
    check_stage_error(VFETCH_AAM_PIXEL, shader(SET(W, CBD), NONE), false, VFETCH_EAAM_IMAP_DEFAULT, CBD);
    check_stage_error(VFETCH_AAM_PIXEL, shader(SET(W, VMASK), NONE), false, VFETCH_EAAM_IMAP_DEFAULT, VMASK);
    /* a PS has no Odmap: its omap is ignored (not even "discard") */
    const struct vfetch_aam_stage_bmaps ps =
        stage(VFETCH_AAM_PIXEL, shader(SET(X, Y, Z, W, G0, G0 + 1, PRIM, VFETCH_AAM_POINT_SPRITE_S, FRONT), SET(0, 1)), false);
    CHECK_MAP(ps.store, NONE);
    CHECK_MAP(ps.store_req, NONE);
    CHECK_MAP(ps.load_req, ps.load); /* note 21: LD as LD_REQ for the CBE */

    /* B13 CBE = PS Imap; STri without X and Y.  B15 sources. */
    const struct vfetch_aam_map vsc_input = SET(W, G0, G0 + 2, PRIM);
    struct vfetch_aam_ps_bmaps out;
    vfetch_aam_ps_bmaps(&ps, &vsc_input, false, &out);
    CHECK_MAP(out.cbe, SET(X, Y, Z, W, G0, G0 + 1, PRIM, VFETCH_AAM_POINT_SPRITE_S, FRONT));
    CHECK_MAP(out.stri, SET(Z, W, G0, G0 + 1, PRIM, VFETCH_AAM_POINT_SPRITE_S, FRONT));
    CHECK_EQ(out.source[X], VFETCH_AAM_PS_HARDWARE);
    CHECK_EQ(out.source[Y], VFETCH_AAM_PS_HARDWARE);
    CHECK_EQ(out.source[Z], VFETCH_AAM_PS_DEFAULT);  /* loaded, not stored: VSC default */
    CHECK_EQ(out.source[W], VFETCH_AAM_PS_UPSTREAM);
    CHECK_EQ(out.source[G0], VFETCH_AAM_PS_UPSTREAM);
    CHECK_EQ(out.source[G0 + 1], VFETCH_AAM_PS_DEFAULT);
    CHECK_EQ(out.source[G0 + 2], VFETCH_AAM_PS_ZERO); /* stored, not loaded: zero (note 22) */
    CHECK_EQ(out.source[PRIM], VFETCH_AAM_PS_HARDWARE); /* no GS (note 13b) */
    CHECK_EQ(out.source[VFETCH_AAM_POINT_SPRITE_S], VFETCH_AAM_PS_HARDWARE);
    CHECK_EQ(out.source[VFETCH_AAM_POINT_SPRITE_T], VFETCH_AAM_PS_ZERO);
    CHECK_EQ(out.source[FRONT], VFETCH_AAM_PS_HARDWARE);
    CHECK_EQ(out.source[FOG], VFETCH_AAM_PS_ZERO);
    /* with a GS: PRIMITIVE_ID from it when it stores it (13c), else its default 0 */
    vfetch_aam_ps_bmaps(&ps, &vsc_input, true, &out);
    CHECK_EQ(out.source[PRIM], VFETCH_AAM_PS_UPSTREAM);
    const struct vfetch_aam_map no_prim = SET(W);
    vfetch_aam_ps_bmaps(&ps, &no_prim, true, &out);
    CHECK_EQ(out.source[PRIM], VFETCH_AAM_PS_DEFAULT);
    /* X and Y are the pixel's position whatever the Imap (note 3) */
    const struct vfetch_aam_stage_bmaps ps_w = stage(VFETCH_AAM_PIXEL, shader(SET(W), NONE), false);
    vfetch_aam_ps_bmaps(&ps_w, &no_prim, false, &out);
    CHECK_EQ(out.source[X], VFETCH_AAM_PS_HARDWARE);
    CHECK_EQ(out.source[Z], VFETCH_AAM_PS_ZERO);
    CHECK_MAP(out.stri, SET(W));
}

/* ---- whole pipelines ---- */

static struct vfetch_aam_pipeline pipeline_init(unsigned enabled)
{
    struct vfetch_aam_pipeline p;
    memset(&p, 0, sizeof p);
    p.enabled = enabled;
    for (unsigned s = 0; s < 6; s++)
        vfetch_aam_shader_init(&p.shaders[s]);
    return p;
}

#define BIT(s) (1u << VFETCH_AAM_##s)

static void test_pipelines(void)
{
    /* CULL_BEFORE_FETCH + VERTEX + GEOMETRY + PIXEL, raster on. */
    struct vfetch_aam_pipeline p =
        pipeline_init(BIT(CULL_BEFORE_FETCH) | BIT(VERTEX) | BIT(GEOMETRY) | BIT(PIXEL));
    p.shaders[VFETCH_AAM_CULL_BEFORE_FETCH] = shader(SET(G0, G0 + 1), SET(G0 + 20));
    p.shaders[VFETCH_AAM_VERTEX] = shader(SET(G0, G0 + 4, VID), SET(X, Y, Z, W, G0, PSIZE, CLIP0));
    p.shaders[VFETCH_AAM_GEOMETRY] = shader(SET(X, Y, Z, W, G0, PRIM), SET(X, Y, Z, W, G0 + 8, RT, FOG));
    p.shaders[VFETCH_AAM_PIXEL] = shader(SET(W, G0 + 8, PRIM, Z), NONE);
    p.skip_mask_a = 1u << 4; /* vertex attribute 1 X */
    p.vsc.raster_enabled = true;
    struct vfetch_aam_bmaps b;
    CHECK_EQ(vfetch_aam_pipeline_bmaps(&p, &b, NULL), 0);
    CHECK_EQ(b.last_vtg, VFETCH_AAM_GEOMETRY);
    CHECK_MAP(b.input[VFETCH_AAM_VERTEX], SET(G0, G0 + 1, VID));
    CHECK_MAP(b.input[VFETCH_AAM_CULL_BEFORE_FETCH], SET(G0, G0 + 1, VID));
    /* VERTEX -> GEOMETRY: what the GS loads and VERTEX stores, PRIMITIVE_ID (LD_REQ), and
       the CULL_BEFORE_FETCH Omap (B10); POINT_SIZE / CLIP_DISTANCE_0 are ST here (not last) */
    CHECK_MAP(b.output[VFETCH_AAM_VERTEX], SET(X, Y, Z, W, G0, PRIM, G0 + 20));
    CHECK_MAP(b.output[VFETCH_AAM_CULL_BEFORE_FETCH], b.output[VFETCH_AAM_VERTEX]);
    CHECK_MAP(b.input[VFETCH_AAM_GEOMETRY], b.output[VFETCH_AAM_VERTEX]);
    /* GEOMETRY -> VSC: X, Y, Z (raster), W, generic 8 X (PS), RT (ST_REQ); FOG not asked;
       PRIMITIVE_ID asked by the PS but not stored by the GS */
    CHECK_MAP(b.vsc_input, SET(X, Y, Z, W, G0 + 8, RT));
    CHECK_MAP(b.output[VFETCH_AAM_GEOMETRY], b.vsc_input);
    CHECK_MAP(b.input[VFETCH_AAM_PIXEL], SET(W, G0 + 8, PRIM, Z));
    CHECK_MAP(b.ps.cbe, b.input[VFETCH_AAM_PIXEL]);
    CHECK_EQ(b.ps.source[PRIM], VFETCH_AAM_PS_DEFAULT);
    CHECK_EQ(b.ps.source[Z], VFETCH_AAM_PS_UPSTREAM);
    CHECK_MAP(b.input[VFETCH_AAM_TESSELLATION], NONE);
    CHECK_MAP(b.output[VFETCH_AAM_TESSELLATION_INIT], NONE);

    /* VERTEX alone, last: its ST_LAST entries and the CULL_BEFORE_FETCH Omap reach the VSC */
    p = pipeline_init(BIT(CULL_BEFORE_FETCH) | BIT(VERTEX));
    p.shaders[VFETCH_AAM_CULL_BEFORE_FETCH] = shader(NONE, SET(G0 + 20));
    p.shaders[VFETCH_AAM_VERTEX] = shader(NONE, SET(X, W, PSIZE, FOG));
    CHECK_EQ(vfetch_aam_pipeline_bmaps(&p, &b, NULL), 0);
    CHECK_EQ(b.last_vtg, VFETCH_AAM_VERTEX);
    CHECK_MAP(b.vsc_input, SET(PSIZE, G0 + 20));
    CHECK_MAP(b.output[VFETCH_AAM_VERTEX], b.vsc_input);
    CHECK_MAP(b.output[VFETCH_AAM_CULL_BEFORE_FETCH], b.vsc_input);
    CHECK_MAP(b.ps.cbe, NONE);

    /* VERTEX + TESSELLATION_INIT + TESSELLATION + PIXEL, no raster */
    p = pipeline_init(BIT(VERTEX) | BIT(TESSELLATION_INIT) | BIT(TESSELLATION) | BIT(PIXEL));
    p.shaders[VFETCH_AAM_VERTEX] = shader(SET(G0), SET(X, Y, Z, W, G0 + 4, PSIZE));
    p.shaders[VFETCH_AAM_TESSELLATION_INIT] = shader(SET(X, W, PSIZE, PRIM), SET(X, W, G0 + 12));
    p.shaders[VFETCH_AAM_TESSELLATION] = shader(SET(W, G0 + 12), SET(TU, TV, W, G0 + 16));
    p.shaders[VFETCH_AAM_PIXEL] = shader(SET(W, G0 + 16, PRIM), NONE);
    CHECK_EQ(vfetch_aam_pipeline_bmaps(&p, &b, NULL), 0);
    CHECK_EQ(b.last_vtg, VFETCH_AAM_TESSELLATION);
    CHECK_MAP(b.output[VFETCH_AAM_VERTEX], SET(X, W, PSIZE, PRIM));
    CHECK_MAP(b.output[VFETCH_AAM_TESSELLATION_INIT], SET(W, G0 + 12));
    CHECK_MAP(b.input[VFETCH_AAM_TESSELLATION], SET(W, G0 + 12));
    CHECK_MAP(b.vsc_input, SET(TU, TV, W, G0 + 16));
    CHECK_EQ(b.ps.source[PRIM], VFETCH_AAM_PS_HARDWARE);

    /* errors: in pipeline order, reported with their stage; out untouched */
    p = pipeline_init(BIT(VERTEX) | BIT(GEOMETRY) | BIT(PIXEL));
    p.shaders[VFETCH_AAM_VERTEX] = shader(SET(G0), SET(W));
    p.shaders[VFETCH_AAM_GEOMETRY] = shader(SET(TV), SET(TU));
    p.shaders[VFETCH_AAM_PIXEL] = shader(SET(G0), NONE);
    struct vfetch_aam_bmaps keep;
    memset(&keep, 0x77, sizeof keep);
    b = keep;
    struct vfetch_aam_where where = { 99, 99 };
    CHECK_EQ(vfetch_aam_pipeline_bmaps(&p, &b, &where), VFETCH_EAAM_IMAP_DEFAULT);
    CHECK(where.stage == VFETCH_AAM_GEOMETRY && where.attribute == TV);
    CHECK(!memcmp(&b, &keep, sizeof b));
    p.shaders[VFETCH_AAM_GEOMETRY].imap = NONE;
    CHECK_EQ(vfetch_aam_pipeline_bmaps(&p, &b, &where), VFETCH_EAAM_OMAP_DISCARD);
    CHECK(where.stage == VFETCH_AAM_GEOMETRY && where.attribute == TU);
    p.shaders[VFETCH_AAM_GEOMETRY].omap = NONE;
    CHECK_EQ(vfetch_aam_pipeline_bmaps(&p, &b, &where), VFETCH_EAAM_PS_POSITION_W);
    CHECK(where.stage == VFETCH_AAM_PIXEL && where.attribute == W);
    p.enabled &= ~BIT(PIXEL); /* a disabled stage's maps are not looked at */
    CHECK_EQ(vfetch_aam_pipeline_bmaps(&p, &b, &where), 0);
    p.enabled = BIT(PIXEL) | BIT(GEOMETRY);
    CHECK_EQ(vfetch_aam_pipeline_bmaps(&p, &b, &where), VFETCH_EINVAL);
    CHECK(where.stage == -1 && where.attribute == -1);
    p.enabled = BIT(VERTEX) | 1u << VFETCH_AAM_VSC;
    CHECK_EQ(vfetch_aam_pipeline_bmaps(&p, &b, NULL), VFETCH_EINVAL);
    CHECK_EQ(vfetch_aam_pipeline_bmaps(NULL, &b, NULL), VFETCH_EINVAL);
    p.enabled = BIT(VERTEX);
    CHECK_EQ(vfetch_aam_pipeline_bmaps(&p, NULL, NULL), VFETCH_EINVAL);
}

/* ---- Shader Program Header maps ---- */

static void sph_set(uint32_t *sph, unsigned bit, unsigned count, unsigned value)
{
    for (unsigned i = 0; i < count; i++)
        if (value >> i & 1)
            sph[(bit + i) / 32] |= 1u << ((bit + i) % 32);
}

static void test_sph(void)
{
    uint32_t sph[VFETCH_AAM_SPH_WORDS] = { 0 };
    struct vfetch_aam_sph out;
    /* VTG, ShaderType VERTEX: Imap bit 160 + n, Omap bit 400 + n, StoreReq 19:12 / 31:24 */
    sph[0] = 1 | 1u << 10;
    sph[10] = 1u << 31;                /* SPH bit 351: Imap 191 VERTEX_ID */
    sph[6] = 1u << 0 | 1u << 3;        /* bits 192, 195: Imap generic 0 X, W */
    sph[12] = 1u << 15;                /* bit 399: Imap 239 */
    sph[13] = 1u << 12 | 1u << 16;     /* bits 428, 432: Omap POSITION_X, generic 0 X */
    sph[19] = 1u << 31;                /* bit 639: Omap 239 */
    sph[4] = 7u | 32u << 12 | 0xFu << 20 | 35u << 24;
    CHECK_EQ(vfetch_aam_sph_parse(sph, &out), 0);
    CHECK_EQ(out.stage, VFETCH_AAM_VERTEX);
    CHECK_MAP(out.maps.imap, SET(VID, G0, G0 + 3, 239));
    CHECK_MAP(out.maps.omap, SET(X, G0, 239));
    CHECK_EQ(out.maps.store_req_start, 32);
    CHECK_EQ(out.maps.store_req_end, 35);
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++)
        CHECK_EQ(out.interpolation[n], 0);
    /* the other VTG types */
    for (unsigned t = 2; t <= 4; t++) {
        sph[0] = 1 | t << 10 | 0xFFFFC000u; /* the fields above ShaderType do not matter */
        CHECK_EQ(vfetch_aam_sph_parse(sph, &out), 0);
        CHECK_EQ(out.stage, t);
    }

    /* PS: 1-bit system values take the table's type, 2-bit fields their code */
    uint32_t ps[VFETCH_AAM_SPH_WORDS] = { 0 };
    ps[0] = 2 | 5u << 10;
    sph_set(ps, 160 + W, 1, 1);             /* POSITION_W: "Non-Perspective" -> 3 */
    sph_set(ps, 160 + X, 1, 1);             /* POSITION_X: quoted -> 3 */
    sph_set(ps, 160 + PRIM, 1, 1);          /* Constant -> 1 */
    sph_set(ps, 160 + PSIZE, 1, 1);         /* Perspective -> 2 (PS default: the Bmap refuses it) */
    sph_set(ps, 192, 2, 2);                 /* generic 0 X perspective */
    sph_set(ps, 192 + 2 * 127, 2, 1);       /* generic 31 W constant */
    sph_set(ps, 448, 2, 3);                 /* COLOR_FRONT_DIFFUSE_RED screen-linear */
    sph_set(ps, 448 + 2 * 7, 2, 2);         /* COLOR_FRONT_SPECULAR_ALPHA perspective */
    sph_set(ps, 464 + 0, 1, 1);             /* CLIP_DISTANCE_0: Perspective -> 2 */
    sph_set(ps, 464 + 8, 1, 1);             /* POINT_SPRITE_S: Non-Perspective -> 3 */
    sph_set(ps, 464 + 10, 1, 1);            /* FOG: Perspective -> 2 */
    sph_set(ps, 464 + 15, 1, 1);            /* VERTEX_ID: Constant -> 1 */
    sph_set(ps, 480, 2, 3);                 /* FIXED_FNC_TEXTURE_0_S */
    sph_set(ps, 480 + 2 * 39, 2, 2);        /* FIXED_FNC_TEXTURE_9_Q */
    sph_set(ps, 560 + 2 * 1, 2, 1);         /* 233, the reserved field's pattern */
    sph_set(ps, 576, 32, 0xFFFFFFFFu);      /* OmapTarget, sample mask, depth: not attributes */
    sph_set(ps, 608, 2, 3);
    sph_set(ps, 4 * 32 + 12, 20, 0xFFFFF);  /* StoreReq: ignored for a PS */
    CHECK_EQ(vfetch_aam_sph_parse(ps, &out), 0);
    CHECK_EQ(out.stage, VFETCH_AAM_PIXEL);
    const int codes[][2] = { { W, 3 }, { X, 3 }, { PRIM, 1 }, { PSIZE, 2 }, { G0, 2 },
                             { G0 + 127, 1 }, { CFD, 3 }, { CFD + 7, 2 }, { CLIP0, 2 },
                             { VFETCH_AAM_POINT_SPRITE_S, 3 }, { FOG, 2 }, { VID, 1 },
                             { FFT0, 3 }, { FFT0 + 39, 2 }, { 233, 1 } };
    struct vfetch_aam_map want = NONE;
    for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        CHECK_EQ(out.interpolation[codes[i][0]], codes[i][1]);
        vfetch_aam_map_add(&want, (unsigned)codes[i][0]);
    }
    CHECK_MAP(out.maps.imap, want);
    CHECK_MAP(out.maps.omap, NONE);
    CHECK_EQ(out.maps.store_req_start, 255);
    CHECK_EQ(out.maps.store_req_end, 0);
    /* the back colors have no field: a PS cannot load them */
    for (unsigned n = CBD; n < CBD + 8; n++)
        CHECK_EQ(out.interpolation[n], 0);
    /* SET_SHADE_MODE FLAT: used front colors become constant, nothing else */
    CHECK_EQ(vfetch_aam_ps_interpolation(&out, CFD, false), 3);
    CHECK_EQ(vfetch_aam_ps_interpolation(&out, CFD, true), 1);
    CHECK_EQ(vfetch_aam_ps_interpolation(&out, CFD + 7, true), 1);
    CHECK_EQ(vfetch_aam_ps_interpolation(&out, CFD + 1, true), 0);
    CHECK_EQ(vfetch_aam_ps_interpolation(&out, G0, true), 2);
    CHECK_EQ(vfetch_aam_ps_interpolation(&out, FFT0, true), 3);
    CHECK_EQ(vfetch_aam_ps_interpolation(&out, 256, false), 0);
    CHECK_EQ(vfetch_aam_ps_interpolation(NULL, CFD, false), 0);
    /* a parsed PS goes through the Bmap rules: POINT_SIZE and 233 are "default" for a PS */
    struct vfetch_aam_stage_bmaps b;
    CHECK_EQ(vfetch_aam_stage_bmaps(VFETCH_AAM_PIXEL, &out.maps, false, &b, NULL), VFETCH_EAAM_IMAP_DEFAULT);

    /* refusals, *out untouched */
    struct vfetch_aam_sph keep;
    memset(&keep, 0x3C, sizeof keep);
    out = keep;
    static const uint32_t bad_word0[] = { 0, 3 | 1u << 10, 1 | 0u << 10, 1 | 5u << 10,
                                          1 | 6u << 10, 2 | 1u << 10, 2 | 4u << 10, 2 | 15u << 10,
                                          0x1F | 5u << 10 };
    for (unsigned i = 0; i < sizeof bad_word0 / sizeof bad_word0[0]; i++) {
        ps[0] = bad_word0[i];
        CHECK_EQ(vfetch_aam_sph_parse(ps, &out), VFETCH_EINVAL);
        CHECK(!memcmp(&out, &keep, sizeof out));
    }
    CHECK_EQ(vfetch_aam_sph_parse(NULL, &out), VFETCH_EINVAL);
    CHECK_EQ(vfetch_aam_sph_parse(sph, NULL), VFETCH_EINVAL);

    struct vfetch_aam_shader s;
    memset(&s, 0xFF, sizeof s);
    vfetch_aam_shader_init(&s);
    CHECK_MAP(s.imap, NONE);
    CHECK_MAP(s.omap, NONE);
    CHECK(s.store_req_start > s.store_req_end);
    vfetch_aam_shader_init(NULL);
}

int main(void)
{
    test_vtg_truth_table();
    test_vertex_input();
    test_vsc_input();
    test_pixel();
    test_pipelines();
    test_sph();
    return test_summary("bmap");
}
