/*
 * `vfetch explain texel` and `vfetch texel`: R300/R500 TX_FORMAT1 and TX_FORMAT2 words -> the
 * texel plan they compile to; and one slice of a raw texture surface decoded with it into an
 * 8-bit RGBA PNG (docs/texel-cli.md). The words and --option are the two commands' own.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "vfetch/texel.h"

enum {
    TEXEL_FORMAT1 = FIRST_OPTION_ID,
    TEXEL_FORMAT2,
    TEXEL_OPTION,
    TEXEL_SIZE,
    TEXEL_DEPTH,
    TEXEL_PITCH,
    TEXEL_REGION,
    TEXEL_SLICE,
};

#define TEXEL_WORD_OPTIONS                                     \
    { "format1", required_argument, NULL, TEXEL_FORMAT1 },     \
    { "format2", required_argument, NULL, TEXEL_FORMAT2 },     \
    { "option", required_argument, NULL, TEXEL_OPTION }

static const struct option explain_texel_options[] = { TEXEL_WORD_OPTIONS, OPTIONS_END };

static const struct option texel_decode_options[] = {
    TEXEL_WORD_OPTIONS,
    { "size", required_argument, NULL, TEXEL_SIZE },
    { "depth", required_argument, NULL, TEXEL_DEPTH },
    { "pitch", required_argument, NULL, TEXEL_PITCH },
    { "region", required_argument, NULL, TEXEL_REGION },
    { "slice", required_argument, NULL, TEXEL_SLICE },
    OPTIONS_END
};

/* --option NAME=VALUE: value n of a row is enum value n of its field. */
static const struct {
    const char *name;
    const char *values[3];
} texel_option_values[] = {
    { "signed", { "clamp", "zero", "no-zero" } },  /* signed_method */
    { "gamma", { "srgb", "pow22" } },              /* gamma */
    { "bc", { "truncate", "float" } },             /* bc_interp */
    { "dxt", { "truncate", "round" } },            /* dxt_interp */
    { "dxt-order", { "bgra", "rgba" } },           /* dxt_order */
    { "code18", { "cxv8u8", "y8" } },              /* code18 */
    { "align10", { "low", "high" } },              /* align10 */
};
#define TEXEL_OPTION_NAMES (sizeof texel_option_values / sizeof texel_option_values[0])

/* Apply one --option NAME=VALUE (the option just taken); 0, or 1 after a usage error naming
   what is accepted. */
static int texel_option(const struct args *a, struct vfetch_texel_options *o)
{
    const char *text = a->val;
    const size_t len = strcspn(text, "=");
    for (unsigned i = 0; i < TEXEL_OPTION_NAMES; i++) {
        const char *name = texel_option_values[i].name;
        const char *const *values = texel_option_values[i].values;
        if (strlen(name) != len || strncmp(text, name, len) != 0)
            continue;
        for (int v = 0; v < 3 && values[v] && text[len] == '='; v++) {
            if (strcmp(text + len + 1, values[v]) != 0)
                continue;
            switch (i) {
            case 0: o->signed_method = (enum vfetch_texel_signed)v; break;
            case 1: o->gamma = (enum vfetch_texel_gamma)v; break;
            case 2: o->bc_interp = (enum vfetch_texel_bc_interp)v; break;
            case 3: o->dxt_interp = (enum vfetch_texel_dxt_interp)v; break;
            case 4: o->dxt_order = (enum vfetch_texel_dxt_order)v; break;
            case 5: o->code18 = (enum vfetch_texel_code18)v; break;
            default: o->align10 = (enum vfetch_texel_align10)v; break;
            }
            return 0;
        }
        return usage_error(a->errs, a->cmd, "--option %.40s: %s takes %s%s%s%s%s", text, name,
                           values[0], values[1] ? ", " : "", values[1] ? values[1] : "",
                           values[2] ? ", " : "", values[2] ? values[2] : "");
    }
    return usage_error(a->errs, a->cmd, "--option %.40s: the options are signed, gamma, bc, dxt, "
                       "dxt-order, code18 and align10 (NAME=VALUE)", text);
}

/* The arguments both texel commands take: the two words and the options. */
struct texel_words {
    struct vfetch_texel_desc desc; /* TX_FORMAT1, TX_FORMAT2 and the options */
    int have_format1;
};

/* The option just taken (got) if it is --format1, --format2 or --option: 1 taken, 0 not one of
   them, -1 after a usage error. */
static int texel_word_arg(const struct args *a, int got, struct texel_words *w)
{
    switch (got) {
    case TEXEL_OPTION:
        return texel_option(a, &w->desc.options) ? -1 : 1;
    case TEXEL_FORMAT1:
        w->have_format1 = 1;
        return word_option(a, &w->desc.tx_format1) ? -1 : 1;
    case TEXEL_FORMAT2:
        return word_option(a, &w->desc.tx_format2) ? -1 : 1;
    default:
        return 0;
    }
}

/* The plan of the words and its info, or the tool's exit code for a refusal, which names the
   word it is about: POW2FIX2FLT is TX_FORMAT2's, everything else TX_FORMAT1's (with
   TX_FORMAT2's TXFORMAT_MSB). */
