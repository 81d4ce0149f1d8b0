// pto-isa's A2A3 Cube<->Vector communication-slot helpers
// (pto/npu/a2a3/custom/TSyncCVID.hpp): the FFTS message builder for the
// cross-core sync modes, and TSYNC_CVID, with which the Cube core of a mix
// group publishes its communication slot to its Vector cores through GM.
// Written for ptosim from the names and documented behaviour; the FFTS
// message and flags are simulated (docs/semantics.md, "Cross-core flags").
#pragma once
#include <pto/pto-inst.hpp>

#ifndef FFTS_MODE_BIT_START
#define FFTS_MODE_BIT_START 4
#endif
#ifndef FFTS_FLAG_ID_BIT_START
#define FFTS_FLAG_ID_BIT_START 8
#endif

namespace pto {

// FFTS event ids 12-15 are reserved for the slot exchange.
enum CVCommFftsEvent : uint16_t { CV_COMM_CTRL = 12, CV_COMM_RSVD_13, CV_COMM_RSVD_14, CV_COMM_RSVD_15 };

constexpr int kCvCommSlotBytes = 512;
constexpr int kCvMaxCores = 25;

// ffts_cross_core_sync modes: 0 all cores of one type, 1 the two Vector
// sub-blocks of a group, 2 a Cube core and its Vector cores.
enum CVSyncMode : uint16_t { C_ALL_CORE_SYNC = 0, V_ALL_CORE_SYNC = 0, V_SUBCORES_SYNC = 1, CV_CORE_SYNC = 2 };

constexpr uint16_t _getFFTSMsg(CVSyncMode mode, uint16_t flag_id, uint16_t base_const = 0x1) {
    return static_cast<uint16_t>((base_const & 0xf) + ((mode & 0x3) << FFTS_MODE_BIT_START) +
                                 ((flag_id & 0xf) << FFTS_FLAG_ID_BIT_START));
}

#if PTOSIM_DEVICE
// The Cube core writes its slot (physical core id modulo CV_MAX_CORES) into
// the block's entry of cv_comm_buf and signals CV_COMM_CTRL; each Vector core
// waits for the signal and reads the slot. Returns the slot on both sides.
template <int CV_COMM_SLOT_BYTES = kCvCommSlotBytes, int CV_MAX_CORES = kCvMaxCores>
PTO_INTERNAL int TSYNC_CVID(int block, __gm__ uint8_t* cv_comm_buf,
                            std::source_location where = std::source_location::current()) {
    static_assert(CV_MAX_CORES > 0, "TSYNC_CVID: CV_MAX_CORES must be positive");
    if (cv_comm_buf == nullptr)
        ptosim::fault(ptosim::SourceLoc{where.file_name(), static_cast<int>(where.line())},
                      "TSYNC_CVID: cv_comm_buf is null; pass a GM buffer of CV_COMM_SLOT_BYTES per block");
    auto* slot = reinterpret_cast<volatile uint32_t*>(cv_comm_buf + static_cast<size_t>(block) * CV_COMM_SLOT_BYTES);
    if (ptosim::core().type == ptosim::CoreType::AIC) {
        const int s = static_cast<int>(get_coreid() & 0x7f) % CV_MAX_CORES;
        *slot = static_cast<uint32_t>(s);
        ffts_cross_core_sync(PIPE_MTE2, _getFFTSMsg(CV_CORE_SYNC, CV_COMM_CTRL), where);
        return s;
    }
    wait_flag_dev(CV_COMM_CTRL, where);
    return static_cast<int>(*slot);
}
#endif

}  // namespace pto
