// On-chip buffer sizes as the compile-time macros pto-isa's
// pto/common/buffer_limits.hpp defines (a kernel may predefine any of them,
// as there). The values are those of ptosim's SoC profiles for the target
// (docs/soc-profiles.md), so a kernel that sizes its tiles from them fits the
// simulated buffers; tests/test_header_surface.cpp checks the two agree.
#pragma once
#include <pto/common/type.hpp>

#ifndef PTO_UBUF_ALIGN_BYTES
#define PTO_UBUF_ALIGN_BYTES 32u
#endif
#ifndef PTO_CBUF_ALIGN_BYTES
#define PTO_CBUF_ALIGN_BYTES 32u
#endif
#ifndef PTO_L0A_ALIGN_BYTES
#define PTO_L0A_ALIGN_BYTES 32u
#endif
#ifndef PTO_L0B_ALIGN_BYTES
#define PTO_L0B_ALIGN_BYTES 32u
#endif
#ifndef PTO_L0C_ALIGN_BYTES
#define PTO_L0C_ALIGN_BYTES 32u
#endif
#ifndef PTO_BIAS_ALIGN_BYTES
#define PTO_BIAS_ALIGN_BYTES 32u
#endif
#ifndef PTO_FBUF_ALIGN_BYTES
#define PTO_FBUF_ALIGN_BYTES 32u
#endif

#if PTOSIM_DEVICE
#ifndef PTO_UBUF_SIZE_BYTES
#if PTOSIM_TARGET_A5
#define PTO_UBUF_SIZE_BYTES (256u * 1024u)
#else
#define PTO_UBUF_SIZE_BYTES (192u * 1024u)
#endif
#endif
#ifndef PTO_CBUF_SIZE_BYTES
#define PTO_CBUF_SIZE_BYTES (512u * 1024u)
#endif
#ifndef PTO_L0A_SIZE_BYTES
#define PTO_L0A_SIZE_BYTES (64u * 1024u)
#endif
#ifndef PTO_L0B_SIZE_BYTES
#define PTO_L0B_SIZE_BYTES (64u * 1024u)
#endif
#ifndef PTO_L0C_SIZE_BYTES
#if PTOSIM_TARGET_A5
#define PTO_L0C_SIZE_BYTES (256u * 1024u)
#else
#define PTO_L0C_SIZE_BYTES (128u * 1024u)
#endif
#endif
#ifndef PTO_BIAS_SIZE_BYTES
#if PTOSIM_TARGET_A5
#define PTO_BIAS_SIZE_BYTES (4u * 1024u)
#else
#define PTO_BIAS_SIZE_BYTES (1u * 1024u)
#endif
#endif
#ifndef PTO_FBUF_SIZE_BYTES
#if PTOSIM_TARGET_A5
#define PTO_FBUF_SIZE_BYTES (4u * 1024u)
#else
#define PTO_FBUF_SIZE_BYTES (2u * 1024u)
#endif
#endif
// The MX scale stores (A5 only) are a sixteenth of L0A/L0B.
#ifndef PTO_SCALELEFT_SIZE_BYTES
#define PTO_SCALELEFT_SIZE_BYTES (PTOSIM_TARGET_A5 ? 4u * 1024u : 0u)
#endif
#ifndef PTO_SCALERIGHT_SIZE_BYTES
#define PTO_SCALERIGHT_SIZE_BYTES (PTOSIM_TARGET_A5 ? 4u * 1024u : 0u)
#endif
#endif
