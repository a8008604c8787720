/*
 * Maxwell Bmaps: which attributes each inter-stage buffer entry (ISBE) holds, from the
 * shaders' Imaps and Omaps (parsed here from their Shader Program Headers) and the Idmap and
 * Odmap columns of the attribute address map. Every rule is the table's definitions and notes
 * 1-23 as docs/maxwell.md ("Bmaps") writes them out; the seed omits note 23's truth tables,
 * so they are derived there from the definitions, one line per rule.
 */
#include <string.h>

#include "vfetch/aam.h"

/* ---- attribute sets ---------------------------------------------------------------------- */

static void map_or(struct vfetch_aam_map *d, const struct vfetch_aam_map *a)
{
    for (unsigned w = 0; w < 8; w++)
        d->words[w] |= a->words[w];
}

static void map_and(struct vfetch_aam_map *d, const struct vfetch_aam_map *a)
{
    for (unsigned w = 0; w < 8; w++)
        d->words[w] &= a->words[w];
}

static void map_remove(struct vfetch_aam_map *d, unsigned n)
{
    d->words[n / 32] &= ~(1u << (n % 32));
}

/* The attributes whose Idmap in `stage` is `idmap`. */
static struct vfetch_aam_map idmap_column(unsigned stage, unsigned idmap)
{
    struct vfetch_aam_map m = { { 0 } };
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++)
        if (vfetch_aam_attribute(n)->idmap[stage] == idmap)
            vfetch_aam_map_add(&m, n);
    return m;
}

/* The lowest attribute of imap on a "default" Idmap entry of stage, or -1. */
static int imap_on_default(unsigned stage, const struct vfetch_aam_map *imap)
{
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++)
        if (vfetch_aam_map_has(imap, n) &&
            vfetch_aam_attribute(n)->idmap[stage] == VFETCH_AAM_IDMAP_DEFAULT)
            return (int)n;
    return -1;
}

static void set_where(struct vfetch_aam_where *where, int stage, int attribute)
{
    if (where)
        *where = (struct vfetch_aam_where){ stage, attribute };
}

/* ---- Shader Program Header maps ---------------------------------------------------------- */

void vfetch_aam_shader_init(struct vfetch_aam_shader *shader)
{
    if (!shader)
        return;
    memset(shader, 0, sizeof *shader);
    shader->store_req_start = 255; /* start > end: no StoreReq range */
    shader->store_req_end = 0;
}

static unsigned sph_bits(const uint32_t *sph, unsigned at, unsigned count)
{
    return sph[at / 32] >> (at % 32) & ((1u << count) - 1); /* fields never straddle words */
}

/* The PixelImap code a 1-bit pixel shader Imap field stands for: the table's type. */
static unsigned table_code(unsigned n)
{
    switch (vfetch_aam_attribute(n)->interpolation) {
    case VFETCH_AAM_INTERP_PERSPECTIVE: return VFETCH_AAM_PIXEL_PERSPECTIVE;
    case VFETCH_AAM_INTERP_NON_PERSPECTIVE:
    case VFETCH_AAM_INTERP_NON_PERSPECTIVE_QUOTED: return VFETCH_AAM_PIXEL_SCREEN_LINEAR;
    default: return VFETCH_AAM_PIXEL_CONSTANT;
    }
}

/* A pixel shader's code for attribute n: where its field sits in the type 2 SPH. */
static unsigned ps_code(const uint32_t *sph, unsigned n)
{
    if (n < 32) /* ImapSystemValuesA/B: one bit each */
        return sph_bits(sph, 160 + n, 1) ? table_code(n) : 0;
    if (n < 160) /* ImapGenericVector[32]: X, Y, Z, W, two bits each */
        return sph_bits(sph, 192 + 2 * (n - 32), 2);
    if (n < 168) /* ImapColor: the front diffuse and specular colors */
        return sph_bits(sph, 448 + 2 * (n - 160), 2);
    if (n < 176) /* the back colors are not in the PS SPH (note 15) */
        return 0;
    if (n < 192) /* ImapSystemValuesC: one bit each */
        return sph_bits(sph, 464 + (n - 176), 1) ? table_code(n) : 0;
    if (n < 232) /* ImapFixedFncTexture[10]: S, T, R, Q */
        return sph_bits(sph, 480 + 2 * (n - 192), 2);
    if (n < 240) /* ImapReserved: the same pattern continued (docs/maxwell.md) */
        return sph_bits(sph, 560 + 2 * (n - 232), 2);
    return 0;
}

