/*
 * GX texture decode, end to end through the public API:
 *
 *   - Dolphin's own output (tests/gx_texture/fixtures, from ../shared/peers/dolphin-texture:
 *     README there) at every ISA level this CPU runs, RGBA8 and RGBA32F, whole and in regions
 *     with a padded pitch, the source, palette and output each exactly sized against a guard
 *     page; with a directory argument (or VFETCH_GX_TEXTURE_FIXTURES) another fixture set too
 *     (the kit writes all 217 of its decodes);
 *   - every error, and that a refused call writes nothing;
 *   - the words: register addresses, sizes, formats, info and describe.
 *
 *   test_gx_texture FIXTURE_DIR [MORE_FIXTURE_DIRS...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "testutil.h"
#include "vfetch/gx_texture.h"

static uint8_t *read_file(const char *dir, const char *name, size_t *size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(n ? (size_t)n : 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

/* A copy of n bytes ending at a guard page. */
static uint8_t *guarded_copy(const uint8_t *p, size_t n)
{
    uint8_t *g = guard_alloc_tail(n);
    if (g && n)
        memcpy(g, p, n);
    return g;
}

static uint32_t setimage0(unsigned fmt, unsigned w, unsigned h)
{
    return (w - 1) | (h - 1) << 10 | fmt << 20;
}

static vfetch_gx_texture_plan *compile(unsigned fmt, int tlut, unsigned w, unsigned h)
{
    struct vfetch_gx_texture_desc d;
    vfetch_gx_texture_desc_init(&d);
    d.setimage0 = setimage0(fmt, w, h);
    d.settlut = tlut < 0 ? 0 : (unsigned)tlut << 10;
    vfetch_gx_texture_plan *p = NULL;
    CHECK_EQ(vfetch_gx_texture_compile(&d, &p), VFETCH_OK);
    return p;
}

/* The ISA levels this CPU runs, by mask: c first. */
static unsigned levels(unsigned mask[8], const char *name[8])
{
    static const struct {
        unsigned flag;
        const char *name;
    } all[] = { { VFETCH_CPU_SSE2, "sse2" }, { VFETCH_CPU_SSE41, "sse41" },
                { VFETCH_CPU_AVX2, "avx2" }, { VFETCH_CPU_AVX512, "avx512" },
                { VFETCH_CPU_NEON, "neon" } };
    unsigned n = 0;
    mask[n] = 0;
    name[n++] = "c";
    const unsigned have = vfetch_cpu_flags();
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++)
        if (have & all[i].flag) {
            mask[n] = all[i].flag;
            name[n++] = all[i].name;
        }
    return n;
}

struct fixture {
    char name[128];
    unsigned fmt, w, h;
    int tlut;
    uint8_t *src, *pal, *rgba;
    size_t src_size, pal_size, rgba_size;
};

static unsigned rng_state = 12345;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 8) % n;
}

