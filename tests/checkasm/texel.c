/*
 * checkasm's texel part: every ISA level's texel kernels against the reference decoder, bit for
 * bit, through the public vfetch_texel_decode() so that the surface walker's edge handling is
 * exercised too.
 *
 * A plan compiled under VFETCH_CPU mask 0 runs the reference kernels (lib/ref/texel_ref.c); the
 * same words compiled under each level's mask run that level's. Both decode the same surface
 * into targets pre-filled with the same canary, so that every byte (the texels and the pitch
 * padding a kernel must not touch) is compared. Surfaces sit against a PROT_NONE page (at their
 * end, or at their start), as do the targets: a read or write one byte outside crashes.
 *
 * Cases: (1) every 8- and 16-bit container value of every 1- and 2-byte packed format (and all
 * 65,536 binary16 values) under several selections, signs and options; (2) random plans of every
 * format with random surfaces, regions, pitches and slices. Replay: test_checkasm --kernel texel
 * --seed N [--isa LEVEL].
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "texel/texel_internal.h"
#include "vfetch/texel.h"
#include "vfetch/vfetch.h"

static unsigned mismatches;
static unsigned cases;

/* The texel cases' own generator, not the framework's: a seed names the cases this one draws
   from it, so that a printed seed replays them. */
static uint64_t texel_rng;

static uint32_t texel_rnd(void)
{
    texel_rng ^= texel_rng << 13;
    texel_rng ^= texel_rng >> 7;
    texel_rng ^= texel_rng << 17;
    return (uint32_t)(texel_rng >> 16);
}

static uint32_t texel_rnd_below(uint32_t n)
{
    return n ? texel_rnd() % n : 0;
}

struct texel_case {
    struct vfetch_texel_desc desc; /* the two words and the options */
    struct vfetch_texel_surface surface;
    struct vfetch_texel_region region;
    enum vfetch_texel_output output;
    size_t out_pitch, out_slice;
    bool surface_at_head, target_at_head;
};

static vfetch_texel_plan *compile_at(const struct texel_case *c, unsigned mask)
{
    vfetch_set_cpu_mask(mask);
    vfetch_texel_plan *plan = NULL;
    int err = vfetch_texel_compile(&c->desc, &plan);
    vfetch_set_cpu_mask(~0u);
    return err == VFETCH_OK ? plan : NULL;
}

static size_t target_size(const struct texel_case *c)
{
    const size_t tb = c->output == VFETCH_TEXEL_RGBA8 ? 4 : 16;
    return (c->region.depth - 1) * c->out_slice + (c->region.height - 1) * c->out_pitch +
           c->region.width * tb;
}

static void describe_case(const struct texel_case *c, const char *level)
{
    fprintf(stderr,
            "MISMATCH texel at %s, seed %" PRIu64 ": TX_FORMAT1 0x%08x TX_FORMAT2 0x%08x, options"
            " signed %d gamma %d bc %d dxt %d order %d dxt35 %d code18 %d align10 %d;"
            " surface %ux%ux%u pitch %zu slice %zu; region %u,%u,%u %ux%ux%u; %s out pitch %zu\n"
            "    replay: test_checkasm --kernel texel --seed %" PRIu64 " --isa %s\n",
            level, opt_seed, (unsigned)c->desc.tx_format1, (unsigned)c->desc.tx_format2, c->desc.options.signed_method,
            c->desc.options.gamma, c->desc.options.bc_interp, c->desc.options.dxt_interp, c->desc.options.dxt_order,
            c->desc.options.dxt35_colour, c->desc.options.code18, c->desc.options.align10, c->surface.width,
            c->surface.height, c->surface.depth, c->surface.pitch, c->surface.slice_pitch,
            c->region.x, c->region.y, c->region.z, c->region.width, c->region.height,
            c->region.depth, c->output == VFETCH_TEXEL_RGBA8 ? "RGBA8" : "RGBA32F", c->out_pitch,
            opt_seed, level);
}

