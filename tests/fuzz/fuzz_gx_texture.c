/*
 * Fuzz target: GX texture plans and decodes (include/vfetch/gx_texture.h). The input gives the
 * ISA level, TX_SETIMAGE0 and TX_SETTLUT (their register addresses as given, cleared or valid;
 * mostly small sizes), a region that may stick out, a source and a palette whose buffers may
 * be short (or NULL), and a target (format, pitch, size that may be short or have slack; any
 * alignment, as the header allows).
 * Checked:
 *
 *   - compile returns VFETCH_OK exactly when the words are valid (a model of the header's
 *     rules), else one of the errors the words have; a failed compile leaves *out untouched;
 *     plan_info agrees with the words;
 *   - decode returns VFETCH_OK exactly when the model of the header's checks says so, else one
 *     of the errors that apply;
 *   - a failed decode writes nothing (the target is filled with a canary); source, palette and
 *     target end at guard pages, so any over-read or over-write crashes;
 *   - the level under test (the best one, or a lower one: fuzz_level_mask) and the reference
 *     plan (vfetch_set_cpu_mask(0)) agree on the result code and on every byte of the target;
 *   - a successful decode writes the region's texels and nothing else (pitch padding and slack
 *     keep the canary), and each texel is that texel of the region grown to whole blocks,
 *     decoded to RGBA8 by the reference (RGBA32F: v / 255.0f of it): the walk's partial blocks
 *     at the region's edges against whole ones.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "vfetch/gx_texture.h"
#include "vfetch/vfetch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The largest target a case gets (a bigger one is short, and refused): a 1024x1024 region of
   RGBA32F would be 16 MiB. */
#define MAX_TARGET ((size_t)4 << 20)

/* The format table of the header, as the model knows it: block size, bytes, palette entries. */
struct format_model {
    uint32_t block_w, block_h, block_bytes, palette_entries;
};

static int format_model_of(unsigned code, struct format_model *m)
{
    static const struct format_model formats[16] = {
        [VFETCH_GX_TF_I4] = { 8, 8, 32, 0 },       [VFETCH_GX_TF_I8] = { 8, 4, 32, 0 },
        [VFETCH_GX_TF_IA4] = { 8, 4, 32, 0 },      [VFETCH_GX_TF_IA8] = { 4, 4, 32, 0 },
        [VFETCH_GX_TF_RGB565] = { 4, 4, 32, 0 },   [VFETCH_GX_TF_RGB5A3] = { 4, 4, 32, 0 },
        [VFETCH_GX_TF_RGBA8] = { 4, 4, 64, 0 },    [VFETCH_GX_TF_C4] = { 8, 8, 32, 16 },
        [VFETCH_GX_TF_C8] = { 8, 4, 32, 256 },     [VFETCH_GX_TF_C14X2] = { 4, 4, 32, 16384 },
        [VFETCH_GX_TF_CMPR] = { 8, 8, 32, 0 },
    };
    *m = formats[code & 15];
    return m->block_w != 0; /* the reserved codes have no row */
}

/* Whether a word's bits 31:24 are 0 or an address of its register (maps 0..3 at base, 4..7 at
   base + 0x20). */
static int address_ok(uint32_t word, unsigned base)
{
    const unsigned a = word >> 24;
    return !a || (a >= base && a < base + 4) || (a >= base + 0x20 && a < base + 0x24);
}

/* Bits 31:24 of a word from the input's choice (0..3): as given (mostly refused), cleared, or
   one of the register's addresses (map from pick). */
static uint32_t with_address(uint32_t word, unsigned choice, unsigned base, uint8_t pick)
{
    if (choice == 0)
        return word;
    word &= 0xffffff;
    if (choice == 2)
        word |= (uint32_t)(base + (pick & 0x20) + (pick >> 6)) << 24;
    return word;
}

/* The error codes a set of failed checks allows: bit -code. */
#define BIT(code) (1ull << -(code))

static uint8_t *decode_into(vfetch_gx_texture_plan *plan, const struct vfetch_gx_texture_source *s,
                            const struct vfetch_texel_region *r,
                            const struct vfetch_texel_target *t, int *code)
{
    uint8_t *buf = fuzz_buf_alloc(t->size);
    fuzz_canary_fill(buf, t->size);
    struct vfetch_texel_target tt = *t;
    tt.data = buf;
    *code = vfetch_gx_texture_decode(plan, s, r, &tt);
    return buf;
}

