// The vertex half of Dolphin's draw for tools/peer-whole-draw (built against the vertex peer kit's
// stub headers and its archive of Dolphin's loaders): a JIT loader for a format, and its
// RunVertices, the virtual call VertexLoaderManager::RunVertices makes.
#include <cstdint>

#include "VideoCommon/CPMemory.h"
#include "VideoCommon/VertexLoaderBase.h"
#include "VideoCommon/VideoConfig.h"

extern "C" void* whole_dolphin_loader(uint32_t vcd_lo, uint32_t vcd_hi, uint32_t vat_a,
                                      uint32_t vat_b, uint32_t vat_c)
{
  TVtxDesc desc;
  desc.low.Hex = vcd_lo;
  desc.high.Hex = vcd_hi;
  VAT vat;
  vat.g0.Hex = vat_a;
  vat.g1.Hex = vat_b;
  vat.g2.Hex = vat_c;
  g_ActiveConfig.vertex_loader_type = VertexLoaderType::Native;
  return VertexLoaderBase::CreateVertexLoader(desc, vat).release();
}

extern "C" int whole_dolphin_stride(void* loader)
{
  return static_cast<int>(static_cast<VertexLoaderBase*>(loader)->m_native_vtx_decl.stride);
}

extern "C" int whole_dolphin_run(void* loader, const uint8_t* src, uint8_t* dst, int count)
{
  return static_cast<VertexLoaderBase*>(loader)->RunVertices(src, dst, count);
}
