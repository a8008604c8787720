/* The text builder of the describe calls (text.h). */
#include <stdarg.h>
#include <stdio.h>

#include "text.h"

void vfetch_text_printf(struct vfetch_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = t->len < t->size ? t->buf + t->len : NULL;
    size_t room = t->len < t->size ? t->size - t->len : 0;
    int n = vsnprintf(at, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->len += (size_t)n;
}
