/*
 * The primitive reference: each primitive and option as the plain loop docs/prim.md's table
 * describes, one index at a time. It is the oracle the fast path (affine programs run by
 * vectors, lib/prim/program.c and lib/simd/prim_tmpl.c) is checked against, and what the
 * reference level "c" runs. GX's orders are Dolphin's IndexGenerator's in its four modes,
 * written from the orders Dolphin's generator writes (../shared/peers/dolphin-index/README.md).
 */
#include "prim/prim_internal.h"

/* Where indices go; with `in`, a draw through a guest index buffer: vertex v is entry
   at + v plus delta. */
struct sink {
    void *out;
    int wide;
    size_t n;
    const void *in;
    const struct prim_guest *g;
    size_t at;
    uint32_t delta;
};

static inline void put(struct sink *s, uint64_t value)
{
    if (s->in)
        value = (uint32_t)(vfetch_prim_entry(s->in, s->g, s->at + value) + s->delta);
    if (s->out) {
        if (s->wide)
            ((uint32_t *)s->out)[s->n] = (uint32_t)value;
        else
            ((uint16_t *)s->out)[s->n] = (uint16_t)value;
    }
    s->n++;
}

/* A line from vertex v to vertex w, or a point v (w = v), expanded to the quad of its four
   corners (index = vertex * 4 + corner): triangles (c0, c1, c2) (c1, c2, c3) without restart,
   a strip c0 c1 c2 c3 and the restart index with it. Lines take corners 0 and 1 at v, 2 and 3
   at w. */
static void put_quad(struct sink *s, uint64_t v, uint64_t w, int restart, uint64_t r)
{
    const uint64_t c0 = 4 * v, c1 = 4 * v + 1, c2 = 4 * w + 2, c3 = 4 * w + 3;
    if (restart) {
        put(s, c0);
        put(s, c1);
        put(s, c2);
        put(s, c3);
        put(s, r);
    } else {
        put(s, c0);
        put(s, c1);
        put(s, c2);
        put(s, c1);
        put(s, c2);
        put(s, c3);
    }
}

/* A triangle as Mesa's u_indices writes it: as it is where the provoking vertex conventions
   agree, (v1, v2, v0) from first to last, (v2, v0, v1) from last to first. */
static void put_tri(struct sink *s, const struct prim_mode *m, uint64_t v0, uint64_t v1,
                    uint64_t v2)
{
    if (m->pv_in_last == m->pv_out_last) {
        put(s, v0);
        put(s, v1);
        put(s, v2);
    } else if (!m->pv_in_last) {
        put(s, v1);
        put(s, v2);
        put(s, v0);
    } else {
        put(s, v2);
        put(s, v0);
        put(s, v1);
    }
}

/* A line: reversed where the conventions differ. */
static void put_line(struct sink *s, const struct prim_mode *m, uint64_t v0, uint64_t v1)
{
    put(s, m->pv_in_last == m->pv_out_last ? v0 : v1);
    put(s, m->pv_in_last == m->pv_out_last ? v1 : v0);
}

/* A quad as two triangles: (v0,v1,v2) (v0,v2,v3) with the first vertex provoking,
   (v0,v1,v3) (v1,v2,v3) with the last. */
static void put_quad_tris(struct sink *s, const struct prim_mode *m, uint64_t v0, uint64_t v1,
                          uint64_t v2, uint64_t v3)
{
    if (m->pv_in_last) {
        put_tri(s, m, v0, v1, v3);
        put_tri(s, m, v1, v2, v3);
    } else {
        put_tri(s, m, v0, v1, v2);
        put_tri(s, m, v0, v2, v3);
    }
}

/* Mesa's line with adjacency (v0 v1 v2 v3, the line v1-v2): reversed where the provoking
   vertex conventions differ. */
static void put_line_adj(struct sink *s, const struct prim_mode *m, uint64_t v0)
{
    const int same = m->pv_in_last == m->pv_out_last;
    for (uint64_t j = 0; j < 4; j++)
        put(s, same ? v0 + j : v0 + 3 - j);
}

/* R300's and Maxwell's primitives in Mesa's orders (u_indices_gen.py's generate functions),
   after Mesa's trimming; the draw's first vertex b is Mesa's `start`. */
