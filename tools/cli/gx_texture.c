/*
 * `vfetch explain gx-texture` and `vfetch gx-texture`: GameCube/Wii TX_SETIMAGE0 and
 * TX_SETTLUT words (or a format name and a size) -> the texture plan they compile to and the
 * bytes a decode needs; and a texture as it lies in GX memory, with its palette, decoded into
 * an 8-bit RGBA PNG (include/vfetch/gx_texture.h, docs/gx-texture-cli.md).
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "vfetch/gx_texture.h"

enum {
    GX_TEXTURE_SETIMAGE0 = FIRST_OPTION_ID,
    GX_TEXTURE_SETTLUT,
    GX_TEXTURE_FORMAT,
    GX_TEXTURE_SIZE,
    GX_TEXTURE_PALETTE_FORMAT,
    GX_TEXTURE_PALETTE,
    GX_TEXTURE_REGION,
};

#define GX_TEXTURE_WORD_OPTIONS                                                 \
    { "setimage0", required_argument, NULL, GX_TEXTURE_SETIMAGE0 },             \
    { "settlut", required_argument, NULL, GX_TEXTURE_SETTLUT },                 \
    { "format", required_argument, NULL, GX_TEXTURE_FORMAT },                   \
    { "size", required_argument, NULL, GX_TEXTURE_SIZE },                       \
    { "palette-format", required_argument, NULL, GX_TEXTURE_PALETTE_FORMAT }

static const struct option explain_gx_texture_options[] = { GX_TEXTURE_WORD_OPTIONS,
                                                            OPTIONS_END };

static const struct option gx_texture_decode_options[] = {
    GX_TEXTURE_WORD_OPTIONS,
    { "palette", required_argument, NULL, GX_TEXTURE_PALETTE },
    { "region", required_argument, NULL, GX_TEXTURE_REGION },
    OPTIONS_END
};

/* TX_SETIMAGE0.FORMAT by code; NULL at the reserved codes, which --format takes as numbers so
   that the library's refusal can be seen. */
static const char *const gx_texture_format_names[16] = {
    "I4", "I8", "IA4", "IA8", "RGB565", "RGB5A3", "RGBA8", NULL,
    "C4", "C8", "C14X2", NULL, NULL, NULL, "CMPR", NULL,
};
/* TX_SETTLUT.TLUT_FORMAT by code (3 is reserved). */
static const char *const gx_tlut_format_names[4] = { "IA8", "RGB565", "RGB5A3", NULL };

/* A name of names[0..n-1] in any case (i8 is typed as often as I8), or a code 0..n-1 as a
   number: the code, or -1. */
static int gx_texture_code(const char *text, const char *const *names, unsigned n)
{
    unsigned long long code;
    if (parse_number(text, n - 1, &code))
        return (int)code;
    for (unsigned i = 0; i < n; i++) {
        const char *name = names[i];
        size_t k = 0;
        while (name && name[k] && toupper((unsigned char)text[k]) == name[k])
            k++;
        if (name && !name[k] && !text[k])
            return (int)i;
    }
    return -1;
}

/* The arguments both gx-texture commands take. --format, --size and --palette-format replace
   their fields of --setimage0 and --settlut, whatever the order they come in. */
struct gx_texture_words {
    struct vfetch_gx_texture_desc desc; /* --setimage0, --settlut as given */
    int have_setimage0;
    const char *format, *size, *palette_format; /* the values as given, or NULL */
    uint32_t format_code, width, height, tlut_code;
};

/* The option just taken (got) if it is one of the words' options: 1 taken, 0 not one of
   them, -1 after a usage error (usage_error returns 1). */
