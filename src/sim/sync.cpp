// Intra-core event flags, A2A3 FFTS cross-core flags and A5 intra-block flags.
#include <ptosim/intrinsics.hpp>
#include "launch.hpp"
#include <string>

namespace ptosim::intr {

namespace {

std::string flag_name(Pipe src, Pipe dst, int64_t ev) {
    return std::string("(") + to_string(src) + ", " + to_string(dst) + ", EVENT_ID" + std::to_string(ev) + ")";
}

void check_pipe(const SourceLoc& loc, const char* op, Pipe p, bool allow_all) {
    int v = static_cast<int>(p);
    if (v < 0 || v >= kPipeCount || (!allow_all && p == Pipe::ALL))
        fault(loc, std::string(op) + ": pipe value " + std::to_string(v) + " is not a valid pipe_t" +
                       (allow_all ? "" : " here (PIPE_ALL is only valid in pipe_barrier)"));
}

OpRecord sync_record(const char* op, Pipe pipe, const SourceLoc& loc) {
    OpRecord r;
    r.op = op;
    r.pipe = pipe;
    r.loc = loc;
    return r;
}

}  // namespace

void set_flag(const SourceLoc& loc, Pipe src, Pipe dst, int64_t ev) {
    Core& c = core();
    check_pipe(loc, "set_flag", src, false);
    check_pipe(loc, "set_flag", dst, false);
    if (ev < 0 || ev >= kEventIds)
        fault(loc, "set_flag: event id " + std::to_string(ev) + " is out of range; use EVENT_ID0..EVENT_ID7");
    dispatch(c, sync_record("set_flag", src, loc));
    uint8_t& f = c.flags[static_cast<int>(src)][static_cast<int>(dst)][ev];
    if (f)
        fault(loc, "set_flag" + flag_name(src, dst, ev) + " while the flag is still set: two set_flag without a "
                   "wait_flag between them are illegal (flags are one bit); add the missing wait_flag");
    f = 1;
}

void wait_flag(const SourceLoc& loc, Pipe src, Pipe dst, int64_t ev) {
    Core& c = core();
    check_pipe(loc, "wait_flag", src, false);
    check_pipe(loc, "wait_flag", dst, false);
    if (ev < 0 || ev >= kEventIds)
        fault(loc, "wait_flag: event id " + std::to_string(ev) + " is out of range; use EVENT_ID0..EVENT_ID7");
    dispatch(c, sync_record("wait_flag", dst, loc));
    uint8_t& f = c.flags[static_cast<int>(src)][static_cast<int>(dst)][ev];
    // Only this core sets its own flags, and it runs in program order: an
    // unset flag here can never become set, which the deadlock report names.
    block_until(c, loc, [&f] { return f != 0; },
                [src, dst, ev] { return "wait_flag" + flag_name(src, dst, ev) + " but no set_flag" + flag_name(src, dst, ev) +
                                        " preceded it on this core; it is never set"; });
    f = 0;
}

void pipe_barrier(const SourceLoc& loc, Pipe p) {
    Core& c = core();
    check_pipe(loc, "pipe_barrier", p, true);
    dispatch(c, sync_record("pipe_barrier", p, loc));
}

void set_mask_norm(const SourceLoc& loc) {
    Core& c = core();
    dispatch(c, sync_record("set_mask_norm", Pipe::S, loc));
    c.mask_norm_set = true;
}

void set_vector_mask(const SourceLoc& loc, uint64_t, uint64_t) {
    Core& c = core();
    dispatch(c, sync_record("set_vector_mask", Pipe::S, loc));
    c.vector_mask_set = true;
}

void set_ffts_base_addr(const SourceLoc& loc, uint64_t addr) {
    Core& c = core();
    dispatch(c, sync_record("set_ffts_base_addr", Pipe::S, loc));
    c.ffts_base = addr;
}

namespace {

constexpr uint32_t kCounterMax = 15;  // 4-bit hardware counters

void bump(uint32_t& n, const std::string& what, const SourceLoc& loc) {
    if (n >= kCounterMax)
        fault(loc, what + " already holds 15 unconsumed signals (the counter is 4 bits); the receiver must wait "
                          "before more signals are sent");
    ++n;
}

// Counts a signal from `from` into a barrier; when every member has signalled,
// each receiver's counter goes up by one.
void barrier_signal(Launch& l, Launch::FftsBarrier& b, const Core& from, int flag, const SourceLoc& loc) {
    size_t m = 0;
    while (b.members[m] != from.index) ++m;
    bump(b.pending[m][flag], "ffts_cross_core_sync: FFTS flag " + std::to_string(flag) + " of " + from.name() + " (pending barrier)", loc);
    for (auto& p : b.pending)
        if (p[flag] == 0) return;
    for (auto& p : b.pending) --p[flag];
    for (int r : b.receivers) {
        bump(l.ffts[r][flag], "ffts_cross_core_sync: FFTS flag " + std::to_string(flag) + " of " + l.slots()[r]->core.name(), loc);
        l.note_signal("FFTS flag " + std::to_string(flag) + " released " + l.slots()[r]->core.name());
    }
}

Launch::FftsBarrier& barrier(Launch& l, int mode, int key, std::vector<int> members, std::vector<int> receivers) {
    auto [it, fresh] = l.ffts_barriers.try_emplace({mode, key});
    if (fresh) {
        it->second.members = std::move(members);
        it->second.receivers = std::move(receivers);
        it->second.pending.assign(it->second.members.size(), {});
    }
    return it->second;
}

}  // namespace

void ffts_cross_core_sync(const SourceLoc& loc, Pipe pipe, uint64_t config) {
    Core& c = core();
    Launch& l = *c.launch;
    check_pipe(loc, "ffts_cross_core_sync", pipe, false);
    if (c.target != Target::A2A3)
        fault(loc, "ffts_cross_core_sync is an A2A3 (dav-c220) intrinsic; on A5 use set_intra_block/wait_intra_block");
    if (c.ffts_base == 0 || c.ffts_base != Device::get().ffts_ctrl_addr())
        fault(loc, "ffts_cross_core_sync before set_ffts_base_addr(addr) with the address from rtGetC2cCtrlAddr; "
                   "pass the host's FFTS address into the kernel and set it first");
    const int mode = static_cast<int>((config >> 4) & 0x3);
    const int flag = static_cast<int>((config >> 8) & 0xf);
    dispatch(c, sync_record("ffts_cross_core_sync", pipe, loc));
    l.note_signal(c.name() + " ffts_cross_core_sync(mode " + std::to_string(mode) + ", flag " + std::to_string(flag) +
                  ") at " + loc.str());
    const int g = l.slot_of(c).group;
    const bool mix = l.cores_per_group() == 3;
    auto aivs = [&] { return std::vector<int>{l.group_member(g, 1)->core.index, l.group_member(g, 2)->core.index}; };
    switch (mode) {
        case 0: {  // all cores of the sender's type in the launch
            std::vector<int> same;
            for (auto& s : l.slots())
                if (s->core.type == c.type) same.push_back(s->core.index);
            barrier_signal(l, barrier(l, 0, static_cast<int>(c.type), same, same), c, flag, loc);
            break;
        }
        case 1:  // the two Vector sub-blocks of one group
            if (c.type != CoreType::AIV || !mix)
                fault(loc, "ffts_cross_core_sync mode 1 synchronises the two Vector sub-blocks of a mix group; it "
                           "needs a mix launch (dav-c220) and a Vector core");
            barrier_signal(l, barrier(l, 1, g, aivs(), aivs()), c, flag, loc);
            break;
        case 2:  // a Cube core and its two Vector sub-blocks
            if (!mix)
                fault(loc, "ffts_cross_core_sync mode 2 synchronises a Cube core with its Vector sub-blocks; it needs "
                           "a mix launch (--cce-aicore-arch=dav-c220)");
            if (c.type == CoreType::AIC) {
                for (int r : aivs()) {
                    bump(l.ffts[r][flag], "ffts_cross_core_sync: FFTS flag " + std::to_string(flag) + " of " + l.slots()[r]->core.name(), loc);
                }
            } else {
                barrier_signal(l, barrier(l, 2, g, aivs(), {l.group_member(g, 0)->core.index}), c, flag, loc);
            }
            break;
        default:
            fault(loc, "ffts_cross_core_sync: mode " + std::to_string(mode) +
                           " in config bits 4-5 is not defined; use 0 (all cores of a type), 1 (Vector sub-blocks of a "
                           "group) or 2 (Cube and its Vector sub-blocks)");
    }
}

void wait_flag_dev(const SourceLoc& loc, int64_t flag) {
    Core& c = core();
    Launch& l = *c.launch;
    if (flag < 0 || flag >= kFftsFlags)
        fault(loc, "wait_flag_dev: flag " + std::to_string(flag) + " is out of range 0..15");
    dispatch(c, sync_record("wait_flag_dev", Pipe::S, loc));
    uint32_t& n = l.ffts[c.index][flag];
    block_until(c, loc, [&n] { return n >= 1; }, [&n, flag] {
        return "wait_flag_dev(" + std::to_string(flag) + ") needs 1 release of FFTS flag " + std::to_string(flag) +
               ", has " + std::to_string(n);
    });
    --n;
}

void set_intra_block(const SourceLoc& loc, Pipe pipe, int64_t id) {
    Core& c = core();
    Launch& l = *c.launch;
    check_pipe(loc, "set_intra_block", pipe, false);
    if (c.target != Target::A5)
        fault(loc, "set_intra_block is an A5 (dav-c310) intrinsic; on A2A3 use ffts_cross_core_sync/wait_flag_dev");
    if (l.cores_per_group() != 3)
        fault(loc, "set_intra_block signals between the Cube core and its Vector sub-blocks; it needs a mix launch "
                   "(--cce-aicore-arch=dav-c310)");
    if (id < 0 || id >= kIntraBlockFlags)
        fault(loc, "set_intra_block: flag id " + std::to_string(id) + " is out of range 0..31");
    dispatch(c, sync_record("set_intra_block", pipe, loc));
    int g = l.slot_of(c).group;
    CoreSlot* to;
    int flag;
    if (c.type == CoreType::AIC) {  // ids 16..31 address sub-block 1
        to = l.group_member(g, id < 16 ? 1 : 2);
        flag = static_cast<int>(id % 16);
    } else {  // the Cube core tells the sub-blocks apart by id + 16 * subblock
        to = l.group_member(g, 0);
        flag = static_cast<int>(id % 16 + 16 * c.subblock_id);
    }
    bump(l.intra[to->core.index][flag], "set_intra_block: intra-block flag " + std::to_string(flag) + " of " + to->core.name(), loc);
    l.note_signal(c.name() + " -> " + to->core.name() + " intra-block flag " + std::to_string(flag) + " at " + loc.str());
}

void wait_intra_block(const SourceLoc& loc, Pipe pipe, int64_t id) {
    Core& c = core();
    Launch& l = *c.launch;
    check_pipe(loc, "wait_intra_block", pipe, false);
    if (c.target != Target::A5)
        fault(loc, "wait_intra_block is an A5 (dav-c310) intrinsic; on A2A3 use ffts_cross_core_sync/wait_flag_dev");
    if (id < 0 || id >= kIntraBlockFlags)
        fault(loc, "wait_intra_block: flag id " + std::to_string(id) + " is out of range 0..31");
    dispatch(c, sync_record("wait_intra_block", pipe, loc));
    int flag = static_cast<int>(c.type == CoreType::AIC ? id : id % 16);
    uint32_t& n = l.intra[c.index][flag];
    block_until(c, loc, [&n] { return n >= 1; }, [&n, flag] {
        return "wait_intra_block(" + std::to_string(flag) + ") needs 1 signal on intra-block flag " +
               std::to_string(flag) + ", has " + std::to_string(n);
    });
    --n;
}

}  // namespace ptosim::intr
