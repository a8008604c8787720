/*
 * What the two commands that write a picture, `vfetch texel` and `vfetch gx-texture`, share:
 * the PNG writer (libpng), their --region option, and the refusal of a build without libpng.
 * tools/meson.build defines VFETCH_HAVE_PNG 1 when it found libpng, else 0, and then the
 * commands say so and exit 2 (docs/texel-cli.md, docs/gx-texture-cli.md).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "options.h"

#if VFETCH_HAVE_PNG
#include <png.h>

/* libpng's error callback: keep the message (in the caller's buffer), unwind to setjmp. */
static void rgba_png_error(png_structp png, png_const_charp message)
{
    char *why = png_get_error_ptr(png);
    snprintf(why, 128, "%s", message);
    png_longjmp(png, 1);
}

static void rgba_png_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

/* The part of the writing libpng may unwind from (nothing here changes after setjmp). */
static int rgba_png_rows(png_structp png, png_infop info, FILE *f, const uint8_t *rgba,
                         uint32_t width, uint32_t height)
{
    if (setjmp(png_jmpbuf(png)))
        return -1;
    png_init_io(png, f);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++)
        png_write_row(png, rgba + (size_t)y * width * 4);
    png_write_end(png, NULL);
    return 0;
}

#endif

int write_rgba_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                   char *why)
{
#if VFETCH_HAVE_PNG
    FILE *f = fopen(path, "rb");
    const int existed = f != NULL;
    if (f)
        fclose(f);
    f = fopen(path, "wb");
    if (!f) {
        snprintf(why, 128, "%s", strerror(errno));
        return -1;
    }
    why[0] = '\0';
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, why, rgba_png_error,
                                              rgba_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int rc = info ? rgba_png_rows(png, info, f, rgba, width, height) : -1;
    if (!info)
        snprintf(why, 128, "out of memory");
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0 && rc == 0) {
        snprintf(why, 128, "%s", strerror(errno));
        rc = -1;
    }
    if (rc && !existed)
        remove(path);
    return rc;
#else
    (void)path, (void)rgba, (void)width, (void)height;
    snprintf(why, 128, "this vfetch was built without libpng");
    return -1;
#endif
}

int region_option(const struct args *a, uint32_t region[4])
{
    if (parse_numbers(a->val, ',', 0xffffffffu, region, 4) != 4)
        return usage_error(a->errs, a->cmd, "--region %.40s: not X,Y,W,H", a->val);
    if (!region[2] || !region[3])
        return usage_error(a->errs, a->cmd, "--region %.40s: an empty region makes no picture",
                           a->val);
    return 0;
}

int no_png(FILE *errs, const char *path)
{
    return file_error(errs, 2, "this vfetch was built without libpng: it cannot write %.100s",
                      path);
}
