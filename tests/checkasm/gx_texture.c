/*
 * checkasm's GX texture part (--kernel gx-texture): every level's GX texture kernels against
 * the reference kernels (lib/ref/gx_texture_ref.c), byte for byte, called directly from each
 * level's table (lib/gx_texture/gx_texture_internal.h) so that a kernel's own contract is what
 * is checked: it reads exactly nblocks blocks and the palette, and writes exactly the block_h
 * rows of nblocks * block_w texels. The source and the palette end (or start) at a PROT_NONE
 * page, the output rows sit in a buffer against one too, with a canary between the rows that
 * must survive. (tests/gx_texture checks the whole decode, walker included, against Dolphin.)
 *
 * Cases: (1) every 16-bit value as an IA8, RGB565 and RGB5A3 texel and as a palette entry of
 * every palette format through C14X2 (all 16384 entries of four palettes) and C8 (256
 * palettes), every byte of the 8- and 4-bit formats; every CMPR endpoint c0 with c1 equal, one
 * below, one above and random; (C4's palette goes through the same entry conversion);
 * (2) random blocks of every format and palette format, 1 to 40 blocks by 1 to 3 block rows a
 * call (every group tail), random pitches; (3) the palette entry conversion of every value,
 * and the C14X2 table kernel (lib/gx_texture/decode.c: large C14X2 textures); (4) RGBA8 ->
 * RGBA32F of every byte, every length to 70.
 * Replay: test_checkasm --kernel gx-texture --seed N [--isa LEVEL].
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "gx_texture/gx_texture_internal.h"

static unsigned mismatches, cases;

static const unsigned formats[] = {
    VFETCH_GX_TF_I4,  VFETCH_GX_TF_I8, VFETCH_GX_TF_IA4,   VFETCH_GX_TF_IA8,
    VFETCH_GX_TF_RGB565, VFETCH_GX_TF_RGB5A3, VFETCH_GX_TF_RGBA8, VFETCH_GX_TF_C4,
    VFETCH_GX_TF_C8,  VFETCH_GX_TF_C14X2, VFETCH_GX_TF_CMPR,
};

/* The tables of every level, [0] the reference. */
static struct vfetch_gx_texture_dsp tables[6];
static const char *table_names[6];
static unsigned num_tables;

/* One kernel call at every level against the reference: src holds nblocks blocks (copied
   against a guard page), palette the format's entries (likewise, or NULL). */
static void run_case_rows(unsigned format, unsigned tlut, const uint8_t *data, size_t nblocks,
                          size_t nrows, const uint8_t *palette, size_t pitch_slack, bool at_head)
{
    const struct vfetch_gx_texture_format_info *f = vfetch_gx_texture_format_of(format);
    const size_t src_size = nrows * nblocks * f->block_bytes, row = nblocks * f->block_w * 4;
    const size_t pitch = row + pitch_slack, out_size = (nrows * f->block_h - 1) * pitch + row;
    uint8_t *src_alloc, *src = place(src_size, at_head, 0, &src_alloc);
    memcpy(src, data, src_size);
    uint8_t *pal_alloc = NULL, *pal = NULL;
    if (f->palette_entries && palette) {
        pal = place(2 * (size_t)f->palette_entries, !at_head, 0, &pal_alloc);
        memcpy(pal, palette, 2 * (size_t)f->palette_entries);
    }
    uint8_t *want = malloc(out_size);
    uint8_t *got_alloc, *got = place(out_size, !at_head, 0, &got_alloc);
    for (size_t i = 0; i < out_size; i++)
        want[i] = (uint8_t)(0xA5 ^ i);
    tables[0].decode[format][tlut](src, nblocks, nrows, pal, want, pitch);
    for (unsigned l = 1; l < num_tables; l++) {
        vfetch_gx_texture_fn *fn = tables[l].decode[format][tlut];
        if (fn == tables[0].decode[format][tlut] || fn == tables[l - 1].decode[format][tlut])
            continue; /* the reference, or the level below's kernel: already checked */
        for (size_t i = 0; i < out_size; i++)
            got[i] = (uint8_t)(0xA5 ^ i);
        fn(src, nblocks, nrows, pal, got, pitch);
        cases++;
        if (memcmp(want, got, out_size) != 0) {
            size_t b = 0;
            while (want[b] == got[b])
                b++;
            if (mismatch_reports++ < 10)
                fprintf(stderr,
                        "MISMATCH gx-texture %s%s%s at %s, seed %" PRIu64 ": %zu blocks x %zu "
                        "rows, pitch %zu; first differing byte %zu (row %zu, texel %zu): want "
                        "%02x got %02x\n"
                        "    replay: test_checkasm --kernel gx-texture --seed %" PRIu64
                        " --isa %s\n",
                        f->name, f->palette_entries ? "-" : "",
                        f->palette_entries ? vfetch_gx_tlut_name(tlut) : "", table_names[l],
                        opt_seed, nblocks, nrows, pitch, b, b / pitch, b % pitch / 4, want[b], got[b],
                        opt_seed, table_names[l]);
            mismatches++;
        }
    }
    guard_free(src_alloc);
    guard_free(pal_alloc);
    guard_free(got_alloc);
    free(want);
}