/* Every byte of a successful decode: the region's texels equal those of the oracle (RGBA8
   texels of region o, o->width a row), everything else of the target still holds the
   canary. */
static void check_texels(const uint8_t *got, const struct vfetch_texel_target *t,
                         const struct vfetch_texel_region *r, size_t pitch, const uint8_t *oracle,
                         const struct vfetch_texel_region *o)
{
    const size_t tb = t->format == VFETCH_TEXEL_RGBA8 ? 4 : 16;
    const size_t row = (size_t)r->width * tb;
    size_t at = 0; /* bytes before it checked */
    for (uint32_t y = 0; y < r->height; y++) {
        const size_t start = y * pitch;
        fuzz_require_canary(got, at, start, "pitch padding");
        for (uint32_t x = 0; x < r->width; x++) {
            const uint8_t *want =
                oracle + ((size_t)(r->y - o->y + y) * o->width + r->x - o->x + x) * 4;
            const uint8_t *texel = got + start + x * tb;
            for (unsigned c = 0; c < 4; c++) {
                if (t->format == VFETCH_TEXEL_RGBA8) {
                    FUZZ_REQUIRE(texel[c] == want[c], "texel %u,%u channel %u: %u, oracle %u",
                                 r->x + x, r->y + y, c, texel[c], want[c]);
                } else {
                    /* v / 255 correctly rounded: the double quotient is never near a float's
                       rounding midpoint, so rounding it again to float is exact. */
                    const float f = (float)((double)want[c] / 255.0);
                    FUZZ_REQUIRE(memcmp(texel + 4 * c, &f, 4) == 0,
                                 "texel %u,%u channel %u: not %u / 255.0f", r->x + x, r->y + y,
                                 c, want[c]);
                }
            }
        }
        at = start + row;
    }
    fuzz_require_canary(got, at, t->size, "the target after the last texel");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = fuzz_input_make(data, size);
    const unsigned mask = fuzz_level_mask(fuzz_u8(&in));
    uint32_t image = fuzz_u32(&in), tlut = fuzz_u32(&in);
    const uint8_t shape = fuzz_u8(&in), pick = fuzz_u8(&in);
    /* Mostly small (the edges are what matters; the canary fills and checks of the targets are
       most of a run's time, and a texture of 1024x1024 is up to 4 MiB of source and 16 MiB of
       RGBA32F): up to 64x32; with bits 0 and 5 of shape (one in 8), up to 128x128; with bits
       0, 5 and 6 (one in 8), up to 1024x1024, "large": its regions are up to 65x65 (the whole
       texture only with bit 3 of rmode), and only the blocks they read are filled. */
    const unsigned tier = shape & 0x61;
    const int large = tier == 0x61;
    if (tier == 0x21)
        image = (image & ~0xfffffu) | (image & 0x7f) | (image >> 10 & 0x7f) << 10;
    else if (tier != 0x61)
        image = (image & ~0xfffffu) | (image & 0x3f) | (image >> 10 & 0x1f) << 10;
    image = with_address(image, shape >> 1 & 3, 0x88, pick);
    tlut = with_address(tlut, shape >> 3 & 3, 0x98, pick);

    struct vfetch_gx_texture_desc desc;
    vfetch_gx_texture_desc_init(&desc);
    desc.setimage0 = image;
    desc.settlut = tlut;
    /* The model of compile: which errors the words have. */
    struct format_model f;
    const unsigned code = image >> 20 & 15;
    const int known = format_model_of(code, &f);
    uint64_t compile_errors = 0;
    if (!address_ok(image, 0x88) || !address_ok(tlut, 0x98))
        compile_errors |= BIT(VFETCH_EREGISTER);
    if (!known)
        compile_errors |= BIT(VFETCH_EGX_TEXTURE_FORMAT);
    else if (f.palette_entries && (tlut >> 10 & 3) == 3)
        compile_errors |= BIT(VFETCH_EGX_TLUT_FORMAT);

    vfetch_gx_texture_plan *plan = (vfetch_gx_texture_plan *)(uintptr_t)1;
    fuzz_use_levels(mask);
    const int err = vfetch_gx_texture_compile(&desc, &plan);
    fuzz_use_best_levels();
    FUZZ_REQUIRE(err <= 0 && err > VFETCH_ECOUNT, "vfetch_gx_texture_compile returned %d", err);
    if (err != VFETCH_OK) {
        FUZZ_REQUIRE(plan == (vfetch_gx_texture_plan *)(uintptr_t)1, "failed compile wrote *out");
        FUZZ_REQUIRE((compile_errors & BIT(err)) || err == VFETCH_ENOMEM,
                     "compile of 0x%08x 0x%08x returned %d, not an error the words have",
                     (unsigned)image, (unsigned)tlut, err);
        fuzz_trace("gx_texture 0x%08x 0x%08x -> compile %d\n", (unsigned)image, (unsigned)tlut,
                   err);
        return 0;
    }
    FUZZ_REQUIRE(!compile_errors, "compile of 0x%08x 0x%08x accepted words the header refuses",
                 (unsigned)image, (unsigned)tlut);
    vfetch_gx_texture_plan *ref = NULL;
    fuzz_use_levels(0);
    FUZZ_REQUIRE(vfetch_gx_texture_compile(&desc, &ref) == VFETCH_OK,
                 "the reference compile differs");
    fuzz_use_best_levels();

    struct vfetch_gx_texture_info info;
    FUZZ_REQUIRE(vfetch_gx_texture_plan_info(plan, &info) == VFETCH_OK, "plan_info failed");
    const uint32_t width = (image & 0x3ff) + 1, height = (image >> 10 & 0x3ff) + 1;
    const uint32_t blocks_x = (width + f.block_w - 1) / f.block_w;
    const uint32_t blocks_y = (height + f.block_h - 1) / f.block_h;
    FUZZ_REQUIRE(info.name && info.level && (unsigned)info.format == code &&
                     info.width == width && info.height == height &&
                     info.block_width == f.block_w && info.block_height == f.block_h &&
                     info.block_bytes == f.block_bytes &&
                     info.padded_width == blocks_x * f.block_w &&
                     info.padded_height == blocks_y * f.block_h &&
                     info.source_bytes == (size_t)blocks_x * blocks_y * f.block_bytes &&
                     info.palette_entries == f.palette_entries &&
                     info.palette_format == (f.palette_entries ? (int)(tlut >> 10 & 3) : -1) &&
                     (info.palette_name != NULL) == (f.palette_entries != 0) &&
                     info.palette_tmem_address == (tlut & 0x3ff) << 9,
                 "plan_info disagrees with 0x%08x 0x%08x", (unsigned)image, (unsigned)tlut);
    char text[32];
    const size_t described = vfetch_gx_texture_plan_describe(plan, text, sizeof text);
    FUZZ_REQUIRE(described > 0 && strlen(text) == (described < sizeof text ? described
                                                                          : sizeof text - 1),
                 "plan_describe: length %zu, text of %zu", described, strlen(text));

    /* The region: whole (NULL), or from the input, sticking out or clamped inside; rarely a
       z or depth the header refuses, or an empty depth. */
    const uint8_t rmode = fuzz_u8(&in);
    struct vfetch_texel_region r;
    r.x = fuzz_u16(&in) % (width + 2), r.y = fuzz_u16(&in) % (height + 2), r.z = 0;
    r.width = fuzz_u16(&in) % (large ? 66 : width + 2);
    r.height = fuzz_u16(&in) % (large ? 66 : height + 2), r.depth = 1;
    if (rmode & 2) { /* inside */
        r.x = r.x < width ? r.x : width;
        r.y = r.y < height ? r.y : height;
        r.width = r.width < width - r.x ? r.width : width - r.x;
        r.height = r.height < height - r.y ? r.height : height - r.y;
    }
    switch (rmode >> 4) {
    case 0xf: r.z = 1 + (rmode >> 2 & 1); break;
    case 0xe: r.depth = 0; break;
    case 0xd: r.depth = 2; break;
    default: break;
    }
    const int whole_region = (rmode & 1) && (!large || (rmode & 8));
    if (whole_region)
        r = (struct vfetch_texel_region){ 0, 0, 0, width, height, 1 };
    const int inside = r.x <= width && r.width <= width - r.x && r.y <= height &&
                       r.height <= height - r.y && r.z == 0 && r.depth <= 1;
    const int empty = !r.width || !r.height || !r.depth;

    /* The source: the whole texture, or up to the last block the region reads; maybe short by
       up to 128 bytes. */
    const uint8_t smode = fuzz_u8(&in);
    const int8_t source_short = (int8_t)fuzz_u8(&in);
    size_t reads = 0; /* the end of the last block the region reads */
    if (inside && !empty) {
        const size_t last_bx = (r.x + (size_t)r.width - 1) / f.block_w;
        const size_t last_by = (r.y + (size_t)r.height - 1) / f.block_h;
        reads = (last_by * blocks_x + last_bx + 1) * f.block_bytes;
    }
    size_t source_size = smode & 1 ? reads : info.source_bytes;
    if (source_short < 0 && (size_t)-source_short <= source_size)
        source_size -= (size_t)-source_short;

    /* The palette: exactly its entries, short, longer, or NULL; for a format without one NULL
       or a few bytes, which are not read. */
    const uint8_t pmode = fuzz_u8(&in);
    const size_t palette_bytes = 2 * (size_t)f.palette_entries;
    size_t palette_size = palette_bytes;
    switch (pmode & 3) {
    case 1: palette_size -= palette_size ? 1 + (pmode >> 2) % palette_size : 0; break;
    case 2: palette_size += pmode >> 2; break;
    default: break;
    }
    const int palette_null = (pmode & 3) == 3 || (!f.palette_entries && (pmode & 4));

    /* The target: RGBA32F, RGBA8 or an unknown format; a pitch of 0 (packed), with padding or
       4 bytes short; a size exact, short or with slack. Padding and slack come in single bytes
       (the target ends at a page, so its rows start at any alignment: the header allows it). */
    const unsigned format = fuzz_below(&in, 3);
    struct vfetch_texel_target t;
    memset(&t, 0, sizeof t);
    t.format = (enum vfetch_texel_output)format;
    const size_t tb = format == 1 ? 4 : 16;
    const size_t row = (size_t)r.width * tb;
    const uint8_t pitch_mode = fuzz_u8(&in);
    if (pitch_mode & 0x80)
        t.pitch = row + (pitch_mode & 0x0f);
    if ((pitch_mode & 0x40) && row)
        t.pitch = row - 4;
    const size_t pitch = t.pitch ? t.pitch : row;
    size_t need = empty ? 0 : (r.height - 1) * pitch + row;
    if (need > MAX_TARGET)
        need = MAX_TARGET;
    const int8_t target_delta = (int8_t)fuzz_u8(&in);
    t.size = need;
    if (target_delta < 0 && (size_t)-target_delta <= need)
        t.size = need - (size_t)-target_delta;
    else if (target_delta > 0)
        t.size = need + (size_t)target_delta;

    /* The bytes: from the input, then from a generator it seeds; of a large texture only the
       blocks the region reads (the rest of the buffer stays zero). */
    struct fuzz_rng rng = fuzz_rng_make(fuzz_u64(&in));
    uint8_t *src = fuzz_buf_alloc(source_size);
    if (!large) {
        fuzz_fill(&in, &rng, src, source_size);
    } else if (inside && !empty) {
        const size_t bx0 = r.x / f.block_w, bx1 = (r.x + (size_t)r.width - 1) / f.block_w + 1;
        const size_t by0 = r.y / f.block_h, by1 = (r.y + (size_t)r.height - 1) / f.block_h + 1;
        for (size_t by = by0; by < by1; by++) {
            const size_t from = (by * blocks_x + bx0) * f.block_bytes;
            const size_t to = (by * blocks_x + bx1) * f.block_bytes;
            if (from < source_size)
                fuzz_fill(&in, &rng, src + from, (to < source_size ? to : source_size) - from);
        }
    }
    uint8_t *palette = fuzz_buf_alloc(palette_size);
    fuzz_fill(&in, &rng, palette, palette_size);
    const struct vfetch_gx_texture_source s = { src, source_size, palette_null ? NULL : palette,
                                                palette_size };

    /* The model of decode: the errors that apply (the header's list). */
    uint64_t decode_errors = 0;
    if (t.format != VFETCH_TEXEL_RGBA32F && t.format != VFETCH_TEXEL_RGBA8)
        decode_errors |= BIT(VFETCH_EINVAL);
    if (f.palette_entries && palette_null)
        decode_errors |= BIT(VFETCH_EINVAL);
    if (!inside)
        decode_errors |= BIT(VFETCH_ETEXEL_REGION);
    if (inside && !empty && source_size < reads)
        decode_errors |= BIT(VFETCH_ETEXEL_SHORT_SURFACE);
    if (!empty && f.palette_entries && palette_size < palette_bytes)
        decode_errors |= BIT(VFETCH_EGX_SHORT_PALETTE);
    if (pitch < row || (!empty && t.size < (r.height - 1) * pitch + row))
        decode_errors |= BIT(VFETCH_ESHORT_OUTPUT);

    const struct vfetch_texel_region *rp = whole_region ? NULL : &r;
    int e1, e0;
    uint8_t *got = decode_into(plan, &s, rp, &t, &e1);
    uint8_t *want = decode_into(ref, &s, rp, &t, &e0);
    FUZZ_REQUIRE(e1 <= 0 && e1 > VFETCH_ECOUNT, "vfetch_gx_texture_decode returned %d", e1);
    FUZZ_REQUIRE(e1 == e0, "level %s returned %d, the reference %d", info.level, e1, e0);
    if (e1 != VFETCH_OK) {
        FUZZ_REQUIRE(decode_errors & BIT(e1), "decode returned %d, not an error that applies "
                     "(0x%llx)", e1, (unsigned long long)decode_errors);
        fuzz_require_canary(got, 0, t.size, "the target of a failed decode");
    } else {
        FUZZ_REQUIRE(!decode_errors, "decode succeeded where the header refuses (0x%llx)",
                     (unsigned long long)decode_errors);
        fuzz_require_same(got, want, t.size, info.level, "c");
    }
    if (e1 == VFETCH_OK && empty) {
        fuzz_require_canary(got, 0, t.size, "the target of an empty region");
    } else if (e1 == VFETCH_OK) {
        /* The oracle: the region grown to whole blocks (clipped to the texture, whose edge
           blocks are partial), decoded to RGBA8 by the reference. It reads the region's
           blocks, and its edges are where the region's partial blocks are whole. */
        const uint32_t bw = f.block_w, bh = f.block_h;
        const uint32_t ox = r.x / bw * bw, oy = r.y / bh * bh;
        const uint32_t ox_end = (r.x + r.width + bw - 1) / bw * bw;
        const uint32_t oy_end = (r.y + r.height + bh - 1) / bh * bh;
        const struct vfetch_texel_region o = {
            ox, oy, 0, (ox_end < width ? ox_end : width) - ox,
            (oy_end < height ? oy_end : height) - oy, 1
        };
        const struct vfetch_texel_target ot = { NULL, (size_t)o.width * o.height * 4,
                                                VFETCH_TEXEL_RGBA8, 0, 0 };
        int eo;
        uint8_t *oracle = decode_into(ref, &s, &o, &ot, &eo);
        FUZZ_REQUIRE(eo == VFETCH_OK, "the region's blocks decoded whole returned %d", eo);
        check_texels(got, &t, &r, pitch, oracle, &o);
        fuzz_buf_free(oracle);
    }
    fuzz_trace("gx_texture 0x%08x 0x%08x %s %ux%u, region %u,%u %ux%u z %u depth %u, source "
               "%zu of %zu, palette %zu%s, target %u pitch %zu size %zu -> %d at %s\n",
               (unsigned)image, (unsigned)tlut, info.name, width, height, r.x, r.y, r.width,
               r.height, r.z, r.depth, source_size, info.source_bytes, palette_size,
               palette_null ? " (NULL)" : "", (unsigned)t.format, t.pitch, t.size, e1,
               info.level);
    fuzz_buf_free(got);
    fuzz_buf_free(want);
    fuzz_buf_free(palette);
    fuzz_buf_free(src);
    vfetch_gx_texture_plan_free(plan);
    vfetch_gx_texture_plan_free(ref);
    return 0;
}
