/*
 * Primitive plans (vfetch/prim.h): a guest primitive and the host's options compiled to a mode
 * and its affine program laid out for the level's kernel; a draw checked (index count, range,
 * room), then written: the groups by the kernel, the tail here, or the whole draw by the
 * reference at the reference level.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "prim/prim_internal.h"

void vfetch_prim_desc_init(struct vfetch_prim_desc *desc)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    desc->frontend = VFETCH_PRIM_GX;
    desc->index_type = VFETCH_INDEX_U16;
}

void vfetch_prim_run_params_init(struct vfetch_prim_run_params *params)
{
    if (params)
        memset(params, 0, sizeof *params);
}

/* A GX draw command's primitive, or -1. QUADS_2 is drawn as QUADS (Dolphin). */
static int gx_kind(uint32_t primitive)
{
    switch (primitive) {
    case VFETCH_GX_QUADS:
    case VFETCH_GX_QUADS_2: return PRIM_QUADS;
    case VFETCH_GX_TRIANGLES: return PRIM_TRIANGLES;
    case VFETCH_GX_TRIANGLE_STRIP: return PRIM_TRIANGLE_STRIP;
    case VFETCH_GX_TRIANGLE_FAN: return PRIM_TRIANGLE_FAN;
    case VFETCH_GX_LINES: return PRIM_LINES;
    case VFETCH_GX_LINE_STRIP: return PRIM_LINE_STRIP;
    case VFETCH_GX_POINTS: return PRIM_POINTS;
    default: return -1;
    }
}

/* An R300 VAP_VF_CNTL PRIM_TYPE, or -1 (none, and the types 7..11 this does not draw). */
static int r300_kind(uint32_t primitive)
{
    switch (primitive) {
    case VFETCH_R300_POINTS: return PRIM_M_POINTS;
    case VFETCH_R300_LINES: return PRIM_M_LINES;
    case VFETCH_R300_LINE_STRIP: return PRIM_M_LINE_STRIP;
    case VFETCH_R300_TRIANGLES: return PRIM_M_TRIANGLES;
    case VFETCH_R300_TRIANGLE_FAN: return PRIM_M_TRIANGLE_FAN;
    case VFETCH_R300_TRIANGLE_STRIP: return PRIM_M_TRIANGLE_STRIP;
    case VFETCH_R300_LINE_LOOP: return PRIM_M_LINE_LOOP;
    case VFETCH_R300_QUADS: return PRIM_M_QUADS;
    case VFETCH_R300_QUAD_STRIP: return PRIM_M_QUAD_STRIP;
    case VFETCH_R300_POLYGON: return PRIM_M_POLYGON;
    default: return -1;
    }
}

/* A Maxwell BEGIN primitive, or -1 (patches). The ten it shares with OpenGL are R300's, in
   Mesa's orders as there; the adjacency primitives pass through. */
static int maxwell_kind(uint32_t primitive)
{
    switch (primitive) {
    case VFETCH_MAXWELL_POINTS: return PRIM_M_POINTS;
    case VFETCH_MAXWELL_LINES: return PRIM_M_LINES;
    case VFETCH_MAXWELL_LINE_LOOP: return PRIM_M_LINE_LOOP;
    case VFETCH_MAXWELL_LINE_STRIP: return PRIM_M_LINE_STRIP;
    case VFETCH_MAXWELL_TRIANGLES: return PRIM_M_TRIANGLES;
    case VFETCH_MAXWELL_TRIANGLE_STRIP: return PRIM_M_TRIANGLE_STRIP;
    case VFETCH_MAXWELL_TRIANGLE_FAN: return PRIM_M_TRIANGLE_FAN;
    case VFETCH_MAXWELL_QUADS: return PRIM_M_QUADS;
    case VFETCH_MAXWELL_QUAD_STRIP: return PRIM_M_QUAD_STRIP;
    case VFETCH_MAXWELL_POLYGON: return PRIM_M_POLYGON;
    case VFETCH_MAXWELL_LINES_ADJACENCY: return PRIM_M_LINES_ADJ;
    case VFETCH_MAXWELL_LINE_STRIP_ADJACENCY: return PRIM_M_LINE_STRIP_ADJ;
    case VFETCH_MAXWELL_TRIANGLES_ADJACENCY: return PRIM_M_TRIANGLES_ADJ;
    case VFETCH_MAXWELL_TRIANGLE_STRIP_ADJACENCY: return PRIM_M_TRIANGLE_STRIP_ADJ;
    default: return -1;
    }
}