static void run_case(unsigned format, unsigned tlut, const uint8_t *data, size_t nblocks,
                     const uint8_t *palette, size_t pitch_slack, bool at_head)
{
    run_case_rows(format, tlut, data, nblocks, 1, palette, pitch_slack, at_head);
}

static unsigned tluts_of(unsigned format)
{
    return vfetch_gx_texture_format_of(format)->palette_entries ? VFETCH_GX_TLUT_FORMATS : 1;
}

/* Every value of every texel and entry. */
static void exhaustive(void)
{
    uint8_t *data = malloc(65536 * 2), *palette = malloc(16384 * 2);
    /* 16-bit texels: 4096 blocks whose texels count from 0 to 65535 (big-endian) */
    for (unsigned v = 0; v < 65536; v++) {
        data[2 * v] = (uint8_t)(v >> 8);
        data[2 * v + 1] = (uint8_t)v;
    }
    const unsigned direct16[] = { VFETCH_GX_TF_IA8, VFETCH_GX_TF_RGB565, VFETCH_GX_TF_RGB5A3 };
    for (unsigned i = 0; i < 3; i++)
        run_case(direct16[i], 0, data, 4096, NULL, 4, false);
    /* RGBA8, IA8 and I8 of more than 512 KiB of output, where avx512 changes from its
       row-by-row order to pairs of rows (RGBA8) or whole blocks (IA8, I8) (37 blocks a row, an
       odd count for the partial group, 230 block rows) */
    uint8_t *large = malloc(37 * 230 * 64);
    rnd_fill(large, 37 * 230 * 64);
    run_case_rows(VFETCH_GX_TF_RGBA8, 0, large, 37, 230, NULL, 4, false);
    run_case_rows(VFETCH_GX_TF_IA8, 0, large, 37, 230, NULL, 4, false);
    run_case_rows(VFETCH_GX_TF_I8, 0, large, 37, 230, NULL, 4, false);
    free(large);
    /* every entry value through C14X2: four palettes of 16384, indices 0..16383 in order
       (the top two bits set in every other block: ignored) */
    uint8_t *index = malloc(16384 * 2);
    for (unsigned v = 0; v < 16384; v++) {
        const unsigned top = (v / 16) & 1 ? 0xc000 : 0;
        index[2 * v] = (uint8_t)((v | top) >> 8);
        index[2 * v + 1] = (uint8_t)v;
    }
    for (unsigned part = 0; part < 4; part++)
        for (unsigned tlut = 0; tlut < VFETCH_GX_TLUT_FORMATS; tlut++)
            run_case(VFETCH_GX_TF_C14X2, tlut, index, 1024, data + part * 32768, 0, part & 1);
    /* 8-bit formats: every byte in each position (256 blocks: block b's bytes b + i) */
    uint8_t *bytes = malloc(256 * 32);
    for (unsigned b = 0; b < 256; b++)
        for (unsigned i = 0; i < 32; i++)
            bytes[b * 32 + i] = (uint8_t)(b + i);
    rnd_fill(palette, 16384 * 2);
    const unsigned byte_formats[] = { VFETCH_GX_TF_I4, VFETCH_GX_TF_I8, VFETCH_GX_TF_IA4,
                                      VFETCH_GX_TF_C4, VFETCH_GX_TF_C8 };
    for (unsigned i = 0; i < 5; i++)
        for (unsigned tlut = 0; tlut < tluts_of(byte_formats[i]); tlut++)
            run_case(byte_formats[i], tlut, bytes, 256, palette, 8, i & 1);
    /* C8 over every entry value: indices 0..255 in order into 256 palettes that count from
       0 to 65535 */
    uint8_t sequence[256];
    for (unsigned i = 0; i < 256; i++)
        sequence[i] = (uint8_t)i;
    for (unsigned part = 0; part < 256; part++)
        for (unsigned tlut = 0; tlut < VFETCH_GX_TLUT_FORMATS; tlut++)
            run_case(VFETCH_GX_TF_C8, tlut, sequence, 8, data + part * 512, 0, part & 1);
    /* CMPR: every c0, with c1 equal, one below, one above and random; random indices */
    uint8_t *cmpr = malloc(65536 * 8);
    for (unsigned mode = 0; mode < 4; mode++) {
        for (unsigned c0 = 0; c0 < 65536; c0++) {
            const unsigned c1 = mode == 0   ? c0
                                : mode == 1 ? (c0 - 1) & 0xffff
                                : mode == 2 ? (c0 + 1) & 0xffff
                                            : (unsigned)rnd() & 0xffff;
            uint8_t *s = cmpr + 8 * (size_t)c0;
            s[0] = (uint8_t)(c0 >> 8);
            s[1] = (uint8_t)c0;
            s[2] = (uint8_t)(c1 >> 8);
            s[3] = (uint8_t)c1;
            const uint32_t idx = (uint32_t)rnd();
            memcpy(s + 4, &idx, 4);
        }
        run_case(VFETCH_GX_TF_CMPR, 0, cmpr, 65536 / 4, NULL, 12, mode & 1);
    }
    free(cmpr);
    free(bytes);
    free(index);
    free(palette);
    free(data);
}

