/*
 * The fast path's description of each primitive: a run of groups of one pattern, affine in the
 * group number (struct prim_program), and a short tail. A level's kernel writes the groups a
 * block of vectors at a time (lib/simd/prim_tmpl.c); the tail and the groups past the last
 * whole block are written here, one index at a time. Checked against the reference
 * (lib/prim/ref.c) at every level, every count to 1,024 (checkasm --kernel prim).
 */
#include <string.h>

#include "prim/prim_internal.h"

/* A pattern: indices per group, their starts and steps (relative to scale * base), and the
   lanes that hold the restart index. */
static void pattern(struct prim_program *p, uint32_t scale, uint32_t n, const int32_t *start,
                    const int32_t *step, uint32_t restart_lanes)
{
    memset(p, 0, sizeof *p);
    p->per_group = n;
    p->scale = scale;
    p->restart_lanes = restart_lanes;
    for (uint32_t j = 0; j < n; j++) {
        p->start[j] = start[j];
        p->step[j] = step[j];
    }
}

/* Mesa's triangle (three lanes: starts and steps) with the provoking vertex converted:
   as it is, (v1, v2, v0) from first to last, (v2, v0, v1) from last to first. */
static void mesa_tri(const struct prim_mode *m, int32_t *start, int32_t *step, int32_t a0,
                     int32_t s0, int32_t a1, int32_t s1, int32_t a2, int32_t s2)
{
    const int32_t a[3] = { a0, a1, a2 }, st[3] = { s0, s1, s2 };
    const unsigned first = m->pv_in_last == m->pv_out_last ? 0 : !m->pv_in_last ? 1 : 2;
    for (unsigned j = 0; j < 3; j++) {
        start[j] = a[(first + j) % 3];
        step[j] = st[(first + j) % 3];
    }
}

/* R300's and Maxwell's primitives in Mesa's orders (lib/prim/ref.c): a triangle strip's groups are two
   triangles from an even vertex (a draw from an odd one runs the reference). */
static void mesa_program(const struct prim_mode *m, struct prim_program *p)
{
    int32_t start[PRIM_GROUP_MAX] = { 0 }, step[PRIM_GROUP_MAX] = { 0 };
    uint32_t n = 3;
    const int same = m->pv_in_last == m->pv_out_last;
    switch (m->kind) {
    case PRIM_M_POINTS:
        n = 1, step[0] = 1;
        break;
    case PRIM_M_LINES:
    case PRIM_M_LINE_STRIP:
    case PRIM_M_LINE_LOOP: {
        const int32_t advance = m->kind == PRIM_M_LINES ? 2 : 1;
        n = 2;
        start[0] = same ? 0 : 1;
        start[1] = same ? 1 : 0;
        step[0] = step[1] = advance;
        break;
    }
    case PRIM_M_TRIANGLES:
        mesa_tri(m, start, step, 0, 3, 1, 3, 2, 3);
        break;
    case PRIM_M_TRIANGLE_STRIP:
        n = 6;
        mesa_tri(m, start, step, 0, 2, 1, 2, 2, 2);
        if (m->pv_in_last)
            mesa_tri(m, start + 3, step + 3, 2, 2, 1, 2, 3, 2);
        else
            mesa_tri(m, start + 3, step + 3, 1, 2, 3, 2, 2, 2);
        break;
    case PRIM_M_TRIANGLE_FAN:
    case PRIM_M_POLYGON: /* the draw's first vertex: start 0, step 0 */
        if (m->pv_in_last == (m->kind == PRIM_M_TRIANGLE_FAN))
            mesa_tri(m, start, step, 0, 0, 1, 1, 2, 1);
        else
            mesa_tri(m, start, step, 1, 1, 2, 1, 0, 0);
        break;
    case PRIM_M_QUADS:
    case PRIM_M_QUAD_STRIP: {
        /* the quad's corners, then two triangles of them as ref.c's put_quad_tris */
        const int32_t adv = m->kind == PRIM_M_QUADS ? 4 : 2;
        int32_t q[4] = { 0, 1, 2, 3 };
        if (m->kind == PRIM_M_QUAD_STRIP && m->yuzu) { /* (c0 c3 c1) (c0 c2 c3) */
            static const int32_t yuzu[6] = { 0, 3, 1, 0, 2, 3 };
            n = 6;
            for (int j = 0; j < 6; j++)
                start[j] = yuzu[j], step[j] = 2;
            break;
        }
        if (m->kind == PRIM_M_QUAD_STRIP) {
            static const int32_t last[4] = { 2, 0, 1, 3 }, first[4] = { 0, 1, 3, 2 };
            memcpy(q, m->pv_in_last ? last : first, sizeof q);
        }
        n = 6;
        if (m->pv_in_last) {
            mesa_tri(m, start, step, q[0], adv, q[1], adv, q[3], adv);
            mesa_tri(m, start + 3, step + 3, q[1], adv, q[2], adv, q[3], adv);
        } else {
            mesa_tri(m, start, step, q[0], adv, q[1], adv, q[2], adv);
            mesa_tri(m, start + 3, step + 3, q[0], adv, q[2], adv, q[3], adv);
        }
        break;
    }
    case PRIM_M_LINES_ADJ:
    case PRIM_M_LINE_STRIP_ADJ:
        if (m->kind == PRIM_M_LINE_STRIP_ADJ && same) { /* the strip as it is */
            n = 1, step[0] = 1;
            break;
        }
        n = 4; /* a list: each line's four vertices, reversed where the conventions differ */
        for (int32_t j = 0; j < 4; j++) {
            start[j] = same ? j : 3 - j;
            step[j] = m->kind == PRIM_M_LINES_ADJ ? 4 : 1;
        }
        break;
    case PRIM_M_TRIANGLES_ADJ:
        n = 6;
        for (int32_t j = 0; j < 6; j++) {
            start[j] = same ? j : (j + 4) % 6;
            step[j] = 6;
        }
        break;
    case PRIM_M_TRIANGLE_STRIP_ADJ:
    case PRIM_M_FAN_AS_IS:
        n = 1, step[0] = 1;
        break;
    default: break;
    }
    pattern(p, 1, n, start, step, 0);
}