static enum vfetch_prim_topology topology_of(const struct prim_mode *m)
{
    const int same = m->pv_in_last == m->pv_out_last;
    switch (m->kind) { /* adjacency: as the guest's, a line strip a list where it must be */
    case PRIM_M_LINES_ADJ: return VFETCH_TOPOLOGY_LINE_LIST_ADJACENCY;
    case PRIM_M_LINE_STRIP_ADJ:
        return same ? VFETCH_TOPOLOGY_LINE_STRIP_ADJACENCY : VFETCH_TOPOLOGY_LINE_LIST_ADJACENCY;
    case PRIM_M_TRIANGLES_ADJ: return VFETCH_TOPOLOGY_TRIANGLE_LIST_ADJACENCY;
    case PRIM_M_TRIANGLE_STRIP_ADJ: return VFETCH_TOPOLOGY_TRIANGLE_STRIP_ADJACENCY;
    case PRIM_M_FAN_AS_IS: return VFETCH_TOPOLOGY_TRIANGLE_FAN;
    default: break;
    }
    if (m->kind >= PRIM_M_POINTS) /* Mesa's: lists */
        return m->kind == PRIM_M_POINTS                                ? VFETCH_TOPOLOGY_POINT_LIST
               : m->kind >= PRIM_M_LINES && m->kind <= PRIM_M_LINE_LOOP ? VFETCH_TOPOLOGY_LINE_LIST
                                                                        : VFETCH_TOPOLOGY_TRIANGLE_LIST;
    const int triangles = m->kind <= PRIM_TRIANGLE_FAN || m->expand;
    if (triangles)
        return m->restart ? VFETCH_TOPOLOGY_TRIANGLE_STRIP : VFETCH_TOPOLOGY_TRIANGLE_LIST;
    return m->kind == PRIM_POINTS ? VFETCH_TOPOLOGY_POINT_LIST : VFETCH_TOPOLOGY_LINE_LIST;
}

/* The program's vectors for a kernel of `lanes` indices a vector of `bytes` bytes each. */
static void lay_out(const struct prim_program *p, uint32_t restart_index, int wide,
                    uint32_t lanes, struct prim_vectors *v)
{
    memset(v, 0, sizeof *v);
    v->per_group = p->per_group;
    v->lanes = lanes;
    for (uint32_t k = 0; k < p->per_group; k++)
        for (uint32_t l = 0; l < lanes; l++) {
            const uint32_t flat = k * lanes + l, g = flat / p->per_group, j = flat % p->per_group;
            const int restart = p->restart_lanes >> j & 1;
            const uint32_t first = restart ? restart_index : (uint32_t)(p->start[j] + (int32_t)g * p->step[j]);
            const uint32_t step = restart ? 0 : (uint32_t)p->step[j] * lanes;
            const uint32_t takes = restart ? 0 : 0xffffffffu;
            if (wide) {
                memcpy(&v->first[4 * flat], &first, 4);
                memcpy(&v->step[4 * flat], &step, 4);
                memcpy(&v->takes_base[4 * flat], &takes, 4);
            } else {
                const uint16_t f = (uint16_t)first, s = (uint16_t)step, t = (uint16_t)takes;
                memcpy(&v->first[2 * flat], &f, 2);
                memcpy(&v->step[2 * flat], &s, 2);
                memcpy(&v->takes_base[2 * flat], &t, 2);
            }
        }
}

/* The plan's draw shape, as vfetch_prim_groups and prim_tail would compute it (checkasm
   compares every count's result with the reference). */