/* Random blocks: every format, every count to 40 blocks (every tail of every group size), one
   to three block rows a call; a quarter of the calls exactly 1, 2 or 4 blocks wide (a kernel's
   one-group path at some level). */
static void random_cases(unsigned rounds)
{
    uint8_t *data = malloc(3 * 40 * 64), *palette = malloc(16384 * 2);
    for (unsigned round = 0; round < rounds; round++)
        for (unsigned i = 0; i < sizeof formats / sizeof formats[0]; i++)
            for (unsigned tlut = 0; tlut < tluts_of(formats[i]); tlut++) {
                const size_t n = rnd_below(4) == 0 ? (size_t)1 << rnd_below(3) : 1 + rnd_below(40);
                const size_t rows = 1 + rnd_below(3);
                rnd_fill(data, 3 * 40 * 64);
                rnd_fill(palette, 16384 * 2);
                /* some sources of one repeated value: uniform RGB5A3 modes, equal endpoints */
                if (rnd_below(4) == 0)
                    for (size_t k = 2; k < 3 * 40 * 64; k++)
                        data[k] = data[k & 1];
                run_case_rows(formats[i], tlut, data, n, rows, palette,
                              rnd_below(3) * 4 + rnd_below(2) * 12, rnd_below(2));
            }
    free(data);
    free(palette);
}

/* Palette entries to RGBA8 (every 16-bit value as each palette format), and the C14X2 table
   kernel on random blocks with the reference's table (each level's own table equals it). */