/* One fixture at the current level: whole RGBA8 and RGBA32F, then a region with a pitch. */
static void check_fixture(const struct fixture *fx, const char *level)
{
    vfetch_gx_texture_plan *p = compile(fx->fmt, fx->tlut, fx->w, fx->h);
    if (!p)
        return;
    struct vfetch_gx_texture_info info;
    CHECK_EQ(vfetch_gx_texture_plan_info(p, &info), VFETCH_OK);
    CHECK_EQ(info.source_bytes, fx->src_size);
    CHECK_EQ(info.palette_entries * 2, fx->pal_size);
    /* The level's own kernel runs: sse2 and neon have none (no byte shuffle on sse2); a
       texture narrower than the level's vector (avx512 16 texels, avx2 8) takes the level
       below, and a C8 texture of fewer than 4 blocks takes sse41 (lib/gx_texture/compile.c). */
    const char *want_level =
        strcmp(level, "sse2") == 0 || strcmp(level, "neon") == 0 ? "c" : level;
    const uint32_t blocks = info.padded_width / info.block_width *
                            (info.padded_height / info.block_height);
    if (strcmp(want_level, "avx512") == 0 && info.padded_width < 16)
        want_level = "avx2";
    if ((strcmp(want_level, "avx2") == 0 || strcmp(want_level, "avx512") == 0) &&
        (info.padded_width < 8 || (fx->fmt == VFETCH_GX_TF_C8 && blocks < 4)))
        want_level = "sse41";
    CHECK(strcmp(info.level, want_level) == 0);
    uint8_t *src = guarded_copy(fx->src, fx->src_size);
    uint8_t *pal = fx->pal ? guarded_copy(fx->pal, fx->pal_size) : NULL;
    const struct vfetch_gx_texture_source s = { src, fx->src_size, pal, fx->pal_size };
    const size_t texels = (size_t)fx->w * fx->h;

    uint8_t *out = guard_alloc_tail(texels * 4);
    struct vfetch_texel_target t = { out, texels * 4, VFETCH_TEXEL_RGBA8, 0, 0 };
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_OK);
    const int same = memcmp(out, fx->rgba, texels * 4) == 0;
    CHECK(same);
    if (!same) {
        for (size_t i = 0; i < texels * 4; i++)
            if (out[i] != fx->rgba[i]) {
                fprintf(stderr, "  %s at %s: first difference at texel %zu (%zu, %zu) byte %zu: "
                        "%u, Dolphin %u\n", fx->name, level, i / 4, i / 4 % fx->w,
                        i / 4 / fx->w, i % 4, out[i], fx->rgba[i]);
                break;
            }
    }
    guard_free(out);

    float *outf = guard_alloc_tail(texels * 16);
    t = (struct vfetch_texel_target){ outf, texels * 16, VFETCH_TEXEL_RGBA32F, 0, 0 };
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_OK);
    unsigned bad = 0;
    for (size_t i = 0; i < texels * 4; i++)
        bad += test_float_bits(outf[i]) != test_float_bits((float)fx->rgba[i] / 255.0f);
    CHECK_EQ(bad, 0);
    guard_free(outf);

    /* A region, into a target with 3 texels of slack a row (canaries there) and RGBA32F. */
    for (int k = 0; k < 2; k++) {
        struct vfetch_texel_region r = { rnd(fx->w), rnd(fx->h), 0, 0, 0, 1 };
        r.width = 1 + rnd(fx->w - r.x);
        r.height = 1 + rnd(fx->h - r.y);
        const size_t tb = k ? 16 : 4, pitch = (r.width + 3) * tb;
        const size_t size = pitch * (r.height - 1) + r.width * tb;
        uint8_t *o = guard_alloc_tail(size);
        memset(o, 0xa5, size);
        t = (struct vfetch_texel_target){ o, size, k ? VFETCH_TEXEL_RGBA32F : VFETCH_TEXEL_RGBA8,
                                          pitch, 0 };
        CHECK_EQ(vfetch_gx_texture_decode(p, &s, &r, &t), VFETCH_OK);
        unsigned wrong = 0, canary = 0;
        for (uint32_t y = 0; y < r.height; y++) {
            const uint8_t *row = o + y * pitch;
            for (uint32_t x = 0; x < r.width; x++)
                for (unsigned c = 0; c < 4; c++) {
                    const uint8_t v = fx->rgba[(((size_t)(r.y + y) * fx->w) + r.x + x) * 4 + c];
                    if (k) {
                        float f;
                        memcpy(&f, row + x * 16 + c * 4, 4);
                        wrong += test_float_bits(f) != test_float_bits((float)v / 255.0f);
                    } else
                        wrong += row[x * 4 + c] != v;
                }
            if (y + 1 < r.height)
                for (size_t b = r.width * tb; b < pitch; b++)
                    canary += row[b] != 0xa5;
        }
        CHECK_EQ(wrong, 0);
        CHECK_EQ(canary, 0);
        guard_free(o);
    }
    guard_free(src);
    guard_free(pal);
    vfetch_gx_texture_plan_free(p);
}

