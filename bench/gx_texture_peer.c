/*
 * vfetch's column for the Dolphin texture-decoder peer kit (../shared/peers/dolphin-texture):
 * its hook vfetch_peer_decode() over the public API of vfetch/gx_texture.h only. The bench build
 * compiles it into bench/libgx_texture_peer.a; the kit links that and libvfetch.a
 * (docs/benchmarks.md, "GX textures against Dolphin").
 *
 * The hook gets GX values: fmt is TX_SETIMAGE0's format, tlutfmt TX_SETTLUT's palette format
 * (-1 without a palette), src the texture as in GX memory, tlut the palette as in TMEM, and
 * dst takes the whole texture as RGBA8 rows of width x 4 bytes.
 */
#include <stddef.h>
#include <stdint.h>

#include "vfetch/gx_texture.h"

/* The kit's vfetch-peer.h declares the same; the hook is defined here without it so that the
   library's build compiles this file on its own. */
int vfetch_peer_decode(int fmt, int tlutfmt, const uint8_t *src, const uint8_t *tlut, int width,
                       int height, uint8_t *dst);

/* The last plan and the words it was compiled from: the kit decodes one texture many times in
   a row, and an emulator compiles once per register state too. A static cache is enough
   because the kit calls the hook from one thread only; a miss compiles the new words and frees
   the old plan, so any sequence of calls decodes right. */
static vfetch_gx_texture_plan *cached_plan;
static struct vfetch_gx_texture_desc cached_desc;
static struct vfetch_gx_texture_info cached_info; /* the cached plan's sizes */

/* The plan of the two words, compiled on a miss (out of line: the hit path stays small). */
static __attribute__((noinline)) int plan_for(uint32_t setimage0, uint32_t settlut)
{
    struct vfetch_gx_texture_desc desc;
    vfetch_gx_texture_desc_init(&desc);
    desc.setimage0 = setimage0;
    desc.settlut = settlut;
    vfetch_gx_texture_plan *plan;
    int err = vfetch_gx_texture_compile(&desc, &plan);
    if (err)
        return err;
    err = vfetch_gx_texture_plan_info(plan, &cached_info);
    if (err) {
        vfetch_gx_texture_plan_free(plan);
        return err;
    }
    vfetch_gx_texture_plan_free(cached_plan);
    cached_plan = plan;
    cached_desc = desc;
    return 0;
}

int vfetch_peer_decode(int fmt, int tlutfmt, const uint8_t *src, const uint8_t *tlut, int width,
                       int height, uint8_t *dst)
{
    /* TX_SETIMAGE0 holds width - 1 and height - 1 in 10 bits each, the format in 4 */
    if (fmt < 0 || fmt > 0xf || tlutfmt < -1 || tlutfmt > 3 || width < 1 || width > 1024 ||
        height < 1 || height > 1024)
        return VFETCH_EINVAL;
    const uint32_t setimage0 =
        (uint32_t)(width - 1) | (uint32_t)(height - 1) << 10 | (uint32_t)fmt << 20;
    /* the palette's format (TMEM offset 0: the palette is passed by pointer); formats without
       a palette do not read it */
    const uint32_t settlut = tlutfmt >= 0 ? (uint32_t)tlutfmt << 10 : 0;
    if (!cached_plan || cached_desc.setimage0 != setimage0 || cached_desc.settlut != settlut) {
        const int err = plan_for(setimage0, settlut);
        if (err == VFETCH_EGX_TEXTURE_FORMAT || err == VFETCH_EGX_TLUT_FORMAT)
            return 1; /* values GX reserves: not a texture vfetch decodes, shown n/a */
        if (err)
            return err;
    }
    const vfetch_gx_texture_plan *plan = cached_plan;
    const struct vfetch_gx_texture_info *info = &cached_info;

    const struct vfetch_gx_texture_source source = {
        .data = src,
        .size = info->source_bytes, /* the padded texture: what the kit passes */
        .palette = tlut,
        .palette_size = (size_t)info->palette_entries * 2,
    };
    const struct vfetch_texel_target target = {
        .data = dst,
        .size = (size_t)width * (size_t)height * 4,
        .format = VFETCH_TEXEL_RGBA8,
        .pitch = (size_t)width * 4,
    };
    return vfetch_gx_texture_decode(plan, &source, NULL, &target);
}
