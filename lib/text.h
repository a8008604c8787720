/*
 * Text built into a caller's buffer the way snprintf does, for the describe calls
 * (vfetch_plan_describe, vfetch_texel_plan_describe). Not installed.
 */
#ifndef VFETCH_TEXT_H
#define VFETCH_TEXT_H

#include <stddef.h>

/** The text so far: len counts what the whole text needs, the buffer (size bytes) holds what
    fits. */
struct vfetch_text {
    char *buf;
    size_t size;
    size_t len;
};

/** Append printf-style to t. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void vfetch_text_printf(struct vfetch_text *t, const char *fmt, ...);

#endif