/* Every fixture of a directory's index.tsv, at every level. Returns how many were checked. */
static unsigned check_fixtures(const char *dir)
{
    size_t n;
    char *index = (char *)read_file(dir, "index.tsv", &n);
    if (!index) {
        fprintf(stderr, "cannot read %s/index.tsv\n", dir);
        CHECK(0);
        return 0;
    }
    index = realloc(index, n + 1);
    index[n] = 0;
    unsigned mask[8];
    const char *name[8];
    const unsigned nlevels = levels(mask, name);
    const unsigned saved = vfetch_get_cpu_mask();
    unsigned count = 0;
    char *next = strchr(index, '\n'); /* past the header */
    for (char *line = next ? next + 1 : NULL; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        char format[32], tlut[32], pattern[64], src[128], tlutf[128], rgba[128];
        int fmt_id, tlut_id;
        unsigned w, h, pw, ph;
        size_t src_bytes, tlut_bytes, rgba_bytes;
        if (sscanf(line, "%31s %d %31s %d %u %u %u %u %63s %127s %zu %127s %zu %127s %zu", format,
                   &fmt_id, tlut, &tlut_id, &w, &h, &pw, &ph, pattern, src, &src_bytes, tlutf,
                   &tlut_bytes, rgba, &rgba_bytes) != 15) {
            fprintf(stderr, "bad index line: %s\n", line);
            CHECK(0);
            continue;
        }
        struct fixture fx = { .fmt = (unsigned)fmt_id, .w = w, .h = h, .tlut = tlut_id };
        snprintf(fx.name, sizeof fx.name, "%s", rgba);
        fx.src = read_file(dir, src, &fx.src_size);
        fx.rgba = read_file(dir, rgba, &fx.rgba_size);
        if (tlut_id >= 0)
            fx.pal = read_file(dir, tlutf, &fx.pal_size);
        CHECK(fx.src && fx.rgba && (tlut_id < 0 || fx.pal));
        CHECK_EQ(fx.src_size, src_bytes);
        CHECK_EQ(fx.rgba_size, (size_t)w * h * 4);
        if (fx.src && fx.rgba && (tlut_id < 0 || fx.pal)) {
            for (unsigned l = 0; l < nlevels; l++) {
                vfetch_set_cpu_mask(mask[l]);
                check_fixture(&fx, name[l]);
            }
            count++;
        }
        free(fx.src);
        free(fx.pal);
        free(fx.rgba);
    }
    vfetch_set_cpu_mask(saved);
    free(index);
    printf("  %s: %u fixtures x %u levels (", dir, count, nlevels);
    for (unsigned l = 0; l < nlevels; l++)
        printf("%s%s", l ? " " : "", name[l]);
    printf(")\n");
    return count;
}

/* A C14X2 texture large enough for the converted-table path (lib/gx_texture/decode.c) decodes
   as the per-texel kernels do (an explicit whole region takes those), at every level and at
   the reference, each palette format; the kit's 256x256 and 1024x1024 fixtures check it
   against Dolphin too (VFETCH_GX_TEXTURE_FIXTURES). */
static void check_large_c14x2(void)
{
    const unsigned side = 256;
    const size_t bytes = (size_t)side * side * 2, out = (size_t)side * side * 4;
    uint8_t *src = guard_alloc_tail(bytes), *pal = guard_alloc_tail(32768);
    for (size_t i = 0; i < bytes; i++)
        src[i] = (uint8_t)rnd(256);
    for (size_t i = 0; i < 32768; i++)
        pal[i] = (uint8_t)rnd(256);
    uint8_t *whole = guard_alloc_tail(out), *walked = guard_alloc_tail(out), *ref = malloc(out);
    unsigned mask[8];
    const char *name[8];
    const unsigned nlevels = levels(mask, name);
    const unsigned saved = vfetch_get_cpu_mask();
    const struct vfetch_gx_texture_source s = { src, bytes, pal, 32768 };
    const struct vfetch_texel_region all = { 0, 0, 0, side, side, 1 };
    for (int tlut = 0; tlut < 3; tlut++)
        for (unsigned l = 0; l < nlevels; l++) {
            vfetch_set_cpu_mask(mask[l]);
            vfetch_gx_texture_plan *p = compile(VFETCH_GX_TF_C14X2, tlut, side, side);
            struct vfetch_texel_target t = { whole, out, VFETCH_TEXEL_RGBA8, 0, 0 };
            CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_OK);
            t.data = walked;
            CHECK_EQ(vfetch_gx_texture_decode(p, &s, &all, &t), VFETCH_OK);
            CHECK(memcmp(whole, walked, out) == 0);
            if (l == 0)
                memcpy(ref, whole, out);
            else
                CHECK(memcmp(whole, ref, out) == 0);
            vfetch_gx_texture_plan_free(p);
        }
    vfetch_set_cpu_mask(saved);
    free(ref);
    guard_free(walked);
    guard_free(whole);
    guard_free(pal);
    guard_free(src);
}

