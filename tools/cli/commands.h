/*
 * The `vfetch` tool's commands, each an entry main.c dispatches to, and what several of them
 * share: a plan's text and generated code (plan_text.c), a GX vertex format's text and the
 * gx commands' options (gx_format.c), the PNG writer (png.c).
 *
 * An entry takes the command's arguments as main() takes its own: argv[0] is the command's
 * last word ("r300" of `vfetch explain r300`), its arguments follow. It returns the exit code
 * (cli.h).
 */
#ifndef VFETCH_TOOLS_CLI_COMMANDS_H
#define VFETCH_TOOLS_CLI_COMMANDS_H

#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "vfetch/gx.h"
#include "vfetch/vfetch.h"

/* ---- the commands ---- */

int cmd_explain_r300(int argc, char **argv, FILE *out, FILE *errs);       /* explain_r300.c */
int cmd_explain_maxwell(int argc, char **argv, FILE *out, FILE *errs);    /* explain_maxwell.c */
int cmd_explain_gx(int argc, char **argv, FILE *out, FILE *errs);         /* explain_gx.c */
int cmd_gx(int argc, char **argv, FILE *out, FILE *errs);                 /* gx.c */
int cmd_explain_texel(int argc, char **argv, FILE *out, FILE *errs);      /* texel.c */
int cmd_texel(int argc, char **argv, FILE *out, FILE *errs);              /* texel.c */
int cmd_explain_gx_texture(int argc, char **argv, FILE *out, FILE *errs); /* gx_texture.c */
int cmd_gx_texture(int argc, char **argv, FILE *out, FILE *errs);         /* gx_texture.c */
int cmd_prim(int argc, char **argv, FILE *out, FILE *errs);               /* prim.c */
int cmd_aam(int argc, char **argv, FILE *out, FILE *errs);                /* aam.c */
int cmd_demo(FILE *out, FILE *errs); /* demo.c; it takes no arguments */

/* ---- a plan's text and generated code (plan_text.c) ---- */

/* The plan's description (vfetch_plan_describe) on out. */
void print_plan(FILE *out, const vfetch_plan *plan);

/* An R300 or Maxwell plan's tier: its generated code for draws without an index buffer (below
   the crossover) and through one (every count, where a stream is indexed), and with --asm
   (with_asm) that code; or why it has none. */
void print_plan_jit(FILE *out, const vfetch_plan *plan, int with_asm);

/* Generated code, one instruction a line (Zydis's formatter, where the command was built
   with it: it comes with the JIT). */
void print_jit_code(FILE *out, const struct vfetch_jit_code_view *view);

/* A texel or GX texture plan's description on out, ending in a newline: describe() sizes it
   with a first call, then fills it. Returns 0, or -1 when the text cannot be allocated. */
typedef size_t describe_fn(const void *plan, char *buf, size_t size);
int put_description(FILE *out, describe_fn *describe, const void *plan);

/* ---- GameCube/Wii vertex formats, for explain gx and gx (gx_format.c) ---- */

/* Attribute names by enum vfetch_gx_attr_id, which is also the CP array number. */
extern const char *const gx_attr_names[VFETCH_GX_NUM_ATTRS];
/* Output locations by enum vfetch_gx_location. */
extern const char *const gx_location_names[VFETCH_GX_NUM_LOCATIONS];
/* By enum vfetch_gx_layout and enum vfetch_gx_color_output: the values of --layout, --color. */
extern const char *const gx_layout_names[5];
extern const char *const gx_color_names[2];

/* The format's attributes in stream order, each with its bytes in the vertex (strides: CP
   ARRAY_STRIDE of each attribute's array). */
void gx_print_format(FILE *out, const struct vfetch_gx_format *f, const uint8_t *strides);

/* The attributes in one line, e.g. "position f32 x3 (XYZ), tex0 index8 f32 x2 (ST)". */
void gx_format_summary(char *text, size_t size, const struct vfetch_gx_format *f);

/* The option just taken, --layout L or --color C (the options both gx commands take): 0, or 1
   after a usage error. */
int gx_output_option(const struct args *a, enum vfetch_gx_layout *layout,
                     enum vfetch_gx_color_output *color);

/* A refusal of these VCD/VAT words, after the text where: a reserved color format is named by
   its field (the only word gx.h refuses: VFETCH_EGX_RESERVED_COLOR), anything else by every
   word. Returns 2. */
int gx_refusal(FILE *errs, int err, const struct vfetch_gx_regs *r, const char *where);

/* ---- pictures, for texel and gx-texture (png.c) ---- */

#ifndef VFETCH_HAVE_PNG /* always defined by tools/meson.build; 0 for a bare syntax check */
#define VFETCH_HAVE_PNG 0
#endif

/* Write width x height RGBA bytes as an 8-bit RGBA PNG; 0, or -1 with the reason in why
   (128 bytes). A file this created is removed again on failure (never one that was there,
   which may be a device such as /dev/full). */
int write_rgba_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                   char *why);

/* The option just taken, --region X,Y,W,H, into region: 0, or 1 after a usage error. */
int region_option(const struct args *a, uint32_t region[4]);

/* The refusal of a build without libpng to write path. Returns 2. */
int no_png(FILE *errs, const char *path);

#endif