static void shape_of(struct vfetch_prim_plan *plan)
{
    static const uint64_t magic[5] = { 0, 1ull << 33, 1ull << 32, 2863311531ull, 1ull << 31 };
    const struct prim_mode *m = &plan->mode;
    uint32_t min = 0, off = 0, div = 1, vertices = 0;
    switch (m->kind) {
    case PRIM_QUADS: div = vertices = 4; plan->tail_varies = (uint8_t)!m->drop; break;
    case PRIM_TRIANGLES: div = vertices = 3; break;
    case PRIM_TRIANGLE_STRIP:
        if (m->restart)
            plan->restart_tail = 1, min = m->drop ? 3 : 0;
        else
            min = 3, off = 2, div = 2, plan->tail_varies = 1;
        break;
    case PRIM_TRIANGLE_FAN:
        min = 3, off = 2, div = m->restart ? 3 : 1;
        plan->tail_varies = (uint8_t)m->restart;
        break;
    case PRIM_LINES: div = vertices = 2; break;
    case PRIM_LINE_STRIP: min = 2, off = 1; break;
    case PRIM_M_LINES: div = vertices = 2; break;
    case PRIM_M_LINE_STRIP: min = 2, off = 1; break;
    case PRIM_M_TRIANGLES: div = vertices = 3; break;
    case PRIM_M_TRIANGLE_FAN:
    case PRIM_M_POLYGON: min = 3, off = 2; break;
    case PRIM_M_QUADS: div = vertices = 4; break;
    case PRIM_M_QUAD_STRIP: min = 4, off = 2, div = 2; break;
    case PRIM_M_LINES_ADJ: div = vertices = 4; break;
    case PRIM_M_FAN_AS_IS: min = 3; break;
    case PRIM_M_LINE_STRIP_ADJ:
        if (m->pv_in_last == m->pv_out_last)
            min = 4; /* the strip as it is: count indices */
        else
            min = 4, off = 3;
        break;
    case PRIM_M_LINE_LOOP:
    case PRIM_M_TRIANGLE_STRIP:
    case PRIM_M_TRIANGLES_ADJ:       /* (groups of six: the general way divides) */
    case PRIM_M_TRIANGLE_STRIP_ADJ: /* (an odd count trimmed) */
        plan->tail_varies = 1;
        break;
    default: break;
    }
    plan->group_min = min;
    plan->group_off = off;
    plan->group_magic = magic[div];
    plan->group_vertices = vertices;
    plan->limit = (m->wide ? 0xffffffffu : 0xffffu) - (m->restart ? 1u : 0u);
}

static void tiny_of(struct vfetch_prim_plan *plan);

/* An index buffer's plan: its format, and how its draws are written (lib/prim/indexed.c). */
static void guest_of(struct vfetch_prim_plan *plan, const struct vfetch_prim_desc *desc)
{
    const struct prim_program *p = &plan->program;
    plan->guest = (struct prim_guest){
        .bytes = desc->guest_index_bytes,
        .big = desc->guest_big_endian != 0 && desc->guest_index_bytes > 1,
        .restart = desc->guest_restart != 0,
        .restart_index = desc->guest_restart_index,
    };
    plan->range = desc->range != 0;
    int identity = p->scale == 1 && !p->restart_lanes;
    for (uint32_t j = 0; j < p->per_group; j++)
        identity &= p->start[j] == (int32_t)j && p->step[j] == (int32_t)p->per_group;
    plan->identity = (uint8_t)identity;
    /* the strips drawn as they are keep their restart entries, as the host's */
    const enum prim_kind k = plan->mode.kind;
    plan->pass_restart = plan->guest.restart &&
                         (plan->topology == VFETCH_TOPOLOGY_LINE_STRIP_ADJACENCY ||
                          k == PRIM_M_TRIANGLE_STRIP_ADJ || k == PRIM_M_FAN_AS_IS);
}

