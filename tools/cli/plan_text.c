/*
 * A plan as text, for the explain commands and demo: its description, its tier (the
 * generated code, or why it has none) and, with --asm, that code as instructions (Zydis's
 * formatter, where tools/meson.build defines VFETCH_CLI_ZYDIS 1: it comes with the JIT).
 */
#include <stdint.h>
#include <stdlib.h>

#include "commands.h"
#if VFETCH_CLI_ZYDIS
#include <Zydis/Zydis.h>
#endif
#include "vfetch/vfetch.h"

void print_plan(FILE *out, const vfetch_plan *plan)
{
    const size_t need = vfetch_plan_describe(plan, NULL, 0);
    char *text = malloc(need + 1);
    if (!text)
        return;
    vfetch_plan_describe(plan, text, need + 1);
    fputs(text, out);
    free(text);
}

int put_description(FILE *out, describe_fn *describe, const void *plan)
{
    const size_t need = describe(plan, NULL, 0);
    char *text = malloc(need + 1);
    if (!text)
        return -1;
    describe(plan, text, need + 1);
    fputs(text, out);
    if (need && text[need - 1] != '\n')
        fputc('\n', out);
    free(text);
    return 0;
}

void print_jit_code(FILE *out, const struct vfetch_jit_code_view *view)
{
    const struct vfetch_jit_code_view v = *view;
    if (!v.size)
        return;
#if VFETCH_CLI_ZYDIS
    const uint8_t *b = v.bytes;
    ZydisDisassembledInstruction ins;
    for (size_t at = v.entry; at < v.size; at += ins.info.length) {
        if (!ZYAN_SUCCESS(ZydisDisassembleIntel(ZYDIS_MACHINE_MODE_LONG_64, v.address + at,
                                                b + at, v.size - at, &ins)))
            break;
        fprintf(out, "  %04zx  %s\n", at, ins.text);
    }
#else
    fprintf(out, "  (%zu bytes; this build of the command has no disassembler)\n", v.size - v.entry);
#endif
}

void print_plan_jit(FILE *out, const vfetch_plan *plan, int with_asm)
{
    struct vfetch_plan_info info;
    vfetch_plan_info(plan, &info);
    if (!info.jit) {
        fprintf(out, "jit: none (%s)\n", info.jit_reason);
        return;
    }
    const struct vfetch_plan_desc *d = vfetch_plan_get_desc(plan);
    int indexed = 0;
    for (unsigned s = 0; s < d->num_streams; s++)
        indexed |= d->streams[s].step == VFETCH_STEP_INDEXED && vfetch_plan_stream_extent(plan, s);
    fprintf(out, "jit: %u bytes of generated code (with constants), ", info.jit_code_bytes);
    if (info.jit_crossover == UINT32_MAX)
        fputs("every draw", out);
    else
        fprintf(out, "draws without an index buffer below %u records", info.jit_crossover);
    if (indexed)
        fputs(info.jit_gathered ? "; draws through an index buffer at every count (a second "
                                  "entry: whole groups, each record from its entry's place)"
                                : "; draws through an index buffer at every count (a second entry)",
              out);
    fputs(info.jit_fma_division
              ? "; divisions by a product and one FMA (the 8-lane groups', the per-vertex "
                "ops' where measured faster, or every one where VFETCH_JIT_DIVISION=fma)\n"
              : "\n",
          out);
    struct vfetch_jit_code_view view;
    if (with_asm && !vfetch_plan_jit_code(plan, &view))
        print_jit_code(out, &view);
}
