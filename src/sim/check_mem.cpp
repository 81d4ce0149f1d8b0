// memcheck and initcheck (docs/checkers.md, "memcheck", "initcheck"): two
// dispatch subscribers over the same records racecheck reads. memcheck keeps,
// per core and local buffer, the byte ranges tiles were written as, to find a
// tile read after another tile's write cut into it; and, in launches whose
// pointer arguments all lie in registered allocations, GM accesses outside
// every allocation. initcheck keeps the bytes written so far: per core and
// local buffer for the launch, per aclrtMalloc block for the process.
#include "check.hpp"
#include "code_address.hpp"
#include "hex.hpp"
#include "device_impl.hpp"
#include "launch.hpp"
#include <dlfcn.h>
#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

namespace ptosim::check {

namespace {

using ptolab::common::hex;

std::string range(Space sp, uint64_t lo, uint64_t hi) {
    return std::string(to_string(sp)) + " [" + hex(lo) + ", " + hex(hi) + ")";
}

std::string who(const char* op, Pipe p, const SourceLoc& loc) {
    return std::string(op) + " (" + to_string(p) + ") at " + loc.str();
}

// Disjoint byte ranges, merged as they are added: the shadow of written bytes.
class Intervals {
public:
    void add(uint64_t lo, uint64_t hi) {
        if (lo >= hi) return;
        auto it = m_.upper_bound(lo);
        if (it != m_.begin()) {
            auto p = std::prev(it);
            if (p->second >= lo) {
                lo = p->first;
                hi = std::max(hi, p->second);
                m_.erase(p);
            }
        }
        while (it != m_.end() && it->first <= hi) {
            hi = std::max(hi, it->second);
            it = m_.erase(it);
        }
        m_.emplace_hint(it, lo, hi);
    }
    // The first part of [lo, hi) never added; empty (first == second) when all was.
    std::pair<uint64_t, uint64_t> gap(uint64_t lo, uint64_t hi) const {
        auto it = m_.upper_bound(lo);
        uint64_t at = lo;
        if (it != m_.begin()) at = std::max(at, std::prev(it)->second);
        if (at >= hi) return {hi, hi};
        return {at, it != m_.end() ? std::min(hi, it->first) : hi};
    }

private:
    std::map<uint64_t, uint64_t> m_;  // lo -> hi, never touching
};

// Calls f(lo, hi) for each run of bytes an access touches (OpRecord::runs),
// until f returns false.
template <class F>
void for_each_run(const OpRecord& r, const Access& a, F f) {
    if (a.runs == 0 || a.runs > r.n_runs) {
        f(a.offset, a.offset + a.bytes);
        return;
    }
    const Runs& x = r.runs[a.runs - 1];
    uint64_t n = 1;
    for (int k = 0; k < x.dims; ++k) n *= x.count[k];
    std::array<uint64_t, Runs::kMaxDims> idx{};
    for (; n > 0; --n) {
        uint64_t at = a.offset;
        for (int k = 0; k < x.dims; ++k) at += idx[k] * x.pitch[k];
        if (!f(at, at + x.run)) return;
        for (int k = x.dims - 1; k >= 0 && ++idx[k] == x.count[k]; --k) idx[k] = 0;
    }
}

// A tile as memcheck sees it: a byte range written as a whole, whether a
// GM load wrote it and anything read it since, and the first later write of
// another range that cut into it without covering it.
struct TileWrite {
    uint64_t lo = 0, hi = 0;
    const char* op = "";
    Pipe pipe = Pipe::S;
    SourceLoc loc;
    bool loaded = false;
    bool read = false;
    // Loaded over a load nothing read: the first load's site.
    bool lost = false;
    const char* lost_op = nullptr;
    SourceLoc lost_loc;
    bool cut = false;
    uint64_t cut_lo = 0, cut_hi = 0;
    const char* cut_op = nullptr;
    Pipe cut_pipe = Pipe::S;
    SourceLoc cut_loc;
    int cut_core = 0;

