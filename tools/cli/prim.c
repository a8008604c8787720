/*
 * `vfetch prim`: the host indices of a GX, R300 or Maxwell draw (include/vfetch/prim.h,
 * docs/prim.md): the primitive and vertex count as operands, a guest index buffer's entries
 * with --indices, printed with the topology the host draws them as.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "vfetch/gx.h"
#include "vfetch/maxwell.h"
#include "vfetch/prim.h"
#include "vfetch/r300.h"

enum {
    PRIM_BASE = FIRST_OPTION_ID,
    PRIM_INDICES,
    PRIM_INDEX_BYTES,
    PRIM_RESTART_INDEX,
    PRIM_RESTART,
    PRIM_EXPAND,
    PRIM_U32,
    PRIM_GUEST_LAST,
    PRIM_HOST_LAST,
    PRIM_BIG_ENDIAN,
    PRIM_RANGE,
    PRIM_NARROWEST,
    PRIM_HOST_FANS,
    PRIM_DROP_INCOMPLETE,
    PRIM_YUZU,
};

static const struct option prim_options[] = {
    { "base", required_argument, NULL, PRIM_BASE },
    { "indices", required_argument, NULL, PRIM_INDICES },
    { "index-bytes", required_argument, NULL, PRIM_INDEX_BYTES },
    { "restart-index", required_argument, NULL, PRIM_RESTART_INDEX },
    { "restart", no_argument, NULL, PRIM_RESTART },
    { "expand", no_argument, NULL, PRIM_EXPAND },
    { "u32", no_argument, NULL, PRIM_U32 },
    { "guest-last", no_argument, NULL, PRIM_GUEST_LAST },
    { "host-last", no_argument, NULL, PRIM_HOST_LAST },
    { "big-endian", no_argument, NULL, PRIM_BIG_ENDIAN },
    { "range", no_argument, NULL, PRIM_RANGE },
    { "narrowest", no_argument, NULL, PRIM_NARROWEST },
    { "host-fans", no_argument, NULL, PRIM_HOST_FANS },
    { "drop-incomplete", no_argument, NULL, PRIM_DROP_INCOMPLETE },
    { "yuzu", no_argument, NULL, PRIM_YUZU },
    OPTIONS_END
};

/* Each front-end's primitives by name (vfetch/prim.h) */
static const struct {
    enum vfetch_prim_frontend frontend;
    const char *name;
    uint32_t primitive;
} prim_names[] = {
    { VFETCH_PRIM_GX, "QUADS", VFETCH_GX_QUADS },
    { VFETCH_PRIM_GX, "QUADS_2", VFETCH_GX_QUADS_2 },
    { VFETCH_PRIM_GX, "TRIANGLES", VFETCH_GX_TRIANGLES },
    { VFETCH_PRIM_GX, "TRIANGLE_STRIP", VFETCH_GX_TRIANGLE_STRIP },
    { VFETCH_PRIM_GX, "TRIANGLE_FAN", VFETCH_GX_TRIANGLE_FAN },
    { VFETCH_PRIM_GX, "LINES", VFETCH_GX_LINES },
    { VFETCH_PRIM_GX, "LINE_STRIP", VFETCH_GX_LINE_STRIP },
    { VFETCH_PRIM_GX, "POINTS", VFETCH_GX_POINTS },
    { VFETCH_PRIM_R300, "POINTS", VFETCH_R300_POINTS },
    { VFETCH_PRIM_R300, "LINES", VFETCH_R300_LINES },
    { VFETCH_PRIM_R300, "LINE_STRIP", VFETCH_R300_LINE_STRIP },
    { VFETCH_PRIM_R300, "TRIANGLES", VFETCH_R300_TRIANGLES },
    { VFETCH_PRIM_R300, "TRIANGLE_FAN", VFETCH_R300_TRIANGLE_FAN },
    { VFETCH_PRIM_R300, "TRIANGLE_STRIP", VFETCH_R300_TRIANGLE_STRIP },
    { VFETCH_PRIM_R300, "LINE_LOOP", VFETCH_R300_LINE_LOOP },
    { VFETCH_PRIM_R300, "QUADS", VFETCH_R300_QUADS },
    { VFETCH_PRIM_R300, "QUAD_STRIP", VFETCH_R300_QUAD_STRIP },
    { VFETCH_PRIM_R300, "POLYGON", VFETCH_R300_POLYGON },
    { VFETCH_PRIM_MAXWELL, "POINTS", VFETCH_MAXWELL_POINTS },
    { VFETCH_PRIM_MAXWELL, "LINES", VFETCH_MAXWELL_LINES },
    { VFETCH_PRIM_MAXWELL, "LINE_LOOP", VFETCH_MAXWELL_LINE_LOOP },
    { VFETCH_PRIM_MAXWELL, "LINE_STRIP", VFETCH_MAXWELL_LINE_STRIP },
    { VFETCH_PRIM_MAXWELL, "TRIANGLES", VFETCH_MAXWELL_TRIANGLES },
    { VFETCH_PRIM_MAXWELL, "TRIANGLE_STRIP", VFETCH_MAXWELL_TRIANGLE_STRIP },
    { VFETCH_PRIM_MAXWELL, "TRIANGLE_FAN", VFETCH_MAXWELL_TRIANGLE_FAN },
    { VFETCH_PRIM_MAXWELL, "QUADS", VFETCH_MAXWELL_QUADS },
    { VFETCH_PRIM_MAXWELL, "QUAD_STRIP", VFETCH_MAXWELL_QUAD_STRIP },
    { VFETCH_PRIM_MAXWELL, "POLYGON", VFETCH_MAXWELL_POLYGON },
    { VFETCH_PRIM_MAXWELL, "LINES_ADJACENCY", VFETCH_MAXWELL_LINES_ADJACENCY },
    { VFETCH_PRIM_MAXWELL, "LINE_STRIP_ADJACENCY", VFETCH_MAXWELL_LINE_STRIP_ADJACENCY },
    { VFETCH_PRIM_MAXWELL, "TRIANGLES_ADJACENCY", VFETCH_MAXWELL_TRIANGLES_ADJACENCY },
    { VFETCH_PRIM_MAXWELL, "TRIANGLE_STRIP_ADJACENCY", VFETCH_MAXWELL_TRIANGLE_STRIP_ADJACENCY },
};
static const char *const prim_frontend_names[] = { "gx", "r300", "maxwell" };
static const char *const topology_names[] = {
    "point list", "line list", "triangle list", "triangle strip", "line list with adjacency",
    "line strip with adjacency", "triangle list with adjacency", "triangle strip with adjacency",
    "triangle fan",
};