int vfetch_aam_sph_parse(const uint32_t sph[VFETCH_AAM_SPH_WORDS], struct vfetch_aam_sph *out)
{
    if (!sph || !out)
        return VFETCH_EINVAL;
    const unsigned sph_type = sph[0] & 0x1f, shader_type = sph[0] >> 10 & 0xf;
    /* ShaderType 1..5 are VERTEX..PIXEL, the values of enum vfetch_aam_stage */
    if (!((sph_type == 1 && shader_type >= 1 && shader_type <= 4) ||
          (sph_type == 2 && shader_type == VFETCH_AAM_PIXEL)))
        return VFETCH_EINVAL;
    struct vfetch_aam_sph r;
    memset(&r, 0, sizeof r);
    vfetch_aam_shader_init(&r.maps);
    r.stage = (enum vfetch_aam_stage)shader_type;
    if (sph_type == 1) {
        for (unsigned n = 0; n < 240; n++) {
            if (sph_bits(sph, 160 + n, 1))
                vfetch_aam_map_add(&r.maps.imap, n);
            if (sph_bits(sph, 400 + n, 1))
                vfetch_aam_map_add(&r.maps.omap, n);
        }
        r.maps.store_req_start = (uint8_t)(sph[4] >> 12);
        r.maps.store_req_end = (uint8_t)(sph[4] >> 24);
    } else {
        for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++) {
            r.interpolation[n] = (uint8_t)ps_code(sph, n);
            if (r.interpolation[n])
                vfetch_aam_map_add(&r.maps.imap, n);
        }
    }
    *out = r;
    return VFETCH_OK;
}

unsigned vfetch_aam_ps_interpolation(const struct vfetch_aam_sph *ps, unsigned attribute,
                                     bool flat_shade)
{
    if (!ps || attribute >= VFETCH_AAM_ATTRIBUTES)
        return VFETCH_AAM_PIXEL_UNUSED;
    const unsigned code = ps->interpolation[attribute];
    if (flat_shade && code && attribute >= VFETCH_AAM_COLOR_FRONT_DIFFUSE &&
        attribute < VFETCH_AAM_COLOR_BACK_DIFFUSE)
        return VFETCH_AAM_PIXEL_CONSTANT;
    return code;
}

/* ---- Bmaps ------------------------------------------------------------------------------- */

int vfetch_aam_vertex_input_bmap(const struct vfetch_aam_map *cbf_imap,
                                 const struct vfetch_aam_map *vertex_imap,
                                 uint64_t skip_mask_a, uint64_t skip_mask_b,
                                 struct vfetch_aam_map *out)
{
    if (!vertex_imap || !out)
        return VFETCH_EINVAL;
    if (cbf_imap && imap_on_default(VFETCH_AAM_CULL_BEFORE_FETCH, cbf_imap) >= 0)
        return VFETCH_EAAM_IMAP_DEFAULT;
    if (imap_on_default(VFETCH_AAM_VERTEX, vertex_imap) >= 0)
        return VFETCH_EAAM_IMAP_DEFAULT;
    /* The masks' bit 4k + c is vertex attribute k component c: the generic attributes, which
       start at word 1 of the map. */
    const struct vfetch_aam_map skip = { { 0, (uint32_t)skip_mask_a, (uint32_t)(skip_mask_a >> 32),
                                           (uint32_t)skip_mask_b, (uint32_t)(skip_mask_b >> 32),
                                           0, 0, 0 } };
    struct vfetch_aam_map m = *vertex_imap;
    if (cbf_imap)
        map_or(&m, cbf_imap);
    for (unsigned w = 0; w < 8; w++)
        m.words[w] &= ~skip.words[w];
    *out = m;
    return VFETCH_OK;
}

