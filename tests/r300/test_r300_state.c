/*
 * The R300 register state (vfetch_r300_state): register writes and 3D_LOAD_VBPNTR packets in,
 * plans out. Random sequences against vfetch_r300_compile of the same registers kept by hand;
 * the cache (no compile for unchanged or recently seen registers, FIFO eviction that spares the
 * other mode's plan); the packet's parsing; every refusal leaves the state as it was.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vfetch/r300.h"

static uint64_t rng = 0x3005eedu;

static uint32_t rnd(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 32);
}

static uint32_t rnd_below(uint32_t n)
{
    return rnd() % n;
}

/* A mostly valid element word pair for PROG_STREAM_CNTL word w (elements 2w, 2w + 1). */
static uint32_t random_psc_word(unsigned w, unsigned last_word)
{
    uint32_t word = 0;
    for (unsigned h = 0; h < 2; h++) {
        const unsigned type = rnd_below(8) ? rnd_below(13) : rnd_below(16);
        const uint32_t half = type | rnd_below(3) << 4 | rnd_below(31) << 8 |
                              (w == last_word && h == 1) << 13 | rnd_below(2) << 14 |
                              rnd_below(2) << 15;
        word |= half << (16 * h);
    }
    return word;
}

static void check_against_compile(vfetch_r300_state *s, const struct vfetch_r300_desc *mirror,
                                  const struct vfetch_r300_state_params *params, int immediate,
                                  unsigned *agree_ok, unsigned *agree_err)
{
    struct vfetch_r300_desc d = *mirror;
    if (immediate)
        d.num_arrays = 0;
    else
        d.vtx_size_dwords = 0;
    d.layout = params->layout;
    d.out_stride = params->out_stride;
    /* what vfetch_r300_compile does, with the state's executor choice */
    vfetch_plan *want = NULL;
    struct vfetch_plan_desc pd;
    int want_err = vfetch_r300_translate(&d, &pd);
    if (!want_err) {
        pd.path = params->path;
        want_err = vfetch_plan_compile(&pd, &want);
    }
    const vfetch_plan *got = NULL;
    const int err = vfetch_r300_state_plan(s, immediate, &got);
    CHECK_EQ(err, want_err);
    if (!err && !want_err) {
        CHECK(vfetch_plan_equal(got, want));
        CHECK_EQ(vfetch_plan_hash(got), vfetch_plan_hash(want));
        CHECK_EQ(vfetch_plan_out_stride(got), vfetch_plan_out_stride(want));
        ++*agree_ok;
    } else {
        ++*agree_err;
    }
    vfetch_plan_free(want);
}