static int gx_texture_word_arg(const struct args *a, int got, struct gx_texture_words *w)
{
    const char *val = a->val;
    if (got == GX_TEXTURE_SETIMAGE0) {
        w->have_setimage0 = 1;
        return word_option(a, &w->desc.setimage0) ? -1 : 1;
    }
    if (got == GX_TEXTURE_SETTLUT)
        return word_option(a, &w->desc.settlut) ? -1 : 1;
    if (got == GX_TEXTURE_FORMAT) {
        const int code = gx_texture_code(val, gx_texture_format_names, 16);
        if (code < 0)
            return -usage_error(a->errs, a->cmd, "--format %.40s: the formats are I4, I8, IA4, "
                               "IA8, RGB565, RGB5A3, RGBA8, C4, C8, C14X2, CMPR or a code 0..15",
                               val);
        w->format = val;
        w->format_code = (uint32_t)code;
        return 1;
    }
    if (got == GX_TEXTURE_PALETTE_FORMAT) {
        const int code = gx_texture_code(val, gx_tlut_format_names, 4);
        if (code < 0)
            return -usage_error(a->errs, a->cmd, "--palette-format %.40s: the palette formats "
                               "are IA8, RGB565, RGB5A3 or a code 0..3", val);
        w->palette_format = val;
        w->tlut_code = (uint32_t)code;
        return 1;
    }
    if (got == GX_TEXTURE_SIZE) {
        uint32_t size[2];
        if (parse_numbers(val, 'x', 0xffffffffu, size, 2) != 2)
            return -usage_error(a->errs, a->cmd, "--size %.40s: not WxH (decimal)", val);
        if (size[0] < 1 || size[0] > 1024 || size[1] < 1 || size[1] > 1024)
            return -usage_error(a->errs, a->cmd, "--size %.40s: width and height are 1..1024 "
                               "(TX_SETIMAGE0 holds each minus 1 in 10 bits)", val);
        w->size = val;
        w->width = size[0];
        w->height = size[1];
        return 1;
    }
    return 0;
}

/* The words with the fields of --format, --size and --palette-format put in; 0, or 1 after a
   usage error when neither --setimage0 nor both --format and --size were given. */
static int gx_texture_words_finish(const struct args *a, struct gx_texture_words *w)
{
    if (!w->have_setimage0 && (!w->format || !w->size))
        return usage_error(a->errs, a->cmd, "%s: missing %s (it needs --setimage0 W, or --format "
                           "F and --size WxH)", a->cmd,
                           w->format ? "--size" : w->size ? "--format" : "--setimage0");
    uint32_t *image = &w->desc.setimage0, *tlut = &w->desc.settlut;
    if (w->format)
        *image = (*image & ~(0xfu << 20)) | w->format_code << 20;
    if (w->size)
        *image = (*image & ~0xfffffu) | (w->width - 1) | (w->height - 1) << 10;
    if (w->palette_format)
        *tlut = (*tlut & ~(3u << 10)) | w->tlut_code << 10;
    return 0;
}

/* Whether a word's bits 31:24 are 0 or one of its register's addresses (texture maps 0..3 at
   base, 4..7 at base + 0x20), as the library checks them. */
static int gx_texture_address_ok(uint32_t word, unsigned base)
{
    const unsigned address = word >> 24;
    return !address || (address >= base && address < base + 4) ||
           (address >= base + 0x20 && address < base + 0x24);
}

/* The plan of the words and its info, or the tool's exit code for a refusal, which names the
   option that carried the refused field. */