int vfetch_aam_stage_bmaps(enum vfetch_aam_stage stage, const struct vfetch_aam_shader *shader,
                           bool last, struct vfetch_aam_stage_bmaps *out,
                           struct vfetch_aam_where *where)
{
    if (!shader || !out || (unsigned)stage > VFETCH_AAM_PIXEL) {
        set_where(where, -1, -1);
        return VFETCH_EINVAL;
    }
    const int bad_load = imap_on_default(stage, &shader->imap);
    if (bad_load >= 0) {
        set_where(where, (int)stage, bad_load);
        return VFETCH_EAAM_IMAP_DEFAULT;
    }
    struct vfetch_aam_stage_bmaps r;
    memset(&r, 0, sizeof r);
    r.load = shader->imap;
    if (stage == VFETCH_AAM_PIXEL) {
        if (!vfetch_aam_map_has(&shader->imap, VFETCH_AAM_POSITION_W)) {
            set_where(where, (int)stage, VFETCH_AAM_POSITION_W);
            return VFETCH_EAAM_PS_POSITION_W;
        }
        r.load_req = shader->imap; /* LD acts as LD_REQ for the CBE (note 21) */
        *out = r;
        return VFETCH_OK;
    }
    r.load_req = idmap_column(stage, VFETCH_AAM_IDMAP_LD_REQ);
    map_and(&r.load_req, &shader->imap);
    /* StoreReqStart/End apply to every VTG stage but the geometry shader (SPH CommonWord4) */
    const bool has_range = stage != VFETCH_AAM_GEOMETRY;
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++) {
        if (!vfetch_aam_map_has(&shader->omap, n))
            continue;
        const unsigned od = vfetch_aam_attribute(n)->odmap[stage];
        if (od == VFETCH_AAM_ODMAP_DISCARD) {
            set_where(where, (int)stage, (int)n);
            return VFETCH_EAAM_OMAP_DISCARD;
        }
        const bool in_range =
            has_range && n >= shader->store_req_start && n <= shader->store_req_end;
        if (stage == VFETCH_AAM_CULL_BEFORE_FETCH || od == VFETCH_AAM_ODMAP_ST_REQ ||
            (od == VFETCH_AAM_ODMAP_ST_LAST && last) || in_range)
            vfetch_aam_map_add(&r.store_req, n);
    }
    r.store = shader->omap;
    *out = r;
    return VFETCH_OK;
}

void vfetch_aam_isbe_bmap(const struct vfetch_aam_stage_bmaps *up,
                          const struct vfetch_aam_stage_bmaps *down, struct vfetch_aam_map *out)
{
    if (!up || !down || !out)
        return;
    struct vfetch_aam_map m = up->store;
    map_and(&m, &down->load);
    map_or(&m, &up->store_req);
    map_or(&m, &down->load_req);
    *out = m;
}

void vfetch_aam_vsc_input_bmap(const struct vfetch_aam_stage_bmaps *last,
                               const struct vfetch_aam_stage_bmaps *ps,
                               const struct vfetch_aam_vsc_state *vsc,
                               struct vfetch_aam_map *out)
{
    if (!last || !out)
        return;
    /* What the consumers of the last ISBE ask for. */
    struct vfetch_aam_map want = { { 0 } };
    if (ps) {
        map_or(&want, &ps->load); /* the PS Idmap's LD acts as LD here (note 21) */
        if (vsc && vsc->two_sided_light)
            for (unsigned k = 0; k < 8; k++)
                if (vfetch_aam_map_has(&ps->load, VFETCH_AAM_COLOR_FRONT_DIFFUSE + k))
                    vfetch_aam_map_add(&want, VFETCH_AAM_COLOR_BACK_DIFFUSE + k);
    }
    if (vsc && vsc->raster_enabled) {
        static const unsigned raster[] = { VFETCH_AAM_POSITION_X, VFETCH_AAM_POSITION_Y,
                                           VFETCH_AAM_POSITION_Z, VFETCH_AAM_VIEWPORT_INDEX,
                                           VFETCH_AAM_RT_ARRAY_INDEX, VFETCH_AAM_POINT_SIZE };
        for (unsigned i = 0; i < sizeof raster / sizeof raster[0]; i++)
            vfetch_aam_map_add(&want, raster[i]);
    }
    if (vsc && vsc->stream_enabled)
        map_or(&want, &vsc->stream_imap);
    /* (&): kept when stored and loadable by the VSC, or forced by the last stage's Odmap */
    const struct vfetch_aam_map vsc_ld = idmap_column(VFETCH_AAM_VSC, VFETCH_AAM_IDMAP_LD);
    struct vfetch_aam_map m = last->store;
    map_and(&m, &want);
    map_and(&m, &vsc_ld);
    map_or(&m, &last->store_req);
    *out = m;
}

