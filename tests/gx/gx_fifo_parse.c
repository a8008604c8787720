/*
 * Dolphin FIFO capture walker (see gx_fifo_parse.h). Header fields are little-endian, the GX
 * command data inside is big-endian.
 */
#include "gx_fifo_parse.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GX_FIFO_FILE_ID 0x0D01F1F0u
#define GX_FIFO_HEADER_BYTES 128
#define GX_FIFO_FRAME_INFO_BYTES 64

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

size_t gx_fifo_command_length(const uint8_t *p, size_t left)
{
    switch (p[0]) {
    case 0x00: case 0x44: case 0x48: return 1; /* NOP, metrics, invalidate */
    case 0x08: return 6;                       /* LOAD_CP_REG */
    case 0x10: /* LOAD_XF_REG: a header word, then ((w >> 16) & 0xF) + 1 words */
        return left < 5 ? SIZE_MAX : 5 + 4 * (size_t)(((be32(p + 1) >> 16) & 0xf) + 1);
    case 0x20: case 0x28: case 0x30: case 0x38: case 0x61: return 5; /* LOAD_INDX, BP */
    case 0x40: return 9;                                              /* CALL_DL */
    default: return 0;
    }
}

/* Walk one frame's FIFO bytes, keeping cp (the CP registers, by number) current. */
static int walk_frame(const uint8_t *p, size_t size, unsigned frame, uint32_t *cp, const char *name,
                      const struct gx_fifo_callbacks *cb, struct gx_fifo_totals *t)
{
    size_t pos = 0;
    while (pos < size) {
        const uint8_t op = p[pos];
        size_t len;
        if (op >= 0x80 && op <= 0xbf) {
            if (size - pos < 3)
                goto past_end;
            struct gx_fifo_draw d;
            d.frame = frame;
            d.offset = pos;
            d.primitive = (op >> 3) & 7;
            d.vat = op & 7;
            d.count = (uint32_t)p[pos + 1] << 8 | p[pos + 2];
            d.desc = (struct vfetch_gx_regs){ cp[0x50], cp[0x60], cp[0x70 + d.vat], cp[0x80 + d.vat],
                                              cp[0x90 + d.vat] };
            const int err = vfetch_gx_vertex_size(&d.desc, &d.vertex_size);
            if (err) {
                fprintf(stderr, "%s: frame %u, draw at %zu: %s\n", name, frame, pos, vfetch_strerror(err));
                return -1;
            }
            len = 3 + (size_t)d.count * d.vertex_size;
            if (len > size - pos)
                goto past_end;
            d.vertices = p + pos + 3;
            if (cb && cb->draw && cb->draw(cb->user, &d) != 0)
                return -1;
            t->draws++;
            t->vertices += d.count;
        } else {
            len = gx_fifo_command_length(p + pos, size - pos);
            if (!len) {
                fprintf(stderr, "%s: unknown FIFO opcode 0x%02x at %zu of %zu\n", name, op, pos, size);
                return -1;
            }
            if (len > size - pos) /* SIZE_MAX too: not even the length is there */
                goto past_end;
            if (op == 0x08) { /* LOAD_CP_REG */
                cp[p[pos + 1]] = be32(p + pos + 2);
                if (cb && cb->cp_write)
                    cb->cp_write(cb->user, p[pos + 1], be32(p + pos + 2), 0);
                t->cp_writes++;
            }
        }
        if (len > size - pos)
            goto past_end;
        pos += len;
    }
past_end:
    if (pos != size) { /* the command at pos runs past the end: a vertex size or length is wrong */
        fprintf(stderr, "%s: frame %u: the command at %zu (0x%02x) runs past the frame's end at %zu\n",
                name, frame, pos, p[pos], size);
        return -1;
    }
    return 0;
}

int gx_fifo_walk(const uint8_t *b, size_t n, const char *name, const struct gx_fifo_callbacks *cb,
                 struct gx_fifo_totals *totals)
{
    struct gx_fifo_totals scratch;
    struct gx_fifo_totals *t = totals ? totals : &scratch;
    memset(t, 0, sizeof *t);
    if (n < GX_FIFO_HEADER_BYTES || le32(b) != GX_FIFO_FILE_ID) {
        fprintf(stderr, "%s: not a Dolphin FIFO capture\n", name);
        return -1;
    }
    /* header: id, version, min version, then (u64 offset, u32 count) for bpMem, cpMem, xfMem,
       xfRegs, then u64 frame-list offset, u32 frame count */
    const uint64_t cp_off = le64(b + 24);
    const uint32_t cp_count = le32(b + 32);
    const uint64_t frames_off = le64(b + 60);
    const uint32_t frames = le32(b + 68);
    if (cp_count > 256 || cp_off > n || 4ull * cp_count > n - cp_off) {
        fprintf(stderr, "%s: cpMem (%u words at %llu) outside the file\n", name, cp_count,
                (unsigned long long)cp_off);
        return -1;
    }
    if (frames_off > n || (uint64_t)GX_FIFO_FRAME_INFO_BYTES * frames > n - frames_off) {
        fprintf(stderr, "%s: frame list (%u frames at %llu) outside the file\n", name, frames,
                (unsigned long long)frames_off);
        return -1;
    }
    uint32_t cp[256] = { 0 };
    for (uint32_t i = 0; i < cp_count; i++) {
        cp[i] = le32(b + cp_off + 4 * i);
        if (cb && cb->cp_write)
            cb->cp_write(cb->user, (uint8_t)i, cp[i], 1);
    }
    for (uint32_t fr = 0; fr < frames; fr++) {
        const uint8_t *info = b + frames_off + (uint64_t)GX_FIFO_FRAME_INFO_BYTES * fr;
        const uint64_t data = le64(info);
        const uint32_t size = le32(info + 8);
        if (data > n || size > n - data) {
            fprintf(stderr, "%s: frame %u (%u bytes at %llu) outside the file\n", name, fr, size,
                    (unsigned long long)data);
            return -1;
        }
        if (cb && cb->frame && cb->frame(cb->user, fr, b + data, size) != 0)
            return -1;
        if (walk_frame(b + data, size, fr, cp, name, cb, t) != 0)
            return -1;
        t->frames++;
    }
    return 0;
}

uint8_t *gx_fifo_load(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, "%s: cannot open\n", path);
        return NULL;
    }
    uint8_t *b = NULL;
    long n = -1;
    if (fseek(file, 0, SEEK_END) == 0)
        n = ftell(file);
    if (n > 0 && fseek(file, 0, SEEK_SET) == 0)
        b = malloc((size_t)n);
    if (b && fread(b, 1, (size_t)n, file) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(file);
    if (!b) {
        fprintf(stderr, "%s: cannot read\n", path);
        return NULL;
    }
    *size = (size_t)n;
    return b;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int gx_fifo_list(const char *dir_name, char ***out_names)
{
    *out_names = NULL;
    DIR *dir = opendir(dir_name);
    if (!dir)
        return -1;
    char **names = NULL;
    int count = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        const size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 4, ".dff") != 0)
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 8;
            char **grown = realloc(names, (size_t)cap * sizeof *names);
            if (!grown)
                abort();
            names = grown;
        }
        names[count] = malloc(len + 1);
        if (!names[count])
            abort();
        memcpy(names[count++], e->d_name, len + 1);
    }
    closedir(dir);
    if (count)
        qsort(names, (size_t)count, sizeof *names, compare_names);
    *out_names = names;
    return count;
}

void gx_fifo_free_names(char **names, int count)
{
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
}