    static TileWrite of(uint64_t lo, uint64_t hi, const OpRecord& r) {
        TileWrite t;
        t.lo = lo, t.hi = hi, t.op = r.op, t.pipe = r.pipe, t.loc = r.loc, t.loaded = is_load(r);
        return t;
    }
    // A load from GM (TLOAD and the like): MTE2 reading GM.
    static bool is_load(const OpRecord& r) {
        if (r.pipe != Pipe::MTE2) return false;
        for (uint8_t i = 0; i < r.n_reads; ++i)
            if (r.reads[i].space == Space::GM) return true;
        return false;
    }
};

struct CoreShadow {
    std::vector<TileWrite> tiles[kSpaceCount];
    Intervals written[kSpaceCount];
};

// ------------------------------------------------------------ device memory (initcheck)

struct GmBlock {
    uint64_t requested;  // bytes asked for; aclrtMalloc's padding after them is not checked
    Intervals written;
    const void* caller = nullptr;
    bool leak_watch = false;  // allocated while memcheck was on, not yet reported at an aclFinalize
};
std::mutex g_gm_mu;
std::map<uintptr_t, GmBlock> g_gm;  // by base address

GmBlock* gm_block_locked(uint64_t a, uintptr_t* base) {
    auto it = g_gm.upper_bound(static_cast<uintptr_t>(a));
    if (it == g_gm.begin()) return nullptr;
    --it;
    if (a - it->first >= it->second.requested) return nullptr;
    *base = it->first;
    return &it->second;
}


// Marks [lo, hi) written in the device blocks it lies in (with g_gm_mu
// held). A copy may span several blocks only by running past one; what
// lies outside every block is not tracked.
void mark_written_locked(uint64_t lo, uint64_t hi) {
    while (lo < hi) {
        uintptr_t base = 0;
        GmBlock* b = gm_block_locked(lo, &base);
        if (!b) return;
        const uint64_t end = std::min<uint64_t>(hi, base + b->requested);
        b->written.add(lo, end);
        lo = end;
    }
}

}  // namespace

void gm_allocated(const void* p, uint64_t requested, const void* caller) {
    if (!p) return;
    const unsigned on = tools();
    if (!(on & (kInit | kMem))) return;
    GmBlock b{requested, {}, caller, (on & kMem) != 0};
    std::lock_guard lk(g_gm_mu);
    g_gm[reinterpret_cast<uintptr_t>(p)] = std::move(b);
}

void gm_host_write(const void* p, uint64_t bytes) {
    std::lock_guard lk(g_gm_mu);
    if (g_gm.empty()) return;
    const uint64_t lo = reinterpret_cast<uintptr_t>(p);
    mark_written_locked(lo, lo + bytes);
}

void gm_freed(const void* p) {
    std::lock_guard lk(g_gm_mu);
    g_gm.erase(reinterpret_cast<uintptr_t>(p));
}

// Device memory never freed when the program finalises ACL: on hardware it
// stays allocated until the process ends (or the device is reset), and a
// program that allocates per call runs out of it. One report per code
// address that called aclrtMalloc, counting its blocks; a block is reported
// once, at the first aclFinalize after its allocation.
void gm_finalize() {
    if (!enabled(kMem)) return;
    struct Site {
        std::string where;
        uint64_t first = 0, first_size = 0, blocks = 0, bytes = 0;
    };
    std::vector<std::pair<const void*, Site>> sites;  // in order of the first block's address
    {
        std::lock_guard lk(g_gm_mu);
        for (auto& [base, b] : g_gm) {
            if (!b.leak_watch) continue;
            b.leak_watch = false;
            auto it = std::find_if(sites.begin(), sites.end(), [&](const auto& s) { return s.first == b.caller; });
            if (it == sites.end()) {
                sites.push_back({b.caller, Site{"aclrtMalloc called from " + describe_call_site(b.caller), base, b.requested, 0, 0}});
                it = std::prev(sites.end());
            }
            ++it->second.blocks;
            it->second.bytes += b.requested;
        }
    }
    std::vector<Report> reports;
    for (const auto& [caller, s] : sites) {
        Report rep;
        rep.tool = "memcheck";
        rep.kind = "leak";
        rep.severity = "error";
        rep.core = "host";
        rep.block = rep.subblock = -1;
        rep.buffer = "GM";
        rep.lo = s.first;
        rep.hi = s.first + s.first_size;
        rep.count = s.blocks;
        rep.sites = {{SourceLoc{}, "aclrtMalloc", Pipe::S, "", "host"}};
        rep.message = "aclFinalize with " + std::to_string(s.blocks) + " device block(s) of " + std::to_string(s.bytes) +
                      " bytes never freed, allocated by " + s.where + " (the first: the " +
                      std::to_string(s.first_size) + "-byte block at " + hex(s.first) + ")";
        rep.fix = "call aclrtFree(ptr) before aclFinalize for every block allocated there";
        reports.push_back(std::move(rep));
    }
    if (!reports.empty()) emit(std::move(reports));
}

// ------------------------------------------------------------ launch state

class MemInit {
public:
    MemInit(Launch& l, ReportSink sink) : launch_(l), sink_(std::move(sink)) {
        cores_.resize(l.core_count());
        // Launches through ACL hand the kernel device blocks only: then every
        // GM address is one of an allocation. Host-pointer launches (ptosim's
        // own C++ tests, unregistered buffers) cannot be judged so.
        const auto& args = l.spec().gm_args;
        strict_gm_ = std::any_of(args.begin(), args.end(), [](const void* a) { return a != nullptr; }) &&
                     std::all_of(args.begin(), args.end(),
                                 [](const void* a) { return !a || Device::get().find(a).has_value(); });
    }