/* Decode c with the reference and at every level; count mismatching cases. */
static void run_case(const struct texel_case *c, const uint8_t *data)
{
    vfetch_texel_plan *ref = compile_at(c, 0);
    if (!ref)
        return;
    struct vfetch_texel_info info;
    vfetch_texel_plan_info(ref, &info);
    if (c->output == VFETCH_TEXEL_RGBA8 && !info.rgba8_exact) {
        vfetch_texel_plan_free(ref);
        return;
    }
    const size_t size = target_size(c);
    uint8_t *want = malloc(size);
    uint8_t *got_alloc, *got = place(size, c->target_at_head, 0, &got_alloc);
    uint8_t *src_alloc, *src = place(c->surface.size, c->surface_at_head, 0, &src_alloc);
    memcpy(src, data, c->surface.size);
    struct vfetch_texel_surface s = c->surface;
    s.data = src;
    for (size_t i = 0; i < size; i++)
        want[i] = (uint8_t)(0xA5 ^ i);
    struct vfetch_texel_target t = { want, size, c->output, c->out_pitch, c->out_slice };
    int err = vfetch_texel_decode(ref, &s, &c->region, &t);
    if (err != VFETCH_OK) {
        fprintf(stderr, "texel case rejected by the reference (%d)\n", err);
        describe_case(c, "c");
        mismatches++;
    }
    for (unsigned l = 0; l < num_levels && err == VFETCH_OK; l++) {
        /* a level whose whole mask this build and CPU have (a build may leave a level below
           out): the texel plans compile under that mask */
        const unsigned mask = level_mask(l);
        if ((vfetch_cpu_flags() & mask) != mask)
            continue;
        vfetch_texel_plan *plan = compile_at(c, mask);
        for (size_t i = 0; i < size; i++)
            got[i] = (uint8_t)(0xA5 ^ i);
        t.data = got;
        int e = vfetch_texel_decode(plan, &s, &c->region, &t);
        cases++;
        if (e != VFETCH_OK || memcmp(want, got, size) != 0) {
            size_t b = 0;
            while (b < size && want[b] == got[b])
                b++;
            describe_case(c, levels[l].name);
            if (b < size)
                fprintf(stderr, "    first differing byte %zu: want %02x got %02x (kernels %s)\n",
                        b, want[b], got[b],
                        c->output == VFETCH_TEXEL_RGBA8 ? plan->level_u8 : plan->level_f32);
            mismatches++;
        }
        vfetch_texel_plan_free(plan);
    }
    guard_free(src_alloc);
    guard_free(got_alloc);
    free(want);
    vfetch_texel_plan_free(ref);
}

/* The words of a random valid plan (compile may still refuse some: then the case is skipped). */
static void random_words(struct texel_case *c)
{
    unsigned code;
    do
        code = texel_rnd_below(32);
    while (code == 22 || code == 23 || code == 30);
    vfetch_texel_desc_init(&c->desc);
    c->desc.tx_format1 = code;
    for (unsigned k = 0; k < 4; k++)
        c->desc.tx_format1 |= (texel_rnd_below(8) < 6 ? texel_rnd_below(4) : 4 + texel_rnd_below(2)) << (9 + 3 * k);
    if (texel_rnd_below(3) == 0)
        c->desc.tx_format1 |= texel_rnd_below(16) << 5; /* SIGNED_COMP0..3 */
    if (texel_rnd_below(5) == 0)
        c->desc.tx_format1 |= 1u << 21; /* GAMMA */
    if (code >= 18 && code <= 21 && texel_rnd_below(2))
        c->desc.tx_format1 |= (1 + texel_rnd_below(2)) << 22 | texel_rnd_below(2) << 24;
    c->desc.tx_format1 |= texel_rnd_below(3) << 25; /* coord type */
    c->desc.tx_format1 |= texel_rnd_below(32) << 27; /* CACHE, ignored */
    c->desc.tx_format2 = 0;
    if (code <= 6 && texel_rnd_below(3) == 0)
        c->desc.tx_format2 |= VFETCH_TX_FORMAT2_TXFORMAT_MSB;
    if (texel_rnd_below(6) == 0)
        c->desc.tx_format2 |= VFETCH_TX_FORMAT2_POW2FIX2FLT;
    if (texel_rnd_below(2)) {
        c->desc.options.signed_method = (enum vfetch_texel_signed)texel_rnd_below(3);
        c->desc.options.gamma = (enum vfetch_texel_gamma)texel_rnd_below(2);
        c->desc.options.bc_interp = (enum vfetch_texel_bc_interp)texel_rnd_below(2);
        c->desc.options.dxt_interp = (enum vfetch_texel_dxt_interp)texel_rnd_below(2);
        c->desc.options.dxt_order = (enum vfetch_texel_dxt_order)texel_rnd_below(2);
        c->desc.options.dxt35_colour = (enum vfetch_texel_dxt35_colour)texel_rnd_below(2);
        c->desc.options.code18 = (enum vfetch_texel_code18)texel_rnd_below(2);
        c->desc.options.align10 = (enum vfetch_texel_align10)texel_rnd_below(2);
    }
}