int vfetch_prim_compile(const struct vfetch_prim_desc *desc, vfetch_prim_plan **out_plan)
{
    if (!desc || !out_plan)
        return VFETCH_EINVAL;
    if ((unsigned)desc->frontend > VFETCH_PRIM_MAXWELL ||
        (desc->index_type != VFETCH_INDEX_U16 && desc->index_type != VFETCH_INDEX_U32) ||
        (unsigned)desc->guest_provoking > VFETCH_PROVOKING_LAST ||
        (unsigned)desc->host_provoking > VFETCH_PROVOKING_LAST ||
        (desc->guest_index_bytes != 0 && desc->guest_index_bytes != 1 &&
         desc->guest_index_bytes != 2 && desc->guest_index_bytes != 4) ||
        (desc->guest_index_bytes && desc->frontend == VFETCH_PRIM_GX))
        return VFETCH_EINVAL;
    /* R300 and Maxwell: Mesa's lists */
    const int mesa = desc->frontend != VFETCH_PRIM_GX;
    int kind = desc->frontend == VFETCH_PRIM_R300      ? r300_kind(desc->primitive)
               : desc->frontend == VFETCH_PRIM_MAXWELL ? maxwell_kind(desc->primitive)
                                                       : gx_kind(desc->primitive);
    /* yuzu's orders (Maxwell): its quads, quad strips, fans and polygons whatever the
       provoking vertex, a polygon drawn as a fan where the host has them */
    const int yuzu = desc->yuzu_orders && desc->frontend == VFETCH_PRIM_MAXWELL &&
                     (kind == PRIM_M_QUADS || kind == PRIM_M_QUAD_STRIP ||
                      kind == PRIM_M_TRIANGLE_FAN || kind == PRIM_M_POLYGON);
    /* a fan the host draws passes through where it provokes as the guest's does */
    if (desc->host_fans && (kind == PRIM_M_TRIANGLE_FAN || (yuzu && kind == PRIM_M_POLYGON)) &&
        (yuzu || desc->guest_provoking == desc->host_provoking))
        kind = PRIM_M_FAN_AS_IS;
    /* Mesa converts a triangle strip with adjacency between conventions by naming vertices
       past the draw's ends: not done, the strip passes through only as it is */
    if (kind < 0 || (kind == PRIM_M_TRIANGLE_STRIP_ADJ && desc->guest_provoking != desc->host_provoking))
        return VFETCH_EPRIM_TYPE;
    struct vfetch_prim_plan *plan = aligned_alloc(64, sizeof *plan);
    if (!plan)
        return VFETCH_ENOMEM;
    memset(plan, 0, sizeof *plan);
    plan->desc = *desc;
    if (desc->narrowest && desc->index_type == VFETCH_INDEX_U32) {
        /* the 16-bit twin each draw tries first */
        struct vfetch_prim_desc narrow = *desc;
        narrow.index_type = VFETCH_INDEX_U16;
        narrow.narrowest = 0;
        const int err = vfetch_prim_compile(&narrow, &plan->narrow);
        if (err) {
            free(plan);
            return err;
        }
    }
    plan->mode = (struct prim_mode){
        .kind = (enum prim_kind)kind,
        /* Mesa's lists take no restart; expansion changes GX's lines and points only */
        .restart = desc->restart != 0 && !mesa,
        .expand = desc->expand_lines_points != 0 && kind >= PRIM_LINES && !mesa,
        .wide = desc->index_type == VFETCH_INDEX_U32,
        .pv_in_last = mesa && !yuzu && desc->guest_provoking == VFETCH_PROVOKING_LAST,
        .pv_out_last = mesa && !yuzu && desc->host_provoking == VFETCH_PROVOKING_LAST,
        .drop = desc->drop_incomplete != 0 && !mesa,
        .yuzu = yuzu,
    };
    plan->topology = topology_of(&plan->mode);
    plan->index_bytes = plan->mode.wide ? 4 : 2;
    vfetch_prim_program(&plan->mode, &plan->program);
    if (desc->guest_index_bytes)
        guest_of(plan, desc);
    plan->restart_index = !plan->mode.restart && !plan->pass_restart ? 0
                          : plan->mode.wide                          ? 0xffffffffu
                                                                     : 0xffffu;
    struct vfetch_prim_dsp dsp;
    vfetch_prim_dsp_init(&dsp, vfetch_cpu_allowed());
    plan->scan = dsp.scan ? dsp.scan : vfetch_prim_scan_ref;
    plan->find = dsp.find ? dsp.find : vfetch_prim_find_ref;
    plan->convert = dsp.convert;
    shape_of(plan);
    plan->blocks = plan->mode.wide ? dsp.blocks32 : dsp.blocks16;
    plan->small = dsp.small;
    plan->level = plan->blocks ? dsp.level : "c";
    if (plan->blocks)
        lay_out(&plan->program, plan->mode.wide ? plan->restart_index : (uint16_t)plan->restart_index,
                plan->mode.wide, dsp.vec_bytes / (plan->mode.wide ? 4 : 2), &plan->vectors);
    tiny_of(plan);
    *out_plan = plan;
    return VFETCH_OK;
}