    void mem(const Core& c, const OpRecord& r) {
        // One instruction reading one tile as two operands after the second
        // of two loads into it: the signature of two tiles at one address.
        for (uint8_t i = 0; i < r.n_reads; ++i)
            for (uint8_t j = i + 1; j < r.n_reads; ++j)
                if (r.reads[i].space == r.reads[j].space && r.reads[i].offset == r.reads[j].offset &&
                    r.reads[i].bytes == r.reads[j].bytes && r.reads[i].space != Space::GM && !r.reads[i].runs)
                    aliased_read(c, r, r.reads[i]);
        for (uint8_t i = 0; i < r.n_reads; ++i) mem_access(c, r, r.reads[i], false);
        for (uint8_t i = 0; i < r.n_writes; ++i) mem_access(c, r, r.writes[i], true);
    }

    void init(const Core& c, const OpRecord& r) {
        for (uint8_t i = 0; i < r.n_reads; ++i) init_read(c, r, r.reads[i]);
        for (uint8_t i = 0; i < r.n_writes; ++i) init_write(c, r, r.writes[i]);
    }

private:
    CoreShadow& at(int index) {
        if (static_cast<size_t>(index) >= cores_.size()) cores_.resize(index + 1);
        return cores_[index];
    }

    void mem_access(const Core& c, const OpRecord& r, const Access& a, bool write) {
        if (a.bytes == 0) return;
        if (a.space == Space::GM) {
            if (strict_gm_) gm_bounds(c, r, a, write);
            return;
        }
        // A strided write is a region inside a tile (TINSERT), not a tile.
        if (a.runs && write) return;
        int owners[2];
        const int n = access_cores(launch_, c, r, a.space, owners);
        for (int i = 0; i < n; ++i) {
            auto& tiles = at(owners[i]).tiles[static_cast<int>(a.space)];
            if (write) tile_write(c, r, a, tiles);
            else tile_read(c, r, a, tiles);
        }
    }

    // A write of [lo, hi): the tile written with exactly this range again,
    // tiles it covers gone, tiles it only partly overlaps cut (a range it
    // lies inside is taken as a view of the same tile: a sub-tile or a row).
    void tile_write(const Core& c, const OpRecord& r, const Access& a, std::vector<TileWrite>& tiles) {
        const uint64_t lo = a.offset, hi = a.offset + a.bytes;
        bool same = false;
        size_t keep = 0;
        for (size_t i = 0; i < tiles.size(); ++i) {
            TileWrite& t = tiles[i];
            if (t.hi <= lo || hi <= t.lo) {
                tiles[keep++] = t;
                continue;
            }
            if (t.lo == lo && t.hi == hi) {
                // A load of a valid region smaller than the tile keeps the
                // rest: a sentinel or padding loaded first stays (records give
                // the tile's whole storage, `bytes` what the load moves).
                const bool lost = t.loaded && !t.read && TileWrite::is_load(r) && r.bytes >= a.bytes;
                const TileWrite first = t;
                t = TileWrite::of(lo, hi, r);
                if (lost) t.lost = true, t.lost_op = first.op, t.lost_loc = first.loc;
                same = true;
                tiles[keep++] = t;
                continue;
            }
            if (lo <= t.lo && t.hi <= hi) continue;  // overwritten whole
            if (!(t.lo <= lo && hi <= t.hi) && !t.cut) {
                t.cut = true;
                t.cut_lo = std::max(lo, t.lo);
                t.cut_hi = std::min(hi, t.hi);
                t.cut_op = r.op;
                t.cut_pipe = r.pipe;
                t.cut_loc = r.loc;
                t.cut_core = c.index;
            }
            tiles[keep++] = t;
        }
        tiles.resize(keep);
        if (!same) {
            // Bounded like a history: the oldest ranges go first.
            if (tiles.size() >= 4096) tiles.erase(tiles.begin());
            tiles.push_back(TileWrite::of(lo, hi, r));
        }
    }

