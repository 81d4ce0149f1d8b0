// Runtime side of the CCE synchronisation intrinsics; pto/common/intrinsics.hpp
// wraps these under bisheng's names. Semantics and sources: docs/semantics.md.
#pragma once
#include <ptosim/core.hpp>

namespace ptosim::intr {
void set_flag(const SourceLoc& loc, Pipe src, Pipe dst, int64_t event);
void wait_flag(const SourceLoc& loc, Pipe src, Pipe dst, int64_t event);
void pipe_barrier(const SourceLoc& loc, Pipe pipe);
void set_mask_norm(const SourceLoc& loc);
void set_vector_mask(const SourceLoc& loc, uint64_t hi, uint64_t lo);
void set_ffts_base_addr(const SourceLoc& loc, uint64_t addr);
void ffts_cross_core_sync(const SourceLoc& loc, Pipe pipe, uint64_t config);
void wait_flag_dev(const SourceLoc& loc, int64_t flag);
void set_intra_block(const SourceLoc& loc, Pipe pipe, int64_t id);
void wait_intra_block(const SourceLoc& loc, Pipe pipe, int64_t id);

// pto-isa's EventIdCounter<Src, Dst>: hands out EVENT_ID0..7 in rotation per
// pipe pair. The counter belongs to the calling core and starts at EVENT_ID0
// in every launch (host code outside a launch gets a per-thread counter).
int64_t next_event_id(Pipe src, Pipe dst);
int64_t peek_event_id(Pipe src, Pipe dst);
void reset_event_id(Pipe src, Pipe dst);

// SYNCALL: a barrier over every core of the launch of the selected kind
// (docs/isa/sync.md, "SYNCALL").
enum class SyncAllCores { AIV, AIC, Mix };
void syncall_hard(const SourceLoc& loc, SyncAllCores who);
// The GM-polling form: each participant bumps its 32-byte slot of `workspace`
// and waits until every slot reaches its value. ub_bytes is the Vector
// scratch tile's size (it must hold every slot); used_cores 0 = all.
void syncall_soft(const SourceLoc& loc, SyncAllCores who, int32_t* workspace, uint64_t ub_bytes, int32_t used_cores);
}  // namespace ptosim::intr