static int gx_texture_compile(const struct gx_texture_words *w, vfetch_gx_texture_plan **plan,
                              struct vfetch_gx_texture_info *info, FILE *errs)
{
    const uint32_t image = w->desc.setimage0, tlut = w->desc.settlut;
    int err = vfetch_gx_texture_compile(&w->desc, plan);
    char from[80];
    switch (err) {
    case VFETCH_OK:
        break;
    case VFETCH_EREGISTER:
        if (!gx_texture_address_ok(image, 0x88))
            return refusal(errs, err, "--setimage0 0x%08x (register address 0x%02x, bits 31:24; "
                           "TX_SETIMAGE0 is 0x88..0x8B or 0xA8..0xAB, or 0 for the value alone)",
                           image, image >> 24);
        return refusal(errs, err, "--settlut 0x%08x (register address 0x%02x, bits 31:24; "
                       "TX_SETTLUT is 0x98..0x9B or 0xB8..0xBB, or 0 for the value alone)", tlut,
                       tlut >> 24);
    case VFETCH_EGX_TEXTURE_FORMAT:
        if (w->format)
            snprintf(from, sizeof from, "--format %.40s", w->format);
        else
            snprintf(from, sizeof from, "--setimage0 0x%08x", image);
        return refusal(errs, err, "%s (FORMAT 0x%X, bits 23:20 of TX_SETIMAGE0)", from,
                       image >> 20 & 0xf);
    case VFETCH_EGX_TLUT_FORMAT:
        if (w->palette_format)
            snprintf(from, sizeof from, "--palette-format %.40s", w->palette_format);
        else
            snprintf(from, sizeof from, "--settlut 0x%08x", tlut);
        return refusal(errs, err, "%s (TLUT_FORMAT 3, bits 11:10 of TX_SETTLUT, on a %s "
                       "texture)", from, gx_texture_format_names[image >> 20 & 0xf]);
    default:
        return refusal(errs, err, "--setimage0 0x%08x with --settlut 0x%08x", image, tlut);
    }
    err = vfetch_gx_texture_plan_info(*plan, info);
    if (err) {
        vfetch_gx_texture_plan_free(*plan);
        return refusal(errs, err, "--setimage0 0x%08x: the plan's info", image);
    }
    return 0;
}

static size_t describe_gx_texture(const void *plan, char *buf, size_t size)
{
    return vfetch_gx_texture_plan_describe(plan, buf, size);
}

int cmd_explain_gx_texture(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a;
    args_begin(&a, "explain gx-texture", explain_gx_texture_options, argc, argv, out, errs);
    struct gx_texture_words w;
    memset(&w, 0, sizeof w);
    vfetch_gx_texture_desc_init(&w.desc);
    int got;
    while ((got = next_option(&a)) >= FIRST_OPTION_ID)
        if (gx_texture_word_arg(&a, got, &w) < 0)
            return 1;
    if (got != ARG_END)
        return args_exit(&a, got);
    if (gx_texture_words_finish(&a, &w))
        return 1;
    vfetch_gx_texture_plan *plan;
    struct vfetch_gx_texture_info info;
    int err = gx_texture_compile(&w, &plan, &info, errs);
    if (err)
        return err;
    if (put_description(out, describe_gx_texture, plan)) {
        vfetch_gx_texture_plan_free(plan);
        return refusal(errs, VFETCH_ENOMEM, "explain gx-texture: the plan's description");
    }
    fprintf(out, "info: %s, %ux%u texels, blocks of %ux%u texels in %u bytes, padded %ux%u, "
            "level %s\n", info.name, info.width, info.height, info.block_width,
            info.block_height, info.block_bytes, info.padded_width, info.padded_height,
            info.level);
    if (info.palette_entries)
        fprintf(out, "needs: %zu bytes of texture, a palette of %u %s entries (%u bytes)\n",
                info.source_bytes, info.palette_entries, info.palette_name,
                2 * info.palette_entries);
    else
        fprintf(out, "needs: %zu bytes of texture, no palette\n", info.source_bytes);
    vfetch_gx_texture_plan_free(plan);
    return 0;
}