    // Two loads of the same bytes with no read between, then one
    // instruction reading them as two operands: two tiles TASSIGNed to the
    // same address, the first one's data lost before it was used. (A second
    // load alone is no proof: tests load a sentinel and then the tile.)
    void aliased_read(const Core& c, const OpRecord& r, const Access& a) {
        int owners[2];
        if (access_cores(launch_, c, r, a.space, owners) != 1) return;
        for (const TileWrite& t : at(owners[0]).tiles[static_cast<int>(a.space)]) {
            if (t.lo != a.offset || t.hi != a.offset + a.bytes || !t.lost) continue;
            if (sink_.repeat("memcheck", "overlapping-tiles", t.lost_loc, t.loc)) return;
            Report rep;
            rep.tool = "memcheck";
            rep.kind = "overlapping-tiles";
            rep.buffer = to_string(a.space);
            rep.lo = t.lo;
            rep.hi = t.hi;
            rep.sites = {{t.lost_loc, t.lost_op, Pipe::MTE2, "write", c.name()}, {t.loc, t.op, t.pipe, "write", c.name()}};
            rep.message = who(t.op, t.pipe, t.loc) + " loaded " + range(a.space, t.lo, t.hi) + " over the tile " +
                          who(t.lost_op, Pipe::MTE2, t.lost_loc) + " loaded there before anything read it, and " +
                          who(r.op, r.pipe, r.loc) + " reads those bytes as two operands: two tiles at the same "
                          "address, the first one's data lost";
            rep.fix = "give the tiles loaded at " + t.lost_loc.str() + " and " + t.loc.str() +
                      " TASSIGN addresses that do not overlap";
            sink_.add(c.index, std::move(rep));
            return;
        }
    }

    void tile_read(const Core& c, const OpRecord& r, const Access& a, std::vector<TileWrite>& tiles) {
        const uint64_t lo = a.offset, hi = a.offset + a.bytes;
        for (TileWrite& t : tiles)
            if (t.lo < hi && lo < t.hi) t.read = true;
        for (const TileWrite& t : tiles) {
            if (t.lo != lo || t.hi != hi || !t.cut) continue;
            if (sink_.repeat("memcheck", "overlapping-tiles", t.cut_loc, r.loc)) return;
            Report rep;
            rep.tool = "memcheck";
            rep.kind = "overlapping-tiles";
            rep.buffer = to_string(a.space);
            rep.lo = t.cut_lo;
            rep.hi = t.cut_hi;
            rep.sites = {{t.cut_loc, t.cut_op, t.cut_pipe, "write", launch_.core_name(t.cut_core)},
                         {r.loc, r.op, r.pipe, "read", c.name()}};
            rep.message = who(r.op, r.pipe, r.loc) + " reads the tile at " + range(a.space, lo, hi) + " that " +
                          who(t.op, t.pipe, t.loc) + " wrote, but " + who(t.cut_op, t.cut_pipe, t.cut_loc) +
                          " wrote another tile over part of it since: the two live tiles share " +
                          range(a.space, t.cut_lo, t.cut_hi);
            rep.fix = "give the tile written at " + t.cut_loc.str() + " a TASSIGN address outside " +
                      range(a.space, lo, hi) + " (the tile read at " + r.loc.str() +
                      "), or read that tile before its bytes are reused";
            sink_.add(c.index, std::move(rep));
            return;
        }
    }

