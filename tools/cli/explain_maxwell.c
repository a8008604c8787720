/*
 * `vfetch explain maxwell`: Maxwell SET_VERTEX_ATTRIBUTE and vertex stream words -> what each
 * attribute word means, the plan they compile to, where each ISBE attribute lands, and its
 * generated code.
 */
#include <string.h>

#include "commands.h"
#include "options.h"
#include "vfetch/aam.h"
#include "vfetch/maxwell.h"

static const char *maxwell_size_name(uint32_t size)
{
    switch (size) {
    case 0x01: return "R32_G32_B32_A32";
    case 0x02: return "R32_G32_B32";
    case 0x03: return "R16_G16_B16_A16";
    case 0x04: return "R32_G32";
    case 0x05: return "R16_G16_B16";
    case 0x0A: return "R8_G8_B8_A8";
    case 0x0F: return "R16_G16";
    case 0x12: return "R32";
    case 0x13: return "R8_G8_B8";
    case 0x18: return "R8_G8";
    case 0x1B: return "R16";
    case 0x1D: return "R8";
    case 0x2F: return "A8B8G8R8";
    case 0x30: return "A2B10G10R10";
    case 0x31: return "B10G11R11";
    case 0x32: return "G8R8";
    case 0x33: return "X8B8G8R8";
    case 0x34: return "A8";
    default: return "(none)";
    }
}

static const char *const maxwell_type_name[8] = { "(type 0)", "SNORM", "UNORM", "SINT",
                                                  "UINT", "USCALED", "SSCALED", "FLOAT" };

enum {
    MAXWELL_ATTR = FIRST_OPTION_ID,
    MAXWELL_STREAM,
    MAXWELL_INSTANCE,
    MAXWELL_FREQUENCY,
    MAXWELL_DEFAULT,
    MAXWELL_BMAP,
    MAXWELL_FULL,
    MAXWELL_PER_OP,
    MAXWELL_ASM,
};

static const struct option maxwell_options[] = {
    { "attr", required_argument, NULL, MAXWELL_ATTR },
    { "stream", required_argument, NULL, MAXWELL_STREAM },
    { "instance", required_argument, NULL, MAXWELL_INSTANCE },
    { "frequency", required_argument, NULL, MAXWELL_FREQUENCY },
    { "default", required_argument, NULL, MAXWELL_DEFAULT },
    { "bmap", required_argument, NULL, MAXWELL_BMAP },
    { "full", no_argument, NULL, MAXWELL_FULL },
    { "per-op", no_argument, NULL, MAXWELL_PER_OP },
    { "asm", no_argument, NULL, MAXWELL_ASM },
    OPTIONS_END
};

/* A refusal of vfetch_maxwell_compile(), naming the attribute or stream word it is about: the
   first attribute compile checks (those in the Bmap; by default every active one) that breaks
   the rule the code stands for. */
static int maxwell_refusal(FILE *errs, int err, const struct vfetch_maxwell_desc *d,
                           const char *attr_text)
{
    int bmap_given = 0;
    for (unsigned w = 0; w < 8; w++)
        bmap_given |= d->input_bmap.words[w] != 0;
    for (unsigned i = 0; i < VFETCH_MAXWELL_ATTRIBUTES; i++) {
        const uint32_t word = d->attribute[i];
        int checked = !(word >> 6 & 1);
        if (bmap_given) {
            checked = 0;
            for (unsigned c = 0; c < 4; c++)
                checked |= vfetch_aam_map_has(&d->input_bmap, VFETCH_AAM_GENERIC_0 + 4 * i + c);
        }
        struct vfetch_maxwell_attribute at;
        const int bad = checked ? vfetch_maxwell_attribute_parse(word, &at) : 0;
        if (err == VFETCH_EMAXWELL_ATTRIBUTE_FORMAT && bad)
            return refusal(errs, err, "--attr word %u 0x%08x (size 0x%02x %s, type %u %s)", i,
                           word, (word >> 21) & 0x3f, maxwell_size_name((word >> 21) & 0x3f),
                           (word >> 27) & 7, maxwell_type_name[(word >> 27) & 7]);
        if (err == VFETCH_EMAXWELL_STREAM_DISABLED && checked && !bad && !at.inactive &&
            !(d->stream_format[at.stream] >> 12 & 1))
            return refusal(errs, err, "--stream word %u 0x%x (ENABLE, bit 12, clear), read by "
                           "--attr word %u 0x%08x", at.stream, d->stream_format[at.stream], i,
                           word);
    }
    if (err == VFETCH_EINVAL) /* the only one the tool can cause: a compact record of nothing */
        return refusal(errs, err, "--attr %.90s (no active attribute%s: the compact record "
                       "would hold nothing; --full gives the 1 KiB record)",
                       attr_text ? attr_text : "(not given)", bmap_given ? " in --bmap" : "");
    return refusal(errs, err, "explain maxwell");
}

