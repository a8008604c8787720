/*
 * GX index columns, the scalar reference (what index_tmpl.c vectorises): the indices of a
 * block's column of vertices, and a staging move's source addresses.
 */
#include "gx/gx_dsp.h"

VFETCH_GX_INDICES_FN(vfetch_gx_read_indices_c)
{
    (void)readable; /* reads exactly the index bytes */
    for (uint32_t v = 0; v < n; v++) {
        const uint8_t *b = at + (size_t)v * vsize;
        idx[v] = isize == 1 ? b[0] : (uint32_t)b[0] << 8 | b[1];
    }
}

VFETCH_GX_ADDRS_FN(vfetch_gx_index_addrs_c)
{
    uint32_t highest = 0;
    for (uint32_t v = 0; v < n; v++) {
        const uint32_t i = idx[v];
        highest = i > highest ? i : highest;
        const uint64_t off = (uint64_t)(i < clamp ? i : clamp) * stride;
        addr[v] = (off < safe_end ? base : tail_addr) + (uintptr_t)off;
    }
    return highest;
}

VFETCH_GX_INDEX_ADDRS_FN(vfetch_gx_read_index_addrs_c)
{
    uint32_t idx[VFETCH_GX_BLOCK];
    vfetch_gx_read_indices_c(at, vsize, n, isize, readable, idx);
    return vfetch_gx_index_addrs_c(idx, n, clamp, stride, base, tail_addr, safe_end, addr);
}