static void test_random_sequences(void)
{
    unsigned ok = 0, errs = 0, refused = 0;
    for (unsigned seq = 0; seq < 60; seq++) {
        const struct vfetch_r300_state_params params = {
            (enum vfetch_r300_layout)rnd_below(2), rnd_below(3) == 0 ? 4 * rnd_below(200) : 0,
            (enum vfetch_path)rnd_below(2) };
        vfetch_r300_state *s = NULL;
        CHECK_EQ(vfetch_r300_state_create(&params, &s), 0);
        if (!s)
            return;
        struct vfetch_r300_desc mirror;
        vfetch_r300_desc_init(&mirror);
        const unsigned last_word = rnd_below(4);
        for (unsigned step = 0; step < 200; step++) {
            const unsigned what = rnd_below(10);
            if (what < 3) {
                const unsigned w = rnd_below(last_word + 1);
                const uint32_t v = random_psc_word(w, last_word);
                CHECK_EQ(vfetch_r300_load_reg(s, VFETCH_R300_VAP_PROG_STREAM_CNTL_0 + 4 * w, v), 0);
                mirror.prog_stream_cntl[w] = v;
            } else if (what == 3) {
                const unsigned w = rnd_below(8);
                uint32_t v = VFETCH_R300_EXT_IDENTITY * 0x10001u;
                if (rnd_below(2)) /* a random swizzle and mask in one element */
                    v = (v & ~(0xffffu << 16 * (w & 1))) |
                        (rnd_below(6) | rnd_below(6) << 3 | rnd_below(8) << 6 | rnd_below(6) << 9 |
                         rnd_below(16) << 12) << 16 * (w & 1);
                CHECK_EQ(vfetch_r300_load_reg(s, VFETCH_R300_VAP_PROG_STREAM_CNTL_EXT_0 + 4 * w, v), 0);
                mirror.prog_stream_cntl_ext[w] = v;
            } else if (what == 4) {
                const uint32_t v = rnd_below(4) ? 0xAAAAAAAAu : rnd();
                CHECK_EQ(vfetch_r300_load_reg(s, VFETCH_R300_VAP_PSC_SGN_NORM_CNTL, v), 0);
                mirror.sgn_norm_cntl = v;
            } else if (what == 5) {
                const uint32_t v = rnd(); /* only VC_SWAP, bits 1:0, counts */
                CHECK_EQ(vfetch_r300_load_reg(s, VFETCH_R300_VAP_CNTL_STATUS, v), 0);
                mirror.cntl_status = v & 3;
            } else if (what == 6) {
                const uint32_t v = rnd_below(140);
                CHECK_EQ(vfetch_r300_load_reg(s, VFETCH_R300_VAP_VTX_SIZE, v), 0);
                mirror.vtx_size_dwords = v;
            } else if (what == 7) {
                /* 3D_LOAD_VBPNTR with random arrays (some counts refused) */
                uint32_t payload[1 + 3 * 9];
                const uint32_t count = rnd_below(10) ? 1 + rnd_below(4) : rnd_below(20);
                payload[0] = count | (rnd_below(2) << 5);
                for (unsigned i = 1; i < 1 + 3 * 9; i++)
                    payload[i] = rnd();
                for (uint32_t a = 0; a < count && a < 18; a++) {
                    const uint32_t stride = 1 + rnd_below(12), size = 1 + rnd_below(stride);
                    uint32_t *w = &payload[1 + 3 * (a / 2)];
                    *w = (*w & ~(0xffffu << 16 * (a & 1))) | (size | stride << 8) << 16 * (a & 1);
                }
                const size_t words = 1 + 3 * (count / 2) + 2 * (count & 1);
                const int err = vfetch_r300_load_vbpntr(s, payload, words);
                if (count > VFETCH_R300_MAX_ARRAYS) {
                    CHECK_EQ(err, VFETCH_ER300_TOO_MANY_ARRAYS);
                    refused++;
                } else {
                    CHECK_EQ(err, 0);
                    mirror.num_arrays = count;
                    for (uint32_t a = 0; a < count; a++) {
                        const uint32_t w = payload[1 + 3 * (a / 2)] >> 16 * (a & 1);
                        mirror.arrays[a] = (struct vfetch_r300_array){ w >> 8 & 0xff, w & 0xff };
                    }
                    /* one word short: refused, nothing changed */
                    if (count)
                        CHECK_EQ(vfetch_r300_load_vbpntr(s, payload, words - 1), VFETCH_EINVAL);
                }
            } else if (what == 8) {
                /* an address the state does not hold: refused, nothing changed */
                static const uint32_t bad[] = { 0x2144, 0x2151, 0x2170, 0x21D8, 0x2200, 0x20B0, 0 };
                CHECK_EQ(vfetch_r300_load_reg(s, bad[rnd_below(7)], rnd()), VFETCH_EREGISTER);
                refused++;
            } else {
                check_against_compile(s, &mirror, &params, (int)rnd_below(2), &ok, &errs);
            }
        }
        check_against_compile(s, &mirror, &params, 0, &ok, &errs);
        check_against_compile(s, &mirror, &params, 1, &ok, &errs);
        vfetch_r300_state_free(s);
    }
    printf("r300-state: %u plans equal to compile's, %u errors equal to compile's, %u refusals\n",
           ok, errs, refused);
    CHECK(ok > 300 && errs > 50 && refused > 50);
}

/* Two register sets, A and B. */
static void load_set(vfetch_r300_state *s, int b)
{
    vfetch_r300_load_reg(s, VFETCH_R300_VAP_PROG_STREAM_CNTL_0,
                         b ? 0x2102u | 0x2000u << 16 /* FLOAT_3 at 1, BYTE last */ : 0x2002u);
    vfetch_r300_load_reg(s, VFETCH_R300_VAP_PROG_STREAM_CNTL_0 + 4, 0);
    const uint32_t vbpntr[3] = { 1, (b ? 4u : 3u) | (b ? 4u : 3u) << 8, 0x1000 };
    vfetch_r300_load_vbpntr(s, vbpntr, 3);
}