    // An access outside every registered allocation in a launch whose
    // pointer arguments all lie in one. Ranges that start in a block, or
    // run into one, the runtime's own check faults on (check_gm).
    void gm_bounds(const Core& c, const OpRecord& r, const Access& a, bool write) {
        Device& d = Device::get();
        const uint64_t lo = a.offset, hi = a.offset + a.bytes;
        uint64_t below_base = 0, below_size = 0;
        {
            std::lock_guard lk(d.impl().mu);
            const auto& all = d.impl().allocations;
            auto it = all.upper_bound(static_cast<uintptr_t>(lo));
            if (it != all.end() && it->first < hi) return;
            if (it != all.begin()) {
                --it;
                // The block's tail: check_gm already made it a gm-past-allocation report.
                if (lo - it->first < it->second.extent()) return;
                below_base = it->first;
                below_size = it->second.size;
            }
        }
        if (find_freed(d, static_cast<uintptr_t>(lo))) return;  // the use-after-free fault names the aclrtFree
        if (sink_.repeat("memcheck", "gm-unallocated", r.loc, SourceLoc{})) return;
        Report rep;
        rep.tool = "memcheck";
        rep.kind = "gm-unallocated";
        rep.buffer = "GM";
        rep.lo = lo;
        rep.hi = hi;
        rep.sites = {{r.loc, r.op, r.pipe, write ? "write" : "read", c.name()}};
        rep.message = who(r.op, r.pipe, r.loc) + (write ? " writes " : " reads ") + range(Space::GM, lo, hi) +
                      ", which lies in no allocation";
        if (below_size)
            rep.message += " (it starts " + std::to_string(lo - (below_base + below_size)) + " bytes past the end of the " +
                           std::to_string(below_size) + "-byte block at " + hex(below_base) + ")";
        rep.message += "; every pointer argument of the launch points into an allocation, so the address was computed "
                       "outside them";
        rep.fix = "check the offset added to the kernel's GM argument at " + r.loc.str() +
                  " (block index x tile size, the GlobalTensor shape and strides) against the size given to aclrtMalloc";
        sink_.add(c.index, std::move(rep));
    }

    void init_read(const Core& c, const OpRecord& r, const Access& a) {
        if (a.bytes == 0) return;
        if (a.space == Space::GM) return gm_read(c, r, a);
        // Data movers between local buffers (MTE1, MTE3, FIX) carry whole
        // tiles of which kernels often wrote and later use only a part: the
        // valid rows of a tail tile in L1, the matmul's rows of an
        // accumulator moved whole for the dual split (reference cookbook,
        // cube_tile.hpp, matmul_add.cpp). Such a move is reported only when
        // nothing at all was written to what it reads.
        // A5's loads into registers (vlds, vldus, plds, vgather2: a vector
        // record that writes no buffer) read whole registers over a tile's
        // tail and padding, the lanes past the valid ones masked off later;
        // what the register's lanes are used for is not tracked, so they are
        // judged like the movers.
        const bool mover = ((r.pipe == Pipe::MTE1 || r.pipe == Pipe::MTE3 || r.pipe == Pipe::FIX) && writes_local(r)) ||
                           (r.pipe == Pipe::V && r.n_writes == 0);
        int owners[2];
        const int n = access_cores(launch_, c, r, a.space, owners);
        for (int i = 0; i < n; ++i) {
            const Intervals& w = at(owners[i]).written[static_cast<int>(a.space)];
            uint64_t glo = 0, ghi = 0;
            bool any = false;
            for_each_run(r, a, [&](uint64_t lo, uint64_t hi) {
                const auto [x, y] = w.gap(lo, hi);
                if (x != lo || y != hi) any = true;
                if (x != y && glo == ghi) glo = x, ghi = y;
                return !(mover ? any : glo != ghi);
            });
            if (glo == ghi || (mover && any)) continue;
            if (sink_.repeat("initcheck", "uninitialized-read", r.loc, SourceLoc{})) return;
            Report rep;
            rep.tool = "initcheck";
            rep.kind = "uninitialized-read";
            rep.buffer = to_string(a.space);
            rep.lo = glo;
            rep.hi = ghi;
            const std::string owner = launch_.core_name(owners[i]);
            rep.sites = {{r.loc, r.op, r.pipe, "read", c.name()}};
            rep.message = who(r.op, r.pipe, r.loc) + " reads " + range(a.space, glo, ghi) +
                          (owners[i] == c.index ? "" : " of " + owner) + ", which nothing wrote in this launch (the read covers " +
                          range(a.space, a.offset, a.offset + a.bytes) + ")";
            rep.fix = "write these bytes before " + r.loc.str() +
                      " (TLOAD, a vector instruction, TEXPANDS, ...) or check the tile's TASSIGN address and shape; "
                      "local buffers hold nothing defined when a kernel starts";
            sink_.add(c.index, std::move(rep));
            return;
        }
    }

