/* vfetch_plan_describe: a plan as text, one line per stream and per op. */
#include "plan_internal.h"
#include "text.h"
#include "vertex_format.h"

static const char *const order_name[] = { "little", "swap16", "swap32", "swaphalf", "big-endian" };
static const char *const step_name[] = { "indexed", "sequential", "constant", "instanced" };
static const char swizzle_char[] = "xyzw01";

size_t vfetch_plan_describe(const vfetch_plan *plan, char *buf, size_t size)
{
    struct vfetch_text t = { buf, size, 0 };
    if (buf && size)
        buf[0] = '\0';
    if (!plan)
        return 0;
    const struct vfetch_plan_desc *d = &plan->desc;

    vfetch_text_printf(&t, "plan %016llx: %u stream(s), %u op(s), record %u slots (%u bytes), stride %u, "
                    "path %s, isa %s\n",
                (unsigned long long)plan->hash, d->num_streams, d->num_ops, d->out_slots,
                plan->record_size, plan->out_stride, plan->record ? "record-program" : "per-op",
                plan->isa);
    if (plan->word_copy)
        vfetch_text_printf(&t, "  word copy: draws without an index buffer copy their records%s\n",
                           plan->word_copy == VFETCH_WORD_COPY_BSWAP32
                               ? ", each 32-bit word byte-reversed" : "");
    for (unsigned s = 0; s < d->num_streams; s++) {
        vfetch_text_printf(&t, "  stream %u: stride %u, %s, %s", s, d->streams[s].stride,
                    order_name[d->streams[s].order], step_name[d->streams[s].step]);
        if (d->streams[s].step == VFETCH_STEP_INSTANCE)
            vfetch_text_printf(&t, " (divisor %u)", d->streams[s].divisor);
        vfetch_text_printf(&t, ", reads %u bytes per vertex\n", plan->stream_extent[s]);
    }
    for (unsigned i = 0; i < d->num_ops; i++) {
        const struct vfetch_op *op = &d->ops[i];
        vfetch_text_printf(&t, "  op %u: %s x%u %s", i, vfetch_format_info[op->format].name, op->count,
                    vfetch_conversion_name[op->conversion]);
        if (op->shift)
            vfetch_text_printf(&t, " >>%u", op->shift);
        if (op->format == VFETCH_FORMAT_CONSTANT) {
            vfetch_text_printf(&t, " words");
            for (unsigned c = 0; c < 4; c++)
                vfetch_text_printf(&t, "%s%08x", c ? "," : " ", op->constant[c]);
        } else {
            vfetch_text_printf(&t, " from");
            const unsigned sources = vfetch_format_info[op->format].packed ? 1 : op->count;
            for (unsigned c = 0; c < sources; c++)
                vfetch_text_printf(&t, "%s s%u+%u", c ? "," : "", op->src[c].stream, op->src[c].offset);
            vfetch_text_printf(&t, " swizzle %c%c%c%c", swizzle_char[op->swizzle[0]],
                        swizzle_char[op->swizzle[1]], swizzle_char[op->swizzle[2]],
                        swizzle_char[op->swizzle[3]]);
        }
        vfetch_text_printf(&t, " mask %c%c%c%c", op->write_mask & 1 ? 'x' : '-',
                    op->write_mask & 2 ? 'y' : '-', op->write_mask & 4 ? 'z' : '-',
                    op->write_mask & 8 ? 'w' : '-');
        /* Exactly the slots stored: runs of enabled components, "slots 4..5, 7" for xy-w at
           4 (the others are left as they were, and may lie past out_slots). */
        const unsigned stored = (unsigned)__builtin_popcount(op->write_mask & 0xfu);
        vfetch_text_printf(&t, " -> slot%s", stored > 1 ? "s" : "");
        const char *sep = " ";
        for (unsigned c = 0; c < 4; c++) {
            if (!(op->write_mask >> c & 1))
                continue;
            unsigned end = c;
            while (end + 1 < 4 && (op->write_mask >> (end + 1) & 1))
                end++;
            if (end == c)
                vfetch_text_printf(&t, "%s%u", sep, op->dst_slot + c);
            else
                vfetch_text_printf(&t, "%s%u..%u", sep, op->dst_slot + c, op->dst_slot + end);
            sep = ", ";
            c = end;
        }
        vfetch_text_printf(&t, "\n");
    }
    return t.len;
}