int cmd_prim(int argc, char **argv, FILE *out, FILE *errs)
{
    struct args a;
    args_begin(&a, "prim", prim_options, argc, argv, out, errs);
    struct vfetch_prim_desc d;
    vfetch_prim_desc_init(&d);
    const char *operand[3] = { NULL, NULL, NULL };
    int operands = 0, got, entries_n = 0;
    uint32_t base = 0, entries[256], index_bytes = 2;
    while ((got = next_option(&a)) != ARG_END) {
        if (got == ARG_OPERAND && operands < 3) {
            operand[operands++] = a.arg;
            continue;
        }
        if (got < FIRST_OPTION_ID)
            return args_exit(&a, got);
        switch (got) {
        case PRIM_RESTART: d.restart = 1; break;
        case PRIM_EXPAND: d.expand_lines_points = 1; break;
        case PRIM_U32: d.index_type = VFETCH_INDEX_U32; break;
        case PRIM_GUEST_LAST: d.guest_provoking = VFETCH_PROVOKING_LAST; break;
        case PRIM_HOST_LAST: d.host_provoking = VFETCH_PROVOKING_LAST; break;
        case PRIM_BIG_ENDIAN: d.guest_big_endian = 1; break;
        case PRIM_RANGE: d.range = 1; break;
        case PRIM_NARROWEST: d.narrowest = 1, d.index_type = VFETCH_INDEX_U32; break;
        case PRIM_HOST_FANS: d.host_fans = 1; break;
        case PRIM_DROP_INCOMPLETE: d.drop_incomplete = 1; break;
        case PRIM_YUZU: d.yuzu_orders = 1; break;
        case PRIM_INDICES:
            if (list_option(&a, entries, 256, &entries_n))
                return 1;
            break;
        case PRIM_INDEX_BYTES:
            if (word_option(&a, &index_bytes))
                return 1;
            break;
        case PRIM_RESTART_INDEX:
            d.guest_restart = 1;
            if (word_option(&a, &d.guest_restart_index))
                return 1;
            break;
        default: /* PRIM_BASE */
            if (word_option(&a, &base))
                return 1;
            break;
        }
    }
    int frontend = -1;
    for (int f = 0; operands == 3 && f < 3; f++)
        if (!strcmp(operand[0], prim_frontend_names[f]))
            frontend = f;
    if (frontend < 0)
        return usage_error(errs, a.cmd, "prim: it needs gx, r300 or maxwell, a primitive and a "
                           "vertex count");
    d.frontend = (enum vfetch_prim_frontend)frontend;
    int named = 0;
    for (size_t k = 0; k < sizeof prim_names / sizeof prim_names[0]; k++)
        if (prim_names[k].frontend == d.frontend && !strcmp(operand[1], prim_names[k].name))
            d.primitive = prim_names[k].primitive, named = 1;
    if (named)
        ;
    else if (parse_numbers(operand[1], ',', 0xffffffffu, &d.primitive, 1) != 1)
        return usage_error(errs, a.cmd, "prim: %.40s: not a primitive name or command byte",
                           operand[1]);
    uint32_t count;
    if (parse_numbers(operand[2], ',', 0xffffffffu, &count, 1) != 1 || count > 1u << 20)
        return usage_error(errs, a.cmd, "prim: %.40s: not a vertex count of 0..1048576",
                           operand[2]);
    /* an index buffer: the entries in the byte order asked (COUNT of them are read) */
    uint8_t in[256 * 4];
    if (entries_n) {
        if (index_bytes != 1 && index_bytes != 2 && index_bytes != 4)
            return usage_error(errs, a.cmd, "prim: --index-bytes %u: not 1, 2 or 4", index_bytes);
        d.guest_index_bytes = (uint8_t)index_bytes;
        for (int i = 0; i < entries_n; i++)
            for (uint32_t b = 0; b < index_bytes; b++)
                in[i * index_bytes + b] = (uint8_t)(entries[i] >> (d.guest_big_endian
                                                                       ? 8 * (index_bytes - 1 - b)
                                                                       : 8 * b));
    }
    vfetch_prim_plan *plan;
    int err = vfetch_prim_compile(&d, &plan);
    if (err)
        return refusal(errs, err, "prim %s %.40s", operand[0], operand[1]);
    const size_t n = vfetch_prim_index_count(plan, count);
    const size_t width = d.index_type == VFETCH_INDEX_U32 ? 4 : 2;
    void *indices = malloc(n ? n * width : 1);
    if (!indices) {
        vfetch_prim_plan_free(plan);
        return refusal(errs, VFETCH_ENOMEM, "prim: %zu indices", n);
    }
    struct vfetch_prim_run_params p = { .count = count, .base_index = base, .out = indices, .out_capacity = n };
    if (entries_n) {
        p.indices = in;
        p.indices_size = (size_t)entries_n * index_bytes;
    }
    struct vfetch_prim_result r;
    err = vfetch_prim_run(plan, &p, &r);
    if (!err) {
        struct vfetch_prim_plan_info info;
        vfetch_prim_plan_info(plan, &info);
        fprintf(out, "%s: %zu %sindices, drawn as a %s%s\n", operand[1], r.written,
                !d.narrowest ? "" : r.index_bytes == 2 ? "16-bit " : "32-bit ",
                topology_names[info.topology],
                info.restart_index ? " (R: the restart index)" : "");
        const uint32_t restart = r.index_bytes == 4 ? 0xffffffffu : 0xffffu;
        for (size_t i = 0; i < r.written; i++) {
            const uint32_t v = r.index_bytes == 4 ? ((uint32_t *)indices)[i] : ((uint16_t *)indices)[i];
            if (info.restart_index && v == restart)
                fputs(i ? " R" : "R", out);
            else
                fprintf(out, i ? " %u" : "%u", v);
        }
        fputc('\n', out);
        if (entries_n)
            fprintf(out, "entries %u..%u%s\n", r.min_index, r.max_index,
                    d.range ? " (rebased to the base)" : "");
    }
    free(indices);
    vfetch_prim_plan_free(plan);
    return err ? refusal(errs, err, "prim %s %.40s %u at base %u", operand[0], operand[1], count,
                         base)
               : 0;
}