static int texel_compile(const struct texel_words *w, vfetch_texel_plan **plan,
                         struct vfetch_texel_info *info, FILE *errs)
{
    int err = vfetch_texel_compile(&w->desc, plan);
    if (err == VFETCH_ETEXEL_POW2FIX_FORMAT)
        return refusal(errs, err, "--format2 0x%08x (POW2FIX2FLT, bit 17) on --format1 0x%08x",
                       w->desc.tx_format2, w->desc.tx_format1);
    if (err)
        return refusal(errs, err, "--format1 0x%08x%s", w->desc.tx_format1,
                       w->desc.tx_format2 ? " (with --format2)" : "");
    err = vfetch_texel_plan_info(*plan, info);
    if (err) {
        vfetch_texel_plan_free(*plan);
        return refusal(errs, err, "--format1 0x%08x: the plan's info", w->desc.tx_format1);
    }
    return 0;
}

static const char *const texel_coord_names[3] = { "2D", "3D", "cube" };

static size_t describe_texel(const void *plan, char *buf, size_t size)
{
    return vfetch_texel_plan_describe(plan, buf, size);
}

int cmd_explain_texel(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a;
    args_begin(&a, "explain texel", explain_texel_options, argc, argv, out, errs);
    struct texel_words w;
    vfetch_texel_desc_init(&w.desc);
    w.have_format1 = 0;
    int got;
    while ((got = next_option(&a)) >= FIRST_OPTION_ID)
        if (texel_word_arg(&a, got, &w) < 0)
            return 1;
    if (got != ARG_END)
        return args_exit(&a, got);
    if (!w.have_format1)
        return usage_error(errs, a.cmd, "explain texel needs --format1");
    vfetch_texel_plan *plan;
    struct vfetch_texel_info info;
    int err = texel_compile(&w, &plan, &info, errs);
    if (err)
        return err;
    if (put_description(out, describe_texel, plan)) {
        vfetch_texel_plan_free(plan);
        return refusal(errs, VFETCH_ENOMEM, "explain texel: the plan's description");
    }
    fprintf(out, "info: %s, block %ux%u texels of %u byte%s, %s\n", info.name, info.block_width,
            info.block_height, info.block_bytes, info.block_bytes == 1 ? "" : "s",
            (unsigned)info.coord_type < 3 ? texel_coord_names[info.coord_type] : "?");
    fprintf(out, "rgba8_exact: %s\n",
            info.rgba8_exact ? "yes (RGBA8 output holds round(255 x) of the RGBA32F results)"
                             : "no (RGBA32F output only)");
    vfetch_texel_plan_free(plan);
    return 0;
}

/* An upper bound on the bytes a decode of this layout can read (SIZE_MAX where the product
   overflows): rows of blocks, each the larger of the packed row and the pitch, times slices. */
static size_t texel_surface_bound(const struct vfetch_texel_info *info, uint32_t width,
                                  uint32_t height, uint32_t depth, size_t pitch)
{
    const size_t bw = info->block_width ? info->block_width : 1;
    const size_t bh = info->block_height ? info->block_height : 1;
    const size_t across = width / bw + (width % bw != 0);
    const size_t down = height / bh + (height % bh != 0);
    size_t row = across, total;
    if (info->block_bytes && row > SIZE_MAX / info->block_bytes)
        return SIZE_MAX;
    row *= info->block_bytes;
    if (pitch > row)
        row = pitch;
    if (down && row > SIZE_MAX / down)
        return SIZE_MAX;
    total = row * down;
    if (depth && total > SIZE_MAX / depth)
        return SIZE_MAX;
    return total * depth;
}

/* A float channel as a byte of the picture: clamped to [0, 1] (NaN: 0), round(255 x) with
   halves up. The product is exact in double. */
static uint8_t texel_unorm8(float x)
{
    if (!(x > 0.0f))
        return 0;
    if (x >= 1.0f)
        return 255;
    return (uint8_t)((double)x * 255.0 + 0.5);
}

