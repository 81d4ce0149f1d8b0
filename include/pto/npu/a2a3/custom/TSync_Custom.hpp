// pto-isa's A2A3 TSync_Custom (pto/npu/a2a3/custom/TSync_Custom.hpp): a
// Cube<->Vector handshake over one FFTS flag pair for data passed through GM.
// The producer record()s after its store and the consumer wait()s before its
// load on flag_id; the consumer free()s and the producer allocate()s on
// flag_id + 1. Written for ptosim from the names and documented behaviour.
#pragma once
#include <pto/npu/a2a3/custom/TSyncCVID.hpp>

namespace pto {

enum class SyncOpType : uint8_t { TSTORE_C2GM, TSTORE_V2GM, TLOAD };

template <SyncOpType ProducerOp, SyncOpType ConsumerOp>
struct SyncTraits {
    static constexpr bool is_cube_to_vec = ProducerOp == SyncOpType::TSTORE_C2GM;
    static constexpr bool is_vec_to_cube = ProducerOp == SyncOpType::TSTORE_V2GM;
    static_assert(ConsumerOp == SyncOpType::TLOAD, "TSync_Custom: the consumer operation must be TLOAD");
    static_assert(is_cube_to_vec || is_vec_to_cube,
                  "TSync_Custom: the producer must be TSTORE_C2GM (Cube) or TSTORE_V2GM (Vector)");
};

#if PTOSIM_DEVICE
template <SyncOpType ProducerOp, SyncOpType ConsumerOp>
struct TSync_Custom {
    using Traits = SyncTraits<ProducerOp, ConsumerOp>;
    static constexpr bool is_c2v = Traits::is_cube_to_vec;
    static constexpr bool is_v2c = Traits::is_vec_to_cube;

    uint16_t flag_id;

    // The producer's store pipe signals the data (Cube: the fixpipe; Vector: MTE3).
    PTO_INTERNAL void record(std::source_location where = std::source_location::current()) const {
        ffts_cross_core_sync(is_c2v ? PIPE_FIX : PIPE_MTE3, _getFFTSMsg(CV_CORE_SYNC, flag_id), where);
    }
    PTO_INTERNAL void wait(std::source_location where = std::source_location::current()) const {
        wait_flag_dev(flag_id, where);
    }
    PTO_INTERNAL void allocate(std::source_location where = std::source_location::current()) const {
        wait_flag_dev(flag_id + 1, where);
    }
    // The consumer's load pipe signals that the buffer may be overwritten.
    PTO_INTERNAL void free(std::source_location where = std::source_location::current()) const {
        ffts_cross_core_sync(PIPE_MTE2, _getFFTSMsg(CV_CORE_SYNC, static_cast<uint16_t>(flag_id + 1)), where);
    }
};
#endif

}  // namespace pto