int cmd_gx_texture(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a;
    args_begin(&a, "gx-texture", gx_texture_decode_options, argc, argv, out, errs);
    struct gx_texture_words w;
    memset(&w, 0, sizeof w);
    vfetch_gx_texture_desc_init(&w.desc);
    uint32_t region[4] = { 0, 0, 0, 0 };
    int have_region = 0, files = 0, got;
    const char *file[2] = { NULL, NULL }, *palette_file = NULL;
    while ((got = next_option(&a)) != ARG_END) {
        if (got == ARG_OPERAND && files < 2) {
            file[files++] = a.arg;
            continue;
        }
        if (got < FIRST_OPTION_ID)
            return args_exit(&a, got);
        const int taken = gx_texture_word_arg(&a, got, &w);
        if (taken < 0)
            return 1;
        if (taken)
            continue;
        if (got == GX_TEXTURE_PALETTE) {
            palette_file = a.val;
        } else { /* --region */
            if (region_option(&a, region))
                return 1;
            have_region = 1;
        }
    }
    if (files != 2)
        return usage_error(errs, a.cmd, "gx-texture: missing %s (it needs the words, IN and "
                           "OUT.png)", files == 1 ? "OUT.png" : "IN OUT.png");
    if (gx_texture_words_finish(&a, &w))
        return 1;
    if (!VFETCH_HAVE_PNG)
        return no_png(errs, file[1]);

    vfetch_gx_texture_plan *plan;
    struct vfetch_gx_texture_info info;
    int err = gx_texture_compile(&w, &plan, &info, errs);
    if (err)
        return err;
    int rc = 0;
    unsigned char *src = NULL, *palette = NULL;
    uint8_t *rgba = NULL;
    size_t size = 0, palette_size = 0;
    if (info.palette_entries && !palette_file) {
        rc = usage_error(errs, a.cmd, "gx-texture: a %s texture needs --palette FILE (%u "
                         "entries of 16 bits, as in TMEM)", info.name, info.palette_entries);
        goto done;
    }
    if (!have_region) {
        region[2] = info.width;
        region[3] = info.height;
    }
    const struct vfetch_texel_region r = { region[0], region[1], 0, region[2], region[3], 1 };
    /* Only what a decode may read: the whole texture, the palette's entries. */
    src = read_file_at_most(file[0], info.source_bytes, &size);
    if (!src) {
        rc = file_error(errs, 2, "cannot read %.200s: %s", file[0], strerror(errno));
        goto done;
    }
    if (info.palette_entries) {
        palette = read_file_at_most(palette_file, 2 * (size_t)info.palette_entries,
                                    &palette_size);
        if (!palette) {
            rc = file_error(errs, 2, "cannot read %.200s: %s", palette_file, strerror(errno));
            goto done;
        }
    }
    const struct vfetch_gx_texture_source s = { src, size, palette, palette_size };
    uint8_t none[4];
    struct vfetch_texel_target t = { none, 0, VFETCH_TEXEL_RGBA8, 0, 0 };
    /* First without room for the texels, as `vfetch texel` does: the library checks every size
       before it writes, so a region or file it refuses is reported before the picture is
       allocated. (A region is at most 1024 x 1024 texels: no overflow.) */
    err = vfetch_gx_texture_decode(plan, &s, &r, &t);
    if (err == VFETCH_ESHORT_OUTPUT) {
        rgba = malloc((size_t)r.width * r.height * 4);
        if (!rgba) {
            rc = refusal(errs, VFETCH_ENOMEM, "gx-texture: a %ux%u picture", r.width, r.height);
            goto done;
        }
        t.data = rgba;
        t.size = (size_t)r.width * r.height * 4;
        err = vfetch_gx_texture_decode(plan, &s, &r, &t);
    }
    if (err) {
        char palette_text[260] = "";
        if (info.palette_entries)
            snprintf(palette_text, sizeof palette_text, ", %zu palette bytes read from %.200s",
                     palette_size, palette_file);
        rc = refusal(errs, err, "region %u,%u %ux%u of the %ux%u %s texture, %zu bytes read "
                     "from %.200s%s", r.x, r.y, r.width, r.height, info.width, info.height,
                     info.name, size, file[0], palette_text);
        goto done;
    }
    char why[128];
    if (write_rgba_png(file[1], rgba, r.width, r.height, why)) {
        rc = file_error(errs, 2, "cannot write %.200s: %s", file[1], why);
        goto done;
    }
    char palette_note[40] = "";
    if (info.palette_entries)
        snprintf(palette_note, sizeof palette_note, " (%s palette)", info.palette_name);
    fprintf(out, "wrote %s: %ux%u RGBA PNG of texels %u,%u..%u,%u of the %ux%u %s texture%s\n",
            file[1], r.width, r.height, r.x, r.y, r.x + r.width - 1, r.y + r.height - 1,
            info.width, info.height, info.name, palette_note);
done:
    free(rgba);
    free(palette);
    free(src);
    vfetch_gx_texture_plan_free(plan);
    return rc;
}
