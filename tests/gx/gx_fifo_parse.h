/*
 * A walker over Dolphin FIFO captures (.dff, file version 1; the format is described in
 * ../shared/testdata/gx/README.md): it hands every CP register write and every draw command,
 * in stream order, to callbacks. Shared by the gx-fifo test (which checks the walk itself), the
 * replay benchmark (which collects the draws once) and `vfetch gx`, so the format is parsed in
 * one place.
 */
#ifndef GX_FIFO_PARSE_H
#define GX_FIFO_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "vfetch/gx.h"

/** One draw command (opcodes 0x80..0xBF) and the vertex data that follows it. */
struct gx_fifo_draw {
    unsigned frame;
    /** Byte offset of the draw command within its frame's FIFO data. */
    size_t offset;
    /** Opcode bits 5:3 (quads, triangles, ...), and bits 2:0: the VAT format 0..7. */
    unsigned primitive, vat;
    /** The VCD and the VAT words of that format in effect at the draw. */
    struct vfetch_gx_regs desc;
    /** vfetch_gx_vertex_size() of desc: the walker needs it to find the next command. */
    uint32_t vertex_size;
    uint32_t count;
    /** count * vertex_size bytes, big-endian, inside the capture's buffer. */
    const uint8_t *vertices;
};

struct gx_fifo_callbacks {
    /** A CP register write: first every word of the capture's initial cpMem (initial = 1),
        then each LOAD_CP_REG in the FIFO (initial = 0). May be NULL. */
    void (*cp_write)(void *user, uint8_t addr, uint32_t value, int initial);
    /** One draw; a nonzero return stops the walk, which then fails. May be NULL. */
    int (*draw)(void *user, const struct gx_fifo_draw *draw);
    void *user;
    /** A frame's FIFO bytes, before its commands are walked (a caller that consumes the
        commands itself, as vfetch_gx_state_run_commands does); a nonzero return stops the
        walk, which then fails. May be NULL. */
    int (*frame)(void *user, unsigned frame, const uint8_t *data, size_t size);
};

/** What a walk saw. cp_writes counts the FIFO's LOAD_CP_REG commands only. */
struct gx_fifo_totals {
    unsigned frames, draws, cp_writes;
    uint64_t vertices;
};

/**
 * Walk a whole capture held in memory (data, size bytes). Returns 0 when the header is sound
 * and every frame's commands, draws with their vertices included, end exactly at the end of the
 * frame's data; otherwise prints why on stderr (prefixed by name) and returns -1. totals may be
 * NULL; it is filled as far as the walk went.
 */
int gx_fifo_walk(const uint8_t *data, size_t size, const char *name,
                 const struct gx_fifo_callbacks *callbacks, struct gx_fifo_totals *totals);

/**
 * The length of the command at p, left bytes there, that is no draw (opcode 0x80-0xBF; its
 * length is 3 + count * vertex size): NOP, LOAD_CP_REG, LOAD_XF_REG, LOAD_INDX, CALL_DL,
 * metrics, invalidate and BP. 0 for an unknown opcode; SIZE_MAX when too few bytes are left to
 * tell (an XF load's header cut short). The length may exceed left: the command is cut short.
 */
size_t gx_fifo_command_length(const uint8_t *p, size_t left);

/** Read a whole file into a malloc'd buffer; NULL (and a message on stderr) on failure. */
uint8_t *gx_fifo_load(const char *path, size_t *size);

/**
 * The .dff files of a directory, sorted by name (so every run replays them in one order), as a
 * malloc'd array of malloc'd names (free with gx_fifo_free_names). Returns the count, or -1
 * when the directory cannot be opened.
 */
int gx_fifo_list(const char *dir, char ***names);

void gx_fifo_free_names(char **names, int count);

#endif
