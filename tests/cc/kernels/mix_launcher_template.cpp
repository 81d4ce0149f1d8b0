// A2A3 mix kernel launched from a launcher template, as pto-isa's system
// tests do: one `<<<>>>` site, a different kernel per instantiation. Each
// Vector sub-block writes Scale into its half of `out`; the Cube core only
// takes part in the launch. Its Cube side runs no Cube instruction, so
// without the __mix__(1, 2) mark ptocc (as bisheng) would infer a Vector-only
// kernel from --cce-aicore-arch=dav-c220 (docs/ptocc.md, "Kernel type").
// Build: ptocc -fPIC -shared -xcce --cce-aicore-arch=dav-c220 -DMEMORY_BASE mix_launcher_template.cpp -o lib.so
#include <pto/pto-inst.hpp>
using namespace pto;

template <int Scale>
__global__ __mix__(1, 2) AICORE void fill_scale(__gm__ float* out) {
#if defined(__DAV_C220_CUBE__)
    pipe_barrier(PIPE_ALL);
#endif
#if defined(__DAV_C220_VEC__)
    using T = Tile<TileType::Vec, float, 1, 8>;
    using G = GlobalTensor<float, TileShape2D<float, 1, 8>, BaseShape2D<float, 1, 8>>;
    T t;
    TASSIGN(t, 0);
    TEXPANDS(t, static_cast<float>(Scale));
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    G g(out + get_subblockid() * 8);
    TSTORE(g, t);
#endif
}

template <int Scale>
void launch_fill(void* stream, uint8_t* out) {
    fill_scale<Scale><<<1, nullptr, stream>>>((__gm__ float*)out);
}

extern "C" void call_fill(int scale, void* stream, uint8_t* out) {
    if (scale == 2) launch_fill<2>(stream, out);
    else launch_fill<3>(stream, out);
}
