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

/* The last plan and the arguments it was compiled for: the kit decodes one texture many
   times in a row, and an emulator compiles once per register state too. A static cache is
   enough because the kit calls the hook from one thread only; a miss checks the arguments,
   compiles their words and frees the old plan, so any sequence of calls decodes right. The
   key is the arguments themselves, so a hit needs no checks and no word arithmetic (an 8x8
   decode is a few dozen nanoseconds: the hook's own work shows in the kit's column). */
struct cached {
    vfetch_gx_texture_plan *plan;
    int fmt, tlutfmt, width, height;
    size_t source_bytes, palette_bytes, target_bytes, pitch;
};
static struct cached cache;

/* The plan of the arguments, compiled on a miss (out of line: the hit path stays small). */
static __attribute__((noinline)) int plan_for(int fmt, int tlutfmt, int width, int height)
{
    /* TX_SETIMAGE0 holds width - 1 and height - 1 in 10 bits each, the format in 4 */
    if (fmt < 0 || fmt > 0xf || tlutfmt < -1 || tlutfmt > 3 || width < 1 || width > 1024 ||
        height < 1 || height > 1024)
        return VFETCH_EINVAL;
    struct vfetch_gx_texture_desc desc;
    vfetch_gx_texture_desc_init(&desc);
    desc.setimage0 = (uint32_t)(width - 1) | (uint32_t)(height - 1) << 10 | (uint32_t)fmt << 20;
    /* the palette's format (TMEM offset 0: the palette is passed by pointer); formats without
       a palette do not read it */
    desc.settlut = tlutfmt >= 0 ? (uint32_t)tlutfmt << 10 : 0;
    vfetch_gx_texture_plan *plan;
    int err = vfetch_gx_texture_compile(&desc, &plan);
    if (err)
        return err;
    struct vfetch_gx_texture_info info;
    err = vfetch_gx_texture_plan_info(plan, &info);
    if (err) {
        vfetch_gx_texture_plan_free(plan);
        return err;
    }
    vfetch_gx_texture_plan_free(cache.plan);
    const struct cached c = {
        plan, fmt, tlutfmt, width, height,
        info.source_bytes, /* the padded texture: what the kit passes */
        (size_t)info.palette_entries * 2,
        (size_t)width * (size_t)height * 4, (size_t)width * 4,
    };
    cache = c;
    return 0;
}

int vfetch_peer_decode(int fmt, int tlutfmt, const uint8_t *src, const uint8_t *tlut, int width,
                       int height, uint8_t *dst)
{
    if (!cache.plan || cache.fmt != fmt || cache.tlutfmt != tlutfmt || cache.width != width ||
        cache.height != height) {
        const int err = plan_for(fmt, tlutfmt, width, height);
        if (err == VFETCH_EGX_TEXTURE_FORMAT || err == VFETCH_EGX_TLUT_FORMAT)
            return 1; /* values GX reserves: not a texture vfetch decodes, shown n/a */
        if (err)
            return err;
    }
    const struct vfetch_gx_texture_source source = {
        .data = src,
        .size = cache.source_bytes,
        .palette = tlut,
        .palette_size = cache.palette_bytes,
    };
    const struct vfetch_texel_target target = {
        .data = dst,
        .size = cache.target_bytes,
        .format = VFETCH_TEXEL_RGBA8,
        .pitch = cache.pitch,
    };
    return vfetch_gx_texture_decode(cache.plan, &source, NULL, &target);
}