/* Each attribute word given: where it reads from and what, or why it is not fetched. */
static void maxwell_print_attributes(FILE *out, const struct vfetch_maxwell_desc *d,
                                     int attributes)
{
    for (int i = 0; i < attributes; i++) {
        struct vfetch_maxwell_attribute at;
        const uint32_t word = d->attribute[i];
        const int bad = vfetch_maxwell_attribute_parse(word, &at);
        fprintf(out, "attribute %2d: 0x%08x ", i, word);
        if (bad) /* outside the Bmap: not fetched, so compile did not refuse it */
            fprintf(out, "size 0x%02x %s, type %u %s: %s\n", (word >> 21) & 0x3f,
                    maxwell_size_name((word >> 21) & 0x3f), (word >> 27) & 7,
                    maxwell_type_name[(word >> 27) & 7], vfetch_strerror(bad));
        else if (at.inactive)
            fprintf(out, "inactive (its slots hold their defaults)\n");
        else
            fprintf(out, "stream %u offset %u: %s %s%s, %u component(s), %u bytes%s\n", at.stream,
                    at.offset, maxwell_size_name(at.size), maxwell_type_name[at.type],
                    at.integer ? " (integers)" : "", at.components, at.bytes,
                    at.swap_r_and_b ? ", R and B swapped" : "");
    }
}

int cmd_explain_maxwell(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a;
    args_begin(&a, "explain maxwell", maxwell_options, argc, argv, out, errs);
    struct vfetch_maxwell_desc d;
    vfetch_maxwell_desc_init(&d);
    int attributes = 0, with_asm = 0, got, n;
    const char *attr_text = NULL;
    while ((got = next_option(&a)) >= FIRST_OPTION_ID) {
        uint32_t words[VFETCH_MAXWELL_ATTRIBUTES];
        switch (got) {
        case MAXWELL_FULL:
            d.layout = VFETCH_MAXWELL_LAYOUT_FULL;
            break;
        case MAXWELL_PER_OP:
            d.path = VFETCH_PATH_PER_OP;
            break;
        case MAXWELL_ASM:
            with_asm = 1;
            break;
        case MAXWELL_DEFAULT:
            if (word_option(&a, &d.attribute_default))
                return 1;
            break;
        case MAXWELL_ATTR:
            if (list_option(&a, words, VFETCH_MAXWELL_ATTRIBUTES, &n))
                return 1;
            memcpy(d.attribute, words, (size_t)n * sizeof words[0]); /* the rest stay inactive */
            attributes = n;
            attr_text = a.val;
            break;
        case MAXWELL_BMAP:
            if (list_option(&a, words, VFETCH_MAXWELL_ATTRIBUTES, &n))
                return 1;
            for (int k = 0; k < n; k++) {
                if (words[k] >= VFETCH_AAM_ATTRIBUTES)
                    return usage_error(errs, a.cmd, "--bmap %.60s: attribute %u does not exist "
                                       "(0..255)", a.val, words[k]);
                vfetch_aam_map_add(&d.input_bmap, words[k]);
            }
            break;
        default: /* --stream, --instance, --frequency: one word per stream */
            if (list_option(&a, words, VFETCH_MAXWELL_STREAMS, &n))
                return 1;
            memcpy(got == MAXWELL_STREAM     ? d.stream_format
                   : got == MAXWELL_INSTANCE ? d.stream_instance
                                             : d.stream_frequency,
                   words, (size_t)n * sizeof words[0]);
            break;
        }
    }
    if (got != ARG_END)
        return args_exit(&a, got);
    /* Compiled before anything is printed: a refusal leaves the output empty. */
    vfetch_maxwell_plan *plan;
    const int err = vfetch_maxwell_compile(&d, &plan);
    if (err)
        return maxwell_refusal(errs, err, &d, attr_text);
    maxwell_print_attributes(out, &d, attributes);
    const vfetch_plan *conv = vfetch_maxwell_plan_converter(plan);
    print_plan(out, conv);
    fprintf(out, "output: %s records, %u bytes per vertex\n",
            d.layout == VFETCH_MAXWELL_LAYOUT_FULL ? "full ISBE" : "compact ISBE",
            vfetch_maxwell_plan_out_stride(plan));
    const struct vfetch_aam_map *bmap = vfetch_maxwell_plan_bmap(plan);
    for (unsigned b = 0; b < VFETCH_AAM_ATTRIBUTES; b++) {
        if (!vfetch_aam_map_has(bmap, b))
            continue;
        const struct vfetch_aam_attribute *row = vfetch_aam_attribute(b);
        const int per_draw = b == VFETCH_AAM_VERTEX_ID || b == VFETCH_AAM_INSTANCE_ID;
        fprintf(out, "  %-28s (%3u) -> slot %3d%s\n", row ? row->name : "?", b,
                vfetch_maxwell_plan_slot(plan, b), per_draw ? " (written per draw)" : "");
    }
    if (d.layout == VFETCH_MAXWELL_LAYOUT_FULL)
        fprintf(out, "  every other slot: its default (SET_ATTRIBUTE_DEFAULT 0x%x)\n",
                d.attribute_default);
    fprintf(out, "hash %016llx\n", (unsigned long long)vfetch_plan_hash(conv));
    print_plan_jit(out, conv, with_asm);
    vfetch_maxwell_plan_free(plan);
    return 0;
}