static void test_cache(void)
{
    vfetch_r300_state *s;
    CHECK_EQ(vfetch_r300_state_create(NULL, &s), 0);
    if (!s)
        return;
    /* defaults as vfetch_r300_desc_init's */
    CHECK_EQ(vfetch_r300_state_reg(s, VFETCH_R300_VAP_PROG_STREAM_CNTL_EXT_0 + 28), 0xF688F688u);
    CHECK_EQ(vfetch_r300_state_reg(s, VFETCH_R300_VAP_PSC_SGN_NORM_CNTL), 0xAAAAAAAAu);
    CHECK_EQ(vfetch_r300_state_max_index(s), UINT32_MAX);
    CHECK_EQ(vfetch_r300_load_reg(s, VFETCH_R300_VAP_VF_MAX_VTX_INDX, 99), 0);
    CHECK_EQ(vfetch_r300_state_max_index(s), 99);

    load_set(s, 0);
    const vfetch_plan *a, *b, *again;
    CHECK_EQ(vfetch_r300_state_plan(s, 0, &a), 0);
    CHECK_EQ(vfetch_r300_state_compiles(s), 1);
    CHECK_EQ(vfetch_r300_state_plan(s, 0, &again), 0);
    CHECK(again == a);
    /* a write of the same value, a VF_MAX_VTX_INDX or a VC_SWAP-free CNTL_STATUS bit: no new
       lookup, no compile */
    load_set(s, 0);
    CHECK_EQ(vfetch_r300_load_reg(s, VFETCH_R300_VAP_CNTL_STATUS, 0x100), 0);
    CHECK_EQ(vfetch_r300_load_reg(s, VFETCH_R300_VAP_VF_MAX_VTX_INDX, 7), 0);
    CHECK_EQ(vfetch_r300_state_plan(s, 0, &again), 0);
    CHECK(again == a);
    CHECK_EQ(vfetch_r300_state_compiles(s), 1);
    /* A, B, A, B: two compiles */
    for (unsigned i = 0; i < 6; i++) {
        load_set(s, (int)(i & 1) ^ 1);
        CHECK_EQ(vfetch_r300_state_plan(s, 0, (i & 1) ? &again : &b), 0);
    }
    CHECK(again == a && b != a);
    CHECK_EQ(vfetch_r300_state_compiles(s), 2);
    /* the immediate mode's plan of A, held while 20 other formats are compiled in array mode:
       never evicted (ASan builds would catch its use after a free) */
    CHECK_EQ(vfetch_r300_load_reg(s, VFETCH_R300_VAP_VTX_SIZE, 3), 0);
    const vfetch_plan *held;
    CHECK_EQ(vfetch_r300_state_plan(s, 1, &held), 0);
    const uint32_t held_stride = vfetch_plan_out_stride(held);
    for (unsigned k = 0; k < 20; k++) {
        const uint32_t vbpntr[3] = { 1, 3u | (4u + k) << 8, 0 }; /* none is A or B */
        CHECK_EQ(vfetch_r300_load_vbpntr(s, vbpntr, 3), 0);
        const vfetch_plan *p;
        CHECK_EQ(vfetch_r300_state_plan(s, 0, &p), 0);
    }
    CHECK_EQ(vfetch_plan_out_stride(held), held_stride);
    CHECK_EQ(vfetch_r300_state_compiles(s), 23);
    /* A again: evicted by now (16 entries), compiled anew */
    load_set(s, 0);
    CHECK_EQ(vfetch_r300_state_plan(s, 0, &again), 0);
    CHECK_EQ(vfetch_r300_state_compiles(s), 24);
    /* refusals */
    CHECK_EQ(vfetch_r300_state_create(&(struct vfetch_r300_state_params){ 2, 0, 0 }, &s),
             VFETCH_EINVAL);
    vfetch_r300_state *none = NULL;
    CHECK_EQ(vfetch_r300_state_create(NULL, NULL), VFETCH_EINVAL);
    CHECK_EQ(vfetch_r300_load_reg(none, VFETCH_R300_VAP_VTX_SIZE, 1), VFETCH_EINVAL);
    CHECK_EQ(vfetch_r300_state_plan(s, 0, NULL), VFETCH_EINVAL);
    const uint32_t seventeen[1] = { 17 };
    CHECK_EQ(vfetch_r300_load_vbpntr(s, seventeen, 1), VFETCH_ER300_TOO_MANY_ARRAYS);
    CHECK_EQ(vfetch_r300_load_vbpntr(s, NULL, 1), VFETCH_EINVAL);
    CHECK_EQ(vfetch_r300_state_plan(s, 0, &b), 0);
    CHECK(b == again); /* nothing changed by the refusals */
    vfetch_r300_state_free(s);
    vfetch_r300_state_free(NULL);
}

int main(void)
{
    test_cache();
    test_random_sequences();
    return test_summary("r300-state");
}