/* ---- the words ---- */

static void check_words(void)
{
    struct vfetch_gx_texture_desc d;
    vfetch_gx_texture_plan *p = (vfetch_gx_texture_plan *)&d, *const sentinel = p;
    memset(&d, 0x5a, sizeof d);
    vfetch_gx_texture_desc_init(&d);
    CHECK_EQ(d.setimage0, 0);
    CHECK_EQ(d.settlut, 0);
    vfetch_gx_texture_desc_init(NULL);

    CHECK_EQ(vfetch_gx_texture_compile(NULL, &p), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_texture_compile(&d, NULL), VFETCH_EINVAL);
    CHECK(p == sentinel);

    /* Reserved formats, and every valid one with its name and block. */
    static const struct {
        const char *name;
        unsigned bw, bh, bytes, entries;
    } want[16] = { { "I4", 8, 8, 32, 0 },   { "I8", 8, 4, 32, 0 },     { "IA4", 8, 4, 32, 0 },
                   { "IA8", 4, 4, 32, 0 },  { "RGB565", 4, 4, 32, 0 }, { "RGB5A3", 4, 4, 32, 0 },
                   { "RGBA8", 4, 4, 64, 0 }, { NULL, 0, 0, 0, 0 },     { "C4", 8, 8, 32, 16 },
                   { "C8", 8, 4, 32, 256 }, { "C14X2", 4, 4, 32, 16384 }, { NULL, 0, 0, 0, 0 },
                   { NULL, 0, 0, 0, 0 },    { NULL, 0, 0, 0, 0 },     { "CMPR", 8, 8, 32, 0 },
                   { NULL, 0, 0, 0, 0 } };
    for (unsigned f = 0; f < 16; f++) {
        d.setimage0 = setimage0(f, 37, 1000);
        d.settlut = 0x123 | 2u << 10;
        p = sentinel;
        const int err = vfetch_gx_texture_compile(&d, &p);
        if (!want[f].name) {
            CHECK_EQ(err, VFETCH_EGX_TEXTURE_FORMAT);
            CHECK(p == sentinel);
            continue;
        }
        CHECK_EQ(err, VFETCH_OK);
        struct vfetch_gx_texture_info info;
        CHECK_EQ(vfetch_gx_texture_plan_info(p, &info), VFETCH_OK);
        CHECK(strcmp(info.name, want[f].name) == 0);
        CHECK_EQ(info.format, f);
        CHECK_EQ(info.width, 37);
        CHECK_EQ(info.height, 1000);
        CHECK_EQ(info.block_width, want[f].bw);
        CHECK_EQ(info.block_height, want[f].bh);
        CHECK_EQ(info.block_bytes, want[f].bytes);
        CHECK_EQ(info.padded_width, (37 + want[f].bw - 1) / want[f].bw * want[f].bw);
        CHECK_EQ(info.padded_height, (1000 + want[f].bh - 1) / want[f].bh * want[f].bh);
        CHECK_EQ(info.source_bytes, (size_t)info.padded_width / want[f].bw *
                                        (info.padded_height / want[f].bh) * want[f].bytes);
        CHECK_EQ(info.palette_entries, want[f].entries);
        CHECK_EQ(info.palette_format, want[f].entries ? 2 : -1);
        CHECK(want[f].entries ? info.palette_name && strcmp(info.palette_name, "RGB5A3") == 0
                              : info.palette_name == NULL);
        CHECK_EQ(info.palette_tmem_address, 0x123 << 9);
        CHECK(info.level != NULL);
        char text[2048];
        const size_t len = vfetch_gx_texture_plan_describe(p, text, sizeof text);
        CHECK(len > 0 && len < sizeof text && strlen(text) == len);
        CHECK(strstr(text, want[f].name) != NULL);
        CHECK(strstr(text, "37x1000") != NULL);
        char small[8];
        CHECK_EQ(vfetch_gx_texture_plan_describe(p, small, sizeof small), len);
        CHECK_EQ(strlen(small), sizeof small - 1);
        CHECK_EQ(vfetch_gx_texture_plan_describe(p, NULL, 0), len);
        vfetch_gx_texture_plan_free(p);
    }
    CHECK_EQ(vfetch_gx_texture_plan_info(NULL, NULL), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_texture_plan_describe(NULL, NULL, 0), 0);
    vfetch_gx_texture_plan_free(NULL);

    /* Palette format 3: refused on palette formats, not read on the others. */
    for (unsigned f = 0; f < 16; f++) {
        if (!want[f].name)
            continue;
        d.setimage0 = setimage0(f, 8, 8);
        d.settlut = 3u << 10;
        p = sentinel;
        const int err = vfetch_gx_texture_compile(&d, &p);
        CHECK_EQ(err, want[f].entries ? VFETCH_EGX_TLUT_FORMAT : VFETCH_OK);
        if (err == VFETCH_OK)
            vfetch_gx_texture_plan_free(p);
        else
            CHECK(p == sentinel);
    }

    /* Register addresses: 0 (the value alone) or the register's own, else refused. */
    for (unsigned a = 0; a < 256; a++) {
        const int image_ok = a == 0 || (a >= 0x88 && a <= 0x8b) || (a >= 0xa8 && a <= 0xab);
        const int tlut_ok = a == 0 || (a >= 0x98 && a <= 0x9b) || (a >= 0xb8 && a <= 0xbb);
        d.setimage0 = a << 24 | setimage0(VFETCH_GX_TF_C8, 1024, 1024);
        d.settlut = 0;
        p = sentinel;
        int err = vfetch_gx_texture_compile(&d, &p);
        CHECK_EQ(err, image_ok ? VFETCH_OK : VFETCH_EREGISTER);
        if (!err) {
            struct vfetch_gx_texture_info info;
            vfetch_gx_texture_plan_info(p, &info);
            CHECK_EQ(info.width, 1024);
            CHECK_EQ(info.height, 1024);
            vfetch_gx_texture_plan_free(p);
        }
        d.setimage0 = setimage0(VFETCH_GX_TF_C8, 4, 4);
        d.settlut = a << 24 | 1u << 10;
        p = sentinel;
        err = vfetch_gx_texture_compile(&d, &p);
        CHECK_EQ(err, tlut_ok ? VFETCH_OK : VFETCH_EREGISTER);
        if (!err)
            vfetch_gx_texture_plan_free(p);
    }
}

