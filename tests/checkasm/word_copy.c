/*
 * checkasm: word copies (lib/word_copy.c), under --kernel record. The byte-reversing copy of
 * every level against the reference loop (the copy as stored is memcpy at every level), every
 * size up to 1,088 bytes (past two of the widest level's four-vector steps; 288 in quick
 * mode, two of AVX2's), source and destination against guard pages. Then plans:
 * random formats that only move 32-bit words (floats, 32-bit integers kept whole; little-endian,
 * big-endian or SWAP_32; the words split into ops of 1..4 components) must be recognised at
 * every level above the reference and equal it on random draws; the same formats changed in
 * one way (a component out of order, a gap in the record or the output, a constant, a 16-bit
 * half, a 16-bit swap) must not be, and equal it too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"

void check_word_copy(void)
{
    if (!checkasm_wants("record"))
        return;
    rng_seed_for("word-copy");
    const size_t max_bytes = opt_quick ? 288 : 1088;
    for (unsigned l = 0; l < num_levels; l++) {
        vfetch_word_copy_fn *copy = levels[l].dsp.bswap32_copy;
        CHECK(copy != NULL);
        if (!copy)
            continue;
        unsigned bad = 0;
        for (size_t bytes = 0; bytes <= max_bytes; bytes += 4) {
            for (int head = 0; head < 2; head++) {
                uint8_t *src_alloc, *dst_alloc, *src = place(bytes, head, 0, &src_alloc);
                uint8_t *dst = place(bytes, !head, 0, &dst_alloc);
                uint8_t *want = malloc(bytes + 1);
                rnd_fill(src, bytes);
                vfetch_word_copy_bswap32_c(src, want, bytes);
                copy(src, dst, bytes);
                bad += memcmp(dst, want, bytes) != 0;
                test_checks++;
                free(want);
                guard_free(src_alloc);
                guard_free(dst_alloc);
            }
        }
        if (bad) {
            fprintf(stderr, "byte-reversing word copy at %s: %u sizes differ from the reference\n",
                    levels[l].name, bad);
            test_failures++;
        }
    }

    unsigned copies = 0, near_misses = 0;
    const unsigned formats = opt_quick ? 40 : 200;
    for (unsigned i = 0; i < formats; i++) {
        const unsigned words = 1 + rnd_below(24);
        static const enum vfetch_byte_order orders[3] = { VFETCH_ORDER_LITTLE,
                                                          VFETCH_ORDER_BIG_ENDIAN,
                                                          VFETCH_ORDER_SWAP_32 };
        struct vfetch_plan_desc d;
        vfetch_plan_desc_init(&d);
        d.num_streams = 1;
        d.streams[0].stride = 4 * words;
        d.streams[0].order = orders[rnd_below(3)];
        d.streams[0].step = rnd_below(2) ? VFETCH_STEP_SEQUENTIAL : VFETCH_STEP_INDEXED;
        d.out_slots = words;
        d.out_stride = rnd_below(2) ? 0 : 4 * words;
        for (unsigned w = 0; w < words;) {
            struct vfetch_op *op = &d.ops[d.num_ops++];
            const unsigned n = 1 + rnd_below(words - w < 4 ? words - w : 4);
            const unsigned kind = rnd_below(3);
            op->format = kind ? VFETCH_FORMAT_FLOAT32 : VFETCH_FORMAT_FIXED32;
            op->conversion = kind ? VFETCH_CONV_FLOAT
                                  : rnd_below(2) ? VFETCH_CONV_INTEGER : VFETCH_CONV_SINTEGER;
            op->count = (uint8_t)n;
            for (unsigned c = 0; c < n; c++) {
                op->src[c].offset = 4 * (w + c);
                op->swizzle[c] = (uint8_t)c;
            }
            op->write_mask = (uint8_t)((1u << n) - 1);
            op->dst_slot = (uint16_t)w;
            w += n;
        }
        /* one change that makes it no copy, in half of the formats */
        const unsigned miss = rnd_below(2) ? 0 : 1 + rnd_below(6);
        struct vfetch_op *op = &d.ops[rnd_below(d.num_ops)];
        switch (miss) {
        case 1: /* two components swapped (or a component read twice) */
            op->swizzle[0] = (uint8_t)(op->count > 1 ? 1 : 0);
            if (op->count > 1)
                op->swizzle[1] = 0;
            else
                op->src[0].offset += 4 * (words > 1);
            if (words == 1)
                op->swizzle[0] = VFETCH_SWIZZLE_1;
            break;
        case 2: d.streams[0].stride += 4; break; /* a gap between records */
        case 3: d.out_stride = 4 * words + 4; break; /* a gap between output records */
        case 4: op->swizzle[0] = VFETCH_SWIZZLE_0; break;
        case 5: /* a 16-bit half where a word was */
            op->format = VFETCH_FORMAT_FLOAT16;
            op->conversion = VFETCH_CONV_FLOAT;
            break;
        case 6: d.streams[0].order = VFETCH_ORDER_SWAP_16; break;
        default: break;
        }
        for (unsigned l = 0; l < num_levels; l++) {
            vfetch_plan *plan = plan_at_level(&d, l);
            if (!plan)
                continue;
            struct vfetch_plan_info info;
            vfetch_plan_info(plan, &info);
            CHECK_EQ(info.word_copy, !miss);
            for (unsigned r = 0; r < 3; r++) {
                struct reference_run rr;
                const uint32_t count = rnd_below(4) ? 1 + rnd_below(40) : 100 + rnd_below(300);
                if (!reference_run_make_at(&d, &rr, count | RUN_DIRECT, -1))
                    continue;
                char detail[96];
                snprintf(detail, sizeof detail, "%u words, %s, %u vertices%s", words,
                         order_names[d.streams[0].order], count, miss ? " (no copy)" : "");
                reference_run_compare(plan, &rr, "word-copy", levels[l].name, detail);
                reference_run_free(&rr);
            }
            copies += !miss;
            near_misses += miss != 0;
            vfetch_plan_free(plan);
        }
    }
    /* the reference level itself never copies: it is the oracle */
    {
        struct vfetch_plan_desc d;
        vfetch_plan_desc_init(&d);
        d.num_streams = 1;
        d.streams[0].stride = 4;
        d.out_slots = 1;
        d.ops[0].format = VFETCH_FORMAT_FLOAT32;
        d.ops[0].conversion = VFETCH_CONV_FLOAT;
        d.ops[0].count = 1;
        d.ops[0].write_mask = 1;
        d.num_ops = 1;
        vfetch_set_cpu_mask(0);
        vfetch_plan *ref = NULL;
        CHECK_EQ(vfetch_plan_compile(&d, &ref), 0);
        struct vfetch_plan_info info;
        if (ref && vfetch_plan_info(ref, &info) == 0)
            CHECK_EQ(info.word_copy, 0);
        vfetch_plan_free(ref);
    }
    vfetch_set_cpu_mask(~0u);
    printf("  word copies: the byte-reversing copy at every level up to %zu bytes; %u copy plans "
           "and %u near misses equal the reference\n", max_bytes, copies, near_misses);
}
