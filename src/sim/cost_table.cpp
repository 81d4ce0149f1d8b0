// Evaluates the cost model on the kernels of public measurements, from the
// record sequences those kernels issue (built here from their published
// tiling, not executed): the "reconstruction" rows of docs/cost-model.md's
// validation table. Prints one line per row, `<row id>\t<simulated us>`;
// scripts/cost_validation.py owns the published figures and writes the
// table, and the ctest cost_validation_is_current re-runs this program.
//
//   ptosim_cost_table                    # the rows, then the tune_* rows of the ordering check
//   ptosim_cost_table --no-fixed-costs   # the rows without the block start-up and HBM latency
//   ptosim_cost_table --block-start-us <SoC>
#include <ptosim/cost.hpp>
#include <ptosim/runtime.hpp>

#include <cstdio>
#include <string>
#include <vector>

using namespace ptosim;

namespace {

// A tiled matmul as pto-isa's gemm_performance and matmul_mx*_performance
// kernels run it: the m x n output split over a grid of cores; per core,
// baseM x baseN output tiles; per tile, K in chunks of stepK * baseK
// loaded GM -> L1 (double-buffered), each baseK step moved L1 -> L0A/L0B
// (double-buffered) and multiplied; the tile stored L0C -> GM.
struct Gemm {
    int m, k, n;
    int grid_m, grid_n;  // cores along m and n
    int base_m, base_k, base_n, step_k;
    const char* in;   // input dtype name
    double in_bytes;  // bytes per input element
    const char* out;
    double out_bytes;
    bool mx = false;  // one 1-byte scale per 32 k for both operands
};

OpRecord rec(const char* op, Pipe pipe, uint64_t bytes) {
    OpRecord r;
    r.op = op;
    r.pipe = pipe;
    r.bytes = bytes;
    return r;
}

OpRecord flag(SyncOp s, Pipe src, Pipe dst, int ev) {
    OpRecord r;
    r.op = s == SyncOp::SetFlag ? "set_flag" : "wait_flag";
    r.sync = s;
    r.src = src;
    r.dst = dst;
    r.event = ev;
    r.pipe = s == SyncOp::SetFlag ? src : dst;
    return r;
}

// Records of one GM -> L1 load of a rows x row_bytes block with GM row pitch `pitch`.
OpRecord gm_load(uint64_t gm, uint64_t rows, uint64_t row_bytes, uint64_t pitch) {
    OpRecord r = rec("TLOAD", Pipe::MTE2, rows * row_bytes);
    Runs x{};
    x.dims = 1;
    x.run = row_bytes;
    x.count[0] = rows;
    x.pitch[0] = pitch;
    r.read(Access{Space::GM, 0, gm, (rows - 1) * pitch + row_bytes}, x);
    r.write(Space::L1, 0, rows * row_bytes);
    return r;
}

// --no-fixed-costs: the profile's figures without the block start-up and the
// HBM latency (docs/cost-model.md, "Fixed costs"), for the table's "before" column.
bool no_fixed_costs = false;

double run_gemm(const SocProfile& soc, const Gemm& g) {
    cost::Params p = cost::params_for(soc);
    // Before the fixed costs also means before the write-back L2 (writes at
    // the HBM share), the model the column's kernel figures were run with.
    if (no_fixed_costs) {
        p.block_start = p.lat_hbm = 0;
        p.l2_bytes = 0;
    }
    const int cores = g.grid_m * g.grid_n;
    cost::Engine e(p, cores, false);
    const int scm = (g.m + g.grid_m - 1) / g.grid_m, scn = (g.n + g.grid_n - 1) / g.grid_n;
    const uint64_t a_base = 0, b_base = uint64_t(1) << 40;
    const double scale = g.mx ? 1.0 / 32 : 0;  // scale bytes per input element
    for (int c = 0; c < cores; ++c) {
        const int cm = c / g.grid_n, cn = c % g.grid_n;
        const int m0 = cm * scm, n0 = cn * scn;
        const int m1 = std::min(g.m, m0 + scm), n1 = std::min(g.n, n0 + scn);
        int chunk = 0, step = 0, tile = 0;
        std::vector<OpRecord> q;
        for (int mi = m0; mi < m1; mi += g.base_m)
            for (int ni = n0; ni < n1; ni += g.base_n, ++tile) {
                const int bm = std::min(g.base_m, m1 - mi), bn = std::min(g.base_n, n1 - ni);
                for (int k0 = 0; k0 < g.k; k0 += g.base_k * g.step_k, ++chunk) {
                    const int kc = std::min(g.base_k * g.step_k, g.k - k0);
                    const int b1 = chunk % 2;
                    if (chunk >= 2) q.push_back(flag(SyncOp::WaitFlag, Pipe::MTE1, Pipe::MTE2, b1));
                    const uint64_t arow = static_cast<uint64_t>(kc * g.in_bytes * (1 + scale));
                    const uint64_t brow = static_cast<uint64_t>(bn * g.in_bytes);
                    q.push_back(gm_load(a_base + static_cast<uint64_t>((uint64_t(mi) * g.k + k0) * g.in_bytes), bm, arow,
                                        static_cast<uint64_t>(g.k * g.in_bytes)));
                    q.push_back(gm_load(b_base + static_cast<uint64_t>((uint64_t(k0) * g.n + ni) * g.in_bytes),
                                        static_cast<uint64_t>(kc * (1 + scale)), brow,
                                        static_cast<uint64_t>(g.n * g.in_bytes)));
                    q.push_back(flag(SyncOp::SetFlag, Pipe::MTE2, Pipe::MTE1, b1));
                    q.push_back(flag(SyncOp::WaitFlag, Pipe::MTE2, Pipe::MTE1, b1));
                    for (int ks = 0; ks < kc; ks += g.base_k, ++step) {
                        const int bk = std::min(g.base_k, kc - ks);
                        const int b0 = step % 2;
                        if (step >= 2) q.push_back(flag(SyncOp::WaitFlag, Pipe::M, Pipe::MTE1, b0));
                        OpRecord xa = rec("TEXTRACT", Pipe::MTE1, static_cast<uint64_t>(bm * bk * g.in_bytes * (1 + scale)));
                        xa.read(Space::L1, 0, xa.bytes).write(Space::L0A, 0, xa.bytes);
                        OpRecord xb = rec("TEXTRACT", Pipe::MTE1, static_cast<uint64_t>(bk * bn * g.in_bytes * (1 + scale)));
                        xb.read(Space::L1, 0, xb.bytes).write(Space::L0B, 0, xb.bytes);
                        q.push_back(xa);
                        q.push_back(xb);
                        q.push_back(flag(SyncOp::SetFlag, Pipe::MTE1, Pipe::M, b0));
                        q.push_back(flag(SyncOp::WaitFlag, Pipe::MTE1, Pipe::M, b0));
                        if (ks == 0 && k0 == 0 && tile > 0) q.push_back(flag(SyncOp::WaitFlag, Pipe::FIX, Pipe::M, 0));
                        OpRecord mm = rec("TMATMUL", Pipe::M, 0);
                        mm.flops = 2ull * bm * bn * bk;
                        mm.src_dtype = g.in;
                        mm.dtype = "float";
                        q.push_back(mm);
                        q.push_back(flag(SyncOp::SetFlag, Pipe::M, Pipe::MTE1, b0));
                    }
                    q.push_back(flag(SyncOp::SetFlag, Pipe::MTE1, Pipe::MTE2, b1));
                }
                q.push_back(flag(SyncOp::SetFlag, Pipe::M, Pipe::FIX, 0));
                q.push_back(flag(SyncOp::WaitFlag, Pipe::M, Pipe::FIX, 0));
                OpRecord st = rec("TSTORE", Pipe::FIX, static_cast<uint64_t>(bm * bn * g.out_bytes));
                st.read(Space::L0C, 0, st.bytes).write(Space::GM, (uint64_t(2) << 40) + (uint64_t(mi) * g.n + ni) * 4, st.bytes);
                q.push_back(st);
                q.push_back(flag(SyncOp::SetFlag, Pipe::FIX, Pipe::M, 0));
            }
        for (const OpRecord& r : q) e.record(c, r);
    }
    double end = 0;
    for (int c = 0; c < cores; ++c) end = std::max(end, e.core_end(c));
    return end / (p.clock_ghz * 1000) + p.launch_us;
}

void print(const std::string& id, double us) { std::printf("%s\t%.3f\n", id.c_str(), us); }

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--no-fixed-costs") {
            no_fixed_costs = true;
        } else if (a == "--block-start-us" && i + 1 < argc && find_soc(argv[i + 1])) {
            // The block start-up of a profile in microseconds: a kernel that
            // times itself from its first instruction does not see it.
            const cost::Params p = cost::params_for(*find_soc(argv[i + 1]));
            std::printf("%.6f\n", p.block_start / (p.clock_ghz * 1000));
            return 0;
        } else {
            std::fprintf(stderr, "usage: ptosim_cost_table [--no-fixed-costs | --block-start-us <SoC>]\n");
            return 2;
        }
    }
    // Ascend A3, 24 Cube cores, fp16 -> fp32; the output split 4 x 6 over the cores
    // (pto-isa kernels/manual/a2a3/gemm_performance/README.md, "Tiling Parameters").
    const SocProfile& a3 = *find_soc("Ascend910_93");
    for (int s : {1536, 3072, 6144, 7680})
        print("gemm_a3_" + std::to_string(s), run_gemm(a3, Gemm{s, s, s, 4, 6, 128, 64, 256, 4, "half", 2, "float", 4}));
    // The README's base-block choice against the one it says it improves on ("[128, 256, 64] improves
    // arithmetic intensity versus [128, 128, 128]"), at its reference size; it publishes no time for
    // either, only the order.
    if (!no_fixed_costs) {
        print("tune_gemm_a3_6144_m128n256k64",
              run_gemm(a3, Gemm{6144, 6144, 6144, 4, 6, 128, 64, 256, 4, "half", 2, "float", 4}));
        print("tune_gemm_a3_6144_m128n128k128",
              run_gemm(a3, Gemm{6144, 6144, 6144, 4, 6, 128, 128, 128, 4, "half", 2, "float", 4}));
    }
    // Ascend A5, 32 Cube cores (blockDim 32 in the kernels' main.cpp), the output split 4 x 8.
    const SocProfile& a5 = *find_soc("Ascend950DT");
    for (int s : {2048, 4096, 6144, 8192})
        print("mxfp8_" + std::to_string(s),
              run_gemm(a5, Gemm{s, s, s, 4, 8, 128, 128, 256, 4, "float8_e4m3_t", 1, "half", 2, true}));
    struct Mk {
        int m, k, n;
    };
    for (Mk x : std::vector<Mk>{{2048, 2048, 2048}, {2048, 4096, 4096}, {4096, 1024, 8192},
                                {1024, 12288, 4096}, {2048, 8192, 8192}, {2040, 8192, 8100}})
        print("mxfp4_" + std::to_string(x.m) + "x" + std::to_string(x.k) + "x" + std::to_string(x.n),
              run_gemm(a5, Gemm{x.m, x.k, x.n, 4, 8, 256, 256, 256, 2, "float4_e2m1x2_t", 0.5, "half", 2, true}));
    return 0;
}