void vfetch_prim_plan_free(vfetch_prim_plan *plan)
{
    if (plan)
        free(plan->narrow);
    free(plan);
}

int vfetch_prim_plan_info(const vfetch_prim_plan *plan, struct vfetch_prim_plan_info *info)
{
    if (!plan || !info)
        return VFETCH_EINVAL;
    memset(info, 0, sizeof *info);
    info->topology = plan->topology;
    info->index_bytes = plan->mode.wide ? 4 : 2;
    info->restart_index = plan->restart_index;
    info->expanded = (uint32_t)plan->mode.expand;
    info->level = plan->level;
    return VFETCH_OK;
}

/*
 * The indices after the last whole group (group `groups`) into v (at most 5), their number:
 * QUADS: three vertices left draw one triangle; a strip with restart ends with the restart
 * index; a strip without, an odd triangle count's last triangle; a fan with restart, the two
 * or one triangles past its strips of three.
 */
static inline size_t prim_tail(const struct prim_mode *m, uint32_t count, uint64_t groups,
                               uint64_t base, uint32_t restart_index, uint64_t v[5])
{
    size_t n = 0;
    const uint64_t b = base, c = count;
    switch (m->kind) {
    case PRIM_QUADS:
        if (c % 4 == 3 && !m->drop) {
            v[n++] = b + c - 3;
            v[n++] = b + c - 2;
            v[n++] = b + c - 1;
            if (m->restart)
                v[n++] = restart_index;
        }
        break;
    case PRIM_TRIANGLE_STRIP:
        if (m->restart) {
            if (!m->drop || c >= 3)
                v[n++] = restart_index;
        } else if (c >= 3 && (c - 2) % 2) {
            const uint64_t k = b + 2 * groups;
            v[n++] = k;
            v[n++] = k + 1;
            v[n++] = k + 2;
        }
        break;
    case PRIM_TRIANGLE_FAN:
        if (m->restart && c >= 3) {
            const uint64_t t = c - 2, k = 3 * groups;
            if (t - k == 2) {
                v[n++] = b + k + 1;
                v[n++] = b + k + 2;
                v[n++] = b;
                v[n++] = b + k + 3;
                v[n++] = restart_index;
            } else if (t - k == 1) {
                v[n++] = b;
                v[n++] = b + k + 1;
                v[n++] = b + k + 2;
                v[n++] = restart_index;
            }
        }
        break;
    case PRIM_M_LINE_LOOP: { /* closed: the last vertex back to the first */
        const uint64_t t = vfetch_prim_mesa_trim(m->kind, count);
        if (t) {
            const int same = m->pv_in_last == m->pv_out_last;
            v[n++] = same ? b + t - 1 : b;
            v[n++] = same ? b : b + t - 1;
        }
        break;
    }
    case PRIM_M_TRIANGLE_STRIP: { /* an odd triangle count's last triangle, from an even vertex */
        const uint64_t t = vfetch_prim_mesa_trim(m->kind, count);
        if (t && (t - 2) % 2) {
            const uint64_t i = b + 2 * groups, a[3] = { i, i + 1, i + 2 };
            const unsigned first = m->pv_in_last == m->pv_out_last ? 0 : !m->pv_in_last ? 1 : 2;
            for (unsigned j = 0; j < 3; j++)
                v[n++] = a[(first + j) % 3];
        }
        break;
    }
    default: break;
    }
    return n;
}

/* Indices of a draw, in 64 bits (groups times their size plus the tail's); a strip that keeps
   its restart entries passes every entry. */
