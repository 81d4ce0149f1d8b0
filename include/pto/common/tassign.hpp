// TASSIGN places a tile at a byte offset of its buffer, or points a global
// tensor at GM memory (docs/semantics.md, "TASSIGN").
#pragma once
#include <pto/common/tile.hpp>
#include <type_traits>

namespace pto {

template <class T, class AddrType>
PTO_INST void TASSIGN(T& obj, AddrType addr) {
    if constexpr (is_tile_data_v<T>) {
        static_assert(std::is_integral_v<AddrType>, "TASSIGN(tile, addr): addr is the byte offset in the tile's buffer");
        obj.assign_address(static_cast<uint64_t>(addr));
    } else {
        static_assert(is_global_data_v<T>, "TASSIGN takes a Tile or a GlobalTensor");
        static_assert(std::is_pointer_v<AddrType>, "TASSIGN(globalTensor, ptr): ptr must be a GM pointer");
        obj.set_data(const_cast<typename T::DType*>(reinterpret_cast<const typename T::DType*>(addr)));
    }
}

template <std::size_t Addr, class T>
PTO_INST void TASSIGN(T& obj) {
    static_assert(is_tile_data_v<T>, "TASSIGN<Addr>(tile) places a tile");
    static_assert(Addr % TileConfig::alignedSize == 0, "TASSIGN<Addr>: the address must be 32-byte aligned");
    obj.assign_address(Addr);
}

}  // namespace pto
