/*
 * vfetch texel decoder against NVIDIA Texture Tools 2.0.8 (nvdecompress), an independent oracle
 * for the block formats DXT1, DXT3, DXT5, ATI1N (BC4) and ATI2N (BC5).
 *
 * The fixtures (tests/texel/fixtures/, made by tools/gen_texel_fixtures.sh, see README.md
 * there) are pairs <name>.<bc>.dds (nvcompress output, or hand-made pseudo-random blocks for
 * "noise") and <name>.<bc>.rgba (nvdecompress's decode of that .dds, width * height * 4 bytes
 * R, G, B, A). Every .dds is decoded whole with the default options, into RGBA8 (which must be
 * byte-for-byte nvdecompress's output) and into RGBA32F (each float must be (float)b / 255.0f of
 * nvdecompress's byte b); then an interior region into a padded target, against the same bytes.
 *
 * Channels. nvdecompress writes:
 *   DXT1/3/5  R, G, B, A of the block: with vfetch's default BGRA component order that is
 *             SEL_RED = 2, SEL_GREEN = 1, SEL_BLUE = 0, SEL_ALPHA = 3;
 *   ATI1      the value in R, G and B, A = 255: SEL_RED = SEL_GREEN = SEL_BLUE = 0, SEL_ALPHA =
 *             constant 1;
 *   ATI2      R = the first 8 bytes' value, G = the second's, B = 0, A = 255 (no normal z: the
 *             headers nvcompress writes lack DDPF_NORMAL, so nvdecompress reconstructs nothing):
 *             SEL_RED = 0, SEL_GREEN = 1, SEL_BLUE = constant 0, SEL_ALPHA = constant 1.
 * So every channel is comparable; nothing is masked.
 *
 * Usage: test_texel_nvtt <fixture-dir>. Exit 0 if every fixture matches, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfetch/texel.h"

#define SEL_ALPHA_SHIFT 9
#define SEL_RED_SHIFT 12
#define SEL_GREEN_SHIFT 15
#define SEL_BLUE_SHIFT 18
#define SEL_ZERO 4u
#define SEL_ONE 5u

#define GUARD 64          /* canary bytes after every output buffer */
#define GUARD_BYTE 0xA5