int cmd_texel(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a;
    args_begin(&a, "texel", texel_decode_options, argc, argv, out, errs);
    struct texel_words w;
    vfetch_texel_desc_init(&w.desc);
    w.have_format1 = 0;
    uint32_t width = 0, height = 0, depth = 0, slice = 0, region[4] = { 0, 0, 0, 0 };
    int have_size = 0, have_depth = 0, have_region = 0, files = 0, got;
    unsigned long long pitch = 0;
    const char *file[2] = { NULL, NULL };
    while ((got = next_option(&a)) != ARG_END) {
        if (got == ARG_OPERAND && files < 2) {
            file[files++] = a.arg;
            continue;
        }
        if (got < FIRST_OPTION_ID)
            return args_exit(&a, got);
        const int taken = texel_word_arg(&a, got, &w);
        unsigned long long n;
        uint32_t size[2];
        if (taken < 0)
            return 1;
        if (taken)
            continue;
        if (got == TEXEL_SIZE) {
            /* 0 is left for the library to refuse */
            if (parse_numbers(a.val, 'x', 0xffffffffu, size, 2) != 2)
                return usage_error(errs, a.cmd, "--size %.40s: not WxH (decimal)", a.val);
            width = size[0];
            height = size[1];
            have_size = 1;
        } else if (got == TEXEL_REGION) {
            if (region_option(&a, region))
                return 1;
            have_region = 1;
        } else { /* --depth, --slice, --pitch */
            if (!parse_number(a.val, got == TEXEL_PITCH ? SIZE_MAX : 0xffffffffu, &n))
                return usage_error(errs, a.cmd, "%s %.40s: not a number (decimal or 0x hex)",
                                   a.arg, a.val);
            if (got == TEXEL_DEPTH) {
                depth = (uint32_t)n;
                have_depth = 1;
            } else if (got == TEXEL_SLICE) {
                slice = (uint32_t)n;
            } else {
                pitch = n;
            }
        }
    }
    if (!w.have_format1 || !have_size || files != 2)
        return usage_error(errs, a.cmd, "texel: missing %s%s%s (it needs --format1 W, --size WxH, "
                           "IN.raw and OUT.png)", w.have_format1 ? "" : "--format1 ",
                           have_size ? "" : "--size ",
                           files == 2 ? "" : files == 1 ? "OUT.png" : "IN.raw OUT.png");
    if (!VFETCH_HAVE_PNG)
        return no_png(errs, file[1]);

    vfetch_texel_plan *plan;
    struct vfetch_texel_info info;
    int err = texel_compile(&w, &plan, &info, errs);
    if (err)
        return err;
    if (!have_depth)
        depth = info.coord_type == VFETCH_TEXEL_CUBE ? 6 : 1;
    if (!have_region) {
        region[2] = width;
        region[3] = height;
    }
    const struct vfetch_texel_region r = { region[0], region[1], slice, region[2], region[3], 1 };
    const int exact = info.rgba8_exact;
    int rc = 0;
    unsigned char *src = NULL;
    uint8_t *rgba = NULL;
    float *f32 = NULL;
    if (r.height && r.width > SIZE_MAX / 16 / r.height) { /* 32-bit size_t */
        rc = refusal(errs, VFETCH_EOVERFLOW, "a %ux%u region (--region, or --size)", r.width,
                     r.height);
        goto done;
    }
    /* A --size of 0 reaches the library, which refuses it: the buffers get a texel anyway. */
    const size_t texels = r.width && r.height ? (size_t)r.width * r.height : 1;
    size_t size;
    src = read_file_at_most(file[0],
                            texel_surface_bound(&info, width, height, depth, (size_t)pitch), &size);
    if (!src) {
        rc = file_error(errs, 2, "cannot read %.200s: %s", file[0], strerror(errno));
        goto done;
    }
    const struct vfetch_texel_surface s = { src, size, width, height, depth, (size_t)pitch,
                                            VFETCH_TEXEL_PITCH_BYTES, 0 };
    uint8_t none[16];
    struct vfetch_texel_target t = { none, 0, exact ? VFETCH_TEXEL_RGBA8 : VFETCH_TEXEL_RGBA32F,
                                     0, 0 };
    /* First without room for the texels: the library checks every size before it writes, so a
       surface or region it refuses is reported before the buffers are allocated. */
    err = vfetch_texel_decode(plan, &s, &r, &t);
    if (err == VFETCH_ESHORT_OUTPUT) {
        rgba = malloc(texels * 4);
        f32 = exact ? NULL : malloc(texels * 16);
        if (!rgba || (!exact && !f32)) {
            rc = refusal(errs, VFETCH_ENOMEM, "texel: a %ux%u picture", r.width, r.height);
            goto done;
        }
        t.data = exact ? (void *)rgba : (void *)f32;
        t.size = texels * (exact ? 4 : 16);
        err = vfetch_texel_decode(plan, &s, &r, &t);
    }
    if (err) {
        rc = refusal(errs, err, "region %u,%u %ux%u of slice %u, a %ux%ux%u %s surface, "
                     "%zu bytes read from %.200s", r.x, r.y, r.width, r.height, r.z, width,
                     height, depth, info.name, size, file[0]);
        goto done;
    }
    if (!exact)
        for (size_t i = 0; i < texels * 4; i++)
            rgba[i] = texel_unorm8(f32[i]);
    char why[128];
    if (write_rgba_png(file[1], rgba, r.width, r.height, why)) {
        rc = file_error(errs, 2, "cannot write %.200s: %s", file[1], why);
        goto done;
    }
    fprintf(out, "wrote %s: %ux%u RGBA PNG of %s texels %u,%u..%u,%u of slice %u, %s\n", file[1],
            r.width, r.height, info.name, r.x, r.y, r.x + r.width - 1, r.y + r.height - 1, r.z,
            exact ? "exact RGBA8"
                  : "converted from RGBA32F (clamped to [0, 1], rounded to 255ths)");
done:
    free(f32);
    free(rgba);
    free(src);
    vfetch_texel_plan_free(plan);
    return rc;
}