    static bool writes_local(const OpRecord& r) {
        for (uint8_t i = 0; i < r.n_writes; ++i)
            if (r.writes[i].space != Space::GM) return true;
        return false;
    }

    void init_write(const Core& c, const OpRecord& r, const Access& a) {
        if (a.bytes == 0) return;
        if (a.space == Space::GM) {
            std::lock_guard lk(g_gm_mu);
            if (g_gm.empty()) return;
            for_each_run(r, a, [](uint64_t lo, uint64_t hi) {
                mark_written_locked(lo, hi);
                return true;
            });
            return;
        }
        int owners[2];
        const int n = access_cores(launch_, c, r, a.space, owners);
        for (int i = 0; i < n; ++i) {
            Intervals& w = at(owners[i]).written[static_cast<int>(a.space)];
            for_each_run(r, a, [&](uint64_t lo, uint64_t hi) {
                w.add(lo, hi);
                return true;
            });
        }
    }

    // A GM read of device-block bytes neither the host nor a kernel wrote.
    // AtomicAdd stores are writes only: accumulating into a block nobody
    // cleared is a read hardware does, but the record cannot tell its
    // first store from later ones, so it is not judged.
    void gm_read(const Core& c, const OpRecord& r, const Access& a) {
        // A prefetch is a cache hint: nothing it reads is used.
        if (std::strncmp(r.op, "TPREFETCH", 9) == 0) return;
        std::unique_lock lk(g_gm_mu);
        if (g_gm.empty()) return;
        uint64_t glo = 0, ghi = 0, base = 0, requested = 0;
        const void* caller = nullptr;
        for_each_run(r, a, [&](uint64_t lo, uint64_t hi) {
            uintptr_t b = 0;
            GmBlock* blk = gm_block_locked(lo, &b);
            if (!blk) return true;
            const auto [x, y] = blk->written.gap(lo, std::min<uint64_t>(hi, b + blk->requested));
            if (x == y) return true;
            glo = x, ghi = y, base = b, requested = blk->requested, caller = blk->caller;
            return false;
        });
        lk.unlock();
        if (glo == ghi) return;
        if (sink_.repeat("initcheck", "uninitialized-read", r.loc, SourceLoc{})) return;
        Report rep;
        rep.tool = "initcheck";
        rep.kind = "uninitialized-read";
        rep.buffer = "GM";
        rep.lo = glo;
        rep.hi = ghi;
        rep.sites = {{r.loc, r.op, r.pipe, "read", c.name()}};
        rep.message = who(r.op, r.pipe, r.loc) + " reads " + range(Space::GM, glo, ghi) + " of the " +
                      std::to_string(requested) + "-byte device block at " + hex(base) + " (aclrtMalloc called from " +
                      describe_call_site(caller) +
                      "), which neither the host (aclrtMemcpy, aclrtMemset) nor a kernel wrote since it was allocated";
        rep.fix = "copy the input into the block with aclrtMemcpy (or clear it with aclrtMemset) before the launch, or "
                  "write it in the kernel before " + r.loc.str() + "; aclrtMalloc leaves device memory undefined";
        sink_.add(c.index, std::move(rep));
    }

    Launch& launch_;
    ReportSink sink_;
    std::vector<CoreShadow> cores_;
    bool strict_gm_ = false;
};

MemInit* mem_init_new(Launch& l, unsigned, ReportSink sink) { return new MemInit(l, std::move(sink)); }
void mem_init_delete(MemInit* m) { delete m; }
void mem_record(MemInit& m, const Core& c, const OpRecord& r) { m.mem(c, r); }
void init_record(MemInit& m, const Core& c, const OpRecord& r) { m.init(c, r); }

int access_cores(Launch& l, const Core& c, const OpRecord& r, Space space, int out[2]) {
    if (space == Space::GM) return 0;
    if (c.mem_size[static_cast<int>(space)] != 0) {
        out[0] = c.index;
        return 1;
    }
    if (l.cores_per_group() != 3) return 0;
    const int group = c.index / 3 * 3;
    if (c.type == CoreType::AIV) {
        out[0] = group;
        return 1;
    }
    const unsigned mask = r.peer_subblocks ? r.peer_subblocks : 1u;
    int n = 0;
    for (int s = 0; s < 2; ++s)
        if (mask & (1u << s)) out[n++] = group + 1 + s;
    return n;
}

}  // namespace ptosim::check