static const char *const images[] = {"folder", "duke", "foot", "noise"};
static const char *const bcs[] = {"bc1", "bc1a", "bc2", "bc3", "bc4", "bc5"};

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n == cap) {
            unsigned char *nb;
            cap = cap ? cap * 2 : 4096;
            nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        {
            size_t got = fread(buf + n, 1, cap - n, f);
            n += got;
            if (got == 0)
                break;
        }
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *size = n;
    return buf;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

struct dds {
    uint32_t width, height;
    char fourcc[5];
    const unsigned char *blocks;
    size_t size;
};

/* The 128-byte header: "DDS ", dwSize 124 at 4, dwHeight at 12, dwWidth at 16, the pixel format
   at 76 (dwSize 32, dwFlags at 80 with DDPF_FOURCC 0x4, dwFourCC at 84). No DX10 header. */
static int parse_dds(const unsigned char *file, size_t size, struct dds *d, const char *name)
{
    if (size < 128 || memcmp(file, "DDS ", 4) != 0 || le32(file + 4) != 124 ||
        le32(file + 76) != 32 || !(le32(file + 80) & 0x4)) {
        printf("FAIL %s: not a DDS file with a FourCC pixel format\n", name);
        return -1;
    }
    d->height = le32(file + 12);
    d->width = le32(file + 16);
    memcpy(d->fourcc, file + 84, 4);
    d->fourcc[4] = 0;
    d->blocks = file + 128;
    d->size = size - 128;
    if (d->width == 0 || d->height == 0) {
        printf("FAIL %s: empty surface %ux%u\n", name, (unsigned)d->width, (unsigned)d->height);
        return -1;
    }
    return 0;
}

/* The R300 words for a FourCC, with the SEL fields that reproduce nvdecompress's channels. */
static int format_words(const char *fourcc, uint32_t *f1, uint32_t *f2, uint32_t *block_bytes)
{
    uint32_t fmt, r, g, b, a;
    *f2 = 0;
    if (!strcmp(fourcc, "DXT1") || !strcmp(fourcc, "DXT3") || !strcmp(fourcc, "DXT5")) {
        fmt = fourcc[3] == '1' ? VFETCH_TX_FMT_DXT1
                               : fourcc[3] == '3' ? VFETCH_TX_FMT_DXT3 : VFETCH_TX_FMT_DXT5;
        r = 2, g = 1, b = 0, a = 3;
        *block_bytes = fourcc[3] == '1' ? 8 : 16;
    } else if (!strcmp(fourcc, "ATI1")) {
        fmt = VFETCH_TX_FMT_3_3_2; /* ATI1N under TXFORMAT_MSB */
        *f2 = VFETCH_TX_FORMAT2_TXFORMAT_MSB;
        r = g = b = 0, a = SEL_ONE;
        *block_bytes = 8;
    } else if (!strcmp(fourcc, "ATI2")) {
        fmt = VFETCH_TX_FMT_ATI2N;
        r = 0, g = 1, b = SEL_ZERO, a = SEL_ONE;
        *block_bytes = 16;
    } else {
        return -1;
    }
    *f1 = fmt | a << SEL_ALPHA_SHIFT | r << SEL_RED_SHIFT | g << SEL_GREEN_SHIFT |
          b << SEL_BLUE_SHIFT;
    return 0;
}

static void print_block(const struct dds *d, uint32_t x, uint32_t y, uint32_t block_bytes)
{
    size_t bw = (d->width + 3) / 4;
    size_t off = ((size_t)(y / 4) * bw + x / 4) * block_bytes;
    printf("       block (%u, %u), texel %u of it, bytes:", (unsigned)(x / 4), (unsigned)(y / 4),
           (unsigned)((y % 4) * 4 + x % 4));
    for (uint32_t i = 0; i < block_bytes && off + i < d->size; i++)
        printf(" %02x", d->blocks[off + i]);
    printf("\n");
}

static int guard_intact(const unsigned char *p)
{
    for (int i = 0; i < GUARD; i++)
        if (p[i] != GUARD_BYTE)
            return 0;
    return 1;
}

/* Compares RGBA8 output (pitch bytes a row) of the region at (rx, ry) with the expected image. */
static long compare_rgba8(const char *what, const char *name, const struct dds *d,
                          uint32_t block_bytes, const unsigned char *out, size_t pitch,
                          const unsigned char *exp, uint32_t rx, uint32_t ry, uint32_t rw,
                          uint32_t rh)
{
    long bad = 0;
    long per_channel[4] = {0, 0, 0, 0};
    for (uint32_t y = 0; y < rh; y++)
        for (uint32_t x = 0; x < rw; x++) {
            const unsigned char *o = out + (size_t)y * pitch + (size_t)x * 4;
            const unsigned char *e = exp + ((size_t)(ry + y) * d->width + rx + x) * 4;
            if (memcmp(o, e, 4) == 0)
                continue;
            for (int c = 0; c < 4; c++)
                per_channel[c] += o[c] != e[c];
            if (bad++ == 0) {
                printf("FAIL %s %s: texel (%u, %u): vfetch %u,%u,%u,%u nvdecompress %u,%u,%u,%u\n",
                       name, what, (unsigned)(rx + x), (unsigned)(ry + y), o[0], o[1], o[2], o[3],
                       e[0], e[1], e[2], e[3]);
                print_block(d, rx + x, ry + y, block_bytes);
            }
        }
    if (bad)
        printf("       %ld of %lu texels differ (R %ld, G %ld, B %ld, A %ld)\n", bad,
               (unsigned long)rw * rh, per_channel[0], per_channel[1], per_channel[2],
               per_channel[3]);
    return bad;
}

/* 0: pass, 1: fail, -1: fixture missing or unreadable. */
static int run_fixture(const char *dir, const char *image, const char *bc)
{
    char name[64], path[4096];
    unsigned char *file = NULL, *exp = NULL, *out8 = NULL, *outf = NULL, *outr = NULL;
    size_t file_size = 0, exp_size = 0;
    struct dds d;
    uint32_t f1, f2, block_bytes;
    vfetch_texel_plan *plan = NULL;
    struct vfetch_texel_info info;
    int rc, result = 1;
    long bad = 0;

    snprintf(name, sizeof name, "%s.%s", image, bc);
    snprintf(path, sizeof path, "%s/%s.dds", dir, name);
    file = read_file(path, &file_size);
    if (!file) {
        printf("FAIL %s: cannot read %s\n", name, path);
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s.rgba", dir, name);
    exp = read_file(path, &exp_size);
    if (!exp) {
        printf("FAIL %s: cannot read %s\n", name, path);
        free(file);
        return -1;
    }
    if (parse_dds(file, file_size, &d, name) != 0)
        goto done;
    if (format_words(d.fourcc, &f1, &f2, &block_bytes) != 0) {
        printf("FAIL %s: unexpected FourCC '%s'\n", name, d.fourcc);
        goto done;
    }
    if (exp_size != (size_t)d.width * d.height * 4) {
        printf("FAIL %s: %s holds %lu bytes, expected %ux%u x 4\n", name, path,
               (unsigned long)exp_size, (unsigned)d.width, (unsigned)d.height);
        goto done;
    }

    struct vfetch_texel_desc desc;
    vfetch_texel_desc_init(&desc);
    desc.tx_format1 = f1;
    desc.tx_format2 = f2;
    rc = vfetch_texel_compile(&desc, &plan);
    if (rc != 0 || !plan) {
        printf("FAIL %s: vfetch_texel_compile(0x%08lx, 0x%08lx) = %d\n", name, (unsigned long)f1,
               (unsigned long)f2, rc);
        goto done;
    }
    rc = vfetch_texel_plan_info(plan, &info);
    if (rc != 0 || info.block_width != 4 || info.block_height != 4 ||
        info.block_bytes != block_bytes || !info.rgba8_exact) {
        printf("FAIL %s: plan info rc %d: block %ux%u, %u bytes, rgba8_exact %d (want 4x4, %u, "
               "1)\n", name, rc, (unsigned)info.block_width, (unsigned)info.block_height,
               (unsigned)info.block_bytes, info.rgba8_exact, (unsigned)block_bytes);
        goto done;
    }

    {
        const size_t texels = (size_t)d.width * d.height;
        struct vfetch_texel_surface surf;
        struct vfetch_texel_target tgt;
        memset(&surf, 0, sizeof surf);
        surf.data = d.blocks;
        surf.size = d.size;
        surf.width = d.width;
        surf.height = d.height;
        surf.depth = 1;
        surf.pitch = 0;
        surf.pitch_unit = VFETCH_TEXEL_PITCH_BYTES;
        surf.slice_pitch = 0;

        /* 1. the whole surface, RGBA8 */
        out8 = malloc(texels * 4 + GUARD);
        outf = malloc(texels * 16 + GUARD);
        if (!out8 || !outf) {
            printf("FAIL %s: out of memory\n", name);
            goto done;
        }
        memset(out8, GUARD_BYTE, texels * 4 + GUARD);
        memset(&tgt, 0, sizeof tgt);
        tgt.data = out8;
        tgt.size = texels * 4;
        tgt.format = VFETCH_TEXEL_RGBA8;
        rc = vfetch_texel_decode(plan, &surf, NULL, &tgt);
        if (rc != 0) {
            printf("FAIL %s: vfetch_texel_decode(RGBA8) = %d\n", name, rc);
            goto done;
        }
        if (!guard_intact(out8 + texels * 4)) {
            printf("FAIL %s: RGBA8 decode wrote past its target\n", name);
            bad++;
        }
        bad += compare_rgba8("RGBA8", name, &d, block_bytes, out8, (size_t)d.width * 4, exp, 0,
                             0, d.width, d.height);

        /* 2. the whole surface, RGBA32F: each float is (float)b / 255.0f */
        memset(outf, GUARD_BYTE, texels * 16 + GUARD);
        tgt.data = outf;
        tgt.size = texels * 16;
        tgt.format = VFETCH_TEXEL_RGBA32F;
        rc = vfetch_texel_decode(plan, &surf, NULL, &tgt);
        if (rc != 0) {
            printf("FAIL %s: vfetch_texel_decode(RGBA32F) = %d\n", name, rc);
            goto done;
        }
        if (!guard_intact(outf + texels * 16)) {
            printf("FAIL %s: RGBA32F decode wrote past its target\n", name);
            bad++;
        }
        {
            long fbad = 0;
            for (size_t i = 0; i < texels * 4; i++) {
                float got, want = (float)exp[i] / 255.0f;
                memcpy(&got, outf + i * 4, sizeof got);
                if (got == want)
                    continue;
                if (fbad++ == 0) {
                    uint32_t x = (uint32_t)(i / 4 % d.width), y = (uint32_t)(i / 4 / d.width);
                    printf("FAIL %s RGBA32F: texel (%u, %u) channel %c: vfetch %.9g, "
                           "nvdecompress %u -> %.9g\n", name, (unsigned)x, (unsigned)y,
                           "RGBA"[i % 4], (double)got, exp[i], (double)want);
                    print_block(&d, x, y, block_bytes);
                }
            }
            if (fbad)
                printf("       %ld of %lu floats differ\n", fbad, (unsigned long)texels * 4);
            bad += fbad;
        }

        /* 3. an interior region (all but a 1-texel border where there is room) into a target
              with 3 texels of padding a row: block-interior starts and partial edge blocks */
        {
            struct vfetch_texel_region reg;
            uint32_t bx = d.width > 2 ? 1 : 0, by = d.height > 2 ? 1 : 0;
            size_t pitch, need;
            memset(&reg, 0, sizeof reg);
            reg.x = bx;
            reg.y = by;
            reg.z = 0;
            reg.width = d.width - 2 * bx;
            reg.height = d.height - 2 * by;
            reg.depth = 1;
            pitch = ((size_t)reg.width + 3) * 4;
            need = pitch * (reg.height - 1) + (size_t)reg.width * 4;
            outr = malloc(pitch * reg.height + GUARD);
            if (!outr) {
                printf("FAIL %s: out of memory\n", name);
                goto done;
            }
            memset(outr, GUARD_BYTE, pitch * reg.height + GUARD);
            tgt.data = outr;
            tgt.size = need;
            tgt.format = VFETCH_TEXEL_RGBA8;
            tgt.pitch = pitch;
            tgt.slice_pitch = 0;
            rc = vfetch_texel_decode(plan, &surf, &reg, &tgt);
            if (rc != 0) {
                printf("FAIL %s: vfetch_texel_decode(region %u,%u %ux%u, pitch %lu) = %d\n",
                       name, (unsigned)reg.x, (unsigned)reg.y, (unsigned)reg.width,
                       (unsigned)reg.height, (unsigned long)pitch, rc);
                goto done;
            }
            bad += compare_rgba8("region RGBA8", name, &d, block_bytes, outr, pitch, exp, reg.x,
                                 reg.y, reg.width, reg.height);
            /* the padding between rows and everything after the last texel stay untouched */
            for (uint32_t y = 0; y < reg.height; y++) {
                const unsigned char *pad = outr + (size_t)y * pitch + (size_t)reg.width * 4;
                size_t n = y + 1 < reg.height ? 12 : 12 + GUARD;
                for (size_t i = 0; i < n; i++)
                    if (pad[i] != GUARD_BYTE) {
                        printf("FAIL %s region: byte %lu after row %u was written\n", name,
                               (unsigned long)i, (unsigned)y);
                        bad++;
                        break;
                    }
            }
        }
    }

    if (bad == 0) {
        printf("ok   %-12s %2ux%-2u %s  TX_FORMAT1 0x%08lx TX_FORMAT2 0x%08lx  %lu texels\n",
               name, (unsigned)d.width, (unsigned)d.height, d.fourcc, (unsigned long)f1,
               (unsigned long)f2, (unsigned long)d.width * d.height);
        result = 0;
    } else {
        printf("FAIL %-12s %ux%u %s  TX_FORMAT1 0x%08lx TX_FORMAT2 0x%08lx\n", name,
               (unsigned)d.width, (unsigned)d.height, d.fourcc, (unsigned long)f1,
               (unsigned long)f2);
    }

done:
    vfetch_texel_plan_free(plan);
    free(outr);
    free(outf);
    free(out8);
    free(exp);
    free(file);
    return result;
}

int main(int argc, char **argv)
{
    int failed = 0, run = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: %s <fixture-dir>\n", argv[0]);
        return 1;
    }
    for (size_t i = 0; i < sizeof images / sizeof images[0]; i++)
        for (size_t j = 0; j < sizeof bcs / sizeof bcs[0]; j++) {
            /* "noise" is hand-made blocks: bc1a would be the same DXT1 bytes as bc1 */
            if (!strcmp(images[i], "noise") && !strcmp(bcs[j], "bc1a"))
                continue;
            run++;
            if (run_fixture(argv[1], images[i], bcs[j]) != 0)
                failed++;
        }
    printf("%s: %d of %d nvdecompress fixtures match\n", failed ? "FAIL" : "PASS", run - failed,
           run);
    return failed ? 1 : 0;
}