uint64_t vfetch_prim_plan_count(const vfetch_prim_plan *plan, uint32_t count)
{
    if (plan->pass_restart)
        return count;
    uint64_t tail[5];
    const uint64_t groups = vfetch_prim_groups(&plan->mode, count);
    return groups * plan->program.per_group +
           prim_tail(&plan->mode, count, groups, 0, 0, tail);
}

size_t vfetch_prim_index_count(const vfetch_prim_plan *plan, uint32_t count)
{
    if (!plan)
        return 0;
    const uint64_t n = vfetch_prim_plan_count(plan, count);
    return n > SIZE_MAX ? SIZE_MAX : (size_t)n;
}

/* The highest vertex (from 0) a draw's indices name, or -1 where it writes no vertex index. */
static int64_t last_vertex(const struct prim_mode *m, uint32_t count)
{
    if (m->kind >= PRIM_M_POINTS) /* R300, Maxwell: every vertex Mesa's trimming keeps */
        return (int64_t)vfetch_prim_mesa_trim(m->kind, count) - 1;
    const int64_t n = count;
    switch (m->kind) {
    case PRIM_QUADS: return n % 4 == 3 && !m->drop ? n - 1 : 4 * (n / 4) - 1;
    case PRIM_TRIANGLES: return 3 * (n / 3) - 1;
    case PRIM_TRIANGLE_STRIP: return n >= 3 || (m->restart && !m->drop) ? n - 1 : -1;
    case PRIM_TRIANGLE_FAN: return n >= 3 ? n - 1 : -1;
    case PRIM_LINES: return 2 * (n / 2) - 1;
    case PRIM_LINE_STRIP: return n >= 2 ? n - 1 : -1;
    default: return n - 1;
    }
}

static int run_general(const vfetch_prim_plan *plan, const struct vfetch_prim_run_params *params,
                       struct vfetch_prim_result *result);

/* The tiny way's table: each count below PRIM_TINY as the small kernel's first indices and the
   tail the general way writes, kept where that is the reference's draw at base 0 (a draw is
   affine in its base: the tiny way adds it; Mesa's strips from an odd base are not, and do
   not take this way). */
static void tiny_of(struct vfetch_prim_plan *plan)
{
    const struct prim_mode *m = &plan->mode;
    const size_t width = plan->index_bytes;
    const uint32_t r = plan->restart_index;
    plan->odd_base = m->kind == PRIM_M_TRIANGLE_STRIP;
    for (uint32_t c = 0; c < PRIM_TINY; c++) {
        struct prim_tiny *t = &plan->tiny[c];
        memset(t, 0, sizeof *t);
        t->top = PRIM_TINY_NONE;
        const int64_t last = last_vertex(m, c);
        const uint64_t groups = vfetch_prim_groups(m, c), body = groups * plan->program.per_group;
        if (!plan->small || plan->guest.bytes || last < 0 ||
            body > (uint64_t)plan->vectors.lanes * plan->program.per_group)
            continue;
        uint64_t tail[5];
        const size_t tail_n = prim_tail(m, c, groups, 0, r, tail);
        uint8_t want[(6 * PRIM_TINY + 8) * 4], got[(6 * PRIM_TINY + 8) * 4];
        if (vfetch_prim_ref(m, c, 0, want) != body + tail_n)
            continue;
        memcpy(got, plan->vectors.first, (size_t)body * width);
        uint8_t takes = 0;
        for (size_t i = 0; i < tail_n; i++) {
            const uint32_t v = (uint32_t)tail[i];
            takes |= (uint8_t)(!(r && v == r) << i);
            t->tail[i] = v;
            if (width == 4)
                memcpy(got + (body + i) * 4, &v, 4);
            else
                memcpy(got + (body + i) * 2, &(uint16_t){ (uint16_t)v }, 2);
        }
        if (memcmp(got, want, (size_t)(body + tail_n) * width))
            continue;
        t->body = (uint16_t)body;
        t->tail_n = (uint8_t)tail_n;
        t->tail_takes = takes;
        t->top = plan->program.scale * (uint64_t)last + plan->program.scale - 1;
    }
}

/* A draw's result without a guest index buffer (its range 0 and 0), field by field: the
   compiler merges the stores (a compound literal would zero the padding too). */