void vfetch_prim_program(const struct prim_mode *m, struct prim_program *p)
{
    if (m->kind >= PRIM_M_POINTS) {
        mesa_program(m, p);
        return;
    }
    const int r = m->restart;
    switch (m->kind) {
    case PRIM_QUADS: {
        static const int32_t strip[] = { 1, 2, 0, 3, 0 }, list[] = { 0, 1, 2, 0, 2, 3 },
                             step[] = { 4, 4, 4, 4, 4, 4 };
        if (r)
            pattern(p, 1, 5, strip, step, 1u << 4);
        else
            pattern(p, 1, 6, list, step, 0);
        break;
    }
    case PRIM_TRIANGLES: {
        static const int32_t start[] = { 0, 1, 2, 0 }, step[] = { 3, 3, 3, 3 };
        pattern(p, 1, r ? 4 : 3, start, step, r ? 1u << 3 : 0);
        break;
    }
    case PRIM_TRIANGLE_STRIP: {
        /* with restart the vertices themselves; without, two triangles a group */
        static const int32_t iota[] = { 0 }, one[] = { 1 };
        static const int32_t pair[] = { 0, 1, 2, 1, 3, 2 }, step[] = { 2, 2, 2, 2, 2, 2 };
        if (r)
            pattern(p, 1, 1, iota, one, 0);
        else
            pattern(p, 1, 6, pair, step, 0);
        break;
    }
    case PRIM_TRIANGLE_FAN: {
        /* (b, b+k+1, b+k+2): the first index stays b; with restart three triangles a strip */
        static const int32_t list[] = { 0, 1, 2 }, list_step[] = { 0, 1, 1 };
        static const int32_t strip[] = { 1, 2, 0, 3, 4, 0 }, strip_step[] = { 3, 3, 0, 3, 3, 0 };
        if (r)
            pattern(p, 1, 6, strip, strip_step, 1u << 5);
        else
            pattern(p, 1, 3, list, list_step, 0);
        break;
    }
    case PRIM_LINES:
    case PRIM_LINE_STRIP:
    case PRIM_POINTS: {
        /* a line from v to w (LINES: w = v + 1, v = b + 2i; LINE_STRIP: v = b + i; POINTS: w =
           v): expanded, corners 0 and 1 of v, 2 and 3 of w, in units of vertex * 4 */
        const int32_t advance = m->kind == PRIM_LINES ? 2 : 1;
        if (m->expand) {
            const int32_t w = m->kind == PRIM_POINTS ? 0 : 4;
            const int32_t list[] = { 0, 1, w + 2, 1, w + 2, w + 3 };
            const int32_t strip[] = { 0, 1, w + 2, w + 3, 0 };
            const int32_t step[] = { 4 * advance, 4 * advance, 4 * advance,
                                     4 * advance, 4 * advance, 4 * advance };
            if (r)
                pattern(p, 4, 5, strip, step, 1u << 4);
            else
                pattern(p, 4, 6, list, step, 0);
        } else {
            static const int32_t pair[] = { 0, 1 };
            const int32_t step[] = { advance, advance };
            pattern(p, 1, m->kind == PRIM_POINTS ? 1 : 2, pair, step, 0);
        }
        break;
    }
    default: memset(p, 0, sizeof *p); break;
    }
}
