/* A GX vertex format's output as a host vertex input: the glVertexAttribPointer calls and the
   VkVertexInputAttributeDescription entries an emulator would make, from the declaration
   alone. (Printed rather than called, so that this builds without GL or Vulkan headers.) */
#include <stdio.h>
#include <vfetch/gx.h>

int main(void)
{
    /* position f32 XYZ, color0 RGB565, both direct; Dolphin's layout: packed, RGBA8 colors */
    struct vfetch_gx_desc cp = { 0 };
    cp.regs = (struct vfetch_gx_regs){ .vcd_lo = 0x2200, .vat_a = 0x40000009, .vat_b = 1u << 31 };
    cp.layout = VFETCH_GX_LAYOUT_PACKED;
    cp.color_output = VFETCH_GX_COLOR_RGBA8;
    vfetch_gx_plan *plan;
    if (vfetch_gx_compile(&cp, &plan) != 0)
        return 1;
    struct vfetch_vertex_decl decl;
    if (vfetch_gx_plan_declaration(plan, &decl) != 0)
        return 1;
    static const char *const gl_type[] = { "GL_FLOAT", "GL_UNSIGNED_INT", "GL_UNSIGNED_BYTE" };
    static const char *const vk_format[][4] = {
        { "R32_SFLOAT", "R32G32_SFLOAT", "R32G32B32_SFLOAT", "R32G32B32A32_SFLOAT" },
        { "R32_UINT", "R32G32_UINT", "R32G32B32_UINT", "R32G32B32A32_UINT" },
        { "", "", "", "R8G8B8A8_UNORM" },
    };
    for (unsigned i = 0; i < decl.num_attrs; i++) {
        const struct vfetch_attr_decl *a = &decl.attrs[i];
        /* integers go through glVertexAttribIPointer (no normalized flag) */
        if (a->type == VFETCH_ATTR_UINT32)
            printf("glVertexAttribIPointer(%u, %u, %s, %u, (void *)%u);\n", a->location, a->count,
                   gl_type[a->type], decl.stride, a->offset);
        else
            printf("glVertexAttribPointer(%u, %u, %s, %s, %u, (void *)%u);\n", a->location,
                   a->count, gl_type[a->type], a->normalized ? "GL_TRUE" : "GL_FALSE",
                   decl.stride, a->offset);
        printf("  VkVertexInputAttributeDescription{ .location = %u, .binding = 0, "
               ".format = VK_FORMAT_%s, .offset = %u }\n",
               a->location, vk_format[a->type][a->count - 1], a->offset);
    }
    vfetch_gx_plan_free(plan);
    return decl.num_attrs == 2 && decl.stride == 16 ? 0 : 1;
}
