// A whole GX draw, vertices and host indices, through Dolphin and through vfetch, in one process
// (tools/peer-whole-draw/build-and-run.sh; docs/benchmarks.md, "Whole draws").
//
// Dolphin: the draw's loader looked up as VertexLoaderManager::RefreshLoader does it (a dirty
// bit and a cached pointer), its JIT loader's RunVertices into the vertex buffer (through
// dolphin_vertices.cpp, the virtual call Dolphin makes), then IndexGenerator::AddIndices of the
// vertices loaded. vfetch: vfetch_gx_state_draw_batch. Both append to a batch of the same sizes
// and flush it (restart at its start) every FLUSH_DRAWS draws: the same bookkeeping. The
// captures' format (position f32 XY, texcoord 0 f32 ST, QUADS) at 4 and 16 vertices, Dolphin's
// defaults (16-bit indices, no primitive restart, no line/point expansion) and its vertex
// layout. Checked first: after the same draws both buffers hold the same bytes.
//
// Built with the index peer kit's stub headers (IndexGenerator.h), against the vertex kit's
// loader archive and the index kit's IndexGenerator object.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "Common/Logging/Log.h"
#include "Common/MsgHandler.h"
#include "VideoCommon/IndexGenerator.h"
#include "VideoCommon/VideoConfig.h"

extern "C" {
#include "vfetch/gx.h"
#include "vfetch/vfetch.h"
void* whole_dolphin_loader(uint32_t vcd_lo, uint32_t vcd_hi, uint32_t vat_a, uint32_t vat_b,
                           uint32_t vat_c);
int whole_dolphin_stride(void* loader);
int whole_dolphin_run(void* loader, const uint8_t* src, uint8_t* dst, int count);
}

// What IndexGenerator.cpp reads (the index kit's stub headers declare them; its stubs.cpp is
// not linked: it defines the vertex side's configuration too).
BackendInfo g_backend_info;
VideoConfig g_Config;
namespace Common::Log
{
unsigned long g_stub_log_count = 0;
const char* g_stub_log_last = "";
void StubLog(int, const char*, const char*, int, const char* format)
{
  g_stub_log_count++;
  g_stub_log_last = format;
}
}  // namespace Common::Log
namespace Common
{
void StubAlert(const char* file, int line, const char* format)
{
  std::fprintf(stderr, "[dolphin alert %s:%d] %s\n", file, line, format);
  std::abort();
}
}  // namespace Common

namespace
{
constexpr uint32_t VCD_LO = 1u << 9, VCD_HI = 1;  // position direct, texcoord 0 direct
constexpr uint32_t VAT_A = 4u << 1 | 1u << 21 | 4u << 22 | 1u << 30;  // f32 XY, f32 ST
constexpr int VERTEX_SIZE = 16;
constexpr int DRAWS = 64;          // distinct draws, cycled (each its own vertices)
constexpr int FLUSH_DRAWS = 1024;  // draws a batch takes before it is flushed
constexpr size_t VERTEX_BYTES = (size_t)FLUSH_DRAWS * 16 * 64;
constexpr size_t INDICES = (size_t)FLUSH_DRAWS * 16 * 2;

struct Run
{
  std::vector<uint8_t> src, vbuf;
  std::vector<uint16_t> ibuf;
  int count;
};

// Dolphin's per-VAT loader cache as RefreshLoader keeps it.
struct DolphinSide
{
  uint8_t vat_dirty = 0;
  void* loaders[8] = {};
  int stride = 0;
  IndexGenerator ig;
  uint8_t* vcur = nullptr;
  uint8_t* vbase = nullptr;
  uint16_t* ibase = nullptr;
  int since_flush = 0;

  void start(uint8_t* v, uint16_t* i)
  {
    vbase = vcur = v;
    ibase = i;
    ig.Start(i);
    since_flush = 0;
  }
  __attribute__((noinline)) void draw(const uint8_t* src, int count)
  {
    if (since_flush == FLUSH_DRAWS)
      start(vbase, ibase);
    void* loader = (vat_dirty & 1) ? nullptr : loaders[0];
    const int n = whole_dolphin_run(loader, src, vcur, count);
    vcur += (size_t)n * stride;
    ig.AddIndices(OpcodeDecoder::Primitive::GX_DRAW_QUADS, (u32)n);
    since_flush++;
  }
};

struct VfetchSide
{
  vfetch_gx_state* state = nullptr;
  vfetch_batch batch{};
  int since_flush = 0;