static void random_case(void)
{
    struct texel_case c;
    memset(&c, 0, sizeof c);
    random_words(&c);
    vfetch_texel_plan *plan = compile_at(&c, 0);
    if (!plan)
        return;
    struct vfetch_texel_info info;
    vfetch_texel_plan_info(plan, &info);
    vfetch_texel_plan_free(plan);
    const uint32_t bw = info.block_width, bh = info.block_height, bb = info.block_bytes;
    struct vfetch_texel_surface *s = &c.surface;
    s->width = 1 + texel_rnd_below(texel_rnd_below(4) ? 40 : 300);
    s->height = 1 + texel_rnd_below(texel_rnd_below(3) ? 6 : 20);
    s->depth = info.coord_type == VFETCH_TEXEL_CUBE ? 6
               : info.coord_type == VFETCH_TEXEL_3D ? 1 + texel_rnd_below(3)
                                                    : 1;
    const size_t bx = (s->width + bw - 1) / bw, by = (s->height + bh - 1) / bh;
    const size_t extra = texel_rnd_below(3) ? 0 : texel_rnd_below(5);
    s->pitch_unit = texel_rnd_below(2) ? VFETCH_TEXEL_PITCH_BLOCKS : VFETCH_TEXEL_PITCH_BYTES;
    s->pitch = s->pitch_unit == VFETCH_TEXEL_PITCH_BLOCKS ? bx + extra : (bx + extra) * bb;
    if (texel_rnd_below(4) == 0)
        s->pitch = 0;
    const size_t pitch_bytes = s->pitch == 0 ? bx * bb
                               : s->pitch_unit == VFETCH_TEXEL_PITCH_BLOCKS ? s->pitch * bb
                                                                           : s->pitch;
    s->slice_pitch = texel_rnd_below(2) ? 0 : pitch_bytes * by + texel_rnd_below(7);
    const size_t slice = s->slice_pitch ? s->slice_pitch : pitch_bytes * by;
    /* The buffer ends exactly at the last byte the surface holds. */
    s->size = (s->depth - 1) * slice + (by - 1) * pitch_bytes + bx * bb;

    struct vfetch_texel_region *r = &c.region;
    r->x = texel_rnd_below(s->width);
    r->width = 1 + texel_rnd_below(s->width - r->x);
    r->y = texel_rnd_below(s->height);
    r->height = 1 + texel_rnd_below(s->height - r->y);
    if (texel_rnd_below(3) == 0)
        r->x = 0, r->y = 0, r->width = s->width, r->height = s->height;
    r->z = texel_rnd_below(s->depth);
    r->depth = 1 + texel_rnd_below(s->depth - r->z);
    c.output = info.rgba8_exact && texel_rnd_below(2) ? VFETCH_TEXEL_RGBA8 : VFETCH_TEXEL_RGBA32F;
    const size_t tb = c.output == VFETCH_TEXEL_RGBA8 ? 4 : 16;
    c.out_pitch = r->width * tb + (texel_rnd_below(2) ? 0 : texel_rnd_below(3) * 4 + 4);
    c.out_slice = c.out_pitch * r->height + (texel_rnd_below(2) ? 0 : 12);
    c.surface_at_head = texel_rnd_below(2);
    c.target_at_head = texel_rnd_below(2);

    uint8_t *data = malloc(s->size);
    for (size_t i = 0; i < s->size; i++)
        data[i] = (uint8_t)texel_rnd();
    /* Block formats: many endpoint orders and equal endpoints, which random bytes rarely give. */
    if (bw == 4 && texel_rnd_below(2))
        for (size_t i = 0; i + bb <= s->size; i += bb) {
            if (texel_rnd_below(4) == 0)
                data[i + 1] = data[i];
            if (texel_rnd_below(4) == 0 && bb == 16)
                data[i + 9] = data[i + 8];
        }
    run_case(&c, data);
    free(data);
}