static size_t mesa_ref(struct sink *sink, const struct prim_mode *m, uint32_t count,
                       uint32_t base)
{
    struct sink s = *sink;
    const uint64_t n = vfetch_prim_mesa_trim(m->kind, count), b = base;
    switch (m->kind) {
    case PRIM_M_POINTS:
        for (uint64_t i = 0; i < n; i++)
            put(&s, b + i);
        break;
    case PRIM_M_LINES:
        for (uint64_t i = 0; i + 2 <= n; i += 2)
            put_line(&s, m, b + i, b + i + 1);
        break;
    case PRIM_M_LINE_STRIP:
    case PRIM_M_LINE_LOOP:
        for (uint64_t i = 0; i + 2 <= n; i++)
            put_line(&s, m, b + i, b + i + 1);
        if (m->kind == PRIM_M_LINE_LOOP && n) /* closed: the last vertex back to the first */
            put_line(&s, m, b + n - 1, b);
        break;
    case PRIM_M_TRIANGLES:
        for (uint64_t i = 0; i + 3 <= n; i += 3)
            put_tri(&s, m, b + i, b + i + 1, b + i + 2);
        break;
    case PRIM_M_TRIANGLE_STRIP: /* the parity of the absolute vertex number, as Mesa's */
        for (uint64_t k = 0; k + 3 <= n; k++) {
            const uint64_t i = b + k, odd = i & 1;
            if (m->pv_in_last)
                put_tri(&s, m, i + odd, i + 1 - odd, i + 2);
            else
                put_tri(&s, m, i, i + 1 + odd, i + 2 - odd);
        }
        break;
    case PRIM_M_TRIANGLE_FAN:
    case PRIM_M_POLYGON: {
        /* a fan's first vertex provokes last, a polygon's first: they differ in order only */
        const int fan = m->kind == PRIM_M_TRIANGLE_FAN;
        for (uint64_t k = 0; k + 3 <= n; k++) {
            if (m->pv_in_last == fan)
                put_tri(&s, m, b, b + k + 1, b + k + 2);
            else
                put_tri(&s, m, b + k + 1, b + k + 2, b);
        }
        break;
    }
    case PRIM_M_QUADS:
        for (uint64_t i = 0; i + 4 <= n; i += 4)
            put_quad_tris(&s, m, b + i, b + i + 1, b + i + 2, b + i + 3);
        break;
    case PRIM_M_QUAD_STRIP:
        for (uint64_t i = 0; i + 4 <= n; i += 2) {
            if (m->yuzu) { /* yuzu's: (c0 c3 c1) (c0 c2 c3), whatever the provoking vertex */
                static const uint64_t order[6] = { 0, 3, 1, 0, 2, 3 };
                for (int j = 0; j < 6; j++)
                    put(&s, b + i + order[j]);
            } else if (m->pv_in_last)
                put_quad_tris(&s, m, b + i + 2, b + i, b + i + 1, b + i + 3);
            else
                put_quad_tris(&s, m, b + i, b + i + 1, b + i + 3, b + i + 2);
        }
        break;
    case PRIM_M_LINES_ADJ:
        for (uint64_t i = 0; i + 4 <= n; i += 4)
            put_line_adj(&s, m, b + i);
        break;
    case PRIM_M_LINE_STRIP_ADJ: /* the strip as it is, or its segments as a list */
        if (m->pv_in_last == m->pv_out_last)
            for (uint64_t i = 0; i < n; i++)
                put(&s, b + i);
        else
            for (uint64_t i = 0; i + 4 <= n; i++)
                put_line_adj(&s, m, b + i);
        break;
    case PRIM_M_TRIANGLES_ADJ: /* (v0 .. v5), or (v4 v5 v0 v1 v2 v3) where they differ */
        for (uint64_t i = 0; i + 6 <= n; i += 6)
            for (uint64_t j = 0; j < 6; j++)
                put(&s, b + i + (m->pv_in_last == m->pv_out_last ? j : (j + 4) % 6));
        break;
    case PRIM_M_TRIANGLE_STRIP_ADJ: /* as it is (the plan refuses differing conventions) */
    case PRIM_M_FAN_AS_IS:
        for (uint64_t i = 0; i < n; i++)
            put(&s, b + i);
        break;
    default: break;
    }
    sink->n = s.n;
    return s.n;
}