static inline void set_result(struct vfetch_prim_result *result, size_t written, uint32_t index_bytes)
{
    result->written = written;
    result->min_index = 0;
    result->max_index = 0;
    result->index_bytes = index_bytes;
}

/* The tiny way of a count with a tail: the tail, then the small kernel. Out of line, so that
   the way itself is a leaf that ends in a kernel (no saved registers). */
static __attribute__((noinline)) int tiny_with_tail(const vfetch_prim_plan *plan,
                                                    const struct prim_tiny *t, uint32_t base,
                                                    void *out)
{
    for (size_t i = 0; i < t->tail_n; i++) {
        const uint32_t v = t->tail[i] + (t->tail_takes >> i & 1 ? base : 0);
        if (plan->index_bytes == 4)
            ((uint32_t *)out)[t->body + i] = v;
        else
            ((uint16_t *)out)[t->body + i] = (uint16_t)v;
    }
    return plan->small(&plan->vectors, base, t->body, plan->mode.wide, out);
}

/* The tiny way: a draw of fewer than PRIM_TINY vertices from its count's table entry, ending
   in the small kernel; the general way where the entry has none or a check fails. */
static inline int run_tiny(const vfetch_prim_plan *plan, const struct vfetch_prim_run_params *p,
                           struct vfetch_prim_result *result)
{
    const struct prim_tiny *t = &plan->tiny[p->count];
    void *out = p->out;
    const size_t total = (size_t)t->body + t->tail_n;
    const uint32_t scale = plan->program.scale;
    if (!out || ((uintptr_t)out & (plan->index_bytes - 1)) || total > p->out_capacity ||
        (uint64_t)p->base_index * scale + t->top > plan->limit || (p->base_index & plan->odd_base))
        return run_general(plan, p, result);
    const uint32_t base = scale * p->base_index;
    if (result)
        set_result(result, total, plan->index_bytes);
    if (t->tail_n)
        return tiny_with_tail(plan, t, base, out);
    return plan->small(&plan->vectors, base, t->body, plan->mode.wide, out);
}

/* The short way: a draw with a kernel, no tail or the restart index alone (QUADS of a whole
   number of quads), that passes every check, ending in the kernel; the general way runs the
   rest (and reports). */
static __attribute__((noinline)) int run_short(const vfetch_prim_plan *plan,
                                               const struct vfetch_prim_run_params *p,
                            struct vfetch_prim_result *result)
{
    const uint32_t n = p->count;
    if (!plan->blocks || (plan->tail_varies && (plan->mode.kind != PRIM_QUADS || (n & 3) == 3)))
        return run_general(plan, p, result);
    const uint64_t groups = n >= plan->group_min ? (uint64_t)(n - plan->group_off) * plan->group_magic >> 33 : 0;
    const uint64_t body = groups * plan->program.per_group, total = body + plan->restart_tail;
    const size_t width = plan->index_bytes;
    if (!groups || !p->out || ((uintptr_t)p->out & (width - 1)) || total > p->out_capacity)
        return run_general(plan, p, result);
    const uint64_t last = plan->group_vertices ? groups * plan->group_vertices - 1 : n - 1;
    const uint64_t highest = plan->program.scale * ((uint64_t)p->base_index + last) +
                             (plan->program.scale - 1);
    if (highest > plan->limit)
        return run_general(plan, p, result);
    const uint32_t base = plan->program.scale * p->base_index;
    if (plan->restart_tail) {
        if (plan->mode.wide)
            ((uint32_t *)p->out)[body] = plan->restart_index;
        else
            ((uint16_t *)p->out)[body] = (uint16_t)plan->restart_index;
    }
    if (result)
        set_result(result, (size_t)total, (uint32_t)width);
    if (groups < plan->vectors.lanes)
        return plan->small(&plan->vectors, base, (size_t)body, plan->mode.wide, p->out);
    return plan->blocks(&plan->vectors, base, (size_t)groups, p->out);
}

/* A draw at the plan's own width: an index buffer's way, the general way for indices given to
   a plan without one (it refuses them), else the tiny or the short way. */