/* Every value of a 1- or 2-byte container (a 256x1 or 256x256 surface), under several
   selections, sign bits and POW2FIX2FLT, both outputs. */
static void exhaustive_small(void)
{
    for (unsigned code = 0; code < 32; code++) {
        for (unsigned msb = 0; msb < 2; msb++) {
            if (msb && code > 6)
                continue;
            const struct vfetch_texel_format *f = vfetch_texel_format_of(code, (int)msb);
            if (f->block_bytes > 2 || f->block_w != 1 ||
                (f->cls != VFETCH_TEXEL_CLASS_PACKED && f->cls != VFETCH_TEXEL_CLASS_FLOAT16))
                continue;
            for (unsigned variant = 0; variant < 6; variant++) {
                struct texel_case c;
                memset(&c, 0, sizeof c);
                /* identity RGBA, reversed, constants, and random selections */
                static const unsigned sel_sets[3][4] = { { 0, 1, 2, 3 }, { 3, 2, 1, 0 },
                                                         { 4, 0, 5, 1 } };
                unsigned sel[4];
                for (unsigned k = 0; k < 4; k++)
                    sel[k] = variant < 3 ? sel_sets[variant][k] : texel_rnd_below(6);
                vfetch_texel_desc_init(&c.desc);
                c.desc.tx_format1 = code | sel[3] << 9 | sel[0] << 12 | sel[1] << 15 | sel[2] << 18;
                if (variant >= 3)
                    c.desc.tx_format1 |= texel_rnd_below(16) << 5;
                c.desc.tx_format2 = msb ? VFETCH_TX_FORMAT2_TXFORMAT_MSB : 0;
                if (variant == 5)
                    c.desc.tx_format2 |= VFETCH_TX_FORMAT2_POW2FIX2FLT;
                c.desc.options.signed_method = (enum vfetch_texel_signed)(variant % 3);
                c.desc.options.align10 = (enum vfetch_texel_align10)(variant & 1);
                const uint32_t values = f->block_bytes == 1 ? 256 : 65536;
                c.surface.width = 256;
                c.surface.height = values / 256;
                c.surface.depth = 1;
                c.surface.size = values * f->block_bytes;
                c.region = (struct vfetch_texel_region){ 0, 0, 0, 256, values / 256, 1 };
                c.surface_at_head = variant & 1;
                uint8_t *data = malloc(c.surface.size);
                for (uint32_t v = 0; v < values; v++)
                    memcpy(data + v * f->block_bytes, &v, f->block_bytes); /* little-endian */
                for (unsigned out = 0; out < 2; out++) {
                    c.output = out ? VFETCH_TEXEL_RGBA8 : VFETCH_TEXEL_RGBA32F;
                    c.out_pitch = 256 * (out ? 4 : 16);
                    c.out_slice = c.out_pitch * c.surface.height;
                    run_case(&c, data);
                }
                free(data);
            }
        }
    }
}

/* Every endpoint pair of the block formats: 65,536 blocks whose endpoint bytes (BC4, both
   halves of BC5, DXT5's alpha) or 565 words (DXT1/3/5 colour: c0 = all values, c1 a
   permutation of them, every 8th equal) cover the domain, indices random; default, rounding
   and four-colour options, both outputs. */