size_t vfetch_prim_ref(const struct prim_mode *m, uint32_t count, uint32_t base, void *out)
{
    struct sink s = { out, m->wide, 0, NULL, NULL, 0, 0 };
    if (m->kind >= PRIM_M_POINTS)
        return mesa_ref(&s, m, count, base);
    const uint64_t n = count, b = base, r = m->wide ? 0xffffffffu : 0xffffu;
    switch (m->kind) {
    case PRIM_QUADS:
        /* quads q = b + 4i: (q, q+1, q+2) (q, q+2, q+3), or the strip q+1 q+2 q q+3; three
           vertices left over draw one triangle, one or two nothing */
        for (uint64_t i = 0; i + 4 <= n; i += 4) {
            const uint64_t q = b + i;
            if (m->restart) {
                put(&s, q + 1);
                put(&s, q + 2);
                put(&s, q);
                put(&s, q + 3);
                put(&s, r);
            } else {
                put(&s, q);
                put(&s, q + 1);
                put(&s, q + 2);
                put(&s, q);
                put(&s, q + 2);
                put(&s, q + 3);
            }
        }
        if (n % 4 == 3 && !m->drop) {
            put(&s, b + n - 3);
            put(&s, b + n - 2);
            put(&s, b + n - 1);
            if (m->restart)
                put(&s, r);
        }
        break;
    case PRIM_TRIANGLES:
        for (uint64_t i = 0; i + 3 <= n; i += 3) {
            put(&s, b + i);
            put(&s, b + i + 1);
            put(&s, b + i + 2);
            if (m->restart)
                put(&s, r);
        }
        break;
    case PRIM_TRIANGLE_STRIP:
        if (m->restart) { /* the vertices as they are, then the restart index, whatever n
                             (unless incomplete ones are dropped) */
            if (m->drop && n < 3)
                break;
            for (uint64_t i = 0; i < n; i++)
                put(&s, b + i);
            put(&s, r);
        } else { /* triangle k: (v, v+1, v+2) where k is even, (v, v+2, v+1) where odd */
            for (uint64_t k = 0; k + 3 <= n; k++) {
                const uint64_t v = b + k;
                put(&s, v);
                put(&s, k % 2 ? v + 2 : v + 1);
                put(&s, k % 2 ? v + 1 : v + 2);
            }
        }
        break;
    case PRIM_TRIANGLE_FAN:
        if (n < 3)
            break;
        if (!m->restart) { /* triangle k: (b, b+k+1, b+k+2) */
            for (uint64_t k = 0; k + 3 <= n; k++) {
                put(&s, b);
                put(&s, b + k + 1);
                put(&s, b + k + 2);
            }
        } else { /* three triangles a strip of five, then the two or one left */
            const uint64_t t = n - 2;
            uint64_t k = 0;
            for (; k + 3 <= t; k += 3) {
                put(&s, b + k + 1);
                put(&s, b + k + 2);
                put(&s, b);
                put(&s, b + k + 3);
                put(&s, b + k + 4);
                put(&s, r);
            }
            if (t - k == 2) {
                put(&s, b + k + 1);
                put(&s, b + k + 2);
                put(&s, b);
                put(&s, b + k + 3);
                put(&s, r);
            } else if (t - k == 1) {
                put(&s, b);
                put(&s, b + k + 1);
                put(&s, b + k + 2);
                put(&s, r);
            }
        }
        break;
    case PRIM_LINES:
    case PRIM_LINE_STRIP: /* lines from vertex b+i to b+i+1: i = 0, 2, ... or 0, 1, ... */
        for (uint64_t i = 0; i + 2 <= n; i += m->kind == PRIM_LINES ? 2 : 1) {
            if (m->expand) {
                put_quad(&s, b + i, b + i + 1, m->restart, r);
            } else {
                put(&s, b + i);
                put(&s, b + i + 1);
            }
        }
        break;
    case PRIM_POINTS:
        for (uint64_t i = 0; i < n; i++) {
            if (m->expand)
                put_quad(&s, b + i, b + i, m->restart, r);
            else
                put(&s, b + i);
        }
        break;
    default: break;
    }
    return s.n;
}

/* Through a guest index buffer: a run of entries between restart entries at a time, each a
   draw of consecutive vertices 0 .. run - 1 mapped to the run's entries (OpenGL's restart:
   the run's incomplete primitives dropped as a draw's are); a strip drawn as it is passes
   every entry, restart entries as the host's restart index. */
size_t vfetch_prim_ref_indexed(const struct prim_mode *m, const struct prim_guest *g,
                               int pass_restart, const void *in, uint32_t count, uint32_t delta,
                               uint32_t host_restart, void *out)
{
    struct sink s = { out, m->wide, 0, NULL, g, 0, delta };
    if (pass_restart) {
        for (uint32_t i = 0; i < count; i++) {
            const uint32_t e = vfetch_prim_entry(in, g, i);
            put(&s, g->restart && e == g->restart_index ? host_restart : (uint32_t)(e + delta));
        }
        return s.n;
    }
    s.in = in;
    uint32_t start = 0;
    for (uint32_t i = 0; i <= count; i++) {
        if (i < count && !(g->restart && vfetch_prim_entry(in, g, i) == g->restart_index))
            continue;
        s.at = start; /* the run start .. i - 1 */
        mesa_ref(&s, m, i - start, 0);
        start = i + 1;
    }
    return s.n;
}

/* The scan's reference: every entry, restart entries aside. */
int vfetch_prim_scan_ref(const void *in, size_t count, const struct prim_guest *g, uint32_t *min,
                         uint32_t *max)
{
    uint32_t lo = UINT32_MAX, hi = 0;
    int restarted = 0;
    for (size_t i = 0; i < count; i++) {
        const uint32_t e = vfetch_prim_entry(in, g, i);
        if (g->restart && e == g->restart_index) {
            restarted = 1;
            continue;
        }
        lo = e < lo ? e : lo;
        hi = e > hi ? e : hi;
    }
    *min = lo;
    *max = hi;
    return restarted;
}

/* The search's reference: entry by entry. */
uint32_t vfetch_prim_find_ref(const void *in, const struct prim_guest *g, uint32_t i,
                              uint32_t count)
{
    while (i < count && vfetch_prim_entry(in, g, i) != g->restart_index)
        i++;
    return i;
}