/* ---- errors, each writing nothing ---- */

static void check_errors(void)
{
    vfetch_gx_texture_plan *p = compile(VFETCH_GX_TF_C8, VFETCH_GX_TLUT_RGB565, 35, 19);
    struct vfetch_gx_texture_info info;
    vfetch_gx_texture_plan_info(p, &info);
    uint8_t *src = calloc(1, info.source_bytes);
    uint8_t *pal = calloc(2, info.palette_entries);
    uint8_t out[35 * 19 * 16];
    memset(out, 0xa5, sizeof out);
    struct vfetch_gx_texture_source s = { src, info.source_bytes, pal, 512 };
    struct vfetch_texel_target t = { out, 35 * 19 * 4, VFETCH_TEXEL_RGBA8, 0, 0 };
    struct vfetch_texel_region r = { 0, 0, 0, 35, 19, 1 };

    CHECK_EQ(vfetch_gx_texture_decode(NULL, &s, NULL, &t), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_texture_decode(p, NULL, NULL, &t), VFETCH_EINVAL);
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, NULL), VFETCH_EINVAL);
    s.data = NULL;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_EINVAL);
    s.data = src;
    s.palette = NULL;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_EINVAL);
    s.palette = pal;
    t.data = NULL;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_EINVAL);
    t.data = out;
    t.format = (enum vfetch_texel_output)2;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_EINVAL);
    t.format = VFETCH_TEXEL_RGBA8;

    /* Regions outside, z not 0, depth above 1. */
    const struct vfetch_texel_region bad[] = {
        { 0, 0, 0, 36, 19, 1 }, { 0, 0, 0, 35, 20, 1 }, { 35, 0, 0, 1, 1, 1 },
        { 0, 19, 0, 1, 1, 1 },  { 36, 0, 0, 0, 0, 1 },  { 0, 0, 1, 1, 1, 1 },
        { 0, 0, 0, 1, 1, 2 },   { 30, 0, 0, 0xfffffff0u, 1, 1 },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ(vfetch_gx_texture_decode(p, &s, &bad[i], &t), VFETCH_ETEXEL_REGION);

    /* The source: one byte short of the whole texture, or of a region's last block. */
    s.size = info.source_bytes - 1;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_ETEXEL_SHORT_SURFACE);
    r = (struct vfetch_texel_region){ 0, 0, 0, 8, 4, 1 }; /* block 0 only */
    s.size = 31;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, &r, &t), VFETCH_ETEXEL_SHORT_SURFACE);
    s.size = 32;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, &r, &t), VFETCH_OK);
    s.size = info.source_bytes;

    /* The palette: one entry short. */
    s.palette_size = 511;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_EGX_SHORT_PALETTE);
    s.palette_size = 512;

    /* The target: a byte short, a pitch shorter than a row, a pitch that overflows. */
    memset(out, 0xa5, sizeof out);
    t.size = 35 * 19 * 4 - 1;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_ESHORT_OUTPUT);
    t.size = sizeof out;
    t.pitch = 35 * 4 - 1;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_ESHORT_OUTPUT);
    t.pitch = SIZE_MAX / 4;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_EOVERFLOW);
    t.pitch = 0;
    t.format = VFETCH_TEXEL_RGBA32F;
    t.size = 35 * 19 * 16 - 1;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, NULL, &t), VFETCH_ESHORT_OUTPUT);
    unsigned touched = 0;
    for (size_t i = 0; i < sizeof out; i++)
        touched += out[i] != 0xa5;
    CHECK_EQ(touched, 0);

    /* Empty regions: nothing read or written, but a short pitch is still refused. */
    t = (struct vfetch_texel_target){ out, 0, VFETCH_TEXEL_RGBA8, 0, 0 };
    s.size = 0;
    s.palette_size = 0;
    r = (struct vfetch_texel_region){ 35, 19, 0, 0, 0, 1 };
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, &r, &t), VFETCH_OK);
    r = (struct vfetch_texel_region){ 3, 4, 0, 5, 6, 0 };
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, &r, &t), VFETCH_OK);
    t.pitch = 19;
    CHECK_EQ(vfetch_gx_texture_decode(p, &s, &r, &t), VFETCH_ESHORT_OUTPUT);
    for (size_t i = 0; i < sizeof out; i++)
        touched += out[i] != 0xa5;
    CHECK_EQ(touched, 0);

    /* A format without a palette reads no palette pointer. */
    vfetch_gx_texture_plan *q = compile(VFETCH_GX_TF_I8, -1, 8, 4);
    const struct vfetch_gx_texture_source s2 = { src, 32, NULL, 0 };
    t = (struct vfetch_texel_target){ out, 8 * 4 * 4, VFETCH_TEXEL_RGBA8, 0, 0 };
    CHECK_EQ(vfetch_gx_texture_decode(q, &s2, NULL, &t), VFETCH_OK);
    vfetch_gx_texture_plan_free(q);

    free(src);
    free(pal);
    vfetch_gx_texture_plan_free(p);
}

int main(int argc, char **argv)
{
    check_words();
    check_errors();
    check_large_c14x2();
    unsigned n = 0;
    for (int i = 1; i < argc; i++)
        n += check_fixtures(argv[i]);
    const char *more = getenv("VFETCH_GX_TEXTURE_FIXTURES");
    if (more && *more)
        n += check_fixtures(more);
    CHECK(n > 0);
    return test_summary("gx-texture");
}