static void entries_and_table(unsigned rounds)
{
    uint8_t *values = malloc(65536 * 2);
    for (unsigned v = 0; v < 65536; v++) {
        values[2 * v] = (uint8_t)(v >> 8);
        values[2 * v + 1] = (uint8_t)v;
    }
    uint32_t *want = malloc(16384 * 4);
    for (unsigned tlut = 0; tlut < VFETCH_GX_TLUT_FORMATS; tlut++)
        for (unsigned part = 0; part < 4; part++) {
            uint8_t *src_alloc, *src = place(32768, part & 1, 0, &src_alloc);
            memcpy(src, values + part * 32768, 32768);
            tables[0].entries(tlut, src, 16384, want);
            for (unsigned l = 1; l < num_tables; l++) {
                if (tables[l].entries == tables[0].entries)
                    continue;
                uint8_t *got_alloc, *got = place(16384 * 4, !(part & 1), 0, &got_alloc);
                tables[l].entries(tlut, src, 16384, (uint32_t *)(void *)got);
                cases++;
                if (memcmp(want, got, 16384 * 4) != 0) {
                    if (mismatch_reports++ < 10)
                        fprintf(stderr, "MISMATCH gx-texture palette entries (%s) at %s\n",
                                vfetch_gx_tlut_name(tlut), table_names[l]);
                    mismatches++;
                }
                guard_free(got_alloc);
            }
            guard_free(src_alloc);
        }
    /* the table kernel: a table of random RGBA8 values (any table, not only converted ones) */
    uint8_t *table_alloc, *table = place(16384 * 4, false, 0, &table_alloc);
    uint8_t *data = malloc(3 * 40 * 32);
    for (unsigned round = 0; round < rounds; round++) {
        rnd_fill(table, 16384 * 4);
        rnd_fill(data, 3 * 40 * 32);
        const size_t n = 1 + rnd_below(40), rows = 1 + rnd_below(3);
        const size_t row = n * 16, pitch = row + rnd_below(3) * 4;
        const size_t out_size = (rows * 4 - 1) * pitch + row;
        uint8_t *src_alloc, *src = place(rows * n * 32, round & 1, 0, &src_alloc);
        memcpy(src, data, rows * n * 32);
        uint8_t *ref = malloc(out_size);
        memset(ref, 0xa5, out_size);
        tables[0].c14x2_table(src, n, rows, table, ref, pitch);
        for (unsigned l = 1; l < num_tables; l++) {
            if (tables[l].c14x2_table == tables[0].c14x2_table)
                continue;
            uint8_t *got_alloc, *got = place(out_size, !(round & 1), 0, &got_alloc);
            memset(got, 0xa5, out_size);
            tables[l].c14x2_table(src, n, rows, table, got, pitch);
            cases++;
            if (memcmp(ref, got, out_size) != 0) {
                if (mismatch_reports++ < 10)
                    fprintf(stderr, "MISMATCH gx-texture C14X2 table kernel at %s, seed %" PRIu64
                            ", %zu blocks x %zu rows\n", table_names[l], opt_seed, n, rows);
                mismatches++;
            }
            guard_free(got_alloc);
        }
        free(ref);
        guard_free(src_alloc);
    }
    free(data);
    guard_free(table_alloc);
    free(want);
    free(values);
}

/* RGBA8 -> RGBA32F: every byte, every length to 70, against a guard page. */
static void widening(void)
{
    uint8_t bytes[326];
    for (unsigned i = 0; i < sizeof bytes; i++)
        bytes[i] = (uint8_t)(i * 7 + (i >> 8));
    for (size_t n = 0; n <= 326; n += n < 70 ? 1 : 64) {
        uint8_t *src_alloc, *src = place(n, n & 1, 0, &src_alloc);
        memcpy(src, bytes, n);
        float want[326];
        tables[0].to_f32(src, n, (uint8_t *)want);
        for (unsigned l = 1; l < num_tables; l++) {
            uint8_t *got_alloc, *got = place(n * 4, !(n & 1), 0, &got_alloc);
            tables[l].to_f32(src, n, got);
            cases++;
            if (memcmp(want, got, n * 4) != 0) {
                if (mismatch_reports++ < 10)
                    fprintf(stderr, "MISMATCH gx-texture RGBA32F at %s, %zu bytes\n",
                            table_names[l], n);
                mismatches++;
            }
            guard_free(got_alloc);
        }
        guard_free(src_alloc);
    }
}

void check_gx_texture(void)
{
    if (!checkasm_wants("gx-texture"))
        return;
    mismatches = cases = 0;
    rng_seed_for("gx-texture");
    num_tables = 0;
    memset(&tables[0], 0, sizeof tables[0]);
    vfetch_gx_texture_ref_init(&tables[0]);
    table_names[num_tables++] = "c";
    for (unsigned l = 0; l < num_levels; l++) {
        vfetch_gx_texture_dsp_init(&tables[num_tables], level_mask(l));
        table_names[num_tables++] = levels[l].name;
    }
    exhaustive();
    const unsigned exhaustive_cases = cases;
    random_cases(opt_quick ? 4 : 40);
    entries_and_table(opt_quick ? 20 : 200);
    widening();
    printf("  gx-texture: %u exhaustive cases (every 16-bit texel and palette entry, every byte, "
           "every CMPR c0), %u random: %s\n",
           exhaustive_cases, cases - exhaustive_cases, mismatches ? "FAILED" : "ok");
    CHECK_EQ(mismatches, 0u);
}