static inline int run_at_width(const vfetch_prim_plan *plan,
                               const struct vfetch_prim_run_params *params,
                               struct vfetch_prim_result *result)
{
    if ((uintptr_t)plan->guest.bytes | (uintptr_t)params->indices)
        return plan->guest.bytes ? vfetch_prim_run_indexed(plan, params, result)
                                 : run_general(plan, params, result);
    return params->count < PRIM_TINY ? run_tiny(plan, params, result) : run_short(plan, params, result);
}

/* A narrowest plan: its 16-bit twin where the draw's indices fit it (the twin refuses the
   rest with VFETCH_EPRIM_INDEX_RANGE, writing nothing), else the widest, which also reports
   an `out` not aligned for it. */
static __attribute__((noinline)) int run_narrowest(const vfetch_prim_plan *plan,
                                                   const struct vfetch_prim_run_params *params,
                                                   struct vfetch_prim_result *result)
{
    if (!((uintptr_t)params->out & 3)) {
        const int err = run_at_width(plan->narrow, params, result);
        if (err != VFETCH_EPRIM_INDEX_RANGE)
            return err;
    }
    return run_at_width(plan, params, result);
}

int vfetch_prim_run(const vfetch_prim_plan *plan, const struct vfetch_prim_run_params *params,
                    struct vfetch_prim_result *result)
{
    if (!plan || !params)
        return VFETCH_EINVAL;
    return plan->narrow ? run_narrowest(plan, params, result) : run_at_width(plan, params, result);
}

/* Every other draw: checked in order, then written (the tail by the C above). */
static __attribute__((noinline)) int run_general(const vfetch_prim_plan *plan,
                                                 const struct vfetch_prim_run_params *params,
                                                 struct vfetch_prim_result *result)
{
    const struct prim_mode *m = &plan->mode;
    const uint32_t count = params->count;
    const uint64_t groups = vfetch_prim_groups(m, count);
    uint64_t tail[5];
    const size_t tail_n = prim_tail(m, count, groups, params->base_index, plan->restart_index, tail);
    const uint64_t body = groups * plan->program.per_group, total = body + tail_n;
    const size_t width = plan->index_bytes;
    if ((total && (!params->out || ((uintptr_t)params->out & (width - 1)))) || params->indices)
        return VFETCH_EINVAL;
    if (sizeof(size_t) < 8 && total > SIZE_MAX / width) /* 32-bit hosts only */
        return VFETCH_EOVERFLOW;
    /* the highest index written must fit the width, below the restart index where there is one */
    const int64_t last = last_vertex(m, count);
    if (last >= 0) {
        const uint64_t vertex = (uint64_t)params->base_index + (uint64_t)last;
        const uint64_t highest = m->expand ? 4 * vertex + 3 : vertex;
        const uint64_t limit = m->wide ? 0xffffffffu : 0xffffu;
        if (highest > limit || (m->restart && highest == limit))
            return VFETCH_EPRIM_INDEX_RANGE;
    }
    if (total > params->out_capacity)
        return VFETCH_ESHORT_OUTPUT;
    /* (Mesa-order triangle strips take their triangles' parity from the absolute vertex number:
       from an odd first vertex the groups of the kernel do not fit, the reference runs) */
    if (!plan->blocks || (m->kind == PRIM_M_TRIANGLE_STRIP && params->base_index % 2)) {
        vfetch_prim_ref(m, count, params->base_index, params->out);
    } else {
        const uint32_t base = plan->program.scale * params->base_index; /* fits: checked */
        if (groups < plan->vectors.lanes) { /* within the first block: short draws */
            if (body)
                plan->small(&plan->vectors, base, (size_t)body, m->wide, params->out);
        } else
            plan->blocks(&plan->vectors, base, (size_t)groups, params->out);
        if (m->wide)
            for (size_t i = 0; i < tail_n; i++)
                ((uint32_t *)params->out)[body + i] = (uint32_t)tail[i];
        else
            for (size_t i = 0; i < tail_n; i++)
                ((uint16_t *)params->out)[body + i] = (uint16_t)tail[i];
    }
    if (result)
        set_result(result, (size_t)total, (uint32_t)width);
    return VFETCH_OK;
}