  void start(uint8_t* v, uint16_t* i)
  {
    batch = vfetch_batch{ v, VERTEX_BYTES, 0, 0, 0, i, INDICES, 0 };
    since_flush = 0;
  }
  __attribute__((noinline)) void draw(const uint8_t* src, int count)
  {
    if (since_flush == FLUSH_DRAWS)
    {
      batch.vertices_used = batch.indices_used = 0;
      batch.vertex_count = batch.record_stride = 0;
      since_flush = 0;
    }
    if (vfetch_gx_state_draw_batch(state, 0x80, src, (size_t)count * VERTEX_SIZE, (uint32_t)count,
                                   &batch, nullptr))
      std::abort();
    since_flush++;
  }
};

uint32_t be_float(float f)
{
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return __builtin_bswap32(u);
}

double now_ns()
{
  return (double)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

int main(int argc, char** argv)
{
  const int samples = argc > 1 ? std::atoi(argv[1]) : 21;
  const char* mask = std::getenv("VFETCH_CPU_MASK");
  std::printf("whole draw: captures' format (position f32 XY, texcoord 0 f32 ST), QUADS; Dolphin "
              "(loader lookup, RunVertices, IndexGenerator::AddIndices) against "
              "vfetch_gx_state_draw_batch; VFETCH_CPU_MASK=%s\n",
              mask ? mask : "(none)");
  g_backend_info.bSupportsPrimitiveRestart = false;
  DolphinSide dol;
  dol.ig.Init();
  dol.loaders[0] = whole_dolphin_loader(VCD_LO, VCD_HI, VAT_A, 1u << 31, 0);
  dol.stride = whole_dolphin_stride(dol.loaders[0]);
  VfetchSide vf;
  const vfetch_gx_state_params params = { VFETCH_GX_LAYOUT_DOLPHIN, VFETCH_GX_COLOR_RGBA8,
                                          VFETCH_PATH_AUTO };
  if (vfetch_gx_state_create(&params, &vf.state))
    return 1;
  vfetch_gx_load_cp_reg(vf.state, 0x50, VCD_LO);
  vfetch_gx_load_cp_reg(vf.state, 0x60, VCD_HI);
  vfetch_gx_load_cp_reg(vf.state, 0x70, VAT_A);
  vfetch_gx_load_cp_reg(vf.state, 0x80, 1u << 31);
  const vfetch_gx_plan* plan;
  if (vfetch_gx_state_plan(vf.state, 0, &plan) || (int)vfetch_gx_plan_out_stride(plan) != dol.stride)
  {
    std::fprintf(stderr, "vfetch's record stride differs from Dolphin's %d\n", dol.stride);
    return 1;
  }
  int status = 0;
  for (int count : { 4, 16 })
  {
    // the draws' vertices: random floats, big-endian
    std::vector<uint8_t> src((size_t)DRAWS * count * VERTEX_SIZE);
    uint32_t seed = 12345u + (uint32_t)count;
    for (size_t i = 0; i < src.size(); i += 4)
    {
      seed = seed * 1664525u + 1013904223u;
      const uint32_t v = be_float((float)(seed >> 8) / 65536.0f - 128.0f);
      std::memcpy(&src[i], &v, 4);
    }
    std::vector<uint8_t> vd(VERTEX_BYTES), vv(VERTEX_BYTES);
    std::vector<uint16_t> id(INDICES), iv(INDICES);
    // check: one batch's worth of draws, the same bytes
    dol.start(vd.data(), id.data());
    vf.start(vv.data(), iv.data());
    for (int d = 0; d < FLUSH_DRAWS; d++)
    {
      const uint8_t* s = &src[(size_t)(d % DRAWS) * count * VERTEX_SIZE];
      dol.draw(s, count);
      vf.draw(s, count);
    }
    const size_t vbytes = (size_t)(dol.vcur - vd.data());
    const size_t nidx = dol.ig.GetIndexLen();
    const bool same = vbytes == vf.batch.vertices_used && nidx == vf.batch.indices_used &&
                      !std::memcmp(vd.data(), vv.data(), vbytes) &&
                      !std::memcmp(id.data(), iv.data(), nidx * 2);
    std::printf("  %2d vertices: check, %d draws: %zu vertex bytes, %zu indices: %s\n", count,
                FLUSH_DRAWS, vbytes, nidx, same ? "identical" : "DIFFERENT");
    if (!same)
    {
      status = 1;
      continue;
    }
    // timing: interleaved samples of 64 Ki draws each side, medians
    std::vector<double> td, tv;
    constexpr int PASS = 65536;
    for (int k = 0; k < samples; k++)
    {
      for (int side = 0; side < 2; side++)
      {
        const double t0 = now_ns();
        for (int d = 0; d < PASS; d++)
        {
          const uint8_t* s = &src[(size_t)(d % DRAWS) * count * VERTEX_SIZE];
          if (side == 0)
            dol.draw(s, count);
          else
            vf.draw(s, count);
        }
        (side == 0 ? td : tv).push_back((now_ns() - t0) / PASS);
      }
    }
    std::sort(td.begin(), td.end());
    std::sort(tv.begin(), tv.end());
    const double md = td[td.size() / 2], mv = tv[tv.size() / 2];
    std::printf("  %2d vertices: Dolphin %.2f ns a draw, vfetch %.2f: %.2fx (medians of %d)\n",
                count, md, mv, md / mv, samples);
  }
  vfetch_gx_state_free(vf.state);
  return status;
}