void vfetch_aam_ps_bmaps(const struct vfetch_aam_stage_bmaps *ps,
                         const struct vfetch_aam_map *vsc_input, bool gs_enabled,
                         struct vfetch_aam_ps_bmaps *out)
{
    if (!ps || !vsc_input || !out)
        return;
    struct vfetch_aam_ps_bmaps r;
    memset(&r, 0, sizeof r);
    r.cbe = ps->load;
    r.stri = ps->load;
    map_remove(&r.stri, VFETCH_AAM_POSITION_X); /* quad data, not STri (note 19d) */
    map_remove(&r.stri, VFETCH_AAM_POSITION_Y);
    for (unsigned n = 0; n < VFETCH_AAM_ATTRIBUTES; n++) {
        uint8_t src;
        if (n == VFETCH_AAM_IS_FRONT_FACE || n == VFETCH_AAM_POSITION_X ||
            n == VFETCH_AAM_POSITION_Y)
            src = VFETCH_AAM_PS_HARDWARE; /* "always set by HW"; note 3 */
        else if (!vfetch_aam_map_has(&ps->load, n))
            src = VFETCH_AAM_PS_ZERO; /* note 22 */
        else if (n == VFETCH_AAM_POINT_SPRITE_S || n == VFETCH_AAM_POINT_SPRITE_T ||
                 (n == VFETCH_AAM_PRIMITIVE_ID && !gs_enabled))
            src = VFETCH_AAM_PS_HARDWARE; /* notes 14, 13b */
        else if (vfetch_aam_map_has(vsc_input, n))
            src = VFETCH_AAM_PS_UPSTREAM;
        else
            src = VFETCH_AAM_PS_DEFAULT; /* notes 22, 13c */
        r.source[n] = src;
    }
    *out = r;
}

int vfetch_aam_pipeline_bmaps(const struct vfetch_aam_pipeline *pipeline,
                              struct vfetch_aam_bmaps *out, struct vfetch_aam_where *where)
{
    if (!pipeline || !out || pipeline->enabled >> (VFETCH_AAM_PIXEL + 1) ||
        !(pipeline->enabled >> VFETCH_AAM_VERTEX & 1)) {
        set_where(where, -1, -1);
        return VFETCH_EINVAL;
    }
    const unsigned on = pipeline->enabled;
    unsigned last = VFETCH_AAM_VERTEX;
    for (unsigned s = VFETCH_AAM_TESSELLATION_INIT; s <= VFETCH_AAM_GEOMETRY; s++)
        if (on >> s & 1)
            last = s;
    struct vfetch_aam_stage_bmaps sb[VFETCH_AAM_PIXEL + 1];
    memset(sb, 0, sizeof sb);
    for (unsigned s = 0; s <= VFETCH_AAM_PIXEL; s++) {
        if (!(on >> s & 1))
            continue;
        const int err = vfetch_aam_stage_bmaps((enum vfetch_aam_stage)s, &pipeline->shaders[s],
                                               s == last, &sb[s], where);
        if (err)
            return err;
    }
    struct vfetch_aam_bmaps r;
    memset(&r, 0, sizeof r);
    const bool cbf = on >> VFETCH_AAM_CULL_BEFORE_FETCH & 1;
    const int err = vfetch_aam_vertex_input_bmap(
        cbf ? &pipeline->shaders[VFETCH_AAM_CULL_BEFORE_FETCH].imap : NULL,
        &pipeline->shaders[VFETCH_AAM_VERTEX].imap, pipeline->skip_mask_a, pipeline->skip_mask_b,
        &r.input[VFETCH_AAM_VERTEX]);
    if (err) /* not reached: the Imaps were checked above */
        return err;
    if (cbf) {
        r.input[VFETCH_AAM_CULL_BEFORE_FETCH] = r.input[VFETCH_AAM_VERTEX];
        /* the hardware ORs the CULL_BEFORE_FETCH Omap into VERTEX_OUTPUT_BMAP (note 7) */
        map_or(&sb[VFETCH_AAM_VERTEX].store_req, &sb[VFETCH_AAM_CULL_BEFORE_FETCH].store_req);
    }
    unsigned prev = VFETCH_AAM_VERTEX;
    for (unsigned s = VFETCH_AAM_TESSELLATION_INIT; s <= VFETCH_AAM_GEOMETRY; s++) {
        if (!(on >> s & 1))
            continue;
        vfetch_aam_isbe_bmap(&sb[prev], &sb[s], &r.output[prev]);
        r.input[s] = r.output[prev];
        prev = s;
    }
    const bool ps = on >> VFETCH_AAM_PIXEL & 1;
    vfetch_aam_vsc_input_bmap(&sb[last], ps ? &sb[VFETCH_AAM_PIXEL] : NULL, &pipeline->vsc,
                              &r.vsc_input);
    r.output[last] = r.vsc_input;
    if (cbf)
        r.output[VFETCH_AAM_CULL_BEFORE_FETCH] = r.output[VFETCH_AAM_VERTEX];
    if (ps) {
        vfetch_aam_ps_bmaps(&sb[VFETCH_AAM_PIXEL], &r.vsc_input,
                            on >> VFETCH_AAM_GEOMETRY & 1, &r.ps);
        r.input[VFETCH_AAM_PIXEL] = r.ps.cbe;
    }
    r.last_vtg = (enum vfetch_aam_stage)last;
    *out = r;
    return VFETCH_OK;
}