static void exhaustive_blocks(void)
{
    static const struct { uint32_t f1, f2; } words[] = {
        { 15 | 2u << 12 | 1u << 15 | 0u << 18 | 3u << 9, 0 },
        { 16 | 2u << 12 | 1u << 15 | 0u << 18 | 3u << 9, 0 },
        { 17 | 2u << 12 | 1u << 15 | 0u << 18 | 3u << 9, 0 },
        { 5 | 0u << 12 | 0u << 15 | 0u << 18 | 5u << 9, VFETCH_TX_FORMAT2_TXFORMAT_MSB },
        { 31 | 0u << 12 | 1u << 15 | 4u << 18 | 5u << 9, 0 },
    };
    const uint32_t blocks = opt_quick ? 4096 : 65536;
    for (unsigned w = 0; w < sizeof words / sizeof words[0]; w++) {
        const unsigned bytes = (words[w].f1 & 31) == 15 || (words[w].f1 & 31) == 5 ? 8 : 16;
        uint8_t *data = malloc((size_t)blocks * bytes);
        for (uint32_t b = 0; b < blocks; b++) {
            uint8_t *p = data + (size_t)b * bytes;
            for (unsigned i = 0; i < bytes; i++)
                p[i] = (uint8_t)texel_rnd();
            const uint32_t pair = opt_quick ? texel_rnd() & 0xffff : b;
            const uint32_t c1 = (b & 7) == 0 ? pair : (pair * 40503u + 7) & 0xffff;
            p[0] = (uint8_t)pair, p[1] = (uint8_t)(pair >> 8); /* BC4 / alpha endpoints */
            if (bytes == 16)
                p[8] = (uint8_t)(c1 & 255), p[9] = (uint8_t)(c1 >> 8); /* BC5 second half */
            uint8_t *colour = bytes == 16 && (words[w].f1 & 31) != 31 ? p + 8 : p;
            if ((words[w].f1 & 31) != 5 && (words[w].f1 & 31) != 31) {
                colour[0] = (uint8_t)pair, colour[1] = (uint8_t)(pair >> 8);
                colour[2] = (uint8_t)c1, colour[3] = (uint8_t)(c1 >> 8);
            }
        }
        for (unsigned variant = 0; variant < 3; variant++) {
            struct texel_case c;
            memset(&c, 0, sizeof c);
            vfetch_texel_desc_init(&c.desc);
            c.desc.tx_format1 = words[w].f1;
            c.desc.tx_format2 = words[w].f2;
            if (variant == 1)
                c.desc.options.dxt_interp = VFETCH_TEXEL_DXT_ROUND;
            if (variant == 2)
                c.desc.options.dxt35_colour = VFETCH_TEXEL_DXT35_FOUR_COLOUR,
                c.desc.options.dxt_order = VFETCH_TEXEL_DXT_RGBA;
            c.surface.width = 1024;
            c.surface.height = (blocks / 256) * 4; /* rows of 256 blocks */
            c.surface.depth = 1;
            c.surface.size = (size_t)blocks * bytes;
            c.region = (struct vfetch_texel_region){ 0, 0, 0, 1024, c.surface.height, 1 };
            c.surface_at_head = variant & 1;
            for (unsigned out = 0; out < 2; out++) {
                c.output = out ? VFETCH_TEXEL_RGBA8 : VFETCH_TEXEL_RGBA32F;
                c.out_pitch = 1024 * (out ? 4 : 16);
                c.out_slice = c.out_pitch * c.surface.height;
                run_case(&c, data);
            }
        }
        free(data);
    }
}

void check_texel(void)
{
    if (!checkasm_wants("texel"))
        return;
    mismatches = 0;
    cases = 0;
    texel_rng = opt_seed * 0x9E3779B97F4A7C15ull + 0x7e1e1;
    if (!texel_rng)
        texel_rng = 1;
    exhaustive_small();
    exhaustive_blocks();
    const unsigned exhaustive_cases = cases;
    const unsigned n = opt_quick ? 300 : 3000;
    for (unsigned i = 0; i < n; i++)
        random_case();
    printf("  texel: %u exhaustive cases (every 8/16-bit value, every block endpoint pair), %u random"
           " cases: %s\n",
           exhaustive_cases, cases - exhaustive_cases, mismatches ? "FAILED" : "ok");
    CHECK_EQ(mismatches, 0u);
}
